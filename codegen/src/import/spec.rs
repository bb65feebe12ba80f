//! The spec as the importer writes it: the keys of the raw layer (`crate::load::raw`), without
//! spans, in the order a reader expects them. Serialized by [`super::yaml`], loaded back by
//! `load` like any hand-written spec.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

fn is_false(b: &bool) -> bool {
    !*b
}

/// One spec file.
#[derive(Debug, Default, Serialize)]
pub struct SpecFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<Platform>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Item>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub token_kinds: Vec<Item>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<Item>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub headers: IndexMap<String, Field>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub responses: IndexMap<String, Response>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enums: Vec<Enum>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unions: Vec<Union>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<Endpoint>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Webhook>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_body: Option<ErrorBody>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limits: Option<RateLimits>,
}

/// How the platform limits the rate of calls.
#[derive(Debug, Default, Serialize)]
pub struct RateLimits {
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub headers: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_member: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_member: Option<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
}

/// The body of the errors the server makes itself.
#[derive(Debug, Serialize)]
pub struct ErrorBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub fields: IndexMap<String, Field>,
}

/// The platform block.
#[derive(Debug, Serialize)]
pub struct Platform {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub prefixes: Prefixes,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub placeholders: Vec<Item>,
    pub parts: Vec<Item>,
}

/// Names of the generated artifacts.
#[derive(Debug, Serialize)]
pub struct Prefixes {
    pub c_type: String,
    pub c_macro: String,
    pub cpp_namespace: String,
    pub c_header: String,
    pub cpp_header: String,
}

/// A facet the spec does not carry, with what is missing.
#[derive(Clone, Debug, Serialize)]
pub struct Gap {
    pub facet: &'static str,
    pub detail: String,
}

/// The keys every item has, and the few extra ones of small items (parts, placeholders, token
/// kinds, scopes) as `extra`.
#[derive(Debug, Default, Serialize)]
pub struct Meta {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rust_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c_name: Option<String>,
}

/// A small item: its meta keys and any keys of its own (`scheme`, `address`, `example`).
#[derive(Debug, Default, Serialize)]
pub struct Item {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(flatten)]
    pub extra: IndexMap<String, Value>,
}

/// A dated change.
#[derive(Debug, Serialize)]
pub struct Change {
    #[serde(flatten)]
    pub meta: Meta,
    pub effective: String,
    pub kind: String,
    pub summary: String,
}

/// An enum.
#[derive(Debug, Serialize)]
pub struct Enum {
    #[serde(flatten)]
    pub meta: Meta,
    pub repr: &'static str,
    pub values: Vec<EnumValue>,
}

/// One enum value.
#[derive(Debug, Serialize)]
pub struct EnumValue {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// A union.
#[derive(Debug, Serialize)]
pub struct Union {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discriminator: Option<Discriminator>,
    pub variants: IndexMap<String, Field>,
}

/// A tagged union's discriminator.
#[derive(Debug, Serialize)]
pub struct Discriminator {
    pub field: String,
    #[serde(rename = "type")]
    pub ty: String,
}

/// A resource.
#[derive(Debug, Serialize)]
pub struct Resource {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extends: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<bool>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub fields: IndexMap<String, Field>,
}

/// A field (also a parameter, a header, a part, a union variant).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Field {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire_name: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub optional: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub nullable: bool,
    #[serde(rename = "const", skip_serializing_if = "Option::is_none")]
    pub constant: Option<Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subset: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_text: Option<String>,
    #[serde(flatten)]
    pub rules: Rules,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Items>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub fields: IndexMap<String, Field>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rust_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c_name: Option<String>,
}

/// The rules of each element of an array or value of a map.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Items {
    #[serde(skip_serializing_if = "is_false")]
    pub nullable: bool,
    #[serde(flatten)]
    pub rules: Rules,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Items>>,
}

impl Items {
    /// Whether the block says nothing.
    pub fn is_empty(&self) -> bool {
        *self == Items::default()
    }
}

/// Constraints of a value.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Rules {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_exclusive: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_exclusive: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_entries: Option<Number>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_entries: Option<Number>,
    #[serde(skip_serializing_if = "is_false")]
    pub unique_items: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
}

/// A response.
#[derive(Debug, Default, Serialize)]
pub struct Response {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub fields: IndexMap<String, Field>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    /// A stream's events by name, each with the type of its data.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub events: IndexMap<String, String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub headers: IndexMap<String, HeaderUse>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A response header: a named header's id, or one written inline.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum HeaderUse {
    Named(String),
    Inline(Box<Field>),
}

/// A response of an endpoint: a named response's id, or one written inline.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ResponseUse {
    Named(String),
    Inline(Box<Response>),
}

/// An endpoint.
#[derive(Debug, Default, Serialize)]
pub struct Endpoint {
    #[serde(flatten)]
    pub meta: Meta,
    /// Where the document declares the operation (not written).
    #[serde(skip)]
    pub pointer: String,
    /// Empty for a method the spec does not route (the endpoint's `not_shown` says so).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub method: String,
    pub path: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub auth: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub path_params: IndexMap<String, Field>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub query: IndexMap<String, Field>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub headers: IndexMap<String, Field>,
    /// One format (`json`) or a list of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_format: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_media_type: Option<String>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub body: IndexMap<String, Field>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_schema: Option<Field>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub parts: IndexMap<String, Field>,
    pub responses: IndexMap<String, ResponseUse>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_event_id: Option<String>,
    /// What the document says of the operation's pagination (not written).
    #[serde(skip)]
    pub paging_hint: Option<super::pagination::Hint>,
}

/// How an endpoint pages.
#[derive(Debug, Serialize)]
pub struct Pagination {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<IndexMap<&'static str, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyset: Option<IndexMap<&'static str, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<IndexMap<&'static str, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
}

impl Pagination {
    /// A cursor `param` the answer's member `from` names.
    pub fn cursor(param: &str, from: &str, items: Option<&str>, limit: Option<&str>) -> Self {
        let way = IndexMap::from([("param", param.to_owned()), ("from", from.to_owned())]);
        Pagination { cursor: Some(way), keyset: None, link: None, items: items.map(str::to_owned), limit: limit.map(str::to_owned) }
    }

    /// A keyset `param` that carries the last item's member `item`.
    pub fn keyset(param: &str, item: &str, items: Option<&str>, limit: Option<&str>) -> Self {
        let way = IndexMap::from([("param", param.to_owned()), ("item", item.to_owned())]);
        Pagination { cursor: None, keyset: Some(way), link: None, items: items.map(str::to_owned), limit: limit.map(str::to_owned) }
    }

    /// The query parameter `param` of the next page's address, which the answer's header
    /// `header` links.
    pub fn link(param: &str, header: &str, limit: Option<&str>) -> Self {
        let way = IndexMap::from([("param", param.to_owned()), ("header", header.to_owned())]);
        Pagination { cursor: None, keyset: None, link: Some(way), items: None, limit: limit.map(str::to_owned) }
    }
}

/// An event (the importer writes those of webhooks).
#[derive(Debug, Default, Serialize)]
pub struct Event {
    #[serde(flatten)]
    pub meta: Meta,
    pub channel: String,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub fields: IndexMap<String, Field>,
}

/// A webhook: its blocks as the spec format writes them (the document's own `x-webhook`
/// reads into them), and its events by the name each is delivered under.
#[derive(Debug, Default, Serialize)]
pub struct Webhook {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub envelope: Option<WebhookEnvelope>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<WebhookVerification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ping: Option<WebhookPing>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ack_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<WebhookRetry>,
    pub events: IndexMap<String, String>,
}

/// A webhook's envelope.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookEnvelope {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// How a webhook's deliveries are signed.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookVerification {
    pub scheme: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature_header: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp_header: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_header: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance_seconds: Option<u32>,
}

/// A webhook's ping.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookPing {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<String>,
    pub value: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
}

/// How the platform tries a delivery again.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookRetry {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_seconds: Option<f64>,
    /// What the source does not show of it, as the export wrote it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Value>,
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
}
