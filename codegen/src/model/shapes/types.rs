//! Type expressions of fields: `string`, `array<snowflake>`, `enum<subscription_status>`, ...

use serde::Serialize;
use std::fmt;

/// A field's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeRef {
    /// A primitive, by its spec name.
    Primitive(Primitive),
    /// `array<T>`.
    Array(Box<TypeRef>),
    /// `enum<id>`: an enum of the spec.
    Enum(String),
    /// `flags<id>`: a flag set of the spec.
    Flags(String),
    /// `object<id>`: a resource of the spec.
    Object(String),
    /// `class<id>`: an SDK class of the spec.
    Class(String),
}

/// The primitive types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    String,
    Boolean,
    Integer,
    Int32,
    Uint32,
    Uint64,
    Snowflake,
    Timestamp,
    StringInteger,
    Url,
    File,
    Csv,
    Json,
}

impl Primitive {
    /// Every primitive with its spec spelling.
    pub const ALL: &[(&'static str, Primitive)] = &[
        ("string", Primitive::String),
        ("boolean", Primitive::Boolean),
        ("integer", Primitive::Integer),
        ("int32", Primitive::Int32),
        ("uint32", Primitive::Uint32),
        ("uint64", Primitive::Uint64),
        ("snowflake", Primitive::Snowflake),
        ("timestamp", Primitive::Timestamp),
        ("string_integer", Primitive::StringInteger),
        ("url", Primitive::Url),
        ("file", Primitive::File),
        ("csv", Primitive::Csv),
        ("json", Primitive::Json),
    ];

    /// The spec spelling.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, p)| *p == self).map(|(n, _)| *n).expect("BUG: primitive without a name")
    }

    /// Whether values are numbers (for `min`/`max`).
    pub fn is_numeric(self) -> bool {
        matches!(self, Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64 | Primitive::StringInteger)
    }

    /// Whether values are text (for `min_length`/`max_length`).
    pub fn is_text(self) -> bool {
        matches!(self, Primitive::String | Primitive::Url)
    }
}

/// The constructors `name<arg>`.
pub const CONSTRUCTORS: &[&str] = &["array", "enum", "flags", "object", "class"];

impl TypeRef {
    /// Parses a type expression; the error says what is wrong.
    pub fn parse(text: &str) -> Result<TypeRef, String> {
        let text = text.trim();
        if let Some((ctor, rest)) = text.split_once('<') {
            let inner = rest.strip_suffix('>').ok_or_else(|| format!("`{text}` is missing its closing `>`"))?.trim();
            if inner.is_empty() {
                return Err(format!("`{ctor}<>` needs a type argument"));
            }
            return match ctor.trim() {
                "array" => Ok(TypeRef::Array(Box::new(TypeRef::parse(inner)?))),
                "enum" => Ok(TypeRef::Enum(inner.to_owned())),
                "flags" => Ok(TypeRef::Flags(inner.to_owned())),
                "object" => Ok(TypeRef::Object(inner.to_owned())),
                "class" => Ok(TypeRef::Class(inner.to_owned())),
                other => Err(format!("unknown type constructor `{other}`")),
            };
        }
        Primitive::ALL
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, p)| TypeRef::Primitive(*p))
            .ok_or_else(|| format!("unknown type `{text}`"))
    }

    /// The innermost element type of arrays.
    pub fn element(&self) -> &TypeRef {
        match self {
            TypeRef::Array(inner) => inner.element(),
            other => other,
        }
    }

    /// The primitive, if this is one.
    pub fn primitive(&self) -> Option<Primitive> {
        match self {
            TypeRef::Primitive(p) => Some(*p),
            _ => None,
        }
    }
}

impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeRef::Primitive(p) => f.write_str(p.name()),
            TypeRef::Array(inner) => write!(f, "array<{inner}>"),
            TypeRef::Enum(id) => write!(f, "enum<{id}>"),
            TypeRef::Flags(id) => write!(f, "flags<{id}>"),
            TypeRef::Object(id) => write!(f, "object<{id}>"),
            TypeRef::Class(id) => write!(f, "class<{id}>"),
        }
    }
}

impl Serialize for TypeRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_back() {
        for text in ["string", "array<snowflake>", "array<array<object<partial_role>>>", "enum<x>", "class<A>"] {
            assert_eq!(TypeRef::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn rejects_unknown() {
        assert_eq!(TypeRef::parse("strng").unwrap_err(), "unknown type `strng`");
        assert!(TypeRef::parse("array<string").is_err());
        assert!(TypeRef::parse("map<string>").is_err());
    }
}
