//! The rules, one module per concern, each with the [`RuleDef`]s it reports and one function
//! per rule or per closely related group (a field's presence, type and bounds are one walk).
//!
//! Every check compares two projections of the same point of the timeline; the caller keeps the
//! first point each finding appears at.

/// A rule of the catalogue, in its group: `[kinds]` are the change kinds that announce it
/// (`Info` unless it says otherwise); a timeline rule gives whether it can be announced at all.
macro_rules! rule {
    ($group:literal, $name:ident, $id:literal, $summary:literal, [$($kind:literal),*], $otherwise:ident, $anchor:literal) => {
        pub static $name: $crate::diff::RuleDef = $crate::diff::RuleDef {
            id: $id,
            group: $group,
            summary: $summary,
            kinds: &[$($kind),*],
            claimable: true,
            otherwise: $crate::diff::Severity::$otherwise,
            anchor: $anchor,
        };
    };
    ($group:literal, $name:ident, $id:literal, $summary:literal, [$($kind:literal),*], $anchor:literal) => {
        rule!($group, $name, $id, $summary, [$($kind),*], Info, $anchor);
    };
    ($group:literal, $name:ident, $id:literal, $summary:literal, $claimable:literal, $otherwise:ident, $anchor:literal) => {
        pub static $name: $crate::diff::RuleDef = $crate::diff::RuleDef {
            id: $id,
            group: $group,
            summary: $summary,
            kinds: &[],
            claimable: $claimable,
            otherwise: $crate::diff::Severity::$otherwise,
            anchor: $anchor,
        };
    };
}

pub mod access;
pub mod events;
pub mod fields;
pub mod gateways;
pub mod http;
pub mod items;
pub mod messages;
pub mod platform;
pub mod sdk;
pub mod shapes;
pub mod timeline;
pub mod unions;
pub mod values;

use super::{Audiences, Finding, Impact, RuleDef, Severity};
use crate::diag::Span;
use crate::model::project::At;
use crate::model::{Meta, Model};

/// Runs every structural rule over two projections of point `at`.
pub fn run(old: &Model, new: &Model, at: At) -> Vec<Finding> {
    let mut cx = Cx { old, new, at, out: Vec::new() };
    items::check(&mut cx);
    access::check(&mut cx);
    shapes::check(&mut cx);
    unions::check(&mut cx);
    messages::check(&mut cx);
    http::check(&mut cx);
    events::check(&mut cx);
    gateways::check(&mut cx);
    sdk::check(&mut cx);
    platform::check(&mut cx);
    items::check_edits(&mut cx);
    cx.out
}

/// What a rule sees: both projections of one point, and where findings go.
pub struct Cx<'m> {
    pub old: &'m Model,
    pub new: &'m Model,
    pub at: At,
    pub out: Vec<Finding>,
}

impl Cx<'_> {
    /// Starts a finding of `rule` about `subject`.
    pub fn finding(&self, rule: &'static RuleDef, subject: &Subject, audiences: Audiences, message: impl Into<String>) -> Finding {
        let severity = if audiences.breaking() { Severity::Error } else { rule.otherwise };
        Finding {
            rule,
            severity,
            audiences,
            subject: subject.path.clone(),
            at: self.at,
            old: None,
            new: None,
            message: message.into(),
            claims: subject.claims.clone(),
            old_span: subject.old_span,
            new_span: subject.new_span,
            claimed_by: None,
            help: Vec::new(),
        }
    }

    /// Records a finding with its old and new values.
    pub fn report(&mut self, mut f: Finding, old: Option<String>, new: Option<String>) {
        f.old = old;
        f.new = new;
        self.out.push(f);
    }

    /// Records a finding of `rule` about `subject` with its values.
    pub fn push(
        &mut self,
        rule: &'static RuleDef,
        subject: &Subject,
        audiences: Audiences,
        message: impl Into<String>,
        old: Option<String>,
        new: Option<String>,
    ) {
        let f = self.finding(rule, subject, audiences, message);
        self.report(f, old, new);
    }

    /// Whether some finding of this point is about the item `typed` (`resource:widget`) or
    /// something inside it.
    pub fn explained(&self, typed: &str) -> bool {
        self.out.iter().any(|f| f.subject == typed || f.claims.iter().any(|c| c == typed))
    }
}

/// What a finding is about: its path, the typed references that can claim it, and where it is
/// on each side.
#[derive(Clone, Debug, Default)]
pub struct Subject {
    /// `field:widget.label`, `endpoint:rename_widget.body.tags`, ...
    pub path: String,
    /// The item and its containers as typed references (`field:widget.label`, `resource:widget`).
    pub claims: Vec<String>,
    /// Where the item is in the old spec.
    pub old_span: Option<Span>,
    /// Where the item is in the new spec.
    pub new_span: Option<Span>,
}

impl Subject {
    /// A subject at `path`, claimable by the typed references `claims`.
    pub fn new(path: impl Into<String>, claims: &[String]) -> Self {
        Self { path: path.into(), claims: claims.to_vec(), ..Self::default() }
    }

    /// An item of `kind` (`permission`) identified by `id`, inside `outer` containers, with
    /// its common fields on either side.
    pub fn item(kind: &str, id: &str, outer: &[String], old: Option<&Meta>, new: Option<&Meta>) -> Self {
        let path = format!("{kind}:{id}");
        let mut claims = vec![path.clone()];
        claims.extend(outer.iter().cloned());
        let mut s = Self::new(path, &claims);
        s.old_span = old.map(|m| m.id_span);
        s.new_span = new.map(|m| m.id_span);
        s
    }

    /// A subject inside this one (`.auth`), claimable by the same references and located
    /// at the same place.
    pub fn child(&self, suffix: &str) -> Self {
        Self { path: format!("{}{suffix}", self.path), ..self.clone() }
    }
}

/// Pairs two lists by key: `(old, new)` for items on both sides, in new order, then those only
/// in old, then those only in new.
pub fn pair<'a, T, K: PartialEq>(old: &'a [T], new: &'a [T], key: impl Fn(&T) -> K) -> Pairs<'a, T> {
    let mut out = Pairs { both: Vec::new(), removed: Vec::new(), added: Vec::new() };
    for n in new {
        match old.iter().find(|o| key(o) == key(n)) {
            Some(o) => out.both.push((o, n)),
            None => out.added.push(n),
        }
    }
    out.removed = old.iter().filter(|o| !new.iter().any(|n| key(n) == key(o))).collect();
    out
}

/// Two lists paired by key.
pub struct Pairs<'a, T> {
    pub both: Vec<(&'a T, &'a T)>,
    pub removed: Vec<&'a T>,
    pub added: Vec<&'a T>,
}

/// Shorthands for audience impacts.
pub const B: Impact = Impact::Breaking;
/// Compatible.
pub const C: Impact = Impact::Compatible;
/// Unaffected.
pub const U: Impact = Impact::Unaffected;

/// `Some(text)`.
pub fn some(text: impl ToString) -> Option<String> {
    Some(text.to_string())
}

/// Commands removed under their id whose id is now an alias of another command:
/// `(old id, new id)`.
pub fn renamed_commands(old: &Model, new: &Model) -> Vec<(String, String)> {
    let p = pair(&old.commands, &new.commands, |c| c.meta.id.clone());
    p.removed
        .iter()
        .filter_map(|o| {
            let n = p.added.iter().find(|n| n.aliases.iter().any(|a| a.meta.id == o.meta.id || a.meta.name == o.meta.name))?;
            Some((o.meta.id.clone(), n.meta.id.clone()))
        })
        .collect()
}
