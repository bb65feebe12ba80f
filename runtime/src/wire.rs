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
///
/// One pass over the bytes (every snowflake in a path is read with it): `str::parse` would
/// accept a `+` sign, so the digits had to be checked in a pass of their own before it.
pub fn parse_decimal(text: &str) -> Result<u64, ParseIntegerError> {
    let refused = || ParseIntegerError { text: text.chars().take(64).collect() };
    if text.is_empty() {
        return Err(refused());
    }
    text.bytes()
        .try_fold(0u64, |value, b| {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            value.checked_mul(10)?.checked_add(u64::from(digit))
        })
        .ok_or_else(refused)
}

impl Snowflake {
    /// Wraps a number.
    pub const fn new(value: u64) -> Self {
        Self(value)
    }

    /// The number.
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for Snowflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for Snowflake {
    type Err = ParseIntegerError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_decimal(text).map(Self)
    }
}

impl From<u64> for Snowflake {
    fn from(value: u64) -> Self {
        Self(value)
    }
}

impl From<Snowflake> for u64 {
    fn from(value: Snowflake) -> Self {
        value.0
    }
}

impl Serialize for Snowflake {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Snowflake {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DecimalVisitor("a snowflake id (a decimal string)")).map(Self)
    }
}

impl StringInteger {
    /// Wraps a number.
    pub const fn new(value: u64) -> Self {
        Self(value)
    }

    /// The number.
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for StringInteger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for StringInteger {
    type Err = ParseIntegerError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_decimal(text).map(Self)
    }
}

impl From<u64> for StringInteger {
    fn from(value: u64) -> Self {
        Self(value)
    }
}

impl From<StringInteger> for u64 {
    fn from(value: StringInteger) -> Self {
        value.0
    }
}

impl Serialize for StringInteger {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for StringInteger {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DecimalVisitor("an integer as a decimal string")).map(Self)
    }
}

/// Reads a `u64` from a decimal string or a non-negative JSON number.
#[doc(hidden)]
pub struct DecimalVisitor(pub &'static str);

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

/// The text of a parameter whose type has no text form of its own (a union, an object):
/// a value that is a JSON string is its text, any other value its JSON.
pub fn param_text<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => text,
        Ok(other) => other.to_string(),
        Err(e) => panic!("BUG: a generated type serializes to JSON: {e}"),
    }
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

/// A field that may be absent, `null` or a value: the three states a partial update
/// tells apart (leave it, clear it, set it).
///
/// A struct reads an absent field as [`Presence::Absent`] ([`members`]); declare it
/// `#[serde(skip_serializing_if = "Presence::is_absent")]` so it is left out when written.
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

/// A list from an array (`[embed]`), as an `Option<Vec<T>>` field's setter takes one too.
impl<T, const N: usize> From<[T; N]> for Presence<Vec<T>> {
    fn from(value: [T; N]) -> Self {
        Self::Value(value.into())
    }
}

/// A text value from a string literal, as a `String` field takes it.
impl From<&str> for Presence<String> {
    fn from(value: &str) -> Self {
        Self::Value(value.to_owned())
    }
}

impl<T: Serialize> Serialize for Presence<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Value(value) => value.serialize(serializer),
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
    fn validate_at(&self, pointer: &crate::validation::Pointer<'_>, out: &mut Vec<crate::validation::Violation>) {
        if let Self::Value(value) = self {
            value.validate_at(pointer, out);
        }
    }
}

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

#[cfg(feature = "bytes")]
pub use bytes::Bytes;

#[cfg(feature = "bytes")]
mod bytes {
    use serde::de::{self, Deserializer};
    use serde::{Deserialize, Serialize, Serializer};
    use std::fmt;
    use std::str::FromStr;

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

/// A calendar date, `YYYY-MM-DD` on the wire.
pub use jiff::civil::Date;

/// The map of `map<K, V>` fields: entries keep the order they were read in.
#[cfg(feature = "map")]
pub use indexmap::IndexMap;

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
    pub fn variant<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
        before: Vec<(String, Value)>,
        tag: &'static str,
        tag_value: Value,
        rest: A,
    ) -> Result<T, A::Error> {
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

/// Structs read from a map member by member: what the `Deserialize` of every generated struct
/// calls.
///
/// A generated struct says only what depends on the spec (its members' wire names, which of them
/// must be given, what an absent one stands for, what becomes of a name it does not list), in
/// one function over the map; the visitor, the keys and the errors are here, once. Serde's
/// derive writes all of it again for every struct (a field enum with its own visitor, a
/// sequence visitor, an adapter type per `deserialize_with` field), which is most of what a
/// large API's types crate gives the compiler to check. The errors are serde's own
/// (`missing field`, `duplicate field`, `unknown field`), so they read as the derive's did.
pub mod members {
    use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
    use std::borrow::Cow;
    use std::fmt;
    use std::marker::PhantomData;

    /// A struct read member by member from a map.
    pub trait FromMembers<'de>: Sized {
        /// Its name, as errors give it (`expected struct Channel`).
        const NAME: &'static str;
        /// The wire names of its members, in order (what an unknown member's error lists).
        const MEMBERS: &'static [&'static str];

        /// Reads the value from the map's entries.
        fn from_members<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
    }

    /// `T` from a deserializer that gives a map (a JSON object, a form's pairs).
    pub fn deserialize<'de, T: FromMembers<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_struct(T::NAME, T::MEMBERS, MembersVisitor(PhantomData))
    }

    struct MembersVisitor<T>(PhantomData<T>);

    impl<'de, T: FromMembers<'de>> Visitor<'de> for MembersVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "struct {}", T::NAME)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::from_members(map)
        }
    }

    /// A member's name as the map gives it, borrowed from the input where the input allows.
    pub struct Key<'de>(Cow<'de, str>);

    impl Key<'_> {
        /// The name.
        pub fn as_str(&self) -> &str {
            &self.0
        }
    }

    impl<'de> Deserialize<'de> for Key<'de> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_identifier(KeyVisitor)
        }
    }

    struct KeyVisitor;

    impl<'de> Visitor<'de> for KeyVisitor {
        type Value = Key<'de>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a member name")
        }

        fn visit_borrowed_str<E: de::Error>(self, name: &'de str) -> Result<Key<'de>, E> {
            Ok(Key(Cow::Borrowed(name)))
        }

        fn visit_str<E: de::Error>(self, name: &str) -> Result<Key<'de>, E> {
            Ok(Key(Cow::Owned(name.to_owned())))
        }

        fn visit_string<E: de::Error>(self, name: String) -> Result<Key<'de>, E> {
            Ok(Key(Cow::Owned(name)))
        }

        fn visit_borrowed_bytes<E: de::Error>(self, name: &'de [u8]) -> Result<Key<'de>, E> {
            std::str::from_utf8(name).map(|n| Key(Cow::Borrowed(n))).map_err(|_| E::invalid_value(de::Unexpected::Bytes(name), &self))
        }

        fn visit_bytes<E: de::Error>(self, name: &[u8]) -> Result<Key<'de>, E> {
            std::str::from_utf8(name).map(|n| Key(Cow::Owned(n.to_owned()))).map_err(|_| E::invalid_value(de::Unexpected::Bytes(name), &self))
        }
    }

    /// Reads the value of the member `name` into its slot; a member given twice is refused.
    #[inline]
    pub fn take<'de, T: Deserialize<'de>, A: MapAccess<'de>>(map: &mut A, slot: &mut Option<T>, name: &'static str) -> Result<(), A::Error> {
        if slot.is_some() {
            return Err(de::Error::duplicate_field(name));
        }
        *slot = Some(map.next_value()?);
        Ok(())
    }

    /// The value of a member that must be given.
    #[inline]
    pub fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
        slot.ok_or_else(|| E::missing_field(name))
    }

    /// Reads past the value of a member the struct does not list.
    #[inline]
    pub fn skip<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
        map.next_value::<IgnoredAny>().map(|_| ())
    }

    /// Keeps the value of a member the struct does not list, under its name.
    pub fn keep<'de, A: MapAccess<'de>>(map: &mut A, extra: &mut serde_json::Map<String, serde_json::Value>, key: Key<'de>) -> Result<(), A::Error> {
        let value = map.next_value()?;
        extra.insert(key.0.into_owned(), value);
        Ok(())
    }

    /// The error of a member a closed struct does not list.
    pub fn unknown<E: de::Error>(key: &Key<'_>, members: &'static [&'static str]) -> E {
        E::unknown_field(key.as_str(), members)
    }

    /// Reads a map whose every member is one the struct does not list (a struct without
    /// fields): each is skipped, kept in `extra`, or refused when `closed`.
    pub fn others<'de, A: MapAccess<'de>>(
        mut map: A,
        mut extra: Option<&mut serde_json::Map<String, serde_json::Value>>,
        closed: bool,
    ) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match extra.as_deref_mut() {
                Some(extra) => keep(&mut map, extra, key)?,
                None if closed => return Err(unknown(&key, &[])),
                None => skip(&mut map)?,
            }
        }
        Ok(())
    }
}

/// One file of a multipart body: the file name it was sent with, its media type and bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilePart {
    /// The file name, when the sender gave one.
    pub filename: Option<String>,
    /// The media type it was sent with (`application/octet-stream` when none was given).
    pub content_type: String,
    /// The bytes as sent.
    pub bytes: Vec<u8>,
}
