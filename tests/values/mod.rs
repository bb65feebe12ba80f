//! Proptest strategies for the wire form of any type of a spec, drawn from the spec itself:
//! each field's type, presence, nullability and per-item rules; enums with named and unnamed
//! values; unions with every variant, tags first or last, and tags no variant has.
//!
//! The values are what a peer may send, not what validation accepts: round trips must keep
//! everything a decoder reads, including values the validators refuse.

// Each test binary uses a different part of these strategies.
#![allow(dead_code)]

use base64::Engine as _;
use platform_codegen::model::types::Primitive;
use platform_codegen::model::{Field, Items, Model, Resource, TagValue, TypeRef, Union};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Any JSON value, small.
pub fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![Just(Value::Null), any::<bool>().prop_map(Value::from), any::<i64>().prop_map(Value::from), "\\PC{0,8}".prop_map(Value::from)];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{1,4}", inner, 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Strategies over one spec.
#[derive(Clone, Copy)]
pub struct Gen {
    pub model: &'static Model,
    /// Whether a field with a typed default is always present: decoding fills it in, so only
    /// then does the value write back byte for byte.
    pub complete: bool,
}

/// How deep objects and unions nest before they stop (recursive shapes end in their leaves).
const DEPTH: u32 = 3;

impl Gen {
    /// A value of `ty` whose elements follow `items`, in its wire form.
    pub fn value(self, ty: &'static TypeRef, items: Option<&'static Items>, depth: u32) -> BoxedStrategy<Value> {
        match ty {
            TypeRef::Primitive(p) => primitive(*p),
            TypeRef::Array(inner) => {
                let element = self.element(inner, items, depth);
                proptest::collection::vec(element, 0..3).prop_map(Value::Array).boxed()
            }
            TypeRef::Map(key, inner) => {
                let entry = (self.key(key), self.element(inner, items, depth));
                proptest::collection::vec(entry, 0..3).prop_map(|entries| Value::Object(entries.into_iter().collect())).boxed()
            }
            TypeRef::Enum(id) => self.enum_value(id),
            TypeRef::Flags(id) => {
                let set = self.model.flag_set(id).expect("a validated flag set");
                let bits = if set.width <= 32 { any::<u32>().prop_map(u64::from).boxed() } else { any::<u64>().boxed() };
                if set.repr == "string_integer" { bits.prop_map(|b| Value::from(b.to_string())).boxed() } else { bits.prop_map(Value::from).boxed() }
            }
            TypeRef::Object(id) => self.object(self.model.resource(id).expect("a validated resource"), depth + 1),
            TypeRef::Union(id) => self.union(self.model.union(id).expect("a validated union"), depth + 1),
            TypeRef::Class(_) => any_json(),
        }
    }

    /// One element of an array or value of a map: `null` too when `items` says so.
    fn element(self, inner: &'static TypeRef, items: Option<&'static Items>, depth: u32) -> BoxedStrategy<Value> {
        let value = self.value(inner, items.and_then(|i| i.items.as_deref()), depth);
        if items.is_some_and(|i| i.nullable) { prop_oneof![Just(Value::Null), value].boxed() } else { value }
    }

    /// A map key as the text a JSON object holds.
    fn key(self, key: &'static TypeRef) -> BoxedStrategy<String> {
        match key {
            TypeRef::Enum(_) => self.enum_value_of(key).prop_map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned)).boxed(),
            TypeRef::Primitive(Primitive::Uuid) => any::<u128>().prop_map(uuid_text).boxed(),
            TypeRef::Primitive(p) if p.is_integer() || *p == Primitive::Snowflake => {
                let unsigned = matches!(p, Primitive::Uint32 | Primitive::Uint64 | Primitive::Snowflake);
                if unsigned { any::<u32>().prop_map(|n| n.to_string()).boxed() } else { any::<i32>().prop_map(|n| n.to_string()).boxed() }
            }
            _ => "[a-z]{1,6}".boxed(),
        }
    }

    fn enum_value_of(self, ty: &'static TypeRef) -> BoxedStrategy<Value> {
        let TypeRef::Enum(id) = ty else { unreachable!("an enum type") };
        self.enum_value(id)
    }

    /// A named value or one the spec does not name (enums are open).
    fn enum_value(self, id: &str) -> BoxedStrategy<Value> {
        let e = self.model.enum_(id).expect("a validated enum");
        if e.repr == "string" {
            let named: Vec<Value> = e.values.iter().map(|v| Value::from(v.meta.id.clone())).collect();
            prop_oneof![proptest::sample::select(named), "\\PC{0,12}".prop_map(Value::from)].boxed()
        } else {
            let named: Vec<Value> = e.values.iter().filter_map(|v| v.value).map(Value::from).collect();
            if named.is_empty() {
                any::<i64>().prop_map(Value::from).boxed()
            } else {
                prop_oneof![proptest::sample::select(named), any::<i64>().prop_map(Value::from)].boxed()
            }
        }
    }

    /// One field: present, absent (may be absent, unless it has a default in complete mode) or
    /// null (nullable).
    pub fn field(self, f: &'static Field, depth: u32) -> BoxedStrategy<Option<Value>> {
        let present = f.ty.as_ref().map_or_else(any_json, |t| self.value(t, f.items.as_ref(), depth)).prop_map(Some);
        let absent = f.may_be_absent() && !(self.complete && f.defaulted());
        match (absent, f.nullable) {
            (false, false) => present.boxed(),
            (true, false) => prop_oneof![Just(None), present].boxed(),
            (false, true) => prop_oneof![Just(Some(Value::Null)), present].boxed(),
            (true, true) => prop_oneof![Just(None), Just(Some(Value::Null)), present].boxed(),
        }
    }

    /// An object of a resource, with unknown fields when its field list is partial.
    pub fn object(self, r: &'static Resource, depth: u32) -> BoxedStrategy<Value> {
        let partial = r.meta.not_shown.iter().any(|g| matches!(g.facet.as_str(), "fields" | "payload" | "details" | "members"));
        self.fields_object(&r.fields, partial, depth)
    }

    /// An object of named fields; past the nesting depth, the smallest object (its required
    /// fields at their own depth limit) so recursive shapes end.
    pub fn fields_object(self, fields: &'static [Field], extra: bool, depth: u32) -> BoxedStrategy<Value> {
        let known: Vec<BoxedStrategy<(String, Option<Value>)>> = fields
            .iter()
            .filter(|f| depth <= DEPTH || !(f.may_be_absent() || f.nullable) || (self.complete && f.defaulted()))
            .map(|f| self.field(f, depth).prop_map(move |v| (f.wire().to_owned(), v)).boxed())
            .collect();
        let unknown = if extra { proptest::collection::btree_map("unlisted_[a-z]{1,6}", any_json(), 0..3).boxed() } else { Just(Default::default()).boxed() };
        (known, unknown)
            .prop_map(|(known, unknown)| {
                let mut map = Map::new();
                known.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).for_each(|(k, v)| {
                    map.insert(k, v);
                });
                map.extend(unknown);
                Value::Object(map)
            })
            .boxed()
    }

    /// A value of a union: each variant, and a value no variant has (a tag no variant has, or
    /// a JSON value of another kind). A tag sits first or last.
    pub fn union(self, u: &'static Union, depth: u32) -> BoxedStrategy<Value> {
        // Past the depth, only variants that end the recursion.
        let variants: Vec<&'static Field> =
            u.variants.iter().filter(|v| depth <= DEPTH || !matches!(v.ty, Some(TypeRef::Object(_) | TypeRef::Union(_)))).collect();
        let Some(d) = &u.discriminator else {
            let mut options: Vec<BoxedStrategy<Value>> =
                variants.iter().map(|v| self.value(v.ty.as_ref().expect("a typed variant"), v.items.as_ref(), depth)).collect();
            options.push(prop_oneof![any::<bool>().prop_map(Value::from), Just(json!({ "unlisted": [1, 2] }))].boxed());
            return proptest::strategy::Union::new(options).boxed();
        };
        let field: &'static str = &d.field;
        let mut options: Vec<BoxedStrategy<Value>> = Vec::new();
        for v in variants {
            let (Some(TypeRef::Object(id)), Some(tag)) = (&v.ty, self.model.variant_tag(u, v)) else { continue };
            let tag = self.wire_tag(u, &tag);
            let object = self.object(self.model.resource(id).expect("a validated resource"), depth + 1);
            options.push((object, any::<bool>()).prop_map(move |(object, last)| with_tag(object, field, tag.clone(), last)).boxed());
        }
        let unknown_tags = self.unknown_tags(u);
        let extra = proptest::collection::btree_map("[a-z]{1,5}", any_json(), 0..3);
        options.push(
            (proptest::sample::select(unknown_tags), extra, any::<bool>())
                .prop_map(move |(tag, rest, last)| with_tag(Value::Object(rest.into_iter().collect()), field, tag, last))
                .boxed(),
        );
        proptest::strategy::Union::new(options).boxed()
    }

    /// A tag as the wire carries it.
    fn wire_tag(self, u: &Union, tag: &TagValue) -> Value {
        match tag {
            TagValue::Integer(n) => json!(n),
            TagValue::Text(t) => json!(t),
            TagValue::Enum(id) => {
                let Some(TypeRef::Enum(e)) = u.discriminator.as_ref().and_then(|d| d.ty.as_ref()) else { unreachable!("an enum discriminator") };
                let e = self.model.enum_(e).expect("a validated enum");
                match e.values.iter().find(|v| v.meta.id == *id).and_then(|v| v.value) {
                    Some(n) if e.repr == "integer" => json!(n),
                    _ => json!(id),
                }
            }
        }
    }

    /// Tags no variant has: other values of the discriminator's type.
    fn unknown_tags(self, u: &Union) -> Vec<Value> {
        let used: Vec<Value> = u.variants.iter().filter_map(|v| self.model.variant_tag(u, v)).map(|t| self.wire_tag(u, &t)).collect();
        let candidates: Vec<Value> = match u.discriminator.as_ref().and_then(|d| d.ty.as_ref()) {
            Some(TypeRef::Enum(id)) => {
                let e = self.model.enum_(id).expect("a validated enum");
                let named = e.values.iter().map(|v| if e.repr == "integer" { json!(v.value) } else { json!(v.meta.id) });
                let unnamed = if e.repr == "integer" { json!(9_999) } else { json!("unlisted") };
                named.chain([unnamed]).collect()
            }
            Some(TypeRef::Primitive(Primitive::String)) => vec![json!("unlisted"), json!("")],
            _ => vec![json!(9_999), json!(-1)],
        };
        candidates.into_iter().filter(|c| !used.contains(c) && !c.is_null()).collect()
    }
}

/// `object` with `field` set to `tag`, as its first entry or its last.
fn with_tag(object: Value, field: &str, tag: Value, last: bool) -> Value {
    let Value::Object(rest) = object else { unreachable!("variants are objects") };
    let mut map = Map::new();
    if !last {
        map.insert(field.to_owned(), tag.clone());
    }
    for (k, v) in rest {
        if k != field {
            map.insert(k, v);
        }
    }
    if last {
        map.insert(field.to_owned(), tag);
    }
    Value::Object(map)
}

/// A uuid in its lower-case hyphenated form.
fn uuid_text(n: u128) -> String {
    let hex = format!("{n:032x}");
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

fn primitive(p: Primitive) -> BoxedStrategy<Value> {
    match p {
        Primitive::String | Primitive::Url | Primitive::Email | Primitive::Csv => "\\PC{0,16}".prop_map(Value::from).boxed(),
        Primitive::Boolean => any::<bool>().prop_map(Value::from).boxed(),
        Primitive::Integer => any::<i64>().prop_map(Value::from).boxed(),
        Primitive::Int32 => any::<i32>().prop_map(Value::from).boxed(),
        Primitive::Uint32 => any::<u32>().prop_map(Value::from).boxed(),
        Primitive::Uint64 => any::<u64>().prop_map(Value::from).boxed(),
        // JSON has no NaN or infinity.
        Primitive::Number => any::<f64>().prop_filter("finite", |n| n.is_finite()).prop_map(Value::from).boxed(),
        Primitive::Float32 => any::<f32>().prop_filter("finite", |n| n.is_finite()).prop_map(Value::from).boxed(),
        Primitive::Snowflake | Primitive::StringInteger => any::<u64>().prop_map(|n| Value::from(n.to_string())).boxed(),
        Primitive::Timestamp => (0i64..4_102_444_800).prop_map(|s| Value::from(jiff::Timestamp::from_second(s).unwrap().to_string())).boxed(),
        Primitive::Date => (1i16..=9999, 1i8..=12, 1i8..=28).prop_map(|(y, m, d)| Value::from(format!("{y:04}-{m:02}-{d:02}"))).boxed(),
        Primitive::Uuid => any::<u128>().prop_map(|n| Value::from(uuid_text(n))).boxed(),
        Primitive::Bytes => {
            proptest::collection::vec(any::<u8>(), 0..12).prop_map(|b| Value::from(base64::engine::general_purpose::STANDARD.encode(b))).boxed()
        }
        Primitive::Null => Just(Value::Null).boxed(),
        Primitive::File => ("\\PC{0,8}", proptest::collection::vec(any::<u8>(), 0..4)).prop_map(|(t, b)| json!({ "content_type": t, "bytes": b })).boxed(),
        Primitive::Json => any_json(),
    }
}
