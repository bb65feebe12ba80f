//! The proc macros' cases: `pass/` (test targets of this crate) and `fail/` (checked by `fail.rs`).
