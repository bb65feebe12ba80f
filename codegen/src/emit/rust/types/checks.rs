//! The validators constraints compile to: every declared bound, pattern, format, subset and
//! constant, descending into arrays, maps, objects and unions, each violation at its JSON pointer.
//!
//! Enums and unions are open on read and strict on write: a value the spec does not name
//! decodes (so a client keeps what a newer server sends), and the validator, which the server
//! runs on every request and the client before sending, reports it.

use super::literals::literal_tokens;
use crate::emit::rust::shared::{Resolved, int, resolve};
use crate::model::types::Primitive;
use crate::model::{Bound, Constraints, Field, Items, Literal, Model, Ref, TypeRef};
use crate::plan::rust as names;
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
pub fn validate_impl(model: &Model, name: &Ident, fields: &[Field]) -> TokenStream {
    let checks: Vec<TokenStream> = fields
        .iter()
        .map(|f| {
            let ident = names::field(f);
            field_checks(model, f, quote!(self.#ident))
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
pub fn field_checks(model: &Model, f: &Field, access: TokenStream) -> TokenStream {
    let Some(ty) = &f.ty else { return TokenStream::new() };
    let mut body = value_checks(model, &quote!(value), ty, Rules::of(f), &quote!(&pointer));
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
fn static_bound(model: &Model, key: &str, b: Option<&Bound>) -> Option<TokenStream> {
    match resolve(model, b?, key.starts_with("max"), key == "max_size")? {
        Resolved::Static(v) => Some(int(v)),
        Resolved::Runtime { .. } => None,
    }
}

/// A bound known when generating, as a floating-point number.
fn float_bound(model: &Model, key: &str, b: Option<&Bound>) -> Option<TokenStream> {
    let value = match b? {
        Bound::Float(_, v) => *v,
        other => match resolve(model, other, key.starts_with("max"), false)? {
            Resolved::Static(v) => v as f64,
            Resolved::Runtime { .. } => return None,
        },
    };
    let literal = proc_macro2::Literal::f64_unsuffixed(value);
    Some(quote!(#literal))
}

/// Checks of a value of type `ty` (`value` is an expression of type `&T`).
pub fn value_checks(model: &Model, value: &TokenStream, ty: &TypeRef, rules: Rules<'_>, pointer: &TokenStream) -> TokenStream {
    let c = rules.constraints;
    let mut out = TokenStream::new();
    let bounded = |key: &str, b: &Option<Bound>, check: TokenStream, measure: &TokenStream| -> TokenStream {
        static_bound(model, key, b.as_ref()).map(|n| quote!(crate::validation::#check(out, #pointer, #measure, #n);)).unwrap_or_default()
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
            let checks = bind_nullable(value_checks(model, &quote!(item), inner, element, &quote!(&item_pointer)), nullable);
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
            let key_checks = value_checks(model, &quote!(key), key, Rules::none(), &quote!(&item_pointer));
            let checks = bind_nullable(value_checks(model, &quote!(item), inner, Rules { subset: &[], ..element }, &quote!(&item_pointer)), nullable);
            if !(checks.is_empty() && key_checks.is_empty()) {
                let text = key_text(model, key);
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
            out.extend(pattern_check(model, c, value, pointer));
            match p {
                Primitive::Email => out.extend(quote!(crate::validation::email(out, #pointer, #value);)),
                Primitive::Url => out.extend(quote!(crate::validation::uri(out, #pointer, #value);)),
                _ => {}
            }
        }
        TypeRef::Primitive(Primitive::Snowflake) => {
            out.extend(pattern_check(model, c, &quote!(&#value.to_string()), pointer));
        }
        TypeRef::Primitive(p) if p.is_integer() => {
            if *p == Primitive::StringInteger {
                out.extend(pattern_check(model, c, &quote!(&#value.to_string()), pointer));
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
                if let Some(n) = float_bound(model, key, b.as_ref()) {
                    out.extend(quote!(crate::validation::#check(out, #pointer, #number, #n);));
                }
            }
        }
        TypeRef::Primitive(Primitive::File) => {
            out.extend(bounded("max_size", &c.max_size, quote!(max_size), &quote!(#value.bytes.len())));
        }
        TypeRef::Enum(id) => out.extend(enum_checks(model, id, rules.subset, value, pointer)),
        TypeRef::Object(id) if resource_has_checks(model, id, &mut BTreeSet::new()) => {
            out.extend(quote!(crate::validation::Validate::validate_at(#value, #pointer, out);));
        }
        TypeRef::Union(_) => out.extend(quote!(crate::validation::Validate::validate_at(#value, #pointer, out);)),
        _ => {}
    }
    if let Some(constant) = rules.constant {
        out.extend(constant_check(model, ty, constant, value, pointer));
    }
    out
}

/// Wraps element checks so they run only on elements that are not `null`.
fn bind_nullable(checks: TokenStream, nullable: bool) -> TokenStream {
    if nullable && !checks.is_empty() { quote!(if let Some(item) = item { #checks }) } else { checks }
}

/// A map key as what its entry's pointer displays (written out only when a violation is).
fn key_text(model: &Model, key: &TypeRef) -> TokenStream {
    match key {
        TypeRef::Enum(id) if model.enum_(id).is_some_and(|e| e.repr != "string") => quote!(key.value()),
        _ => quote!(key),
    }
}

/// A `pattern`, matched by the regex compiled once in `patterns.rs`.
fn pattern_check(model: &Model, c: &Constraints, value: &TokenStream, pointer: &TokenStream) -> TokenStream {
    let Some(p) = &c.pattern else { return TokenStream::new() };
    let index = patterns(model).iter().position(|r| *r == p.regex).expect("BUG: every pattern is collected");
    let name = quote::format_ident!("PATTERN_{index}");
    let regex = &p.regex;
    quote!(crate::patterns::check(out, #pointer, #value, &crate::patterns::#name, #regex);)
}

/// Every distinct pattern of the spec, in the order first written: `patterns.rs` compiles each
/// once. Each pattern check names its static by the index here, so the list is gathered once per
/// model (it walks every field and response header).
pub fn patterns(model: &Model) -> &[String] {
    model.memo.patterns.get_or_init(|| gather_patterns(model))
}

fn gather_patterns(model: &Model) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |c: &Constraints| {
        if let Some(p) = &c.pattern
            && !out.contains(&p.regex)
        {
            out.push(p.regex.clone());
        }
    };
    let mut add_field = |f: &Field| {
        add(&f.constraints);
        let mut items = f.items.as_ref();
        while let Some(i) = items {
            add(&i.constraints);
            items = i.items.as_deref();
        }
    };
    every_field(model).for_each(&mut add_field);
    // Header parameters, multipart parts and responses are checked too.
    for e in &model.endpoints {
        e.headers.iter().chain(&e.parts).for_each(&mut add_field);
    }
    model.headers.iter().for_each(&mut add_field);
    for r in model.all_responses() {
        r.fields.iter().for_each(&mut add_field);
        model.header_fields(r).iter().for_each(&mut add_field);
    }
    out
}

/// Every field a validator is generated for, inherited ones included.
fn every_field(model: &Model) -> impl Iterator<Item = &Field> {
    let lists = model
        .resources
        .iter()
        .map(|r| &r.fields)
        .chain(model.unions.iter().map(|u| &u.variants))
        .chain(model.events.iter().map(|e| &e.fields))
        .chain(model.opcodes.iter().map(|o| &o.fields))
        .chain(model.endpoints.iter().flat_map(|e| [&e.path_params, &e.query, &e.body, &e.response_fields]))
        .chain(model.error_body.iter().map(|b| &b.fields));
    lists.flatten().chain(model.endpoints.iter().filter_map(|e| e.body_schema.as_ref()))
}

/// Whether every value of an enum has a wire value: only then is a value outside them unknown
/// for sure (a value the source does not show may be any number).
pub fn strict_enum(model: &Model, id: &str) -> bool {
    model.enum_(id).is_some_and(|e| e.repr == "string" || e.values.iter().all(|v| v.value.is_some()))
}

/// Strict on write: a subset names the values accepted; otherwise the value is a known one.
fn enum_checks(model: &Model, id: &str, subset: &[Ref], value: &TokenStream, pointer: &TokenStream) -> TokenStream {
    let Some(e) = model.enum_(id) else { return TokenStream::new() };
    let name = names::enum_type(e);
    let got = if e.repr == "string" { quote!(#value) } else { quote!(#value.value()) };
    if !subset.is_empty() {
        let variants = subset.iter().map(|v| names::enum_variant_id(model, id, &v.id));
        let ids = subset.iter().map(|v| v.id.as_str());
        return quote! {
            crate::validation::one_of(out, #pointer, matches!(#value, #(crate::enums::#name::#variants)|*), &[#(#ids),*], #got);
        };
    }
    if !strict_enum(model, id) {
        return TokenStream::new();
    }
    let known = if e.repr == "string" { quote!(#value.is_known()) } else { quote!(#value.id().is_some()) };
    quote!(crate::validation::known(out, #pointer, #known, #id, #got);)
}

/// The check of a field fixed to one value.
fn constant_check(model: &Model, ty: &TypeRef, constant: &Literal, value: &TokenStream, pointer: &TokenStream) -> TokenStream {
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
            let literal = literal_tokens(model, ty, &constant.value, &root);
            let got = if model.enum_(id).is_some_and(|e| e.repr == "string") { quote!(#value) } else { quote!(#value.value()) };
            (quote!(*#value == #literal), got)
        }
        TypeRef::Primitive(Primitive::Json | Primitive::Null) => return TokenStream::new(),
        TypeRef::Primitive(_) => {
            let literal = literal_tokens(model, ty, &constant.value, &root);
            (quote!(*#value == #literal), quote!(#value))
        }
        _ => return TokenStream::new(),
    };
    quote!(crate::validation::constant(out, #pointer, #equal, #expected, #got);)
}

/// Whether a resource, or a shape it contains, declares something the validator checks.
pub fn resource_has_checks(model: &Model, id: &str, seen: &mut BTreeSet<String>) -> bool {
    if !seen.insert(id.to_owned()) {
        return false;
    }
    let Some(r) = model.resource(id) else { return false };
    r.fields.iter().any(|f| field_has_checks(model, f, seen))
}

fn field_has_checks(model: &Model, f: &Field, seen: &mut BTreeSet<String>) -> bool {
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
        || f.ty.as_ref().is_some_and(|t| type_has_checks(model, t, seen))
}

/// Whether values of a type are checked whatever the field declares: formats, strict enums,
/// unions, and shapes that contain them.
fn type_has_checks(model: &Model, ty: &TypeRef, seen: &mut BTreeSet<String>) -> bool {
    match ty {
        TypeRef::Primitive(p) => matches!(p, Primitive::Email | Primitive::Url),
        TypeRef::Enum(id) => strict_enum(model, id),
        TypeRef::Union(_) => true,
        TypeRef::Object(id) => resource_has_checks(model, id, seen),
        TypeRef::Array(inner) => type_has_checks(model, inner, seen),
        TypeRef::Map(k, v) => type_has_checks(model, k, seen) || type_has_checks(model, v, seen),
        TypeRef::Flags(_) | TypeRef::Class(_) => false,
    }
}
