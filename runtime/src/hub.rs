//! The server side of a gateway: an axum WebSocket route that speaks the protocol, and a
//! [`Hub`] that dispatches events to its sessions.
//!
//! The route does the protocol's mechanical work: the hello, heartbeat supervision (a client
//! that does not beat within the interval and a half is closed with the protocol's
//! session-timeout code), the send limit (closed with its rate-limit code), a bounded replay
//! buffer per session so that a resume loses nothing the buffer still holds, and a close code
//! for every violation the protocol names. What a session may do is the platform's:
//! [`Sessions`] is asked to start one (identify) and to answer each other command.
//!
//! A hub can also be told to misbehave, for tests and the mock gateway: withhold heartbeat
//! acknowledgements, drop every connection, close them with a code, invalidate the sessions or
//! ask the clients to reconnect.

use crate::gateway::{Cause, Compression, Frame, Protocol, member, put};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::response::Response;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

/// What the platform decides of its sessions.
pub trait Sessions: Send + Sync + 'static {
    /// Starts a session from an identify payload: the ready event's payload (the hub adds the
    /// session's id and resume address), or why the connection is closed.
    fn identify(&self, data: &RawValue) -> impl Future<Output = Result<Value, Cause>> + Send;

    /// A command of any other opcode from session `session`: the event that answers it (name and
    /// payload), if any, or why the connection is closed (`Cause::UnknownOpcode` for an opcode
    /// it does not take, `Cause::DecodeError` for a payload that does not read).
    fn command(&self, session: &str, opcode: u8, data: &RawValue) -> impl Future<Output = Result<Option<(String, Value)>, Cause>> + Send;

    /// Events dispatched to a new session right after its ready event (name and payload): a
    /// mock gateway's examples, a platform's initial state. None by default.
    fn welcome(&self) -> Vec<(String, Value)> {
        Vec::new()
    }

    /// A command the hub refused for breaking the spec's constraints, with every violation,
    /// before closing the connection with the protocol's decode-error code (whose reason can
    /// carry only the first ones). Nothing by default.
    fn rejected(&self, session: &str, opcode: u8, violations: &[crate::validation::Violation]) {
        let _ = (session, opcode, violations);
    }
}

/// How a hub serves.
#[derive(Clone, Debug)]
pub struct Options {
    /// The heartbeat interval the hello gives.
    pub heartbeat_interval: Duration,
    /// How many events each session keeps for a resume.
    pub replay: usize,
    /// The address the ready event gives to resume at.
    pub resume_url: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options { heartbeat_interval: Duration::from_millis(41_250), replay: 4096, resume_url: None }
    }
}

/// What the hub tells a connection.
#[derive(Debug)]
enum Control {
    Frame(Arc<str>),
    Close(u16),
    Drop,
}

struct Entry {
    token: String,
    sequence: u64,
    buffer: VecDeque<(u64, Arc<str>)>,
    live: Option<(u64, mpsc::UnboundedSender<Control>)>,
}

struct Inner<S> {
    protocol: &'static Protocol,
    sessions: S,
    options: Options,
    entries: Mutex<HashMap<String, Entry>>,
    next: AtomicU64,
    withhold_acks: AtomicBool,
    check: Option<crate::gateway::CommandCheck>,
}

/// The sessions of a gateway, and the route that serves them.
pub struct Hub<S> {
    inner: Arc<Inner<S>>,
}

impl<S> Clone for Hub<S> {
    fn clone(&self) -> Self {
        Hub { inner: self.inner.clone() }
    }
}

impl<S: Sessions> Hub<S> {
    /// A hub of `protocol`'s sessions, started and answered by `sessions`.
    pub fn new(protocol: &'static Protocol, sessions: S, options: Options) -> Hub<S> {
        Hub::checking(protocol, sessions, options, None)
    }

    /// The same, checking each command's payload with `check` before `sessions` sees it.
    pub fn checking(protocol: &'static Protocol, sessions: S, options: Options, check: Option<crate::gateway::CommandCheck>) -> Hub<S> {
        let inner =
            Inner { protocol, sessions, options, entries: Mutex::new(HashMap::new()), next: AtomicU64::new(1), withhold_acks: AtomicBool::new(false), check };
        Hub { inner: Arc::new(inner) }
    }

    /// The platform's side of the hub.
    pub fn sessions(&self) -> &S {
        &self.inner.sessions
    }

    /// The route: a WebSocket upgrade at `/`.
    pub fn router(&self) -> axum::Router {
        axum::Router::new().route("/", axum::routing::get(upgrade::<S>)).with_state(self.clone())
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.inner.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Dispatches an event to every session; the number of sessions it reached.
    pub fn dispatch(&self, name: &str, data: &Value) -> usize {
        let data = data.to_string();
        let mut entries = self.entries();
        entries.values_mut().map(|entry| self.push(entry, name, &data)).count()
    }

    /// Dispatches a typed event to every session; the number of sessions it reached.
    pub fn dispatch_event<E: crate::gateway::GatewayEvent>(&self, event: &E) -> Result<usize, serde_json::Error> {
        let (name, data) = event.encode()?;
        let mut entries = self.entries();
        Ok(entries.values_mut().map(|entry| self.push(entry, &name, data.get())).count())
    }

    /// Dispatches an event to one session; whether it exists.
    pub fn dispatch_to(&self, session: &str, name: &str, data: &Value) -> bool {
        let data = data.to_string();
        let mut entries = self.entries();
        entries.get_mut(session).map(|entry| self.push(entry, name, &data)).is_some()
    }

    fn push(&self, entry: &mut Entry, name: &str, data: &str) {
        entry.sequence += 1;
        let text: Arc<str> = Frame::write(&self.inner.protocol.envelope, self.inner.protocol.opcodes.dispatch, data, Some(entry.sequence), Some(name)).into();
        entry.buffer.push_back((entry.sequence, text.clone()));
        while entry.buffer.len() > self.inner.options.replay {
            entry.buffer.pop_front();
        }
        if let Some((_, live)) = &entry.live {
            let _ = live.send(Control::Frame(text));
        }
    }

    /// The ids of the sessions, sorted.
    pub fn session_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.entries().keys().cloned().collect();
        ids.sort();
        ids
    }

    /// The number of open connections.
    pub fn connections(&self) -> usize {
        self.entries().values().filter(|e| e.live.is_some()).count()
    }

    /// Stops acknowledging heartbeats (or starts again).
    pub fn withhold_acks(&self, withhold: bool) {
        self.inner.withhold_acks.store(withhold, Ordering::SeqCst);
    }

    fn tell_all(&self, control: impl Fn() -> Control) {
        for entry in self.entries().values() {
            if let Some((_, live)) = &entry.live {
                let _ = live.send(control());
            }
        }
    }

    /// Drops every connection without a close frame, as a network failure would.
    pub fn drop_connections(&self) {
        self.tell_all(|| Control::Drop);
    }

    /// Closes every connection with `code`.
    pub fn close_all(&self, code: u16) {
        self.tell_all(|| Control::Close(code));
    }

    /// Tells every client its session is invalid; unless `resumable`, the sessions are gone.
    pub fn invalidate(&self, resumable: bool) {
        let protocol = self.inner.protocol;
        if let Some(op) = protocol.opcodes.invalid_session {
            let text: Arc<str> = Frame::write(&protocol.envelope, op, if resumable { "true" } else { "false" }, None, None).into();
            self.tell_all(|| Control::Frame(text.clone()));
        }
        if !resumable {
            self.entries().clear();
        }
    }

    /// Asks every client to reconnect and resume.
    pub fn reconnect(&self) {
        let protocol = self.inner.protocol;
        if let Some(op) = protocol.opcodes.reconnect {
            let text: Arc<str> = Frame::write(&protocol.envelope, op, "null", None, None).into();
            self.tell_all(|| Control::Frame(text.clone()));
        }
    }
}

async fn upgrade<S: Sessions>(State(hub): State<Hub<S>>, RawQuery(query): RawQuery, ws: WebSocketUpgrade) -> Response {
    let compression = compression(hub.inner.protocol, query.as_deref());
    ws.on_upgrade(move |socket| async move { Connection::new(hub, socket, compression).run().await })
}

/// The compression a query asks for, if the protocol offers it.
fn compression(protocol: &Protocol, query: Option<&str>) -> Option<Compression> {
    let (name, offered) = protocol.compression?;
    let asked = query?.split('&').filter_map(|pair| pair.split_once('=')).find(|(n, _)| *n == name)?.1;
    offered.iter().copied().find(|c| c.value() == asked)
}

/// Where a connection is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// Hello sent; waiting for identify or resume.
    Waiting,
    /// In session `id`.
    In(String),
}

struct Connection<S> {
    hub: Hub<S>,
    socket: WebSocket,
    id: u64,
    phase: Phase,
    deflater: Option<flate2::Compress>,
    rx: mpsc::UnboundedReceiver<Control>,
    tx: mpsc::UnboundedSender<Control>,
    deadline: Instant,
    received: VecDeque<Instant>,
}

/// Why a connection ends.
enum End {
    Close(u16),
    /// A close with a reason of its own.
    Explained(u16, String),
    Drop,
    Gone,
}

impl<S: Sessions> Connection<S> {
    fn new(hub: Hub<S>, socket: WebSocket, compression: Option<Compression>) -> Connection<S> {
        let (tx, rx) = mpsc::unbounded_channel();
        let id = hub.inner.next.fetch_add(1, Ordering::Relaxed);
        let deflater = compression.map(|Compression::ZlibStream| flate2::Compress::new(flate2::Compression::fast(), true));
        let deadline = Instant::now() + grace(hub.inner.options.heartbeat_interval);
        Connection { hub, socket, id, phase: Phase::Waiting, deflater, rx, tx, deadline, received: VecDeque::new() }
    }

    fn protocol(&self) -> &'static Protocol {
        self.hub.inner.protocol
    }

    async fn run(mut self) {
        let mut hello = Value::Object(serde_json::Map::new());
        put(&mut hello, self.protocol().heartbeat_interval, (self.hub.inner.options.heartbeat_interval.as_millis() as u64).into());
        let text = Frame::write(&self.protocol().envelope, self.protocol().opcodes.hello, &hello.to_string(), None, None);
        let end = match self.send(&text).await {
            Ok(()) => self.serve().await,
            Err(end) => end,
        };
        self.detach();
        match end {
            End::Close(code) => {
                let frame = CloseFrame { code, reason: self.protocol().close_code(code).map_or("", |c| c.name).into() };
                let _ = tokio::time::timeout(Duration::from_secs(2), self.socket.send(Message::Close(Some(frame)))).await;
            }
            End::Explained(code, reason) => {
                let frame = CloseFrame { code, reason: reason.into() };
                let _ = tokio::time::timeout(Duration::from_secs(2), self.socket.send(Message::Close(Some(frame)))).await;
            }
            End::Drop | End::Gone => {}
        }
    }

    async fn serve(&mut self) -> End {
        loop {
            // Frames the client already sent come first: a heartbeat waiting in the socket is
            // not a timeout. The send limit keeps a client from holding the loop with frames.
            let result = tokio::select! {
                biased;
                message = self.socket.recv() => match message {
                    Some(Ok(message)) => self.on_message(message).await,
                    Some(Err(_)) | None => Err(End::Gone),
                },
                Some(control) = self.rx.recv() => match control {
                    Control::Frame(text) => self.send(&text).await,
                    Control::Close(code) => Err(End::Close(code)),
                    Control::Drop => Err(End::Drop),
                },
                () = sleep_until(self.deadline) => Err(self.close(Cause::SessionTimedOut)),
            };
            if let Err(end) = result {
                return end;
            }
        }
    }

    /// The end for `cause`: its close code, or 4000-less protocols' generic 1008.
    fn close(&self, cause: Cause) -> End {
        let protocol = self.protocol();
        End::Close(protocol.close_for(cause).or_else(|| protocol.close_for(Cause::Unknown)).map_or(1008, |c| c.code))
    }

    /// The end for `cause`, its reason the violations (a close reason holds 123 bytes).
    fn explained(&self, cause: Cause, violations: &[crate::validation::Violation]) -> End {
        let End::Close(code) = self.close(cause) else { return self.close(cause) };
        let mut reason = String::new();
        for v in violations {
            let item = format!("{}{}: {}", if reason.is_empty() { "" } else { "; " }, v.pointer, v.message);
            if reason.len() + item.len() > 123 {
                break;
            }
            reason.push_str(&item);
        }
        End::Explained(code, reason)
    }

    async fn send(&mut self, text: &str) -> Result<(), End> {
        let message = match self.deflater.as_mut() {
            Some(deflater) => {
                let input = text.as_bytes();
                let start = deflater.total_in();
                let mut out = Vec::with_capacity(input.len() / 2 + 64);
                loop {
                    let read = (deflater.total_in() - start) as usize;
                    if out.capacity() - out.len() < 64 {
                        out.reserve(input.len() / 2 + 64);
                    }
                    deflater.compress_vec(&input[read..], &mut out, flate2::FlushCompress::Sync).map_err(|_| End::Gone)?;
                    if (deflater.total_in() - start) as usize >= input.len() && out.len() < out.capacity() {
                        break;
                    }
                }
                Message::Binary(out.into())
            }
            None => Message::Text(text.to_owned().into()),
        };
        self.socket.send(message).await.map_err(|_| End::Gone)
    }

    fn over_limit(&mut self) -> bool {
        let Some(limit) = self.protocol().send_limit else { return false };
        let now = Instant::now();
        while self.received.front().is_some_and(|&t| t + limit.per <= now) {
            self.received.pop_front();
        }
        self.received.push_back(now);
        self.received.len() > limit.commands as usize
    }

    async fn on_message(&mut self, message: Message) -> Result<(), End> {
        let text = match &message {
            Message::Text(text) => text.as_str(),
            Message::Binary(bytes) => std::str::from_utf8(bytes).map_err(|_| self.close(Cause::DecodeError))?,
            Message::Close(_) => return Err(End::Gone),
            _ => return Ok(()),
        };
        let frame = Frame::read(&self.protocol().envelope, text).map_err(|_| self.close(Cause::DecodeError))?;
        if self.over_limit() {
            return Err(self.close(Cause::RateLimited));
        }
        let ops = self.protocol().opcodes;
        match (&self.phase, frame.opcode) {
            (_, op) if op == ops.heartbeat => self.on_heartbeat().await,
            (Phase::Waiting, op) if op == ops.identify => self.identify(&frame.data).await,
            (Phase::Waiting, op) if op == ops.resume => self.resume(&frame.data).await,
            (Phase::In(_), op) if op == ops.identify => Err(self.close(Cause::AlreadyAuthenticated)),
            (Phase::Waiting, _) => Err(self.close(Cause::NotAuthenticated)),
            (Phase::In(session), op) => {
                let session = session.clone();
                if let Some(violations) = self.hub.inner.check.and_then(|check| check(op, &frame.data)).filter(|v| !v.is_empty()) {
                    self.hub.inner.sessions.rejected(&session, op, &violations);
                    return Err(self.explained(Cause::DecodeError, &violations));
                }
                match self.hub.inner.sessions.command(&session, op, &frame.data).await {
                    Ok(Some((name, data))) => {
                        self.hub.dispatch_to(&session, &name, &data);
                        Ok(())
                    }
                    Ok(None) => Ok(()),
                    Err(cause) => Err(self.close(cause)),
                }
            }
        }
    }

    async fn on_heartbeat(&mut self) -> Result<(), End> {
        self.deadline = Instant::now() + grace(self.hub.inner.options.heartbeat_interval);
        if self.hub.inner.withhold_acks.load(Ordering::SeqCst) {
            return Ok(());
        }
        let text = Frame::write(&self.protocol().envelope, self.protocol().opcodes.heartbeat_ack, "null", None, None);
        self.send(&text).await
    }

    async fn identify(&mut self, data: &RawValue) -> Result<(), End> {
        let mut ready = self.hub.inner.sessions.identify(data).await.map_err(|cause| self.close(cause))?;
        let token = serde_json::from_str::<Value>(data.get())
            .ok()
            .and_then(|v| member(&v, self.protocol().identify_token).and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        let id = format!("{:016x}", self.id.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ self.id);
        let protocol = self.protocol();
        put(&mut ready, protocol.ready.session_id, id.clone().into());
        if let (Some(path), Some(url)) = (protocol.ready.resume_url, &self.hub.inner.options.resume_url) {
            put(&mut ready, path, url.clone().into());
        }
        let entry = Entry { token, sequence: 0, buffer: VecDeque::new(), live: Some((self.id, self.tx.clone())) };
        self.hub.entries().insert(id.clone(), entry);
        self.phase = Phase::In(id.clone());
        self.hub.dispatch_to(&id, protocol.ready.event, &ready);
        for (name, data) in self.hub.inner.sessions.welcome() {
            self.hub.dispatch_to(&id, &name, &data);
        }
        Ok(())
    }

    async fn resume(&mut self, data: &RawValue) -> Result<(), End> {
        let protocol = self.protocol();
        let value: Value = serde_json::from_str(data.get()).map_err(|_| self.close(Cause::DecodeError))?;
        let r = &protocol.resume;
        let (Some(token), Some(id), Some(sequence)) =
            (value.get(r.token).and_then(Value::as_str), value.get(r.session_id).and_then(Value::as_str), value.get(r.sequence).and_then(Value::as_u64))
        else {
            return Err(self.close(Cause::DecodeError));
        };
        let replay = {
            let mut entries = self.hub.entries();
            match entries.get_mut(id) {
                // The buffer must still hold the event after the client's last one.
                Some(entry) if entry.token == token && sequence <= entry.sequence && entry.buffer.front().is_none_or(|(first, _)| *first <= sequence + 1) => {
                    entry.live = Some((self.id, self.tx.clone()));
                    Some(entry.buffer.iter().filter(|(s, _)| *s > sequence).map(|(_, text)| text.clone()).collect::<Vec<_>>())
                }
                _ => None,
            }
        };
        let Some(replay) = replay else {
            let Some(op) = protocol.opcodes.invalid_session else { return Err(self.close(Cause::InvalidSequence)) };
            let text = Frame::write(&protocol.envelope, op, "false", None, None);
            return self.send(&text).await;
        };
        self.phase = Phase::In(id.to_owned());
        for text in replay {
            self.send(&text).await?;
        }
        if let Some(resumed) = protocol.resume.resumed {
            self.hub.dispatch_to(id, resumed, &Value::Null);
        }
        Ok(())
    }

    /// The connection is gone: its session stays for a resume.
    fn detach(&mut self) {
        if let Phase::In(id) = &self.phase
            && let Some(entry) = self.hub.entries().get_mut(id)
            && entry.live.as_ref().is_some_and(|(conn, _)| *conn == self.id)
        {
            entry.live = None;
        }
    }
}

/// How long a client may go without a heartbeat: the interval and a half.
fn grace(interval: Duration) -> Duration {
    interval + interval / 2
}
