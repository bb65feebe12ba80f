//! Ids of every kind of item, for resolving references and finding duplicates.

use super::Model;
use crate::diag::Span;
use indexmap::IndexMap;

/// Every id by kind, in spec order, with all the places each was defined.
#[derive(Debug, Default)]
pub struct Index {
    kinds: IndexMap<&'static str, IndexMap<String, Vec<Span>>>,
}

/// The kinds a typed reference (`kind:id`) may name.
pub const KINDS: &[&str] = &[
    "part",
    "placeholder",
    "feature",
    "constant",
    "gap",
    "permission",
    "resource",
    "union",
    "field",
    "enum",
    "enum_value",
    "flags",
    "flag",
    "endpoint",
    "opcode",
    "command",
    "condition",
    "intent",
    "scope",
    "scope_set",
    "token_kind",
    "permission_rule",
    "auth_rule",
    "event",
    "webhook",
    "gateway",
    "error",
    "limit",
    "change",
    "state_machine",
    "class",
    "sdk_call",
    "release",
    "case",
    "header",
    "response",
];

impl Index {
    /// Indexes every item of the model.
    pub fn build(model: &Model) -> Index {
        let mut ix = Index::default();
        for kind in KINDS {
            ix.kinds.insert(kind, IndexMap::new());
        }
        for (kind, meta) in model.items() {
            ix.add(kind, meta.id.clone(), meta.id_span);
        }
        for h in &model.headers {
            ix.add("header", h.name.clone(), h.span);
        }
        for r in &model.responses {
            ix.add("response", r.id.clone(), r.id_span);
        }
        for r in &model.resources {
            for f in r.own_fields() {
                ix.add("field", format!("{}.{}", r.meta.id, f.name), f.span);
            }
        }
        for e in &model.enums {
            for v in &e.values {
                ix.add("enum_value", format!("{}.{}", e.meta.id, v.meta.id), v.meta.id_span);
            }
        }
        for f in &model.flags {
            for v in &f.values {
                ix.add("flag", format!("{}.{}", f.meta.id, v.meta.id), v.meta.id_span);
            }
        }
        for (_, cases, owner, _) in model.all_cases() {
            for c in cases {
                ix.add("case", format!("{owner}.{}", c.meta.id), c.meta.id_span);
            }
        }
        ix
    }

    fn add(&mut self, kind: &'static str, id: String, span: Span) {
        self.kinds.entry(kind).or_default().entry(id).or_default().push(span);
    }

    /// Whether `id` names an item of `kind`.
    pub fn has(&self, kind: &str, id: &str) -> bool {
        self.kinds.get(kind).is_some_and(|m| m.contains_key(id))
    }

    /// The ids of a kind, in spec order.
    pub fn ids(&self, kind: &str) -> impl Iterator<Item = &str> {
        self.kinds.get(kind).into_iter().flat_map(|m| m.keys().map(String::as_str))
    }

    /// Every id of every kind with the places it was defined, in spec order.
    pub fn entries(&self) -> impl Iterator<Item = (&'static str, &str, &[Span])> {
        self.kinds.iter().flat_map(|(kind, ids)| ids.iter().map(move |(id, spans)| (*kind, id.as_str(), spans.as_slice())))
    }

    /// Where an item was defined.
    pub fn span(&self, kind: &str, id: &str) -> Option<Span> {
        self.kinds.get(kind)?.get(id)?.first().copied()
    }
}
