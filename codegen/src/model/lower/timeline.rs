//! Lowers dated changes (parsing their dates) and state machines.

use super::*;

impl Lower<'_> {
    pub(super) fn date(&mut self, s: &S<String>) -> Effective {
        match s.value.trim() {
            "already_in_effect" => Effective::AlreadyInEffect,
            "unscheduled" => Effective::Unscheduled,
            text => match parse_date(text) {
                Some(date) => Effective::Date(date),
                None => {
                    self.cx.push(
                        Diagnostic::error(codes::INVALID_DATE, format!("invalid date `{text}`"))
                            .at(self.span(s), "not a calendar date")
                            .help("write `YYYY-MM-DD` (00:00 UTC), `already_in_effect` or `unscheduled`"),
                    );
                    Effective::Unscheduled
                }
            },
        }
    }

    pub(super) fn change(&mut self, s: S<raw::Change>) -> Change {
        let (span, v) = (self.span(&s), &s.value);
        Change {
            meta: meta!(self, v, span),
            effective: self.date(&v.effective),
            kind: self.r#ref(&v.kind),
            summary: v.summary.value.trim().to_owned(),
            affects: self.typed_refs(&v.affects),
            gate: v.gate.as_ref().is_some_and(|g| g.value),
            effective_span: self.span(&v.effective),
        }
    }

    pub(super) fn state_machine(&mut self, s: S<raw::StateMachine>) -> StateMachine {
        let (span, v) = (self.span(&s), &s.value);
        let states = v
            .states
            .iter()
            .map(|st| {
                let sspan = self.span(st);
                State { meta: meta!(self, st.value, sspan), value: st.value.value.as_ref().map(|n| n.value) }
            })
            .collect();
        let transitions = v.transitions.iter().map(|t| self.transition(t)).collect();
        StateMachine {
            meta: meta!(self, v, span),
            subject: v.subject.as_ref().and_then(|x| self.typed_ref(x)),
            state_enum: self.opt_ref(v.state_enum.as_ref()),
            states,
            transitions,
        }
    }

    fn transition(&mut self, s: &S<raw::Transition>) -> Transition {
        let (span, v) = (self.span(s), &s.value);
        let effects = v
            .effects
            .iter()
            .map(|e| {
                let espan = self.span(e);
                Effect { meta: meta!(self, e.value, espan), event: self.opt_ref(e.value.event.as_ref()), error: self.opt_ref(e.value.error.as_ref()) }
            })
            .collect();
        Transition {
            meta: meta!(self, v, span),
            from: self.r#ref(&v.from),
            to: self.r#ref(&v.to),
            triggers: Self::strings(&v.triggers),
            condition: v.condition.as_ref().map(|c| c.value.clone()),
            effects,
        }
    }
}

/// Parses a strict `YYYY-MM-DD`.
pub(crate) fn parse_date(text: &str) -> Option<jiff::civil::Date> {
    let bytes = text.as_bytes();
    let shape = bytes.len() == 10 && bytes[4] == b'-' && bytes[7] == b'-';
    if !shape {
        return None;
    }
    text.parse::<jiff::civil::Date>().ok()
}
