//! The HTTP API: routes (method and path), request and response formats, behaviours, and the
//! errors endpoints return.

use super::{B, C, Cx, Subject, U, pair, some};
use crate::diff::Audiences;
use crate::model::*;

rule!(
    "http",
    ENDPOINT_METHOD_CHANGED,
    "endpoint-method-changed",
    "an endpoint answers another HTTP method",
    ["rename", "removal"],
    Info,
    "oasdiff `api-removed-without-deprecation` (the old operation is gone)"
);
rule!(
    "http",
    ENDPOINT_PATH_CHANGED,
    "endpoint-path-changed",
    "an endpoint moves to another path (compatible while an alias keeps the old one)",
    ["rename", "removal"],
    Info,
    "oasdiff `api-path-removed-without-deprecation`"
);
rule!(
    "http",
    ENDPOINT_UNROUTED,
    "endpoint-unrouted",
    "an endpoint loses its route (its method or path is no longer given)",
    ["removal", "correction"],
    Info,
    "oasdiff `api-removed-without-deprecation`"
);
rule!(
    "http",
    ENDPOINT_ROUTED,
    "endpoint-routed",
    "an endpoint gets a route: the server trait and the client gain a method",
    ["addition", "correction"],
    Info,
    "oasdiff `endpoint-added` (info); cargo-semver-checks `trait_method_added` (not for a method with a default body)"
);
rule!(
    "http",
    ENDPOINT_RESPONSE_CHANGED,
    "endpoint-response-changed",
    "an endpoint's response type changes",
    ["shape"],
    Info,
    "oasdiff `response-body-type-changed`; smithy-diff `ChangedMemberTarget` (output)"
);
rule!(
    "http",
    ENDPOINT_BODY_FORMAT_CHANGED,
    "endpoint-body-format-changed",
    "the body format clients send by default changes, and the old one is still accepted",
    ["shape"],
    Info,
    "oasdiff `request-body-media-type-added` (info: the old one stays)"
);
rule!(
    "http",
    ENDPOINT_BODY_FORMAT_ADDED,
    "endpoint-body-format-added",
    "an endpoint accepts its body in a format (media type) it did not",
    ["addition", "shape"],
    Info,
    "oasdiff `request-body-media-type-added` (info)"
);
rule!(
    "http",
    ENDPOINT_BODY_FORMAT_REMOVED,
    "endpoint-body-format-removed",
    "an endpoint stops accepting its body in a format (media type)",
    ["removal", "deprecation", "shape"],
    Info,
    "oasdiff `request-body-media-type-removed` (error)"
);
rule!(
    "http",
    ENDPOINT_RESPONSE_FORMAT_CHANGED,
    "endpoint-response-format-changed",
    "an endpoint answers in another media type",
    ["shape"],
    Info,
    "oasdiff `response-media-type-removed`"
);
rule!(
    "http",
    BEHAVIOUR_ADDED,
    "behaviour-added",
    "an endpoint behaves in a way it did not (filters, orders or refuses differently)",
    ["behavior"],
    Info,
    "the dated-change notes' `visibility-filter-changed`: behaviour no schema shows, so no schema differ sees it"
);
rule!(
    "http",
    BEHAVIOUR_REMOVED,
    "behaviour-removed",
    "an endpoint stops behaving in a way it did",
    ["behavior", "removal"],
    Info,
    "the dated-change notes' `visibility-filter-changed`"
);
rule!(
    "http",
    BEHAVIOUR_GATE_CHANGED,
    "behaviour-gate-changed",
    "a behaviour gains or loses its runtime gate, which handlers receive",
    ["behavior"],
    Info,
    "cargo-semver-checks (the handler's `Call` type changes)"
);
rule!(
    "http",
    ERROR_CODE_CHANGED,
    "error-code-changed",
    "an error keeps its id and gets another numeric code",
    [],
    Info,
    "buf `ENUM_VALUE_SAME_NAME` (codes identify errors)"
);
rule!(
    "http",
    ERROR_STATUS_CHANGED,
    "error-status-changed",
    "an error is answered with another HTTP status",
    ["behavior", "shape"],
    Info,
    "oasdiff `response-success-status-removed` / `response-non-success-status-removed`; smithy-diff `TraitBreakingChange` (the `httpError` trait)"
);
rule!(
    "http",
    ERROR_OAUTH_ERROR_CHANGED,
    "error-oauth-error-changed",
    "an error carries another OAuth2 error string",
    ["behavior", "shape"],
    Info,
    "oasdiff `response-property-enum-value-removed` (of the error member)"
);
rule!(
    "http",
    ENDPOINT_ERROR_ADDED,
    "endpoint-error-added",
    "an endpoint may return an error it did not: clients may not handle it",
    ["behavior"],
    Warning,
    "oasdiff `response-non-success-status-added` (info); smithy-diff `AddedOperationError` (warning)"
);

rule!(
    "http",
    ENDPOINT_PAGINATION_REMOVED,
    "endpoint-pagination-removed",
    "an endpoint stops paging: callers that follow its cursor or key break, and the client loses its page streams",
    ["removal", "shape"],
    Info,
    "cargo-semver-checks `inherent_method_missing` (the `_pages` and `_stream` methods)"
);
rule!(
    "http",
    ENDPOINT_PAGINATION_CHANGED,
    "endpoint-pagination-changed",
    "an endpoint pages another way (another cursor, key, parameter or items member)",
    ["shape"],
    Info,
    "oasdiff `request-parameter-removed` (the old cursor parameter stops meaning the next page)"
);
rule!(
    "http",
    ENDPOINT_PAGINATION_ADDED,
    "endpoint-pagination-added",
    "an endpoint pages: the client gains page streams",
    ["addition"],
    Info,
    "cargo-semver-checks (inherent methods added: minor)"
);

pub fn check(cx: &mut Cx<'_>) {
    check_routes(cx);
    check_formats(cx);
    check_pagination(cx);
    check_behaviours(cx);
    check_errors(cx);
}

fn subject(o: &Endpoint, n: &Endpoint) -> Subject {
    Subject::item("endpoint", &n.meta.id, &[], Some(&o.meta), Some(&n.meta))
}

/// Routes: an endpoint that keeps its id and changes method or path is no longer where clients
/// call it, unless an alias still answers the old route.
fn check_routes(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.endpoints, &new.endpoints, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = subject(o, n);
        let text = |r: &Option<Text>| r.as_ref().map(|r| r.id.clone());
        match (o.is_routed(), n.is_routed()) {
            (true, false) => {
                let route = |e: &Endpoint| format!("{} {}", text(&e.method).unwrap_or_default(), text(&e.path).unwrap_or_default());
                cx.push(&ENDPOINT_UNROUTED, &s, Audiences::new(B, B, U), format!("endpoint `{id}` loses its route"), some(route(o)), None);
                continue;
            }
            (false, true) => {
                let route = format!("{} {}", text(&n.method).unwrap_or_default(), text(&n.path).unwrap_or_default());
                // The server trait's method for it has a default body (501): compatible.
                cx.push(&ENDPOINT_ROUTED, &s, Audiences::new(C, C, U), format!("endpoint `{id}` gets a route"), None, some(route));
                continue;
            }
            (false, false) => continue,
            (true, true) => {}
        }
        let (om, nm, op, np) = (text(&o.method), text(&n.method), text(&o.path), text(&n.path));
        let aliased =
            n.aliases.iter().any(|a| a.path.id == op.clone().unwrap_or_default() && a.method.as_ref().map_or(nm.clone(), |m| Some(m.id.clone())) == om);
        if om != nm {
            cx.push(
                &ENDPOINT_METHOD_CHANGED,
                &s.child(".method"),
                Audiences::new(if aliased { C } else { B }, C, U),
                format!("endpoint `{id}` answers another method"),
                om.clone(),
                nm.clone(),
            );
        }
        if op != np {
            let message =
                if aliased { format!("endpoint `{id}` moves; an alias keeps the old path") } else { format!("endpoint `{id}` moves to another path") };
            cx.push(&ENDPOINT_PATH_CHANGED, &s.child(".path"), Audiences::new(if aliased { C } else { B }, C, U), message, op, np);
        }
    }
}

fn check_formats(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.endpoints, &new.endpoints, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = subject(o, n);
        if o.response.is_some() && o.response != n.response {
            let show = |t: &Option<TypeRef>| t.as_ref().map(ToString::to_string);
            cx.push(
                &ENDPOINT_RESPONSE_CHANGED,
                &s.child(".response"),
                Audiences::new(B, B, U),
                format!("the response of endpoint `{id}` changes type"),
                show(&o.response),
                show(&n.response),
            );
        }
        check_body_formats(cx, &s.child(".body_format"), o, n);
        if o.response_format != n.response_format {
            cx.push(
                &ENDPOINT_RESPONSE_FORMAT_CHANGED,
                &s.child(".response_format"),
                Audiences::new(B, B, U),
                format!("endpoint `{id}` answers in another media type"),
                some(&o.response_format),
                some(&n.response_format),
            );
        }
    }
}

/// Pagination: what the next request carries, from what, and where the items are. Paging is
/// something callers build loops on, so every change to it but its addition breaks them.
fn check_pagination(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    let describe = |p: &Pagination| serde_json::to_string(p).unwrap_or_default();
    for (o, n) in pair(&old.endpoints, &new.endpoints, |e| e.meta.id.clone()).both {
        let (id, s) = (&n.meta.id, subject(o, n).child(".pagination"));
        match (&o.pagination, &n.pagination) {
            (Some(op), None) => {
                let message = format!("endpoint `{id}` stops paging");
                cx.push(&ENDPOINT_PAGINATION_REMOVED, &s, Audiences::new(B, B, U), message, some(describe(op)), None);
            }
            (None, Some(np)) => {
                let message = format!("endpoint `{id}` pages");
                cx.push(&ENDPOINT_PAGINATION_ADDED, &s, Audiences::new(C, C, U), message, None, some(describe(np)));
            }
            (Some(op), Some(np)) if describe(op) != describe(np) => {
                let message = format!("endpoint `{id}` pages another way");
                cx.push(&ENDPOINT_PAGINATION_CHANGED, &s, Audiences::new(B, C, U), message, some(describe(op)), some(describe(np)));
            }
            _ => {}
        }
    }
}

/// The formats an endpoint accepts its body in, compared as a set, and the one clients send
/// by default (the first). A JSON body of another media type (`body_media_type`) is another
/// format: the server takes it by that `Content-Type` alone.
fn check_body_formats(cx: &mut Cx<'_>, s: &Subject, o: &Endpoint, n: &Endpoint) {
    let id = &n.meta.id;
    let named = |e: &Endpoint, f: &str| match (f, &e.body_media_type) {
        ("json", Some(m)) => format!("json ({})", m.id),
        _ => f.to_owned(),
    };
    let formats =
        |e: &Endpoint| if e.body_formats.is_empty() { vec![named(e, "json")] } else { e.body_formats.iter().map(|f| named(e, &f.id)).collect::<Vec<_>>() };
    let (was, is) = (formats(o), formats(n));
    let (old_v, new_v) = (some(was.join(", ")), some(is.join(", ")));
    // One format is a `Body` struct in Rust, several an enum with a variant each: a second
    // format changes the type, and so does a variant gone. One format for another (a media type)
    // keeps the struct.
    let (rust_added, rust_removed) = match (was.len(), is.len()) {
        (1, 1) => (C, C),
        (1, _) => (B, B),
        _ => (C, B),
    };
    for gone in was.iter().filter(|f| !is.contains(f)) {
        cx.push(
            &ENDPOINT_BODY_FORMAT_REMOVED,
            s,
            Audiences::new(B, rust_removed, U),
            format!("endpoint `{id}` no longer takes its body as {gone}"),
            old_v.clone(),
            new_v.clone(),
        );
    }
    for added in is.iter().filter(|f| !was.contains(f)) {
        cx.push(
            &ENDPOINT_BODY_FORMAT_ADDED,
            s,
            Audiences::new(C, rust_added, U),
            format!("endpoint `{id}` also takes its body as {added}"),
            old_v.clone(),
            new_v.clone(),
        );
    }
    if was[0] != is[0] && is.contains(&was[0]) {
        let message = format!("clients send the body of endpoint `{id}` as {} by default", is[0]);
        cx.push(&ENDPOINT_BODY_FORMAT_CHANGED, s, Audiences::new(C, C, U), message, old_v, new_v);
    }
}

/// Behaviours are what the platform does beyond the shapes: a new one changes results without
/// a schema showing it; a gate changes the handler's `Call` type.
fn check_behaviours(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.endpoints, &new.endpoints, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let outer = [format!("endpoint:{id}")];
        let sub = |b: &Behaviour, ob: Option<&Behaviour>, nb: Option<&Behaviour>| {
            Subject::item("endpoint", &format!("{id}.behaviours.{}", b.meta.id), &outer, ob.map(|b| &b.meta), nb.map(|b| &b.meta))
        };
        let p = pair(&o.behaviours, &n.behaviours, |b| b.meta.id.clone());
        let gate = |g: bool| if g { B } else { C };
        for b in p.added {
            let message = format!("endpoint `{id}` gains behaviour `{}`", b.meta.id);
            cx.push(
                &BEHAVIOUR_ADDED,
                &sub(b, None, Some(b)),
                Audiences::new(B, gate(b.gate), U),
                message,
                None,
                b.meta.description.clone().or(some(&b.meta.id)),
            );
        }
        for b in p.removed {
            let message = format!("endpoint `{id}` loses behaviour `{}`", b.meta.id);
            cx.push(
                &BEHAVIOUR_REMOVED,
                &sub(b, Some(b), None),
                Audiences::new(B, gate(b.gate), U),
                message,
                b.meta.description.clone().or(some(&b.meta.id)),
                None,
            );
        }
        for (a, b) in p.both {
            if a.gate != b.gate {
                let word = |g: bool| if g { "gated" } else { "not gated" };
                let message = format!("behaviour `{}` of endpoint `{id}` is now {}", b.meta.id, word(b.gate));
                cx.push(&BEHAVIOUR_GATE_CHANGED, &sub(b, Some(a), Some(b)), Audiences::new(U, B, U), message, some(word(a.gate)), some(word(b.gate)));
            }
        }
    }
}

/// Errors: the code, status and OAuth2 string clients match on, and the endpoints that return
/// each.
fn check_errors(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.errors, &new.errors, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = Subject::item("error", id, &[], Some(&o.meta), Some(&n.meta));
        if let (Some(a), Some(b)) = (o.code, n.code)
            && a != b
        {
            cx.push(&ERROR_CODE_CHANGED, &s.child(".code"), Audiences::new(B, C, B), format!("error `{id}` changes code"), some(a), some(b));
        }
        if let (Some(a), Some(b)) = (o.status, n.status)
            && a != b
        {
            cx.push(
                &ERROR_STATUS_CHANGED,
                &s.child(".status"),
                Audiences::new(B, C, C),
                format!("error `{id}` is answered with another status"),
                some(a),
                some(b),
            );
        }
        if o.oauth_error.is_some() && o.oauth_error != n.oauth_error {
            // `OAuthError` has a variant per value the spec's errors carry: one no error carries
            // any more is gone.
            let kept = cx.new.errors.iter().any(|e| e.oauth_error == o.oauth_error);
            cx.push(
                &ERROR_OAUTH_ERROR_CHANGED,
                &s.child(".oauth_error"),
                Audiences::new(B, if kept { C } else { B }, U),
                format!("error `{id}` carries another OAuth2 error"),
                o.oauth_error.clone(),
                n.oauth_error.clone(),
            );
        }
        for e in pair(&o.endpoints, &n.endpoints, |r| r.id.clone()).added {
            let mut s = s.child(&format!(".endpoints.{}", e.id));
            s.claims.push(format!("endpoint:{}", e.id));
            cx.push(&ENDPOINT_ERROR_ADDED, &s, Audiences::new(C, U, U), format!("endpoint `{}` may return error `{id}`", e.id), None, some(&e.id));
        }
    }
}
