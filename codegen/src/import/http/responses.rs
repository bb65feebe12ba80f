//! Responses: named responses and headers, responses per status with their bodies and headers,
//! and the error body most error responses share.

use super::*;
use std::collections::HashMap;

impl Importer<'_> {
    /// `components.headers` as named headers. A header object has no name of its own: the
    /// name is the key of the `headers` map that uses it. A component every use names alike
    /// takes that name; otherwise its key, and a use under another name is written out at the
    /// use ([`Self::response`]). A component no use names, whose key is no header name, has
    /// nothing to go by and is reported.
    pub(in crate::import) fn component_headers(&mut self, cx: &mut Diagnostics) {
        let Some(headers) = self.root().pointer("/components/headers").and_then(Value::as_object).cloned() else { return };
        let uses = self.header_uses();
        for (key, header) in &headers {
            let pointer = format!("/components/headers/{}", escape(key));
            let names = uses.get(&pointer).map(Vec::as_slice).unwrap_or_default();
            let agreed = names.first().filter(|first| names.iter().all(|n| n.eq_ignore_ascii_case(first)));
            let name = match agreed.or_else(|| names.first().filter(|_| !crate::validate::is_token(key))) {
                Some(used) => used.clone(),
                None if crate::validate::is_token(key) => key.clone(),
                None => {
                    self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &pointer,
                        "details",
                        &format!("header `{key}`"),
                        "no response uses it, and its key is no HTTP header name to name it by",
                    );
                    continue;
                }
            };
            let id = self.claim("header", key);
            self.named_headers.insert(pointer.clone(), id.clone());
            let site = Site::new(SCHEMAS_FILE, &id);
            let f = self.header(cx, &name, header, &pointer, &site);
            self.file(SCHEMAS_FILE).headers.insert(id, f);
        }
    }

    /// The names each component header is used under: the keys of the `headers` maps of every
    /// response (of the operations, the webhooks and `components.responses`) that refer to it.
    fn header_uses(&self) -> HashMap<String, Vec<String>> {
        let mut uses: HashMap<String, Vec<String>> = HashMap::new();
        let mut add = |response: &Value| {
            for (name, h) in response.get("headers").and_then(Value::as_object).into_iter().flatten() {
                if let Some(target) = h.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
                    uses.entry(target.to_owned()).or_default().push(name.clone());
                }
            }
        };
        let root = self.root();
        for section in ["/paths", "/webhooks"] {
            for item in root.pointer(section).and_then(Value::as_object).into_iter().flat_map(|m| m.values()) {
                for op in item.as_object().into_iter().flat_map(|m| m.values()) {
                    op.get("responses").and_then(Value::as_object).into_iter().flat_map(|m| m.values()).for_each(&mut add);
                }
            }
        }
        root.pointer("/components/responses").and_then(Value::as_object).into_iter().flat_map(|m| m.values()).for_each(&mut add);
        uses
    }

    /// `components.responses` as named responses.
    pub(in crate::import) fn component_responses(&mut self, cx: &mut Diagnostics) {
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

    /// Whether the named header `id` goes by `name` (header names compare without regard to
    /// case).
    fn header_named(&self, id: &str, name: &str) -> bool {
        self.files.get(SCHEMAS_FILE).and_then(|f| f.headers.get(id)).and_then(|f| f.wire_name.as_deref()).is_some_and(|w| w.eq_ignore_ascii_case(name))
    }

    /// A header object (a parameter without `name` and `in`) as a header field.
    pub(in crate::import) fn header(&mut self, cx: &mut Diagnostics, name: &str, header: &Value, pointer: &str, site: &Site) -> Field {
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
        self.header_as_text(cx, pointer, &mut f, false);
        self.settle_example(cx, &example_pointer(&obj, pointer), &mut f);
        let gaps = self.leftovers(cx, &obj, pointer, &used);
        f.not_shown.extend(gaps);
        f
    }

    /// A header travels as one value of text: a header whose schema is no scalar (an object,
    /// an array, any JSON) is read as text, and its type is left out with its pointer. A
    /// request header (`list`) may be a list of scalars, sent comma-separated.
    pub(in crate::import) fn header_as_text(&mut self, cx: &mut Diagnostics, pointer: &str, f: &mut Field, list: bool) {
        let ty = f.ty.clone().unwrap_or_default();
        let scalar = |ty: &str| {
            let composite = ["object<", "array<", "map<", "union<"].iter().any(|p| ty.starts_with(p)) || ty.contains(" | ");
            !composite && !["file", "csv", "json", "null", ""].contains(&ty)
        };
        let item = ty.strip_prefix("array<").and_then(|rest| rest.strip_suffix('>'));
        if scalar(&ty) || (list && item.is_some_and(scalar)) {
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

    /// A response: its description, headers and body in the format of its media type.
    pub(in crate::import) fn response(&mut self, cx: &mut Diagnostics, r: &Value, pointer: &str, site: &Site, status: &str) -> Response {
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
                        Some(p) => match self.named_headers.get(&p).filter(|id| self.header_named(id, name)).cloned() {
                            Some(id) => HeaderUse::Named(id),
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
                    let why = match () {
                        _ if bodiless => "this status has no body",
                        // A JSON answer or a stream of the same, as the request asks (`stream: true`).
                        _ if super::streams::framing(media).is_some() => "a response is one thing, a body or a stream; the first media type, the body, is kept",
                        _ => "a response has one media type; the first one is kept",
                    };
                    let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, "response", &format!("response media type `{media}`"), why);
                    out.not_shown.push(gap);
                    continue;
                }
                if let Some(framing) = super::streams::framing(media) {
                    self.stream_body(cx, framing, media, m, &at, site, &mut out);
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

    pub(in crate::import) fn response_body(&mut self, cx: &mut Diagnostics, media: &str, schema: &Value, pointer: &str, site: &Site, out: &mut Response) {
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
                        let f = self.member_field(cx, s, &format!("{pointer}/properties/{}", escape(name)), &site.child(name), required.contains(name));
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

    /// The errors the generated server makes itself (a malformed request, a missing
    /// credential) answer in the body the document declares for errors: the object schema most
    /// of its error responses (`4XX`, `5XX`, `default`, any 4xx or 5xx code) carry. A field
    /// the server has no value for is written empty (or left out when it may be absent); one
    /// of a type with no empty value (an enum, an object) may then be absent from the errors
    /// the server makes, and a note says so.
    pub(in crate::import) fn error_body(&mut self) {
        let Some(name) = self.most_common_error_schema() else { return };
        let Some(Component::Resource(id)) = self.components.get(&name).cloned() else { return };
        // The fields its bases give it first (an error schema written as `allOf` of a base and
        // more fields), then its own.
        let by_id: std::collections::HashMap<String, (Vec<String>, IndexMap<String, spec::Field>)> =
            self.files.values().flat_map(|f| &f.resources).map(|r| (r.meta.id.clone(), (r.extends.clone(), r.fields.clone()))).collect();
        let Some((_, own)) = by_id.get(&id) else { return };
        let mut fields = crate::import::settle::inherited_fields(&by_id, &id, &mut std::collections::BTreeSet::new());
        fields.extend(own.iter().map(|(k, f)| (k.clone(), f.clone())));
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

    /// The component schema most error responses of the document carry, by name; a `429`'s
    /// body is the rate limiter's, not the errors', and does not count.
    pub(in crate::import) fn most_common_error_schema(&self) -> Option<String> {
        let mut counts: IndexMap<String, usize> = IndexMap::new();
        let paths = self.root().get("paths").and_then(Value::as_object)?;
        for op in paths.values().filter_map(Value::as_object).flat_map(|item| item.iter().filter(|(k, _)| METHODS.contains(&k.as_str())).map(|(_, op)| op)) {
            for (status, response) in op.get("responses").and_then(Value::as_object).into_iter().flatten() {
                if !(status == "default" || status.starts_with('4') || status.starts_with('5')) || status == "429" {
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
