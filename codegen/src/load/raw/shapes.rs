//! Data shapes: resources, fields with their constraints and bounds, unions, enums and flag sets.

use super::{Gap, S};
use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

item! {
    /// A resource (object) of the platform and the fields the source gives.
    pub struct Resource {
        /// Whether the resource is something callers send (`request`), receive (`response`) or both.
        #[serde(default)]
        pub direction: Option<S<String>>,
        /// Resources whose fields come first (JSON Schema's `allOf`), in order.
        #[serde(default)]
        pub extends: Vec<S<String>>,
        /// The object has no members but its fields (JSON Schema's `additionalProperties: false`).
        #[serde(default)]
        pub closed: Option<S<bool>>,
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<Field>>,
        /// Shapes the resource takes under a condition (an obfuscated channel).
        #[serde(default)]
        pub cases: Vec<S<Case>>,
    }
}

item! {
    /// A value that is one of several shapes: tagged by a discriminator field, or tried in the
    /// declared order.
    pub struct Union {
        /// The field whose value names the variant; without it the union is untagged.
        #[serde(default)]
        pub discriminator: Option<S<Discriminator>>,
        /// The variants by name, each a type with its own constraints (and `tag`).
        #[serde(default)]
        pub variants: IndexMap<S<String>, S<Field>>,
    }
}

/// The field of a tagged union that names the variant, and the type of its values.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Discriminator {
    /// The wire name of the field.
    pub field: S<String>,
    /// `integer`, `string` or `enum<id>`.
    #[serde(rename = "type")]
    pub ty: S<String>,
}

/// Constraints on each element of an array (or value of a map), and whether it may be `null`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Items {
    #[serde(default)]
    pub nullable: Option<S<bool>>,
    #[serde(default)]
    pub min: Option<S<Bound>>,
    #[serde(default)]
    pub max: Option<S<Bound>>,
    #[serde(default)]
    pub min_exclusive: Option<S<Bound>>,
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
    #[serde(default)]
    pub min_entries: Option<S<Bound>>,
    #[serde(default)]
    pub max_entries: Option<S<Bound>>,
    #[serde(default)]
    pub unique_items: Option<S<bool>>,
    #[serde(default)]
    pub pattern: Option<S<String>>,
    /// The elements' own elements, for arrays of arrays.
    #[serde(default)]
    pub items: Option<Box<S<Items>>>,
}

item! {
    /// A shape an object takes when a condition holds: facts about some of its fields that the
    /// source states for that situation only (an obfuscated channel's name is `___hidden___`).
    pub struct Case {
        /// When the case applies: a rule expression, usually over conditions.
        pub when: S<super::Rule>,
        /// What holds of each named field in this case.
        #[serde(default)]
        pub fields: IndexMap<S<String>, S<CaseField>>,
    }
}

/// What a [`Case`] says about one field.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
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
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// Type expression: `string`, `snowflake`, `array<snowflake>`, `map<string, integer>`,
    /// `enum<id>`, `flags<id>`, `object<id>`, `union<id>`, `class<id>`, `integer | string`, or
    /// `object` with the fields in `fields`.
    #[serde(rename = "type", default)]
    pub ty: Option<S<String>>,
    /// The fields of an inline object (`type: object`, or `array<object>` and the like).
    #[serde(default)]
    pub fields: IndexMap<S<String>, S<Field>>,
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
    /// The value an absent field stands for, as a value of the field's type.
    #[serde(default)]
    pub default: Option<S<serde_json::Value>>,
    /// A default the source states in words (`the value set by Client::SetApplicationId`).
    #[serde(default)]
    pub default_text: Option<S<String>>,
    /// A format the generated code does not check (`ipv4`, `hostname`), carried to OpenAPI.
    #[serde(default)]
    pub format: Option<S<String>>,
    /// A value the field may take, as the wire carries it (docs, OpenAPI and the mock show it).
    #[serde(default)]
    pub example: Option<S<serde_json::Value>>,
    /// The one value the field takes: a number, a text, or an enum value id.
    #[serde(rename = "const", default)]
    pub constant: Option<S<serde_json::Value>>,
    /// The values of the field's enum that it accepts (by id).
    #[serde(default)]
    pub subset: Vec<S<String>>,
    /// For a variant of a tagged union: its discriminator value.
    #[serde(default)]
    pub tag: Option<S<serde_json::Value>>,
    /// A literal value the field takes in a named situation.
    #[serde(default)]
    pub literal: Option<S<String>>,
    #[serde(default)]
    pub min: Option<S<Bound>>,
    #[serde(default)]
    pub max: Option<S<Bound>>,
    #[serde(default)]
    pub min_exclusive: Option<S<Bound>>,
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
    /// Entry-count bounds of a map.
    #[serde(default)]
    pub min_entries: Option<S<Bound>>,
    #[serde(default)]
    pub max_entries: Option<S<Bound>>,
    /// Maximum size in bytes (for files), by value or limit.
    #[serde(default)]
    pub max_size: Option<S<Bound>>,
    /// No two elements of the array are equal.
    #[serde(default)]
    pub unique_items: Option<S<bool>>,
    /// A regular expression (Rust `regex` syntax) the text matches somewhere.
    #[serde(default)]
    pub pattern: Option<S<String>>,
    /// Constraints on each element of an array or value of a map.
    #[serde(default)]
    pub items: Option<S<Items>>,
    /// A condition under which the field is required even though it is optional.
    #[serde(default)]
    pub required_when: Option<S<String>>,
    /// A scope needed for the field to carry its real value.
    #[serde(default)]
    pub requires_scope: Option<S<String>>,
    /// How an array travels: `repeated` or `comma` for a query parameter, `repeated` or
    /// `indexed` (`files[0]`, `files[1]`, ...) for a multipart part.
    #[serde(default)]
    pub style: Option<S<String>>,
    /// The media type a multipart part carries (`image/png`, `image/*`, `application/json`).
    #[serde(default)]
    pub content_type: Option<S<String>>,
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
    /// Replaces the field's name as the stem of its Rust identifiers.
    #[serde(default)]
    pub rust_name: Option<S<String>>,
    /// Replaces the field's name as the stem of its C and C++ identifiers.
    #[serde(default)]
    pub c_name: Option<S<String>>,
}

/// A numeric bound: a literal, a limit (`{limit: id}`) or a field of another endpoint's response
/// (`{field: get_gateway_bot.max_concurrency}`), optionally offset.
#[derive(Debug)]
pub enum Bound {
    Value(i64),
    /// A literal with a fraction or an exponent (`0.5`), for floating-point fields.
    Float(f64),
    Ref {
        target: BoundRef,
        offset: i64,
    },
}

/// What a [`Bound`] refers to.
#[derive(Debug)]
pub enum BoundRef {
    Limit(String),
    Field(String),
}

/// The forms [`Bound`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for Bound {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Bound".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let target = |key: &str| {
            schemars::json_schema!({
                "type": "object",
                "properties": { key: { "type": "string" }, "offset": { "type": "integer" } },
                "required": [key],
                "additionalProperties": false
            })
        };
        schemars::json_schema!({
            "description": "A number (a fraction only for floating-point fields), `{limit: id}` or `{field: endpoint.field}`, each with an optional `offset`.",
            "oneOf": [{ "type": "number" }, target("limit"), target("field")]
        })
    }
}

impl<'de> Deserialize<'de> for Bound {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bound;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, `{limit: id}` or `{field: endpoint.field}`")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Bound, E> {
                Ok(Bound::Float(v))
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
