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
mod schemas;
mod webhooks;

use crate::emit::{EmitOptions, GeneratedFile};
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
    (
        "x-webhook",
        "webhook operation",
        "The webhook a delivery belongs to, as the spec says it: id, envelope members, signature scheme and headers, tolerance, ping, acknowledgement status and deadline, retry schedule.",
    ),
    ("x-event-name", "webhook operation", "The value of the envelope's `type` member that names the event."),
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

/// JSON Schema of a spec's shapes as this document writes them, for the other documents that
/// carry payloads (AsyncAPI's).
pub(crate) struct Schemas<'a>(Doc<'a>);

impl<'a> Schemas<'a> {
    pub(crate) fn new(model: &'a Model) -> Self {
        Schemas(Doc::new(model))
    }

    /// Every named schema, by component name (`#/components/schemas/<name>`).
    pub(crate) fn named(&self) -> Value {
        self.0.components().get("schemas").cloned().unwrap_or_default()
    }

    /// The object of these fields.
    pub(crate) fn object(&self, fields: &[Field]) -> Value {
        self.0.object_schema(fields)
    }
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
        insert(&mut doc, "webhooks", self.webhooks());
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
        insert(&mut op, "x-pagination", pagination(self.model, e));
        insert(&mut op, "x-idempotency-key", json!(e.idempotency_header().map(Field::wire)));
        insert(&mut op, "x-last-event-id", json!(e.last_event_header().map(Field::wire)));
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
        // Bytes and CSV are read whole, as text or bytes of their media type, whatever members
        // the body lists.
        if e.body_formats.len() > 1 || !e.parts.is_empty() || matches!(e.body_format(), "binary" | "csv") {
            return self.body_formats(e);
        }
        let media = match e.body_format() {
            "multipart" => "multipart/form-data",
            "form" => "application/x-www-form-urlencoded",
            _ => e.json_media_type(),
        };
        let (schema, required) = if media == "application/x-www-form-urlencoded" {
            let required = e.body_schema.as_ref().map_or_else(|| e.body.iter().any(|f| !f.optional), |whole| !whole.optional);
            (self.form_schema(e)?, required)
        } else if let Some(whole) = &e.body_schema {
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

/// `x-pagination`: how the endpoint pages, as the spec's `pagination` with the names as they
/// travel (the query parameters, the answer's members and header), so that a tool reading the
/// document pages as the generated client does.
fn pagination(model: &Model, e: &Endpoint) -> Value {
    let Some(Ok(p)) = model.paging(e) else { return Value::Null };
    fn wire(f: Option<&Field>) -> Option<&str> {
        f.map(Field::wire)
    }
    let way = match p.way {
        PageWay::Cursor { .. } => json!({ "cursor": { "param": p.param.wire(), "from": wire(p.from) } }),
        PageWay::Keyset { .. } => json!({ "keyset": { "param": p.param.wire(), "item": wire(p.key) } }),
        PageWay::Offset { .. } => json!({ "offset": { "param": p.param.wire() } }),
        PageWay::Link { .. } => json!({ "link": { "param": p.param.wire(), "header": wire(p.link.as_ref()) } }),
    };
    let mut out = way.as_object().cloned().unwrap_or_default();
    insert(&mut out, "items", json!(wire(p.items)));
    insert(&mut out, "limit", json!(wire(p.limit)));
    Value::Object(out)
}
