//! The spec-independent modules of the types crate: wire primitives, validation and clocks.
//!
//! They are emitted like the rest so the generated crate stands alone (no runtime crate to keep
//! in step), and they read the same whatever the spec says.

use proc_macro2::TokenStream;
use quote::quote;

/// Which optional parts of `wire.rs` some generated type needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct WireNeeds {
    /// An optional field that is not nullable: the `present` adapter.
    pub present: bool,
    /// A field that may be absent, `null` or a value: [`Presence`](presence).
    pub presence: bool,
    /// A `uuid` value.
    pub uuid: bool,
    /// A `bytes` value (base64 on the wire).
    pub bytes: bool,
    /// A `date` value.
    pub date: bool,
    /// A `map<K, V>`.
    pub map: bool,
    /// A tagged union: the decoding helpers that read the tag first.
    pub tagged: bool,
}

/// `wire.rs`: snowflakes, string-serialized integers, raw bodies and what the spec's shapes need
/// beyond them (three-state presence, uuids, base64 bytes, dates, maps, tagged-union decoding).
pub fn wire(needs: WireNeeds) -> TokenStream {
    let snowflake = decimal_newtype(quote!(Snowflake), "a snowflake id (a decimal string)");
    let string_integer = decimal_newtype(quote!(StringInteger), "an integer as a decimal string");
    let presence = needs.presence.then(presence);
    let present = needs.present.then(|| {
        quote! {
            /// Serde adapter for optional fields that are not nullable: a present field is `Some`,
            /// so `null` is refused unless it is one of the type's values (JSON keeps it).
            pub(crate) fn present<'de, T: Deserialize<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
                T::deserialize(deserializer).map(Some)
            }
        }
    });
    let uuid = needs.uuid.then(uuid);
    let bytes = needs.bytes.then(bytes);
    let date = needs.date.then(|| {
        quote! {
            /// A calendar date, `YYYY-MM-DD` on the wire.
            pub use jiff::civil::Date;
        }
    });
    let map = needs.map.then(|| {
        quote! {
            /// The map of `map<K, V>` fields: entries keep the order they were read in.
            pub use indexmap::IndexMap;
        }
    });
    let tagged = needs.tagged.then(tagged);
    quote! {
        //! Wire primitives: snowflake ids, integers carried as decimal strings, raw bodies.

        use serde::de::{self, Deserializer, Visitor};
        use serde::{Deserialize, Serialize, Serializer};
        use std::fmt;
        use std::str::FromStr;

        /// A snowflake id: a 64-bit integer that the wire carries as a decimal string.
        ///
        /// Decoding also accepts a JSON number, so ids written either way read back.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct Snowflake(pub u64);

        /// An integer that the wire carries as a decimal string (`flags_new`, permission sets).
        ///
        /// Decoding also accepts a JSON number.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct StringInteger(pub u64);

        /// Why a text is not a decimal integer in `0..=u64::MAX`.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct ParseIntegerError {
            text: String,
        }

        impl fmt::Display for ParseIntegerError {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "`{}` is not a decimal integer between 0 and {}", self.text, u64::MAX)
            }
        }

        impl std::error::Error for ParseIntegerError {}

        /// A name that is none of the spec's names of its kind.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct UnknownName {
            /// What was looked up (`permission`, `scope`, ...).
            pub kind: &'static str,
            /// The name given.
            pub name: String,
        }

        impl fmt::Display for UnknownName {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "unknown {} `{}`", self.kind, self.name)
            }
        }

        impl std::error::Error for UnknownName {}

        /// Parses digits only: no sign, no spaces, no empty text.
        pub fn parse_decimal(text: &str) -> Result<u64, ParseIntegerError> {
            let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| text.parse().ok()).flatten().ok_or_else(|| ParseIntegerError { text: text.chars().take(64).collect() })
        }

        #snowflake

        #string_integer

        /// Reads a `u64` from a decimal string or a non-negative JSON number.
        pub(crate) struct DecimalVisitor(pub(crate) &'static str);

        impl Visitor<'_> for DecimalVisitor {
            type Value = u64;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.0)
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<u64, E> {
                parse_decimal(text).map_err(E::custom)
            }

            fn visit_u64<E: de::Error>(self, value: u64) -> Result<u64, E> {
                Ok(value)
            }

            fn visit_i64<E: de::Error>(self, value: i64) -> Result<u64, E> {
                u64::try_from(value).map_err(|_| E::invalid_value(de::Unexpected::Signed(value), &self))
            }
        }

        /// A body passed through unparsed (multipart forms, CSV files): its media type and bytes.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        pub struct RawBody {
            /// The `Content-Type` it was sent with.
            pub content_type: String,
            /// The bytes as sent.
            pub bytes: Vec<u8>,
        }

        /// Percent-encodes one path segment: every byte but RFC 3986's unreserved characters.
        pub fn encode_path_segment(text: &str) -> String {
            let mut out = String::with_capacity(text.len());
            for byte in text.bytes() {
                if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                    out.push(char::from(byte));
                } else {
                    out.push_str(&format!("%{byte:02X}"));
                }
            }
            out
        }

        #presence

        #present

        #uuid

        #bytes

        #date

        #map

        #tagged
    }
}

/// `Presence<T>`: absent, `null` or a value, for fields that may be both left out and `null`.
fn presence() -> TokenStream {
    quote! {
        /// A field that may be absent, `null` or a value: the three states a partial update
        /// tells apart (leave it, clear it, set it).
        ///
        /// Declare the field `#[serde(default, skip_serializing_if = "Presence::is_absent")]`: an
        /// absent field reads as [`Presence::Absent`] and is left out when written.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub enum Presence<T> {
            /// The field is not there.
            #[default]
            Absent,
            /// The field is there, `null`.
            Null,
            /// The field is there with a value.
            Value(T),
        }

        impl<T> Presence<T> {
            /// Whether the field is not there.
            pub const fn is_absent(&self) -> bool {
                matches!(self, Self::Absent)
            }

            /// Whether the field is there and `null`.
            pub const fn is_null(&self) -> bool {
                matches!(self, Self::Null)
            }

            /// The value, when there is one.
            pub const fn value(&self) -> Option<&T> {
                match self {
                    Self::Value(value) => Some(value),
                    _ => None,
                }
            }

            /// `None` when absent, `Some(None)` when `null`, `Some(Some(value))` otherwise.
            pub fn into_option(self) -> Option<Option<T>> {
                match self {
                    Self::Absent => None,
                    Self::Null => Some(None),
                    Self::Value(value) => Some(Some(value)),
                }
            }
        }

        impl<T> From<Option<Option<T>>> for Presence<T> {
            fn from(value: Option<Option<T>>) -> Self {
                match value {
                    None => Self::Absent,
                    Some(None) => Self::Null,
                    Some(Some(value)) => Self::Value(value),
                }
            }
        }

        impl<T> From<T> for Presence<T> {
            fn from(value: T) -> Self {
                Self::Value(value)
            }
        }

        impl<T: Serialize> Serialize for Presence<T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    Self::Value(value) => value.serialize(serializer),
                    // An absent field is skipped by its attributes; written alone it is `null`.
                    Self::Absent | Self::Null => serializer.serialize_none(),
                }
            }
        }

        impl<'de, T: Deserialize<'de>> Deserialize<'de> for Presence<T> {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                Option::<T>::deserialize(deserializer).map(|value| value.map_or(Self::Null, Self::Value))
            }
        }

        impl<T: crate::validation::Validate> crate::validation::Validate for Presence<T> {
            fn validate_at(&self, pointer: &str, out: &mut Vec<crate::validation::Violation>) {
                if let Self::Value(value) = self {
                    value.validate_at(pointer, out);
                }
            }
        }
    }
}

/// `Uuid`: a 128-bit id in its 8-4-4-4-12 hexadecimal form.
fn uuid() -> TokenStream {
    quote! {
        /// A UUID, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` on the wire (any case read, lower case
        /// written).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct Uuid(pub u128);

        /// Why a text is not a UUID.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct ParseUuidError {
            text: String,
        }

        impl fmt::Display for ParseUuidError {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "`{}` is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)", self.text)
            }
        }

        impl std::error::Error for ParseUuidError {}

        impl fmt::Display for Uuid {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let hex = format!("{:032x}", self.0);
                write!(f, "{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
            }
        }

        impl FromStr for Uuid {
            type Err = ParseUuidError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                let error = || ParseUuidError { text: text.chars().take(64).collect() };
                let groups: Vec<&str> = text.split('-').collect();
                let shaped = groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12]);
                if !shaped || !groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit())) {
                    return Err(error());
                }
                u128::from_str_radix(&groups.concat(), 16).map(Self).map_err(|_| error())
            }
        }

        impl Serialize for Uuid {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for Uuid {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                text.parse().map_err(de::Error::custom)
            }
        }
    }
}

/// `Bytes`: binary data carried as standard base64 text.
fn bytes() -> TokenStream {
    quote! {
        /// Binary data, carried as standard base64 text (with padding) on the wire.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Bytes(pub Vec<u8>);

        impl fmt::Display for Bytes {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                use base64::Engine as _;
                f.write_str(&base64::engine::general_purpose::STANDARD.encode(&self.0))
            }
        }

        impl FromStr for Bytes {
            type Err = base64::DecodeError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                use base64::Engine as _;
                base64::engine::general_purpose::STANDARD.decode(text).map(Self)
            }
        }

        impl From<Vec<u8>> for Bytes {
            fn from(bytes: Vec<u8>) -> Self {
                Self(bytes)
            }
        }

        impl Serialize for Bytes {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for Bytes {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                text.parse().map_err(|e| de::Error::custom(format!("not base64: {e}")))
            }
        }
    }
}

/// `tagged`: decoding a tagged union by reading its tag first.
fn tagged() -> TokenStream {
    quote! {
        /// Decoding of tagged unions without a detour through a JSON tree: the tag is read first,
        /// and only entries that came before it (rare on the wire) are kept to be read again.
        pub mod tagged {
            use serde::de::value::{MapAccessDeserializer, StrDeserializer, StringDeserializer};
            use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
            use serde_json::{Map, Value};
            use std::fmt;

            /// A map key: the tag, or another key (kept as text).
            enum Key {
                Tag,
                Other(String),
            }

            /// Reads a key, allocating only when it is not the tag.
            struct KeySeed(&'static str);

            impl<'de> DeserializeSeed<'de> for KeySeed {
                type Value = Key;

                fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
                    deserializer.deserialize_str(self)
                }
            }

            impl Visitor<'_> for KeySeed {
                type Value = Key;

                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a field name")
                }

                fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                    Ok(if key == self.0 { Key::Tag } else { Key::Other(key.to_owned()) })
                }
            }

            /// Reads entries up to the `tag` field and returns its value; the entries before it
            /// are kept in `before`.
            pub fn read_tag<'de, A: MapAccess<'de>, T: Deserialize<'de>>(map: &mut A, tag: &'static str, before: &mut Vec<(String, Value)>) -> Result<T, A::Error> {
                while let Some(key) = map.next_key_seed(KeySeed(tag))? {
                    match key {
                        Key::Tag => return map.next_value(),
                        Key::Other(key) => {
                            let value = map.next_value::<Value>()?;
                            before.push((key, value));
                        }
                    }
                }
                Err(de::Error::missing_field(tag))
            }

            /// The map once more: the entries kept, the tag, then the rest as they come.
            struct Replay<A> {
                before: std::vec::IntoIter<(String, Value)>,
                tag: Option<(&'static str, Value)>,
                pending: Option<Value>,
                rest: A,
            }

            impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
                type Error = A::Error;

                fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
                    if let Some((key, value)) = self.before.next() {
                        self.pending = Some(value);
                        let key: StringDeserializer<A::Error> = key.into_deserializer();
                        return seed.deserialize(key).map(Some);
                    }
                    if let Some((key, value)) = self.tag.take() {
                        self.pending = Some(value);
                        let key: StrDeserializer<'_, A::Error> = key.into_deserializer();
                        return seed.deserialize(key).map(Some);
                    }
                    self.rest.next_key_seed(seed)
                }

                fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
                    match self.pending.take() {
                        Some(value) => seed.deserialize(value).map_err(de::Error::custom),
                        None => self.rest.next_value_seed(seed),
                    }
                }
            }

            /// Decodes the variant `T` from the whole map: the entries kept, the tag, the rest.
            pub fn variant<'de, A: MapAccess<'de>, T: Deserialize<'de>>(before: Vec<(String, Value)>, tag: &'static str, tag_value: Value, rest: A) -> Result<T, A::Error> {
                let replay = Replay { before: before.into_iter(), tag: Some((tag, tag_value)), pending: None, rest };
                T::deserialize(MapAccessDeserializer::new(replay))
            }

            /// The whole map as JSON, for a tag no variant has: kept so it writes back unchanged.
            pub fn unknown<'de, A: MapAccess<'de>>(before: Vec<(String, Value)>, tag: &'static str, tag_value: Value, mut rest: A) -> Result<Value, A::Error> {
                let mut map: Map<String, Value> = before.into_iter().collect();
                map.insert(tag.to_owned(), tag_value);
                while let Some((key, value)) = rest.next_entry::<String, Value>()? {
                    map.insert(key, value);
                }
                Ok(Value::Object(map))
            }
        }
    }
}

/// Constructors, text forms and serde impls of a `u64` newtype carried as a decimal string.
fn decimal_newtype(name: TokenStream, what: &str) -> TokenStream {
    quote! {
        impl #name {
            /// Wraps a number.
            pub const fn new(value: u64) -> Self {
                Self(value)
            }

            /// The number.
            pub const fn get(self) -> u64 {
                self.0
            }
        }

        impl fmt::Display for #name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl FromStr for #name {
            type Err = ParseIntegerError;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                parse_decimal(text).map(Self)
            }
        }

        impl From<u64> for #name {
            fn from(value: u64) -> Self {
                Self(value)
            }
        }

        impl From<#name> for u64 {
            fn from(value: #name) -> Self {
                value.0
            }
        }

        impl Serialize for #name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for #name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_any(DecimalVisitor(#what)).map(Self)
            }
        }
    }
}

/// `validation.rs`: violations, the `Validate` trait and the checks constraints compile to.
pub fn validation() -> TokenStream {
    quote! {
        //! Constraint checks shared by the server and the client: every violation, each at a JSON pointer.
        //!
        //! Pointers (RFC 6901) locate a violation in the request seen as one document:
        //! `/path/channel.id`, `/query/shard`, `/body/status`, `/body/3/id`.

        use serde::{Deserialize, Serialize};
        use std::fmt;

        /// One broken constraint: where it is and what is wrong.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub struct Violation {
            /// A JSON pointer to the offending value.
            pub pointer: String,
            /// What is wrong, in words.
            pub message: String,
        }

        impl Violation {
            /// A violation at `pointer`.
            pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
                Self { pointer: pointer.into(), message: message.into() }
            }
        }

        impl fmt::Display for Violation {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                if self.pointer.is_empty() { f.write_str(&self.message) } else { write!(f, "{}: {}", self.pointer, self.message) }
            }
        }

        /// A value whose declared constraints can be checked.
        pub trait Validate {
            /// Appends every violation in `self` to `out`, located under `pointer`.
            fn validate_at(&self, pointer: &str, out: &mut Vec<Violation>);

            /// Every violation, located from the value's root.
            fn validate(&self) -> Vec<Violation> {
                let mut out = Vec::new();
                self.validate_at("", &mut out);
                out
            }
        }

        impl<T: Validate> Validate for Vec<T> {
            fn validate_at(&self, pointer: &str, out: &mut Vec<Violation>) {
                for (index, item) in self.iter().enumerate() {
                    item.validate_at(&child(pointer, &index.to_string()), out);
                }
            }
        }

        impl<T: Validate> Validate for Option<T> {
            fn validate_at(&self, pointer: &str, out: &mut Vec<Violation>) {
                if let Some(value) = self {
                    value.validate_at(pointer, out);
                }
            }
        }

        impl<T: Validate + ?Sized> Validate for Box<T> {
            fn validate_at(&self, pointer: &str, out: &mut Vec<Violation>) {
                (**self).validate_at(pointer, out);
            }
        }

        /// `pointer` extended by one reference token, escaped as RFC 6901 says (`~` and `/`).
        pub fn child(pointer: &str, token: &str) -> String {
            format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
        }

        /// A text has at least `min` characters (Unicode scalar values).
        pub fn min_length(out: &mut Vec<Violation>, pointer: &str, value: &str, min: i64) {
            let len = value.chars().count();
            if i128::try_from(len).unwrap_or(i128::MAX) < i128::from(min) {
                out.push(Violation::new(pointer, format!("must be at least {min} characters long (got {len})")));
            }
        }

        /// A text has at most `max` characters (Unicode scalar values).
        pub fn max_length(out: &mut Vec<Violation>, pointer: &str, value: &str, max: i64) {
            let len = value.chars().count();
            if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
                out.push(Violation::new(pointer, format!("must be at most {max} characters long (got {len})")));
            }
        }

        /// A list has at least `min` items.
        pub fn min_items(out: &mut Vec<Violation>, pointer: &str, len: usize, min: i64) {
            if i128::try_from(len).unwrap_or(i128::MAX) < i128::from(min) {
                out.push(Violation::new(pointer, format!("must have at least {min} items (got {len})")));
            }
        }

        /// A list has at most `max` items.
        pub fn max_items(out: &mut Vec<Violation>, pointer: &str, len: usize, max: i64) {
            if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
                out.push(Violation::new(pointer, format!("must have at most {max} items (got {len})")));
            }
        }

        /// A number is at least `min`.
        pub fn min(out: &mut Vec<Violation>, pointer: &str, value: i128, min: i64) {
            if value < i128::from(min) {
                out.push(Violation::new(pointer, format!("must be at least {min} (got {value})")));
            }
        }

        /// A number is at most `max`.
        pub fn max(out: &mut Vec<Violation>, pointer: &str, value: i128, max: i64) {
            if value > i128::from(max) {
                out.push(Violation::new(pointer, format!("must be at most {max} (got {value})")));
            }
        }

        /// A number is below `bound`.
        pub fn max_exclusive(out: &mut Vec<Violation>, pointer: &str, value: i128, bound: i64) {
            if value >= i128::from(bound) {
                out.push(Violation::new(pointer, format!("must be less than {bound} (got {value})")));
            }
        }

        /// A number is above `bound`.
        pub fn min_exclusive(out: &mut Vec<Violation>, pointer: &str, value: i128, bound: i64) {
            if value <= i128::from(bound) {
                out.push(Violation::new(pointer, format!("must be greater than {bound} (got {value})")));
            }
        }

        /// A floating-point number is at least `min`.
        pub fn min_number(out: &mut Vec<Violation>, pointer: &str, value: f64, min: f64) {
            if value.is_nan() || value < min {
                out.push(Violation::new(pointer, format!("must be at least {min} (got {value})")));
            }
        }

        /// A floating-point number is at most `max`.
        pub fn max_number(out: &mut Vec<Violation>, pointer: &str, value: f64, max: f64) {
            if value.is_nan() || value > max {
                out.push(Violation::new(pointer, format!("must be at most {max} (got {value})")));
            }
        }

        /// A floating-point number is above `bound`.
        pub fn min_exclusive_number(out: &mut Vec<Violation>, pointer: &str, value: f64, bound: f64) {
            if value.is_nan() || value <= bound {
                out.push(Violation::new(pointer, format!("must be greater than {bound} (got {value})")));
            }
        }

        /// A floating-point number is below `bound`.
        pub fn max_exclusive_number(out: &mut Vec<Violation>, pointer: &str, value: f64, bound: f64) {
            if value.is_nan() || value >= bound {
                out.push(Violation::new(pointer, format!("must be less than {bound} (got {value})")));
            }
        }

        /// A map has at least `min` entries.
        pub fn min_entries(out: &mut Vec<Violation>, pointer: &str, len: usize, min: i64) {
            if i128::try_from(len).unwrap_or(i128::MAX) < i128::from(min) {
                out.push(Violation::new(pointer, format!("must have at least {min} entries (got {len})")));
            }
        }

        /// A map has at most `max` entries.
        pub fn max_entries(out: &mut Vec<Violation>, pointer: &str, len: usize, max: i64) {
            if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
                out.push(Violation::new(pointer, format!("must have at most {max} entries (got {len})")));
            }
        }

        /// No two items of a list are equal: each repeat is reported at its own index.
        pub fn unique_items<T: PartialEq>(out: &mut Vec<Violation>, pointer: &str, items: &[T]) {
            for (index, item) in items.iter().enumerate() {
                if let Some(first) = items[..index].iter().position(|earlier| earlier == item) {
                    out.push(Violation::new(child(pointer, &index.to_string()), format!("repeats item {first}: items must be unique")));
                }
            }
        }

        /// A text has the shape of an email address: a local part, one `@`, a domain, no spaces.
        pub fn email(out: &mut Vec<Violation>, pointer: &str, value: &str) {
            let shaped = value.split_once('@').is_some_and(|(local, domain)| {
                !local.is_empty() && !domain.is_empty() && !domain.contains('@') && !value.chars().any(|c| c.is_whitespace() || c.is_control())
            });
            if !shaped {
                out.push(Violation::new(pointer, "must be an email address (local@domain)"));
            }
        }

        /// A text is an absolute URI: a scheme (`https`, `mailto`, ...), `:`, and no spaces.
        pub fn uri(out: &mut Vec<Violation>, pointer: &str, value: &str) {
            let scheme_ok = value.split_once(':').is_some_and(|(scheme, _)| {
                scheme.starts_with(|c: char| c.is_ascii_alphabetic()) && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            });
            if !scheme_ok || value.chars().any(|c| c.is_whitespace() || c.is_control()) {
                out.push(Violation::new(pointer, "must be an absolute URI (scheme:...)"));
            }
        }

        /// A value of an open enum is one the spec names: unknown values are read, never sent.
        pub fn known(out: &mut Vec<Violation>, pointer: &str, is_known: bool, enum_id: &str, got: impl fmt::Display) {
            if !is_known {
                out.push(Violation::new(pointer, format!("is not a value of `{enum_id}` (got {got})")));
            }
        }

        /// A value is one of those a field accepts (a subset of its enum).
        pub fn one_of(out: &mut Vec<Violation>, pointer: &str, accepted: bool, allowed: &[&str], got: impl fmt::Display) {
            if !accepted {
                let names: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
                out.push(Violation::new(pointer, format!("must be one of {} (got {got})", names.join(", "))));
            }
        }

        /// A value is the one a field is fixed to.
        pub fn constant(out: &mut Vec<Violation>, pointer: &str, equal: bool, expected: &str, got: impl fmt::Display) {
            if !equal {
                out.push(Violation::new(pointer, format!("must be {expected} (got {got})")));
            }
        }

        /// A union's value is one of its variants: a value read from a newer peer is kept, never
        /// sent.
        pub fn unknown_variant(out: &mut Vec<Violation>, pointer: &str, union_id: &str, detail: impl fmt::Display) {
            out.push(Violation::new(pointer, format!("is no variant of `{union_id}` ({detail})")));
        }

        /// A file is at most `max` bytes.
        pub fn max_size(out: &mut Vec<Violation>, pointer: &str, len: usize, max: i64) {
            if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
                out.push(Violation::new(pointer, format!("must be at most {max} bytes (got {len})")));
            }
        }

        /// A value that a condition makes mandatory is present.
        pub fn required(out: &mut Vec<Violation>, pointer: &str, present: bool, condition: &str) {
            if !present {
                out.push(Violation::new(pointer, format!("is required when {condition}")));
            }
        }

        /// A fact a case states of a value holds (`message` says it when it does not).
        pub fn fact(out: &mut Vec<Violation>, pointer: &str, holds: bool, message: &str) {
            if !holds {
                out.push(Violation::new(pointer, message));
            }
        }

        /// A text is exactly `expected`.
        pub fn literal(out: &mut Vec<Violation>, pointer: &str, value: &str, expected: &str) {
            if value != expected {
                out.push(Violation::new(pointer, format!("must be `{expected}` (got `{value}`)")));
            }
        }

        /// One column of a CSV text: its name in the header, and what each of its cells must be.
        #[derive(Clone, Copy, Debug)]
        pub struct CsvColumn {
            /// The name the header line gives it.
            pub name: &'static str,
            /// What a cell must be, in words (`a snowflake`).
            pub expects: &'static str,
            /// Whether a cell is one.
            pub accepts: fn(&str) -> bool,
        }

        /// A CSV text has exactly `columns`: the header line names them in order, and every
        /// further line has one accepted cell per column. Pointers are `/<line>` (the header is
        /// line 0) and `/<line>/<column>`.
        pub fn csv(out: &mut Vec<Violation>, pointer: &str, text: &str, columns: &[CsvColumn]) {
            let mut lines = text.lines();
            let header: Vec<&str> = columns.iter().map(|c| c.name).collect();
            let expected = header.join(",");
            match lines.next() {
                Some(first) if first.trim_end_matches('\r') == expected => {}
                Some(first) => out.push(Violation::new(child(pointer, "0"), format!("the header must be exactly `{expected}` (got `{first}`)"))),
                None => {
                    out.push(Violation::new(pointer, format!("must start with the header `{expected}`")));
                    return;
                }
            }
            for (index, line) in lines.enumerate() {
                let line = line.trim_end_matches('\r');
                if line.is_empty() {
                    continue;
                }
                let row = child(pointer, &(index + 1).to_string());
                let cells: Vec<&str> = line.split(',').collect();
                if cells.len() != columns.len() {
                    out.push(Violation::new(row, format!("must have {} cell(s) (got {})", columns.len(), cells.len())));
                    continue;
                }
                for (column, (cell, spec)) in cells.iter().zip(columns).enumerate() {
                    if !(spec.accepts)(cell) {
                        out.push(Violation::new(child(&row, &column.to_string()), format!("`{}` must be {} (got `{cell}`)", spec.name, spec.expects)));
                    }
                }
            }
        }
    }
}

/// `clock.rs`: where "now" comes from.
pub fn clock() -> TokenStream {
    quote! {
        //! Where "now" comes from: the system clock in production, a fixed instant in tests.
        //!
        //! A request reads its clock once, so it never straddles the effective instant of a change.

        pub use jiff::Timestamp;
        use std::sync::Arc;

        /// A source of the current instant.
        pub trait Clock: Send + Sync {
            /// The current instant.
            fn now(&self) -> Timestamp;
        }

        /// The system's clock.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct SystemClock;

        impl Clock for SystemClock {
            fn now(&self) -> Timestamp {
                Timestamp::now()
            }
        }

        /// A clock stopped at one instant: tests put it on either side of a dated change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct FixedClock(pub Timestamp);

        impl FixedClock {
            /// A clock stopped at `text`, an RFC 3339 instant (`YYYY-MM-DDThh:mm:ssZ`).
            pub fn parse(text: &str) -> Result<Self, jiff::Error> {
                text.parse().map(Self)
            }
        }

        impl Clock for FixedClock {
            fn now(&self) -> Timestamp {
                self.0
            }
        }

        impl<C: Clock + ?Sized> Clock for Arc<C> {
            fn now(&self) -> Timestamp {
                (**self).now()
            }
        }

        impl<C: Clock + ?Sized> Clock for Box<C> {
            fn now(&self) -> Timestamp {
                (**self).now()
            }
        }

        impl<C: Clock + ?Sized> Clock for &C {
            fn now(&self) -> Timestamp {
                (**self).now()
            }
        }
    }
}

/// `patterns.rs`: each pattern of the spec compiled once, and the check that matches it.
pub fn patterns(patterns: &[String]) -> TokenStream {
    let statics = patterns.iter().enumerate().map(|(i, regex)| {
        let name = quote::format_ident!("PATTERN_{i}");
        let doc = format!(" `{regex}`.");
        quote! {
            #[doc = #doc]
            pub static #name: LazyLock<Regex> = LazyLock::new(|| Regex::new(#regex).expect("BUG: platform-codegen compiled this pattern"));
        }
    });
    quote! {
        //! The spec's string patterns, each compiled once, on first use (the generator compiled
        //! each with the same `regex` crate, so none fails here).

        use crate::validation::Violation;
        use regex::Regex;
        use std::sync::LazyLock;

        #(#statics)*

        /// A text matches `regex` somewhere (patterns are not anchored unless they say so).
        pub fn check(out: &mut Vec<Violation>, pointer: &str, value: &str, regex: &Regex, source: &str) {
            if !regex.is_match(value) {
                out.push(Violation::new(pointer, format!("must match the pattern `{source}`")));
            }
        }
    }
}
