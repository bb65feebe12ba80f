//! Gaps and assumptions: a facet is given, or declared not shown, never silently missing.

use super::refs::{all_fields, all_metas};
use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::field_keys;
use crate::model::*;

/// Facet names `not_shown` and `assumed` may use.
pub const FACETS: &[&str] = &[
    "method",
    "path",
    "request_body",
    "response",
    "parameters",
    "bit",
    "value",
    "values",
    "fields",
    "members",
    "payload",
    "name",
    "code",
    "status",
    "message",
    "states",
    "transitions",
    "type",
    "header_scheme",
    "rate_limits",
    "delivery",
    "structure",
    "versions",
    "hosts",
    "details",
    "id",
    "effective",
    "scheme",
    "example",
    "default",
    "availability",
    "envelope",
    "verification",
    "ping",
    "retry",
    "ack_deadline",
    "events",
    "format",
    "unit",
    "url",
    "roles",
    "heartbeat_interval",
    "identify_token",
    "ready",
    "resume",
    "close_codes",
    "send_limit",
    "identify_limit",
];

/// A required or checkable facet of one item: its name, whether it is given, whether the
/// item kind requires it.
struct Facet {
    name: &'static str,
    given: bool,
    required: bool,
}

const fn facet(name: &'static str, given: bool, required: bool) -> Facet {
    Facet { name, given, required }
}

/// The facets each item kind can be checked for, with the item's meta and a label for messages.
fn checked_items(model: &Model) -> Vec<(&'static str, &Meta, Vec<Facet>)> {
    let mut out = Vec::new();
    for p in &model.permissions {
        out.push(("permission", &p.meta, vec![facet("bit", p.bit.is_some(), true)]));
    }
    for e in &model.endpoints {
        let body = !e.body.is_empty() || e.body_schema.is_some() || !e.parts.is_empty();
        let response = e.response.is_some() || !e.response_fields.is_empty() || e.has_status_responses();
        out.push((
            "endpoint",
            &e.meta,
            vec![
                facet("method", e.method.is_some(), true),
                facet("path", e.path.is_some(), true),
                facet("request_body", body, false),
                facet("response", response, false),
            ],
        ));
    }
    for e in &model.enums {
        out.push(("enum", &e.meta, vec![facet("values", !e.values.is_empty(), true), facet("repr", e.repr_span.is_some(), false)]));
        for v in &e.values {
            out.push(("enum value", &v.meta, vec![facet("value", v.value.is_some(), e.repr == "integer")]));
        }
    }
    for f in &model.flags {
        out.push(("flag set", &f.meta, vec![facet("values", !f.values.is_empty(), false)]));
        for v in &f.values {
            out.push(("flag", &v.meta, vec![facet("bit", v.bit.is_some(), true)]));
        }
    }
    for e in &model.errors {
        out.push((
            "error",
            &e.meta,
            vec![
                facet("status", e.status.is_some(), true),
                facet("code", e.code.is_some() || e.oauth_error.is_some(), false),
                facet("message", e.message.is_some(), false),
            ],
        ));
    }
    for e in &model.events {
        out.push(("event", &e.meta, vec![facet("payload", !e.fields.is_empty(), true), facet("code", e.code.is_some(), false)]));
    }
    for w in &model.webhooks {
        out.push((
            "webhook",
            &w.meta,
            vec![
                facet("envelope", w.envelope.is_some(), true),
                facet("verification", w.verification.is_some(), true),
                facet("events", !w.events.is_empty(), false),
                facet("ping", w.ping.is_some(), false),
                facet("retry", w.retry.is_some(), false),
                facet("ack_deadline", w.ack_seconds.is_some(), false),
            ],
        ));
    }
    for g in &model.gateways {
        out.push((
            "gateway",
            &g.meta,
            vec![
                facet("url", g.url.is_some(), false),
                facet("envelope", g.envelope.is_some(), true),
                facet("roles", g.roles.is_some(), true),
                facet("heartbeat_interval", g.heartbeat_interval.is_some(), true),
                facet("identify_token", g.identify_token.is_some(), true),
                facet("ready", g.ready.is_some(), true),
                facet("resume", g.resume.is_some(), true),
                facet("close_codes", !g.close_codes.is_empty(), true),
                facet("send_limit", g.send_limit.is_some(), false),
                facet("identify_limit", g.identify_limit.is_some(), false),
                facet("events", !g.events.is_empty(), false),
            ],
        ));
    }
    for c in &model.classes {
        out.push(("class", &c.meta, vec![facet("members", !c.fields.is_empty() || !c.methods.is_empty(), true)]));
    }
    for m in &model.state_machines {
        out.push(("state machine", &m.meta, vec![facet("states", !m.states.is_empty(), true), facet("transitions", !m.transitions.is_empty(), true)]));
    }
    for r in &model.resources {
        out.push(("resource", &r.meta, vec![facet("fields", !r.fields.is_empty(), false)]));
    }
    for t in &model.token_kinds {
        out.push(("token kind", &t.meta, vec![facet("scheme", t.scheme.is_some(), false)]));
    }
    out
}

/// `not_shown` names facets from the known vocabulary, so a typo cannot hide a gap.
pub fn check_facet_names(cx: &mut Diagnostics, model: &Model) {
    let mut check = |facet: &str, span: Span| {
        if !FACETS.contains(&facet) {
            cx.push(
                Diagnostic::error(codes::UNKNOWN_FACET, format!("unknown facet `{facet}`"))
                    .at(span, "not a facet")
                    .suggest(facet, FACETS.iter().copied())
                    .help("use a facet from the vocabulary in docs/spec-format.md, or `{facet: details, detail: \"...\"}`"),
            );
        }
    };
    // `assumed` keys name whatever key of the item carries the assumed value (`status`,
    // `variants`, `body_format`), so only `not_shown` is held to the vocabulary.
    for meta in all_metas(model) {
        meta.not_shown.iter().for_each(|g| check(&g.facet, g.span));
    }
    for f in all_fields(model) {
        f.not_shown.iter().for_each(|g| check(&g.facet, g.span));
    }
}

/// A facet cannot be both given and declared not shown: one of the two is wrong. A gap with a
/// `detail` is partial (`{facet: fields, detail: "fields beyond those given"}`) and may sit
/// beside the part that is given.
pub fn check_given_and_not_shown(cx: &mut Diagnostics, model: &Model) {
    for (kind, meta, facets) in checked_items(model) {
        for f in facets.iter().filter(|f| f.given) {
            if let Some(gap) = meta.not_shown.iter().find(|g| g.facet == f.name && g.detail.is_none()) {
                cx.push(
                    Diagnostic::error(codes::GIVEN_AND_NOT_SHOWN, format!("{kind} `{}` gives `{}` and declares it not shown", meta.id, f.name))
                        .at(gap.span, "declared not shown here")
                        .also(meta.id_span, "in this item")
                        .help(format!("remove `{}` from `not_shown`, or remove the value if the source does not give it", f.name)),
                );
            }
        }
    }
    for field in all_fields(model) {
        if field.ty.is_some()
            && let Some(gap) = field.not_shown.iter().find(|g| g.facet == "type")
        {
            cx.push(
                Diagnostic::error(codes::GIVEN_AND_NOT_SHOWN, format!("field `{}` gives `type` and declares it not shown", field.name))
                    .at(gap.span, "declared not shown here")
                    .help("remove `type` from `not_shown`, or mark the type `assumed` with a reason"),
            );
        }
    }
}

/// A facet every artifact needs (a permission's bit, an endpoint's method and path, ...) is
/// given, or the spec says the source does not show it.
pub fn check_required_facets(cx: &mut Diagnostics, model: &Model) {
    for (kind, meta, facets) in checked_items(model) {
        for f in facets.iter().filter(|f| f.required && !f.given) {
            if !meta.is_not_shown(f.name) {
                cx.push(
                    Diagnostic::error(codes::MISSING_FACET, format!("{kind} `{}` has no `{}`", meta.id, f.name))
                        .at(meta.id_span, format!("`{}` missing", f.name))
                        .help(format!("give `{}`, or add `not_shown: [{}]` if the source does not show it", f.name, f.name)),
                );
            }
        }
    }
    for field in all_fields(model) {
        if field.ty.is_none() && !field.not_shown.iter().any(|g| g.facet == "type") {
            cx.push(
                Diagnostic::error(codes::MISSING_FACET, format!("field `{}` has no `type`", field.name))
                    .at(field.span, "`type` missing")
                    .help("give `type`, or add `not_shown: [type]` if the source does not show it"),
            );
        }
    }
}

/// Whether a field writes the value of `key` (its name always exists: it is the map key).
fn field_gives(f: &Field, key: &str) -> bool {
    match key {
        "name" => true,
        "type" => f.ty.is_some(),
        "optional" => f.optional_span.is_some(),
        "nullable" => f.nullable,
        "wire_name" => f.wire_name.is_some(),
        "default" => f.default.is_some(),
        "literal" => f.literal.is_some(),
        "required_when" => f.required_when.is_some(),
        "requires_scope" => f.requires_scope.is_some(),
        key => f.constraints.all().iter().any(|(k, _)| *k == key),
    }
}

/// An assumption explains a value the spec gives; an assumed facet with no value is a gap
/// dressed as an assumption. On a field, an assumed presence must be written (`optional:`), so
/// the reader sees the value the assumption is about.
pub fn check_assumed_given(cx: &mut Diagnostics, model: &Model) {
    for f in all_fields(model) {
        for (key, span) in f.assumed.keys().zip(&f.assumed_spans) {
            if field_keys().contains(&key.as_str()) && !field_gives(f, key) {
                cx.push(
                    Diagnostic::error(codes::ASSUMED_NOT_GIVEN, format!("field `{}` assumes `{key}` but does not write it", f.name))
                        .at(*span, "assumption without a written value")
                        .help(format!("write the assumed `{key}:` on the field (`optional: false` for an assumed requirement), or drop the assumption")),
                );
            }
        }
    }
    for (kind, meta, facets) in checked_items(model) {
        for (facet, span) in meta.assumed.keys().zip(&meta.assumed_spans) {
            if facets.iter().any(|f| f.name == facet && !f.given) {
                cx.push(
                    Diagnostic::error(codes::ASSUMED_NOT_GIVEN, format!("{kind} `{}` assumes `{facet}` but gives no value for it", meta.id))
                        .at(*span, "assumption without a value")
                        .help(format!("give the assumed `{facet}`, or declare it `not_shown` instead")),
                );
            }
        }
    }
}

/// `assumed:` names the key of its item that carries the assumed value (`status`, `body_format`,
/// `variants`); a key the item does not have marks nothing, and the docs would show no mark
/// beside the value it meant. Fields may also name `name` (their key in the map).
pub fn check_assumed_keys(cx: &mut Diagnostics, model: &Model) {
    let mut check = |what: &str, owner: &str, key: &str, span: Span, keys: &[&str]| {
        let allowed = keys.iter().copied().filter(|k| !NOT_ASSUMABLE.contains(k));
        if !keys.contains(&key) || NOT_ASSUMABLE.contains(&key) {
            let mut d = Diagnostic::error(codes::UNKNOWN_ASSUMED_KEY, format!("{what} `{owner}` assumes `{key}`, which is not one of its keys"))
                .at(span, "names no key of this item")
                .suggest(key, allowed.clone());
            // `format` for `body_format`: a key one of whose words is the one written.
            if d.help.is_empty()
                && let Some(whole) = allowed.clone().find(|k| k.split('_').any(|word| word == key))
            {
                d = d.help(format!("did you mean `{whole}`?"));
            }
            cx.push(
                d.help(format!("name the key that carries the assumed value: one of {}", allowed.map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))),
            );
        }
    };
    for meta in all_metas(model) {
        for (key, span) in meta.assumed.keys().zip(&meta.assumed_spans) {
            check("item", &meta.id, key, *span, meta.keys);
        }
    }
    for f in all_fields(model) {
        for (key, span) in f.assumed.keys().zip(&f.assumed_spans) {
            check("field", &f.name, key, *span, field_keys());
        }
    }
    if let Some(b) = &model.error_body {
        let keys = crate::load::keys_of::<crate::load::raw::ErrorBody>();
        b.assumed.keys().zip(&b.assumed_spans).for_each(|(k, s)| check("item", "error_body", k, *s, keys));
    }
    if let Some(a) = &model.authorization_server {
        let keys = crate::load::keys_of::<crate::load::raw::AuthorizationServer>();
        a.assumed.keys().zip(&a.assumed_spans).for_each(|(k, s)| check("item", "authorization_server", k, *s, keys));
    }
}

/// Keys that hold honesty marks and prose rather than values: nothing to assume.
const NOT_ASSUMABLE: &[&str] = &["assumed", "not_shown", "notes", "description"];

/// A field whose name the spec made up (`assumed: { name: ... }`) cannot have a presence the
/// source states: it writes `optional:` and marks that assumed too, so silence never turns an
/// invented field into a required one.
pub fn check_assumed_name_presence(cx: &mut Diagnostics, model: &Model) {
    for f in all_fields(model) {
        let Some(i) = f.assumed.get_index_of("name") else { continue };
        if f.optional_span.is_none() || !f.assumed.contains_key("optional") {
            cx.push(
                Diagnostic::error(codes::ASSUMED_NAME_PRESENCE, format!("field `{}` has an assumed name but its presence is not assumed", f.name))
                    .at(f.assumed_spans[i], "the name is assumed here")
                    .help("write `optional: true` or `optional: false` and add `optional:` to `assumed:` with the reason"),
            );
        }
    }
}
