//! The steps of a route beyond one JSON body in and one JSON body out: calls without a
//! credential, scopes, header parameters, array query parameters, bodies in several formats,
//! typed multipart parts, and responses by status with their headers.

use super::pointer_token;
use crate::emit::rust::shared::{int, type_tokens};
use crate::emit::rust::types::checks::bind_value_in;
use crate::emit::rust::types::endpoints::is_file_part;
use crate::emit::rust::types::literals::as_declared;
use crate::emit::rust::types::responses;
use crate::model::types::Primitive;
use crate::model::{BodyKind, Endpoint, Field, Response, Status, StatusResponse, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// Whether some routed endpoint accepts anonymous calls.
pub fn any_anonymous(plan: &Plan) -> bool {
    plan.routed_endpoints().any(Endpoint::accepts_anonymous)
}

/// Whether some routed endpoint has typed multipart parts.
pub fn any_parts(plan: &Plan) -> bool {
    plan.routed_endpoints().any(|e| !e.parts.is_empty())
}

/// The credential step: the caller, authenticated from the `Authorization` header. An endpoint
/// that accepts anonymous calls authenticates a credential only when one is presented.
pub fn credential_steps(e: &Endpoint) -> TokenStream {
    let unknown = quote!(runtime::unauthorized("the credential is not known"));
    if e.accepts_anonymous() {
        return quote! {
            let credential = runtime::optional_credential(&parts.headers, endpoint::AUTH)?;
            let caller = match credential {
                Some(credential) => Some(app.api.authenticate(credential).await.ok_or_else(|| #unknown)?),
                None => None,
            };
        };
    }
    quote! {
        let credential = runtime::credential(&parts.headers, endpoint::AUTH)?;
        let caller = app.api.authenticate(credential).await.ok_or_else(|| #unknown)?;
    }
}

/// The scope check: a bearer token holds every scope the endpoint requires (other token kinds
/// are not scoped). `cx` is in scope for endpoints that need a caller.
pub fn scope_check(plan: &Plan, e: &Endpoint, operation: &TokenStream) -> TokenStream {
    if e.scopes.is_empty() {
        return TokenStream::new();
    }
    let kinds: Vec<Ident> = plan.facts(e).accepts.iter().copied().filter(|k| k.carries_scopes()).map(names::token_kind_variant).collect();
    let scoped = quote!(matches!(credential.kind, #(types::auth::TokenKind::#kinds)|*));
    if e.accepts_anonymous() {
        return quote! {
            if let (Some(caller), Some(credential)) = (&caller, &credential)
                && #scoped
            {
                let operation = #operation;
                let cx = RuleContext { caller, credential, operation: &operation, now };
                runtime::require_scopes(&app.api.scopes(&cx).await?, endpoint::SCOPES)?;
            }
        };
    }
    quote! {
        if #scoped {
            runtime::require_scopes(&app.api.scopes(&cx).await?, endpoint::SCOPES)?;
        }
    }
}

/// Whether a field may be absent.
fn optional(f: &Field) -> bool {
    f.optional || f.required_when.is_some() || f.nullable
}

/// The local a header parameter is parsed into (`header_request_id`), apart from query and body
/// names.
pub fn header_local(f: &Field) -> Ident {
    format_ident!("header_{}", names::field(f).to_string().trim_start_matches("r#"))
}

/// Parses the header parameters into locals; required ones join `required`.
pub fn header_steps(plan: &Plan, e: &Endpoint, required: &mut Vec<Ident>) -> Vec<TokenStream> {
    if e.headers.is_empty() {
        return Vec::new();
    }
    // `headers`, not `header_...`: no header parameter's local can take its name.
    let mut steps = vec![quote!(let headers = runtime::header_pairs(&parts.headers, &mut violations);)];
    for f in &e.headers {
        let local = header_local(f);
        let (key, pointer) = (f.wire().to_ascii_lowercase(), format!("/headers/{}", pointer_token(f.wire())));
        let is_required = !optional(f);
        let value = match &f.ty {
            Some(TypeRef::Array(item)) => {
                let parse = parser_for(plan, Some(item));
                quote!(runtime::header_list(&headers, #key, #pointer, #is_required, &mut violations, #parse))
            }
            ty => {
                let parse = parser_for(plan, ty.as_ref());
                as_declared(plan, f, &quote!(types), quote!(runtime::param(&headers, #key, #pointer, #is_required, &mut violations, #parse)))
            }
        };
        steps.push(quote!(let #local = #value;));
        if is_required {
            required.push(local);
        }
    }
    steps
}

/// The initializer of `endpoint::Headers` from the parsed locals.
pub fn headers_init(e: &Endpoint) -> TokenStream {
    let members = e.headers.iter().map(header_local);
    quote!(endpoint::Headers::from_fields(#(#members),*))
}

/// A query parameter that is an array: every `name=` pair (`repeated`) or one comma-separated
/// value (`comma`).
pub fn query_list(plan: &Plan, f: &Field) -> Option<TokenStream> {
    let Some(TypeRef::Array(inner)) = &f.ty else { return None };
    let (key, pointer) = (f.wire(), format!("/query/{}", pointer_token(f.wire())));
    let comma = is_comma_list(f);
    let parse = parser_for(plan, Some(inner));
    let is_required = !optional(f);
    Some(if comma {
        quote!(runtime::comma_list(parts.uri.query(), #key, #pointer, #is_required, &mut violations, #parse))
    } else {
        quote!(runtime::param_list(&query, #key, #pointer, #is_required, &mut violations, #parse))
    })
}

/// Whether the query parameter is a `style: comma` list, read from the raw query (its items
/// split before they are decoded) rather than from the decoded pairs.
pub fn is_comma_list(f: &Field) -> bool {
    matches!(f.ty, Some(TypeRef::Array(_))) && f.style.as_ref().is_some_and(|s| s.id == "comma")
}

/// `runtime::form_body(...)`: the form body read with the wire names of its required list
/// members, which a form writes no pair for when they are empty.
pub fn form_body(plan: &Plan, e: &Endpoint, bytes: TokenStream) -> TokenStream {
    let required_list = |f: &&Field| !f.optional && matches!(f.ty, Some(TypeRef::Array(_)));
    let members: Vec<&Field> = match e.body_schema.as_ref().and_then(|b| b.ty.as_ref()) {
        Some(TypeRef::Object(id)) => plan.model().resource(id).map(|r| r.fields.iter().collect()).unwrap_or_default(),
        Some(_) => Vec::new(),
        None => e.body.iter().collect(),
    };
    let lists = members.into_iter().filter(required_list).map(Field::wire);
    quote!(runtime::form_body(#bytes, &[#(#lists),*], &mut violations))
}

/// The body steps of an endpoint whose body comes in several formats or as typed parts: they
/// leave `body: Option<endpoint::Body>`.
pub fn body_steps(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    if plan.facts(e).parts_body {
        let parse = parts_parse(plan, e);
        return Some(quote! {
            let body: Option<endpoint::Body> = { #parse };
        });
    }
    if !plan.facts(e).several_formats {
        return None;
    }
    let primary = body_media_type(e, e.body_format());
    let arms = e.body_formats.iter().map(|f| {
        let variant = names::format_variant(&f.id);
        let media = body_media_type(e, &f.id);
        let value = match f.id.as_str() {
            "json" => quote!(runtime::json_body(&bytes, &mut violations).map_err(runtime::rejected)?),
            "form" => form_body(plan, e, quote!(&bytes)),
            "multipart" => {
                let parse = parts_parse(plan, e);
                quote!({ #parse })
            }
            _ => quote!(Some(runtime::raw_body(&parts.headers, bytes))),
        };
        // A binary body is bytes of any media type.
        let pattern = if f.id == "binary" { quote!(_) } else { quote!(#media) };
        quote!(#pattern => #value.map(endpoint::Body::#variant),)
    });
    let fallback = (!e.accepts_format("binary")).then(|| quote!(other => return Err(runtime::unsupported_media_type(other, endpoint::BODY_FORMATS)),));
    Some(quote! {
        // Without a `Content-Type`, the body is taken to be in the format clients send by default.
        let media = runtime::media_type(&parts.headers).unwrap_or_else(|| #primary.to_owned());
        let body: Option<endpoint::Body> = match media.as_str() {
            #(#arms)*
            #fallback
        };
    })
}

/// The media type an endpoint's body comes as in `format`: a JSON body's declared one.
fn body_media_type<'e>(e: &'e Endpoint, format: &str) -> &'e str {
    if format == "json" { e.json_media_type() } else { media_type(format) }
}

/// The media type of a body format.
pub fn media_type(format: &str) -> &'static str {
    match format {
        "form" => "application/x-www-form-urlencoded",
        "multipart" => "multipart/form-data",
        "csv" => "text/csv",
        "binary" => "application/octet-stream",
        _ => "application/json",
    }
}

/// Reads the multipart parts of `bytes` into `Option<endpoint::Parts>`, each part by its kind:
/// files, text parts (repeated or indexed for arrays), JSON parts for every other type.
fn parts_parse(plan: &Plan, e: &Endpoint) -> TokenStream {
    let mut steps = Vec::new();
    let mut members = Vec::new();
    for f in &e.parts {
        let local = format_ident!("part_{}", names::field(f).to_string().trim_start_matches("r#"));
        let (name, pointer) = (f.wire(), format!("/body/{}", pointer_token(f.wire())));
        let is_required = !optional(f);
        let indexed = f.style.as_ref().is_some_and(|s| s.id == "indexed");
        let value = match &f.ty {
            Some(TypeRef::Primitive(Primitive::File)) => quote!(runtime::part_file(&multipart, #name, #pointer, #is_required, &mut violations)),
            Some(TypeRef::Array(_)) if is_file_part(f) => {
                quote!(runtime::part_files(&multipart, #name, #pointer, #is_required, #indexed, &mut violations))
            }
            Some(TypeRef::Array(inner)) if is_text(inner) => {
                let parse = parser_for(plan, Some(inner));
                quote!(runtime::part_texts(&multipart, #name, #pointer, #is_required, #indexed, &mut violations, #parse))
            }
            Some(ty) if is_text(ty) => {
                let parse = parser_for(plan, Some(ty));
                quote!(runtime::part_text(&multipart, #name, #pointer, #is_required, &mut violations, #parse))
            }
            ty => {
                let rust = ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| type_tokens(plan, t, &quote!(types)));
                quote!(runtime::part_json::<#rust>(&multipart, #name, #pointer, #is_required, &mut violations))
            }
        };
        let value = as_declared(plan, f, &quote!(types), value);
        steps.push(quote!(let #local = #value;));
        members.push(if is_required { quote!(#local?) } else { quote!(#local) });
    }
    // A required part that is missing makes the whole `None` (`?` in a closure); without one,
    // the parts are always there.
    let any_required = e.parts.iter().any(|f| !optional(f));
    let parts_value =
        if any_required { quote!((|| Some(endpoint::Parts::from_fields(#(#members),*)))()) } else { quote!(Some(endpoint::Parts::from_fields(#(#members),*))) };
    quote! {
        let multipart = runtime::multipart(&parts.headers, bytes).await.map_err(runtime::rejected)?;
        #(#steps)*
        #parts_value
    }
}

/// Whether values of a type travel as one text part (scalars), rather than as JSON.
fn is_text(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Primitive(p) => !matches!(p, Primitive::Json | Primitive::File),
        TypeRef::Enum(_) | TypeRef::Flags(_) => true,
        _ => false,
    }
}

/// Answers the handler's result: the status, body and headers of the variant it returned.
pub fn respond_by_status(plan: &Plan, e: &Endpoint, method: &Ident) -> TokenStream {
    let arms = responses::ordered(e).into_iter().map(|r| respond_arm(plan, r));
    quote! {
        let output = Api::#method(&app.api, call).await?;
        Ok(match output {
            #(#arms)*
            // `Response` is `#[non_exhaustive]`: a status a newer types crate adds is not one
            // this router writes.
            _ => return Err(runtime::error(runtime::ids::GENERAL, 500).with_status(500).with_message("500: the implementation answered a status this server does not write")),
        })
    }
}

fn respond_arm(plan: &Plan, r: &StatusResponse) -> TokenStream {
    let status = r.status().expect("BUG: validation parses every status");
    let (response, names, path) = responses::resolve(plan, r);
    let variant = names::status_variant(status);
    let payload = responses::payload_type(plan, response, &names, &path).is_some();
    let (pattern, code) = match (status, payload) {
        (Status::Code(c), true) => (quote!(endpoint::Response::#variant(value)), int(i64::from(c))),
        (Status::Code(c), false) => (quote!(endpoint::Response::#variant), int(i64::from(c))),
        (_, true) => (quote!(endpoint::Response::#variant(status, value)), quote!(status)),
        (_, false) => (quote!(endpoint::Response::#variant(status)), quote!(status)),
    };
    let check = match status.codes() {
        (low, high) if low != high => {
            let (low, high) = (int(i64::from(low)), int(i64::from(high)));
            quote!(let status = runtime::in_range(status, #low, #high).map_err(runtime::rejected)?;)
        }
        _ => quote!(),
    };
    let body = if response.headers.is_empty() { quote!(value) } else { quote!(value.body) };
    let answer = match response.framing() {
        Some(framing) => {
            let (_, names, path) = responses::resolve_at(plan, r, quote!(endpoint::), quote!(types::responses::));
            let codec = &names.codec;
            let media = response.media_type().unwrap_or(framing.media_type());
            let framing = crate::emit::rust::shared::framing_tokens(framing);
            quote!(runtime::stream_response(#code, #media, #framing, #body, #path #codec))
        }
        None => answer(response, &code, &body),
    };
    if response.headers.is_empty() {
        return quote!(#pattern => { #check #answer });
    }
    quote! {
        #pattern => {
            #check
            let mut response = #answer;
            runtime::WriteHeaders::write(&value.headers, &mut response)?;
            response
        }
    }
}

/// The HTTP response of a body of `response`'s kind.
fn answer(response: &Response, code: &TokenStream, body: &TokenStream) -> TokenStream {
    // A declared media type with a wildcard (`*/*`) names no one type to send.
    let declared = response.media_type().filter(|m| !m.contains('*'));
    match response.body_kind() {
        BodyKind::Empty => quote!(runtime::status_response(#code)),
        BodyKind::Json => quote!(runtime::json_response(runtime::status_code(#code), &#body)),
        BodyKind::Text => {
            let media = declared.unwrap_or("text/plain");
            quote!(runtime::bytes_response(#code, #media, #body.into_bytes()))
        }
        BodyKind::Binary => {
            let media = declared.unwrap_or("application/octet-stream");
            quote!(runtime::raw_response(#code, #body, #media))
        }
        BodyKind::Stream(_) => unreachable!("BUG: a stream is answered with its codec"),
    }
}

/// `WriteHeaders`, and its implementation for every headers struct of the types crate: the
/// router writes a response's headers with one call, however many responses share them.
fn write_headers_trait(plan: &Plan) -> TokenStream {
    let impls = plan.headers_structs().map(|(path, response)| {
        let writes = plan.header_fields(response).into_iter().map(|f| {
            let (ident, wire) = (names::field(&f), f.wire());
            let set = quote!(set_header(response, #wire, value).map_err(rejected)?;);
            let set = bind_value_in(&f, &quote!(self.#ident), &set, &quote!(crate::types));
            quote!({ #set })
        });
        quote! {
            impl WriteHeaders for crate::types::#path {
                fn write(&self, response: &mut Response) -> Result<(), ApiError> {
                    #(#writes)*
                    Ok(())
                }
            }
        }
    });
    quote! {
        /// A response's headers, written onto the HTTP response that carries them.
        pub trait WriteHeaders {
            /// Sets each header that has a value; one that cannot be sent is the server's fault
            /// (500).
            fn write(&self, response: &mut Response) -> Result<(), ApiError>;
        }

        #(#impls)*
    }
}

/// The runtime items only some specs need: calls without a credential, scopes, header and list
/// parameters, bodies in several formats, multipart parts, responses by status.
pub fn runtime_items(plan: &Plan) -> TokenStream {
    let routed: Vec<&Endpoint> = plan.routed_endpoints().collect();
    let mut out = TokenStream::new();
    if plan.headers_structs().next().is_some() {
        out.extend(write_headers_trait(plan));
    }
    if routed.iter().any(|e| e.accepts_anonymous()) {
        out.extend(quote! {
            /// The credential of the `Authorization` header when one is presented (and the
            /// endpoint accepts some token kind); `None` for an anonymous call.
            pub fn optional_credential<'h>(headers: &'h HeaderMap, accepted: &[TokenKind]) -> Result<Option<CredentialRef<'h>>, ApiError> {
                if accepted.is_empty() || !headers.contains_key(header::AUTHORIZATION) {
                    return Ok(None);
                }
                credential(headers, accepted).map(Some)
            }
        });
    }
    if routed.iter().any(|e| !e.scopes.is_empty()) {
        out.extend(quote! {
            /// 403 naming the scopes a token lacks.
            pub fn require_scopes(held: &[Scope], required: &[Scope]) -> Result<(), ApiError> {
                let lacking: Vec<Requirement> = required.iter().filter(|s| !held.contains(s)).map(|s| Requirement::Scope(*s)).collect();
                if lacking.is_empty() { Ok(()) } else { Err(missing(&lacking)) }
            }
        });
    }
    if routed.iter().any(|e| plan.facts(e).several_formats) {
        out.extend(quote! {
            /// 415: the body is in none of the formats the endpoint accepts.
            pub fn unsupported_media_type(got: &str, accepted: &[&str]) -> ApiError {
                error(ids::GENERAL, 415)
                    .with_status(415)
                    .with_message(format!("415: Unsupported Media Type (`{got}`; the endpoint accepts {})", accepted.join(", ")))
            }
        });
    }
    out
}

/// The closure that parses a parameter's text into its type.
pub(super) fn parser(plan: &Plan, f: &Field) -> TokenStream {
    parser_for(plan, f.ty.as_ref())
}

/// The closure that parses text into a value of `ty`.
pub(super) fn parser_for(plan: &Plan, ty: Option<&TypeRef>) -> TokenStream {
    let root = quote!(types);
    let Some(ty) = ty else { return quote!(runtime::from_json::<serde_json::Value>) };
    let rust = type_tokens(plan, ty, &root);
    match ty {
        TypeRef::Primitive(Primitive::String | Primitive::Url | Primitive::Csv) => quote!(|text: &str| Ok::<_, String>(text.to_owned())),
        TypeRef::Primitive(Primitive::Json | Primitive::File) => quote!(runtime::from_json::<#rust>),
        TypeRef::Primitive(Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64) => quote!(runtime::integer::<#rust>),
        TypeRef::Primitive(_) => quote!(runtime::from_str::<#rust>),
        TypeRef::Enum(id) if plan.enum_(id).is_some_and(|e| e.repr == "string") => quote!(|text: &str| Ok::<_, String>(#rust::from(text))),
        TypeRef::Enum(_) => quote!(|text: &str| runtime::integer::<i64>(text).map(#rust::from_value)),
        TypeRef::Union(_) => quote!(runtime::from_json_or_text_known::<#rust>),
        _ => quote!(runtime::from_json_or_text::<#rust>),
    }
}
