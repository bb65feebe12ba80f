//! SDK surfaces: classes with methods, SDK calls, and embedded-app commands with their aliases.

use super::{Field, Meta, Ref, Text, TypeRef, TypedRef};
use crate::diag::Span;
use serde::Serialize;

/// A command.
#[derive(Clone, Debug, Serialize)]
pub struct Command {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Alias>,
}

/// An alias.
#[derive(Clone, Debug, Serialize)]
pub struct Alias {
    #[serde(flatten)]
    pub meta: Meta,
}

/// An SDK class.
#[derive(Clone, Debug, Serialize)]
pub struct Class {
    #[serde(flatten)]
    pub meta: Meta,
    pub namespace: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<Method>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub semantics: Vec<Text>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub used_by: Vec<TypedRef>,
}

/// A method of a class.
#[derive(Clone, Debug, Serialize)]
pub struct Method {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<TypeRef>,
    #[serde(skip)]
    pub returns_span: Span,
}

/// An SDK call.
#[derive(Clone, Debug, Serialize)]
pub struct SdkCall {
    #[serde(flatten)]
    pub meta: Meta,
    pub signature: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<TypeRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
    #[serde(skip)]
    pub returns_span: Span,
}
