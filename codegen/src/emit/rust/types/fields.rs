//! Structs from field lists (resources, endpoint parts, event payloads) and the validators their
//! constraints compile to.

use crate::emit::rust::names;
use crate::emit::rust::shared::{Resolved, field_type, int, resolve};
use crate::model::types::Primitive;
use crate::model::{Case, CaseField, Constraints, Field, Meta, Model, Ref, TypeRef};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeSet;

/// The path of the types crate from inside it.
pub fn root() -> TokenStream {
    quote!(crate)
}

/// `#[doc]` lines: a description, notes as a list, then lifecycle and assumptions.
pub fn docs(description: Option<&str>, extra: &[String]) -> TokenStream {
    let mut lines: Vec<String> = Vec::new();
    if let Some(d) = description {
        lines.extend(d.lines().map(|l| format!(" {l}")));
    }
    if !extra.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.extend(extra.iter().map(|n| format!(" - {n}")));
    }
    lines.iter().map(|l| quote!(#[doc = #l])).collect()
}

/// The notes of an item followed by its lifecycle and assumptions, one sentence each.
pub fn meta_notes(model: &Model, meta: &Meta) -> Vec<String> {
    let mut out: Vec<String> = meta.notes.clone();
    out.extend(lifecycle(model, meta.since.as_ref(), meta.until.as_ref(), meta.deprecated.as_ref()));
    out.extend(gaps_and_assumptions(meta));
    out
}

/// Docs of an item from its meta.
pub fn meta_docs(model: &Model, meta: &Meta) -> TokenStream {
    docs(Some(&summary(meta)), &meta_notes(model, meta))
}

/// The first doc line of an item: its description, else its display name, else its id. Every
/// generated item has one, since the crates deny missing docs.
pub fn summary(meta: &Meta) -> String {
    match &meta.description {
        Some(d) => d.clone(),
        None if meta.name.is_empty() || meta.name == meta.id => format!("`{}`.", meta.id),
        None => format!("{}.", meta.name),
    }
}

/// "Since `change` (2026-02-23)."-style sentences.
pub fn lifecycle(model: &Model, since: Option<&Ref>, until: Option<&Ref>, deprecated: Option<&Ref>) -> Vec<String> {
    let when = |r: &Ref| {
        let effective = model.change(&r.id).map(|c| match c.effective {
            crate::model::Effective::Date(d) => d.to_string(),
            crate::model::Effective::AlreadyInEffect => "already in effect".to_owned(),
            crate::model::Effective::Unscheduled => "unscheduled".to_owned(),
        });
        format!("`{}` ({})", r.id, effective.unwrap_or_default())
    };
    let mut out = Vec::new();
    if let Some(r) = since {
        out.push(format!("Since change {}.", when(r)));
    }
    if let Some(r) = deprecated {
        out.push(format!("Deprecated by change {}.", when(r)));
    }
    if let Some(r) = until {
        out.push(format!("Until change {}.", when(r)));
    }
    out
}

fn gaps_and_assumptions(meta: &Meta) -> Vec<String> {
    let mut out = Vec::new();
    for g in &meta.not_shown {
        out.push(match &g.detail {
            Some(d) => format!("Not shown by the source: {d}."),
            None => format!("Not shown by the source: `{}`.", g.facet),
        });
    }
    for (facet, reason) in &meta.assumed {
        out.push(format!("Assumed `{facet}`: {reason}"));
    }
    out
}

/// Docs of a field.
pub fn field_docs(model: &Model, f: &Field) -> TokenStream {
    let mut notes = f.notes.clone();
    if let Some(scope) = &f.requires_scope {
        notes.push(format!("Needs the scope `{}`.", scope.id));
    }
    if let Some(literal) = &f.literal {
        notes.push(format!("Takes the literal value `{literal}` in the case described."));
    }
    if let Some(default) = &f.default {
        notes.push(format!("Defaults to {default}."));
    }
    for (key, bound) in f.constraints.all() {
        notes.push(format!("Constraint `{key}`: {}.", describe_bound(bound)));
    }
    if let Some(cond) = &f.required_when {
        let (c, arg) = cond.named();
        notes.push(format!("Required when `{}{}`.", c.id, arg.map(|a| format!("({a})")).unwrap_or_default()));
    }
    notes.extend(lifecycle(model, f.since.as_ref(), f.until.as_ref(), f.deprecated.as_ref()));
    for g in &f.not_shown {
        notes.push(format!("Not shown by the source: {}.", g.detail.clone().unwrap_or_else(|| format!("`{}`", g.facet))));
    }
    for (facet, reason) in &f.assumed {
        notes.push(format!("Assumed `{facet}`: {reason}"));
    }
    let description = f.description.clone().unwrap_or_else(|| match &f.ty {
        Some(t) => format!("`{t}`."),
        None => format!("`{}`.", f.name),
    });
    docs(Some(&description), &notes)
}

fn describe_bound(b: &crate::model::Bound) -> String {
    match b {
        crate::model::Bound::Value(_, v) => v.to_string(),
        crate::model::Bound::Limit { limit, offset } => with_offset(format!("the limit `{}`", limit.id), *offset),
        crate::model::Bound::Field { endpoint, field, offset } => with_offset(format!("`{}.{field}`", endpoint.id), *offset),
    }
}

fn with_offset(text: String, offset: i64) -> String {
    match offset {
        0 => text,
        o if o > 0 => format!("{text} + {o}"),
        o => format!("{text} - {}", -o),
    }
}

/// The name of the map that keeps fields the spec does not list.
pub fn extra_ident(fields: &[Field]) -> proc_macro2::Ident {
    let taken = |name: &str| fields.iter().any(|f| names::field(f) == name);
    if !taken("extra") {
        format_ident!("extra")
    } else if !taken("extra_fields") {
        format_ident!("extra_fields")
    } else {
        format_ident!("extra_")
    }
}

/// Whether an item's gaps say its field list is partial, so unknown fields must be kept.
pub fn keeps_extra(meta_gaps: &[crate::model::Gap]) -> bool {
    meta_gaps.iter().any(|g| matches!(g.facet.as_str(), "fields" | "payload" | "details" | "members"))
}

/// A serde struct with one field per spec field, its validator and its literal constants.
pub fn struct_tokens(model: &Model, name: &proc_macro2::Ident, docs: TokenStream, fields: &[Field], extra: bool) -> TokenStream {
    let root = root();
    let members = fields.iter().map(|f| field_member(model, f, &root));
    let extra_member = extra.then(|| {
        let ident = extra_ident(fields);
        quote! {
            /// Fields the spec does not list, kept as received so nothing is lost in a round trip.
            #[serde(flatten)]
            pub #ident: serde_json::Map<String, serde_json::Value>,
        }
    });
    let default = fields.iter().all(|f| has_default(model, f, &mut BTreeSet::new())).then(|| quote!(Default,));
    let literals: Vec<TokenStream> = fields
        .iter()
        .filter_map(|f| {
            let literal = f.literal.as_ref()?;
            let ident = names::literal_const(f);
            let doc = format!(" The literal value of `{}` in the case its docs describe.", f.wire());
            Some(quote! {
                #[doc = #doc]
                pub const #ident: &'static str = #literal;
            })
        })
        .collect();
    let literal_impl = (!literals.is_empty()).then(|| quote!(impl #name { #(#literals)* }));
    let validate = validate_impl(model, name, fields);
    quote! {
        #docs
        #[derive(Clone, Debug, #default PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct #name {
            #(#members)*
            #extra_member
        }

        #literal_impl

        #validate
    }
}

fn field_member(model: &Model, f: &Field, root: &TokenStream) -> TokenStream {
    let ident = names::field(f);
    let ty = field_type(model, f, root);
    let docs = field_docs(model, f);
    let wire = f.wire();
    let rename = (ident.to_string().trim_start_matches("r#") != wire).then(|| quote!(rename = #wire,));
    let optional = f.optional || f.required_when.is_some();
    let attrs = match (optional, f.nullable) {
        (true, true) => quote!(#[serde(#rename default, skip_serializing_if = "Option::is_none", with = "crate::wire::double_option")]),
        (true, false) => quote!(#[serde(#rename default, skip_serializing_if = "Option::is_none", deserialize_with = "crate::wire::present")]),
        (false, _) if rename.is_some() => quote!(#[serde(#rename)]),
        (false, _) => quote!(),
    };
    quote! {
        #docs
        #attrs
        pub #ident: #ty,
    }
}

/// Whether a field's type has a `Default` (open enums do not: no value is a sensible default;
/// nor does a resource that requires itself, whose default would never end).
fn has_default(model: &Model, f: &Field, path: &mut BTreeSet<String>) -> bool {
    if f.optional || f.nullable || f.required_when.is_some() {
        return true;
    }
    f.ty.as_ref().is_none_or(|t| type_has_default(model, t, path))
}

/// `path` holds the resources being asked about, outermost first.
fn type_has_default(model: &Model, ty: &TypeRef, path: &mut BTreeSet<String>) -> bool {
    match ty {
        TypeRef::Primitive(_) | TypeRef::Array(_) | TypeRef::Flags(_) | TypeRef::Class(_) => true,
        TypeRef::Enum(_) => false,
        TypeRef::Object(id) => {
            if !path.insert(id.clone()) {
                return false;
            }
            let has = model.resource(id).is_none_or(|r| r.fields.iter().all(|f| has_default(model, f, path)));
            path.remove(id);
            has
        }
    }
}

/// `impl Validate` for a struct of `fields`.
pub fn validate_impl(model: &Model, name: &proc_macro2::Ident, fields: &[Field]) -> TokenStream {
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
                fn validate_at(&self, _pointer: &str, _out: &mut Vec<crate::validation::Violation>) {}
            }
        };
    }
    quote! {
        impl crate::validation::Validate for #name {
            fn validate_at(&self, pointer: &str, out: &mut Vec<crate::validation::Violation>) {
                #(#checks)*
            }
        }
    }
}

/// The static checks of one field, reading it through `access` (`self.status`).
pub fn field_checks(model: &Model, f: &Field, access: TokenStream) -> TokenStream {
    let Some(ty) = &f.ty else { return TokenStream::new() };
    let mut body = value_checks(model, &quote!(value), ty, &f.constraints, &quote!(&pointer));
    if let Some(literal) = &f.literal {
        body.extend(quote!(crate::validation::literal(out, &pointer, value, #literal);));
    }
    bind_field(f, access, body)
}

/// Runs `body` on a field's value (bound as `value`, with `pointer` its JSON pointer under the
/// enclosing `pointer`) when the field is present.
fn bind_field(f: &Field, access: TokenStream, body: TokenStream) -> TokenStream {
    if body.is_empty() {
        return body;
    }
    let wire = f.wire();
    let optional = f.optional || f.required_when.is_some();
    let bind = match (optional, f.nullable) {
        (true, true) => quote!(if let Some(Some(value)) = &#access { #body }),
        (true, false) | (false, true) => quote!(if let Some(value) = &#access { #body }),
        (false, false) => quote!(let value = &#access; #body),
    };
    quote! {
        {
            let pointer = crate::validation::child(pointer, #wire);
            #bind
        }
    }
}

/// Per case of an object: the rule that says when it applies (`OBFUSCATED`), the literal values
/// it gives (`OBFUSCATED_NAME`) and `check_obfuscated`, which checks a value against the case.
/// Only the implementation knows whether a case's conditions hold, so it calls the check.
pub fn cases_tokens(model: &Model, name: &proc_macro2::Ident, fields: &[Field], cases: &[Case]) -> TokenStream {
    if cases.is_empty() {
        return TokenStream::new();
    }
    let items = cases.iter().map(|c| {
        let when = names::case_const(c);
        let rule = super::rules::rule_tokens(model, &c.when);
        let when_doc = format!(" When case `{}` applies: the rule holds for the facts of the value's situation.", c.meta.id);
        let literals = c.fields.iter().filter_map(|fact| {
            let literal = fact.literal.as_ref()?;
            let field = fields.iter().find(|f| f.name == fact.field.id)?;
            let ident = names::case_literal(c, field);
            let doc = format!(" The value of `{}` in case `{}`.", fact.field.id, c.meta.id);
            Some(quote!(#[doc = #doc] pub const #ident: &'static str = #literal;))
        });
        let check = names::case_check(c);
        let check_doc = format!(" Checks what case `{}` says of this value; call it when the case applies (see [`Self::{when}`]).", c.meta.id);
        let checks = c.fields.iter().filter_map(|fact| {
            let field = fields.iter().find(|f| f.name == fact.field.id)?;
            let ident = names::field(field);
            Some(bind_field(field, quote!(self.#ident), case_fact_checks(model, field, fact, &c.meta.id)))
        });
        let mut docs = vec![format!(" {}", c.meta.description.clone().unwrap_or_else(|| c.meta.name.clone()))];
        docs.extend(c.meta.notes.iter().map(|n| format!(" - {n}")));
        quote! {
            #(#[doc = #docs])*
            ///
            #[doc = #when_doc]
            pub const #when: crate::rules::Rule = {
                #[allow(unused_imports)]
                use crate::{auth::{Intent, Scope}, permissions::Permission, rules::{Cond, Condition, Rule}};
                #rule
            };

            #(#literals)*

            #[doc = #check_doc]
            pub fn #check(&self) -> Vec<crate::validation::Violation> {
                let mut violations = Vec::new();
                let (pointer, out) = ("", &mut violations);
                #(#checks)*
                violations
            }
        }
    });
    quote! {
        impl #name {
            #(#items)*
        }
    }
}

/// The checks of one case fact on `value` (the field's value, present).
fn case_fact_checks(model: &Model, field: &Field, fact: &CaseField, case: &str) -> TokenStream {
    let mut out = TokenStream::new();
    if let Some(literal) = &fact.literal {
        out.extend(quote!(crate::validation::literal(out, &pointer, value, #literal);));
    }
    if let Some(TypeRef::Flags(set)) = &field.ty {
        let set_ident = names::flags_id(model, set);
        for flag in &fact.contains {
            let bit = names::flag_const_id(model, set, &flag.id);
            let message = format!("must contain {} in case `{case}`", flag.id);
            out.extend(quote! {
                crate::validation::fact(out, &pointer, value.contains(crate::flags::#set_ident::#bit), #message);
            });
        }
    }
    for omitted in &fact.omits {
        out.extend(omits_check(model, field, &omitted.id, case));
    }
    if let Some(ty) = &field.ty {
        out.extend(value_checks(model, &quote!(value), ty, &fact.constraints, &quote!(&pointer)));
    }
    out
}

/// No element of an array carries an enum value: the elements are of the enum, or objects
/// with a field of it.
fn omits_check(model: &Model, field: &Field, value: &str, case: &str) -> TokenStream {
    let (enum_id, name) = value.split_once('.').unwrap_or((value, ""));
    let Some(ty) = &field.ty else { return TokenStream::new() };
    let enum_ident = names::enum_id(model, enum_id);
    let variant = names::enum_variant_id(model, enum_id, name);
    let message = format!("must leave out {value} in case `{case}`");
    let (item, at) = match ty.element() {
        TypeRef::Enum(_) => (quote!(item), None),
        TypeRef::Object(id) => {
            let Some(f) = model.resource(id).and_then(|r| r.fields.iter().find(|f| matches!(f.ty.as_ref().map(TypeRef::element), Some(TypeRef::Enum(e)) if e == enum_id))) else {
                return TokenStream::new();
            };
            let ident = names::field(f);
            (quote!(item.#ident), Some(f.wire().to_owned()))
        }
        _ => return TokenStream::new(),
    };
    let pointer = match at {
        Some(wire) => quote!(crate::validation::child(&crate::validation::child(&pointer, &index.to_string()), #wire)),
        None => quote!(crate::validation::child(&pointer, &index.to_string())),
    };
    quote! {
        for (index, item) in value.iter().enumerate() {
            if #item == crate::enums::#enum_ident::#variant {
                out.push(crate::validation::Violation::new(#pointer, #message));
            }
        }
    }
}

/// Checks of a value of type `ty` (`value` is an expression of type `&T`).
pub fn value_checks(model: &Model, value: &TokenStream, ty: &TypeRef, c: &Constraints, pointer: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    let bound = |key: &str, b: &Option<crate::model::Bound>| -> Option<TokenStream> {
        let upper = key.starts_with("max");
        match resolve(model, b.as_ref()?, upper, key == "max_size")? {
            Resolved::Static(v) => Some(int(v)),
            Resolved::Runtime { .. } => None,
        }
    };
    match ty {
        TypeRef::Array(inner) => {
            if let Some(n) = bound("min_items", &c.min_items) {
                out.extend(quote!(crate::validation::min_items(out, #pointer, #value.len(), #n);));
            }
            if let Some(n) = bound("max_items", &c.max_items) {
                out.extend(quote!(crate::validation::max_items(out, #pointer, #value.len(), #n);));
            }
            let element = Constraints { min_items: None, max_items: None, ..c.clone() };
            let checks = value_checks(model, &quote!(item), inner, &element, &quote!(&item_pointer));
            if !checks.is_empty() {
                out.extend(quote! {
                    for (index, item) in #value.iter().enumerate() {
                        let item_pointer = crate::validation::child(#pointer, &index.to_string());
                        #checks
                    }
                });
            }
        }
        TypeRef::Primitive(p) if p.is_text() => {
            if let Some(n) = bound("min_length", &c.min_length) {
                out.extend(quote!(crate::validation::min_length(out, #pointer, #value, #n);));
            }
            if let Some(n) = bound("max_length", &c.max_length) {
                out.extend(quote!(crate::validation::max_length(out, #pointer, #value, #n);));
            }
        }
        TypeRef::Primitive(p) if p.is_numeric() => {
            let number = if *p == Primitive::StringInteger { quote!(i128::from(#value.0)) } else { quote!(i128::from(*#value)) };
            for (key, b, check) in [("min", &c.min, quote!(min)), ("max", &c.max, quote!(max)), ("max_exclusive", &c.max_exclusive, quote!(max_exclusive))] {
                if let Some(n) = bound(key, b) {
                    out.extend(quote!(crate::validation::#check(out, #pointer, #number, #n);));
                }
            }
        }
        TypeRef::Primitive(Primitive::File) => {
            if let Some(n) = bound("max_size", &c.max_size) {
                out.extend(quote!(crate::validation::max_size(out, #pointer, #value.bytes.len(), #n);));
            }
        }
        TypeRef::Object(id) if resource_has_checks(model, id, &mut BTreeSet::new()) => {
            out.extend(quote!(crate::validation::Validate::validate_at(#value, #pointer, out);));
        }
        _ => {}
    }
    out
}

/// Whether a resource, or one it contains, declares a constraint the validator checks.
pub fn resource_has_checks(model: &Model, id: &str, seen: &mut BTreeSet<String>) -> bool {
    if !seen.insert(id.to_owned()) {
        return false;
    }
    let Some(r) = model.resource(id) else { return false };
    r.fields.iter().any(|f| {
        !f.constraints.is_empty() || f.ty.as_ref().is_some_and(|t| matches!(t.element(), TypeRef::Object(inner) if resource_has_checks(model, inner, seen)))
    })
}

/// The serde adapters some generated struct needs: (optional and nullable, optional only).
pub fn adapters(model: &Model) -> (bool, bool) {
    let optional: Vec<&Field> = all_struct_fields(model).filter(|f| f.optional || f.required_when.is_some()).collect();
    (optional.iter().any(|f| f.nullable), optional.iter().any(|f| !f.nullable))
}

/// Every field some generated struct declares.
fn all_struct_fields(model: &Model) -> impl Iterator<Item = &Field> {
    let lists = model
        .resources
        .iter()
        .map(|r| &r.fields)
        .chain(model.events.iter().map(|e| &e.fields))
        .chain(model.opcodes.iter().map(|o| &o.fields))
        .chain(model.endpoints.iter().flat_map(|e| [&e.path_params, &e.query, &e.body, &e.response_fields]))
        .chain(model.error_body.iter().map(|b| &b.fields));
    lists.flatten().chain(model.endpoints.iter().filter_map(|e| e.body_schema.as_ref()))
}
