//! The doc comments of generated items: a summary line from the spec's description, then the
//! item's notes, lifecycle (since, deprecated, until) and what the source does not show or the
//! spec assumed.

use crate::model::{Meta, Ref};
use crate::plan::rust::Plan;
use proc_macro2::TokenStream;

/// `#[doc]` lines: a description, notes as a list, then lifecycle and assumptions.
pub fn docs(description: Option<&str>, extra: &[String]) -> TokenStream {
    crate::emit::rust::format::docs(description, extra.iter().map(String::as_str))
}

/// The notes of an item followed by its lifecycle and assumptions, one sentence each.
pub fn meta_notes(plan: &Plan, meta: &Meta) -> Vec<String> {
    let mut out: Vec<String> = meta.notes.clone();
    out.extend(lifecycle(plan, meta.since.as_ref(), meta.until.as_ref(), meta.deprecated.as_ref()));
    out.extend(gaps_and_assumptions(meta));
    out
}

/// Docs of an item from its meta.
pub fn meta_docs(plan: &Plan, meta: &Meta) -> TokenStream {
    docs(Some(&summary(meta)), &meta_notes(plan, meta))
}

/// The first doc line of an item: its description, else its display name, else its id. Every
/// generated item has one, since the crates deny missing docs.
pub fn summary(meta: &Meta) -> String {
    match &meta.description {
        Some(d) => d.clone(),
        None if meta.name.is_empty() || meta.name == meta.id => format!("`{}`.", meta.id),
        None => format!("{}.", meta.name),
    }
}

/// "Since change `id` (its date)."-style sentences.
pub fn lifecycle(plan: &Plan, since: Option<&Ref>, until: Option<&Ref>, deprecated: Option<&Ref>) -> Vec<String> {
    let when = |r: &Ref| {
        let effective = plan.change(&r.id).map(|c| match c.effective {
            crate::model::Effective::Date(d) => d.to_string(),
            crate::model::Effective::AlreadyInEffect => "already in effect".to_owned(),
            crate::model::Effective::Unscheduled => "unscheduled".to_owned(),
        });
        format!("`{}` ({})", r.id, effective.unwrap_or_default())
    };
    let mut out = Vec::new();
    if let Some(r) = since {
        out.push(format!("Since change {}.", when(r)));
    }
    if let Some(r) = deprecated {
        out.push(format!("Deprecated by change {}.", when(r)));
    }
    if let Some(r) = until {
        out.push(format!("Until change {}.", when(r)));
    }
    out
}

fn gaps_and_assumptions(meta: &Meta) -> Vec<String> {
    let mut out = Vec::new();
    for g in &meta.not_shown {
        out.push(match &g.detail {
            Some(d) => format!("Not shown by the source: {d}."),
            None => format!("Not shown by the source: `{}`.", g.facet),
        });
    }
    for (facet, reason) in &meta.assumed {
        out.push(format!("Assumed `{facet}`: {reason}"));
    }
    out
}
