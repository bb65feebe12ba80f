//! A gateway's session protocol, resolved: the opcode of each role, the members of its frames
//! and payloads, close codes with their policy, limits, commands and dispatch events.

use super::{Member, Meta, Ref, Text};
use crate::diag::Span;
use serde::Serialize;

/// A session protocol over WebSocket.
#[derive(Clone, Debug, Serialize)]
pub struct Gateway {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<Text>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub query: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression: Option<Compression>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub envelope: Option<Frame>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roles: Option<Roles>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heartbeat_interval: Option<Member>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identify_token: Option<Member>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready: Option<ReadyEvent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume: Option<ResumePayload>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub close_codes: Vec<CloseCode>,
    /// `resume` where the spec gives none: a code no one listed is taken for a passing failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown_close: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume_close: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub send_limit: Option<SendLimit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identify_limit: Option<IdentifyLimit>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<DispatchEvent>,
}

/// The query parameter that asks for a compression, and the compressions offered.
#[derive(Clone, Debug, Serialize)]
pub struct Compression {
    pub parameter: Text,
    pub offered: Vec<Text>,
}

/// The members of a frame.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    pub opcode: Text,
    pub data: Text,
    pub sequence: Text,
    pub event: Text,
    #[serde(skip)]
    pub span: Span,
}

/// The opcode of each role.
#[derive(Clone, Debug, Serialize)]
pub struct Roles {
    pub dispatch: Ref,
    pub heartbeat: Ref,
    pub heartbeat_ack: Ref,
    pub hello: Ref,
    pub identify: Ref,
    pub resume: Ref,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconnect: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_session: Option<Ref>,
}

impl Roles {
    /// Each role's name and opcode.
    pub fn all(&self) -> impl Iterator<Item = (&'static str, &Ref)> {
        [
            ("dispatch", Some(&self.dispatch)),
            ("heartbeat", Some(&self.heartbeat)),
            ("heartbeat_ack", Some(&self.heartbeat_ack)),
            ("hello", Some(&self.hello)),
            ("identify", Some(&self.identify)),
            ("resume", Some(&self.resume)),
            ("reconnect", self.reconnect.as_ref()),
            ("invalid_session", self.invalid_session.as_ref()),
        ]
        .into_iter()
        .filter_map(|(role, r)| r.map(|r| (role, r)))
    }
}

/// What the ready event says of the session.
#[derive(Clone, Debug, Serialize)]
pub struct ReadyEvent {
    pub event: Text,
    pub session_id: Member,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume_url: Option<Member>,
}

/// A resume's payload members.
#[derive(Clone, Debug, Serialize)]
pub struct ResumePayload {
    pub token: Text,
    pub session_id: Text,
    pub sequence: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumed: Option<Text>,
}

/// A close code and what a client does after it.
#[derive(Clone, Debug, Serialize)]
pub struct CloseCode {
    pub code: u16,
    pub name: String,
    /// `resume`, `reidentify` or `fatal`.
    pub policy: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

/// How many frames a client may send in a window.
#[derive(Clone, Debug, Serialize)]
pub struct SendLimit {
    pub frames: u32,
    pub per_seconds: f64,
    #[serde(skip)]
    pub span: Span,
}

/// How often sessions may start.
#[derive(Clone, Debug, Serialize)]
pub struct IdentifyLimit {
    pub per_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_concurrency: Option<Text>,
    #[serde(skip)]
    pub span: Span,
}

/// A dispatch event, by the name the envelope gives it.
#[derive(Clone, Debug, Serialize)]
pub struct DispatchEvent {
    pub name: String,
    pub event: Ref,
    #[serde(skip)]
    pub span: Span,
}

/// The policies a close code may have.
pub const POLICIES: &[&str] = &["resume", "reidentify", "fatal"];

/// The causes the session machinery closes for.
pub const CAUSES: &[&str] = &[
    "unknown",
    "unknown_opcode",
    "decode_error",
    "not_authenticated",
    "authentication_failed",
    "already_authenticated",
    "invalid_sequence",
    "rate_limited",
    "session_timed_out",
    "invalid_shard",
    "sharding_required",
    "invalid_version",
    "invalid_intents",
    "disallowed_intents",
];

/// The compressions the runtime speaks.
pub const COMPRESSIONS: &[&str] = &["zlib-stream"];

impl Gateway {
    /// Whether the spec gives all a session client and server need.
    pub fn is_sessionable(&self) -> bool {
        self.envelope.is_some()
            && self.roles.is_some()
            && self.heartbeat_interval.is_some()
            && self.identify_token.is_some()
            && self.ready.is_some()
            && self.resume.is_some()
    }
}
