//! Walks over the whole model that several layers need: every response and its headers, every
//! object's cases, the token kinds an endpoint accepts, every item of its own list.

use super::{Case, Endpoint, Field, Item, Meta, Model, Response, ResponseUse, TokenKind};

impl Model {
    /// Every item of the model's lists of items, with its kind (as `index::KINDS` names it),
    /// list by list in one fixed order: what the id index and the docs' anchors walk.
    pub fn items(&self) -> Vec<(&'static str, &Meta)> {
        fn of<'m, T: Item>(out: &mut Vec<(&'static str, &'m Meta)>, kind: &'static str, items: &'m [T]) {
            out.extend(items.iter().map(|i| (kind, i.meta())));
        }
        let mut out = Vec::new();
        of(&mut out, "part", &self.platform.parts);
        of(&mut out, "placeholder", &self.platform.placeholders);
        of(&mut out, "feature", &self.features);
        of(&mut out, "constant", &self.constants);
        of(&mut out, "gap", &self.gaps);
        of(&mut out, "permission", &self.permissions);
        of(&mut out, "resource", &self.resources);
        of(&mut out, "union", &self.unions);
        of(&mut out, "enum", &self.enums);
        of(&mut out, "flags", &self.flags);
        of(&mut out, "endpoint", &self.endpoints);
        of(&mut out, "opcode", &self.opcodes);
        of(&mut out, "command", &self.commands);
        of(&mut out, "condition", &self.conditions);
        of(&mut out, "intent", &self.intents);
        of(&mut out, "scope", &self.scopes);
        of(&mut out, "scope_set", &self.scope_sets);
        of(&mut out, "token_kind", &self.token_kinds);
        of(&mut out, "permission_rule", &self.permission_rules);
        of(&mut out, "auth_rule", &self.auth_rules);
        of(&mut out, "event", &self.events);
        of(&mut out, "webhook", &self.webhooks);
        of(&mut out, "gateway", &self.gateways);
        of(&mut out, "error", &self.errors);
        of(&mut out, "limit", &self.limits);
        of(&mut out, "change", &self.changes);
        of(&mut out, "state_machine", &self.state_machines);
        of(&mut out, "class", &self.classes);
        of(&mut out, "sdk_call", &self.sdk_calls);
        of(&mut out, "release", &self.releases);
        out
    }

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
