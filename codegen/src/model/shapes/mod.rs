//! Data shapes: resources, fields with their constraints and bounds, unions, enums and flag
//! sets; the type expressions fields are written in are [`types`].

pub mod types;

pub use types::TypeRef;

use super::{Cond, Gap, Meta, Model, Ref, Text};
use crate::diag::Span;
use indexmap::IndexMap;
use serde::Serialize;

/// A resource.
#[derive(Clone, Debug, Serialize)]
pub struct Resource {
    #[serde(flatten)]
    pub meta: Meta,
    pub direction: String,
    /// The resources whose fields come first (`allOf`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extends: Vec<Ref>,
    /// Every field: those of the bases first (marked `inherited_from`), then its own.
    pub fields: Vec<Field>,
    /// The object has no members but its fields: an unknown member is refused.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub closed: bool,
    /// For an object declared inline in a field, where (`create_message.body.allowed_mentions`);
    /// its id is that path with `_` for `.`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inline: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<Case>,
}

/// A shape an object (resource or event payload) takes when a condition holds.
#[derive(Clone, Debug, Serialize)]
pub struct Case {
    #[serde(flatten)]
    pub meta: Meta,
    pub when: super::Rule,
    pub fields: Vec<CaseField>,
}

/// What a case says about one field of its object.
#[derive(Clone, Debug, Serialize)]
pub struct CaseField {
    /// The field's name in the object.
    pub field: Ref,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal: Option<String>,
    /// Flag ids of the field's flag set that are set.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contains: Vec<Ref>,
    /// Enum values (`enum_id.VALUE`) no element of the field carries.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub omits: Vec<Ref>,
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
}

impl Resource {
    /// The fields declared on the resource itself, without those of its bases.
    pub fn own_fields(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| f.inherited_from.is_none())
    }
}

/// A union: one value of several shapes, named by a discriminator field (tagged) or tried in the
/// declared order (untagged).
#[derive(Clone, Debug, Serialize)]
pub struct Union {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discriminator: Option<Discriminator>,
    /// The variants in order; each is a field whose name is the variant's and whose type and
    /// constraints are the variant's shape.
    pub variants: Vec<Field>,
    /// For a union written inline (`integer | string`), the path of the field it types.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inline: Option<String>,
}

impl Union {
    /// The order an untagged union tries its variants in, most specific first: objects whose
    /// members say what they are (a required member, a constant), then the rest as written,
    /// then maps (which take any object), then `json` (which takes anything). So a map of
    /// anything written before an object with required members does not take its values.
    pub fn try_order<'u>(&'u self, model: &Model) -> Vec<&'u Field> {
        let rank = |v: &Field| match &v.ty {
            Some(TypeRef::Object(id))
                if model.resource(id).is_some_and(|r| r.fields.iter().any(|f| f.constant.is_some() || !(f.may_be_absent() || f.nullable))) =>
            {
                0
            }
            Some(TypeRef::Map(..)) => 2,
            Some(TypeRef::Primitive(crate::model::types::Primitive::Json)) => 3,
            _ => 1,
        };
        let mut order: Vec<&Field> = self.variants.iter().collect();
        order.sort_by_key(|v| rank(v));
        order
    }

    /// The fields every variant has alike, when every variant is a record: the same name, the
    /// same Rust name and the same value type (each may be optional or nullable on its own), in
    /// the first variant's order. A union of channel kinds shares `id`; the Rust enum reads such
    /// a field whatever the variant (serenity's `Channel::id`).
    pub fn shared_fields<'m>(&self, model: &'m Model) -> Vec<&'m Field> {
        let records: Option<Vec<&Resource>> = self
            .variants
            .iter()
            .map(|v| match &v.ty {
                Some(TypeRef::Object(id)) => model.resource(id),
                _ => None,
            })
            .collect();
        let Some((first, rest)) = records.as_deref().and_then(<[_]>::split_first) else { return Vec::new() };
        first.fields.iter().filter(|f| rest.iter().all(|r| r.fields.iter().any(|g| g.name == f.name && same_value(f, g)))).collect()
    }
}

/// Two fields hold values of one Rust type: the same name in Rust, the same type, and lists
/// whose elements may be null alike at every depth.
fn same_value(a: &Field, b: &Field) -> bool {
    fn nulls(items: Option<&Items>) -> Vec<bool> {
        std::iter::successors(items, |i| i.items.as_deref()).map(|i| i.nullable).collect()
    }
    a.rust() == b.rust() && a.ty == b.ty && nulls(a.items.as_ref()) == nulls(b.items.as_ref())
}

/// How an error body nests violations by field (Discord's `errors`): a union of a map of
/// itself (a member per field name or item index) and a record whose one member, required,
/// lists what is wrong at that point, each item a record with a `message` text and maybe a
/// `code`. The runtime reads such a tree into violations at JSON pointers and writes one back.
#[derive(Clone, Debug, PartialEq)]
pub struct ViolationTree {
    /// The member that lists a point's violations (`_errors`).
    pub leaf: String,
    /// The type of the items' `code`, when they have one: an integer or a string.
    pub code: Option<crate::model::types::Primitive>,
}

impl Model {
    /// The tree `ty` is, when it is a union of that shape (see [`ViolationTree`]) whose items
    /// can be written from a violation: no member besides `message` and `code` that must be
    /// given.
    pub fn violation_tree(&self, ty: &TypeRef) -> Option<ViolationTree> {
        let TypeRef::Union(id) = ty else { return None };
        let union = self.union(id).filter(|u| u.discriminator.is_none() && u.variants.len() == 2)?;
        let is_self = |t: &TypeRef| matches!(t, TypeRef::Union(u) if u == id);
        let map = union.variants.iter().any(|v| matches!(&v.ty, Some(TypeRef::Map(_, value)) if is_self(value)));
        let node = union.variants.iter().find_map(|v| match &v.ty {
            Some(TypeRef::Object(r)) => self.resource(r),
            _ => None,
        })?;
        let [list] = node.fields.as_slice() else { return None };
        let Some(TypeRef::Array(item)) = &list.ty else { return None };
        let TypeRef::Object(item) = item.as_ref() else { return None };
        let item = self.resource(item)?;
        let primitive = |f: &Field| match &f.ty {
            Some(TypeRef::Primitive(p)) => Some(*p),
            _ => None,
        };
        let message = item.fields.iter().any(|f| f.wire() == "message" && primitive(f) == Some(crate::model::types::Primitive::String));
        let code = item.fields.iter().find(|f| f.wire() == "code").and_then(primitive);
        let code_fits = {
            use crate::model::types::Primitive::{Int32, Integer, String};
            matches!(code, None | Some(Integer | Int32 | String))
        };
        let writable = item.fields.iter().all(|f| matches!(f.wire(), "message" | "code") || !f.must_be_given());
        let listed = !(list.may_be_absent() || list.nullable) && list.wire() != "message";
        (map && message && code_fits && writable && listed).then(|| ViolationTree { leaf: list.wire().to_owned(), code })
    }
}

/// The field that names a tagged union's variant.
#[derive(Clone, Debug, Serialize)]
pub struct Discriminator {
    /// Its wire name.
    pub field: String,
    #[serde(rename = "type")]
    pub ty: Option<TypeRef>,
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    pub type_span: Span,
}

/// A value written in the spec (a default, a constant, a tag), kept as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    pub value: serde_json::Value,
    pub span: Span,
}

impl Serialize for Literal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

/// Per-element rules of an array (or per-value rules of a map).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Items {
    /// An element may be `null`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nullable: bool,
    #[serde(flatten)]
    pub constraints: Constraints,
    /// The rules of the elements' own elements.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Items>>,
    #[serde(skip)]
    pub span: Span,
}

/// A field, query parameter, path parameter, header, body member, multipart part, SDK class
/// member or union variant.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Field {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wire_name: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<TypeRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub optional: bool,
    pub nullable: bool,
    /// The value an absent field stands for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Literal>,
    /// A default the source states in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_text: Option<String>,
    /// A value the field may take, as the wire carries it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<Literal>,
    /// A format the generated code does not check, carried to OpenAPI and the docs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal: Option<String>,
    /// The one value the field takes.
    #[serde(rename = "const", skip_serializing_if = "Option::is_none")]
    pub constant: Option<Literal>,
    /// The enum values the field accepts, when not all of its enum's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subset: Vec<Ref>,
    /// For a variant of a tagged union, its discriminator value when written on the variant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag: Option<Literal>,
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    pub constraints: Constraints,
    /// Rules for each element of an array or value of a map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Items>,
    /// For a field a resource takes from a base it extends, that base.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_when: Option<Cond>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requires_scope: Option<Ref>,
    /// How an array travels (`repeated`, `comma`, `indexed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub style: Option<Text>,
    /// The media type a multipart part carries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The stem of the field's Rust identifiers when it is not the name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rust_name: Option<Ref>,
    /// The stem of the field's C and C++ identifiers when it is not the name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c_name: Option<Ref>,
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    pub type_span: Span,
    /// Where `optional:` was written; `None` when the spec is silent about presence.
    #[serde(skip)]
    pub optional_span: Option<Span>,
    /// Where `nullable: true` was written.
    #[serde(skip)]
    pub nullable_span: Option<Span>,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
}

/// The keys a field accepts besides its own name: what a field's `assumed` may name (`name` is
/// the field's key, `type`, `optional`, ...).
pub fn field_keys() -> &'static [&'static str] {
    static KEYS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys = vec!["name"];
        keys.extend(crate::load::keys_of::<crate::load::raw::Field>());
        keys
    })
}

impl Field {
    /// The name on the wire.
    pub fn wire(&self) -> &str {
        self.wire_name.as_deref().unwrap_or(&self.name)
    }

    /// The stem of the field's Rust identifiers: its `rust_name`, else its name.
    pub fn rust(&self) -> &str {
        self.rust_name.as_ref().map_or(&self.name, |r| &r.id)
    }

    /// The stem of the field's C and C++ identifiers: its `c_name`, else its name.
    pub fn c(&self) -> &str {
        self.c_name.as_ref().map_or(&self.name, |r| &r.id)
    }

    /// Whether the field may be left out: declared optional, or required only under a condition.
    pub fn may_be_absent(&self) -> bool {
        self.optional || self.required_when.is_some()
    }

    /// Whether an absent field stands for its typed default, so the value is always there.
    pub fn defaulted(&self) -> bool {
        self.may_be_absent() && !self.nullable && self.default.is_some()
    }

    /// Whether the field has three states: absent, `null` and a value.
    pub fn three_state(&self) -> bool {
        self.may_be_absent() && self.nullable
    }

    /// Whether no value of its object can be made without this field's: it may be neither
    /// absent (which covers defaulted and three-state fields) nor `null`. Such a field is an
    /// argument of the generated `new`.
    pub fn must_be_given(&self) -> bool {
        !self.may_be_absent() && !self.nullable
    }
}

/// Constraints declared on a field.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Constraints {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_exclusive: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_exclusive: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_items: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_items: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_entries: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_entries: Option<Bound>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_size: Option<Bound>,
    /// No two elements are equal.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unique_items: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Pattern>,
    /// Where `unique_items` was written.
    #[serde(skip)]
    pub unique_span: Span,
}

/// A regular expression a text must match somewhere (it is not anchored unless it says so).
#[derive(Clone, Debug)]
pub struct Pattern {
    pub regex: String,
    pub span: Span,
}

/// The engine a pattern is matched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The `regex` crate's, in time linear in the text: every pattern it can compile.
    Linear,
    /// `fancy-regex`'s, for look-around and backreferences (which JSON Schema's ECMA-262
    /// dialect has and `regex` has not); it backtracks only where those need it, within a limit.
    Backtracking,
}

impl Pattern {
    /// The engine that matches this pattern, or why none compiles it.
    pub fn engine(&self) -> Result<Engine, String> {
        engine_of(&self.regex)
    }
}

/// The engine that matches `regex`: `regex` where it compiles, `fancy-regex` where only it does;
/// otherwise why not.
pub fn engine_of(regex: &str) -> Result<Engine, String> {
    Matcher::new(regex).map(|m| m.engine())
}

/// A pattern compiled by the engine that matches it, as the generated validators compile it.
pub enum Matcher {
    Linear(regex::Regex),
    Backtracking(fancy_regex::Regex),
}

impl Matcher {
    /// `regex` compiled, or why no engine compiles it: the `regex` crate's reason, the more
    /// precise of the two for plain syntax.
    pub fn new(regex: &str) -> Result<Self, String> {
        let plain = match regex::Regex::new(regex) {
            Ok(r) => return Ok(Self::Linear(r)),
            Err(regex::Error::Syntax(text)) => text.lines().last().unwrap_or_default().trim().trim_start_matches("error: ").to_owned(),
            Err(other) => other.to_string(),
        };
        // What `regex` refuses for look-around or backreferences is `fancy-regex`'s to explain.
        let theirs = plain.contains("look-around") || plain.contains("backreference");
        fancy_regex::Regex::new(regex).map(Self::Backtracking).map_err(|e| if theirs { e.to_string() } else { plain })
    }

    pub fn engine(&self) -> Engine {
        match self {
            Self::Linear(_) => Engine::Linear,
            Self::Backtracking(_) => Engine::Backtracking,
        }
    }

    /// Whether `text` matches somewhere; past the backtracking limit it does not, as in the
    /// generated validators.
    pub fn is_match(&self, text: &str) -> bool {
        match self {
            Self::Linear(r) => r.is_match(text),
            Self::Backtracking(r) => r.is_match(text).unwrap_or(false),
        }
    }
}

impl Serialize for Pattern {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.regex)
    }
}

impl Constraints {
    /// Whether no constraint is declared.
    pub fn is_empty(&self) -> bool {
        self.all().is_empty() && !self.unique_items && self.pattern.is_none()
    }

    /// Every declared numeric constraint with its key.
    pub fn all(&self) -> Vec<(&'static str, &Bound)> {
        let pairs = [
            ("min", &self.min),
            ("max", &self.max),
            ("min_exclusive", &self.min_exclusive),
            ("max_exclusive", &self.max_exclusive),
            ("min_length", &self.min_length),
            ("max_length", &self.max_length),
            ("min_items", &self.min_items),
            ("max_items", &self.max_items),
            ("min_entries", &self.min_entries),
            ("max_entries", &self.max_entries),
            ("max_size", &self.max_size),
        ];
        pairs.into_iter().filter_map(|(k, v)| v.as_ref().map(|b| (k, b))).collect()
    }

    /// Every declared constraint key, numeric or not, with where it was written.
    pub fn keys(&self) -> Vec<(&'static str, Span)> {
        let mut out: Vec<(&'static str, Span)> = self.all().into_iter().map(|(k, b)| (k, b.span())).collect();
        if self.unique_items {
            out.push(("unique_items", self.unique_span));
        }
        if let Some(p) = &self.pattern {
            out.push(("pattern", p.span));
        }
        out
    }
}

/// A numeric bound: literal, limit or another endpoint's response field.
///
/// Serializes as the number itself, `{"limit": id}` or `{"field": "endpoint.field"}`, with
/// `"offset"` when it is not zero.
#[derive(Clone, Debug)]
pub enum Bound {
    Value(Span, i64),
    /// A literal with a fraction, for floating-point fields.
    Float(Span, f64),
    Limit {
        limit: Ref,
        offset: i64,
    },
    Field {
        endpoint: Ref,
        field: String,
        offset: i64,
    },
}

impl Serialize for Bound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (key, target, offset) = match self {
            Bound::Value(_, v) => return s.serialize_i64(*v),
            Bound::Float(_, v) => return s.serialize_f64(*v),
            Bound::Limit { limit, offset } => ("limit", limit.id.clone(), *offset),
            Bound::Field { endpoint, field, offset } => ("field", format!("{}.{field}", endpoint.id), *offset),
        };
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(key, &target)?;
        if !is_zero(&offset) {
            map.serialize_entry("offset", &offset)?;
        }
        map.end()
    }
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl Bound {
    /// Where the bound was written.
    pub fn span(&self) -> Span {
        match self {
            Bound::Value(span, _) | Bound::Float(span, _) => *span,
            Bound::Limit { limit, .. } => limit.span,
            Bound::Field { endpoint, .. } => endpoint.span,
        }
    }
}

/// An enum.
#[derive(Clone, Debug, Serialize)]
pub struct Enum {
    #[serde(flatten)]
    pub meta: Meta,
    pub repr: String,
    pub values: Vec<EnumValue>,
    /// Where `repr:` was written; `None` when the representation is the default.
    #[serde(skip)]
    pub repr_span: Option<Span>,
}

/// An enum value.
#[derive(Clone, Debug, Serialize)]
pub struct EnumValue {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    #[serde(skip)]
    pub value_span: Span,
}

/// A flag set.
#[derive(Clone, Debug, Serialize)]
pub struct Flags {
    #[serde(flatten)]
    pub meta: Meta,
    pub repr: String,
    pub width: u32,
    pub values: Vec<FlagValue>,
}

/// One flag.
#[derive(Clone, Debug, Serialize)]
pub struct FlagValue {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bit: Option<u32>,
    #[serde(skip)]
    pub bit_span: Span,
}

/// The discriminator value of a tagged union's variant, resolved against the discriminator's type.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TagValue {
    /// An integer discriminator's value.
    Integer(i64),
    /// A string discriminator's value.
    Text(String),
    /// An enum discriminator's value, by the enum value's id.
    Enum(String),
}

impl std::fmt::Display for TagValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TagValue::Integer(n) => write!(f, "{n}"),
            TagValue::Text(t) => write!(f, "\"{t}\""),
            TagValue::Enum(id) => f.write_str(id),
        }
    }
}

impl super::Model {
    /// The field of a tagged variant's resource that carries the discriminator, if it has one.
    pub fn tag_field<'m>(&'m self, union: &Union, variant: &Field) -> Option<&'m Field> {
        let d = union.discriminator.as_ref()?;
        let Some(TypeRef::Object(id)) = &variant.ty else { return None };
        self.resource(id)?.fields.iter().find(|f| f.wire() == d.field)
    }

    /// The literal that gives a tagged variant its tag: the variant's `tag`, else the `const` of
    /// its resource's discriminator field.
    pub fn tag_literal<'m>(&'m self, union: &Union, variant: &'m Field) -> Option<&'m Literal> {
        variant.tag.as_ref().or_else(|| self.tag_field(union, variant)?.constant.as_ref())
    }

    /// A tagged variant's tag, when it is given and fits the discriminator's type.
    pub fn variant_tag(&self, union: &Union, variant: &Field) -> Option<TagValue> {
        let ty = union.discriminator.as_ref()?.ty.as_ref()?;
        self.tag_of_type(ty, &self.tag_literal(union, variant)?.value)
    }

    /// A literal read as a value of a discriminator type (`integer`, `string`, `enum<id>`).
    pub fn tag_of_type(&self, ty: &TypeRef, value: &serde_json::Value) -> Option<TagValue> {
        match ty {
            TypeRef::Primitive(p) if p.is_integer() => value.as_i64().map(TagValue::Integer),
            TypeRef::Primitive(types::Primitive::String) => value.as_str().map(|s| TagValue::Text(s.to_owned())),
            TypeRef::Enum(id) => self.enum_value_of(id, value).map(|v| TagValue::Enum(v.meta.id.clone())),
            _ => None,
        }
    }

    /// The value of enum `id` a literal names: its id, or its number for an integer enum.
    pub fn enum_value_of(&self, id: &str, value: &serde_json::Value) -> Option<&EnumValue> {
        let e = self.enum_(id)?;
        match value {
            serde_json::Value::String(s) => e.values.iter().find(|v| v.meta.id == *s),
            serde_json::Value::Number(n) if e.repr == "integer" => {
                let n = n.as_i64()?;
                e.values.iter().find(|v| v.value == Some(n))
            }
            _ => None,
        }
    }
}
