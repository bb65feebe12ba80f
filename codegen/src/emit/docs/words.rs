//! Model expressions in words: permission rules, conditions, types and constraints, as rich text
//! (runs of text, code and links) that the HTML and Markdown templates render and the OpenAPI
//! document carries as plain text.

use crate::model::{Bound, Cond, Constraints, Field, Model, Rule, TypeRef};
use serde::Serialize;

/// One run of rich text.
#[derive(Clone, Debug, Serialize)]
pub struct Span {
    pub text: String,
    /// A link target within the page (`#permission-PIN_MESSAGES`).
    pub href: Option<String>,
    /// Whether the run is an identifier or other code.
    pub code: bool,
}

/// Rich text: runs rendered one after another.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(transparent)]
pub struct Rich(pub Vec<Span>);

impl Rich {
    /// Plain text.
    pub fn plain(text: impl Into<String>) -> Rich {
        let mut r = Rich::default();
        r.text(text);
        r
    }

    /// Code without a link.
    pub fn code(text: impl Into<String>) -> Rich {
        let mut r = Rich::default();
        r.push(text, None, true);
        r
    }

    pub fn text(&mut self, text: impl Into<String>) -> &mut Self {
        self.push(text, None, false)
    }

    pub fn link(&mut self, text: impl Into<String>, href: String, code: bool) -> &mut Self {
        self.push(text, Some(href), code)
    }

    pub fn append(&mut self, other: Rich) -> &mut Self {
        other.0.into_iter().for_each(|s| self.0.push(s));
        self
    }

    fn push(&mut self, text: impl Into<String>, href: Option<String>, code: bool) -> &mut Self {
        let text = text.into();
        match self.0.last_mut() {
            // Adjacent runs of the same style merge, so the output has no needless fragments.
            Some(last) if href.is_none() && last.href.is_none() && last.code == code => last.text.push_str(&text),
            _ => self.0.push(Span { text, href, code }),
        }
        self
    }

    /// The text without markup, for search and tests.
    pub fn to_plain(&self) -> String {
        self.0.iter().map(|s| s.text.as_str()).collect()
    }
}

/// The in-page link target of an item: `#kind-id`.
pub fn href(kind: &str, id: &str) -> String {
    format!("#{}", anchor(kind, id))
}

/// The element id of an item: `kind-id`, the same spelling as the spec's typed references.
pub fn anchor(kind: &str, id: &str) -> String {
    format!("{kind}-{id}")
}

/// A permission rule in words: `SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS when the bot user
/// is not connected to the voice channel`.
pub fn rule(model: &Model, rule: &Rule) -> Rich {
    let mut out = Rich::default();
    rule_into(&mut out, model, rule, false);
    out
}

fn rule_into(out: &mut Rich, model: &Model, rule: &Rule, nested: bool) {
    match rule {
        Rule::Permission(p) => {
            out.link(&p.id, href("permission", &p.id), true);
        }
        Rule::Intent(i) => {
            out.text("the ").link(&i.id, href("intent", &i.id), true).text(" intent");
        }
        Rule::Scope(s) => {
            out.text("the scope ").link(&s.id, href("scope", &s.id), true);
        }
        Rule::Condition(c) => condition_into(out, model, c),
        Rule::All(rules) => list_into(out, model, rules, "and", nested),
        Rule::Any(rules) => list_into(out, model, rules, "or", nested),
        Rule::When { when, then, otherwise } => {
            // A nested `when ... otherwise` would leave the reader unsure where the else ends.
            let paren = nested && otherwise.is_some();
            if paren {
                out.text("(");
            }
            rule_into(out, model, then, true);
            out.text(" when ");
            condition_into(out, model, when);
            if let Some(o) = otherwise {
                out.text("; otherwise ");
                rule_into(out, model, o, false);
            }
            if paren {
                out.text(")");
            }
        }
    }
}

fn list_into(out: &mut Rich, model: &Model, rules: &[Rule], word: &str, nested: bool) {
    let paren = nested && rules.len() > 1;
    // A clause (`... when ...`, a condition) among the operands needs a comma before the last
    // conjunction, or the conjunction reads as part of the clause.
    let clause = rules.iter().any(|r| matches!(r, Rule::When { .. } | Rule::Condition(_)));
    if paren {
        out.text("(");
    }
    for (i, r) in rules.iter().enumerate() {
        if i > 0 {
            let last = i + 1 == rules.len();
            out.text(match (last, clause || rules.len() > 2) {
                (false, _) => ", ".to_owned(),
                (true, true) => format!(", {word} "),
                (true, false) => format!(" {word} "),
            });
        }
        rule_into(out, model, r, true);
    }
    if paren {
        out.text(")");
    }
}

/// A condition as a clause: its description, lowercased, with the argument named and negation
/// applied (`the bot user is not connected to the voice channel`).
pub fn condition(model: &Model, cond: &Cond) -> Rich {
    let mut out = Rich::default();
    condition_into(&mut out, model, cond);
    out
}

fn condition_into(out: &mut Rich, model: &Model, cond: &Cond) {
    let (named, arg) = cond.named();
    let negated = negations(cond) % 2 == 1;
    let def = model.conditions.iter().find(|c| c.meta.id == named.id);
    let mut clause = def.and_then(|c| c.meta.description.as_deref()).map_or_else(|| named.id.replace('_', " "), as_clause);
    if negated {
        clause = negate(&clause);
    }
    let Some(arg) = arg else {
        out.text(clause);
        return;
    };
    let param = def.and_then(|c| c.params.first()).map_or("argument", String::as_str);
    let arg_href = def.and_then(|c| c.param_enums.first()).map(|e| href("enum_value", &format!("{}.{arg}", e.id)));
    let given = format!("the given {param}");
    let (before, after) = match clause.split_once(&given) {
        Some((b, a)) => (format!("{b}the {param} "), a.to_owned()),
        None => (format!("{clause} ({param} "), ")".to_owned()),
    };
    out.text(before);
    match arg_href {
        Some(h) => out.link(arg, h, true),
        None => out.push(arg, None, true),
    };
    out.text(after);
}

fn negations(cond: &Cond) -> usize {
    match cond {
        Cond::Not(inner) => 1 + negations(inner),
        Cond::Named { .. } => 0,
    }
}

/// A description sentence as a clause: no final period, first letter lowercased unless the first
/// word is an acronym.
fn as_clause(description: &str) -> String {
    let text = description.trim().trim_end_matches('.');
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && !second.is_uppercase() => first.to_lowercase().chain(text.chars().skip(1)).collect(),
        _ => text.to_owned(),
    }
}

/// Negates a clause at its first verb (`is` -> `is not`, `has` -> `does not have`); a clause with
/// none of the verbs is wrapped instead.
fn negate(clause: &str) -> String {
    const VERBS: &[(&str, &str)] =
        &[(" is ", " is not "), (" are ", " are not "), (" has ", " does not have "), (" can ", " cannot "), (" uses ", " does not use ")];
    let first = VERBS.iter().filter_map(|(v, n)| clause.find(v).map(|at| (at, *v, *n))).min_by_key(|(at, ..)| *at);
    match first {
        Some((at, verb, neg)) => format!("{}{neg}{}", &clause[..at], &clause[at + verb.len()..]),
        None => format!("it is not the case that {clause}"),
    }
}

/// A type in the spec's spelling, with resources, enums, flag sets and classes linked.
pub fn type_ref(ty: &TypeRef) -> Rich {
    let mut out = Rich::default();
    type_into(&mut out, ty);
    out
}

fn type_into(out: &mut Rich, ty: &TypeRef) {
    let (ctor, kind, id) = match ty {
        TypeRef::Primitive(p) => {
            out.push(p.name(), None, true);
            return;
        }
        TypeRef::Array(inner) => {
            out.push("array<", None, true);
            type_into(out, inner);
            out.push(">", None, true);
            return;
        }
        TypeRef::Map(key, value) => {
            out.push("map<", None, true);
            type_into(out, key);
            out.push(", ", None, true);
            type_into(out, value);
            out.push(">", None, true);
            return;
        }
        TypeRef::Union(id) => ("union", "union", id),
        TypeRef::Enum(id) => ("enum", "enum", id),
        TypeRef::Flags(id) => ("flags", "flags", id),
        TypeRef::Object(id) => ("object", "resource", id),
        TypeRef::Class(id) => ("class", "class", id),
    };
    out.push(format!("{ctor}<"), None, true);
    out.link(id, href(kind, id), true);
    out.push(">", None, true);
}

/// Every constraint of a field in words: `at most 500 characters (limit voice_channel_status_length)`,
/// then the value rules (`always 2`, `one of A, B`) and the rules of its items.
pub fn constraints(model: &Model, field: &Field) -> Vec<Rich> {
    let mut out = constraint_set(model, &field.constraints, "");
    if let Some(c) = &field.constant {
        let mut r = Rich::plain("always ");
        r.push(c.value.to_string(), None, true);
        out.push(r);
    }
    if !field.subset.is_empty() {
        let mut r = Rich::plain("only ");
        let enum_id = match field.ty.as_ref().map(TypeRef::element) {
            Some(TypeRef::Enum(id)) => id.as_str(),
            _ => "",
        };
        for (i, v) in field.subset.iter().enumerate() {
            if i > 0 {
                r.text(if i + 1 == field.subset.len() { " or " } else { ", " });
            }
            r.link(&v.id, href("enum_value", &format!("{enum_id}.{}", v.id)), true);
        }
        out.push(r);
    }
    let (mut items, mut lead, mut ty) = (field.items.as_ref(), String::new(), field.ty.as_ref());
    while let Some(i) = items {
        lead.push_str(match ty {
            Some(TypeRef::Map(..)) => "each value: ",
            _ => "each item: ",
        });
        ty = match ty {
            Some(TypeRef::Array(inner) | TypeRef::Map(_, inner)) => Some(inner),
            _ => None,
        };
        if i.nullable {
            out.push(Rich::plain(format!("{lead}may be null")));
        }
        out.extend(constraint_set(model, &i.constraints, &lead));
        items = i.items.as_deref();
    }
    out
}

/// The constraints of one set in words, each led by `lead` (`each item: `).
fn constraint_set(model: &Model, c: &Constraints, lead: &str) -> Vec<Rich> {
    let mut out: Vec<Rich> = c
        .all()
        .into_iter()
        .map(|(key, bound)| {
            let mut r = Rich::plain(lead);
            r.append(constraint(model, key, bound));
            r
        })
        .collect();
    if c.unique_items {
        out.push(Rich::plain(format!("{lead}items are unique")));
    }
    if let Some(p) = &c.pattern {
        let mut r = Rich::plain(format!("{lead}matches "));
        r.push(p.regex.as_str(), None, true);
        out.push(r);
    }
    out
}

/// A count's unit in the number it takes: `1 entry`, `2 entries`.
fn counted(value: i64, unit: &str) -> String {
    if value.unsigned_abs() != 1 {
        return unit.to_owned();
    }
    match unit.strip_suffix("ies") {
        Some(stem) => format!("{stem}y"),
        None => unit.strip_suffix('s').unwrap_or(unit).to_owned(),
    }
}

/// One constraint (`max_items` of a bound) in words: `at most 200 items (limit ...)`.
pub fn constraint(model: &Model, key: &str, bound: &Bound) -> Rich {
    let (lead, unit) = match key {
        "min" => ("minimum ", ""),
        "max" => ("maximum ", ""),
        "min_exclusive" => ("greater than ", ""),
        "max_exclusive" => ("less than ", ""),
        "min_length" => ("at least ", " characters"),
        "max_length" => ("at most ", " characters"),
        "min_items" => ("at least ", " items"),
        "max_items" => ("at most ", " items"),
        "min_entries" => ("at least ", " entries"),
        "max_entries" => ("at most ", " entries"),
        _ => ("at most ", " bytes"),
    };
    let mut out = Rich::plain(lead);
    match bound {
        Bound::Value(_, v) => {
            out.text(format!("{v}{}", counted(*v, unit)));
        }
        Bound::Float(_, v) => {
            out.text(format!("{v}{unit}"));
        }
        Bound::Limit { limit, offset } => {
            let def = model.limit(&limit.id);
            let value = def.and_then(|l| if key.starts_with("min") { l.lower() } else { l.upper() });
            // A size keeps the limit's own unit (20 MiB); counts keep the constraint's.
            let unit = match (key, def) {
                ("max_size", Some(l)) => format!(" {}", l.unit.id),
                _ => unit.to_owned(),
            };
            match value {
                Some(v) => out.text(format!("{}{unit} (", v + offset)),
                None => out.text("the value of "),
            };
            out.text("limit ").link(&limit.id, href("limit", &limit.id), true);
            if value.is_some() {
                out.text(")");
            }
        }
        Bound::Field { endpoint, field, offset } => {
            out.push(field.as_str(), None, true).text(" of ").link(&endpoint.id, href("endpoint", &endpoint.id), true);
            if *offset != 0 {
                out.text(format!(" {} {}", if *offset < 0 { "−" } else { "+" }, offset.unsigned_abs()));
            }
            out.text(" (known at run time)");
        }
    }
    out
}

/// How an endpoint pages, in words: the way, where the items are, the page size.
/// A streamed body in words: its framing and what each message holds (`server-sent events:
/// `created` (note), `deleted` (snowflake)`).
pub fn stream(r: &crate::model::Response, framing: crate::model::Framing) -> Rich {
    let mut out = Rich::plain(match framing {
        crate::model::Framing::Events => "a stream of server-sent events",
        crate::model::Framing::JsonLines => "a stream of JSON Lines",
    });
    if let Some(ty) = &r.ty {
        out.text(", each ");
        out.append(type_ref(ty));
        if r.nullable {
            out.text(" or null");
        }
    }
    for (i, e) in r.events.iter().enumerate() {
        out.text(if i == 0 { ": " } else { ", " });
        out.append(Rich::code(e.name.clone()));
        if let Some(ty) = &e.ty {
            out.text(" (");
            out.append(type_ref(ty));
            out.text(")");
        }
    }
    out
}

pub fn pagination(p: &crate::model::Pagination) -> Rich {
    use crate::model::PageWay;
    let mut r = Rich::default();
    match p.way() {
        Some(PageWay::Cursor { param, from }) => {
            r.text("by cursor: each next page sends ");
            r.push(&param.id, None, true);
            r.text(" the answer's ");
            r.push(&from.id, None, true);
            r.text(", until the answer has none");
        }
        Some(PageWay::Keyset { param, item }) => {
            r.text("by key: each next page sends ");
            r.push(&param.id, None, true);
            r.text(" the ");
            r.push(&item.id, None, true);
            r.text(" of the last item, until a page is empty or shorter than asked");
        }
        Some(PageWay::Offset { param }) => {
            r.text("by offset: each next page sends ");
            r.push(&param.id, None, true);
            r.text(" the count of the items before it, until a page is empty or shorter than asked");
        }
        Some(PageWay::Link { param, header }) => {
            r.text("by link: each next page sends ");
            r.push(&param.id, None, true);
            r.text(" as the answer's ");
            r.push(&header.id, None, true);
            r.text(" header (RFC 8288) gives it in the address of `rel=\"next\"`, until there is none");
        }
        None => {
            r.text("in no way the spec gives");
        }
    }
    if let Some(items) = &p.items {
        r.text("; the items are in ");
        r.push(&items.id, None, true);
    }
    if let Some(limit) = &p.limit {
        r.text("; ");
        r.push(&limit.id, None, true);
        r.text(" bounds a page");
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_negate_at_their_verb() {
        assert_eq!(negate("the bot user is connected to the voice channel"), "the bot user is not connected to the voice channel");
        assert_eq!(negate("the guild has the feature"), "the guild does not have the feature");
        assert_eq!(negate("pigs fly"), "it is not the case that pigs fly");
    }

    #[test]
    fn descriptions_become_clauses() {
        assert_eq!(as_clause("The caller created the widget."), "the caller created the widget");
        assert_eq!(as_clause("API is ready."), "API is ready");
    }

    #[test]
    fn adjacent_plain_runs_merge() {
        let mut r = Rich::plain("a");
        r.text("b").link("c", "#x".into(), true).text("d");
        assert_eq!(r.0.len(), 3);
        assert_eq!(r.to_plain(), "abcd");
    }
}
