//! What the platform dispatches and the Gateway speaks: event codes and channels, opcode codes
//! and directions. (Their payload fields are compared with every other field, in `shapes`.)

use super::{B, Cx, Subject, U, pair, some};
use crate::diff::Audiences;

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

pub fn check(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.events, &new.events, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = Subject::item("event", id, &[], Some(&o.meta), Some(&n.meta));
        if let (Some(a), Some(b)) = (o.code, n.code)
            && a != b
        {
            cx.push(&EVENT_CODE_CHANGED, &s.child(".code"), Audiences::all(B), format!("event `{id}` changes code"), some(a), some(b));
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
            cx.push(&OPCODE_CODE_CHANGED, &s.child(".code"), Audiences::all(B), format!("opcode `{id}` changes number"), some(o.code), some(n.code));
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
