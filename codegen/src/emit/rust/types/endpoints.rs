//! `endpoints.rs`: one module per endpoint with its request parts, response, gates and the
//! checks of its constraints, so the server and the client agree by construction.

use super::checks::{Rules, bind_value, is_given, value_checks};
use super::docs::{docs, lifecycle, meta_notes, summary};
use super::fields::{field_checks, fields_have_default, request_part_tokens, struct_tokens};
use crate::emit::rust::shared::{endpoint_address, field_type, int, type_tokens, value_tokens};
use crate::model::bounds::{Resolved, resolve};
use crate::model::types::Primitive;
use crate::model::{Cond, Endpoint, Field, TypeRef};
use crate::plan::rust::{Plan, names};
use crate::plan::rust::{ResponseKind, RuntimeInput};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `endpoints.rs`: its docs, then a module per endpoint.
pub fn emit<'p>(plan: &'p Plan<'p>) -> impl Iterator<Item = TokenStream> + 'p {
    let docs = quote! {
        //! Endpoints: per endpoint, its request (path, query, body), its response, the rules and
        //! errors that apply, the gates of its dated behaviour and the checks of its constraints.
        //!
        //! Endpoints whose method or path the source does not show are described too; they
        //! have no route.
    };
    std::iter::once(docs).chain(plan.endpoints.iter().map(|e| endpoint(plan, e)))
}

fn endpoint(plan: &Plan, e: &Endpoint) -> TokenStream {
    let module = names::endpoint_module(e);
    let docs = endpoint_docs(plan, e);
    let consts = endpoint_consts(plan, e);
    let path = (!e.path_params.is_empty()).then(|| part_struct(plan, "Path", "The path parameters.", &e.path_params));
    let query = (!e.query.is_empty()).then(|| part_struct(plan, "Query", "The query parameters.", &e.query));
    let headers = (!e.headers.is_empty()).then(|| part_struct(plan, "Headers", "The header parameters.", &e.headers));
    let body = plan.facts(e).has_body.then(|| body_items(plan, e));
    let request = request(plan, e);
    let response = response(plan, e);
    let response_check = response_check(plan, e);
    let gates = gates(plan, e);
    let runtime = runtime(plan, e);
    let paginated = super::pages::paginated(plan, e);
    quote! {
        #docs
        pub mod #module {
            #consts
            #path
            #query
            #headers
            #body
            #request
            #response
            #response_check
            #gates
            #runtime
            #paginated
        }
    }
}

fn endpoint_docs(plan: &Plan, e: &Endpoint) -> TokenStream {
    let title = if e.meta.name.is_empty() { e.meta.id.clone() } else { e.meta.name.clone() };
    let mut lines = vec![format!(" {title}.")];
    if let Some(d) = &e.meta.description {
        lines.push(String::new());
        lines.extend(crate::emit::rust::format::doc_text_lines(d).into_iter().map(|l| format!(" {l}")));
    }
    lines.push(String::new());
    lines.push(match (&e.method, &e.path) {
        (Some(m), Some(p)) => format!(" `{} {}`", m.id, p.id),
        _ => " Not routed: the source does not show its method or path.".to_owned(),
    });
    let mut notes = meta_notes(plan, &e.meta);
    for b in &e.behaviours {
        let mut text = b.meta.description.clone().unwrap_or_else(|| b.meta.id.clone());
        for l in lifecycle(plan, b.meta.since.as_ref(), b.meta.until.as_ref(), None) {
            text.push(' ');
            text.push_str(&l);
        }
        notes.push(format!("Behaviour `{}`: {text}", b.meta.id));
    }
    if !notes.is_empty() {
        lines.push(String::new());
        lines.extend(notes.iter().flat_map(|n| crate::emit::rust::format::note_lines(n)));
    }
    lines.iter().map(|l| quote!(#[doc = #l])).collect()
}

fn endpoint_consts(plan: &Plan, e: &Endpoint) -> TokenStream {
    let route = match (&e.method, &e.path) {
        (Some(m), Some(p)) => {
            let (m, p) = (&m.id, &p.id);
            let address = endpoint_address(plan, e).unwrap_or_default();
            Some(quote! {
                /// The HTTP method.
                pub const METHOD: &str = #m;

                /// The path template, relative to the address in [`ADDRESS`].
                pub const PATH: &str = #p;

                /// The placeholder whose value the path is appended to.
                pub const ADDRESS: &str = #address;
            })
        }
        _ => None,
    };
    let kinds: Vec<Ident> = if e.auth.is_empty() {
        plan.token_kinds.iter().map(names::token_kind_variant).collect()
    } else {
        e.token_kinds().map(|k| plan.token_kind_variant(&k.id)).collect()
    };
    let (body_format, response_format) = (e.body_format(), &e.response_format);
    let anonymous = e.accepts_anonymous().then(|| {
        quote! {
            /// It accepts calls without a credential (and, from the kinds in [`AUTH`], with one).
            pub const ANONYMOUS: bool = true;
        }
    });
    let scopes = (!e.scopes.is_empty()).then(|| {
        let scopes = e.scopes.iter().map(|s| plan.scope_variant(&s.id));
        quote! {
            /// The OAuth2 scopes a bearer token must hold to call it.
            pub const SCOPES: &[crate::auth::Scope] = &[#(crate::auth::Scope::#scopes),*];
        }
    });
    let formats = plan.facts(e).several_formats.then(|| {
        let all = e.body_formats.iter().map(|f| f.id.as_str());
        quote! {
            /// Every format the body may come in; clients send [`BODY_FORMAT`] unless told otherwise.
            pub const BODY_FORMATS: &[&str] = &[#(#all),*];
        }
    });
    // With responses by status, each response says its own format.
    let response_format = (!e.has_status_responses()).then(|| {
        quote! {
            /// How the response is encoded (`json`, `csv`, `none`).
            pub const RESPONSE_FORMAT: &str = #response_format;
        }
    });
    let rules = plan.rules_for(&e.meta.id).into_iter().map(names::rule_const);
    let errors = plan.errors_for(&e.meta.id).into_iter().map(names::error_const);
    quote! {
        #route

        /// The token kinds it accepts.
        pub const AUTH: &[crate::auth::TokenKind] = &[#(crate::auth::TokenKind::#kinds),*];

        #anonymous

        #scopes

        /// The permission rules that guard it; all must hold.
        pub const RULES: &[&crate::rules::PermissionRule] = &[#(&crate::rules::#rules),*];

        /// The errors the spec says it returns (besides those of every request).
        pub const ERRORS: &[&crate::errors::ErrorDef] = &[#(&crate::errors::#errors),*];

        /// How the body is encoded (`json`, `form`, `multipart`, `csv`).
        pub const BODY_FORMAT: &str = #body_format;

        #formats

        #response_format
    }
}

fn part_struct(plan: &Plan, name: &str, doc: &str, fields: &[Field]) -> TokenStream {
    request_part_tokens(plan, &format_ident!("{name}"), docs(Some(doc), &[]), fields)
}

fn body_items(plan: &Plan, e: &Endpoint) -> TokenStream {
    if plan.facts(e).several_formats {
        return several_bodies(plan, e);
    }
    if plan.facts(e).parts_body {
        let parts = parts_struct(plan, e);
        return quote! {
            #parts

            /// The body: its parts.
            pub type Body = Parts;
        };
    }
    if plan.facts(e).raw_body {
        let parts = (!e.body.is_empty()).then(|| part_struct(plan, "Parts", "The named parts of the body.", &e.body));
        let doc = format!(" The body, passed through unparsed ({}).", e.body_format());
        return quote! {
            #parts

            #[doc = #doc]
            pub type Body = crate::wire::RawBody;
        };
    }
    if let Some(schema) = &e.body_schema {
        let ty = field_type(plan, schema, &quote!(crate));
        let doc = super::fields::field_docs(plan, schema);
        return quote! {
            #doc
            pub type Body = #ty;
        };
    }
    part_struct(plan, "Body", "The body.", &e.body)
}

/// A body that comes in several formats: the fields `json` and `form` share, the parts of
/// `multipart`, and an enum with one variant per format.
fn several_bodies(plan: &Plan, e: &Endpoint) -> TokenStream {
    let fields = match &e.body_schema {
        Some(schema) => {
            let ty = field_type(plan, schema, &quote!(crate));
            let doc = super::fields::field_docs(plan, schema);
            Some(quote! {
                #doc
                pub type Fields = #ty;
            })
        }
        None if !e.body.is_empty() => Some(part_struct(plan, "Fields", "The body's fields, in the `json` and `form` formats.", &e.body)),
        None => None,
    };
    let parts = (!e.parts.is_empty()).then(|| parts_struct(plan, e));
    let mut variants = Vec::new();
    let mut checks = Vec::new();
    for f in &e.body_formats {
        let variant = names::format_variant(&f.id);
        let (ty, doc) = match f.id.as_str() {
            "json" | "form" => {
                (quote!(Fields), format!(" The fields, as {}.", if f.id == "json" { "JSON" } else { "a form (`application/x-www-form-urlencoded`)" }))
            }
            "multipart" => (quote!(Parts), " The parts of a `multipart/form-data` body.".to_owned()),
            other => (quote!(crate::wire::RawBody), format!(" The body, passed through unparsed ({other}).")),
        };
        variants.push(quote!(#[doc = #doc] #variant(#ty),));
        checks.push(match (f.id.as_str(), &e.body_schema) {
            ("json" | "form", Some(schema)) => {
                // The whole body sits at the pointer itself, not under a member.
                let check = schema.ty.as_ref().map(|ty| value_checks(plan, &quote!(value), ty, Rules::of(schema), &quote!(pointer))).unwrap_or_default();
                // A body that is always there is already the reference the checks read.
                let always = !schema.three_state() && (schema.defaulted() || !(schema.may_be_absent() || schema.nullable));
                let bind = if always { check } else { bind_value(schema, &quote!(*value), &check) };
                quote!(Self::#variant(value) => { #bind },)
            }
            ("json" | "form" | "multipart", _) => quote!(Self::#variant(value) => crate::validation::Validate::validate_at(value, pointer, out),),
            _ => quote!(Self::#variant(_) => {},),
        });
    }
    let froms = body_conversions(e);
    quote! {
        #fields

        #parts

        /// The body, in one of the formats the endpoint accepts.
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum Body {
            #(#variants)*
        }

        impl crate::validation::Validate for Body {
            #[allow(unused_variables)]
            fn validate_at(&self, pointer: &crate::validation::Pointer<'_>, out: &mut Vec<crate::validation::Violation>) {
                match self {
                    #(#checks)*
                }
            }
        }

        #(#froms)*
    }
}

/// `From` each variant's type into `Body`, so a call passes the fields or parts themselves: the
/// fields go as the first of JSON and form the endpoint lists, the parts as multipart, raw
/// bytes in the first other format (when no fields could be taken for them).
fn body_conversions(e: &Endpoint) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let mut taken: Vec<&str> = Vec::new();
    for f in &e.body_formats {
        let (kind, ty) = match f.id.as_str() {
            "json" | "form" => ("fields", quote!(Fields)),
            "multipart" => ("parts", quote!(Parts)),
            _ => ("raw", quote!(crate::wire::RawBody)),
        };
        if taken.contains(&kind) || (kind == "raw" && e.body_formats.iter().any(|f| f.id == "json" || f.id == "form")) {
            continue;
        }
        taken.push(kind);
        let variant = names::format_variant(&f.id);
        let doc = format!(" The body as `{}`.", f.id);
        out.push(quote! {
            impl From<#ty> for Body {
                #[doc = #doc]
                fn from(value: #ty) -> Self {
                    Self::#variant(value)
                }
            }
        });
    }
    out
}

/// The type of one multipart part: a file part is a [`crate::wire::FilePart`] (name, media type
/// and bytes); any other part is its declared type, read from text or JSON.
pub fn part_type(plan: &Plan, f: &Field) -> TokenStream {
    let file = quote!(crate::wire::FilePart);
    let inner = match &f.ty {
        Some(TypeRef::Primitive(Primitive::File)) => file,
        Some(TypeRef::Array(inner)) if **inner == TypeRef::Primitive(Primitive::File) => quote!(Vec<#file>),
        _ => return field_type(plan, f, &quote!(crate)),
    };
    if f.may_be_absent() || f.nullable { quote!(Option<#inner>) } else { inner }
}

/// Whether a part carries files.
pub fn is_file_part(f: &Field) -> bool {
    f.ty.as_ref().is_some_and(|t| *t.element() == TypeRef::Primitive(Primitive::File))
}

/// `Parts`: the typed parts of a multipart body, with the checks of their constraints and of
/// the media types files declare.
fn parts_struct(plan: &Plan, e: &Endpoint) -> TokenStream {
    let members = e.parts.iter().map(|f| {
        let ident = names::field(f);
        let ty = part_type(plan, f);
        let docs = super::fields::field_docs(plan, f);
        quote!(#docs pub #ident: #ty,)
    });
    let mut checks: Vec<TokenStream> = e
        .parts
        .iter()
        .map(|f| {
            field_checks(plan, f, {
                let ident = names::field(f);
                quote!(self.#ident)
            })
        })
        .filter(|t| !t.is_empty())
        .collect();
    for f in e.parts.iter().filter(|f| is_file_part(f)) {
        let Some(expected) = &f.content_type else { continue };
        let (ident, wire, expected) = (names::field(f), f.wire(), &expected.id);
        let each = if matches!(f.ty, Some(TypeRef::Array(_))) {
            quote!(for (index, file) in files.iter().enumerate() {
                crate::validation::content_type(out, &crate::validation::Pointer::index(&pointer, index), &file.content_type, #expected);
            })
        } else {
            quote!(crate::validation::content_type(out, &pointer, &files.content_type, #expected);)
        };
        let bind = if f.may_be_absent() || f.nullable { quote!(if let Some(files) = &self.#ident { #each }) } else { quote!(let files = &self.#ident; #each) };
        checks.push(quote! {
            {
                let pointer = crate::validation::Pointer::key(pointer, #wire);
                #bind
            }
        });
    }
    let validate = if checks.is_empty() {
        quote!(
            fn validate_at(&self, _pointer: &crate::validation::Pointer<'_>, _out: &mut Vec<crate::validation::Violation>) {}
        )
    } else {
        quote!(fn validate_at(&self, pointer: &crate::validation::Pointer<'_>, out: &mut Vec<crate::validation::Violation>) { #(#checks)* })
    };
    let member = |f: &Field| part_type(plan, f);
    let value = |f: &Field| match &f.ty {
        Some(TypeRef::Primitive(Primitive::File)) => quote!(crate::wire::FilePart),
        Some(TypeRef::Array(inner)) if **inner == TypeRef::Primitive(Primitive::File) => quote!(Vec<crate::wire::FilePart>),
        Some(t) => value_tokens(plan, t, f.items.as_ref(), &quote!(crate)),
        None => quote!(serde_json::Value),
    };
    let initial = |f: &Field| match (&f.ty, &f.default) {
        (Some(t), Some(d)) => super::literals::default_tokens(plan, f, t, &d.value, &quote!(crate)),
        _ => quote!(Default::default()),
    };
    let typing = super::fields::Typing { member: &member, value: &value, boxed: &|_| false, initial: &initial };
    let building = super::fields::building_tokens(&format_ident!("Parts"), &e.parts, None, &[], &typing);
    // Parts that may all be left out are the body's default: each at its default (written out
    // when some part has one), or empty (derived).
    let all_optional = !e.parts.iter().any(Field::must_be_given);
    let any_default = e.parts.iter().any(Field::defaulted);
    let derive = (all_optional && !any_default).then(|| quote!(Default,));
    let default = (all_optional && any_default).then(|| {
        let inits = e.parts.iter().map(|f| {
            let (ident, initial) = (names::field(f), initial(f));
            quote!(#ident: #initial)
        });
        quote! {
            impl Default for Parts {
                fn default() -> Self {
                    Self { #(#inits),* }
                }
            }
        }
    });
    quote! {
        /// The parts of the `multipart/form-data` body.
        #[derive(Clone, Debug, #derive PartialEq)]
        #[non_exhaustive]
        pub struct Parts {
            #(#members)*
        }

        #default

        #building

        impl crate::validation::Validate for Parts {
            #validate
        }
    }
}

/// The parts a request has, in order: (field name, pointer token).
fn parts(plan: &Plan, e: &Endpoint) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    if !e.path_params.is_empty() {
        out.push(("path", "Path"));
    }
    if !e.query.is_empty() {
        out.push(("query", "Query"));
    }
    if !e.headers.is_empty() {
        out.push(("headers", "Headers"));
    }
    if plan.facts(e).has_body {
        out.push(("body", "Body"));
    }
    out
}

fn request(plan: &Plan, e: &Endpoint) -> TokenStream {
    let parts = parts(plan, e);
    let members = parts.iter().map(|(field, ty)| {
        let (f, t) = (format_ident!("{field}"), format_ident!("{ty}"));
        let doc = format!(" The {field}.");
        quote!(#[doc = #doc] pub #f: #t,)
    });
    let checks: Vec<TokenStream> = parts
        .iter()
        .filter_map(|(field, _)| {
            let f = format_ident!("{field}");
            match (*field, &e.body_schema) {
                ("body", _) if plan.facts(e).raw_body => None,
                ("body", Some(schema)) if !plan.facts(e).several_formats => {
                    let mut whole = schema.clone();
                    whole.name = "body".to_owned();
                    whole.wire_name = None;
                    let checks = field_checks(plan, &whole, quote!(self.body));
                    (!checks.is_empty()).then_some(checks)
                }
                _ => Some(quote!(crate::validation::Validate::validate_at(&self.#f, &crate::validation::Pointer::key(pointer, #field), out);)),
            }
        })
        .collect();
    let validate_body = if checks.is_empty() {
        quote!(
            fn validate_at(&self, _pointer: &crate::validation::Pointer<'_>, _out: &mut Vec<crate::validation::Violation>) {}
        )
    } else {
        quote!(fn validate_at(&self, pointer: &crate::validation::Pointer<'_>, out: &mut Vec<crate::validation::Violation>) { #(#checks)* })
    };
    let uri = uri_path(e);
    let new = constructor(plan, e);
    let setters = part_setters(plan, e);
    // A request whose every part has a default (none at all, optional queries) is that default:
    // `Request::default()` is honest and short, and `new` would take nothing.
    let derives = if new.is_none() { quote!(Clone, Debug, Default, PartialEq) } else { quote!(Clone, Debug, PartialEq) };
    let (params, idents): (Vec<TokenStream>, Vec<proc_macro2::Ident>) = parts
        .iter()
        .map(|(field, ty)| {
            let (f, t) = (format_ident!("{field}"), format_ident!("{ty}"));
            (quote!(#f: #t), f)
        })
        .unzip();
    quote! {
        /// The whole request: every part the endpoint takes.
        #[derive(#derives)]
        #[non_exhaustive]
        pub struct Request {
            #(#members)*
        }

        impl Request {
            /// The request of these parts, for the server, which reads them one by one.
            #[doc(hidden)]
            pub fn from_fields(#(#params),*) -> Self {
                Self { #(#idents),* }
            }
        }

        impl crate::validation::Validate for Request {
            #validate_body
        }

        #new

        #setters

        #uri
    }
}

/// A setter per query and header parameter, named after it, so a request reads as one chain
/// (`Request::new(channel_id).before(id).limit(50)`); an optional one is given its value.
fn part_setters(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    let setters: Vec<TokenStream> = part_setter_signatures(plan, e, &quote!(crate))
        .into_iter()
        .map(|PartSetter { part, field: f, ident, param }| {
            let doc = PartSetter::doc(part, f);
            let value = if part_setter_wraps(f) { quote!(Some(value.into())) } else { quote!(value.into()) };
            let part = format_ident!("{part}");
            quote! {
                #[doc = #doc]
                pub fn #ident(mut self, value: impl Into<#param>) -> Self {
                    self.#part.#ident = #value;
                    self
                }
            }
        })
        .collect();
    (!setters.is_empty()).then(|| quote!(impl Request { #(#setters)* }))
}

/// Whether a parameter's setter is given the value of an `Option` member.
fn part_setter_wraps(f: &Field) -> bool {
    !f.three_state() && !f.defaulted() && (f.may_be_absent() || f.nullable)
}

/// A setter of `Request` that sets a query or header parameter.
pub struct PartSetter<'e> {
    /// `query` or `headers`.
    pub part: &'static str,
    pub field: &'e Field,
    pub ident: proc_macro2::Ident,
    /// The type it takes `impl Into` of, as seen from the crate it was asked for.
    pub param: TokenStream,
}

impl PartSetter<'_> {
    /// The docs of the setter of `field`, a parameter of `part`.
    pub fn doc(part: &str, field: &Field) -> String {
        format!(" This request with the {} `{}` set.", if part == "query" { "query parameter" } else { "header" }, field.wire())
    }
}

/// The setters of `Request`'s query and header parameters, from the crate at `root`: the
/// query's first; a header whose setter a query parameter already names has none (it is set
/// through `request.headers`).
pub fn part_setter_signatures<'e>(plan: &Plan, e: &'e Endpoint, root: &TokenStream) -> Vec<PartSetter<'e>> {
    let mut out: Vec<PartSetter<'e>> = Vec::new();
    for (part, list) in [("query", &e.query), ("headers", &e.headers)] {
        for f in list {
            let Some(ident) = names::setter(f, &[]) else { continue };
            if out.iter().any(|s| s.ident == ident) {
                continue;
            }
            let param = if part_setter_wraps(f) {
                f.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(plan, t, f.items.as_ref(), root))
            } else {
                field_type(plan, f, root)
            };
            out.push(PartSetter { part, field: f, ident, param });
        }
    }
    out
}

/// Whether an endpoint's request is its `Default` (it has no `new`).
pub fn request_is_default(plan: &Plan, e: &Endpoint) -> bool {
    new_params(plan, e, &quote!(crate), &quote!()).is_empty()
}

/// A parameter of `Request::new`.
pub struct NewParam {
    /// Its name.
    pub ident: proc_macro2::Ident,
    /// The type it takes (`impl Into<…>`, or the part itself).
    pub ty: TokenStream,
    /// The part of the request it fills: `path`, `query`, `headers` or `body`.
    pub part: &'static str,
}

/// The parameters of `Request::new`: the path parameters in the order the path names them, then
/// each part that has no default value, then the body (unless it may be left out). Types are
/// written from a crate whose path to the types crate is `root` and to the endpoint's module
/// `local` (empty inside it, `types::endpoints::create_message::` in the client).
pub fn new_params(plan: &Plan, e: &Endpoint, root: &TokenStream, local: &TokenStream) -> Vec<NewParam> {
    let mut params = Vec::new();
    let order = e.path_placeholders();
    let mut path_params: Vec<&Field> = e.path_params.iter().collect();
    path_params.sort_by_key(|f| order.iter().position(|p| *p == f.name).unwrap_or(usize::MAX));
    let taken: Vec<String> = path_params.iter().map(|f| names::field(f).to_string()).collect();
    // A part's argument is named after the part, unless a path parameter already is.
    let part_arg = |name: &str| if taken.iter().any(|t| t == name) { format_ident!("{name}_part") } else { format_ident!("{name}") };
    for f in &path_params {
        let ty = field_type(plan, f, root);
        params.push(NewParam { ident: names::field(f), ty: quote!(impl Into<#ty>), part: "path" });
    }
    for (field, part, list) in [("query", "Query", &e.query), ("headers", "Headers", &e.headers)] {
        if !list.is_empty() && !fields_have_default(plan, list) {
            let ty = format_ident!("{part}");
            params.push(NewParam { ident: part_arg(field), ty: quote!(#local #ty), part: field });
        }
    }
    if plan.facts(e).has_body && !plan.facts(e).optional_body {
        params.push(NewParam { ident: part_arg("body"), ty: quote!(impl Into<#local Body>), part: "body" });
    }
    params
}

/// `Request::new`, taking [`new_params`]; the parts that have a default start as it (an
/// optional body as none), to be set through their public fields. `None` when it would take
/// nothing.
fn constructor(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    let params = new_params(plan, e, &quote!(crate), &quote!());
    if params.is_empty() {
        return None;
    }
    let arg = |part: &str| params.iter().find(|p| p.part == part).map(|p| &p.ident);
    let mut inits = Vec::new();
    if !e.path_params.is_empty() {
        let fields = params.iter().filter(|p| p.part == "path").map(|NewParam { ident, .. }| quote!(#ident: #ident.into()));
        inits.push(quote!(path: Path { #(#fields),* }));
    }
    for (field, part, list) in [("query", "Query", &e.query), ("headers", "Headers", &e.headers)] {
        if list.is_empty() {
            continue;
        }
        let (f, ty) = (format_ident!("{field}"), format_ident!("{part}"));
        inits.push(match arg(field) {
            Some(arg) if *arg == f => quote!(#f),
            Some(arg) => quote!(#f: #arg),
            None => quote!(#f: #ty::default()),
        });
    }
    if plan.facts(e).has_body {
        inits.push(match arg("body") {
            Some(ident) => quote!(body: #ident.into()),
            None => quote!(body: None),
        });
    }
    let params = params.iter().map(|NewParam { ident, ty, .. }| quote!(#ident: #ty));
    Some(quote! {
        impl Request {
            /// A request with these path parameters and parts; the parts left out start empty.
            pub fn new(#(#params),*) -> Self {
                Self { #(#inits),* }
            }
        }
    })
}

/// `Request::uri_path`, for routed endpoints: the path with its parameters filled in.
fn uri_path(e: &Endpoint) -> Option<TokenStream> {
    let path = &e.path.as_ref()?.id;
    e.method.as_ref()?;
    let mut format = String::new();
    let mut args = Vec::new();
    let mut rest = path.as_str();
    while let Some(open) = rest.find('{') {
        format.push_str(&rest[..open].replace('}', "}}"));
        let Some(close) = rest[open..].find('}') else { break };
        let name = &rest[open + 1..open + close];
        let field = names::path_param(e, name);
        let ty = e.path_params.iter().find(|f| f.name == name).and_then(|f| f.ty.as_ref());
        args.push(if ty.is_some_and(|t| matches!(t, TypeRef::Union(_) | TypeRef::Object(_) | TypeRef::Array(_) | TypeRef::Map(..))) {
            quote!(crate::wire::encode_path_segment(&crate::wire::param_text(&self.path.#field)))
        } else {
            quote!(crate::wire::encode_path_segment(&self.path.#field.to_string()))
        });
        format.push_str("{}");
        rest = &rest[open + close + 1..];
    }
    format.push_str(&rest.replace('{', "{{").replace('}', "}}"));
    let body = if args.is_empty() { quote!(#format.to_owned()) } else { quote!(format!(#format, #(#args),*)) };
    Some(quote! {
        impl Request {
            /// The path of this request, parameters filled in and percent-encoded.
            pub fn uri_path(&self) -> String {
                #body
            }
        }
    })
}

fn response(plan: &Plan, e: &Endpoint) -> TokenStream {
    if e.has_status_responses() {
        return super::responses::endpoint_responses(plan, e);
    }
    if !e.response_fields.is_empty() {
        let extra = e.meta.not_shown.iter().any(|g| g.facet == "response");
        return struct_tokens(plan, &format_ident!("Response"), docs(Some("The response body."), &[]), &e.response_fields, extra);
    }
    match (plan.facts(e).response, &e.response) {
        (ResponseKind::Text, _) => quote! {
            /// The response body, as text.
            pub type Response = String;
        },
        (ResponseKind::Json, Some(ty)) => {
            let ty = type_tokens(plan, ty, &quote!(crate));
            quote! {
                /// The response body.
                pub type Response = #ty;
            }
        }
        _ => quote! {
            /// The response has no body the spec shows.
            pub type Response = ();
        },
    }
}

/// `check_response`: the response's own constraints, run by the server on its handler's output
/// and by the client on what it receives.
fn response_check(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    if !plan.facts(e).checks_response {
        return None;
    }
    let mut checks = TokenStream::new();
    if let Some(Resolved::Static(max)) = e.response_max_items.as_ref().and_then(|b| resolve(plan, b, true, false)) {
        let max = int(max);
        checks.extend(quote!(crate::validation::max_items(&mut out, &crate::validation::Pointer::ROOT, response.len(), #max);));
    }
    if !e.response_columns.is_empty() {
        let columns = e.response_columns.iter().map(|c| {
            let name = c.wire();
            let (expects, accepts) = csv_cell(c.ty.as_ref());
            quote!(crate::validation::CsvColumn { name: #name, expects: #expects, accepts: #accepts })
        });
        checks.extend(quote!(crate::validation::csv(&mut out, &crate::validation::Pointer::ROOT, response, &[#(#columns),*]);));
    }
    Some(quote! {
        /// Checks the response against what the spec says of it; empty when it holds.
        pub fn check_response(response: &Response) -> Vec<crate::validation::Violation> {
            let mut out = Vec::new();
            #checks
            out
        }
    })
}

/// What a CSV cell of a column's type must be, in words and as a test.
fn csv_cell(ty: Option<&TypeRef>) -> (&'static str, TokenStream) {
    match ty.and_then(TypeRef::primitive) {
        Some(Primitive::Snowflake | Primitive::Uint64) => ("a snowflake (an unsigned integer)", quote!(|cell: &str| cell.parse::<u64>().is_ok())),
        Some(Primitive::Integer | Primitive::Int32 | Primitive::Uint32) => ("an integer", quote!(|cell: &str| cell.parse::<i64>().is_ok())),
        Some(Primitive::Boolean) => ("`true` or `false`", quote!(|cell: &str| cell == "true" || cell == "false")),
        _ => ("any text", quote!(|_: &str| true)),
    }
}

fn gates(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    let gated = &plan.facts(e).gates;
    if gated.is_empty() {
        return None;
    }
    let fields: Vec<Ident> = gated.iter().map(|b| names::gate(b)).collect();
    let field_docs = gated.iter().map(|b| {
        let mut notes = b.meta.notes.clone();
        notes.extend(lifecycle(plan, b.meta.since.as_ref(), b.meta.until.as_ref(), None));
        docs(Some(&summary(&b.meta)), &notes)
    });
    let values = gated.iter().map(|b| {
        let since = b.meta.since.as_ref().map(|c| {
            let c = plan.change_const(&c.id);
            quote!(crate::changes::#c.is_in_effect(now))
        });
        let until = b.meta.until.as_ref().map(|c| {
            let c = plan.change_const(&c.id);
            quote!(!crate::changes::#c.is_in_effect(now))
        });
        match (since, until) {
            (Some(s), Some(u)) => quote!(#s && #u),
            (Some(s), None) => s,
            (None, Some(u)) => u,
            (None, None) => quote!(true),
        }
    });
    Some(quote! {
        /// Dated behaviour only the implementation can carry out, decided once per request.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Gates {
            #( #field_docs pub #fields: bool, )*
        }

        impl Gates {
            /// Which behaviours are in effect at `now`.
            pub fn at(now: jiff::Timestamp) -> Self {
                Self { #(#fields: #values,)* }
            }
        }
    })
}

fn runtime(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    let inputs = &plan.facts(e).inputs;
    if inputs.is_empty() {
        return None;
    }
    let members = inputs.iter().map(|i| match i {
        RuntimeInput::Bound { endpoint, field, .. } => {
            let name = i.name();
            let doc = format!(" `{field}` of the endpoint `{endpoint}`, when known (the check is skipped otherwise).");
            quote!(#[doc = #doc] pub #name: Option<i64>,)
        }
        RuntimeInput::Condition { cond, .. } => {
            let name = i.name();
            let (c, arg) = cond.named();
            let doc = format!(" Whether `{}{}` holds for the caller.", c.id, arg.map(|a| format!("({a})")).unwrap_or_default());
            quote!(#[doc = #doc] pub #name: bool,)
        }
    });
    let mut checks = Vec::new();
    for (part, fields) in [("path", &e.path_params), ("query", &e.query), ("headers", &e.headers)] {
        let part_ident = format_ident!("{part}");
        for f in fields.iter() {
            checks.extend(runtime_field_checks(plan, part, &quote!(self.#part_ident), f));
        }
    }
    checks.extend(runtime_body_checks(plan, e));
    Some(quote! {
        /// Values the checks need that only the running service knows.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Runtime {
            #(#members)*
        }

        impl Request {
            /// The checks that need run-time values: bounds read from other endpoints, and
            /// fields a condition makes required.
            pub fn validate_runtime(&self, runtime: &Runtime) -> Vec<crate::validation::Violation> {
                let mut out = Vec::new();
                #(#checks)*
                out
            }
        }
    })
}

/// The run-time checks of the body's fields. A body that comes in several formats holds its
/// fields in the variant of each format that has them (`json`, `form`).
fn runtime_body_checks(plan: &Plan, e: &Endpoint) -> Vec<TokenStream> {
    let holder = if plan.facts(e).several_formats { quote!(fields) } else { quote!(self.body) };
    let checks: Vec<TokenStream> = e.body.iter().flat_map(|f| runtime_field_checks(plan, "body", &holder, f)).collect();
    if !plan.facts(e).several_formats || checks.is_empty() {
        return checks;
    }
    let variants: Vec<Ident> = e.body_formats.iter().filter(|f| f.id == "json" || f.id == "form").map(|f| names::format_variant(&f.id)).collect();
    // When every format has the fields, the pattern always matches.
    if variants.len() == e.body_formats.len() {
        return vec![quote! {
            {
                let (#(Body::#variants(fields))|*) = &self.body;
                // A check need not read the fields (a defaulted field is always given).
                let _ = fields;
                #(#checks)*
            }
        }];
    }
    vec![quote! {
        if let #(Body::#variants(fields))|* = &self.body {
            let _ = fields;
            #(#checks)*
        }
    }]
}

/// The run-time checks of one field of a part, read from `holder` (`self.query`).
fn runtime_field_checks(plan: &Plan, part: &str, holder: &TokenStream, f: &Field) -> Vec<TokenStream> {
    let ident = names::field(f);
    let pointer = format!("/{part}/{}", f.wire().replace('~', "~0").replace('/', "~1"));
    let access = quote!(#holder.#ident);
    let mut out = Vec::new();
    if let Some(cond) = &f.required_when {
        let name = plan.runtime_condition(cond);
        let holds = if matches!(cond, Cond::Not(_)) { quote!(!runtime.#name) } else { quote!(runtime.#name) };
        let (c, arg) = cond.named();
        let text = format!("{}{}", c.id, arg.map(|a| format!("({a})")).unwrap_or_default());
        let given = is_given(f, &access);
        out.push(quote! {
            if #holds {
                crate::validation::required(&mut out, &crate::validation::Pointer::At(#pointer), #given, #text);
            }
        });
    }
    let Some(ty) = &f.ty else { return out };
    for (key, bound) in f.constraints.all() {
        let Some(Resolved::Runtime { endpoint, field, offset }) = resolve(plan, bound, key.starts_with("max"), key == "max_size") else { continue };
        let name = plan.runtime_bound(&endpoint, &field);
        let check = format_ident!("{key}");
        let value = match (key, ty) {
            ("min_length" | "max_length", _) => quote!(value),
            ("min_items" | "max_items" | "max_size", _) => quote!(value.len()),
            (_, TypeRef::Primitive(Primitive::StringInteger)) => quote!(i128::from(value.0)),
            _ => quote!(i128::from(*value)),
        };
        let bound = if offset == 0 {
            quote!(bound)
        } else {
            let offset = int(offset);
            quote!(bound + #offset)
        };
        let check = quote!(crate::validation::#check(&mut out, &crate::validation::Pointer::At(#pointer), #value, #bound););
        // One `if let` over the bound and the value, as far as the field's presence allows.
        out.push(if f.three_state() {
            quote! {
                if let (Some(bound), crate::wire::Presence::Value(value)) = (runtime.#name, &#access) {
                    #check
                }
            }
        } else if f.defaulted() || !(f.may_be_absent() || f.nullable) {
            quote! {
                if let Some(bound) = runtime.#name {
                    let value = &#access;
                    #check
                }
            }
        } else {
            quote! {
                if let (Some(bound), Some(value)) = (runtime.#name, &#access) {
                    #check
                }
            }
        });
    }
    out
}
