//! Lowers events and opcodes.

use super::*;

impl Lower<'_> {
    pub(super) fn opcode(&mut self, s: S<raw::Opcode>) -> Opcode {
        let (span, v) = (self.span(&s), &s.value);
        Opcode {
            meta: meta!(self, v, span),
            code: v.code.value,
            direction: v.direction.as_ref().map_or_else(|| "send".into(), |d| d.value.clone()),
            reply: self.opt_ref(v.reply.as_ref()),
            fields: self.fields(&v.fields, &v.id.value),
        }
    }

    pub(super) fn event(&mut self, s: S<raw::Event>) -> Event {
        let (span, v) = (self.span(&s), &s.value);
        Event {
            meta: meta!(self, v, span),
            channel: self.r#ref(&v.channel),
            code: v.code.as_ref().map(|c| c.value),
            fields: self.fields(&v.fields, &v.id.value),
            cases: self.cases(&v.cases),
        }
    }
}
