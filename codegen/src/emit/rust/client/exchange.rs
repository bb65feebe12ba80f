//! Client methods of endpoints beyond one JSON body in and one JSON body out: responses by
//! status with their headers, calls without a credential, header parameters, array query
//! parameters, bodies in several formats and multipart parts. They go through
//! `Client::exchange`, which returns any answer with its status and headers.

use crate::emit::rust::shared::lib_ident;
use crate::emit::rust::types::checks::bind_value_in;
use crate::emit::rust::types::endpoints::is_file_part;
use crate::emit::rust::types::literals::as_declared;
use crate::emit::rust::types::responses;
use crate::model::types::Primitive;
use crate::model::{BodyKind, Endpoint, Field, Response, Status, StatusResponse, TypeRef};
use crate::plan::rust::ResponseKind;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// Whether a query parameter is a list.
fn is_list(f: &Field) -> bool {
    matches!(f.ty, Some(TypeRef::Array(_)))
}

/// Whether the field is a union, whose value may be a list.
fn is_union(f: &Field) -> bool {
    matches!(f.ty, Some(TypeRef::Union(_)))
}

/// Whether the query has a list parameter, or a union one that may hold a list (and is written
/// pair by pair).
pub fn list_query(e: &Endpoint) -> bool {
    e.query.iter().any(|f| is_list(f) || is_union(f))
}

/// Whether a method goes through `exchange` rather than the plain `send`.
pub fn needs_exchange(plan: &Plan, e: &Endpoint) -> bool {
    e.has_status_responses()
        || e.accepts_anonymous()
        || !e.headers.is_empty()
        || plan.facts(e).several_formats
        || plan.facts(e).parts_body
        || list_query(e)
        || e.body_format() == "binary"
}

/// The `Call` of an endpoint that goes through `exchange`.
pub fn method(plan: &Plan, e: &Endpoint) -> TokenStream {
    if plan.stream_of(e).is_some() {
        return super::streams::methods(plan, e);
    }
    let prepared = prepared(plan, e);
    let answer = if e.has_status_responses() { decode_by_status(plan, e) } else { decode_success(plan, e) };
    let sent = sent(e);
    super::call_impl(
        e,
        quote! {
            #prepared
            let answer = client.exchange(#sent).await?;
            #answer
        },
    )
}

/// The statements a method that goes through `exchange` starts with: the request validated,
/// and its address, headers and body made.
pub(super) fn prepared(plan: &Plan, e: &Endpoint) -> TokenStream {
    let address = super::address(plan, e);
    let (query, headers, body) = (query(e), headers(e), body(plan, e));
    quote! {
        let violations = request.validate();
        if !violations.is_empty() {
            return Err(Error::Invalid(violations));
        }
        let url = join(#address, &request.uri_path());
        #query
        #headers
        let body = #body;
    }
}

/// The arguments of `exchange` after the statements of [`prepared`]: the route, the method,
/// what was made, and who may call.
pub(super) fn sent(e: &Endpoint) -> TokenStream {
    let (id, key, anonymous) = (&e.meta.id, super::idempotency_key(e), e.accepts_anonymous());
    let http_method = names::method_const(e.method.as_ref().map_or("", |m| m.id.as_str()));
    quote!((#id, endpoint::PATH, #key), reqwest::Method::#http_method, url, endpoint::AUTH, #anonymous, headers, body)
}

fn query(e: &Endpoint) -> TokenStream {
    if e.query.is_empty() {
        return TokenStream::new();
    }
    if !list_query(e) {
        return quote!(let url = with_query(url, &request.query)?;);
    }
    let pushes = e.query.iter().map(|f| {
        let (ident, wire) = (names::field(f), f.wire());
        let comma = f.style.as_ref().is_some_and(|s| s.id == "comma");
        let push = match (is_list(f), comma) {
            // An empty comma list would read back as one empty value: it is sent as no pair.
            (true, true) => quote! {
                pairs.extend((!value.is_empty()).then(|| (#wire, value.iter().map(text_of).collect::<Vec<_>>())));
            },
            (true, false) => quote!(for item in value { pairs.push((#wire, vec![text_of(item)])); }),
            // A union holding a list is written as a list is (its JSON text is no query value).
            (false, true) if is_union(f) => quote! {
                let texts = texts_of(value);
                pairs.extend((!texts.is_empty()).then_some((#wire, texts)));
            },
            (false, false) if is_union(f) => quote!(for item in texts_of(value) { pairs.push((#wire, vec![item])); }),
            (false, _) => quote!(pairs.push((#wire, vec![text_of(value)]));),
        };
        bind(f, quote!(request.query.#ident), push)
    });
    quote! {
        // Each name with its values: several are one comma-separated list.
        let mut pairs: Vec<(&str, Vec<String>)> = Vec::new();
        #(#pushes)*
        let url = with_pairs(url, &pairs);
    }
}

/// Runs `then` with `value` bound to the field's value when it has one.
fn bind(f: &Field, access: TokenStream, then: TokenStream) -> TokenStream {
    let then = bind_value_in(f, &access, &then, &quote!(types));
    quote!({ #then })
}

fn headers(e: &Endpoint) -> TokenStream {
    if e.headers.is_empty() {
        return quote!(let headers: Vec<(&'static str, String)> = Vec::new(););
    }
    let pushes = e.headers.iter().map(|f| {
        let (ident, wire) = (names::field(f), f.wire());
        let push = if is_list(f) {
            // An empty list would read back as one empty value: it is sent as no header.
            quote!(headers.extend((!value.is_empty()).then(|| (#wire, value.iter().map(text_of).collect::<Vec<_>>().join(","))));)
        } else {
            quote!(headers.push((#wire, text_of(value)));)
        };
        bind(f, quote!(request.headers.#ident), push)
    });
    quote! {
        let mut headers: Vec<(&'static str, String)> = Vec::new();
        #(#pushes)*
    }
}

fn body(plan: &Plan, e: &Endpoint) -> TokenStream {
    if !plan.facts(e).has_body {
        return quote!(None);
    }
    if plan.facts(e).raw_body {
        return quote!(Some(Outgoing { content_type: request.body.content_type.clone(), bytes: request.body.bytes.clone() }));
    }
    if plan.facts(e).parts_body {
        let encode = multipart(e, &quote!(request.body));
        return quote!(Some({ #encode }));
    }
    if !plan.facts(e).several_formats {
        return if e.body_format() == "form" { super::encoded(plan, e, quote!(form)) } else { super::encoded(plan, e, quote!(json)) };
    }
    let arms = e.body_formats.iter().map(|f| {
        let variant = names::format_variant(&f.id);
        match f.id.as_str() {
            "json" => match &e.body_media_type {
                Some(m) => {
                    let media = &m.id;
                    quote!(endpoint::Body::#variant(value) => Outgoing { content_type: #media.to_owned(), ..json(value)? },)
                }
                None => quote!(endpoint::Body::#variant(value) => json(value)?,),
            },
            "form" => quote!(endpoint::Body::#variant(value) => form(value)?,),
            "multipart" => {
                let encode = multipart(e, &quote!(value));
                quote!(endpoint::Body::#variant(value) => { #encode },)
            }
            _ => quote!(endpoint::Body::#variant(value) => Outgoing { content_type: value.content_type.clone(), bytes: value.bytes.clone() },),
        }
    });
    // `Body` is `#[non_exhaustive]`: a format a newer types crate adds is refused, not sent.
    quote!(Some(match &request.body {
        #(#arms)*
        _ => return Err(Error::Invalid(vec![Violation::new("/body", "is in a format this client does not send")])),
    }))
}

/// Writes the parts of `parts` (an `endpoint::Parts`) as a multipart body.
fn multipart(e: &Endpoint, parts: &TokenStream) -> TokenStream {
    let writes = e.parts.iter().map(|f| {
        let (ident, wire) = (names::field(f), f.wire());
        let indexed = f.style.as_ref().is_some_and(|s| s.id == "indexed");
        let name = |index: bool| if index && indexed { quote!(&format!("{}[{index}]", #wire)) } else { quote!(#wire) };
        let content_type = f.content_type.as_ref().map_or("application/json", |c| c.id.as_str());
        let write = match &f.ty {
            Some(TypeRef::Primitive(Primitive::File)) => quote!(form.file(#wire, value);),
            Some(TypeRef::Array(inner)) if is_file_part(f) || is_text(inner) => {
                let item = if is_file_part(f) { quote!(form.file(name, item);) } else { quote!(form.text(name, text_of(item));) };
                if indexed {
                    let name = name(true);
                    quote!(for (index, item) in value.iter().enumerate() { let name = #name; #item })
                } else {
                    quote!(for item in value { let name = #wire; #item })
                }
            }
            Some(ty) if is_text(ty) => quote!(form.text(#wire, text_of(value));),
            _ => quote!(form.json(#wire, #content_type, value)?;),
        };
        bind(f, quote!(#parts.#ident), write)
    });
    quote! {
        let mut form = MultipartForm::default();
        #(#writes)*
        form.finish()
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

/// The answer of an endpoint with the single-response shorthand: the body of a 2xx.
fn decode_success(plan: &Plan, e: &Endpoint) -> TokenStream {
    let id = &e.meta.id;
    match plan.facts(e).response {
        ResponseKind::Json => quote! {
            let bytes = success(#id, answer)?;
            serde_json::from_slice(&bytes).map_err(|e| Error::Decode { status: 200, message: e.to_string() })
        },
        ResponseKind::Text => quote! {
            let bytes = success(#id, answer)?;
            String::from_utf8(bytes).map_err(|e| Error::Decode { status: 200, message: e.to_string() })
        },
        ResponseKind::Empty => quote! {
            success(#id, answer)?;
            Ok(())
        },
    }
}

/// The answer of an endpoint with responses by status: a success decoded into `Success`, an
/// error status into [`Error::Api`] with its declared payload, any other status an error.
fn decode_by_status(plan: &Plan, e: &Endpoint) -> TokenStream {
    decode_by_status_but(plan, e, None)
}

/// [`decode_by_status`] but for the `streamed` response, which is read before the answer is.
pub(super) fn decode_by_status_but(plan: &Plan, e: &Endpoint, streamed: Option<&StatusResponse>) -> TokenStream {
    let successes = e.success_responses();
    let several = successes.len() > 1;
    let statuses: Vec<Status> = e.responses.iter().filter_map(StatusResponse::status).collect();
    let mut arms = Vec::new();
    for r in responses::ordered(e).into_iter().filter(|r| streamed.is_none_or(|s| !std::ptr::eq(*r, s))) {
        let status = r.status().expect("BUG: validation parses every status");
        if successes.iter().any(|s| std::ptr::eq(*s, r))
            && let Some(pattern) = pattern(status, (100, 399), &statuses)
        {
            let value = success_value(plan, r, several);
            arms.push(quote!(#pattern => Ok(#value),));
        }
        if status.is_error()
            && let Some(pattern) = pattern(status, (400, u16::MAX), &statuses)
        {
            let failure = failure(plan, e, r);
            arms.push(quote!(#pattern => #failure,));
        }
    }
    // Nothing declared below 400: any 2xx is the call's success, and there is nothing in it.
    let empty = successes.is_empty().then(|| quote!(200..=299 => Ok(()),));
    let id = &e.meta.id;
    if arms.is_empty() && empty.is_none() {
        return quote!(Err(undeclared(#id, answer)));
    }
    quote! {
        match answer.status {
            #(#arms)*
            #empty
            _ => Err(undeclared(#id, answer)),
        }
    }
}

/// The match pattern of a code, a range or `default` (within `default_codes`, the successes'
/// or the errors'), less the codes a narrower status of `statuses` takes: the arms are disjoint,
/// as a reader (and clippy's `match_overlapping_arm`) expects. `None` when nothing is left.
fn pattern(status: Status, default_codes: (u16, u16), statuses: &[Status]) -> Option<TokenStream> {
    let narrower = |other: &Status| match (status, other) {
        (Status::Range(_), Status::Code(_)) => true,
        (Status::Default, other) => *other != Status::Default,
        _ => false,
    };
    let (low, high) = if status == Status::Default { default_codes } else { status.codes() };
    let mut taken: Vec<(u16, u16)> = statuses.iter().filter(|o| narrower(o)).map(|o| o.codes()).collect();
    taken.sort_unstable();
    let mut pieces = Vec::new();
    let mut next = low;
    for (from, to) in taken {
        if to < next || from > high {
            continue;
        }
        if from > next {
            pieces.push(range_pattern(next, from - 1));
        }
        match to.checked_add(1) {
            Some(after) => next = next.max(after),
            None => return (!pieces.is_empty()).then(|| quote!(#(#pieces)|*)),
        }
    }
    if next <= high {
        pieces.push(range_pattern(next, high));
    }
    (!pieces.is_empty()).then(|| quote!(#(#pieces)|*))
}

/// `low` alone, or `low..=high` (`u16::MAX` by name).
fn range_pattern(low: u16, high: u16) -> TokenStream {
    let int = |n: u16| if n == u16::MAX { quote!(u16::MAX) } else { crate::emit::rust::shared::int(i64::from(n)) };
    let (low_lit, high_lit) = (int(low), int(high));
    if low == high { low_lit } else { quote!(#low_lit..=#high_lit) }
}

/// The `Success` value of a success response read from `answer`: its payload, or its variant
/// of the `Success` enum when there are `several`.
pub(super) fn success_value(plan: &Plan, r: &StatusResponse, several: bool) -> TokenStream {
    let status = r.status().expect("BUG: validation parses every status");
    let (response, names, path) = responses::resolve_at(plan, r, quote!(endpoint::), quote!(types::responses::));
    let payload = payload(response, &names, &path);
    if !several {
        return payload.unwrap_or_else(|| quote!(()));
    }
    let variant = names::status_variant(status);
    match (matches!(status, Status::Code(_)), payload) {
        (true, Some(p)) => quote!(endpoint::Success::#variant(#p)),
        (true, None) => quote!(endpoint::Success::#variant),
        (false, Some(p)) => quote!(endpoint::Success::#variant(answer.status, #p)),
        (false, None) => quote!(endpoint::Success::#variant(answer.status)),
    }
}

/// The error of an error response read from `answer`, with its payload decoded into its
/// `Declared` variant when it has one. A payload that does not decode leaves the error as it
/// came (its status, headers and bytes).
fn failure(plan: &Plan, e: &Endpoint, r: &StatusResponse) -> TokenStream {
    let id = &e.meta.id;
    let declared = plan.declared_variant(e, r).and_then(|variant| {
        let (response, names, path) = responses::resolve_at(plan, r, quote!(endpoint::), quote!(types::responses::));
        let payload = payload(response, &names, &path)?;
        Some(quote!(read_declared(|| Ok(Declared::#variant(#payload)))))
    });
    // `failure` takes the payload only where some endpoint declares one: `Declared` exists.
    if plan.declared_errors().is_empty() {
        return quote!(Err(failure(#id, answer)));
    }
    let declared = declared.unwrap_or_else(|| quote!(None));
    quote!({
        let declared = #declared;
        Err(failure(#id, answer, declared))
    })
}

/// The expression of a response's payload, read from `answer`.
pub(super) fn payload(r: &Response, names: &crate::plan::rust::names::ResponseNames, path: &TokenStream) -> Option<TokenStream> {
    let body = match r.body_kind() {
        BodyKind::Empty => None,
        BodyKind::Json => Some(quote!(decode_answer(&answer)?)),
        BodyKind::Text => Some(quote!(text_answer(&answer)?)),
        BodyKind::Binary => Some(quote!(raw_answer(&answer))),
        // The events, read from the body as it comes before `answer` was made of its head.
        BodyKind::Stream(_) => Some(quote!(events)),
    };
    if r.headers.is_empty() {
        return body;
    }
    let response = &names.response;
    let body = body.map(|b| quote!(body: #b,));
    Some(quote!(#path #response { #body headers: ReadHeaders::read(&answer)? }))
}

/// `Client::exchange`, when some method needs it.
pub fn exchange_method(plan: &Plan) -> TokenStream {
    if !plan.routed_endpoints().any(|e| needs_exchange(plan, e)) {
        return TokenStream::new();
    }
    let exchange_head = plan.routed_endpoints().any(|e| plan.stream_of(e).is_some()).then(|| {
        quote! {
            /// [`Client::exchange`] with the answer's body unread (`streamed`: read as it comes).
            #[allow(clippy::too_many_arguments)]
            async fn exchange_head(&self, route: Route, method: reqwest::Method, url: String, accepted: &'static [TokenKind], anonymous: bool, headers: Vec<(&'static str, String)>, body: Option<Outgoing>, streamed: bool) -> Result<reqwest::Response, Error> {
                let credential = self.authorization(accepted, anonymous)?;
                self.open(route, method, url, credential, headers, body, streamed).await
            }
        }
    });
    quote! {
        /// Sends one request and returns the answer, whatever its status. The credential is
        /// presented when the client holds one of a kind the endpoint accepts; without one, an
        /// endpoint that accepts `anonymous` calls is called without, any other is not called.
        // Each argument is one fact of the calling endpoint's route; a struct of them would
        // only be built to be taken apart here.
        #[allow(clippy::too_many_arguments)]
        async fn exchange(&self, route: Route, method: reqwest::Method, url: String, accepted: &'static [TokenKind], anonymous: bool, headers: Vec<(&'static str, String)>, body: Option<Outgoing>) -> Result<Answer, Error> {
            let credential = self.authorization(accepted, anonymous)?;
            self.dispatch(route, method, url, credential, headers, body).await
        }

        /// The `Authorization` header's value for an endpoint that accepts `accepted` kinds:
        /// none for an anonymous call, an error when the endpoint takes no anonymous call.
        fn authorization(&self, accepted: &'static [TokenKind], anonymous: bool) -> Result<Option<String>, Error> {
            let credential = self.credential.as_ref().filter(|c| accepted.contains(&c.kind)).and_then(Credential::header_value);
            if credential.is_none() && !anonymous {
                return Err(Error::Credential { accepted });
            }
            Ok(credential)
        }

        #exchange_head
    }
}

/// The responses of the endpoints that go through `exchange`.
fn exchanged_responses<'p>(plan: &'p Plan<'p>) -> Vec<&'p Response> {
    plan.routed_endpoints().filter(|e| needs_exchange(plan, e)).flat_map(|e| &e.responses).filter_map(|r| plan.response_of(&r.response)).collect()
}

/// The helpers the methods that go through `exchange` use.
pub fn helpers(plan: &Plan) -> TokenStream {
    let routed: Vec<&Endpoint> = plan.routed_endpoints().filter(|e| needs_exchange(plan, e)).collect();
    if routed.is_empty() {
        return TokenStream::new();
    }
    let responses = exchanged_responses(plan);
    [success_reader(&routed), body_readers(&responses), header_readers(plan, &responses), read_headers_trait(plan, &routed), request_writers(plan, &routed)]
        .into_iter()
        .collect()
}

/// `ReadHeaders`, and its implementation for each headers struct an answer of `routed` carries:
/// a call reads a response's headers with one call, however many responses share them.
fn read_headers_trait(plan: &Plan, routed: &[&Endpoint]) -> TokenStream {
    let mut structs: Vec<(String, TokenStream, &Response)> = Vec::new();
    for e in routed {
        for r in &e.responses {
            let (Some(path), Some(response)) = (plan.headers_struct(e, r), plan.response_of(&r.response)) else { continue };
            let key = path.to_string();
            if !structs.iter().any(|(k, ..)| *k == key) {
                structs.push((key, path, response));
            }
        }
    }
    if structs.is_empty() {
        return TokenStream::new();
    }
    let impls = structs.iter().map(|(_, path, r)| {
        let reads = plan.header_fields(r).into_iter().map(|f| {
            let wire = f.wire().to_owned();
            if f.may_be_absent() || f.nullable {
                as_declared(plan, &f, &quote!(types), quote!(optional_header(answer, #wire)?))
            } else {
                quote!(header(answer, #wire)?)
            }
        });
        quote! {
            impl ReadHeaders for types::#path {
                fn read(answer: &Answer) -> Result<Self, Error> {
                    Ok(Self::from_fields(#(#reads),*))
                }
            }
        }
    });
    quote! {
        /// A response's headers, read from the answer that carries them.
        trait ReadHeaders: Sized {
            /// Each header from its text; a required one missing, or one that does not
            /// decode, is [`Error::Decode`].
            fn read(answer: &Answer) -> Result<Self, Error>;
        }

        #(#impls)*
    }
}

/// `success`, when some endpoint that goes through `exchange` declares no status.
fn success_reader(routed: &[&Endpoint]) -> TokenStream {
    if !routed.iter().any(|e| !e.has_status_responses()) {
        return TokenStream::new();
    }
    quote! {
        /// The body of a 2xx answer; any other answer is an error.
        fn success(endpoint: &'static str, answer: Answer) -> Result<Vec<u8>, Error> {
            if (200..300).contains(&answer.status) { Ok(answer.bytes) } else { Err(undeclared(endpoint, answer)) }
        }
    }
}

/// `decode_answer`, `text_answer` and `raw_answer`, each when some response has a body of its kind.
fn body_readers(responses: &[&Response]) -> TokenStream {
    let mut out = TokenStream::new();
    if responses.iter().any(|r| r.body_kind() == BodyKind::Json) {
        out.extend(quote! {
            /// Decodes a JSON answer.
            fn decode_answer<T: serde::de::DeserializeOwned>(answer: &Answer) -> Result<T, Error> {
                serde_json::from_slice(&answer.bytes).map_err(|e| Error::Decode { status: answer.status, message: e.to_string() })
            }
        });
    }
    if responses.iter().any(|r| r.body_kind() == BodyKind::Text) {
        out.extend(quote! {
            /// A text answer.
            fn text_answer(answer: &Answer) -> Result<String, Error> {
                String::from_utf8(answer.bytes.clone()).map_err(|e| Error::Decode { status: answer.status, message: e.to_string() })
            }
        });
    }
    if responses.iter().any(|r| r.body_kind() == BodyKind::Binary) {
        out.extend(quote! {
            /// A binary answer with the media type it came with.
            fn raw_answer(answer: &Answer) -> types::wire::RawBody {
                let content_type = answer.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
                types::wire::RawBody { content_type, bytes: answer.bytes.clone() }
            }
        });
    }
    out
}

/// `header` when some response header is required, and `optional_header` when any is declared.
fn header_readers(plan: &Plan, responses: &[&Response]) -> TokenStream {
    let headers: Vec<Field> = responses.iter().flat_map(|r| plan.header_fields(r)).collect();
    let mut out = TokenStream::new();
    if headers.iter().any(|f| !(f.may_be_absent() || f.nullable)) {
        out.extend(quote! {
            /// A header the answer must carry, read from its text.
            fn header<T: serde::de::DeserializeOwned>(answer: &Answer, name: &str) -> Result<T, Error> {
                optional_header(answer, name)?.ok_or_else(|| Error::Decode { status: answer.status, message: format!("the header {name} is missing") })
            }
        });
    }
    if !headers.is_empty() {
        out.extend(quote! {
            /// A header of the answer, read from its text: a string as it is, anything else as
            /// JSON (numbers, booleans).
            fn optional_header<T: serde::de::DeserializeOwned>(answer: &Answer, name: &str) -> Result<Option<T>, Error> {
                let Some(value) = answer.headers.get(name) else { return Ok(None) };
                let text = value.to_str().map_err(|_| Error::Decode { status: answer.status, message: format!("the header {name} is not text") })?;
                serde_json::from_value(serde_json::Value::String(text.to_owned()))
                    .or_else(|_| serde_json::from_str(text))
                    .map(Some)
                    .map_err(|e| Error::Decode { status: answer.status, message: format!("the header {name}: {e}") })
            }
        });
    }
    out
}

/// `text_of`, `with_pairs` and the multipart writer, each when some endpoint sends what it writes.
fn request_writers(plan: &Plan, routed: &[&Endpoint]) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let mut out = TokenStream::new();
    let texts = routed.iter().any(|e| !e.headers.is_empty() || list_query(e) || e.parts.iter().any(|f| f.ty.as_ref().is_some_and(|t| is_text(t.element()))));
    if texts {
        out.extend(quote! {
            /// The text of a value in a header, a query or a text part: a string as it is,
            /// anything else as JSON writes it.
            fn text_of<T: serde::Serialize>(value: &T) -> String {
                match serde_json::to_value(value) {
                    Ok(serde_json::Value::String(text)) => text,
                    Ok(other) => other.to_string(),
                    Err(e) => e.to_string(),
                }
            }
        });
    }
    if routed.iter().any(|e| e.query.iter().any(is_union)) {
        out.extend(quote! {
            /// The texts of a union query value: a list's items one by one, any other value's text.
            fn texts_of<T: serde::Serialize>(value: &T) -> Vec<String> {
                match serde_json::to_value(value) {
                    Ok(serde_json::Value::Array(items)) => items.iter().map(text_of).collect(),
                    _ => vec![text_of(value)],
                }
            }
        });
    }
    if routed.iter().any(|e| list_query(e)) {
        out.extend(quote! {
            /// `url` with the `pairs` appended as its query, when there are any.
            fn with_pairs(url: String, pairs: &[(&str, Vec<String>)]) -> String {
                let query = #runtime::form::query_text(pairs);
                if query.is_empty() { url } else { format!("{url}?{query}") }
            }
        });
    }
    let parts: Vec<&Field> = routed.iter().flat_map(|e| &e.parts).collect();
    if !parts.is_empty() {
        let text = |f: &&Field| f.ty.as_ref().is_some_and(|t| is_text(t.element()));
        let kinds = PartKinds {
            text: parts.iter().any(text),
            json: parts.iter().any(|f| !is_file_part(f) && !text(f)),
            files: parts.iter().copied().any(is_file_part),
        };
        out.extend(multipart_form(kinds));
    }
    out
}

/// Which kinds of part some endpoint writes.
struct PartKinds {
    text: bool,
    json: bool,
    files: bool,
}

/// The multipart writer, with a method for each kind of part some endpoint writes.
fn multipart_form(kinds: PartKinds) -> TokenStream {
    let text = kinds.text.then(|| {
        quote! {
            /// Adds a text part.
            fn text(&mut self, name: &str, text: String) {
                self.parts.push(FormPart { name: name.to_owned(), filename: None, content_type: None, bytes: text.into_bytes() });
            }
        }
    });
    let json = kinds.json.then(|| {
        quote! {
            /// Adds a JSON part.
            fn json<T: serde::Serialize>(&mut self, name: &str, content_type: &str, value: &T) -> Result<(), Error> {
                let bytes = serde_json::to_vec(value).map_err(|e| Error::Invalid(vec![Violation::new(format!("/body/{name}"), e.to_string())]))?;
                self.parts.push(FormPart { name: name.to_owned(), filename: None, content_type: Some(content_type.to_owned()), bytes });
                Ok(())
            }
        }
    });
    let files = kinds.files.then(|| {
        quote! {
            /// Adds a file part.
            fn file(&mut self, name: &str, file: &types::wire::FilePart) {
                self.parts.push(FormPart { name: name.to_owned(), filename: file.filename.clone(), content_type: Some(file.content_type.clone()), bytes: file.bytes.clone() });
            }
        }
    });
    quote! {
        /// A `multipart/form-data` body being written (RFC 7578).
        #[derive(Default)]
        struct MultipartForm {
            parts: Vec<FormPart>,
        }

        /// One part of a multipart body being written.
        struct FormPart {
            name: String,
            filename: Option<String>,
            content_type: Option<String>,
            bytes: Vec<u8>,
        }

        impl MultipartForm {
            #text

            #json

            #files

            /// The body, with a boundary that occurs in no part.
            fn finish(self) -> Outgoing {
                let contains = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
                let mut boundary = String::from("platform-form-boundary");
                let mut n = 0;
                while self.parts.iter().any(|p| contains(&p.bytes, boundary.as_bytes())) {
                    n += 1;
                    boundary = format!("platform-form-boundary-{n}");
                }
                // Names are quoted strings: a quote, CR and LF are percent-encoded (WHATWG's
                // multipart/form-data encoding).
                let quoted = |s: &str| s.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A");
                let mut bytes = Vec::new();
                for part in &self.parts {
                    bytes.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{}\"", quoted(&part.name)).as_bytes());
                    if let Some(filename) = &part.filename {
                        bytes.extend_from_slice(format!("; filename=\"{}\"", quoted(filename)).as_bytes());
                    }
                    bytes.extend_from_slice(b"\r\n");
                    if let Some(content_type) = &part.content_type {
                        bytes.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
                    }
                    bytes.extend_from_slice(b"\r\n");
                    bytes.extend_from_slice(&part.bytes);
                    bytes.extend_from_slice(b"\r\n");
                }
                bytes.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
                Outgoing { content_type: format!("multipart/form-data; boundary={boundary}"), bytes }
            }
        }
    }
}
