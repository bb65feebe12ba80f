//! The HTTP side of a document: the platform (`info`, `servers`, `tags`), security schemes as
//! token kinds and scopes, named headers and responses, and the operations with their
//! parameters, bodies per media type, responses per status and security.

mod bodies;
mod parameters;
mod platform;
mod responses;
mod streams;

use super::document::escape;
use super::schema::{Used, admits_null};
use super::spec::{self, Endpoint, Field, Gap, HeaderUse, Item, Meta, Response, ResponseUse};
use super::{Component, Importer, PLATFORM_FILE, SCHEMAS_FILE, Site, UNTAGGED_PART};
use crate::diag::{Diagnostics, codes};
use crate::plan::case;
use indexmap::IndexMap;
use serde_json::{Map, Number, Value, json};

/// The methods the spec routes.
const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/// Headers the generated server and client own: a document's header of one of these names is
/// what the generated code already writes.
const OWNED_HEADERS: &[&str] = &["authorization", "content-type", "content-length", "accept", "transfer-encoding", "host", "connection"];

/// A media type's body format, and whether the spec can carry it.
fn body_format(media: &str) -> Option<&'static str> {
    let base = media.split(';').next().unwrap_or(media).trim().to_ascii_lowercase();
    match base.as_str() {
        "application/json" => Some("json"),
        m if m.starts_with("application/") && m.ends_with("+json") => Some("json"),
        "application/x-www-form-urlencoded" => Some("form"),
        "multipart/form-data" => Some("multipart"),
        "application/octet-stream" => Some("binary"),
        "text/csv" => Some("csv"),
        _ => None,
    }
}

/// The first alphanumeric word of a title (`Discord HTTP API` -> `Discord`).
fn first_word(title: &str) -> String {
    let word: String = title.chars().skip_while(|c| !c.is_ascii_alphanumeric()).take_while(|c| c.is_ascii_alphanumeric()).collect();
    if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) { format!("Api{word}") } else { word }
}

impl Importer<'_> {
    /// The schema of a parameter or header (`schema`, or `content` with one media type).
    fn parameter_schema(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, site: &Site, used: &mut Used) -> Field {
        if let Some(schema) = used_take(used, obj, "schema") {
            self.text_only = true;
            let f = self.field(cx, schema, &format!("{pointer}/schema"), site);
            self.text_only = false;
            return f;
        }
        let gap = self.unmapped(
            cx,
            codes::IMPORT_UNMAPPED,
            pointer,
            "type",
            "a parameter without `schema`",
            "parameters are typed by a schema; the value is read as text",
        );
        let _ = used_take(used, obj, "content");
        Field { ty: Some("string".into()), notes: vec![gap.detail], ..Default::default() }
    }

    /// Description, deprecation and examples of a parameter or header.
    fn parameter_annotations(&mut self, _cx: &mut Diagnostics, obj: &Map<String, Value>, _pointer: &str, used: &mut Used, f: &mut Field) {
        if let Some(d) = used_take(used, obj, "description").and_then(Value::as_str) {
            f.description = Some(d.to_owned());
        }
        if used_take(used, obj, "deprecated").and_then(Value::as_bool) == Some(true) {
            f.deprecated = Some(self.deprecation());
        }
        if let Some(e) = used_take(used, obj, "example") {
            f.example = Some(e.clone());
        }
        if let Some(list) = used_take(used, obj, "examples").and_then(Value::as_object) {
            for (_, ex) in list {
                match ex.get("value") {
                    Some(v) if f.example.is_none() => f.example = Some(v.clone()),
                    Some(v) => f.notes.push(format!("Example: `{v}`.")),
                    None => {}
                }
            }
        }
    }

    /// Every operation, in document order, into the file of its first tag.
    pub(super) fn operations(&mut self, cx: &mut Diagnostics) {
        let Some(paths) = self.root().get("paths").and_then(Value::as_object).cloned() else { return };
        for (path, item) in &paths {
            let Some((pointer, item)) = self.path_item(cx, format!("/paths/{}", escape(path)), item) else { continue };
            let Some(obj) = item.as_object() else { continue };
            let shared = parameter_values(obj.get("parameters"), &pointer);
            let mut path_gaps = Vec::new();
            for key in obj.keys().filter(|k| !METHODS.contains(&k.as_str()) && !["parameters", "summary", "description", "$ref"].contains(&k.as_str())) {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{pointer}/{}", escape(key)),
                    "details",
                    &format!("`{key}` of a path item"),
                    "a path item's operations are the spec's endpoints",
                );
                path_gaps.push(gap);
            }
            for (method, op) in obj.iter().filter(|(k, _)| METHODS.contains(&k.as_str())) {
                let at = format!("{pointer}/{method}");
                let mut e = self.operation(cx, (path, method), op, &at, (&shared, obj));
                e.meta.not_shown.extend(path_gaps.iter().cloned());
                let part = e.meta.part.clone().unwrap_or_else(|| UNTAGGED_PART.to_owned());
                let file = format!("endpoints/{part}.yaml");
                let f = self.file(&file);
                f.part = Some(part);
                e.meta.part = None;
                f.endpoints.push(e);
            }
        }
    }

    /// A path item at `pointer`, or the one its `$ref` names, with where it is; `None` when the
    /// reference does not resolve (reported).
    pub(in crate::import) fn path_item(&mut self, cx: &mut Diagnostics, pointer: String, item: &Value) -> Option<(String, Value)> {
        match item.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let p = self.resolve_ref(cx, r, &format!("{pointer}/$ref"))?;
                Some((p.clone(), self.doc.at(&p).cloned().unwrap_or_default()))
            }
            None => Some((pointer, item.clone())),
        }
    }

    /// One operation: `route` is its path and method, `path_item` the path item's parameters
    /// (with their pointers) and members.
    fn operation(
        &mut self,
        cx: &mut Diagnostics,
        route: (&str, &str),
        op: &Value,
        pointer: &str,
        path_item: (&[(String, Value)], &Map<String, Value>),
    ) -> Endpoint {
        let ((path, method), (shared, item)) = (route, path_item);
        let obj = op.as_object().cloned().unwrap_or_default();
        let mut used = Used::default();
        let mut e = self.operation_meta(&obj, &mut used, route, item);
        self.operation_method(cx, method, pointer, &mut e);
        e.path = self.path_without_query(path, pointer, &mut e);
        e.pointer = pointer.to_owned();
        let site = Site::new("", &e.meta.id);
        let own = parameter_values(used_take(&mut used, &obj, "parameters"), pointer);
        self.parameters(cx, shared, &own, &site, &mut e);
        Self::undeclared_placeholders(&mut e);
        if let Some(body) = used_take(&mut used, &obj, "requestBody") {
            self.request_body(cx, body, &format!("{pointer}/requestBody"), &site, &mut e);
        }
        if let Some(responses) = used_take(&mut used, &obj, "responses").and_then(Value::as_object) {
            self.operation_responses(cx, responses, pointer, &site, &mut e);
        }
        // An operation without `security` has the document's.
        let (security, security_pointer) = match used_take(&mut used, &obj, "security") {
            Some(s) => (Some(s.clone()), format!("{pointer}/security")),
            None => (self.root().get("security").cloned(), "/security".to_owned()),
        };
        self.auth(cx, security.as_ref(), &security_pointer, &mut e);
        // The header of the IETF draft (and Stripe's): the server does a call once per key.
        e.idempotency_key = e
            .headers
            .iter()
            .find(|(name, f)| f.wire_name.as_deref().unwrap_or(name).eq_ignore_ascii_case("idempotency-key") && f.ty.as_deref() == Some("string"))
            .map(|(name, _)| name.clone());
        e.last_event_id = streams::last_event_id(&e);
        if used_take(&mut used, &obj, "x-dropshot-pagination").is_some() {
            e.paging_hint = Some(super::pagination::Hint::Dropshot);
        }
        let gaps = self.leftovers(cx, &obj, pointer, &used);
        e.meta.not_shown.extend(gaps.into_iter().map(|g| Gap { facet: "details", detail: g.detail }));
        // Shapes declared in the operation are written beside it, in its part's file.
        let part = e.meta.part.clone().unwrap_or_else(|| UNTAGGED_PART.to_owned());
        self.move_hoisted(&format!("endpoints/{part}.yaml"));
        e
    }

    /// A new endpoint with the operation's id, part (from its first tag), name, description and
    /// deprecation; the path item's summary and description stand in for missing ones.
    fn operation_meta(&mut self, obj: &Map<String, Value>, used: &mut Used, route: (&str, &str), item: &Map<String, Value>) -> Endpoint {
        let (path, method) = route;
        let wanted = match used_take(used, obj, "operationId").and_then(Value::as_str) {
            Some(id) => id.to_owned(),
            None => format!("{method} {path}"),
        };
        let id = self.claim("endpoint", &wanted);
        let mut e = Endpoint { meta: Meta { id, ..Default::default() }, ..Default::default() };
        let tags: Vec<String> =
            used_take(used, obj, "tags").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect();
        e.meta.part = match tags.first() {
            Some(t) => self.part_ids.get(t).cloned(),
            None => self.part_ids.get("API").cloned(),
        };
        if tags.len() > 1 {
            e.meta.notes.push(format!("Also tagged {}.", tags[1..].iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")));
        }
        let summary = used_take(used, obj, "summary").and_then(Value::as_str).or_else(|| item.get("summary").and_then(Value::as_str));
        let description = used_take(used, obj, "description").and_then(Value::as_str).or_else(|| item.get("description").and_then(Value::as_str));
        e.meta.name = summary.map(str::to_owned);
        e.meta.description = description.map(str::to_owned);
        if used_take(used, obj, "deprecated").and_then(Value::as_bool) == Some(true) {
            e.meta.deprecated = Some(self.deprecation());
        }
        e
    }

    /// Sets the endpoint's method; a method the spec does not route is a gap, and the endpoint
    /// is kept without one.
    fn operation_method(&mut self, cx: &mut Diagnostics, method: &str, pointer: &str, e: &mut Endpoint) {
        let upper = method.to_ascii_uppercase();
        if ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&upper.as_str()) {
            e.method = upper;
        } else {
            let gap = self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                pointer,
                "method",
                &format!("method `{upper}`"),
                "the spec routes GET, POST, PUT, PATCH and DELETE; the endpoint is kept without a route",
            );
            e.meta.not_shown.push(Gap { facet: "method", detail: gap.detail });
        }
    }

    /// The operation's responses by status; a key that is no status is a gap of the endpoint.
    fn operation_responses(&mut self, cx: &mut Diagnostics, responses: &Map<String, Value>, pointer: &str, site: &Site, e: &mut Endpoint) {
        for (status, r) in responses {
            let at = format!("{pointer}/responses/{}", escape(status));
            let key = status.to_ascii_uppercase().replace("DEFAULT", "default");
            if !is_status(&key) {
                let what = format!("response `{status}`, which is no status");
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &at,
                    "response",
                    &what,
                    "a response is keyed by a status from 100 through 599, a range `1XX` through `5XX`, or `default`",
                );
                e.meta.not_shown.push(gap);
                continue;
            }
            if key.starts_with('1') {
                self.informational(cx, &at, &key, e);
                continue;
            }
            let Some(value) = self.response_use(cx, r, &at, site, &key) else { continue };
            e.responses.insert(key, value);
        }
    }

    /// A `1XX` response: informational, no answer a handler gives. `101 Switching Protocols`
    /// (a WebSocket behind the operation) means the call continues in another protocol, which
    /// the spec format does not route: the endpoint is kept, without a route, as an endpoint
    /// whose method is not imported is.
    fn informational(&mut self, cx: &mut Diagnostics, at: &str, key: &str, e: &mut Endpoint) {
        let why =
            "an informational status is no final answer, and the spec format does not route a switch to another protocol; the endpoint is kept without a route";
        let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, at, "response", &format!("response `{key}`"), why);
        e.meta.not_shown.push(gap);
        if !e.method.is_empty() {
            let method = std::mem::take(&mut e.method);
            e.meta.not_shown.push(Gap { facet: "method", detail: format!("method `{method}`, routed with a response `{key}`, is not imported: {why}") });
        }
    }

    /// One response of an operation: a reference to a named response stays one; any other is
    /// read in place. `None` when the reference does not resolve (already reported).
    fn response_use(&mut self, cx: &mut Diagnostics, r: &Value, at: &str, site: &Site, key: &str) -> Option<ResponseUse> {
        let value = match r.get("$ref").and_then(Value::as_str) {
            Some(reference) => match self.resolve_ref(cx, reference, &format!("{at}/$ref")) {
                Some(p) => match self.named_responses.get(&p) {
                    Some(named) => ResponseUse::Named(named.clone()),
                    None => {
                        let target = self.doc.at(&p).cloned().unwrap_or_default();
                        ResponseUse::Inline(Box::new(self.response(cx, &target, &p, &site.child("response").child(key), key)))
                    }
                },
                None => return None,
            },
            None => ResponseUse::Inline(Box::new(self.response(cx, r, at, &site.child("response").child(key), key))),
        };
        Some(value)
    }

    /// Shapes an operation declared were written to the file `""` (its file was not known
    /// yet); they move to `file`.
    fn move_hoisted(&mut self, file: &str) {
        let Some(pending) = self.files.shift_remove("") else { return };
        let target = self.file(file);
        target.enums.extend(pending.enums);
        target.unions.extend(pending.unions);
        target.resources.extend(pending.resources);
    }

    /// A parameter or part of type `null` (only ever absent) is text on the wire, which has no
    /// spelling for `null`: it is read as text that may be left out.
    fn null_as_text(f: &mut Field) {
        if f.ty.as_deref() == Some("null") {
            f.ty = Some("string".into());
            f.assumed.insert("type".into(), "the document types it `null`, which a parameter cannot carry".into());
        }
    }

    /// The path of an operation without what a path cannot hold: a query written into it
    /// (`/responses/{id}?beta=true`, how documents tell apart operations of one path) becomes
    /// required query parameters fixed to their values; a fragment (`#get_shared_link`) is
    /// never sent, and is kept as a note.
    fn path_without_query(&mut self, path: &str, pointer: &str, e: &mut Endpoint) -> String {
        let (rest, fragment) = path.split_once('#').map_or((path, None), |(p, f)| (p, Some(f)));
        let (clean, query) = rest.split_once('?').map_or((rest, None), |(p, q)| (p, Some(q)));
        if let Some(f) = fragment {
            e.meta.notes.push(format!("The document writes the path with the fragment `#{f}`, which is never sent."));
        }
        for pair in query.into_iter().flat_map(|q| q.split('&')).filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let f = Field {
                ty: Some("string".into()),
                constant: Some(Value::String(value.to_owned())),
                description: Some(format!("Written into the document's path (`{path}`) at `#{pointer}`.")),
                ..Default::default()
            };
            e.query.insert(name.to_owned(), f);
        }
        clean.to_owned()
    }

    /// The placeholders of the path that no parameter declares: text, as the path carries them.
    fn undeclared_placeholders(e: &mut Endpoint) {
        let missing: Vec<String> = placeholders(&e.path).into_iter().filter(|p| !e.path_params.contains_key(*p)).map(str::to_owned).collect();
        for name in missing {
            let mut f = Field { ty: Some("string".into()), ..Default::default() };
            f.assumed.insert("type".into(), "the document declares no parameter for this placeholder of the path".into());
            e.path_params.insert(name, f);
        }
    }
}

/// The `{placeholder}` names of a path, in order (the way the model reads them).
fn placeholders(path: &str) -> Vec<&str> {
    path.split('{').skip(1).filter_map(|s| s.split_once('}').map(|(name, _)| name)).collect()
}

/// Whether `media` is a media type the spec reads: `type/subtype` (either may be `*`), with
/// parameters after `;`.
fn is_media_type(media: &str) -> bool {
    let token = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+*".contains(c));
    media.split_once('/').is_some_and(|(a, b)| token(a) && token(b.split(';').next().unwrap_or_default().trim()))
}

/// Whether a response key is one the spec reads: a code from 100 through 599, a range `1XX`
/// through `5XX`, or `default`.
fn is_status(key: &str) -> bool {
    let b = key.as_bytes();
    key == "default" || (b.len() == 3 && (b'1'..=b'5').contains(&b[0]) && (b[1..].iter().all(u8::is_ascii_digit) || &b[1..] == b"XX"))
}

fn used_take<'a>(used: &mut Used, obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    used.take(obj, key)
}

/// Where a parameter's or header's example is written: `example`, or its `examples`.
fn example_pointer(obj: &Map<String, Value>, pointer: &str) -> String {
    let at = if obj.contains_key("example") {
        "example"
    } else if obj.contains_key("examples") {
        "examples"
    } else {
        "schema"
    };
    format!("{pointer}/{at}")
}

/// The parameters of a path item or an operation at `pointer`, each with its own pointer.
fn parameter_values(parameters: Option<&Value>, pointer: &str) -> Vec<(String, Value)> {
    let list = parameters.and_then(Value::as_array).into_iter().flatten();
    list.enumerate().map(|(i, p)| (format!("{pointer}/parameters/{i}"), p.clone())).collect()
}
