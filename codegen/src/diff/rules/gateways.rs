//! Gateways: the events they dispatch and the commands they take, their session protocol, their
//! close codes and their limits. (Opcode numbers and directions are `events`' rules; payload
//! fields are compared with every other field, in `shapes`.)

use super::{B, C, Cx, Subject, U, pair, some};
use crate::diff::Audiences;
use crate::model::Gateway;

rule!(
    "gateways",
    GATEWAY_EVENT_ADDED,
    "gateway-event-added",
    "a gateway dispatches an event it did not: shards hand out events they do not know as unknown, and the Rust event union is `#[non_exhaustive]`",
    ["addition", "shape"],
    Info,
    "twilight `Event::Unknown`; cargo-semver-checks sees no change to a `#[non_exhaustive]` enum's callers"
);
rule!(
    "gateways",
    GATEWAY_EVENT_REMOVED,
    "gateway-event-removed",
    "a gateway no longer dispatches an event: bots waiting for it wait in vain, and its Rust variant is gone",
    ["removal", "shape"],
    Info,
    "cargo-semver-checks `enum_variant_missing`"
);
rule!(
    "gateways",
    GATEWAY_EVENT_NAME_CHANGED,
    "gateway-event-name-changed",
    "a gateway dispatches an event under another name: shards built before read it as unknown",
    ["shape"],
    Info,
    "buf `ENUM_VALUE_SAME_NAME` (the name identifies the event on the wire)"
);
rule!(
    "gateways",
    GATEWAY_COMMAND_CHANGED,
    "gateway-command-changed",
    "a gateway takes a command it did not (compatible), or no longer takes one (its senders are closed with an unknown-opcode code)",
    ["shape"],
    Info,
    "buf `RPC_NO_DELETE`"
);
rule!(
    "gateways",
    GATEWAY_PROTOCOL_CHANGED,
    "gateway-protocol-changed",
    "a gateway's frame members, opcode roles, query, compression, hello, identify, ready or resume change: shards built before cannot hold a session",
    ["shape"],
    Info,
    "twilight-gateway (the session protocol is the contract between shard and gateway)"
);
rule!(
    "gateways",
    GATEWAY_CLOSE_CODE_CHANGED,
    "gateway-close-code-changed",
    "a close code's policy changes (breaking: shards built before reconnect where they must stop, or stop where they may go on), or a code is added or removed, or closes for another cause",
    ["behavior"],
    Info,
    "twilight `CloseCode::can_reconnect`"
);
rule!(
    "gateways",
    GATEWAY_LIMIT_CHANGED,
    "gateway-limit-changed",
    "a gateway's send or identify limit changes: breaking where shards built before send or identify faster than the new limit lets them",
    ["behavior"],
    Info,
    "Discord Gateway rate limits (the limits are the gateway's, the pacing the shard's)"
);

pub fn check(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.gateways, &new.gateways, |g| g.meta.id.clone()).both {
        let s = Subject::item("gateway", &n.meta.id, &[], Some(&o.meta), Some(&n.meta));
        events(cx, &s, o, n);
        commands(cx, &s, o, n);
        protocol(cx, &s, o, n);
        close_codes(cx, &s, o, n);
        limits(cx, &s, o, n);
    }
}

fn events(cx: &mut Cx<'_>, s: &Subject, o: &Gateway, n: &Gateway) {
    let id = &n.meta.id;
    let events = pair(&o.events, &n.events, |e| e.event.id.clone());
    for e in &events.added {
        let message = format!("gateway `{id}` dispatches the event `{}` as `{}`", e.event.id, e.name);
        cx.push(&GATEWAY_EVENT_ADDED, &s.child(&format!(".events.{}", e.event.id)), Audiences::new(C, C, U), message, None, some(&e.name));
    }
    for e in &events.removed {
        let message = format!("gateway `{id}` no longer dispatches the event `{}`", e.event.id);
        cx.push(&GATEWAY_EVENT_REMOVED, &s.child(&format!(".events.{}", e.event.id)), Audiences::new(B, B, U), message, some(&e.name), None);
    }
    for (a, b) in events.both.iter().filter(|(a, b)| a.name != b.name) {
        let message = format!("gateway `{id}` dispatches the event `{}` under another name", b.event.id);
        cx.push(&GATEWAY_EVENT_NAME_CHANGED, &s.child(&format!(".events.{}", b.event.id)), Audiences::new(B, C, U), message, some(&a.name), some(&b.name));
    }
}

fn commands(cx: &mut Cx<'_>, s: &Subject, o: &Gateway, n: &Gateway) {
    let id = &n.meta.id;
    let commands = pair(&o.commands, &n.commands, |c| c.id.clone());
    for c in &commands.added {
        cx.push(
            &GATEWAY_COMMAND_CHANGED,
            &s.child(&format!(".commands.{}", c.id)),
            Audiences::new(C, C, U),
            format!("gateway `{id}` takes the command `{}`", c.id),
            None,
            some(&c.id),
        );
    }
    for c in &commands.removed {
        let message = format!("gateway `{id}` no longer takes the command `{}`", c.id);
        cx.push(&GATEWAY_COMMAND_CHANGED, &s.child(&format!(".commands.{}", c.id)), Audiences::new(B, B, U), message, some(&c.id), None);
    }
}

/// The parts of the session protocol that differ, compared as JSON.
fn protocol(cx: &mut Cx<'_>, s: &Subject, o: &Gateway, n: &Gateway) {
    let id = &n.meta.id;
    let json = |v: serde_json::Value| (!v.is_null()).then(|| v.to_string());
    let parts: [(&str, serde_json::Value, serde_json::Value); 9] = [
        ("query", to_json(&o.query), to_json(&n.query)),
        ("compression", to_json(&o.compression), to_json(&n.compression)),
        ("envelope", to_json(&o.envelope), to_json(&n.envelope)),
        ("roles", to_json(&o.roles), to_json(&n.roles)),
        ("heartbeat interval", to_json(&o.heartbeat_interval), to_json(&n.heartbeat_interval)),
        ("identify token", to_json(&o.identify_token), to_json(&n.identify_token)),
        ("ready event", to_json(&o.ready), to_json(&n.ready)),
        ("resume", to_json(&o.resume), to_json(&n.resume)),
        ("resume close code", to_json(&o.resume_close), to_json(&n.resume_close)),
    ];
    for (what, a, b) in parts.into_iter().filter(|(_, a, b)| a != b) {
        let path = format!(".{}", what.replace(' ', "_"));
        cx.push(&GATEWAY_PROTOCOL_CHANGED, &s.child(&path), Audiences::new(B, C, U), format!("gateway `{id}` changes its {what}"), json(a), json(b));
    }
}

fn close_codes(cx: &mut Cx<'_>, s: &Subject, o: &Gateway, n: &Gateway) {
    let id = &n.meta.id;
    let codes = pair(&o.close_codes, &n.close_codes, |c| c.code);
    let words = |c: &crate::model::gateway::CloseCode| format!("{} {} ({})", c.code, c.name, c.policy.id);
    for c in &codes.added {
        let message = format!("gateway `{id}` closes with {}", c.code);
        cx.push(&GATEWAY_CLOSE_CODE_CHANGED, &s.child(&format!(".close_codes.{}", c.code)), Audiences::new(C, C, U), message, None, Some(words(c)));
    }
    for c in &codes.removed {
        let message = format!("gateway `{id}` no longer closes with {}", c.code);
        cx.push(&GATEWAY_CLOSE_CODE_CHANGED, &s.child(&format!(".close_codes.{}", c.code)), Audiences::new(C, C, U), message, Some(words(c)), None);
    }
    for (a, b) in &codes.both {
        let cause = |c: &crate::model::gateway::CloseCode| c.cause.as_ref().map(|x| x.id.clone());
        if a.policy.id != b.policy.id || cause(a) != cause(b) {
            let wire = if a.policy.id != b.policy.id { B } else { C };
            let message = format!("gateway `{id}` changes what close code {} means", b.code);
            cx.push(
                &GATEWAY_CLOSE_CODE_CHANGED,
                &s.child(&format!(".close_codes.{}", b.code)),
                Audiences::new(wire, C, U),
                message,
                Some(words(a)),
                Some(words(b)),
            );
        }
    }
    let unknown = |g: &Gateway| g.unknown_close.as_ref().map(|p| p.id.clone());
    if unknown(o) != unknown(n) {
        let message = format!("gateway `{id}` changes what a code it does not list means");
        cx.push(&GATEWAY_CLOSE_CODE_CHANGED, &s.child(".unknown_close"), Audiences::new(B, C, U), message, unknown(o), unknown(n));
    }
}

/// A tighter send limit (a lower rate of frames) or a longer identify window is breaking.
fn limits(cx: &mut Cx<'_>, s: &Subject, o: &Gateway, n: &Gateway) {
    let id = &n.meta.id;
    let rate = |g: &Gateway| g.send_limit.as_ref().map(|l| (l.frames, l.per_seconds));
    if rate(o) != rate(n) {
        let tighter = match (rate(o), rate(n)) {
            (None, Some(_)) => true,
            (Some((fa, pa)), Some((fb, pb))) => f64::from(fb) / pb < f64::from(fa) / pa || fb < fa,
            _ => false,
        };
        let words = |r: Option<(u32, f64)>| r.map(|(f, p)| format!("{f} frames per {p} s"));
        let message = format!("gateway `{id}` changes its send limit");
        cx.push(&GATEWAY_LIMIT_CHANGED, &s.child(".send_limit"), Audiences::new(if tighter { B } else { C }, C, U), message, words(rate(o)), words(rate(n)));
    }
    let window = |g: &Gateway| g.identify_limit.as_ref().map(|l| l.per_seconds);
    if window(o) != window(n) {
        let longer = matches!((window(o), window(n)), (None, Some(_))) || matches!((window(o), window(n)), (Some(a), Some(b)) if b > a);
        let words = |w: Option<f64>| w.map(|w| format!("one identify per {w} s"));
        let message = format!("gateway `{id}` changes its identify limit");
        cx.push(
            &GATEWAY_LIMIT_CHANGED,
            &s.child(".identify_limit"),
            Audiences::new(if longer { B } else { C }, C, U),
            message,
            words(window(o)),
            words(window(n)),
        );
    }
}

/// Any part of the protocol, as JSON.
fn to_json<T: serde::Serialize>(part: &T) -> serde_json::Value {
    serde_json::to_value(part).unwrap_or_default()
}
