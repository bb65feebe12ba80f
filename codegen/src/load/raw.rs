//! What the user wrote: one struct per spec construct, every value spanned.
//!
//! Every spec file has the same shape ([`SpecFile`]): a set of optional top-level lists, one per
//! kind of item. Splitting the platform into files by concern (`permissions.yaml`,
//! `errors.yaml`, ...) is a convention of the shipped spec, not something the loader requires, so
//! a small spec can live in one file. Structs deny unknown keys so that a typo is an error with a
//! suggestion instead of a silently ignored key.

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

/// A value with the place it was written (line, column and byte range in its file).
pub type S<T> = serde_saphyr::Spanned<T>;

/// Fields shared by every identified item: id, display name, prose, lifecycle and honesty marks.
///
/// Declared by [`item!`] on each item struct (serde's `flatten` would lose spans and
/// `deny_unknown_fields`).
macro_rules! item {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $f:ident : $t:ty,)* }) => {
        $(#[$m])*
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Stable snake_case (or SCREAMING_CASE for wire constants) id, unique within its kind.
            pub id: S<String>,
            /// Display name; defaults to the id.
            #[serde(default)]
            pub name: Option<S<String>>,
            /// What the item is, as prose for docs and `///` comments.
            #[serde(default)]
            pub description: Option<S<String>>,
            /// The part of the platform it belongs to; defaults to the file's `part`.
            #[serde(default)]
            pub part: Option<S<String>>,
            /// The dated change from which the item exists.
            #[serde(default)]
            pub since: Option<S<String>>,
            /// The dated change from which the item no longer exists.
            #[serde(default)]
            pub until: Option<S<String>>,
            /// The dated change that deprecated the item.
            #[serde(default)]
            pub deprecated: Option<S<String>>,
            /// Facets the source says are not shown.
            #[serde(default)]
            pub not_shown: Vec<S<Gap>>,
            /// Values the source does not give, by facet, each with the reason for the value used.
            #[serde(default)]
            pub assumed: IndexMap<S<String>, S<String>>,
            /// Further rules the source states about the item, one sentence each.
            #[serde(default)]
            pub notes: Vec<S<String>>,
            $($(#[$fm])* pub $f: $t,)*
        }
    };
}

/// One spec file. Every key is optional; the loader concatenates the lists of all files.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    /// The default `part` of every item in this file.
    #[serde(default)]
    pub part: Option<S<String>>,
    #[serde(default)]
    pub platform: Option<S<Platform>>,
    #[serde(default)]
    pub features: Vec<S<Feature>>,
    #[serde(default)]
    pub constants: Vec<S<Constant>>,
    #[serde(default)]
    pub gaps: Vec<S<GapItem>>,
    #[serde(default)]
    pub permissions: Vec<S<Permission>>,
    #[serde(default)]
    pub resources: Vec<S<Resource>>,
    #[serde(default)]
    pub enums: Vec<S<Enum>>,
    #[serde(default)]
    pub flags: Vec<S<Flags>>,
    #[serde(default)]
    pub endpoints: Vec<S<Endpoint>>,
    #[serde(default)]
    pub opcodes: Vec<S<Opcode>>,
    #[serde(default)]
    pub commands: Vec<S<Command>>,
    #[serde(default)]
    pub conditions: Vec<S<Condition>>,
    #[serde(default)]
    pub intents: Vec<S<Intent>>,
    #[serde(default)]
    pub scopes: Vec<S<Scope>>,
    #[serde(default)]
    pub scope_sets: Vec<S<ScopeSet>>,
    #[serde(default)]
    pub token_kinds: Vec<S<TokenKind>>,
    #[serde(default)]
    pub permission_rules: Vec<S<PermissionRule>>,
    #[serde(default)]
    pub auth_rules: Vec<S<AuthRule>>,
    #[serde(default)]
    pub authorization_server: Option<S<AuthorizationServer>>,
    #[serde(default)]
    pub events: Vec<S<Event>>,
    #[serde(default)]
    pub errors: Vec<S<Error>>,
    #[serde(default)]
    pub error_body: Option<S<ErrorBody>>,
    #[serde(default)]
    pub limits: Vec<S<Limit>>,
    #[serde(default)]
    pub changes: Vec<S<Change>>,
    #[serde(default)]
    pub state_machines: Vec<S<StateMachine>>,
    #[serde(default)]
    pub classes: Vec<S<Class>>,
    #[serde(default)]
    pub sdk_calls: Vec<S<SdkCall>>,
    #[serde(default)]
    pub releases: Vec<S<Release>>,
    #[serde(default)]
    pub release_policy: Option<S<ReleasePolicy>>,
}

// ---------------------------------------------------------------------------------------------
// Platform

/// The platform as a whole: its name, naming prefixes, placeholders and parts.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Platform {
    pub name: S<String>,
    #[serde(default)]
    pub description: Option<S<String>>,
    pub prefixes: S<Prefixes>,
    #[serde(default)]
    pub placeholders: Vec<S<Placeholder>>,
    #[serde(default)]
    pub parts: Vec<S<Part>>,
}

/// Names the generated artifacts use for the platform.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prefixes {
    /// C type and function prefix, e.g. `Platform_`.
    pub c_type: S<String>,
    /// C macro prefix, e.g. `PLATFORM_`.
    pub c_macro: S<String>,
    /// C++ namespace, e.g. `platformpp`.
    pub cpp_namespace: S<String>,
    /// C header file name, e.g. `cplatform.h`.
    pub c_header: S<String>,
    /// C++ header file name, e.g. `platformpp.h`.
    pub cpp_header: S<String>,
}

item! {
    /// A `{name}` placeholder used in addresses (`{base_url}`).
    pub struct Placeholder {
        /// A value used where an artifact needs a concrete one (tests, examples).
        #[serde(default)]
        pub example: Option<S<String>>,
    }
}

item! {
    /// One part of the platform (HTTP API, Gateway, ...).
    pub struct Part {
        /// The placeholder naming its address, when it has one.
        #[serde(default)]
        pub address: Option<S<String>>,
    }
}

item! {
    /// A platform behaviour described as a list of points (component embeds, age assurance).
    pub struct Feature {
        #[serde(default)]
        pub points: Vec<S<String>>,
        /// Whether apps must implement anything for it.
        #[serde(default)]
        pub needs_implementation: Option<S<bool>>,
        #[serde(default)]
        pub refs: Vec<S<String>>,
    }
}

item! {
    /// A named value of the platform that is neither a limit nor an enum value (a redirect URI
    /// template, a well-known name).
    pub struct Constant {
        pub value: S<ConstantValue>,
    }
}

/// The value of a [`Constant`]: text or an integer.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum ConstantValue {
    Text(String),
    Integer(i64),
}

impl<'de> Deserialize<'de> for ConstantValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ConstantValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ConstantValue, E> {
                Ok(ConstantValue::Text(v.to_owned()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ConstantValue, E> {
                Ok(ConstantValue::Integer(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ConstantValue, E> {
                i64::try_from(v).map(ConstantValue::Integer).map_err(|_| E::custom("integer out of range"))
            }
        }
        d.deserialize_any(V)
    }
}

item! {
    /// A statement of the source that something is not shown, not attached to a single item.
    pub struct GapItem {
        #[serde(default)]
        pub refs: Vec<S<String>>,
    }
}

/// A facet the source says is not shown: `method`, or `{facet: fields, detail: "..."}`.
#[derive(Debug)]
pub struct Gap {
    pub facet: String,
    pub detail: Option<String>,
}

impl<'de> Deserialize<'de> for Gap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Gap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a facet name or a map with `facet` and `detail`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Gap, E> {
                Ok(Gap { facet: v.to_owned(), detail: None })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Gap, A::Error> {
                let (mut facet, mut detail) = (None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "facet" => facet = Some(map.next_value::<String>()?),
                        "detail" => detail = Some(map.next_value::<String>()?),
                        other => return Err(de::Error::unknown_field(other, &["facet", "detail"])),
                    }
                }
                let facet = facet.ok_or_else(|| de::Error::missing_field("facet"))?;
                Ok(Gap { facet, detail })
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------------------
// Permissions, resources, enums, flags

item! {
    /// A permission; `bit` is its position in the permission set.
    pub struct Permission {
        #[serde(default)]
        pub bit: Option<S<i64>>,
    }
}

item! {
    /// A resource (object) of the platform and the fields the source gives.
    pub struct Resource {
        /// Whether the resource is something callers send (`request`), receive (`response`) or both.
        #[serde(default)]
        pub direction: Option<S<String>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
        /// Shapes the resource takes under a condition (an obfuscated channel).
        #[serde(default)]
        pub cases: Vec<S<Case>>,
    }
}

item! {
    /// A shape an object takes when a condition holds: facts about some of its fields that the
    /// source states for that situation only (an obfuscated channel's name is `___hidden___`).
    pub struct Case {
        /// When the case applies: a rule expression, usually over conditions.
        pub when: S<Rule>,
        /// What holds of each named field in this case.
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<CaseField>>,
    }
}

/// What a [`Case`] says about one field.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseField {
    /// The field has exactly this text.
    #[serde(default)]
    pub literal: Option<S<String>>,
    /// Flags (ids of the field's flag set) that are set.
    #[serde(default)]
    pub contains: Vec<S<String>>,
    /// Enum values (`enum_id.VALUE`) that the field leaves out: no element carries them.
    #[serde(default)]
    pub omits: Vec<S<String>>,
    #[serde(default)]
    pub min_items: Option<S<Bound>>,
    #[serde(default)]
    pub max_items: Option<S<Bound>>,
}

/// A field of a resource, a request body, a query string or an SDK class.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// Type expression: `string`, `snowflake`, `array<snowflake>`, `enum<id>`, `flags<id>`,
    /// `object<id>`, `class<id>`, ...
    #[serde(rename = "type", default)]
    pub ty: Option<S<String>>,
    #[serde(default)]
    pub description: Option<S<String>>,
    /// The field may be absent.
    #[serde(default)]
    pub optional: Option<S<bool>>,
    /// The field may be `null`.
    #[serde(default)]
    pub nullable: Option<S<bool>>,
    /// The wire name when it differs from the key.
    #[serde(default)]
    pub wire_name: Option<S<String>>,
    /// Prose default (`the value set by Client::SetApplicationId`).
    #[serde(default)]
    pub default: Option<S<String>>,
    /// A literal value the field takes in a named situation.
    #[serde(default)]
    pub literal: Option<S<String>>,
    #[serde(default)]
    pub min: Option<S<Bound>>,
    #[serde(default)]
    pub max: Option<S<Bound>>,
    #[serde(default)]
    pub max_exclusive: Option<S<Bound>>,
    #[serde(default)]
    pub min_length: Option<S<Bound>>,
    #[serde(default)]
    pub max_length: Option<S<Bound>>,
    #[serde(default)]
    pub min_items: Option<S<Bound>>,
    #[serde(default)]
    pub max_items: Option<S<Bound>>,
    /// Maximum size in bytes (for files), by value or limit.
    #[serde(default)]
    pub max_size: Option<S<Bound>>,
    /// A condition under which the field is required even though it is optional.
    #[serde(default)]
    pub required_when: Option<S<String>>,
    /// A scope needed for the field to carry its real value.
    #[serde(default)]
    pub requires_scope: Option<S<String>>,
    #[serde(default)]
    pub since: Option<S<String>>,
    #[serde(default)]
    pub until: Option<S<String>>,
    #[serde(default)]
    pub deprecated: Option<S<String>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
    #[serde(default)]
    pub assumed: IndexMap<S<String>, S<String>>,
    #[serde(default)]
    pub notes: Vec<S<String>>,
}

/// A numeric bound: a literal, a limit (`{limit: id}`) or a field of another endpoint's response
/// (`{field: get_gateway_bot.max_concurrency}`), optionally offset.
#[derive(Debug)]
pub enum Bound {
    Value(i64),
    Ref { target: BoundRef, offset: i64 },
}

/// What a [`Bound`] refers to.
#[derive(Debug)]
pub enum BoundRef {
    Limit(String),
    Field(String),
}

impl<'de> Deserialize<'de> for Bound {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bound;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer, `{limit: id}` or `{field: endpoint.field}`")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Bound, E> {
                Ok(Bound::Value(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Bound, E> {
                i64::try_from(v).map(Bound::Value).map_err(|_| E::custom("integer out of range"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Bound, A::Error> {
                let (mut target, mut offset) = (None, 0);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "limit" => target = Some(BoundRef::Limit(map.next_value()?)),
                        "field" => target = Some(BoundRef::Field(map.next_value()?)),
                        "offset" => offset = map.next_value()?,
                        other => {
                            return Err(de::Error::unknown_field(other, &["limit", "field", "offset"]));
                        }
                    }
                }
                let target = target.ok_or_else(|| de::Error::missing_field("limit"))?;
                Ok(Bound::Ref { target, offset })
            }
        }
        d.deserialize_any(V)
    }
}

item! {
    /// An enumeration of named integer (or string) values; open unless `open: false`.
    pub struct Enum {
        /// `integer` (default) or `string`.
        #[serde(default)]
        pub repr: Option<S<String>>,
        #[serde(default)]
        pub values: Vec<S<EnumValue>>,
    }
}

item! {
    /// One value of an enum.
    pub struct EnumValue {
        #[serde(default)]
        pub value: Option<S<i64>>,
    }
}

item! {
    /// A set of bit flags; unknown bits are kept.
    pub struct Flags {
        /// `integer` (default) or `string_integer` (serialized as a decimal string).
        #[serde(default)]
        pub repr: Option<S<String>>,
        /// Width in bits (32 or 64, the default).
        #[serde(default)]
        pub width: Option<S<i64>>,
        #[serde(default)]
        pub values: Vec<S<FlagValue>>,
    }
}

item! {
    /// One flag: its bit position.
    pub struct FlagValue {
        #[serde(default)]
        pub bit: Option<S<i64>>,
    }
}

// ---------------------------------------------------------------------------------------------
// Endpoints, opcodes, commands

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
        /// `json` (default), `form` (`application/x-www-form-urlencoded`), `multipart` or `csv`.
        #[serde(default)]
        pub body_format: Option<S<String>>,
        /// The response: a type expression.
        #[serde(default)]
        pub response: Option<S<String>>,
        /// Named fields of the response, when the response is an inline object.
        #[serde(default)]
        pub response_fields: IndexMap<S<String>, S<Field>>,
        /// At most this many items in an array response (checked by server and client).
        #[serde(default)]
        pub response_max_items: Option<S<Bound>>,
        /// The columns of a CSV response, in order: the header line names them exactly.
        #[serde(default)]
        pub response_columns: IndexMap<S<String>, S<Field>>,
        /// `json` (default), `csv` or `none`.
        #[serde(default)]
        pub response_format: Option<S<String>>,
        /// Token kinds accepted (`bot`, `bearer`); empty means any.
        #[serde(default)]
        pub auth: Vec<S<String>>,
        /// Dated or conditional behaviours of the operation.
        #[serde(default)]
        pub behaviours: Vec<S<Behaviour>>,
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
    /// A Gateway opcode.
    pub struct Opcode {
        pub code: S<i64>,
        /// `send` (client to Gateway) or `receive`.
        #[serde(default)]
        pub direction: Option<S<String>>,
        /// The event sent in reply.
        #[serde(default)]
        pub reply: Option<S<String>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
    }
}

item! {
    /// A command of the embedded app SDK (or another command-style interface).
    pub struct Command {
        #[serde(default)]
        pub scopes: Vec<S<String>>,
        #[serde(default)]
        pub aliases: Vec<S<Alias>>,
    }
}

item! {
    /// An older name kept for an item, with its lifecycle.
    pub struct Alias {}
}

// ---------------------------------------------------------------------------------------------
// Authorization

item! {
    /// A named condition that permission rules can ask of the implementation.
    pub struct Condition {
        /// Names of the condition's parameters (`guild_has_feature(feature)`).
        #[serde(default)]
        pub params: Vec<S<String>>,
        /// For each parameter, the enum its argument must be a value of.
        #[serde(default)]
        pub param_enums: Vec<S<String>>,
        /// The limit the condition compares against (a guild of more than 200 members).
        #[serde(default)]
        pub limit: Option<S<String>>,
        /// Items the condition is about, as typed references (the opt-in flag it reads).
        #[serde(default)]
        pub refs: Vec<S<String>>,
    }
}

item! {
    /// A Gateway intent.
    pub struct Intent {
        #[serde(default)]
        pub privileged: Option<S<bool>>,
    }
}

item! {
    /// An OAuth2 scope.
    pub struct Scope {
        /// Scopes this one expands to, when the source says it expands.
        #[serde(default)]
        pub expands: Option<S<bool>>,
        /// Who may request it.
        #[serde(default)]
        pub availability: Option<S<String>>,
    }
}

item! {
    /// A named set of scopes (the SDK's default scope sets).
    pub struct ScopeSet {
        pub scopes: Vec<S<String>>,
        /// The SDK call returning the set.
        #[serde(default)]
        pub call: Option<S<String>>,
    }
}

item! {
    /// A kind of credential (bot token, bearer token).
    pub struct TokenKind {
        /// The `Authorization` header scheme.
        #[serde(default)]
        pub scheme: Option<S<String>>,
    }
}

item! {
    /// A permission rule: what a caller needs for an operation, possibly dated.
    pub struct PermissionRule {
        /// The operation as the source names it.
        #[serde(default)]
        pub operation: Option<S<String>>,
        /// Endpoints the rule guards.
        #[serde(default)]
        pub endpoints: Vec<S<String>>,
        /// Who the rule applies to: `all` (default), `bots` or `users`.
        #[serde(default)]
        pub applies_to: Option<S<String>>,
        /// The rule when it has one form.
        #[serde(default)]
        pub rule: Option<S<Rule>>,
        /// The rule's forms over time, each bounded by `since`/`until`.
        #[serde(default)]
        pub variants: Vec<S<RuleVariant>>,
    }
}

/// One dated form of a permission rule.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleVariant {
    #[serde(default)]
    pub since: Option<S<String>>,
    #[serde(default)]
    pub until: Option<S<String>>,
    pub rule: S<Rule>,
}

/// A rule expression over permissions, conditions, intents and scopes.
///
/// - `PERMISSION_ID`
/// - `{all: [rule, ...]}`, `{any: [rule, ...]}`
/// - `{when: condition, then: rule, else: rule}` (`else` defaults to "nothing more needed")
/// - `{condition: condition}`, `{intent: ID}`, `{scope: id}`
///
/// A condition is a condition id, a call `id(ARG)`, or `{not: condition}`.
#[derive(Debug)]
pub enum Rule {
    Permission(String),
    All(Vec<S<Rule>>),
    Any(Vec<S<Rule>>),
    When { when: S<Cond>, then: Box<S<Rule>>, otherwise: Option<Box<S<Rule>>> },
    Condition(S<Cond>),
    Intent(S<String>),
    Scope(S<String>),
}

/// A condition in a rule: `id`, `id(ARG)` or `{not: condition}`.
#[derive(Debug)]
pub enum Cond {
    Named { id: String, arg: Option<String> },
    Not(Box<S<Cond>>),
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        const KEYS: &[&str] = &["all", "any", "when", "then", "else", "condition", "intent", "scope"];
        impl<'de> Visitor<'de> for V {
            type Value = Rule;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a permission id or a map with `all`, `any`, `when`, `condition`, `intent` or `scope`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Rule, E> {
                Ok(Rule::Permission(v.to_owned()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Rule, A::Error> {
                let (mut when, mut then, mut otherwise) = (None, None, None);
                let mut out = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "all" => out = Some(Rule::All(map.next_value()?)),
                        "any" => out = Some(Rule::Any(map.next_value()?)),
                        "condition" => out = Some(Rule::Condition(map.next_value()?)),
                        "intent" => out = Some(Rule::Intent(map.next_value()?)),
                        "scope" => out = Some(Rule::Scope(map.next_value()?)),
                        "when" => when = Some(map.next_value()?),
                        "then" => then = Some(Box::new(map.next_value()?)),
                        "else" => otherwise = Some(Box::new(map.next_value()?)),
                        other => return Err(de::Error::unknown_field(other, KEYS)),
                    }
                }
                match (out, when, then) {
                    (Some(rule), None, None) if otherwise.is_none() => Ok(rule),
                    (None, Some(when), Some(then)) => Ok(Rule::When { when, then, otherwise }),
                    (None, Some(_), None) => Err(de::Error::missing_field("then")),
                    (None, None, _) => Err(de::Error::custom("a rule map needs one of `all`, `any`, `when`, `condition`, `intent`, `scope`")),
                    _ => Err(de::Error::custom("a rule map has exactly one of `all`, `any`, `when`, `condition`, `intent`, `scope`")),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Cond {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cond;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a condition id, `id(ARG)` or `{not: condition}`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Cond, E> {
                parse_call(v).ok_or_else(|| E::custom(format!("`{v}` is not a condition id or `id(ARG)` call")))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cond, A::Error> {
                let mut out = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "not" => out = Some(Cond::Not(Box::new(map.next_value()?))),
                        other => return Err(de::Error::unknown_field(other, &["not"])),
                    }
                }
                out.ok_or_else(|| de::Error::missing_field("not"))
            }
        }
        d.deserialize_any(V)
    }
}

/// Splits `name` or `name(ARG)` into its parts.
fn parse_call(text: &str) -> Option<Cond> {
    let text = text.trim();
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    match text.split_once('(') {
        None if ident(text) => Some(Cond::Named { id: text.to_owned(), arg: None }),
        Some((id, rest)) => {
            let arg = rest.strip_suffix(')')?.trim();
            (ident(id) && ident(arg)).then(|| Cond::Named { id: id.to_owned(), arg: Some(arg.to_owned()) })
        }
        None => None,
    }
}

item! {
    /// A numbered rule of the authorization part of the source.
    pub struct AuthRule {
        pub number: S<i64>,
        /// Items the rule is about, as typed references (`endpoint:token`, `scope:openid`).
        #[serde(default)]
        pub refs: Vec<S<String>>,
    }
}

/// The authorization server: issuer and the metadata documents it serves.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthorizationServer {
    /// Issuer identifier, under a placeholder (`{auth_url}`).
    pub issuer: S<String>,
    /// Metadata members served in both the OAuth2 server metadata (RFC 8414) and the OpenID
    /// configuration, by name.
    pub metadata: IndexMap<S<String>, S<serde_json::Value>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
    #[serde(default)]
    pub assumed: IndexMap<S<String>, S<String>>,
    #[serde(default)]
    pub notes: Vec<S<String>>,
}

// ---------------------------------------------------------------------------------------------
// Events, errors, limits

item! {
    /// Something the platform dispatches: a Gateway event, an audit-log entry, a webhook, ...
    pub struct Event {
        /// `gateway`, `audit_log`, `webhook`, `rpc` or `social_sdk`.
        pub channel: S<String>,
        /// Numeric code, where the channel numbers its events (audit log).
        #[serde(default)]
        pub code: Option<S<i64>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
        /// Shapes the payload takes under a condition (a field that omits a value).
        #[serde(default)]
        pub cases: Vec<S<Case>>,
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
#[derive(Debug, Deserialize)]
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

item! {
    /// A limit: a maximum, a range or a threshold, with its unit and earlier values.
    pub struct Limit {
        #[serde(default)]
        pub value: Option<S<Bound>>,
        #[serde(default)]
        pub min: Option<S<Bound>>,
        #[serde(default)]
        pub max: Option<S<Bound>>,
        pub unit: S<String>,
        /// What the value is counted per (`type`).
        #[serde(default)]
        pub per: Option<S<String>>,
        /// A duration attached to the limit (an invite valid 1 hour, a yearly reapplication).
        #[serde(default)]
        pub duration: Option<S<Quantity>>,
        /// Who or what the limit applies to, in the source's words.
        #[serde(default)]
        pub applies_to: Vec<S<String>>,
        /// Items it constrains, as typed references.
        #[serde(default)]
        pub refs: Vec<S<String>>,
        /// Earlier values, each ended by a dated change.
        #[serde(default)]
        pub previous: Vec<S<PreviousValue>>,
    }
}

/// A number with a unit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quantity {
    pub value: S<i64>,
    pub unit: S<String>,
}

/// A value a limit had before a change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreviousValue {
    pub value: S<i64>,
    pub until: S<String>,
}

// ---------------------------------------------------------------------------------------------
// Timeline, states

item! {
    /// A dated change: the only thing that moves items along the timeline.
    pub struct Change {
        /// `YYYY-MM-DD` (00:00 UTC), `already_in_effect` or `unscheduled`.
        pub effective: S<String>,
        /// removal | rename | requirement | shape | behavior | deprecation | correction | addition
        pub kind: S<String>,
        pub summary: S<String>,
        /// Items the change affects, as typed references (`endpoint:get_guild_channels`).
        #[serde(default)]
        pub affects: Vec<S<String>>,
        /// Generate a named runtime gate.
        #[serde(default)]
        pub gate: Option<S<bool>>,
    }
}

item! {
    /// A state machine: states and the transitions between them.
    pub struct StateMachine {
        /// The item whose state it is (typed reference).
        #[serde(default)]
        pub subject: Option<S<String>>,
        /// The enum whose values are the states, when there is one.
        #[serde(rename = "enum", default)]
        pub state_enum: Option<S<String>>,
        #[serde(default)]
        pub states: Vec<S<State>>,
        #[serde(default)]
        pub transitions: Vec<S<Transition>>,
    }
}

item! {
    /// One state.
    pub struct State {
        /// The enum value it corresponds to.
        #[serde(default)]
        pub value: Option<S<i64>>,
    }
}

item! {
    /// A transition and what else happens when it is taken.
    pub struct Transition {
        pub from: S<String>,
        pub to: S<String>,
        /// What moves it, in the source's words.
        #[serde(default)]
        pub triggers: Vec<S<String>>,
        /// The condition under which it is taken.
        #[serde(default)]
        pub condition: Option<S<String>>,
        #[serde(default)]
        pub effects: Vec<S<Effect>>,
    }
}

item! {
    /// A side effect of a transition; may name the event dispatched or the error returned after.
    pub struct Effect {
        #[serde(default)]
        pub event: Option<S<String>>,
        #[serde(default)]
        pub error: Option<S<String>>,
    }
}

// ---------------------------------------------------------------------------------------------
// Social SDK

item! {
    /// A class of the social SDK.
    pub struct Class {
        /// The C++ namespace; defaults to the platform's.
        #[serde(default)]
        pub namespace: Option<S<String>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
        /// Methods other than field accessors.
        #[serde(default)]
        pub methods: Vec<S<Method>>,
        /// Value semantics: `copy`, `move`, `bool`, `nullobj`.
        #[serde(default)]
        pub semantics: Vec<S<String>>,
        /// What it is passed to, as typed references.
        #[serde(default)]
        pub used_by: Vec<S<String>>,
    }
}

item! {
    /// A method of an SDK class.
    pub struct Method {
        #[serde(default)]
        pub returns: Option<S<String>>,
    }
}

item! {
    /// A call of the social SDK (`Client::Authorize`), or a property of an options class.
    pub struct SdkCall {
        /// The C++ spelling (`Client::Authorize`).
        pub signature: S<String>,
        #[serde(default)]
        pub returns: Option<S<String>>,
        #[serde(default)]
        pub refs: Vec<S<String>>,
    }
}

item! {
    /// A release of the social SDK (`1.10.19337`: major.minor.build).
    pub struct Release {
        #[serde(default)]
        pub date: Option<S<String>>,
        /// Minimum console toolkit versions, by console family.
        #[serde(default)]
        pub toolkits: Vec<S<Toolkit>>,
        /// Packaging and library facts of the release.
        #[serde(default)]
        pub packaging: IndexMap<S<String>, S<String>>,
    }
}

item! {
    /// A console toolkit requirement of a release.
    pub struct Toolkit {
        /// The minimum version, as written (`241000`, `10.000`).
        pub minimum: S<String>,
        /// The versions no longer supported, a range as written (`230600` to `240605`).
        #[serde(default)]
        pub dropped: Option<S<VersionRange>>,
    }
}

/// A range of versions, both ends included, as the source writes them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersionRange {
    pub from: S<String>,
    pub to: S<String>,
}

/// How SDK releases are made and supported.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReleasePolicy {
    /// Minor releases per year.
    pub minor_releases_per_year: S<i64>,
    /// Months (1..=12) of the minor releases.
    pub release_months: Vec<S<i64>>,
    /// The limit that sizes the support window.
    pub support_window: S<String>,
    #[serde(default)]
    pub notes: Vec<S<String>>,
    /// Worked examples of the window.
    #[serde(default)]
    pub windows: Vec<S<SupportWindow>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
}

/// The supported window as of one release.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupportWindow {
    /// The minor release that opens this window (`1.10`).
    pub release: S<String>,
    /// `YYYY-MM`.
    pub date: S<String>,
    pub oldest_supported: S<String>,
    pub newest_supported: S<String>,
    /// The newest minor that reached end of life.
    pub end_of_life_through: S<String>,
}
