//! `calls.rs` of the client: one request builder per routed endpoint. `client.create_message(id)`
//! returns one; its setters fill the request's query and header parameters and, where the body
//! is a record (one that starts empty, or from the few required fields the method takes), the
//! body's fields; awaiting it sends the request
//! (`client.create_message(id).content("hi").await?`). `into_request` hands back the request
//! itself, for `Client::send` later.
//!
//! The module holds the builders and nothing else: they are named after their endpoints (the
//! plan settles two that would meet), and every other path in it is written in full, so no
//! endpoint's name can shadow what the code uses.

use crate::emit::rust::shared::{Shape, value_tokens};
use crate::emit::rust::types::endpoints::{NewParam, PartSetter, new_params, part_setter_signatures};
use crate::emit::rust::types::fields::{fields_have_default, setter_signatures};
use crate::model::{Case, Endpoint, Field, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

/// The body record a builder fills field by field: a record sent as JSON or a form, whose
/// required fields the client's method takes.
struct Record<'e> {
    /// Its type, from the client crate.
    ty: TokenStream,
    fields: &'e [Field],
    cases: &'e [Case],
    /// The resource it is, whose fields that contain it again are boxed.
    owner: Option<Shape<'e>>,
    /// The fields that must be given, which its `new` takes.
    required: Vec<&'e Field>,
    /// How the request holds it: as the body, as `Some` of an optional body, or in these
    /// variants of the body's formats.
    held: Held,
}

enum Held {
    Body,
    Optional,
    Formats(Vec<Ident>),
}

/// The most required fields of a body record the client's method takes as arguments.
const MAX_REQUIRED: usize = 3;

/// The most arguments the client's method takes with a body record's required fields (clippy's
/// `too_many_arguments` counts `self` to its seven).
const MAX_ARGUMENTS: usize = 6;

/// The record `e`'s builder fills, if its body is one. Not one: a body of several formats that
/// may be left out, an optional record some of whose fields must be given, a record with more
/// required fields than the method takes or one named as another of its parameters; those
/// bodies are built whole and passed as one argument.
fn record<'e>(plan: &'e Plan, e: &'e Endpoint) -> Option<Record<'e>> {
    let facts = plan.facts(e);
    if !facts.has_body || facts.raw_body || facts.parts_body || !matches!(e.body_format(), "json" | "form") {
        return None;
    }
    let held = match (facts.several_formats, facts.optional_body) {
        (true, true) => return None,
        (true, false) => {
            Held::Formats(e.body_formats.iter().filter(|f| matches!(f.id.as_str(), "json" | "form")).map(|f| names::format_variant(&f.id)).collect())
        }
        (false, true) => Held::Optional,
        (false, false) => Held::Body,
    };
    let module = names::endpoint_module(e);
    let (ty, fields, cases, owner) = match &e.body_schema {
        Some(schema) => {
            let Some(TypeRef::Object(id)) = &schema.ty else { return None };
            if schema.three_state() || schema.nullable || schema.defaulted() {
                return None;
            }
            let r = plan.resource(id)?;
            let ty = names::resource(r);
            (quote!(types::resources::#ty), &r.fields[..], &r.cases[..], Some(Shape::Resource(id)))
        }
        None if !e.body.is_empty() => {
            let part = if facts.several_formats { quote!(Fields) } else { quote!(Body) };
            (quote!(types::endpoints::#module::#part), &e.body[..], &[][..], None)
        }
        None => return None,
    };
    let required: Vec<&Field> = fields.iter().filter(|f| f.must_be_given()).collect();
    let startable = if required.is_empty() { fields_have_default(plan, fields) } else { !matches!(held, Held::Optional) };
    let others: Vec<Ident> = new_params(plan, e, &quote!(types), &quote!()).into_iter().filter(|p| p.part != "body").map(|p| p.ident).collect();
    let free = required.iter().all(|f| !others.contains(&names::field(f)));
    // Arguments are positional: beyond a few, a caller builds the body with its own `new`.
    let few = required.len() <= MAX_REQUIRED && others.len() + required.len() <= MAX_ARGUMENTS;
    (startable && free && few).then_some(Record { ty, fields, cases, owner, required, held })
}

/// The items of `calls.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let builders = plan.routed_endpoints().map(|e| builder(plan, e));
    quote! {
        //! The requests the client's methods return: each takes setters for its query
        //! parameters and its body's fields, and is sent when awaited
        //! (`client.create_message(id).content("hi").await?`).

        #(#builders)*
    }
}

/// What a call of `e` answers when it succeeds, `types` being the types crate's path.
pub(super) fn output(e: &Endpoint, types: &TokenStream) -> TokenStream {
    let module = names::endpoint_module(e);
    if e.has_status_responses() { quote!(#types::endpoints::#module::Success) } else { quote!(#types::endpoints::#module::Response) }
}

/// The builder of one endpoint, its setters and its `IntoFuture`.
fn builder(plan: &Plan, e: &Endpoint) -> TokenStream {
    let (ty, method, module) = (plan.call_type(e), names::client_method(e), names::endpoint_module(e));
    let request = quote!(crate::types::endpoints::#module::Request);
    let record = record(plan, e);
    let setters = setters(plan, e, record.as_ref());
    let output = output(e, &quote!(crate::types));
    let doc = format!(" The request of [`Client::{method}`](crate::Client::{method}), sent when awaited.");
    let must_use = "a request is sent when it is awaited";
    quote! {
        #[doc = #doc]
        #[must_use = #must_use]
        pub struct #ty<'c> {
            pub(crate) client: &'c crate::Client,
            pub(crate) request: #request,
        }

        impl<'c> #ty<'c> {
            #(#setters)*

            /// The request as built so far, to send later with [`Client::send`](crate::Client::send).
            pub fn into_request(self) -> #request {
                self.request
            }
        }

        impl<'c> ::std::future::IntoFuture for #ty<'c> {
            type Output = ::std::result::Result<#output, crate::Error>;
            type IntoFuture = crate::client::Sending<'c, #output>;

            fn into_future(self) -> Self::IntoFuture {
                crate::client::sending(self.client, self.request)
            }
        }
    }
}

/// The builder's setters: the request's query and header setters, then a setter per field of
/// the body record whose name neither a parameter's setter nor a builder method has (such a
/// field is set on a request built by hand).
fn setters(plan: &Plan, e: &Endpoint, record: Option<&Record>) -> Vec<TokenStream> {
    let root = quote!(crate::types);
    let mut taken: Vec<Ident> = Vec::new();
    let mut out = Vec::new();
    for PartSetter { part, field: f, ident, param } in part_setter_signatures(plan, e, &root) {
        if names::CALL_METHODS.contains(&ident.to_string().as_str()) {
            continue;
        }
        let doc = PartSetter::doc(part, f);
        out.push(quote! {
            #[doc = #doc]
            pub fn #ident(mut self, value: impl ::std::convert::Into<#param>) -> Self {
                self.request = self.request.#ident(value);
                self
            }
        });
        taken.push(ident);
    }
    let Some(record) = record else { return out };
    for (f, ident, param) in setter_signatures(plan, record.fields, record.cases, record.owner, &root) {
        if names::CALL_METHODS.contains(&ident.to_string().as_str()) || taken.contains(&ident) {
            continue;
        }
        let doc = format!(" This request with the body's `{}` set.", f.wire());
        let set = match &record.held {
            Held::Body => quote!(self.request.body = self.request.body.#ident(value);),
            Held::Optional => quote! {
                self.request.body = ::std::option::Option::Some(self.request.body.unwrap_or_default().#ident(value));
            },
            Held::Formats(variants) => {
                let module = names::endpoint_module(e);
                let body = quote!(crate::types::endpoints::#module::Body);
                quote! {
                    self.request.body = match self.request.body {
                        #(#body::#variants(fields) => #body::#variants(fields.#ident(value)),)*
                        other => other,
                    };
                }
            }
        };
        out.push(quote! {
            #[doc = #doc]
            pub fn #ident(mut self, value: impl ::std::convert::Into<#param>) -> Self {
                #set
                self
            }
        });
    }
    out
}

/// The client's method of `e` that returns its builder: it takes `Request::new`'s parameters,
/// but for a body record the builder fills, of which it takes the required fields.
pub fn client_method(plan: &Plan, e: &Endpoint, attrs: TokenStream) -> TokenStream {
    let (ty, method, module) = (plan.call_type(e), names::client_method(e), names::endpoint_module(e));
    let local = quote!(types::endpoints::#module::);
    let record = record(plan, e);
    let params = new_params(plan, e, &quote!(types), &local);
    let request = if params.is_empty() {
        quote!(types::endpoints::#module::Request::default())
    } else {
        let args = params.iter().map(|p| match (&record, p.part) {
            (Some(r), "body") => {
                let ty = &r.ty;
                if r.required.is_empty() {
                    quote!(#ty::default())
                } else {
                    let required = r.required.iter().map(|f| names::field(f));
                    quote!(#ty::new(#(#required),*))
                }
            }
            _ => p.ident.to_token_stream(),
        });
        quote!(types::endpoints::#module::Request::new(#(#args),*))
    };
    let mut taken: Vec<TokenStream> =
        params.iter().filter(|p| !(record.is_some() && p.part == "body")).map(|NewParam { ident, ty, .. }| quote!(#ident: #ty)).collect();
    // The record's required fields, as its `new` takes them.
    taken.extend(record.iter().flat_map(|r| &r.required).map(|f| {
        let ident = names::field(f);
        let ty = f.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| value_tokens(plan, t, f.items.as_ref(), &quote!(types)));
        quote!(#ident: impl Into<#ty>)
    }));
    let allow = (taken.len() > MAX_ARGUMENTS).then(|| quote!(#[allow(clippy::too_many_arguments, reason = "one argument per path parameter and part")]));
    quote! {
        #attrs
        #allow
        pub fn #method(&self, #(#taken),*) -> calls::#ty<'_> {
            calls::#ty { client: self, request: #request }
        }
    }
}
