//! Which change entry announces a breaking finding, and the entry to draft when none does.
//!
//! An entry `E` of the new spec claims a finding when:
//! - `E` names the item: its `affects` lists the item or an item containing it (`field:`
//!   ... is claimed by `resource:` too), or the item's own `since` / `until` / `deprecated` (or,
//!   for a rule or a limit, a variant's bound or an earlier value's `until`) names `E`;
//! - `E` is new in the new spec, or the new spec changed it (its date, kind or `affects`) or
//!   newly bounds the item by it: an entry that was already there cannot excuse a new break;
//! - `E` is in effect where the finding first appears (a break visible today needs an entry in
//!   effect today, not one dated next year);
//! - `E`'s kind fits the rule (a removal is announced by `removal` or `deprecation`, a tighter
//!   rule by `requirement`, ...), or `E` is a `correction`.
//!
//! A finding about something no typed reference names (the platform's prefixes, the error body)
//! is claimed by such an entry that `affects` nothing: it is about the platform as a whole.

use super::{Finding, Severity};
use crate::model::project::At;
use crate::model::*;
use std::collections::BTreeMap;

/// Sets `claimed_by`, or the `help:` lines of an unclaimed breaking finding.
pub fn claim(f: &mut Finding, old: &Model, new: &Model) {
    if f.severity != Severity::Error || !f.rule.claimable {
        return;
    }
    let (old_life, new_life) = (lifecycles(old), lifecycles(new));
    let paths = paths_of(f, &new_life, &old_life);
    let named = |c: &Change, life: &BTreeMap<String, Vec<String>>| {
        let affects = |c: &Change| c.affects.iter().any(|r| f.claims.contains(&format!("{}:{}", r.kind, r.id)));
        affects(c) || (f.claims.is_empty() && c.affects.is_empty()) || paths.iter().any(|p| life.get(p).is_some_and(|l| l.contains(&c.meta.id)))
    };
    let mut reasons = Vec::new();
    // The entry whose kind the rule lists first wins: a removal before the deprecation that
    // preceded it.
    let rank = |c: &&Change| f.rule.kinds.iter().position(|k| *k == c.kind.id).unwrap_or(f.rule.kinds.len());
    let mut candidates: Vec<&Change> = new.changes.iter().filter(|c| named(c, &new_life)).collect();
    candidates.sort_by_key(rank);
    for c in candidates {
        let id = &c.meta.id;
        let fresh = match old.change(id) {
            None => true,
            Some(o) => o.effective != c.effective || o.kind.id != c.kind.id || !named(o, &old_life) || affects_changed(o, c),
        };
        if !fresh {
            reasons.push(format!("change `{id}` names it but is not new: an entry already in the old spec cannot announce a new difference"));
        } else if !f.at.sees(c.effective) {
            reasons.push(format!(
                "change `{id}` names it but takes effect {}, after the difference appears ({})",
                super::report::effective_words(c.effective),
                f.at
            ));
        } else if !f.rule.accepts(&c.kind.id) {
            reasons.push(format!("change `{id}` names it but is of kind `{}`; `{}` needs {}", c.kind.id, f.rule.id, kinds(f)));
        } else {
            f.claimed_by = Some(id.clone());
            return;
        }
    }
    f.help = reasons;
    f.help.push(draft(f, new));
    if f.at == At::Start && f.rule.kinds.contains(&"removal") {
        f.help.push("or keep it until a dated change: give it `deprecated:` and `until:` naming entries dated in the future".into());
    }
}

fn affects_changed(o: &Change, n: &Change) -> bool {
    let list = |c: &Change| c.affects.iter().map(|r| format!("{}:{}", r.kind, r.id)).collect::<Vec<_>>();
    list(o) != list(n)
}

/// `removal` or `deprecation`.
fn kinds(f: &Finding) -> String {
    let mut all: Vec<String> = f.rule.kinds.iter().map(|k| format!("`{k}`")).collect();
    if !f.rule.kinds.contains(&"correction") {
        all.push("`correction`".into());
    }
    match all.len() {
        1 => all.remove(0),
        _ => {
            let last = all.pop().unwrap_or_default();
            format!("{} or {last}", all.join(", "))
        }
    }
}

/// A change entry that would claim the finding, as YAML to paste into the new spec: its
/// `affects` names the innermost item of the finding that a typed reference can name in `new`
/// (a behaviour or an alias is named by its endpoint or command).
fn draft(f: &Finding, new: &Model) -> String {
    let kind = f.rule.kinds.first().copied().unwrap_or("correction");
    let slug: String = f.subject.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let slug = slug.split('-').filter(|s| !s.is_empty()).collect::<Vec<_>>().join("-");
    let effective = match f.at {
        At::Date(d) => d.to_string(),
        At::Start | At::End => "already_in_effect".to_owned(),
    };
    let index = crate::model::Index::build(new);
    let affects = f.claims.iter().find(|c| c.split_once(':').is_some_and(|(k, id)| index.has(k, id)));
    let mut lines = vec![
        "announce it in the new spec's `changes:`, for example:".to_owned(),
        format!("  - id: {slug}-{kind}"),
        format!("    effective: {effective}"),
        format!("    kind: {kind}"),
        format!("    summary: {}", yaml_scalar(&sentence(&f.message))),
    ];
    match affects {
        Some(a) => lines.push(format!("    affects: [{a}]")),
        // Only the item itself could be named, and it is gone: it stays, bounded by the entry.
        None => lines.push(format!("and keep `{}` in the new spec with `until: {slug}-{kind}`, the record of its end", f.claims.first().unwrap_or(&f.subject))),
    }
    lines.join("\n")
}

/// The message as a sentence: capitalised, ticks dropped, with a final period.
fn sentence(message: &str) -> String {
    let text = message.replace('`', "");
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}

/// `text` as a YAML scalar: plain where YAML reads it back as the same text, else double-quoted
/// (a JSON string is one). Messages quote spec names, which may hold anything.
fn yaml_scalar(text: &str) -> String {
    let indicator = text.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c));
    let plain = !(indicator || text.contains(": ") || text.contains(" #") || text.ends_with(':') || text.trim() != text || text.chars().any(char::is_control));
    if plain { text.to_owned() } else { serde_json::to_string(text).expect("a string serializes") }
}

/// The paths whose lifecycle may name the claiming change: the subject, its containers, and
/// any item whose path the subject extends (`field:widget.label` for `field:widget.label.max`).
fn paths_of(f: &Finding, a: &BTreeMap<String, Vec<String>>, b: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut out: Vec<String> = f.claims.clone();
    out.push(f.subject.clone());
    for key in a.keys().chain(b.keys()) {
        if f.subject.starts_with(&format!("{key}.")) && !out.contains(key) {
            out.push(key.clone());
        }
    }
    out
}

/// The changes each item's lifecycle names, by the paths findings use.
fn lifecycles(m: &Model) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut add = |path: String, refs: &[&Option<Ref>]| {
        let ids: Vec<String> = refs.iter().filter_map(|r| r.as_ref().map(|r| r.id.clone())).collect();
        if !ids.is_empty() {
            out.entry(path).or_default().extend(ids);
        }
    };
    let meta = |m: &Meta| [m.since.clone(), m.until.clone(), m.deprecated.clone()];
    macro_rules! top {
        ($($kind:literal => $list:expr),* $(,)?) => {$(
            for x in &$list {
                let refs = meta(&x.meta);
                add(format!("{}:{}", $kind, x.meta.id), &[&refs[0], &refs[1], &refs[2]]);
            }
        )*};
    }
    top!(
        "placeholder" => m.platform.placeholders, "part" => m.platform.parts, "feature" => m.features, "constant" => m.constants,
        "gap" => m.gaps, "permission" => m.permissions, "resource" => m.resources, "union" => m.unions, "enum" => m.enums, "flags" => m.flags,
        "endpoint" => m.endpoints, "opcode" => m.opcodes, "command" => m.commands, "condition" => m.conditions,
        "intent" => m.intents, "scope" => m.scopes, "scope_set" => m.scope_sets, "token_kind" => m.token_kinds,
        "permission_rule" => m.permission_rules, "auth_rule" => m.auth_rules, "event" => m.events, "webhook" => m.webhooks, "gateway" => m.gateways, "error" => m.errors,
        "limit" => m.limits, "state_machine" => m.state_machines, "class" => m.classes, "sdk_call" => m.sdk_calls,
        "release" => m.releases,
    );
    let nested = |add: &mut dyn FnMut(String, &[&Option<Ref>]), path: String, x: &Meta| {
        let refs = meta(x);
        add(path, &[&refs[0], &refs[1], &refs[2]]);
    };
    for e in &m.enums {
        e.values.iter().for_each(|v| nested(&mut add, format!("enum_value:{}.{}", e.meta.id, v.meta.id), &v.meta));
    }
    for f in &m.flags {
        f.values.iter().for_each(|v| nested(&mut add, format!("flag:{}.{}", f.meta.id, v.meta.id), &v.meta));
    }
    for e in &m.endpoints {
        e.behaviours.iter().for_each(|b| nested(&mut add, format!("endpoint:{}.behaviours.{}", e.meta.id, b.meta.id), &b.meta));
        e.aliases.iter().for_each(|a| nested(&mut add, format!("endpoint:{}.aliases.{}", e.meta.id, a.meta.id), &a.meta));
    }
    for c in &m.commands {
        c.aliases.iter().for_each(|a| nested(&mut add, format!("command:{}.aliases.{}", c.meta.id, a.meta.id), &a.meta));
    }
    for r in &m.permission_rules {
        for v in &r.variants {
            add(format!("permission_rule:{}", r.meta.id), &[&v.since, &v.until]);
        }
    }
    for l in &m.limits {
        for p in &l.previous {
            add(format!("limit:{}", l.meta.id), &[&Some(p.until.clone())]);
        }
    }
    for (prefix, fields) in field_lists(m) {
        for f in fields {
            add(format!("{prefix}{}", f.name), &[&f.since, &f.until, &f.deprecated]);
        }
    }
    // A response's headers go by their key in the response (`total`), whatever the field says.
    for e in &m.endpoints {
        for r in &e.responses {
            for h in m.response_of(&r.response).map_or(&[][..], |x| &x.headers[..]) {
                if let HeaderUse::Inline(f) = &h.header {
                    add(format!("endpoint:{}.responses.{}.headers.{}", e.meta.id, r.status.id, h.name), &[&f.since, &f.until, &f.deprecated]);
                }
            }
        }
    }
    out
}

/// Every list of fields with the path prefix findings give its fields.
fn field_lists(m: &Model) -> Vec<(String, Vec<&Field>)> {
    let mut out: Vec<(String, Vec<&Field>)> = Vec::new();
    for r in &m.resources {
        out.push((format!("field:{}.", r.meta.id), r.fields.iter().collect()));
    }
    for e in &m.endpoints {
        let id = &e.meta.id;
        out.push((format!("endpoint:{id}.path."), e.path_params.iter().collect()));
        out.push((format!("endpoint:{id}.query."), e.query.iter().collect()));
        out.push((format!("endpoint:{id}.headers."), e.headers.iter().collect()));
        out.push((format!("endpoint:{id}.body."), e.body.iter().collect()));
        out.push((format!("endpoint:{id}.body_schema."), e.body_schema.iter().collect()));
        out.push((format!("endpoint:{id}.parts."), e.parts.iter().collect()));
        out.push((format!("endpoint:{id}.response."), e.response_fields.iter().collect()));
        out.push((format!("endpoint:{id}.response_columns."), e.response_columns.iter().collect()));
        for r in &e.responses {
            let Some(response) = m.response_of(&r.response) else { continue };
            let status = &r.status.id;
            out.push((format!("endpoint:{id}.responses.{status}."), response.fields.iter().collect()));
        }
    }
    for u in &m.unions {
        out.push((format!("union:{}.", u.meta.id), u.variants.iter().collect()));
    }
    for e in &m.events {
        out.push((format!("event:{}.", e.meta.id), e.fields.iter().collect()));
    }
    for o in &m.opcodes {
        out.push((format!("opcode:{}.", o.meta.id), o.fields.iter().collect()));
    }
    for c in &m.classes {
        out.push((format!("class:{}.", c.meta.id), c.fields.iter().collect()));
    }
    if let Some(b) = &m.error_body {
        out.push(("error_body.".to_owned(), b.fields.iter().collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::yaml_scalar;

    /// Whatever a message says, its drafted summary reads back as the same text.
    #[test]
    fn a_summary_reads_back_as_written() {
        for text in ["Union a gains variant b.", "A (id: goes).", "- a list?", "x #1.", "'quoted'", "ends:", " padded", "tab\there", "\"q\" and \\"] {
            let yaml = format!("summary: {}", yaml_scalar(text));
            let read: std::collections::BTreeMap<String, String> = serde_saphyr::from_str(&yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"));
            assert_eq!(read["summary"], text, "{yaml}");
        }
    }
}
