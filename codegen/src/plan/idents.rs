//! Rust identifiers spelled from spec ids: crate names, type, value and constant names, and the
//! prelude names a generated item must not shadow. The naming functions of [`super::rust`] and
//! [`super::c`] build on these.

use super::case;
use crate::model::Model;
use proc_macro2::{Ident, Span};
use quote::format_ident;

/// The name every generated crate starts with: the spec's C type prefix without its
/// underscore, in snake case (`Platform_` gives `platform-types`, `Widget_` gives `widget-types`).
pub fn crate_stem(model: &Model) -> String {
    stem_of(&model.platform.prefixes.c_type)
}

/// [`crate_stem`] of the C type prefix `c_type`.
pub fn stem_of(c_type: &str) -> String {
    let stem = case::snake(c_type.trim_matches('_'));
    if stem.is_empty() { "platform".to_owned() } else { stem }
}

/// The package name of one generated crate: `platform-types`.
pub fn package(model: &Model, artifact: &str) -> String {
    format!("{}-{artifact}", crate_stem(model).replace('_', "-"))
}

/// The library identifier of one generated crate: `platform_types`.
pub fn lib_ident(model: &Model, artifact: &str) -> Ident {
    format_ident!("{}_{artifact}", crate_stem(model))
}

/// A type or variant name for a spec id (`PIN_MESSAGES` -> `PinMessages`).
pub fn type_ident(id: &str) -> Ident {
    let name = case::pascal(id);
    let name = if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) { format!("V{name}") } else { name };
    case::rust_ident(&name)
}

/// Names of the Rust 2024 prelude, which a generated item must not shadow: the generated code
/// names them unqualified (`impl From<...>`, `Option<...>`, `impl Future`).
const PRELUDE: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Vec",
    "String",
    "Box",
    "Result",
    "Ok",
    "Err",
    "Default",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "ToOwned",
    "ToString",
    "PartialEq",
    "PartialOrd",
    "Eq",
    "Ord",
    "AsRef",
    "AsMut",
    "Into",
    "From",
    "Iterator",
    "Extend",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "TryFrom",
    "TryInto",
    "FromIterator",
    "Future",
    "IntoFuture",
];

/// The name of a generated item (struct, enum): a type name that never shadows the prelude
/// (`string` -> `StringType`) nor a type parameter of the generated code, which are single
/// letters (`D` of `Deserialize`, `A` of `Api`: `a` -> `AType`).
pub fn item_ident(id: &str) -> Ident {
    let ident = type_ident(id);
    let text = ident.to_string();
    if PRELUDE.contains(&text.as_str()) || text.len() == 1 { format_ident!("{ident}Type") } else { ident }
}

/// A type name already in PascalCase (a C++ class), as a Rust item that never shadows the
/// prelude (`Option` -> `OptionType`).
pub fn unshadowed(name: &str) -> String {
    if PRELUDE.contains(&name) || name.len() == 1 { format!("{name}Type") } else { name.to_owned() }
}

/// A field, function or module name for a spec id (`guild.id` -> `guild_id`).
pub fn value_ident(id: &str) -> Ident {
    let name = case::snake(id);
    let name = if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) { format!("v{name}") } else { name };
    case::rust_ident(&name)
}

/// A constant name for a spec id (`pin-messages-required` -> `PIN_MESSAGES_REQUIRED`).
pub fn const_ident(id: &str) -> Ident {
    let name = case::screaming(id);
    let name = if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) { format!("V{name}") } else { name };
    Ident::new(&name, Span::call_site())
}
