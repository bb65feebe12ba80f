//! `unions.rs`: one enum per union, with its serde impls and validator.
//!
//! A tagged union reads its discriminator first and decodes the variant it names straight from
//! the input (`wire::tagged`); a tag no variant has is kept as `Unknown` with the raw JSON. An
//! untagged union tries its variants in the declared order; a value none decodes is kept the same
//! way. Both write back what they read, and both fail validation when unknown (strict on write).

use super::checks::{Rules, value_checks};
use super::docs::{docs, meta_notes};
use super::fields::field_docs;
use crate::emit::rust::shared::{Shape, int, needs_box, value_tokens};
use crate::model::types::Primitive;
use crate::model::{Field, TagValue, TypeRef, Union};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `unions.rs`: its docs, then the items of each union.
pub fn emit<'p>(plan: &'p Plan<'p>) -> impl Iterator<Item = TokenStream> + 'p {
    let docs = quote! {
        //! Unions: values of one of several shapes, named by a discriminator field (tagged) or
        //! tried in the declared order (untagged). A value the spec does not describe is kept as
        //! `Unknown`, so it writes back unchanged, and the validators report it.
    };
    std::iter::once(docs).chain(plan.unions.iter().map(|u| union(plan, u)))
}

/// The catch-all variant (see [`names::union_catch_all`]).
pub fn catch_all(u: &Union) -> Ident {
    names::union_catch_all(u)
}

/// One variant as the enum holds it.
struct Arm<'a> {
    field: &'a Field,
    ident: Ident,
    /// The Rust type it carries; `None` for `null`.
    ty: Option<TokenStream>,
    boxed: bool,
    tag: Option<TagValue>,
}

fn arms<'a>(plan: &Plan, u: &'a Union) -> Vec<Arm<'a>> {
    let root = quote!(crate);
    u.variants
        .iter()
        .map(|v| {
            let null = matches!(v.ty, Some(TypeRef::Primitive(Primitive::Null)));
            let boxed = v.ty.as_ref().is_some_and(|t| needs_box(plan, Shape::Union(&u.meta.id), t));
            let ty = (!null).then(|| {
                let inner = v.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(plan, t, v.items.as_ref(), &root));
                if boxed { quote!(Box<#inner>) } else { inner }
            });
            Arm { field: v, ident: names::union_variant(v), ty, boxed, tag: plan.variant_tag(u, v) }
        })
        .collect()
}

fn union(plan: &Plan, u: &Union) -> TokenStream {
    let name = names::union_type(u);
    let other = catch_all(u);
    let arms = arms(plan, u);
    let tagged = u.discriminator.as_ref().and_then(|d| d.ty.as_ref().map(|t| (d.field.as_str(), t)));
    let variants = arms.iter().map(|a| {
        let mut d = field_docs(plan, a.field);
        if let Some(tag) = &a.tag {
            let line = format!(" Tag {tag}.");
            d.extend(quote!(#[doc = ""] #[doc = #line]));
        }
        let ident = &a.ident;
        match &a.ty {
            Some(ty) => quote!(#d #ident(#ty),),
            None => quote!(#d #ident,),
        }
    });
    let unknown = match tagged {
        Some((_, ty)) => {
            let tag_ty = tag_type(plan, ty);
            quote! {
                /// A variant the spec does not name, kept as received.
                #other {
                    /// Its tag.
                    tag: #tag_ty,
                    /// The whole value, as received.
                    raw: serde_json::Value,
                },
            }
        }
        None => quote! {
            /// A value none of the variants decodes, kept as received.
            #other(serde_json::Value),
        },
    };
    let doc = union_docs(plan, u);
    let objects = u.variants.iter().filter(|v| matches!(v.ty, Some(TypeRef::Object(_) | TypeRef::Union(_)))).count();
    // The catch-all holds a JSON value: one object beside it is enough to differ in size.
    let large = (objects > 0).then(super::responses::large_variants_allowed);
    let serialize = serialize(&name, &arms, &other, tagged.is_some());
    let deserialize = match tagged {
        Some((field, ty)) => tagged_deserialize(plan, u, &name, &arms, &other, field, ty),
        None => untagged_deserialize(plan, u, &name, &arms, &other),
    };
    let validate = validate(plan, u, &name, &arms, &other, tagged);
    let from = from_impls(&name, &arms);
    let accessors = accessors(plan, u, &name, &arms, &other, tagged);
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        #large
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
            #unknown
        }

        #serialize

        #deserialize

        #validate

        #from

        #accessors
    }
}

fn union_docs(plan: &Plan, u: &Union) -> TokenStream {
    let mut notes = meta_notes(plan, &u.meta);
    match &u.discriminator {
        Some(d) => notes.push(format!("Tagged by the field `{}`.", d.field)),
        None => {
            let order: Vec<String> = u.try_order(plan).iter().map(|v| format!("`{}`", names::union_variant(v))).collect();
            notes.push(format!(
                "Untagged: a value is tried against the variants most specific first ({}); the first whose type reads it and whose constraints it keeps wins.",
                order.join(", ")
            ));
        }
    }
    if let Some(path) = &u.inline {
        notes.push(format!("Declared inline at `{path}`."));
    }
    let fallback = format!("`{}`: one of several shapes.", u.meta.id);
    docs(Some(u.meta.description.as_deref().unwrap_or(&fallback)), &notes)
}

/// The Rust type of a discriminator's values.
fn tag_type(plan: &Plan, ty: &TypeRef) -> TokenStream {
    match ty {
        TypeRef::Enum(id) => {
            let e = plan.enum_type(id);
            quote!(crate::enums::#e)
        }
        TypeRef::Primitive(Primitive::String) => quote!(String),
        _ => quote!(i64),
    }
}

fn serialize(name: &Ident, arms: &[Arm], other: &Ident, tagged: bool) -> TokenStream {
    let cases = arms.iter().map(|a| {
        let ident = &a.ident;
        match a.ty {
            Some(_) => quote!(Self::#ident(value) => serde::Serialize::serialize(value, serializer),),
            None => quote!(Self::#ident => serializer.serialize_unit(),),
        }
    });
    let unknown = if tagged { quote!(Self::#other { raw, .. }) } else { quote!(Self::#other(raw)) };
    quote! {
        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    #(#cases)*
                    #unknown => serde::Serialize::serialize(raw, serializer),
                }
            }
        }
    }
}

/// The constructor of an arm from its decoded value.
fn ctor(name: &Ident, a: &Arm) -> TokenStream {
    let ident = &a.ident;
    if a.boxed { quote!(|value| #name::#ident(Box::new(value))) } else { quote!(#name::#ident) }
}

fn tagged_deserialize(plan: &Plan, u: &Union, name: &Ident, arms: &[Arm], other: &Ident, field: &str, ty: &TypeRef) -> TokenStream {
    let tag_ty = tag_type(plan, ty);
    let string_enum = matches!(ty, TypeRef::Enum(id) if plan.enum_(id).is_some_and(|e| e.repr == "string"));
    let tag_json = match ty {
        TypeRef::Primitive(Primitive::String) => quote!(serde_json::Value::from(tag.as_str())),
        TypeRef::Enum(_) if string_enum => quote!(serde_json::Value::from(tag.as_str())),
        TypeRef::Enum(_) => quote!(serde_json::Value::from(tag.value())),
        _ => quote!(serde_json::Value::from(tag)),
    };
    let expecting = format!("a `{}` object with a `{field}` field", u.meta.id);
    let known: Vec<(TokenStream, TokenStream)> = arms
        .iter()
        .filter_map(|a| {
            let pattern = match (a.tag.as_ref()?, ty) {
                (TagValue::Integer(n), _) => int(*n),
                (TagValue::Text(t), _) => quote!(#t),
                (TagValue::Enum(id), TypeRef::Enum(e)) => {
                    let (e, v) = (plan.enum_type(e), plan.enum_variant(e, id));
                    quote!(crate::enums::#e::#v)
                }
                (TagValue::Enum(_), _) => return None,
            };
            Some((pattern, ctor(name, a)))
        })
        .collect();
    let dispatch = if matches!(ty, TypeRef::Primitive(Primitive::String)) {
        let cases = known.iter().map(|(pattern, ctor)| quote!(#pattern => return crate::wire::tagged::variant(before, #field, tag_value, map).map(#ctor),));
        quote! {
            #[allow(clippy::single_match, reason = "an arm per variant, and a union may have one")]
            match tag.as_str() {
                #(#cases)*
                _ => {}
            }
            crate::wire::tagged::unknown(before, #field, tag_value, map).map(|raw| #name::#other { tag, raw })
        }
    } else {
        let cases = known.iter().map(|(pattern, ctor)| quote!(#pattern => crate::wire::tagged::variant(before, #field, tag_value, map).map(#ctor),));
        quote! {
            match tag {
                #(#cases)*
                tag => crate::wire::tagged::unknown(before, #field, tag_value, map).map(|raw| #name::#other { tag, raw }),
            }
        }
    };
    quote! {
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct TagFirst;

                impl<'de> serde::de::Visitor<'de> for TagFirst {
                    type Value = #name;

                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(#expecting)
                    }

                    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<#name, A::Error> {
                        let mut before = Vec::new();
                        let tag: #tag_ty = crate::wire::tagged::read_tag(&mut map, #field, &mut before)?;
                        let tag_value = #tag_json;
                        #dispatch
                    }
                }

                deserializer.deserialize_map(TagFirst)
            }
        }
    }
}

/// An untagged union's decoder: each variant in order, the first whose type decodes the value
/// and whose own constraints hold (a pattern, a constant, bounds) wins, so two variants of one
/// type told apart by their constraints are both reachable. When none holds, the first whose
/// type decodes the value takes it, and its validator reports what the value breaks.
fn untagged_deserialize(plan: &Plan, u: &Union, name: &Ident, arms: &[Arm], other: &Ident) -> TokenStream {
    let mut fallbacks = Vec::new();
    let tries: Vec<TokenStream> = u
        .try_order(plan)
        .into_iter()
        .filter_map(|v| arms.iter().find(|a| std::ptr::eq(a.field, v)))
        .map(|a| {
            let ident = &a.ident;
            match &a.ty {
                None => quote! {
                    if value.is_null() {
                        return Ok(Self::#ident);
                    }
                },
                Some(ty) => {
                    let wrap = if a.boxed { quote!(Self::#ident(Box::new(v))) } else { quote!(Self::#ident(v)) };
                    let inner = if a.boxed { strip_box(ty) } else { ty.clone() };
                    let checks = a.field.ty.as_ref().map(|t| value_checks(plan, &quote!(value), t, Rules::of(a.field), &quote!(pointer))).unwrap_or_default();
                    // Returns the variant when the value `v` keeps the variant's constraints.
                    let take = if checks.is_empty() {
                        quote!(return Ok(#wrap);)
                    } else {
                        quote! {
                            let mut violations: Vec<crate::validation::Violation> = Vec::new();
                            {
                                let (value, pointer, out) = (&v, &crate::validation::Pointer::ROOT, &mut violations);
                                #checks
                            }
                            if violations.is_empty() {
                                return Ok(#wrap);
                            }
                        }
                    };
                    if !checks.is_empty() {
                        fallbacks.push(quote! {
                            if let Ok(v) = <#inner as serde::Deserialize>::deserialize(&value) {
                                return Ok(#wrap);
                            }
                        });
                    }
                    let kind = a.field.ty.as_ref().and_then(json_kind);
                    if !a.boxed && inner.to_string() == "String" {
                        // A text is taken out of the value, not copied.
                        let arm = if checks.is_empty() {
                            quote!(serde_json::Value::String(v) => return Ok(#wrap),)
                        } else {
                            quote!(serde_json::Value::String(v) => {
                                #take
                                serde_json::Value::String(v)
                            })
                        };
                        return quote! {
                            let value = match value {
                                #arm
                                value => value,
                            };
                        };
                    }
                    // A variant whose type cannot read the value's kind is not tried: a failed
                    // attempt costs an error's allocations.
                    let kind = kind.map(|kind| quote!(#kind &&));
                    quote! {
                        if #kind let Ok(v) = <#inner as serde::Deserialize>::deserialize(&value) {
                            #take
                        }
                    }
                }
            }
        })
        .collect();
    quote! {
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                // Untagged: only a decoded value can say which variant it is, so it is read once
                // as JSON and tried against each variant in order.
                let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
                #(#tries)*
                #(#fallbacks)*
                Ok(Self::#other(value))
            }
        }
    }
}

/// The test of a JSON value's kind that every value of `ty` passes, where one kind is all it
/// reads; `None` where a type reads several kinds (ids and integers written as text or as
/// numbers, enums, unions, any JSON).
fn json_kind(ty: &TypeRef) -> Option<TokenStream> {
    use Primitive as P;
    Some(match ty {
        TypeRef::Primitive(P::Boolean) => quote!(value.is_boolean()),
        TypeRef::Primitive(P::Integer | P::Int32 | P::Uint32 | P::Uint64) => quote!((value.is_i64() || value.is_u64())),
        TypeRef::Primitive(P::Number | P::Float32) => quote!(value.is_number()),
        TypeRef::Primitive(P::String | P::Date | P::Uuid | P::Email | P::Url) => quote!(value.is_string()),
        TypeRef::Array(_) => quote!(value.is_array()),
        TypeRef::Map(..) | TypeRef::Object(_) => quote!(value.is_object()),
        _ => return None,
    })
}

/// `T` of the tokens `Box<T>`.
fn strip_box(ty: &TokenStream) -> TokenStream {
    let parsed: syn::Type = syn::parse2(ty.clone()).expect("BUG: a Rust type parses");
    if let syn::Type::Path(p) = &parsed
        && let Some(seg) = p.path.segments.last()
        && seg.ident == "Box"
        && let syn::PathArguments::AngleBracketed(args) = &seg.arguments
        && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
    {
        return quote!(#inner);
    }
    ty.clone()
}

fn validate(plan: &Plan, u: &Union, name: &Ident, arms: &[Arm], other: &Ident, tagged: Option<(&str, &TypeRef)>) -> TokenStream {
    let id = &u.meta.id;
    let cases = arms.iter().map(|a| {
        let ident = &a.ident;
        let checks = a.field.ty.as_ref().map(|t| value_checks(plan, &quote!(value), t, Rules::of(a.field), &quote!(pointer))).unwrap_or_default();
        match (&a.ty, checks.is_empty()) {
            (None, _) => quote!(Self::#ident => {}),
            (Some(_), true) => quote!(Self::#ident(_) => {}),
            (Some(_), false) => quote!(Self::#ident(value) => { #checks }),
        }
    });
    let unknown = match tagged {
        Some((field, ty)) => {
            let shown = match ty {
                TypeRef::Enum(e) if plan.enum_(e).is_some_and(|e| e.repr != "string") => quote!(tag.value()),
                _ => quote!(tag),
            };
            let detail = format!("`{field}` is {{}}");
            quote!(Self::#other { tag, .. } => crate::validation::unknown_variant(out, pointer, #id, format_args!(#detail, #shown)),)
        }
        None => {
            let names: Vec<String> = u.variants.iter().map(|v| format!("`{}`", v.name)).collect();
            let detail = format!("it is none of {}", names.join(", "));
            quote!(Self::#other(_) => crate::validation::unknown_variant(out, pointer, #id, #detail),)
        }
    };
    quote! {
        impl crate::validation::Validate for #name {
            fn validate_at(&self, pointer: &crate::validation::Pointer<'_>, out: &mut Vec<crate::validation::Violation>) {
                match self {
                    #(#cases)*
                    #unknown
                }
            }
        }
    }
}

/// A method per field every variant has ([`Union::shared_fields`]), reading it whatever the
/// variant: `Option<&T>`, `None` for a value no variant decodes and where a variant leaves the
/// field out or null. Named after the field, as its struct member is. A tagged union's
/// `Unknown` still has its tag, so the discriminator's accessor reads it there too.
fn accessors(plan: &Plan, u: &Union, name: &Ident, arms: &[Arm], other: &Ident, tagged: Option<(&str, &TypeRef)>) -> TokenStream {
    let shared: Vec<(&Field, Ident)> = u.shared_fields(plan.model()).into_iter().filter_map(|f| Some((f, names::union_accessor(f)?))).collect();
    if shared.is_empty() {
        return TokenStream::new();
    }
    let methods = shared.iter().map(|(f, ident)| {
        let ty = f.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(plan, t, f.items.as_ref(), &quote!(crate)));
        let tag = tagged.filter(|(field, tag)| *field == f.name && tag_type(plan, tag).to_string() == ty.to_string());
        let unknown = match (tagged, tag) {
            (Some(_), Some(_)) => quote!(Self::#other { tag, .. } => Some(tag)),
            (Some(_), None) => quote!(Self::#other { .. } => None),
            (None, _) => quote!(Self::#other(_) => None),
        };
        let mut always = true;
        let reads = arms.iter().map(|a| {
            let (variant, record) = (&a.ident, variant_record(plan, a));
            let held = record.fields.iter().find(|g| g.name == f.name).expect("BUG: a shared field is in every variant");
            always &= always_held(held);
            let read = borrowed(plan, record, held, ident);
            quote!(Self::#variant(value) => #read,)
        });
        let reads: Vec<TokenStream> = reads.collect();
        let line = match (always, tag.is_some()) {
            (true, true) => format!(" Its `{}`, whichever variant it is, `{other}` included.", f.name),
            (true, false) => format!(" Its `{}`, whichever variant it is; `None` for a value no variant decodes.", f.name),
            (false, _) => {
                format!(" Its `{}`, whichever variant it is; `None` where the variant leaves it out or null, or the value is one no variant decodes.", f.name)
            }
        };
        quote! {
            #[doc = #line]
            pub fn #ident(&self) -> Option<&#ty> {
                match self {
                    #(#reads)*
                    #unknown,
                }
            }
        }
    });
    let allow = accessor_lints(&shared);
    quote! {
        /// The fields every variant has.
        #allow
        impl #name {
            #(#methods)*
        }
    }
}

/// The record a variant of a union of records carries.
fn variant_record<'m>(plan: &'m Plan<'m>, a: &Arm) -> &'m crate::model::Resource {
    match &a.field.ty {
        Some(TypeRef::Object(id)) => plan.resource(id).expect("BUG: a shared field's union holds records"),
        _ => unreachable!("BUG: a union with shared fields holds only records"),
    }
}

/// Whether a struct holds the field's value itself, never absent or null (required, or
/// defaulted when absent).
fn always_held(f: &Field) -> bool {
    f.defaulted() || !(f.may_be_absent() || f.nullable)
}

/// `value.<field>` of `record` borrowed as `Option<&T>`, through the `Option`, `Presence` or
/// `Box` the struct holds it in.
fn borrowed(plan: &Plan, record: &crate::model::Resource, f: &Field, ident: &Ident) -> TokenStream {
    let boxed = f.ty.as_ref().is_some_and(|t| needs_box(plan, Shape::Resource(&record.meta.id), t));
    let member = quote!(value.#ident);
    match (f.three_state(), always_held(f), boxed) {
        (true, _, false) => quote!(#member.value()),
        (true, _, true) => quote!(#member.value().map(Box::as_ref)),
        (false, true, false) => quote!(Some(&#member)),
        (false, true, true) => quote!(Some(&*#member)),
        (false, false, false) => quote!(#member.as_ref()),
        (false, false, true) => quote!(#member.as_deref()),
    }
}

/// The lints an accessor's name can meet because it is the field's, not a method's: clippy
/// reads `to_`, `into_`, `as_` and `from_` as conversions, `len` as asking for `is_empty`, and
/// the names of std traits' methods as those traits.
fn accessor_lints(shared: &[(&Field, Ident)]) -> TokenStream {
    const TRAIT_METHODS: &[&str] = &[
        "add",
        "as_mut",
        "as_ref",
        "bitand",
        "bitor",
        "bitxor",
        "borrow",
        "borrow_mut",
        "clone",
        "cmp",
        "default",
        "deref",
        "deref_mut",
        "div",
        "drop",
        "eq",
        "from_iter",
        "from_str",
        "hash",
        "index",
        "index_mut",
        "into_iter",
        "mul",
        "neg",
        "next",
        "not",
        "rem",
        "shl",
        "shr",
        "sub",
    ];
    let names: Vec<String> = shared.iter().map(|(_, ident)| ident.to_string().trim_start_matches("r#").to_owned()).collect();
    let mut lints = Vec::new();
    if names.iter().any(|n| ["to_", "into_", "as_", "from_", "is_"].iter().any(|p| n.starts_with(p)) || n.ends_with("_mut")) {
        lints.push(quote!(clippy::wrong_self_convention));
    }
    if names.iter().any(|n| TRAIT_METHODS.contains(&n.as_str())) {
        lints.push(quote!(clippy::should_implement_trait));
    }
    if names.iter().any(|n| n == "len") {
        lints.push(quote!(clippy::len_without_is_empty));
    }
    if names.iter().any(|n| n == "new") {
        lints.push(quote!(clippy::new_ret_no_self));
    }
    if lints.is_empty() {
        return TokenStream::new();
    }
    quote!(#[allow(#(#lints),*, reason = "each accessor is named after the field it reads")])
}

/// `From<Variant>` for each variant type that only one variant carries.
fn from_impls(name: &Ident, arms: &[Arm]) -> TokenStream {
    let types: Vec<String> = arms.iter().filter_map(|a| a.ty.as_ref().map(ToString::to_string)).collect();
    arms.iter()
        .filter_map(|a| {
            let ty = a.ty.as_ref()?;
            if types.iter().filter(|t| **t == ty.to_string()).count() > 1 {
                return None;
            }
            let ident = &a.ident;
            let (from, wrap) = if a.boxed { (strip_box(ty), quote!(Box::new(value))) } else { (ty.clone(), quote!(value)) };
            Some(quote! {
                impl From<#from> for #name {
                    fn from(value: #from) -> Self {
                        Self::#ident(#wrap)
                    }
                }
            })
        })
        .collect()
}
