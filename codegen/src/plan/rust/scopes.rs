//! Every Rust scope where two spec items could be given one identifier, with the items in it,
//! named by the functions of [`super::names`]: validation reports a clash (E0141).

use super::names::*;
use crate::model::*;
use crate::plan::{Entry, Namespace};
use proc_macro2::Ident;
use std::borrow::Cow;

/// Every Rust scope where two spec items could be given one identifier, with the items in it.
pub fn namespaces(model: &Model) -> Vec<Namespace> {
    let mut s = Scopes::default();
    shapes(&mut s, model);
    access(&mut s, model);
    timeline_and_events(&mut s, model);
    operations(&mut s, model);
    members(&mut s, model);
    s.spec_named.extend(s.renamed_only);
    s.spec_named
}

/// The scopes found so far.
#[derive(Default)]
struct Scopes {
    /// Scopes whose identifiers `rust_name` renames.
    spec_named: Vec<Namespace>,
    /// Scopes of names that are the spec's own (never on the wire): renaming the item settles
    /// a clash. Listed after the others.
    renamed_only: Vec<Namespace>,
}

impl Scopes {
    fn add(&mut self, scope: String, entries: Vec<Entry>) {
        self.spec_named.push(Namespace { language: "Rust", override_key: "rust_name", scope, entries });
    }

    fn renamed(&mut self, scope: String, entries: Vec<Entry>) {
        self.renamed_only.push(Namespace { language: "Rust", override_key: "", scope, entries });
    }
}

/// A spec item's entry: `what` and its id.
fn item(what: &str, meta: &Meta, ident: Ident) -> Entry {
    Entry::new(ident.to_string(), format!("{what} `{}`", meta.id), meta.id_span)
}

/// A field's entry.
fn of_field(f: &Field) -> Entry {
    Entry::new(field(f).to_string(), format!("field `{}`", f.name), f.span)
}

/// The types of resources, unions, responses, headers, enums and flag sets, and their members.
fn shapes(s: &mut Scopes, model: &Model) {
    s.add("the types of `resources.rs`".into(), model.resources.iter().map(|r| shape_entry("resource", &r.meta, r.inline.as_ref(), resource(r))).collect());
    s.add("the types of `unions.rs`".into(), model.unions.iter().map(|u| shape_entry("union", &u.meta, u.inline.as_ref(), union_type(u))).collect());
    for u in &model.unions {
        let variants = u.variants.iter().map(|v| Entry::new(union_variant(v).to_string(), format!("variant `{}`", v.name), v.span));
        s.add(format!("the variants of union `{}`", u.meta.id), variants.collect());
    }
    let responses = model.responses.iter().map(|n| Entry::new(format!("{}Response", response_stem(n)), format!("response `{}`", n.id), n.id_span));
    s.renamed("the types of `responses.rs`".into(), responses.collect());
    s.add(
        "the constants of `headers.rs`".into(),
        model.headers.iter().map(|h| Entry::new(header_const(h).to_string(), format!("header `{}`", h.name), h.span)).collect(),
    );
    s.add("the types of `enums.rs`".into(), model.enums.iter().map(|e| item("enum", &e.meta, enum_type(e))).collect());
    s.add("the types of `flags.rs`".into(), model.flags.iter().map(|f| item("flag set", &f.meta, flags_type(f))).collect());
    for e in &model.enums {
        s.add(format!("the variants of enum `{}`", e.meta.id), e.values.iter().map(|v| item("value", &v.meta, enum_variant(v))).collect());
    }
    for f in &model.flags {
        s.add(format!("the constants of flag set `{}`", f.meta.id), f.values.iter().map(|v| item("flag", &v.meta, flag_const(v))).collect());
    }
}

/// Permissions, conditions, rules, scopes, intents, token kinds and placeholders.
fn access(s: &mut Scopes, model: &Model) {
    s.add("the variants of `Permission`".into(), model.permissions.iter().map(|p| item("permission", &p.meta, permission_variant(p))).collect());
    s.add(
        "the constants of `Permissions`".into(),
        model.permissions.iter().filter(|p| p.bit.is_some()).map(|p| item("permission", &p.meta, permission_const(p))).collect(),
    );
    s.add("the variants of `Condition`".into(), model.conditions.iter().map(|c| item("condition", &c.meta, condition_variant(c))).collect());
    for c in &model.conditions {
        let params = c
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| Entry::new(condition_param(p).to_string(), format!("parameter `{p}`"), c.param_spans.get(i).copied().unwrap_or(c.meta.id_span)));
        s.renamed(format!("the parameters of condition `{}`", c.meta.id), params.collect());
    }
    s.add("the constants of `rules.rs`".into(), model.permission_rules.iter().map(|r| item("permission rule", &r.meta, rule_const(r))).collect());
    s.add("the variants of `Scope`".into(), model.scopes.iter().map(|s| item("scope", &s.meta, scope_variant(s))).collect());
    s.add("the constants of `auth.rs`".into(), model.scope_sets.iter().map(|s| item("scope set", &s.meta, scope_set_const(s))).collect());
    s.add("the variants of `Intent`".into(), model.intents.iter().map(|i| item("intent", &i.meta, intent_variant(i))).collect());
    s.add("the variants of `TokenKind`".into(), model.token_kinds.iter().map(|k| item("token kind", &k.meta, token_kind_variant(k))).collect());
    s.add("the functions of `Credential`".into(), model.token_kinds.iter().map(|k| item("token kind", &k.meta, token_kind_constructor(k))).collect());
    s.add("the fields of `Placeholders`".into(), model.platform.placeholders.iter().map(|p| item("placeholder", &p.meta, placeholder(p))).collect());
}

/// Errors, changes, limits, events, opcodes, commands and state machines.
fn timeline_and_events(s: &mut Scopes, model: &Model) {
    s.add("the variants of `ErrorCode`".into(), model.errors.iter().filter(|e| e.code.is_some()).map(|e| item("error", &e.meta, error_variant(e))).collect());
    s.add("the variants of `OAuthError`".into(), model.errors.iter().filter_map(|e| Some(item("error", &e.meta, oauth_variant(e)?))).collect());
    s.add("the constants of `errors.rs`".into(), model.errors.iter().map(|e| item("error", &e.meta, error_const(e))).collect());
    s.add("the constants of `changes.rs`".into(), model.changes.iter().map(|c| item("change", &c.meta, change_const(c))).collect());
    s.add("the constants of `limits.rs`".into(), model.limits.iter().map(|l| item("limit", &l.meta, limit_const(l))).collect());
    s.add("the variants of `EventKind`".into(), model.events.iter().map(|e| item("event", &e.meta, event_variant(e))).collect());
    s.add("the types of `events.rs`".into(), model.events.iter().map(|e| item("event", &e.meta, event_payload(e))).collect());
    // A webhook's union takes its events' `EventKind` variants, distinct above.
    s.add("the types of `webhooks.rs`".into(), model.webhooks.iter().map(|w| item("webhook", &w.meta, webhook_event(w))).collect());
    s.add("the constants of `webhooks.rs`".into(), model.webhooks.iter().map(|w| item("webhook", &w.meta, webhook_const(w))).collect());
    s.add("the functions of the receivers and senders".into(), model.webhooks.iter().map(|w| item("webhook", &w.meta, webhook_fn(w))).collect());
    s.add("the types of `gateways.rs`".into(), model.gateways.iter().map(|g| item("gateway", &g.meta, gateway_event(g))).collect());
    s.add("the constants of `gateways.rs`".into(), model.gateways.iter().map(|g| item("gateway", &g.meta, gateway_const(g))).collect());
    let functions = model.gateways.iter().flat_map(|g| [gateway_fn(g), gateway_config_fn(g), gateway_with_fn(g)].map(|f| item("gateway", &g.meta, f)));
    s.add("the functions of the session clients and hubs".into(), functions.collect());
    s.add("the mock sessions of the server's `mock.rs`".into(), model.gateways.iter().map(|g| item("gateway", &g.meta, gateway_mock(g))).collect());
    s.add("the shard types of the session clients".into(), model.gateways.iter().map(|g| item("gateway", &g.meta, gateway_shard(g))).collect());
    s.add("the variants of `Opcode`".into(), model.opcodes.iter().map(|o| item("opcode", &o.meta, opcode_variant(o))).collect());
    s.add("the variants of `Command`".into(), model.commands.iter().map(|c| item("command", &c.meta, command_variant(c))).collect());
    let aliases = model.commands.iter().flat_map(|c| {
        c.aliases
            .iter()
            .map(move |a| Entry::new(command_alias_const(a).to_string(), format!("alias `{}` of command `{}`", a.meta.id, c.meta.id), a.meta.id_span))
    });
    s.add("the constants of `Command`".into(), aliases.collect());
    let machines = model.state_machines.iter().flat_map(|m| {
        let transitions = (!m.transitions.is_empty()).then(|| item("state machine", &m.meta, machine_transitions(m)));
        std::iter::once(item("state machine", &m.meta, machine(m))).chain(transitions)
    });
    s.add("the types of `states.rs`".into(), machines.collect());
    for m in &model.state_machines {
        s.add(format!("the states of `{}`", m.meta.id), m.states.iter().map(|s| item("state", &s.meta, state(s))).collect());
        s.add(format!("the transitions of `{}`", m.meta.id), m.transitions.iter().map(|t| item("transition", &t.meta, transition(t))).collect());
    }
}

/// Endpoint modules, the server's operations, router functions and `Api` methods, deprecations and the client's methods.
fn operations(s: &mut Scopes, model: &Model) {
    s.add("the modules of `endpoints.rs`".into(), model.endpoints.iter().map(|e| item("endpoint", &e.meta, endpoint_module(e))).collect());
    s.add("the variants of the server's `Operation`".into(), model.routed_endpoints().map(|e| item("endpoint", &e.meta, endpoint_variant(e))).collect());
    s.add("the functions of the server's `router.rs`".into(), router_functions(model));
    s.add("the constants of `deprecations.rs`".into(), deprecation_consts(model));
    s.add("the methods of the client".into(), client_methods(model));
    s.add("the variants of the client's `Declared`".into(), declared_variants(model));
    s.add("the methods of the server's `Api` trait".into(), api_methods(model));
    streams(s, model);
}

/// The variants of each stream's events: named after the events, which have no `rust_name`, so
/// a clash is settled by naming the events apart.
fn streams(s: &mut Scopes, model: &Model) {
    let inline = model.endpoints.iter().flat_map(|e| e.responses.iter().map(move |r| (e, r))).filter_map(|(e, r)| match &r.response {
        ResponseUse::Inline(body) => Some((format!("the `{}` response of `{}`", r.status.id, e.meta.id), &**body)),
        ResponseUse::Named(_) => None,
    });
    let named = model.responses.iter().map(|n| (format!("the response `{}`", n.id), &n.response));
    for (what, r) in inline.chain(named).filter(|(_, r)| !r.events.is_empty()) {
        let entries = r.events.iter().map(|e| Entry::new(stream_event_variant(e).to_string(), format!("event `{}`", e.name), e.span));
        s.renamed(format!("the events of {what}"), entries.collect());
    }
}

/// The client's methods: one per routed endpoint, and a paginated one's streams.
fn client_methods(model: &Model) -> Vec<Entry> {
    let mut out = Vec::new();
    for e in model.routed_endpoints() {
        out.push(item("endpoint", &e.meta, client_method(e)));
        if e.pagination.is_some() {
            out.push(item("endpoint", &e.meta, client_pages_method(e)));
            out.push(item("endpoint", &e.meta, client_stream_method(e)));
        }
        if model.stream_of(e).is_some() {
            out.push(item("endpoint", &e.meta, client_open_method(e)));
        }
    }
    out
}

/// The client's `Declared` variants: each error response with a payload a routed endpoint
/// declares, once (a named one by its id, an inline one by its endpoint and status).
fn declared_variants(model: &Model) -> Vec<Entry> {
    let entry = |d: super::DeclaredError| match &d.response.response {
        ResponseUse::Named(id) => Entry::new(d.variant, format!("response `{}`", id.id), id.span),
        ResponseUse::Inline(_) => {
            Entry::new(d.variant, format!("the `{}` response of endpoint `{}`", d.response.status.id, d.endpoint.meta.id), d.response.status.span)
        }
    };
    super::declared_errors(model).into_iter().map(entry).collect()
}

/// The fields of every struct, the associated items of resources and events, and gates.
fn members(s: &mut Scopes, model: &Model) {
    for (what, list) in field_lists(model) {
        s.add(what, list.iter().map(of_field).collect());
    }
    for r in &model.resources {
        s.add(format!("the associated items of resource `{}`", r.meta.id), associated_items(&r.fields, &r.cases));
    }
    for e in &model.events {
        s.add(format!("the associated items of event `{}`", e.meta.id), associated_items(&e.fields, &e.cases));
    }
    for e in &model.endpoints {
        s.add(format!("the fields of `Gates` of endpoint `{}`", e.meta.id), e.behaviours.iter().map(|b| item("behaviour", &b.meta, gate(b))).collect());
    }
}

/// The associated items of the struct of `fields` with `cases`: literal constants, and each
/// case's rule constant, literal constants and check.
fn associated_items(fields: &[Field], cases: &[Case]) -> Vec<Entry> {
    let mut out: Vec<Entry> =
        fields.iter().filter(|f| f.literal.is_some()).map(|f| Entry::new(literal_const(f).to_string(), format!("field `{}`", f.name), f.span)).collect();
    out.extend(fields.iter().filter(|f| f.defaulted()).map(|f| Entry::new(default_fn(f).to_string(), format!("the default of field `{}`", f.name), f.span)));
    for c in cases {
        let what = format!("case `{}`", c.meta.id);
        out.push(Entry::new(case_const(c).to_string(), what.clone(), c.meta.id_span));
        out.push(Entry::new(case_check(c).to_string(), what.clone(), c.meta.id_span));
        for fact in c.fields.iter().filter(|fact| fact.literal.is_some()) {
            if let Some(f) = fields.iter().find(|f| f.name == fact.field.id) {
                out.push(Entry::new(case_literal(c, f).to_string(), format!("the literal of `{}` in case `{}`", f.name, c.meta.id), fact.field.span));
            }
        }
    }
    out
}

/// A shape's entry: a declared one by its id, one written inline by its path (its id is made
/// from the path, so the path is what the reader finds in the spec).
fn shape_entry(kind: &str, meta: &Meta, inline: Option<&String>, ident: Ident) -> Entry {
    let what = match inline {
        Some(path) => format!("the {kind} written at `{path}`"),
        None => format!("{kind} `{}`", meta.id),
    };
    Entry::new(ident.to_string(), what, meta.id_span)
}

/// The router's functions: each routed endpoint's handler and worker, and a handler per alias
/// route.
fn router_functions(model: &Model) -> Vec<Entry> {
    let mut out = Vec::new();
    for e in model.routed_endpoints() {
        out.push(item("endpoint", &e.meta, handler(e)));
        out.push(item("the worker of endpoint", &e.meta, inner_handler(e)));
        for a in &e.aliases {
            out.push(Entry::new(alias_handler(e, a).to_string(), format!("alias `{}` of endpoint `{}`", a.meta.id, e.meta.id), a.meta.id_span));
        }
    }
    out
}

/// The constants of deprecated endpoints, alias routes and behaviours.
fn deprecation_consts(model: &Model) -> Vec<Entry> {
    let mut out = Vec::new();
    for e in model.endpoints.iter() {
        let id = e.meta.rust();
        if e.meta.deprecated.is_some() {
            out.push(Entry::new(deprecation_const("endpoint", &[id]).to_string(), format!("endpoint `{}`", e.meta.id), e.meta.id_span));
        }
        for a in e.aliases.iter().filter(|a| a.meta.deprecated.is_some()) {
            out.push(Entry::new(
                deprecation_const("alias", &[id, a.meta.rust()]).to_string(),
                format!("alias `{}` of endpoint `{}`", a.meta.id, e.meta.id),
                a.meta.id_span,
            ));
        }
        for b in e.behaviours.iter().filter(|b| b.meta.deprecated.is_some()) {
            out.push(Entry::new(
                deprecation_const("behaviour", &[id, b.meta.rust()]).to_string(),
                format!("behaviour `{}` of endpoint `{}`", b.meta.id, e.meta.id),
                b.meta.id_span,
            ));
        }
    }
    out
}

/// The trait's methods: one per routed endpoint, condition and run-time bound.
fn api_methods(model: &Model) -> Vec<Entry> {
    let mut out: Vec<Entry> = model.routed_endpoints().map(|e| item("endpoint", &e.meta, api_method(e))).collect();
    out.extend(model.conditions.iter().map(|c| item("condition", &c.meta, api_hook(c))));
    for e in model.routed_endpoints() {
        for f in e.path_params.iter().chain(&e.query).chain(&e.body).chain(e.body_schema.iter()) {
            for (_, bound) in f.constraints.all() {
                // An unknown endpoint is reported by validation.
                if let Bound::Field { endpoint, field, .. } = bound
                    && let Some(target) = model.endpoint(&endpoint.id)
                {
                    let ident = api_bound_hook(target, field);
                    let entry = Entry::new(ident.to_string(), format!("the bound `{}.{field}`", endpoint.id), endpoint.span);
                    if !out.iter().any(|o| o.ident == entry.ident && o.what == entry.what) {
                        out.push(entry);
                    }
                }
            }
        }
    }
    out
}

/// Every list of fields that becomes one struct, with the struct's description.
fn field_lists(model: &Model) -> Vec<(String, Cow<'_, [Field]>)> {
    let mut out: Vec<(String, Cow<'_, [Field]>)> = Vec::new();
    out.extend(model.resources.iter().map(|r| (format!("the fields of resource `{}`", r.meta.id), Cow::from(&r.fields[..]))));
    out.extend(model.events.iter().map(|e| (format!("the fields of event `{}`", e.meta.id), Cow::from(&e.fields[..]))));
    out.extend(model.opcodes.iter().map(|o| (format!("the fields of opcode `{}`", o.meta.id), Cow::from(&o.fields[..]))));
    for e in &model.endpoints {
        let id = &e.meta.id;
        out.push((format!("the path parameters of endpoint `{id}`"), Cow::from(&e.path_params[..])));
        out.push((format!("the query parameters of endpoint `{id}`"), Cow::from(&e.query[..])));
        out.push((format!("the header parameters of endpoint `{id}`"), Cow::from(&e.headers[..])));
        out.push((format!("the body of endpoint `{id}`"), Cow::from(&e.body[..])));
        out.push((format!("the multipart parts of endpoint `{id}`"), Cow::from(&e.parts[..])));
        out.push((format!("the response fields of endpoint `{id}`"), Cow::from(&e.response_fields[..])));
        for r in &e.responses {
            if let ResponseUse::Inline(response) = &r.response {
                let at = format!("the `{}` response of endpoint `{id}`", r.status.id);
                out.push((format!("the fields of {at}"), Cow::from(&response.fields[..])));
                out.push((format!("the headers of {at}"), Cow::from(model.header_fields(response))));
            }
        }
    }
    for n in &model.responses {
        out.push((format!("the fields of response `{}`", n.id), Cow::from(&n.response.fields[..])));
        out.push((format!("the headers of response `{}`", n.id), Cow::from(model.header_fields(&n.response))));
    }
    if let Some(b) = &model.error_body {
        out.push(("the fields of the error body".into(), Cow::from(&b.fields[..])));
    }
    out
}
