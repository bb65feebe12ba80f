//! The HTTP API: endpoints with their behaviours and responses, named responses and headers, and
//! the errors they return with the error body.

use super::{Field, Gap, Meta, Model, Ref, Text, TypeRef};
use crate::diag::Span;
use indexmap::IndexMap;
use serde::Serialize;
use serde::ser::SerializeMap;
use std::fmt;

/// An HTTP operation.
#[derive(Clone, Debug, Serialize)]
pub struct Endpoint {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Text>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub path_params: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub query: Vec<Field>,
    /// Request header parameters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub body: Vec<Field>,
    /// The body as a whole when it is not an object (named `body`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_schema: Option<Field>,
    /// The body's encodings, the first being the one clients send by default; one is written
    /// as a name, several as a list.
    #[serde(rename = "body_format", serialize_with = "one_or_many")]
    pub body_formats: Vec<Text>,
    /// The media type of the `json` format when it is not `application/json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_media_type: Option<Text>,
    /// The typed parts of a `multipart` body.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Field>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<TypeRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_fields: Vec<Field>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_max_items: Option<super::Bound>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_columns: Vec<Field>,
    /// The shorthand's response format; empty when the endpoint declares `responses`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub response_format: String,
    /// The responses by status, in spec order.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "status_map")]
    pub responses: Vec<StatusResponse>,
    /// Token kinds accepted, and `none` when anonymous calls are accepted.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub auth: Vec<Ref>,
    /// OAuth2 scopes a bearer token must hold.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub behaviours: Vec<Behaviour>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<RouteAlias>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
    /// The header parameter carrying an idempotency key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<Text>,
    /// The header parameter that carries the last event id when the `events` stream resumes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_event_id: Option<Text>,
    #[serde(skip)]
    pub response_span: Span,
    /// Where `response`, `response_fields` or `response_format` (the shorthand) was written.
    #[serde(skip)]
    pub shorthand_span: Option<Span>,
}

/// The word in `auth` that accepts anonymous calls.
pub const ANONYMOUS: &str = "none";

fn one_or_many<S: serde::Serializer>(list: &[Text], s: S) -> Result<S::Ok, S::Error> {
    match list {
        [one] => one.serialize(s),
        many => many.serialize(s),
    }
}

fn status_map<S: serde::Serializer>(list: &[StatusResponse], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(list.len()))?;
    for r in list {
        map.serialize_entry(&r.status.id, &r.response)?;
    }
    map.end()
}

impl Endpoint {
    /// Whether the endpoint gets a route (its method and path are both known).
    pub fn is_routed(&self) -> bool {
        self.method.is_some() && self.path.is_some()
    }

    /// The body format clients send by default (the first declared, `json` when none is).
    pub fn body_format(&self) -> &str {
        self.body_formats.first().map_or("json", |f| f.id.as_str())
    }

    /// The media type a JSON body travels as: `application/json` unless the spec names
    /// another JSON media type.
    pub fn json_media_type(&self) -> &str {
        self.body_media_type.as_ref().map_or("application/json", |m| m.id.as_str())
    }

    /// Whether the body may come in `format`.
    pub fn accepts_format(&self, format: &str) -> bool {
        self.body_formats.iter().any(|f| f.id == format)
    }

    /// Whether the endpoint accepts calls without a credential (`auth: [none, ...]`).
    pub fn accepts_anonymous(&self) -> bool {
        self.auth.iter().any(|a| a.id == ANONYMOUS)
    }

    /// The token kinds named in `auth` (without `none`).
    pub fn token_kinds(&self) -> impl Iterator<Item = &Ref> {
        self.auth.iter().filter(|a| a.id != ANONYMOUS)
    }

    /// Whether the endpoint declares its responses by status (rather than the shorthand).
    pub fn has_status_responses(&self) -> bool {
        !self.responses.is_empty()
    }

    /// The responses a call succeeds with: those below 400, or `default` when none is (a
    /// `default` alone stands for every answer, good or bad).
    pub fn success_responses(&self) -> Vec<&StatusResponse> {
        let below: Vec<&StatusResponse> = self.responses.iter().filter(|r| r.status().is_some_and(|s| !s.is_error())).collect();
        if !below.is_empty() {
            return below;
        }
        self.responses.iter().filter(|r| r.status() == Some(Status::Default)).collect()
    }

    /// The responses a call fails with: 4xx, 5xx and `default`.
    pub fn error_responses(&self) -> impl Iterator<Item = &StatusResponse> {
        self.responses.iter().filter(|r| r.status().is_some_and(Status::is_error))
    }

    /// The header parameter carrying the last event id of a resumable stream.
    pub fn last_event_header(&self) -> Option<&Field> {
        let name = &self.last_event_id.as_ref()?.id;
        self.headers.iter().find(|h| &h.name == name)
    }

    /// The header parameter carrying the endpoint's idempotency key.
    pub fn idempotency_header(&self) -> Option<&Field> {
        let name = &self.idempotency_key.as_ref()?.id;
        self.headers.iter().find(|h| &h.name == name)
    }

    /// The `{placeholder}` names of the path, in order.
    pub fn path_placeholders(&self) -> Vec<&str> {
        let Some(path) = &self.path else { return vec![] };
        path.id.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
    }
}

/// How the platform limits the rate of calls.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RateLimits {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The response headers by role (`limit`, `remaining`, `reset`, `reset_after`, `bucket`,
    /// `scope`, `global`): their HTTP names, in that order.
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "role_map")]
    pub headers: Vec<(&'static str, Text)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_member: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_member: Option<Text>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub major_params: Vec<Text>,
    /// The limit across every bucket: calls per window of seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global: Option<GlobalLimit>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "indexmap::IndexMap::is_empty")]
    pub assumed: indexmap::IndexMap<String, String>,
    #[serde(skip)]
    pub span: Span,
}

impl RateLimits {
    /// The HTTP name of the header of `role`.
    pub fn header(&self, role: &str) -> Option<&str> {
        self.headers.iter().find(|(r, _)| *r == role).map(|(_, h)| h.id.as_str())
    }
}

/// How clients try a failed call again; `None` where the spec leaves the runtime's default.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RetryPolicy {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statuses: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotent_statuses: Option<Vec<i64>>,
    /// The header of the server's advice: try again or not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice_header: Option<Text>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "indexmap::IndexMap::is_empty")]
    pub assumed: indexmap::IndexMap<String, String>,
    #[serde(skip)]
    pub span: Span,
}

/// A limit across every bucket.
#[derive(Clone, Debug, Serialize)]
pub struct GlobalLimit {
    pub requests: u32,
    pub per_seconds: f64,
    #[serde(skip)]
    pub span: Span,
}

fn role_map<S: serde::Serializer>(list: &[(&'static str, Text)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(list.len()))?;
    for (role, header) in list {
        map.serialize_entry(role, &header.id)?;
    }
    map.end()
}

/// How an endpoint pages through a collection.
#[derive(Clone, Debug, Serialize)]
pub struct Pagination {
    /// The ways written, of which validation wants exactly one.
    #[serde(flatten, serialize_with = "ways_map")]
    pub ways: Vec<PageWay>,
    /// The member of the success answer holding the items; `None` when the answer is the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Text>,
    /// The query parameter bounding a page's size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Text>,
    #[serde(skip)]
    pub span: Span,
}

impl Pagination {
    /// The way the next request is made (the first written; validation wants one).
    pub fn way(&self) -> Option<&PageWay> {
        self.ways.first()
    }
}

/// How the request for the next page is made.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageWay {
    /// The query parameter `param` carries the cursor the answer's member `from` names.
    Cursor { param: Text, from: Text },
    /// The query parameter `param` carries the member `item` of the last item.
    Keyset { param: Text, item: Text },
    /// The query parameter `param` counts the items before the page.
    Offset { param: Text },
    /// The query parameter `param` of the address the answer's `Link` header gives the next
    /// page (`rel="next"`), read from the header `header` of the success answer.
    Link { param: Text, header: Text },
}

impl PageWay {
    /// The name the format gives the way.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Cursor { .. } => "cursor",
            Self::Keyset { .. } => "keyset",
            Self::Offset { .. } => "offset",
            Self::Link { .. } => "link",
        }
    }

    /// The query parameter the way sets on the next request.
    pub fn param(&self) -> &Text {
        match self {
            Self::Cursor { param, .. } | Self::Keyset { param, .. } | Self::Offset { param } | Self::Link { param, .. } => param,
        }
    }
}

fn ways_map<S: serde::Serializer>(ways: &[PageWay], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(ways.len()))?;
    for w in ways {
        let value = serde_json::to_value(w).map_err(serde::ser::Error::custom)?;
        map.serialize_entry(w.name(), &value[w.name()])?;
    }
    map.end()
}

/// Another route of an endpoint.
#[derive(Clone, Debug, Serialize)]
pub struct RouteAlias {
    #[serde(flatten)]
    pub meta: Meta,
    pub path: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Text>,
}

impl RouteAlias {
    /// The `{placeholder}` names of the path, in order.
    pub fn path_placeholders(&self) -> Vec<&str> {
        self.path.id.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
    }
}

/// A behaviour of an operation.
#[derive(Clone, Debug, Serialize)]
pub struct Behaviour {
    #[serde(flatten)]
    pub meta: Meta,
    pub gate: bool,
}

/// An error.
#[derive(Clone, Debug, Serialize)]
pub struct Error {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oauth_error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    pub condition: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<Ref>,
    #[serde(skip)]
    pub code_span: Span,
    #[serde(skip)]
    pub status_span: Span,
}

/// The error body shape.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
}

/// One status of an endpoint and its response.
#[derive(Clone, Debug)]
pub struct StatusResponse {
    /// The status as written: `200`, `4XX`, `default`.
    pub status: Text,
    pub response: ResponseUse,
}

impl StatusResponse {
    /// The parsed status (`None` for a key that is not one, which validation reports).
    pub fn status(&self) -> Option<Status> {
        Status::parse(&self.status.id)
    }
}

/// A response status: one code, a range of a hundred (`4XX`), or every other status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// One code, 100 through 599.
    Code(u16),
    /// `1XX` through `5XX`: the hundreds digit.
    Range(u16),
    /// `default`: any status no other key covers.
    Default,
}

impl Status {
    /// Parses `200`, `4XX` (or `4xx`) or `default`.
    pub fn parse(text: &str) -> Option<Status> {
        let text = text.trim();
        if text == "default" {
            return Some(Status::Default);
        }
        if let Some(digit) = text.strip_suffix("XX").or_else(|| text.strip_suffix("xx")) {
            return digit.parse::<u16>().ok().filter(|d| (1..=5).contains(d)).map(Status::Range);
        }
        text.parse::<u16>().ok().filter(|c| (100..=599).contains(c)).map(Status::Code)
    }

    /// The statuses it stands for, inclusive.
    pub fn codes(self) -> (u16, u16) {
        match self {
            Status::Code(c) => (c, c),
            Status::Range(d) => (d * 100, d * 100 + 99),
            Status::Default => (100, 599),
        }
    }

    /// Whether a response with this status may carry a body (RFC 9110 §15: not 1xx, 204, 304).
    pub fn allows_body(self) -> bool {
        !matches!(self, Status::Code(100..=199 | 204 | 304) | Status::Range(1))
    }

    /// Whether an answer with it is an error: a 4xx or 5xx, or `default` (which covers every
    /// status no other key names, the errors among them).
    pub fn is_error(self) -> bool {
        matches!(self, Status::Code(400..=599) | Status::Range(4..=5) | Status::Default)
    }

    /// Whether it is a success (2xx).
    pub fn is_success(self) -> bool {
        matches!(self, Status::Code(200..=299) | Status::Range(2))
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Code(c) => write!(f, "{c}"),
            Status::Range(d) => write!(f, "{d}XX"),
            Status::Default => f.write_str("default"),
        }
    }
}

/// A response written inline, or a named response.
#[derive(Clone, Debug)]
pub enum ResponseUse {
    Named(Ref),
    Inline(Box<Response>),
}

impl Serialize for ResponseUse {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ResponseUse::Named(r) => r.serialize(s),
            ResponseUse::Inline(r) => r.serialize(s),
        }
    }
}

/// A response: body, encoding and headers.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Response {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The body, when it is a type.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeRef>,
    /// Whether the body of type `ty` may be `null` instead (written `T | null`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nullable: bool,
    /// The body, when it is an object of named fields.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    /// How the body is encoded: `json`, `csv`, `text`, `binary`, or `none` for no body.
    pub format: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media_type: Option<Text>,
    /// The events of an `events` stream by name, each with the type of its data.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<StreamEvent>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<ResponseHeader>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The whole response.
    #[serde(skip)]
    pub span: Span,
    /// Where `type` was written.
    #[serde(skip)]
    pub type_span: Option<Span>,
    /// Where `format` was written.
    #[serde(skip)]
    pub format_span: Option<Span>,
}

/// An event of an `events` stream: the name its messages give, and the type of their data.
#[derive(Clone, Debug, Serialize)]
pub struct StreamEvent {
    pub name: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeRef>,
    /// Where the name was written.
    #[serde(skip)]
    pub span: Span,
    /// Where the type was written.
    #[serde(skip)]
    pub type_span: Span,
}

/// How a response's body travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// No body.
    Empty,
    /// JSON: the type, or an object of the named fields.
    Json,
    /// Text of a media type (CSV, plain text).
    Text,
    /// Bytes of any media type.
    Binary,
    /// A stream of messages, each decoded as it arrives.
    Stream(Framing),
}

/// How the messages of a streamed response are framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Server-sent events (`text/event-stream`): `event:`, `data:`, `id:` and `retry:` fields,
    /// a blank line after each message.
    Events,
    /// JSON Lines (`application/jsonl`): one JSON value a line.
    JsonLines,
}

impl Framing {
    /// The media type the stream travels as.
    pub fn media_type(self) -> &'static str {
        match self {
            Framing::Events => "text/event-stream",
            Framing::JsonLines => "application/jsonl",
        }
    }
}

impl Response {
    /// How the body travels.
    pub fn body_kind(&self) -> BodyKind {
        match self.format.as_str() {
            "csv" | "text" => BodyKind::Text,
            "binary" => BodyKind::Binary,
            "events" => BodyKind::Stream(Framing::Events),
            "json_lines" => BodyKind::Stream(Framing::JsonLines),
            "none" => BodyKind::Empty,
            _ => BodyKind::Json,
        }
    }

    /// The media type of the body, if it has one.
    pub fn media_type(&self) -> Option<&str> {
        if let Some(m) = &self.media_type {
            return Some(&m.id);
        }
        match self.body_kind() {
            BodyKind::Empty => None,
            BodyKind::Json => Some("application/json"),
            BodyKind::Text if self.format == "csv" => Some("text/csv"),
            BodyKind::Text => Some("text/plain"),
            BodyKind::Binary => Some("application/octet-stream"),
            BodyKind::Stream(framing) => Some(framing.media_type()),
        }
    }

    /// How the messages are framed, when the body is a stream.
    pub fn framing(&self) -> Option<Framing> {
        match self.body_kind() {
            BodyKind::Stream(framing) => Some(framing),
            _ => None,
        }
    }
}

/// A response header: its name in the response, and the header.
#[derive(Clone, Debug, Serialize)]
pub struct ResponseHeader {
    pub name: String,
    pub header: HeaderUse,
    #[serde(skip)]
    pub span: Span,
}

/// A header written inline, or a named header.
#[derive(Clone, Debug)]
pub enum HeaderUse {
    Named(Ref),
    Inline(Box<Field>),
}

impl Serialize for HeaderUse {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            HeaderUse::Named(r) => r.serialize(s),
            HeaderUse::Inline(f) => f.serialize(s),
        }
    }
}

/// A named, reusable response.
#[derive(Clone, Debug, Serialize)]
pub struct NamedResponse {
    pub id: String,
    #[serde(flatten)]
    pub response: Response,
    #[serde(skip)]
    pub id_span: Span,
}

impl Model {
    /// The named response with this id.
    pub fn named_response(&self, id: &str) -> Option<&NamedResponse> {
        self.responses.iter().find(|r| r.id == id)
    }

    /// The named header with this id.
    pub fn named_header(&self, id: &str) -> Option<&Field> {
        self.headers.iter().find(|h| h.name == id)
    }

    /// The streamed response of an endpoint, with its status: validation allows one, a success.
    pub fn stream_of<'a>(&'a self, e: &'a Endpoint) -> Option<(&'a StatusResponse, &'a Response)> {
        e.responses.iter().find_map(|r| Some((r, self.response_of(&r.response)?)).filter(|(_, body)| body.framing().is_some()))
    }

    /// The response a status stands for, named or inline (`None` for an unknown name).
    pub fn response_of<'a>(&'a self, r: &'a ResponseUse) -> Option<&'a Response> {
        match r {
            ResponseUse::Named(id) => self.named_response(&id.id).map(|n| &n.response),
            ResponseUse::Inline(r) => Some(r),
        }
    }

    /// A response header as a field: named `name`, with the named header's type, constraints and
    /// wire name (its id when it has none) when it refers to one.
    pub fn header_field(&self, h: &ResponseHeader) -> Option<Field> {
        match &h.header {
            HeaderUse::Inline(f) => Some(Field { name: h.name.clone(), ..(**f).clone() }),
            HeaderUse::Named(id) => {
                let named = self.named_header(&id.id)?;
                let wire = named.wire().to_owned();
                Some(Field { name: h.name.clone(), wire_name: Some(wire), ..named.clone() })
            }
        }
    }
}

/// A piece of a path segment: literal text, or a `{placeholder}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'p> {
    /// Literal text.
    Text(&'p str),
    /// A placeholder, by name.
    Param(&'p str),
}

/// The segments of a path template (`/Accounts/{Sid}.json`), each as its pieces; the error says
/// why a path is not one the router can serve: a query or fragment written into it, braces that
/// do not pair, an empty placeholder, two placeholders with nothing between them.
pub fn path_segments(path: &str) -> Result<Vec<Vec<Piece<'_>>>, String> {
    let Some(rest) = path.strip_prefix('/') else { return Err("a path starts with `/`".to_owned()) };
    if let Some(c) = path.chars().find(|c| matches!(c, '?' | '#')) {
        return Err(match c {
            '?' => "`?` starts a query, which is not part of a path: write a query constant as a query parameter with `const`".to_owned(),
            _ => "`#` starts a fragment, which a client never sends: routes cannot be told apart by it".to_owned(),
        });
    }
    rest.split('/').map(segment_pieces).collect()
}

fn segment_pieces(segment: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut pieces = Vec::new();
    let mut rest = segment;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            Some(0) if rest.starts_with('}') => return Err(format!("`}}` without `{{` in segment `{segment}`")),
            Some(0) => {
                let close = rest.find('}').ok_or_else(|| format!("`{{` without `}}` in segment `{segment}`"))?;
                let name = &rest[1..close];
                if name.is_empty() || name.contains('{') {
                    return Err(format!("placeholder `{}` in segment `{segment}` has no name", &rest[..=close]));
                }
                if matches!(pieces.last(), Some(Piece::Param(_))) {
                    return Err(format!("two placeholders with nothing between them in segment `{segment}`: a request's text cannot be split between them"));
                }
                pieces.push(Piece::Param(name));
                rest = &rest[close + 1..];
            }
            Some(i) => {
                pieces.push(Piece::Text(&rest[..i]));
                rest = &rest[i..];
            }
            None => {
                pieces.push(Piece::Text(rest));
                rest = "";
            }
        }
    }
    Ok(pieces)
}

/// What the router tells routes apart by: the path with every segment that holds a placeholder
/// as `{}` (a router matches a whole segment, then the handler splits it).
pub fn route_shape(path: &str) -> String {
    path.split('/').map(|seg| if seg.contains('{') { "{}" } else { seg }).collect::<Vec<_>>().join("/")
}

/// Whether a segment mixes a placeholder with text or other placeholders (`{Sid}.json`).
pub fn is_mixed(pieces: &[Piece<'_>]) -> bool {
    pieces.len() > 1 && pieces.iter().any(|p| matches!(p, Piece::Param(_)))
}
