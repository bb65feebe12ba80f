//! `diff OLD NEW`: every difference between two specs, classified per audience, and the dated
//! change that announces each breaking one.
//!
//! Both models are projected ([`crate::model::project`]) at every point where a change of
//! either takes effect, and the rules of the [`catalogue`] compare the two projections point by
//! point. A finding is reported once, at the first point it appears, so an edit bounded by a
//! dated change (an item given `until: its-removal`) shows up on the change's date and nowhere
//! before. Each finding says, for each audience (the wire contract between clients and
//! servers, the generated Rust source API, the C ABI), whether it breaks it.
//!
//! A breaking finding must be claimed by a change entry of the new spec (the `claims` module): an entry
//! that is new (or newly names the item), is in effect where the finding appears, names the
//! item (in `affects`, or as the item's own `since` / `until` / `deprecated`), and is of a kind
//! the rule accepts. `diff` exits 1 when one is not, with a `help:` that drafts the entry.

pub mod catalogue;
mod claims;
pub mod report;
mod rules;

pub use catalogue::{CATALOGUE, RuleDef};
pub use report::{Sides, render_text, summary, to_json};

use crate::diag::Span;
use crate::model::Model;
use crate::model::project::{At, points, project};
use serde::Serialize;

/// What a difference does to one audience.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Impact {
    /// Code or data that worked before stops working.
    Breaking,
    /// The audience sees the difference, and what worked keeps working.
    Compatible,
    /// The audience does not see the item at all.
    Unaffected,
}

/// The audiences of a spec: who reads what the generator makes of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Audiences {
    /// The HTTP and Gateway contract between clients and servers.
    pub wire: Impact,
    /// The source API of the generated Rust crates (types, server trait, client).
    pub rust: Impact,
    /// The C ABI (header, C++ wrapper, library).
    pub c: Impact,
}

impl Audiences {
    /// The same impact for every audience.
    pub const fn all(impact: Impact) -> Self {
        Self { wire: impact, rust: impact, c: impact }
    }

    /// `(wire, rust, c)`.
    pub const fn new(wire: Impact, rust: Impact, c: Impact) -> Self {
        Self { wire, rust, c }
    }

    /// Whether any audience breaks.
    pub fn breaking(&self) -> bool {
        [self.wire, self.rust, self.c].contains(&Impact::Breaking)
    }

    /// `(name, impact)` for each audience, in a fixed order.
    pub fn each(&self) -> [(&'static str, Impact); 3] {
        [("wire", self.wire), ("rust", self.rust), ("c", self.c)]
    }
}

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A difference worth listing.
    Info,
    /// Possibly breaking, or a timeline edit to look at; never fails the check.
    Warning,
    /// Breaking for some audience (or a rewrite of history): must be claimed by a change.
    Error,
}

/// One difference between the two specs.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The rule that found it.
    pub rule: &'static RuleDef,
    /// Error when some audience breaks, else the rule's own level.
    pub severity: Severity,
    /// Per audience.
    pub audiences: Audiences,
    /// What changed: `field:widget.label`, `endpoint:rename_widget.body.tags`, ...
    pub subject: String,
    /// The first point of the timeline where the two specs differ this way.
    pub at: At,
    /// The value before, in words.
    pub old: Option<String>,
    /// The value after, in words.
    pub new: Option<String>,
    /// One sentence.
    pub message: String,
    /// Typed references a change's `affects` may name to claim the finding: the item itself
    /// and the items that contain it.
    pub claims: Vec<String>,
    /// Where the item is in the old spec (a span into [`Sides::old`]'s sources).
    pub old_span: Option<Span>,
    /// Where the item is in the new spec.
    pub new_span: Option<Span>,
    /// The change of the new spec that announces it.
    pub claimed_by: Option<String>,
    /// What to do, for an unclaimed breaking finding: a drafted change entry.
    pub help: Vec<String>,
}

impl Finding {
    /// Whether the check fails on it: an error no change claims.
    pub fn is_uncovered(&self) -> bool {
        self.severity == Severity::Error && self.claimed_by.is_none()
    }

    /// A stable identity: the rule, the subject and both values.
    pub fn fingerprint(&self) -> String {
        let text = format!("{}\u{0}{}\u{0}{:?}\u{0}{:?}", self.rule.id, self.subject, self.old, self.new);
        // FNV-1a: stable across runs and platforms, unlike the standard library's hasher.
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        format!("{hash:016x}")
    }
}

/// Options of a diff.
#[derive(Clone, Debug, Default)]
pub struct DiffOptions {
    /// The day the check runs on. Checks never read the clock: without it, only changes
    /// `already_in_effect` count as history, and no entry can be found retroactive.
    pub today: Option<jiff::civil::Date>,
}

impl DiffOptions {
    /// Sets the day the check runs on.
    pub fn with_today(mut self, today: jiff::civil::Date) -> Self {
        self.today = Some(today);
        self
    }
}

/// Every difference between `old` and `new`, claimed where a change of `new` announces it,
/// sorted by point, subject and rule.
pub fn diff(old: &Model, new: &Model, opts: &DiffOptions) -> Vec<Finding> {
    let mut findings: Vec<Finding> = Vec::new();
    for at in points([old, new]) {
        let (o, n) = (project(old, at), project(new, at));
        for f in rules::run(&o, &n, at) {
            if !findings.iter().any(|seen| seen.fingerprint() == f.fingerprint()) {
                findings.push(f);
            }
        }
    }
    findings.extend(rules::timeline::check(old, new, opts));
    for f in &mut findings {
        claims::claim(f, old, new);
    }
    findings.sort_by(|a, b| (a.at, &a.subject, a.rule.id, &a.old, &a.new).cmp(&(b.at, &b.subject, b.rule.id, &b.old, &b.new)));
    findings
}
