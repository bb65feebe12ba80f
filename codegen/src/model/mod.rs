//! The resolved model: what the spec means, without YAML.
//!
//! [`lower`] builds it from the raw layer (types parsed, dates parsed, defaults applied);
//! [`crate::validate`] then proves every reference resolves and every rule holds, so emitters can
//! index it without checking. Spans are kept (not serialized) so validation can point at the
//! spec; `dump` and `generated/model.json` serialize the rest in spec order.

pub mod coverage;
mod lower;
pub mod types;

pub use lower::lower;
pub use types::TypeRef;

use crate::diag::Span;
use indexmap::IndexMap;
use serde::Serialize;

/// The whole platform.
#[derive(Debug, Default, Serialize)]
pub struct Model {
    pub platform: PlatformInfo,
    pub features: Vec<Feature>,
    pub constants: Vec<Constant>,
    pub gaps: Vec<GapItem>,
    pub permissions: Vec<Permission>,
    pub resources: Vec<Resource>,
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
    pub errors: Vec<Error>,
    pub error_body: Option<ErrorBody>,
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
    Placeholder, Part, Feature, Constant, GapItem, Permission, Resource, Enum, EnumValue, Flags, FlagValue, Endpoint, Behaviour,
    Opcode, Command, Alias, Condition, Intent, Scope, ScopeSet, TokenKind, PermissionRule, AuthRule, Event, Error, Limit,
    Change, StateMachine, State, Transition, Effect, Class, Method, SdkCall, Release, Toolkit, Case,
);

/// The platform block.
#[derive(Debug, Default, Serialize)]
pub struct PlatformInfo {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub prefixes: Prefixes,
    pub placeholders: Vec<Placeholder>,
    pub parts: Vec<Part>,
    #[serde(skip)]
    pub span: Span,
}

/// Naming prefixes of the generated artifacts.
#[derive(Debug, Default, Serialize)]
pub struct Prefixes {
    pub c_type: String,
    pub c_macro: String,
    pub cpp_namespace: String,
    pub c_header: String,
    pub cpp_header: String,
}

/// A `{placeholder}`.
#[derive(Debug, Serialize)]
pub struct Placeholder {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

/// A part of the platform.
#[derive(Debug, Serialize)]
pub struct Part {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<Ref>,
}

/// A described behaviour.
#[derive(Debug, Serialize)]
pub struct Feature {
    #[serde(flatten)]
    pub meta: Meta,
    pub points: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs_implementation: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
}

/// A named value (a redirect URI template).
#[derive(Debug, Serialize)]
pub struct Constant {
    #[serde(flatten)]
    pub meta: Meta,
    pub value: crate::load::raw::ConstantValue,
}

/// A standalone not-shown statement.
#[derive(Debug, Serialize)]
pub struct GapItem {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
}

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

/// A permission.
#[derive(Debug, Serialize)]
pub struct Permission {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bit: Option<u32>,
    #[serde(skip)]
    pub bit_span: Span,
}

/// A resource.
#[derive(Debug, Serialize)]
pub struct Resource {
    #[serde(flatten)]
    pub meta: Meta,
    pub direction: String,
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<Case>,
}

/// A shape an object (resource or event payload) takes when a condition holds.
#[derive(Debug, Serialize)]
pub struct Case {
    #[serde(flatten)]
    pub meta: Meta,
    pub when: Rule,
    pub fields: Vec<CaseField>,
}

/// What a case says about one field of its object.
#[derive(Debug, Serialize)]
pub struct CaseField {
    /// The field's name in the object.
    pub field: Ref,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal: Option<String>,
    /// Flag ids of the field's flag set that are set.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contains: Vec<Ref>,
    /// Enum values (`enum_id.VALUE`) no element of the field carries.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omits: Vec<Ref>,
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
}

/// A field, query parameter, path parameter, body member or SDK class member.
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire_name: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub optional: bool,
    pub nullable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal: Option<String>,
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_when: Option<Cond>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires_scope: Option<Ref>,
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
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    pub type_span: Span,
    /// Where `optional:` was written; `None` when the spec is silent about presence.
    #[serde(skip)]
    pub optional_span: Option<Span>,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
}

/// The keys a field accepts besides its own name: what a field's `assumed` may name (`name` is
/// the field's key, `type`, `optional`, ...).
pub fn field_keys() -> &'static [&'static str] {
    static KEYS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys = vec!["name"];
        keys.extend(crate::load::keys_of::<crate::load::raw::Field>());
        keys
    })
}

impl Field {
    /// The name on the wire.
    pub fn wire(&self) -> &str {
        self.wire_name.as_deref().unwrap_or(&self.name)
    }
}

/// Constraints declared on a field.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Constraints {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_exclusive: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_size: Option<Bound>,
}

impl Constraints {
    /// Whether no constraint is declared.
    pub fn is_empty(&self) -> bool {
        self.all().is_empty()
    }

    /// Every declared constraint with its key.
    pub fn all(&self) -> Vec<(&'static str, &Bound)> {
        let pairs = [
            ("min", &self.min),
            ("max", &self.max),
            ("max_exclusive", &self.max_exclusive),
            ("min_length", &self.min_length),
            ("max_length", &self.max_length),
            ("min_items", &self.min_items),
            ("max_items", &self.max_items),
            ("max_size", &self.max_size),
        ];
        pairs.into_iter().filter_map(|(k, v)| v.as_ref().map(|b| (k, b))).collect()
    }
}

/// A numeric bound: literal, limit or another endpoint's response field.
///
/// Serializes as the number itself, `{"limit": id}` or `{"field": "endpoint.field"}`, with
/// `"offset"` when it is not zero.
#[derive(Clone, Debug)]
pub enum Bound {
    Value(Span, i64),
    Limit { limit: Ref, offset: i64 },
    Field { endpoint: Ref, field: String, offset: i64 },
}

impl Serialize for Bound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (key, target, offset) = match self {
            Bound::Value(_, v) => return s.serialize_i64(*v),
            Bound::Limit { limit, offset } => ("limit", limit.id.clone(), *offset),
            Bound::Field { endpoint, field, offset } => ("field", format!("{}.{field}", endpoint.id), *offset),
        };
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(key, &target)?;
        if !is_zero(&offset) {
            map.serialize_entry("offset", &offset)?;
        }
        map.end()
    }
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl Bound {
    /// Where the bound was written.
    pub fn span(&self) -> Span {
        match self {
            Bound::Value(span, _) => *span,
            Bound::Limit { limit, .. } => limit.span,
            Bound::Field { endpoint, .. } => endpoint.span,
        }
    }
}

/// An enum.
#[derive(Debug, Serialize)]
pub struct Enum {
    #[serde(flatten)]
    pub meta: Meta,
    pub repr: String,
    pub values: Vec<EnumValue>,
    /// Where `repr:` was written; `None` when the representation is the default.
    #[serde(skip)]
    pub repr_span: Option<Span>,
}

/// An enum value.
#[derive(Debug, Serialize)]
pub struct EnumValue {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    #[serde(skip)]
    pub value_span: Span,
}

/// A flag set.
#[derive(Debug, Serialize)]
pub struct Flags {
    #[serde(flatten)]
    pub meta: Meta,
    pub repr: String,
    pub width: u32,
    pub values: Vec<FlagValue>,
}

/// One flag.
#[derive(Debug, Serialize)]
pub struct FlagValue {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bit: Option<u32>,
    #[serde(skip)]
    pub bit_span: Span,
}

/// An HTTP operation.
#[derive(Debug, Serialize)]
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub body: Vec<Field>,
    /// The body as a whole when it is not an object (named `body`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_schema: Option<Field>,
    pub body_format: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<TypeRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_fields: Vec<Field>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_max_items: Option<Bound>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub response_columns: Vec<Field>,
    pub response_format: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub auth: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub behaviours: Vec<Behaviour>,
    #[serde(skip)]
    pub response_span: Span,
}

impl Endpoint {
    /// Whether the endpoint gets a route (its method and path are both known).
    pub fn is_routed(&self) -> bool {
        self.method.is_some() && self.path.is_some()
    }

    /// The `{placeholder}` names of the path, in order.
    pub fn path_placeholders(&self) -> Vec<&str> {
        let Some(path) = &self.path else { return vec![] };
        path.id.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
    }
}

/// A behaviour of an operation.
#[derive(Debug, Serialize)]
pub struct Behaviour {
    #[serde(flatten)]
    pub meta: Meta,
    pub gate: bool,
}

/// A Gateway opcode.
#[derive(Debug, Serialize)]
pub struct Opcode {
    #[serde(flatten)]
    pub meta: Meta,
    pub code: i64,
    pub direction: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
}

/// A command.
#[derive(Debug, Serialize)]
pub struct Command {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Alias>,
}

/// An alias.
#[derive(Debug, Serialize)]
pub struct Alias {
    #[serde(flatten)]
    pub meta: Meta,
}

/// A named condition.
#[derive(Debug, Serialize)]
pub struct Condition {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub param_enums: Vec<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
}

/// An intent.
#[derive(Debug, Serialize)]
pub struct Intent {
    #[serde(flatten)]
    pub meta: Meta,
    pub privileged: bool,
}

/// A scope.
#[derive(Debug, Serialize)]
pub struct Scope {
    #[serde(flatten)]
    pub meta: Meta,
    pub expands: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availability: Option<String>,
}

/// A scope set.
#[derive(Debug, Serialize)]
pub struct ScopeSet {
    #[serde(flatten)]
    pub meta: Meta,
    pub scopes: Vec<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
}

/// A token kind.
#[derive(Debug, Serialize)]
pub struct TokenKind {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
}

/// A permission rule, with its forms over time.
#[derive(Debug, Serialize)]
pub struct PermissionRule {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<Ref>,
    pub applies_to: String,
    /// At least one; a rule with one form has one variant with no bounds.
    pub variants: Vec<RuleVariant>,
}

/// One form of a rule, valid between `since` and `until`.
#[derive(Debug, Serialize)]
pub struct RuleVariant {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Ref>,
    pub rule: Rule,
    #[serde(skip)]
    pub span: Span,
}

/// A rule expression.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    Permission(Ref),
    All(Vec<Rule>),
    Any(Vec<Rule>),
    When {
        when: Cond,
        then: Box<Rule>,
        #[serde(rename = "else", skip_serializing_if = "Option::is_none")]
        otherwise: Option<Box<Rule>>,
    },
    Condition(Cond),
    Intent(Ref),
    Scope(Ref),
}

/// A condition expression: a named condition (with an argument) or its negation.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cond {
    Named {
        condition: Ref,
        #[serde(skip_serializing_if = "Option::is_none")]
        arg: Option<String>,
    },
    Not(Box<Cond>),
}

impl Rule {
    /// Every permission the rule names, in order, without duplicates.
    pub fn permissions(&self) -> Vec<&Ref> {
        let mut out: Vec<&Ref> = Vec::new();
        self.walk(&mut |r| {
            if let Rule::Permission(p) = r
                && !out.iter().any(|o| o.id == p.id)
            {
                out.push(p);
            }
        });
        out
    }

    /// Visits this rule and every sub-rule.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Rule)) {
        f(self);
        match self {
            Rule::All(rules) | Rule::Any(rules) => rules.iter().for_each(|r| r.walk(f)),
            Rule::When { then, otherwise, .. } => {
                then.walk(f);
                if let Some(o) = otherwise {
                    o.walk(f);
                }
            }
            Rule::Permission(_) | Rule::Condition(_) | Rule::Intent(_) | Rule::Scope(_) => {}
        }
    }

    /// Every condition the rule asks, including those inside `when`.
    pub fn conditions(&self) -> Vec<&Cond> {
        let mut out = Vec::new();
        self.walk(&mut |r| match r {
            Rule::When { when, .. } => out.push(when),
            Rule::Condition(c) => out.push(c),
            _ => {}
        });
        out
    }
}

impl Cond {
    /// The named condition at the root of the expression.
    pub fn named(&self) -> (&Ref, Option<&str>) {
        match self {
            Cond::Named { condition, arg } => (condition, arg.as_deref()),
            Cond::Not(inner) => inner.named(),
        }
    }
}

/// A numbered authorization rule.
#[derive(Debug, Serialize)]
pub struct AuthRule {
    #[serde(flatten)]
    pub meta: Meta,
    pub number: i64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
}

/// The authorization server.
#[derive(Debug, Serialize)]
pub struct AuthorizationServer {
    pub issuer: String,
    pub metadata: IndexMap<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip)]
    pub span: Span,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
}

/// An event.
#[derive(Debug, Serialize)]
pub struct Event {
    #[serde(flatten)]
    pub meta: Meta,
    pub channel: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<Case>,
}

/// An error.
#[derive(Debug, Serialize)]
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
#[derive(Debug, Serialize)]
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

/// A limit.
#[derive(Debug, Serialize)]
pub struct Limit {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Bound>,
    pub unit: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Quantity>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub applies_to: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub previous: Vec<PreviousValue>,
}

impl Limit {
    /// The literal number a constraint referring to this limit uses as an upper bound.
    pub fn upper(&self) -> Option<i64> {
        [&self.max, &self.value].into_iter().flatten().find_map(|b| match b {
            Bound::Value(_, v) => Some(*v),
            _ => None,
        })
    }

    /// The literal lower bound, if any.
    pub fn lower(&self) -> Option<i64> {
        match &self.min {
            Some(Bound::Value(_, v)) => Some(*v),
            _ => None,
        }
    }

    /// The upper bound in bytes, when the unit is a size.
    pub fn upper_bytes(&self) -> Option<u64> {
        let factor: u64 = match self.unit.id.as_str() {
            "bytes" => 1,
            "KiB" => 1 << 10,
            "MiB" => 1 << 20,
            "GiB" => 1 << 30,
            _ => return None,
        };
        self.upper().and_then(|v| u64::try_from(v).ok()).map(|v| v * factor)
    }
}

/// A number with a unit.
#[derive(Debug, Serialize)]
pub struct Quantity {
    pub value: i64,
    pub unit: Text,
}

/// A value a limit had before a change.
#[derive(Debug, Serialize)]
pub struct PreviousValue {
    pub value: i64,
    pub until: Ref,
}

/// When a change takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Effective {
    AlreadyInEffect,
    Date(jiff::civil::Date),
    Unscheduled,
}

impl Serialize for Effective {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Effective::AlreadyInEffect => s.serialize_str("already_in_effect"),
            Effective::Unscheduled => s.serialize_str("unscheduled"),
            Effective::Date(d) => s.serialize_str(&d.to_string()),
        }
    }
}

/// A dated change.
#[derive(Debug, Serialize)]
pub struct Change {
    #[serde(flatten)]
    pub meta: Meta,
    pub effective: Effective,
    pub kind: Text,
    pub summary: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub affects: Vec<TypedRef>,
    pub gate: bool,
    #[serde(skip)]
    pub effective_span: Span,
}

/// A state machine.
#[derive(Debug, Serialize)]
pub struct StateMachine {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<TypedRef>,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    pub state_enum: Option<Ref>,
    pub states: Vec<State>,
    pub transitions: Vec<Transition>,
}

/// A state.
#[derive(Debug, Serialize)]
pub struct State {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// A transition.
#[derive(Debug, Serialize)]
pub struct Transition {
    #[serde(flatten)]
    pub meta: Meta,
    pub from: Ref,
    pub to: Ref,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<Effect>,
}

/// A side effect.
#[derive(Debug, Serialize)]
pub struct Effect {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Ref>,
}

/// An SDK class.
#[derive(Debug, Serialize)]
pub struct Class {
    #[serde(flatten)]
    pub meta: Meta,
    pub namespace: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<Method>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub semantics: Vec<Text>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub used_by: Vec<TypedRef>,
}

/// A method of a class.
#[derive(Debug, Serialize)]
pub struct Method {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<TypeRef>,
    #[serde(skip)]
    pub returns_span: Span,
}

/// An SDK call.
#[derive(Debug, Serialize)]
pub struct SdkCall {
    #[serde(flatten)]
    pub meta: Meta,
    pub signature: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns: Option<TypeRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
    #[serde(skip)]
    pub returns_span: Span,
}

/// An SDK release; `version` is the id split into numbers.
#[derive(Debug, Serialize)]
pub struct Release {
    #[serde(flatten)]
    pub meta: Meta,
    pub version: Vec<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub toolkits: Vec<Toolkit>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub packaging: IndexMap<String, String>,
}

/// A console toolkit requirement.
#[derive(Debug, Serialize)]
pub struct Toolkit {
    #[serde(flatten)]
    pub meta: Meta,
    pub minimum: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<VersionRange>,
}

/// A range of versions, both ends included, as written.
#[derive(Clone, Debug, Serialize)]
pub struct VersionRange {
    pub from: String,
    pub to: String,
}

/// The SDK release policy.
#[derive(Debug, Serialize)]
pub struct ReleasePolicy {
    pub minor_releases_per_year: i64,
    pub release_months: Vec<i64>,
    pub support_window: Ref,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub windows: Vec<SupportWindow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
}

/// A worked example of the support window.
#[derive(Debug, Serialize)]
pub struct SupportWindow {
    pub release: String,
    pub date: String,
    pub oldest_supported: String,
    pub newest_supported: String,
    pub end_of_life_through: String,
}

impl Model {
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
