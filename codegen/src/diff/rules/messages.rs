//! What requests and responses carry besides their fields: the statuses an endpoint declares,
//! the body of each, and their headers, named or written inline. A named response or header is
//! compared where endpoints use it, so a change to one is found on every endpoint it reaches and
//! can be announced by naming it (`response:rate_limited`).
//!
//! The generated server trait returns, and the client hands back, one `Response` enum per
//! endpoint with a variant per status, and one struct per status with its headers: a status or
//! a header added or removed changes those Rust types.

use super::fields::{Dir, Fields, ListKind};
use super::shapes::compare_fields;
use super::{B, C, Cx, Subject, U, pair, some};
use crate::diff::Audiences;
use crate::model::*;

rule!(
    "http",
    RESPONSE_STATUS_ADDED,
    "response-status-added",
    "an endpoint declares a status it did not: the `#[non_exhaustive]` Rust `Response` enum gains a variant (breaking where `Success` or `Response` changes kind)",
    ["addition", "behavior", "shape"],
    Info,
    "oasdiff `response-success-status-added`, `response-non-success-status-added` (info); cargo-semver-checks `enum_variant_added`"
);
rule!(
    "http",
    RESPONSE_STATUS_REMOVED,
    "response-status-removed",
    "an endpoint no longer declares a status (breaking on the wire for a success status clients expect)",
    ["removal", "behavior", "shape"],
    Info,
    "oasdiff `response-success-status-removed` (error), `response-non-success-status-removed`"
);
rule!(
    "http",
    RESPONSE_BODY_CHANGED,
    "response-body-changed",
    "the body of one status of an endpoint changes type, format or media type",
    ["shape"],
    Info,
    "oasdiff `response-body-type-changed`, `response-media-type-removed`; smithy-diff `ChangedMemberTarget` (output)"
);
rule!(
    "http",
    STREAM_EVENT_ADDED,
    "stream-event-added",
    "a stream of server-sent events names an event it did not: clients keep events they do not know, and the Rust event enum is `#[non_exhaustive]`",
    ["addition", "shape"],
    Info,
    "oasdiff `response-body-one-of-added` (info); cargo-semver-checks sees no change to a `#[non_exhaustive]` enum's callers"
);
rule!(
    "http",
    STREAM_EVENT_REMOVED,
    "stream-event-removed",
    "a stream of server-sent events no longer names an event: clients waiting for it wait in vain, and its Rust variant is gone",
    ["removal", "shape"],
    Info,
    "oasdiff `response-body-one-of-removed`; cargo-semver-checks `enum_variant_missing`"
);
rule!(
    "http",
    STREAM_EVENT_CHANGED,
    "stream-event-changed",
    "an event of a stream of server-sent events carries another type of data",
    ["shape"],
    Info,
    "oasdiff `response-body-type-changed`; smithy-diff `ChangedMemberTarget` (output)"
);
/// What a status added to `old` does to the Rust types. `Response` is `#[non_exhaustive]`, so a
/// variant is compatible; but a first declared status turns the shorthand's `Response` alias
/// into the enum, and a second success status turns `Success` from the one status's payload
/// into an enum of them (breaking).
fn rust_status_added(old: &Endpoint, new: &Endpoint) -> crate::diff::Impact {
    // `Success` is the one success response's payload, or an enum of several: compatible only
    // while it stays an enum (or stays the same one payload).
    let (before, after) = (old.success_responses().len(), new.success_responses().len());
    let same_success = before == after || (before > 1 && after > 1);
    if old.responses.is_empty() || !same_success { B } else { C }
}

pub fn check(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.endpoints, &new.endpoints, |e| e.meta.id.clone()).both {
        let endpoint = Subject::item("endpoint", &n.meta.id, &[], Some(&o.meta), Some(&n.meta));
        let p = pair(&o.responses, &n.responses, |r| r.status.id.clone());
        for r in &p.added {
            let s = status_subject(cx.new, &endpoint, r, None, Some(r.status.span));
            let message = format!("endpoint `{}` may answer {}", n.meta.id, r.status.id);
            cx.push(&RESPONSE_STATUS_ADDED, &s, Audiences::new(C, rust_status_added(o, n), U), message, None, body_words(cx.new, r));
        }
        for r in &p.removed {
            let s = status_subject(cx.old, &endpoint, r, Some(r.status.span), None);
            let wire = if r.status().is_some_and(Status::is_success) { B } else { C };
            let message = format!("endpoint `{}` no longer answers {}", n.meta.id, r.status.id);
            cx.push(&RESPONSE_STATUS_REMOVED, &s, Audiences::new(wire, B, U), message, body_words(cx.old, r), None);
        }
        for (a, b) in p.both {
            let mut s = status_subject(cx.new, &endpoint, b, Some(a.status.span), Some(b.status.span));
            if let ResponseUse::Named(r) = &a.response
                && !s.claims.contains(&format!("response:{}", r.id))
            {
                s.claims.push(format!("response:{}", r.id));
            }
            compare_status(cx, &n.meta.id, &s, a, b);
        }
    }
}

/// `endpoint:list_notes.responses.200`, claimed by the endpoint and the named response it uses.
fn status_subject(m: &Model, endpoint: &Subject, r: &StatusResponse, old: Option<crate::diag::Span>, new: Option<crate::diag::Span>) -> Subject {
    let mut s = Subject::new(format!("{}.responses.{}", endpoint.path, r.status.id), &endpoint.claims);
    if let ResponseUse::Named(named) = &r.response
        && m.named_response(&named.id).is_some()
    {
        s.claims.push(format!("response:{}", named.id));
    }
    s.old_span = old;
    s.new_span = new;
    s
}

/// A status's body in words: `json object<note>`, `json with fields`, `csv (text/csv)`, `none`.
fn describe_body(r: &Response) -> String {
    let body = match (&r.ty, r.fields.is_empty()) {
        (Some(t), _) if r.nullable => format!("{} {t} | null", r.format),
        (Some(t), _) => format!("{} {t}", r.format),
        (None, false) => format!("{} with fields", r.format),
        (None, true) if r.body_kind() == BodyKind::Empty || r.format == "json" => return "no body".to_owned(),
        (None, true) => r.format.clone(),
    };
    match &r.media_type {
        Some(m) => format!("{body} ({})", m.id),
        None => body,
    }
}

fn body_words(m: &Model, r: &StatusResponse) -> Option<String> {
    m.response_of(&r.response).map(describe_body)
}

/// One status both sides declare: its body, its fields and its headers.
fn compare_status(cx: &mut Cx<'_>, endpoint: &str, s: &Subject, a: &StatusResponse, b: &StatusResponse) {
    let (Some(o), Some(n)) = (cx.old.response_of(&a.response), cx.new.response_of(&b.response)) else { return };
    let (x, y) = (describe_body(o), describe_body(n));
    // Named fields are compared one by one below; the body is "with fields" on both sides then.
    if x != y {
        let message = format!("endpoint `{endpoint}` answers {} with another body", b.status.id);
        cx.push(&RESPONSE_BODY_CHANGED, &s.child(".body"), Audiences::new(B, B, U), message, some(x), some(y));
    }
    compare_events(cx, endpoint, s, &b.status.id, o, n);
    let fields = Fields::members(Dir::Response, format!("{}.", s.path), s.claims.clone(), &o.fields, &n.fields);
    compare_fields(cx, &fields);
    let headers = |m: &Model, r: &Response| r.headers.iter().filter_map(|h| m.header_field(h)).collect::<Vec<_>>();
    let (oh, nh) = (headers(cx.old, o), headers(cx.new, n));
    let mut list = Fields::members(Dir::Response, format!("{}.headers.", s.path), s.claims.clone(), &oh, &nh);
    list.kind = ListKind::ResponseHeaders;
    compare_fields(cx, &list);
}

/// The events of a stream both sides name, by name: one added is compatible (clients keep the
/// events they do not know), one removed or carrying another type breaks its callers.
fn compare_events(cx: &mut Cx<'_>, endpoint: &str, s: &Subject, status: &str, o: &Response, n: &Response) {
    let ty = |e: &StreamEvent| e.ty.as_ref().map(ToString::to_string);
    let p = pair(&o.events, &n.events, |e| e.name.clone());
    for e in &p.added {
        let message = format!("the `{status}` stream of endpoint `{endpoint}` names the event `{}`", e.name);
        cx.push(&STREAM_EVENT_ADDED, &s.child(&format!(".events.{}", e.name)), Audiences::new(C, C, U), message, None, ty(e));
    }
    for e in &p.removed {
        let message = format!("the `{status}` stream of endpoint `{endpoint}` no longer names the event `{}`", e.name);
        cx.push(&STREAM_EVENT_REMOVED, &s.child(&format!(".events.{}", e.name)), Audiences::new(B, B, U), message, ty(e), None);
    }
    for (a, b) in p.both.into_iter().filter(|(a, b)| a.ty != b.ty) {
        let message = format!("the event `{}` of the `{status}` stream of endpoint `{endpoint}` carries another type", b.name);
        cx.push(&STREAM_EVENT_CHANGED, &s.child(&format!(".events.{}", b.name)), Audiences::new(B, B, U), message, ty(a), ty(b));
    }
}
