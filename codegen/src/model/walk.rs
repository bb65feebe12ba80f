//! Walks over the whole model that several layers need: every response and its headers, every
//! object's cases, the token kinds an endpoint accepts.

use super::{Case, Endpoint, Field, Model, Response, ResponseUse, TokenKind};

impl Model {
    /// Every response of the model, inline (per endpoint) and named.
    pub fn all_responses(&self) -> Vec<&Response> {
        let inline = self.endpoints.iter().flat_map(|e| &e.responses).filter_map(|r| match &r.response {
            ResponseUse::Inline(r) => Some(&**r),
            ResponseUse::Named(_) => None,
        });
        inline.chain(self.responses.iter().map(|r| &r.response)).collect()
    }

    /// The cases of every object that has some: `(owner kind, cases, owner id, owner fields)`.
    pub fn all_cases(&self) -> Vec<(&'static str, &[Case], &str, &[Field])> {
        let mut out: Vec<(&'static str, &[Case], &str, &[Field])> = Vec::new();
        for r in self.resources.iter().filter(|r| !r.cases.is_empty()) {
            out.push(("resource", &r.cases, &r.meta.id, &r.fields));
        }
        for e in self.events.iter().filter(|e| !e.cases.is_empty()) {
            out.push(("event", &e.cases, &e.meta.id, &e.fields));
        }
        out
    }

    /// The header fields of a response, each named as the response names it.
    pub fn header_fields(&self, r: &Response) -> Vec<Field> {
        r.headers.iter().map(|h| self.header_field(h).expect("BUG: validation resolves every header")).collect()
    }

    /// The token kinds an endpoint accepts: those it names, or every kind when it names none.
    pub fn accepted_kinds(&self, e: &Endpoint) -> Vec<&TokenKind> {
        let named: Vec<&str> = e.token_kinds().map(|r| r.id.as_str()).collect();
        if e.auth.is_empty() { self.token_kinds.iter().collect() } else { self.token_kinds.iter().filter(|t| named.contains(&t.meta.id.as_str())).collect() }
    }
}

impl TokenKind {
    /// Whether tokens of this kind carry OAuth2 scopes: those with the `Bearer` scheme.
    pub fn carries_scopes(&self) -> bool {
        self.scheme.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("bearer"))
    }
}
