//! Deliveries the platform makes to an app's endpoint (webhook events, interactions): what a
//! spec says of one, and how its body becomes a typed event and back.
//!
//! A [`Hook`] is the spec's description, written by the generator as a constant: the envelope
//! (the members that name the event, hold its data, its id and timestamp, and the value that
//! marks the platform's ping), how deliveries are signed, how fresh one must be, what the app
//! answers and how the platform tries again. A generated union of the hook's events implements
//! [`HookEvent`]: an arm per event the spec names, and one that keeps any other as it came.
//!
//! Reading needs nothing but `serde_json`; checking signatures is the `webhooks` module's
//! (feature `webhooks`).

use serde_json::Value;
use std::time::Duration;

/// How deliveries are signed, with the headers that carry it (names in lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Ed25519 over the timestamp header's value followed by the body; the signature in hex.
    Ed25519 {
        /// The header holding the signature.
        signature: &'static str,
        /// The header holding the timestamp.
        timestamp: &'static str,
    },
    /// Standard Webhooks: signatures of `{id}.{timestamp}.{body}`, several allowed.
    Standard {
        /// The header holding the delivery's id.
        id: &'static str,
        /// The header holding the timestamp, in seconds since the epoch.
        timestamp: &'static str,
        /// The header holding the signatures.
        signature: &'static str,
    },
}

impl Scheme {
    /// Standard Webhooks with its own header names.
    pub const STANDARD: Scheme = Scheme::Standard { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" };
}

/// A member of a JSON object, written as the path of names that leads to it (`["event",
/// "type"]` is `body.event.type`).
pub type Member = &'static [&'static str];

/// Where an envelope keeps what a delivery says of itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The member naming the event: a string, or an integer where `numbered`.
    pub kind: Member,
    /// Whether the event is named by a number.
    pub numbered: bool,
    /// The member holding the event's data; the whole body when `None`.
    pub data: Option<Member>,
    /// The member holding the delivery's id.
    pub id: Option<Member>,
    /// The member holding when the event happened.
    pub timestamp: Option<Member>,
}

/// The platform's ping: how it is told apart, and what the app answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ping {
    /// The member that marks it.
    pub member: Member,
    /// The member's value, as JSON text (`1`, `"PING"`).
    pub value: &'static str,
    /// The status answered.
    pub status: u16,
    /// The body answered, as JSON text, if any.
    pub answer: Option<&'static str>,
}

/// How often and how long the platform tries a delivery the app did not acknowledge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Tries in all, the first included.
    pub attempts: u32,
    /// The wait before the first retry; each next one doubles it.
    pub initial: Duration,
    /// The longest wait, an app's `Retry-After` included.
    pub max: Duration,
}

/// A kind of delivery, as the spec describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hook {
    /// The spec's id of it.
    pub id: &'static str,
    /// Its envelope.
    pub envelope: Envelope,
    /// How it is signed; `None` when it is not.
    pub scheme: Option<Scheme>,
    /// How far from now a delivery's timestamp may be.
    pub tolerance: Option<Duration>,
    /// The platform's ping, where it has one.
    pub ping: Option<Ping>,
    /// The status an app answers an event with.
    pub ack_status: u16,
    /// How long the platform waits for that answer.
    pub ack_deadline: Option<Duration>,
    /// How the platform tries again.
    pub schedule: Schedule,
}

/// An event a hook carries: the generated union of the spec's events implements it.
pub trait HookEvent: Sized {
    /// The event named `name` (a number written in decimal when the hook numbers its events),
    /// from its data. An event the spec does not name is kept as it came; only data that does
    /// not have the named event's shape is an error.
    fn from_data(name: &str, data: Value) -> Result<Self, String>;

    /// Its name as the envelope writes it, and its data.
    fn to_data(&self) -> Result<(String, Value), String>;
}

/// What a delivery holds: the platform's ping, which the receiver answers itself, or an event
/// for the app's handler.
#[derive(Clone, Debug, PartialEq)]
pub enum Delivery<E> {
    /// The platform checks that the endpoint answers.
    Ping,
    /// An event.
    Event(Received<E>),
}

/// An event as delivered, with what its envelope says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Received<E> {
    /// The event.
    pub event: E,
    /// The delivery's id: the scheme's header, else the envelope's member.
    pub id: Option<String>,
    /// The envelope's timestamp member, as written.
    pub timestamp: Option<Value>,
}

/// The member at `path`, if every step is an object that has it.
fn member(body: &Value, path: Member) -> Option<&Value> {
    path.iter().try_fold(body, |v, name| v.as_object()?.get(*name))
}

/// Reads a delivery's body (already verified): the ping, or the event its envelope names.
/// Errors say what is wrong, for a `400`.
pub fn read<E: HookEvent>(hook: &Hook, body: &[u8]) -> Result<Delivery<E>, String> {
    let mut body: Value = serde_json::from_slice(body).map_err(|e| format!("the body is not JSON: {e}"))?;
    if let Some(ping) = &hook.ping
        && let Some(found) = member(&body, ping.member)
        && serde_json::from_str::<Value>(ping.value).is_ok_and(|value| *found == value)
    {
        return Ok(Delivery::Ping);
    }
    let envelope = &hook.envelope;
    let name = match member(&body, envelope.kind) {
        Some(Value::String(s)) if !envelope.numbered => s.clone(),
        Some(Value::Number(n)) if envelope.numbered && n.is_i64() => n.to_string(),
        _ => {
            let what = if envelope.numbered { "an integer" } else { "a string" };
            return Err(format!("`{}` is not {what}", envelope.kind.join(".")));
        }
    };
    let id = envelope.id.and_then(|m| member(&body, m)).and_then(|v| v.as_str().map(str::to_owned).or_else(|| v.as_i64().map(|n| n.to_string())));
    let timestamp = envelope.timestamp.and_then(|m| member(&body, m)).cloned();
    let data = match envelope.data {
        Some(path) => take(&mut body, path).ok_or_else(|| format!("`{}` is missing", path.join(".")))?,
        None => body,
    };
    let event = E::from_data(&name, data).map_err(|e| format!("the event `{name}` does not read: {e}"))?;
    Ok(Delivery::Event(Received { event, id, timestamp }))
}

/// Takes the member at `path` out of `body`.
fn take(body: &mut Value, path: Member) -> Option<Value> {
    let (last, parents) = path.split_last()?;
    let parent = parents.iter().try_fold(body, |v, name| v.as_object_mut()?.get_mut(*name))?;
    parent.as_object_mut()?.remove(*last)
}

/// Writes a delivery's body: the event in the hook's envelope, with `id` and `timestamp` where
/// it has members for them. With no data member, the event's data is the body and must be an
/// object.
pub fn write<E: HookEvent>(hook: &Hook, event: &E, id: &str, timestamp: Value) -> Result<Vec<u8>, String> {
    let envelope = &hook.envelope;
    let (name, data) = event.to_data()?;
    let name = if envelope.numbered { name.parse::<i64>().map(Value::from).map_err(|_| format!("`{name}` is not a number"))? } else { Value::String(name) };
    let mut body = match envelope.data {
        Some(path) => {
            let mut body = Value::Object(serde_json::Map::new());
            put(&mut body, path, data)?;
            body
        }
        None if data.is_object() => data,
        None => return Err("the event's data is the body, and is not an object".to_owned()),
    };
    put(&mut body, envelope.kind, name)?;
    if let Some(path) = envelope.id {
        put(&mut body, path, Value::String(id.to_owned()))?;
    }
    if let Some(path) = envelope.timestamp {
        put(&mut body, path, timestamp)?;
    }
    serde_json::to_vec(&body).map_err(|e| e.to_string())
}

/// Puts `value` at `path`, making the objects on the way.
pub fn put(body: &mut Value, path: Member, value: Value) -> Result<(), String> {
    let (last, parents) = path.split_last().ok_or("an empty member path")?;
    let mut at = body;
    for name in parents {
        let object = at.as_object_mut().ok_or_else(|| format!("`{name}` is inside something that is not an object"))?;
        at = object.entry(*name).or_insert_with(|| Value::Object(serde_json::Map::new()));
    }
    at.as_object_mut().ok_or_else(|| format!("`{last}` is inside something that is not an object"))?.insert((*last).to_owned(), value);
    Ok(())
}
