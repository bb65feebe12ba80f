//! The platform block (name, prefixes, placeholders, parts), features, constants, standalone gaps
//! and limits: what the model says about the platform as a whole.

use super::{Bound, Meta, Ref, Text, TypedRef};
use crate::diag::Span;
use serde::Serialize;

/// The platform block.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlatformInfo {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub prefixes: Prefixes,
    pub placeholders: Vec<Placeholder>,
    pub parts: Vec<Part>,
    /// The placeholder naming where the reference page is published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docs: Option<Ref>,
    #[serde(skip)]
    pub span: Span,
}

impl PlatformInfo {
    /// The example address of the published reference page, when the spec names one.
    pub fn docs_example(&self) -> Option<&str> {
        let id = &self.docs.as_ref()?.id;
        self.placeholders.iter().find(|p| &p.meta.id == id)?.example.as_deref()
    }
}

/// Naming prefixes of the generated artifacts.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Prefixes {
    pub c_type: String,
    pub c_macro: String,
    pub cpp_namespace: String,
    pub c_header: String,
    pub cpp_header: String,
}

/// A `{placeholder}`.
#[derive(Clone, Debug, Serialize)]
pub struct Placeholder {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

/// A part of the platform.
#[derive(Clone, Debug, Serialize)]
pub struct Part {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<Ref>,
}

/// A described behaviour.
#[derive(Clone, Debug, Serialize)]
pub struct Feature {
    #[serde(flatten)]
    pub meta: Meta,
    pub points: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs_implementation: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
}

/// A named value (a redirect URI template).
#[derive(Clone, Debug, Serialize)]
pub struct Constant {
    #[serde(flatten)]
    pub meta: Meta,
    pub value: crate::load::raw::ConstantValue,
}

/// A standalone not-shown statement.
#[derive(Clone, Debug, Serialize)]
pub struct GapItem {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
}

/// A limit.
#[derive(Clone, Debug, Serialize)]
pub struct Limit {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Bound>,
    pub unit: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Quantity>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub applies_to: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub previous: Vec<PreviousValue>,
}

impl Limit {
    /// The literal number a constraint referring to this limit uses as an upper bound.
    pub fn upper(&self) -> Option<i64> {
        [&self.max, &self.value].into_iter().flatten().find_map(|b| match b {
            Bound::Value(_, v) => Some(*v),
            _ => None,
        })
    }

    /// The literal lower bound, if any.
    pub fn lower(&self) -> Option<i64> {
        match &self.min {
            Some(Bound::Value(_, v)) => Some(*v),
            _ => None,
        }
    }

    /// The upper bound in bytes, when the unit is a size.
    pub fn upper_bytes(&self) -> Option<u64> {
        let factor: u64 = match self.unit.id.as_str() {
            "bytes" => 1,
            "KiB" => 1 << 10,
            "MiB" => 1 << 20,
            "GiB" => 1 << 30,
            _ => return None,
        };
        self.upper().and_then(|v| u64::try_from(v).ok()).map(|v| v * factor)
    }
}

/// A number with a unit.
#[derive(Clone, Debug, Serialize)]
pub struct Quantity {
    pub value: i64,
    pub unit: Text,
}

/// A value a limit had before a change.
#[derive(Clone, Debug, Serialize)]
pub struct PreviousValue {
    pub value: i64,
    pub until: Ref,
}
