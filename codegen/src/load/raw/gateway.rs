//! A session protocol over WebSocket (a gateway): how to connect, its frames, the opcode of each
//! role the session machinery plays, its close codes and what a client does after each, its
//! limits, its commands and its dispatch events.

use super::S;
use indexmap::IndexMap;
use serde::Deserialize;

item! {
    /// A gateway's session protocol.
    pub struct Gateway {
        /// Where to connect: a URL (placeholders allowed), or `endpoint.field` naming the response
        /// field of an endpoint that gives it.
        #[serde(default)]
        pub url: Option<S<String>>,
        /// Query parameters every connection carries: `{ v: "10", encoding: json }`.
        #[serde(default)]
        pub query: IndexMap<S<String>, S<String>>,
        /// The query parameter that asks for a compression, and the compressions offered.
        #[serde(default)]
        pub compression: Option<S<GatewayCompression>>,
        /// The frame's members.
        #[serde(default)]
        pub envelope: Option<S<GatewayFrame>>,
        /// The opcode (an id of `opcodes`) that plays each role.
        #[serde(default)]
        pub roles: Option<S<GatewayRoles>>,
        /// The member of the hello's payload holding the heartbeat interval, in milliseconds.
        #[serde(default)]
        pub heartbeat_interval: Option<S<String>>,
        /// The member of the identify payload holding the token.
        #[serde(default)]
        pub identify_token: Option<S<String>>,
        /// What the ready event says of the session.
        #[serde(default)]
        pub ready: Option<S<GatewayReady>>,
        /// A resume's payload.
        #[serde(default)]
        pub resume: Option<S<GatewayResume>>,
        /// Every close code, with what a client does after it.
        #[serde(default)]
        pub close_codes: Vec<S<GatewayClose>>,
        /// What a client does after a code the list does not name: `resume`, `reidentify` or
        /// `fatal`.
        #[serde(default)]
        pub unknown_close: Option<S<String>>,
        /// The code a client closes with when it means to resume.
        #[serde(default)]
        pub resume_close: Option<S<u16>>,
        /// How many frames a client may send in a window.
        #[serde(default)]
        pub send_limit: Option<S<GatewaySendLimit>>,
        /// How often sessions may start.
        #[serde(default)]
        pub identify_limit: Option<S<GatewayIdentifyLimit>>,
        /// The opcodes a client sends as commands of its own (ids of `opcodes`).
        #[serde(default)]
        pub commands: Vec<S<String>>,
        /// The dispatch events by the name the envelope gives them: `MESSAGE_CREATE:
        /// message_create` (events of channel `gateway`).
        #[serde(default)]
        pub events: IndexMap<S<String>, S<String>>,
    }
}

/// How the frames a server sends may be compressed.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewayCompression {
    /// The query parameter that asks for it (`compress`).
    pub parameter: S<String>,
    /// The compressions offered: `zlib-stream`.
    pub offered: Vec<S<String>>,
}

/// The members of a frame.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewayFrame {
    /// The opcode.
    pub opcode: S<String>,
    /// The payload.
    pub data: S<String>,
    /// A dispatch's sequence number.
    pub sequence: S<String>,
    /// A dispatch's event name.
    pub event: S<String>,
}

/// The opcode of each role.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewayRoles {
    /// The server dispatches an event.
    pub dispatch: S<String>,
    /// A heartbeat, either way.
    pub heartbeat: S<String>,
    /// The server acknowledges a heartbeat.
    pub heartbeat_ack: S<String>,
    /// The server's first frame, with the heartbeat interval.
    pub hello: S<String>,
    /// The client starts a session.
    pub identify: S<String>,
    /// The client resumes a session.
    pub resume: S<String>,
    /// The server asks the client to reconnect.
    #[serde(default)]
    pub reconnect: Option<S<String>>,
    /// The server says the session is invalid; its payload says whether it may be resumed.
    #[serde(default)]
    pub invalid_session: Option<S<String>>,
}

/// What the ready event says of the session.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewayReady {
    /// Its name in the envelope (`READY`).
    pub event: S<String>,
    /// The member holding the session's id.
    pub session_id: S<String>,
    /// The member holding the address to resume at.
    #[serde(default)]
    pub resume_url: Option<S<String>>,
}

/// A resume's payload members.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewayResume {
    /// The token.
    pub token: S<String>,
    /// The session's id.
    pub session_id: S<String>,
    /// The last sequence the client received.
    pub sequence: S<String>,
    /// The event the server dispatches once it has replayed what was missed (`RESUMED`).
    #[serde(default)]
    pub resumed: Option<S<String>>,
}

/// A close code.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewayClose {
    /// The code, 4000 to 4999 for a protocol's own.
    pub code: S<u16>,
    /// Its name.
    pub name: S<String>,
    /// What a client does after it: `resume`, `reidentify` or `fatal`.
    pub policy: S<String>,
    /// Why the server closes with it, where the session machinery uses it: `unknown`,
    /// `unknown_opcode`, `decode_error`, `not_authenticated`, `authentication_failed`,
    /// `already_authenticated`, `invalid_sequence`, `rate_limited`, `session_timed_out`,
    /// `invalid_shard`, `sharding_required`, `invalid_version`, `invalid_intents`,
    /// `disallowed_intents`.
    #[serde(default)]
    pub cause: Option<S<String>>,
    /// What it means.
    #[serde(default)]
    pub description: Option<S<String>>,
}

/// How many frames a client may send in a window.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewaySendLimit {
    /// Frames per window, heartbeats included.
    pub frames: S<u32>,
    /// The window, in seconds.
    pub per_seconds: S<f64>,
}

/// How often sessions may start.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GatewayIdentifyLimit {
    /// One identify per bucket (`shard % max_concurrency`) in each window of this many seconds.
    pub per_seconds: S<f64>,
    /// Where the number of buckets comes from: `endpoint.field` (`get_gateway_bot.max_concurrency`).
    #[serde(default)]
    pub max_concurrency: Option<S<String>>,
}
