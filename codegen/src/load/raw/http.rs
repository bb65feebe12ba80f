//! The HTTP API: endpoints with their behaviours and responses, named responses and headers, and
//! the errors they return with the error body.

use super::{Field, Gap, S};
use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

item! {
    /// An operation of the HTTP API.
    pub struct Endpoint {
        #[serde(default)]
        pub method: Option<S<String>>,
        #[serde(default)]
        pub path: Option<S<String>>,
        #[serde(default)]
        pub path_params: IndexMap<S<String>, S<Field>>,
        #[serde(default)]
        pub query: IndexMap<S<String>, S<Field>>,
        #[serde(default)]
        pub body: IndexMap<S<String>, S<Field>>,
        /// The body as a whole, when it is not an object of named fields (a JSON array).
        #[serde(default)]
        pub body_schema: Option<S<Field>>,
        /// `json` (default), `form` (`application/x-www-form-urlencoded`), `multipart`, `csv` or
        /// `binary` (`application/octet-stream`); a list when the endpoint accepts several.
        #[serde(default)]
        pub body_format: Option<S<OneOrMany>>,
        /// The media type a `json` body travels as when it is not `application/json`: another
        /// JSON media type (`application/json-patch+json`, `application/merge-patch+json`).
        #[serde(default)]
        pub body_media_type: Option<S<String>>,
        /// The typed parts of a `multipart` body (files, text and JSON parts).
        #[serde(default)]
        pub parts: IndexMap<S<String>, S<Field>>,
        /// Request header parameters, by name (`wire_name` is the HTTP header name).
        #[serde(default)]
        pub headers: IndexMap<S<String>, S<Field>>,
        /// The response: a type expression.
        #[serde(default)]
        pub response: Option<S<String>>,
        /// Named fields of the response, when the response is an inline object.
        #[serde(default)]
        pub response_fields: IndexMap<S<String>, S<Field>>,
        /// At most this many items in an array response (checked by server and client).
        #[serde(default)]
        pub response_max_items: Option<S<super::Bound>>,
        /// The columns of a CSV response, in order: the header line names them exactly.
        #[serde(default)]
        pub response_columns: IndexMap<S<String>, S<Field>>,
        /// `json` (default), `csv` or `none`.
        #[serde(default)]
        pub response_format: Option<S<String>>,
        /// The responses by status (`200`, `429`, `4XX`, `default`): inline, or a named response's id.
        #[serde(default)]
        pub responses: IndexMap<S<String>, S<ResponseRef>>,
        /// Token kinds accepted (`bot`, `bearer`), and `none` for anonymous calls; empty means any.
        #[serde(default)]
        pub auth: Vec<S<String>>,
        /// OAuth2 scopes a bearer token must hold to call the endpoint.
        #[serde(default)]
        pub scopes: Vec<S<String>>,
        /// Dated or conditional behaviours of the operation.
        #[serde(default)]
        pub behaviours: Vec<S<Behaviour>>,
        /// Other routes that answer as this endpoint (an old path kept after a move), each
        /// usually deprecated and bounded by `until`.
        #[serde(default)]
        pub aliases: Vec<S<RouteAlias>>,
        /// How the endpoint pages through a collection: the clients it generates follow it.
        #[serde(default)]
        pub pagination: Option<S<Pagination>>,
        /// The header parameter that carries an idempotency key: the server does a call once per
        /// key, so clients send one (fresh per call, the same on every try) and try the call
        /// again like an idempotent one.
        #[serde(default)]
        pub idempotency_key: Option<S<String>>,
        /// The header parameter that carries the id of the last event received (`Last-Event-ID`)
        /// when the endpoint's `events` stream can be resumed: a client whose connection breaks
        /// asks again with it, and the server goes on after that event.
        #[serde(default)]
        pub last_event_id: Option<S<String>>,
    }
}

/// How an endpoint pages through a collection: one way to make the next request (`cursor`,
/// `keyset` or `offset`), where the items are, and the parameter bounding a page's size.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pagination {
    /// The answer names the next page's cursor: `{ param: page_token, from: next_page }`.
    #[serde(default)]
    pub cursor: Option<S<CursorPaging>>,
    /// The next page starts after the last item's key: `{ param: after, item: id }`.
    #[serde(default)]
    pub keyset: Option<S<KeysetPaging>>,
    /// The next page starts past this one's items: `{ param: offset }`.
    #[serde(default)]
    pub offset: Option<S<OffsetPaging>>,
    /// The answer's `Link` header (RFC 8288) names the next page's address, whose query
    /// parameter `param` the next request sends: `{ param: page, header: link }`.
    #[serde(default)]
    pub link: Option<S<LinkPaging>>,
    /// The member of the success answer holding the items (an array); absent when the answer
    /// is the array itself.
    #[serde(default)]
    pub items: Option<S<String>>,
    /// The query parameter saying how many items a page holds at most.
    #[serde(default)]
    pub limit: Option<S<String>>,
}

/// Paging by a cursor the answer names.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CursorPaging {
    /// The query parameter carrying the cursor.
    pub param: S<String>,
    /// The member of the success answer holding the next page's cursor; absent or `null` on the
    /// last page.
    pub from: S<String>,
}

/// Paging by the key of the last item.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeysetPaging {
    /// The query parameter carrying the key (`after`, `before`).
    pub param: S<String>,
    /// The member of each item holding its key (`id`).
    pub item: S<String>,
}

/// Paging by the address the answer's `Link` header gives the next page (`rel="next"`).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkPaging {
    /// The query parameter of the next page's address that the next request carries.
    pub param: S<String>,
    /// The success answer's header holding the links, by its name in the response.
    pub header: S<String>,
}

/// Paging by counting the items before the page.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OffsetPaging {
    /// The query parameter carrying the count.
    pub param: S<String>,
}

item! {
    /// Another route of an endpoint: the server answers it like the endpoint's own route, with
    /// `Deprecation` and `Sunset` headers when it is deprecated, until its `until` change.
    pub struct RouteAlias {
        /// The path; its placeholders are the endpoint's path parameters.
        pub path: S<String>,
        /// The method, when it is not the endpoint's.
        #[serde(default)]
        pub method: Option<S<String>>,
    }
}

item! {
    /// A behaviour of an operation, possibly bounded by dated changes.
    pub struct Behaviour {
        /// Generate a runtime gate the implementation asks (for behaviour only it can carry out).
        #[serde(default)]
        pub gate: Option<S<bool>>,
    }
}

item! {
    /// An error the platform returns.
    pub struct Error {
        /// The platform's numeric error code.
        #[serde(default)]
        pub code: Option<S<i64>>,
        /// An OAuth2 error string (`invalid_grant`).
        #[serde(default)]
        pub oauth_error: Option<S<String>>,
        /// The HTTP status.
        #[serde(default)]
        pub status: Option<S<i64>>,
        /// When the error happens.
        pub condition: S<String>,
        /// The message text, where the source gives it.
        #[serde(default)]
        pub message: Option<S<String>>,
        /// Endpoints that return it.
        #[serde(default)]
        pub endpoints: Vec<S<String>>,
    }
}

/// The shape of every error response body.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    #[serde(default)]
    pub description: Option<S<String>>,
    pub fields: IndexMap<S<String>, S<Field>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
    #[serde(default)]
    pub assumed: IndexMap<S<String>, S<String>>,
}

/// One value or a list of them: `json`, or `[json, form, multipart]`.
#[derive(Debug)]
pub enum OneOrMany {
    One(String),
    Many(Vec<S<String>>),
}

/// The forms [`OneOrMany`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for OneOrMany {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OneOrMany".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A name, or a list of names.",
            "oneOf": [{ "type": "string" }, { "type": "array", "items": { "type": "string" } }]
        })
    }
}

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OneOrMany;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name or a list of names")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OneOrMany, E> {
                Ok(OneOrMany::One(v.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<OneOrMany, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(OneOrMany::Many)
            }
        }
        d.deserialize_any(V)
    }
}

/// A response of an endpoint: the id of a named response, or one written inline.
#[derive(Debug)]
pub enum ResponseRef {
    Named(String),
    Inline(Box<Response>),
}

/// The forms [`ResponseRef`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for ResponseRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ResponseRef".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let inline = generator.subschema_for::<Response>();
        schemars::json_schema!({
            "description": "The id of a named response, or a response written inline (`{}` for one without a body).",
            "oneOf": [{ "type": "string" }, inline]
        })
    }
}

impl<'de> Deserialize<'de> for ResponseRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ResponseRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the id of a named response, or a response (`{}` for one without a body)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ResponseRef, E> {
                Ok(ResponseRef::Named(v.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ResponseRef, A::Error> {
                Response::deserialize(de::value::MapAccessDeserializer::new(map)).map(|r| ResponseRef::Inline(Box::new(r)))
            }
        }
        d.deserialize_any(V)
    }
}

/// A response: its body (a type, or named fields), how the body is encoded, and its headers.
/// `{}` is a response without a body.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Response {
    #[serde(default)]
    pub description: Option<S<String>>,
    /// The body: a type expression.
    #[serde(rename = "type", default)]
    pub ty: Option<S<String>>,
    /// The body, when it is an object of named fields.
    #[serde(default)]
    pub fields: IndexMap<S<String>, S<Field>>,
    /// `json` (the default with a body), `csv`, `text`, `binary`, or a stream of messages:
    /// `events` (server-sent events, `text/event-stream`) or `json_lines` (one JSON value a line).
    #[serde(default)]
    pub format: Option<S<String>>,
    /// The events of an `events` stream, by the name each message gives in its `event:` field,
    /// with the type of its data (in place of `type`, which gives one type to every message).
    #[serde(default)]
    pub events: IndexMap<S<String>, S<String>>,
    /// The media type, when it is not the format's usual one (`image/png`, `*/*`).
    #[serde(default)]
    pub media_type: Option<S<String>>,
    /// The response headers: a list of named headers, or a map from a name to a header (written
    /// inline, or the id of a named header).
    #[serde(default)]
    pub headers: HeaderList,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
    #[serde(default)]
    pub assumed: IndexMap<S<String>, S<String>>,
    #[serde(default)]
    pub notes: Vec<S<String>>,
}

/// The headers of a response: `[rate_limit_limit, ...]` (named headers by id) or
/// `{ limit: rate_limit_limit, location: { type: url, wire_name: Location } }`.
#[derive(Debug, Default)]
pub struct HeaderList(pub Vec<(S<String>, S<HeaderRef>)>);

/// One response header: a named header's id, or a header written inline.
#[derive(Debug)]
pub enum HeaderRef {
    Named(String),
    Inline(Box<Field>),
}

/// The forms [`HeaderList`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for HeaderList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HeaderList".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let header = generator.subschema_for::<HeaderRef>();
        schemars::json_schema!({
            "description": "A list of named headers' ids, or a map from a header's name to a header.",
            "oneOf": [
                { "type": "array", "items": { "type": "string" } },
                { "type": "object", "additionalProperties": header }
            ]
        })
    }
}

/// The forms [`HeaderRef`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for HeaderRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HeaderRef".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let inline = generator.subschema_for::<Field>();
        schemars::json_schema!({
            "description": "The id of a named header, or a header field written inline.",
            "oneOf": [{ "type": "string" }, inline]
        })
    }
}

impl<'de> Deserialize<'de> for HeaderRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = HeaderRef;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the id of a named header, or a header field")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<HeaderRef, E> {
                Ok(HeaderRef::Named(v.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<HeaderRef, A::Error> {
                Field::deserialize(de::value::MapAccessDeserializer::new(map)).map(|f| HeaderRef::Inline(Box::new(f)))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for HeaderList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = HeaderList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of header ids, or a map from a name to a header")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<HeaderList, A::Error> {
                // A listed id names the header and is its key; the span of both is the id's.
                let mut out = Vec::new();
                while let Some(id) = seq.next_element::<S<String>>()? {
                    let named = S::new(HeaderRef::Named(id.value.clone()), id.referenced, id.defined);
                    out.push((id, named));
                }
                Ok(HeaderList(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HeaderList, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<S<String>>()? {
                    out.push((key, map.next_value()?));
                }
                Ok(HeaderList(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// How the platform limits the rate of calls: the headers that carry a bucket's state, what a
/// `429` answer holds, the parameters whose values split a bucket, and the limit across every
/// bucket. Clients keep within it; the mock server enforces a budget with these headers.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateLimits {
    #[serde(default)]
    pub description: Option<S<String>>,
    /// The response headers by role: their HTTP names.
    #[serde(default)]
    pub headers: Option<S<RateLimitHeaders>>,
    /// The member of a `429` answer's JSON body holding the seconds to wait.
    #[serde(default)]
    pub retry_after_member: Option<S<String>>,
    /// The member of a `429` answer's JSON body saying the limit hit is the global one.
    #[serde(default)]
    pub global_member: Option<S<String>>,
    /// Path parameters whose values split a bucket: routes called with other values are
    /// counted apart (`channel_id`, `guild_id`).
    #[serde(default)]
    pub major_params: Vec<S<String>>,
    /// The limit across every bucket.
    #[serde(default)]
    pub global: Option<S<GlobalLimit>>,
    /// Endpoints the global limit does not count.
    #[serde(default)]
    pub exempt: Vec<S<String>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
    #[serde(default)]
    pub assumed: IndexMap<S<String>, S<String>>,
}

/// The rate-limit headers by role, each its HTTP name.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateLimitHeaders {
    /// The calls a bucket allows per window (`X-RateLimit-Limit`).
    #[serde(default)]
    pub limit: Option<S<String>>,
    /// The calls left in the window (`X-RateLimit-Remaining`).
    #[serde(default)]
    pub remaining: Option<S<String>>,
    /// When the window ends, in seconds since the epoch (`X-RateLimit-Reset`).
    #[serde(default)]
    pub reset: Option<S<String>>,
    /// How long until the window ends, in seconds (`X-RateLimit-Reset-After`).
    #[serde(default)]
    pub reset_after: Option<S<String>>,
    /// The bucket a route is counted in (`X-RateLimit-Bucket`).
    #[serde(default)]
    pub bucket: Option<S<String>>,
    /// The scope of a limit hit (`X-RateLimit-Scope`).
    #[serde(default)]
    pub scope: Option<S<String>>,
    /// Set on a `429` of the global limit (`X-RateLimit-Global`).
    #[serde(default)]
    pub global: Option<S<String>>,
}

/// A limit across every bucket: `requests` calls per `per_seconds`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GlobalLimit {
    pub requests: S<u32>,
    pub per_seconds: S<f64>,
}

/// How clients try a failed call again: tries in all, the backoff's bounds, and the statuses
/// worth another try. What is left out is the runtime's default (three tries, half a second
/// doubling up to eight, `408`, `429`, `503` always and `500`, `502`, `504` when idempotent).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetryPolicy {
    #[serde(default)]
    pub description: Option<S<String>>,
    /// Tries in all, the first included.
    #[serde(default)]
    pub attempts: Option<S<u32>>,
    /// The wait before the first retry, in seconds; each next one doubles it.
    #[serde(default)]
    pub initial_seconds: Option<S<f64>>,
    /// The longest wait, in seconds, a server's `Retry-After` included.
    #[serde(default)]
    pub max_seconds: Option<S<f64>>,
    /// Statuses that say the server did nothing: tried again whatever the method.
    #[serde(default)]
    pub statuses: Option<Vec<S<i64>>>,
    /// Statuses tried again only when that cannot do harm (an idempotent method or key).
    #[serde(default)]
    pub idempotent_statuses: Option<Vec<S<i64>>>,
    /// The response header in which the server says whether to try again (`true`) or not
    /// (`false`), whatever the status (`X-Should-Retry`).
    #[serde(default)]
    pub advice_header: Option<S<String>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
    #[serde(default)]
    pub assumed: IndexMap<S<String>, S<String>>,
}
