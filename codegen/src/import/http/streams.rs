//! Streamed responses: `text/event-stream` (server-sent events) and JSON Lines by the names in
//! use (`application/jsonl`, `application/x-ndjson`, ...). The type of a message comes from the
//! media type's `itemSchema` (OpenAPI 3.2) or its `schema`:
//!
//! - a JSON Lines `schema` that is an array is the whole stream (OpenAPI 3.2): its items are
//!   the lines; any other is one line, as documents before 3.2 write it;
//! - a server-sent event described as the object of its fields (`event`, `data`, `id`,
//!   `retry`, as OpenAPI 3.2 does) gives the type of its `data` (`contentSchema`, or text);
//!   `oneOf` such objects, each with its `event` constant, are events by name;
//! - any other schema is the JSON each message's data holds, as most documents mean it, and a
//!   note says the import read it so.

use super::{Endpoint, Field, Importer, Response, Site};
use crate::diag::Diagnostics;
use crate::import::spec::ResponseUse;
use indexmap::IndexMap;
use serde_json::{Value, json};

/// The framing of a stream's media type, when it is one.
pub(super) fn framing(media: &str) -> Option<&'static str> {
    let base = media.split(';').next().unwrap_or(media).trim().to_ascii_lowercase();
    match base.as_str() {
        "text/event-stream" => Some("events"),
        "application/jsonl" | "application/x-jsonlines" | "application/jsonlines" | "application/x-ndjson" | "application/ndjson" => Some("json_lines"),
        _ => None,
    }
}

/// The members of an event object OpenAPI 3.2 names.
const EVENT_MEMBERS: &[&str] = &["event", "data", "id", "retry"];

/// An event described as the object of its fields: its name when its `event` is a constant, and
/// the schema of its data (`None`: the data is text).
fn event_object(schema: &Value) -> Option<(Option<String>, Option<Value>)> {
    let properties = schema.get("properties")?.as_object()?;
    let data = properties.get("data")?;
    if !properties.keys().all(|k| EVENT_MEMBERS.contains(&k.as_str())) {
        return None;
    }
    let event = properties.get("event");
    let name = event
        .and_then(|e| e.get("const"))
        .or_else(|| event.and_then(|e| e.get("enum")).and_then(Value::as_array).filter(|a| a.len() == 1).and_then(|a| a.first()));
    let name = name.and_then(Value::as_str).map(str::to_owned);
    let data = match data.get("contentSchema") {
        Some(schema) => Some(schema.clone()),
        None if data.get("type").and_then(Value::as_str) == Some("string") => None,
        None => Some(data.clone()),
    };
    Some((name, data))
}

impl Importer<'_> {
    /// A streamed response: its framing, media type when it is not the framing's usual one, and
    /// the type of its messages.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn stream_body(&mut self, cx: &mut Diagnostics, framing: &'static str, media: &str, m: &Value, pointer: &str, site: &Site, out: &mut Response) {
        out.format = Some(framing);
        let base = media.split(';').next().unwrap_or(media).trim().to_ascii_lowercase();
        if !["text/event-stream", "application/jsonl"].contains(&base.as_str()) {
            out.media_type = Some(media.to_owned());
        }
        let mut rest = m.clone();
        if let Some(obj) = rest.as_object_mut() {
            obj.remove("itemSchema");
        }
        self.media_leftovers(cx, &rest, pointer, &mut out.not_shown, false);
        let (schema, at, item) = match (m.get("itemSchema"), m.get("schema")) {
            (Some(item), _) => (item.clone(), format!("{pointer}/itemSchema"), true),
            (None, Some(schema)) => (schema.clone(), format!("{pointer}/schema"), false),
            (None, None) => (json!({}), pointer.to_owned(), false),
        };
        if framing == "json_lines" {
            let whole = self.resolved(&schema).clone();
            let (line, at) = match whole.get("items") {
                Some(items) if !item && whole.get("type").and_then(Value::as_str) == Some("array") => (items.clone(), format!("{at}/items")),
                _ => (schema, at),
            };
            out.ty = Some(self.message_type(cx, Some(&line), &at, site, out));
            return;
        }
        let resolved = self.resolved(&schema).clone();
        let alternatives = resolved.get("oneOf").or_else(|| resolved.get("anyOf")).and_then(Value::as_array).cloned().unwrap_or_default();
        let named: Vec<(String, Option<Value>)> =
            alternatives.iter().filter_map(|a| event_object(self.resolved(a))).filter_map(|(name, data)| Some((name?, data))).collect();
        if !alternatives.is_empty() && named.len() == alternatives.len() {
            let mut events = IndexMap::new();
            for (i, (name, data)) in named.into_iter().enumerate() {
                let at = format!("{at}/{}/{i}/properties/data", if resolved.get("oneOf").is_some() { "oneOf" } else { "anyOf" });
                let ty = self.message_type(cx, data.as_ref(), &at, &site.child(&name), out);
                events.insert(name, ty);
            }
            out.events = events;
            return;
        }
        if let Some((_, data)) = event_object(&resolved) {
            out.ty = Some(self.message_type(cx, data.as_ref(), &format!("{at}/properties/data"), site, out));
            return;
        }
        out.notes.push(format!("Each event's data is JSON of the schema at `#{at}`, as the document gives it for the stream."));
        out.ty = Some(self.message_type(cx, Some(&schema), &at, site, out));
    }

    /// The type of a message's data: text without a schema, the schema's type otherwise.
    fn message_type(&mut self, cx: &mut Diagnostics, schema: Option<&Value>, pointer: &str, site: &Site, out: &mut Response) -> String {
        let Some(schema) = schema else { return "string".to_owned() };
        let f: Field = self.field(cx, schema, pointer, site);
        out.not_shown.extend(f.not_shown);
        out.notes.extend(f.notes);
        let ty = f.ty.unwrap_or_else(|| "json".to_owned());
        if f.nullable && ty != "json" && ty != "null" { format!("{ty} | null") } else { ty }
    }
}

/// The header parameter that carries the last event id of an endpoint's events stream: an
/// optional text header named `Last-Event-ID`, as server-sent events name it.
pub(super) fn last_event_id(e: &Endpoint) -> Option<String> {
    let streams = e.responses.values().any(|r| matches!(r, ResponseUse::Inline(r) if r.format == Some("events")));
    if !streams {
        return None;
    }
    let header = e.headers.iter().find(|(name, f)| f.wire_name.as_deref().unwrap_or(name).eq_ignore_ascii_case("last-event-id"));
    header.filter(|(_, f)| f.optional && f.ty.as_deref() == Some("string")).map(|(name, _)| name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_told_by_their_media_types() {
        assert_eq!(framing("text/event-stream; charset=utf-8"), Some("events"));
        assert_eq!(framing("application/x-ndjson"), Some("json_lines"));
        assert_eq!(framing("application/json"), None);
    }

    #[test]
    fn an_event_object_gives_its_name_and_data() {
        let named = json!({ "properties": { "event": { "const": "done" }, "data": { "contentSchema": { "type": "integer" } } } });
        assert_eq!(event_object(&named), Some((Some("done".to_owned()), Some(json!({ "type": "integer" })))));
        let text = json!({ "properties": { "data": { "type": "string" }, "id": {} } });
        assert_eq!(event_object(&text), Some((None, None)));
        assert_eq!(event_object(&json!({ "properties": { "data": {}, "other": {} } })), None);
    }
}
