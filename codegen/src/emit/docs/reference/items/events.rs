//! Views of events, gateway opcodes and commands.

use super::*;

#[derive(Debug, Serialize)]
pub struct EventView {
    pub meta: MetaView,
    pub code: Option<i64>,
    pub payload: Cell,
    pub fields: Vec<FieldView>,
    pub cases: Vec<CaseView>,
}

/// Events of one channel.
#[derive(Debug, Serialize)]
pub struct ChannelGroup {
    pub channel: String,
    pub events: Vec<EventView>,
}

pub fn events_by_channel(cx: &Cx, list: &[&Event]) -> Vec<ChannelGroup> {
    let mut groups: Vec<ChannelGroup> = Vec::new();
    for e in list {
        let view = EventView {
            meta: cx.meta("event", &e.meta.id, &e.meta),
            code: e.code,
            payload: Facets::of(&e.meta).cell("payload", (!e.fields.is_empty()).then(|| Rich::plain(format!("{} field(s)", e.fields.len())))),
            fields: fields(cx, &e.fields, &Owner::new("event", &e.meta.id)),
            cases: cases(cx, &e.meta.id, &e.fields, &e.cases),
        };
        match groups.iter_mut().find(|g| g.channel == e.channel.id) {
            Some(g) => g.events.push(view),
            None => groups.push(ChannelGroup { channel: e.channel.id.clone(), events: vec![view] }),
        }
    }
    groups
}

#[derive(Debug, Serialize)]
pub struct OpcodeView {
    pub meta: MetaView,
    pub code: i64,
    pub direction: String,
    pub reply: Option<Span>,
    pub fields: Vec<FieldView>,
}

pub fn opcode(cx: &Cx, o: &Opcode) -> OpcodeView {
    OpcodeView {
        meta: cx.meta("opcode", &o.meta.id, &o.meta),
        code: o.code,
        direction: o.direction.clone(),
        reply: o.reply.as_ref().map(|r| cx.link("event", &r.id)),
        fields: fields(cx, &o.fields, &Owner::new("opcode", &o.meta.id)),
    }
}

#[derive(Debug, Serialize)]
pub struct CommandView {
    pub meta: MetaView,
    pub scopes: Vec<Span>,
    pub aliases: Vec<MetaView>,
}

pub fn command(cx: &Cx, c: &Command) -> CommandView {
    CommandView {
        meta: cx.meta("command", &c.meta.id, &c.meta),
        scopes: cx.refs("scope", &c.scopes),
        aliases: c.aliases.iter().map(|a| cx.meta("alias", &format!("{}.{}", c.meta.id, a.meta.id), &a.meta)).collect(),
    }
}
