//! The validators constraints compile to: every declared bound, pattern, format, subset and
//! constant, descending into arrays, maps, objects and unions, each violation at its JSON pointer.
//!
//! Enums and unions are open on read and strict on write: a value the spec does not name
//! decodes (so a client keeps what a newer server sends), and the validator, which the server
//! runs on every request and the client before sending, reports it.

use super::literals::literal_tokens;
use crate::emit::rust::shared::int;
use crate::model::bounds::{Resolved, resolve};
use crate::model::types::Primitive;
use crate::model::{Bound, Constraints, Field, Items, Literal, Ref, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

/// Everything a value is checked against besides its type.
#[derive(Clone, Copy)]
pub struct Rules<'a> {
    pub constraints: &'a Constraints,
    pub items: Option<&'a Items>,
    pub subset: &'a [Ref],
    pub constant: Option<&'a Literal>,
}

impl<'a> Rules<'a> {
    /// The rules of a field.
    pub fn of(f: &'a Field) -> Self {
        Rules { constraints: &f.constraints, items: f.items.as_ref(), subset: &f.subset, constant: f.constant.as_ref() }
    }

    /// Only constraints (a case's item counts).
    pub fn constraints(constraints: &'a Constraints) -> Self {
        Rules { constraints, items: None, subset: &[], constant: None }
    }

    /// No rules: the checks every value of the type gets.
    fn none() -> Rules<'static> {
        static NONE: std::sync::LazyLock<Constraints> = std::sync::LazyLock::new(Constraints::default);
        Rules { constraints: &NONE, items: None, subset: &[], constant: None }
    }

    /// The rules of a field's elements: its `items:` block, and its subset (which names the
    /// values of an array of enums).
    fn elements(&self) -> (Rules<'a>, bool) {
        match self.items {
            Some(i) => (Rules { constraints: &i.constraints, items: i.items.as_deref(), subset: self.subset, constant: None }, i.nullable),
            None => (Rules { subset: self.subset, ..Rules::none() }, false),
        }
    }
}

/// `impl Validate` for a struct of `fields`.
pub fn validate_impl(plan: &Plan, name: &Ident, fields: &[Field]) -> TokenStream {
    let checks: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let ident = names::field(f);
            field_checks(plan, f, quote!(self.#ident))
        })
        .filter(|t| !t.is_empty())
        .collect();
    if checks.is_empty() {
        return quote! {
            impl crate::validation::Validate for #name {
                fn validate_at(&self, _pointer: &crate::validation::Pointer<'_>, _out: &mut Vec<crate::validation::Violation>) {}
            }
        };
    }
    quote! {
        impl crate::validation::Validate for #name {
            fn validate_at(&self, pointer: &crate::validation::Pointer<'_>, out: &mut Vec<crate::validation::Violation>) {
                #(#checks)*
            }
        }
    }
}

/// The static checks of one field, reading it through `access` (`self.status`).
pub fn field_checks(plan: &Plan, f: &Field, access: TokenStream) -> TokenStream {
    let Some(ty) = &f.ty else { return TokenStream::new() };
    let mut body = value_checks(plan, &quote!(value), ty, Rules::of(f), &quote!(&pointer));
    if let Some(literal) = &f.literal {
        body.extend(quote!(crate::validation::literal(out, &pointer, value, #literal);));
    }
    bind_field(f, access, body)
}

/// Runs `body` on a field's value (bound as `value`, with `pointer` its JSON pointer under the
/// enclosing `pointer`) when the field has one.
pub fn bind_field(f: &Field, access: TokenStream, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return body;
    }
    let wire = f.wire();
    let bind = bind_value(f, &access, &body);
    quote! {
        {
            let pointer = crate::validation::Pointer::key(pointer, #wire);
            #bind
        }
    }
}

/// Runs `body` with `value` bound to the field's value (read through `access`) when it has one:
/// not when absent or `null`.
pub fn bind_value(f: &Field, access: &TokenStream, body: &TokenStream) -> TokenStream {
    bind_value_in(f, access, body, &quote!(crate))
}

/// [`bind_value`] where `root` is the path of the types crate (`types` in the server and client).
pub fn bind_value_in(f: &Field, access: &TokenStream, body: &TokenStream, root: &TokenStream) -> TokenStream {
    if f.three_state() {
        quote!(if let #root::wire::Presence::Value(value) = &#access { #body })
    } else if f.defaulted() || !(f.may_be_absent() || f.nullable) {
        quote!(let value = &#access; #body)
    } else {
        quote!(if let Some(value) = &#access { #body })
    }
}

/// An expression that holds when the field (read through `access`) was given, `null` or not.
pub fn is_given(f: &Field, access: &TokenStream) -> TokenStream {
    if f.three_state() {
        quote!(!#access.is_absent())
    } else if f.defaulted() || !f.may_be_absent() {
        quote!(true)
    } else {
        quote!(#access.is_some())
    }
}

/// A bound known when generating, as an integer.
fn static_bound(plan: &Plan, key: &str, b: Option<&Bound>) -> Option<TokenStream> {
    match resolve(plan, b?, key.starts_with("max"), key == "max_size")? {
        Resolved::Static(v) => Some(int(v)),
        Resolved::Runtime { .. } => None,
    }
}

/// A bound known when generating, as a floating-point number.
fn float_bound(plan: &Plan, key: &str, b: Option<&Bound>) -> Option<TokenStream> {
    let value = match b? {
        Bound::Float(_, v) => *v,
        other => match resolve(plan, other, key.starts_with("max"), false)? {
            Resolved::Static(v) => v as f64,
            Resolved::Runtime { .. } => return None,
        },
    };
    let literal = proc_macro2::Literal::f64_unsuffixed(value);
    Some(quote!(#literal))
}

/// Checks of a value of type `ty` (`value` is an expression of type `&T`).
pub fn value_checks(plan: &Plan, value: &TokenStream, ty: &TypeRef, rules: Rules<'_>, pointer: &TokenStream) -> TokenStream {
    let c = rules.constraints;
    let mut out = TokenStream::new();
    let bounded = |key: &str, b: &Option<Bound>, check: TokenStream, measure: &TokenStream| -> TokenStream {
        static_bound(plan, key, b.as_ref()).map(|n| quote!(crate::validation::#check(out, #pointer, #measure, #n);)).unwrap_or_default()
    };
    match ty {
        TypeRef::Array(inner) => {
            let len = quote!(#value.len());
            out.extend(bounded("min_items", &c.min_items, quote!(min_items), &len));
            out.extend(bounded("max_items", &c.max_items, quote!(max_items), &len));
            if c.unique_items {
                out.extend(quote!(crate::validation::unique_items(out, #pointer, #value);));
            }
            let (element, nullable) = rules.elements();
            let checks = bind_nullable(value_checks(plan, &quote!(item), inner, element, &quote!(&item_pointer)), nullable);
            if !checks.is_empty() {
                out.extend(quote! {
                    for (index, item) in #value.iter().enumerate() {
                        let item_pointer = crate::validation::Pointer::index(#pointer, index);
                        #checks
                    }
                });
            }
        }
        TypeRef::Map(key, inner) => {
            let len = quote!(#value.len());
            out.extend(bounded("min_entries", &c.min_entries, quote!(min_entries), &len));
            out.extend(bounded("max_entries", &c.max_entries, quote!(max_entries), &len));
            let (element, nullable) = rules.elements();
            let key_checks = value_checks(plan, &quote!(key), key, Rules::none(), &quote!(&item_pointer));
            let checks = bind_nullable(value_checks(plan, &quote!(item), inner, Rules { subset: &[], ..element }, &quote!(&item_pointer)), nullable);
            if !(checks.is_empty() && key_checks.is_empty()) {
                let text = key_text(plan, key);
                let item = if checks.is_empty() { quote!(_) } else { quote!(item) };
                out.extend(quote! {
                    for (key, #item) in #value.iter() {
                        let key_text = #text;
                        let item_pointer = crate::validation::Pointer::entry(#pointer, &key_text);
                        #key_checks
                        #checks
                    }
                });
            }
        }
        TypeRef::Primitive(p) if p.is_text() => {
            let text = quote!(#value);
            out.extend(bounded("min_length", &c.min_length, quote!(min_length), &text));
            out.extend(bounded("max_length", &c.max_length, quote!(max_length), &text));
            out.extend(pattern_check(plan, c, value, pointer));
            match p {
                Primitive::Email => out.extend(quote!(crate::validation::email(out, #pointer, #value);)),
                Primitive::Url => out.extend(quote!(crate::validation::uri(out, #pointer, #value);)),
                _ => {}
            }
        }
        TypeRef::Primitive(Primitive::Snowflake) => {
            out.extend(pattern_check(plan, c, &quote!(&#value.to_string()), pointer));
        }
        TypeRef::Primitive(p) if p.is_integer() => {
            if *p == Primitive::StringInteger {
                out.extend(pattern_check(plan, c, &quote!(&#value.to_string()), pointer));
            }
            let number = if *p == Primitive::StringInteger { quote!(i128::from(#value.0)) } else { quote!(i128::from(*#value)) };
            out.extend(bounded("min", &c.min, quote!(min), &number));
            out.extend(bounded("max", &c.max, quote!(max), &number));
            out.extend(bounded("min_exclusive", &c.min_exclusive, quote!(min_exclusive), &number));
            out.extend(bounded("max_exclusive", &c.max_exclusive, quote!(max_exclusive), &number));
        }
        TypeRef::Primitive(p) if p.is_float() => {
            let number = if *p == Primitive::Float32 { quote!(f64::from(*#value)) } else { quote!(*#value) };
            let keys = [
                ("min", &c.min, quote!(min_number)),
                ("max", &c.max, quote!(max_number)),
                ("min_exclusive", &c.min_exclusive, quote!(min_exclusive_number)),
                ("max_exclusive", &c.max_exclusive, quote!(max_exclusive_number)),
            ];
            for (key, b, check) in keys {
                if let Some(n) = float_bound(plan, key, b.as_ref()) {
                    out.extend(quote!(crate::validation::#check(out, #pointer, #number, #n);));
                }
            }
        }
        TypeRef::Primitive(Primitive::File) => {
            out.extend(bounded("max_size", &c.max_size, quote!(max_size), &quote!(#value.bytes.len())));
        }
        TypeRef::Enum(id) => out.extend(enum_checks(plan, id, rules.subset, value, pointer)),
        TypeRef::Object(id) if resource_has_checks(plan, id, &mut BTreeSet::new()) => {
            out.extend(quote!(crate::validation::Validate::validate_at(#value, #pointer, out);));
        }
        TypeRef::Union(_) => out.extend(quote!(crate::validation::Validate::validate_at(#value, #pointer, out);)),
        _ => {}
    }
    if let Some(constant) = rules.constant {
        out.extend(constant_check(plan, ty, constant, value, pointer));
    }
    out
}

/// Wraps element checks so they run only on elements that are not `null`.
fn bind_nullable(checks: TokenStream, nullable: bool) -> TokenStream {
    if nullable && !checks.is_empty() { quote!(if let Some(item) = item { #checks }) } else { checks }
}

/// A map key as what its entry's pointer displays (written out only when a violation is).
fn key_text(plan: &Plan, key: &TypeRef) -> TokenStream {
    match key {
        TypeRef::Enum(id) if plan.enum_(id).is_some_and(|e| e.repr != "string") => quote!(key.value()),
        _ => quote!(key),
    }
}

/// A `pattern`, matched by the regex compiled once in `patterns.rs`.
fn pattern_check(plan: &Plan, c: &Constraints, value: &TokenStream, pointer: &TokenStream) -> TokenStream {
    let Some(p) = &c.pattern else { return TokenStream::new() };
    let index = plan.patterns().iter().position(|r| r.regex == p.regex).expect("BUG: every pattern is collected");
    let matches = quote::format_ident!("matches_{index}");
    let regex = &p.regex;
    quote!(crate::patterns::check(out, #pointer, crate::patterns::#matches(#value), #regex);)
}

/// Whether every value of an enum has a wire value: only then is a value outside them unknown
/// for sure (a value the source does not show may be any number).
pub fn strict_enum(plan: &Plan, id: &str) -> bool {
    plan.enum_(id).is_some_and(|e| e.repr == "string" || e.values.iter().all(|v| v.value.is_some()))
}

/// Strict on write: a subset names the values accepted; otherwise the value is a known one.
fn enum_checks(plan: &Plan, id: &str, subset: &[Ref], value: &TokenStream, pointer: &TokenStream) -> TokenStream {
    let Some(e) = plan.enum_(id) else { return TokenStream::new() };
    let name = names::enum_type(e);
    let got = if e.repr == "string" { quote!(#value) } else { quote!(#value.value()) };
    if !subset.is_empty() {
        let variants = subset.iter().map(|v| plan.enum_variant(id, &v.id));
        let ids = subset.iter().map(|v| v.id.as_str());
        return quote! {
            crate::validation::one_of(out, #pointer, matches!(#value, #(crate::enums::#name::#variants)|*), &[#(#ids),*], #got);
        };
    }
    if !strict_enum(plan, id) {
        return TokenStream::new();
    }
    let known = if e.repr == "string" { quote!(#value.is_known()) } else { quote!(#value.id().is_some()) };
    quote!(crate::validation::known(out, #pointer, #known, #id, #got);)
}

/// The check of a field fixed to one value.
fn constant_check(plan: &Plan, ty: &TypeRef, constant: &Literal, value: &TokenStream, pointer: &TokenStream) -> TokenStream {
    let expected = format!("`{}`", constant.value);
    let root = quote!(crate);
    let (equal, got) = match ty {
        TypeRef::Primitive(Primitive::Boolean) => {
            let b = constant.value.as_bool().unwrap_or_default();
            (if b { quote!(*#value) } else { quote!(!*#value) }, quote!(#value))
        }
        TypeRef::Primitive(p) if p.is_text() => {
            let text = constant.value.as_str().unwrap_or_default();
            (quote!(#value.as_str() == #text), quote!(#value))
        }
        TypeRef::Enum(id) => {
            let literal = literal_tokens(plan, ty, &constant.value, &root);
            let got = if plan.enum_(id).is_some_and(|e| e.repr == "string") { quote!(#value) } else { quote!(#value.value()) };
            (quote!(*#value == #literal), got)
        }
        TypeRef::Primitive(Primitive::Json | Primitive::Null) => return TokenStream::new(),
        TypeRef::Primitive(_) => {
            let literal = literal_tokens(plan, ty, &constant.value, &root);
            (quote!(*#value == #literal), quote!(#value))
        }
        _ => return TokenStream::new(),
    };
    quote!(crate::validation::constant(out, #pointer, #equal, #expected, #got);)
}

/// Whether a resource, or a shape it contains, declares something the validator checks.
pub fn resource_has_checks(plan: &Plan, id: &str, seen: &mut BTreeSet<String>) -> bool {
    if !seen.insert(id.to_owned()) {
        return false;
    }
    let Some(r) = plan.resource(id) else { return false };
    r.fields.iter().any(|f| field_has_checks(plan, f, seen))
}

fn field_has_checks(plan: &Plan, f: &Field, seen: &mut BTreeSet<String>) -> bool {
    let items_constrained = {
        let mut items = f.items.as_ref();
        let mut any = false;
        while let Some(i) = items {
            any |= !i.constraints.is_empty();
            items = i.items.as_deref();
        }
        any
    };
    !f.constraints.is_empty()
        || f.literal.is_some()
        || items_constrained
        || !f.subset.is_empty()
        || f.constant.is_some()
        || f.ty.as_ref().is_some_and(|t| type_has_checks(plan, t, seen))
}

/// Whether values of a type are checked whatever the field declares: formats, strict enums,
/// unions, and shapes that contain them.
fn type_has_checks(plan: &Plan, ty: &TypeRef, seen: &mut BTreeSet<String>) -> bool {
    match ty {
        TypeRef::Primitive(p) => matches!(p, Primitive::Email | Primitive::Url),
        TypeRef::Enum(id) => strict_enum(plan, id),
        TypeRef::Union(_) => true,
        TypeRef::Object(id) => resource_has_checks(plan, id, seen),
        TypeRef::Array(inner) => type_has_checks(plan, inner, seen),
        TypeRef::Map(k, v) => type_has_checks(plan, k, seen) || type_has_checks(plan, v, seen),
        TypeRef::Flags(_) | TypeRef::Class(_) => false,
    }
}
