//! The spec-independent half of a generated server: reading a request's path, query, headers
//! and body into typed values, and writing responses.
//!
//! Every reader reports a value it cannot read as a [`Violation`] at its JSON pointer and goes
//! on, so a request is answered with all of its faults at once; a failure that stops the
//! request is a [`Rejection`], which the generated server turns into the platform's error body.

use crate::validation::{Validate, Violation};
use axum::body::{Body, Bytes};
use axum::extract::RawPathParams;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;
use std::time::Duration;

/// Why a request cannot be answered by its handler, or a response not be sent as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// 400: values of the wrong type, or that break a constraint, each at its pointer.
    Invalid(Vec<Violation>),
    /// 400: a body that is not JSON at all.
    NotJson(Violation),
    /// 413: a body over the size limit, in bytes.
    TooLarge {
        /// The limit the body broke.
        limit: usize,
    },
    /// 408: the body did not all arrive in time.
    Timeout {
        /// How long the server waited.
        after: Duration,
    },
    /// 500: the implementation's answer breaks what the spec declares of it.
    Broken(String),
}

impl Rejection {
    /// The HTTP status the rejection is answered with.
    pub const fn status(&self) -> u16 {
        match self {
            Self::Invalid(_) | Self::NotJson(_) => 400,
            Self::TooLarge { .. } => 413,
            Self::Timeout { .. } => 408,
            Self::Broken(_) => 500,
        }
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid(violations) => write!(f, "{} invalid value(s)", violations.len()),
            Self::NotJson(violation) => write!(f, "the body is not JSON: {}", violation.message),
            Self::TooLarge { limit } => write!(f, "Request entity too large: the limit is {limit} bytes"),
            Self::Timeout { after } => write!(f, "Request timeout: the body did not arrive within {} ms", after.as_millis()),
            Self::Broken(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Rejection {}

/// A route of a generated router, served as a tower service (`axum::routing::get_service` and
/// the like): `handler` called with a clone of `state` and the request. axum boxes a service's
/// future alone, once per request; a handler function with extractors is boxed with the
/// extractors' future around it, and that box is boxed again as the route's service.
#[derive(Clone, Debug)]
pub struct Route<S, F> {
    state: S,
    handler: F,
}

impl<S, F> Route<S, F> {
    /// The route that answers each request with `handler(state.clone(), request)`.
    pub const fn new(state: S, handler: F) -> Self {
        Route { state, handler }
    }
}

impl<S, F, Answer> tower_service::Service<axum::extract::Request> for Route<S, F>
where
    S: Clone,
    F: Fn(S, axum::extract::Request) -> Answer,
    Answer: Future<Output = Result<Response, std::convert::Infallible>>,
{
    type Response = Response;
    type Error = std::convert::Infallible;
    type Future = Answer;

    fn poll_ready(&mut self, _: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: axum::extract::Request) -> Answer {
        (self.handler)(self.state.clone(), request)
    }
}

/// The path parameters, decoded.
pub fn path_params(params: Result<RawPathParams, axum::extract::rejection::RawPathParamsRejection>) -> Result<RawPathParams, Rejection> {
    params.map_err(|e| Rejection::Invalid(vec![Violation::new("/path", e.body_text())]))
}

/// A piece of a path segment that mixes placeholders and text (`{sid}.json`).
#[derive(Clone, Copy, Debug)]
pub enum Piece {
    /// Literal text.
    Text(&'static str),
    /// A placeholder.
    Param,
}

/// The placeholders' values of a segment the router matched whole (keyed `key`), split
/// by its `pieces`: `None` (the path names no route) when its text does not fit them or a
/// placeholder would be empty. A placeholder takes the text up to the first occurrence of
/// the text after it, the last one up to the segment's final text.
pub fn split_segment<'p>(params: &'p RawPathParams, key: &str, pieces: &[Piece]) -> Option<Vec<&'p str>> {
    let mut rest = params.text(key)?;
    let mut values = Vec::new();
    let mut pieces = pieces.iter().peekable();
    while let Some(piece) = pieces.next() {
        match (piece, pieces.peek()) {
            (Piece::Text(text), _) => rest = rest.strip_prefix(text)?,
            (Piece::Param, None) => {
                values.push(rest);
                rest = "";
            }
            (Piece::Param, Some(Piece::Text(next))) => {
                let end = if pieces.len() == 1 { rest.rfind(next)? } else { rest.find(next)? };
                values.push(&rest[..end]);
                rest = &rest[end..];
            }
            (Piece::Param, Some(Piece::Param)) => return None,
        }
    }
    (rest.is_empty() && values.iter().all(|v| !v.is_empty())).then_some(values)
}

/// One placeholder's value parsed with `parse`; a violation when unparsable.
pub fn segment_param<T>(text: &str, pointer: &str, out: &mut Vec<Violation>, parse: impl Fn(&str) -> Result<T, String>) -> Option<T> {
    parse(text).map_err(|e| out.push(Violation::new(pointer, e))).ok()
}

/// Named texts a parameter is looked up in: the path parameters, the query's pairs, the
/// headers' values.
pub trait Pairs {
    /// The text of the first pair named `name`.
    fn text(&self, name: &str) -> Option<&str>;
}

impl Pairs for RawPathParams {
    fn text(&self, name: &str) -> Option<&str> {
        self.iter().find_map(|(k, v)| (k == name).then_some(v))
    }
}

impl Pairs for Vec<(String, String)> {
    fn text(&self, name: &str) -> Option<&str> {
        self.iter().find_map(|(k, v)| (k == name).then_some(v.as_str()))
    }
}

/// The query parameters, decoded.
pub fn query_pairs(query: Option<&str>, out: &mut Vec<Violation>) -> Vec<(String, String)> {
    serde_urlencoded::from_str(query.unwrap_or_default()).unwrap_or_else(|e: serde_urlencoded::de::Error| {
        out.push(Violation::new("/query", e.to_string()));
        Vec::new()
    })
}

/// One parameter parsed with `parse`: `None` when absent (a violation when `required`)
/// or unparsable (a violation).
pub fn param<T>(
    pairs: &impl Pairs,
    name: &str,
    pointer: &str,
    required: bool,
    out: &mut Vec<Violation>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<T> {
    let Some(text) = pairs.text(name) else { return absent(pointer, required, out) };
    parse(text).map_err(|e| out.push(Violation::new(pointer, e))).ok()
}

/// Parses with `FromStr`, the error in words.
pub fn from_str<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| {
        let message = e.to_string();
        if message.contains(text) { message } else { format!("`{}`: {message}", text.chars().take(64).collect::<String>()) }
    })
}

/// Parses an integer parameter: digits, or, since JSON Schema counts any number with a zero
/// fraction as an integer (and clients that hold numbers as floats write them so), a number
/// with a zero fraction or an exponent (`7262.0`, `1e3`) whose value is a whole number in range.
pub fn integer<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr + TryFrom<i128>,
    T::Err: std::fmt::Display,
{
    from_str::<T>(text).or_else(|e| integral(text).and_then(|n| T::try_from(n).ok()).ok_or(e))
}

/// The whole number an integral decimal with a fraction or an exponent writes: exact for
/// `-?digits.0*`, through `f64` (exact below 2^53) for an exponent.
fn integral(text: &str) -> Option<i128> {
    if let Some((whole, fraction)) = text.split_once('.')
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b == b'0')
    {
        let digits = whole.strip_prefix('-').unwrap_or(whole);
        return (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| whole.parse().ok()).flatten();
    }
    if !text.bytes().any(|b| b == b'e' || b == b'E') {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && value.fract() == 0.0 && value.abs() < 9_007_199_254_740_992.0).then_some(value as i128)
}

/// Parses JSON text (for parameters whose type is not a plain scalar).
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Parses a parameter written as JSON, or as the text of a JSON string (the form
/// clients write a union of texts in: `/disks/my-disk`, not `/disks/"my-disk"`).
pub fn from_json_or_text<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).or_else(|e: serde_json::Error| serde_json::from_value(serde_json::Value::String(text.to_owned())).map_err(|_| e.to_string()))
}

/// Parses a union parameter: as JSON, or as the text of a JSON string, whichever reads as one of
/// its variants. A union is open on read, so the first reading that decodes may be an unknown
/// variant (`123` read as a number where the union holds a name or an id); the other reading
/// is tried before that one is kept, and the refusal is then the validation's.
pub fn from_json_or_text_known<T: DeserializeOwned + Validate>(text: &str) -> Result<T, String> {
    let as_json = || serde_json::from_str::<T>(text).map_err(|e| e.to_string());
    let as_text = || serde_json::from_value::<T>(serde_json::Value::String(text.to_owned())).map_err(|e| e.to_string());
    first_known([&as_json as &dyn Fn() -> _, &as_text])
}

/// A union query parameter: one value read by [`from_json_or_text_known`]; the name repeated
/// (`tag=1&tag=2`, how a list travels in a query) a list of its values, each a text or, where
/// that reads no variant, JSON. `None` when absent (a violation when `required`) or unreadable.
pub fn union_param<T: DeserializeOwned + Validate>(
    pairs: &[(String, String)],
    name: &str,
    pointer: &str,
    required: bool,
    out: &mut Vec<Violation>,
) -> Option<T> {
    let texts: Vec<&str> = pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
    let read = match texts[..] {
        [] => return absent(pointer, required, out),
        [one] => from_json_or_text_known(one),
        ref many => {
            let text = |t: &&str| serde_json::Value::String((*t).to_owned());
            let json = |t: &&str| serde_json::from_str(t).unwrap_or_else(|_| text(t));
            let list = |item: &dyn Fn(&&str) -> serde_json::Value| serde_json::Value::Array(many.iter().map(item).collect());
            let as_texts = || serde_json::from_value::<T>(list(&text)).map_err(|e| e.to_string());
            let as_json = || serde_json::from_value::<T>(list(&json)).map_err(|e| e.to_string());
            first_known([&as_texts as &dyn Fn() -> _, &as_json])
        }
    };
    read.map_err(|e| out.push(Violation::new(pointer, e))).ok()
}

/// The first of `readings` (tried in order, each only when those before it fall short) whose
/// value validates; else the first that decoded at all (a union is open on read: the value is
/// kept, and its validation reports it); else the first error.
fn first_known<T: Validate>(readings: [&dyn Fn() -> Result<T, String>; 2]) -> Result<T, String> {
    let mut kept: Option<Result<T, String>> = None;
    for read in readings {
        match read() {
            Ok(value) if value.validate().is_empty() => return Ok(value),
            Ok(value) if !matches!(kept, Some(Ok(_))) => kept = Some(Ok(value)),
            Err(e) if kept.is_none() => kept = Some(Err(e)),
            _ => {}
        }
    }
    kept.unwrap_or_else(|| Err("no reading".to_owned()))
}

/// An absent parameter: `None`, and a violation when it is `required`.
fn absent<T>(pointer: &str, required: bool, out: &mut Vec<Violation>) -> Option<T> {
    if required {
        out.push(Violation::new(pointer, "is required"));
    }
    None
}

/// The body bytes, refused beyond `limit` (by its declared length first, so an oversized
/// upload is answered before it is read) and when it has not all arrived within `timeout`.
///
/// The declared length is read before the future is made, so the future holds neither the
/// headers nor a second copy of its arguments, as an `async fn` would: it is part of the one
/// future every request with a body boxes, which glibc serves from its per-thread cache only up
/// to 1,032 bytes.
pub fn read_body(headers: &HeaderMap, body: Body, limit: usize, timeout: Duration) -> impl Future<Output = Result<Bytes, Rejection>> + Send + use<> {
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let too_large = declared.is_some_and(|n| n > u64::try_from(limit).unwrap_or(u64::MAX));
    async move {
        if too_large {
            return Err(Rejection::TooLarge { limit });
        }
        let Ok(read) = tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await else {
            return Err(Rejection::Timeout { after: timeout });
        };
        read.map_err(|e| {
            let source = e.into_inner();
            if source.downcast_ref::<http_body_util::LengthLimitError>().is_some() {
                Rejection::TooLarge { limit }
            } else {
                Rejection::Invalid(vec![Violation::new("/body", format!("the body could not be read: {source}"))])
            }
        })
    }
}

/// A JSON body: a syntax error refuses it ([`Rejection::NotJson`]); a value of the wrong
/// shape is a violation at its JSON pointer (under `/body`), gathered with the others.
///
/// A number with no fraction written as one (`5.0`) is the integer it equals, as JSON Schema
/// says: serde refuses it where an integer is declared (and a union of records, open on read,
/// would take the value as an unknown variant), so a body that writes a number with a fraction
/// or an exponent is read with such numbers made integers first. A body with none (a byte scan
/// finds a digit before `.`, `e` or `E`) pays nothing for it.
pub fn json_body<T: DeserializeOwned>(bytes: &[u8], out: &mut Vec<Violation>) -> Result<Option<T>, Rejection> {
    if written_with_fraction(bytes)
        && let Some(value) = with_integral_numbers(bytes)
        && let Ok(value) = serde_json::from_value(value)
    {
        return Ok(Some(value));
    }
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(Some(value)),
        Err(e) if e.is_data() => {
            let mut deserializer = serde_json::Deserializer::from_slice(bytes);
            let violation = match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
                Err(e) => Violation::new(pointer("/body", e.path()), e.inner().to_string()),
                Ok(_) => Violation::new("/body", e.to_string()),
            };
            out.push(violation);
            Ok(None)
        }
        Err(e) => Err(Rejection::NotJson(Violation::new("/body", e.to_string()))),
    }
}

/// The bytes of a JSON body whose every member may be left out: an empty body is the empty
/// object, since the document lets a client send none.
pub fn or_empty_object(bytes: &[u8]) -> &[u8] {
    if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { bytes }
}

/// Whether a digit stands before `.`, `e` or `E` somewhere in `bytes`: a number written with a
/// fraction or an exponent may be there (or a string holding such text, which costs a second
/// reading only).
fn written_with_fraction(bytes: &[u8]) -> bool {
    // One flag carried from byte to byte, not a window of two: every JSON body is scanned.
    let mut after_digit = false;
    for &b in bytes {
        if after_digit && matches!(b, b'.' | b'e' | b'E') {
            return true;
        }
        after_digit = b.is_ascii_digit();
    }
    false
}

/// The JSON of `bytes` with every number that is an integer written with a fraction (`5.0`,
/// `1e3`) made that integer; `None` when there is none (or the text is not JSON).
fn with_integral_numbers(bytes: &[u8]) -> Option<serde_json::Value> {
    let mut value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    integral_numbers(&mut value).then_some(value)
}

/// Makes integers of the integral floating-point numbers in `value`; whether it changed any.
fn integral_numbers(value: &mut serde_json::Value) -> bool {
    use serde_json::{Number, Value};
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            // Exactly representable: a float at or past 2^63 (or 2^64) is not an i64 (a u64).
            let integer = if f.fract() != 0.0 || !f.is_finite() {
                None
            } else if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
                Some(Number::from(f as u64))
            } else if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
                Some(Number::from(f as i64))
            } else {
                None
            };
            integer.map(|i| *n = i).is_some()
        }
        Value::Array(items) => items.iter_mut().fold(false, |changed, v| integral_numbers(v) | changed),
        Value::Object(members) => members.values_mut().fold(false, |changed, v| integral_numbers(v) | changed),
        _ => false,
    }
}

/// A body the endpoint may go without: an empty one is absent, any other is read by
/// `read` (the JSON or form reader of its format).
pub fn optional_body<T, E>(bytes: &[u8], read: impl FnOnce(&[u8]) -> Result<Option<T>, E>) -> Result<Option<Option<T>>, E> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Some(None));
    }
    read(bytes).map(|value| value.map(Some))
}

/// A form body (`application/x-www-form-urlencoded`); `lists` names its required list members,
/// which a form writes no pair for when empty.
pub fn form_body<T: DeserializeOwned>(bytes: &[u8], lists: &[&str], out: &mut Vec<Violation>) -> Option<T> {
    crate::form::from_bytes_with_lists(bytes, lists).map_err(|e| out.push(Violation::new("/body", e))).ok()
}

/// A body passed through unparsed, with its media type.
pub fn raw_body(headers: &HeaderMap, bytes: Bytes) -> crate::wire::RawBody {
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    crate::wire::RawBody { content_type, bytes: bytes.to_vec() }
}

/// A serde path as a JSON pointer under `root`.
pub(crate) fn pointer(root: &str, path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    path.iter().fold(root.to_owned(), |p, segment| match segment {
        Segment::Seq { index } => crate::validation::child(&p, &index.to_string()),
        Segment::Map { key } => crate::validation::child(&p, key),
        Segment::Enum { variant } => crate::validation::child(&p, variant),
        Segment::Unknown => p,
    })
}

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

/// Every value of a list parameter, parsed with `parse`: the values of every `name=` pair,
/// or of one comma-separated value when `comma`. `None` when absent (a violation when
/// `required`) or when a value does not parse (a violation at its index).
pub fn param_list<T>(
    pairs: &[(String, String)],
    name: &str,
    pointer: &str,
    required: bool,
    out: &mut Vec<Violation>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<Vec<T>> {
    let texts: Vec<&str> = pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
    list_items(&texts, pointer, required, out, parse)
}

/// Every value of a comma-separated query list (`style: comma`, OpenAPI's `explode: false`),
/// from the raw query: it is split on the commas the query itself writes before it is decoded,
/// so a comma inside a value (sent as `%2C`) stays in that value. Several pairs of the name
/// are one list.
pub fn comma_list<T>(
    query: Option<&str>,
    name: &str,
    pointer: &str,
    required: bool,
    out: &mut Vec<Violation>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<Vec<T>> {
    let decode = |raw: &str| percent_encoding::percent_decode_str(&raw.replace('+', " ")).decode_utf8().map(|t| t.into_owned());
    let (mut texts, before) = (Vec::new(), out.len());
    for (key, value) in query.unwrap_or_default().split('&').filter_map(|pair| pair.split_once('=')) {
        if decode(key).is_ok_and(|k| k == name) {
            for item in value.split(',') {
                match decode(item) {
                    Ok(text) => texts.push(text),
                    Err(_) => out.push(Violation::new(pointer, "is not UTF-8 text once decoded")),
                }
            }
        }
    }
    if out.len() > before {
        return None;
    }
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    list_items(&texts, pointer, required, out, parse)
}

/// The items of a list parameter parsed with `parse`, each violation at its index.
fn list_items<T>(texts: &[&str], pointer: &str, required: bool, out: &mut Vec<Violation>, parse: impl Fn(&str) -> Result<T, String>) -> Option<Vec<T>> {
    if texts.is_empty() {
        return absent(pointer, required, out);
    }
    let before = out.len();
    let values: Vec<T> =
        texts.iter().enumerate().filter_map(|(index, text)| parse(text).map_err(|e| out.push(Violation::new(format!("{pointer}/{index}"), e))).ok()).collect();
    (out.len() == before).then_some(values)
}

/// Every value of a list header, parsed with `parse`: comma-separated, in one header line or
/// several, each item without the spaces around it; empty items are ignored, as RFC 9110
/// §5.6.1 asks, so an empty line is the empty list. `None` when absent (a violation when
/// `required`) or when an item does not parse (a violation at its index).
pub fn header_list<T>(
    pairs: &[(String, String)],
    name: &str,
    pointer: &str,
    required: bool,
    out: &mut Vec<Violation>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<Vec<T>> {
    let lines: Vec<&str> = pairs.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect();
    if lines.is_empty() {
        return absent(pointer, required, out);
    }
    let items = lines.iter().flat_map(|line| line.split(',')).map(str::trim).filter(|item| !item.is_empty());
    let before = out.len();
    let values: Vec<T> =
        items.enumerate().filter_map(|(index, text)| parse(text).map_err(|e| out.push(Violation::new(format!("{pointer}/{index}"), e))).ok()).collect();
    (out.len() == before).then_some(values)
}

/// The media type of the body, in lower case without parameters; `None` without a
/// `Content-Type` header.
pub fn media_type(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    Some(value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
}

/// The status code of a declared status (validated: 100 through 599).
pub fn status_code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The status of a variant for a range, checked: a status outside the declared range is
/// the implementation's mistake, answered with 500.
pub fn in_range(status: u16, low: u16, high: u16) -> Result<u16, Rejection> {
    if (low..=high).contains(&status) {
        Ok(status)
    } else {
        Err(Rejection::Broken(format!("the implementation answered {status}, outside the declared {low}..={high}")))
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
pub fn raw_response(status: u16, body: crate::wire::RawBody, declared: &str) -> Response {
    let content_type = if body.content_type.is_empty() { declared.to_owned() } else { body.content_type };
    bytes_response(status, &content_type, body.bytes)
}

/// A response whose body is the messages of `events` as `media_type`, written as each comes:
/// the client reads them as they arrive, and no proxy should hold them back (`Cache-Control:
/// no-cache`). An event that breaks the stream drops the connection without its end, so the
/// client knows it broke.
#[cfg(feature = "stream")]
pub fn stream_response<E: Send + 'static>(
    status: u16,
    media_type: &'static str,
    framing: crate::stream::Framing,
    events: crate::stream::Events<E>,
    codec: crate::stream::Codec<E>,
) -> Response {
    let mut response = Response::new(Body::from_stream(events.encoded(framing, codec)));
    *response.status_mut() = status_code(status);
    let headers = response.headers_mut();
    // A media type no header can carry is the framing's own.
    let media_type = axum::http::HeaderValue::from_str(media_type).unwrap_or(axum::http::HeaderValue::from_static(framing.media_type()));
    headers.insert(header::CONTENT_TYPE, media_type);
    headers.insert(header::CACHE_CONTROL, axum::http::HeaderValue::from_static("no-cache"));
    response
}

/// Adds a header whose value is the text of `value`: a string as it is, a number or a
/// boolean as JSON writes it. A value that cannot be a header is the implementation's
/// mistake, answered with 500.
pub fn set_header<T: Serialize>(response: &mut Response, name: &'static str, value: &T) -> Result<(), Rejection> {
    let text = match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => text,
        Ok(other) => other.to_string(),
        Err(e) => e.to_string(),
    };
    let value = axum::http::HeaderValue::from_str(&text).map_err(|_| Rejection::Broken(format!("the header {name} cannot carry {text:?}")))?;
    response.headers_mut().insert(name, value);
    Ok(())
}
