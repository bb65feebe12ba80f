//! The doc text of C items: description, notes, lifecycle (since, until, deprecated), what the
//! source does not show and what the spec assumed, as the header's comment lines.

use crate::model::*;

/// The summary of the change `deprecated` names.
pub(super) fn deprecation(model: &Model, deprecated: Option<&Ref>) -> Option<String> {
    deprecated.map(|r| model.change(&r.id).map_or_else(|| format!("deprecated by `{}`", r.id), |c| c.summary.clone()))
}

/// Doc lines of an item: its description, its place on the timeline, what the spec assumed, then
/// its notes as a list.
pub fn item_doc(model: &Model, meta: &Meta) -> Vec<String> {
    let mut lines = Vec::new();
    lines.extend(meta.description.iter().cloned());
    lines.extend(timeline(model, meta.since.as_ref(), meta.until.as_ref()));
    lines.extend(assumptions(&meta.assumed));
    with_notes(lines, &meta.notes)
}

pub(super) fn field_doc(model: &Model, field: &Field) -> Vec<String> {
    let mut lines = Vec::new();
    lines.extend(field.description.iter().cloned());
    if let Some(default) = &field.default {
        lines.push(format!("Defaults to `{}`.", default.value));
    }
    if let Some(default) = &field.default_text {
        lines.push(format!("Defaults to {default}."));
    }
    lines.extend(timeline(model, field.since.as_ref(), field.until.as_ref()));
    lines.extend(assumptions(&field.assumed));
    with_notes(lines, &field.notes)
}

pub(super) fn timeline(model: &Model, since: Option<&Ref>, until: Option<&Ref>) -> Vec<String> {
    let label = |r: &Ref| match model.change(&r.id).map(|c| c.effective) {
        Some(Effective::Date(date)) => format!("`{}` ({date})", r.id),
        Some(Effective::AlreadyInEffect) => format!("`{}` (already in effect)", r.id),
        Some(Effective::Unscheduled) => format!("`{}` (unscheduled)", r.id),
        None => format!("`{}`", r.id),
    };
    let mut out = Vec::new();
    if let Some(r) = since {
        out.push(format!("Since {}.", label(r)));
    }
    if let Some(r) = until {
        out.push(format!("Until {}.", label(r)));
    }
    out
}

pub(super) fn assumptions(assumed: &indexmap::IndexMap<String, String>) -> Vec<String> {
    assumed.iter().map(|(key, why)| format!("Assumed {key}: {why}")).collect()
}

pub(super) fn with_notes(mut lines: Vec<String>, notes: &[String]) -> Vec<String> {
    if !notes.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.extend(notes.iter().map(|n| format!("- {n}")));
    }
    lines
}

/// `not shown: the C++ names of the settings` for gaps, bare facets by their name.
pub(super) fn gap_text<'a>(gaps: impl IntoIterator<Item = &'a Gap>) -> String {
    let parts: Vec<&str> = gaps.into_iter().map(|g| g.detail.as_deref().unwrap_or(&g.facet)).collect();
    format!("not shown: {}", parts.join("; "))
}
