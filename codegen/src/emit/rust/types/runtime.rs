//! The spec-independent modules of the types crate: wire primitives, validation and clocks.
//!
//! They are emitted like the rest so the generated crate stands alone (no runtime crate to keep
//! in step), and they read the same whatever the spec says.

use proc_macro2::TokenStream;
use quote::quote;

/// `wire.rs`: snowflakes, string-serialized integers, raw bodies and, when some field may be
/// both absent and `null`, the serde adapter that tells the two apart.
pub fn wire((double_option, present): (bool, bool)) -> TokenStream {
    let snowflake = decimal_newtype(quote!(Snowflake), "a snowflake id (a decimal string)");
    let string_integer = decimal_newtype(quote!(StringInteger), "an integer as a decimal string");
    let adapter = double_option.then(|| {
        quote! {
            /// Serde adapter for fields that may be absent (`None`) or `null` (`Some(None)`).
            pub(crate) mod double_option {
                use serde::{Deserialize, Deserializer, Serialize, Serializer};

                /// Writes `Some(None)` as `null`; `None` is skipped by the field's attributes.
                pub fn serialize<T: Serialize, S: Serializer>(value: &Option<Option<T>>, serializer: S) -> Result<S::Ok, S::Error> {
                    match value {
                        Some(inner) => inner.serialize(serializer),
                        None => serializer.serialize_none(),
                    }
                }

                /// A present field is `Some`, whether or not it is `null`.
                pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Option<T>>, D::Error> {
                    Option::<T>::deserialize(deserializer).map(Some)
                }
            }
        }
    });
    let present = present.then(|| {
        quote! {
            /// Serde adapter for optional fields that are not nullable: a present field is `Some`,
            /// so `null` is refused unless it is one of the type's values (JSON keeps it).
            pub(crate) fn present<'de, T: Deserialize<'de>, D: Deserializer<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
                T::deserialize(deserializer).map(Some)
            }
        }
    });
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

        #adapter

        #present
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
            /// A clock stopped at `text`, an RFC 3339 instant such as `2026-11-16T00:00:00Z`.
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
