//! Data shapes: resources, fields with their constraints and bounds, enums and flag sets; the
//! type expressions fields are written in are [`types`].

pub mod types;

pub use types::TypeRef;

use super::{Cond, Gap, Meta, Ref};
use crate::diag::Span;
use indexmap::IndexMap;
use serde::Serialize;

/// A resource.
#[derive(Debug, Serialize)]
pub struct Resource {
    #[serde(flatten)]
    pub meta: Meta,
    pub direction: String,
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<Case>,
}

/// A shape an object (resource or event payload) takes when a condition holds.
#[derive(Debug, Serialize)]
pub struct Case {
    #[serde(flatten)]
    pub meta: Meta,
    pub when: super::Rule,
    pub fields: Vec<CaseField>,
}

/// What a case says about one field of its object.
#[derive(Debug, Serialize)]
pub struct CaseField {
    /// The field's name in the object.
    pub field: Ref,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal: Option<String>,
    /// Flag ids of the field's flag set that are set.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contains: Vec<Ref>,
    /// Enum values (`enum_id.VALUE`) no element of the field carries.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omits: Vec<Ref>,
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
}

/// A field, query parameter, path parameter, body member or SDK class member.
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire_name: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub optional: bool,
    pub nullable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal: Option<String>,
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_when: Option<Cond>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires_scope: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The stem of the field's Rust identifiers when it is not the name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rust_name: Option<Ref>,
    /// The stem of the field's C and C++ identifiers when it is not the name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c_name: Option<Ref>,
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    pub type_span: Span,
    /// Where `optional:` was written; `None` when the spec is silent about presence.
    #[serde(skip)]
    pub optional_span: Option<Span>,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
}

/// The keys a field accepts besides its own name: what a field's `assumed` may name (`name` is
/// the field's key, `type`, `optional`, ...).
pub fn field_keys() -> &'static [&'static str] {
    static KEYS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys = vec!["name"];
        keys.extend(crate::load::keys_of::<crate::load::raw::Field>());
        keys
    })
}

impl Field {
    /// The name on the wire.
    pub fn wire(&self) -> &str {
        self.wire_name.as_deref().unwrap_or(&self.name)
    }

    /// The stem of the field's Rust identifiers: its `rust_name`, else its name.
    pub fn rust(&self) -> &str {
        self.rust_name.as_ref().map_or(&self.name, |r| &r.id)
    }

    /// The stem of the field's C and C++ identifiers: its `c_name`, else its name.
    pub fn c(&self) -> &str {
        self.c_name.as_ref().map_or(&self.name, |r| &r.id)
    }
}

/// Constraints declared on a field.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Constraints {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_exclusive: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_size: Option<Bound>,
}

impl Constraints {
    /// Whether no constraint is declared.
    pub fn is_empty(&self) -> bool {
        self.all().is_empty()
    }

    /// Every declared constraint with its key.
    pub fn all(&self) -> Vec<(&'static str, &Bound)> {
        let pairs = [
            ("min", &self.min),
            ("max", &self.max),
            ("max_exclusive", &self.max_exclusive),
            ("min_length", &self.min_length),
            ("max_length", &self.max_length),
            ("min_items", &self.min_items),
            ("max_items", &self.max_items),
            ("max_size", &self.max_size),
        ];
        pairs.into_iter().filter_map(|(k, v)| v.as_ref().map(|b| (k, b))).collect()
    }
}

/// A numeric bound: literal, limit or another endpoint's response field.
///
/// Serializes as the number itself, `{"limit": id}` or `{"field": "endpoint.field"}`, with
/// `"offset"` when it is not zero.
#[derive(Clone, Debug)]
pub enum Bound {
    Value(Span, i64),
    Limit { limit: Ref, offset: i64 },
    Field { endpoint: Ref, field: String, offset: i64 },
}

impl Serialize for Bound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (key, target, offset) = match self {
            Bound::Value(_, v) => return s.serialize_i64(*v),
            Bound::Limit { limit, offset } => ("limit", limit.id.clone(), *offset),
            Bound::Field { endpoint, field, offset } => ("field", format!("{}.{field}", endpoint.id), *offset),
        };
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(key, &target)?;
        if !is_zero(&offset) {
            map.serialize_entry("offset", &offset)?;
        }
        map.end()
    }
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl Bound {
    /// Where the bound was written.
    pub fn span(&self) -> Span {
        match self {
            Bound::Value(span, _) => *span,
            Bound::Limit { limit, .. } => limit.span,
            Bound::Field { endpoint, .. } => endpoint.span,
        }
    }
}

/// An enum.
#[derive(Debug, Serialize)]
pub struct Enum {
    #[serde(flatten)]
    pub meta: Meta,
    pub repr: String,
    pub values: Vec<EnumValue>,
    /// Where `repr:` was written; `None` when the representation is the default.
    #[serde(skip)]
    pub repr_span: Option<Span>,
}

/// An enum value.
#[derive(Debug, Serialize)]
pub struct EnumValue {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    #[serde(skip)]
    pub value_span: Span,
}

/// A flag set.
#[derive(Debug, Serialize)]
pub struct Flags {
    #[serde(flatten)]
    pub meta: Meta,
    pub repr: String,
    pub width: u32,
    pub values: Vec<FlagValue>,
}

/// One flag.
#[derive(Debug, Serialize)]
pub struct FlagValue {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bit: Option<u32>,
    #[serde(skip)]
    pub bit_span: Span,
}
