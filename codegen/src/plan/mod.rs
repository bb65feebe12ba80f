//! Identifiers by the scope they share, in every target language, and the check that no two
//! spec items are given one identifier (E0141), run after validation by [`crate::load_spec`].
//!
//! Each target family lists its own scopes, from the same functions its emitters name items
//! with: [`rust`] for the Rust crates, [`c::names`] for the C header, the C++
//! wrapper and the library behind them.

pub mod c;
pub mod case;
pub mod idents;
pub mod rust;

use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::Model;
use indexmap::IndexMap;

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
    let mut out = rust::namespaces(model);
    out.extend(c::names::namespaces(model));
    out
}

/// Two spec items that become one identifier in one scope of generated code (two values of an
/// enum, `user_name` and `userName`, both `UserName`; a class field `Init` and the class's
/// `Init` function) would be declared twice, and the generated code would not compile. Case
/// conversion keeps apart what real APIs keep apart (a leading `-`, letters outside ASCII),
/// and Rust names the generator gives are escaped; what is left is reported, naming both
/// items, and `rust_name` or `c_name` renames one of them.
pub fn check_identifier_collisions(cx: &mut Diagnostics, model: &Model) {
    // One report per pair of items and per renaming key: the same two ids usually meet in
    // several scopes of one language family (a C macro, a C++ constant, a Rust constant of the
    // library), and one `c_name` settles them all.
    let mut reported: Vec<(&'static str, Span, Span)> = Vec::new();
    let mut first_report = |key: &'static str, a: Span, b: Span| {
        let pair = (key, a, b);
        let new = !reported.iter().any(|r| *r == pair || *r == (key, b, a));
        if new {
            reported.push(pair);
        }
        new
    };
    for ns in namespaces(model) {
        let mut by_ident: IndexMap<&str, Vec<&Entry>> = IndexMap::new();
        for entry in &ns.entries {
            let list = by_ident.entry(entry.ident.as_str()).or_default();
            if !list.iter().any(|e| e.span == entry.span && e.what == entry.what) {
                list.push(entry);
            }
        }
        for (ident, entries) in by_ident.into_iter().filter(|(_, list)| list.len() > 1) {
            match entries.iter().find(|e| e.reserved) {
                Some(_) => {
                    for e in entries.iter().filter(|e| !e.reserved) {
                        if first_report(ns.override_key, e.span, e.span) {
                            cx.push(reserved(&ns, ident, e));
                        }
                    }
                }
                None => {
                    for e in &entries[1..] {
                        if first_report(ns.override_key, entries[0].span, e.span) {
                            cx.push(twice(&ns, ident, entries[0], e));
                        }
                    }
                }
            }
        }
    }
}

fn help(ns: &Namespace) -> String {
    if ns.override_key.is_empty() {
        "rename one of them: the name is the spec's own, never sent on the wire".to_owned()
    } else {
        format!("give one of them a `{}`: its {} identifiers are then made from that name instead of its id", ns.override_key, ns.language)
    }
}

fn twice(ns: &Namespace, ident: &str, first: &Entry, second: &Entry) -> Diagnostic {
    Diagnostic::error(codes::IDENTIFIER_COLLISION, format!("{} and {} are both `{ident}` in {} ({})", first.what, second.what, ns.scope, ns.language))
        .at(second.span, format!("becomes `{ident}`"))
        .also(first.span, format!("also becomes `{ident}`"))
        .help(help(ns))
}

fn reserved(ns: &Namespace, ident: &str, item: &Entry) -> Diagnostic {
    Diagnostic::error(codes::IDENTIFIER_COLLISION, format!("{} is `{ident}` in {} ({}), a name the generator declares there", item.what, ns.scope, ns.language))
        .at(item.span, format!("becomes `{ident}`"))
        .help(format!("give it a `{}`: its {} identifiers are then made from that name instead of its id", ns.override_key, ns.language))
}
