//! Lowers permissions, conditions, intents, scopes, token kinds, permission rules with their
//! rule and condition expressions, auth rules and the authorization server.

use super::*;

impl Lower<'_> {
    /// A condition written as text (`large_bot_sharding`, `id(ARG)`).
    pub(super) fn cond_text(&mut self, s: &S<String>) -> Option<Cond> {
        let span = self.span(s);
        let text = s.value.trim();
        let (id, arg) = match text.split_once('(') {
            Some((id, rest)) => (id.trim(), rest.strip_suffix(')').map(|a| a.trim().to_owned())),
            None => (text, None),
        };
        Some(Cond::Named { condition: Ref { id: id.to_owned(), span }, arg })
    }

    fn cond(&self, s: &S<raw::Cond>) -> Cond {
        let span = self.span(s);
        match &s.value {
            raw::Cond::Named { id, arg } => Cond::Named { condition: Ref { id: id.clone(), span }, arg: arg.clone() },
            raw::Cond::Not(inner) => Cond::Not(Box::new(self.cond(inner))),
        }
    }

    pub(super) fn rule(&self, s: &S<raw::Rule>) -> Rule {
        let span = self.span(s);
        match &s.value {
            raw::Rule::Permission(id) => Rule::Permission(Ref { id: id.clone(), span }),
            raw::Rule::All(list) => Rule::All(list.iter().map(|r| self.rule(r)).collect()),
            raw::Rule::Any(list) => Rule::Any(list.iter().map(|r| self.rule(r)).collect()),
            raw::Rule::When { when, then, otherwise } => {
                Rule::When { when: self.cond(when), then: Box::new(self.rule(then)), otherwise: otherwise.as_ref().map(|o| Box::new(self.rule(o))) }
            }
            raw::Rule::Condition(c) => Rule::Condition(self.cond(c)),
            raw::Rule::Intent(i) => Rule::Intent(self.r#ref(i)),
            raw::Rule::Scope(i) => Rule::Scope(self.r#ref(i)),
        }
    }

    pub(super) fn permission(&mut self, s: S<raw::Permission>) -> Permission {
        let (span, v) = (self.span(&s), &s.value);
        let bit = v.bit.as_ref().map(|b| u32::try_from(b.value).unwrap_or(u32::MAX));
        Permission { meta: meta!(self, v, span), bit, bit_span: v.bit.as_ref().map_or(span, |b| self.span(b)) }
    }

    pub(super) fn condition(&mut self, s: S<raw::Condition>) -> Condition {
        let (span, v) = (self.span(&s), &s.value);
        let param_spans = v.params.iter().map(|p| self.span(p)).collect();
        Condition {
            meta: meta!(self, v, span),
            params: Self::strings(&v.params),
            param_enums: self.refs(&v.param_enums),
            limit: self.opt_ref(v.limit.as_ref()),
            refs: self.typed_refs(&v.refs),
            param_spans,
        }
    }

    pub(super) fn intent(&mut self, s: S<raw::Intent>) -> Intent {
        let (span, v) = (self.span(&s), &s.value);
        Intent { meta: meta!(self, v, span), privileged: v.privileged.as_ref().is_some_and(|b| b.value) }
    }

    pub(super) fn scope(&mut self, s: S<raw::Scope>) -> Scope {
        let (span, v) = (self.span(&s), &s.value);
        Scope {
            meta: meta!(self, v, span),
            expands: v.expands.as_ref().is_some_and(|b| b.value),
            availability: v.availability.as_ref().map(|a| a.value.clone()),
        }
    }

    pub(super) fn scope_set(&mut self, s: S<raw::ScopeSet>) -> ScopeSet {
        let (span, v) = (self.span(&s), &s.value);
        ScopeSet { meta: meta!(self, v, span), scopes: self.refs(&v.scopes), call: v.call.as_ref().map(|c| c.value.clone()) }
    }

    pub(super) fn token_kind(&mut self, s: S<raw::TokenKind>) -> TokenKind {
        let (span, v) = (self.span(&s), &s.value);
        TokenKind { meta: meta!(self, v, span), scheme: v.scheme.as_ref().map(|c| c.value.clone()) }
    }

    pub(super) fn permission_rule(&mut self, s: S<raw::PermissionRule>) -> PermissionRule {
        let (span, v) = (self.span(&s), &s.value);
        let mut variants: Vec<RuleVariant> = v
            .variants
            .iter()
            .map(|x| RuleVariant {
                since: self.opt_ref(x.value.since.as_ref()),
                until: self.opt_ref(x.value.until.as_ref()),
                rule: self.rule(&x.value.rule),
                span: self.span(x),
            })
            .collect();
        if let Some(rule) = &v.rule {
            variants.insert(0, RuleVariant { since: None, until: None, rule: self.rule(rule), span: self.span(rule) });
        }
        PermissionRule {
            meta: meta!(self, v, span),
            operation: v.operation.as_ref().map(|o| o.value.clone()),
            endpoints: self.refs(&v.endpoints),
            applies_to: v.applies_to.as_ref().map_or_else(|| "all".into(), |a| a.value.clone()),
            variants,
        }
    }

    pub(super) fn auth_rule(&mut self, s: S<raw::AuthRule>) -> AuthRule {
        let (span, v) = (self.span(&s), &s.value);
        AuthRule { meta: meta!(self, v, span), number: v.number.value, refs: self.typed_refs(&v.refs) }
    }

    pub(super) fn authorization_server(&mut self, s: S<raw::AuthorizationServer>) -> AuthorizationServer {
        let span = self.span(&s);
        let v = s.value;
        AuthorizationServer {
            issuer: v.issuer.value,
            metadata: v.metadata.into_iter().map(|(k, x)| (k.value, x.value)).collect(),
            not_shown: self.gaps(&v.not_shown),
            assumed_spans: v.assumed.keys().map(|k| self.span(k)).collect(),
            assumed: v.assumed.into_iter().map(|(k, x)| (k.value, x.value)).collect(),
            notes: Self::strings(&v.notes),
            span,
        }
    }
}
