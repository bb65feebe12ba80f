//! What the platform dispatches and the Gateway speaks: event codes and channels, opcode codes
//! and directions, and what webhooks deliver and how. (Payload fields are compared with every
//! other field, in `shapes`.)

use super::{B, C, Cx, Subject, U, pair, some};
use crate::diff::Audiences;
use crate::model::Webhook;

rule!(
    "events",
    EVENT_CODE_CHANGED,
    "event-code-changed",
    "an event keeps its id and gets another numeric code",
    [],
    "buf `ENUM_VALUE_SAME_NAME` (codes identify events)"
);
rule!(
    "events",
    EVENT_CHANNEL_CHANGED,
    "event-channel-changed",
    "an event is dispatched over another channel (Gateway, webhook, audit log, ...)",
    ["shape"],
    "oasdiff `api-removed-without-deprecation` (webhooks)"
);
rule!("events", OPCODE_CODE_CHANGED, "opcode-code-changed", "a Gateway opcode keeps its id and gets another number", [], "buf `ENUM_VALUE_SAME_NAME`");
rule!(
    "events",
    OPCODE_DIRECTION_CHANGED,
    "opcode-direction-changed",
    "a Gateway opcode switches between sent and received",
    ["shape"],
    "buf `RPC_SAME_CLIENT_STREAMING`"
);

rule!(
    "events",
    WEBHOOK_EVENT_ADDED,
    "webhook-event-added",
    "a webhook delivers an event it did not: receivers keep events they do not know, and the Rust event union is `#[non_exhaustive]`",
    ["addition", "shape"],
    Info,
    "oasdiff `new-webhook` (info); cargo-semver-checks sees no change to a `#[non_exhaustive]` enum's callers"
);
rule!(
    "events",
    WEBHOOK_EVENT_REMOVED,
    "webhook-event-removed",
    "a webhook no longer delivers an event: apps waiting for it wait in vain, and its Rust variant is gone",
    ["removal", "shape"],
    Info,
    "oasdiff `webhook-removed`; cargo-semver-checks `enum_variant_missing`"
);
rule!(
    "events",
    WEBHOOK_EVENT_NAME_CHANGED,
    "webhook-event-name-changed",
    "a webhook delivers an event under another name: receivers built before read it as unknown",
    ["shape"],
    Info,
    "buf `ENUM_VALUE_SAME_NAME` (the name identifies the event on the wire)"
);
rule!(
    "events",
    WEBHOOK_DELIVERY_CHANGED,
    "webhook-delivery-changed",
    "a webhook's envelope, signature scheme or headers, or ping change: receivers built before refuse or misread every delivery",
    ["shape"],
    Info,
    "Standard Webhooks (the signature's form is the contract between sender and receiver)"
);
rule!(
    "events",
    WEBHOOK_POLICY_CHANGED,
    "webhook-policy-changed",
    "a webhook's tolerance, acknowledgement or retries change: breaking where apps must answer otherwise or sooner, or receivers refuse what the platform sends",
    ["behavior"],
    Info,
    "Standard Webhooks (retry schedule and timestamp tolerance are sender and receiver policy)"
);

pub fn check(cx: &mut Cx<'_>) {
    webhooks(cx);
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.events, &new.events, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = Subject::item("event", id, &[], Some(&o.meta), Some(&n.meta));
        if let (Some(a), Some(b)) = (o.code, n.code)
            && a != b
        {
            cx.push(&EVENT_CODE_CHANGED, &s.child(".code"), Audiences::new(B, C, B), format!("event `{id}` changes code"), some(a), some(b));
        }
        if o.channel.id != n.channel.id {
            cx.push(
                &EVENT_CHANNEL_CHANGED,
                &s.child(".channel"),
                Audiences::new(B, B, U),
                format!("event `{id}` moves to another channel"),
                some(&o.channel.id),
                some(&n.channel.id),
            );
        }
    }
    for (o, n) in pair(&old.opcodes, &new.opcodes, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = Subject::item("opcode", id, &[], Some(&o.meta), Some(&n.meta));
        if o.code != n.code {
            cx.push(&OPCODE_CODE_CHANGED, &s.child(".code"), Audiences::new(B, C, B), format!("opcode `{id}` changes number"), some(o.code), some(n.code));
        }
        if o.direction != n.direction {
            cx.push(
                &OPCODE_DIRECTION_CHANGED,
                &s.child(".direction"),
                Audiences::new(B, B, U),
                format!("opcode `{id}` changes direction"),
                some(&o.direction),
                some(&n.direction),
            );
        }
    }
}

/// Webhooks both sides have: their events by name, their delivery and their policy.
fn webhooks(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.webhooks, &new.webhooks, |w| w.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = Subject::item("webhook", id, &[], Some(&o.meta), Some(&n.meta));
        let events = pair(&o.events, &n.events, |e| e.event.id.clone());
        for e in &events.added {
            let message = format!("webhook `{id}` delivers the event `{}` as `{}`", e.event.id, e.value);
            cx.push(&WEBHOOK_EVENT_ADDED, &s.child(&format!(".events.{}", e.event.id)), Audiences::new(C, C, U), message, None, some(&e.value));
        }
        for e in &events.removed {
            let message = format!("webhook `{id}` no longer delivers the event `{}`", e.event.id);
            cx.push(&WEBHOOK_EVENT_REMOVED, &s.child(&format!(".events.{}", e.event.id)), Audiences::new(B, B, U), message, some(&e.value), None);
        }
        for (a, b) in events.both.iter().filter(|(a, b)| a.value != b.value) {
            let message = format!("webhook `{id}` delivers the event `{}` under another name", b.event.id);
            cx.push(
                &WEBHOOK_EVENT_NAME_CHANGED,
                &s.child(&format!(".events.{}", b.event.id)),
                Audiences::new(B, C, U),
                message,
                some(&a.value),
                some(&b.value),
            );
        }
        for (what, before, after) in delivery(o, n) {
            cx.push(
                &WEBHOOK_DELIVERY_CHANGED,
                &s.child(&format!(".{what}")),
                Audiences::new(B, C, U),
                format!("webhook `{id}` changes its {what}"),
                before,
                after,
            );
        }
        for (what, breaking, before, after) in policy(o, n) {
            let wire = if breaking { B } else { C };
            cx.push(
                &WEBHOOK_POLICY_CHANGED,
                &s.child(&format!(".{what}")),
                Audiences::new(wire, C, U),
                format!("webhook `{id}` changes its {what}"),
                before,
                after,
            );
        }
    }
}

/// The parts of a delivery that differ, as JSON: `(what, before, after)`.
fn delivery(o: &Webhook, n: &Webhook) -> Vec<(&'static str, Option<String>, Option<String>)> {
    let json = |v: serde_json::Value| (!v.is_null()).then(|| v.to_string());
    // The scheme and the headers it reads (names compare without case, and Standard Webhooks'
    // own names written out are the same headers); the tolerance is policy, compared apart.
    let scheme = |w: &Webhook| match &w.verification {
        Some(v) => {
            let header = |role: &str| v.header(role).map(str::to_ascii_lowercase);
            serde_json::json!({ "scheme": v.scheme.id, "signature": header("signature"), "timestamp": header("timestamp"), "id": header("id") })
        }
        None => serde_json::Value::Null,
    };
    let parts = [
        ("envelope", serde_json::to_value(&o.envelope).unwrap_or_default(), serde_json::to_value(&n.envelope).unwrap_or_default()),
        ("signature", scheme(o), scheme(n)),
        ("ping", serde_json::to_value(&o.ping).unwrap_or_default(), serde_json::to_value(&n.ping).unwrap_or_default()),
    ];
    parts.into_iter().filter(|(_, a, b)| a != b).map(|(what, a, b)| (what, json(a), json(b))).collect()
}

/// The policies that differ: `(what, breaking, before, after)`. Breaking: a shorter tolerance
/// (receivers refuse deliveries the platform still sends late), another acknowledging status, a
/// shorter deadline; fewer or sooner retries are the platform's own business.
fn policy(o: &Webhook, n: &Webhook) -> Vec<(&'static str, bool, Option<String>, Option<String>)> {
    let mut out = Vec::new();
    let tolerance = |w: &Webhook| w.verification.as_ref().and_then(|v| v.tolerance_seconds);
    if tolerance(o) != tolerance(n) {
        let shorter = matches!((tolerance(o), tolerance(n)), (None, Some(_))) || matches!((tolerance(o), tolerance(n)), (Some(a), Some(b)) if b < a);
        out.push(("tolerance", shorter, tolerance(o).map(|t| format!("{t} s")), tolerance(n).map(|t| format!("{t} s"))));
    }
    if o.ack_status != n.ack_status {
        out.push(("acknowledgement status", true, o.ack_status.map(|s| s.to_string()), n.ack_status.map(|s| s.to_string())));
    }
    if o.ack_seconds != n.ack_seconds {
        let sooner = matches!((o.ack_seconds, n.ack_seconds), (None, Some(_))) || matches!((o.ack_seconds, n.ack_seconds), (Some(a), Some(b)) if b < a);
        out.push(("acknowledgement deadline", sooner, o.ack_seconds.map(|s| format!("{s} s")), n.ack_seconds.map(|s| format!("{s} s"))));
    }
    let retry = |w: &Webhook| serde_json::to_value(&w.retry).ok().filter(|v| !v.is_null()).map(|v| v.to_string());
    if retry(o) != retry(n) {
        out.push(("retry schedule", false, retry(o), retry(n)));
    }
    out
}
