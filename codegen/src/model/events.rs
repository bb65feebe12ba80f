//! What the platform dispatches and the Gateway speaks: events, opcodes, and the deliveries to
//! an app's endpoint.

use super::{Field, Meta, Ref, Text};
use crate::diag::Span;
use serde::Serialize;

/// A Gateway opcode.
#[derive(Clone, Debug, Serialize)]
pub struct Opcode {
    #[serde(flatten)]
    pub meta: Meta,
    pub code: i64,
    pub direction: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
}

/// An event.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    #[serde(flatten)]
    pub meta: Meta,
    pub channel: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// Resources whose fields the payload has too, already taken into `fields`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extends: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<super::Case>,
}

/// Deliveries the platform makes to an app's endpoint: webhook events, interactions.
#[derive(Clone, Debug, Serialize)]
pub struct Webhook {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub envelope: Option<Envelope>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ping: Option<Ping>,
    /// The status the app answers an event with; generated code answers `204` where the spec
    /// gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_status: Option<u16>,
    #[serde(skip)]
    pub ack_status_span: Option<Span>,
    /// How long the platform waits for that answer, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_seconds: Option<f64>,
    #[serde(skip)]
    pub ack_seconds_span: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<super::RetryPolicy>,
    pub events: Vec<WebhookEvent>,
}

/// An event a webhook carries, by the value the envelope names it with.
#[derive(Clone, Debug, Serialize)]
pub struct WebhookEvent {
    /// The value of the envelope's `type` member (an integer in decimal where it is one).
    pub value: String,
    pub event: Ref,
    #[serde(skip)]
    pub span: Span,
}

/// Where a delivery's body keeps what it says of itself: each member a path of names.
#[derive(Clone, Debug, Serialize)]
pub struct Envelope {
    #[serde(rename = "type")]
    pub kind: Member,
    /// `string` or `integer`.
    pub repr: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Member>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<Member>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Member>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Member>,
    #[serde(skip)]
    pub span: Span,
}

impl Envelope {
    /// Whether events are named by integers.
    pub fn numbered(&self) -> bool {
        self.repr.id == "integer"
    }
}

/// A member of a JSON object: the names that lead to it, as written (`event.type`).
#[derive(Clone, Debug)]
pub struct Member {
    pub path: Vec<String>,
    pub span: Span,
}

impl Serialize for Member {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.path.join("."))
    }
}

/// How deliveries are signed.
#[derive(Clone, Debug, Serialize)]
pub struct Verification {
    /// `ed25519`, `standard` or `none`.
    pub scheme: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature_header: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp_header: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_header: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance_seconds: Option<u32>,
    #[serde(skip)]
    pub span: Span,
}

impl Verification {
    /// The header of `role` (`signature`, `timestamp`, `id`): the one written, else Standard
    /// Webhooks' own name under that scheme.
    pub fn header(&self, role: &str) -> Option<&str> {
        let written = match role {
            "signature" => &self.signature_header,
            "timestamp" => &self.timestamp_header,
            _ => &self.id_header,
        };
        written.as_ref().map(|h| h.id.as_str()).or_else(|| (self.scheme.id == "standard").then(|| standard_header(role)))
    }
}

/// Standard Webhooks' header of `role`.
fn standard_header(role: &str) -> &'static str {
    match role {
        "signature" => "webhook-signature",
        "timestamp" => "webhook-timestamp",
        _ => "webhook-id",
    }
}

/// The platform's ping.
#[derive(Clone, Debug, Serialize)]
pub struct Ping {
    /// The member that marks it.
    pub member: Member,
    pub value: serde_json::Value,
    pub status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<serde_json::Value>,
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    pub status_span: Option<Span>,
}
