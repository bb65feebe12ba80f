//! The document's `webhooks`: a path item per event a webhook carries, whose `post` is the
//! delivery (the envelope with the event's data, the signature headers, the app's answer), and
//! one per webhook ping. What OpenAPI has no keyword for (the signature scheme, the tolerance,
//! the acknowledgement deadline, the retry schedule) travels in `x-webhook`.

use super::{Doc, insert, prose};
use crate::model::*;
use serde_json::{Map, Value, json};

impl Doc<'_> {
    /// `webhooks`, keyed by event id, or `<webhook>.<event>` for an event two webhooks carry
    /// (each webhook's ping by `<webhook>.ping`).
    pub(super) fn webhooks(&self) -> Value {
        let mut out = Map::new();
        let hooks = &self.model.webhooks;
        for w in hooks {
            for e in &w.events {
                let Some(event) = self.model.events.iter().find(|x| x.meta.id == e.event.id) else { continue };
                let shared = hooks.iter().filter(|h| h.events.iter().any(|x| x.event.id == e.event.id)).count() > 1;
                let key = if shared { format!("{}.{}", w.meta.id, event.meta.id) } else { event.meta.id.clone() };
                out.insert(key, json!({ "post": self.delivery(w, Some((e, event))) }));
            }
            if w.ping.is_some() {
                out.insert(format!("{}.ping", w.meta.id), json!({ "post": self.delivery(w, None) }));
            }
        }
        Value::Object(out)
    }

    /// The `post` of one event's delivery, or of the webhook's ping.
    fn delivery(&self, w: &Webhook, event: Option<(&WebhookEvent, &Event)>) -> Value {
        let mut op = Map::new();
        match event {
            Some((e, event)) => {
                op.insert("operationId".into(), json!(format!("{}.{}", w.meta.id, event.meta.id)));
                op.insert("summary".into(), json!(event.meta.name));
                insert(&mut op, "description", prose(event.meta.description.as_deref(), &event.meta.notes));
                op.insert("x-event-name".into(), json!(e.value));
            }
            None => {
                op.insert("operationId".into(), json!(format!("{}.ping", w.meta.id)));
                op.insert("summary".into(), json!(format!("{}: ping", w.meta.name)));
                op.insert("description".into(), json!("The platform checks that the app's endpoint answers; the receiver answers it itself."));
            }
        }
        if let Some(p) = self.part(&w.meta) {
            op.insert("tags".into(), json!([p.meta.name]));
        }
        insert(&mut op, "parameters", Value::Array(signature_headers(w)));
        op.insert("requestBody".into(), json!({ "required": true, "content": { "application/json": { "schema": self.envelope_schema(w, event) } } }));
        op.insert("responses".into(), answers(w, event.is_none()));
        op.insert("x-webhook".into(), webhook_extension(w));
        Value::Object(op)
    }

    /// The body of a delivery: the envelope's members, nested as their paths say, around the
    /// event's data (or the ping's value).
    fn envelope_schema(&self, w: &Webhook, event: Option<(&WebhookEvent, &Event)>) -> Value {
        let data = |event: &Event| {
            if event.meta.is_not_shown("payload") && event.fields.is_empty() {
                json!({ "x-not-shown": [{ "facet": "payload" }] })
            } else {
                self.object_schema(&event.fields)
            }
        };
        let Some(envelope) = &w.envelope else {
            // What is known is the event's data; where the envelope puts it is not shown.
            let mut body = event.map_or_else(|| json!({}), |(_, e)| data(e));
            if let Some(map) = body.as_object_mut() {
                map.insert("x-not-shown".into(), json!([{ "facet": "envelope" }]));
            }
            return body;
        };
        let Some((e, event)) = event else {
            let ping = w.ping.as_ref().expect("BUG: a ping's delivery has a ping");
            let mut body = json!({ "type": "object" });
            put(&mut body, &ping.member.path, json!({ "const": ping.value }));
            return body;
        };
        let data = data(event);
        let name = if envelope.numbered() { json!(e.value.parse::<i64>().unwrap_or_default()) } else { json!(e.value) };
        let mut body = match &envelope.data {
            Some(path) => {
                let mut body = json!({ "type": "object" });
                put(&mut body, &path.path, data);
                body
            }
            None => data,
        };
        put(&mut body, &envelope.kind.path, json!({ "const": name }));
        let strings = [envelope.id.as_ref(), envelope.timestamp.as_ref(), envelope.version.as_ref()];
        for m in strings.into_iter().flatten() {
            put_optional(&mut body, &m.path, json!({}));
        }
        body
    }
}

/// Puts `schema` as the required property at `path`, making the objects on the way.
fn put(body: &mut Value, path: &[String], schema: Value) {
    place(body, path, schema, true);
}

/// Puts `schema` as an optional property at `path`.
fn put_optional(body: &mut Value, path: &[String], schema: Value) {
    place(body, path, schema, false);
}

fn place(body: &mut Value, path: &[String], schema: Value, required: bool) {
    let Some((first, rest)) = path.split_first() else { return };
    let Some(object) = body.as_object_mut() else { return };
    object.entry("type").or_insert(json!("object"));
    if required {
        let list = object.entry("required").or_insert(json!([]));
        if let Some(list) = list.as_array_mut().filter(|l| !l.iter().any(|x| x == first)) {
            list.push(json!(first));
        }
    }
    let properties = object.entry("properties").or_insert(json!({}));
    let Some(properties) = properties.as_object_mut() else { return };
    if rest.is_empty() {
        // An optional member that is a field of the event (an interaction's `id`) keeps the
        // field's schema.
        if required {
            properties.insert(first.clone(), schema);
        } else {
            properties.entry(first.clone()).or_insert(schema);
        }
    } else {
        place(properties.entry(first.clone()).or_insert(json!({ "type": "object" })), rest, schema, required);
    }
}

/// The headers that sign a delivery, as required header parameters.
fn signature_headers(w: &Webhook) -> Vec<Value> {
    let Some(v) = w.verification.as_ref().filter(|v| v.scheme.id != "none") else { return Vec::new() };
    let roles: &[(&str, &str)] = match v.scheme.id.as_str() {
        "standard" => &[
            ("id", "The delivery's id."),
            ("timestamp", "When it was signed, in seconds since the epoch."),
            ("signature", "Space-separated `v1,` (HMAC-SHA256) and `v1a,` (Ed25519) signatures of `{id}.{timestamp}.{body}`, base64."),
        ],
        _ => &[
            ("signature", "The Ed25519 signature of the timestamp header's value followed by the body, in hex."),
            ("timestamp", "The timestamp the signature covers."),
        ],
    };
    roles
        .iter()
        .filter_map(|(role, what)| {
            Some(json!({ "name": v.header(role)?, "in": "header", "required": true, "description": what, "schema": { "type": "string" } }))
        })
        .collect()
}

/// The app's answers: the acknowledgement (the ping's answer for a ping), `401` and `400`.
fn answers(w: &Webhook, ping: bool) -> Value {
    let mut out = Map::new();
    match w.ping.as_ref().filter(|_| ping) {
        Some(p) => {
            let mut answer = Map::new();
            answer.insert("description".into(), json!("The ping answered."));
            if let Some(body) = &p.answer {
                answer.insert("content".into(), json!({ "application/json": { "schema": { "const": body } } }));
            }
            out.insert(p.status.to_string(), Value::Object(answer));
        }
        None => {
            let deadline = w.ack_seconds.map_or_else(String::new, |s| format!(", within {s} s"));
            // A status the spec does not give is any success.
            let status = w.ack_status.map_or_else(|| "2XX".to_owned(), |s| s.to_string());
            out.insert(status, json!({ "description": format!("The app acknowledges the delivery{deadline}.") }));
        }
    }
    if w.verification.as_ref().is_some_and(|v| v.scheme.id != "none") {
        out.insert("401".into(), json!({ "description": "The delivery does not verify, is stale or was received before." }));
    }
    out.insert("400".into(), json!({ "description": "The body does not read as the envelope and its event." }));
    Value::Object(out)
}

/// `x-webhook`: the webhook, without its events (each path item is one).
fn webhook_extension(w: &Webhook) -> Value {
    let mut value = serde_json::to_value(w).expect("BUG: the model always serializes");
    if let Some(map) = value.as_object_mut() {
        map.remove("events");
        // The part is the operation's tag.
        map.remove("part");
    }
    value
}
