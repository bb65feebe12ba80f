//! Responses by status: for an endpoint that declares them, an enum with one variant per
//! status, each carrying the body and the headers of its response; and the named responses and
//! headers endpoints share (`responses.rs`, `headers.rs`).

use super::docs::docs;
use super::fields::{keeps_extra, struct_tokens};
use crate::emit::rust::shared::{int, type_tokens};
use crate::model::{BodyKind, Endpoint, Response, ResponseUse, Status, StatusResponse};
use crate::plan::rust::names::ResponseNames as Names;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// The Rust type of a response's body, `None` when it has none; `path` leads to where its
/// `<prefix>Body` struct lives.
pub fn body_type(plan: &Plan, r: &Response, names: &Names, path: &TokenStream) -> Option<TokenStream> {
    body_type_in(plan, r, names, path, &quote!(crate))
}

/// [`body_type`] from a crate where the types crate is `root`.
fn body_type_in(plan: &Plan, r: &Response, names: &Names, path: &TokenStream, root: &TokenStream) -> Option<TokenStream> {
    match r.body_kind() {
        BodyKind::Empty => None,
        BodyKind::Text => Some(quote!(String)),
        BodyKind::Binary => Some(quote!(#root::wire::RawBody)),
        BodyKind::Stream(_) => {
            let event = &names.event;
            Some(quote!(#root::stream::Events<#path #event>))
        }
        BodyKind::Json if !r.fields.is_empty() => {
            let body = &names.body;
            Some(quote!(#path #body))
        }
        BodyKind::Json => {
            let ty = r.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| type_tokens(plan, t, root));
            Some(if r.nullable { quote!(Option<#ty>) } else { ty })
        }
    }
}

/// What a response's variant carries: nothing, its body, or `<prefix>Response` when it has
/// headers.
pub fn payload_type(plan: &Plan, r: &Response, names: &Names, path: &TokenStream) -> Option<TokenStream> {
    payload_type_in(plan, r, names, path, &quote!(crate))
}

/// [`payload_type`] from a crate where the types crate is `root` (the client's `types`).
pub fn payload_type_in(plan: &Plan, r: &Response, names: &Names, path: &TokenStream, root: &TokenStream) -> Option<TokenStream> {
    if r.headers.is_empty() {
        return body_type_in(plan, r, names, path, root);
    }
    let response = &names.response;
    Some(quote!(#path #response))
}

/// The items one response needs: its body struct (named fields), its headers struct (or, when
/// an earlier response defines the same one, its name for that struct), and the struct holding
/// both. `headers_path` is where its headers struct lives, from the crate's root.
pub fn response_items(plan: &Plan, r: &Response, names: &Names, what: &str, headers_path: &str) -> TokenStream {
    let mut out = TokenStream::new();
    if r.body_kind() == BodyKind::Json && !r.fields.is_empty() {
        let doc = docs(Some(&format!("The body of {what}.")), &[]);
        out.extend(struct_tokens(plan, &names.body, doc, &r.fields, keeps_extra(&r.not_shown)));
    }
    if r.framing().is_some() {
        out.extend(super::streams::event_items(plan, r, names, what));
    }
    if r.headers.is_empty() {
        return out;
    }
    out.extend(headers_item(plan, r, names, what, headers_path));
    let (header_ident, response_ident) = (&names.headers, &names.response);
    let body = body_type(plan, r, names, &quote!()).map(|ty| {
        quote!(/// The body.
        pub body: #ty,)
    });
    let doc = format!(" {what}: its body and headers.");
    let derives = derives(r.framing().is_some());
    out.extend(quote! {
        #[doc = #doc]
        #derives
        pub struct #response_ident {
            #body
            /// The headers.
            pub headers: #header_ident,
        }
    });
    out
}

/// A response's headers struct, or its name for the struct an earlier response with the same
/// named headers defines.
fn headers_item(plan: &Plan, r: &Response, names: &Names, what: &str, path: &str) -> TokenStream {
    let ident = &names.headers;
    if let Some(home) = plan.shared_headers(r, path) {
        let doc = format!(" The headers of {what}: the same headers as [`crate::{}`].", home.to_string().replace(' ', ""));
        return quote!(#[doc = #doc] pub type #ident = crate::#home;);
    }
    let doc = docs(Some(&format!("The headers of {what}.")), &[]);
    struct_tokens(plan, ident, doc, &plan.header_fields(r), false)
}

/// The derives of what holds a response's payload: a stream of events is read once, so what
/// holds one is neither cloned nor compared.
fn derives(streamed: bool) -> TokenStream {
    if streamed { quote!(#[derive(Debug)]) } else { quote!(#[derive(Clone, Debug, PartialEq)]) }
}

/// Whether a response of the endpoint is a stream.
pub fn streams(plan: &Plan, e: &Endpoint) -> bool {
    plan.stream_of(e).is_some()
}

/// A response of an endpoint with where its items live: inline ones in the endpoint's module
/// (`inline`, the path to it), named ones in `responses` (`named`, the path to it).
pub fn resolve_at<'m>(plan: &'m Plan<'m>, r: &'m StatusResponse, inline: TokenStream, named: TokenStream) -> (&'m Response, Names, TokenStream) {
    let status = r.status().expect("BUG: validation parses every status");
    match &r.response {
        ResponseUse::Inline(response) => (response, Names::new(&names::status_stem(status)), inline),
        ResponseUse::Named(id) => {
            let response = plan.named_response(&id.id).expect("BUG: validation resolves every response");
            (&response.response, Names::new(&names::response_stem(response)), named)
        }
    }
}

/// [`resolve_at`] from inside the types crate's endpoint module.
pub fn resolve<'m>(plan: &'m Plan<'m>, r: &'m StatusResponse) -> (&'m Response, Names, TokenStream) {
    resolve_at(plan, r, quote!(), quote!(crate::responses::))
}

/// Variants of very different sizes, allowed: a decoded value is held in place, because boxing
/// the large variants would cost an allocation per decoded value, and these enums are moved
/// once, from the decoder to the caller.
pub fn large_variants_allowed() -> TokenStream {
    quote!(#[allow(clippy::large_enum_variant, reason = "a decoded value is held in place; the enum is moved once, from the decoder to the caller")])
}

/// The enum of an endpoint's responses, with the items of its inline responses.
pub fn endpoint_responses(plan: &Plan, e: &Endpoint) -> TokenStream {
    let mut items = TokenStream::new();
    let mut variants = Vec::new();
    let mut statuses = Vec::new();
    let mut carrying = 0;
    for r in &e.responses {
        let status = r.status().expect("BUG: validation parses every status");
        let (response, names, path) = resolve(plan, r);
        if matches!(r.response, ResponseUse::Inline(_)) {
            let path = names::inline_headers_path(e, status);
            items.extend(response_items(plan, response, &names, &format!("the `{status}` response"), &path));
        }
        let variant = names::status_variant(status);
        let payload = payload_type(plan, response, &names, &path);
        carrying += usize::from(payload.is_some());
        let doc = variant_doc(status, response, &r.response);
        let ranged = !matches!(status, Status::Code(_));
        statuses.push(match (status, payload.is_some()) {
            (Status::Code(code), true) => {
                let code = int(i64::from(code));
                quote!(Self::#variant(..) => #code)
            }
            (Status::Code(code), false) => {
                let code = int(i64::from(code));
                quote!(Self::#variant => #code)
            }
            _ => quote!(Self::#variant(status, ..) => *status),
        });
        variants.push(match (ranged, payload) {
            (false, None) => quote!(#(#[doc = #doc])* #variant,),
            (false, Some(p)) => quote!(#(#[doc = #doc])* #variant(#p),),
            (true, None) => quote!(#(#[doc = #doc])* #variant(u16),),
            (true, Some(p)) => quote!(#(#[doc = #doc])* #variant(u16, #p),),
        });
    }
    // Clippy compares the largest variant with the second: one payload beside a unit variant is enough.
    let large = (carrying > 0 && variants.len() > 1).then(large_variants_allowed);
    let success = success_item(plan, e);
    let derives = derives(streams(plan, e));
    quote! {
        #items

        #success

        /// The responses, one variant per declared status; a variant for a range (`4XX`) or
        /// `default` carries the status first.
        #derives
        #large
        #[non_exhaustive]
        pub enum Response {
            #(#variants)*
        }

        impl Response {
            /// The HTTP status.
            pub fn status(&self) -> u16 {
                match self {
                    #(#statuses,)*
                }
            }
        }
    }
}

/// `Success`, what a call answers when it succeeds: the payload of the one success response
/// (nothing when there is none), or an enum of the success responses, one variant each.
fn success_item(plan: &Plan, e: &Endpoint) -> TokenStream {
    let successes = e.success_responses();
    let doc = |what: String| format!(" What a call answers when it succeeds: {what}; an error status is the client's `Error::Api`.");
    let [only] = successes.as_slice() else {
        if successes.is_empty() {
            let doc = doc("nothing (the endpoint declares no success status)".to_owned());
            return quote!(#[doc = #doc] pub type Success = (););
        }
        return success_enum(plan, &successes);
    };
    let status = only.status().expect("BUG: validation parses every status");
    let (response, names, path) = resolve(plan, only);
    let doc = doc(format!("the `{status}` response's payload"));
    let payload = payload_type(plan, response, &names, &path).unwrap_or_else(|| quote!(()));
    quote!(#[doc = #doc] pub type Success = #payload;)
}

/// `Success` of an endpoint with several success responses: a variant each, as in `Response`.
fn success_enum(plan: &Plan, successes: &[&StatusResponse]) -> TokenStream {
    let mut carrying = 0;
    let variants: Vec<TokenStream> = successes
        .iter()
        .map(|r| {
            let status = r.status().expect("BUG: validation parses every status");
            let (response, names, path) = resolve(plan, r);
            let variant = names::status_variant(status);
            let payload = payload_type(plan, response, &names, &path);
            carrying += usize::from(payload.is_some());
            let doc = variant_doc(status, response, &r.response);
            match (matches!(status, Status::Code(_)), payload) {
                (true, None) => quote!(#(#[doc = #doc])* #variant,),
                (true, Some(p)) => quote!(#(#[doc = #doc])* #variant(#p),),
                (false, None) => quote!(#(#[doc = #doc])* #variant(u16),),
                (false, Some(p)) => quote!(#(#[doc = #doc])* #variant(u16, #p),),
            }
        })
        .collect();
    let large = (carrying > 0 && variants.len() > 1).then(large_variants_allowed);
    let derives = derives(successes.iter().any(|r| plan.response_of(&r.response).is_some_and(|r| r.framing().is_some())));
    quote! {
        /// What a call answers when it succeeds: one variant per success status, as in
        /// `Response`; an error status is the client's `Error::Api`.
        #derives
        #large
        #[non_exhaustive]
        pub enum Success {
            #(#variants)*
        }
    }
}

fn variant_doc(status: Status, r: &Response, used: &ResponseUse) -> Vec<String> {
    let head = match status {
        Status::Code(_) => format!(" `{status}`"),
        Status::Range(d) => format!(" `{status}`: any status from {}00 through {d}99", d),
        Status::Default => " `default`: any status no other variant names".to_owned(),
    };
    let mut lines = vec![match &r.description {
        Some(d) => format!("{head}: {}", d.lines().next().unwrap_or_default()),
        None => format!("{head}."),
    }];
    if let ResponseUse::Named(id) = used {
        lines.push(String::new());
        lines.push(format!(" The named response `{}`.", id.id));
    }
    lines
}

/// `responses.rs`: the named responses.
pub fn named_responses(plan: &Plan) -> TokenStream {
    let items = plan.responses.iter().map(|n| {
        let names = Names::new(&names::response_stem(n));
        let what = match &n.response.description {
            Some(d) => format!("the response `{}` ({})", n.id, d.trim_end_matches('.')),
            None => format!("the response `{}`", n.id),
        };
        response_items(plan, &n.response, &names, &what, &names::named_headers_path(n))
    });
    quote! {
        //! Named responses: the bodies and headers of responses several endpoints share.

        #(#items)*
    }
}

/// `headers.rs`: the names of the named headers, as sent on the wire.
pub fn named_headers(plan: &Plan) -> TokenStream {
    let consts = plan.headers.iter().map(|h| {
        let name = names::header_const(h);
        let wire = h.wire();
        let doc = crate::emit::rust::format::led_lines(&format!("`{wire}`: "), &h.description.clone().unwrap_or_else(|| format!("the header `{}`.", h.name)));
        let ty = h.ty.as_ref().map(|t| format!(" Its value is a `{t}`{}.", if h.optional { ", when present" } else { "" }));
        let ty = ty.map(|t| quote!(#[doc = ""] #[doc = #t]));
        quote! {
            #(#[doc = #doc])*
            #ty
            pub const #name: &str = #wire;
        }
    });
    quote! {
        //! Named headers: the HTTP names of the headers several responses share.

        #(#consts)*
    }
}

/// The responses of an endpoint in matching order: codes, then ranges, then `default`.
pub fn ordered(e: &Endpoint) -> Vec<&StatusResponse> {
    let mut list: Vec<&StatusResponse> = e.responses.iter().collect();
    list.sort_by_key(|r| match r.status() {
        Some(Status::Code(_)) => 0,
        Some(Status::Range(_)) => 1,
        _ => 2,
    });
    list
}
