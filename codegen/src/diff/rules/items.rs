//! Items of every kind, matched by kind and id: added, removed, newly deprecated, and edited in
//! ways no other rule names (the safety net that makes `diff` list every difference).
//!
//! Ids are stable and never reused, so an item whose id changed is a removal and an addition,
//! except where a kind keeps a number that identifies it across a rename (permission bits,
//! commands' aliases): those renames are their own rules and are left out here.

use super::{B, C, Cx, Subject, U, access};
use crate::diag::Span;
use crate::diff::{Audiences, RuleDef, Severity};
use crate::model::*;
use serde::Serialize;

pub static ITEM_ADDED: RuleDef = RuleDef {
    id: "item-added",
    group: "items",
    summary: "an item is added (breaking for Rust where it adds a required method to the server trait: a condition)",
    kinds: &["addition"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "cargo-semver-checks `trait_method_added` (a condition's hook); oasdiff `endpoint-added` (info)",
};

pub static ITEM_REMOVED: RuleDef = RuleDef {
    id: "item-removed",
    group: "items",
    summary: "an item is removed",
    kinds: &["removal", "deprecation"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-removed-without-deprecation`; buf `FILE_NO_DELETE`, `ENUM_NO_DELETE`; smithy-diff `RemovedShape`, `RemovedEntityBinding`",
};

pub static ITEM_DEPRECATED: RuleDef = RuleDef {
    id: "item-deprecated",
    group: "items",
    summary: "an item becomes deprecated",
    kinds: &["deprecation"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `endpoint-deprecated` (info)",
};

pub static ITEM_EDITED: RuleDef = RuleDef {
    id: "item-edited",
    group: "items",
    summary: "an item differs in ways no other rule names: its description, notes, gaps or assumptions",
    kinds: &["correction"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "smithy-diff `ModifiedTrait` (documentation traits: note)",
};

/// One identified item of a model, with what the generic rules need to know about it.
struct Entry<'m> {
    kind: &'static str,
    /// `guild_feature.PRUNE_REQUIRES_ADMIN` for nested items.
    id: String,
    outer: Vec<String>,
    meta: &'m Meta,
    json: serde_json::Value,
    /// Whether added / removed is reported here (other modules report nested values).
    presence: bool,
}

impl Entry<'_> {
    fn typed(&self) -> String {
        format!("{}:{}", self.kind, self.id)
    }
}

fn entry<'m, T: Item + Serialize>(out: &mut Vec<Entry<'m>>, kind: &'static str, id: String, outer: Vec<String>, item: &'m T, presence: bool) {
    let json = serde_json::to_value(item).expect("BUG: model items serialize");
    out.push(Entry { kind, id, outer, meta: item.meta(), json, presence });
}

/// Every identified item except changes (the timeline rules' concern) and permission rules
/// (compared as rules by [`access`]).
fn entries(m: &Model) -> Vec<Entry<'_>> {
    let mut out = Vec::new();
    macro_rules! top {
        ($($kind:literal => $list:expr),* $(,)?) => {$(
            for x in &$list {
                entry(&mut out, $kind, x.meta.id.clone(), Vec::new(), x, true);
            }
        )*};
    }
    top!(
        "placeholder" => m.platform.placeholders, "part" => m.platform.parts, "feature" => m.features, "constant" => m.constants,
        "gap" => m.gaps, "permission" => m.permissions, "resource" => m.resources, "union" => m.unions, "enum" => m.enums,
        "flags" => m.flags, "endpoint" => m.endpoints, "opcode" => m.opcodes, "command" => m.commands,
        "condition" => m.conditions, "intent" => m.intents, "scope" => m.scopes, "scope_set" => m.scope_sets,
        "token_kind" => m.token_kinds, "auth_rule" => m.auth_rules, "event" => m.events, "webhook" => m.webhooks, "gateway" => m.gateways, "error" => m.errors, "limit" => m.limits,
        "state_machine" => m.state_machines, "class" => m.classes, "sdk_call" => m.sdk_calls, "release" => m.releases,
    );
    for e in &m.enums {
        for v in &e.values {
            entry(&mut out, "enum_value", format!("{}.{}", e.meta.id, v.meta.id), vec![format!("enum:{}", e.meta.id)], v, false);
        }
    }
    for f in &m.flags {
        for v in &f.values {
            entry(&mut out, "flag", format!("{}.{}", f.meta.id, v.meta.id), vec![format!("flags:{}", f.meta.id)], v, false);
        }
    }
    for e in &m.endpoints {
        let outer = vec![format!("endpoint:{}", e.meta.id)];
        for b in &e.behaviours {
            entry(&mut out, "endpoint", format!("{}.behaviours.{}", e.meta.id, b.meta.id), outer.clone(), b, false);
        }
    }
    for c in &m.commands {
        let outer = vec![format!("command:{}", c.meta.id)];
        for a in &c.aliases {
            entry(&mut out, "command", format!("{}.aliases.{}", c.meta.id, a.meta.id), outer.clone(), a, false);
        }
    }
    for s in &m.state_machines {
        let outer = vec![format!("state_machine:{}", s.meta.id)];
        for x in &s.states {
            entry(&mut out, "state_machine", format!("{}.states.{}", s.meta.id, x.meta.id), outer.clone(), x, true);
        }
        for t in &s.transitions {
            entry(&mut out, "state_machine", format!("{}.transitions.{}", s.meta.id, t.meta.id), outer.clone(), t, true);
        }
    }
    for c in &m.classes {
        let outer = vec![format!("class:{}", c.meta.id)];
        for x in &c.methods {
            entry(&mut out, "class", format!("{}.methods.{}", c.meta.id, x.meta.id), outer.clone(), x, true);
        }
    }
    for r in &m.releases {
        let outer = vec![format!("release:{}", r.meta.id)];
        for t in &r.toolkits {
            entry(&mut out, "release", format!("{}.toolkits.{}", r.meta.id, t.meta.id), outer.clone(), t, true);
        }
    }
    out
}

fn subject(e: &Entry<'_>, old: Option<&Meta>, new: Option<&Meta>) -> Subject {
    let (kind, id) = (e.kind, e.id.as_str());
    Subject::item(kind, id, &e.outer, old, new)
}

/// What adding or removing an item of `kind` does to each audience: `(added, removed)`.
///
/// The generated Rust enums (`Permission`, `ErrorCode`, `Scope`, `EventKind`, `Opcode`,
/// `Command`, ...) are `#[non_exhaustive]`, so a new value is compatible; a routed endpoint adds
/// a server trait method with a default body (501), also compatible. A condition adds a hook
/// the implementation must answer (`trait_method_added`) and a variant to `Condition`, which
/// stays exhaustive so the router can match it; so does the first intent or scope (the
/// `intents` and `scopes` hooks); a placeholder adds a member to `Placeholders`.
/// Constants (flags, limits, changes) and new types
/// are compatible additions. In C every item is a constant, a type or a function, and only
/// removal breaks.
fn presence_impact(m: &Model, e: &Entry<'_>) -> (Audiences, Audiences) {
    let routed = e.kind == "endpoint" && m.endpoint(&e.id).is_some_and(Endpoint::is_routed);
    let (added, removed) = match e.kind {
        "permission" | "opcode" | "event" | "scope" => ((C, C, C), (B, B, B)),
        // Commands (the embedded app SDK's) are not part of the C ABI.
        "command" => ((C, C, U), (B, B, U)),
        "intent" | "token_kind" => ((C, C, U), (B, B, U)),
        "error" => ((C, C, C), (C, B, B)),
        "endpoint" if routed => ((C, C, U), (B, B, U)),
        "endpoint" => ((C, C, U), (B, B, U)),
        "condition" => ((U, B, U), (U, B, U)),
        "resource" | "union" => ((C, C, U), (B, B, U)),
        // A webhook adds a type and a receiver and a sender function; apps of a removed one
        // receive nothing more.
        "webhook" => ((C, C, U), (B, B, U)),
        // A gateway adds a union, a protocol constant and a shard and hub function; bots of a
        // removed one lose their session.
        "gateway" => ((C, C, U), (B, B, U)),
        "enum" | "flags" | "constant" => ((C, C, C), (B, B, B)),
        "limit" => ((C, C, C), (C, B, B)),
        "placeholder" => ((C, B, U), (B, B, U)),
        "scope_set" => ((U, C, U), (U, B, U)),
        "state_machine" => ((C, C, U), (C, B, U)),
        "class" | "sdk_call" => ((U, U, C), (U, U, B)),
        // Parts, features, gaps, numbered auth rules and releases are documentation.
        _ => ((U, U, U), (U, U, U)),
    };
    let a = |(wire, rust, c)| Audiences::new(wire, rust, c);
    (a(added), a(removed))
}

/// Items added and removed (except nested values other modules compare), and items newly
/// deprecated.
pub fn check(cx: &mut Cx<'_>) {
    let (old, new) = (entries(cx.old), entries(cx.new));
    let renamed: Vec<(String, String)> = access::renamed_permissions(cx.old, cx.new)
        .into_iter()
        .map(|(o, n)| (format!("permission:{o}"), format!("permission:{n}")))
        .chain(super::renamed_commands(cx.old, cx.new).into_iter().map(|(o, n)| (format!("command:{o}"), format!("command:{n}"))))
        .collect();
    let find = |list: &'_ [Entry<'_>], typed: &str| list.iter().position(|e| e.typed() == typed);
    for n in &new {
        let typed = n.typed();
        match find(&old, &typed) {
            Some(i) => {
                let o = &old[i];
                if o.meta.deprecated.is_none() && n.meta.deprecated.is_some() {
                    let s = subject(n, Some(o.meta), Some(n.meta));
                    let by = n.meta.deprecated.as_ref().map(|r| r.id.clone());
                    cx.push(&ITEM_DEPRECATED, &s, Audiences::all(C), format!("`{typed}` is deprecated"), None, by);
                }
            }
            None if n.presence && !renamed.iter().any(|(_, to)| *to == typed) => {
                let (mut added, _) = presence_impact(cx.new, n);
                // The first intent or scope adds the server trait's `intents` or `scopes` hook,
                // which the implementation must answer.
                let first = match n.kind {
                    "intent" => cx.old.intents.is_empty(),
                    "scope" => cx.old.scopes.is_empty(),
                    _ => false,
                };
                if first {
                    added.rust = B;
                }
                let s = subject(n, None, Some(n.meta));
                cx.push(&ITEM_ADDED, &s, added, format!("`{typed}` is added"), None, Some(typed.clone()));
            }
            None => {}
        }
    }
    for o in old.iter().filter(|o| o.presence && find(&new, &o.typed()).is_none()) {
        let typed = o.typed();
        if renamed.iter().any(|(from, _)| *from == typed) {
            continue;
        }
        let (_, removed) = presence_impact(cx.old, o);
        let s = subject(o, Some(o.meta), None);
        cx.push(&ITEM_REMOVED, &s, removed, format!("`{typed}` is removed"), Some(typed.clone()), None);
    }
}

/// Keys of the serialized item whose values differ, other than nested lists other rules walk.
fn changed_keys(old: &serde_json::Value, new: &serde_json::Value) -> Vec<String> {
    let (Some(o), Some(n)) = (old.as_object(), new.as_object()) else { return vec![] };
    let mut keys: Vec<String> = o.keys().chain(n.keys()).filter(|k| o.get(*k) != n.get(*k)).cloned().collect();
    keys.dedup();
    let mut seen = Vec::new();
    keys.retain(|k| {
        let fresh = !seen.contains(k);
        seen.push(k.clone());
        fresh
    });
    keys
}

/// Items that differ where no finding of this point names them or anything inside them: a
/// description, notes, gaps or assumptions (or a facet no rule compares yet).
pub fn check_edits(cx: &mut Cx<'_>) {
    let (old, new) = (entries(cx.old), entries(cx.new));
    let mut pending = Vec::new();
    for n in &new {
        let typed = n.typed();
        let Some(o) = old.iter().find(|o| o.typed() == typed) else { continue };
        let keys = changed_keys(&o.json, &n.json);
        if keys.is_empty() || cx.explained(&typed) {
            continue;
        }
        let s = subject(n, Some(o.meta), Some(n.meta));
        pending.push((s, format!("`{typed}` differs in {}", quoted(&keys))));
    }
    for (name, old, new, span) in singletons(cx) {
        let keys = changed_keys(&old, &new);
        if !keys.is_empty() && !cx.explained(name) {
            let mut s = Subject::new(name, &[]);
            s.old_span = span.0;
            s.new_span = span.1;
            pending.push((s, format!("`{name}` differs in {}", quoted(&keys))));
        }
    }
    for (s, message) in pending {
        cx.push(&ITEM_EDITED, &s, Audiences::all(U), message, None, None);
    }
}

/// The blocks that are not lists of items: the platform block, the error body, the
/// authorization server and the release policy.
#[allow(clippy::type_complexity)]
fn singletons(cx: &Cx<'_>) -> Vec<(&'static str, serde_json::Value, serde_json::Value, (Option<Span>, Option<Span>))> {
    let json = |v: &dyn erased::Ser| v.to_json();
    vec![
        ("platform", block(&cx.old.platform), block(&cx.new.platform), (Some(cx.old.platform.span), Some(cx.new.platform.span))),
        ("error_body", json(&cx.old.error_body), json(&cx.new.error_body), (None, None)),
        (
            "authorization_server",
            json(&cx.old.authorization_server),
            json(&cx.new.authorization_server),
            (cx.old.authorization_server.as_ref().map(|a| a.span), cx.new.authorization_server.as_ref().map(|a| a.span)),
        ),
        ("release_policy", json(&cx.old.release_policy), json(&cx.new.release_policy), (None, None)),
    ]
}

mod erased {
    /// Serializes any model block to JSON (an object-safe `Serialize`).
    pub trait Ser {
        fn to_json(&self) -> serde_json::Value;
    }

    impl<T: serde::Serialize> Ser for T {
        fn to_json(&self) -> serde_json::Value {
            serde_json::to_value(self).expect("BUG: model blocks serialize")
        }
    }
}

/// The platform block without its placeholders and parts, which are items of their own.
fn block(p: &PlatformInfo) -> serde_json::Value {
    let mut v = serde_json::to_value(p).expect("BUG: the platform block serializes");
    if let Some(o) = v.as_object_mut() {
        o.remove("placeholders");
        o.remove("parts");
    }
    v
}

fn quoted(keys: &[String]) -> String {
    keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}
