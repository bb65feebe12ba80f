//! The HTTP API: endpoints with their behaviours, and the errors they return with the error body.

use super::{Field, Gap, Meta, Ref, Text, TypeRef};
use crate::diag::Span;
use indexmap::IndexMap;
use serde::Serialize;

/// An HTTP operation.
#[derive(Debug, Serialize)]
pub struct Endpoint {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Text>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path_params: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub query: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub body: Vec<Field>,
    /// The body as a whole when it is not an object (named `body`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_schema: Option<Field>,
    pub body_format: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<TypeRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_fields: Vec<Field>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_max_items: Option<super::Bound>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_columns: Vec<Field>,
    pub response_format: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub auth: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub behaviours: Vec<Behaviour>,
    #[serde(skip)]
    pub response_span: Span,
}

impl Endpoint {
    /// Whether the endpoint gets a route (its method and path are both known).
    pub fn is_routed(&self) -> bool {
        self.method.is_some() && self.path.is_some()
    }

    /// The `{placeholder}` names of the path, in order.
    pub fn path_placeholders(&self) -> Vec<&str> {
        let Some(path) = &self.path else { return vec![] };
        path.id.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
    }
}

/// A behaviour of an operation.
#[derive(Debug, Serialize)]
pub struct Behaviour {
    #[serde(flatten)]
    pub meta: Meta,
    pub gate: bool,
}

/// An error.
#[derive(Debug, Serialize)]
pub struct Error {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oauth_error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    pub condition: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<Ref>,
    #[serde(skip)]
    pub code_span: Span,
    #[serde(skip)]
    pub status_span: Span,
}

/// The error body shape.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
}
