//! Identifiers by the scope they share, in every target language: what validation checks so
//! that no two spec items are given one identifier (see [`crate::validate`], E0141).
//!
//! Each target family lists its own scopes, from the same functions its emitters name items
//! with: [`super::rust::names`] for the Rust crates, `c::names` for the C header, the C++
//! wrapper and the library behind them.

use crate::diag::Span;
use crate::model::Model;

/// One scope of generated code (the variants of an enum, the constants of a header) and the
/// spec items that have an identifier in it.
#[derive(Clone, Debug)]
pub struct Namespace {
    /// `Rust`, `C` or `C++`.
    pub language: &'static str,
    /// The key that renames an item in this language: `rust_name` or `c_name`; empty where the
    /// names are the spec's own (never on the wire), so renaming the item settles a collision.
    pub override_key: &'static str,
    /// The scope, as a reader finds it (`the variants of enum `sort``).
    pub scope: String,
    /// The items, in spec order.
    pub entries: Vec<Entry>,
}

/// One spec item's identifier in a [`Namespace`].
#[derive(Clone, Debug)]
pub struct Entry {
    /// The identifier as generated.
    pub ident: String,
    /// The item (`value `user``).
    pub what: String,
    /// Where the item is named in the spec.
    pub span: Span,
    /// A name the generator itself declares in the scope, which no spec item may take.
    pub reserved: bool,
}

impl Entry {
    /// A spec item's entry.
    pub fn new(ident: String, what: String, span: Span) -> Self {
        Self { ident, what, span, reserved: false }
    }

    /// A name the generator declares.
    pub fn reserved(ident: String) -> Self {
        Self { what: format!("the generator's own `{ident}`"), ident, span: Span::default(), reserved: true }
    }
}

/// Every scope of every target language.
pub fn namespaces(model: &Model) -> Vec<Namespace> {
    let mut out = super::rust::names::namespaces(model);
    out.extend(super::c::names::namespaces(model));
    out
}
