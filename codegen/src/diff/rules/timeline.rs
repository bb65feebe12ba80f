//! The timeline itself: change entries are history, so an entry in effect may not be removed,
//! redated or changed in kind, and a new one may not take effect before the day the check runs
//! (oasdiff refuses to move a sunset earlier; Cadwyn calls version changes immutable records).
//!
//! These rules compare the two specs' entries directly, not projections.

use crate::diff::DiffOptions;
use crate::diff::{Audiences, Finding, Impact, RuleDef, Severity};
use crate::model::project::At;
use crate::model::*;

rule!("timeline", CHANGE_ADDED, "change-added", "a change entry is added to the timeline", false, Info, "Cadwyn `VersionChange` (a new migration)");
rule!(
    "timeline",
    CHANGE_REMOVED,
    "change-removed",
    "a change entry is removed: an error for one in effect (history), a warning for a withdrawn future one",
    false,
    Warning,
    "oasdiff `sunset-deleted`"
);
rule!(
    "timeline",
    CHANGE_HISTORY_REWRITTEN,
    "change-history-rewritten",
    "a change entry in effect gets another date or kind",
    false,
    Error,
    "oasdiff `api-sunset-date-changed-too-small`; Cadwyn (version changes are immutable records)"
);
rule!(
    "timeline",
    CHANGE_RESCHEDULED,
    "change-rescheduled",
    "a change entry not yet in effect gets another date or kind",
    false,
    Warning,
    "oasdiff `api-sunset-date-changed-too-small` (warns when a sunset moves)"
);
rule!(
    "timeline",
    CHANGE_RETROACTIVE,
    "change-retroactive",
    "a new change entry takes effect before the day the check runs",
    false,
    Error,
    "oasdiff `api-sunset-date-too-small`"
);
rule!(
    "timeline",
    CHANGE_SUMMARY_EDITED,
    "change-summary-edited",
    "a change entry's summary is reworded",
    false,
    Info,
    "smithy-diff `ModifiedTrait` (documentation)"
);

/// Whether an entry is history as of `today`: in effect already (without a day, only entries
/// `already_in_effect` are known to be).
fn is_history(c: &Change, today: Option<At>) -> bool {
    match c.effective {
        Effective::AlreadyInEffect => true,
        Effective::Unscheduled => false,
        Effective::Date(_) => today.is_some_and(|t| t.sees(c.effective)),
    }
}

fn finding(rule: &'static RuleDef, c: &Change, severity: Severity, message: String, old: Option<&Change>, new: Option<&Change>) -> Finding {
    let describe = |c: &Change| format!("{} {}", c.kind.id, crate::diff::report::effective_words(c.effective));
    Finding {
        rule,
        severity,
        audiences: Audiences::all(Impact::Unaffected),
        subject: format!("change:{}", c.meta.id),
        at: At::of(c.effective).unwrap_or(At::End),
        old: old.map(describe),
        new: new.map(describe),
        message,
        claims: vec![format!("change:{}", c.meta.id)],
        old_span: old.map(|c| c.meta.span),
        new_span: new.map(|c| c.meta.span),
        claimed_by: None,
        help: Vec::new(),
    }
}

/// Every timeline rule over the two specs' change entries.
pub fn check(old: &Model, new: &Model, opts: &DiffOptions) -> Vec<Finding> {
    let today = opts.today.map(At::Date);
    let mut out = Vec::new();
    for n in &new.changes {
        let id = &n.meta.id;
        let Some(o) = old.change(id) else {
            out.push(finding(&CHANGE_ADDED, n, Severity::Info, format!("change `{id}` is added"), None, Some(n)));
            let before_today = today.is_some_and(|t| n.effective == Effective::AlreadyInEffect || (t.sees(n.effective) && At::of(n.effective) != Some(t)));
            if before_today && n.kind.id != "correction" {
                let mut f = finding(&CHANGE_RETROACTIVE, n, Severity::Error, format!("change `{id}` takes effect before today"), None, Some(n));
                if let Some(t) = today {
                    f.help
                        .push(format!("date it {t} or later; only a `correction` (the spec was wrong, the platform did not change) may be in effect already"));
                }
                out.push(f);
            }
            continue;
        };
        if o.effective != n.effective || o.kind.id != n.kind.id {
            let message = format!("change `{id}` is moved or changes kind");
            if is_history(o, today) {
                let mut f = finding(&CHANGE_HISTORY_REWRITTEN, n, Severity::Error, message, Some(o), Some(n));
                f.help.push("an entry in effect is history: restore its date and kind, and add a new entry for what changes now".into());
                out.push(f);
            } else {
                out.push(finding(&CHANGE_RESCHEDULED, n, Severity::Warning, message, Some(o), Some(n)));
            }
        }
        if o.summary != n.summary {
            let mut f = finding(&CHANGE_SUMMARY_EDITED, n, Severity::Info, format!("the summary of change `{id}` is reworded"), Some(o), Some(n));
            (f.old, f.new) = (Some(o.summary.clone()), Some(n.summary.clone()));
            out.push(f);
        }
    }
    for o in old.changes.iter().filter(|o| new.change(&o.meta.id).is_none()) {
        let id = &o.meta.id;
        let history = is_history(o, today);
        let severity = if history { Severity::Error } else { Severity::Warning };
        let mut f = finding(&CHANGE_REMOVED, o, severity, format!("change `{id}` is removed from the timeline"), Some(o), None);
        // The types crate names every change entry (`changes::<ID>`): that constant goes.
        f.audiences = Audiences::new(Impact::Unaffected, Impact::Breaking, Impact::Unaffected);
        if history {
            f.help.push("an entry in effect is history: keep it (ids are never reused), and add a new entry for what changes now".into());
        }
        out.push(f);
    }
    out
}
