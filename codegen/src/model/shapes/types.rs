//! Type expressions of fields: `string`, `array<snowflake>`, `map<snowflake, integer>`,
//! `union<component>`, `integer | string`, ...
//!
//! Text parses into an [`Expr`], which may hold shapes without a name of their own (an inline
//! union `integer | string`, a bare `object` whose fields follow the type). Lowering names those
//! from where they were written and replaces them by references, so the model holds only
//! [`TypeRef`]s: every shape an emitter meets has an id.

use serde::Serialize;
use std::fmt;

/// A field's type, every shape named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeRef {
    /// A primitive, by its spec name.
    Primitive(Primitive),
    /// `array<T>`.
    Array(Box<TypeRef>),
    /// `map<K, V>`: a JSON object whose keys are `K`s (as text) and values `V`s.
    Map(Box<TypeRef>, Box<TypeRef>),
    /// `enum<id>`: an enum of the spec.
    Enum(String),
    /// `flags<id>`: a flag set of the spec.
    Flags(String),
    /// `object<id>`: a resource of the spec.
    Object(String),
    /// `class<id>`: an SDK class of the spec.
    Class(String),
    /// `union<id>`: a union of the spec.
    Union(String),
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
    Number,
    Float32,
    Snowflake,
    Timestamp,
    Date,
    Uuid,
    Email,
    StringInteger,
    Url,
    Bytes,
    File,
    Csv,
    Json,
    Null,
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
        ("number", Primitive::Number),
        ("float32", Primitive::Float32),
        ("snowflake", Primitive::Snowflake),
        ("timestamp", Primitive::Timestamp),
        ("date", Primitive::Date),
        ("uuid", Primitive::Uuid),
        ("email", Primitive::Email),
        ("string_integer", Primitive::StringInteger),
        ("url", Primitive::Url),
        ("bytes", Primitive::Bytes),
        ("file", Primitive::File),
        ("csv", Primitive::Csv),
        ("json", Primitive::Json),
        ("null", Primitive::Null),
    ];

    /// Other spellings accepted for a primitive: the names OpenAPI's formats use.
    pub const ALIASES: &[(&'static str, Primitive)] = &[("date_time", Primitive::Timestamp), ("uri", Primitive::Url)];

    /// The spec spelling.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, p)| *p == self).map(|(n, _)| *n).expect("BUG: primitive without a name")
    }

    /// The primitive a spelling names, aliases included.
    pub fn named(text: &str) -> Option<Primitive> {
        Self::ALL.iter().chain(Self::ALIASES).find(|(name, _)| *name == text).map(|(_, p)| *p)
    }

    /// Whether values are integers (for integer `min`/`max`).
    pub fn is_integer(self) -> bool {
        matches!(self, Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64 | Primitive::StringInteger)
    }

    /// Whether values are floating-point numbers.
    pub fn is_float(self) -> bool {
        matches!(self, Primitive::Number | Primitive::Float32)
    }

    /// Whether values are numbers (for `min`/`max`).
    pub fn is_numeric(self) -> bool {
        self.is_integer() || self.is_float()
    }

    /// Whether values are text (for `min_length`/`max_length` and `pattern`).
    pub fn is_text(self) -> bool {
        matches!(self, Primitive::String | Primitive::Url | Primitive::Email)
    }

    /// The texts the wire types read for this primitive, as a JSON Schema pattern, where they
    /// are fewer than `type: string` with the primitive's format says: a validator need not
    /// assert a format (`contentEncoding` is an annotation in JSON Schema 2020-12), and a tool
    /// generating data from a document would then send texts the server refuses.
    pub fn wire_pattern(self) -> Option<&'static str> {
        match self {
            Primitive::Snowflake | Primitive::StringInteger => Some(DECIMAL_U64),
            Primitive::Date => Some(CALENDAR_DATE),
            Primitive::Bytes => Some(BASE64),
            _ => None,
        }
    }
}

/// Decimal text of a u64, as the wire types read it: any number of digits up to 19, and the
/// 20-digit ones up to 17999999999999999999. The 20-digit values above that and below
/// `u64::MAX` are read too; a document promises a little less than the server takes, never
/// more, since a pattern for exactly `u64::MAX` would be some 300 characters on every id.
const DECIMAL_U64: &str = "^(?:[0-9]{1,19}|1[0-7][0-9]{18})$";

/// A calendar date, `YYYY-MM-DD`, month 01 to 12 and day 01 to 31 (the calendar itself, day 31
/// of April, is the `date` format's to say).
const CALENDAR_DATE: &str = "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$";

/// Base64 with the standard alphabet and padding (RFC 4648 §4), canonical: the bits a last
/// character carries beyond the data are zero (`AQ==`, never `AR==`), as the decoder requires.
const BASE64: &str = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$";

/// The constructors `name<arg>`.
pub const CONSTRUCTORS: &[&str] = &["array", "map", "enum", "flags", "object", "class", "union"];

/// A type expression as written: like [`TypeRef`], plus the shapes lowering names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A primitive.
    Primitive(Primitive),
    /// `array<T>`.
    Array(Box<Expr>),
    /// `map<K, V>`.
    Map(Box<Expr>, Box<Expr>),
    /// `enum<id>`.
    Enum(String),
    /// `flags<id>`.
    Flags(String),
    /// `object<id>`, or a bare `object` whose fields the field declares inline (`None`).
    Object(Option<String>),
    /// `class<id>`.
    Class(String),
    /// `union<id>`.
    Union(String),
    /// `A | B | ...`: an inline union tried in the written order.
    Alternatives(Vec<Expr>),
}

impl Expr {
    /// Parses a type expression; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Expr, String> {
        let text = text.trim();
        let parts = split_top(text, '|');
        if parts.len() > 1 {
            let alternatives = parts.iter().map(|p| Expr::parse(p)).collect::<Result<Vec<_>, _>>()?;
            if alternatives.iter().any(|a| matches!(a, Expr::Alternatives(_))) {
                return Err(format!("`{text}` nests alternatives"));
            }
            return Ok(Expr::Alternatives(alternatives));
        }
        if text.is_empty() {
            return Err("an alternative is empty".to_owned());
        }
        if let Some((ctor, rest)) = text.split_once('<') {
            let inner = rest.strip_suffix('>').ok_or_else(|| format!("`{text}` is missing its closing `>`"))?.trim();
            if inner.is_empty() {
                return Err(format!("`{ctor}<>` needs a type argument"));
            }
            return match ctor.trim() {
                "array" => Ok(Expr::Array(Box::new(Expr::parse(inner)?))),
                "map" => {
                    let args = split_top(inner, ',');
                    let [key, value] = args.as_slice() else {
                        return Err(format!("`map<{inner}>` needs a key type and a value type: `map<string, V>`"));
                    };
                    Ok(Expr::Map(Box::new(Expr::parse(key)?), Box::new(Expr::parse(value)?)))
                }
                "enum" => Ok(Expr::Enum(id_argument(inner)?)),
                "flags" => Ok(Expr::Flags(id_argument(inner)?)),
                "object" => Ok(Expr::Object(Some(id_argument(inner)?))),
                "class" => Ok(Expr::Class(id_argument(inner)?)),
                "union" => Ok(Expr::Union(id_argument(inner)?)),
                other => Err(format!("unknown type constructor `{other}`")),
            };
        }
        if text == "object" {
            return Ok(Expr::Object(None));
        }
        Primitive::named(text).map(Expr::Primitive).ok_or_else(|| format!("unknown type `{text}`"))
    }

    /// The expression without inline shapes, or `None` when it holds one.
    pub fn to_type_ref(&self) -> Option<TypeRef> {
        Some(match self {
            Expr::Primitive(p) => TypeRef::Primitive(*p),
            Expr::Array(inner) => TypeRef::Array(Box::new(inner.to_type_ref()?)),
            Expr::Map(k, v) => TypeRef::Map(Box::new(k.to_type_ref()?), Box::new(v.to_type_ref()?)),
            Expr::Enum(id) => TypeRef::Enum(id.clone()),
            Expr::Flags(id) => TypeRef::Flags(id.clone()),
            Expr::Object(Some(id)) => TypeRef::Object(id.clone()),
            Expr::Class(id) => TypeRef::Class(id.clone()),
            Expr::Union(id) => TypeRef::Union(id.clone()),
            Expr::Object(None) | Expr::Alternatives(_) => return None,
        })
    }

    /// How many bare `object`s the expression holds (outside alternatives).
    pub fn bare_objects(&self) -> usize {
        match self {
            Expr::Object(None) => 1,
            Expr::Array(inner) => inner.bare_objects(),
            Expr::Map(k, v) => k.bare_objects() + v.bare_objects(),
            _ => 0,
        }
    }

    /// A snake_case name for an alternative of an inline union: `integer`, `user` for
    /// `object<user>`, `array_of_string`.
    pub fn variant_name(&self) -> String {
        match self {
            Expr::Primitive(p) => p.name().to_owned(),
            Expr::Array(inner) => format!("array_of_{}", inner.variant_name()),
            Expr::Map(_, v) => format!("map_of_{}", v.variant_name()),
            Expr::Enum(id) | Expr::Flags(id) | Expr::Object(Some(id)) | Expr::Class(id) | Expr::Union(id) => id.clone(),
            Expr::Object(None) => "object".to_owned(),
            Expr::Alternatives(_) => "alternatives".to_owned(),
        }
    }
}

/// The argument of `enum<id>` and the like: an id, not another expression.
fn id_argument(inner: &str) -> Result<String, String> {
    if inner.contains(['<', '>', ',', '|']) {
        return Err(format!("`{inner}` is not an id"));
    }
    Ok(inner.to_owned())
}

/// Splits at `sep` outside `<...>`.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(text[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out
}

impl TypeRef {
    /// Parses a type expression that names every shape (no inline union, no bare `object`).
    pub fn parse(text: &str) -> Result<TypeRef, String> {
        let expr = Expr::parse(text)?;
        expr.to_type_ref().ok_or_else(|| format!("`{}` declares a shape inline, which only a field can do", text.trim()))
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

    /// Whether the C ABI carries a value of this type: scalars, text, enums, flag sets and class
    /// handles do; binary data, `null` and compound shapes (arrays, maps, objects, unions) stay
    /// on the Rust side (docs/decisions.md). The C plan and validation's W0145 both ask here.
    pub fn crosses_c_abi(&self) -> bool {
        match self {
            TypeRef::Primitive(p) => !matches!(p, Primitive::File | Primitive::Bytes | Primitive::Null),
            TypeRef::Enum(_) | TypeRef::Flags(_) | TypeRef::Class(_) => true,
            TypeRef::Array(_) | TypeRef::Object(_) | TypeRef::Map(..) | TypeRef::Union(_) => false,
        }
    }

    /// Every type this one is built from, itself first (array elements, map keys and values).
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a TypeRef)) {
        f(self);
        match self {
            TypeRef::Array(inner) => inner.walk(f),
            TypeRef::Map(k, v) => {
                k.walk(f);
                v.walk(f);
            }
            _ => {}
        }
    }
}

impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeRef::Primitive(p) => f.write_str(p.name()),
            TypeRef::Array(inner) => write!(f, "array<{inner}>"),
            TypeRef::Map(k, v) => write!(f, "map<{k}, {v}>"),
            TypeRef::Enum(id) => write!(f, "enum<{id}>"),
            TypeRef::Flags(id) => write!(f, "flags<{id}>"),
            TypeRef::Object(id) => write!(f, "object<{id}>"),
            TypeRef::Class(id) => write!(f, "class<{id}>"),
            TypeRef::Union(id) => write!(f, "union<{id}>"),
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
        for text in [
            "string",
            "array<snowflake>",
            "array<array<object<partial_role>>>",
            "enum<x>",
            "class<A>",
            "map<snowflake, integer>",
            "map<enum<locale>, array<string>>",
            "union<component>",
            "number",
            "float32",
            "bytes",
        ] {
            assert_eq!(TypeRef::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn aliases_name_their_primitive() {
        assert_eq!(TypeRef::parse("date_time").unwrap(), TypeRef::Primitive(Primitive::Timestamp));
        assert_eq!(TypeRef::parse("uri").unwrap(), TypeRef::Primitive(Primitive::Url));
    }

    #[test]
    fn rejects_unknown() {
        assert_eq!(TypeRef::parse("strng").unwrap_err(), "unknown type `strng`");
        assert!(TypeRef::parse("array<string").is_err());
        assert!(TypeRef::parse("map<string>").is_err());
        assert!(TypeRef::parse("map<string, integer, integer>").is_err());
        assert!(TypeRef::parse("enum<a<b>>").is_err());
    }

    #[test]
    fn alternatives_and_bare_objects_are_inline_shapes() {
        assert_eq!(
            Expr::parse("integer | string | null").unwrap(),
            Expr::Alternatives(vec![Expr::Primitive(Primitive::Integer), Expr::Primitive(Primitive::String), Expr::Primitive(Primitive::Null)])
        );
        assert_eq!(
            Expr::parse("array<integer | map<string, string>>").unwrap(),
            Expr::Array(Box::new(Expr::Alternatives(vec![
                Expr::Primitive(Primitive::Integer),
                Expr::Map(Box::new(Expr::Primitive(Primitive::String)), Box::new(Expr::Primitive(Primitive::String))),
            ])))
        );
        assert_eq!(Expr::parse("array<object>").unwrap().bare_objects(), 1);
        assert!(TypeRef::parse("integer | string").is_err());
        assert!(Expr::parse("integer |").is_err());
    }
}
