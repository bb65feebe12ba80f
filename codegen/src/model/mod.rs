//! The resolved model: what the spec means, without YAML.
//!
//! [`lower`] builds it from the raw layer (types parsed, dates parsed, defaults applied);
//! [`crate::validate`] then proves every reference resolves and every rule holds, so emitters can
//! index it without checking. Spans are kept (not serialized) so validation can point at the
//! spec; `dump` and `generated/model.json` serialize the rest in spec order.
//!
//! The items live in one module per concern, the same as the raw layer's (platform, access, http,
//! shapes with the type expressions in [`types`], events, timeline, sdk, versioning), and are
//! re-exported here: `model::Field` names a field whichever module declares it.

mod access;
pub mod bounds;
pub mod coverage;
mod events;
pub mod gateway;
mod http;
mod index;
mod lower;
mod pagination;
mod platform;
pub mod project;
mod sdk;
mod shapes;
mod timeline;
mod versioning;
mod walk;

pub use access::*;
pub use events::*;
pub use gateway::Gateway;
pub use http::*;
pub use index::{Index, KINDS};
pub use lower::lower;
pub use pagination::*;
pub use platform::*;
pub use sdk::*;
pub use shapes::*;
pub use timeline::*;
pub use versioning::*;

use crate::diag::Span;
use indexmap::IndexMap;
use serde::Serialize;

/// The whole platform.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Model {
    pub platform: PlatformInfo,
    pub features: Vec<Feature>,
    pub constants: Vec<Constant>,
    pub gaps: Vec<GapItem>,
    pub permissions: Vec<Permission>,
    pub resources: Vec<Resource>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unions: Vec<Union>,
    pub enums: Vec<Enum>,
    pub flags: Vec<Flags>,
    pub endpoints: Vec<Endpoint>,
    pub opcodes: Vec<Opcode>,
    pub commands: Vec<Command>,
    pub conditions: Vec<Condition>,
    pub intents: Vec<Intent>,
    pub scopes: Vec<Scope>,
    pub scope_sets: Vec<ScopeSet>,
    pub token_kinds: Vec<TokenKind>,
    pub permission_rules: Vec<PermissionRule>,
    pub auth_rules: Vec<AuthRule>,
    pub authorization_server: Option<AuthorizationServer>,
    pub events: Vec<Event>,
    /// Deliveries to an app's endpoint.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<Webhook>,
    /// Session protocols over WebSocket.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gateways: Vec<Gateway>,
    pub errors: Vec<Error>,
    pub error_body: Option<ErrorBody>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_limits: Option<RateLimits>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<RetryPolicy>,
    /// Named, reusable headers (each field's name is its id).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<Field>,
    /// Named, reusable responses.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub responses: Vec<NamedResponse>,
    pub limits: Vec<Limit>,
    pub changes: Vec<Change>,
    pub state_machines: Vec<StateMachine>,
    pub classes: Vec<Class>,
    pub sdk_calls: Vec<SdkCall>,
    pub releases: Vec<Release>,
    pub release_policy: Option<ReleasePolicy>,
    /// The display paths of the spec files the model came from, in load order.
    #[serde(skip)]
    pub files: Vec<String>,
}

/// A reference to another item by id, with where it was written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ref {
    pub id: String,
    pub span: Span,
}

impl Serialize for Ref {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id)
    }
}

impl Ref {
    /// The referenced id.
    pub fn as_str(&self) -> &str {
        &self.id
    }
}

/// A text with where it was written.
pub type Text = Ref;

/// Fields every item has.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Meta {
    pub id: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The stem of the item's Rust identifiers when it is not the id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rust_name: Option<Ref>,
    /// The stem of the item's C and C++ identifiers when it is not the id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c_name: Option<Ref>,
    /// The whole item.
    #[serde(skip)]
    pub span: Span,
    /// The `id` value.
    #[serde(skip)]
    pub id_span: Span,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
    /// The keys the item's kind accepts, from its schema: what `assumed` may name.
    #[serde(skip)]
    pub keys: &'static [&'static str],
}

impl Meta {
    /// Whether the source declares `facet` not shown.
    pub fn is_not_shown(&self, facet: &str) -> bool {
        self.not_shown.iter().any(|g| g.facet == facet)
    }

    /// The stem of the item's Rust identifiers: its `rust_name`, else its id.
    pub fn rust(&self) -> &str {
        self.rust_name.as_ref().map_or(&self.id, |r| &r.id)
    }

    /// The stem of the item's C and C++ identifiers: its `c_name`, else its id.
    pub fn c(&self) -> &str {
        self.c_name.as_ref().map_or(&self.id, |r| &r.id)
    }

    /// The reason for an assumed facet, if it is assumed.
    pub fn assumption(&self, facet: &str) -> Option<&str> {
        self.assumed.get(facet).map(String::as_str)
    }
}

/// A facet the source says is not shown.
#[derive(Clone, Debug, Serialize)]
pub struct Gap {
    pub facet: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

/// Implemented by every item so generic checks (ids, lifecycle, facets) can walk them alike.
pub trait Item {
    /// The item's common fields.
    fn meta(&self) -> &Meta;
}

macro_rules! impl_item {
    ($($t:ty),* $(,)?) => { $(impl Item for $t { fn meta(&self) -> &Meta { &self.meta } })* };
}

impl_item!(
    Placeholder,
    Part,
    Feature,
    Constant,
    GapItem,
    Permission,
    Resource,
    Union,
    Enum,
    EnumValue,
    Flags,
    FlagValue,
    Endpoint,
    Behaviour,
    RouteAlias,
    Opcode,
    Command,
    Alias,
    Condition,
    Intent,
    Scope,
    ScopeSet,
    TokenKind,
    PermissionRule,
    AuthRule,
    Event,
    Webhook,
    Gateway,
    Error,
    Limit,
    Change,
    StateMachine,
    State,
    Transition,
    Effect,
    Class,
    Method,
    SdkCall,
    Release,
    Toolkit,
    Case,
);

/// A `kind:id` reference.
#[derive(Clone, Debug)]
pub struct TypedRef {
    pub kind: String,
    pub id: String,
    pub span: Span,
}

impl Serialize for TypedRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}:{}", self.kind, self.id))
    }
}

impl Model {
    /// Whether a permission rule or an endpoint input (`required_when`) asks condition `id`: the
    /// server trait then has a hook the implementation answers for it.
    pub fn asks_condition(&self, id: &str) -> bool {
        let in_rules = self.permission_rules.iter().flat_map(|r| &r.variants).any(|v| v.rule.conditions().into_iter().any(|c| c.named().0.id == id));
        let inputs = self.endpoints.iter().flat_map(|e| e.path_params.iter().chain(&e.query).chain(&e.body).chain(&e.body_schema));
        in_rules || inputs.filter_map(|f| f.required_when.as_ref()).any(|c| c.named().0.id == id)
    }

    /// The permission with this id.
    pub fn permission(&self, id: &str) -> Option<&Permission> {
        self.permissions.iter().find(|p| p.meta.id == id)
    }

    /// The limit with this id.
    pub fn limit(&self, id: &str) -> Option<&Limit> {
        self.limits.iter().find(|l| l.meta.id == id)
    }

    /// The change with this id.
    pub fn change(&self, id: &str) -> Option<&Change> {
        self.changes.iter().find(|c| c.meta.id == id)
    }

    /// The endpoint with this id.
    pub fn endpoint(&self, id: &str) -> Option<&Endpoint> {
        self.endpoints.iter().find(|e| e.meta.id == id)
    }

    /// The resource with this id.
    pub fn resource(&self, id: &str) -> Option<&Resource> {
        self.resources.iter().find(|r| r.meta.id == id)
    }

    /// The union with this id.
    pub fn union(&self, id: &str) -> Option<&Union> {
        self.unions.iter().find(|u| u.meta.id == id)
    }

    /// The enum with this id.
    pub fn enum_(&self, id: &str) -> Option<&Enum> {
        self.enums.iter().find(|e| e.meta.id == id)
    }

    /// The flag set with this id.
    pub fn flag_set(&self, id: &str) -> Option<&Flags> {
        self.flags.iter().find(|f| f.meta.id == id)
    }

    /// The class with this id.
    pub fn class(&self, id: &str) -> Option<&Class> {
        self.classes.iter().find(|c| c.meta.id == id)
    }

    /// The permission rules guarding an endpoint.
    pub fn rules_for(&self, endpoint: &str) -> Vec<&PermissionRule> {
        self.permission_rules.iter().filter(|r| r.endpoints.iter().any(|e| e.id == endpoint)).collect()
    }

    /// The errors an endpoint returns.
    pub fn errors_for(&self, endpoint: &str) -> Vec<&Error> {
        self.errors.iter().filter(|e| e.endpoints.iter().any(|x| x.id == endpoint)).collect()
    }

    /// Routed endpoints, in spec order.
    pub fn routed_endpoints(&self) -> impl Iterator<Item = &Endpoint> {
        self.endpoints.iter().filter(|e| e.is_routed())
    }
}
