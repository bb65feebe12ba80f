//! A session protocol over WebSocket (a gateway of real-time events): what a spec says of one,
//! and its frames.
//!
//! A [`Protocol`] is the spec's description, written by the generator as a constant: the members
//! of a frame's envelope, the opcode of each role, where the hello gives the heartbeat interval
//! and the ready event the session and the address to resume at, every close code with what a
//! client does after it, the send limit and the identify limit. The session client (`shard`,
//! feature `gateway-client`) and the server side (`hub`, feature `gateway-server`) both read it,
//! so the two sides cannot disagree.
//!
//! A generated union of the protocol's dispatch events implements [`GatewayEvent`]: an arm per
//! event the spec names, and one that keeps any other with its raw payload.

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::fmt;
use std::time::Duration;

/// A member of a JSON object, written as the path of names that leads to it.
pub type Member = &'static [&'static str];

/// The members of a frame: `{"op": 0, "d": {...}, "s": 42, "t": "MESSAGE_CREATE"}` in Discord's
/// words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The opcode.
    pub opcode: &'static str,
    /// The payload.
    pub data: &'static str,
    /// A dispatch's sequence number.
    pub sequence: &'static str,
    /// A dispatch's event name.
    pub event: &'static str,
}

/// The opcode of each role the session machinery plays itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opcodes {
    /// The server dispatches an event (with sequence and name).
    pub dispatch: u8,
    /// A heartbeat, either way: the client's beat, or the server asking for one now.
    pub heartbeat: u8,
    /// The server acknowledges a heartbeat.
    pub heartbeat_ack: u8,
    /// The server's first frame, with the heartbeat interval.
    pub hello: u8,
    /// The client starts a new session.
    pub identify: u8,
    /// The client resumes a session.
    pub resume: u8,
    /// The server asks the client to reconnect and resume.
    pub reconnect: Option<u8>,
    /// The server says the session is invalid; its payload says whether it may be resumed.
    pub invalid_session: Option<u8>,
}

/// What a client does after the server closes with a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Reconnect and resume the session.
    Resume,
    /// Reconnect and start a new session.
    Reidentify,
    /// Stop: reconnecting cannot help.
    Fatal,
}

/// Why the server closes a connection, where the protocol gives a code for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// Something the server did not expect.
    Unknown,
    /// An opcode it does not take from a client.
    UnknownOpcode,
    /// A frame or payload it could not read.
    DecodeError,
    /// A command before identify.
    NotAuthenticated,
    /// A token it refused.
    AuthenticationFailed,
    /// A second identify.
    AlreadyAuthenticated,
    /// A resume with a sequence it no longer has.
    InvalidSequence,
    /// Over the send limit.
    RateLimited,
    /// No heartbeat in time.
    SessionTimedOut,
    /// A shard it refuses.
    InvalidShard,
    /// Too many guilds for one shard.
    ShardingRequired,
    /// An API version it does not serve.
    InvalidVersion,
    /// Intents it does not know.
    InvalidIntents,
    /// Intents the application may not use.
    DisallowedIntents,
}

/// A close code of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloseCode {
    /// The code.
    pub code: u16,
    /// Its name.
    pub name: &'static str,
    /// What a client does after it.
    pub policy: Policy,
    /// Why the server uses it, where the spec says.
    pub cause: Option<Cause>,
}

/// How many commands a client may send in a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendLimit {
    /// Commands per window, heartbeats included.
    pub commands: u32,
    /// The window.
    pub per: Duration,
}

/// How often sessions may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdentifyLimit {
    /// One identify per bucket in each such window; shard `n` is in bucket `n % max_concurrency`.
    pub per: Duration,
}

/// What the ready event says of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ready {
    /// The ready event's name.
    pub event: &'static str,
    /// The member holding the session's id.
    pub session_id: Member,
    /// The member holding the address to resume at, if the protocol gives one.
    pub resume_url: Option<Member>,
}

/// A resume's payload members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// The token.
    pub token: &'static str,
    /// The session's id.
    pub session_id: &'static str,
    /// The last sequence the client received.
    pub sequence: &'static str,
    /// The event the server dispatches once it has replayed what the client missed.
    pub resumed: Option<&'static str>,
}

/// Compression of the frames the server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// One zlib stream for the whole connection, each message ending in a sync flush.
    ZlibStream,
}

impl Compression {
    /// The query parameter's value that asks for it.
    pub fn value(self) -> &'static str {
        match self {
            Compression::ZlibStream => "zlib-stream",
        }
    }
}

/// A session protocol, as the spec describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Protocol {
    /// The spec's id of it.
    pub id: &'static str,
    /// Query parameters every connection carries (`v=10`, `encoding=json`).
    pub query: &'static [(&'static str, &'static str)],
    /// The query parameter naming a compression, and the compressions offered.
    pub compression: Option<(&'static str, &'static [Compression])>,
    /// The frame's members.
    pub envelope: Envelope,
    /// The opcode of each role.
    pub opcodes: Opcodes,
    /// The member of the hello's payload holding the heartbeat interval, in milliseconds.
    pub heartbeat_interval: Member,
    /// The identify payload's member holding the token.
    pub identify_token: Member,
    /// The ready event.
    pub ready: Ready,
    /// The resume.
    pub resume: Resume,
    /// Every close code.
    pub close_codes: &'static [CloseCode],
    /// The policy of a code the protocol does not list.
    pub unknown_close: Policy,
    /// The code a client closes with when it means to resume (any other than 1000 and 1001).
    pub resume_close: u16,
    /// The send limit.
    pub send_limit: Option<SendLimit>,
    /// The identify limit.
    pub identify_limit: IdentifyLimit,
}

impl Protocol {
    /// The policy of a code the server closed with.
    pub fn policy(&self, code: u16) -> Policy {
        match self.close_codes.iter().find(|c| c.code == code) {
            Some(c) => c.policy,
            // A normal closure ends the session (RFC 6455 1000/1001 from a server, as Discord reads
            // them); a code of neither list is the protocol's default.
            None if code == 1000 || code == 1001 => Policy::Reidentify,
            None => self.unknown_close,
        }
    }

    /// The code the server closes with for `cause`, if the protocol gives one.
    pub fn close_for(&self, cause: Cause) -> Option<&CloseCode> {
        self.close_codes.iter().find(|c| c.cause == Some(cause))
    }

    /// The close code named `code`.
    pub fn close_code(&self, code: u16) -> Option<&CloseCode> {
        self.close_codes.iter().find(|c| c.code == code)
    }
}

/// A frame as received: the payload kept raw until someone asks for it.
#[derive(Debug)]
pub struct Frame {
    /// The opcode.
    pub opcode: u8,
    /// The payload, as it came (`null` when absent).
    pub data: Box<RawValue>,
    /// A dispatch's sequence number.
    pub sequence: Option<u64>,
    /// A dispatch's event name.
    pub event: Option<String>,
}

/// What [`Frame::read_with`] does with a dispatch's payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// Keep it raw.
    Raw,
    /// Decode it as the event its frame names.
    Decode,
    /// Skip over it.
    Skip,
}

/// A frame read in one pass, a dispatch's payload decoded or skipped on the way.
#[derive(Debug)]
pub struct Read<E> {
    /// The opcode.
    pub opcode: u8,
    /// A dispatch's sequence number.
    pub sequence: Option<u64>,
    /// A dispatch's event name.
    pub event: Option<String>,
    /// The payload.
    pub data: Data<E>,
}

/// A payload as [`Frame::read_with`] left it.
#[derive(Debug)]
pub enum Data<E> {
    /// As it came (`null` when absent).
    Raw(Box<RawValue>),
    /// Decoded as the event its frame names.
    Event(E),
    /// Skipped over.
    Skipped,
}

impl Frame {
    /// Reads a frame with the envelope's member names, without a `Value` detour: the payload
    /// stays raw text, to be decoded only if someone wants it.
    pub fn read(envelope: &Envelope, text: &str) -> Result<Frame, serde_json::Error> {
        let read = Frame::read_with::<Box<RawValue>>(envelope, None, text, |_| Take::Raw)?;
        let data = match read.data {
            Data::Raw(raw) => raw,
            Data::Event(raw) => raw,
            Data::Skipped => null(),
        };
        Ok(Frame { opcode: read.opcode, data, sequence: read.sequence, event: read.event })
    }

    /// Reads a frame in one pass. The payload of a dispatch (opcode `dispatch`) is decoded as
    /// the event `E` on the way, or skipped, as `take` says for its name; that needs the envelope
    /// to give the opcode and the event name before the payload, as gateways write their frames.
    /// Any other payload, and a dispatch's whose name comes after it, is kept raw: then decoding
    /// it is the caller's, a second pass over the payload only.
    pub fn read_with<E: GatewayEvent>(
        envelope: &Envelope,
        dispatch: Option<u8>,
        text: &str,
        take: impl Fn(&str) -> Take,
    ) -> Result<Read<E>, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let read = FrameSeed { envelope, dispatch, take, event: std::marker::PhantomData }.deserialize(&mut de)?;
        de.end()?;
        Ok(read)
    }

    /// Writes a frame. `data` is JSON text. A dispatch's event name and sequence come first, so
    /// that a reader knows the event before its payload ([`Frame::read_with`]).
    pub fn write(envelope: &Envelope, opcode: u8, data: &str, sequence: Option<u64>, event: Option<&str>) -> String {
        let mut out = String::with_capacity(data.len() + 48);
        out.push('{');
        if let Some(t) = event {
            push_key(&mut out, envelope.event);
            out.push_str(&serde_json::to_string(t).unwrap_or_else(|_| "null".to_owned()));
            out.push(',');
        }
        if let Some(s) = sequence {
            push_key(&mut out, envelope.sequence);
            out.push_str(&s.to_string());
            out.push(',');
        }
        push_key(&mut out, envelope.opcode);
        out.push_str(&opcode.to_string());
        out.push(',');
        push_key(&mut out, envelope.data);
        out.push_str(data);
        out.push('}');
        out
    }
}

/// `"key":`. Envelope member names are the spec's, plain identifiers with nothing to escape.
fn push_key(out: &mut String, key: &str) {
    out.push('"');
    out.push_str(key);
    out.push_str("\":");
}

struct FrameSeed<'a, E, F> {
    envelope: &'a Envelope,
    dispatch: Option<u8>,
    take: F,
    event: std::marker::PhantomData<E>,
}

impl<'de, E: GatewayEvent, F: Fn(&str) -> Take> DeserializeSeed<'de> for FrameSeed<'_, E, F> {
    type Value = Read<E>;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Read<E>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, E: GatewayEvent, F: Fn(&str) -> Take> Visitor<'de> for FrameSeed<'_, E, F> {
    type Value = Read<E>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a frame: an object with `{}`", self.envelope.opcode)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Read<E>, A::Error> {
        let envelope = self.envelope;
        let (mut opcode, mut data, mut sequence, mut event) = (None, None, None, None::<String>);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let key = key.as_ref();
            if key == envelope.opcode {
                opcode = Some(map.next_value::<u8>()?);
            } else if key == envelope.data {
                let name = event.as_deref().filter(|_| opcode.is_some() && opcode == self.dispatch);
                data = Some(match name.map(|name| (name, (self.take)(name))) {
                    Some((name, Take::Decode)) => Data::Event(map.next_value_seed(EventSeed { name, event: std::marker::PhantomData })?),
                    Some((_, Take::Skip)) => {
                        map.next_value::<IgnoredAny>()?;
                        Data::Skipped
                    }
                    Some((_, Take::Raw)) | None => Data::Raw(map.next_value::<Box<RawValue>>()?),
                });
            } else if key == envelope.sequence {
                sequence = map.next_value::<Option<u64>>()?;
            } else if key == envelope.event {
                event = map.next_value::<Option<String>>()?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        let opcode = opcode.ok_or_else(|| de::Error::missing_field(envelope.opcode))?;
        let data = data.unwrap_or_else(|| Data::Raw(null()));
        Ok(Read { opcode, data, sequence, event })
    }
}

/// A dispatch's payload, decoded as the event named `name`.
struct EventSeed<'a, E> {
    name: &'a str,
    event: std::marker::PhantomData<E>,
}

impl<'de, E: GatewayEvent> DeserializeSeed<'de> for EventSeed<'_, E> {
    type Value = E;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<E, D::Error> {
        E::decode_from(self.name, deserializer)
    }
}

/// The JSON `null`, raw.
pub fn null() -> Box<RawValue> {
    RawValue::from_string("null".to_owned()).expect("null is JSON")
}

/// The member at `path` of `value`.
pub fn member(value: &serde_json::Value, path: Member) -> Option<&serde_json::Value> {
    path.iter().try_fold(value, |v, name| v.as_object()?.get(*name))
}

/// Sets the member at `path` of `value`, making the objects on the way.
pub fn put(value: &mut serde_json::Value, path: Member, new: serde_json::Value) {
    let Some((last, parents)) = path.split_last() else { return };
    let mut at = value;
    for name in parents {
        if !at.is_object() {
            *at = serde_json::Value::Object(serde_json::Map::new());
        }
        at = at.as_object_mut().expect("made an object").entry(*name).or_insert(serde_json::Value::Null);
    }
    if !at.is_object() {
        *at = serde_json::Value::Object(serde_json::Map::new());
    }
    at.as_object_mut().expect("made an object").insert((*last).to_owned(), new);
}

/// A dispatch event of a protocol: the generated union of the spec's events implements it.
pub trait GatewayEvent: Sized {
    /// The event named `name`, decoded from its payload as it is read. An event the spec does
    /// not name is kept with its raw payload; only a payload that does not have the named
    /// event's shape is an error.
    fn decode_from<'de, D: de::Deserializer<'de>>(name: &str, data: D) -> Result<Self, D::Error>;

    /// The event named `name` from its raw payload.
    fn decode(name: &str, data: &RawValue) -> Result<Self, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(data.get());
        let event = Self::decode_from(name, &mut de)?;
        de.end()?;
        Ok(event)
    }

    /// Its name and payload, to dispatch it.
    fn encode(&self) -> Result<(String, Box<RawValue>), serde_json::Error>;
}

/// Any payload, for callers who want none decoded.
impl GatewayEvent for Box<RawValue> {
    fn decode_from<'de, D: de::Deserializer<'de>>(_: &str, data: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(data)
    }

    fn encode(&self) -> Result<(String, Box<RawValue>), serde_json::Error> {
        Err(de::Error::custom("a raw payload has no name"))
    }
}

/// A command a client sends: the generated commands implement it.
pub trait Command: Serialize {
    /// Its opcode.
    const OPCODE: u8;
    /// The event the server replies with, if it replies.
    const REPLY: Option<&'static str> = None;

    /// Every constraint of the spec the command breaks: a shard sends none that breaks one.
    fn violations(&self) -> Vec<crate::validation::Violation> {
        Vec::new()
    }
}

/// Checks a command's payload as a server receives it: `None` for an opcode that is no command
/// of the protocol, else every violation (a payload that does not decode is one, at its root).
/// The generated gateways provide one (`check_<gateway>`).
pub type CommandCheck = fn(u8, &RawValue) -> Option<Vec<crate::validation::Violation>>;

/// A session as the client holds it between connections: serialize it so that a restarted
/// process resumes instead of starting over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The session's id.
    pub id: String,
    /// The last sequence received.
    pub sequence: u64,
    /// Where to resume it.
    pub resume_url: Option<String>,
}

/// The heartbeat interval a hello's payload gives, in milliseconds.
pub fn heartbeat_interval(protocol: &Protocol, hello: &RawValue) -> Option<Duration> {
    let value: serde_json::Value = serde_json::from_str(hello.get()).ok()?;
    member(&value, protocol.heartbeat_interval)?.as_u64().filter(|&ms| ms > 0).map(Duration::from_millis)
}

/// The URL of a connection: `base` with the protocol's query and, if asked, its compression.
pub fn url(protocol: &Protocol, base: &str, compression: Option<Compression>) -> String {
    let mut url = base.trim_end_matches('?').to_owned();
    // `wss://host` has an empty path, which a request line cannot carry: the root it means.
    let authority = url.find("://").map_or(0, |i| i + 3);
    if !url[authority..].contains(['/', '?']) {
        url.push('/');
    }
    let mut sep = if url.contains('?') { '&' } else { '?' };
    let compression = compression.zip(protocol.compression).map(|(c, (name, _))| (name, c.value()));
    for (name, value) in protocol.query.iter().copied().chain(compression) {
        url.push(sep);
        url.push_str(name);
        url.push('=');
        url.push_str(value);
        sep = '&';
    }
    url
}

/// The end of every message of a zlib stream: the sync flush's empty stored block.
pub const ZLIB_SUFFIX: [u8; 4] = [0x00, 0x00, 0xff, 0xff];
