//! What the three Rust emitters (types, server, client) agree on: type expressions, constraint
//! bounds and the manifest layout; crate names and identifiers are the plan's ([`crate::plan::idents`]).

use crate::model::types::Primitive;
use crate::model::{Bound, Endpoint, Field, Items, Model, Status, TypeRef};
pub use crate::plan::idents::{crate_stem, lib_ident, package, type_ident, unshadowed, value_ident};
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
pub fn type_tokens(model: &Model, ty: &TypeRef, root: &TokenStream) -> TokenStream {
    match ty {
        TypeRef::Primitive(p) => primitive_tokens(*p, root),
        TypeRef::Array(inner) => {
            let inner = type_tokens(model, inner, root);
            quote!(Vec<#inner>)
        }
        TypeRef::Enum(id) => {
            let name = crate::plan::rust::enum_id(model, id);
            quote!(#root::enums::#name)
        }
        TypeRef::Flags(id) => {
            let name = crate::plan::rust::flags_id(model, id);
            quote!(#root::flags::#name)
        }
        TypeRef::Object(id) => {
            let name = crate::plan::rust::resource_id(model, id);
            quote!(#root::resources::#name)
        }
        TypeRef::Union(id) => {
            let name = crate::plan::rust::union_id(model, id);
            quote!(#root::unions::#name)
        }
        TypeRef::Map(key, value) => {
            let (key, value) = (type_tokens(model, key, root), type_tokens(model, value, root));
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
pub fn value_tokens(model: &Model, ty: &TypeRef, items: Option<&Items>, root: &TokenStream) -> TokenStream {
    let element = |inner: &TypeRef, i: &Items| {
        let tokens = value_tokens(model, inner, i.items.as_deref(), root);
        if i.nullable { quote!(Option<#tokens>) } else { tokens }
    };
    match (ty, items) {
        (TypeRef::Array(inner), Some(i)) => {
            let inner = element(inner, i);
            quote!(Vec<#inner>)
        }
        (TypeRef::Map(key, value), Some(i)) => {
            let (key, value) = (type_tokens(model, key, root), element(value, i));
            quote!(#root::wire::IndexMap<#key, #value>)
        }
        _ => type_tokens(model, ty, root),
    }
}

/// The type a field is declared with: `Option` when it may be absent or null, `Presence` when it
/// may be both (absent and `null` are different on the wire), the value itself when an absent
/// field stands for its default; `boxed` when the field's shape contains its owner.
pub fn field_type_boxed(model: &Model, field: &Field, root: &TokenStream, boxed: bool) -> TokenStream {
    let inner = field.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(model, t, field.items.as_ref(), root));
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
pub fn field_type(model: &Model, field: &Field, root: &TokenStream) -> TokenStream {
    field_type_boxed(model, field, root, false)
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
pub fn needs_box(model: &Model, owner: Shape<'_>, ty: &TypeRef) -> bool {
    direct_shape(ty).is_some_and(|s| reaches(model, s, owner, &mut BTreeSet::new()))
}

fn reaches<'m>(model: &'m Model, from: Shape<'m>, owner: Shape<'_>, seen: &mut BTreeSet<Shape<'m>>) -> bool {
    if from == owner {
        return true;
    }
    if !seen.insert(from) {
        return false;
    }
    let fields: &[Field] = match from {
        Shape::Resource(id) => model.resource(id).map_or(&[], |r| &r.fields),
        Shape::Union(id) => model.union(id).map_or(&[], |u| &u.variants),
    };
    fields.iter().filter_map(|f| f.ty.as_ref().and_then(direct_shape)).any(|s| reaches(model, s, owner, seen))
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
        // Fractional bounds are literals of floating-point fields, compared as written.
        Bound::Float(..) => None,
        Bound::Field { endpoint, field, offset } => Some(Resolved::Runtime { endpoint: endpoint.id.clone(), field: field.clone(), offset: *offset }),
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
pub fn deprecated_attribute(model: &Model, by: Option<&crate::model::Ref>, until: Option<&crate::model::Ref>, instead: Option<&str>) -> Option<TokenStream> {
    let by = model.change(&by?.id)?;
    let when = match by.effective {
        crate::model::Effective::Date(d) => format!("from {d}"),
        other => effective_words(other),
    };
    let mut note = format!("{} (change `{}`, {when})", by.summary.trim_end_matches('.'), by.meta.id);
    if let Some(instead) = instead {
        note.push_str(&format!("; use {instead}"));
    }
    note.push('.');
    if let Some(until) = until.and_then(|u| model.change(&u.id)) {
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

/// Reason phrases of RFC 9110 §15 (and RFC 6585's 428, 429, 431), as variant names.
const REASONS: &[(u16, &str)] = &[
    (100, "Continue"),
    (101, "SwitchingProtocols"),
    (200, "Ok"),
    (201, "Created"),
    (202, "Accepted"),
    (203, "NonAuthoritativeInformation"),
    (204, "NoContent"),
    (205, "ResetContent"),
    (206, "PartialContent"),
    (300, "MultipleChoices"),
    (301, "MovedPermanently"),
    (302, "Found"),
    (303, "SeeOther"),
    (304, "NotModified"),
    (307, "TemporaryRedirect"),
    (308, "PermanentRedirect"),
    (400, "BadRequest"),
    (401, "Unauthorized"),
    (402, "PaymentRequired"),
    (403, "Forbidden"),
    (404, "NotFound"),
    (405, "MethodNotAllowed"),
    (406, "NotAcceptable"),
    (407, "ProxyAuthenticationRequired"),
    (408, "RequestTimeout"),
    (409, "Conflict"),
    (410, "Gone"),
    (411, "LengthRequired"),
    (412, "PreconditionFailed"),
    (413, "ContentTooLarge"),
    (414, "UriTooLong"),
    (415, "UnsupportedMediaType"),
    (416, "RangeNotSatisfiable"),
    (417, "ExpectationFailed"),
    (421, "MisdirectedRequest"),
    (422, "UnprocessableContent"),
    (423, "Locked"),
    (424, "FailedDependency"),
    (425, "TooEarly"),
    (426, "UpgradeRequired"),
    (428, "PreconditionRequired"),
    (429, "TooManyRequests"),
    (431, "RequestHeaderFieldsTooLarge"),
    (451, "UnavailableForLegalReasons"),
    (500, "InternalServerError"),
    (501, "NotImplemented"),
    (502, "BadGateway"),
    (503, "ServiceUnavailable"),
    (504, "GatewayTimeout"),
    (505, "HttpVersionNotSupported"),
];

/// The name of a status in an endpoint's `Response` enum: its reason phrase (`Ok`,
/// `TooManyRequests`), the class of a range (`ClientError` for `4XX`), `Other` for `default`,
/// and `Status299` for a code without a registered phrase.
pub fn status_name(status: Status) -> String {
    match status {
        Status::Code(code) => REASONS.iter().find(|(c, _)| *c == code).map_or_else(|| format!("Status{code}"), |(_, n)| (*n).to_owned()),
        Status::Range(1) => "Informational".to_owned(),
        Status::Range(2) => "Success".to_owned(),
        Status::Range(3) => "Redirection".to_owned(),
        Status::Range(4) => "ClientError".to_owned(),
        Status::Range(_) => "ServerError".to_owned(),
        Status::Default => "Other".to_owned(),
    }
}
