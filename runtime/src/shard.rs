//! The session client of a gateway: one connection (a shard) kept alive across everything the
//! network and the server do to it.
//!
//! A [`Shard`] is a state machine ([`State`]) driven by [`Shard::next`]: it connects, waits for
//! the hello, identifies (through an [`IdentifyQueue`] its process's shards share) or resumes,
//! beats the heart at the interval the server gives (the first beat after a random part of it),
//! and hands out each dispatch once, in order. What the server does to a connection is read
//! through the protocol's close-code table ([`Policy`]): resume, start a new session, or stop with
//! a typed error ([`ShardError::Fatal`]). A missed heartbeat acknowledgement is a zombie
//! connection: closed with the protocol's resume code and resumed. Reconnecting waits a capped
//! exponential backoff; every connection attempt has a timeout. Commands go out within the send
//! limit, with room kept for heartbeats.
//!
//! Time is tokio's, so tests run the whole lifecycle on a paused clock.

use crate::gateway::{Command, Compression, Data, Envelope, Frame, GatewayEvent, Policy, Protocol, Read, Session, Take, ZLIB_SUFFIX, member, null};
use futures_util::{SinkExt, StreamExt};
use serde_json::value::RawValue;
use std::collections::VecDeque;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, sleep_until, timeout};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Which events a shard decodes and hands out; the others are read for their sequence only.
pub type Filter = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// How a shard connects and who it is.
#[derive(Clone)]
pub struct Config {
    /// The gateway's address (`wss://…`), without the protocol's query.
    pub url: String,
    /// The identify payload, JSON text, the token and the shard included.
    pub identify: String,
    /// This shard's number, for the identify queue's bucket.
    pub shard: u32,
    /// The queue the process's shards identify through.
    pub queue: Arc<IdentifyQueue>,
    /// The compression to ask for.
    pub compression: Option<Compression>,
    /// A session to resume first (one a previous process saved).
    pub session: Option<Session>,
    /// How long a connection attempt may take.
    pub connect_timeout: Duration,
    /// The first wait before reconnecting after a failure; each next one doubles it.
    pub backoff: Duration,
    /// The longest wait before reconnecting.
    pub max_backoff: Duration,
    /// Which events to decode and hand out; all when `None`. The ready and resumed events are
    /// always handed out.
    pub filter: Option<Filter>,
}

impl Config {
    /// A shard of a process with one identify bucket, connecting to `url` with `identify`.
    pub fn new(protocol: &Protocol, url: impl Into<String>, identify: String) -> Config {
        Config {
            url: url.into(),
            identify,
            shard: 0,
            queue: IdentifyQueue::new(1, protocol.identify_limit.per),
            compression: None,
            session: None,
            connect_timeout: Duration::from_secs(10),
            backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(60),
            filter: None,
        }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The identify payload holds the token: never printed.
        f.debug_struct("Config").field("url", &self.url).field("shard", &self.shard).field("compression", &self.compression).finish_non_exhaustive()
    }
}

/// Where a shard is in its lifecycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Not connected; the next connection attempt is the `attempts`-th since the last success.
    Disconnected {
        /// Failed attempts since the last session started or resumed.
        attempts: u32,
    },
    /// Connected, waiting for the hello.
    Hello,
    /// Identified, waiting for the ready event.
    Identifying,
    /// Resuming, waiting for the missed events and the resumed event.
    Resuming,
    /// The session is running.
    Active,
    /// Closed for good with a fatal code, or by the caller.
    Closed,
}

/// What a shard hands out.
#[derive(Debug)]
pub enum Received<E> {
    /// An event the server dispatched.
    Dispatch(Dispatch<E>),
    /// Something that happened to the session.
    Session(SessionEvent),
}

/// A dispatched event.
#[derive(Debug)]
pub struct Dispatch<E> {
    /// Its name.
    pub name: String,
    /// Its sequence number.
    pub sequence: Option<u64>,
    /// The typed event; an error when its payload does not have the event's shape (the session
    /// goes on).
    pub event: Result<E, String>,
    /// The frame as received: the event was decoded from it in one pass, without a copy of the
    /// payload, which [`Dispatch::data`] reads again only when asked.
    frame: Utf8Bytes,
    envelope: &'static Envelope,
}

impl<E> Dispatch<E> {
    /// Its payload, as it came.
    pub fn data(&self) -> Box<RawValue> {
        Frame::read(self.envelope, &self.frame).map_or_else(|_| null(), |f| f.data)
    }

    /// The whole frame, as it came.
    pub fn frame(&self) -> &str {
        &self.frame
    }
}

/// Something that happened to a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEvent {
    /// Connected to `url`.
    Connected {
        /// The address, query included.
        url: String,
    },
    /// The connection could not be made.
    ConnectFailed {
        /// Why.
        error: String,
    },
    /// The server closed the connection, or it dropped (no code).
    Closed {
        /// The close code.
        code: Option<u16>,
        /// What the protocol says to do after it.
        policy: Policy,
    },
    /// No heartbeat acknowledgement came before the next beat: the connection is closed and the
    /// session resumed.
    Zombie,
    /// The server asked for a reconnect.
    Reconnect,
    /// The server said the session is invalid.
    InvalidSession {
        /// Whether it may be resumed.
        resumable: bool,
    },
    /// A frame the shard could not read was skipped.
    Unreadable {
        /// Why.
        error: String,
    },
    /// The next connection attempt waits this long.
    Waiting {
        /// The wait.
        after: Duration,
    },
}

/// Why a shard stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// The server closed with a code after which reconnecting cannot help.
    Fatal {
        /// The code.
        code: u16,
        /// Its name in the protocol.
        name: String,
    },
    /// The address cannot be connected to at all (a malformed URL, `wss` without TLS support).
    Address(String),
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Fatal { code, name } => write!(f, "the gateway closed the session with {code} ({name})"),
            ShardError::Address(e) => write!(f, "the gateway address cannot be used: {e}"),
        }
    }
}

impl std::error::Error for ShardError {}

/// A command waiting to go out.
struct Outgoing {
    opcode: u8,
    data: String,
    reply: Option<(&'static str, oneshot::Sender<Box<RawValue>>)>,
}

/// Why a command was not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendError {
    /// The shard is gone.
    Closed,
    /// The command does not serialize.
    Encode(String),
    /// The command has no reply to wait for.
    NoReply,
    /// The command breaks the spec's constraints: every violation.
    Invalid(Vec<crate::validation::Violation>),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Closed => f.write_str("the shard is closed"),
            SendError::Encode(e) => write!(f, "the command does not serialize: {e}"),
            SendError::NoReply => f.write_str("the command has no reply"),
            SendError::Invalid(violations) => {
                let list: Vec<String> = violations.iter().map(|v| format!("{}: {}", v.pointer, v.message)).collect();
                write!(f, "the command breaks the spec: {}", list.join("; "))
            }
        }
    }
}

impl std::error::Error for SendError {}

/// Sends commands through a shard, from any task; they go out while the shard is driven.
#[derive(Clone, Debug)]
pub struct Sender {
    tx: mpsc::UnboundedSender<Outgoing>,
}

impl fmt::Debug for Outgoing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Outgoing").field("opcode", &self.opcode).finish_non_exhaustive()
    }
}

impl Sender {
    /// Queues a command, once it meets every constraint of the spec.
    pub fn send<C: Command>(&self, command: &C) -> Result<(), SendError> {
        check(command)?;
        let data = serde_json::to_string(command).map_err(|e| SendError::Encode(e.to_string()))?;
        self.send_raw(C::OPCODE, data)
    }

    /// Queues a command given as its opcode and payload (JSON text).
    pub fn send_raw(&self, opcode: u8, data: String) -> Result<(), SendError> {
        self.tx.send(Outgoing { opcode, data, reply: None }).map_err(|_| SendError::Closed)
    }

    /// Sends a command and waits for its reply event's payload: the next such event after it
    /// goes out answers it.
    pub async fn request<C: Command>(&self, command: &C) -> Result<Box<RawValue>, SendError> {
        let reply = C::REPLY.ok_or(SendError::NoReply)?;
        check(command)?;
        let data = serde_json::to_string(command).map_err(|e| SendError::Encode(e.to_string()))?;
        let (tx, rx) = oneshot::channel();
        self.tx.send(Outgoing { opcode: C::OPCODE, data, reply: Some((reply, tx)) }).map_err(|_| SendError::Closed)?;
        rx.await.map_err(|_| SendError::Closed)
    }
}

fn check<C: Command>(command: &C) -> Result<(), SendError> {
    let violations = command.violations();
    if violations.is_empty() { Ok(()) } else { Err(SendError::Invalid(violations)) }
}

/// The identify limit of a process: one identify per bucket (`shard % max_concurrency`) in each
/// window, and a budget of sessions, where the platform gives one.
#[derive(Debug)]
pub struct IdentifyQueue {
    per: Duration,
    buckets: Mutex<Vec<Option<Instant>>>,
    budget: Mutex<Option<Budget>>,
}

#[derive(Debug)]
struct Budget {
    remaining: u32,
    total: u32,
    resets: Instant,
    period: Duration,
}

impl IdentifyQueue {
    /// A queue with `max_concurrency` buckets, each allowing one identify per `per`.
    pub fn new(max_concurrency: u32, per: Duration) -> Arc<IdentifyQueue> {
        Arc::new(IdentifyQueue { per, buckets: Mutex::new(vec![None; max_concurrency.max(1) as usize]), budget: Mutex::new(None) })
    }

    /// The same, with a budget: `remaining` of `total` sessions may start until `reset_after`,
    /// and `total` in each `period` after that.
    pub fn with_budget(max_concurrency: u32, per: Duration, remaining: u32, total: u32, reset_after: Duration, period: Duration) -> Arc<IdentifyQueue> {
        let queue = IdentifyQueue::new(max_concurrency, per);
        *queue.budget.lock().expect("a fresh lock") = Some(Budget { remaining, total, resets: Instant::now() + reset_after, period });
        queue
    }

    /// Waits until shard `shard` may identify, and takes its turn.
    pub async fn wait(&self, shard: u32) {
        while let Some(until) = self.take(shard) {
            sleep_until(until).await;
        }
    }

    /// Takes the turn now, or says when to ask again.
    fn take(&self, shard: u32) -> Option<Instant> {
        let now = Instant::now();
        let mut budget = self.budget.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = budget.as_mut() {
            if now >= b.resets {
                b.remaining = b.total;
                b.resets = now + b.period;
            }
            if b.remaining == 0 {
                return Some(b.resets);
            }
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let len = buckets.len();
        let bucket = &mut buckets[shard as usize % len];
        match *bucket {
            Some(free) if free > now => Some(free),
            _ => {
                *bucket = Some(now + self.per);
                if let Some(b) = budget.as_mut() {
                    b.remaining -= 1;
                }
                None
            }
        }
    }
}

/// The send limit: a sliding window of the frames sent, with room kept for heartbeats. The
/// window is a tenth longer than the protocol's, so that frames a network delays and then
/// delivers together still fit the server's count of them.
#[derive(Debug)]
struct Limiter {
    limit: Option<(u32, Duration)>,
    sent: VecDeque<Instant>,
    reserved: u32,
}

impl Limiter {
    fn prune(&mut self, now: Instant) {
        if let Some((_, per)) = self.limit {
            while self.sent.front().is_some_and(|&t| t + per <= now) {
                self.sent.pop_front();
            }
        }
    }

    /// When a command (not a heartbeat) may go out: now, or later.
    fn free_at(&mut self, now: Instant) -> Option<Instant> {
        let (commands, per) = self.limit?;
        self.prune(now);
        let room = commands.saturating_sub(self.reserved).max(1) as usize;
        (self.sent.len() >= room).then(|| self.sent[self.sent.len() - room] + per)
    }

    fn record(&mut self, now: Instant) {
        if self.limit.is_some() {
            self.sent.push_back(now);
        }
    }

    /// Keeps room for the heartbeats of a window at `interval`, and one more.
    fn reserve_for(&mut self, interval: Duration) {
        if let Some((commands, per)) = self.limit {
            let beats = per.as_millis().div_ceil(interval.as_millis().max(1)) as u32 + 1;
            self.reserved = beats.min(commands.saturating_sub(1));
        }
    }
}

/// One zlib stream per connection.
struct Inflater {
    stream: flate2::Decompress,
    input: Vec<u8>,
    output: Vec<u8>,
}

impl Inflater {
    fn new() -> Inflater {
        Inflater { stream: flate2::Decompress::new(true), input: Vec::new(), output: Vec::new() }
    }

    /// Takes a message's bytes; a whole message's text once its sync flush has come.
    fn push(&mut self, bytes: &[u8]) -> Result<Option<String>, String> {
        self.input.extend_from_slice(bytes);
        if !self.input.ends_with(&ZLIB_SUFFIX) {
            return Ok(None);
        }
        self.output.clear();
        let mut read = 0;
        loop {
            if self.output.capacity() - self.output.len() < 1024 {
                self.output.reserve(self.input.len().max(1024) * 4);
            }
            let (before_in, before_out) = (self.stream.total_in(), self.stream.total_out());
            self.stream
                .decompress_vec(&self.input[read..], &mut self.output, flate2::FlushDecompress::Sync)
                .map_err(|e| format!("the compressed stream is broken: {e}"))?;
            read += (self.stream.total_in() - before_in) as usize;
            let progressed = self.stream.total_in() != before_in || self.stream.total_out() != before_out;
            let full = self.output.len() == self.output.capacity();
            if read >= self.input.len() && !full {
                break;
            }
            if !progressed && !full {
                return Err("the compressed stream stopped early".to_owned());
            }
        }
        self.input.clear();
        String::from_utf8(std::mem::take(&mut self.output)).map(Some).map_err(|_| "a message is not UTF-8".to_owned())
    }
}

/// The heartbeat of a connection.
#[derive(Debug, Default)]
struct Heartbeat {
    interval: Option<Duration>,
    next: Option<Instant>,
    acknowledged: bool,
}

/// A random fraction in `[0, 1)`, from the standard library's per-process random keys.
fn jitter() -> f64 {
    let bits = std::collections::hash_map::RandomState::new().build_hasher().finish();
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// A shard: one session of the gateway, kept alive.
pub struct Shard<E> {
    protocol: &'static Protocol,
    config: Config,
    token: String,
    state: State,
    socket: Option<Socket>,
    session: Option<Session>,
    sequence: Option<u64>,
    heartbeat: Heartbeat,
    limiter: Limiter,
    inflater: Option<Inflater>,
    rx: mpsc::UnboundedReceiver<Outgoing>,
    tx: mpsc::UnboundedSender<Outgoing>,
    held: Option<Outgoing>,
    replies: VecDeque<(&'static str, oneshot::Sender<Box<RawValue>>)>,
    out: VecDeque<Result<Received<E>, ShardError>>,
    _events: PhantomData<fn() -> E>,
}

impl<E> fmt::Debug for Shard<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shard").field("protocol", &self.protocol.id).field("state", &self.state).field("session", &self.session).finish_non_exhaustive()
    }
}

impl<E: GatewayEvent> Shard<E> {
    /// A shard that connects when first driven.
    pub fn new(protocol: &'static Protocol, config: Config) -> Shard<E> {
        let token = serde_json::from_str::<serde_json::Value>(&config.identify)
            .ok()
            .and_then(|v| member(&v, protocol.identify_token).and_then(|t| t.as_str()).map(str::to_owned))
            .unwrap_or_default();
        let (tx, rx) = mpsc::unbounded_channel();
        let session = config.session.clone();
        let sequence = session.as_ref().map(|s| s.sequence);
        let limiter = Limiter { limit: protocol.send_limit.map(|l| (l.commands, l.per + l.per / 10)), sent: VecDeque::new(), reserved: 0 };
        Shard {
            protocol,
            config,
            token,
            state: State::Disconnected { attempts: 0 },
            socket: None,
            session,
            sequence,
            heartbeat: Heartbeat::default(),
            limiter,
            inflater: None,
            rx,
            tx,
            held: None,
            replies: VecDeque::new(),
            out: VecDeque::new(),
            _events: PhantomData,
        }
    }

    /// Where the shard is.
    pub fn state(&self) -> State {
        self.state
    }

    /// The session to save, so that a restarted process resumes it.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// A handle that sends commands through this shard.
    pub fn sender(&self) -> Sender {
        Sender { tx: self.tx.clone() }
    }

    /// Ends the session (close code 1000) and stops.
    pub async fn close(&mut self) {
        self.drop_socket(1000).await;
        self.session = None;
        self.state = State::Closed;
    }

    /// The next dispatch or session event; `None` once closed. A fatal close is an `Err`, once.
    pub async fn next(&mut self) -> Option<Result<Received<E>, ShardError>> {
        loop {
            if let Some(item) = self.out.pop_front() {
                return Some(item);
            }
            match self.state {
                State::Closed => return None,
                State::Disconnected { attempts } => self.connect(attempts).await,
                _ => self.step().await,
            }
        }
    }

    fn emit(&mut self, event: SessionEvent) {
        self.out.push_back(Ok(Received::Session(event)));
    }

    fn wait_for(&self, attempts: u32) -> Duration {
        if attempts == 0 {
            return Duration::ZERO;
        }
        let factor = 1u32.checked_shl(attempts - 1).unwrap_or(u32::MAX);
        self.config.backoff.checked_mul(factor).unwrap_or(self.config.max_backoff).min(self.config.max_backoff)
    }

    async fn connect(&mut self, attempts: u32) {
        let wait = self.wait_for(attempts);
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
        // A new session takes its identify turn before connecting, so that the hello's heartbeat
        // never waits on the queue.
        if self.session.is_none() {
            self.config.queue.wait(self.config.shard).await;
        }
        let base = self.session.as_ref().and_then(|s| s.resume_url.clone()).unwrap_or_else(|| self.config.url.clone());
        let url = crate::gateway::url(self.protocol, &base, self.config.compression);
        match timeout(self.config.connect_timeout, tokio_tungstenite::connect_async(url.as_str())).await {
            Ok(Ok((socket, _))) => {
                self.socket = Some(socket);
                self.inflater = self.config.compression.map(|_| Inflater::new());
                self.heartbeat = Heartbeat::default();
                self.state = State::Hello;
                self.emit(SessionEvent::Connected { url });
            }
            Ok(Err(tokio_tungstenite::tungstenite::Error::Url(e))) => {
                self.state = State::Closed;
                self.out.push_back(Err(ShardError::Address(e.to_string())));
            }
            Ok(Err(e)) => self.failed(attempts, e.to_string()),
            Err(_) => self.failed(attempts, "the connection attempt timed out".to_owned()),
        }
    }

    fn failed(&mut self, attempts: u32, error: String) {
        self.emit(SessionEvent::ConnectFailed { error });
        // A resume address that does not answer is given up for the gateway's own.
        if let Some(session) = self.session.as_mut().filter(|_| attempts > 0) {
            session.resume_url = None;
        }
        let attempts = attempts.saturating_add(1);
        self.emit(SessionEvent::Waiting { after: self.wait_for(attempts) });
        self.state = State::Disconnected { attempts };
    }

    /// Waits for one thing: a message, the heartbeat, or a command the limit lets out.
    async fn step(&mut self) {
        let Some(socket) = self.socket.as_mut() else {
            self.state = State::Disconnected { attempts: 1 };
            return;
        };
        let now = Instant::now();
        let sending = self.state == State::Active;
        let free_at = if sending { self.limiter.free_at(now) } else { None };
        let far = now + Duration::from_secs(86_400);
        let beat_at = self.heartbeat.next.unwrap_or(far);
        let command_at = free_at.unwrap_or(now);
        let held = self.held.is_some();
        tokio::select! {
            biased;
            () = sleep_until(beat_at), if self.heartbeat.next.is_some() => self.beat().await,
            message = socket.next() => self.on_message(message).await,
            () = sleep_until(command_at), if sending && held => {
                if let Some(command) = self.held.take() {
                    self.send_command(command).await;
                }
            }
            command = self.rx.recv(), if sending && !held => {
                if let Some(command) = command {
                    self.held = Some(command);
                }
            }
        }
    }

    async fn send_command(&mut self, command: Outgoing) {
        let text = Frame::write(&self.protocol.envelope, command.opcode, &command.data, None, None);
        if let Some(reply) = command.reply {
            self.replies.push_back(reply);
        }
        self.limiter.record(Instant::now());
        self.send(text).await;
    }

    async fn send(&mut self, text: String) {
        let Some(socket) = self.socket.as_mut() else { return };
        if socket.send(Message::text(text)).await.is_err() {
            self.lost(None).await;
        }
    }

    async fn beat(&mut self) {
        if !self.heartbeat.acknowledged {
            self.emit(SessionEvent::Zombie);
            self.drop_socket(self.protocol.resume_close).await;
            self.state = State::Disconnected { attempts: 0 };
            return;
        }
        let data = self.sequence.map_or_else(|| "null".to_owned(), |s| s.to_string());
        let text = Frame::write(&self.protocol.envelope, self.protocol.opcodes.heartbeat, &data, None, None);
        self.heartbeat.acknowledged = false;
        self.heartbeat.next = self.heartbeat.interval.map(|i| Instant::now() + i);
        self.limiter.record(Instant::now());
        self.send(text).await;
    }

    async fn drop_socket(&mut self, code: u16) {
        if let Some(mut socket) = self.socket.take() {
            let frame = CloseFrame { code: CloseCode::from(code), reason: "".into() };
            // A dead peer must not hold the shard: the close frame is a courtesy.
            let _ = timeout(Duration::from_secs(2), socket.close(Some(frame))).await;
        }
        self.heartbeat = Heartbeat::default();
        self.held = None;
        self.replies.clear();
    }

    /// The connection ended without a usable close code: resume.
    async fn lost(&mut self, code: Option<u16>) {
        let policy = code.map_or(Policy::Resume, |c| self.protocol.policy(c));
        self.emit(SessionEvent::Closed { code, policy });
        self.socket = None;
        self.heartbeat = Heartbeat::default();
        self.held = None;
        self.replies.clear();
        match policy {
            Policy::Fatal => {
                let code = code.unwrap_or_default();
                let name = self.protocol.close_code(code).map_or("unknown", |c| c.name).to_owned();
                self.state = State::Closed;
                self.out.push_back(Err(ShardError::Fatal { code, name }));
            }
            Policy::Reidentify => {
                self.forget();
                self.state = State::Disconnected { attempts: 1 };
            }
            Policy::Resume => {
                let attempts = if self.state == State::Active { 0 } else { 1 };
                self.state = State::Disconnected { attempts };
            }
        }
    }

    fn forget(&mut self) {
        self.session = None;
        self.sequence = None;
    }

    async fn on_message(&mut self, message: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>) {
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(bytes))) => match self.inflater.as_mut() {
                Some(inflater) => match inflater.push(&bytes) {
                    Ok(Some(text)) => Utf8Bytes::from(text),
                    Ok(None) => return,
                    Err(error) => {
                        // A broken stream cannot be read further: the connection is over.
                        self.emit(SessionEvent::Unreadable { error });
                        self.drop_socket(self.protocol.resume_close).await;
                        self.state = State::Disconnected { attempts: 1 };
                        return;
                    }
                },
                None => match Utf8Bytes::try_from(bytes) {
                    Ok(text) => text,
                    Err(_) => return self.emit(SessionEvent::Unreadable { error: "a binary message is not UTF-8 text".to_owned() }),
                },
            },
            Some(Ok(Message::Close(frame))) => return self.lost(frame.map(|f| u16::from(f.code))).await,
            Some(Ok(_)) => return,
            Some(Err(_)) | None => return self.lost(None).await,
        };
        let (envelope, dispatch) = (&self.protocol.envelope, self.protocol.opcodes.dispatch);
        match Frame::read_with::<E>(envelope, Some(dispatch), &text, |name| self.take(name)) {
            Ok(read) if read.opcode == dispatch => self.on_dispatch(read, text),
            Ok(read) => {
                let data = if let Data::Raw(raw) = read.data { raw } else { null() };
                self.on_frame(Frame { opcode: read.opcode, data, sequence: read.sequence, event: read.event }).await;
            }
            // Either the frame is unreadable, or a dispatch's payload does not have its event's
            // shape: read raw, the latter goes out with its error.
            Err(e) => match Frame::read(envelope, &text) {
                Ok(frame) if frame.opcode == dispatch => {
                    let read = Read { opcode: frame.opcode, sequence: frame.sequence, event: frame.event, data: Data::Raw(frame.data) };
                    self.on_dispatch(read, text);
                }
                Ok(frame) => self.on_frame(frame).await,
                Err(_) => self.emit(SessionEvent::Unreadable { error: e.to_string() }),
            },
        }
    }

    /// What to do with a dispatch's payload as its frame is read: the session's own events and
    /// awaited replies are kept raw, events the caller filtered out are skipped, the rest decoded.
    fn take(&self, name: &str) -> Take {
        if self.lifecycle(name) || self.replies.iter().any(|(reply, _)| *reply == name) {
            Take::Raw
        } else if self.config.filter.as_ref().is_some_and(|wanted| !wanted(name)) {
            Take::Skip
        } else {
            Take::Decode
        }
    }

    fn lifecycle(&self, name: &str) -> bool {
        name == self.protocol.ready.event || Some(name) == self.protocol.resume.resumed
    }

    async fn on_frame(&mut self, frame: Frame) {
        let ops = self.protocol.opcodes;
        match frame.opcode {
            op if op == ops.heartbeat => {
                // The server asks for a beat now; it does not count as a missed acknowledgement.
                self.heartbeat.acknowledged = true;
                self.beat().await;
            }
            op if op == ops.heartbeat_ack => self.heartbeat.acknowledged = true,
            op if op == ops.hello => self.on_hello(&frame.data).await,
            op if Some(op) == ops.reconnect => {
                self.emit(SessionEvent::Reconnect);
                self.drop_socket(self.protocol.resume_close).await;
                self.state = State::Disconnected { attempts: 0 };
            }
            op if Some(op) == ops.invalid_session => {
                let resumable = frame.data.get() == "true";
                self.emit(SessionEvent::InvalidSession { resumable });
                if !resumable {
                    self.forget();
                }
                let code = if resumable { self.protocol.resume_close } else { 1000 };
                self.drop_socket(code).await;
                self.state = State::Disconnected { attempts: 1 };
            }
            _ => {}
        }
    }

    async fn on_hello(&mut self, data: &RawValue) {
        let Some(interval) = crate::gateway::heartbeat_interval(self.protocol, data) else {
            return self.emit(SessionEvent::Unreadable { error: "the hello gives no heartbeat interval".to_owned() });
        };
        self.heartbeat = Heartbeat { interval: Some(interval), next: Some(Instant::now() + interval.mul_f64(jitter())), acknowledged: true };
        self.limiter.reserve_for(interval);
        let (opcode, data, state) = match &self.session {
            Some(session) => {
                let r = &self.protocol.resume;
                let mut payload = serde_json::Map::new();
                payload.insert(r.token.to_owned(), self.token.clone().into());
                payload.insert(r.session_id.to_owned(), session.id.clone().into());
                payload.insert(r.sequence.to_owned(), self.sequence.unwrap_or(session.sequence).into());
                (self.protocol.opcodes.resume, serde_json::Value::Object(payload).to_string(), State::Resuming)
            }
            None => (self.protocol.opcodes.identify, self.config.identify.clone(), State::Identifying),
        };
        self.state = state;
        let text = Frame::write(&self.protocol.envelope, opcode, &data, None, None);
        self.limiter.record(Instant::now());
        self.send(text).await;
    }

    fn on_dispatch(&mut self, read: Read<E>, frame: Utf8Bytes) {
        if let Some(s) = read.sequence {
            // A replay may repeat what this client already has: each event is handed out once.
            if self.sequence.is_some_and(|last| s <= last) {
                return;
            }
            self.sequence = Some(s);
            if let Some(session) = self.session.as_mut() {
                session.sequence = s;
            }
        }
        let name = read.event.unwrap_or_default();
        if let Data::Raw(raw) = &read.data {
            if name == self.protocol.ready.event {
                self.on_ready(raw);
            }
            if let Some(at) = self.replies.iter().position(|(reply, _)| *reply == name)
                && let Some((_, waiter)) = self.replies.remove(at)
            {
                let _ = waiter.send(raw.clone());
            }
        }
        if Some(name.as_str()) == self.protocol.resume.resumed {
            self.state = State::Active;
        }
        if !self.lifecycle(&name) && self.config.filter.as_ref().is_some_and(|wanted| !wanted(&name)) {
            return;
        }
        let event = match read.data {
            Data::Event(event) => Ok(event),
            Data::Raw(raw) => E::decode(&name, &raw).map_err(|e| e.to_string()),
            Data::Skipped => return,
        };
        let envelope = &self.protocol.envelope;
        self.out.push_back(Ok(Received::Dispatch(Dispatch { name, sequence: read.sequence, event, frame, envelope })));
    }

    fn on_ready(&mut self, data: &RawValue) {
        let ready = &self.protocol.ready;
        let value: serde_json::Value = serde_json::from_str(data.get()).unwrap_or_default();
        let Some(id) = member(&value, ready.session_id).and_then(|v| v.as_str()) else {
            return self.emit(SessionEvent::Unreadable { error: format!("the ready event has no `{}`", ready.session_id.join(".")) });
        };
        let resume_url = ready.resume_url.and_then(|m| member(&value, m)).and_then(|v| v.as_str()).map(str::to_owned);
        self.session = Some(Session { id: id.to_owned(), sequence: self.sequence.unwrap_or(0), resume_url });
        self.state = State::Active;
    }
}
