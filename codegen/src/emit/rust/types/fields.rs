//! Structs from field lists (resources, endpoint parts, event payloads): members, serde
//! attributes, defaults and docs; the validators their constraints compile to are
//! [`super::checks`].

use super::checks::{Rules, bind_field, value_checks};
pub use super::checks::{field_checks, validate_impl};
use super::docs::{docs, lifecycle};
use super::literals::default_tokens;
use super::members::{Reading, deserialize_impl};
use crate::emit::rust::shared::{Shape, deprecated_attribute, field_type_boxed, needs_box, value_tokens};
use crate::model::types::Primitive;
use crate::model::{Case, CaseField, Constraints, Field, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeSet;

/// The path of the types crate from inside it.
pub fn root() -> TokenStream {
    quote!(crate)
}

/// Docs of a field.
pub fn field_docs(plan: &Plan, f: &Field) -> TokenStream {
    let mut notes = f.notes.clone();
    if let Some(scope) = &f.requires_scope {
        notes.push(format!("Needs the scope `{}`.", scope.id));
    }
    if let Some(literal) = &f.literal {
        notes.push(format!("Takes the literal value `{literal}` in the case described."));
    }
    if let Some(default) = &f.default {
        notes.push(format!("Defaults to `{}`.", default.value));
    }
    if let Some(default) = &f.default_text {
        notes.push(format!("Defaults to {default}."));
    }
    if let Some(constant) = &f.constant {
        notes.push(format!("Always `{}`.", constant.value));
    }
    if !f.subset.is_empty() {
        let values: Vec<String> = f.subset.iter().map(|v| format!("`{}`", v.id)).collect();
        notes.push(format!("Accepts only {} of its enum.", values.join(", ")));
    }
    notes.extend(constraint_notes(&f.constraints, ""));
    let mut items = f.items.as_ref();
    let mut depth = String::new();
    let mut ty = f.ty.as_ref();
    while let Some(i) = items {
        depth.push_str(if matches!(ty, Some(TypeRef::Map(..))) { "each value's " } else { "each item's " });
        ty = match ty {
            Some(TypeRef::Array(inner) | TypeRef::Map(_, inner)) => Some(inner),
            _ => None,
        };
        let lead = format!("{}{}", depth[..1].to_uppercase(), &depth[1..]);
        if i.nullable {
            notes.push(format!("{}value may be `null`.", lead));
        }
        notes.extend(constraint_notes(&i.constraints, &lead));
        items = i.items.as_deref();
    }
    if let Some(cond) = &f.required_when {
        let (c, arg) = cond.named();
        notes.push(format!("Required when `{}{}`.", c.id, arg.map(|a| format!("({a})")).unwrap_or_default()));
    }
    notes.extend(lifecycle(plan, f.since.as_ref(), f.until.as_ref(), f.deprecated.as_ref()));
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

/// One sentence per constraint: `Constraint `max_length`: 25.`, led by `lead` for items.
fn constraint_notes(c: &Constraints, lead: &str) -> Vec<String> {
    let key = |k: &str| if lead.is_empty() { format!("Constraint `{k}`") } else { format!("{lead}constraint `{k}`") };
    let mut out: Vec<String> = c.all().into_iter().map(|(k, bound)| format!("{}: {}.", key(k), describe_bound(bound))).collect();
    if c.unique_items {
        out.push(format!("{}: no two items are equal.", key("unique_items")));
    }
    if let Some(p) = &c.pattern {
        out.push(format!("{}: `{}`.", key("pattern"), p.regex));
    }
    out
}

fn describe_bound(b: &crate::model::Bound) -> String {
    match b {
        crate::model::Bound::Value(_, v) => v.to_string(),
        crate::model::Bound::Float(_, v) => v.to_string(),
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
pub fn struct_tokens(plan: &Plan, name: &proc_macro2::Ident, docs: TokenStream, fields: &[Field], extra: bool) -> TokenStream {
    struct_tokens_of(plan, name, docs, fields, Struct { extra, ..Struct::default() })
}

/// [`struct_tokens`] for a part of a request (its path, query, headers or body fields): only a
/// server reads one, so its `Deserialize` is compiled with the types crate's `server` feature and a
/// client-only build skips it.
pub fn request_part_tokens(plan: &Plan, name: &proc_macro2::Ident, docs: TokenStream, fields: &[Field]) -> TokenStream {
    struct_with(plan, name, docs, fields, Struct { decode: Decode::ServerOnly, ..Struct::default() })
}

/// [`struct_tokens`] for the struct of a resource or an event: `how` says whether it keeps
/// unknown members or refuses them, the shape whose fields that contain it again are boxed, and
/// the cases whose checks are methods beside its setters.
pub fn struct_tokens_of(plan: &Plan, name: &proc_macro2::Ident, docs: TokenStream, fields: &[Field], how: Struct<'_>) -> TokenStream {
    struct_with(plan, name, docs, fields, Struct { decode: Decode::Always, ..how })
}

/// Who reads a struct from the wire, and so when its `Deserialize` is compiled.
#[derive(Clone, Copy, Default)]
pub enum Decode {
    /// Both sides: a resource, a response, an event.
    #[default]
    Always,
    /// Only a server: a part of a request.
    ServerOnly,
}

/// How [`struct_with`] writes a struct besides its fields.
#[derive(Default)]
pub struct Struct<'a> {
    /// It keeps the members the spec does not list.
    pub extra: bool,
    /// The shape it is the struct of, whose fields that contain it again are boxed.
    pub owner: Option<Shape<'a>>,
    /// It refuses members it does not list.
    pub closed: bool,
    /// The cases of the object, whose checks are methods of the struct too.
    pub cases: &'a [Case],
    pub decode: Decode,
}

fn struct_with(plan: &Plan, name: &proc_macro2::Ident, docs: TokenStream, fields: &[Field], how: Struct<'_>) -> TokenStream {
    let Struct { extra, owner, closed, cases, decode } = how;
    let root = root();
    let boxed = |f: &Field| owner.is_some_and(|o| f.ty.as_ref().is_some_and(|t| needs_box(plan, o, t)));
    let members = fields.iter().map(|f| field_member(plan, f, &root, boxed(f)));
    let extra_ident = extra.then(|| extra_ident(fields));
    let extra_member = extra_ident.as_ref().map(|ident| {
        quote! {
            /// Fields the spec does not list, kept as received so nothing is lost in a round trip.
            #[serde(flatten)]
            pub #ident: serde_json::Map<String, serde_json::Value>,
        }
    });
    let all_default = fields.iter().all(|f| has_default(plan, f, &mut BTreeSet::new()));
    let any_typed_default = fields.iter().any(Field::defaulted);
    let derive_default = (all_default && !any_typed_default).then(|| quote!(Default,));
    let mut consts: Vec<TokenStream> = fields
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
    consts.extend(fields.iter().filter(|f| f.defaulted()).map(|f| default_fn(plan, f, &root, boxed(f))));
    let literal_impl = (!consts.is_empty()).then(|| quote!(impl #name { #(#consts)* }));
    let default_impl = (all_default && any_typed_default).then(|| {
        let inits = fields.iter().map(|f| {
            let ident = names::field(f);
            if f.defaulted() {
                let function = names::default_fn(f);
                quote!(#ident: Self::#function())
            } else {
                quote!(#ident: Default::default())
            }
        });
        let extra_init = extra_ident.as_ref().map(|e| quote!(#e: serde_json::Map::new(),));
        quote! {
            impl Default for #name {
                fn default() -> Self {
                    Self { #(#inits,)* #extra_init }
                }
            }
        }
    });
    let validate = validate_impl(plan, name, fields);
    let member = |f: &Field| field_type_boxed(plan, f, &root, boxed(f));
    let value = |f: &Field| f.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(plan, t, f.items.as_ref(), &root));
    let initial = |f: &Field| {
        if f.defaulted() {
            let function = names::default_fn(f);
            quote!(Self::#function())
        } else {
            quote!(Default::default())
        }
    };
    let typing = Typing { member: &member, value: &value, boxed: &boxed, initial: &initial };
    let building = building_tokens(name, fields, extra_ident.as_ref(), cases, &typing);
    let reading = Reading { name, fields, member: &member, extra: extra_ident.as_ref(), closed: closed && !extra };
    let deserialize = deserialize_impl(&reading, matches!(decode, Decode::ServerOnly));
    quote! {
        #docs
        #[derive(Clone, Debug, #derive_default PartialEq, serde::Serialize)]
        #[non_exhaustive]
        pub struct #name {
            #(#members)*
            #extra_member
        }

        #literal_impl

        #default_impl

        #building

        #deserialize

        #validate
    }
}

/// The Rust types of a struct's fields, as [`building_tokens`] needs them.
pub struct Typing<'a> {
    /// The member's type (`Option<Box<Note>>`).
    pub member: &'a dyn Fn(&Field) -> TokenStream,
    /// The value a setter or `new` takes (`Note`).
    pub value: &'a dyn Fn(&Field) -> TokenStream,
    /// Whether the member boxes the value.
    pub boxed: &'a dyn Fn(&Field) -> bool,
    /// The value a field that need not be given starts with (its default, or empty).
    pub initial: &'a dyn Fn(&Field) -> TokenStream,
}

/// How a caller builds a value of a `#[non_exhaustive]` struct: `new` taking the fields that
/// must be given (none: the struct is then its `Default`), and a setter per field, so
/// `Embed::new().title("x")` keeps compiling when a field is added; then `from_fields`, hidden,
/// for the generated code of the other crates.
pub fn building_tokens(name: &proc_macro2::Ident, fields: &[Field], extra: Option<&proc_macro2::Ident>, cases: &[Case], typing: &Typing<'_>) -> TokenStream {
    let required: Vec<&Field> = fields.iter().filter(|f| f.must_be_given()).collect();
    let constructor = (!required.is_empty()).then(|| {
        let params = required.iter().map(|f| {
            let (ident, ty) = (names::field(f), (typing.value)(f));
            quote!(#ident: impl Into<#ty>)
        });
        let inits = fields.iter().map(|f| {
            let ident = names::field(f);
            if !required.iter().any(|r| r.name == f.name) {
                let initial = (typing.initial)(f);
                quote!(#ident: #initial)
            } else if (typing.boxed)(f) {
                quote!(#ident: Box::new(#ident.into()))
            } else {
                quote!(#ident: #ident.into())
            }
        });
        let extra_init = extra.map(|e| quote!(#e: serde_json::Map::new(),));
        let doc = format!(" A `{name}` with these fields; the others start empty or at their defaults.");
        let allow = (required.len() > 7).then(|| quote!(#[allow(clippy::too_many_arguments, reason = "one argument per required field")]));
        quote! {
            #[doc = #doc]
            #allow
            pub fn new(#(#params),*) -> Self {
                Self { #(#inits,)* #extra_init }
            }
        }
    });
    let taken = setter_taken(fields, cases);
    let setters: Vec<TokenStream> = fields.iter().filter_map(|f| setter_tokens(f, &taken, typing)).collect();
    let from_fields = from_fields_tokens(name, fields, extra, typing);
    if constructor.is_none() && setters.is_empty() {
        return from_fields;
    }
    quote! {
        #[allow(
            clippy::should_implement_trait,
            clippy::wrong_self_convention,
            clippy::unit_arg,
            reason = "setters are named after the spec's fields, and a field of type null is set to `()` like any other"
        )]
        impl #name {
            #constructor
            #(#setters)*
        }

        #from_fields
    }
}

/// `from_fields`: every field, in order, for the generated code of the other crates (the
/// server reads a request's parts member by member; the mock builds its examples). Hidden, so
/// it is no promise to callers: a field added changes it.
fn from_fields_tokens(name: &proc_macro2::Ident, fields: &[Field], extra: Option<&proc_macro2::Ident>, typing: &Typing<'_>) -> TokenStream {
    let params = fields.iter().map(|f| {
        let (ident, ty) = (names::field(f), (typing.member)(f));
        quote!(#ident: #ty)
    });
    let idents = fields.iter().map(names::field);
    let extra_init = extra.map(|e| quote!(#e: serde_json::Map::new(),));
    quote! {
        impl #name {
            #[doc(hidden)]
            #[allow(clippy::too_many_arguments, reason = "one argument per field")]
            pub fn from_fields(#(#params),*) -> Self {
                Self { #(#idents,)* #extra_init }
            }
        }
    }
}

/// The methods of a struct of `fields` a setter must not be named as: its default functions and
/// its cases' checks.
fn setter_taken(fields: &[Field], cases: &[Case]) -> Vec<proc_macro2::Ident> {
    let mut taken: Vec<proc_macro2::Ident> = fields.iter().filter(|f| f.defaulted()).map(names::default_fn).collect();
    taken.extend(cases.iter().map(names::case_check));
    taken
}

/// The type a field's setter takes `impl Into` of: the member itself where absent, null and the
/// default are values of it (`Presence`, a defaulted field), else the value an optional member
/// is given.
fn setter_param(f: &Field, typing: &Typing<'_>) -> TokenStream {
    if f.three_state() || f.defaulted() { (typing.member)(f) } else { (typing.value)(f) }
}

/// The setters of the struct of a record's `fields`, as seen from the crate at `root`: each
/// field that has one, its name and the type it takes `impl Into` of. What a request builder of
/// the client forwards to the body's setters. `owner` is the resource the fields are of (its
/// fields that contain it again are boxed).
pub fn setter_signatures<'f>(
    plan: &Plan,
    fields: &'f [Field],
    cases: &[Case],
    owner: Option<Shape<'_>>,
    root: &TokenStream,
) -> Vec<(&'f Field, proc_macro2::Ident, TokenStream)> {
    let boxed = |f: &Field| owner.is_some_and(|o| f.ty.as_ref().is_some_and(|t| needs_box(plan, o, t)));
    let member = |f: &Field| field_type_boxed(plan, f, root, boxed(f));
    let value = |f: &Field| f.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(plan, t, f.items.as_ref(), root));
    let typing = Typing { member: &member, value: &value, boxed: &boxed, initial: &|_| TokenStream::new() };
    let taken = setter_taken(fields, cases);
    fields.iter().filter_map(|f| Some((f, names::setter(f, &taken)?, setter_param(f, &typing)))).collect()
}

/// The setter of one field: it takes the value (an optional field is given it), converted.
fn setter_tokens(f: &Field, taken: &[proc_macro2::Ident], typing: &Typing<'_>) -> Option<TokenStream> {
    let ident = names::setter(f, taken)?;
    let member = names::field(f);
    let boxed = (typing.boxed)(f);
    let wrap = |value: TokenStream| if boxed { quote!(Box::new(#value)) } else { value };
    let param = setter_param(f, typing);
    let value = if f.three_state() || f.defaulted() {
        quote!(value.into())
    } else if f.may_be_absent() || f.nullable {
        let value = wrap(quote!(value.into()));
        quote!(Some(#value))
    } else {
        wrap(quote!(value.into()))
    };
    let doc = format!(" This value with `{}` set.", f.wire());
    Some(quote! {
        #[doc = #doc]
        pub fn #ident(mut self, value: impl Into<#param>) -> Self {
            self.#member = #value;
            self
        }
    })
}

/// `fn default_<field>()`: the value an absent field stands for (serde's `default = "..."`).
fn default_fn(plan: &Plan, f: &Field, root: &TokenStream, boxed: bool) -> TokenStream {
    let ident = names::default_fn(f);
    let ty = field_type_boxed(plan, f, root, boxed);
    let (Some(t), Some(d)) = (&f.ty, &f.default) else { unreachable!("BUG: a defaulted field has a type and a default") };
    let value = default_tokens(plan, f, t, &d.value, root);
    let value = if boxed { quote!(Box::new(#value)) } else { value };
    let doc = format!(" The value an absent `{}` stands for: `{}`.", f.wire(), d.value);
    quote! {
        #[doc = #doc]
        pub fn #ident() -> #ty {
            #value
        }
    }
}

/// A member of a struct, with what serde's derived `Serialize` needs of it: the wire name, and
/// whether an absent value is left out. Reading is [`super::members`]'s.
fn field_member(plan: &Plan, f: &Field, root: &TokenStream, boxed: bool) -> TokenStream {
    let ident = names::field(f);
    let ty = field_type_boxed(plan, f, root, boxed);
    let docs = field_docs(plan, f);
    let wire = f.wire();
    let rename = (ident.to_string().trim_start_matches("r#") != wire).then(|| quote!(rename = #wire));
    let skip = if f.three_state() {
        Some(quote!(skip_serializing_if = "crate::wire::Presence::is_absent"))
    } else if f.may_be_absent() && !f.defaulted() {
        Some(quote!(skip_serializing_if = "Option::is_none"))
    } else {
        None
    };
    let attrs = match (rename, skip) {
        (None, None) => quote!(),
        (rename, skip) => {
            let parts = rename.into_iter().chain(skip);
            quote!(#[serde(#(#parts),*)])
        }
    };
    let deprecated = deprecated_attribute(plan, f.deprecated.as_ref(), f.until.as_ref(), None);
    quote! {
        #docs
        #deprecated
        #attrs
        pub #ident: #ty,
    }
}

/// Whether a struct of `fields` has a `Default` (derived, or written for typed defaults).
pub fn fields_have_default(plan: &Plan, fields: &[Field]) -> bool {
    fields.iter().all(|f| has_default(plan, f, &mut BTreeSet::new()))
}

/// Whether a field's type has a `Default` (open enums and unions do not: no value is a sensible
/// default; nor does a resource that requires itself, whose default would never end).
fn has_default(plan: &Plan, f: &Field, path: &mut BTreeSet<String>) -> bool {
    if f.optional || f.nullable || f.required_when.is_some() {
        return true;
    }
    f.ty.as_ref().is_none_or(|t| type_has_default(plan, t, path))
}

/// `path` holds the resources being asked about, outermost first.
fn type_has_default(plan: &Plan, ty: &TypeRef, path: &mut BTreeSet<String>) -> bool {
    match ty {
        TypeRef::Primitive(_) | TypeRef::Array(_) | TypeRef::Map(..) | TypeRef::Flags(_) | TypeRef::Class(_) => true,
        TypeRef::Enum(_) | TypeRef::Union(_) => false,
        TypeRef::Object(id) => {
            if !path.insert(id.clone()) {
                return false;
            }
            let has = plan.resource(id).is_none_or(|r| r.fields.iter().all(|f| has_default(plan, f, path)));
            path.remove(id);
            has
        }
    }
}

/// The runtime features the generated types need beyond `model`.
#[derive(Clone, Copy, Debug, Default)]
pub struct WireNeeds {
    /// A `bytes` value (base64 on the wire).
    pub bytes: bool,
    /// A `map<K, V>`.
    pub map: bool,
}

/// Which optional parts of the runtime's `wire` module the generated types need.
pub fn wire_needs(plan: &Plan) -> WireNeeds {
    let mut needs = WireNeeds::default();
    let field_types = all_struct_fields(plan).chain(plan.unions.iter().flat_map(|u| &u.variants)).filter_map(|f| f.ty.as_ref());
    let body_types = plan.endpoints.iter().flat_map(|e| e.response.iter().chain(responses(plan, e).filter_map(|r| r.ty.as_ref())));
    for ty in field_types.chain(body_types).chain(plan.responses.iter().filter_map(|r| r.response.ty.as_ref())) {
        ty.walk(&mut |t| match t {
            TypeRef::Primitive(Primitive::Bytes) => needs.bytes = true,
            TypeRef::Map(..) => needs.map = true,
            _ => {}
        });
    }
    needs
}

/// Per case of an object: the rule that says when it applies (`OBFUSCATED`), the literal values
/// it gives (`OBFUSCATED_NAME`) and `check_obfuscated`, which checks a value against the case.
/// Only the implementation knows whether a case's conditions hold, so it calls the check.
pub fn cases_tokens(plan: &Plan, name: &proc_macro2::Ident, fields: &[Field], cases: &[Case]) -> TokenStream {
    if cases.is_empty() {
        return TokenStream::new();
    }
    let items = cases.iter().map(|c| {
        let when = names::case_const(c);
        let rule = super::rules::rule_tokens(plan, &c.when);
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
            Some(bind_field(field, quote!(self.#ident), case_fact_checks(plan, field, fact, &c.meta.id)))
        });
        let checks: Vec<TokenStream> = checks.filter(|t| !t.is_empty()).collect();
        // A case whose facts leave nothing to check (no fact, or one about a field it cannot
        // see) checks nothing.
        let body = if checks.is_empty() {
            quote!(Vec::new())
        } else {
            quote! {
                let mut violations = Vec::new();
                let (pointer, out) = (&crate::validation::Pointer::ROOT, &mut violations);
                #(#checks)*
                violations
            }
        };
        // Through the doc writer: a description may hold Markdown lists and tabs.
        let mut docs = crate::emit::rust::format::led_lines("", c.meta.description.as_deref().unwrap_or(&c.meta.name));
        docs.extend(c.meta.notes.iter().flat_map(|n| crate::emit::rust::format::note_lines(n)));
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
                #body
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
fn case_fact_checks(plan: &Plan, field: &Field, fact: &CaseField, case: &str) -> TokenStream {
    let mut out = TokenStream::new();
    if let Some(literal) = &fact.literal {
        out.extend(quote!(crate::validation::literal(out, &pointer, value, #literal);));
    }
    if let Some(TypeRef::Flags(set)) = &field.ty {
        let set_ident = plan.flags_type(set);
        for flag in &fact.contains {
            let bit = plan.flag_const(set, &flag.id);
            let message = format!("must contain {} in case `{case}`", flag.id);
            out.extend(quote! {
                crate::validation::fact(out, &pointer, value.contains(crate::flags::#set_ident::#bit), #message);
            });
        }
    }
    for omitted in &fact.omits {
        out.extend(omits_check(plan, field, &omitted.id, case));
    }
    if let Some(ty) = &field.ty {
        // The field's `items` say whether its elements may be `null`.
        let rules = Rules { items: field.items.as_ref(), ..Rules::constraints(&fact.constraints) };
        out.extend(value_checks(plan, &quote!(value), ty, rules, &quote!(&pointer)));
    }
    out
}

/// No element of an array carries an enum value: the elements are of the enum, or objects
/// with a field of it.
fn omits_check(plan: &Plan, field: &Field, value: &str, case: &str) -> TokenStream {
    let (enum_id, name) = value.split_once('.').unwrap_or((value, ""));
    let Some(ty) = &field.ty else { return TokenStream::new() };
    let enum_ident = plan.enum_type(enum_id);
    let variant = plan.enum_variant(enum_id, name);
    let omitted = quote!(crate::enums::#enum_ident::#variant);
    let message = format!("must leave out {value} in case `{case}`");
    let (carries, at) = match ty.element() {
        TypeRef::Enum(_) => (quote!(*item == #omitted), None),
        TypeRef::Object(id) => {
            let Some(f) =
                plan.resource(id).and_then(|r| r.fields.iter().find(|f| matches!(f.ty.as_ref().map(TypeRef::element), Some(TypeRef::Enum(e)) if e == enum_id)))
            else {
                return TokenStream::new();
            };
            let ident = names::field(f);
            (carries_value(f, quote!(item.#ident), &omitted), Some(f.wire().to_owned()))
        }
        _ => return TokenStream::new(),
    };
    let pointer = match at {
        Some(wire) => quote!(&crate::validation::Pointer::key(&crate::validation::Pointer::index(&pointer, index), #wire)),
        None => quote!(&crate::validation::Pointer::index(&pointer, index)),
    };
    // Elements that may be `null` carry nothing when they are.
    let present = field.items.as_ref().is_some_and(|i| i.nullable).then(|| quote!(let Some(item) = item else { continue };));
    quote! {
        for (index, item) in value.iter().enumerate() {
            #present
            if #carries {
                out.push(crate::validation::Violation::new(#pointer, #message));
            }
        }
    }
}

/// Whether field `f` of an element, read through `access`, carries the enum value `omitted`:
/// through its presence (`Option`, `Presence`) and, for an array, any of its elements.
fn carries_value(f: &Field, access: TokenStream, omitted: &TokenStream) -> TokenStream {
    let nullable_items = f.items.as_ref().is_some_and(|i| i.nullable);
    // `value` reads the field (a place or a reference); `place` is the enum value itself.
    let test = |value: TokenStream, place: TokenStream| match (&f.ty, nullable_items) {
        (Some(TypeRef::Array(_)), true) => quote!(#value.contains(&Some(#omitted))),
        (Some(TypeRef::Array(_)), false) => quote!(#value.contains(&#omitted)),
        _ => quote!(#place == #omitted),
    };
    if f.three_state() {
        let t = test(quote!(v), quote!(*v));
        quote!(matches!(&#access, crate::wire::Presence::Value(v) if #t))
    } else if !f.defaulted() && (f.may_be_absent() || f.nullable) {
        let t = test(quote!(v), quote!(*v));
        quote!(matches!(&#access, Some(v) if #t))
    } else {
        test(access.clone(), access)
    }
}

/// Every field some generated struct declares.
fn all_struct_fields<'p>(plan: &'p Plan<'p>) -> impl Iterator<Item = &'p Field> {
    let lists = plan
        .resources
        .iter()
        .map(|r| &r.fields)
        .chain(plan.events.iter().map(|e| &e.fields))
        .chain(plan.opcodes.iter().map(|o| &o.fields))
        .chain(plan.endpoints.iter().flat_map(|e| [&e.path_params, &e.query, &e.headers, &e.body, &e.parts, &e.response_fields]))
        .chain(plan.endpoints.iter().flat_map(|e| responses(plan, e).map(|r| &r.fields)))
        .chain(plan.responses.iter().map(|r| &r.response.fields))
        .chain(plan.error_body.iter().map(|b| &b.fields));
    let headers = plan.endpoints.iter().flat_map(|e| responses(plan, e)).chain(plan.responses.iter().map(|r| &r.response)).flat_map(|r| r.headers.iter());
    let headers = headers.filter_map(|h| match &h.header {
        crate::model::HeaderUse::Inline(f) => Some(&**f),
        crate::model::HeaderUse::Named(_) => None,
    });
    lists.flatten().chain(plan.endpoints.iter().filter_map(|e| e.body_schema.as_ref())).chain(headers).chain(&plan.headers)
}

/// The responses an endpoint declares per status, named ones resolved.
fn responses<'m>(plan: &'m Plan<'m>, e: &'m crate::model::Endpoint) -> impl Iterator<Item = &'m crate::model::Response> {
    e.responses.iter().filter_map(|r| plan.response_of(&r.response))
}
