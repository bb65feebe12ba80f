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
            extends: v.extends.iter().map(|e| self.r#ref(e)).collect(),
            fields: self.fields(&v.fields, &v.id.value),
            cases: self.cases(&v.cases),
        }
    }

    pub(super) fn webhook(&mut self, s: S<raw::Webhook>) -> Webhook {
        let (span, v) = (self.span(&s), &s.value);
        let envelope = v.envelope.as_ref().map(|e| self.envelope(e));
        let ping = v.ping.as_ref().map(|p| {
            let member = match &p.value.member {
                Some(m) => self.member(m),
                None => envelope.as_ref().map_or_else(|| Member { path: vec!["type".into()], span: self.span(p) }, |e| e.kind.clone()),
            };
            let answer = p.value.answer.as_ref().map(|a| a.value.clone());
            let status = p.value.status.as_ref().map_or(if answer.is_some() { 200 } else { 204 }, |s| s.value);
            Ping { member, value: p.value.value.value.clone(), status, answer, span: self.span(p), status_span: p.value.status.as_ref().map(|s| self.span(s)) }
        });
        Webhook {
            meta: meta!(self, v, span),
            envelope,
            verification: v.verification.as_ref().map(|x| Verification {
                scheme: self.r#ref(&x.value.scheme),
                signature_header: self.opt_ref(x.value.signature_header.as_ref()),
                timestamp_header: self.opt_ref(x.value.timestamp_header.as_ref()),
                id_header: self.opt_ref(x.value.id_header.as_ref()),
                tolerance_seconds: x.value.tolerance_seconds.as_ref().map(|t| t.value),
                span: self.span(x),
            }),
            ping,
            ack_status: v.ack_status.as_ref().map(|a| a.value),
            ack_status_span: v.ack_status.as_ref().map(|a| self.span(a)),
            ack_seconds: v.ack_seconds.as_ref().map(|a| a.value),
            ack_seconds_span: v.ack_seconds.as_ref().map(|a| self.span(a)),
            retry: v.retry.as_ref().map(|r| self.retry(r)),
            events: v
                .events
                .iter()
                .map(|(value, event)| WebhookEvent { value: value.value.clone(), event: self.r#ref(event), span: self.span(value) })
                .collect(),
        }
    }

    fn envelope(&mut self, s: &S<raw::Envelope>) -> Envelope {
        let v = &s.value;
        Envelope {
            kind: self.member(&v.kind),
            repr: v.repr.as_ref().map_or_else(|| Ref { id: "string".into(), span: self.span(s) }, |r| self.r#ref(r)),
            data: v.data.as_ref().map(|m| self.member(m)),
            id: v.id.as_ref().map(|m| self.member(m)),
            timestamp: v.timestamp.as_ref().map(|m| self.member(m)),
            version: v.version.as_ref().map(|m| self.member(m)),
            span: self.span(s),
        }
    }

    pub(super) fn member(&mut self, s: &S<String>) -> Member {
        Member { path: s.value.split('.').map(str::to_owned).collect(), span: self.span(s) }
    }
}
