//! `#[derive(Resource)]`: a downstream struct's fields are a subset of a spec resource's fields,
//! with serde names that exist and Rust types compatible with the spec types.

use super::{at, combine, krate, unknown};
use crate::Loaded;
use crate::diag::did_you_mean;
use crate::model::types::Primitive;
use crate::model::{Field, Model, TypeRef};
use crate::plan::case;
use crate::plan::rust::names;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Type};

/// Checks the struct against `#[resource(id)]` and implements the facade's `Resource` trait.
pub fn derive_resource(spec: &Loaded, input: TokenStream) -> syn::Result<TokenStream> {
    let input: DeriveInput = syn::parse2(input)?;
    let (id, id_token) = resource_attr(&input)?;
    let model = &spec.model;
    let Some(resource) = model.resource(&id) else {
        return Err(unknown(spec, &id_token, "resource", &id, model.resources.iter().map(|r| &r.meta)));
    };
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new(input.ident.span(), "`Resource` can only be derived for structs with named fields"));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new(input.ident.span(), "`Resource` can only be derived for structs with named fields"));
    };
    let place = at(spec, resource.meta.id_span);
    let mut errors = Vec::new();
    for field in &fields.named {
        let ident = field.ident.as_ref().expect("BUG: named fields have idents");
        let wire = serde_rename(&field.attrs)?.unwrap_or_else(|| ident.unraw_string());
        match resource.fields.iter().find(|f| f.wire() == wire) {
            None => {
                let names = resource.fields.iter().map(|f| f.wire());
                let mut message = format!("resource `{id}` (defined at {place}) has no field `{wire}`");
                if let Some(best) = did_you_mean(&wire, names.clone()) {
                    message.push_str(&format!("\n\nhelp: did you mean `{best}`?"));
                } else {
                    message.push_str(&format!("\n\nhelp: its fields are {}", names.map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")));
                }
                errors.push(syn::Error::new(ident.span(), message));
            }
            Some(spec_field) => {
                if let Err(why) = compatible(&spec.model, spec_field, &field.ty) {
                    let location = spec.sources.location(spec_field.type_span);
                    errors.push(syn::Error::new(field.ty.span(), format!("field `{wire}` of resource `{id}` is {why} (spec at {location})")));
                }
            }
        }
    }
    combine(errors)?;
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let krate = krate();
    Ok(quote! {
        impl #impl_generics #krate::Resource for #name #ty_generics #where_clause {
            const RESOURCE: &'static str = #id;
        }
    })
}

trait UnrawString {
    fn unraw_string(&self) -> String;
}

impl UnrawString for syn::Ident {
    fn unraw_string(&self) -> String {
        let s = self.to_string();
        s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
    }
}

/// The `#[resource(id)]` attribute.
fn resource_attr(input: &DeriveInput) -> syn::Result<(String, syn::Ident)> {
    let attr = input.attrs.iter().find(|a| a.path().is_ident("resource")).ok_or_else(|| {
        syn::Error::new(input.ident.span(), "missing `#[resource(id)]`: name the spec resource this struct reads, e.g. `#[resource(channel)]`")
    })?;
    let ident: syn::Ident = attr.parse_args().map_err(|e| syn::Error::new(e.span(), "expected `#[resource(id)]` with one resource id"))?;
    Ok((ident.to_string(), ident))
}

/// The `#[serde(rename = "...")]` of a field, if any.
fn serde_rename(attrs: &[syn::Attribute]) -> syn::Result<Option<String>> {
    let mut out = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let lit: syn::LitStr = meta.value()?.parse()?;
                out = Some(lit.value());
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// Whether a Rust type can hold the spec field; the error says what it expects.
pub(super) fn compatible(model: &Model, field: &Field, ty: &Type) -> Result<(), String> {
    let Some(spec_ty) = &field.ty else { return Ok(()) };
    let (inner, wrapped) = match unwrap_generic(ty, "Option").or_else(|| unwrap_generic(ty, "Presence")) {
        Some(inner) => (inner, true),
        None => (ty, false),
    };
    // A field with a typed default always has a value once read.
    if !wrapped && (field.optional || field.nullable) && !field.defaulted() {
        let why = if field.nullable { "nullable" } else { "optional" };
        return Err(format!("{why}, so its Rust type must be an `Option<_>`"));
    }
    match_type(model, spec_ty, inner).map_err(|expected| format!("`{spec_ty}` in the spec, expected {expected}"))
}

fn match_type(model: &Model, spec_ty: &TypeRef, ty: &Type) -> Result<(), String> {
    if let TypeRef::Array(item) = spec_ty {
        let inner = unwrap_generic(ty, "Vec").ok_or_else(|| "a `Vec<_>`".to_owned())?;
        return match_type(model, item, unwrap_generic(inner, "Option").unwrap_or(inner));
    }
    if let TypeRef::Map(_, value) = spec_ty {
        let inner = ["IndexMap", "HashMap", "BTreeMap"].iter().find_map(|m| second_generic(ty, m));
        let inner = inner.ok_or_else(|| "an `IndexMap<_, _>`, `HashMap<_, _>` or `BTreeMap<_, _>`".to_owned())?;
        return match_type(model, value, unwrap_generic(inner, "Option").unwrap_or(inner));
    }
    let last = last_segment(ty).unwrap_or_default();
    let accepted = accepted(model, spec_ty);
    if accepted.contains(&last) || last == "Value" { Ok(()) } else { Err(accepted.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(" or ")) }
}

/// Rust type names (last path segment) that hold a spec type.
/// A generated type's name, and `Value` for a field that keeps any JSON.
fn named(ident: Option<proc_macro2::Ident>) -> Vec<String> {
    ident.map(|i| vec![i.to_string(), "Value".into()]).unwrap_or_default()
}

fn accepted(model: &Model, spec_ty: &TypeRef) -> Vec<String> {
    let names: &[&str] = match spec_ty {
        TypeRef::Primitive(p) => match p {
            Primitive::String | Primitive::Url | Primitive::Email | Primitive::Csv => &["String", "str", "Cow"],
            Primitive::Boolean => &["bool"],
            Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64 => &["i64", "i32", "u32", "u64", "usize", "isize"],
            Primitive::Number | Primitive::Float32 => &["f64", "f32"],
            Primitive::Snowflake => &["Snowflake", "u64", "String"],
            Primitive::StringInteger => &["u64", "String", "Permissions"],
            Primitive::Timestamp => &["Timestamp", "String", "Zoned"],
            Primitive::Date => &["Date", "String"],
            Primitive::Uuid => &["Uuid", "u128", "String"],
            Primitive::Bytes => &["Bytes", "Vec"],
            Primitive::File => &["Vec", "Bytes", "FilePart", "RawBody"],
            Primitive::Json => &["Value"],
            Primitive::Null => &["()"],
        },
        // Validation resolved every reference; an unknown one accepts no type.
        TypeRef::Enum(id) => return named(model.enum_(id).map(names::enum_type)),
        TypeRef::Flags(id) => return named(model.flag_set(id).map(names::flags_type)),
        TypeRef::Object(id) => return named(model.resource(id).map(names::resource)),
        TypeRef::Union(id) => return named(model.union(id).map(names::union_type)),
        TypeRef::Class(id) => return vec![case::pascal(id), "Value".into()],
        TypeRef::Array(_) => &["Vec"],
        TypeRef::Map(..) => &["IndexMap", "HashMap", "BTreeMap"],
    };
    names.iter().map(|s| s.to_string()).collect()
}

fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => Some("()".to_owned()),
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => last_segment(&r.elem),
        _ => None,
    }
}

/// `V` of `Map<K, V>` when `ty` is that map.
fn second_generic<'a>(ty: &'a Type, map: &str) -> Option<&'a Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != map {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else { return None };
    args.args
        .iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .nth(1)
}

/// `T` of `Wrapper<T>` when `ty` is that wrapper.
fn unwrap_generic<'a>(ty: &'a Type, wrapper: &str) -> Option<&'a Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != wrapper {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else { return None };
    args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}
