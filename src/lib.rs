//! The developer platform: typed model and compile-time checked macros, generated from `spec/`.
//!
//! Everything of [`platform_types`] is re-exported here: resources, open enums and flag sets,
//! [`Permission`] and [`Permissions`], error codes, limits, scopes, Gateway opcodes and events,
//! state machines, the dated changes with their gates, and the validators the generated server
//! and client share.
//!
//! ```
//! use platform::{Clock, FixedClock, changes};
//!
//! let before = FixedClock::parse("2026-02-22T23:59:59Z").unwrap();
//! assert!(!changes::PIN_MESSAGES_REQUIRED.is_in_effect(before.now()));
//! ```

pub use platform_types::*;
