//! Lowers SDK classes, SDK calls and embedded-app commands.

use super::*;

impl Lower<'_> {
    pub(super) fn command(&mut self, s: S<raw::Command>) -> Command {
        let (span, v) = (self.span(&s), &s.value);
        let aliases = v
            .aliases
            .iter()
            .map(|a| {
                let aspan = self.span(a);
                Alias { meta: meta!(self, a.value, aspan) }
            })
            .collect();
        Command { meta: meta!(self, v, span), scopes: self.refs(&v.scopes), aliases }
    }

    pub(super) fn class(&mut self, s: S<raw::Class>) -> Class {
        let (span, v) = (self.span(&s), &s.value);
        let methods = v
            .methods
            .iter()
            .map(|m| {
                let mspan = self.span(m);
                Method {
                    meta: meta!(self, m.value, mspan),
                    returns: m.value.returns.as_ref().and_then(|r| self.type_ref(r)),
                    returns_span: m.value.returns.as_ref().map_or(mspan, |r| self.span(r)),
                }
            })
            .collect();
        Class {
            meta: meta!(self, v, span),
            namespace: v.namespace.as_ref().map(|n| n.value.clone()).unwrap_or_default(),
            fields: self.fields(&v.fields, &v.id.value),
            methods,
            semantics: self.refs(&v.semantics),
            used_by: self.typed_refs(&v.used_by),
        }
    }

    pub(super) fn sdk_call(&mut self, s: S<raw::SdkCall>) -> SdkCall {
        let (span, v) = (self.span(&s), &s.value);
        SdkCall {
            meta: meta!(self, v, span),
            signature: v.signature.value.clone(),
            returns: v.returns.as_ref().and_then(|r| self.type_ref(r)),
            refs: self.typed_refs(&v.refs),
            returns_span: v.returns.as_ref().map_or(span, |r| self.span(r)),
        }
    }
}
