//! How things move over time: when a change takes effect, dated changes, and state machines
//! with their transitions.

use super::{Meta, Ref, Text, TypedRef};
use crate::diag::Span;
use serde::Serialize;

/// When a change takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effective {
    AlreadyInEffect,
    Date(jiff::civil::Date),
    Unscheduled,
}

impl Serialize for Effective {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Effective::AlreadyInEffect => s.serialize_str("already_in_effect"),
            Effective::Unscheduled => s.serialize_str("unscheduled"),
            Effective::Date(d) => s.serialize_str(&d.to_string()),
        }
    }
}

/// A dated change.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    #[serde(flatten)]
    pub meta: Meta,
    pub effective: Effective,
    pub kind: Text,
    pub summary: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub affects: Vec<TypedRef>,
    pub gate: bool,
    #[serde(skip)]
    pub effective_span: Span,
}

/// A state machine.
#[derive(Clone, Debug, Serialize)]
pub struct StateMachine {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<TypedRef>,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    pub state_enum: Option<Ref>,
    pub states: Vec<State>,
    pub transitions: Vec<Transition>,
}

/// A state.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// A transition.
#[derive(Clone, Debug, Serialize)]
pub struct Transition {
    #[serde(flatten)]
    pub meta: Meta,
    pub from: Ref,
    pub to: Ref,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
}

/// A side effect.
#[derive(Clone, Debug, Serialize)]
pub struct Effect {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Ref>,
}
