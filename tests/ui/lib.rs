//! Holds the proc macros' UI cases (`pass/`, `fail/`) and the test that runs them (`macros.rs`).
