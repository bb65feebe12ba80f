//! What the types, server and client crates must agree on about an endpoint, decided once: the
//! form of its body, how it answers, the values only the running service knows, its gates and
//! the token kinds it accepts.

use super::names;
use crate::model::bounds::{Resolved, resolve};
use crate::model::{Behaviour, Cond, Endpoint, Model, TokenKind};
use proc_macro2::Ident;

/// The facts of one endpoint.
pub struct EndpointFacts<'m> {
    /// Whether the endpoint takes a body, in any form.
    pub has_body: bool,
    /// Whether the endpoint's one body may be left out (its type is `Option` of the schema): an
    /// empty body is then absent, which the client sends for `None` and the server reads as it.
    pub optional_body: bool,
    /// Whether the body is passed through unparsed: CSV files, bytes, and multipart forms whose
    /// parts are not typed.
    pub raw_body: bool,
    /// Whether the body comes in one of several formats (`Body` is then an enum of them).
    pub several_formats: bool,
    /// Whether the body is typed multipart parts in its only format.
    pub parts_body: bool,
    /// Whether the body is a list of fields none of which is required: the request may then
    /// come without one, which reads as the empty object.
    pub fields_may_be_absent: bool,
    /// How the endpoint answers.
    pub response: ResponseKind,
    /// Whether the spec bounds the response (an item count, CSV columns), so that the server
    /// checks what its handler returns and the client what it receives.
    pub checks_response: bool,
    /// The run-time inputs the endpoint's checks need, without duplicates.
    pub inputs: Vec<RuntimeInput>,
    /// The behaviours that get a gate: dated ones marked `gate: true`.
    pub gates: Vec<&'m Behaviour>,
    /// The token kinds the endpoint accepts.
    pub accepts: Vec<&'m TokenKind>,
}

impl<'m> EndpointFacts<'m> {
    /// Works out the facts of `e`, an endpoint of `model`.
    pub fn new(model: &'m Model, e: &'m Endpoint) -> Self {
        let several_formats = e.body_formats.len() > 1;
        let format = e.body_format();
        EndpointFacts {
            has_body: e.body_schema.is_some() || !e.body.is_empty() || !e.parts.is_empty() || matches!(format, "multipart" | "csv" | "binary"),
            optional_body: e.body_schema.as_ref().is_some_and(|f| f.may_be_absent() && !f.nullable),
            raw_body: !several_formats && (matches!(format, "csv" | "binary") || (format == "multipart" && e.parts.is_empty())),
            several_formats,
            parts_body: !several_formats && format == "multipart" && !e.parts.is_empty(),
            fields_may_be_absent: e.body_schema.is_none() && !e.body.is_empty() && e.body.iter().all(|f| f.optional),
            response: ResponseKind::of(e),
            checks_response: e.response_max_items.is_some() || !e.response_columns.is_empty(),
            inputs: runtime_inputs(model, e),
            gates: e.behaviours.iter().filter(|b| b.gate && (b.meta.since.is_some() || b.meta.until.is_some())).collect(),
            accepts: model.accepted_kinds(e),
        }
    }
}

/// Whether the response is decoded from JSON into a typed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResponseKind {
    /// No body: `()`, answered 204.
    Empty,
    /// A JSON body.
    Json,
    /// A text body (CSV).
    Text,
}

impl ResponseKind {
    /// How `e` answers.
    fn of(e: &Endpoint) -> Self {
        match e.response_format.as_str() {
            _ if !e.response_fields.is_empty() => Self::Json,
            "none" => Self::Empty,
            "csv" => Self::Text,
            _ if e.response.is_some() => Self::Json,
            _ => Self::Empty,
        }
    }
}

/// A value only the running service knows that a check needs.
pub enum RuntimeInput {
    /// A field of another endpoint's response (`get_gateway_bot.max_concurrency`).
    Bound { name: String, endpoint: String, field: String },
    /// Whether a condition holds.
    Condition { name: String, cond: Cond },
}

impl RuntimeInput {
    /// The field name in `Runtime`.
    pub fn name(&self) -> Ident {
        match self {
            Self::Bound { name, .. } | Self::Condition { name, .. } => super::parse_ident(name),
        }
    }

    fn key(&self) -> &str {
        match self {
            Self::Bound { name, .. } | Self::Condition { name, .. } => name,
        }
    }
}

/// The run-time inputs an endpoint's checks need, without duplicates.
fn runtime_inputs(model: &Model, e: &Endpoint) -> Vec<RuntimeInput> {
    let mut out: Vec<RuntimeInput> = Vec::new();
    let mut add = |input: RuntimeInput| {
        if !out.iter().any(|i| i.key() == input.key()) {
            out.push(input);
        }
    };
    for f in e.path_params.iter().chain(&e.query).chain(&e.headers).chain(&e.body).chain(e.body_schema.iter()) {
        for (key, bound) in f.constraints.all() {
            if let Some(Resolved::Runtime { endpoint, field, .. }) = resolve(model, bound, key.starts_with("max"), key == "max_size") {
                let name = runtime_bound(model, &endpoint, &field).to_string();
                add(RuntimeInput::Bound { name, endpoint, field });
            }
        }
        if let Some(cond) = &f.required_when {
            add(RuntimeInput::Condition { name: runtime_condition(model, cond).to_string(), cond: cond.clone() });
        }
    }
    out
}

/// The `Runtime` field holding field `field` of endpoint `endpoint`'s response.
pub(super) fn runtime_bound(model: &Model, endpoint: &str, field: &str) -> Ident {
    match model.endpoint(endpoint) {
        Some(e) => names::runtime_bound(e, field),
        None => crate::plan::idents::value_ident(&format!("{endpoint}_{field}")),
    }
}

/// The `Runtime` field saying whether a condition (negation set aside) holds.
pub(super) fn runtime_condition(model: &Model, cond: &Cond) -> Ident {
    let (c, arg) = cond.named();
    match model.conditions.iter().find(|x| x.meta.id == c.id) {
        Some(condition) => names::runtime_condition(condition, arg),
        None => crate::plan::idents::value_ident(&c.id),
    }
}
