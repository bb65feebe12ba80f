//! Schemas: of a resource, union, enum, flag set and the error body in `components/schemas`,
//! and of every field, with its constraints and limits, wherever a field is declared.

use super::{Doc, OPEN_ENUM, honesty, insert, prose, to_value};
use crate::model::types::Primitive;
use crate::model::*;
use serde_json::{Map, Value, json};

impl Doc<'_> {
    /// An object schema of named fields.
    pub(super) fn object_schema(&self, fields: &[Field]) -> Value {
        let mut props = Map::new();
        let mut required = Vec::new();
        for f in fields {
            props.insert(f.wire().to_owned(), self.field_schema(f));
            if !f.optional {
                required.push(f.wire().to_owned());
            }
        }
        let mut s = Map::new();
        s.insert("type".into(), json!("object"));
        s.insert("properties".into(), Value::Object(props));
        insert(&mut s, "required", json!(required));
        Value::Object(s)
    }

    /// A field's schema: its type, constraints, nullability, lifecycle and honesty.
    pub(super) fn field_schema(&self, f: &Field) -> Value {
        let mut s = match &f.ty {
            Some(ty) => self.type_schema(ty),
            None => json!({}),
        };
        let map = s.as_object_mut().expect("BUG: type schemas are objects");
        self.constraints(map, &f.constraints);
        if let Some(items) = &f.items {
            self.items_rules(map, items);
        }
        if let Some(c) = &f.constant {
            map.insert("const".into(), self.wire_literal(f.ty.as_ref(), &c.value));
        }
        if !f.subset.is_empty() {
            let enum_ty = f.ty.as_ref().map(|t| {
                TypeRef::Enum(match t.element() {
                    TypeRef::Enum(id) => id.clone(),
                    _ => String::new(),
                })
            });
            let values: Vec<Value> = f.subset.iter().map(|v| self.wire_literal(enum_ty.as_ref(), &json!(v.id))).collect();
            let target = match map.get_mut("items").and_then(Value::as_object_mut) {
                Some(items) => items,
                None => &mut *map,
            };
            target.insert("enum".into(), Value::Array(values));
        }
        if let Some(d) = &f.default {
            map.insert("default".into(), self.wire_literal(f.ty.as_ref(), &d.value));
        }
        if let Some(e) = &f.example {
            map.insert("examples".into(), json!([e.value]));
        }
        if let Some(format) = &f.format
            && !map.contains_key("format")
        {
            map.insert("format".into(), json!(format));
        }
        if f.nullable {
            nullable(map);
        }
        reference_with_values(map);
        insert(map, "description", prose(f.description.as_deref(), &f.notes));
        self.lifecycle(map, &f.since, &f.until, &f.deprecated);
        if let Some(c) = &f.required_when {
            map.insert("x-required-when".into(), to_value(c));
        }
        if let Some(scope) = &f.requires_scope {
            map.insert("x-requires-scope".into(), json!(scope.id));
        }
        insert(map, "x-literal", to_value(&f.literal));
        insert(map, "x-default", to_value(&f.default_text));
        honesty(map, &f.not_shown, &f.assumed);
        s
    }

    pub(super) fn constraints(&self, map: &mut Map<String, Value>, c: &Constraints) {
        let mut limits = Map::new();
        let mut dynamic = Map::new();
        for (key, bound) in c.all() {
            let keyword = match key {
                "min" => "minimum",
                "max" => "maximum",
                "min_exclusive" => "exclusiveMinimum",
                "max_exclusive" => "exclusiveMaximum",
                "min_length" => "minLength",
                "max_length" => "maxLength",
                "min_items" => "minItems",
                "max_items" => "maxItems",
                "min_entries" => "minProperties",
                "max_entries" => "maxProperties",
                _ => "x-max-size",
            };
            self.bound(map, keyword, bound, &mut limits, &mut dynamic);
        }
        insert(map, "x-limit", Value::Object(limits));
        insert(map, "x-dynamic-bounds", Value::Object(dynamic));
        if c.unique_items {
            map.insert("uniqueItems".into(), json!(true));
        }
        if let Some(p) = &c.pattern {
            own_pattern(map, &p.regex);
        }
    }

    /// The rules of an array's elements or a map's values, on the schema that describes them.
    pub(super) fn items_rules(&self, map: &mut Map<String, Value>, items: &Items) {
        let key = if map.contains_key("additionalProperties") { "additionalProperties" } else { "items" };
        let Some(inner) = map.get_mut(key).and_then(Value::as_object_mut) else { return };
        self.constraints(inner, &items.constraints);
        if let Some(nested) = &items.items {
            self.items_rules(inner, nested);
        }
        if items.nullable {
            nullable(inner);
        }
    }

    /// A literal as the wire carries it: an enum value by its wire value.
    pub(super) fn wire_literal(&self, ty: Option<&TypeRef>, value: &Value) -> Value {
        match ty {
            Some(TypeRef::Enum(id)) => match (self.model.enum_(id), self.model.enum_value_of(id, value)) {
                (Some(e), Some(v)) if e.repr == "integer" => v.value.map_or(Value::Null, |n| json!(n)),
                (_, Some(v)) => json!(v.meta.id),
                _ => value.clone(),
            },
            Some(TypeRef::Array(inner)) => match value {
                Value::Array(list) => Value::Array(list.iter().map(|v| self.wire_literal(Some(inner), v)).collect()),
                other => other.clone(),
            },
            _ => value.clone(),
        }
    }

    /// One constraint keyword: its number, and where it comes from when a limit or another
    /// endpoint's response gives it.
    pub(super) fn bound(&self, map: &mut Map<String, Value>, keyword: &str, bound: &Bound, limits: &mut Map<String, Value>, dynamic: &mut Map<String, Value>) {
        match bound {
            Bound::Value(_, v) => {
                map.insert(keyword.into(), json!(v));
            }
            Bound::Float(_, v) => {
                map.insert(keyword.into(), json!(v));
            }
            Bound::Limit { limit, offset } => {
                let def = self.model.limit(&limit.id);
                let value = match keyword {
                    "x-max-size" => def.and_then(Limit::upper_bytes).and_then(|b| i64::try_from(b).ok()),
                    k if k.starts_with("min") => def.and_then(Limit::lower),
                    _ => def.and_then(Limit::upper),
                };
                match value {
                    Some(v) => {
                        map.insert(keyword.into(), json!(v + offset));
                        limits.insert(keyword.into(), json!(limit.id));
                    }
                    None => {
                        dynamic.insert(keyword.into(), json!({ "limit": limit.id, "offset": offset }));
                    }
                }
            }
            Bound::Field { endpoint, field, offset } => {
                dynamic.insert(keyword.into(), json!({ "endpoint": endpoint.id, "field": field, "offset": offset }));
            }
        }
    }

    /// What the spec says of a response as a whole: an item bound, CSV columns.
    pub(super) fn response_constraints(&self, schema: &mut Value, e: &Endpoint) {
        let Some(map) = schema.as_object_mut() else { return };
        if let Some(b) = &e.response_max_items {
            let (mut limits, mut dynamic) = (Map::new(), Map::new());
            self.bound(map, "maxItems", b, &mut limits, &mut dynamic);
            insert(map, "x-limit", Value::Object(limits));
            insert(map, "x-dynamic-bounds", Value::Object(dynamic));
        }
        if !e.response_columns.is_empty() {
            let columns: Vec<Value> = e
                .response_columns
                .iter()
                .map(|c| json!({ "name": c.wire(), "type": c.ty.as_ref().map(ToString::to_string), "description": c.description }))
                .collect();
            map.insert("x-csv-columns".into(), Value::Array(columns));
        }
    }

    pub(super) fn type_schema(&self, ty: &TypeRef) -> Value {
        match ty {
            TypeRef::Primitive(p) => primitive(*p),
            TypeRef::Array(inner) => json!({ "type": "array", "items": self.type_schema(inner) }),
            TypeRef::Map(key, value) => {
                let mut s = Map::new();
                s.insert("type".into(), json!("object"));
                s.insert("additionalProperties".into(), self.type_schema(value));
                // Keys are text on the wire; a key type other than text says which text.
                if !matches!(**key, TypeRef::Primitive(Primitive::String)) {
                    s.insert("propertyNames".into(), self.key_schema(key));
                }
                Value::Object(s)
            }
            TypeRef::Union(id) => self.schema_ref("union", id),
            TypeRef::Enum(id) => self.schema_ref("enum", id),
            TypeRef::Flags(id) => self.schema_ref("flags", id),
            TypeRef::Object(id) => self.schema_ref("resource", id),
            TypeRef::Class(id) => self.schema_ref("class", id),
        }
    }

    /// The schema of a map's keys, as the text they are on the wire.
    pub(super) fn key_schema(&self, key: &TypeRef) -> Value {
        match key {
            TypeRef::Primitive(p) if p.is_integer() => json!({ "type": "string", "pattern": "^-?[0-9]+$" }),
            TypeRef::Enum(id) => match self.model.enum_(id) {
                Some(e) if e.repr == "integer" => {
                    let values: Vec<String> = e.values.iter().filter_map(|v| v.value).map(|n| n.to_string()).collect();
                    json!({ "type": "string", "pattern": "^-?[0-9]+$", "x-enum": id, "examples": values })
                }
                _ => self.schema_ref("enum", id),
            },
            other => self.type_schema(other),
        }
    }

    pub(super) fn components(&self) -> Value {
        let m = self.model;
        let mut schemas = Map::new();
        for r in &m.resources {
            schemas.insert(self.names[&("resource", r.meta.id.clone())].clone(), self.resource(r));
        }
        for u in &m.unions {
            schemas.insert(self.names[&("union", u.meta.id.clone())].clone(), self.union(u));
        }
        for e in &m.enums {
            schemas.insert(self.names[&("enum", e.meta.id.clone())].clone(), self.enum_schema(e));
        }
        for f in &m.flags {
            schemas.insert(self.names[&("flags", f.meta.id.clone())].clone(), self.flags_schema(f));
        }
        schemas.insert("ErrorBody".into(), self.error_body());
        let schemes: Map<String, Value> = m.token_kinds.iter().map(|t| (t.meta.id.clone(), security_scheme(t))).collect();
        let mut out = Map::new();
        out.insert("schemas".into(), Value::Object(schemas));
        insert(&mut out, "responses", self.component_responses());
        insert(&mut out, "headers", self.component_headers());
        insert(&mut out, "securitySchemes", Value::Object(schemes));
        Value::Object(out)
    }

    /// Common keys of a named schema.
    pub(super) fn annotate(&self, map: &mut Map<String, Value>, kind: &str, meta: &Meta) {
        map.insert("title".into(), json!(meta.name));
        insert(map, "description", prose(meta.description.as_deref(), &meta.notes));
        self.lifecycle(map, &meta.since, &meta.until, &meta.deprecated);
        insert(map, "x-changes", self.changes_of(kind, &meta.id));
        honesty(map, &meta.not_shown, &meta.assumed);
    }

    pub(super) fn resource(&self, r: &Resource) -> Value {
        if r.extends.is_empty() {
            let mut s = self.object_schema(&r.fields);
            let map = s.as_object_mut().expect("BUG: object schemas are objects");
            if r.closed {
                map.insert("additionalProperties".into(), json!(false));
            }
            self.annotate(map, "resource", &r.meta);
            insert(map, "x-cases", to_value(&r.cases));
            return s;
        }
        // `allOf` the bases and the resource's own fields: the document says what the spec says.
        let own: Vec<Field> = r.own_fields().cloned().collect();
        let mut parts: Vec<Value> = r.extends.iter().map(|b| self.schema_ref("resource", &b.id)).collect();
        parts.push(self.object_schema(&own));
        let mut map = Map::new();
        map.insert("allOf".into(), Value::Array(parts));
        // `additionalProperties` would close each part alone; the whole closes over all of them.
        if r.closed {
            map.insert("unevaluatedProperties".into(), json!(false));
        }
        self.annotate(&mut map, "resource", &r.meta);
        insert(&mut map, "x-cases", to_value(&r.cases));
        Value::Object(map)
    }

    /// A union: `oneOf` + `discriminator` when tagged, `anyOf` in the declared order when not.
    pub(super) fn union(&self, u: &Union) -> Value {
        let variants: Vec<Value> = u.variants.iter().map(|v| self.field_schema(v)).collect();
        let mut map = Map::new();
        match &u.discriminator {
            Some(d) => {
                map.insert("oneOf".into(), Value::Array(variants));
                let mut mapping = Map::new();
                let mut text = true;
                for v in &u.variants {
                    let (Some(literal), Some(TypeRef::Object(id))) = (self.model.tag_literal(u, v), &v.ty) else { continue };
                    let tag = match self.wire_literal(d.ty.as_ref(), &literal.value) {
                        Value::String(s) => s,
                        other => {
                            text = false;
                            other.to_string()
                        }
                    };
                    mapping.insert(tag, self.schema_ref("resource", id)["$ref"].clone());
                }
                // OpenAPI's `discriminator` names a text property; tools that use it read the tag
                // as text, so an integer tag would make every variant unsatisfiable to them. The
                // variants' constants keep `oneOf` exclusive either way.
                let key = if text { "discriminator" } else { "x-discriminator" };
                map.insert(key.into(), json!({ "propertyName": d.field, "mapping": mapping }));
            }
            None => {
                map.insert("anyOf".into(), Value::Array(variants));
            }
        }
        self.annotate(&mut map, "union", &u.meta);
        Value::Object(map)
    }

    pub(super) fn enum_schema(&self, e: &Enum) -> Value {
        let base = if e.repr == "string" { "string" } else { "integer" };
        let known: Vec<Value> = e
            .values
            .iter()
            .filter_map(|v| {
                let value = if base == "string" { json!(v.meta.id) } else { json!(v.value?) };
                let mut branch = Map::new();
                branch.insert("const".into(), value);
                branch.insert("title".into(), json!(v.meta.id));
                insert(&mut branch, "description", prose(v.meta.description.as_deref(), &v.meta.notes));
                self.lifecycle(&mut branch, &v.meta.since, &v.meta.until, &v.meta.deprecated);
                Some(Value::Object(branch))
            })
            .collect();
        let mut map = Map::new();
        map.insert("type".into(), json!(base));
        // An integer enum whose values the source gives without numbers has no value to list.
        if !known.is_empty() {
            map.insert("anyOf".into(), Value::Array(known));
        }
        map.insert(OPEN_ENUM.into(), json!("allow"));
        self.annotate(&mut map, "enum", &e.meta);
        Value::Object(map)
    }

    pub(super) fn flags_schema(&self, f: &Flags) -> Value {
        let mut map = match f.repr.as_str() {
            "string_integer" => json!({ "type": "string", "pattern": Primitive::StringInteger.wire_pattern() }),
            // The Rust set's integer: 32 bits wide or fewer, a `u32`.
            _ => json!({ "type": "integer", "minimum": 0, "maximum": if f.width <= 32 { u64::from(u32::MAX) } else { u64::MAX } }),
        };
        let map_ref = map.as_object_mut().expect("BUG: literal objects");
        let bits: Vec<Value> = f.values.iter().map(|v| json!({ "name": v.meta.id, "bit": v.bit })).collect();
        map_ref.insert("x-flags".into(), Value::Array(bits));
        self.annotate(map_ref, "flags", &f.meta);
        map
    }

    pub(super) fn error_body(&self) -> Value {
        let Some(b) = &self.model.error_body else {
            return json!({ "title": "Error body", "description": "The spec does not describe the error body." });
        };
        let mut s = self.object_schema(&b.fields);
        let map = s.as_object_mut().expect("BUG: object schemas are objects");
        map.insert("title".into(), json!("Error body"));
        insert(map, "description", prose(b.description.as_deref(), &[]));
        honesty(map, &b.not_shown, &b.assumed);
        s
    }
}

pub(super) fn primitive(p: Primitive) -> Value {
    match p {
        Primitive::String => json!({ "type": "string" }),
        Primitive::Boolean => json!({ "type": "boolean" }),
        // The bounds as well as the format: a validator need not assert a format, and a tool
        // generating data from the document would then send integers past the wire type's.
        Primitive::Integer => json!({ "type": "integer", "format": "int64", "minimum": i64::MIN, "maximum": i64::MAX }),
        Primitive::Int32 => json!({ "type": "integer", "format": "int32", "minimum": i32::MIN, "maximum": i32::MAX }),
        Primitive::Uint32 => json!({ "type": "integer", "format": "int64", "minimum": 0, "maximum": u32::MAX }),
        Primitive::Uint64 => json!({ "type": "integer", "format": "uint64", "minimum": 0, "maximum": u64::MAX }),
        Primitive::Number => json!({ "type": "number", "format": "double" }),
        Primitive::Float32 => json!({ "type": "number", "format": "float" }),
        // The pattern as well as the format: a validator need not assert formats, and a tool
        // generating data from the document would then send any text.
        Primitive::Date => json!({ "type": "string", "format": "date", "pattern": p.wire_pattern() }),
        Primitive::Uuid => json!({ "type": "string", "format": "uuid" }),
        Primitive::Email => json!({ "type": "string", "format": "email" }),
        Primitive::Bytes => json!({ "type": "string", "contentEncoding": "base64", "pattern": p.wire_pattern() }),
        Primitive::Null => json!({ "type": "null" }),
        // Snowflakes and string integers travel as decimal strings (they exceed JavaScript's
        // safe integers) of a u64.
        Primitive::Snowflake => json!({ "type": "string", "pattern": p.wire_pattern(), "format": "snowflake" }),
        Primitive::StringInteger => json!({ "type": "string", "pattern": p.wire_pattern() }),
        Primitive::Timestamp => json!({ "type": "string", "format": "date-time" }),
        Primitive::Url => json!({ "type": "string", "format": "uri" }),
        Primitive::File => json!({ "type": "string", "contentMediaType": "application/octet-stream" }),
        Primitive::Csv => json!({ "type": "string", "contentMediaType": "text/csv" }),
        Primitive::Json => json!({}),
    }
}

/// Lets `null` through: a type list gains `"null"`, a reference becomes `anyOf` with null.
///
/// A list of values (`enum`, `const`) would still refuse `null`: beside a type it gains `null`;
/// beside a reference it moves into the reference's branch.
pub(super) fn nullable(map: &mut Map<String, Value>) {
    match map.get("type").cloned() {
        Some(Value::String(t)) => {
            map.insert("type".into(), json!([t, "null"]));
            if let Some(c) = map.remove("const") {
                map.insert("enum".into(), json!([c]));
            }
            if let Some(Value::Array(values)) = map.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        _ if map.contains_key("$ref") => {
            let mut branch = Map::new();
            branch.insert("$ref".into(), map.remove("$ref").expect("BUG: checked above"));
            for key in ["const", "enum"] {
                if let Some(v) = map.remove(key) {
                    branch.insert(key.into(), v);
                }
            }
            reference_with_values(&mut branch);
            map.insert("anyOf".into(), json!([branch, { "type": "null" }]));
        }
        // An untyped schema (`json`) already accepts null.
        _ => {}
    }
}

/// A reference narrowed by values (`const`, `enum`) is written `allOf: [{$ref}]` beside them:
/// JSON Schema 2020-12 reads keywords beside `$ref`, but tools that follow OpenAPI 3.0's rule
/// (a `$ref` replaces its object) would drop the narrowing, and with it what tells the
/// variants of a union apart.
pub(super) fn reference_with_values(map: &mut Map<String, Value>) {
    if map.contains_key("$ref") && (map.contains_key("const") || map.contains_key("enum")) {
        let r = map.remove("$ref").expect("BUG: checked above");
        map.insert("allOf".into(), json!([{ "$ref": r }]));
    }
}

/// A token kind as a security scheme: `Bearer` (and `Basic`) are HTTP schemes; any other
/// scheme word (`Bot`) is not registered with IANA, so it is an API key in the
/// `Authorization` header whose value starts with the word.
pub(super) fn security_scheme(t: &TokenKind) -> Value {
    let mut s = Map::new();
    match t.scheme.as_deref() {
        Some(word) if word.eq_ignore_ascii_case("bearer") || word.eq_ignore_ascii_case("basic") => {
            s.insert("type".into(), json!("http"));
            s.insert("scheme".into(), json!(word.to_ascii_lowercase()));
        }
        word => {
            s.insert("type".into(), json!("apiKey"));
            s.insert("in".into(), json!("header"));
            s.insert("name".into(), json!("Authorization"));
            if let Some(w) = word {
                s.insert("description".into(), json!(format!("`Authorization: {w} <token>`")));
            }
        }
    }
    if let Some(d) = &t.meta.description {
        let prefix = s.get("description").and_then(Value::as_str).map(|x| format!("{x}. ")).unwrap_or_default();
        s.insert("description".into(), json!(format!("{prefix}{d}")));
    }
    insert(&mut s, "x-token-scheme", to_value(&t.scheme));
    honesty(&mut s, &t.meta.not_shown, &t.meta.assumed);
    Value::Object(s)
}

/// A field's own pattern beside the one its type's wire form has (a snowflake's decimal u64,
/// base64): both hold, and a schema has one `pattern`, so the field's goes into `allOf`.
fn own_pattern(map: &mut Map<String, Value>, regex: &str) {
    match map.get("pattern").and_then(Value::as_str) {
        Some(theirs) if theirs != regex => {
            if let Some(parts) = map.entry("allOf").or_insert_with(|| json!([])).as_array_mut() {
                parts.push(json!({ "pattern": regex }));
            }
        }
        _ => {
            map.insert("pattern".into(), json!(regex));
        }
    }
}
