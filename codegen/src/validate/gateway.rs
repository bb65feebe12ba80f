//! Gateways: session protocols a generated session client and server can speak.

use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::gateway::{CAUSES, COMPRESSIONS, POLICIES};
use crate::model::*;

/// Every rule of one gateway, reported as E0178 at what is wrong.
pub fn check_gateways(cx: &mut Diagnostics, model: &Model) {
    for g in &model.gateways {
        let mut report = |span: Span, message: String, help: &str| {
            cx.push(Diagnostic::error(codes::GATEWAY, format!("gateway `{}`: {message}", g.meta.id)).at(span, "here").help(help.to_owned()));
        };
        roles(model, g, &mut report);
        commands(model, g, &mut report);
        events(model, g, &mut report);
        close_codes(g, &mut report);
        limits(g, &mut report);
        members(g, &mut report);
    }
}

type Report<'r> = dyn FnMut(Span, String, &str) + 'r;

/// The direction an opcode of each role travels in; `None` where it travels both ways.
fn direction_of(role: &str) -> Option<&'static str> {
    match role {
        "identify" | "resume" => Some("send"),
        "heartbeat" => None,
        _ => Some("receive"),
    }
}

/// Each role is played by one opcode of its direction, whose code is a byte, and no opcode
/// plays two.
fn roles(model: &Model, g: &Gateway, report: &mut Report) {
    let Some(roles) = &g.roles else { return };
    let all: Vec<_> = roles.all().collect();
    for (i, (role, r)) in all.iter().enumerate() {
        if let Some((first, _)) = all[..i].iter().find(|(_, x)| x.id == r.id) {
            report(r.span, format!("the opcode `{}` plays both `{first}` and `{role}`", r.id), "give each role its own opcode");
        }
        let Some(op) = model.opcodes.iter().find(|o| o.meta.id == r.id) else { continue };
        if let Some(want) = direction_of(role)
            && op.direction != want
        {
            report(
                r.span,
                format!("`{role}` is played by `{}`, an opcode of direction `{}`", r.id, op.direction),
                &format!("a `{role}` opcode has `direction: {want}`"),
            );
        }
        byte(op, r.span, report);
    }
}

fn byte(op: &Opcode, span: Span, report: &mut Report) {
    if !(0..=255).contains(&op.code) {
        report(span, format!("the opcode `{}` has code {}, which a frame cannot carry", op.meta.id, op.code), "give the opcode a code from 0 to 255");
    }
}

/// Commands are opcodes a client sends, and none plays a role.
fn commands(model: &Model, g: &Gateway, report: &mut Report) {
    for c in &g.commands {
        if g.roles.iter().flat_map(|r| r.all()).any(|(_, r)| r.id == c.id) {
            report(
                c.span,
                format!("`{}` plays a role and is also listed as a command", c.id),
                "list only the opcodes the session machinery does not send itself",
            );
        }
        let Some(op) = model.opcodes.iter().find(|o| o.meta.id == c.id) else { continue };
        if op.direction != "send" {
            report(c.span, format!("the command `{}` has direction `{}`", c.id, op.direction), "a command is an opcode with `direction: send`");
        }
        byte(op, c.span, report);
    }
}

/// Dispatch events are events of the `gateway` channel, each named once.
fn events(model: &Model, g: &Gateway, report: &mut Report) {
    for (i, e) in g.events.iter().enumerate() {
        if let Some(first) = g.events[..i].iter().find(|x| x.event.id == e.event.id) {
            report(e.span, format!("the event `{}` is named both `{}` and `{}`", e.event.id, first.name, e.name), "name each event once");
        }
        if e.name.is_empty() {
            report(e.span, "an event named by the empty text".to_owned(), "write the name the envelope's event member gives it");
        }
        if let Some(event) = model.events.iter().find(|x| x.meta.id == e.event.id)
            && event.channel.id != "gateway"
        {
            report(
                e.event.span,
                format!("the event `{}` is delivered over `{}`, not the gateway", e.event.id, event.channel.id),
                "give the event `channel: gateway`",
            );
        }
    }
}

/// Close codes are listed once each, with a known policy and cause; each cause has one code.
fn close_codes(g: &Gateway, report: &mut Report) {
    for (i, c) in g.close_codes.iter().enumerate() {
        if g.close_codes[..i].iter().any(|x| x.code == c.code) {
            report(c.span, format!("the close code {} is listed twice", c.code), "list each code once");
        }
        if !(1000..=4999).contains(&c.code) {
            report(c.span, format!("{} is no WebSocket close code", c.code), "give a code from 1000 to 4999 (4000 and up for the protocol's own)");
        }
        policy(&c.policy, report);
        if let Some(cause) = &c.cause {
            if !CAUSES.contains(&cause.id.as_str()) {
                report(cause.span, format!("`{}` is no cause the session machinery closes for", cause.id), &format!("one of {}", CAUSES.join(", ")));
            } else if let Some(first) = g.close_codes[..i].iter().find(|x| x.cause.as_ref().is_some_and(|x| x.id == cause.id)) {
                report(cause.span, format!("the cause `{}` has the codes {} and {}", cause.id, first.code, c.code), "give each cause one code");
            }
        }
    }
    if let Some(p) = &g.unknown_close {
        policy(p, report);
    }
    if let Some(code) = g.resume_close
        && (code == 1000 || code == 1001 || !(1000..=4999).contains(&code))
    {
        report(
            g.meta.span,
            format!("`resume_close: {code}` ends the session instead of keeping it"),
            "give a code from 1002 to 4999 (4000 and up for the protocol's own)",
        );
    }
}

fn policy(p: &Text, report: &mut Report) {
    if !POLICIES.contains(&p.id.as_str()) {
        report(p.span, format!("`{}` is no close policy", p.id), "one of resume, reidentify, fatal");
    }
}

/// Limits are positive numbers; compressions are ones the runtime speaks.
fn limits(g: &Gateway, report: &mut Report) {
    if let Some(l) = &g.send_limit
        && (l.frames < 2 || !(l.per_seconds.is_finite() && l.per_seconds > 0.0))
    {
        report(
            l.span,
            format!("a send limit of {} frames per {} seconds", l.frames, l.per_seconds),
            "give at least two frames (one is the heartbeat's) per a positive number of seconds",
        );
    }
    if let Some(l) = &g.identify_limit
        && !(l.per_seconds.is_finite() && l.per_seconds >= 0.0)
    {
        report(l.span, format!("an identify window of {} seconds", l.per_seconds), "give a number of seconds, 0 or more");
    }
    for c in g.compression.iter().flat_map(|c| &c.offered) {
        if !COMPRESSIONS.contains(&c.id.as_str()) {
            report(c.span, format!("`{}` is no compression the session client speaks", c.id), &format!("one of {}", COMPRESSIONS.join(", ")));
        }
    }
}

/// The frame's members are distinct names; payload members are paths of names.
fn members(g: &Gateway, report: &mut Report) {
    if let Some(e) = &g.envelope {
        let names = [&e.opcode, &e.data, &e.sequence, &e.event];
        for (i, n) in names.iter().enumerate() {
            if n.id.is_empty() {
                report(n.span, "an envelope member with no name".to_owned(), "name the member");
            } else if names[..i].iter().any(|x| x.id == n.id) {
                report(n.span, format!("the envelope names `{}` twice", n.id), "give the opcode, payload, sequence and event members distinct names");
            }
        }
    }
    let paths = [
        g.heartbeat_interval.as_ref(),
        g.identify_token.as_ref(),
        g.ready.as_ref().map(|r| &r.session_id),
        g.ready.as_ref().and_then(|r| r.resume_url.as_ref()),
    ];
    for m in paths.into_iter().flatten() {
        if m.path.iter().any(String::is_empty) {
            report(m.span, format!("`{}` is no member path", m.path.join(".")), "name a member, or members joined by `.`");
        }
    }
}
