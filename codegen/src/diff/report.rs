//! How findings are shown: rustc-style text with the source line of the item on the side that
//! has it, or one JSON object per finding with stable field names.

use super::{Finding, Impact, Severity};
use crate::diag::{Sources, Span};
use crate::model::Effective;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::fmt::Write as _;

/// The two specs' sources: spans of a finding point into `old` or `new`.
#[derive(Clone, Copy)]
pub struct Sides<'a> {
    /// The old spec's files.
    pub old: &'a Sources,
    /// The new spec's files.
    pub new: &'a Sources,
}

/// `on 2026-02-23`, `already in effect`, `unscheduled`.
pub fn effective_words(e: Effective) -> String {
    match e {
        Effective::AlreadyInEffect => "already in effect".into(),
        Effective::Unscheduled => "at an unscheduled date".into(),
        Effective::Date(d) => format!("on {d}"),
    }
}

/// The heading word: `error` for an unannounced break, `announced` for an announced one.
fn level(f: &Finding) -> Level<'static> {
    match f.severity {
        Severity::Error if f.claimed_by.is_some() => Level::NOTE.with_name("announced"),
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    }
}

/// Where the finding is: the new side when the item is there, else the old side.
fn place<'a>(sides: Sides<'a>, f: &Finding) -> Option<(&'a Sources, Span, &'static str)> {
    match (f.new_span, f.old_span) {
        (Some(s), _) => Some((sides.new, s, "in the new spec")),
        (None, Some(s)) => Some((sides.old, s, "in the old spec")),
        (None, None) => None,
    }
}

fn audiences(f: &Finding) -> String {
    let list = |impact: Impact| f.audiences.each().into_iter().filter(|(_, i)| *i == impact).map(|(n, _)| n).collect::<Vec<_>>();
    let (breaking, compatible) = (list(Impact::Breaking), list(Impact::Compatible));
    let mut parts = Vec::new();
    if !breaking.is_empty() {
        parts.push(format!("breaking for {}", breaking.join(", ")));
    }
    if !compatible.is_empty() {
        parts.push(format!("compatible for {}", compatible.join(", ")));
    }
    if parts.is_empty() { "no audience sees it".into() } else { parts.join("; ") }
}

fn values(f: &Finding) -> String {
    let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
    format!("was: {}; now: {}", show(&f.old), show(&f.new))
}

/// Every finding, then a summary line.
pub fn render_text(findings: &[Finding], sides: Sides<'_>, color: bool) -> String {
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let mut out = String::new();
    for f in findings {
        let mut group = Group::with_title(level(f).primary_title(f.message.as_str()).id(f.rule.id));
        let label = match f.at {
            crate::model::project::At::Start => "from the start of the timeline".to_owned(),
            at => format!("from {at}"),
        };
        if let Some((sources, span, side)) = place(sides, f) {
            let file = sources.file(span.file);
            let range = range(&file.text, span);
            let text = format!("{side}, {label}");
            group = group.element(Snippet::source(file.text.as_str()).path(file.path.as_str()).annotation(AnnotationKind::Primary.span(range).label(text)));
        }
        let mut notes = Vec::new();
        if f.old.is_some() || f.new.is_some() {
            notes.push(values(f));
        }
        notes.push(audiences(f));
        if f.at == crate::model::project::At::Start && place(sides, f).is_none() {
            notes.push(label);
        }
        if let Some(c) = &f.claimed_by {
            notes.push(format!("announced by change `{c}`"));
        }
        for n in &notes {
            group = group.element(Level::NOTE.message(n.as_str()));
        }
        for h in &f.help {
            group = group.element(Level::HELP.message(h.as_str()));
        }
        let _ = writeln!(out, "{}\n", renderer.render(&[group]));
    }
    let _ = writeln!(out, "{}", summary(findings));
    out
}

/// `3 differences: 1 breaking not announced, 1 breaking announced, 1 warning, 0 info`.
pub fn summary(findings: &[Finding]) -> String {
    let count = |p: &dyn Fn(&Finding) -> bool| findings.iter().filter(|f| p(f)).count();
    let uncovered = count(&|f| f.is_uncovered());
    let announced = count(&|f| f.severity == Severity::Error && f.claimed_by.is_some());
    let warnings = count(&|f| f.severity == Severity::Warning);
    let infos = count(&|f| f.severity == Severity::Info);
    let n = findings.len();
    let head = if uncovered > 0 { "error" } else { "diff" };
    format!(
        "{head}: {n} difference{}: {uncovered} breaking and not announced, {announced} breaking and announced, {warnings} warning{}, {infos} info",
        if n == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" }
    )
}

fn range(text: &str, span: Span) -> std::ops::Range<usize> {
    let mut start = (span.start as usize).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    // An item's span covers the whole item; underline its first line only.
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let end = (span.end as usize).clamp(start, line_end);
    if end == start { start..text[start..].chars().next().map_or(start, |c| start + c.len_utf8()) } else { start..end }
}

/// One finding as JSON: `rule`, `severity`, `audiences`, `subject`, `at`, `old`, `new`,
/// `message`, `claimed_by`, `fingerprint`, `source` (file:line:col on each side), `help`.
pub fn to_json(f: &Finding, sides: Sides<'_>) -> serde_json::Value {
    let loc = |sources: &Sources, span: Option<Span>| span.map(|s| sources.location(s));
    serde_json::json!({
        "rule": f.rule.id,
        "severity": f.severity,
        "audiences": f.audiences,
        "subject": f.subject,
        "at": f.at,
        "old": f.old,
        "new": f.new,
        "message": f.message,
        "claimed_by": f.claimed_by,
        "fingerprint": f.fingerprint(),
        "source": { "old": loc(sides.old, f.old_span), "new": loc(sides.new, f.new_span) },
        "help": f.help,
    })
}
