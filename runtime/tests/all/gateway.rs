//! The session client against the server side, over 127.0.0.1 on tokio's paused clock: a whole
//! lifecycle (identify, ready, events), and everything a gateway does to a session: dropped
//! connections, withheld acknowledgements, invalid sessions, fatal close codes, the send and
//! identify limits, unknown and odd events, compression, and a session a restarted process
//! resumes.

use platform_codegen_runtime::gateway::{
    Cause, CloseCode, Command, Compression, Data, Envelope, Frame, GatewayEvent, IdentifyLimit, Opcodes, Policy, Protocol, Ready, Resume, SendLimit, Session,
    Take,
};
use platform_codegen_runtime::hub::{Hub, Options, Sessions};
use platform_codegen_runtime::shard::{Config, IdentifyQueue, Received, SessionEvent, Shard, ShardError, State};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

const fn close(code: u16, name: &'static str, policy: Policy, cause: Option<Cause>) -> CloseCode {
    CloseCode { code, name, policy, cause }
}

/// A protocol shaped like Discord's Gateway v10.
static PROTOCOL: Protocol = Protocol {
    id: "gateway",
    query: &[("v", "10"), ("encoding", "json")],
    compression: Some(("compress", &[Compression::ZlibStream])),
    envelope: Envelope { opcode: "op", data: "d", sequence: "s", event: "t" },
    opcodes: Opcodes { dispatch: 0, heartbeat: 1, heartbeat_ack: 11, hello: 10, identify: 2, resume: 6, reconnect: Some(7), invalid_session: Some(9) },
    heartbeat_interval: &["heartbeat_interval"],
    identify_token: &["token"],
    ready: Ready { event: "READY", session_id: &["session_id"], resume_url: Some(&["resume_gateway_url"]) },
    resume: Resume { token: "token", session_id: "session_id", sequence: "seq", resumed: Some("RESUMED") },
    close_codes: &[
        close(4000, "Unknown error", Policy::Resume, Some(Cause::Unknown)),
        close(4001, "Unknown opcode", Policy::Resume, Some(Cause::UnknownOpcode)),
        close(4002, "Decode error", Policy::Resume, Some(Cause::DecodeError)),
        close(4003, "Not authenticated", Policy::Resume, Some(Cause::NotAuthenticated)),
        close(4004, "Authentication failed", Policy::Fatal, Some(Cause::AuthenticationFailed)),
        close(4005, "Already authenticated", Policy::Resume, Some(Cause::AlreadyAuthenticated)),
        close(4007, "Invalid seq", Policy::Reidentify, Some(Cause::InvalidSequence)),
        close(4008, "Rate limited", Policy::Resume, Some(Cause::RateLimited)),
        close(4009, "Session timed out", Policy::Reidentify, Some(Cause::SessionTimedOut)),
        close(4010, "Invalid shard", Policy::Fatal, Some(Cause::InvalidShard)),
        close(4011, "Sharding required", Policy::Fatal, Some(Cause::ShardingRequired)),
        close(4012, "Invalid API version", Policy::Fatal, Some(Cause::InvalidVersion)),
        close(4013, "Invalid intent(s)", Policy::Fatal, Some(Cause::InvalidIntents)),
        close(4014, "Disallowed intent(s)", Policy::Fatal, Some(Cause::DisallowedIntents)),
    ],
    unknown_close: Policy::Resume,
    resume_close: 4000,
    send_limit: Some(SendLimit { commands: 120, per: Duration::from_secs(60) }),
    identify_limit: IdentifyLimit { per: Duration::from_secs(5) },
};

/// The events a test names; any other is kept raw.
#[derive(Debug, PartialEq)]
enum Event {
    Ready { session_id: String },
    Resumed,
    MessageCreate(Message),
    ChannelInfo(Value),
    Unknown { name: String, raw: String },
}

#[derive(Debug, PartialEq, Deserialize)]
struct Message {
    id: u64,
    content: String,
}

impl GatewayEvent for Event {
    fn decode_from<'de, D: serde::Deserializer<'de>>(name: &str, data: D) -> Result<Self, D::Error> {
        Ok(match name {
            "READY" => {
                #[derive(Deserialize)]
                struct R {
                    session_id: String,
                }
                Event::Ready { session_id: R::deserialize(data)?.session_id }
            }
            "RESUMED" => {
                serde::de::IgnoredAny::deserialize(data)?;
                Event::Resumed
            }
            "MESSAGE_CREATE" => Event::MessageCreate(Deserialize::deserialize(data)?),
            "CHANNEL_INFO" => Event::ChannelInfo(Deserialize::deserialize(data)?),
            _ => Event::Unknown { name: name.to_owned(), raw: Box::<RawValue>::deserialize(data)?.get().to_owned() },
        })
    }

    fn encode(&self) -> Result<(String, Box<RawValue>), serde_json::Error> {
        unimplemented!("the tests only read events")
    }
}

/// The platform's side: tokens it knows, the identifies it saw (shard and when), the commands.
#[derive(Default)]
struct Platform {
    identified: Mutex<Vec<(u32, Instant)>>,
    commands: Mutex<Vec<Instant>>,
}

impl Sessions for Platform {
    async fn identify(&self, data: &RawValue) -> Result<Value, Cause> {
        let data: Value = serde_json::from_str(data.get()).map_err(|_| Cause::DecodeError)?;
        match data["token"].as_str() {
            Some("good") => {}
            _ => return Err(Cause::AuthenticationFailed),
        }
        let shard = data["shard"][0].as_u64().unwrap_or(0) as u32;
        self.identified.lock().unwrap().push((shard, Instant::now()));
        Ok(json!({ "v": 10, "user": { "id": "1" } }))
    }

    async fn command(&self, _session: &str, opcode: u8, data: &RawValue) -> Result<Option<(String, Value)>, Cause> {
        match opcode {
            3 => {
                self.commands.lock().unwrap().push(Instant::now());
                Ok(None)
            }
            43 => {
                let data: Value = serde_json::from_str(data.get()).map_err(|_| Cause::DecodeError)?;
                Ok(Some(("CHANNEL_INFO".to_owned(), json!({ "guild_id": data["guild_id"], "channels": [] }))))
            }
            _ => Err(Cause::UnknownOpcode),
        }
    }
}

#[derive(Serialize)]
struct PresenceUpdate {
    status: &'static str,
}

impl Command for PresenceUpdate {
    const OPCODE: u8 = 3;
}

#[derive(Serialize)]
struct RequestChannelInfo {
    guild_id: &'static str,
}

impl Command for RequestChannelInfo {
    const OPCODE: u8 = 43;
    const REPLY: Option<&'static str> = Some("CHANNEL_INFO");
}

async fn serve(options: Options) -> (Hub<Platform>, String) {
    let hub = Hub::new(&PROTOCOL, Platform::default(), options);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("ws://{}", listener.local_addr().expect("an address"));
    let router = hub.router();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (hub, url)
}

fn identify(shard: u32) -> String {
    json!({ "token": "good", "intents": 513, "properties": { "os": "linux" }, "shard": [shard, 4] }).to_string()
}

fn config(url: &str) -> Config {
    Config::new(&PROTOCOL, url, identify(0))
}

/// The next dispatch, skipping session events.
async fn dispatch(shard: &mut Shard<Event>) -> (Option<u64>, Event) {
    loop {
        match shard.next().await.expect("the shard goes on").expect("no fatal close") {
            Received::Dispatch(d) => return (d.sequence, d.event.expect("the event decodes")),
            Received::Session(_) => {}
        }
    }
}

/// Drives the shard until `pred` holds of a session event.
async fn until_session(shard: &mut Shard<Event>, pred: impl Fn(&SessionEvent) -> bool) -> Vec<u64> {
    let mut seen = Vec::new();
    loop {
        match shard.next().await.expect("the shard goes on").expect("no fatal close") {
            Received::Session(e) if pred(&e) => return seen,
            Received::Dispatch(d) => seen.extend(d.sequence),
            Received::Session(_) => {}
        }
    }
}

async fn ready(shard: &mut Shard<Event>) -> String {
    match dispatch(shard).await {
        (Some(_), Event::Ready { session_id }) => session_id,
        other => panic!("expected READY, got {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn identify_ready_then_events_in_order() {
    let (hub, url) = serve(Options::default()).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    let id = ready(&mut shard).await;
    assert_eq!(shard.state(), State::Active);
    assert_eq!(hub.session_ids(), vec![id.clone()]);
    for n in 1..=3 {
        hub.dispatch("MESSAGE_CREATE", &json!({ "id": n, "content": format!("hello {n}") }));
    }
    for n in 1..=3u64 {
        assert_eq!(dispatch(&mut shard).await, (Some(n + 1), Event::MessageCreate(Message { id: n, content: format!("hello {n}") })));
    }
    assert_eq!(shard.session().map(|s| (s.id.as_str(), s.sequence)), Some((id.as_str(), 4)));
}

/// A thousand events, with the connection dropped every hundred: every one arrives once, in
/// order, through resumes.
#[tokio::test(start_paused = true)]
async fn a_resume_loses_and_repeats_nothing_across_dropped_connections() {
    let (hub, url) = serve(Options { resume_url: None, ..Options::default() }).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    let first = ready(&mut shard).await;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let client = tokio::spawn(async move {
        let mut resumes = 0;
        loop {
            match shard.next().await {
                Some(Ok(Received::Dispatch(d))) => match d.event.expect("decodes") {
                    Event::MessageCreate(m) => {
                        let last = m.id == 1000;
                        tx.send(m.id).expect("the test listens");
                        if last {
                            return (resumes, shard);
                        }
                    }
                    Event::Resumed => resumes += 1,
                    other => panic!("unexpected {other:?}"),
                },
                Some(Ok(Received::Session(_))) => {}
                other => panic!("the shard ended: {other:?}"),
            }
        }
    });
    for n in 1..=1000u64 {
        hub.dispatch("MESSAGE_CREATE", &json!({ "id": n, "content": "x" }));
        if n % 100 == 50 {
            hub.drop_connections();
        }
        if n % 10 == 0 {
            tokio::task::yield_now().await;
        }
    }
    let (resumes, shard) = client.await.expect("the client finishes");
    let mut got = Vec::new();
    while let Ok(n) = rx.try_recv() {
        got.push(n);
    }
    assert_eq!(got, (1..=1000).collect::<Vec<_>>(), "each event once, in order");
    assert!(resumes >= 1, "the session was resumed ({resumes} times)");
    assert_eq!(shard.session().map(|s| s.id.clone()), Some(first), "the same session throughout");
}

#[tokio::test(start_paused = true)]
async fn a_withheld_acknowledgement_is_a_zombie_and_the_session_resumes() {
    let (hub, url) = serve(Options::default()).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    let id = ready(&mut shard).await;
    hub.withhold_acks(true);
    until_session(&mut shard, |e| *e == SessionEvent::Zombie).await;
    hub.withhold_acks(false);
    assert_eq!(dispatch(&mut shard).await.1, Event::Resumed);
    assert_eq!(shard.session().map(|s| s.id.clone()), Some(id));
    hub.dispatch("MESSAGE_CREATE", &json!({ "id": 7, "content": "after" }));
    assert_eq!(dispatch(&mut shard).await.1, Event::MessageCreate(Message { id: 7, content: "after".to_owned() }));
}

#[tokio::test(start_paused = true)]
async fn an_invalid_session_that_cannot_resume_is_identified_again() {
    let (hub, url) = serve(Options::default()).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    let first = ready(&mut shard).await;
    hub.invalidate(false);
    until_session(&mut shard, |e| *e == SessionEvent::InvalidSession { resumable: false }).await;
    let second = ready(&mut shard).await;
    assert_ne!(first, second, "a new session");
    assert_eq!(hub.sessions().identified.lock().unwrap().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn the_reconnect_opcode_resumes() {
    let (hub, url) = serve(Options::default()).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    let id = ready(&mut shard).await;
    hub.reconnect();
    until_session(&mut shard, |e| *e == SessionEvent::Reconnect).await;
    assert_eq!(dispatch(&mut shard).await.1, Event::Resumed);
    assert_eq!(shard.session().map(|s| s.id.clone()), Some(id));
}

#[tokio::test(start_paused = true)]
async fn each_fatal_close_code_ends_the_shard_with_its_typed_error() {
    let (hub, url) = serve(Options::default()).await;
    for code in PROTOCOL.close_codes.iter().filter(|c| c.policy == Policy::Fatal) {
        let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
        ready(&mut shard).await;
        hub.close_all(code.code);
        let error = loop {
            match shard.next().await.expect("an error before the end") {
                Ok(_) => {}
                Err(e) => break e,
            }
        };
        assert_eq!(error, ShardError::Fatal { code: code.code, name: code.name.to_owned() });
        assert!(shard.next().await.is_none(), "no reconnect after {}", code.code);
        assert_eq!(shard.state(), State::Closed);
    }
    assert_eq!(hub.connections(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_refused_token_is_fatal() {
    let (_hub, url) = serve(Options::default()).await;
    let mut config = config(&url);
    config.identify = json!({ "token": "bad" }).to_string();
    let mut shard = Shard::<Event>::new(&PROTOCOL, config);
    let error = loop {
        if let Err(e) = shard.next().await.expect("an error") {
            break e;
        }
    };
    assert_eq!(error, ShardError::Fatal { code: 4004, name: "Authentication failed".to_owned() });
}

#[tokio::test(start_paused = true)]
async fn a_reidentify_close_starts_a_new_session() {
    let (hub, url) = serve(Options::default()).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    let first = ready(&mut shard).await;
    hub.close_all(4009);
    let second = ready(&mut shard).await;
    assert_ne!(first, second);
}

/// A protocol whose send limit is short enough to watch on the real clock: the burst test's
/// server reads a client's frames through hyper's upgraded connection, whose wakeups tokio's
/// paused clock does not wait for, so this one test runs in real time and asserts order only.
static BURST: Protocol = Protocol { send_limit: Some(SendLimit { commands: 20, per: Duration::from_secs(1) }), ..PROTOCOL };

/// Forty commands at once: they go out within twenty per second (the server closes with 4008
/// otherwise), and every one arrives.
#[tokio::test]
async fn a_burst_of_commands_keeps_within_the_send_limit() {
    let hub = Hub::new(&BURST, Platform::default(), Options::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("ws://{}", listener.local_addr().expect("an address"));
    let router = hub.router();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let mut shard = Shard::<Event>::new(&BURST, Config::new(&BURST, &url, identify(0)));
    ready(&mut shard).await;
    let sender = shard.sender();
    for _ in 0..40 {
        sender.send(&PresenceUpdate { status: "online" }).expect("queued");
    }
    let platform = hub.clone();
    let watch = tokio::spawn(async move {
        loop {
            match shard.next().await {
                Some(Ok(Received::Session(SessionEvent::Closed { code, .. }))) => panic!("closed with {code:?}"),
                Some(Ok(_)) => {}
                other => panic!("ended: {other:?}"),
            }
        }
    });
    while platform.sessions().commands.lock().unwrap().len() < 40 {
        assert!(!watch.is_finished(), "the shard stopped");
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    watch.abort();
    let times = hub.sessions().commands.lock().unwrap().clone();
    // The identify counts too: of any 20 frames in a window, at most 19 are commands.
    for (i, t) in times.iter().enumerate().skip(19) {
        assert!(*t >= times[i - 19] + Duration::from_secs(1), "command {i} is the 20th frame within a window");
    }
}

/// Four shards in two buckets: the shards of one bucket identify five seconds apart.
#[tokio::test(start_paused = true)]
async fn shards_identify_one_per_bucket_per_window() {
    let (hub, url) = serve(Options::default()).await;
    let queue = IdentifyQueue::new(2, PROTOCOL.identify_limit.per);
    let mut tasks = Vec::new();
    for n in 0..4 {
        let mut config = Config::new(&PROTOCOL, &url, identify(n));
        config.shard = n;
        config.queue = queue.clone();
        tasks.push(tokio::spawn(async move {
            let mut shard = Shard::<Event>::new(&PROTOCOL, config);
            ready(&mut shard).await;
            shard
        }));
    }
    for task in tasks {
        task.await.expect("a shard");
    }
    let seen = hub.sessions().identified.lock().unwrap().clone();
    assert_eq!(seen.len(), 4);
    for a in &seen {
        for b in &seen {
            if a.0 != b.0 && a.0 % 2 == b.0 % 2 {
                let gap = if a.1 > b.1 { a.1 - b.1 } else { b.1 - a.1 };
                assert!(gap >= Duration::from_secs(5), "shards {} and {} share a bucket, {gap:?} apart", a.0, b.0);
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn unknown_events_arrive_raw_and_an_odd_payload_does_not_end_the_session() {
    let (hub, url) = serve(Options::default()).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    ready(&mut shard).await;
    hub.dispatch("SOMETHING_NEW", &json!({ "a": [1, 2] }));
    hub.dispatch("MESSAGE_CREATE", &json!({ "id": "not a number" }));
    hub.dispatch("MESSAGE_CREATE", &json!({ "id": 3, "content": "fine" }));
    assert_eq!(dispatch(&mut shard).await.1, Event::Unknown { name: "SOMETHING_NEW".to_owned(), raw: r#"{"a":[1,2]}"#.to_owned() });
    let odd = loop {
        if let Received::Dispatch(d) = shard.next().await.unwrap().unwrap() {
            break d;
        }
    };
    assert_eq!(odd.name, "MESSAGE_CREATE");
    assert!(odd.event.is_err(), "the payload does not decode");
    assert_eq!(odd.data().get(), r#"{"id":"not a number"}"#, "and is kept raw");
    assert_eq!(dispatch(&mut shard).await.1, Event::MessageCreate(Message { id: 3, content: "fine".to_owned() }));
}

#[tokio::test(start_paused = true)]
async fn a_filter_skips_the_events_a_bot_did_not_ask_for() {
    let (hub, url) = serve(Options::default()).await;
    let mut config = config(&url);
    config.filter = Some(Arc::new(|name: &str| name == "MESSAGE_CREATE"));
    let mut shard = Shard::<Event>::new(&PROTOCOL, config);
    // The ready event is handed out whatever the filter: a bot always learns its session.
    ready(&mut shard).await;
    hub.dispatch("TYPING_START", &json!({}));
    hub.dispatch("MESSAGE_CREATE", &json!({ "id": 1, "content": "wanted" }));
    assert_eq!(dispatch(&mut shard).await, (Some(3), Event::MessageCreate(Message { id: 1, content: "wanted".to_owned() })));
}

#[tokio::test(start_paused = true)]
async fn a_compressed_session_reads_the_same_events() {
    let (hub, url) = serve(Options::default()).await;
    let mut config = config(&url);
    config.compression = Some(Compression::ZlibStream);
    let mut shard = Shard::<Event>::new(&PROTOCOL, config);
    let connected = until_session(&mut shard, |e| matches!(e, SessionEvent::Connected { .. })).await;
    assert!(connected.is_empty());
    ready(&mut shard).await;
    let long = "x".repeat(100_000);
    for n in 1..=50 {
        hub.dispatch("MESSAGE_CREATE", &json!({ "id": n, "content": if n == 25 { long.clone() } else { format!("m{n}") } }));
    }
    for n in 1..=50u64 {
        let content = if n == 25 { long.clone() } else { format!("m{n}") };
        assert_eq!(dispatch(&mut shard).await.1, Event::MessageCreate(Message { id: n, content }));
    }
}

#[tokio::test(start_paused = true)]
async fn a_saved_session_is_resumed_by_a_new_process() {
    let (hub, url) = serve(Options { resume_url: None, ..Options::default() }).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    let id = ready(&mut shard).await;
    hub.dispatch("MESSAGE_CREATE", &json!({ "id": 1, "content": "seen" }));
    dispatch(&mut shard).await;
    let saved = serde_json::to_string(shard.session().expect("a session")).expect("serializes");
    drop(shard);
    hub.dispatch("MESSAGE_CREATE", &json!({ "id": 2, "content": "missed" }));
    let mut config = config(&url);
    config.session = Some(serde_json::from_str::<Session>(&saved).expect("reads back"));
    let mut shard = Shard::<Event>::new(&PROTOCOL, config);
    assert_eq!(dispatch(&mut shard).await.1, Event::MessageCreate(Message { id: 2, content: "missed".to_owned() }));
    assert_eq!(dispatch(&mut shard).await.1, Event::Resumed);
    assert_eq!(shard.session().map(|s| s.id.clone()), Some(id));
    assert_eq!(hub.sessions().identified.lock().unwrap().len(), 1, "no second identify");
}

/// On the real clock: the server reads the client's commands through hyper's upgraded
/// connection, whose wakeups tokio's paused clock does not wait for. Nothing here depends on time.
#[tokio::test]
async fn a_request_is_answered_by_its_reply_event() {
    let (_hub, url) = serve(Options::default()).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    ready(&mut shard).await;
    let sender = shard.sender();
    let request = tokio::spawn(async move { sender.request(&RequestChannelInfo { guild_id: "42" }).await });
    let (_, event) = dispatch(&mut shard).await;
    assert_eq!(event, Event::ChannelInfo(json!({ "guild_id": "42", "channels": [] })));
    let reply = request.await.expect("joins").expect("a reply");
    assert_eq!(reply.get(), r#"{"guild_id":"42","channels":[]}"#);
}

#[tokio::test(start_paused = true)]
async fn the_resume_address_of_the_ready_event_is_used() {
    // The first server names the second as its resume address; the second knows no session, so
    // the resume is refused with an invalid session and the client identifies again.
    let (_, resume_url) = serve(Options::default()).await;
    let (hub, url) = serve(Options { resume_url: Some(resume_url.clone()), ..Options::default() }).await;
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    ready(&mut shard).await;
    assert_eq!(shard.session().and_then(|s| s.resume_url.clone()), Some(resume_url.clone()));
    hub.drop_connections();
    let connected = loop {
        if let Received::Session(SessionEvent::Connected { url }) = shard.next().await.unwrap().unwrap() {
            break url;
        }
    };
    assert_eq!(connected, format!("{resume_url}/?v=10&encoding=json"));
    until_session(&mut shard, |e| *e == SessionEvent::InvalidSession { resumable: false }).await;
    ready(&mut shard).await;
    assert_eq!(shard.session().and_then(|s| s.resume_url.clone()), Some(resume_url), "a new session, from the gateway's own address");
}

/// The server side, spoken to by hand: frames out of order, unreadable, or too many, each get
/// the protocol's close code; silence gets the session timeout.
#[tokio::test(start_paused = true)]
async fn the_server_closes_each_violation_with_its_code() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message as Ws;
    let (_hub, url) = serve(Options { heartbeat_interval: Duration::from_secs(10), ..Options::default() }).await;
    let cases: Vec<(Vec<String>, u16)> = vec![
        (vec!["{\"op\":3,\"d\":{}}".to_owned()], 4003),
        (vec!["not json".to_owned()], 4002),
        (vec![identify(0), identify(0)], 4005),
        (vec![identify(0), "{\"op\":99,\"d\":null}".to_owned()], 4001),
        (vec![], 4009),
        ((0..121).map(|_| "{\"op\":1,\"d\":null}".to_owned()).collect(), 4008),
    ];
    for (frames, code) in cases {
        let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str()).await.expect("connects");
        let hello = ws.next().await.unwrap().unwrap();
        let hello = Frame::read(&PROTOCOL.envelope, hello.to_text().unwrap()).unwrap();
        assert_eq!((hello.opcode, hello.data.get()), (10, r#"{"heartbeat_interval":10000}"#));
        for frame in frames {
            let frame = if frame.starts_with("{\"token") { Frame::write(&PROTOCOL.envelope, 2, &frame, None, None) } else { frame };
            if ws.send(Ws::text(frame)).await.is_err() {
                break;
            }
        }
        let closed = loop {
            match ws.next().await {
                Some(Ok(Ws::Close(frame))) => break frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                other => panic!("no close frame: {other:?}"),
            }
        };
        assert_eq!(closed, Some(code));
    }
}

#[test]
fn a_dispatch_is_decoded_as_its_frame_is_read_when_its_name_comes_first() {
    let read = |text: &str, take: Take| Frame::read_with::<Event>(&PROTOCOL.envelope, Some(0), text, |_| take).expect("reads");
    let first = r#"{"t":"MESSAGE_CREATE","s":7,"op":0,"d":{"id":1,"content":"hi"}}"#;
    let decoded = read(first, Take::Decode);
    assert_eq!((decoded.opcode, decoded.sequence, decoded.event.as_deref()), (0, Some(7), Some("MESSAGE_CREATE")));
    assert!(matches!(decoded.data, Data::Event(Event::MessageCreate(ref m)) if m.content == "hi"), "{:?}", decoded.data);
    assert!(matches!(read(first, Take::Skip).data, Data::Skipped));
    assert!(matches!(read(first, Take::Raw).data, Data::Raw(ref raw) if raw.get() == r#"{"id":1,"content":"hi"}"#));
    // Named after its payload, or not a dispatch: kept raw for the caller to decode.
    let last = r#"{"op":0,"d":{"id":1,"content":"hi"},"s":7,"t":"MESSAGE_CREATE"}"#;
    assert!(matches!(read(last, Take::Decode).data, Data::Raw(_)));
    let hello = r#"{"t":null,"op":10,"d":{"heartbeat_interval":10}}"#;
    assert!(matches!(read(hello, Take::Decode).data, Data::Raw(_)));
    // A payload without its event's shape fails the read; the raw read still succeeds.
    let odd = r#"{"t":"MESSAGE_CREATE","op":0,"d":{"id":"x"}}"#;
    assert!(Frame::read_with::<Event>(&PROTOCOL.envelope, Some(0), odd, |_| Take::Decode).is_err());
    assert!(Frame::read(&PROTOCOL.envelope, odd).is_ok());
}

#[test]
fn a_frame_reads_without_a_value_detour_and_writes_back() {
    let text = r#"{"t":"MESSAGE_CREATE","s":42,"op":0,"d":{"id":"1","nested":{"op":9}},"extra":[1]}"#;
    let frame = Frame::read(&PROTOCOL.envelope, text).expect("reads");
    assert_eq!((frame.opcode, frame.sequence, frame.event.as_deref()), (0, Some(42), Some("MESSAGE_CREATE")));
    assert_eq!(frame.data.get(), r#"{"id":"1","nested":{"op":9}}"#);
    let written = Frame::write(&PROTOCOL.envelope, 0, frame.data.get(), Some(42), Some("MESSAGE_CREATE"));
    assert_eq!(written, r#"{"t":"MESSAGE_CREATE","s":42,"op":0,"d":{"id":"1","nested":{"op":9}}}"#);
    assert!(Frame::read(&PROTOCOL.envelope, r#"{"d":1}"#).is_err(), "no opcode");
    assert!(Frame::read(&PROTOCOL.envelope, r#"{"op":300}"#).is_err(), "no byte");
    let heartbeat = Frame::read(&PROTOCOL.envelope, r#"{"op":1,"d":null,"s":null,"t":null}"#).expect("nulls read");
    assert_eq!((heartbeat.sequence, heartbeat.event), (None, None));
}

#[test]
fn the_close_code_table_decides_what_a_client_does() {
    assert_eq!(PROTOCOL.policy(4004), Policy::Fatal);
    assert_eq!(PROTOCOL.policy(4009), Policy::Reidentify);
    assert_eq!(PROTOCOL.policy(4000), Policy::Resume);
    assert_eq!(PROTOCOL.policy(1000), Policy::Reidentify, "a normal closure ends the session");
    assert_eq!(PROTOCOL.policy(4999), Policy::Resume, "an unknown code is the protocol's default");
    assert_eq!(PROTOCOL.close_for(Cause::RateLimited).map(|c| c.code), Some(4008));
}

/// A presence update with an empty status breaks this test's one constraint.
#[derive(Serialize)]
struct CheckedPresence {
    status: &'static str,
}

impl Command for CheckedPresence {
    const OPCODE: u8 = 3;

    fn violations(&self) -> Vec<platform_codegen_runtime::validation::Violation> {
        check_presence(self.status)
    }
}

fn check_presence(status: &str) -> Vec<platform_codegen_runtime::validation::Violation> {
    if status.is_empty() { vec![platform_codegen_runtime::validation::Violation::new("/status", "is empty")] } else { Vec::new() }
}

fn check(opcode: u8, data: &RawValue) -> Option<Vec<platform_codegen_runtime::validation::Violation>> {
    let value: Value = serde_json::from_str(data.get()).ok()?;
    (opcode == 3).then(|| check_presence(value["status"].as_str().unwrap_or_default()))
}

/// On the real clock, like the burst test: the server reads a client's later frames through
/// hyper's upgraded connection, whose wakeups tokio's paused clock does not wait for. Nothing here
/// depends on time.
#[tokio::test]
async fn commands_that_break_the_spec_are_refused_on_both_sides() {
    let hub = Hub::checking(&PROTOCOL, Platform::default(), Options::default(), Some(check));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("ws://{}", listener.local_addr().expect("an address"));
    let router = hub.router();
    tokio::spawn(async move { axum::serve(listener, router).await });
    let mut shard = Shard::<Event>::new(&PROTOCOL, config(&url));
    ready(&mut shard).await;
    let sender = shard.sender();
    let refused = sender.send(&CheckedPresence { status: "" });
    assert_eq!(refused, Err(platform_codegen_runtime::shard::SendError::Invalid(check_presence(""))), "the shard sends nothing that breaks the spec");
    sender.send(&CheckedPresence { status: "online" }).expect("a valid command");
    sender.send_raw(3, r#"{"status":""}"#.to_owned()).expect("queued raw");
    let code = loop {
        if let Received::Session(SessionEvent::Closed { code, .. }) = shard.next().await.unwrap().unwrap() {
            break code;
        }
    };
    assert_eq!(code, Some(4002), "the hub closes a refused command with the decode-error code");
    assert_eq!(hub.sessions().commands.lock().unwrap().len(), 1, "the platform saw the valid command only");
}
