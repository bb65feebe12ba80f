//! Time and honesty: the changelog by effective date, SDK releases with their support window, and
//! the ledger of gaps and assumptions.

use super::items::Fact;
use super::view::{AssumedView, Cell, Cx, Facets, GapView, MetaView, coverage_anchor, when};
use crate::emit::docs::words::{Rich, Span, href};
use crate::model::coverage::GENERAL;
use crate::model::coverage::{self, Entry};
use crate::model::{Change, Effective, Release, ReleasePolicy};
use serde::Serialize;
use std::collections::BTreeMap;

/// Changes sharing an effective date (or `already in effect`, or `unscheduled`).
#[derive(Debug, Serialize)]
pub struct ChangeGroup {
    pub title: String,
    pub anchor: String,
    pub date: Option<String>,
    pub changes: Vec<ChangeView>,
}

#[derive(Debug, Serialize)]
pub struct ChangeView {
    pub meta: MetaView,
    pub effective: Cell,
    pub kind: String,
    pub summary: String,
    pub gate: bool,
    pub affects: Vec<Span>,
    /// Before and after: the rule forms and limit values the change separates.
    pub details: Vec<Rich>,
    /// Items that start, end or are deprecated with the change.
    pub lifecycle: Vec<Rich>,
}

/// The changelog: already in effect first, then each date in order, then unscheduled. Call it
/// after the parts are built: it lists the lifecycle badges they gave out.
pub fn changelog(cx: &Cx) -> Vec<ChangeGroup> {
    let mut dated: BTreeMap<jiff::civil::Date, Vec<&Change>> = BTreeMap::new();
    let (mut now, mut later) = (Vec::new(), Vec::new());
    for c in &cx.model.changes {
        match c.effective {
            Effective::AlreadyInEffect => now.push(c),
            Effective::Unscheduled => later.push(c),
            Effective::Date(d) => dated.entry(d).or_default().push(c),
        }
    }
    let group = |title: String, slug: String, date: Option<String>, list: Vec<&Change>| ChangeGroup {
        title,
        anchor: format!("changelog-{slug}"),
        date,
        changes: list.into_iter().map(|c| change(cx, c)).collect(),
    };
    let mut out = Vec::new();
    if !now.is_empty() {
        out.push(group("Already in effect".into(), "in-effect".into(), None, now));
    }
    for (d, list) in dated {
        out.push(group(d.to_string(), d.to_string(), Some(d.to_string()), list));
    }
    if !later.is_empty() {
        out.push(group("Unscheduled".into(), "unscheduled".into(), None, later));
    }
    out
}

fn change(cx: &Cx, c: &Change) -> ChangeView {
    let id = &c.meta.id;
    let mut details = Vec::new();
    for r in &cx.model.permission_rules {
        for v in &r.variants {
            let side = match (&v.until, &v.since) {
                (Some(u), _) if &u.id == id => "Before",
                (_, Some(s)) if &s.id == id => "After",
                _ => continue,
            };
            let mut line = Rich::plain(format!("{side}: "));
            line.append(super::view::rule_words(cx, &v.rule)).text(" (rule ");
            line.0.push(cx.link("permission_rule", &r.meta.id));
            line.text(")");
            details.push(line);
        }
    }
    for l in &cx.model.limits {
        for p in l.previous.iter().filter(|p| &p.until.id == id) {
            let mut line = Rich::default();
            line.0.push(cx.link("limit", &l.meta.id));
            let now = l.upper().or(l.lower()).map_or_else(String::new, |v| format!(", after: {v} {}", l.unit.id));
            line.text(format!(": before: {} {}{now}", p.value, l.unit.id));
            details.push(line);
        }
    }
    let lifecycle = cx
        .lifecycle
        .borrow()
        .iter()
        .filter(|(change, ..)| change == id)
        .map(|(_, kind, item)| {
            let mut line = Rich::plain(lifecycle_verb(kind, &c.kind.id));
            line.0.push(item.clone());
            line
        })
        .collect();
    ChangeView {
        meta: cx.meta("change", id, &c.meta),
        effective: Facets::of(&c.meta).cell("effective", Some(Rich::plain(when(c.effective)))),
        kind: c.kind.id.clone(),
        summary: c.summary.clone(),
        gate: c.gate,
        affects: cx.typed_all(&c.affects),
        details,
        lifecycle,
    }
}

/// How the changelog words an item's `since`, `until` or `deprecated` bound, by the kind of
/// the change: a tightened requirement does not introduce the rule it tightens, and a rename does
/// not introduce the command it renames.
fn lifecycle_verb(bound: &str, change_kind: &str) -> &'static str {
    match (bound, change_kind) {
        ("deprecated", _) => "Deprecates ",
        ("until", "removal") => "Removes ",
        ("until", "rename") => "Retires the old name ",
        ("until", _) => "Ends ",
        (_, "addition") => "Adds ",
        (_, "requirement") => "Tightens: ",
        (_, "rename") => "Renames to ",
        (_, "shape") => "Reshapes: ",
        (_, "behavior") => "Changes the behaviour of ",
        (_, "deprecation") => "Deprecates ",
        (_, "removal") => "Removes ",
        // A correction bounds no lifetime (E0127); any other kind starts the item.
        _ => "Introduces ",
    }
}

/// One line of the ledger, linked to the item it is about.
#[derive(Debug, Serialize)]
pub struct LedgerEntry {
    pub item: Span,
    pub facet: String,
    pub text: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct LedgerPart {
    pub name: String,
    pub anchor: String,
    pub gaps: Vec<LedgerEntry>,
    pub assumptions: Vec<LedgerEntry>,
}

#[derive(Debug, Serialize)]
pub struct CoverageView {
    pub gap_count: usize,
    pub assumption_count: usize,
    pub parts: Vec<LedgerPart>,
}

/// Every gap and assumption of the model, per part, each linked to its item.
pub fn coverage(cx: &Cx) -> CoverageView {
    let cov = coverage::coverage(cx.model);
    let entry = |e: &Entry| LedgerEntry {
        item: Span { text: e.item.clone(), href: coverage_anchor(cx, &e.item).map(|a| format!("#{a}")), code: true },
        facet: e.facet.clone(),
        text: e.text.clone(),
    };
    let parts = cov
        .by_part(cx.model)
        .into_iter()
        .map(|(part, ..)| {
            let name = cx.model.platform.parts.iter().find(|p| p.meta.id == part).map_or_else(|| title(&part), |p| p.meta.name.clone());
            LedgerPart {
                name,
                anchor: format!("coverage-{part}"),
                gaps: cov.gaps.iter().filter(|e| e.part == part).map(entry).collect(),
                assumptions: cov.assumptions.iter().filter(|e| e.part == part).map(entry).collect(),
            }
        })
        .collect();
    CoverageView { gap_count: cov.gaps.len(), assumption_count: cov.assumptions.len(), parts }
}

fn title(id: &str) -> String {
    if id == GENERAL {
        return "General".into();
    }
    let text = id.replace('_', " ");
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The releases of one minor line (`1.10`).
#[derive(Debug, Serialize)]
pub struct ReleaseLine {
    pub minor: String,
    pub status: Option<String>,
    pub releases: Vec<ReleaseView>,
}

#[derive(Debug, Serialize)]
pub struct ReleaseView {
    pub meta: MetaView,
    pub date: Option<String>,
    pub toolkits: Vec<ToolkitView>,
    pub packaging: Vec<Fact>,
}

#[derive(Debug, Serialize)]
pub struct ToolkitView {
    pub meta: MetaView,
    pub minimum: String,
    /// The dropped versions, as the range the source writes.
    pub dropped: Option<crate::model::VersionRange>,
}

/// Releases grouped by minor line, each line with its status in the latest support window.
pub fn release_lines(cx: &Cx, releases: &[&Release]) -> Vec<ReleaseLine> {
    let mut lines: Vec<ReleaseLine> = Vec::new();
    for r in releases {
        let minor = r.version.iter().take(2).map(u64::to_string).collect::<Vec<_>>().join(".");
        let view = release(cx, r);
        match lines.iter_mut().find(|l| l.minor == minor) {
            Some(l) => l.releases.push(view),
            None => lines.push(ReleaseLine { status: support_status(cx, &minor), minor, releases: vec![view] }),
        }
    }
    lines
}

fn release(cx: &Cx, r: &Release) -> ReleaseView {
    let toolkits = r
        .toolkits
        .iter()
        .map(|t| ToolkitView {
            meta: cx.meta("toolkit", &format!("{}.{}", r.meta.id, t.meta.id), &t.meta),
            minimum: t.minimum.clone(),
            dropped: t.dropped.clone(),
        })
        .collect();
    let packaging = r.packaging.iter().map(|(k, v)| Fact { label: k.clone(), value: Cell { value: Rich::code(v), ..Cell::default() } }).collect();
    ReleaseView { meta: cx.meta("release", &r.meta.id, &r.meta), date: r.date.clone(), toolkits, packaging }
}

fn numbers(version: &str) -> Vec<u64> {
    version.split('.').filter_map(|n| n.parse().ok()).collect()
}

/// Where a minor line stands in the policy's latest worked support window (not today's: the
/// page is the same whenever it is built).
fn support_status(cx: &Cx, minor: &str) -> Option<String> {
    let w = cx.model.release_policy.as_ref()?.windows.last()?;
    let v = numbers(minor);
    let as_of = format!("as of {} ({})", w.release, w.date);
    if numbers(&w.oldest_supported) <= v && v <= numbers(&w.newest_supported) {
        Some(format!("supported {as_of}"))
    } else if v <= numbers(&w.end_of_life_through) {
        Some(format!("end of life {as_of}"))
    } else {
        None
    }
}

#[derive(Debug, Serialize)]
pub struct PolicyView {
    pub anchor: String,
    pub minor_releases_per_year: i64,
    pub release_months: String,
    pub support_window: Rich,
    pub notes: Vec<String>,
    pub windows: Vec<Vec<String>>,
    pub gaps: Vec<GapView>,
    /// Always empty: the policy has no assumptions, but it renders like every item.
    pub assumed: Vec<AssumedView>,
}

pub fn policy(cx: &Cx, p: &ReleasePolicy) -> PolicyView {
    const MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    let months = p.release_months.iter().filter_map(|m| usize::try_from(*m).ok()?.checked_sub(1).and_then(|i| MONTHS.get(i)));
    let mut window = Rich::default();
    if let Some(l) = cx.model.limit(&p.support_window.id) {
        let value = l.upper().map_or_else(String::new, |v| format!("{v} {} ", l.unit.id));
        window.text(value).text("(limit ");
    }
    window.link(&p.support_window.id, href("limit", &p.support_window.id), true);
    if cx.model.limit(&p.support_window.id).is_some() {
        window.text(")");
    }
    let gaps = p.not_shown.iter().map(|g| GapView { facet: g.facet.clone(), detail: g.detail.clone() }).collect();
    PolicyView {
        anchor: crate::emit::docs::words::anchor("section", "release-policy"),
        minor_releases_per_year: p.minor_releases_per_year,
        release_months: months.copied().collect::<Vec<_>>().join(", "),
        support_window: window,
        notes: p.notes.clone(),
        windows: p
            .windows
            .iter()
            .map(|w| vec![w.release.clone(), w.date.clone(), w.oldest_supported.clone(), w.newest_supported.clone(), w.end_of_life_through.clone()])
            .collect(),
        gaps,
        assumed: Vec::new(),
    }
}
