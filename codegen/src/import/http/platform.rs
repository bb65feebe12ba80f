//! The document's top level: the platform (title, servers as placeholders and parts) and its
//! security schemes as token kinds and scopes.

use super::*;

impl Importer<'_> {
    /// The platform block: name and description from `info`, the first server as the address
    /// placeholder, and one part per tag.
    pub(in crate::import) fn platform(&mut self, cx: &mut Diagnostics) {
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
    pub(in crate::import) fn platform_parts(&mut self, addressed: bool) -> Vec<Item> {
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
    pub(in crate::import) fn security(&mut self, cx: &mut Diagnostics) {
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
            match word {
                Some(w) => {
                    extra.insert("scheme".to_owned(), json!(w));
                }
                // An API key in `Authorization` is the whole header as the document has it: a
                // scheme word the platform expects (`Bot <token>`) is not said, so not invented.
                None => meta.not_shown.push(spec::Gap {
                    facet: "scheme",
                    detail: "the document names the `Authorization` header but no scheme word: the token is the whole header value, so a scheme the platform expects goes in the token".to_owned(),
                }),
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
    pub(in crate::import) fn undeclared_scope(&mut self, scope: &str) {
        if self.taken.insert(("scope", scope.to_owned())) {
            let description = Some("A scope a security requirement names; no OAuth2 flow of the document declares it.".to_owned());
            self.file(PLATFORM_FILE).scopes.push(Item { meta: Meta { id: scope.to_owned(), description, ..Default::default() }, extra: IndexMap::new() });
        }
    }

    /// Security requirements as the token kinds an endpoint accepts and the scopes it needs.
    pub(in crate::import) fn auth(&mut self, cx: &mut Diagnostics, security: Option<&Value>, pointer: &str, e: &mut Endpoint) {
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
