//! The docs' view of the model: what the templates print, computed once for both formats.
//!
//! Everything here is data (text, rich text, links, marks); the templates decide only layout,
//! so the HTML page and the Markdown reference cannot disagree on content.

use crate::emit::docs::words::{self, Rich, Span, anchor, href};
use crate::model::{Change, Effective, Gap, Meta, Model, Ref, TypedRef};
use indexmap::IndexMap;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;

/// What every item shows: name, id, lifecycle badges, changelog links, gaps, assumptions, notes.
#[derive(Debug, Serialize)]
pub struct MetaView {
    pub kind: &'static str,
    pub id: String,
    pub anchor: String,
    pub name: String,
    pub description: Option<String>,
    pub badges: Vec<Badge>,
    pub changes: Vec<Span>,
    pub gaps: Vec<GapView>,
    pub assumed: Vec<AssumedView>,
    pub notes: Vec<String>,
}

/// A `since` / `until` / `deprecated` badge, linked to its change.
#[derive(Debug, Serialize)]
pub struct Badge {
    pub kind: &'static str,
    pub text: String,
    pub href: String,
    pub title: String,
    /// The effective date, when the change has one (lets the page say "upcoming" on the
    /// reader's clock, never the build's).
    pub date: Option<String>,
}

/// A facet the source does not show.
#[derive(Debug, Serialize)]
pub struct GapView {
    pub facet: String,
    pub detail: Option<String>,
}

/// A value the spec assumed, with the reason.
#[derive(Debug, Serialize)]
pub struct AssumedView {
    pub facet: String,
    pub reason: String,
}

/// A value that may be not shown (a visible mark instead of it), partly shown (the value given
/// and a mark saying what more is missing) or assumed (a mark beside it).
#[derive(Debug, Default, Serialize)]
pub struct Cell {
    pub value: Rich,
    pub not_shown: bool,
    /// The value is given and the source leaves the rest of the facet out (`detail` says what):
    /// the mark must not read as if the value shown were missing.
    pub partial: bool,
    pub detail: Option<String>,
    pub assumed: Option<String>,
}

/// The honesty keys of an item, wherever they live (item meta, field, error body, ...).
#[derive(Clone, Copy)]
pub struct Facets<'a> {
    pub not_shown: &'a [Gap],
    pub assumed: &'a IndexMap<String, String>,
}

impl<'a> Facets<'a> {
    pub fn of(meta: &'a Meta) -> Self {
        Self { not_shown: &meta.not_shown, assumed: &meta.assumed }
    }

    /// The cell of one facet: its value, marked when the source does not show it or the spec
    /// assumed it. A gap with a detail beside a given value is partial: the value is shown with
    /// a "partly shown" mark, never a "not shown" one.
    pub fn cell(&self, facet: &str, value: Option<Rich>) -> Cell {
        let gap = self.not_shown.iter().find(|g| g.facet == facet);
        let partial = value.is_some() && gap.is_some_and(|g| g.detail.is_some());
        Cell {
            not_shown: !partial && (gap.is_some() || value.is_none()),
            partial,
            detail: gap.and_then(|g| g.detail.clone()),
            assumed: self.assumed.get(facet).cloned(),
            value: value.unwrap_or_default(),
        }
    }

    pub fn gaps(&self) -> Vec<GapView> {
        self.not_shown.iter().map(|g| GapView { facet: g.facet.clone(), detail: g.detail.clone() }).collect()
    }

    pub fn assumptions(&self) -> Vec<AssumedView> {
        self.assumed.iter().map(|(f, r)| AssumedView { facet: f.clone(), reason: r.clone() }).collect()
    }
}

/// The builder's context: the model plus indexes every view needs.
pub struct Cx<'a> {
    pub model: &'a Model,
    /// Display label of every anchor, for link texts.
    labels: HashMap<String, String>,
    /// Changes naming an anchor in `affects`.
    affected: HashMap<String, Vec<&'a Change>>,
    /// Every lifecycle badge given out, by change id, for the changelog's per-change lists.
    pub lifecycle: RefCell<Vec<(String, &'static str, Span)>>,
    /// Inline shapes already shown (`object:id`, `union:id`): each is shown once, under the
    /// first field that has it.
    pub shown_inline: RefCell<std::collections::BTreeSet<String>>,
}

impl<'a> Cx<'a> {
    pub fn new(model: &'a Model) -> Self {
        let mut affected: HashMap<String, Vec<&Change>> = HashMap::new();
        for c in &model.changes {
            for r in &c.affects {
                affected.entry(anchor(&r.kind, &r.id)).or_default().push(c);
            }
        }
        Self { model, labels: labels(model), affected, lifecycle: RefCell::default(), shown_inline: RefCell::default() }
    }

    /// Whether an element with this anchor is rendered.
    pub fn has_anchor(&self, anchor: &str) -> bool {
        self.labels.contains_key(anchor)
    }

    /// A link to an item: its name as text, or its id as code when it has no other name.
    pub fn link(&self, kind: &str, id: &str) -> Span {
        let a = anchor(kind, id);
        let label = self.labels.get(&a).cloned().unwrap_or_else(|| id.to_owned());
        let code = label == id;
        Span { text: label, href: Some(format!("#{a}")), code }
    }

    pub fn typed(&self, r: &TypedRef) -> Span {
        self.link(&r.kind, &r.id)
    }

    pub fn typed_all(&self, refs: &[TypedRef]) -> Vec<Span> {
        refs.iter().map(|r| self.typed(r)).collect()
    }

    pub fn refs(&self, kind: &str, refs: &[Ref]) -> Vec<Span> {
        refs.iter().map(|r| self.link(kind, &r.id)).collect()
    }

    /// The common view of an item rendered under `kind-anchor_id`.
    pub fn meta(&self, kind: &'static str, anchor_id: &str, meta: &Meta) -> MetaView {
        let a = anchor(kind, anchor_id);
        let f = Facets::of(meta);
        // A whole facet that a cell of the item already marks needs no second line; a partial
        // gap keeps its line for the detail.
        let inline = INLINE.iter().find(|(k, _)| *k == kind).map_or(&[][..], |(_, facets)| *facets);
        let gaps = f.gaps().into_iter().filter(|g| g.detail.is_some() || !inline.contains(&g.facet.as_str())).collect();
        MetaView {
            kind,
            id: meta.id.clone(),
            name: meta.name.clone(),
            description: meta.description.clone(),
            badges: self.badges(&a, &meta.name, [&meta.since, &meta.until, &meta.deprecated]),
            changes: self.changes_of(&a),
            gaps,
            assumed: f.assumptions(),
            notes: meta.notes.clone(),
            anchor: a,
        }
    }

    /// The changelog entries that name an anchor.
    pub fn changes_of(&self, anchor: &str) -> Vec<Span> {
        self.affected.get(anchor).map_or_else(Vec::new, |list| list.iter().map(|c| self.change_link(c)).collect())
    }

    fn change_link(&self, c: &Change) -> Span {
        Span { text: format!("{} ({})", c.meta.id, when(c.effective)), href: Some(href("change", &c.meta.id)), code: false }
    }

    /// Badges for `[since, until, deprecated]`, recorded for the changelog under the item
    /// `anchor` labelled `label`.
    pub fn badges(&self, anchor: &str, label: &str, refs: [&Option<Ref>; 3]) -> Vec<Badge> {
        let mut out = Vec::new();
        for (kind, r) in ["since", "until", "deprecated"].into_iter().zip(refs) {
            let Some(r) = r else { continue };
            let Some(c) = self.model.change(&r.id) else { continue };
            let text = match (kind, c.effective) {
                ("deprecated", Effective::AlreadyInEffect) => "deprecated".to_owned(),
                (_, Effective::Date(d)) => format!("{kind} {d}"),
                (_, e) => format!("{kind}: {}", when(e)),
            };
            let item = Span { text: label.to_owned(), href: Some(format!("#{anchor}")), code: false };
            self.lifecycle.borrow_mut().push((c.meta.id.clone(), kind, item));
            out.push(Badge { kind, text, href: href("change", &c.meta.id), title: format!("{}: {}", c.meta.id, c.summary), date: date(c.effective) });
        }
        out
    }
}

/// Facets each kind shows in a cell of its own (marked there when not shown).
const INLINE: &[(&str, &[&str])] = &[
    ("permission", &["bit"]),
    ("flag", &["bit"]),
    ("enum_value", &["value"]),
    ("error", &["code", "status", "message"]),
    ("endpoint", &["method", "path", "response"]),
    ("event", &["payload"]),
    ("class", &["members"]),
    ("method", &["name", "type"]),
    ("sdk_call", &["type"]),
    ("webhook", &["envelope", "verification", "retry", "ack_deadline"]),
    ("gateway", &["url", "envelope", "roles", "heartbeat_interval", "identify_token", "ready", "resume", "close_codes", "send_limit", "identify_limit"]),
];

/// When a change takes effect, in words.
pub fn when(e: Effective) -> String {
    match e {
        Effective::AlreadyInEffect => "already in effect".into(),
        Effective::Unscheduled => "unscheduled".into(),
        Effective::Date(d) => d.to_string(),
    }
}

pub fn date(e: Effective) -> Option<String> {
    match e {
        Effective::Date(d) => Some(d.to_string()),
        _ => None,
    }
}

/// The label of every rendered anchor. Building it walks the same items the templates render,
/// so a link to an anchor missing here would be a dangling link (a test checks none is).
fn labels(model: &Model) -> HashMap<String, String> {
    let mut out = Labels::default();
    for (kind, meta) in model.items() {
        out.add(kind, &meta.id, &meta.name);
    }
    for r in &model.responses {
        out.add("response", &r.id, &r.id);
    }
    for h in &model.headers {
        out.add("header", &h.name, h.wire());
    }
    member_labels(&mut out, model);
    machine_labels(&mut out, model);
    owned_labels(&mut out, model);
    for (id, name) in SINGLETONS {
        out.add("section", id, name);
    }
    out.0
}

/// Anchor labels by anchor; an anchor reached twice keeps the label it was first given.
#[derive(Default)]
struct Labels(HashMap<String, String>);

impl Labels {
    /// Labels the anchor of `kind` and `id` with `name`, unless it has a label already.
    fn add(&mut self, kind: &str, id: &str, name: &str) {
        self.0.entry(anchor(kind, id)).or_insert_with(|| name.to_owned());
    }
}

/// Labels resource fields, enum values, flags, endpoint behaviours and state machine
/// transitions, each anchored under its owner as `<owner>.<id>`.
fn member_labels(out: &mut Labels, model: &Model) {
    for r in &model.resources {
        for f in &r.fields {
            out.add("field", &format!("{}.{}", r.meta.id, f.name), &format!("{}.{}", r.meta.id, f.wire()));
        }
    }
    for e in &model.enums {
        for v in &e.values {
            out.add("enum_value", &format!("{}.{}", e.meta.id, v.meta.id), &v.meta.name);
        }
    }
    for f in &model.flags {
        for v in &f.values {
            out.add("flag", &format!("{}.{}", f.meta.id, v.meta.id), &v.meta.name);
        }
    }
    for e in &model.endpoints {
        for b in &e.behaviours {
            out.add("behaviour", &format!("{}.{}", e.meta.id, b.meta.id), &b.meta.name);
        }
    }
    for m in &model.state_machines {
        for t in &m.transitions {
            out.add("transition", &format!("{}.{}", m.meta.id, t.meta.id), &t.meta.name);
        }
    }
}

/// Labels the states of each state machine and the effects of its transitions.
fn machine_labels(out: &mut Labels, model: &Model) {
    for m in &model.state_machines {
        for s in &m.states {
            out.add("state", &format!("{}.{}", m.meta.id, s.meta.id), &s.meta.name);
        }
        for t in &m.transitions {
            for e in &t.effects {
                out.add("effect", &format!("{}.{}.{}", m.meta.id, t.meta.id, e.meta.id), &e.meta.name);
            }
        }
    }
}

/// Labels class methods, resource and event cases, release toolkits and command aliases.
fn owned_labels(out: &mut Labels, model: &Model) {
    for c in &model.classes {
        for m in &c.methods {
            out.add("method", &format!("{}.{}", c.meta.id, m.meta.id), &m.meta.name);
        }
    }
    for r in &model.resources {
        for c in &r.cases {
            out.add("case", &format!("{}.{}", r.meta.id, c.meta.id), &c.meta.name);
        }
    }
    for e in &model.events {
        for c in &e.cases {
            out.add("case", &format!("{}.{}", e.meta.id, c.meta.id), &c.meta.name);
        }
    }
    for r in &model.releases {
        for t in &r.toolkits {
            out.add("toolkit", &format!("{}.{}", r.meta.id, t.meta.id), &t.meta.name);
        }
    }
    for c in &model.commands {
        for a in &c.aliases {
            out.add("alias", &format!("{}.{}", c.meta.id, a.meta.id), &a.meta.name);
        }
    }
}

/// Sections that are not items of a list: `section-<id>`.
pub const SINGLETONS: &[(&str, &str)] = &[
    ("error-body", "Error body"),
    ("authorization-server", "Authorization server"),
    ("release-policy", "Release policy and support window"),
    ("changelog", "Changelog"),
    ("coverage", "Gaps and assumptions"),
    ("openapi", "OpenAPI document"),
];

/// The anchor a coverage entry (`kind:id` or `kind:id.field`) links to, if any.
pub fn coverage_anchor(cx: &Cx, item: &str) -> Option<String> {
    let (kind, rest) = item.split_once(':')?;
    let special = match kind {
        "error_body" => Some("error-body"),
        "authorization_server" => Some("authorization-server"),
        "release_policy" => Some("release-policy"),
        _ => None,
    };
    if let Some(s) = special {
        return Some(anchor("section", s));
    }
    let direct = anchor(kind, rest);
    if cx.has_anchor(&direct) {
        return Some(direct);
    }
    if kind == "resource" && cx.has_anchor(&anchor("field", rest)) {
        return Some(anchor("field", rest));
    }
    // Values, behaviours, transitions and methods are anchored under their parent; the ledger
    // names only the value, so look the value up among every parent.
    let nested = match kind {
        "enum_value" => cx.model.enums.iter().find(|e| e.values.iter().any(|v| v.meta.id == rest)).map(|e| &e.meta.id),
        "flag" => cx.model.flags.iter().find(|f| f.values.iter().any(|v| v.meta.id == rest)).map(|f| &f.meta.id),
        "behaviour" => cx.model.endpoints.iter().find(|e| e.behaviours.iter().any(|b| b.meta.id == rest)).map(|e| &e.meta.id),
        "transition" => cx.model.state_machines.iter().find(|m| m.transitions.iter().any(|t| t.meta.id == rest)).map(|m| &m.meta.id),
        "method" => cx.model.classes.iter().find(|c| c.methods.iter().any(|m| m.meta.id == rest)).map(|c| &c.meta.id),
        _ => None,
    };
    if let Some(parent) = nested {
        return Some(anchor(kind, &format!("{parent}.{rest}")));
    }
    // `kind:owner.member`: the member is shown on its owner.
    let owner = anchor(kind, rest.split_once('.')?.0);
    cx.has_anchor(&owner).then_some(owner)
}

/// Rich text of a rule, re-exported for item builders.
pub fn rule_words(cx: &Cx, rule: &crate::model::Rule) -> Rich {
    words::rule(cx.model, rule)
}
