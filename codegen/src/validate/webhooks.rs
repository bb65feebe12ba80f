//! Webhooks: deliveries a generated receiver can check and read, and a generated sender can
//! sign and write.

use super::http::is_token;
use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::*;

/// Every rule of one webhook, reported as E0177 at what is wrong.
pub fn check_webhooks(cx: &mut Diagnostics, model: &Model) {
    for w in &model.webhooks {
        let mut report = |span: Span, message: String, help: &str| {
            cx.push(Diagnostic::error(codes::WEBHOOK, format!("webhook `{}`: {message}", w.meta.id)).at(span, "here").help(help.to_owned()));
        };
        events(model, w, &mut report);
        if let Some(e) = &w.envelope {
            envelope(model, w, e, &mut report);
        }
        if let Some(v) = &w.verification {
            verification(v, &mut report);
        }
        if let Some(p) = &w.ping {
            ping(w, p, &mut report);
        }
        acknowledgement(w, &mut report);
    }
}

type Report<'r> = dyn FnMut(Span, String, &str) + 'r;

/// Each event is one of the `webhook` channel, named as the envelope names events, and named
/// once: the union has a variant per event.
fn events(model: &Model, w: &Webhook, report: &mut Report) {
    for (i, e) in w.events.iter().enumerate() {
        if let Some(first) = w.events[..i].iter().find(|x| x.event.id == e.event.id) {
            report(e.span, format!("the event `{}` is named both `{}` and `{}`", e.event.id, first.value, e.value), "name each event once");
        }
        if let Some(event) = model.events.iter().find(|x| x.meta.id == e.event.id)
            && event.channel.id != "webhook"
        {
            report(
                e.event.span,
                format!("the event `{}` is delivered over `{}`, not to a webhook", e.event.id, event.channel.id),
                "give the event `channel: webhook`",
            );
        }
        let numbered = w.envelope.as_ref().is_some_and(Envelope::numbered);
        if numbered && e.value.parse::<i64>().map(|n| n.to_string()).as_deref() != Ok(e.value.as_str()) {
            report(
                e.span,
                format!("`{}` names an event, but the envelope names events by integers", e.value),
                "write the event's number, or `repr: string` in the envelope",
            );
        }
        if e.value.is_empty() {
            report(e.span, "an event named by the empty text".to_owned(), "write the value of the envelope's `type` member");
        }
    }
}

/// The members are paths of names; the type is named by text or an integer.
fn envelope(model: &Model, w: &Webhook, e: &Envelope, report: &mut Report) {
    if !matches!(e.repr.id.as_str(), "string" | "integer") {
        report(e.repr.span, format!("`repr: {}` is neither `string` nor `integer`", e.repr.id), "name events by `string` (the default) or `integer`");
    }
    let members = [Some(&e.kind), e.data.as_ref(), e.id.as_ref(), e.timestamp.as_ref(), e.version.as_ref()];
    for m in members.into_iter().flatten() {
        if m.path.iter().any(String::is_empty) {
            report(m.span, format!("`{}` is no member path", m.path.join(".")), "name a member, or members joined by `.` (`event.type`)");
        }
    }
    // No member may hold another: writing one would overwrite the other.
    let named =
        [("type", Some(&e.kind)), ("data", e.data.as_ref()), ("id", e.id.as_ref()), ("timestamp", e.timestamp.as_ref()), ("version", e.version.as_ref())];
    let named: Vec<(&str, &Member)> = named.into_iter().filter_map(|(k, m)| Some((k, m?))).collect();
    for (i, (key, m)) in named.iter().enumerate() {
        if let Some((other, _)) = named[..i].iter().find(|(_, o)| o.path.starts_with(&m.path) || m.path.starts_with(&o.path)) {
            report(
                m.span,
                format!("`{key}: {}` overlaps the envelope's `{other}` member", m.path.join(".")),
                "give each member a path of its own, neither inside nor around another",
            );
        }
    }
    if e.data.is_none() {
        payload_fields(model, w, e, report);
    }
    if w.events.is_empty() && !w.meta.is_not_shown("events") && !w.meta.is_not_shown("name") {
        report(e.span, "an envelope, but no event".to_owned(), "list the events by the value of the `type` member, or add `not_shown: [events]`");
    }
}

/// Where the whole body is the event, no field may be where the envelope writes: the member
/// naming the event, or an object holding a member. (A field that is itself the `id` or
/// `timestamp` member is that member, as Discord's interactions carry their id.)
fn payload_fields(model: &Model, w: &Webhook, e: &Envelope, report: &mut Report) {
    let members = [Some(&e.kind), e.id.as_ref(), e.timestamp.as_ref(), e.version.as_ref()];
    let taken: Vec<&str> =
        members.into_iter().flatten().filter(|m| std::ptr::eq(*m, &e.kind) || m.path.len() > 1).filter_map(|m| m.path.first().map(String::as_str)).collect();
    for x in &w.events {
        let Some(event) = model.events.iter().find(|v| v.meta.id == x.event.id) else { continue };
        if let Some(f) = event.fields.iter().find(|f| taken.contains(&f.wire())) {
            report(
                f.span,
                format!("the event `{}` has a field `{}`, where the envelope writes", event.meta.id, f.wire()),
                "rename the field, or give the envelope a `data` member",
            );
        }
    }
}

/// A known scheme with the headers it needs, and none it does not use.
fn verification(v: &Verification, report: &mut Report) {
    let written = [("signature_header", &v.signature_header), ("timestamp_header", &v.timestamp_header), ("id_header", &v.id_header)];
    match v.scheme.id.as_str() {
        "ed25519" => {
            for (key, header) in &written[..2] {
                if header.is_none() {
                    report(
                        v.span,
                        format!("the `ed25519` scheme without `{key}`"),
                        "name the header (Discord: `X-Signature-Ed25519`, `X-Signature-Timestamp`)",
                    );
                }
            }
            if let Some(h) = &v.id_header {
                report(h.span, "`id_header` under the `ed25519` scheme, which signs no id".to_owned(), "remove it; an id in the body is the envelope's `id`");
            }
        }
        "standard" => {}
        "none" => {
            for (key, header) in written {
                if let Some(h) = header {
                    report(h.span, format!("`{key}` for deliveries that are not signed"), "remove it, or name the scheme");
                }
            }
            if v.tolerance_seconds.is_some() {
                report(v.span, "a tolerance for deliveries that carry no signed timestamp".to_owned(), "remove `tolerance_seconds`, or name the scheme");
            }
        }
        other => report(v.scheme.span, format!("`{other}` is no signature scheme"), "use `ed25519`, `standard` (Standard Webhooks) or `none`"),
    }
    for (i, (_, header)) in written.iter().enumerate() {
        let Some(h) = header else { continue };
        if !is_token(&h.id) {
            report(h.span, format!("`{}` is no HTTP header name", h.id), "name a header");
        }
        if written[..i].iter().any(|(_, o)| o.as_ref().is_some_and(|o| o.id.eq_ignore_ascii_case(&h.id))) {
            report(h.span, format!("`{}` names two of the scheme's headers", h.id), "give each header its own name");
        }
    }
    if v.tolerance_seconds == Some(0) {
        report(v.span, "a tolerance of 0 seconds refuses every delivery".to_owned(), "give the seconds a timestamp may be from now");
    }
}

/// The ping is answered with a success, and is no event.
fn ping(w: &Webhook, p: &Ping, report: &mut Report) {
    if !(200..=299).contains(&p.status) {
        report(p.status_span.unwrap_or(p.span), format!("the ping is answered `{}`, no success", p.status), "answer the ping with a 2xx status");
    }
    if p.status == 204 && p.answer.is_some() {
        report(p.span, "the ping is answered `204` with a body".to_owned(), "answer a body with `200`");
    }
    if p.member.path.iter().any(String::is_empty) {
        report(p.member.span, format!("`{}` is no member path", p.member.path.join(".")), "name a member, or members joined by `.`");
    }
    let Some(e) = &w.envelope else { return };
    if p.member.path != e.kind.path {
        return;
    }
    let wire = match &p.value {
        serde_json::Value::String(s) if !e.numbered() => Some(s.clone()),
        serde_json::Value::Number(n) if e.numbered() && n.is_i64() => Some(n.to_string()),
        _ => None,
    };
    match wire {
        None => {
            report(p.span, format!("the ping's `{}` is not a {} as the envelope names events", p.value, e.repr.id), "write the value the ping's member has")
        }
        Some(v) if w.events.iter().any(|x| x.value == v) => {
            report(p.span, format!("the ping's value `{v}` also names an event"), "the receiver answers a ping itself: give it a value of its own")
        }
        Some(_) => {}
    }
}

/// The app answers with a success within a positive time; the sender's policy gives only
/// what a delivery uses.
fn acknowledgement(w: &Webhook, report: &mut Report) {
    if let Some(status) = w.ack_status
        && !(200..=299).contains(&status)
    {
        report(w.ack_status_span.unwrap_or(w.meta.id_span), format!("the app acknowledges with `{status}`, no success"), "give a 2xx status");
    }
    if let Some(s) = w.ack_seconds
        && !(s.is_finite() && s >= 0.001)
    {
        report(
            w.ack_seconds_span.unwrap_or(w.meta.id_span),
            "`ack_seconds` is not a number of seconds of at least a millisecond".to_owned(),
            "give the seconds the platform waits for an answer",
        );
    }
    if let Some(r) = &w.retry
        && (r.statuses.is_some() || r.idempotent_statuses.is_some() || r.advice_header.is_some())
    {
        report(
            r.span,
            "the retry policy names statuses or an advice header".to_owned(),
            "a delivery is tried again on any 5xx, a 429 and no answer: give `attempts`, `initial_seconds` and `max_seconds`",
        );
    }
}
