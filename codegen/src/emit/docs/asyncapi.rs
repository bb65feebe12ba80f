//! `asyncapi.json`: an AsyncAPI 3.0 document of the spec's gateways, written when it has one.
//!
//! Each gateway is a channel (its server where the spec gives a URL, its query as the WebSocket
//! binding's), each dispatch event and each opcode a message whose payload is the frame: the
//! envelope's members around the payload's schema, which is the OpenAPI document's (the shapes
//! are shared under `components/schemas`). The client receives dispatches and the opcodes of
//! direction `receive`, and sends the others. What AsyncAPI has no keyword for (the opcode of
//! each role, heartbeats, the ready event, resuming, close codes with their policy, the send and
//! identify limits) travels in `x-session` on the channel.

use super::openapi::Schemas;
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::gateway::Gateway;
use crate::model::*;
use serde_json::{Map, Value, json};

/// Emits `asyncapi.json`, for a spec with a gateway.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    if model.gateways.is_empty() {
        return Vec::new();
    }
    let text = serde_json::to_string_pretty(&document(model, opts)).expect("BUG: JSON values always serialize");
    vec![GeneratedFile::new("asyncapi", "asyncapi.json", text)]
}

fn document(model: &Model, opts: &EmitOptions) -> Value {
    let schemas = Schemas::new(model);
    let (mut servers, mut channels, mut operations, mut messages) = (Map::new(), Map::new(), Map::new(), Map::new());
    for g in &model.gateways {
        let server = server(g);
        if let Some(s) = &server {
            servers.insert(g.meta.id.clone(), s.clone());
        }
        let mut channel_messages = Map::new();
        for (key, message, action) in gateway_messages(model, &schemas, g) {
            channel_messages.insert(key.clone(), json!({ "$ref": format!("#/components/messages/{key}") }));
            messages.insert(key.clone(), message);
            let channel = format!("#/channels/{}", g.meta.id);
            let operation = json!({
                "action": action,
                "channel": { "$ref": channel },
                "messages": [{ "$ref": format!("{channel}/messages/{key}") }],
            });
            operations.insert(format!("{key}.{action}"), operation);
        }
        channels.insert(g.meta.id.clone(), channel(g, server.is_some(), channel_messages));
    }
    let p = &model.platform;
    let mut info = Map::new();
    info.insert("title".into(), json!(p.name));
    // The spec format has no API version; the document says so rather than invent one.
    info.insert("version".into(), json!("unversioned"));
    if let Some(d) = &p.description {
        info.insert("description".into(), json!(d));
    }
    let mut components = Map::new();
    components.insert("schemas".into(), asyncapi_schema(schemas.named()));
    components.insert("messages".into(), Value::Object(messages));
    let mut doc = Map::new();
    doc.insert("asyncapi".into(), json!("3.0.0"));
    doc.insert("x-generated".into(), json!(opts.notice()));
    doc.insert("info".into(), Value::Object(info));
    if !servers.is_empty() {
        doc.insert("servers".into(), Value::Object(servers));
    }
    doc.insert("channels".into(), Value::Object(channels));
    doc.insert("operations".into(), Value::Object(operations));
    doc.insert("components".into(), Value::Object(components));
    Value::Object(doc)
}

/// The server of a gateway whose URL the spec gives as one (not as an endpoint's field).
fn server(g: &Gateway) -> Option<Value> {
    let url = g.url.as_ref()?;
    let (protocol, rest) = url.id.split_once("://")?;
    let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
    let mut server = Map::new();
    server.insert("host".into(), json!(host));
    server.insert("protocol".into(), json!(protocol));
    if !path.is_empty() {
        server.insert("pathname".into(), json!(format!("/{}", path.trim_end_matches('/'))));
    }
    Some(Value::Object(server))
}

fn channel(g: &Gateway, has_server: bool, messages: Map<String, Value>) -> Value {
    let mut channel = Map::new();
    // The gateway's whole address is its server's; the channel adds no path of its own.
    channel.insert("address".into(), Value::Null);
    channel.insert("title".into(), json!(g.meta.name));
    if let Some(d) = &g.meta.description {
        channel.insert("description".into(), json!(d));
    }
    if has_server {
        channel.insert("servers".into(), json!([{ "$ref": format!("#/servers/{}", g.meta.id) }]));
    }
    channel.insert("messages".into(), Value::Object(messages));
    if !g.query.is_empty() || g.compression.is_some() {
        let mut properties: Map<String, Value> = g.query.iter().map(|(k, v)| (k.clone(), json!({ "type": "string", "const": v }))).collect();
        let required: Vec<&String> = g.query.iter().map(|(k, _)| k).collect();
        if let Some(c) = &g.compression {
            let offered: Vec<&str> = c.offered.iter().map(|o| o.id.as_str()).collect();
            properties.insert(c.parameter.id.clone(), json!({ "type": "string", "enum": offered }));
        }
        let query = json!({ "type": "object", "properties": properties, "required": required });
        channel.insert("bindings".into(), json!({ "ws": { "query": query, "bindingVersion": "0.1.0" } }));
    }
    if let Some(url) = g.url.as_ref().filter(|_| !has_server) {
        channel.insert("x-url".into(), json!(url.id));
    }
    channel.insert("x-session".into(), session(g));
    if !g.meta.not_shown.is_empty() {
        channel.insert("x-not-shown".into(), serde_json::to_value(&g.meta.not_shown).unwrap_or_default());
    }
    if !g.meta.assumed.is_empty() {
        channel.insert("x-assumed".into(), serde_json::to_value(&g.meta.assumed).unwrap_or_default());
    }
    Value::Object(channel)
}

/// The session rules, as the spec gives them.
fn session(g: &Gateway) -> Value {
    let mut out = Map::new();
    let mut put = |key: &str, value: Value| {
        if !value.is_null() {
            out.insert(key.to_owned(), value);
        }
    };
    put("envelope", serde_json::to_value(&g.envelope).unwrap_or_default());
    put("roles", serde_json::to_value(&g.roles).unwrap_or_default());
    put("heartbeat_interval", serde_json::to_value(&g.heartbeat_interval).unwrap_or_default());
    put("identify_token", serde_json::to_value(&g.identify_token).unwrap_or_default());
    put("ready", serde_json::to_value(&g.ready).unwrap_or_default());
    put("resume", serde_json::to_value(&g.resume).unwrap_or_default());
    if !g.close_codes.is_empty() {
        put("close_codes", serde_json::to_value(&g.close_codes).unwrap_or_default());
    }
    put("unknown_close", serde_json::to_value(&g.unknown_close).unwrap_or_default());
    put("resume_close", serde_json::to_value(g.resume_close).unwrap_or_default());
    put("send_limit", serde_json::to_value(&g.send_limit).unwrap_or_default());
    put("identify_limit", serde_json::to_value(&g.identify_limit).unwrap_or_default());
    Value::Object(out)
}

/// Every message of a gateway: `(key, message, the client's action)`.
fn gateway_messages(model: &Model, schemas: &Schemas, g: &Gateway) -> Vec<(String, Value, &'static str)> {
    let mut out = Vec::new();
    let dispatch = g.roles.as_ref().and_then(|r| model.opcodes.iter().find(|o| o.meta.id == r.dispatch.id));
    for e in &g.events {
        let Some(event) = model.events.iter().find(|x| x.meta.id == e.event.id) else { continue };
        let payload = payload_schema(schemas, &event.fields, &event.meta);
        let frame = frame(g, dispatch.map(|o| o.code), payload, Some(&e.name));
        let message = message(&event.meta, frame, &format!("The event `{}`, dispatched as `{}`.", event.meta.id, e.name));
        out.push((format!("{}.event.{}", g.meta.id, event.meta.id), message, "receive"));
    }
    let roles: Vec<&str> = g.roles.iter().flat_map(|r| r.all().map(|(_, o)| o.id.as_str())).collect();
    let ids = roles.iter().copied().filter(|id| dispatch.is_none_or(|d| d.meta.id != *id)).chain(g.commands.iter().map(|c| c.id.as_str()));
    for id in ids {
        let Some(op) = model.opcodes.iter().find(|o| o.meta.id == id) else { continue };
        let payload = payload_schema(schemas, &op.fields, &op.meta);
        let summary = format!("The opcode `{}` ({}).", op.meta.id, op.code);
        let key = format!("{}.opcode.{}", g.meta.id, op.meta.id);
        let actions: &[&'static str] = match op.direction.as_str() {
            "send" => &["send"],
            "receive" => &["receive"],
            _ => &["send", "receive"],
        };
        let message = message(&op.meta, frame(g, Some(op.code), payload, None), &summary);
        for action in actions {
            out.push((key.clone(), message.clone(), action));
        }
    }
    out
}

/// A payload's schema: its fields, or anything where the spec gives none.
fn payload_schema(schemas: &Schemas, fields: &[Field], meta: &Meta) -> Value {
    if fields.is_empty() {
        let mut any = Map::new();
        if !meta.not_shown.is_empty() {
            any.insert("x-not-shown".into(), serde_json::to_value(&meta.not_shown).unwrap_or_default());
        }
        return Value::Object(any);
    }
    asyncapi_schema(schemas.object(fields))
}

/// A frame: the envelope's members around the payload; a dispatch also carries its sequence
/// and its event's name.
fn frame(g: &Gateway, opcode: Option<i64>, payload: Value, event: Option<&str>) -> Value {
    let Some(e) = &g.envelope else { return json!({ "type": "object", "properties": { "payload": payload } }) };
    let mut properties = Map::new();
    properties.insert(e.opcode.id.clone(), opcode.map_or_else(|| json!({ "type": "integer" }), |c| json!({ "type": "integer", "const": c })));
    properties.insert(e.data.id.clone(), payload);
    let mut required = vec![json!(e.opcode.id)];
    if let Some(name) = event {
        properties.insert(e.sequence.id.clone(), json!({ "type": "integer", "minimum": 0 }));
        properties.insert(e.event.id.clone(), json!({ "type": "string", "const": name }));
        required.extend([json!(e.data.id), json!(e.sequence.id), json!(e.event.id)]);
    }
    json!({ "type": "object", "properties": properties, "required": required })
}

fn message(meta: &Meta, payload: Value, summary: &str) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(meta.id));
    m.insert("title".into(), json!(meta.name));
    m.insert("summary".into(), json!(summary));
    if let Some(d) = &meta.description {
        m.insert("description".into(), json!(d));
    }
    m.insert("contentType".into(), json!("application/json"));
    m.insert("payload".into(), payload);
    Value::Object(m)
}

/// The OpenAPI document's schema as an AsyncAPI schema: the same JSON Schema, but AsyncAPI's
/// `discriminator` is the property's name where OpenAPI's is an object.
fn asyncapi_schema(mut schema: Value) -> Value {
    rewrite(&mut schema);
    schema
}

fn rewrite(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(d)) = map.get("discriminator")
                && let Some(name) = d.get("propertyName").cloned()
            {
                map.insert("discriminator".into(), name);
            }
            map.values_mut().for_each(rewrite);
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite),
        _ => {}
    }
}
