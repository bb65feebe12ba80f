//! Streamed responses: server-sent events (`text/event-stream`) and JSON Lines
//! (`application/jsonl`), read and written one message at a time.
//!
//! A streamed response is an [`Events`] of the endpoint's typed events on both sides: the
//! server's handler makes one (from a [`Sender`]'s channel, or from any stream) and the router
//! writes its messages as they come; the client reads the body chunk by chunk, and a resumable
//! stream whose connection breaks is asked for again with the id of the last event received
//! (`Last-Event-ID`), so no event is lost and none arrives twice.
//!
//! Server-sent events are read as the HTML standard's event stream interpretation says (§9.2.6):
//! lines end at CRLF, LF or CR, a leading byte order mark is skipped, `:` starts a comment, a
//! field's value loses one leading space, `data` lines join with newlines, an `id` with a NUL is
//! ignored, `retry` takes digits only, and a message ends at a blank line (one cut off by the
//! end of the stream is dropped).

use futures_util::stream::{self, Stream, StreamExt};
use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// A stream held behind a pointer, so that every source of events has one type.
type BoxStream<T> = Pin<Box<dyn Stream<Item = T> + Send + 'static>>;

/// How the messages of a stream are framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Server-sent events: `event:`, `data:`, `id:` and `retry:` fields, a blank line after each.
    Events,
    /// JSON Lines: one JSON value a line.
    JsonLines,
}

impl Framing {
    /// The media type a stream of this framing travels as.
    pub fn media_type(self) -> &'static str {
        match self {
            Framing::Events => "text/event-stream",
            Framing::JsonLines => "application/jsonl",
        }
    }
}

/// The most a message may hold before the reader gives up on the stream: a peer that never ends
/// a line cannot make it buffer without end.
pub const MAX_MESSAGE: usize = 16 * 1024 * 1024;

/// One message as it travels. A JSON Lines message has only `data`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// The event's name (`event:`); none is the default name, `message`.
    pub event: Option<String>,
    /// The data: its `data:` lines joined with newlines, or the JSON line.
    pub data: String,
    /// The event's id (`id:`), which a resumed stream goes on after.
    pub id: Option<String>,
    /// How long the server asks a client to wait before it reconnects (`retry:`).
    pub retry: Option<Duration>,
}

impl Frame {
    /// A message of this data under this name.
    pub fn named(event: Option<&str>, data: String) -> Self {
        Frame { event: event.map(str::to_owned), data, ..Frame::default() }
    }

    /// The message's bytes on the wire. A name or id holding a line break, which no line can
    /// carry, is cut at it; data lines each get their own `data:` field.
    pub fn encode(&self, framing: Framing) -> Vec<u8> {
        let one_line = |s: &str| s.split(['\r', '\n']).next().unwrap_or_default().to_owned();
        match framing {
            Framing::JsonLines => format!("{}\n", one_line(&self.data)).into_bytes(),
            Framing::Events => {
                let mut out = String::new();
                if let Some(id) = &self.id {
                    out.push_str(&format!("id: {}\n", one_line(id).replace('\0', "")));
                }
                if let Some(event) = &self.event {
                    out.push_str(&format!("event: {}\n", one_line(event)));
                }
                if let Some(retry) = self.retry {
                    out.push_str(&format!("retry: {}\n", retry.as_millis()));
                }
                for line in self.data.split("\r\n").flat_map(|l| l.split(['\r', '\n'])) {
                    out.push_str(&format!("data: {line}\n"));
                }
                out.push('\n');
                out.into_bytes()
            }
        }
    }
}

/// Reads frames out of a body as its chunks arrive, whatever bytes each chunk ends at.
#[derive(Debug)]
pub struct Reader {
    framing: Framing,
    /// Bytes of a line not yet ended.
    line: Vec<u8>,
    /// The last chunk ended with CR: an LF starting the next one ends no second line.
    after_cr: bool,
    started: bool,
    event: Option<String>,
    /// The data lines so far, each followed by a newline.
    data: String,
    id: Option<String>,
    retry: Option<Duration>,
    last_event_id: Option<String>,
}

/// Why a stream stopped or a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// A message whose data is not what the spec says of it; the stream goes on after it.
    Decode {
        /// The event's name, when it has one.
        event: Option<String>,
        /// Why it does not decode.
        message: String,
    },
    /// The connection broke, and the stream could not be resumed.
    Broken(String),
    /// A message longer than [`MAX_MESSAGE`] bytes.
    TooLarge,
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Decode { event: Some(event), message } => write!(f, "the event `{event}` does not decode: {message}"),
            StreamError::Decode { event: None, message } => write!(f, "a message does not decode: {message}"),
            StreamError::Broken(why) => write!(f, "the stream broke: {why}"),
            StreamError::TooLarge => write!(f, "a message is longer than {MAX_MESSAGE} bytes"),
        }
    }
}

impl std::error::Error for StreamError {}

impl Reader {
    /// A reader of a body of this framing.
    pub fn new(framing: Framing) -> Self {
        Reader { framing, line: Vec::new(), after_cr: false, started: false, event: None, data: String::new(), id: None, retry: None, last_event_id: None }
    }

    /// The wait before reconnecting the server last asked for (`retry:`).
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// The id of the last event read, which a resumed stream goes on after.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_event_id.as_deref()
    }

    /// Reads a chunk, pushing each message it completes.
    pub fn feed(&mut self, mut bytes: &[u8], out: &mut VecDeque<Frame>) -> Result<(), StreamError> {
        if !self.started && !bytes.is_empty() {
            self.started = true;
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        if std::mem::take(&mut self.after_cr) {
            bytes = bytes.strip_prefix(b"\n").unwrap_or(bytes);
        }
        while let Some(end) = bytes.iter().position(|b| *b == b'\n' || *b == b'\r') {
            self.line.extend_from_slice(&bytes[..end]);
            let line = String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned();
            self.line_ended(line, out);
            let crlf = bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n');
            self.after_cr = bytes[end] == b'\r' && end + 1 == bytes.len();
            bytes = &bytes[end + if crlf { 2 } else { 1 }..];
        }
        self.line.extend_from_slice(bytes);
        let held = self.line.len() + self.data.len();
        if held > MAX_MESSAGE { Err(StreamError::TooLarge) } else { Ok(()) }
    }

    /// The body ended: a JSON line without its newline is a message; a server-sent event not
    /// ended by a blank line is dropped, as the standard says.
    pub fn finish(&mut self, out: &mut VecDeque<Frame>) {
        let line = String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned();
        if self.framing == Framing::JsonLines && !line.trim().is_empty() {
            out.push_back(Frame { data: line, ..Frame::default() });
        }
        self.event = None;
        self.data.clear();
        self.id = None;
    }

    fn line_ended(&mut self, line: String, out: &mut VecDeque<Frame>) {
        match self.framing {
            Framing::JsonLines if line.trim().is_empty() => {}
            Framing::JsonLines => out.push_back(Frame { data: line, ..Frame::default() }),
            Framing::Events if line.is_empty() => self.dispatch(out),
            Framing::Events => self.field(&line),
        }
    }

    fn field(&mut self, line: &str) {
        let (name, value) = match line.split_once(':') {
            Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match name {
            "event" => self.event = Some(value.to_owned()),
            // Each line is followed by a newline; the last one goes when the message is sent.
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
            }
            "id" if !value.contains('\0') => self.id = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = value.parse().ok().map(Duration::from_millis);
            }
            // A comment (`:` first, so an empty name) or a field the standard does not know.
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut VecDeque<Frame>) {
        if let Some(id) = self.id.take() {
            self.last_event_id = (!id.is_empty()).then_some(id);
        }
        let event = self.event.take().filter(|e| !e.is_empty());
        let mut data = std::mem::take(&mut self.data);
        if data.pop().is_some() {
            out.push_back(Frame { event, data, id: self.last_event_id.clone(), retry: None });
        }
    }
}

/// How a stream's messages become typed events and back: the generated code gives one per
/// streamed endpoint.
pub struct Codec<E> {
    /// The event a message holds.
    pub decode: fn(&Frame) -> Result<E, String>,
    /// The message that carries an event (its id is the sender's to give).
    pub encode: fn(&E) -> Result<Frame, String>,
}

impl<E> Clone for Codec<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Codec<E> {}

impl<E> fmt::Debug for Codec<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Codec")
    }
}

impl<T: serde::Serialize + serde::de::DeserializeOwned> Codec<T> {
    /// Every message's data is JSON of `T`, whatever its name.
    pub const fn json() -> Self {
        Codec { decode: |frame| serde_json::from_str(&frame.data).map_err(|e| e.to_string()), encode: |value| Ok(Frame::named(None, json_data(value)?)) }
    }
}

impl Codec<String> {
    /// Every message's data is text, as it comes.
    pub const fn text() -> Self {
        Codec { decode: |frame| Ok(frame.data.clone()), encode: |text| Ok(Frame::named(None, text.clone())) }
    }
}

/// A value as the data of a message: its JSON.
pub fn json_data<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| e.to_string())
}

/// An event with the id it was sent under.
#[derive(Clone, Debug, PartialEq)]
pub struct Sent<E> {
    /// The id a resumed stream goes on after, when the server gave one.
    pub id: Option<String>,
    /// The event.
    pub event: E,
}

/// A stream of typed events: a streamed response's body, on the server and on the client.
///
/// It yields each event, or an error: a message that does not decode (the stream goes on), or a
/// connection that broke (the stream ends). [`Events::with_ids`] gives the ids too.
pub struct Events<E> {
    inner: BoxStream<Result<Sent<E>, StreamError>>,
}

impl<E> fmt::Debug for Events<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Events { .. }")
    }
}

impl<E: Send + 'static> Events<E> {
    /// The events `stream` yields.
    pub fn new(stream: impl Stream<Item = Result<Sent<E>, StreamError>> + Send + 'static) -> Self {
        Events { inner: Box::pin(stream) }
    }

    /// These events under the ids 1, 2, 3, …, those after `after` only (a resumed stream's
    /// last event id; one that is no number resumes from the start), then the end.
    pub fn numbered_after(events: Vec<E>, after: Option<&str>) -> Self {
        let after = after.and_then(|id| id.parse::<u64>().ok()).unwrap_or(0);
        let numbered = events.into_iter().zip(1u64..).filter(move |(_, n)| *n > after);
        Self::new(stream::iter(numbered.map(|(event, n)| Ok(Sent { id: Some(n.to_string()), event }))))
    }

    /// A stream fed by the returned [`Sender`], holding up to `capacity` events the reader has
    /// not taken yet; it ends when every sender is dropped.
    pub fn channel(capacity: usize) -> (Sender<E>, Self) {
        let (tx, mut rx) = tokio::sync::mpsc::channel(capacity.max(1));
        let inner = stream::poll_fn(move |cx| rx.poll_recv(cx));
        (Sender { tx }, Self::new(inner))
    }

    /// The events with the ids they were sent under.
    pub fn with_ids(self) -> impl Stream<Item = Result<Sent<E>, StreamError>> + Send {
        self.inner
    }

    /// The messages that carry the events, as bytes on the wire; an event `codec` cannot encode
    /// breaks the stream.
    pub fn encoded(self, framing: Framing, codec: Codec<E>) -> impl Stream<Item = Result<Vec<u8>, StreamError>> + Send {
        self.inner.map(move |sent| {
            let sent = sent?;
            let mut frame = (codec.encode)(&sent.event).map_err(StreamError::Broken)?;
            frame.id = sent.id;
            Ok(frame.encode(framing))
        })
    }
}

impl<E> Stream for Events<E> {
    type Item = Result<E, StreamError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx).map(|item| item.map(|sent| sent.map(|s| s.event)))
    }
}

/// The sending half of [`Events::channel`]: a handler keeps it (in a task of its own) and sends
/// events while the client listens.
#[derive(Debug)]
pub struct Sender<E> {
    tx: tokio::sync::mpsc::Sender<Result<Sent<E>, StreamError>>,
}

impl<E> Clone for Sender<E> {
    fn clone(&self) -> Self {
        Sender { tx: self.tx.clone() }
    }
}

/// The client went away: nobody reads the stream any more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closed;

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the stream's reader went away")
    }
}

impl std::error::Error for Closed {}

impl<E> Sender<E> {
    /// Sends an event without an id, waiting while the stream holds `capacity` unread events.
    pub async fn send(&self, event: E) -> Result<(), Closed> {
        self.tx.send(Ok(Sent { id: None, event })).await.map_err(|_| Closed)
    }

    /// Sends an event under an id: a client whose connection breaks after it asks to go on after
    /// this id.
    pub async fn send_with_id(&self, id: impl Into<String>, event: E) -> Result<(), Closed> {
        self.tx.send(Ok(Sent { id: Some(id.into()), event })).await.map_err(|_| Closed)
    }

    /// Breaks the stream off: the connection is dropped without its end, as when a server
    /// fails, so a resumable client comes back for what follows. The events sent before are
    /// handed to the connection first: it waits until the reader has taken every one.
    pub async fn break_off(self, why: impl Into<String>) {
        // Every slot free is the channel empty; a reader already gone needs no telling.
        if let Ok(mut slots) = self.tx.reserve_many(self.tx.max_capacity()).await
            && let Some(slot) = slots.next()
        {
            slot.send(Err(StreamError::Broken(why.into())));
        }
    }

    /// Whether the reader went away.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

/// The chunks of a body as they arrive, or why the connection broke.
pub type Chunks = BoxStream<Result<Vec<u8>, String>>;

/// What a reconnection came back with: a new body, or the server's word that the stream is over
/// (`204 No Content`, as the standard says).
pub enum Reopened {
    /// The stream goes on in this body.
    Body(Chunks),
    /// The stream is over.
    Over,
}

/// How a resumable stream reconnects: the request made again, carrying the last event id.
pub type Reopen = Box<dyn Fn(String) -> Pin<Box<dyn Future<Output = Result<Reopened, String>> + Send>> + Send + Sync>;

/// When a client gives up reconnecting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// Reconnections in a row that bring no event, before the stream is given up as broken.
    pub attempts: u32,
    /// The wait before reconnecting when the server asked for none (`retry:`); it doubles
    /// after each failed attempt.
    pub wait: Duration,
}

impl Default for Resume {
    /// Three reconnections, the first after a second (the delay browsers use).
    fn default() -> Self {
        Resume { attempts: 3, wait: Duration::from_secs(1) }
    }
}

/// The typed events of a body arriving in `chunks`. With `reopen`, a connection that breaks
/// after an event with an id is made again with that id, as `resume` allows; a body that ends is
/// the end of the stream.
pub fn read<E: Send + 'static>(chunks: Chunks, framing: Framing, codec: Codec<E>, reopen: Option<(Reopen, Resume)>) -> Events<E> {
    let state = ReadState { chunks: Some(chunks), reader: Reader::new(framing), frames: VecDeque::new(), codec, reopen, failures: 0, over: false };
    Events::new(stream::unfold(state, |mut state| async move {
        let item = state.next().await?;
        Some((item, state))
    }))
}

struct ReadState<E> {
    chunks: Option<Chunks>,
    reader: Reader,
    frames: VecDeque<Frame>,
    codec: Codec<E>,
    reopen: Option<(Reopen, Resume)>,
    /// Reconnections in a row that brought no event.
    failures: u32,
    over: bool,
}

impl<E> ReadState<E> {
    async fn next(&mut self) -> Option<Result<Sent<E>, StreamError>> {
        loop {
            if let Some(frame) = self.frames.pop_front() {
                self.failures = 0;
                let event = frame.event.clone();
                return Some(match (self.codec.decode)(&frame) {
                    Ok(value) => Ok(Sent { id: frame.id, event: value }),
                    Err(message) => Err(StreamError::Decode { event, message }),
                });
            }
            if self.over {
                return None;
            }
            let Some(chunks) = self.chunks.as_mut() else {
                if let Err(broken) = self.reconnect().await {
                    self.over = true;
                    return Some(Err(broken));
                }
                continue;
            };
            match chunks.next().await {
                Some(Ok(bytes)) => {
                    if let Err(e) = self.reader.feed(&bytes, &mut self.frames) {
                        self.over = true;
                        return Some(Err(e));
                    }
                }
                None => {
                    self.reader.finish(&mut self.frames);
                    self.over = true;
                }
                Some(Err(why)) => {
                    self.chunks = None;
                    // Partial lines of the broken body are not a message.
                    self.reader.finish(&mut VecDeque::new());
                    if self.reopen.is_none() || self.reader.last_event_id().is_none() {
                        self.over = true;
                        return Some(Err(StreamError::Broken(why)));
                    }
                }
            }
        }
    }

    /// Makes the request again with the last event id, waiting first, until a body comes back,
    /// the server says the stream is over, or the attempts are spent.
    async fn reconnect(&mut self) -> Result<(), StreamError> {
        let (reopen, resume) = self.reopen.as_ref().expect("BUG: only a resumable stream reconnects");
        let last = self.reader.last_event_id().unwrap_or_default().to_owned();
        loop {
            if self.failures >= resume.attempts {
                return Err(StreamError::Broken(format!("{} reconnections after event `{last}` brought nothing", self.failures)));
            }
            let wait = self.reader.retry().unwrap_or(resume.wait) * 2u32.saturating_pow(self.failures);
            self.failures += 1;
            tokio::time::sleep(wait).await;
            match reopen(last.clone()).await {
                Ok(Reopened::Body(chunks)) => {
                    self.chunks = Some(chunks);
                    return Ok(());
                }
                Ok(Reopened::Over) => {
                    self.over = true;
                    return Ok(());
                }
                Err(_) => {}
            }
        }
    }
}

/// The chunks of an answer's body as they arrive.
#[cfg(feature = "client")]
pub fn chunks(response: reqwest::Response) -> Chunks {
    Box::pin(stream::unfold(Some(response), |response| async move {
        let mut response = response?;
        match response.chunk().await {
            Ok(Some(bytes)) => Some((Ok(bytes.to_vec()), Some(response))),
            Ok(None) => None,
            // Not the error's text alone: it may hold the whole address, query included.
            Err(e) => Some((Err(if e.is_timeout() { "timed out".to_owned() } else { "the connection broke".to_owned() }), None)),
        }
    }))
}
