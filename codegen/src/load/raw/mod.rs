//! What the user wrote: one struct per spec construct, every value spanned.
//!
//! Every spec file has the same shape ([`SpecFile`]): a set of optional top-level lists, one per
//! kind of item. Splitting the platform into files by concern (`permissions.yaml`,
//! `errors.yaml`, ...) is a convention of the shipped spec, not something the loader requires, so
//! a small spec can live in one file. Structs deny unknown keys so that a typo is an error with a
//! suggestion instead of a silently ignored key.
//!
//! The item structs live in one module per concern, the same concerns as the shipped spec's files
//! (platform, access, http, shapes, events, timeline, sdk, versioning), and are re-exported here.

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::fmt;

/// A value with the place it was written (line, column and byte range in its file).
///
/// serde-saphyr's `Spanned` with the same fields, in a type of our own so the raw layer can
/// describe itself as a JSON Schema (`generated/spec.schema.json`): the schema of `S<T>` is
/// `T`'s, since the span is where a value was written, not something the user writes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct S<T> {
    /// The value as written.
    pub value: T,
    /// Where the value is used (for an alias, the alias).
    pub referenced: serde_saphyr::Location,
    /// Where the value is defined (for an alias, its anchor).
    pub defined: serde_saphyr::Location,
}

impl<T> S<T> {
    /// A value with its locations.
    pub fn new(value: T, referenced: serde_saphyr::Location, defined: serde_saphyr::Location) -> Self {
        Self { value, referenced, defined }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for S<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let serde_saphyr::Spanned { value, referenced, defined } = serde_saphyr::Spanned::deserialize(d)?;
        Ok(Self { value, referenced, defined })
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for S<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// Fields shared by every identified item: id, display name, prose, lifecycle and honesty marks.
///
/// Declared by [`item!`] on each item struct (serde's `flatten` would lose spans and
/// `deny_unknown_fields`).
macro_rules! item {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $f:ident : $t:ty,)* }) => {
        $(#[$m])*
        #[derive(Debug, ::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Stable snake_case (or SCREAMING_CASE for wire constants) id, unique within its kind.
            pub id: $crate::load::raw::S<String>,
            /// Display name; defaults to the id.
            #[serde(default)]
            pub name: Option<$crate::load::raw::S<String>>,
            /// What the item is, as prose for docs and `///` comments.
            #[serde(default)]
            pub description: Option<$crate::load::raw::S<String>>,
            /// The part of the platform it belongs to; defaults to the file's `part`.
            #[serde(default)]
            pub part: Option<$crate::load::raw::S<String>>,
            /// The dated change from which the item exists.
            #[serde(default)]
            pub since: Option<$crate::load::raw::S<String>>,
            /// The dated change from which the item no longer exists.
            #[serde(default)]
            pub until: Option<$crate::load::raw::S<String>>,
            /// The dated change that deprecated the item.
            #[serde(default)]
            pub deprecated: Option<$crate::load::raw::S<String>>,
            /// Facets the source says are not shown.
            #[serde(default)]
            pub not_shown: Vec<$crate::load::raw::S<$crate::load::raw::Gap>>,
            /// Values the source does not give, by facet, each with the reason for the value used.
            #[serde(default)]
            pub assumed: ::indexmap::IndexMap<$crate::load::raw::S<String>, $crate::load::raw::S<String>>,
            /// Further rules the source states about the item, one sentence each.
            #[serde(default)]
            pub notes: Vec<$crate::load::raw::S<String>>,
            /// Replaces the id as the stem of the item's Rust identifiers (case-converted the
            /// same way), where two ids would otherwise become one identifier.
            #[serde(default)]
            pub rust_name: Option<$crate::load::raw::S<String>>,
            /// The same for the item's C and C++ identifiers.
            #[serde(default)]
            pub c_name: Option<$crate::load::raw::S<String>>,
            $($(#[$fm])* pub $f: $t,)*
        }
    };
}

mod access;
mod events;
mod gateway;
mod http;
mod platform;
mod sdk;
mod shapes;
mod timeline;
mod versioning;

pub use access::*;
pub use events::*;
pub use gateway::*;
pub use http::*;
pub use platform::*;
pub use sdk::*;
pub use shapes::*;
pub use timeline::*;
pub use versioning::*;

/// One spec file. Every key is optional; the loader concatenates the lists of all files.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
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
    pub unions: Vec<S<Union>>,
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
    /// Deliveries to an app's endpoint: webhook events, interactions.
    #[serde(default)]
    pub webhooks: Vec<S<Webhook>>,
    /// Session protocols over WebSocket: the Gateway.
    #[serde(default)]
    pub gateways: Vec<S<Gateway>>,
    #[serde(default)]
    pub errors: Vec<S<Error>>,
    #[serde(default)]
    pub error_body: Option<S<ErrorBody>>,
    /// How the platform limits the rate of calls (one block in the whole spec).
    #[serde(default)]
    pub rate_limits: Option<S<RateLimits>>,
    /// How clients try a failed call again (one block in the whole spec).
    #[serde(default)]
    pub retry: Option<S<RetryPolicy>>,
    /// Named, reusable headers: an id to a header field (`wire_name` is the HTTP header name).
    #[serde(default)]
    pub headers: IndexMap<S<String>, S<Field>>,
    /// Named, reusable responses: an id to a response.
    #[serde(default)]
    pub responses: IndexMap<S<String>, S<Response>>,
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

/// A facet the source says is not shown: `method`, or `{facet: fields, detail: "..."}`.
#[derive(Debug)]
pub struct Gap {
    pub facet: String,
    pub detail: Option<String>,
}

/// The forms [`Gap`]'s visitor accepts, for the spec's JSON Schema.
impl schemars::JsonSchema for Gap {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Gap".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A facet the source does not show (`method`), or `{facet, detail}` when part of it is shown.",
            "oneOf": [
                { "type": "string" },
                {
                    "type": "object",
                    "properties": { "facet": { "type": "string" }, "detail": { "type": "string" } },
                    "required": ["facet"],
                    "additionalProperties": false
                }
            ]
        })
    }
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
