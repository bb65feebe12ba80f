//! What the platform dispatches and the Gateway speaks: events and opcodes.

use super::{Field, S};
use indexmap::IndexMap;

item! {
    /// A Gateway opcode.
    pub struct Opcode {
        pub code: S<i64>,
        /// `send` (client to Gateway) or `receive`.
        #[serde(default)]
        pub direction: Option<S<String>>,
        /// The event sent in reply.
        #[serde(default)]
        pub reply: Option<S<String>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
    }
}

item! {
    /// Something the platform dispatches: a Gateway event, an audit-log entry, a webhook, ...
    pub struct Event {
        /// `gateway`, `audit_log`, `webhook`, `rpc` or `social_sdk`.
        pub channel: S<String>,
        /// Numeric code, where the channel numbers its events (audit log).
        #[serde(default)]
        pub code: Option<S<i64>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
        /// Shapes the payload takes under a condition (a field that omits a value).
        #[serde(default)]
        pub cases: Vec<S<super::Case>>,
    }
}
