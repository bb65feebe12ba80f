//! What the three Rust emitters (types, server, client) agree on: type expressions, constraint
//! bounds and the manifest layout; crate names and identifiers are the plan's ([`crate::plan::idents`]).

use crate::model::types::Primitive;
use crate::model::{Endpoint, Field, Items, TypeRef};
pub use crate::plan::idents::{crate_stem, lib_ident, package, unshadowed};
use crate::plan::rust::Plan;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

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

/// The Rust type of a type expression; `root` is the path of the types crate (`crate` inside
/// it, `crate::types` in the server and client).
pub fn type_tokens(plan: &Plan, ty: &TypeRef, root: &TokenStream) -> TokenStream {
    match ty {
        TypeRef::Primitive(p) => primitive_tokens(*p, root),
        TypeRef::Array(inner) => {
            let inner = type_tokens(plan, inner, root);
            quote!(Vec<#inner>)
        }
        TypeRef::Enum(id) => {
            let name = plan.enum_type(id);
            quote!(#root::enums::#name)
        }
        TypeRef::Flags(id) => {
            let name = plan.flags_type(id);
            quote!(#root::flags::#name)
        }
        TypeRef::Object(id) => {
            let name = plan.resource_type(id);
            quote!(#root::resources::#name)
        }
        TypeRef::Union(id) => {
            let name = plan.union_type(id);
            quote!(#root::unions::#name)
        }
        TypeRef::Map(key, value) => {
            let (key, value) = (type_tokens(plan, key, root), type_tokens(plan, value, root));
            quote!(#root::wire::IndexMap<#key, #value>)
        }
        // SDK classes live behind the C ABI, not on the wire; a field that names one carries it
        // as JSON.
        TypeRef::Class(_) => quote!(serde_json::Value),
    }
}

fn primitive_tokens(p: Primitive, root: &TokenStream) -> TokenStream {
    match p {
        Primitive::String | Primitive::Url | Primitive::Email | Primitive::Csv => quote!(String),
        Primitive::Boolean => quote!(bool),
        Primitive::Integer => quote!(i64),
        Primitive::Int32 => quote!(i32),
        Primitive::Uint32 => quote!(u32),
        Primitive::Uint64 => quote!(u64),
        Primitive::Number => quote!(f64),
        Primitive::Float32 => quote!(f32),
        Primitive::Date => quote!(#root::wire::Date),
        Primitive::Uuid => quote!(#root::wire::Uuid),
        Primitive::Bytes => quote!(#root::wire::Bytes),
        Primitive::Null => quote!(()),
        Primitive::Snowflake => quote!(#root::wire::Snowflake),
        // Through the types crate, which re-exports it: the server and client do not depend on jiff.
        Primitive::Timestamp => quote!(#root::clock::Timestamp),
        Primitive::StringInteger => quote!(#root::wire::StringInteger),
        Primitive::File => quote!(#root::wire::RawBody),
        Primitive::Json => quote!(serde_json::Value),
    }
}

/// The Rust type of a value of `ty` whose elements follow `items` (a nullable element is an
/// `Option`).
pub fn value_tokens(plan: &Plan, ty: &TypeRef, items: Option<&Items>, root: &TokenStream) -> TokenStream {
    let element = |inner: &TypeRef, i: &Items| {
        let tokens = value_tokens(plan, inner, i.items.as_deref(), root);
        if i.nullable { quote!(Option<#tokens>) } else { tokens }
    };
    match (ty, items) {
        (TypeRef::Array(inner), Some(i)) => {
            let inner = element(inner, i);
            quote!(Vec<#inner>)
        }
        (TypeRef::Map(key, value), Some(i)) => {
            let (key, value) = (type_tokens(plan, key, root), element(value, i));
            quote!(#root::wire::IndexMap<#key, #value>)
        }
        _ => type_tokens(plan, ty, root),
    }
}

/// The type a field is declared with: `Option` when it may be absent or null, `Presence` when it
/// may be both (absent and `null` are different on the wire), the value itself when an absent
/// field stands for its default; `boxed` when the field's shape contains its owner.
pub fn field_type_boxed(plan: &Plan, field: &Field, root: &TokenStream, boxed: bool) -> TokenStream {
    let inner = field.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(plan, t, field.items.as_ref(), root));
    let inner = if boxed { quote!(Box<#inner>) } else { inner };
    if field.three_state() {
        return quote!(#root::wire::Presence<#inner>);
    }
    if field.defaulted() {
        return inner;
    }
    if field.may_be_absent() || field.nullable { quote!(Option<#inner>) } else { inner }
}

/// [`field_type_boxed`] for a field whose shape does not contain its owner.
pub fn field_type(plan: &Plan, field: &Field, root: &TokenStream) -> TokenStream {
    field_type_boxed(plan, field, root, false)
}

/// A shape that holds fields: a resource or a union.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape<'a> {
    Resource(&'a str),
    Union(&'a str),
}

/// The shape a value of `ty` holds directly (not behind a `Vec` or a map, which allocate).
fn direct_shape(ty: &TypeRef) -> Option<Shape<'_>> {
    match ty {
        TypeRef::Object(id) => Some(Shape::Resource(id)),
        TypeRef::Union(id) => Some(Shape::Union(id)),
        _ => None,
    }
}

/// Whether a field of type `ty` in the shape `owner` holds the owner again without a `Vec` or
/// map in between: the field is boxed, or the type would have an infinite size.
pub fn needs_box(plan: &Plan, owner: Shape<'_>, ty: &TypeRef) -> bool {
    direct_shape(ty).is_some_and(|s| reaches(plan, s, owner, &mut BTreeSet::new()))
}

fn reaches<'m>(plan: &'m Plan<'m>, from: Shape<'m>, owner: Shape<'_>, seen: &mut BTreeSet<Shape<'m>>) -> bool {
    if from == owner {
        return true;
    }
    if !seen.insert(from) {
        return false;
    }
    let fields: &[Field] = match from {
        Shape::Resource(id) => plan.resource(id).map_or(&[], |r| &r.fields),
        Shape::Union(id) => plan.union(id).map_or(&[], |u| &u.variants),
    };
    fields.iter().filter_map(|f| f.ty.as_ref().and_then(direct_shape)).any(|s| reaches(plan, s, owner, seen))
}

/// The `{placeholder}` that addresses an endpoint: the address of its part, else the first
/// placeholder some part uses as its address.
pub fn endpoint_address<'m>(plan: &'m Plan<'m>, endpoint: &Endpoint) -> Option<&'m str> {
    let part_address = |id: &str| plan.platform.parts.iter().find(|p| p.meta.id == id).and_then(|p| p.address.as_ref());
    endpoint.meta.part.as_ref().and_then(|p| part_address(&p.id)).or_else(|| plan.platform.parts.iter().find_map(|p| p.address.as_ref())).map(|r| r.id.as_str())
}

/// Placeholders some part uses as its address, in spec order.
pub fn address_placeholders<'p>(plan: &'p Plan<'p>) -> Vec<&'p str> {
    let mut out: Vec<&str> = Vec::new();
    for part in &plan.platform.parts {
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

/// When a change takes effect, for `#[deprecated(since = ..)]` and notes: `2026-02-23`,
/// `already in effect`, `at an unscheduled date`.
pub fn effective_words(e: crate::model::Effective) -> String {
    match e {
        crate::model::Effective::Date(d) => d.to_string(),
        crate::model::Effective::AlreadyInEffect => "already in effect".to_owned(),
        crate::model::Effective::Unscheduled => "at an unscheduled date".to_owned(),
    }
}

/// `#[deprecated(since = .., note = ..)]` for an item the change `by` deprecates, so a compiler
/// says so wherever the item is used: since the change's date (no `since` for a change already in
/// effect or unscheduled: `since` names a date, never words), with its summary, what to use
/// instead (`instead`, when there is one) and the change that removes it (`until`). The crates
/// that carry these allow `clippy::deprecated_semver`: `since` is a date of the platform's
/// timeline, not a version of the crate.
pub fn deprecated_attribute(plan: &Plan, by: Option<&crate::model::Ref>, until: Option<&crate::model::Ref>, instead: Option<&str>) -> Option<TokenStream> {
    let by = plan.change(&by?.id)?;
    let when = match by.effective {
        crate::model::Effective::Date(d) => format!("from {d}"),
        other => effective_words(other),
    };
    let mut note = format!("{} (change `{}`, {when})", by.summary.trim_end_matches('.'), by.meta.id);
    if let Some(instead) = instead {
        note.push_str(&format!("; use {instead}"));
    }
    note.push('.');
    if let Some(until) = until.and_then(|u| plan.change(&u.id)) {
        note.push_str(&format!(" Removed {} (change `{}`).", until_words(until.effective), until.meta.id));
    }
    Some(match by.effective {
        crate::model::Effective::Date(d) => {
            let since = d.to_string();
            quote!(#[deprecated(since = #since, note = #note)])
        }
        _ => quote!(#[deprecated(note = #note)]),
    })
}

/// When a removal takes effect, inside a sentence: `on 2026-07-10`, `already`, `at an
/// unscheduled date`.
fn until_words(e: crate::model::Effective) -> String {
    match e {
        crate::model::Effective::Date(d) => format!("on {d}"),
        crate::model::Effective::AlreadyInEffect => "already".to_owned(),
        crate::model::Effective::Unscheduled => "at an unscheduled date".to_owned(),
    }
}

/// The runtime's name of a stream's framing, through the types crate.
pub fn framing_tokens(framing: crate::model::Framing) -> TokenStream {
    match framing {
        crate::model::Framing::Events => quote!(types::stream::Framing::Events),
        crate::model::Framing::JsonLines => quote!(types::stream::Framing::JsonLines),
    }
}
