//! Rules about the HTTP shape of endpoints: responses per status, headers, auth and scopes, body
//! formats, multipart parts and array styles.

use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::types::Primitive;
use crate::model::*;
use std::collections::BTreeMap;

/// Response keys are statuses: a code 100 through 599, a range `1XX` through `5XX`, or
/// `default`. `4XX` and `4xx` are one status, so one of them is a repeat. A routed endpoint's
/// statuses are final ones: an informational `1XX` is no answer a handler can give.
pub fn check_response_statuses(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        let mut seen: BTreeMap<Status, Span> = BTreeMap::new();
        for r in &e.responses {
            let Some(status) = r.status() else {
                cx.push(
                    Diagnostic::error(codes::INVALID_STATUS, format!("`{}` is not a response status", r.status.id))
                        .at(r.status.span, "not a status")
                        .help("a status is a code from 100 through 599, a range `1XX` through `5XX`, or `default`"),
                );
                continue;
            };
            let informational = matches!(status, Status::Code(100..=199) | Status::Range(1));
            if informational && e.is_routed() {
                cx.push(
                    Diagnostic::error(codes::INVALID_STATUS, format!("endpoint `{}` answers with the informational status `{status}`", e.meta.id))
                        .at(r.status.span, "no final answer")
                        .note("a handler answers with a final status (200 through 599); `101 Switching Protocols` hands the connection to another protocol, which the generated server and client do not speak")
                        .help("leave the status out, or the endpoint's `method` (an endpoint without one is documented and not routed)"),
                );
            }
            match seen.get(&status) {
                Some(first) => cx.push(
                    Diagnostic::error(codes::INVALID_STATUS, format!("endpoint `{}` declares status `{status}` twice", e.meta.id))
                        .at(r.status.span, "declared again here")
                        .also(*first, "first declared here")
                        .help("merge the two responses into one"),
                ),
                None => {
                    seen.insert(status, r.status.span);
                }
            }
        }
    }
}

/// An endpoint says what it answers one way: the single-response shorthand (`response`,
/// `response_fields`, `response_format`, a 200) or `responses` by status, never both.
pub fn check_response_shorthand(cx: &mut Diagnostics, model: &Model) {
    for e in model.endpoints.iter().filter(|e| e.has_status_responses()) {
        if let Some(span) = e.shorthand_span {
            cx.push(
                Diagnostic::error(codes::RESPONSE_SHORTHAND_MIX, format!("endpoint `{}` gives both `responses` and the single-response shorthand", e.meta.id))
                    .at(span, "shorthand here")
                    .also(e.responses[0].status.span, "responses by status here")
                    .help("move the shorthand's body under `responses:` as `200: { type: ... }` (or `fields:`)"),
            );
        }
    }
}

/// Informational responses, `204 No Content` and `304 Not Modified` never carry a body
/// (RFC 9110 §15), so a response declared for them has none.
pub fn check_bodiless_statuses(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        for r in &e.responses {
            let (Some(status), Some(response)) = (r.status(), model.response_of(&r.response)) else { continue };
            if !status.allows_body() && response.body_kind() != BodyKind::Empty {
                let mut d = Diagnostic::error(codes::BODY_ON_BODILESS_STATUS, format!("a `{status}` response of `{}` has a body", e.meta.id))
                    .at(r.status.span, format!("`{status}` never carries a body"))
                    .help("remove the body (`{}`), or answer with a status that carries one (`200`)");
                if let ResponseUse::Named(id) = &r.response {
                    d = d.also(id.span, "the named response with a body");
                }
                cx.push(d);
            }
        }
    }
}

/// A response's body is given once (`type` or `fields`) and fits its format: `fields` are a
/// JSON object, `csv` and `text` bodies are text (`csv` or `string`), a `binary` body is bytes
/// (`file`), `json` needs a body and `none` has none.
pub fn check_response_bodies(cx: &mut Diagnostics, model: &Model) {
    for r in model.all_responses() {
        let at = r.type_span.or(r.format_span).unwrap_or(r.span);
        let mut report = |message: String, help: &str| {
            cx.push(Diagnostic::error(codes::RESPONSE_BODY, message).at(at, "this response").help(help.to_owned()));
        };
        let text = |t: &TypeRef| matches!(t, TypeRef::Primitive(Primitive::Csv | Primitive::String));
        let explicit = r.format_span.is_some();
        match (r.format.as_str(), &r.ty, r.fields.is_empty()) {
            (_, Some(_), false) => {
                report("a response gives both `type` and `fields`".into(), "keep `type` for a whole body, or `fields` for an object of named fields")
            }
            ("json", None, true) if explicit => {
                report("a `json` response has no body".into(), "give `type` or `fields`, or remove `format` for a response without a body")
            }
            ("csv" | "text" | "binary" | "events" | "json_lines" | "none", _, false) => {
                report(format!("a `{}` response cannot have `fields`", r.format), "`fields` make a JSON object: remove `format`, or `fields`")
            }
            ("csv" | "text", Some(t), _) if !text(t) => {
                report(format!("a `{}` response is text, not `{t}`", r.format), "write `type: string` (or `csv`), or omit `type`")
            }
            ("binary", Some(t), _) if *t != TypeRef::Primitive(Primitive::File) => {
                report(format!("a `binary` response is bytes, not `{t}`"), "write `type: file`, or omit `type`")
            }
            ("none", Some(_), _) => report("a response with format `none` has a body".into(), "remove `type`, or `format: none`"),
            _ => {}
        }
    }
}

/// Every header travels as one value of text: its type is a scalar (a primitive other than
/// `file`, `csv` and `json`, an enum or a flag set), never an object. A request header may be
/// a list of scalars, sent comma-separated (RFC 9110 §5.6.1); a response header is one value.
pub fn check_header_types(cx: &mut Diagnostics, model: &Model) {
    let scalar = |ty: &TypeRef| match ty {
        TypeRef::Primitive(p) => !matches!(p, Primitive::File | Primitive::Csv | Primitive::Json),
        TypeRef::Enum(_) | TypeRef::Flags(_) => true,
        _ => false,
    };
    let request: Vec<&Field> = model.endpoints.iter().flat_map(|e| &e.headers).collect();
    for f in all_headers(model) {
        let Some(ty) = &f.ty else { continue };
        let is_request = request.iter().any(|r| std::ptr::eq(*r, f));
        let fits = scalar(ty) || (is_request && matches!(ty, TypeRef::Array(item) if scalar(item)));
        if !fits {
            cx.push(
                Diagnostic::error(codes::HEADER_TYPE, format!("header `{}` has type `{ty}`", f.wire()))
                    .at(f.type_span, "not one scalar value")
                    .help("a header carries one value of text: a string, number, boolean, snowflake, timestamp, URL, enum or flag set (a request header also a list of them)"),
            );
        }
    }
}

/// A parameter (path, query, header) or a multipart part is text on the wire: it can be absent
/// but never `null`, so `nullable` (or a `null` type) there states something no request can say.
pub fn check_null_parameters(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        let lists = [(&e.path_params, "path parameter"), (&e.query, "query parameter"), (&e.headers, "header parameter"), (&e.parts, "multipart part")];
        for (list, what) in lists {
            for f in list {
                let null_type = matches!(f.ty, Some(TypeRef::Primitive(Primitive::Null)));
                let span = match (f.nullable_span, null_type) {
                    (Some(span), _) => span,
                    (None, true) => f.type_span,
                    (None, false) => continue,
                };
                cx.push(
                    Diagnostic::error(codes::NULL_PARAMETER, format!("{what} `{}` of `{}` may be `null`", f.name, e.meta.id))
                        .at(span, "a parameter is text on the wire and cannot be null")
                        .help("remove `nullable` (or the `null` type); `optional: true` says the parameter may be left out"),
                );
            }
        }
    }
}

/// Every header field in the model: request header parameters, named headers and inline
/// response headers.
fn all_headers(model: &Model) -> Vec<&Field> {
    let mut out: Vec<&Field> = model.endpoints.iter().flat_map(|e| &e.headers).collect();
    out.extend(&model.headers);
    for r in model.all_responses() {
        out.extend(r.headers.iter().filter_map(|h| match &h.header {
            HeaderUse::Inline(f) => Some(&**f),
            HeaderUse::Named(_) => None,
        }));
    }
    out
}

/// Headers the generated code writes itself: a request's credential and body encoding, and
/// the framing of every message.
const OWNED_HEADERS: &[&str] = &["authorization", "content-type", "content-length", "transfer-encoding", "connection", "host"];

/// A header name is an HTTP token (RFC 9110 §5.1), is not one the generated code owns
/// (`Authorization`, `Content-Type`, ...), and appears once per request or response: header
/// names compare without regard to case, so `X-Id` and `x-id` are one header.
pub fn check_header_names(cx: &mut Diagnostics, model: &Model) {
    let check_list = |cx: &mut Diagnostics, list: Vec<(String, Span)>| {
        let mut seen: BTreeMap<String, Span> = BTreeMap::new();
        for (name, span) in list {
            let token = is_token(&name);
            let lower = name.to_ascii_lowercase();
            if !token {
                cx.push(
                    Diagnostic::error(codes::HEADER_NAME, format!("`{name}` is not an HTTP header name"))
                        .at(span, "not a token")
                        .help("header names are letters, digits and `!#$%&'*+-.^_`|~`; give `wire_name: X-Example`"),
                );
            } else if OWNED_HEADERS.contains(&lower.as_str()) {
                cx.push(
                    Diagnostic::error(codes::HEADER_NAME, format!("header `{name}` is written by the generated code"))
                        .at(span, "owned by the generator")
                        .help("credentials come from `auth`, the body's media type from its format; remove this header"),
                );
            } else if let Some(first) = seen.get(&lower) {
                cx.push(
                    Diagnostic::error(codes::HEADER_NAME, format!("header `{name}` is declared twice"))
                        .at(span, "declared again here")
                        .also(*first, "first declared here")
                        .help("header names compare without regard to case; keep one"),
                );
            } else {
                seen.insert(lower, span);
            }
        }
    };
    for e in &model.endpoints {
        check_list(cx, e.headers.iter().map(|f| (f.wire().to_owned(), f.span)).collect());
    }
    for r in model.all_responses() {
        let list = r.headers.iter().filter_map(|h| model.header_field(h).map(|f| (f.wire().to_owned(), h.span))).collect();
        check_list(cx, list);
    }
}

/// An endpoint that accepts anonymous calls (`auth: [none, ...]`) may be called by no one: a
/// permission rule, or a check whose value is asked of the implementation for the caller
/// (`required_when`, a bound read from another endpoint), has nobody to ask about.
pub fn check_anonymous_endpoints(cx: &mut Diagnostics, model: &Model) {
    for e in model.endpoints.iter().filter(|e| e.accepts_anonymous()) {
        let none = e.auth.iter().find(|a| a.id == ANONYMOUS).expect("BUG: filtered on `none`");
        if let Some(rule) = model.rules_for(&e.meta.id).first() {
            cx.push(
                Diagnostic::error(
                    codes::ANONYMOUS_NEEDS_CALLER,
                    format!("endpoint `{}` accepts anonymous calls but is guarded by permission rule `{}`", e.meta.id, rule.meta.id),
                )
                .at(none.span, "anonymous calls accepted here")
                .also(rule.meta.id_span, "the rule needs a caller")
                .help("remove `none` from `auth`, or the endpoint from the rule"),
            );
        }
        let inputs = e.path_params.iter().chain(&e.query).chain(&e.headers).chain(&e.body).chain(&e.body_schema);
        for f in inputs {
            let runtime_bound = f.constraints.all().into_iter().any(|(_, b)| matches!(b, Bound::Field { .. }));
            if f.required_when.is_some() || runtime_bound {
                cx.push(
                    Diagnostic::error(
                        codes::ANONYMOUS_NEEDS_CALLER,
                        format!("endpoint `{}` accepts anonymous calls but `{}` is checked for the caller", e.meta.id, f.name),
                    )
                    .at(f.span, "checked against the caller")
                    .also(none.span, "anonymous calls accepted here")
                    .help("remove `none` from `auth`, or the caller-dependent check"),
                );
            }
        }
    }
}

/// `none` in `auth` means "no credential"; a token kind with that id would make it ambiguous.
pub fn check_reserved_token_kind(cx: &mut Diagnostics, model: &Model) {
    for t in model.token_kinds.iter().filter(|t| t.meta.id == ANONYMOUS) {
        cx.push(
            Diagnostic::error(codes::RESERVED_TOKEN_KIND, format!("a token kind cannot be named `{ANONYMOUS}`"))
                .at(t.meta.id_span, "reserved")
                .help(format!("`{ANONYMOUS}` in an endpoint's `auth` accepts anonymous calls; rename the token kind")),
        );
    }
}

/// Scopes are granted to OAuth2 access tokens, so an endpoint that requires scopes accepts a
/// token kind with the `Bearer` scheme (other kinds, such as bot tokens, are not scoped).
pub fn check_endpoint_scopes(cx: &mut Diagnostics, model: &Model) {
    for e in model.endpoints.iter().filter(|e| !e.scopes.is_empty()) {
        if !model.accepted_kinds(e).into_iter().any(TokenKind::carries_scopes) {
            cx.push(
                Diagnostic::error(codes::SCOPES_WITHOUT_BEARER, format!("endpoint `{}` requires scopes but accepts no bearer token", e.meta.id))
                    .at(e.scopes[0].span, "scopes required here")
                    .help("scopes are granted to OAuth2 access tokens: accept a token kind with `scheme: Bearer` in `auth`"),
            );
        }
    }
}

/// `style` says how an array travels, so it sits on an array, where one can travel two ways: a
/// query parameter (`repeated`: `?id=1&id=2`, or `comma`: `?id=1,2`) or a multipart part
/// (`repeated` names, or `indexed`: `files[0]`, `files[1]`, which needs `max_items` so the
/// names can be listed).
pub fn check_array_styles(cx: &mut Diagnostics, model: &Model) {
    let report = |cx: &mut Diagnostics, f: &Field, style: &Text, why: &str, help: &str| {
        cx.push(
            Diagnostic::error(codes::ARRAY_STYLE, format!("style `{}` of `{}` {why}", style.id, f.name)).at(style.span, "this style").help(help.to_owned()),
        );
    };
    // Query parameters and parts are checked where they sit; any other styled field is misplaced.
    let mut placed: Vec<&Field> = Vec::new();
    for e in &model.endpoints {
        for (list, allowed, place) in [(&e.query, ["repeated", "comma"], "query parameters"), (&e.parts, ["repeated", "indexed"], "multipart parts")] {
            for f in list {
                placed.push(f);
                let Some(style) = &f.style else { continue };
                if !matches!(f.ty, Some(TypeRef::Array(_))) {
                    report(cx, f, style, "is on a field that is not an array", "remove `style`, or make the type `array<...>`");
                } else if !allowed.contains(&style.id.as_str()) {
                    let help = format!("{place} use {}", allowed.map(|a| format!("`{a}`")).join(" or "));
                    report(cx, f, style, &format!("does not apply to {place}"), &help);
                } else if style.id == "indexed" && f.constraints.max_items.is_none() {
                    report(cx, f, style, "has no `max_items`", "give `max_items`, so the part names `name[0]` .. `name[n-1]` can be listed");
                }
            }
        }
    }
    for f in super::refs::all_fields(model) {
        if let Some(style) = &f.style
            && !placed.iter().any(|p| std::ptr::eq(*p, f))
        {
            report(cx, f, style, "is on a field that is not a query parameter or a multipart part", "remove `style`");
        }
    }
}

/// The body formats fit the body: each is listed once; `parts` describe a `multipart` body, so
/// they need `multipart` among the formats, and a `multipart` body beside other formats is
/// typed by `parts`; a `binary` body is bytes, not named fields; several formats share the
/// body's fields, so `json` and `form` among several need `body` (or `body_schema`).
pub fn check_body_formats(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        let mut report = |span: Span, message: String, help: &str| {
            cx.push(Diagnostic::error(codes::BODY_FORMATS, message).at(span, "in these formats").help(help.to_owned()));
        };
        let mut seen: Vec<&str> = Vec::new();
        for f in &e.body_formats {
            if seen.contains(&f.id.as_str()) {
                report(f.span, format!("body format `{}` of `{}` is listed twice", f.id, e.meta.id), "list each format once");
            }
            seen.push(&f.id);
        }
        let Some(span) = e.body_formats.first().map(|f| f.span) else {
            cx.push(
                Diagnostic::error(codes::BODY_FORMATS, format!("`body_format` of `{}` lists no format", e.meta.id))
                    .at(e.meta.span, "this endpoint")
                    .help("name a format, or leave `body_format` out for `json`"),
            );
            continue;
        };
        let several = e.body_formats.len() > 1;
        let fields = !e.body.is_empty() || e.body_schema.is_some();
        if !e.parts.is_empty() && !e.accepts_format("multipart") {
            report(span, format!("endpoint `{}` has `parts` but no `multipart` body format", e.meta.id), "add `multipart` to `body_format`");
        }
        if several && e.accepts_format("multipart") && e.parts.is_empty() {
            report(span, format!("the `multipart` body of `{}` has no `parts`", e.meta.id), "declare the parts under `parts:` (files, text and JSON parts)");
        }
        if e.body_formats.iter().all(|f| f.id == "binary") && fields {
            report(span, format!("the `binary` body of `{}` has named fields", e.meta.id), "a binary body is bytes: remove `body`, or choose `json`");
        }
        if several && e.body_formats.iter().any(|f| f.id == "json" || f.id == "form") && !fields {
            report(span, format!("endpoint `{}` accepts several body formats but declares no `body`", e.meta.id), "declare the body's fields under `body:`");
        }
        if e.accepts_format("form")
            && let Some((at, what)) = not_form_text(model, e)
        {
            cx.push(
                Diagnostic::error(codes::BODY_FORMATS, format!("the `form` body of `{}` has {what}, which a form cannot carry", e.meta.id))
                    .at(at, "not text in a form")
                    .also(span, "the formats")
                    .help("a form is name=value pairs: each member a scalar, an enum or a list of them (repeated names), or the body a map of texts; send the rest as `json` or `multipart`"),
            );
        }
        if let Some(m) = &e.body_media_type {
            let base = m.id.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
            let json = base == "application/json" || (base.starts_with("application/") && base.ends_with("+json"));
            if !e.accepts_format("json") || !json {
                cx.push(
                    Diagnostic::error(codes::MEDIA_TYPE, format!("`body_media_type` of `{}` is `{}`, not a media type of its JSON body", e.meta.id, m.id))
                        .at(m.span, "not a JSON media type of a `json` body")
                        .help("name a JSON media type (`application/json` or `application/<name>+json`) of an endpoint whose `body_format` has `json`"),
                );
            }
        }
    }
}

/// The first member of a `form` body a form cannot carry, with where it is declared: a form
/// is name=value pairs (`application/x-www-form-urlencoded`), so each member is a value with a
/// text form (a scalar, an enum, a flag set) or a list of them, sent as the name repeated; a
/// whole body is a resource of such members or a map of them. No standard writes an object or
/// a union in one (nor `null`: a member that may be null is left out, as a parameter is).
fn not_form_text(model: &Model, e: &Endpoint) -> Option<(Span, String)> {
    fn text(ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Primitive(p) => !matches!(p, Primitive::Json | Primitive::File | Primitive::Null),
            TypeRef::Enum(_) | TypeRef::Flags(_) => true,
            _ => false,
        }
    }
    let member = |f: &Field| match &f.ty {
        Some(TypeRef::Array(inner)) if text(inner) => None,
        Some(ty) if text(ty) => None,
        _ => Some((f.type_span, format!("member `{}` of type `{}`", f.name, f.ty.as_ref().map_or_else(|| "json".to_owned(), |t| t.to_string())))),
    };
    if let Some(whole) = &e.body_schema {
        return match &whole.ty {
            Some(TypeRef::Object(id)) => model.resource(id).and_then(|r| r.fields.iter().find_map(member)),
            Some(TypeRef::Map(key, value)) if text(key) && text(value) => None,
            other => Some((whole.type_span, format!("a whole body of type `{}`", other.as_ref().map_or_else(|| "json".to_owned(), |t| t.to_string())))),
        };
    }
    e.body.iter().find_map(member)
}

/// Media types are `type/subtype` (either may be `*` in a part's accepted type), and
/// `content_type` says what a multipart part carries, so it sits on parts only.
pub fn check_media_types(cx: &mut Diagnostics, model: &Model) {
    let valid = |m: &str| {
        let token = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+*".contains(c));
        m.split_once('/').is_some_and(|(a, b)| token(a) && token(b.split(';').next().unwrap_or_default().trim()))
    };
    let bad = |cx: &mut Diagnostics, m: &Text| {
        cx.push(
            Diagnostic::error(codes::MEDIA_TYPE, format!("`{}` is not a media type", m.id))
                .at(m.span, "expected `type/subtype`")
                .help("write a media type such as `image/png`, `image/*` or `application/json`"),
        );
    };
    let mut parts: Vec<&Field> = Vec::new();
    for e in &model.endpoints {
        for f in &e.parts {
            parts.push(f);
            if let Some(m) = f.content_type.as_ref().filter(|m| !valid(&m.id)) {
                bad(cx, m);
            }
        }
    }
    for r in model.all_responses() {
        if let Some(m) = r.media_type.as_ref().filter(|m| !valid(&m.id)) {
            bad(cx, m);
        }
    }
    for f in super::refs::all_fields(model) {
        if let Some(m) = &f.content_type
            && !parts.iter().any(|p| std::ptr::eq(*p, f))
        {
            cx.push(
                Diagnostic::error(codes::MEDIA_TYPE, format!("`content_type` on `{}`, which is not a multipart part", f.name))
                    .at(m.span, "only parts have a content type")
                    .help("move the field under the endpoint's `parts:`, or remove `content_type`"),
            );
        }
    }
}

/// A pagination resolves: one way to the next page, its query parameters and the answer's
/// members exist, the items are a list, and a cursor or key is of its parameter's type (the
/// next request carries it as it came).
pub fn check_pagination(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        if let Some(Err(err)) = model.paging(e) {
            cx.push(Diagnostic::error(codes::PAGINATION, err.message).at(err.span, "this pagination").help(err.help));
        }
    }
}

/// Rate limits name what exists: exempt endpoints, major parameters that are some routed path's
/// placeholders, a global limit of at least one call in a positive window, header names that
/// are HTTP tokens.
pub fn check_rate_limits(cx: &mut Diagnostics, model: &Model) {
    let Some(r) = &model.rate_limits else { return };
    for e in &r.exempt {
        if model.endpoint(&e.id).is_none() {
            cx.push(
                Diagnostic::error(codes::RATE_LIMITS, format!("the exempt endpoint `{}` is no endpoint", e.id))
                    .at(e.span, "no endpoint has this id")
                    .suggest(&e.id, model.endpoints.iter().map(|x| x.meta.id.as_str()))
                    .help("name an endpoint the global limit does not count"),
            );
        }
    }
    for p in &r.major_params {
        if !model.routed_endpoints().any(|e| e.path_placeholders().contains(&p.id.as_str())) {
            cx.push(
                Diagnostic::error(codes::RATE_LIMITS, format!("the major parameter `{}` is in no path", p.id))
                    .at(p.span, "no routed path has this placeholder")
                    .help("name a path parameter whose values the platform counts apart (`channel_id`)"),
            );
        }
    }
    if let Some(g) = &r.global
        && (g.requests == 0 || !(g.per_seconds.is_finite() && g.per_seconds > 0.0))
    {
        cx.push(
            Diagnostic::error(codes::RATE_LIMITS, "the global limit allows no call".to_owned())
                .at(g.span, "this limit")
                .help("give `requests` of at least 1 and `per_seconds` greater than 0"),
        );
    }
    for (role, h) in &r.headers {
        if h.id.is_empty() || !h.id.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)) {
            cx.push(
                Diagnostic::error(codes::RATE_LIMITS, format!("the `{role}` header `{}` is no HTTP header name", h.id))
                    .at(h.span, "not a header name")
                    .help("a header name is letters, digits and `-` (RFC 9110 §5.1)"),
            );
        }
    }
}

/// An idempotency key names a header parameter of its endpoint, of type `string`: the client
/// writes a fresh key into it.
pub fn check_idempotency_keys(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        let Some(key) = &e.idempotency_key else { continue };
        match e.idempotency_header() {
            None => cx.push(
                Diagnostic::error(codes::IDEMPOTENCY_KEY, format!("`{}` is not a header parameter of `{}`", key.id, e.meta.id))
                    .at(key.span, "no header parameter has this name")
                    .suggest(&key.id, e.headers.iter().map(|h| h.name.as_str()))
                    .help("declare the header under `headers` (`idempotency_key: { wire_name: Idempotency-Key, type: string, optional: true }`)"),
            ),
            Some(h) if h.ty != Some(TypeRef::Primitive(Primitive::String)) => cx.push(
                Diagnostic::error(codes::IDEMPOTENCY_KEY, format!("the idempotency key `{}` of `{}` is not a string", key.id, e.meta.id))
                    .at(key.span, "this key")
                    .help("give the header `type: string`: clients write a fresh UUID into it"),
            ),
            Some(_) => {}
        }
    }
}

/// A retry policy tries at least once, waits a positive, finite number of seconds, no longer
/// at most than at first, and tries again only after error statuses (400 through 599).
pub fn check_retry_policy(cx: &mut Diagnostics, model: &Model) {
    let policies = model.retry.iter().map(|r| ("the retry policy".to_owned(), r));
    let hooks = model.webhooks.iter().filter_map(|w| Some((format!("the retry policy of webhook `{}`", w.meta.id), w.retry.as_ref()?)));
    for (what, r) in policies.chain(hooks) {
        for p in retry_problems(r) {
            cx.push(Diagnostic::error(codes::RETRY_POLICY, format!("{what}: {p}")).at(r.span, "this policy").help("see `retry` in docs/spec-format.md"));
        }
    }
}

/// What makes a retry policy one no client can follow.
fn retry_problems(r: &RetryPolicy) -> Vec<String> {
    let mut problems = Vec::new();
    if r.attempts == Some(0) {
        problems.push("`attempts` is 0: a call is tried at least once".to_owned());
    }
    for (key, value) in [("initial_seconds", r.initial_seconds), ("max_seconds", r.max_seconds)] {
        if value.is_some_and(|v| !(v.is_finite() && v > 0.0)) {
            problems.push(format!("`{key}` is not a positive number of seconds"));
        }
    }
    if let (Some(first), Some(max)) = (r.initial_seconds, r.max_seconds)
        && max < first
    {
        problems.push(format!("`max_seconds` ({max}) is shorter than `initial_seconds` ({first})"));
    }
    for code in r.statuses.iter().chain(&r.idempotent_statuses).flatten() {
        if !(400..=599).contains(code) {
            problems.push(format!("`{code}` is no error status"));
        }
    }
    if let Some(h) = &r.advice_header
        && !is_token(&h.id)
    {
        problems.push(format!("the advice header `{}` is no HTTP header name", h.id));
    }
    problems
}

/// Whether `name` is an HTTP token (a header name).
pub(crate) fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// A streamed response says what its messages are: `json_lines` one `type`, `events` one `type`
/// or `events` by name (not both); an event name is a line of text SSE can carry; a message's
/// data is JSON or text, never a file.
pub fn check_streams(cx: &mut Diagnostics, model: &Model) {
    for r in model.all_responses() {
        let at = r.type_span.or(r.format_span).unwrap_or(r.span);
        let mut report = |span: Span, message: String, help: &str| {
            cx.push(Diagnostic::error(codes::STREAM, message).at(span, "this stream").help(help.to_owned()));
        };
        match (r.framing(), r.ty.is_some(), r.events.is_empty()) {
            (None, _, false) => report(
                r.events[0].span,
                format!("a `{}` response has `events`", r.format),
                "`events` name the messages of a stream of server-sent events: write `format: events`",
            ),
            (Some(Framing::JsonLines), _, false) => {
                report(at, "a `json_lines` stream has `events`".into(), "JSON Lines messages have no name: give one `type`, or write `format: events`")
            }
            (Some(_), true, false) => {
                report(at, "a stream gives both `type` and `events`".into(), "keep `type` for one type of message, or `events` for messages by name")
            }
            (Some(Framing::JsonLines), false, true) => report(at, "a `json_lines` stream has no `type`".into(), "give the type of each line: `type: note`"),
            (Some(Framing::Events), false, true) => report(
                at,
                "an `events` stream says nothing of its messages".into(),
                "give the type of every message's data (`type: note`), or the type of each event by name (`events: { created: note }`)",
            ),
            _ => {}
        }
        let types = r.ty.iter().map(|t| (t, at)).chain(r.events.iter().filter_map(|e| Some((e.ty.as_ref()?, e.type_span))));
        for (ty, span) in types.filter(|(t, _)| r.framing().is_some() && matches!(t, TypeRef::Primitive(Primitive::File | Primitive::Csv))) {
            report(span, format!("a message of a stream is JSON or text, not `{ty}`"), "give the message a JSON type, or `string` for text");
        }
        for e in &r.events {
            if e.name.is_empty() || e.name.contains(['\r', '\n']) {
                report(
                    e.span,
                    format!("the event name `{}` is not one line of text", e.name.escape_debug()),
                    "an SSE event name is the rest of its `event:` line",
                );
            }
        }
    }
}

/// An endpoint streams from one success status (a single code: the client decodes the stream
/// when that status comes back), and a `last_event_id` names one of its optional header
/// parameters of type `string`, beside an `events` stream.
pub fn check_stream_endpoints(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        let streams: Vec<&StatusResponse> =
            e.responses.iter().filter(|r| model.response_of(&r.response).is_some_and(|body| body.framing().is_some())).collect();
        for r in streams.iter().skip(1) {
            cx.push(
                Diagnostic::error(codes::STREAM, format!("`{}` streams from more than one status", e.meta.id))
                    .at(r.status.span, "a second stream")
                    .also(streams[0].status.span, "the first")
                    .help("an endpoint streams from one success status"),
            );
        }
        for r in &streams {
            let single = r.status().is_some_and(|s| matches!(s, Status::Code(c) if (200..300).contains(&c)));
            if !single {
                cx.push(
                    Diagnostic::error(codes::STREAM, format!("`{}` streams from `{}`", e.meta.id, r.status.id))
                        .at(r.status.span, "not one success status")
                        .help("stream from one 2xx status (`200`); errors are answers of their own"),
                );
            }
        }
        let Some(key) = &e.last_event_id else { continue };
        let framing = streams.first().and_then(|r| model.response_of(&r.response)).and_then(Response::framing);
        let problem = match (e.last_event_header(), framing) {
            (None, _) => Some(format!("`{}` is not a header parameter of `{}`", key.id, e.meta.id)),
            (Some(_), None | Some(Framing::JsonLines)) => Some(format!("`{}` has a last event id but no `events` stream", e.meta.id)),
            (Some(h), _) if h.ty != Some(TypeRef::Primitive(Primitive::String)) || !h.optional => {
                Some(format!("the last event id `{}` of `{}` is not an optional string", key.id, e.meta.id))
            }
            _ => None,
        };
        if let Some(message) = problem {
            let mut d = Diagnostic::error(codes::STREAM, message).at(key.span, "this last event id");
            if e.last_event_header().is_none() {
                d = d.suggest(&key.id, e.headers.iter().map(|h| h.name.as_str()));
            }
            cx.push(d.help(
                "declare an optional text header beside an `events` stream: `last_event_id: { wire_name: Last-Event-ID, type: string, optional: true }`",
            ));
        }
    }
}
