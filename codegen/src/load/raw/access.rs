//! Who may do what: permissions, conditions, intents, scopes and scope sets, token kinds,
//! permission rules with their rule expressions, numbered auth rules and the authorization server.

use super::{Gap, S};
use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

item! {
    /// A permission; `bit` is its position in the permission set.
    pub struct Permission {
        #[serde(default)]
        pub bit: Option<S<i64>>,
    }
}

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
#[derive(Debug, Deserialize, schemars::JsonSchema)]
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

/// The forms [`Rule`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for Rule {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rule".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let rule = generator.subschema_for::<Rule>();
        let rules = schemars::json_schema!({ "type": "array", "items": rule });
        let cond = generator.subschema_for::<Cond>();
        let one = |key: &str, value: &schemars::Schema| schemars::json_schema!({ "type": "object", "properties": { key: value }, "required": [key], "additionalProperties": false });
        let id = schemars::json_schema!({ "type": "string" });
        schemars::json_schema!({
            "description": "A permission id, or a map with one of `all`, `any`, `when` (with `then`, optional `else`), `condition`, `intent` or `scope`.",
            "oneOf": [
                { "type": "string", "description": "A permission id." },
                one("all", &rules),
                one("any", &rules),
                {
                    "type": "object",
                    "properties": { "when": cond, "then": rule, "else": rule },
                    "required": ["when", "then"],
                    "additionalProperties": false
                },
                one("condition", &cond),
                one("intent", &id),
                one("scope", &id)
            ]
        })
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

/// The forms [`Cond`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for Cond {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Cond".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let cond = generator.subschema_for::<Cond>();
        schemars::json_schema!({
            "description": "A condition id, a call `id(ARG)`, or `{not: condition}`.",
            "oneOf": [
                { "type": "string", "pattern": "^\\s*[A-Za-z0-9_]+(\\(\\s*[A-Za-z0-9_]+\\s*\\))?\\s*$" },
                { "type": "object", "properties": { "not": cond }, "required": ["not"], "additionalProperties": false }
            ]
        })
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
#[derive(Debug, Deserialize, schemars::JsonSchema)]
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
