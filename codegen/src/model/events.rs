//! What the platform dispatches and the Gateway speaks: events and opcodes.

use super::{Field, Meta, Ref, Text};
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<super::Case>,
}
