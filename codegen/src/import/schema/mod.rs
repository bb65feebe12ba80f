//! JSON Schema to the spec's types: component schemas to resources, enums and unions; any
//! schema to a field (a type expression with its constraints and presence), hoisting the
//! shapes declared inline into items named after where they were written.
//!
//! A schema is read key by key, and every key the mapping does not read is reported and kept
//! as a gap on the field or item, so nothing is dropped without a word.

mod enums;
mod scalars;
mod unions;

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

/// The alternatives of `oneOf`/`anyOf` other than `null`; none when they only say which
/// members of the object are required ([`requires_only`]).
fn alternatives(obj: &Map<String, Value>) -> Option<(&'static str, Vec<(usize, &Value)>)> {
    if requires_only(obj) {
        return None;
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(list) = obj.get(key).and_then(Value::as_array) {
            return Some((key, list.iter().enumerate().filter(|(_, v)| !is_null_schema(v)).collect()));
        }
    }
    None
}

/// Why [`requires_only`] alternatives are not imported, wherever they are reported.
pub(in crate::import) const REQUIRES_ONLY_WHY: &str = "its alternatives only say which members are required (one group or another), a constraint the spec format does not have; the members are kept as the object declares them";

/// Whether the `oneOf`/`anyOf` of an object with `properties` only says which of its members
/// are required (`anyOf: [{required: [file_ids]}, {required: [files]}]`: one or the other). The
/// spec format has no such constraint: the schema is read as the object it narrows, and the
/// alternatives are reported (a union of two objects without members would lose every member).
pub(in crate::import) fn requires_only(obj: &Map<String, Value>) -> bool {
    let only_required = |v: &Value| {
        v.as_object().is_some_and(|o| o.contains_key("required") && o.keys().all(|k| ["required", "description", "title", "$comment"].contains(&k.as_str())))
    };
    obj.get("properties").is_some_and(Value::is_object)
        && ["oneOf", "anyOf"].iter().any(|k| obj.get(*k).and_then(Value::as_array).is_some_and(|l| !l.is_empty() && l.iter().all(only_required)))
}

/// Whether a schema says nothing of its members: `type: object` or no type, and nothing else
/// but annotations (and 3.0's `nullable`, which the reader of the schema reports where it does
/// not apply: in a part of `allOf`, `null` still fails the other parts).
fn bare_object(obj: &Map<String, Value>) -> bool {
    obj.get("type").is_none_or(|t| t == "object") && obj.keys().all(|k| k == "type" || k == "nullable" || ANNOTATIONS.contains(&k.as_str()))
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

impl Importer<'_> {
    /// What of a request body's schema a form (`application/x-www-form-urlencoded`, name=value
    /// pairs) cannot carry, in words; `None` when the body is one object whose members are
    /// each text or a list of texts, or a map of texts. What the spec's check requires of a
    /// `form` body (E0160), judged on the schema before it is mapped, and never more lenient.
    pub(in crate::import) fn form_refusal(&self, schema: &Value) -> Option<String> {
        let Some(obj) = self.resolved(schema).as_object() else { return Some("that is not an object".into()) };
        let types = type_list(obj);
        let object = types.iter().all(|t| *t == "object" || *t == "null") && !obj.contains_key("allOf") && alternatives(obj).is_none();
        match (obj.get("properties").and_then(Value::as_object), obj.get("additionalProperties")) {
            _ if !object => Some("that is not one object of named members".into()),
            (Some(_), Some(extra)) if extra.is_object() => Some("with members beside its named ones".into()),
            (Some(props), _) => props.iter().find(|(_, s)| !self.form_text(s, true)).map(|(name, _)| format!("whose member `{name}` is not text")),
            (None, Some(values)) if self.form_text(values, false) => None,
            (None, _) => Some("of no named members".into()),
        }
    }

    /// Whether a member schema is text in a form: a scalar that is not a file, an enumeration,
    /// or (`list`) an array of them (the name repeated); `null` is left out of a form.
    fn form_text(&self, schema: &Value, list: bool) -> bool {
        let Some(obj) = self.resolved(schema).as_object() else { return false };
        if is_enum(obj) || obj.get("const").is_some_and(|c| c.is_string() || c.is_number() || c.is_boolean()) {
            return true;
        }
        if obj.contains_key("allOf") || obj.contains_key("properties") {
            return false;
        }
        if let Some((_, alts)) = alternatives(obj) {
            return type_list(obj).is_empty() && alts.len() == 1 && self.form_text(alts[0].1, list);
        }
        let file =
            obj.contains_key("contentMediaType") || [obj.get("format"), obj.get("contentEncoding")].iter().any(|v| v.and_then(Value::as_str) == Some("binary"));
        match type_list(obj).into_iter().filter(|t| *t != "null").collect::<Vec<_>>()[..] {
            ["string"] => !file,
            ["integer" | "number" | "boolean"] => true,
            ["array"] => list && obj.get("items").is_some_and(|items| self.form_text(items, false)),
            _ => false,
        }
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
        let mut rules = element.rules;
        let mut subset = element.subset;
        match &element.constant {
            // One value of an enum is a subset of one: the field lists it.
            Some(Value::String(id)) if element.ty.as_deref().is_some_and(|t| t.starts_with("enum<")) => subset = vec![id.clone()],
            Some(c) => {
                constant_rules(&mut rules, c);
                f.notes.push(format!("Every element is {c}."));
            }
            None => {}
        }
        let items = Items { nullable: element.nullable && !self.text_only, rules, items: element.items };
        if !items.is_empty() {
            f.items = Some(Box::new(items));
        }
        f.subset = subset;
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
                    // A part of members, or one that says nothing of them (`{type: object}`,
                    // which narrows an object to itself: Asana writes one beside each reference
                    // it annotates).
                    (_, Some(p)) if (p.contains_key("properties") || bare_object(p)) && !p.contains_key("$ref") => {
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
        let mut reference = reference.to_owned();
        // A component that is only a reference to another (`AttachmentBase: {$ref:
        // AttachmentCompact}`) is that one: followed, a bounded number of times (a cycle of
        // such aliases names no resource).
        for _ in 0..16 {
            let pointer = local_pointer(&reference)?;
            let name = pointer.strip_prefix("/components/schemas/")?;
            if let Some(Component::Resource(id)) = self.components.get(&last_token(&format!("/{name}"))) {
                return Some(id.clone());
            }
            let alias = self.doc.at(&pointer)?.as_object()?;
            if !alias.keys().all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str())) {
                return None;
            }
            reference = alias.get("$ref")?.as_str()?.to_owned();
        }
        None
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
                let mut f = self.member_field(cx, schema, &at, &site.child(name), required.contains(name));
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

    /// A member of an object written in place (a request body's, a response's, a delivery's):
    /// its field, optional unless `required`, with a media type it cannot carry settled.
    pub(in crate::import) fn member_field(&mut self, cx: &mut Diagnostics, schema: &Value, pointer: &str, site: &Site, required: bool) -> Field {
        let mut f = self.field(cx, schema, pointer, site);
        f.optional = !required;
        self.media_outside_part(cx, pointer, &mut f);
        f
    }

    /// A member's `contentMediaType` (a text holding a file): only a multipart part carries a
    /// media type in the spec, so a member of CSV text is the `csv` type, a file of
    /// `application/octet-stream` is any file, and any other media type is left out with its
    /// pointer (the member stays a file).
    fn media_outside_part(&mut self, cx: &mut Diagnostics, pointer: &str, f: &mut Field) {
        let Some(media) = f.content_type.take() else { return };
        match (media.as_str(), f.ty.as_deref()) {
            ("text/csv", Some("file")) => f.ty = Some("csv".into()),
            ("application/octet-stream", Some("file")) => {}
            _ => self.media_gap(cx, pointer, f, &media),
        }
    }

    fn media_gap(&mut self, cx: &mut Diagnostics, pointer: &str, f: &mut Field, media: &str) {
        let what = format!("media type `{media}` of a member");
        let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, &format!("{pointer}/contentMediaType"), "format", &what, "only a multipart part has a media type");
        f.not_shown.push(gap);
    }

    /// The change that deprecates what the document deprecates (written once at the end).
    pub(super) fn deprecation(&mut self) -> String {
        self.deprecates = true;
        DEPRECATED_CHANGE.to_owned()
    }

    /// The value a schema, response or other object stands for, its local references followed.
    pub(in crate::import) fn resolved<'v>(&'v self, schema: &'v Value) -> &'v Value {
        let mut s = schema;
        for _ in 0..8 {
            match s.get("$ref").and_then(Value::as_str).and_then(local_pointer).and_then(|p| self.doc.at(&p)) {
                Some(target) => s = target,
                None => break,
            }
        }
        s
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

/// An element constant as the rules an `items:` block can check, where one says it exactly: a
/// text matches itself and nothing else, an integer lies between itself and itself. A rule the
/// element already has is kept; any other constant stays a note.
fn constant_rules(rules: &mut spec::Rules, constant: &Value) {
    match constant {
        Value::String(text) if rules.pattern.is_none() => rules.pattern = Some(format!("^{}$", regex::escape(text))),
        Value::Number(n) if (n.is_i64() || n.is_u64()) && rules.min.is_none() && rules.max.is_none() => {
            rules.min = Some(n.clone());
            rules.max = Some(n.clone());
        }
        _ => {}
    }
}
