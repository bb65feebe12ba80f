//! What the platform dispatches and the Gateway speaks: events, opcodes, and the deliveries to
//! an app's endpoint.

use super::{Field, S};
use indexmap::IndexMap;
use serde::Deserialize;

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
        /// Resources whose fields the payload has too, before its own (a Message Create event is
        /// a message with a few more fields).
        #[serde(default)]
        pub extends: Vec<S<String>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
        /// Shapes the payload takes under a condition (a field that omits a value).
        #[serde(default)]
        pub cases: Vec<S<super::Case>>,
    }
}

item! {
    /// Deliveries the platform makes to an app's endpoint (webhook events, interactions): the
    /// envelope, the events, how they are signed, the ping, and how the platform tries again.
    pub struct Webhook {
        #[serde(default)]
        pub envelope: Option<S<Envelope>>,
        #[serde(default)]
        pub verification: Option<S<Verification>>,
        #[serde(default)]
        pub ping: Option<S<Ping>>,
        /// The status the app answers an event with (`204` when left out).
        #[serde(default)]
        pub ack_status: Option<S<u16>>,
        /// How long the platform waits for that answer, in seconds.
        #[serde(default)]
        pub ack_seconds: Option<S<f64>>,
        /// How the platform tries a delivery again: tries in all and the backoff's bounds.
        #[serde(default)]
        pub retry: Option<S<super::RetryPolicy>>,
        /// The events, by the value of the envelope's `type` member: `"note.created":
        /// note_created` (an event of channel `webhook`).
        #[serde(default)]
        pub events: IndexMap<S<String>, S<String>>,
    }
}

/// Where a delivery's body keeps what it says of itself: each a member name, or a dotted path
/// into nested objects (`event.type`).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// The member naming the event.
    #[serde(rename = "type")]
    pub kind: S<String>,
    /// `string` (the default) or `integer`: how the event is named.
    #[serde(default)]
    pub repr: Option<S<String>>,
    /// The member holding the event's data; the whole body is the event when left out.
    #[serde(default)]
    pub data: Option<S<String>>,
    /// The member holding the delivery's id.
    #[serde(default)]
    pub id: Option<S<String>>,
    /// The member holding when the event happened.
    #[serde(default)]
    pub timestamp: Option<S<String>>,
    /// The member holding the envelope's version.
    #[serde(default)]
    pub version: Option<S<String>>,
}

/// How deliveries are signed.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Verification {
    /// `ed25519` (a signature of the timestamp header's value and the body), `standard`
    /// (Standard Webhooks: `v1,` HMAC-SHA256 and `v1a,` Ed25519 of `{id}.{timestamp}.{body}`)
    /// or `none`.
    pub scheme: S<String>,
    /// The header holding the signature (Standard Webhooks: `webhook-signature`).
    #[serde(default)]
    pub signature_header: Option<S<String>>,
    /// The header holding the timestamp, in seconds since the epoch.
    #[serde(default)]
    pub timestamp_header: Option<S<String>>,
    /// The header holding the delivery's id (Standard Webhooks only).
    #[serde(default)]
    pub id_header: Option<S<String>>,
    /// How far from now a timestamp may be, in seconds; a delivery id is remembered as long.
    #[serde(default)]
    pub tolerance_seconds: Option<S<u32>>,
}

/// The platform's ping, which the receiver answers itself.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ping {
    /// The member that marks it (the envelope's `type` when left out).
    #[serde(default)]
    pub member: Option<S<String>>,
    /// Its value there.
    pub value: S<serde_json::Value>,
    /// The status answered (`200` with an `answer`, else `204`).
    #[serde(default)]
    pub status: Option<S<u16>>,
    /// The JSON body answered.
    #[serde(default)]
    pub answer: Option<S<serde_json::Value>>,
}
