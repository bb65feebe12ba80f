//! `openapi.json`: an OpenAPI 3.1 document of the routed endpoints.
//!
//! Paths, parameters and bodies come from the endpoints; schemas from the resources, enums and
//! flag sets (`components/schemas`); constraints become JSON Schema keywords, with bounds that
//! name a limit resolved to its number. What OpenAPI has no keyword for (permission rules, the
//! timeline, gaps, assumptions, bounds known only at run time) travels in `x-` extensions, each
//! listed in [`EXTENSIONS`] and documented on the docs page.
//!
//! An enum schema is the closed set of its known values (`anyOf` of `const`s, each with a
//! `title`), which is what the server accepts in a request (strict on write). That generated
//! clients keep a value the document does not list (open on read) is stated by the extension
//! Speakeasy defined for it, `x-speakeasy-unknown-values: allow`: the one generators already
//! read, where a catch-all alternative would tell validators and test generators that the
//! server accepts any value, which it does not. A field narrowed to some values (`subset`)
//! lists them in `enum`.
//!
//! A tagged union is `oneOf` its variants with a `discriminator` (its `mapping` keys are the tags
//! as text, integer tags included); an untagged one is `anyOf` its variants, in the order they are
//! tried. Generated clients still keep a variant this document does not list.

mod http;

use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::types::Primitive;
use crate::model::*;
use crate::plan::case;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The extension that says an enum is open on read.
const OPEN_ENUM: &str = "x-speakeasy-unknown-values";

/// Every `x-` extension the document uses: name, where it appears, what it carries.
pub const EXTENSIONS: &[(&str, &str, &str)] = &[
    (
        OPEN_ENUM,
        "enum schemas",
        "`allow`: generated clients keep a value the schema does not list (enums are open on read); the server accepts only the listed ones (Speakeasy's convention).",
    ),
    ("x-generated", "document", "The `@generated` notice: the file is written from the spec by `platform-codegen generate`."),
    ("x-gaps", "document", "Standalone statements of what the source does not show (the spec's `gaps`)."),
    (
        "x-unrouted-endpoints",
        "document",
        "Endpoints whose method or path is not shown: they have no path item, so their id, name, part, parameters, gaps and rules are listed here.",
    ),
    ("x-permissions", "document", "Every permission with its bit (absent when not shown), lifecycle and notes."),
    ("x-errors", "document, response", "Errors: code, OAuth error, HTTP status, condition and endpoints (on a response: the ids of the errors it carries)."),
    ("x-limits", "document", "Every limit: value or bounds, unit, previous values with the change that raised them."),
    ("x-changes", "document, operation, schema", "The timeline: every dated change (on an item: the ids of the changes that name it)."),
    ("x-part", "operation", "The part of the platform the endpoint belongs to."),
    ("x-permission-rules", "operation", "The permission rules guarding the operation: each dated form as a rule expression and in words."),
    ("x-behaviours", "operation", "Behaviours of the operation; `gate: true` means it applies from its change's date on."),
    ("x-since", "operation, schema, property", "The change from which the item exists: `{change, effective}`."),
    ("x-until", "operation, schema, property", "The change at which the item ends: `{change, effective}`."),
    ("x-deprecated", "operation, schema, property", "The change that deprecates the item: `{change, effective}` (with `deprecated: true`)."),
    ("x-not-shown", "any object", "Facets the source does not show: `[{facet, detail}]`."),
    ("x-assumed", "any object", "Values the spec assumed: `{facet: reason}`."),
    ("x-limit", "schema, parameter", "Constraint keywords whose number comes from a limit: `{keyword: limit id}`."),
    (
        "x-cases",
        "schema",
        "Shapes the object takes when a condition holds: the condition as a rule expression and, per field, a literal, flags set, enum values left out or item counts.",
    ),
    ("x-csv-columns", "schema", "The columns of a CSV response in header order: `[{name, type, description}]`; the header line names them exactly."),
    ("x-dynamic-bounds", "schema, parameter", "Bounds known only at run time, from another endpoint's response: `{keyword: {endpoint, field, offset}}`."),
    ("x-max-size", "schema", "The largest accepted upload, in bytes (JSON Schema has no size keyword)."),
    ("x-required-when", "schema, parameter", "The condition under which an optional field is required."),
    ("x-requires-scope", "schema", "The OAuth2 scope a field's real value requires."),
    ("x-literal", "schema", "A literal value the field takes in a case the description names."),
    ("x-default", "schema", "The default of a field, in words."),
    ("x-flags", "schema", "The bits of a flag set: `[{name, bit}]`."),
    ("x-token-scheme", "security scheme", "The `Authorization` header scheme of a token kind (`Bot`, `Bearer`)."),
    (
        "x-discriminator",
        "schema",
        "The tag of a union tagged by an integer, as `discriminator` would say it: OpenAPI's `discriminator` is for text tags, so an integer-tagged `oneOf` relies on its variants' constants.",
    ),
];

/// Emits `openapi.json`.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let doc = Doc::new(model).document(opts);
    let text = serde_json::to_string_pretty(&doc).expect("BUG: JSON values always serialize");
    vec![GeneratedFile::new("openapi", "openapi.json", text)]
}

/// The builder: the model plus the component name of every schema.
struct Doc<'a> {
    model: &'a Model,
    names: BTreeMap<(&'static str, String), String>,
}

fn to_value(v: impl serde::Serialize) -> Value {
    serde_json::to_value(v).expect("BUG: the model always serializes")
}

fn insert(map: &mut Map<String, Value>, key: &str, value: Value) {
    let empty = match &value {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::String(s) => s.is_empty(),
        _ => false,
    };
    if !empty {
        map.insert(key.to_owned(), value);
    }
}

/// `description` and `notes` as one Markdown text.
fn prose(description: Option<&str>, notes: &[String]) -> Value {
    let mut parts: Vec<String> = description.map(str::to_owned).into_iter().collect();
    if !notes.is_empty() {
        parts.push(notes.iter().map(|n| format!("- {n}")).collect::<Vec<_>>().join("\n"));
    }
    Value::String(parts.join("\n\n"))
}

/// `x-not-shown` and `x-assumed` of an item.
fn honesty(map: &mut Map<String, Value>, gaps: &[Gap], assumed: &indexmap::IndexMap<String, String>) {
    insert(map, "x-not-shown", to_value(gaps));
    insert(map, "x-assumed", to_value(assumed));
}

impl<'a> Doc<'a> {
    fn new(model: &'a Model) -> Self {
        let mut names = BTreeMap::new();
        let mut taken = BTreeSet::new();
        let kinds: [(&'static str, Vec<&str>); 4] = [
            ("resource", model.resources.iter().map(|r| r.meta.id.as_str()).collect()),
            ("union", model.unions.iter().map(|u| u.meta.id.as_str()).collect()),
            ("enum", model.enums.iter().map(|e| e.meta.id.as_str()).collect()),
            ("flags", model.flags.iter().map(|f| f.meta.id.as_str()).collect()),
        ];
        taken.insert("ErrorBody".to_owned());
        for (kind, ids) in kinds {
            for id in ids {
                // Two ids of different kinds may spell the same PascalCase name; the later kind
                // takes a suffix, so names stay stable as items are added.
                let base = case::pascal(id);
                let mut name = base.clone();
                let mut n = 1;
                while taken.contains(&name) {
                    name = if n == 1 { format!("{base}{}", case::pascal(kind)) } else { format!("{base}{n}") };
                    n += 1;
                }
                taken.insert(name.clone());
                names.insert((kind, id.to_owned()), name);
            }
        }
        Self { model, names }
    }

    fn schema_ref(&self, kind: &'static str, id: &str) -> Value {
        match self.names.get(&(kind, id.to_owned())) {
            Some(name) => json!({ "$ref": format!("#/components/schemas/{name}") }),
            // A validated model resolves every type; an SDK class has no HTTP schema.
            None => json!({ "description": format!("{kind} {id}") }),
        }
    }

    fn document(&self, opts: &EmitOptions) -> Value {
        let m = self.model;
        let mut doc = Map::new();
        doc.insert("openapi".into(), json!("3.1.0"));
        doc.insert("x-generated".into(), json!(opts.notice()));
        doc.insert("info".into(), self.info());
        insert(&mut doc, "servers", self.servers(self.main_part()));
        insert(&mut doc, "tags", self.tags());
        // An endpoint that names no token kind accepts any of them; those that name some
        // override this with their own `security`.
        let any: Vec<Value> = m.token_kinds.iter().map(|t| json!({ t.meta.id.clone(): [] })).collect();
        insert(&mut doc, "security", Value::Array(any));
        doc.insert("paths".into(), self.paths());
        doc.insert("components".into(), self.components());
        insert(&mut doc, "x-unrouted-endpoints", self.unrouted());
        insert(&mut doc, "x-permissions", to_value(&m.permissions));
        insert(&mut doc, "x-errors", to_value(&m.errors));
        insert(&mut doc, "x-limits", to_value(&m.limits));
        insert(&mut doc, "x-changes", to_value(&m.changes));
        insert(&mut doc, "x-gaps", to_value(&m.gaps));
        Value::Object(doc)
    }

    fn info(&self) -> Value {
        let p = &self.model.platform;
        let mut info = Map::new();
        info.insert("title".into(), json!(p.name));
        // The spec format has no API version; the document says so rather than invent one.
        info.insert("version".into(), json!("unversioned"));
        insert(&mut info, "description", prose(p.description.as_deref(), &[]));
        Value::Object(info)
    }

    /// The part of the first routed endpoint: its address is the document's server.
    fn main_part(&self) -> Option<&Part> {
        let first = self.model.routed_endpoints().next()?;
        self.part(&first.meta)
    }

    fn part(&self, meta: &Meta) -> Option<&Part> {
        let id = &meta.part.as_ref()?.id;
        self.model.platform.parts.iter().find(|p| &p.meta.id == id)
    }

    /// The servers of a part: its `{placeholder}` address with the placeholder as a variable.
    fn servers(&self, part: Option<&Part>) -> Value {
        let Some(address) = part.and_then(|p| p.address.as_ref()) else { return json!([]) };
        let Some(ph) = self.model.platform.placeholders.iter().find(|p| p.meta.id == address.id) else { return json!([]) };
        let mut var = Map::new();
        var.insert("default".into(), json!(ph.example.clone().unwrap_or_default()));
        insert(&mut var, "description", prose(ph.meta.description.as_deref(), &ph.meta.notes));
        json!([{
            "url": format!("{{{}}}", ph.meta.id),
            "description": ph.meta.name,
            "variables": { ph.meta.id.clone(): var },
        }])
    }

    fn tags(&self) -> Value {
        let used: BTreeSet<&str> = self.model.routed_endpoints().filter_map(|e| e.meta.part.as_ref()).map(|p| p.id.as_str()).collect();
        let tags: Vec<Value> = self
            .model
            .platform
            .parts
            .iter()
            .filter(|p| used.contains(p.meta.id.as_str()))
            .map(|p| {
                let mut t = Map::new();
                t.insert("name".into(), json!(p.meta.name));
                insert(&mut t, "description", prose(p.meta.description.as_deref(), &[]));
                Value::Object(t)
            })
            .collect();
        Value::Array(tags)
    }

    fn paths(&self) -> Value {
        let main = self.main_part().map(|p| &p.meta.id);
        let mut paths = Map::new();
        for e in self.model.routed_endpoints() {
            let (Some(method), Some(path)) = (&e.method, &e.path) else { continue };
            let item = paths.entry(path_template(&path.id)).or_insert_with(|| json!({}));
            let item = item.as_object_mut().expect("BUG: path items are objects");
            let part = self.part(&e.meta);
            if part.map(|p| &p.meta.id) != main {
                insert(item, "servers", self.servers(part));
            }
            item.insert(method.id.to_ascii_lowercase(), self.operation(e));
        }
        Value::Object(paths)
    }

    fn lifecycle(&self, map: &mut Map<String, Value>, since: &Option<Ref>, until: &Option<Ref>, deprecated: &Option<Ref>) {
        for (key, r) in [("x-since", since), ("x-until", until), ("x-deprecated", deprecated)] {
            let Some(change) = r.as_ref().and_then(|r| self.model.change(&r.id)) else { continue };
            map.insert(key.into(), json!({ "change": change.meta.id, "effective": change.effective }));
        }
        if deprecated.is_some() {
            map.insert("deprecated".into(), json!(true));
        }
    }

    /// Ids of the changes whose `affects` names `kind:id`.
    fn changes_of(&self, kind: &str, id: &str) -> Value {
        let ids: Vec<&str> = self.model.changes.iter().filter(|c| c.affects.iter().any(|a| a.kind == kind && a.id == id)).map(|c| c.meta.id.as_str()).collect();
        json!(ids)
    }

    fn operation(&self, e: &Endpoint) -> Value {
        let mut op = Map::new();
        op.insert("operationId".into(), json!(e.meta.id));
        op.insert("summary".into(), json!(e.meta.name));
        insert(&mut op, "description", prose(e.meta.description.as_deref(), &e.meta.notes));
        if let Some(p) = self.part(&e.meta) {
            op.insert("tags".into(), json!([p.meta.name]));
            op.insert("x-part".into(), json!(p.meta.id));
        }
        let params: Vec<Value> = (e.path_params.iter().map(|f| self.parameter(f, "path")))
            .chain(e.query.iter().map(|f| self.parameter(f, "query")))
            .chain(e.headers.iter().map(|f| self.parameter(f, "header")))
            .collect();
        insert(&mut op, "parameters", Value::Array(params));
        if let Some(body) = self.request_body(e) {
            op.insert("requestBody".into(), body);
        }
        let responses = if e.has_status_responses() { self.status_responses(e) } else { self.responses(e) };
        op.insert("responses".into(), responses);
        match self.security(e) {
            Some(security) => {
                op.insert("security".into(), security);
            }
            None => {
                let security: Vec<Value> = e.auth.iter().map(|a| json!({ a.id.clone(): [] })).collect();
                insert(&mut op, "security", Value::Array(security));
            }
        }
        self.lifecycle(&mut op, &e.meta.since, &e.meta.until, &e.meta.deprecated);
        insert(&mut op, "x-permission-rules", self.rules(e));
        insert(&mut op, "x-behaviours", to_value(&e.behaviours));
        insert(&mut op, "x-changes", self.changes_of("endpoint", &e.meta.id));
        honesty(&mut op, &e.meta.not_shown, &e.meta.assumed);
        Value::Object(op)
    }

    fn rules(&self, e: &Endpoint) -> Value {
        let rules: Vec<Value> = self
            .model
            .rules_for(&e.meta.id)
            .into_iter()
            .map(|r| {
                let variants: Vec<Value> = r
                    .variants
                    .iter()
                    .map(|v| {
                        let mut out = Map::new();
                        insert(&mut out, "since", to_value(&v.since));
                        insert(&mut out, "until", to_value(&v.until));
                        out.insert("rule".into(), to_value(&v.rule));
                        out.insert("text".into(), json!(super::words::rule(self.model, &v.rule).to_plain()));
                        Value::Object(out)
                    })
                    .collect();
                json!({ "id": r.meta.id, "name": r.meta.name, "applies_to": r.applies_to, "variants": variants })
            })
            .collect();
        Value::Array(rules)
    }

    fn parameter(&self, f: &Field, location: &str) -> Value {
        let mut p = Map::new();
        let name = if location == "path" { template_name(f.wire()) } else { f.wire().to_owned() };
        p.insert("name".into(), json!(name));
        p.insert("in".into(), json!(location));
        p.insert("required".into(), json!(location == "path" || !f.optional));
        insert(&mut p, "description", prose(f.description.as_deref(), &f.notes));
        if f.deprecated.is_some() {
            p.insert("deprecated".into(), json!(true));
        }
        let mut schema = self.field_schema(f);
        // Extensions about the parameter as a whole sit on the parameter, not in its schema.
        for key in ["x-required-when", "x-not-shown", "x-assumed"] {
            if let Some(v) = schema.as_object_mut().and_then(|s| s.remove(key)) {
                p.insert(key.into(), v);
            }
        }
        if let Some(s) = schema.as_object_mut() {
            s.remove("description");
        }
        p.insert("schema".into(), schema);
        http::list_style(&mut p, f, location);
        Value::Object(p)
    }

    fn request_body(&self, e: &Endpoint) -> Option<Value> {
        if e.body_formats.len() > 1 || !e.parts.is_empty() || e.body_format() == "binary" {
            return self.body_formats(e);
        }
        let media = match e.body_format() {
            "multipart" => "multipart/form-data",
            "form" => "application/x-www-form-urlencoded",
            "csv" => "text/csv",
            _ => e.json_media_type(),
        };
        let (schema, required) = if let Some(whole) = &e.body_schema {
            (self.field_schema(whole), !whole.optional)
        } else if !e.body.is_empty() {
            (self.object_schema(&e.body), e.body.iter().any(|f| !f.optional))
        } else {
            return None;
        };
        Some(json!({ "required": required, "content": { media: { "schema": schema } } }))
    }

    fn responses(&self, e: &Endpoint) -> Value {
        let mut out = Map::new();
        let mut schema = match (&e.response, e.response_fields.is_empty()) {
            (Some(ty), _) => Some(self.type_schema(ty)),
            (None, false) => Some(self.object_schema(&e.response_fields)),
            (None, true) => None,
        };
        if let Some(s) = &mut schema {
            self.response_constraints(s, e);
        }
        let media = if e.response_format == "csv" { "text/csv" } else { "application/json" };
        match (schema, e.response_format.as_str()) {
            (_, "none") => {
                out.insert("204".into(), json!({ "description": "No content." }));
            }
            (Some(schema), _) => {
                out.insert("200".into(), json!({ "description": "Success.", "content": { media: { "schema": schema } } }));
            }
            // The source shows no body, so the generated server answers without one.
            (None, _) => {
                let mut ok = Map::new();
                ok.insert("description".into(), json!("No content: the source does not show the response body, so none is sent."));
                insert(&mut ok, "x-not-shown", to_value(e.meta.not_shown.iter().filter(|g| g.facet == "response").collect::<Vec<_>>()));
                out.insert("204".into(), Value::Object(ok));
            }
        }
        let mut by_status: BTreeMap<u16, Vec<&Error>> = BTreeMap::new();
        for x in self.model.errors_for(&e.meta.id) {
            if let Some(s) = x.status {
                by_status.entry(s).or_default().push(x);
            }
        }
        for (status, errors) in by_status {
            let text: Vec<String> = errors.iter().map(|x| format!("{}: {}", x.meta.name, x.condition)).collect();
            let ids: Vec<&str> = errors.iter().map(|x| x.meta.id.as_str()).collect();
            let mut r = Map::new();
            r.insert("description".into(), json!(text.join("\n\n")));
            if status >= 300 {
                r.insert("content".into(), self.error_content());
            }
            r.insert("x-errors".into(), json!(ids));
            out.insert(status.to_string(), Value::Object(r));
        }
        out.insert(
            "4XX".into(),
            json!({
                "description": "Any other client error: a violated constraint (every violation is listed), a missing or invalid token, a permission rule not met, an unknown resource.",
                "content": self.error_content(),
            }),
        );
        Value::Object(out)
    }

    fn error_content(&self) -> Value {
        json!({ "application/json": { "schema": { "$ref": "#/components/schemas/ErrorBody" } } })
    }

    /// An object schema of named fields.
    fn object_schema(&self, fields: &[Field]) -> Value {
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
    fn field_schema(&self, f: &Field) -> Value {
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

    fn constraints(&self, map: &mut Map<String, Value>, c: &Constraints) {
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
            map.insert("pattern".into(), json!(p.regex));
        }
    }

    /// The rules of an array's elements or a map's values, on the schema that describes them.
    fn items_rules(&self, map: &mut Map<String, Value>, items: &Items) {
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
    fn wire_literal(&self, ty: Option<&TypeRef>, value: &Value) -> Value {
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
    fn bound(&self, map: &mut Map<String, Value>, keyword: &str, bound: &Bound, limits: &mut Map<String, Value>, dynamic: &mut Map<String, Value>) {
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
    fn response_constraints(&self, schema: &mut Value, e: &Endpoint) {
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

    fn type_schema(&self, ty: &TypeRef) -> Value {
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
    fn key_schema(&self, key: &TypeRef) -> Value {
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

    fn components(&self) -> Value {
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
    fn annotate(&self, map: &mut Map<String, Value>, kind: &str, meta: &Meta) {
        map.insert("title".into(), json!(meta.name));
        insert(map, "description", prose(meta.description.as_deref(), &meta.notes));
        self.lifecycle(map, &meta.since, &meta.until, &meta.deprecated);
        insert(map, "x-changes", self.changes_of(kind, &meta.id));
        honesty(map, &meta.not_shown, &meta.assumed);
    }

    fn resource(&self, r: &Resource) -> Value {
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
    fn union(&self, u: &Union) -> Value {
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

    fn enum_schema(&self, e: &Enum) -> Value {
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

    fn flags_schema(&self, f: &Flags) -> Value {
        let mut map = match f.repr.as_str() {
            "string_integer" => json!({ "type": "string", "pattern": "^[0-9]+$" }),
            _ => json!({ "type": "integer", "minimum": 0 }),
        };
        let map_ref = map.as_object_mut().expect("BUG: literal objects");
        let bits: Vec<Value> = f.values.iter().map(|v| json!({ "name": v.meta.id, "bit": v.bit })).collect();
        map_ref.insert("x-flags".into(), Value::Array(bits));
        self.annotate(map_ref, "flags", &f.meta);
        map
    }

    fn error_body(&self) -> Value {
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

    /// Endpoints without a route, with what is known about them.
    fn unrouted(&self) -> Value {
        let list: Vec<Value> = self
            .model
            .endpoints
            .iter()
            .filter(|e| !e.is_routed())
            .map(|e| {
                let mut v = to_value(e);
                if let Some(map) = v.as_object_mut() {
                    insert(map, "x-permission-rules", self.rules(e));
                }
                v
            })
            .collect();
        Value::Array(list)
    }
}

/// A path parameter's name in the template. The spec's names may hold dots (`{guild.id}`),
/// which OpenAPI allows but tools that expand templates as format strings (schemathesis) read
/// as attribute access; the name never reaches the wire, so it is spelled `{guild_id}`.
fn template_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// The path with its parameter names spelled by [`template_name`].
fn path_template(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else { break };
        out.push_str(&rest[..=open]);
        out.push_str(&template_name(&rest[open + 1..open + close]));
        rest = &rest[open + close..];
    }
    out.push_str(rest);
    out
}

fn primitive(p: Primitive) -> Value {
    match p {
        Primitive::String => json!({ "type": "string" }),
        Primitive::Boolean => json!({ "type": "boolean" }),
        Primitive::Integer => json!({ "type": "integer" }),
        Primitive::Int32 => json!({ "type": "integer", "format": "int32" }),
        Primitive::Uint32 => json!({ "type": "integer", "format": "int64", "minimum": 0, "maximum": u32::MAX }),
        Primitive::Uint64 => json!({ "type": "integer", "format": "uint64", "minimum": 0 }),
        Primitive::Number => json!({ "type": "number", "format": "double" }),
        Primitive::Float32 => json!({ "type": "number", "format": "float" }),
        Primitive::Date => json!({ "type": "string", "format": "date" }),
        Primitive::Uuid => json!({ "type": "string", "format": "uuid" }),
        Primitive::Email => json!({ "type": "string", "format": "email" }),
        Primitive::Bytes => json!({ "type": "string", "contentEncoding": "base64" }),
        Primitive::Null => json!({ "type": "null" }),
        // Snowflakes and string integers travel as decimal strings (they exceed JavaScript's
        // safe integers), at most the 20 digits of a u64.
        Primitive::Snowflake => json!({ "type": "string", "pattern": "^[0-9]{1,20}$", "format": "snowflake" }),
        Primitive::StringInteger => json!({ "type": "string", "pattern": "^-?[0-9]{1,20}$" }),
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
fn nullable(map: &mut Map<String, Value>) {
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
fn reference_with_values(map: &mut Map<String, Value>) {
    if map.contains_key("$ref") && (map.contains_key("const") || map.contains_key("enum")) {
        let r = map.remove("$ref").expect("BUG: checked above");
        map.insert("allOf".into(), json!([{ "$ref": r }]));
    }
}

/// A token kind as a security scheme: `Bearer` (and `Basic`) are HTTP schemes; any other
/// scheme word (`Bot`) is not registered with IANA, so it is an API key in the
/// `Authorization` header whose value starts with the word.
fn security_scheme(t: &TokenKind) -> Value {
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
