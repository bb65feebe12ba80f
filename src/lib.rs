//! The developer platform: typed model and compile-time checked macros, generated from `spec/`.
//!
//! Everything of [`platform_types`] is re-exported here: resources, open enums and flag sets,
//! [`Permission`] and [`Permissions`], error codes, limits, scopes, Gateway opcodes and events,
//! state machines, the dated changes with their gates, and the validators the generated server
//! and client share.
//!
//! The macros check downstream code against the spec at compile time, with errors that point at
//! the offending token and name the spec file and line:
//!
//! ```
//! const MODERATION: platform::Permissions = platform::permissions![PIN_MESSAGES, BYPASS_SLOWMODE];
//! const STATUS: platform::limits::Limit = platform::limit!(voice_channel_status_length);
//! let not_indexed = platform::error_code!(search_index_not_ready);
//! let pins = platform::change!(pin-messages-required);
//! # let _ = (MODERATION, STATUS, not_indexed, pins);
//!
//! #[derive(platform::Resource)]
//! #[resource(voice_channel_info)]
//! struct VoiceInfo {
//!     status: String,
//! }
//! # assert_eq!(<VoiceInfo as platform::Resource>::RESOURCE, "voice_channel_info");
//! ```
//!
//! `#[platform::endpoint(id)]` checks a handler against a routed endpoint; see
//! [`macro@endpoint`].
//!
//! ```
//! use platform::{Clock, FixedClock, changes};
//!
//! let before = FixedClock::parse("2026-02-22T23:59:59Z").unwrap();
//! assert!(!changes::PIN_MESSAGES_REQUIRED.is_in_effect(before.now()));
//! ```

pub use platform_types::*;

pub use platform_macros::{Resource, change, endpoint, error_code, limit, model_json, permissions};

/// A downstream struct that `#[derive(Resource)]` checked against a resource of the spec: its
/// fields are fields of the resource, by serde name, with compatible types.
pub trait Resource {
    /// The spec id of the resource.
    const RESOURCE: &'static str;
}
