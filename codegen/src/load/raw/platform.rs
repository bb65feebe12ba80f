//! The platform block (name, prefixes, placeholders, parts), features, constants, standalone gaps
//! and limits: what the spec says about the platform as a whole.

use super::{Bound, S};
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;

/// The platform as a whole: its name, naming prefixes, placeholders and parts.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
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
    /// The placeholder whose value is the address of the published reference page
    /// (`generated/docs/index.html`): the changelog feeds and the `Link` of deprecation headers
    /// point into it.
    #[serde(default)]
    pub docs: Option<S<String>>,
}

/// Names the generated artifacts use for the platform.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
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

/// The forms [`ConstantValue`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for ConstantValue {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ConstantValue".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "description": "Text or an integer.", "type": ["string", "integer"] })
    }
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
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Quantity {
    pub value: S<i64>,
    pub unit: S<String>,
}

/// A value a limit had before a change.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PreviousValue {
    pub value: S<i64>,
    pub until: S<String>,
}
