//! What the three Rust emitters (types, server, client) agree on: crate names, identifiers,
//! type expressions, constraint bounds and the manifest layout.

use crate::emit::case;
use crate::model::types::Primitive;
use crate::model::{Bound, Endpoint, Field, Model, TypeRef};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// The name every generated crate starts with: the spec's C type prefix without its
/// underscore, in snake case (`Platform_` gives `platform-types`, `Widget_` gives `widget-types`).
pub fn crate_stem(model: &Model) -> String {
    let stem = case::snake(model.platform.prefixes.c_type.trim_matches('_'));
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

/// Names of the prelude that a generated item must not shadow.
const PRELUDE: &[&str] = &["Option", "Some", "None", "Vec", "String", "Box", "Result", "Ok", "Err", "Default", "Clone", "Copy", "Send", "Sync"];

/// The name of a generated item (struct, enum): a type name that never shadows the prelude
/// (`string` -> `StringType`).
pub fn item_ident(id: &str) -> Ident {
    let ident = type_ident(id);
    if PRELUDE.contains(&ident.to_string().as_str()) { format_ident!("{ident}Type") } else { ident }
}

/// `match self` over a reference to an enum, or `match *self` when the enum has no variant:
/// a match on a reference to an empty enum needs an arm rustc cannot be given.
pub fn match_ref(empty: bool) -> TokenStream {
    if empty { quote!(match *self) } else { quote!(match self) }
}

/// An integer literal without a type suffix (`500`, not `500i64`).
pub fn int(value: i64) -> TokenStream {
    let literal = proc_macro2::Literal::u64_unsuffixed(value.unsigned_abs());
    if value < 0 { quote!(-#literal) } else { quote!(#literal) }
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

/// The Rust type of a type expression; `root` is the path of the types crate (`crate` inside
/// it, `crate::types` in the server and client).
pub fn type_tokens(model: &Model, ty: &TypeRef, root: &TokenStream) -> TokenStream {
    match ty {
        TypeRef::Primitive(p) => primitive_tokens(*p, root),
        TypeRef::Array(inner) => {
            let inner = type_tokens(model, inner, root);
            quote!(Vec<#inner>)
        }
        TypeRef::Enum(id) => {
            let name = super::names::enum_id(model, id);
            quote!(#root::enums::#name)
        }
        TypeRef::Flags(id) => {
            let name = super::names::flags_id(model, id);
            quote!(#root::flags::#name)
        }
        TypeRef::Object(id) => {
            let name = super::names::resource_id(model, id);
            quote!(#root::resources::#name)
        }
        // SDK classes live behind the C ABI, not on the wire; a field that names one carries it
        // as JSON.
        TypeRef::Class(_) => quote!(serde_json::Value),
    }
}

fn primitive_tokens(p: Primitive, root: &TokenStream) -> TokenStream {
    match p {
        Primitive::String | Primitive::Url | Primitive::Csv => quote!(String),
        Primitive::Boolean => quote!(bool),
        Primitive::Integer => quote!(i64),
        Primitive::Int32 => quote!(i32),
        Primitive::Uint32 => quote!(u32),
        Primitive::Uint64 => quote!(u64),
        Primitive::Snowflake => quote!(#root::wire::Snowflake),
        // Through the types crate, which re-exports it: the server and client do not depend on jiff.
        Primitive::Timestamp => quote!(#root::clock::Timestamp),
        Primitive::StringInteger => quote!(#root::wire::StringInteger),
        Primitive::File => quote!(#root::wire::RawBody),
        Primitive::Json => quote!(serde_json::Value),
    }
}

/// The type a field is declared with: `Option` when it may be absent or null, and
/// `Option<Option<T>>` when it may be both (absent and `null` are different on the wire). A
/// resource that can contain itself is boxed wherever it is held directly (see [`boxed`]).
pub fn field_type(model: &Model, field: &Field, root: &TokenStream) -> TokenStream {
    let inner = match &field.ty {
        Some(t) if boxed(model, t) => {
            let t = type_tokens(model, t, root);
            quote!(Box<#t>)
        }
        Some(t) => type_tokens(model, t, root),
        None => quote!(serde_json::Value),
    };
    match (field.optional || field.required_when.is_some(), field.nullable) {
        (true, true) => quote!(Option<Option<#inner>>),
        (true, false) | (false, true) => quote!(Option<#inner>),
        (false, false) => inner,
    }
}

/// Whether a field of type `ty` holds a resource that can contain itself without an array in
/// between (`parent: object<node>` in `node`, or `a -> b -> a`). Such a struct would be
/// infinitely large, so every direct use of a recursive resource is boxed; arrays already hold
/// their items on the heap.
pub fn boxed(model: &Model, ty: &TypeRef) -> bool {
    matches!(ty, TypeRef::Object(id) if reaches(model, id, id, &mut std::collections::BTreeSet::new()))
}

/// Whether resource `from` holds `target` directly (not through an array), at any depth.
fn reaches(model: &Model, from: &str, target: &str, seen: &mut std::collections::BTreeSet<String>) -> bool {
    if !seen.insert(from.to_owned()) {
        return false;
    }
    let Some(r) = model.resource(from) else { return false };
    r.fields.iter().any(|f| match &f.ty {
        Some(TypeRef::Object(next)) => next == target || reaches(model, next, target, seen),
        _ => false,
    })
}

/// A bound resolved as far as the spec allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A number known when generating.
    Static(i64),
    /// A field of another endpoint's response, known only at run time, plus an offset.
    Runtime { endpoint: String, field: String, offset: i64 },
}

/// Resolves a bound; `upper` picks a limit's maximum (or value) rather than its minimum, and
/// `bytes` converts a size limit to bytes. Returns `None` when the limit has no such side.
pub fn resolve(model: &Model, bound: &Bound, upper: bool, bytes: bool) -> Option<Resolved> {
    match bound {
        Bound::Value(_, v) => Some(Resolved::Static(*v)),
        Bound::Field { endpoint, field, offset } => {
            Some(Resolved::Runtime { endpoint: endpoint.id.clone(), field: field.clone(), offset: *offset })
        }
        Bound::Limit { limit, offset } => {
            let limit = model.limit(&limit.id)?;
            let side = if upper { limit.max.as_ref().or(limit.value.as_ref()) } else { limit.min.as_ref() };
            let resolved = match side? {
                Bound::Value(_, v) if bytes => {
                    let factor: i64 = match limit.unit.id.as_str() {
                        "KiB" => 1 << 10,
                        "MiB" => 1 << 20,
                        "GiB" => 1 << 30,
                        _ => 1,
                    };
                    Resolved::Static(v.saturating_mul(factor))
                }
                nested => resolve(model, nested, upper, bytes)?,
            };
            Some(match resolved {
                Resolved::Static(v) => Resolved::Static(v + offset),
                Resolved::Runtime { endpoint, field, offset: o } => Resolved::Runtime { endpoint, field, offset: o + offset },
            })
        }
    }
}

/// The `{placeholder}` that addresses an endpoint: the address of its part, else the first
/// placeholder some part uses as its address.
pub fn endpoint_address<'m>(model: &'m Model, endpoint: &Endpoint) -> Option<&'m str> {
    let part_address = |id: &str| model.platform.parts.iter().find(|p| p.meta.id == id).and_then(|p| p.address.as_ref());
    endpoint
        .meta
        .part
        .as_ref()
        .and_then(|p| part_address(&p.id))
        .or_else(|| model.platform.parts.iter().find_map(|p| p.address.as_ref()))
        .map(|r| r.id.as_str())
}

/// Placeholders some part uses as its address, in spec order.
pub fn address_placeholders(model: &Model) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for part in &model.platform.parts {
        if let Some(a) = &part.address
            && !out.contains(&a.id.as_str())
        {
            out.push(&a.id);
        }
    }
    out
}

/// `lib.rs` module declarations, each skipped by rustfmt so `cargo fmt` and the generator never
/// disagree about a committed file. Each module file carries its own `//!` summary.
pub fn module_decls(modules: &[&str]) -> TokenStream {
    modules
        .iter()
        .map(|name| {
            let ident = Ident::new(name, Span::call_site());
            quote! {
                #[rustfmt::skip]
                pub mod #ident;
            }
        })
        .collect()
}
