//! The steps of a route beyond one JSON body in and one JSON body out: calls without a
//! credential, scopes, header parameters, array query parameters, bodies in several formats,
//! typed multipart parts, and responses by status with their headers.

use super::{parser_for, pointer_token};
use crate::emit::rust::names;
use crate::emit::rust::shared::{as_declared, int, status_name, type_tokens};
use crate::emit::rust::types::checks::bind_value_in;
use crate::emit::rust::types::endpoints::{format_variant, is_file_part, parts_body, several_formats};
use crate::emit::rust::types::responses::{self, header_fields};
use crate::model::types::Primitive;
use crate::model::{BodyKind, Endpoint, Field, Model, Response, Status, StatusResponse, TypeRef};
use crate::validate::{accepted_kinds, carries_scopes};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// Whether some routed endpoint accepts anonymous calls.
pub fn any_anonymous(model: &Model) -> bool {
    model.routed_endpoints().any(Endpoint::accepts_anonymous)
}

/// Whether some routed endpoint has typed multipart parts.
pub fn any_parts(model: &Model) -> bool {
    model.routed_endpoints().any(|e| !e.parts.is_empty())
}

/// The credential step: the caller, authenticated from the `Authorization` header. An endpoint
/// that accepts anonymous calls authenticates a credential only when one is presented.
pub fn credential_steps(e: &Endpoint) -> TokenStream {
    let unknown = quote!(runtime::unauthorized("the credential is not known"));
    if e.accepts_anonymous() {
        return quote! {
            let credential = runtime::optional_credential(&parts.headers, endpoint::AUTH)?;
            let caller = match &credential {
                Some(credential) => Some(app.api.authenticate(credential).await.ok_or_else(|| #unknown)?),
                None => None,
            };
        };
    }
    quote! {
        let credential = runtime::credential(&parts.headers, endpoint::AUTH)?;
        let caller = app.api.authenticate(&credential).await.ok_or_else(|| #unknown)?;
    }
}

/// The scope check: a bearer token holds every scope the endpoint requires (other token kinds
/// are not scoped). `cx` is in scope for endpoints that need a caller.
pub fn scope_check(model: &Model, e: &Endpoint, operation: &TokenStream) -> TokenStream {
    if e.scopes.is_empty() {
        return TokenStream::new();
    }
    let kinds: Vec<Ident> = accepted_kinds(model, e).into_iter().filter(|k| carries_scopes(k)).map(names::token_kind_variant).collect();
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
pub fn header_steps(model: &Model, e: &Endpoint, required: &mut Vec<Ident>) -> Vec<TokenStream> {
    if e.headers.is_empty() {
        return Vec::new();
    }
    // `headers`, not `header_...`: no header parameter's local can take its name.
    let mut steps = vec![quote!(let headers = runtime::header_pairs(&parts.headers, &mut violations);)];
    for f in &e.headers {
        let local = header_local(f);
        let (key, pointer) = (f.wire().to_ascii_lowercase(), format!("/headers/{}", pointer_token(f.wire())));
        let parse = parser_for(model, f.ty.as_ref());
        let is_required = !optional(f);
        let value = as_declared(model, f, &quote!(types), quote!(runtime::param(&headers, #key, #pointer, #is_required, &mut violations, #parse)));
        steps.push(quote!(let #local = #value;));
        if is_required {
            required.push(local);
        }
    }
    steps
}

/// The initializer of `endpoint::Headers` from the parsed locals.
pub fn headers_init(e: &Endpoint) -> TokenStream {
    let members = e.headers.iter().map(|f| {
        let (ident, local) = (names::field(f), header_local(f));
        quote!(#ident: #local)
    });
    quote!(headers: endpoint::Headers { #(#members),* })
}

/// A query parameter that is an array: every `name=` pair (`repeated`) or one comma-separated
/// value (`comma`).
pub fn query_list(model: &Model, f: &Field) -> Option<TokenStream> {
    let Some(TypeRef::Array(inner)) = &f.ty else { return None };
    let (key, pointer) = (f.wire(), format!("/query/{}", pointer_token(f.wire())));
    let comma = f.style.as_ref().is_some_and(|s| s.id == "comma");
    let parse = parser_for(model, Some(inner));
    let is_required = !optional(f);
    Some(quote!(runtime::param_list(&query, #key, #pointer, #is_required, #comma, &mut violations, #parse)))
}

/// The body steps of an endpoint whose body comes in several formats or as typed parts: they
/// leave `body: Option<endpoint::Body>`.
pub fn body_steps(model: &Model, e: &Endpoint) -> Option<TokenStream> {
    if parts_body(e) {
        let parse = parts_parse(model, e);
        return Some(quote! {
            let body: Option<endpoint::Body> = { #parse };
        });
    }
    if !several_formats(e) {
        return None;
    }
    let primary = body_media_type(e, e.body_format());
    let arms = e.body_formats.iter().map(|f| {
        let variant = format_variant(&f.id);
        let media = body_media_type(e, &f.id);
        let value = match f.id.as_str() {
            "json" => quote!(runtime::json_body(&bytes, &mut violations)?),
            "form" => quote!(runtime::form_body(&bytes, &mut violations)),
            "multipart" => {
                let parse = parts_parse(model, e);
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
fn parts_parse(model: &Model, e: &Endpoint) -> TokenStream {
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
                let parse = parser_for(model, Some(inner));
                quote!(runtime::part_texts(&multipart, #name, #pointer, #is_required, #indexed, &mut violations, #parse))
            }
            Some(ty) if is_text(ty) => {
                let parse = parser_for(model, Some(ty));
                quote!(runtime::part_text(&multipart, #name, #pointer, #is_required, &mut violations, #parse))
            }
            ty => {
                let rust = ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| type_tokens(model, t, &quote!(types)));
                quote!(runtime::part_json::<#rust>(&multipart, #name, #pointer, #is_required, &mut violations))
            }
        };
        let value = as_declared(model, f, &quote!(types), value);
        steps.push(quote!(let #local = #value;));
        let ident = names::field(f);
        members.push(if is_required { quote!(#ident: #local?) } else { quote!(#ident: #local) });
    }
    // A required part that is missing makes the whole `None` (`?` in a closure); without one,
    // the parts are always there.
    let any_required = e.parts.iter().any(|f| !optional(f));
    let parts_value = if any_required { quote!((|| Some(endpoint::Parts { #(#members),* }))()) } else { quote!(Some(endpoint::Parts { #(#members),* })) };
    quote! {
        let multipart = runtime::multipart(&parts.headers, bytes).await?;
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
pub fn respond_by_status(model: &Model, e: &Endpoint, method: &Ident) -> TokenStream {
    let arms = responses::ordered(e).into_iter().map(|r| respond_arm(model, r));
    quote! {
        let output = Api::#method(&app.api, call).await?;
        Ok(match output {
            #(#arms)*
        })
    }
}

fn respond_arm(model: &Model, r: &StatusResponse) -> TokenStream {
    let status = r.status().expect("BUG: validation parses every status");
    let (response, names, path) = responses::resolve(model, r);
    let variant = format_ident!("{}", status_name(status));
    let payload = responses::payload_type(model, response, &names, &path).is_some();
    let (pattern, code) = match (status, payload) {
        (Status::Code(c), true) => (quote!(endpoint::Response::#variant(value)), int(i64::from(c))),
        (Status::Code(c), false) => (quote!(endpoint::Response::#variant), int(i64::from(c))),
        (_, true) => (quote!(endpoint::Response::#variant(status, value)), quote!(status)),
        (_, false) => (quote!(endpoint::Response::#variant(status)), quote!(status)),
    };
    let check = match status.codes() {
        (low, high) if low != high => {
            let (low, high) = (int(i64::from(low)), int(i64::from(high)));
            quote!(let status = runtime::in_range(status, #low, #high)?;)
        }
        _ => quote!(),
    };
    let body = if response.headers.is_empty() { quote!(value) } else { quote!(value.body) };
    let answer = answer(response, &code, &body);
    if response.headers.is_empty() {
        return quote!(#pattern => { #check #answer });
    }
    let headers = header_writes(model, response);
    quote! {
        #pattern => {
            #check
            let mut response = #answer;
            #headers
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
    }
}

fn header_writes(model: &Model, response: &Response) -> TokenStream {
    header_fields(model, response)
        .iter()
        .map(|f| {
            let (ident, wire) = (names::field(f), f.wire());
            let set = quote!(runtime::set_header(&mut response, #wire, value)?;);
            let set = bind_value_in(f, &quote!(value.headers.#ident), &set, &quote!(types));
            quote!({ #set })
        })
        .collect()
}

/// The runtime items only some specs need: calls without a credential, scopes, header and list
/// parameters, bodies in several formats, multipart parts, responses by status.
pub fn runtime_items(model: &Model) -> TokenStream {
    let routed: Vec<&Endpoint> = model.routed_endpoints().collect();
    let mut out = TokenStream::new();
    if routed.iter().any(|e| e.accepts_anonymous()) {
        out.extend(quote! {
            /// The credential of the `Authorization` header when one is presented (and the
            /// endpoint accepts some token kind); `None` for an anonymous call.
            pub fn optional_credential(headers: &HeaderMap, accepted: &[TokenKind]) -> Result<Option<Credential>, ApiError> {
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
    if routed.iter().any(|e| !e.headers.is_empty()) {
        out.extend(quote! {
            /// The request headers as (lower-case name, value) pairs; a value that is not text is
            /// a violation.
            pub fn header_pairs(headers: &HeaderMap, out: &mut Vec<Violation>) -> Vec<(String, String)> {
                let mut pairs = Vec::new();
                for (name, value) in headers {
                    match value.to_str() {
                        Ok(text) => pairs.push((name.as_str().to_owned(), text.to_owned())),
                        Err(_) => out.push(Violation::new(format!("/headers/{name}"), "is not text")),
                    }
                }
                pairs
            }
        });
    }
    if routed.iter().any(|e| e.query.iter().any(|f| matches!(f.ty, Some(TypeRef::Array(_))))) {
        out.extend(list_param());
    }
    if routed.iter().any(|e| several_formats(e)) {
        out.extend(quote! {
            /// The media type of the body, in lower case without parameters; `None` without a
            /// `Content-Type` header.
            pub fn media_type(headers: &HeaderMap) -> Option<String> {
                let value = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
                Some(value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
            }

            /// 415: the body is in none of the formats the endpoint accepts.
            pub fn unsupported_media_type(got: &str, accepted: &[&str]) -> ApiError {
                error(ids::GENERAL, 415)
                    .with_status(415)
                    .with_message(format!("415: Unsupported Media Type (`{got}`; the endpoint accepts {})", accepted.join(", ")))
            }
        });
    }
    if routed.iter().any(|e| !e.parts.is_empty()) {
        out.extend(multipart());
    }
    if routed.iter().any(|e| e.has_status_responses()) {
        out.extend(status_responses());
    }
    out
}

fn list_param() -> TokenStream {
    quote! {
        /// Every value of a list parameter, parsed with `parse`: the values of every `name=` pair,
        /// or of one comma-separated value when `comma`. `None` when absent (a violation when
        /// `required`) or when a value does not parse (a violation at its index).
        pub fn param_list<T>(pairs: &[(String, String)], name: &str, pointer: &str, required: bool, comma: bool, out: &mut Vec<Violation>, parse: impl Fn(&str) -> Result<T, String>) -> Option<Vec<T>> {
            let mut texts: Vec<&str> = pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
            if texts.is_empty() {
                if required {
                    out.push(Violation::new(pointer, "is required"));
                }
                return None;
            }
            if comma {
                texts = texts.iter().flat_map(|t| t.split(',')).collect();
            }
            let before = out.len();
            let values: Vec<T> = texts
                .iter()
                .enumerate()
                .filter_map(|(index, text)| parse(text).map_err(|e| out.push(Violation::new(format!("{pointer}/{index}"), e))).ok())
                .collect();
            (out.len() == before).then_some(values)
        }
    }
}

fn multipart() -> TokenStream {
    quote! {
        /// One part of a multipart body.
        #[derive(Debug)]
        pub struct Part {
            /// The part's name.
            pub name: String,
            /// The file name, for a file.
            pub filename: Option<String>,
            /// The media type it was sent with.
            pub content_type: Option<String>,
            /// Its bytes.
            pub bytes: Bytes,
        }

        /// Every part of a `multipart/form-data` body; 400 when the body is not one.
        pub async fn multipart(headers: &HeaderMap, bytes: Bytes) -> Result<Vec<Part>, ApiError> {
            let refused = |message: String| invalid(vec![Violation::new("/body", message)]);
            let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
            let boundary = multer::parse_boundary(content_type).map_err(|e| refused(format!("not a multipart body: {e}")))?;
            // The body was read within the size limit already; the parser reads it from memory.
            let stream = futures_util::stream::once(async move { Ok::<Bytes, std::convert::Infallible>(bytes) });
            let mut reader = multer::Multipart::new(stream, boundary);
            let mut parts = Vec::new();
            while let Some(field) = reader.next_field().await.map_err(|e| refused(e.to_string()))? {
                let name = field.name().unwrap_or_default().to_owned();
                let filename = field.file_name().map(str::to_owned);
                let content_type = field.content_type().map(ToString::to_string);
                let bytes = field.bytes().await.map_err(|e| refused(e.to_string()))?;
                parts.push(Part { name, filename, content_type, bytes });
            }
            Ok(parts)
        }

        /// The parts of an array: each part named `name` (`repeated`), or `name[0]`, `name[1]`, ...
        /// in index order (`indexed`).
        fn named<'a>(parts: &'a [Part], name: &str, indexed: bool) -> Vec<&'a Part> {
            if !indexed {
                return parts.iter().filter(|p| p.name == name).collect();
            }
            let index = |p: &Part| p.name.strip_prefix(name)?.strip_prefix('[')?.strip_suffix(']')?.parse::<usize>().ok();
            let mut found: Vec<(usize, &Part)> = parts.iter().filter_map(|p| index(p).map(|i| (i, p))).collect();
            found.sort_by_key(|(i, _)| *i);
            found.into_iter().map(|(_, p)| p).collect()
        }

        fn absent<T>(pointer: &str, required: bool, out: &mut Vec<Violation>) -> Option<T> {
            if required {
                out.push(Violation::new(pointer, "is required"));
            }
            None
        }

        fn file(part: &Part) -> crate::types::wire::FilePart {
            crate::types::wire::FilePart {
                filename: part.filename.clone(),
                content_type: part.content_type.clone().unwrap_or_else(|| "application/octet-stream".to_owned()),
                bytes: part.bytes.to_vec(),
            }
        }

        fn text<'a>(part: &'a Part, pointer: &str, out: &mut Vec<Violation>) -> Option<&'a str> {
            std::str::from_utf8(&part.bytes).map_err(|_| out.push(Violation::new(pointer, "is not UTF-8 text"))).ok()
        }

        /// A file part.
        pub fn part_file(parts: &[Part], name: &str, pointer: &str, required: bool, out: &mut Vec<Violation>) -> Option<crate::types::wire::FilePart> {
            match parts.iter().find(|p| p.name == name) {
                Some(part) => Some(file(part)),
                None => absent(pointer, required, out),
            }
        }

        /// The files of an array part.
        pub fn part_files(parts: &[Part], name: &str, pointer: &str, required: bool, indexed: bool, out: &mut Vec<Violation>) -> Option<Vec<crate::types::wire::FilePart>> {
            let found = named(parts, name, indexed);
            if found.is_empty() {
                return absent(pointer, required, out);
            }
            Some(found.into_iter().map(file).collect())
        }

        /// A text part, parsed with `parse`.
        pub fn part_text<T>(parts: &[Part], name: &str, pointer: &str, required: bool, out: &mut Vec<Violation>, parse: impl Fn(&str) -> Result<T, String>) -> Option<T> {
            let Some(part) = parts.iter().find(|p| p.name == name) else { return absent(pointer, required, out) };
            let text = text(part, pointer, out)?;
            parse(text).map_err(|e| out.push(Violation::new(pointer, e))).ok()
        }

        /// The text parts of an array, each parsed with `parse`.
        pub fn part_texts<T>(parts: &[Part], name: &str, pointer: &str, required: bool, indexed: bool, out: &mut Vec<Violation>, parse: impl Fn(&str) -> Result<T, String>) -> Option<Vec<T>> {
            let found = named(parts, name, indexed);
            if found.is_empty() {
                return absent(pointer, required, out);
            }
            let before = out.len();
            let mut values = Vec::new();
            for (index, part) in found.into_iter().enumerate() {
                let at = format!("{pointer}/{index}");
                if let Some(value) = text(part, &at, out).and_then(|t| parse(t).map_err(|e| out.push(Violation::new(&at, e))).ok()) {
                    values.push(value);
                }
            }
            (out.len() == before).then_some(values)
        }

        /// A JSON part; a value of the wrong shape is a violation at its JSON pointer.
        pub fn part_json<T: DeserializeOwned>(parts: &[Part], name: &str, pointer: &str, required: bool, out: &mut Vec<Violation>) -> Option<T> {
            let Some(part) = parts.iter().find(|p| p.name == name) else { return absent(pointer, required, out) };
            let mut deserializer = serde_json::Deserializer::from_slice(&part.bytes);
            let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| out.push(Violation::new(self::pointer(pointer, e.path()), e.inner().to_string()))).ok()?;
            deserializer.end().map_err(|e| out.push(Violation::new(pointer, e.to_string()))).ok()?;
            Some(value)
        }
    }
}

fn status_responses() -> TokenStream {
    quote! {
        /// The status code of a declared status (validated: 100 through 599).
        pub fn status_code(status: u16) -> StatusCode {
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
        }

        /// The status of a variant for a range, checked: a status outside the declared range is
        /// the implementation's mistake, answered with 500.
        pub fn in_range(status: u16, low: u16, high: u16) -> Result<u16, ApiError> {
            if (low..=high).contains(&status) {
                Ok(status)
            } else {
                Err(error(ids::GENERAL, 500).with_status(500).with_message(format!("the implementation answered {status}, outside the declared {low}..={high}")))
            }
        }

        /// A response without a body.
        pub fn status_response(status: u16) -> Response {
            status_code(status).into_response()
        }

        /// A response whose body is `bytes` of `content_type`.
        pub fn bytes_response(status: u16, content_type: &str, bytes: Vec<u8>) -> Response {
            let mut response = (status_code(status), bytes).into_response();
            if let Ok(value) = axum::http::HeaderValue::from_str(content_type) {
                response.headers_mut().insert(header::CONTENT_TYPE, value);
            }
            response
        }

        /// A response whose body is bytes of the media type they came with (`declared` when none).
        pub fn raw_response(status: u16, body: crate::types::wire::RawBody, declared: &str) -> Response {
            let content_type = if body.content_type.is_empty() { declared.to_owned() } else { body.content_type };
            bytes_response(status, &content_type, body.bytes)
        }

        /// Adds a header whose value is the text of `value`: a string as it is, a number or a
        /// boolean as JSON writes it. A value that cannot be a header is the implementation's
        /// mistake, answered with 500.
        pub fn set_header<T: Serialize>(response: &mut Response, name: &'static str, value: &T) -> Result<(), ApiError> {
            let text = match serde_json::to_value(value) {
                Ok(serde_json::Value::String(text)) => text,
                Ok(other) => other.to_string(),
                Err(e) => e.to_string(),
            };
            let value = axum::http::HeaderValue::from_str(&text)
                .map_err(|_| error(ids::GENERAL, 500).with_status(500).with_message(format!("the header {name} cannot carry {text:?}")))?;
            response.headers_mut().insert(name, value);
            Ok(())
        }
    }
}
