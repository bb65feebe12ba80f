//! The document's `webhooks` (OpenAPI 3.1): each entry's `post` is a delivery to an app, and
//! becomes an event of channel `webhook` whose fields are the delivery's body.
//!
//! A document this generator exported carries each webhook as the spec says it (`x-webhook`:
//! envelope, signatures, ping, acknowledgement, retries; `x-event-name`): those are read back
//! whole, and an event's fields are its data inside the envelope. Any other document says
//! nothing of envelopes or signatures in a form the spec format reads: its entries become the
//! events of one webhook whose envelope and verification are declared not shown, each event
//! named by its entry's key, its fields the whole body. What a delivery says beyond its body
//! and its acknowledging status (header parameters, other answers) is reported.

use super::document::escape;
use super::spec::{self, Event, Gap, Meta, Webhook};
use super::{Importer, Site};
use crate::diag::{Diagnostics, codes};
use indexmap::IndexMap;
use serde_json::{Map, Value};

/// The file webhooks are written to.
const FILE: &str = "webhooks.yaml";

/// Facet names a webhook's `not_shown` may use, as the importer writes them.
const FACETS: &[&str] = &["envelope", "verification", "events", "ping", "retry", "ack_deadline", "details"];

impl Importer<'_> {
    /// Every entry of `webhooks`.
    pub(super) fn webhooks(&mut self, cx: &mut Diagnostics) {
        let Some(entries) = self.root().get("webhooks").and_then(Value::as_object).cloned() else { return };
        let mut hooks: IndexMap<String, Webhook> = IndexMap::new();
        for (key, item) in &entries {
            let Some((pointer, item)) = self.path_item(cx, format!("/webhooks/{}", escape(key)), item) else { continue };
            let Some(obj) = item.as_object() else { continue };
            for other in obj.keys().filter(|k| !["post", "summary", "description"].contains(&k.as_str())) {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{pointer}/{}", escape(other)),
                    "details",
                    &format!("`{other}` of a webhook"),
                    "a delivery to an app is a `post`",
                );
                self.foreign(&mut hooks).meta.not_shown.push(gap);
            }
            let Some(op) = obj.get("post") else { continue };
            let at = format!("{pointer}/post");
            match own_extension(op) {
                Some(ext) => self.exported(cx, key, op, &at, ext, &mut hooks),
                None => self.delivery(cx, key, op, &at, &mut hooks),
            }
        }
        let file = self.file(FILE);
        file.webhooks.extend(hooks.into_values().filter(|w| !w.events.is_empty() || w.envelope.is_some()));
    }

    /// The one webhook of a document's own deliveries, made on first use.
    fn foreign<'h>(&mut self, hooks: &'h mut IndexMap<String, Webhook>) -> &'h mut Webhook {
        if !hooks.contains_key("") {
            let id = self.claim("webhook", "webhooks");
            let not_shown = ["envelope", "verification"]
                .into_iter()
                .map(|facet| Gap { facet, detail: format!("the document does not say the deliveries' {facet} in a form the spec format reads") })
                .collect();
            let meta = Meta {
                id,
                name: Some("Webhooks".to_owned()),
                description: Some("The deliveries the document declares under `webhooks`.".to_owned()),
                not_shown,
                ..Default::default()
            };
            hooks.insert(String::new(), Webhook { meta, ..Default::default() });
        }
        &mut hooks[""]
    }

    /// An entry of another document: an event whose fields are the body.
    fn delivery(&mut self, cx: &mut Diagnostics, key: &str, op: &Value, at: &str, hooks: &mut IndexMap<String, Webhook>) {
        let mut event = self.event(key, op);
        let body = op.pointer("/requestBody/content/application~1json/schema").cloned();
        match body {
            Some(schema) => {
                event.fields = self.payload(cx, &schema, &format!("{at}/requestBody/content/application~1json/schema"), &[], &mut event.meta.not_shown)
            }
            None => {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    at,
                    "payload",
                    "a delivery without a JSON body",
                    "a webhook event's payload is the JSON of its delivery",
                );
                event.meta.not_shown.push(gap);
            }
        }
        let mut gaps = self.delivery_leftovers(cx, op, at, None);
        let ack = acknowledgement(op);
        let hook = self.foreign(hooks);
        if let Some((status, _)) = ack {
            hook.ack_status = Some(status);
        }
        hook.meta.not_shown.append(&mut gaps);
        hook.events.insert(key.to_owned(), event.meta.id.clone());
        self.file(FILE).events.push(event);
    }

    /// An entry this generator exported: the webhook from `x-webhook`, the event from the body.
    fn exported(&mut self, cx: &mut Diagnostics, key: &str, op: &Value, at: &str, ext: Extension, hooks: &mut IndexMap<String, Webhook>) {
        let name = op.get("x-event-name").and_then(Value::as_str).map(str::to_owned);
        let key_of = ext.id.clone();
        if !hooks.contains_key(&key_of) {
            let id = self.claim("webhook", &key_of);
            let mut hook = ext.webhook(id);
            hook.meta.part = self.tag_part(op);
            hooks.insert(key_of.clone(), hook);
        }
        let Some(name) = name.filter(|n| !n.is_empty()) else {
            // A ping is the webhook's own, already read.
            let ping = hooks[&key_of].ping.is_some() && op.get("operationId").and_then(Value::as_str).is_some_and(|o| o.ends_with(".ping"));
            if !ping {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    at,
                    "events",
                    "a delivery of `x-webhook` without `x-event-name`",
                    "an event is delivered under the name the envelope gives it",
                );
                hooks[&key_of].meta.not_shown.push(gap);
            }
            return;
        };
        if hooks[&key_of].events.contains_key(&name) {
            let gap = self.unmapped(cx, codes::IMPORT_UNMAPPED, at, "events", &format!("a second event named `{name}`"), "a webhook names each event once");
            hooks[&key_of].meta.not_shown.push(gap);
            return;
        }
        // An event two webhooks carry is exported under `<webhook>.<event>`, once per webhook.
        let own = key.rsplit_once('.').map_or(key, |(_, event)| event);
        if let Some(id) = self.file(FILE).events.iter().find(|e| e.meta.id == own).map(|e| e.meta.id.clone()) {
            hooks[&key_of].events.insert(name, id);
            return;
        }
        let mut event = self.event(own, op);
        let hook = &hooks[&key_of];
        let envelope = hook.envelope.as_ref();
        let schema_at = format!("{at}/requestBody/content/application~1json/schema");
        let data = envelope.and_then(|e| e.data.as_deref());
        // Where the body is the event, the member naming it is the envelope's, and so are the
        // others the export wrote with no schema (a field that is the id keeps its own). A
        // member the envelope names by a path (`meta.type`) is the path's first member.
        let placeholder =
            |member: &str| self.doc.at(&format!("{schema_at}/properties/{}", escape(member))).is_some_and(|s| s.as_object().is_some_and(Map::is_empty));
        let members: Vec<&str> = envelope
            .iter()
            .flat_map(|e| [Some(e.kind.as_str()), e.id.as_deref(), e.timestamp.as_deref(), e.version.as_deref()])
            .flatten()
            .map(|path| path.split('.').next().unwrap_or(path))
            .enumerate()
            .filter(|(i, m)| *i == 0 || placeholder(m))
            .map(|(_, m)| m)
            .collect();
        let (schema, pointer, leave) = match data {
            Some(path) => {
                let pointer = path.split('.').fold(schema_at.clone(), |p, name| format!("{p}/properties/{}", escape(name)));
                (self.doc.at(&pointer).cloned(), pointer, Vec::new())
            }
            None => (self.doc.at(&schema_at).cloned(), schema_at.clone(), members),
        };
        let payload_not_shown = |s: &Value| s.get("x-not-shown").and_then(Value::as_array).is_some_and(|gaps| gaps.iter().any(|g| g["facet"] == "payload"));
        match schema.filter(|s| !payload_not_shown(s) && s.get("properties").is_some()) {
            Some(schema) => event.fields = self.payload(cx, &schema, &pointer, &leave, &mut event.meta.not_shown),
            None => event.meta.not_shown.push(Gap { facet: "payload", detail: "the document does not show the event's data".to_owned() }),
        }
        let mut gaps = self.delivery_leftovers(cx, op, at, Some(hook));
        let hook = hooks.get_mut(&key_of).expect("BUG: inserted above");
        hook.meta.not_shown.append(&mut gaps);
        hook.events.insert(name, event.meta.id.clone());
        self.file(FILE).events.push(event);
    }

    /// The event of a delivery: named after its key, described by its operation.
    fn event(&mut self, key: &str, op: &Value) -> Event {
        let id = self.claim("event", key);
        let text = |k: &str| op.get(k).and_then(Value::as_str).map(str::to_owned);
        let part = self.tag_part(op);
        let meta = Meta { id, name: text("summary").filter(|s| !s.trim().is_empty()), description: text("description"), part, ..Default::default() };
        Event { meta, channel: "webhook".to_owned(), fields: IndexMap::new() }
    }

    /// The part an operation's first tag names.
    fn tag_part(&self, op: &Value) -> Option<String> {
        let tag = op.get("tags").and_then(Value::as_array).and_then(|t| t.first()).and_then(Value::as_str)?;
        self.part_ids.get(tag).cloned()
    }

    /// The fields of a delivery's body: the members of its object schema, less `leave` (the
    /// envelope's own members, where the body is the event).
    fn payload(&mut self, cx: &mut Diagnostics, schema: &Value, pointer: &str, leave: &[&str], gaps: &mut Vec<Gap>) -> IndexMap<String, spec::Field> {
        let resolved = self.resolved(schema).clone();
        let Some(props) = resolved.get("properties").and_then(Value::as_object) else {
            gaps.push(self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                pointer,
                "payload",
                "a delivery body that is not an object of properties",
                "a webhook event's payload is the fields of an object",
            ));
            return IndexMap::new();
        };
        let required: Vec<&str> = resolved.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let base = match schema.get("$ref").and_then(Value::as_str).and_then(|r| self.resolve_ref(cx, r, &format!("{pointer}/$ref"))) {
            Some(target) => target,
            None => pointer.to_owned(),
        };
        let site = Site::new(FILE, "webhook");
        let mut out = IndexMap::new();
        for (name, member) in props.iter().filter(|(n, _)| !leave.contains(&n.as_str())) {
            let f = self.member_field(cx, member, &format!("{base}/properties/{}", escape(name)), &site.child(name), required.contains(&name.as_str()));
            out.insert(name.clone(), f);
        }
        out
    }

    /// What a delivery's operation says that the spec does not carry: header parameters other
    /// than the known webhook's signature headers, and answers other than its acknowledgement,
    /// `400` and `401`.
    fn delivery_leftovers(&mut self, cx: &mut Diagnostics, op: &Value, at: &str, hook: Option<&Webhook>) -> Vec<Gap> {
        let mut gaps = Vec::new();
        let signature = |name: &str| {
            hook.and_then(|h| h.verification.as_ref()).is_some_and(|v| {
                [&v.signature_header, &v.timestamp_header, &v.id_header].into_iter().flatten().any(|h| h.eq_ignore_ascii_case(name))
                    || v.scheme == "standard" && name.starts_with("webhook-")
            })
        };
        for (i, p) in op.get("parameters").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
            if !signature(name) {
                gaps.push(self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{at}/parameters/{i}"),
                    "details",
                    &format!("the delivery parameter `{name}`"),
                    "a delivery carries its body and its signature headers",
                ));
            }
        }
        let ack = acknowledgement(op).map(|(s, _)| s.to_string());
        let ping = hook.and_then(|h| h.ping.as_ref()).map(|p| p.status.unwrap_or(if p.answer.is_some() { 200 } else { 204 }).to_string());
        for status in op.get("responses").and_then(Value::as_object).into_iter().flat_map(|r| r.keys()) {
            // `2XX`: any success, which is what a webhook without an acknowledging status says.
            let known = status.eq_ignore_ascii_case("2XX")
                || Some(status) == ack.as_ref()
                || Some(status) == ping.as_ref()
                || (hook.is_some() && ["400", "401"].contains(&status.as_str()));
            if !known {
                gaps.push(self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{at}/responses/{}", escape(status)),
                    "details",
                    &format!("the app's answer `{status}`"),
                    "an app acknowledges a delivery with one success status",
                ));
            }
        }
        gaps
    }
}

/// The one success status an app answers with, when the operation gives exactly one.
fn acknowledgement(op: &Value) -> Option<(u16, ())> {
    let successes: Vec<u16> =
        op.get("responses").and_then(Value::as_object)?.keys().filter_map(|k| k.parse().ok()).filter(|s| (200..300).contains(s)).collect();
    match successes.as_slice() {
        [one] => Some((*one, ())),
        _ => None,
    }
}

/// `x-webhook` as this generator writes it.
#[derive(serde::Deserialize)]
struct Extension {
    id: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    notes: Vec<String>,
    #[serde(default)]
    not_shown: Vec<ExtensionGap>,
    #[serde(default)]
    envelope: Option<spec::WebhookEnvelope>,
    #[serde(default)]
    verification: Option<spec::WebhookVerification>,
    #[serde(default)]
    ping: Option<spec::WebhookPing>,
    #[serde(default)]
    ack_status: Option<u16>,
    #[serde(default)]
    ack_seconds: Option<f64>,
    #[serde(default)]
    retry: Option<spec::WebhookRetry>,
}

#[derive(serde::Deserialize)]
struct ExtensionGap {
    facet: String,
    #[serde(default)]
    detail: Option<String>,
}

impl Extension {
    fn webhook(self, id: String) -> Webhook {
        let not_shown = self
            .not_shown
            .into_iter()
            .filter_map(|g| {
                let facet = FACETS.iter().find(|f| **f == g.facet)?;
                Some(Gap { facet, detail: g.detail.unwrap_or_default() })
            })
            .collect();
        let meta = Meta { id, name: self.name, description: self.description, notes: self.notes, not_shown, ..Default::default() };
        Webhook {
            meta,
            envelope: self.envelope,
            verification: self.verification,
            ping: self.ping,
            ack_status: self.ack_status,
            ack_seconds: self.ack_seconds,
            retry: self.retry.map(|mut r| {
                // Gaps of facets the format does not know would make the spec invalid (E0116).
                r.not_shown.retain(|g| g.get("facet").and_then(Value::as_str).is_some_and(|f| crate::validate::FACETS.contains(&f)));
                r
            }),
            events: IndexMap::new(),
        }
    }
}

/// The operation's `x-webhook`, when it reads as this generator's and says what a valid spec
/// can: anything else is read as another document's (whose envelope and signatures are not
/// shown), so a hand-edited extension never makes an invalid spec.
fn own_extension(op: &Value) -> Option<Extension> {
    let ext: Extension = serde_json::from_value(op.get("x-webhook")?.clone()).ok()?;
    let name = op.get("x-event-name").and_then(Value::as_str);
    sound(&ext, name).then_some(ext)
}

/// A JSON value as an envelope names an event with it: text as is, a number in decimal.
fn wire_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// What E0177, E0113 and E0175 would refuse, checked before the extension is trusted.
fn sound(ext: &Extension, name: Option<&str>) -> bool {
    let shown = |facet: &str| ext.not_shown.iter().any(|g| g.facet == facet);
    let success = |s: u16| (200..300).contains(&s);
    let path_ok = |p: &str| !p.is_empty() && p.split('.').all(|s| !s.is_empty());
    let envelope = match &ext.envelope {
        Some(e) => {
            let numbered = e.repr.as_deref() == Some("integer");
            let paths: Vec<&str> =
                [Some(e.kind.as_str()), e.data.as_deref(), e.id.as_deref(), e.timestamp.as_deref(), e.version.as_deref()].into_iter().flatten().collect();
            let apart = paths.iter().enumerate().all(|(i, a)| paths[..i].iter().all(|b| !(a.starts_with(b) || b.starts_with(a))));
            let repr = e.repr.as_deref().is_none_or(|r| ["string", "integer"].contains(&r));
            let name = name.is_none_or(|n| !n.is_empty() && (!numbered || n.parse::<i64>().is_ok_and(|i| i.to_string() == n)));
            repr && name && apart && paths.iter().all(|p| path_ok(p))
        }
        None => shown("envelope"),
    };
    let verification = match &ext.verification {
        Some(v) => match v.scheme.as_str() {
            "ed25519" => v.signature_header.is_some() && v.timestamp_header.is_some() && v.id_header.is_none(),
            "standard" => true,
            "none" => v.signature_header.is_none() && v.timestamp_header.is_none() && v.id_header.is_none() && v.tolerance_seconds.is_none(),
            _ => false,
        },
        None => shown("verification"),
    } && ext.verification.as_ref().is_none_or(|v| v.tolerance_seconds != Some(0));
    let ping = ext
        .ping
        .as_ref()
        .is_none_or(|p| p.status.is_none_or(success) && p.member.as_deref().is_none_or(path_ok) && name.is_none_or(|n| wire_text(&p.value) != n));
    let policy = ext.ack_status.is_none_or(success)
        && ext.ack_seconds.is_none_or(|s| s.is_finite() && s >= 0.001)
        && ext.retry.as_ref().is_none_or(|r| r.attempts != Some(0));
    envelope && verification && ping && policy
}
