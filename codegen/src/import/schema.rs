//! JSON Schema to the spec's types: component schemas to resources, enums and unions; any
//! schema to a field (a type expression with its constraints and presence), hoisting the
//! shapes declared inline into items named after where they were written.
//!
//! A schema is read key by key, and every key the mapping does not read is reported and kept
//! as a gap on the field or item, so nothing is dropped without a word.

use super::document::escape;
use super::spec::{self, Field, Gap, Items, Meta};
use super::{Component, DEPRECATED_CHANGE, Importer, SCHEMAS_FILE, Site, last_token, local_pointer};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::plan::case;
use indexmap::IndexMap;
use serde_json::{Map, Number, Value};
use std::collections::BTreeSet;

/// The keys of one schema object the mapping has read.
#[derive(Default)]
pub(super) struct Used(BTreeSet<String>);

impl Used {
    pub(super) fn take<'a>(&mut self, obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
        let v = obj.get(key)?;
        self.0.insert(key.to_owned());
        Some(v)
    }

    pub(super) fn mark(&mut self, key: &str) {
        self.0.insert(key.to_owned());
    }
}

/// Annotations: they describe a value without constraining it, and are kept as text.
const ANNOTATIONS: &[&str] = &["description", "title", "example", "examples", "deprecated", "default", "readOnly", "writeOnly", "$comment"];

/// Keys that only describe the schema's dialect or identity.
const META_KEYS: &[&str] = &["$schema", "$id", "$anchor", "$defs", "definitions"];

/// A JSON number as an `i64`, when it is an integer (also `5.0`).
fn int(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.2e18).map(|f| f as i64))
}

/// The `type` keyword as a list (`"string"` or `["string", "null"]`).
fn type_list(obj: &Map<String, Value>) -> Vec<&str> {
    match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether a schema is only `{type: null}` (an alternative that admits `null`).
fn is_null_schema(v: &Value) -> bool {
    let Some(obj) = v.as_object() else { return false };
    type_list(obj) == ["null"] && obj.keys().all(|k| k == "type" || ANNOTATIONS.contains(&k.as_str()))
        || obj.get("enum").and_then(Value::as_array).is_some_and(|l| l.len() == 1 && l[0].is_null()) && obj.len() <= 2
}

/// Whether a schema admits `null` as well as its other values.
pub(super) fn admits_null(v: &Value) -> bool {
    let Some(obj) = v.as_object() else { return false };
    type_list(obj).contains(&"null")
        || obj.get("nullable").and_then(Value::as_bool) == Some(true)
        || ["oneOf", "anyOf"].iter().any(|k| obj.get(*k).and_then(Value::as_array).is_some_and(|l| l.iter().any(is_null_schema)))
        || obj.get("enum").and_then(Value::as_array).is_some_and(|l| l.iter().any(Value::is_null))
}

/// The alternatives of `oneOf`/`anyOf` other than `null`.
fn alternatives(obj: &Map<String, Value>) -> Option<(&'static str, Vec<(usize, &Value)>)> {
    for key in ["oneOf", "anyOf"] {
        if let Some(list) = obj.get(key).and_then(Value::as_array) {
            return Some((key, list.iter().enumerate().filter(|(_, v)| !is_null_schema(v)).collect()));
        }
    }
    None
}

/// The constant of a branch of an enum written as `oneOf` of constants
/// (`{title: ACTION_ROW, const: 1}`, or an `enum` of one value).
fn branch_const(v: &Value) -> Option<&Value> {
    let o = v.as_object()?;
    if !o.keys().all(|k| ["const", "enum", "title", "description", "type", "deprecated", "format"].contains(&k.as_str())) {
        return None;
    }
    match (o.get("const"), o.get("enum").and_then(Value::as_array)) {
        (Some(c), None) => Some(c),
        (None, Some(list)) if list.len() == 1 => Some(&list[0]),
        _ => None,
    }
}

fn is_const_branch(v: &Value) -> bool {
    branch_const(v).is_some_and(|c| c.is_string() || c.is_i64() || c.is_u64())
}

/// Whether a schema is an enumeration: `enum` of texts or integers, or `oneOf` of constants.
pub(super) fn is_enum(obj: &Map<String, Value>) -> bool {
    let scalar = |v: &Value| v.is_string() || v.is_i64() || v.is_u64() || v.is_null();
    if let Some(list) = obj.get("enum").and_then(Value::as_array) {
        let values: Vec<&Value> = list.iter().filter(|v| !v.is_null()).collect();
        return !values.is_empty() && list.iter().all(scalar) && (values.iter().all(|v| v.is_string()) || values.iter().all(|v| !v.is_string()));
    }
    match alternatives(obj) {
        Some((_, list)) => {
            let consts: Vec<&Value> = list.iter().filter_map(|(_, v)| branch_const(v)).collect();
            let texts = consts.iter().all(|c| c.is_string());
            let integers = consts.iter().all(|c| c.is_i64() || c.is_u64());
            let kind = if texts { "string" } else { "integer" };
            !consts.is_empty()
                && (texts || integers)
                && list.iter().all(|(_, v)| is_const_branch(v) || is_open_branch(v, kind))
                && list.iter().filter(|(_, v)| is_open_branch(v, kind)).count() <= 1
        }
        None => false,
    }
}

/// The branch that keeps an enum open, the way the generator's own OpenAPI export writes it:
/// a bare `type` of the constants' kind (with annotations), beside the constants.
fn is_open_branch(v: &Value, kind: &str) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.get("type").and_then(Value::as_str) == Some(kind) && o.keys().all(|k| ["type", "title", "description"].contains(&k.as_str()))
}

/// Whether a schema describes an object with members (directly, through references, or
/// through a part of its `allOf`), as opposed to a scalar, an array, a map or an enum.
fn object_like(root: &Value, schema: &Value, depth: usize) -> bool {
    let Some(obj) = schema.as_object() else { return false };
    if depth > 16 {
        return true;
    }
    if obj.contains_key("properties") || (obj.get("type").and_then(Value::as_str) == Some("object") && !obj.contains_key("additionalProperties")) {
        return true;
    }
    if let Some(target) = obj.get("$ref").and_then(Value::as_str).and_then(local_pointer).and_then(|p| root.pointer(&p)) {
        return object_like(root, target, depth + 1);
    }
    obj.get("allOf").and_then(Value::as_array).is_some_and(|parts| parts.iter().any(|p| object_like(root, p, depth + 1)))
}

/// `allOf` parts none of which is an object (`[{type: string}, {maxLength: 10}]`, a reference
/// to an enum and a description) as the one schema their intersection is: the parts' keywords
/// together, the stricter bound where two give one. `None` when a part is an object (a
/// resource extends it) or two parts are references (nothing to merge them into).
fn merged_all_of(root: &Value, obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let parts = obj.get("allOf")?.as_array()?;
    if parts.iter().any(|p| object_like(root, p, 0) || !p.is_object()) || parts.iter().filter(|p| p.get("$ref").is_some()).count() > 1 {
        return None;
    }
    let mut merged: Map<String, Value> = obj.iter().filter(|(k, _)| *k != "allOf").map(|(k, v)| (k.clone(), v.clone())).collect();
    for part in parts.iter().filter_map(Value::as_object) {
        for (key, value) in part {
            let stricter = match (key.as_str(), merged.get(key).and_then(Value::as_f64), value.as_f64()) {
                ("maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties", Some(a), Some(b)) => Some(b < a),
                ("minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties", Some(a), Some(b)) => Some(b > a),
                _ => None,
            };
            if stricter.unwrap_or(!merged.contains_key(key)) {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
    Some(merged)
}

/// What a component schema becomes.
pub(super) fn classify(root: &Value, schema: &Value) -> Component {
    let Some(obj) = schema.as_object() else { return Component::Alias };
    if obj.contains_key("$ref") && !obj.contains_key("properties") {
        return Component::Alias;
    }
    if is_enum(obj) {
        return Component::Enum(String::new());
    }
    if let Some((_, list)) = alternatives(obj) {
        return if list.len() >= 2 { Component::Union(String::new()) } else { Component::Alias };
    }
    let all_of = obj.get("allOf").and_then(Value::as_array).map_or(0, Vec::len);
    if obj.contains_key("properties") || (all_of >= 2 && merged_all_of(root, obj).is_none()) {
        return Component::Resource(String::new());
    }
    Component::Alias
}

impl Importer<'_> {
    /// Names every component schema before any is mapped, so references resolve to ids.
    pub(super) fn classify_components(&mut self) {
        let Some(schemas) = self.root().pointer("/components/schemas").and_then(Value::as_object) else { return };
        for (name, schema) in schemas {
            let kind = match classify(self.root(), schema) {
                Component::Resource(_) => Component::Resource(self.claim("resource", name)),
                Component::Enum(_) => Component::Enum(self.claim("enum", name)),
                Component::Union(_) => Component::Union(self.claim("union", name)),
                Component::Alias => Component::Alias,
            };
            self.components.insert(name.clone(), kind);
        }
    }

    /// Maps every component schema that is an item, in document order.
    pub(super) fn component_schemas(&mut self, cx: &mut Diagnostics) {
        let Some(schemas) = self.root().pointer("/components/schemas").and_then(Value::as_object) else { return };
        for (name, schema) in schemas {
            let pointer = format!("/components/schemas/{}", escape(name));
            let site = Site::new(SCHEMAS_FILE, &self.component_id(name).unwrap_or_else(|| case::snake(name)));
            let Some(obj) = schema.as_object() else { continue };
            match self.components[name].clone() {
                Component::Resource(id) => {
                    let r = self.resource(cx, obj, &pointer, id, &site);
                    self.file(SCHEMAS_FILE).resources.push(r);
                }
                Component::Enum(id) => {
                    let e = self.enumeration(cx, obj, &pointer, id);
                    self.file(SCHEMAS_FILE).enums.push(e);
                }
                Component::Union(id) => {
                    let mut used = Used::default();
                    let u = self.union_item(cx, obj, &pointer, id, &site, &mut used);
                    self.file(SCHEMAS_FILE).unions.push(u);
                }
                Component::Alias => {}
            }
        }
    }

    fn component_id(&self, name: &str) -> Option<String> {
        match self.components.get(name)? {
            Component::Resource(id) | Component::Enum(id) | Component::Union(id) => Some(id.clone()),
            Component::Alias => None,
        }
    }

    /// The field a schema describes: its type, constraints, presence of `null` and annotations.
    pub(super) fn field(&mut self, cx: &mut Diagnostics, schema: &Value, pointer: &str, site: &Site) -> Field {
        let obj = match schema {
            Value::Object(obj) => obj,
            Value::Bool(true) => return Field { ty: Some("json".into()), ..Default::default() },
            _ => {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    pointer,
                    "details",
                    "a schema that is not an object",
                    "only schema objects and `true` describe values the spec can type",
                );
                return Field { ty: Some("json".into()), not_shown: vec![gap], ..Default::default() };
            }
        };
        let mut used = Used::default();
        let mut f = self.shape(cx, obj, pointer, site, &mut used);
        self.annotations(obj, &mut used, &mut f);
        let at = if obj.contains_key("example") { "example" } else { "examples" };
        self.settle_example(cx, &format!("{pointer}/{at}"), &mut f);
        let gaps = self.leftovers(cx, obj, pointer, &used);
        f.not_shown.extend(gaps);
        f
    }

    /// The type of a schema and its constraints.
    fn shape(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, site: &Site, used: &mut Used) -> Field {
        if let Some(r) = used.take(obj, "$ref") {
            let base = self.reference(cx, r, &format!("{pointer}/$ref"), site);
            return self.refine(cx, obj, pointer, used, base);
        }
        if let Some(merged) = merged_all_of(self.root(), obj).filter(|_| obj.get("allOf").and_then(Value::as_array).is_some_and(|p| p.len() >= 2)) {
            // Every key of the schema is read from the merged one.
            used.0.extend(obj.keys().cloned());
            let mut inner = Used::default();
            let mut f = self.shape(cx, &merged, pointer, site, &mut inner);
            self.annotations(&merged, &mut inner, &mut f);
            let gaps = self.leftovers(cx, &merged, pointer, &inner);
            f.not_shown.extend(gaps);
            return f;
        }
        if let Some(parts) = obj.get("allOf").and_then(Value::as_array) {
            used.mark("allOf");
            if parts.len() == 1 {
                let base = self.field(cx, &parts[0], &format!("{pointer}/allOf/0"), site);
                return self.refine(cx, obj, pointer, used, base);
            }
            let id = self.claim("resource", &site.id());
            let r = self.resource(cx, obj, pointer, id.clone(), site);
            used.0.extend(obj.keys().filter(|k| !ANNOTATIONS.contains(&k.as_str())).cloned());
            self.file(&site.file).resources.push(r);
            return Field { ty: Some(format!("object<{id}>")), nullable: admits_null(&Value::Object(obj.clone())), ..Default::default() };
        }
        if is_enum(obj) {
            let id = self.claim("enum", &site.id());
            let nullable = admits_null(&Value::Object(obj.clone()));
            let mut inner = Used::default();
            let e = self.enum_values(obj, id.clone(), &mut inner);
            used.0.extend(inner.0);
            let values = e.values.len();
            if values == 1 && e.repr == "string" {
                // One text is a constant, not an enumeration worth a type.
                self.taken.remove(&("enum", id));
                let value = e.values[0].meta.id.clone();
                return Field { ty: Some("string".into()), constant: Some(Value::String(value)), nullable, ..Default::default() };
            }
            self.file(&site.file).enums.push(e);
            return Field { ty: Some(format!("enum<{id}>")), nullable, ..Default::default() };
        }
        if let Some((key, list)) = alternatives(obj) {
            used.mark(key);
            let nullable = admits_null(&Value::Object(obj.clone()));
            if list.len() == 1 {
                let (i, only) = list[0];
                let mut base = self.field(cx, only, &format!("{pointer}/{key}/{i}"), site);
                base.nullable |= nullable;
                return self.refine(cx, obj, pointer, used, base);
            }
            if list.is_empty() {
                return Field { ty: Some("null".into()), ..Default::default() };
            }
            let id = self.claim("union", &site.id());
            let u = self.union_item(cx, obj, pointer, id.clone(), site, used);
            self.file(&site.file).unions.push(u);
            return Field { ty: Some(format!("union<{id}>")), nullable, ..Default::default() };
        }
        let types = type_list(obj);
        used.mark("type");
        let nullable = types.contains(&"null") || used.take(obj, "nullable").and_then(Value::as_bool) == Some(true);
        let mut concrete: Vec<&str> = types.iter().copied().filter(|t| *t != "null").collect();
        if concrete.is_empty() && types.contains(&"null") {
            return Field { ty: Some("null".into()), ..Default::default() };
        }
        if concrete.is_empty() {
            concrete.push(infer_type(obj));
        }
        let mut f = if concrete.len() == 1 {
            self.typed(cx, concrete[0], obj, pointer, site, used)
        } else {
            let mut alts: Vec<String> = Vec::new();
            for t in &concrete {
                // A type listed twice is one alternative (the second would never be chosen).
                let ty = self.typed(cx, t, obj, pointer, site, used).ty.unwrap_or_else(|| "json".into());
                if !alts.contains(&ty) {
                    alts.push(ty);
                }
            }
            Field { ty: Some(alts.join(" | ")), ..Default::default() }
        };
        f.nullable |= nullable;
        f
    }

    /// A schema of one JSON type.
    fn typed(&mut self, cx: &mut Diagnostics, ty: &str, obj: &Map<String, Value>, pointer: &str, site: &Site, used: &mut Used) -> Field {
        let mut f = Field::default();
        match ty {
            "string" => {
                f.ty = Some(self.string_type(cx, obj, pointer, used, &mut f));
                self.text_rules(cx, obj, pointer, used, &mut f);
                self.scalar_const(obj, used, &mut f);
            }
            "integer" => {
                let (prim, min, max) = self.integer_type(obj, used, &mut f);
                f.ty = Some(prim.into());
                self.number_rules(obj, used, &mut f, true, min, max);
                self.scalar_const(obj, used, &mut f);
            }
            "number" => {
                let format = used.take(obj, "format").and_then(Value::as_str);
                f.ty = Some(if format == Some("float") { "float32" } else { "number" }.into());
                if let Some(other) = format.filter(|f| !["float", "double"].contains(f)) {
                    f.format = Some(other.to_owned());
                }
                self.number_rules(obj, used, &mut f, false, None, None);
                self.scalar_const(obj, used, &mut f);
            }
            "boolean" => {
                f.ty = Some("boolean".into());
                self.scalar_const(obj, used, &mut f);
            }
            "null" => f.ty = Some("null".into()),
            "array" => return self.array(cx, obj, pointer, site, used),
            "object" => return self.object(cx, obj, pointer, site, used),
            _ => f.ty = Some("json".into()),
        }
        f
    }

    /// The primitive of a string schema, from its `format` and `contentEncoding`.
    fn string_type(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, used: &mut Used, f: &mut Field) -> String {
        let encoding = used.take(obj, "contentEncoding").and_then(Value::as_str);
        if obj.contains_key("contentMediaType") {
            used.mark("contentMediaType");
            f.content_type = obj.get("contentMediaType").and_then(Value::as_str).map(str::to_owned);
        }
        match encoding {
            Some("base64") => return "bytes".into(),
            Some("binary") => return "file".into(),
            Some(other) => {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{pointer}/contentEncoding"),
                    "format",
                    &format!("content encoding `{other}`"),
                    "texts are base64 (`bytes`), binary (`file`) or plain",
                );
                f.not_shown.push(gap);
            }
            None => {}
        }
        let Some(format) = used.take(obj, "format").and_then(Value::as_str) else {
            return if f.content_type.is_some() { "file".into() } else { "string".into() };
        };
        let prim = match format {
            "date-time" => "timestamp",
            "date" => "date",
            "uuid" => "uuid",
            "email" => "email",
            "uri" | "url" => "uri",
            "byte" => "bytes",
            "binary" => "file",
            "snowflake" => "snowflake",
            other => {
                // A format the spec has no type for is carried as it is, unchecked (in
                // JSON Schema 2020-12 a format is an annotation unless a validator opts in).
                f.format = Some(other.to_owned());
                "string"
            }
        };
        prim.into()
    }

    /// The primitive of an integer schema, with the bounds its format implies beyond the
    /// primitive's own (`uint8` is a `uint32` of at most 255).
    fn integer_type(&mut self, obj: &Map<String, Value>, used: &mut Used, f: &mut Field) -> (&'static str, Option<i64>, Option<i64>) {
        match used.take(obj, "format").and_then(Value::as_str) {
            None | Some("int64") => ("integer", None, None),
            Some("int32") => ("int32", None, None),
            Some("int16") => ("int32", Some(i16::MIN.into()), Some(i16::MAX.into())),
            Some("int8") => ("int32", Some(i8::MIN.into()), Some(i8::MAX.into())),
            Some("uint32") => ("uint32", None, None),
            Some("uint64") => ("uint64", None, None),
            Some("uint16") => ("uint32", None, Some(u16::MAX.into())),
            Some("uint8") => ("uint32", None, Some(u8::MAX.into())),
            Some(other) => {
                f.format = Some(other.to_owned());
                ("integer", None, None)
            }
        }
    }

    fn text_rules(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, used: &mut Used, f: &mut Field) {
        let text = matches!(f.ty.as_deref(), Some("string" | "uri" | "email"));
        let decimal = matches!(f.ty.as_deref(), Some("snowflake"));
        if !text && !decimal {
            return;
        }
        // Keywords beside a reference narrow what it says; absent ones leave it as it is.
        if text {
            if let Some(n) = used.take(obj, "minLength").and_then(int) {
                f.rules.min_length = Some(Number::from(n));
            }
            if let Some(n) = used.take(obj, "maxLength").and_then(int) {
                f.rules.max_length = Some(Number::from(n));
            }
        }
        if let Some(p) = obj.get("pattern").and_then(Value::as_str) {
            match regex::Regex::new(p) {
                Ok(_) => {
                    used.mark("pattern");
                    f.rules.pattern = Some(p.to_owned());
                }
                Err(_) => {
                    used.mark("pattern");
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &format!("{pointer}/pattern"),
                        "format",
                        "a pattern the `regex` crate does not accept",
                        "patterns are checked with the `regex` crate, which has no look-around or backreferences",
                    );
                    f.not_shown.push(gap);
                }
            }
        }
    }

    /// `minimum`/`maximum` and their exclusive forms (3.1 numbers, 3.0 booleans), within the
    /// bounds the type's format implies.
    fn number_rules(&mut self, obj: &Map<String, Value>, used: &mut Used, f: &mut Field, integer: bool, implied_min: Option<i64>, implied_max: Option<i64>) {
        let num = |v: &Value| -> Option<Number> {
            if integer {
                int(v).map(Number::from)
            } else if let Some(i) = v.as_i64() {
                Some(Number::from(i))
            } else {
                v.as_f64().and_then(Number::from_f64)
            }
        };
        let min = used.take(obj, "minimum").and_then(num);
        let max = used.take(obj, "maximum").and_then(num);
        let (mut min_ex, mut max_ex) = (None, None);
        match used.take(obj, "exclusiveMinimum") {
            Some(Value::Bool(true)) => min_ex = min.clone(),
            Some(v) => min_ex = num(v),
            None => {}
        }
        match used.take(obj, "exclusiveMaximum") {
            Some(Value::Bool(true)) => max_ex = max.clone(),
            Some(v) => max_ex = num(v),
            None => {}
        }
        f.rules.min = if min_ex.is_some() && obj.get("exclusiveMinimum").is_some_and(Value::is_boolean) { None } else { min };
        f.rules.max = if max_ex.is_some() && obj.get("exclusiveMaximum").is_some_and(Value::is_boolean) { None } else { max };
        f.rules.min_exclusive = min_ex;
        f.rules.max_exclusive = max_ex;
        if f.rules.min.is_none() && f.rules.min_exclusive.is_none() {
            f.rules.min = implied_min.map(Number::from);
        }
        if f.rules.max.is_none() && f.rules.max_exclusive.is_none() {
            f.rules.max = implied_max.map(Number::from);
        }
    }

    /// `const`, or an `enum` of one value, on a scalar.
    fn scalar_const(&mut self, obj: &Map<String, Value>, used: &mut Used, f: &mut Field) {
        let constant = if let Some(c) = used.take(obj, "const") {
            Some(c.clone())
        } else if let Some(list) = obj.get("enum").and_then(Value::as_array) {
            let values: Vec<&Value> = list.iter().filter(|v| !v.is_null()).collect();
            if values.len() == 1 {
                used.mark("enum");
                f.nullable |= list.iter().any(Value::is_null);
                Some(values[0].clone())
            } else {
                None
            }
        } else {
            None
        };
        // A constant that is no value of the type the schema declares constrains nothing a
        // decoder can check: it stays in words.
        match constant {
            Some(c) if literal_fits(f.ty.as_deref().unwrap_or_default(), &c) => f.constant = Some(c),
            Some(c) => f.notes.push(format!("The document fixes it to `{c}`, which is no value of its type.")),
            None => {}
        }
    }

    /// An array schema: `array<T>`, its counts and the rules of its elements.
    fn array(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, site: &Site, used: &mut Used) -> Field {
        let mut f = Field::default();
        let element = match used.take(obj, "items") {
            Some(items) => self.field(cx, items, &format!("{pointer}/items"), &site.child("item")),
            None => Field { ty: Some("json".into()), ..Default::default() },
        };
        f.ty = Some(format!("array<{}>", element.ty.clone().unwrap_or_else(|| "json".into())));
        f.rules.min_items = used.take(obj, "minItems").and_then(int).map(Number::from);
        f.rules.max_items = used.take(obj, "maxItems").and_then(int).map(Number::from);
        f.rules.unique_items = used.take(obj, "uniqueItems").and_then(Value::as_bool) == Some(true);
        self.element_rules(&mut f, element);
        f
    }

    /// Moves what an element schema says onto the field that holds it: its constraints into
    /// `items:`, an enum subset onto the field, its gaps and description as the field's.
    fn element_rules(&mut self, f: &mut Field, element: Field) {
        let items = Items { nullable: element.nullable, rules: element.rules, items: element.items };
        if !items.is_empty() {
            f.items = Some(Box::new(items));
        }
        f.subset = element.subset;
        if let Some(c) = element.constant {
            f.notes.push(format!("Every element is {c}."));
        }
        if let Some(d) = element.description {
            f.notes.push(format!("Each element: {d}"));
        }
        f.not_shown.extend(element.not_shown);
        f.notes.extend(element.notes);
    }

    /// An object schema: a map when it has only `additionalProperties`, else a resource named
    /// after where it was written.
    fn object(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, site: &Site, used: &mut Used) -> Field {
        if !obj.contains_key("properties") {
            let mut f = Field::default();
            let value = match used.take(obj, "additionalProperties") {
                Some(Value::Bool(false)) => {
                    f.notes.push("The object has no members.".into());
                    Field { ty: Some("json".into()), ..Default::default() }
                }
                Some(v @ Value::Object(_)) => self.field(cx, v, &format!("{pointer}/additionalProperties"), &site.child("value")),
                _ => Field { ty: Some("json".into()), ..Default::default() },
            };
            let key = match obj.get("propertyNames") {
                Some(names) if names.get("format").and_then(Value::as_str) == Some("uuid") && names.as_object().is_some_and(|o| o.len() <= 2) => {
                    used.mark("propertyNames");
                    "uuid"
                }
                _ => "string",
            };
            f.ty = Some(format!("map<{key}, {}>", value.ty.clone().unwrap_or_else(|| "json".into())));
            f.rules.min_entries = used.take(obj, "minProperties").and_then(int).map(Number::from);
            f.rules.max_entries = used.take(obj, "maxProperties").and_then(int).map(Number::from);
            self.element_rules(&mut f, value);
            return f;
        }
        let id = self.claim("resource", &site.id());
        let r = self.resource(cx, obj, pointer, id.clone(), site);
        used.0.extend(obj.keys().filter(|k| !ANNOTATIONS.contains(&k.as_str())).cloned());
        self.file(&site.file).resources.push(r);
        Field { ty: Some(format!("object<{id}>")), ..Default::default() }
    }

    /// A resource from an object schema (`properties`, `required`, `allOf` of bases).
    pub(super) fn resource(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, id: String, site: &Site) -> spec::Resource {
        let mut used = Used::default();
        used.mark("type");
        used.mark("nullable");
        let mut meta = Meta { id, ..Default::default() };
        let mut extends = Vec::new();
        let mut fields = IndexMap::new();
        let mut required: Vec<String> = Vec::new();
        if let Some(parts) = used.take(obj, "allOf").and_then(Value::as_array) {
            for (i, part) in parts.iter().enumerate() {
                let at = format!("{pointer}/allOf/{i}");
                let base = part.get("$ref").and_then(Value::as_str).and_then(|r| self.resource_ref(r));
                match (base, part.as_object()) {
                    (Some(base), Some(p)) if p.len() == 1 => extends.push(base),
                    (_, Some(p)) if p.contains_key("properties") && !p.contains_key("$ref") => {
                        let mut inner = Used::default();
                        inner.mark("type");
                        required.extend(self.properties(cx, p, &at, site, &mut inner, &mut fields));
                        if let Some(d) = inner.take(p, "description").and_then(Value::as_str) {
                            meta.notes.push(d.to_owned());
                        }
                        let gaps = self.leftovers(cx, p, &at, &inner);
                        meta.not_shown.extend(gaps);
                    }
                    _ => {
                        let gap = self.unmapped(
                            cx,
                            codes::IMPORT_UNMAPPED,
                            &at,
                            "fields",
                            "a part of `allOf` that is neither a resource nor an object",
                            "a resource extends resources and adds fields",
                        );
                        meta.not_shown.push(gap);
                    }
                }
            }
        }
        required.extend(self.properties(cx, obj, pointer, site, &mut used, &mut fields));
        for name in &required {
            if let Some(f) = fields.get_mut(name) {
                f.optional = false;
            }
        }
        let mut closed = None;
        match used.take(obj, "additionalProperties") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => closed = Some(true),
            Some(_) => {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{pointer}/additionalProperties"),
                    "fields",
                    "`additionalProperties` beside `properties`",
                    "a resource has named fields; generated types keep no other members",
                );
                meta.not_shown.push(gap);
            }
        }
        self.item_annotations(obj, &mut used, &mut meta);
        // Keywords of the object as a whole: its field list stays complete (`fields` would
        // make the generated type keep unknown members).
        let gaps = self.leftovers(cx, obj, pointer, &used);
        meta.not_shown.extend(gaps.into_iter().map(|g| Gap { facet: "structure", ..g }));
        spec::Resource { meta, extends, closed, fields }
    }

    /// The resource id a reference names, when it names a resource component.
    fn resource_ref(&self, reference: &str) -> Option<String> {
        let pointer = local_pointer(reference)?;
        let name = pointer.strip_prefix("/components/schemas/")?;
        match self.components.get(&last_token(&format!("/{name}")))? {
            Component::Resource(id) => Some(id.clone()),
            _ => None,
        }
    }

    /// The fields of `properties`, each optional unless `required` names it; returns the
    /// required names (some may be fields of a base).
    fn properties(
        &mut self,
        cx: &mut Diagnostics,
        obj: &Map<String, Value>,
        pointer: &str,
        site: &Site,
        used: &mut Used,
        out: &mut IndexMap<String, Field>,
    ) -> Vec<String> {
        let required: Vec<String> =
            used.take(obj, "required").and_then(Value::as_array).map(|l| l.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default();
        if let Some(props) = used.take(obj, "properties").and_then(Value::as_object) {
            for (name, schema) in props {
                let at = format!("{pointer}/properties/{}", escape(name));
                let mut f = self.field(cx, schema, &at, &site.child(name));
                f.optional = !required.contains(name);
                self.media_outside_part(cx, &at, &mut f);
                // A default of a member that is always sent is never used: it stays in words.
                if !f.optional
                    && let Some(d) = f.default.take()
                {
                    f.default_text = Some(match d {
                        Value::String(s) => s,
                        other => other.to_string(),
                    });
                }
                // Names that differ only in case or punctuation are one name in generated code:
                // a later one gets a key of its own and keeps its name on the wire.
                let mut key = name.clone();
                if out.keys().any(|k| k != name && case::snake(k) == case::snake(name)) {
                    key = format!("{}_{}", case::snake(name), out.len());
                    f.wire_name = Some(name.clone());
                }
                out.insert(key, f);
            }
        }
        required
    }

    /// A member's `contentMediaType` (a text holding a file): only a multipart part carries a
    /// media type in the spec, so a member of CSV text is the `csv` type, and any other media
    /// type is left out with its pointer (the member stays a file).
    fn media_outside_part(&mut self, cx: &mut Diagnostics, pointer: &str, f: &mut Field) {
        let Some(media) = f.content_type.take() else { return };
        if media == "text/csv" && f.ty.as_deref() == Some("file") {
            f.ty = Some("csv".into());
            return;
        }
        let what = format!("media type `{media}` of a member");
        let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, &format!("{pointer}/contentMediaType"), "format", &what, "only a multipart part has a media type");
        f.not_shown.push(gap);
    }

    /// An enum item from an enumeration schema.
    pub(super) fn enumeration(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, id: String) -> spec::Enum {
        let mut used = Used::default();
        let mut e = self.enum_values(obj, id, &mut used);
        self.item_annotations(obj, &mut used, &mut e.meta);
        let gaps = self.leftovers(cx, obj, pointer, &used);
        e.meta.not_shown.extend(gaps);
        e
    }

    /// The values of an enumeration: `enum` (a text is its own id; an integer gets an assumed
    /// one) or `oneOf` constants (`title` names an integer's value).
    fn enum_values(&mut self, obj: &Map<String, Value>, id: String, used: &mut Used) -> spec::Enum {
        used.mark("type");
        used.mark("nullable");
        used.mark("format");
        let mut values: Vec<spec::EnumValue> = Vec::new();
        let mut ids = BTreeSet::new();
        let mut unique = |wanted: String, n: Option<i64>| -> String {
            let mut id = wanted.clone();
            if ids.contains(&id) {
                id = match n {
                    Some(n) => format!("{wanted}_{n}"),
                    None => format!("{wanted}_"),
                };
            }
            ids.insert(id.clone());
            id
        };
        if let Some(list) = used.take(obj, "enum").and_then(Value::as_array) {
            let mut seen = Vec::new();
            // A value listed twice is one value.
            for v in list.iter().filter(|v| !v.is_null()) {
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                let mut meta = Meta::default();
                let value = match v {
                    Value::String(s) => {
                        meta.id = unique(s.clone(), None);
                        None
                    }
                    other => {
                        let n = int(other).unwrap_or_default();
                        meta.id = unique(format!("VALUE_{}", n.to_string().replace('-', "MINUS_")), Some(n));
                        meta.assumed.insert("id".into(), "the document gives the value without a name".into());
                        Some(n)
                    }
                };
                values.push(spec::EnumValue { meta, value });
            }
        } else if let Some((key, list)) = alternatives(obj) {
            used.mark(key);
            // The open branch, if any, says what enums here always are: open to unknown values.
            for (_, branch) in list.into_iter().filter(|(_, b)| branch_const(b).is_some()) {
                let b = branch.as_object().expect("BUG: const branches are objects");
                let c = branch_const(branch).expect("BUG: enum branches have a constant");
                let title = b.get("title").and_then(Value::as_str);
                let mut meta = Meta::default();
                let value = match c {
                    Value::String(s) => {
                        meta.id = unique(s.clone(), None);
                        meta.name = title.filter(|t| t != s).map(str::to_owned);
                        None
                    }
                    other => {
                        let n = int(other).unwrap_or_default();
                        match title {
                            Some(t) => meta.id = unique(t.to_owned(), Some(n)),
                            None => {
                                meta.id = unique(format!("VALUE_{}", n.to_string().replace('-', "MINUS_")), Some(n));
                                meta.assumed.insert("id".into(), "the document gives the value without a name".into());
                            }
                        }
                        Some(n)
                    }
                };
                meta.description = b.get("description").and_then(Value::as_str).map(str::to_owned);
                if b.get("deprecated").and_then(Value::as_bool) == Some(true) {
                    meta.deprecated = Some(self.deprecation());
                }
                values.push(spec::EnumValue { meta, value });
            }
        }
        let repr = if values.iter().all(|v| v.value.is_some()) && !values.is_empty() { "integer" } else { "string" };
        spec::Enum { meta: Meta { id, ..Default::default() }, repr, values }
    }

    /// The change that deprecates what the document deprecates (written once at the end).
    pub(super) fn deprecation(&mut self) -> String {
        self.deprecates = true;
        DEPRECATED_CHANGE.to_owned()
    }

    /// A union item from `oneOf`/`anyOf`: tagged when every variant is an object with a
    /// required constant member of the same name (OpenAPI's `discriminator`, or inferred), else
    /// tried in order.
    pub(super) fn union_item(
        &mut self,
        cx: &mut Diagnostics,
        obj: &Map<String, Value>,
        pointer: &str,
        id: String,
        site: &Site,
        used: &mut Used,
    ) -> spec::Union {
        let (key, list) = alternatives(obj).unwrap_or(("oneOf", Vec::new()));
        used.mark(key);
        used.mark("type");
        used.mark("nullable");
        let explicit = used.take(obj, "discriminator").and_then(|d| d.get("propertyName")).and_then(Value::as_str).map(str::to_owned);
        let tag = self.discriminator(&list, explicit.as_deref());
        let mut variants: IndexMap<String, Field> = IndexMap::new();
        let mut places = Vec::new();
        let usite = Site { path: vec![id.clone()], file: site.file.clone() };
        for (i, schema) in &list {
            let at = format!("{pointer}/{key}/{i}");
            let mut name = self.variant_name(schema, tag.as_ref().map(|t| t.field.as_str()));
            if variants.contains_key(&name) || name.is_empty() {
                name = format!("{name}_{i}");
            }
            let mut f = self.field(cx, schema, &at, &usite.child(&name));
            if f.nullable && tag.is_some() {
                f.nullable = false;
            }
            // A variant is a whole value, never absent: a default has nothing to fill in.
            if let Some(d) = f.default.take() {
                f.notes.push(format!("The document gives it the default `{d}`."));
            }
            variants.insert(name, f);
            places.push(at);
        }
        let mut meta = Meta { id, ..Default::default() };
        if tag.is_none() {
            variants = self.untagged_order(cx, variants, &places, &mut meta);
        } else {
            self.tagged.insert(meta.id.clone(), (pointer.to_owned(), places));
        }
        let discriminator = tag.map(|t| spec::Discriminator { field: t.field, ty: t.ty });
        self.item_annotations(obj, used, &mut meta);
        let gaps = self.leftovers(cx, obj, pointer, used);
        meta.not_shown.extend(gaps);
        spec::Union { meta, discriminator, variants }
    }

    /// The variants of an untagged union in the order the spec tries them. `oneOf`/`anyOf` has
    /// no order, but the spec tries variants in order and keeps the first that decodes, so
    /// variants with constraints of their own go first, then specific types, then text, then
    /// `json`; a variant that an earlier unconstrained one decodes whole (the same type, or two
    /// texts) would never be chosen, and is left out with its pointer.
    fn untagged_order(&mut self, cx: &mut Diagnostics, variants: IndexMap<String, Field>, places: &[String], meta: &mut Meta) -> IndexMap<String, Field> {
        let mut list: Vec<(String, Field, String)> =
            variants.into_iter().enumerate().map(|(i, (n, f))| (n, f, places.get(i).cloned().unwrap_or_default())).collect();
        list.sort_by_key(|(_, f, _)| variant_rank(f));
        let mut kept: IndexMap<String, Field> = IndexMap::new();
        for (name, f, at) in list {
            let shadowed = !narrowed(&f) && kept.values().any(|earlier| !narrowed(earlier) && shadows(earlier, &f));
            if shadowed {
                let what = format!("variant `{name}`, which an earlier variant decodes whole");
                let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, "details", &what, "an untagged union keeps the first variant that decodes");
                meta.not_shown.push(gap);
                continue;
            }
            kept.insert(name, f);
        }
        kept
    }

    /// Once every resource is written: a tagged union whose variants do not all carry its
    /// discriminator as a constant member of the discriminator's type (a member retyped, its
    /// constant not mapped, a variant that is no resource) cannot be decoded by its tag, so it
    /// becomes an untagged union, and the discriminator is left out with its pointer.
    pub(super) fn settle_tagged_unions(&mut self, cx: &mut Diagnostics) {
        let mut broken = Vec::new();
        for (path, file) in &self.files {
            for (i, u) in file.unions.iter().enumerate() {
                let Some(d) = &u.discriminator else { continue };
                let carried = u.variants.values().all(|v| {
                    let member =
                        v.ty.as_deref().and_then(|t| t.strip_prefix("object<")).and_then(|t| t.strip_suffix('>')).and_then(|id| self.member(id, &d.field, 0));
                    member.is_some_and(|f| f.ty.as_deref() == Some(d.ty.as_str()) && !f.nullable && (v.tag.is_some() || f.constant.is_some()))
                });
                if !carried {
                    broken.push((path.clone(), i));
                }
            }
        }
        for (path, i) in broken {
            let u = &mut self.files[&path].unions[i];
            let (field, variants) = (u.discriminator.take().map(|d| d.field).unwrap_or_default(), std::mem::take(&mut u.variants));
            let id = u.meta.id.clone();
            let (pointer, places) = self.tagged.get(&id).cloned().unwrap_or_default();
            let mut meta = std::mem::take(&mut self.files[&path].unions[i].meta);
            let what = format!("discriminator `{field}`, which not every variant carries as a constant of one type");
            let gap = self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                &pointer,
                "details",
                &what,
                "a tagged union's variants each hold the tag; the union is tried in order instead",
            );
            meta.not_shown.push(gap);
            let variants = variants.into_iter().map(|(n, mut f)| {
                f.tag = None;
                (n, f)
            });
            let variants = self.untagged_order(cx, variants.collect(), &places, &mut meta);
            let u = &mut self.files[&path].unions[i];
            u.meta = meta;
            u.variants = variants;
        }
    }

    /// The member `name` of resource `id` or of a resource it extends.
    fn member(&self, id: &str, name: &str, depth: usize) -> Option<&Field> {
        let r = self.files.values().flat_map(|f| &f.resources).find(|r| r.meta.id == id)?;
        if let Some(f) = r.fields.get(name) {
            return Some(f);
        }
        if depth > 16 {
            return None;
        }
        r.extends.iter().find_map(|base| self.member(base, name, depth + 1))
    }

    /// The name of a union variant: the component it refers to, its tag, its title, or its type.
    fn variant_name(&self, schema: &Value, tag_field: Option<&str>) -> String {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str)
            && let Some(p) = local_pointer(r)
            && p.starts_with("/components/schemas/")
        {
            let name = last_token(&p);
            return self.component_id(&name).unwrap_or_else(|| case::snake(&name));
        }
        if let Some(field) = tag_field
            && let Some(c) = self.const_of(schema, field)
        {
            let text = match c {
                Value::String(s) => s,
                other => other.to_string(),
            };
            return case::snake(&text);
        }
        if let Some(t) = schema.get("title").and_then(Value::as_str) {
            return case::snake(t);
        }
        match schema.as_object().map(type_list).unwrap_or_default().iter().find(|t| **t != "null") {
            Some(t) => (*t).to_owned(),
            None => "variant".to_owned(),
        }
    }

    /// The value a schema, response or other object stands for, its local references followed.
    pub(super) fn resolved<'v>(&'v self, schema: &'v Value) -> &'v Value {
        let mut s = schema;
        for _ in 0..8 {
            match s.get("$ref").and_then(Value::as_str).and_then(local_pointer).and_then(|p| self.doc.at(&p)) {
                Some(target) => s = target,
                None => break,
            }
        }
        s
    }

    /// The constant a required member `field` of an object schema has (`const`, an `enum` of
    /// one value, or either behind a single `allOf`).
    fn const_of(&self, schema: &Value, field: &str) -> Option<Value> {
        let s = self.resolved(schema);
        let required = s.get("required").and_then(Value::as_array).is_some_and(|l| l.iter().any(|v| v == field));
        let member = s.get("properties")?.get(field)?;
        if !required || admits_null(member) {
            return None;
        }
        member.get("const").cloned().or_else(|| member.get("enum").and_then(Value::as_array).filter(|l| l.len() == 1).map(|l| l[0].clone()))
    }

    /// The discriminator of a list of variants, when every variant carries a distinct constant
    /// in the same required member.
    fn discriminator(&self, list: &[(usize, &Value)], explicit: Option<&str>) -> Option<Tag> {
        let first = self.resolved(list.first()?.1);
        let candidates: Vec<String> = match explicit {
            Some(name) => vec![name.to_owned()],
            None => first.get("properties")?.as_object()?.keys().cloned().collect(),
        };
        'candidate: for field in candidates {
            let mut seen: Vec<Value> = Vec::new();
            for (_, v) in list {
                let obj = self.resolved(v);
                if type_list(obj.as_object()?).iter().any(|t| *t != "object" && *t != "null") {
                    return None;
                }
                match self.const_of(v, &field) {
                    Some(c) if !seen.contains(&c) => seen.push(c),
                    _ => continue 'candidate,
                }
            }
            let ty = if let Some(e) = self.common_enum(list, &field) {
                format!("enum<{e}>")
            } else if seen.iter().all(Value::is_string) {
                "string".to_owned()
            } else if seen.iter().all(|v| v.is_i64() || v.is_u64()) {
                "integer".to_owned()
            } else {
                continue;
            };
            return Some(Tag { field, ty });
        }
        None
    }

    /// The enum component every variant's member `field` refers to, if they all refer to one.
    fn common_enum(&self, list: &[(usize, &Value)], field: &str) -> Option<String> {
        let mut found: Option<String> = None;
        for (_, v) in list {
            let member = self.resolved(v).get("properties")?.get(field)?;
            let r = member.get("$ref").or_else(|| member.get("allOf").and_then(|a| a.get(0)).and_then(|p| p.get("$ref")))?.as_str()?;
            let name = last_token(&local_pointer(r)?);
            let Some(Component::Enum(id)) = self.components.get(&name) else { return None };
            match &found {
                Some(f) if f != id => return None,
                _ => found = Some(id.clone()),
            }
        }
        found
    }

    /// A reference: a component becomes its item's type, anything else is read where it points.
    fn reference(&mut self, cx: &mut Diagnostics, reference: &Value, pointer: &str, site: &Site) -> Field {
        let json = |gaps: Vec<Gap>| Field { ty: Some("json".into()), not_shown: gaps, ..Default::default() };
        let Some(text) = reference.as_str() else { return json(Vec::new()) };
        let Some(target_pointer) = self.resolve_ref(cx, text, pointer) else { return json(Vec::new()) };
        let target = self.doc.at(&target_pointer).expect("BUG: resolve_ref checked the target");
        if let Some(rest) = target_pointer.strip_prefix("/components/schemas/")
            && !rest.contains('/')
        {
            let name = last_token(&target_pointer);
            let nullable = admits_null(target);
            let ty = match self.components.get(&name).cloned() {
                Some(Component::Resource(id)) => format!("object<{id}>"),
                Some(Component::Enum(id)) => format!("enum<{id}>"),
                Some(Component::Union(id)) => format!("union<{id}>"),
                _ => return self.expand(cx, &name, target, &target_pointer, site),
            };
            return Field { ty: Some(ty), nullable, ..Default::default() };
        }
        self.expand(cx, &target_pointer, target, &target_pointer, site)
    }

    /// A shape with no item of its own, written out where it is used.
    fn expand(&mut self, cx: &mut Diagnostics, key: &str, target: &Value, pointer: &str, site: &Site) -> Field {
        if self.expanding.iter().any(|k| k == key) || self.expanding.len() > 32 {
            let gap = self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                pointer,
                "type",
                "a shape that contains itself without a name",
                "recursion needs a named resource or union; the inner value is untyped JSON",
            );
            return Field { ty: Some("json".into()), notes: vec![gap.detail], ..Default::default() };
        }
        self.expanding.push(key.to_owned());
        let f = self.field(cx, target, pointer, site);
        self.expanding.pop();
        f
    }

    /// The pointer a local `$ref` names; a remote one, or one that names nothing, is an error.
    pub(super) fn resolve_ref(&mut self, cx: &mut Diagnostics, reference: &str, pointer: &str) -> Option<String> {
        let Some(target) = local_pointer(reference) else {
            cx.push(
                Diagnostic::error(codes::IMPORT_REMOTE_REF, format!("`$ref: {reference}` at `#{pointer}` points outside the document"))
                    .at(self.doc.span(pointer), "a remote reference")
                    .help("the importer reads one document; bundle the referenced files into it first (for example with `redocly bundle`)"),
            );
            return None;
        };
        if self.doc.at(&target).is_none() {
            cx.push(
                Diagnostic::error(codes::IMPORT_UNRESOLVED_REF, format!("`$ref: {reference}` at `#{pointer}` names nothing in the document"))
                    .at(self.doc.span(pointer), "no value at this pointer"),
            );
            return None;
        }
        Some(target)
    }

    /// Keywords next to a `$ref` or a single `allOf` part that narrow it: `enum`/`const` on an
    /// enum (a constant or a subset of its values), a `type` or `nullable` that admits `null`,
    /// and constraints of the base's kind.
    fn refine(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, used: &mut Used, mut base: Field) -> Field {
        if type_list(obj).contains(&"null") || obj.get("nullable").and_then(Value::as_bool) == Some(true) {
            base.nullable = true;
        }
        used.mark("nullable");
        if obj.contains_key("type") {
            used.mark("type");
        }
        let ty = base.ty.clone().unwrap_or_default();
        if let Some(enum_id) = ty.strip_prefix("enum<").and_then(|t| t.strip_suffix('>')) {
            used.mark("format");
            let values: Vec<Value> = match (obj.get("const"), obj.get("enum").and_then(Value::as_array)) {
                (Some(c), _) => vec![c.clone()],
                (None, Some(list)) => list.iter().filter(|v| !v.is_null()).cloned().collect(),
                _ => Vec::new(),
            };
            if !values.is_empty() {
                used.mark("const");
                used.mark("enum");
                let ids: Vec<String> = values.iter().filter_map(|v| self.enum_value_id(enum_id, v)).collect();
                if ids.len() != values.len() {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &format!("{pointer}/enum"),
                        "values",
                        "a value its enum does not have",
                        "a field of an enum takes only the enum's values",
                    );
                    base.not_shown.push(gap);
                } else if ids.len() == 1 {
                    base.constant = Some(Value::String(ids[0].clone()));
                } else {
                    base.subset = ids;
                }
            }
            return base;
        }
        if base.ty.as_deref().is_some_and(|t| ["string", "uri", "email", "snowflake"].contains(&t)) {
            self.text_rules(cx, obj, pointer, used, &mut base);
        }
        let numeric = ["integer", "int32", "uint32", "uint64", "number", "float32"];
        if base.ty.as_deref().is_some_and(|t| numeric.contains(&t)) {
            let integer = !matches!(base.ty.as_deref(), Some("number" | "float32"));
            let mut narrowed = Field::default();
            self.number_rules(obj, used, &mut narrowed, integer, None, None);
            base.rules.min = narrowed.rules.min.or(base.rules.min);
            base.rules.max = narrowed.rules.max.or(base.rules.max);
            base.rules.min_exclusive = narrowed.rules.min_exclusive.or(base.rules.min_exclusive);
            base.rules.max_exclusive = narrowed.rules.max_exclusive.or(base.rules.max_exclusive);
        }
        base
    }

    /// The id of the value of enum `enum_id` whose wire value is `v`.
    fn enum_value_id(&self, enum_id: &str, v: &Value) -> Option<String> {
        let (_, schema) =
            self.root().pointer("/components/schemas")?.as_object()?.iter().find(|(name, _)| self.component_id(name).as_deref() == Some(enum_id))?;
        let obj = schema.as_object()?;
        if let Some(list) = obj.get("enum").and_then(Value::as_array) {
            return list.iter().any(|x| x == v).then(|| match v {
                Value::String(s) => s.clone(),
                other => format!("VALUE_{}", other.to_string().replace('-', "MINUS_")),
            });
        }
        let (_, list) = alternatives(obj)?;
        let branch = list.iter().find(|(_, b)| branch_const(b) == Some(v))?.1;
        match v {
            Value::String(s) => Some(s.clone()),
            other => {
                Some(branch.get("title").and_then(Value::as_str).map_or_else(|| format!("VALUE_{}", other.to_string().replace('-', "MINUS_")), str::to_owned))
            }
        }
    }

    /// Descriptions, titles, examples, defaults, deprecation and access notes of a field.
    fn annotations(&mut self, obj: &Map<String, Value>, used: &mut Used, f: &mut Field) {
        if let Some(d) = used.take(obj, "description").and_then(Value::as_str) {
            f.description = Some(d.to_owned());
        }
        if let Some(t) = used.take(obj, "title").and_then(Value::as_str) {
            match &f.description {
                None => f.description = Some(t.to_owned()),
                Some(_) => f.notes.push(format!("Title: {t}.")),
            }
        }
        if used.take(obj, "deprecated").and_then(Value::as_bool) == Some(true) {
            f.deprecated = Some(self.deprecation());
        }
        if used.take(obj, "readOnly").and_then(Value::as_bool) == Some(true) {
            f.notes.push("Read-only: sent by the server, not accepted in requests.".into());
        }
        if used.take(obj, "writeOnly").and_then(Value::as_bool) == Some(true) {
            f.notes.push("Write-only: accepted in requests, never sent back.".into());
        }
        if let Some(c) = used.take(obj, "$comment").and_then(Value::as_str) {
            f.notes.push(c.to_owned());
        }
        if let Some(e) = used.take(obj, "example") {
            f.example = Some(e.clone());
        }
        if let Some(list) = used.take(obj, "examples").and_then(Value::as_array) {
            if f.example.is_none() {
                f.example = list.first().cloned();
            }
            for extra in list.iter().skip(1) {
                f.notes.push(format!("Example: `{extra}`."));
            }
        }
        if let Some(d) = used.take(obj, "default") {
            self.default_value(d, f);
        }
    }

    /// Examples are annotations in OpenAPI, and documents write them loosely (`"true"` for a
    /// boolean, a date for an instant). An example that is not a value of the field's type is
    /// converted when only one value is meant (`"true"` is `true`, `"5"` is `5`), else reported
    /// and kept as a note, never written where the spec would refuse it.
    pub(super) fn settle_example(&mut self, cx: &mut Diagnostics, pointer: &str, f: &mut Field) {
        let ty = f.ty.clone().unwrap_or_default();
        let Some(example) = f.example.take() else { return };
        if (example.is_null() && f.nullable) || example_fits(&ty, &example) {
            f.example = Some(example);
            return;
        }
        if let Some(converted) = converted_example(&ty, &example).filter(|v| example_fits(&ty, v)) {
            f.example = Some(converted);
            return;
        }
        if self.reported.insert(format!("{pointer} example")) {
            cx.push(
                Diagnostic::warning(codes::IMPORT_EXAMPLE, format!("the example at `#{pointer}` is not a value of `{ty}`"))
                    .at(self.doc.span(pointer), "not a value of the type")
                    .note("examples are annotations; the spec's examples are values the field takes")
                    .help("the spec keeps it as a note of the field; write it as the wire carries it to keep it as an example"),
            );
        }
        f.notes.push(format!("Example: `{example}`."));
    }

    /// A default, as a value of the field's type where the spec can check it (an enum's by its
    /// value id), else in words.
    fn default_value(&mut self, d: &Value, f: &mut Field) {
        let ty = f.ty.clone().unwrap_or_default();
        let scalar =
            ["string", "integer", "int32", "uint32", "uint64", "number", "float32", "boolean", "uri", "email", "uuid", "date", "timestamp", "snowflake"];
        if let Some(enum_id) = ty.strip_prefix("enum<").and_then(|t| t.strip_suffix('>')) {
            match self.enum_value_id(enum_id, d) {
                Some(id) => f.default = Some(Value::String(id)),
                None => f.default_text = Some(d.to_string()),
            }
        } else if scalar.contains(&ty.as_str()) && !d.is_null() && !d.is_object() && !d.is_array() && literal_fits(&ty, d) {
            f.default = Some(d.clone());
        } else {
            f.default_text = Some(match d {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        }
    }

    /// Description, title, examples and deprecation of an item.
    pub(super) fn item_annotations(&mut self, obj: &Map<String, Value>, used: &mut Used, meta: &mut Meta) {
        let mut f = Field::default();
        self.annotations(obj, used, &mut f);
        if let Some(d) = f.description {
            meta.description = Some(match meta.description.take() {
                Some(earlier) => format!("{d}\n\n{earlier}"),
                None => d,
            });
        }
        if let Some(t) = obj.get("title").and_then(Value::as_str)
            && obj.get("description").is_some()
        {
            meta.name = Some(t.to_owned());
            f.notes.retain(|n| *n != format!("Title: {t}."));
        }
        meta.deprecated = f.deprecated;
        meta.notes.extend(f.notes);
        if let Some(e) = f.example {
            meta.notes.push(format!("Example: `{e}`."));
        }
        if let Some(d) = f.default.or(f.default_text.map(Value::String)) {
            meta.notes.push(format!("Default: `{d}`."));
        }
    }

    /// Every key of a schema the mapping did not read, reported and returned as gaps.
    pub(super) fn leftovers(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, used: &Used) -> Vec<Gap> {
        let mut gaps = Vec::new();
        for key in obj.keys().filter(|k| !used.0.contains(*k)) {
            let at = format!("{pointer}/{}", escape(key));
            let why = match key.as_str() {
                k if k.starts_with("x-") => "extensions have no meaning the spec format knows".to_owned(),
                k if META_KEYS.contains(&k) => "schemas are read as the document's own dialect".to_owned(),
                "not"
                | "if"
                | "then"
                | "else"
                | "dependentRequired"
                | "dependentSchemas"
                | "patternProperties"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "propertyNames" => "the spec format has no such constraint; the generated checks do not apply it".to_owned(),
                "multipleOf" | "prefixItems" | "contains" | "minContains" | "maxContains" => {
                    "the spec format has no such constraint; the generated checks do not apply it".to_owned()
                }
                "xml" | "externalDocs" => "the spec format has no XML mapping or outside documentation".to_owned(),
                "discriminator" => "a discriminator outside `oneOf` or `anyOf` has nothing to tag".to_owned(),
                "enum" | "const" => "a fixed set of values on this type".to_owned(),
                "minLength" | "maxLength" | "pattern" | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "minItems" | "maxItems"
                | "uniqueItems" | "minProperties" | "maxProperties" | "format" => "a constraint that does not apply to the value's type in the spec".to_owned(),
                _ => "the spec format has no such keyword".to_owned(),
            };
            let facet = if key == "format" { "format" } else { "details" };
            gaps.push(self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, facet, &format!("`{key}`"), &why));
        }
        gaps
    }
}

/// The discriminator found for a union.
struct Tag {
    field: String,
    ty: String,
}

/// The JSON type of a schema without `type`, from its keywords.
fn infer_type(obj: &Map<String, Value>) -> &'static str {
    if obj.contains_key("properties") || obj.contains_key("additionalProperties") {
        return "object";
    }
    if obj.contains_key("items") {
        return "array";
    }
    let value = obj.get("const").or_else(|| obj.get("enum").and_then(|e| e.as_array()).and_then(|l| l.iter().find(|v| !v.is_null())));
    match value {
        Some(Value::String(_)) => "string",
        Some(Value::Bool(_)) => "boolean",
        Some(Value::Number(n)) if n.is_f64() => "number",
        Some(Value::Number(_)) => "integer",
        _ if obj.contains_key("minLength") || obj.contains_key("maxLength") || obj.contains_key("pattern") || obj.contains_key("format") => "string",
        _ if obj.contains_key("minimum") || obj.contains_key("maximum") => "number",
        _ => "any",
    }
}

/// Whether a variant has constraints of its own, which its decoder checks before it wins.
fn narrowed(f: &Field) -> bool {
    f.rules != spec::Rules::default() || f.constant.is_some() || !f.subset.is_empty() || f.items.is_some()
}

/// A variant's type without the `| null` a nullable one may carry.
fn base_type(f: &Field) -> &str {
    let ty = f.ty.as_deref().unwrap_or("json");
    ty.strip_suffix(" | null").unwrap_or(ty)
}

/// Text types: each decodes any JSON string.
fn is_text(ty: &str) -> bool {
    ["string", "uri", "email", "csv"].contains(&ty)
}

/// Where an untagged variant goes: constrained, specific, text, `json`.
fn variant_rank(f: &Field) -> u8 {
    match base_type(f) {
        _ if narrowed(f) => 0,
        "json" => 3,
        t if is_text(t) => 2,
        _ => 1,
    }
}

/// Whether every value of `later` also decodes as `earlier` (both unconstrained).
fn shadows(earlier: &Field, later: &Field) -> bool {
    let (e, l) = (base_type(earlier), base_type(later));
    let string_only = is_text(l) || ["timestamp", "date", "uuid", "bytes"].contains(&l) || l.starts_with("enum<");
    e == l || e == "json" || (is_text(e) && string_only)
}

/// Whether `value` is a literal of the primitive type `ty`, the way the validator reads one
/// (`true` for types it reads by other rules: enums, objects, unions).
fn literal_fits(ty: &str, value: &Value) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match ty {
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64(),
        "int32" => value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
        "uint32" => value.as_u64().is_some_and(|n| u32::try_from(n).is_ok()),
        "uint64" => value.is_u64(),
        "number" | "float32" => value.is_number(),
        "snowflake" => value.is_u64() || value.as_str().is_some_and(digits),
        "string" | "uri" | "email" | "csv" => value.is_string(),
        "timestamp" => value.as_str().is_some_and(|s| s.parse::<jiff::Timestamp>().is_ok()),
        "date" => value.as_str().is_some_and(|s| s.parse::<jiff::civil::Date>().is_ok()),
        "uuid" => value.as_str().is_some_and(|s| {
            let groups: Vec<&str> = s.split('-').collect();
            groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12]) && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
        }),
        "null" => value.is_null(),
        "bytes" | "file" => false,
        _ => true,
    }
}

/// The one value of `ty` that `value` is written for, where there is one: a boolean or a
/// number written as text, a number or a boolean where text is expected.
fn converted_example(ty: &str, value: &Value) -> Option<Value> {
    let text = value.as_str().map(str::trim);
    match ty {
        "boolean" => match text? {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        "integer" | "int32" => text?.parse::<i64>().ok().map(Value::from),
        "uint32" | "uint64" => text?.parse::<u64>().ok().map(Value::from),
        "number" | "float32" => text?.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number),
        "snowflake" => value.as_u64().map(|n| Value::String(n.to_string())),
        "string" => match value {
            Value::Number(_) | Value::Bool(_) => Some(Value::String(value.to_string())),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `value` is an example of `ty` as the wire carries it (a snowflake as decimal text,
/// bytes and files as text, arrays element by element).
fn example_fits(ty: &str, value: &Value) -> bool {
    match ty {
        "snowflake" => value.as_str().is_some_and(|s| !s.is_empty() && s.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit())),
        "bytes" | "file" | "csv" => value.is_string(),
        t if t.starts_with("array<") && t.ends_with('>') => match value.as_array() {
            Some(list) => list.iter().all(|v| example_fits(&t[6..t.len() - 1], v)),
            None => false,
        },
        t if t.starts_with("object<") || t.starts_with("map<") => value.is_object(),
        t if t.starts_with("enum<") => value.is_string() || value.is_i64(),
        t => literal_fits(t, value),
    }
}
