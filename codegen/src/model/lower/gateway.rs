//! Lowers gateways.

use super::*;
use crate::model::gateway as model_gw;

impl Lower<'_> {
    pub(super) fn gateway(&mut self, s: S<raw::Gateway>) -> Gateway {
        let (span, v) = (self.span(&s), &s.value);
        Gateway {
            meta: meta!(self, v, span),
            url: self.opt_ref(v.url.as_ref()),
            query: v.query.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
            compression: v
                .compression
                .as_ref()
                .map(|c| model_gw::Compression { parameter: self.r#ref(&c.value.parameter), offered: c.value.offered.iter().map(|o| self.r#ref(o)).collect() }),
            envelope: v.envelope.as_ref().map(|e| model_gw::Frame {
                opcode: self.r#ref(&e.value.opcode),
                data: self.r#ref(&e.value.data),
                sequence: self.r#ref(&e.value.sequence),
                event: self.r#ref(&e.value.event),
                span: self.span(e),
            }),
            roles: v.roles.as_ref().map(|r| {
                let r = &r.value;
                model_gw::Roles {
                    dispatch: self.r#ref(&r.dispatch),
                    heartbeat: self.r#ref(&r.heartbeat),
                    heartbeat_ack: self.r#ref(&r.heartbeat_ack),
                    hello: self.r#ref(&r.hello),
                    identify: self.r#ref(&r.identify),
                    resume: self.r#ref(&r.resume),
                    reconnect: self.opt_ref(r.reconnect.as_ref()),
                    invalid_session: self.opt_ref(r.invalid_session.as_ref()),
                }
            }),
            heartbeat_interval: v.heartbeat_interval.as_ref().map(|m| self.member(m)),
            identify_token: v.identify_token.as_ref().map(|m| self.member(m)),
            ready: v.ready.as_ref().map(|r| model_gw::ReadyEvent {
                event: self.r#ref(&r.value.event),
                session_id: self.member(&r.value.session_id),
                resume_url: r.value.resume_url.as_ref().map(|m| self.member(m)),
            }),
            resume: v.resume.as_ref().map(|r| model_gw::ResumePayload {
                token: self.r#ref(&r.value.token),
                session_id: self.r#ref(&r.value.session_id),
                sequence: self.r#ref(&r.value.sequence),
                resumed: self.opt_ref(r.value.resumed.as_ref()),
            }),
            close_codes: v
                .close_codes
                .iter()
                .map(|c| model_gw::CloseCode {
                    code: c.value.code.value,
                    name: c.value.name.value.clone(),
                    policy: self.r#ref(&c.value.policy),
                    cause: self.opt_ref(c.value.cause.as_ref()),
                    description: c.value.description.as_ref().map(|d| d.value.clone()),
                    span: self.span(c),
                })
                .collect(),
            unknown_close: self.opt_ref(v.unknown_close.as_ref()),
            resume_close: v.resume_close.as_ref().map(|c| c.value),
            send_limit: v.send_limit.as_ref().map(|l| model_gw::SendLimit {
                frames: l.value.frames.value,
                per_seconds: l.value.per_seconds.value,
                span: self.span(l),
            }),
            identify_limit: v.identify_limit.as_ref().map(|l| model_gw::IdentifyLimit {
                per_seconds: l.value.per_seconds.value,
                max_concurrency: self.opt_ref(l.value.max_concurrency.as_ref()),
                span: self.span(l),
            }),
            commands: v.commands.iter().map(|c| self.r#ref(c)).collect(),
            events: v
                .events
                .iter()
                .map(|(name, event)| model_gw::DispatchEvent { name: name.value.clone(), event: self.r#ref(event), span: self.span(name) })
                .collect(),
        }
    }
}
