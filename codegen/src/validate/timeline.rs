//! The timeline: lifetimes bounded by changes, dated rule variants, and changes that matter.

use super::refs::{all_fields, all_metas, all_references};
use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::*;
use std::collections::BTreeSet;

/// An item's `until` comes strictly after its `since`: an item cannot stop existing before (or
/// when) it starts. Changes without a date (`unscheduled`) are taken to lie in the future.
pub fn check_lifetimes(cx: &mut Diagnostics, model: &Model) {
    let mut pairs: Vec<(&str, &Ref, &Ref)> = Vec::new();
    for meta in all_metas(model) {
        if let (Some(s), Some(u)) = (&meta.since, &meta.until) {
            pairs.push((&meta.id, s, u));
        }
    }
    for f in all_fields(model) {
        if let (Some(s), Some(u)) = (&f.since, &f.until) {
            pairs.push((&f.name, s, u));
        }
    }
    for rule in &model.permission_rules {
        for v in &rule.variants {
            if let (Some(s), Some(u)) = (&v.since, &v.until) {
                pairs.push((&rule.meta.id, s, u));
            }
        }
    }
    for (id, since, until) in pairs {
        let (Some(a), Some(b)) = (model.change(&since.id), model.change(&until.id)) else { continue };
        if b.effective <= a.effective {
            cx.push(
                Diagnostic::error(codes::LIFETIME_ORDER, format!("`{id}` ends (`{}`) before or when it starts (`{}`)", until.id, since.id))
                    .at(until.span, format!("`until` takes effect {}", describe(b.effective)))
                    .also(since.span, format!("`since` takes effect {}", describe(a.effective)))
                    .help("`until` names a change that takes effect after the `since` change"),
            );
        }
    }
}

fn describe(e: Effective) -> String {
    match e {
        Effective::AlreadyInEffect => "already (in effect)".into(),
        Effective::Unscheduled => "at an unscheduled date".into(),
        Effective::Date(d) => format!("on {d}"),
    }
}

/// Dated variants of a permission rule tile the timeline: the first has no `since`, the last no
/// `until`, and each `until` is the next variant's `since`. A gap would leave requests with no
/// rule; an overlap would give them two.
pub fn check_rule_variants(cx: &mut Diagnostics, model: &Model) {
    for rule in &model.permission_rules {
        let mut variants: Vec<&RuleVariant> = rule.variants.iter().collect();
        if variants.is_empty() {
            cx.push(
                Diagnostic::error(codes::MISSING_FACET, format!("permission rule `{}` has no rule", rule.meta.id))
                    .at(rule.meta.id_span, "no `rule` or `variants`")
                    .help("give `rule:` or dated `variants:`"),
            );
            continue;
        }
        let start = |v: &RuleVariant| v.since.as_ref().and_then(|s| model.change(&s.id)).map(|c| c.effective);
        variants.sort_by_key(|v| start(v));
        let first = variants[0];
        let last = variants[variants.len() - 1];
        if let Some(since) = &first.since {
            push_variant(
                cx,
                rule,
                since.span,
                "the first variant starts at a change, leaving the time before it without a rule",
                "remove `since` from the earliest variant",
            );
        }
        if let Some(until) = &last.until {
            push_variant(
                cx,
                rule,
                until.span,
                "the last variant ends at a change, leaving the time after it without a rule",
                "remove `until` from the latest variant or add the variant that follows",
            );
        }
        for pair in variants.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let joined = matches!((&a.until, &b.since), (Some(u), Some(s)) if u.id == s.id);
            if !joined {
                let span = b.since.as_ref().map_or(b.span, |s| s.span);
                push_variant(
                    cx,
                    rule,
                    span,
                    "consecutive variants do not meet: each `until` must be the next variant's `since`",
                    "bound both variants by the same change",
                );
            }
        }
    }
}

fn push_variant(cx: &mut Diagnostics, rule: &PermissionRule, span: Span, why: &str, help: &str) {
    cx.push(
        Diagnostic::error(codes::VARIANT_TIMELINE, format!("variants of permission rule `{}` leave a gap or overlap", rule.meta.id)).at(span, why).help(help),
    );
}

/// A change that no item refers to (by `since`, `until`, `deprecated`, a previous value or a
/// rule variant) and that `affects` nothing is probably a leftover: warn.
pub fn check_unused_changes(cx: &mut Diagnostics, model: &Model) {
    let used: BTreeSet<&str> = all_references(model).into_iter().filter(|r| r.kind == "change").map(|r| r.target.id.as_str()).collect();
    for c in &model.changes {
        let affects_something = !c.affects.is_empty();
        if !affects_something && !used.contains(c.meta.id.as_str()) {
            cx.push(
                Diagnostic::warning(codes::UNUSED_CHANGE, format!("change `{}` is referenced by nothing and affects nothing", c.meta.id))
                    .at(c.meta.id_span, "unused change")
                    .help("list what it changes under `affects:`, or bound items with `since:`/`until:` naming it"),
            );
        }
    }
}

/// A correction fixes what an earlier document said; the item it is about existed before and
/// after it, so `since` or `until` naming a correction would start or end the item at a date it
/// did not change. Such an item is listed in the correction's `affects` instead.
pub fn check_correction_lifetimes(cx: &mut Diagnostics, model: &Model) {
    let mut bounds: Vec<(&str, &Ref)> = Vec::new();
    for meta in all_metas(model) {
        bounds.extend([&meta.since, &meta.until].into_iter().flatten().map(|r| (meta.id.as_str(), r)));
    }
    for f in all_fields(model) {
        bounds.extend([&f.since, &f.until].into_iter().flatten().map(|r| (f.name.as_str(), r)));
    }
    for (id, r) in bounds {
        let Some(change) = model.change(&r.id) else { continue };
        if change.kind.id == "correction" {
            cx.push(
                Diagnostic::error(codes::CORRECTION_LIFETIME, format!("`{id}` starts or ends at `{}`, a correction", r.id))
                    .at(r.span, "a correction changes no item's lifetime")
                    .also(change.kind.span, "kind declared here")
                    .help(format!("remove this bound and list `{id}` under `affects:` of `{}`", r.id)),
            );
        }
    }
}
