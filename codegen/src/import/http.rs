//! The HTTP side of a document: the platform (`info`, `servers`, `tags`), security schemes as
//! token kinds and scopes, named headers and responses, and the operations with their
//! parameters, bodies per media type, responses per status and security.

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
    /// The platform block: name and description from `info`, the first server as the address
    /// placeholder, and one part per tag.
    pub(super) fn platform(&mut self, cx: &mut Diagnostics) {
        let root = self.root();
        let info = root.get("info").and_then(Value::as_object).cloned().unwrap_or_default();
        let title = info.get("title").and_then(Value::as_str).unwrap_or("Imported API").to_owned();
        for key in info.keys().filter(|k| !["title", "description"].contains(&k.as_str())) {
            let why = match key.as_str() {
                "version" => "the spec format has no API version; versions live on the timeline",
                "contact" | "license" | "termsOfService" => "the spec format has no contact, license or terms",
                "summary" => "the platform has one description",
                _ => "the spec format has no such member",
            };
            let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, &format!("/info/{}", escape(key)), "details", &format!("`info.{key}`"), why);
            self.platform_gaps.push(gap);
        }
        let word = first_word(&title);
        let lower = case::snake(&word).replace('_', "");
        let prefixes = spec::Prefixes {
            c_type: format!("{}_", case::pascal(&word)),
            c_macro: format!("{}_", case::screaming(&word)),
            cpp_namespace: format!("{lower}pp"),
            c_header: format!("c{lower}.h"),
            cpp_header: format!("{lower}pp.h"),
        };
        let mut placeholders = Vec::new();
        let servers = root.get("servers").and_then(Value::as_array).cloned().unwrap_or_default();
        if let Some(first) = servers.first() {
            let mut extra = IndexMap::new();
            extra.insert("example".to_owned(), json!(first.get("url").and_then(Value::as_str).unwrap_or("")));
            let meta = Meta { id: "base_url".into(), description: first.get("description").and_then(Value::as_str).map(str::to_owned), ..Default::default() };
            placeholders.push(Item { meta, extra });
            if first.get("variables").is_some() {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    "/servers/0/variables",
                    "hosts",
                    "server variables",
                    "the address is one placeholder with one example",
                );
                self.platform_gaps.push(gap);
            }
        }
        if servers.is_empty() {
            // OpenAPI's default when a document names no server is `/`: the API is on the host
            // the document came from, which only the caller knows.
            let mut extra = IndexMap::new();
            extra.insert("example".to_owned(), json!("/"));
            extra.insert("assumed".to_owned(), json!({ "example": "The document names no server; OpenAPI's default server `/` stands for the host it is served from, which the caller gives." }));
            let meta = Meta { id: "base_url".into(), description: Some("The HTTP API address.".to_owned()), ..Default::default() };
            placeholders.push(Item { meta, extra });
        }
        for i in 1..servers.len() {
            let gap =
                self.unmapped(cx, codes::IMPORT_UNMAPPED, &format!("/servers/{i}"), "hosts", "a further server", "the platform's address is the first server");
            self.platform_gaps.push(gap);
        }
        let parts = self.platform_parts(!placeholders.is_empty());
        let platform =
            spec::Platform { name: title, description: info.get("description").and_then(Value::as_str).map(str::to_owned), prefixes, placeholders, parts };
        let gaps: Vec<Item> = std::mem::take(&mut self.platform_gaps)
            .into_iter()
            .map(|g| {
                let what = g.detail.split(" at ").next().unwrap_or("").replace('`', "");
                let id = self.claim("gap", &format!("openapi {what}"));
                // `coverage` lists a standalone gap by its description.
                let description = Some(g.detail.clone());
                Item { meta: Meta { id, description, not_shown: vec![g], ..Default::default() }, extra: IndexMap::new() }
            })
            .collect();
        let file = self.file(PLATFORM_FILE);
        file.platform = Some(platform);
        file.gaps = gaps;
    }

    /// One part per tag, in the order `tags` lists them and then in the order operations first
    /// use the others, plus `api` for operations without a tag.
    fn platform_parts(&mut self, addressed: bool) -> Vec<Item> {
        let root = self.root();
        let mut tags: IndexMap<String, Option<String>> = IndexMap::new();
        for t in root.get("tags").and_then(Value::as_array).into_iter().flatten() {
            if let Some(name) = t.get("name").and_then(Value::as_str) {
                tags.insert(name.to_owned(), t.get("description").and_then(Value::as_str).map(str::to_owned));
            }
        }
        let mut untagged = false;
        for (_, item) in root.get("paths").and_then(Value::as_object).into_iter().flatten() {
            for (method, op) in item.as_object().into_iter().flatten() {
                if !METHODS.contains(&method.as_str()) {
                    continue;
                }
                match op.get("tags").and_then(Value::as_array).and_then(|t| t.first()).and_then(Value::as_str) {
                    Some(tag) => {
                        tags.entry(tag.to_owned()).or_insert(None);
                    }
                    None => untagged = true,
                }
            }
        }
        let mut parts = Vec::new();
        let mut add = |this: &mut Self, wanted: &str, name: &str, description: Option<String>| {
            let id = this.claim("part", wanted);
            this.part_ids.insert(name.to_owned(), id.clone());
            let mut extra = IndexMap::new();
            if addressed {
                extra.insert("address".to_owned(), json!("base_url"));
            }
            parts.push(Item { meta: Meta { id, name: Some(name.to_owned()), description, ..Default::default() }, extra });
        };
        for (name, description) in tags {
            add(self, &name, &name, description);
        }
        if untagged {
            add(self, UNTAGGED_PART, "API", None);
        }
        parts
    }

    /// Security schemes as token kinds (an `Authorization` header scheme) and OAuth2 scopes.
    pub(super) fn security(&mut self, cx: &mut Diagnostics) {
        let Some(schemes) = self.root().pointer("/components/securitySchemes").and_then(Value::as_object).cloned() else { return };
        let mut scopes: IndexMap<String, Option<String>> = IndexMap::new();
        for (name, scheme) in &schemes {
            let pointer = format!("/components/securitySchemes/{}", escape(name));
            let (scheme, pointer) = match scheme.get("$ref").and_then(Value::as_str) {
                Some(r) => match self.resolve_ref(cx, r, &pointer) {
                    Some(p) => (self.doc.at(&p).cloned().unwrap_or_default(), p),
                    None => continue,
                },
                None => (scheme.clone(), pointer),
            };
            let mut meta = Meta { description: scheme.get("description").and_then(Value::as_str).map(str::to_owned), ..Default::default() };
            let kind = scheme.get("type").and_then(Value::as_str).unwrap_or("");
            let word = match kind {
                "apiKey"
                    if scheme.get("in").and_then(Value::as_str) == Some("header")
                        && scheme.get("name").and_then(Value::as_str).is_some_and(|n| n.eq_ignore_ascii_case("authorization")) =>
                {
                    None
                }
                "http" => match scheme.get("scheme").and_then(Value::as_str).map(str::to_ascii_lowercase).as_deref() {
                    Some("bearer") => Some("Bearer".to_owned()),
                    Some("basic") => Some("Basic".to_owned()),
                    Some(other) => Some(case::pascal(other)),
                    None => None,
                },
                "oauth2" | "openIdConnect" => Some("Bearer".to_owned()),
                _ => {
                    let what = format!("security scheme `{name}` ({kind})");
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED_SECURITY,
                        &pointer,
                        "scheme",
                        &what,
                        "a token kind is a credential in the `Authorization` header",
                    );
                    self.platform_gaps.push(gap);
                    continue;
                }
            };
            let known: &[&str] = match kind {
                "apiKey" => &["type", "description", "name", "in"],
                "http" => &["type", "description", "scheme", "bearerFormat"],
                "oauth2" => &["type", "description", "flows"],
                _ => &["type", "description"],
            };
            if let Some(obj) = scheme.as_object() {
                for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED_SECURITY,
                        &format!("{pointer}/{}", escape(key)),
                        "details",
                        &format!("`{key}` of a security scheme"),
                        "a token kind has a scheme word and a description",
                    );
                    meta.not_shown.push(gap);
                }
            }
            if let Some(flows) = scheme.get("flows").and_then(Value::as_object) {
                for (flow, spec) in flows {
                    for (scope, text) in spec.get("scopes").and_then(Value::as_object).into_iter().flatten() {
                        scopes.entry(scope.clone()).or_insert_with(|| text.as_str().map(str::to_owned));
                    }
                    for key in spec.as_object().into_iter().flatten().map(|(k, _)| k).filter(|k| *k != "scopes") {
                        let at = format!("{pointer}/flows/{}/{}", escape(flow), escape(key));
                        let gap = self.unmapped(
                            cx,
                            codes::IMPORT_UNMAPPED_SECURITY,
                            &at,
                            "details",
                            &format!("`{key}` of the OAuth2 `{flow}` flow"),
                            "the spec's authorization server is described apart from the token kinds",
                        );
                        meta.not_shown.push(gap);
                    }
                }
            }
            meta.id = self.claim("token_kind", name);
            meta.name = Some(name.clone());
            self.token_kinds.insert(name.clone(), meta.id.clone());
            let mut extra = IndexMap::new();
            if let Some(w) = word {
                extra.insert("scheme".to_owned(), json!(w));
            }
            self.file(PLATFORM_FILE).token_kinds.push(Item { meta, extra });
        }
        for (scope, description) in scopes {
            self.taken.insert(("scope", scope.clone()));
            self.file(PLATFORM_FILE).scopes.push(Item { meta: Meta { id: scope, description, ..Default::default() }, extra: IndexMap::new() });
        }
    }

    /// A scope a requirement names that no OAuth2 flow declares (a bearer scheme's scopes, which
    /// OpenAPI lets a document name without declaring): declared here, so the reference holds.
    fn undeclared_scope(&mut self, scope: &str) {
        if self.taken.insert(("scope", scope.to_owned())) {
            let description = Some("A scope a security requirement names; no OAuth2 flow of the document declares it.".to_owned());
            self.file(PLATFORM_FILE).scopes.push(Item { meta: Meta { id: scope.to_owned(), description, ..Default::default() }, extra: IndexMap::new() });
        }
    }

    /// `components.headers` as named headers.
    pub(super) fn component_headers(&mut self, cx: &mut Diagnostics) {
        let Some(headers) = self.root().pointer("/components/headers").and_then(Value::as_object).cloned() else { return };
        for (name, header) in &headers {
            let pointer = format!("/components/headers/{}", escape(name));
            let id = self.claim("header", name);
            self.named_headers.insert(pointer.clone(), id.clone());
            let site = Site::new(SCHEMAS_FILE, &id);
            let f = self.header(cx, name, header, &pointer, &site);
            self.file(SCHEMAS_FILE).headers.insert(id, f);
        }
    }

    /// `components.responses` as named responses.
    pub(super) fn component_responses(&mut self, cx: &mut Diagnostics) {
        let Some(responses) = self.root().pointer("/components/responses").and_then(Value::as_object).cloned() else { return };
        let names: Vec<(String, String)> = responses.keys().map(|name| (name.clone(), self.claim("response", name))).collect();
        for (name, id) in &names {
            self.named_responses.insert(format!("/components/responses/{}", escape(name)), id.clone());
        }
        for (name, id) in names {
            let pointer = format!("/components/responses/{}", escape(&name));
            let site = Site::new(SCHEMAS_FILE, &format!("{id}_body"));
            let r = self.response(cx, &responses[&name], &pointer, &site, "200");
            self.file(SCHEMAS_FILE).responses.insert(id, r);
        }
    }

    /// A header object (a parameter without `name` and `in`) as a header field.
    fn header(&mut self, cx: &mut Diagnostics, name: &str, header: &Value, pointer: &str, site: &Site) -> Field {
        let obj = header.as_object().cloned().unwrap_or_default();
        let mut used = Used::default();
        let mut f = self.parameter_schema(cx, &obj, pointer, site, &mut used);
        f.wire_name = Some(name.to_owned());
        // `simple` is the only style a header has.
        if obj.get("style").and_then(Value::as_str) == Some("simple") {
            used.mark("style");
        }
        if obj.get("explode").and_then(Value::as_bool) == Some(false) {
            used.mark("explode");
        }
        f.optional = used_take(&mut used, &obj, "required").and_then(Value::as_bool) != Some(true);
        self.parameter_annotations(cx, &obj, pointer, &mut used, &mut f);
        f.nullable = false;
        self.header_as_text(cx, pointer, &mut f);
        self.settle_example(cx, &example_pointer(&obj, pointer), &mut f);
        let gaps = self.leftovers(cx, &obj, pointer, &used);
        f.not_shown.extend(gaps);
        f
    }

    /// A header travels as one value of text: a header whose schema is no scalar (an object,
    /// an array, any JSON) is read as text, and its type is left out with its pointer.
    fn header_as_text(&mut self, cx: &mut Diagnostics, pointer: &str, f: &mut Field) {
        let ty = f.ty.clone().unwrap_or_default();
        let composite = ["object<", "array<", "map<", "union<"].iter().any(|p| ty.starts_with(p)) || ty.contains(" | ");
        if !composite && !["file", "csv", "json", "null", ""].contains(&ty.as_str()) {
            return;
        }
        let gap = self.unmapped(
            cx,
            codes::IMPORT_UNMAPPED,
            pointer,
            "details",
            &format!("a header of type `{}`", if ty.is_empty() { "json" } else { &ty }),
            "a header carries one scalar value; it is read as text",
        );
        *f = Field {
            ty: Some("string".into()),
            optional: f.optional,
            wire_name: f.wire_name.take(),
            description: f.description.take(),
            not_shown: std::mem::take(&mut f.not_shown),
            ..Default::default()
        };
        f.not_shown.push(gap);
    }

    /// The schema of a parameter or header (`schema`, or `content` with one media type).
    fn parameter_schema(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, site: &Site, used: &mut Used) -> Field {
        if let Some(schema) = used_take(used, obj, "schema") {
            return self.field(cx, schema, &format!("{pointer}/schema"), site);
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
            let mut pointer = format!("/paths/{}", escape(path));
            let mut item = item.clone();
            if let Some(r) = item.get("$ref").and_then(Value::as_str).map(str::to_owned) {
                let Some(p) = self.resolve_ref(cx, &r, &format!("{pointer}/$ref")) else { continue };
                item = self.doc.at(&p).cloned().unwrap_or_default();
                pointer = p;
            }
            let Some(obj) = item.as_object() else { continue };
            let shared: Vec<(String, Value)> = obj
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(i, p)| (format!("{pointer}/parameters/{i}"), p.clone()))
                .collect();
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
        let wanted = match used_take(&mut used, &obj, "operationId").and_then(Value::as_str) {
            Some(id) => id.to_owned(),
            None => format!("{method} {path}"),
        };
        let id = self.claim("endpoint", &wanted);
        let mut e = Endpoint { meta: Meta { id: id.clone(), ..Default::default() }, ..Default::default() };
        let tags: Vec<String> =
            used_take(&mut used, &obj, "tags").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect();
        e.meta.part = match tags.first() {
            Some(t) => self.part_ids.get(t).cloned(),
            None => self.part_ids.get("API").cloned(),
        };
        if tags.len() > 1 {
            e.meta.notes.push(format!("Also tagged {}.", tags[1..].iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")));
        }
        let summary = used_take(&mut used, &obj, "summary").and_then(Value::as_str).or_else(|| item.get("summary").and_then(Value::as_str));
        let description = used_take(&mut used, &obj, "description").and_then(Value::as_str).or_else(|| item.get("description").and_then(Value::as_str));
        e.meta.name = summary.map(str::to_owned);
        e.meta.description = description.map(str::to_owned);
        if used_take(&mut used, &obj, "deprecated").and_then(Value::as_bool) == Some(true) {
            e.meta.deprecated = Some(self.deprecation());
        }
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
        e.path = self.path_without_query(path, pointer, &mut e);
        e.pointer = pointer.to_owned();
        let site = Site::new("", &id);
        let own: Vec<(String, Value)> = used_take(&mut used, &obj, "parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, p)| (format!("{pointer}/parameters/{i}"), p.clone()))
            .collect();
        self.parameters(cx, shared, &own, &site, &mut e);
        Self::undeclared_placeholders(&mut e);
        if let Some(body) = used_take(&mut used, &obj, "requestBody") {
            self.request_body(cx, body, &format!("{pointer}/requestBody"), &site, &mut e);
        }
        if let Some(responses) = used_take(&mut used, &obj, "responses").and_then(Value::as_object) {
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
                let value = match r.get("$ref").and_then(Value::as_str) {
                    Some(reference) => match self.resolve_ref(cx, reference, &format!("{at}/$ref")) {
                        Some(p) => match self.named_responses.get(&p) {
                            Some(named) => ResponseUse::Named(named.clone()),
                            None => {
                                let target = self.doc.at(&p).cloned().unwrap_or_default();
                                ResponseUse::Inline(Box::new(self.response(cx, &target, &p, &site.child("response").child(&key), &key)))
                            }
                        },
                        None => continue,
                    },
                    None => ResponseUse::Inline(Box::new(self.response(cx, r, &at, &site.child("response").child(&key), &key))),
                };
                e.responses.insert(key, value);
            }
        }
        // An operation without `security` has the document's.
        let (security, security_pointer) = match used_take(&mut used, &obj, "security") {
            Some(s) => (Some(s.clone()), format!("{pointer}/security")),
            None => (self.root().get("security").cloned(), "/security".to_owned()),
        };
        self.auth(cx, security.as_ref(), &security_pointer, &mut e);
        let gaps = self.leftovers(cx, &obj, pointer, &used);
        e.meta.not_shown.extend(gaps.into_iter().map(|g| Gap { facet: "details", detail: g.detail }));
        // Shapes declared in the operation are written beside it, in its part's file.
        let part = e.meta.part.clone().unwrap_or_else(|| UNTAGGED_PART.to_owned());
        self.move_hoisted(&format!("endpoints/{part}.yaml"));
        e
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

    /// Path, query and header parameters (the path item's, then the operation's, which
    /// replace those of the same name and place).
    fn parameters(&mut self, cx: &mut Diagnostics, shared: &[(String, Value)], own: &[(String, Value)], site: &Site, e: &mut Endpoint) {
        let mut list: IndexMap<(String, String), (String, Value)> = IndexMap::new();
        for (pointer, p) in shared.iter().chain(own) {
            let (pointer, p) = match p.get("$ref").and_then(Value::as_str) {
                Some(r) => match self.resolve_ref(cx, r, &format!("{pointer}/$ref")) {
                    Some(target) => (target.clone(), self.doc.at(&target).cloned().unwrap_or_default()),
                    None => continue,
                },
                None => (pointer.clone(), p.clone()),
            };
            let name = p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            let place = p.get("in").and_then(Value::as_str).unwrap_or_default().to_owned();
            list.insert((name, place), (pointer, p));
        }
        for ((name, place), (pointer, p)) in list {
            let obj = p.as_object().cloned().unwrap_or_default();
            let mut used = Used::default();
            used.mark("name");
            used.mark("in");
            let section = match place.as_str() {
                "path" => "path",
                "query" => "query",
                "header" => "headers",
                _ => {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &pointer,
                        "parameters",
                        &format!("{place} parameter `{name}`"),
                        "the spec's parameters are in the path, the query or a header",
                    );
                    e.meta.not_shown.push(gap);
                    continue;
                }
            };
            if section == "headers" && OWNED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &pointer,
                    "parameters",
                    &format!("header parameter `{name}`"),
                    "the generated client and server write this header themselves",
                );
                e.meta.not_shown.push(gap);
                continue;
            }
            let psite = site.child(section).child(&name);
            let mut f = self.parameter_schema(cx, &obj, &pointer, &psite, &mut used);
            let required = used_take(&mut used, &obj, "required").and_then(Value::as_bool) == Some(true);
            f.optional = section != "path" && !required;
            self.parameter_annotations(cx, &obj, &pointer, &mut used, &mut f);
            if f.nullable {
                // A parameter is text on the wire, where `null` has no spelling: an absent
                // parameter is how it is sent, so nothing is lost.
                f.nullable = false;
                f.optional = section != "path";
            }
            Self::null_as_text(&mut f);
            self.settle_example(cx, &example_pointer(&obj, &pointer), &mut f);
            let array = f.ty.as_deref().is_some_and(|t| t.starts_with("array<"));
            let style = used_take(&mut used, &obj, "style").and_then(Value::as_str).map(str::to_owned);
            let explode = used_take(&mut used, &obj, "explode").and_then(Value::as_bool);
            match (section, style.as_deref(), explode) {
                (_, None | Some("simple"), None) if section != "query" => {}
                ("query", None | Some("form"), e) if array => f.style = Some(if e == Some(false) { "comma" } else { "repeated" }).filter(|_| e.is_some()),
                ("query", None | Some("form"), _) => {}
                ("path" | "headers", Some("simple") | None, _) => {}
                _ => {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &format!("{pointer}/style"),
                        "parameters",
                        "a parameter style",
                        "query arrays travel repeated or comma-separated; other parameters are plain text",
                    );
                    f.not_shown.push(gap);
                }
            }
            if used_take(&mut used, &obj, "allowEmptyValue").is_some() {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{pointer}/allowEmptyValue"),
                    "parameters",
                    "`allowEmptyValue`",
                    "an empty value is read as the type reads it",
                );
                f.not_shown.push(gap);
            }
            let gaps = self.leftovers(cx, &obj, &pointer, &used);
            f.not_shown.extend(gaps);
            match section {
                "path" if !placeholders(&e.path).contains(&name.as_str()) => {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &pointer,
                        "parameters",
                        &format!("path parameter `{name}`, which the path does not hold"),
                        "a path parameter fills a `{placeholder}` of the path",
                    );
                    e.meta.not_shown.push(gap);
                }
                "path" => {
                    e.path_params.insert(name, f);
                }
                "query" => {
                    e.query.insert(name, f);
                }
                _ => {
                    f.wire_name = Some(name.clone());
                    self.header_as_text(cx, &pointer, &mut f);
                    let mut key = case::snake(&name);
                    if e.headers.contains_key(&key) {
                        key = format!("{key}_{}", e.headers.len());
                    }
                    e.headers.insert(key, f);
                }
            }
        }
    }

    /// A parameter or part of type `null` (only ever absent) is text on the wire, which has no
    /// spelling for `null`: it is read as text that may be left out.
    fn null_as_text(f: &mut Field) {
        if f.ty.as_deref() == Some("null") {
            f.ty = Some("string".into());
            f.assumed.insert("type".into(), "the document types it `null`, which a parameter cannot carry".into());
        }
    }

    /// The placeholders of the path that no parameter declares: text, as the path carries them.
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

    fn undeclared_placeholders(e: &mut Endpoint) {
        let missing: Vec<String> = placeholders(&e.path).into_iter().filter(|p| !e.path_params.contains_key(*p)).map(str::to_owned).collect();
        for name in missing {
            let mut f = Field { ty: Some("string".into()), ..Default::default() };
            f.assumed.insert("type".into(), "the document declares no parameter for this placeholder of the path".into());
            e.path_params.insert(name, f);
        }
    }

    /// The request body: one format per media type the spec knows, sharing one body; a
    /// multipart body is typed by its parts.
    fn request_body(&mut self, cx: &mut Diagnostics, body: &Value, pointer: &str, site: &Site, e: &mut Endpoint) {
        let (body, pointer) = match body.get("$ref").and_then(Value::as_str) {
            Some(r) => match self.resolve_ref(cx, r, &format!("{pointer}/$ref")) {
                Some(p) => (self.doc.at(&p).cloned().unwrap_or_default(), p),
                None => return,
            },
            None => (body.clone(), pointer.to_owned()),
        };
        let obj = body.as_object().cloned().unwrap_or_default();
        let mut used = Used::default();
        let required = used_take(&mut used, &obj, "required").and_then(Value::as_bool) == Some(true);
        if let Some(d) = used_take(&mut used, &obj, "description").and_then(Value::as_str) {
            e.meta.notes.push(format!("Request body: {d}"));
        }
        let content = used_take(&mut used, &obj, "content").and_then(Value::as_object).cloned().unwrap_or_default();
        let mut formats: Vec<&'static str> = Vec::new();
        let mut shared: Option<(String, Value)> = None;
        let mut multipart: Option<(String, Value)> = None;
        for (media, m) in &content {
            let at = format!("{pointer}/content/{}", escape(media));
            let Some(format) = body_format(media) else {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &at,
                    "request_body",
                    &format!("request media type `{media}`"),
                    "request bodies are JSON, forms, multipart, CSV or bytes",
                );
                e.meta.not_shown.push(gap);
                continue;
            };
            if formats.contains(&format) {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &at,
                    "request_body",
                    &format!("a second `{format}` media type `{media}`"),
                    "each body format is listed once",
                );
                e.meta.not_shown.push(gap);
                continue;
            }
            let schema = m.get("schema").cloned().unwrap_or(json!({}));
            self.media_leftovers(cx, m, &at, &mut e.meta.not_shown, format == "multipart");
            match format {
                "multipart" => multipart = Some((at, m.clone())),
                "binary" | "csv" => {}
                _ => match &shared {
                    None => shared = Some((format!("{at}/schema"), schema)),
                    Some((_, first)) if *first == schema => {}
                    Some(_) => {
                        let gap = self.unmapped(
                            cx,
                            codes::IMPORT_UNMAPPED,
                            &format!("{at}/schema"),
                            "request_body",
                            &format!("a `{media}` body unlike the first one"),
                            "the formats of a body share one shape",
                        );
                        e.meta.not_shown.push(gap);
                        continue;
                    }
                },
            }
            // A JSON body of another JSON media type (`application/json-patch+json`) travels as
            // that type.
            let base = media.split(';').next().unwrap_or_default().trim();
            if format == "json" && !base.eq_ignore_ascii_case("application/json") {
                e.body_media_type = Some(base.to_owned());
            }
            formats.push(format);
        }
        if formats.is_empty() {
            return;
        }
        if let Some((schema_pointer, schema)) = &shared {
            self.body_fields(cx, schema, schema_pointer, site, required, e);
        }
        if let Some((at, media)) = &multipart {
            let mapped = self.parts(cx, media, at, site, e);
            if mapped && e.parts.is_empty() && formats.len() > 1 {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    at,
                    "request_body",
                    "a multipart body without parts beside other formats",
                    "a multipart body shares no fields with the other formats: it is made of parts",
                );
                e.meta.not_shown.push(gap);
            }
            if !mapped || (e.parts.is_empty() && formats.len() > 1) {
                formats.retain(|f| *f != "multipart");
            }
            if formats.is_empty() {
                return;
            }
        }
        e.body_format = Some(if formats.len() == 1 { json!(formats[0]) } else { json!(formats) });
        let gaps = self.leftovers(cx, &obj, &pointer, &used);
        e.meta.not_shown.extend(gaps.into_iter().map(|g| Gap { facet: "request_body", detail: g.detail }));
    }

    /// Keys of a media type object other than `schema` (and `encoding` of multipart bodies).
    fn media_leftovers(&mut self, cx: &mut Diagnostics, m: &Value, pointer: &str, gaps: &mut Vec<Gap>, multipart: bool) {
        for key in m.as_object().into_iter().flatten().map(|(k, _)| k) {
            if key == "schema" || (multipart && key == "encoding") {
                continue;
            }
            let why = match key.as_str() {
                "example" | "examples" => "examples of a whole body have no place in the spec; field examples do",
                "encoding" => "an encoding applies to multipart parts",
                _ => "the spec format has no such member",
            };
            let gap =
                self.unmapped(cx, codes::IMPORT_UNMAPPED, &format!("{pointer}/{}", escape(key)), "request_body", &format!("`{key}` of a media type"), why);
            gaps.push(gap);
        }
    }

    /// The body of JSON and form requests: named fields for an object written in place, the
    /// whole body's type otherwise.
    fn body_fields(&mut self, cx: &mut Diagnostics, schema: &Value, pointer: &str, site: &Site, required: bool, e: &mut Endpoint) {
        let inline_object = schema.get("properties").is_some()
            && schema.as_object().is_some_and(|o| o.keys().all(|k| ["type", "properties", "required", "description", "title"].contains(&k.as_str())))
            && !admits_null(schema);
        // Named fields make a body required when one of them is (that is what the export
        // says); a body required with none of its fields, or optional with some, is a type.
        let members: Vec<String> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect();
        if inline_object && required != members.is_empty() {
            let obj = schema.as_object().cloned().unwrap_or_default();
            let required = members;
            if let Some(d) = obj.get("description").and_then(Value::as_str) {
                e.meta.notes.push(format!("Request body: {d}"));
            }
            for (name, s) in obj.get("properties").and_then(Value::as_object).into_iter().flatten() {
                let mut f = self.field(cx, s, &format!("{pointer}/properties/{}", escape(name)), &site.child("body").child(name));
                f.optional = !required.contains(name);
                e.body.insert(name.clone(), f);
            }
            return;
        }
        let mut f = self.field(cx, schema, pointer, &site.child("body"));
        f.optional = !required;
        if f.nullable {
            f.nullable = false;
            let gap = self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                pointer,
                "request_body",
                "a request body that may be `null`",
                "a body is a value of its type; an absent body stands for `null`",
            );
            f.not_shown.push(gap);
        }
        e.body_schema = Some(f);
    }

    /// The parts of a multipart body: the members of its schema (through references and
    /// `allOf`), with `name[0]` .. `name[n-1]` read as one indexed array part.
    /// Returns `false` (with a gap) when the body is not one object of named parts.
    fn parts(&mut self, cx: &mut Diagnostics, media: &Value, pointer: &str, site: &Site, e: &mut Endpoint) -> bool {
        let schema = media.get("schema").cloned().unwrap_or(json!({}));
        let mut members: IndexMap<String, (String, Value)> = IndexMap::new();
        let mut required: Vec<String> = Vec::new();
        if let Err(at) = self.collect_members(cx, &schema, &format!("{pointer}/schema"), &mut members, &mut required, 0) {
            let gap = self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                &at,
                "request_body",
                "a multipart body that is not one object of named members",
                "multipart parts are the named members of one object",
            );
            e.meta.not_shown.push(gap);
            return false;
        }
        let encoding = media.get("encoding").and_then(Value::as_object).cloned().unwrap_or_default();
        let psite = site.child("parts");
        let mut consumed: Vec<String> = Vec::new();
        for (name, (at, s)) in &members {
            if consumed.contains(name) {
                continue;
            }
            if let Some((base, count)) = indexed_group(name, &members) {
                for i in 0..count {
                    consumed.push(format!("{base}[{i}]"));
                }
                let element = self.field(cx, s, at, &psite.child(&base));
                let mut f = Field {
                    ty: Some(format!("array<{}>", element.ty.clone().unwrap_or_else(|| "file".into()))),
                    optional: true,
                    style: Some("indexed"),
                    ..Default::default()
                };
                f.rules.max_items = Some(Number::from(count as u64));
                f.description = element.description.clone();
                f.not_shown = element.not_shown.clone();
                if let Some(ct) =
                    element.content_type.clone().or_else(|| encoding.get(name).and_then(|e| e.get("contentType")).and_then(Value::as_str).map(str::to_owned))
                {
                    if is_media_type(&ct) {
                        f.content_type = Some(ct);
                    } else {
                        let gap = self.unmapped(
                            cx,
                            codes::IMPORT_UNMAPPED,
                            at,
                            "request_body",
                            &format!("part content type `{ct}`, which is no media type"),
                            "a part's media type is `type/subtype`",
                        );
                        f.not_shown.push(gap);
                    }
                }
                e.parts.insert(base, f);
                continue;
            }
            let mut f = self.field(cx, s, at, &psite.child(name));
            f.optional = !required.contains(name);
            if f.nullable {
                // A part is text or bytes, where `null` has no spelling: an absent part is how
                // it is sent, so nothing is lost.
                f.nullable = false;
                f.optional = true;
            }
            Self::null_as_text(&mut f);
            let file = f.ty.as_deref().is_some_and(|t| t == "file" || t == "array<file>");
            if let Some(enc) = encoding.get(name).and_then(Value::as_object) {
                for (key, value) in enc {
                    match (key.as_str(), value.as_str()) {
                        ("contentType", Some(ct)) if !ct.contains(',') => f.content_type = Some(ct.to_owned()),
                        ("contentType", Some(list)) => {
                            // One media type per part: a list of several of one kind is that kind.
                            let kinds: Vec<&str> = list.split(',').map(|m| m.trim().split('/').next().unwrap_or("")).collect();
                            if kinds.iter().all(|k| *k == kinds[0] && !k.is_empty()) {
                                f.content_type = Some(format!("{}/*", kinds[0]));
                            }
                            let at = format!("{pointer}/encoding/{}/{}", escape(name), escape(key));
                            let gap = self.unmapped(
                                cx,
                                codes::IMPORT_UNMAPPED,
                                &at,
                                "request_body",
                                "a list of media types for one part",
                                "a part has one media type (or `type/*`); the list is read as the widest it allows",
                            );
                            f.not_shown.push(gap);
                        }
                        _ => {
                            let at = format!("{pointer}/encoding/{}/{}", escape(name), escape(key));
                            let gap = self.unmapped(
                                cx,
                                codes::IMPORT_UNMAPPED,
                                &at,
                                "request_body",
                                &format!("`{key}` of a part's encoding"),
                                "a part has a media type and nothing more",
                            );
                            f.not_shown.push(gap);
                        }
                    }
                }
            }
            if !file && f.content_type.is_some() && !f.ty.as_deref().is_some_and(|t| t.starts_with("object<") || t == "json") {
                f.content_type = None;
            }
            if let Some(ct) = f.content_type.take_if(|ct| !is_media_type(ct)) {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    at,
                    "request_body",
                    &format!("part content type `{ct}`, which is no media type"),
                    "a part's media type is `type/subtype`",
                );
                f.not_shown.push(gap);
            }
            e.parts.insert(name.clone(), f);
        }
        true
    }

    /// The members of an object schema, through references and `allOf`; `Err` with the
    /// pointer of a `oneOf`/`anyOf` that makes it one of several shapes.
    fn collect_members(
        &mut self,
        cx: &mut Diagnostics,
        schema: &Value,
        pointer: &str,
        out: &mut IndexMap<String, (String, Value)>,
        required: &mut Vec<String>,
        depth: usize,
    ) -> Result<(), String> {
        if depth > 8 {
            return Ok(());
        }
        let (schema, pointer) = match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => match self.resolve_ref(cx, r, &format!("{pointer}/$ref")) {
                Some(p) => (self.doc.at(&p).cloned().unwrap_or_default(), p),
                None => return Ok(()),
            },
            None => (schema.clone(), pointer.to_owned()),
        };
        for key in ["oneOf", "anyOf"] {
            if schema.get(key).is_some() {
                return Err(format!("{pointer}/{key}"));
            }
        }
        if schema.get("additionalProperties").is_some_and(Value::is_object) {
            return Err(format!("{pointer}/additionalProperties"));
        }
        for (i, part) in schema.get("allOf").and_then(Value::as_array).into_iter().flatten().enumerate() {
            self.collect_members(cx, part, &format!("{pointer}/allOf/{i}"), out, required, depth + 1)?;
        }
        required.extend(schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned));
        for (name, s) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
            out.insert(name.clone(), (format!("{pointer}/properties/{}", escape(name)), s.clone()));
        }
        Ok(())
    }

    /// A response: its description, headers and body in the format of its media type.
    pub(super) fn response(&mut self, cx: &mut Diagnostics, r: &Value, pointer: &str, site: &Site, status: &str) -> Response {
        let obj = r.as_object().cloned().unwrap_or_default();
        let mut used = Used::default();
        let mut out = Response { description: used_take(&mut used, &obj, "description").and_then(Value::as_str).map(str::to_owned), ..Default::default() };
        if let Some(headers) = used_take(&mut used, &obj, "headers").and_then(Value::as_object) {
            for (name, h) in headers {
                let at = format!("{pointer}/headers/{}", escape(name));
                if OWNED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &at,
                        "response",
                        &format!("response header `{name}`"),
                        "the generated server writes this header itself",
                    );
                    out.not_shown.push(gap);
                    continue;
                }
                let value = match h.get("$ref").and_then(Value::as_str) {
                    Some(reference) => match self.resolve_ref(cx, reference, &format!("{at}/$ref")) {
                        Some(p) => match self.named_headers.get(&p) {
                            Some(id) => HeaderUse::Named(id.clone()),
                            None => {
                                let target = self.doc.at(&p).cloned().unwrap_or_default();
                                HeaderUse::Inline(Box::new(self.header(cx, name, &target, &p, &site.child("headers").child(name))))
                            }
                        },
                        None => continue,
                    },
                    None => HeaderUse::Inline(Box::new(self.header(cx, name, h, &at, &site.child("headers").child(name)))),
                };
                let key = match &value {
                    HeaderUse::Named(id) => id.clone(),
                    HeaderUse::Inline(_) => case::snake(name),
                };
                out.headers.insert(key, value);
            }
        }
        let bodiless = status.starts_with('1') || status == "204" || status == "304";
        if let Some(content) = used_take(&mut used, &obj, "content").and_then(Value::as_object) {
            for (i, (media, m)) in content.iter().enumerate() {
                let at = format!("{pointer}/content/{}", escape(media));
                if !is_media_type(media) {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &at,
                        "response",
                        &format!("response content `{media}`, which is no media type"),
                        "a media type is `type/subtype`",
                    );
                    out.not_shown.push(gap);
                    continue;
                }
                if bodiless || i > 0 {
                    let why = if bodiless { "this status has no body" } else { "a response has one media type; the first one is kept" };
                    let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, "response", &format!("response media type `{media}`"), why);
                    out.not_shown.push(gap);
                    continue;
                }
                self.media_leftovers(cx, m, &at, &mut out.not_shown, false);
                let schema = m.get("schema").cloned().unwrap_or(json!({}));
                self.response_body(cx, media, &schema, &format!("{at}/schema"), site, &mut out);
            }
        }
        let gaps = self.leftovers(cx, &obj, pointer, &used);
        out.not_shown.extend(gaps.into_iter().map(|g| Gap { facet: "response", detail: g.detail }));
        out
    }

    fn response_body(&mut self, cx: &mut Diagnostics, media: &str, schema: &Value, pointer: &str, site: &Site, out: &mut Response) {
        let base = media.split(';').next().unwrap_or(media).trim().to_ascii_lowercase();
        match body_format(&base) {
            Some("json") => {
                if base != "application/json" {
                    out.media_type = Some(media.to_owned());
                }
                let inline_object = schema.get("properties").is_some()
                    && schema.as_object().is_some_and(|o| o.keys().all(|k| ["type", "properties", "required", "description", "title"].contains(&k.as_str())))
                    && !admits_null(schema);
                if inline_object {
                    let required: Vec<String> =
                        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect();
                    for (name, s) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
                        let mut f = self.field(cx, s, &format!("{pointer}/properties/{}", escape(name)), &site.child(name));
                        f.optional = !required.contains(name);
                        out.fields.insert(name.clone(), f);
                    }
                    if let Some(d) = schema.get("description").and_then(Value::as_str) {
                        out.notes.push(d.to_owned());
                    }
                    return;
                }
                let mut f = self.field(cx, schema, pointer, site);
                let mut ty = f.ty.clone().unwrap_or_else(|| "json".into());
                // Elements that may be `null` are a union with `null` in the body's type.
                if let (Some(inner), Some(items)) = (ty.strip_prefix("array<").and_then(|t| t.strip_suffix('>')), &f.items)
                    && items.nullable
                    && items.rules == spec::Rules::default()
                    && items.items.is_none()
                {
                    ty = format!("array<{inner} | null>");
                    f.items = None;
                }
                out.ty = Some(if f.nullable && ty != "json" && ty != "null" { format!("{ty} | null") } else { ty });
                let constrained = f.rules != spec::Rules::default() || f.items.is_some() || f.constant.is_some() || !f.subset.is_empty();
                if constrained {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        pointer,
                        "response",
                        "constraints on a whole response body",
                        "a response body is a type; its fields carry constraints",
                    );
                    out.not_shown.push(gap);
                }
                out.not_shown.extend(f.not_shown);
                out.notes.extend(f.notes);
                if let Some(d) = f.description {
                    out.notes.push(d);
                }
            }
            Some("csv") => out.format = Some("csv"),
            _ if base.starts_with("text/") => {
                out.format = Some("text");
                if base != "text/plain" {
                    out.media_type = Some(media.to_owned());
                }
            }
            _ => {
                out.format = Some("binary");
                if base != "application/octet-stream" {
                    out.media_type = Some(media.to_owned());
                }
            }
        }
    }

    /// Security requirements as the token kinds an endpoint accepts and the scopes it needs.
    fn auth(&mut self, cx: &mut Diagnostics, security: Option<&Value>, pointer: &str, e: &mut Endpoint) {
        let list = security.and_then(Value::as_array).cloned().unwrap_or_default();
        if list.is_empty() {
            e.auth.push("none".into());
            return;
        }
        for (i, req) in list.iter().enumerate() {
            let Some(obj) = req.as_object() else { continue };
            if obj.is_empty() {
                if !e.auth.contains(&"none".to_owned()) {
                    e.auth.push("none".into());
                }
                continue;
            }
            if obj.len() > 1 {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED_SECURITY,
                    &format!("{pointer}/{i}"),
                    "details",
                    "a requirement of several schemes at once",
                    "an endpoint accepts any one of its token kinds; the first scheme is kept",
                );
                e.meta.not_shown.push(gap);
            }
            let (name, scopes) = obj.iter().next().expect("BUG: checked non-empty");
            match self.token_kinds.get(name) {
                Some(id) => {
                    if !e.auth.contains(id) {
                        e.auth.push(id.clone());
                    }
                    for s in scopes.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        self.undeclared_scope(s);
                        if !e.scopes.iter().any(|x| x == s) {
                            e.scopes.push(s.to_owned());
                        }
                    }
                }
                None => {
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED_SECURITY,
                        &format!("{pointer}/{i}"),
                        "details",
                        &format!("security scheme `{name}`"),
                        "the scheme is not one the spec has a token kind for",
                    );
                    e.meta.not_shown.push(gap);
                }
            }
        }
        if e.auth.is_empty() {
            e.auth.push("none".into());
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

/// `name` is `base[i]`, and `base[0]` .. `base[n-1]` are all members with the same schema:
/// the base and `n`.
fn indexed_group(name: &str, members: &IndexMap<String, (String, Value)>) -> Option<(String, usize)> {
    let base = name.strip_suffix("[0]")?;
    let schema = &members.get(name)?.1;
    let mut n = 0;
    while let Some((_, s)) = members.get(&format!("{base}[{n}]")) {
        if s != schema {
            return None;
        }
        n += 1;
    }
    (n >= 1).then(|| (base.to_owned(), n))
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

impl Importer<'_> {
    /// The errors the generated server makes itself (a malformed request, a missing
    /// credential) answer in the body the document declares for errors: the object schema most
    /// of its error responses (`4XX`, `5XX`, `default`, any 4xx or 5xx code) carry. A field
    /// the server has no value for is written empty (or left out when it may be absent); one
    /// of a type with no empty value (an enum, an object) may then be absent from the errors
    /// the server makes, and a note says so.
    pub(super) fn error_body(&mut self) {
        let Some(name) = self.most_common_error_schema() else { return };
        let Some(Component::Resource(id)) = self.components.get(&name).cloned() else { return };
        let resources: Vec<&spec::Resource> = self.files.values().flat_map(|f| &f.resources).collect();
        let Some(resource) = resources.iter().find(|r| r.meta.id == id) else { return };
        if !resource.extends.is_empty() {
            return;
        }
        let mut fields = resource.fields.clone();
        for f in fields.values_mut() {
            let ty = f.ty.clone().unwrap_or_default();
            if !f.optional && (ty.starts_with("enum<") || ty.starts_with("object<") || ty.starts_with("union<")) {
                f.optional = true;
                f.notes.push("Absent from the errors the generated server makes itself, which have no value of this type.".into());
            }
        }
        let description = Some(format!("The body of the document's error responses (`{name}`), which the server's own errors take too."));
        self.file(SCHEMAS_FILE).error_body = Some(spec::ErrorBody { description, fields });
    }

    /// The component schema most error responses of the document carry, by name.
    fn most_common_error_schema(&self) -> Option<String> {
        let mut counts: IndexMap<String, usize> = IndexMap::new();
        let paths = self.root().get("paths").and_then(Value::as_object)?;
        for op in paths.values().filter_map(Value::as_object).flat_map(|item| item.iter().filter(|(k, _)| METHODS.contains(&k.as_str())).map(|(_, op)| op)) {
            for (status, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
                if !(status == "default" || status.starts_with('4') || status.starts_with('5')) {
                    continue;
                }
                let response = self.resolved(response);
                let schema = response
                    .get("content")
                    .and_then(Value::as_object)
                    .and_then(|c| c.iter().find(|(m, _)| body_format(m) == Some("json")))
                    .and_then(|(_, m)| m.get("schema"));
                let name = schema.and_then(|s| s.get("$ref")).and_then(Value::as_str).and_then(|r| r.strip_prefix("#/components/schemas/"));
                if let Some(name) = name {
                    *counts.entry(name.replace("~1", "/").replace("~0", "~")).or_default() += 1;
                }
            }
        }
        let most = counts.values().copied().max()?;
        counts.into_iter().find(|(_, n)| *n == most).map(|(name, _)| name)
    }
}
