//! Ids are unique within their kind.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::Index;

/// Ids are unique within their kind; a reference must name exactly one item.
///
/// Enum values are unique within their enum and flags within their set (both are indexed as
/// `set.VALUE`), so two enums may each have an `UNKNOWN`.
pub fn check_duplicate_ids(cx: &mut Diagnostics, index: &Index) {
    for (kind, id, spans) in index.entries() {
        let Some((first, rest)) = spans.split_first() else { continue };
        for span in rest {
            cx.push(
                Diagnostic::error(codes::DUPLICATE_ID, format!("duplicate {} id `{id}`", kind.replace('_', " ")))
                    .at(*span, "defined again here")
                    .also(*first, "first defined here")
                    .help(format!("ids are unique within their kind and never reused; rename one of the `{kind}` items")),
            );
        }
    }
}
