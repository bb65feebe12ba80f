//! The HTTP shapes of an operation beyond one JSON body in and one out: responses per status
//! with their headers (named ones in `components/responses` and `components/headers`), security
//! requirements with anonymous calls and scopes, list parameters, bodies in several media types
//! and multipart parts with their encodings.

use super::{Doc, honesty, insert, prose};
use crate::model::types::Primitive;
use crate::model::*;
use serde_json::{Map, Value, json};

/// `style` and `explode` of a list query parameter: `form` either way, exploded (`?id=1&id=2`)
/// unless the spec says `comma` (`?id=1,2`).
pub(super) fn list_style(p: &mut Map<String, Value>, f: &Field, location: &str) {
    if location != "query" || !matches!(f.ty, Some(TypeRef::Array(_))) {
        return;
    }
    let comma = f.style.as_ref().is_some_and(|s| s.id == "comma");
    // Only a style the spec gives is written: the defaults need no words.
    if f.style.is_some() {
        p.insert("style".into(), json!("form"));
        p.insert("explode".into(), json!(!comma));
    }
}

/// The schema of a file: bytes of a media type.
fn binary(content_type: Option<&str>) -> Value {
    let mut s = json!({ "type": "string", "format": "binary" });
    if let Some(m) = content_type {
        s["contentMediaType"] = json!(m);
    }
    s
}

/// The media type of a request body format.
fn media_type(format: &str) -> &'static str {
    match format {
        "form" => "application/x-www-form-urlencoded",
        "multipart" => "multipart/form-data",
        "csv" => "text/csv",
        "binary" => "application/octet-stream",
        _ => "application/json",
    }
}

impl Doc<'_> {
    /// The request body of an endpoint with several formats, typed parts or bytes: one media
    /// type per format.
    pub(super) fn body_formats(&self, e: &Endpoint) -> Option<Value> {
        let fields = match &e.body_schema {
            Some(whole) => Some(self.field_schema(whole)),
            None if !e.body.is_empty() => Some(self.object_schema(&e.body)),
            None => None,
        };
        let mut content = Map::new();
        for f in &e.body_formats {
            let media = if f.id == "json" { e.json_media_type() } else { media_type(&f.id) };
            let entry = match f.id.as_str() {
                "json" => fields.clone().map(|schema| json!({ "schema": schema })),
                "form" => self.form_schema(e).map(|schema| json!({ "schema": schema })),
                "multipart" if !e.parts.is_empty() => Some(self.parts_media(&e.parts)),
                "binary" => Some(json!({ "schema": binary(None) })),
                _ => Some(json!({ "schema": { "type": "string", "contentMediaType": media } })),
            };
            if let Some(entry) = entry {
                content.insert(media.to_owned(), entry);
            }
        }
        let required = e.body_formats.iter().any(|f| matches!(f.id.as_str(), "binary" | "csv")) || !e.parts.is_empty() || fields.is_some();
        (!content.is_empty()).then(|| json!({ "required": required, "content": content }))
    }

    /// The schema of a form body: the body's members as the form carries them, none of them
    /// `null` (a form has no spelling for it: a member that may be null is left out, as the
    /// server reads it), so a resource body with such members is written out in place.
    pub(super) fn form_schema(&self, e: &Endpoint) -> Option<Value> {
        let may_be_null = |f: &Field| f.nullable || f.items.as_ref().is_some_and(|i| i.nullable);
        let text = |f: &Field| {
            let mut f = f.clone();
            f.nullable = false;
            if let Some(items) = &mut f.items {
                items.nullable = false;
            }
            f
        };
        let members = |fields: &[Field]| self.object_schema(&fields.iter().map(text).collect::<Vec<_>>());
        match &e.body_schema {
            Some(whole) => match &whole.ty {
                Some(TypeRef::Object(id)) if self.model.resource(id).is_some_and(|r| r.fields.iter().any(may_be_null)) => {
                    self.model.resource(id).map(|r| members(&r.fields))
                }
                _ => Some(self.field_schema(&text(whole))),
            },
            None if !e.body.is_empty() => Some(members(&e.body)),
            None => None,
        }
    }

    /// A multipart media type: an object schema of the parts, and the encoding of each part
    /// whose media type is not the default (files, JSON parts).
    fn parts_media(&self, parts: &[Field]) -> Value {
        let mut props = Map::new();
        let mut required = Vec::new();
        let mut encoding = Map::new();
        for f in parts {
            let file = f.ty.as_ref().is_some_and(|t| *t.element() == TypeRef::Primitive(Primitive::File));
            let content_type = f.content_type.as_ref().map(|c| c.id.as_str());
            let indexed = f.style.as_ref().is_some_and(|s| s.id == "indexed");
            let element = |f: &Field| -> Value {
                let Some(TypeRef::Array(inner)) = &f.ty else { return Value::Null };
                if file { binary(content_type) } else { self.type_schema(inner) }
            };
            if indexed {
                // `files[0]` .. `files[n-1]`, each one part of the element's type.
                let max = f.constraints.max_items.as_ref().and_then(|b| crate::model::bounds::resolve(self.model, b, true, false));
                let count = match max {
                    Some(crate::model::bounds::Resolved::Static(n)) => n.max(0),
                    _ => 0,
                };
                for index in 0..count {
                    let name = format!("{}[{index}]", f.wire());
                    let mut schema = element(f);
                    insert(schema.as_object_mut().expect("BUG: schemas are objects"), "description", prose(f.description.as_deref(), &[]));
                    props.insert(name.clone(), schema);
                    if let Some(m) = content_type {
                        encoding.insert(name, json!({ "contentType": m }));
                    }
                }
                continue;
            }
            let schema = if file {
                let mut s = match &f.ty {
                    Some(TypeRef::Array(_)) => json!({ "type": "array", "items": binary(content_type) }),
                    _ => binary(content_type),
                };
                let map = s.as_object_mut().expect("BUG: schemas are objects");
                self.constraints(map, &f.constraints);
                insert(map, "description", prose(f.description.as_deref(), &f.notes));
                s
            } else {
                self.field_schema(f)
            };
            props.insert(f.wire().to_owned(), schema);
            if !(f.optional || f.nullable) {
                required.push(f.wire().to_owned());
            }
            let json_part = !file && f.ty.as_ref().is_some_and(|t| matches!(t.element(), TypeRef::Object(_) | TypeRef::Primitive(Primitive::Json)));
            match (content_type, json_part) {
                (Some(m), _) => {
                    encoding.insert(f.wire().to_owned(), json!({ "contentType": m }));
                }
                (None, true) => {
                    encoding.insert(f.wire().to_owned(), json!({ "contentType": "application/json" }));
                }
                _ => {}
            }
        }
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(props));
        insert(&mut schema, "required", json!(required));
        // The parts are the form's fields: the server reads these and no others, and a part
        // name is a header parameter, which not every text can be.
        schema.insert("additionalProperties".into(), json!(false));
        let mut media = Map::new();
        media.insert("schema".into(), Value::Object(schema));
        insert(&mut media, "encoding", Value::Object(encoding));
        Value::Object(media)
    }

    /// The responses of an endpoint that declares them by status, plus the errors of the
    /// `errors` list at statuses it does not declare, plus any other client error (the router's
    /// own: a broken constraint, a missing token) unless `4XX` or `default` is declared.
    pub(super) fn status_responses(&self, e: &Endpoint) -> Value {
        let mut out = Map::new();
        for r in &e.responses {
            let value = match &r.response {
                ResponseUse::Named(id) => json!({ "$ref": format!("#/components/responses/{}", id.id) }),
                ResponseUse::Inline(response) => self.response_object(response, &format!("The `{}` response.", r.status.id)),
            };
            out.insert(r.status.id.clone(), value);
        }
        let declared: Vec<Status> = e.responses.iter().filter_map(StatusResponse::status).collect();
        let covered = |code: u16| declared.iter().any(|s| matches!(s, Status::Code(c) if *c == code));
        let mut by_status: std::collections::BTreeMap<u16, Vec<&Error>> = std::collections::BTreeMap::new();
        for x in self.model.errors_for(&e.meta.id) {
            if let Some(s) = x.status {
                by_status.entry(s).or_default().push(x);
            }
        }
        for (status, errors) in by_status {
            let ids: Vec<&str> = errors.iter().map(|x| x.meta.id.as_str()).collect();
            if covered(status) {
                // An inline response at that status says which errors it carries.
                if let Some(Value::Object(r)) = out.get_mut(&status.to_string())
                    && !r.contains_key("$ref")
                {
                    r.insert("x-errors".into(), json!(ids));
                }
                continue;
            }
            let text: Vec<String> = errors.iter().map(|x| format!("{}: {}", x.meta.name, x.condition)).collect();
            let mut r = Map::new();
            r.insert("description".into(), json!(text.join("\n\n")));
            if status >= 300 {
                r.insert("content".into(), self.error_content());
            }
            r.insert("x-errors".into(), json!(ids));
            out.insert(status.to_string(), Value::Object(r));
        }
        if !declared.iter().any(|s| matches!(s, Status::Range(4) | Status::Default)) {
            out.insert(
                "4XX".into(),
                json!({
                    "description": "Any other client error: a violated constraint (every violation is listed), a missing or invalid token, a permission rule not met, a body in a format the operation does not accept.",
                    "content": self.error_content(),
                }),
            );
        }
        Value::Object(out)
    }

    /// A response object: its description, headers and body.
    fn response_object(&self, r: &Response, fallback: &str) -> Value {
        let mut out = Map::new();
        let description = r.description.clone().unwrap_or_else(|| fallback.to_owned());
        out.insert("description".into(), prose(Some(&description), &r.notes));
        let mut headers = Map::new();
        for h in &r.headers {
            let value = match &h.header {
                HeaderUse::Named(id) => json!({ "$ref": format!("#/components/headers/{}", id.id) }),
                HeaderUse::Inline(f) => self.header_object(f),
            };
            let wire = self.model.header_field(h).map_or_else(|| h.name.clone(), |f| f.wire().to_owned());
            headers.insert(wire, value);
        }
        insert(&mut out, "headers", Value::Object(headers));
        let schema = match r.body_kind() {
            BodyKind::Empty => None,
            BodyKind::Json if !r.fields.is_empty() => Some(self.object_schema(&r.fields)),
            BodyKind::Json => Some(r.ty.as_ref().map_or_else(|| json!({}), |t| self.type_schema(t))),
            BodyKind::Text => Some(json!({ "type": "string" })),
            // Bytes of any media type (`*/*`, `image/*`) may be JSON too (the server's own
            // refusals are): no schema says more than "any", as OpenAPI 3.1 writes binary content.
            BodyKind::Binary if r.media_type().is_some_and(|m| m.contains('*')) => Some(json!({})),
            BodyKind::Binary => Some(binary(None)),
            BodyKind::Stream(framing) => Some(self.stream_schema(r, framing)),
        };
        let schema = schema.map(|mut s| {
            if let (true, Value::Object(map), None) = (r.nullable, &mut s, r.framing()) {
                super::schemas::nullable(map);
            }
            s
        });
        if let (Some(schema), Some(media)) = (schema, r.media_type()) {
            out.insert("content".into(), json!({ media: { "schema": schema } }));
        }
        honesty(&mut out, &r.not_shown, &r.assumed);
        Value::Object(out)
    }

    /// The schema of a stream's messages. A JSON Lines stream's is each line's. A server-sent
    /// event's is the event as an object of its fields, as OpenAPI 3.2 describes
    /// `text/event-stream`: its `data` is text, JSON of the message's type (`contentSchema`)
    /// unless that type is `string`; events by name are one such object each, told apart by
    /// their `event` constant.
    fn stream_schema(&self, r: &Response, framing: crate::model::Framing) -> Value {
        let data = |ty: Option<&TypeRef>, nullable: bool| -> Value {
            let mut schema = ty.map_or_else(|| json!({}), |t| self.type_schema(t));
            if let (true, Value::Object(map)) = (nullable, &mut schema) {
                super::schemas::nullable(map);
            }
            schema
        };
        if framing == crate::model::Framing::JsonLines {
            return data(r.ty.as_ref(), r.nullable);
        }
        let event = |name: Option<&str>, ty: Option<&TypeRef>, nullable: bool| -> Value {
            let text = matches!(ty, Some(TypeRef::Primitive(Primitive::String))) && !nullable;
            let data = if text {
                json!({ "type": "string" })
            } else {
                json!({ "type": "string", "contentMediaType": "application/json", "contentSchema": data(ty, nullable) })
            };
            let (event, required) = match name {
                Some(name) => (json!({ "const": name }), json!(["event", "data"])),
                None => (json!({ "type": "string" }), json!(["data"])),
            };
            json!({
                "type": "object",
                "properties": { "event": event, "data": data, "id": { "type": "string" }, "retry": { "type": "integer", "minimum": 0 } },
                "required": required,
            })
        };
        if r.events.is_empty() {
            return event(None, r.ty.as_ref(), r.nullable);
        }
        json!({ "oneOf": r.events.iter().map(|e| event(Some(&e.name), e.ty.as_ref(), false)).collect::<Vec<_>>() })
    }

    /// A header object: whether it is always sent, its schema and description.
    fn header_object(&self, f: &Field) -> Value {
        let mut out = Map::new();
        insert(&mut out, "description", prose(f.description.as_deref(), &f.notes));
        out.insert("required".into(), json!(!(f.optional || f.nullable)));
        let mut schema = self.field_schema(f);
        if let Some(s) = schema.as_object_mut() {
            s.remove("description");
        }
        out.insert("schema".into(), schema);
        Value::Object(out)
    }

    /// `components/responses`: the named responses.
    pub(super) fn component_responses(&self) -> Value {
        let map: Map<String, Value> =
            self.model.responses.iter().map(|r| (r.id.clone(), self.response_object(&r.response, &format!("The response `{}`.", r.id)))).collect();
        Value::Object(map)
    }

    /// `components/headers`: the named headers.
    pub(super) fn component_headers(&self) -> Value {
        let map: Map<String, Value> = self.model.headers.iter().map(|h| (h.name.clone(), self.header_object(h))).collect();
        Value::Object(map)
    }

    /// The security requirements of an endpoint that accepts anonymous calls or requires
    /// scopes: `{}` for an anonymous call, and per token kind the scopes a bearer token must
    /// hold. `None` when the plain list of its token kinds says it all.
    pub(super) fn security(&self, e: &Endpoint) -> Option<Value> {
        if !e.accepts_anonymous() && e.scopes.is_empty() {
            return None;
        }
        let kinds = if e.token_kinds().next().is_none() && !e.auth.is_empty() { Vec::new() } else { self.model.accepted_kinds(e) };
        if e.accepts_anonymous() && kinds.is_empty() {
            // No requirement at all: the operation is public.
            return Some(json!([]));
        }
        let scopes: Vec<&str> = e.scopes.iter().map(|s| s.id.as_str()).collect();
        let mut out: Vec<Value> = Vec::new();
        if e.accepts_anonymous() {
            out.push(json!({}));
        }
        for k in kinds {
            let required = if k.carries_scopes() { scopes.clone() } else { Vec::new() };
            out.push(json!({ k.meta.id.clone(): required }));
        }
        Some(Value::Array(out))
    }
}
