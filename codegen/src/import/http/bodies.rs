//! Request bodies: media types, JSON and form members, multipart parts with their encodings.

use super::*;

impl Importer<'_> {
    /// The request body: one format per media type the spec knows, sharing one body; a
    /// multipart body is typed by its parts.
    pub(in crate::import) fn request_body(&mut self, cx: &mut Diagnostics, body: &Value, pointer: &str, site: &Site, e: &mut Endpoint) {
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
            if let Some(why) = (format == "form").then(|| self.form_refusal(&schema)).flatten() {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{at}/schema"),
                    "request_body",
                    &format!("a form body {why}"),
                    "a form is name=value pairs, which no standard gives an object, a union or a file; the body's other media types are read",
                );
                e.meta.not_shown.push(gap);
                continue;
            }
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
    pub(in crate::import) fn media_leftovers(&mut self, cx: &mut Diagnostics, m: &Value, pointer: &str, gaps: &mut Vec<Gap>, multipart: bool) {
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
    pub(in crate::import) fn body_fields(&mut self, cx: &mut Diagnostics, schema: &Value, pointer: &str, site: &Site, required: bool, e: &mut Endpoint) {
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
                let f = self.member_field(cx, s, &format!("{pointer}/properties/{}", escape(name)), &site.child("body").child(name), required.contains(name));
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
    pub(in crate::import) fn parts(&mut self, cx: &mut Diagnostics, media: &Value, pointer: &str, site: &Site, e: &mut Endpoint) -> bool {
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
                        f.not_shown.push(self.not_a_media_type(cx, at, &ct));
                    }
                }
                e.parts.insert(base, f);
                continue;
            }
            let mut f = self.field(cx, s, at, &psite.child(name));
            f.optional = !required.contains(name);
            // A part of CSV text stays a file, which takes no constant.
            if f.ty.as_deref() == Some("file")
                && let Some(c) = f.constant.take()
            {
                f.notes.push(format!("The document fixes it to `{c}`, which a file part does not check."));
            }
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
                            let why = "a part has one media type (or `type/*`); the list is read as the widest it allows";
                            f.not_shown.push(self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, "request_body", "a list of media types for one part", why));
                        }
                        _ => {
                            let at = format!("{pointer}/encoding/{}/{}", escape(name), escape(key));
                            let what = format!("`{key}` of a part's encoding");
                            f.not_shown.push(self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, "request_body", &what, "a part has a media type and nothing more"));
                        }
                    }
                }
            }
            if !file && f.content_type.is_some() && !f.ty.as_deref().is_some_and(|t| t.starts_with("object<") || t == "json") {
                f.content_type = None;
            }
            if let Some(ct) = f.content_type.take_if(|ct| !is_media_type(ct)) {
                f.not_shown.push(self.not_a_media_type(cx, at, &ct));
            }
            e.parts.insert(name.clone(), f);
        }
        true
    }

    /// A part's content type that is no media type, reported where the part is declared.
    fn not_a_media_type(&mut self, cx: &mut Diagnostics, at: &str, ct: &str) -> Gap {
        let what = format!("part content type `{ct}`, which is no media type");
        self.unmapped(cx, codes::IMPORT_UNMAPPED, at, "request_body", &what, "a part's media type is `type/subtype`")
    }

    /// The members of an object schema, through references and `allOf`; `Err` with the
    /// pointer of a `oneOf`/`anyOf` that makes it one of several shapes.
    pub(in crate::import) fn collect_members(
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
            if schema.get(key).is_none() {
                continue;
            }
            if !schema.as_object().is_some_and(crate::import::schema::requires_only) {
                return Err(format!("{pointer}/{key}"));
            }
            let why = crate::import::schema::REQUIRES_ONLY_WHY;
            self.unmapped(cx, codes::IMPORT_UNMAPPED, &format!("{pointer}/{key}"), "request_body", &format!("`{key}`"), why);
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
}

/// `name` is `base[i]`, and `base[0]` .. `base[n-1]` are all members with the same schema:
/// the base and `n`.
pub(in crate::import) fn indexed_group(name: &str, members: &IndexMap<String, (String, Value)>) -> Option<(String, usize)> {
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
