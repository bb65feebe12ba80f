//! Webhooks over 127.0.0.1: the shapes fixture's `note_events` (Standard Webhooks) and
//! `interactions` (Ed25519 over the timestamp and the body, a ping answered with a body), from
//! the generated sender, and from deliveries signed here without the runtime (`hmac` and
//! `ed25519-dalek` directly, as another platform would), to the generated receiver mounted in
//! an app's axum server. A refused delivery never reaches the handler.

use base64::Engine as _;
use ed25519_dalek::Signer as _;
use hmac::Mac as _;
use shapes_client::types::events::{CommandInvoked, NoteCreated};
use shapes_client::types::resources::Note;
use shapes_client::types::webhooks::{InteractionsEvent, NoteEventsEvent};
use shapes_client::webhooks::{self as receiving, Key, Received, Reply};
use shapes_server::webhooks::{self as sending, Delivered, SigningKey, Undelivered};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const SECRET: &[u8] = b"the app's shared secret";
const SEED: [u8; 32] = [7; 32];

/// What the app's handlers were given.
#[derive(Default)]
struct Seen {
    notes: Mutex<Vec<Received<NoteEventsEvent>>>,
    interactions: Mutex<Vec<Received<InteractionsEvent>>>,
    /// How many note deliveries to answer `503` before acknowledging.
    failures: AtomicUsize,
    /// Whether that `503` asks for twenty seconds (`Retry-After`).
    later: std::sync::atomic::AtomicBool,
}

/// An app whose axum server mounts both receivers; its address and what it saw.
async fn app() -> (String, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let (notes, interactions) = (seen.clone(), seen.clone());
    let secret = format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(SECRET));
    let public = ed25519_dalek::SigningKey::from_bytes(&SEED).verifying_key();
    let public: String = public.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let note_events = receiving::note_events(vec![Key::secret(&secret).expect("a secret")]).post(move |received| {
        let seen = notes.clone();
        async move {
            if seen.failures.load(Ordering::SeqCst) > 0 {
                seen.failures.fetch_sub(1, Ordering::SeqCst);
                return if seen.later.load(Ordering::SeqCst) { Reply::Later(Duration::from_secs(20)) } else { Reply::Status(503) };
            }
            seen.notes.lock().expect("unpoisoned").push(received);
            Reply::Ack
        }
    });
    let commands = receiving::interactions(vec![Key::ed25519_hex(&public).expect("a key")]).post(move |received: Received<InteractionsEvent>| {
        let seen = interactions.clone();
        async move {
            let name = match &received.event {
                InteractionsEvent::CommandInvoked(c) => c.name.clone(),
                _ => "?".to_owned(),
            };
            seen.interactions.lock().expect("unpoisoned").push(received);
            Reply::Json(serde_json::json!({ "type": 4, "data": { "content": format!("ran {name}") } }))
        }
    });
    let router = axum::Router::new().route("/hooks/notes", note_events).route("/hooks/interactions", commands);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, seen)
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs() as i64
}

fn note() -> NoteCreated {
    NoteCreated::new(Note::new(1, "first", vec!["a".to_owned()]))
}

/// Standard Webhooks' `v1,` signature of a delivery, computed here.
fn hmac_signature(secret: &[u8], id: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret).expect("any length");
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    format!("v1,{}", base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes()))
}

/// Posts a note delivery signed here.
async fn post_note(url: &str, id: &str, timestamp: i64, signature: &str, body: &[u8]) -> reqwest::Response {
    reqwest::Client::new()
        .post(format!("{url}/hooks/notes"))
        .header("webhook-id", id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature)
        .body(body.to_vec())
        .send()
        .await
        .expect("an answer")
}

/// Posts an interaction signed here with Ed25519 over the timestamp and the body.
async fn post_interaction(url: &str, key: &ed25519_dalek::SigningKey, timestamp: i64, body: &[u8]) -> reqwest::Response {
    let signed = [timestamp.to_string().as_bytes(), body].concat();
    let signature: String = key.sign(&signed).to_bytes().iter().map(|b| format!("{b:02x}")).collect();
    reqwest::Client::new()
        .post(format!("{url}/hooks/interactions"))
        .header("X-Signature-Ed25519", signature)
        .header("X-Signature-Timestamp", timestamp.to_string())
        .body(body.to_vec())
        .send()
        .await
        .expect("an answer")
}

const NOTE_BODY: &[u8] = br#"{"type":"note.created","timestamp":"2026-01-01T00:00:00Z","data":{"note":{"id":"1","title":"first","tags":[]}}}"#;

#[tokio::test]
async fn the_generated_sender_delivers_a_typed_event_to_the_generated_receiver() {
    let (url, seen) = app().await;
    let sender = sending::note_events(vec![SigningKey::Secret(SECRET.to_vec())]);
    let delivered = sender.send(&format!("{url}/hooks/notes"), "msg_1", &NoteEventsEvent::NoteCreated(note())).await;
    assert_eq!(delivered, Ok(Delivered { status: 204, tries: 1 }));
    let notes = seen.notes.lock().expect("unpoisoned");
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].event, NoteEventsEvent::NoteCreated(note()));
    assert_eq!(notes[0].id.as_deref(), Some("msg_1"), "the id of the Standard Webhooks header");
    assert!(notes[0].timestamp.as_ref().is_some_and(serde_json::Value::is_string), "the envelope's timestamp");
}

#[tokio::test]
async fn a_delivery_signed_elsewhere_is_received_and_an_unknown_event_arrives_raw() {
    let (url, seen) = app().await;
    let t = now();
    let answer = post_note(&url, "msg_a", t, &hmac_signature(SECRET, "msg_a", t, NOTE_BODY), NOTE_BODY).await;
    assert_eq!(answer.status(), 204);
    let unknown = br#"{"type":"note.archived","data":{"id":"1","shelf":3}}"#;
    let answer = post_note(&url, "msg_b", t, &hmac_signature(SECRET, "msg_b", t, unknown), unknown).await;
    assert_eq!(answer.status(), 204);
    let notes = seen.notes.lock().expect("unpoisoned");
    assert!(matches!(&notes[0].event, NoteEventsEvent::NoteCreated(n) if n.note.title == "first"));
    match &notes[1].event {
        NoteEventsEvent::Unknown { name, raw } => {
            assert_eq!(name, "note.archived");
            assert_eq!(*raw, serde_json::json!({ "id": "1", "shelf": 3 }));
        }
        other => panic!("an event the spec does not name arrives raw, not {other:?}"),
    }
}

#[tokio::test]
async fn what_does_not_verify_is_a_401_and_never_reaches_the_handler() {
    let (url, seen) = app().await;
    let t = now();
    let good = hmac_signature(SECRET, "msg_1", t, NOTE_BODY);
    let tampered_body = NOTE_BODY.iter().map(|b| if *b == b'f' { b'F' } else { *b }).collect::<Vec<u8>>();
    let mut tampered_signature = good.clone();
    tampered_signature.replace_range(5..6, if &good[5..6] == "A" { "B" } else { "A" });
    let cases: Vec<(&str, String, i64, String, Vec<u8>)> = vec![
        ("a tampered body", "msg_1".into(), t, good.clone(), tampered_body),
        ("a tampered signature", "msg_2".into(), t, tampered_signature, NOTE_BODY.to_vec()),
        ("a wrong key", "msg_3".into(), t, hmac_signature(b"another secret", "msg_3", t, NOTE_BODY), NOTE_BODY.to_vec()),
        ("a stale timestamp", "msg_4".into(), t - 600, hmac_signature(SECRET, "msg_4", t - 600, NOTE_BODY), NOTE_BODY.to_vec()),
        ("a timestamp from the future", "msg_5".into(), t + 600, hmac_signature(SECRET, "msg_5", t + 600, NOTE_BODY), NOTE_BODY.to_vec()),
        ("no signature", "msg_6".into(), t, String::new(), NOTE_BODY.to_vec()),
    ];
    for (what, id, timestamp, signature, body) in cases {
        let answer = post_note(&url, &id, timestamp, &signature, &body).await;
        assert_eq!(answer.status(), 401, "{what}");
        let error: serde_json::Value = answer.json().await.expect("the platform's error body");
        assert!(error["code"].is_number() && error["message"].is_string(), "{what}: {error}");
    }
    // Replayed: the same id, signed and fresh, a second time.
    let answer = post_note(&url, "msg_7", t, &hmac_signature(SECRET, "msg_7", t, NOTE_BODY), NOTE_BODY).await;
    assert_eq!(answer.status(), 204);
    let answer = post_note(&url, "msg_7", t, &hmac_signature(SECRET, "msg_7", t, NOTE_BODY), NOTE_BODY).await;
    assert_eq!(answer.status(), 401, "a replayed id");
    assert_eq!(seen.notes.lock().expect("unpoisoned").len(), 1, "only the first msg_7 reached the handler");
}

#[tokio::test]
async fn one_valid_signature_among_several_passes_while_keys_rotate() {
    let (url, seen) = app().await;
    let t = now();
    let rotating = format!("{} {}", hmac_signature(b"the old secret", "msg_r", t, NOTE_BODY), hmac_signature(SECRET, "msg_r", t, NOTE_BODY));
    assert_eq!(post_note(&url, "msg_r", t, &rotating, NOTE_BODY).await.status(), 204);
    let sender = sending::note_events(vec![SigningKey::Secret(b"the old secret".to_vec()), SigningKey::Secret(SECRET.to_vec())]);
    let delivered = sender.send(&format!("{url}/hooks/notes"), "msg_s", &NoteEventsEvent::NoteCreated(note())).await;
    assert_eq!(delivered, Ok(Delivered { status: 204, tries: 1 }), "the sender signs with both keys");
    assert_eq!(seen.notes.lock().expect("unpoisoned").len(), 2);
}

#[tokio::test]
async fn a_verified_body_that_does_not_read_is_a_400_with_the_error_body() {
    let (url, seen) = app().await;
    let t = now();
    for body in [&b"{not json"[..], br#"{"type":7,"data":{}}"#, br#"{"type":"note.created","data":{"note":"no"}}"#] {
        let answer = post_note(&url, "msg_m", t, &hmac_signature(SECRET, "msg_m", t, body), body).await;
        assert_eq!(answer.status(), 400, "{}", String::from_utf8_lossy(body));
        let error: serde_json::Value = answer.json().await.expect("the platform's error body");
        assert_eq!(error["code"], 0, "the general code: {error}");
    }
    assert!(seen.notes.lock().expect("unpoisoned").is_empty());
}

#[tokio::test]
async fn an_interaction_ping_is_answered_without_the_handler_and_a_command_gets_its_reply() {
    let (url, seen) = app().await;
    let key = ed25519_dalek::SigningKey::from_bytes(&SEED);
    let t = now();
    let answer = post_interaction(&url, &key, t, br#"{"type":1,"id":"9"}"#).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.json::<serde_json::Value>().await.expect("JSON"), serde_json::json!({ "type": 1 }));
    assert!(seen.interactions.lock().expect("unpoisoned").is_empty(), "the ping never reaches the handler");

    let command = br#"{"type":2,"id":"10","name":"roll","options":{"sides":"6"}}"#;
    let answer = post_interaction(&url, &key, t, command).await;
    assert_eq!(answer.status(), 200);
    let reply: serde_json::Value = answer.json().await.expect("JSON");
    assert_eq!(reply["data"]["content"], "ran roll");
    let wrong = ed25519_dalek::SigningKey::from_bytes(&[8; 32]);
    assert_eq!(post_interaction(&url, &wrong, t, command).await.status(), 401, "another key");
    assert_eq!(post_interaction(&url, &key, t, command).await.status(), 401, "the envelope's id, again");
    let interactions = seen.interactions.lock().expect("unpoisoned");
    assert_eq!(interactions.len(), 1);
    assert_eq!(interactions[0].id.as_deref(), Some("10"));
    assert!(matches!(&interactions[0].event, InteractionsEvent::CommandInvoked(CommandInvoked { name, .. }) if name == "roll"));
}

#[tokio::test]
async fn the_generated_sender_pings_as_the_platform_checks_an_endpoint() {
    let (url, seen) = app().await;
    let sender = sending::interactions(vec![SigningKey::Ed25519(ed25519_dalek::SigningKey::from_bytes(&SEED))]);
    let pinged = sender.ping(&format!("{url}/hooks/interactions"), "p").await.expect("the webhook has a ping");
    assert_eq!(pinged, Ok(Delivered { status: 200, tries: 1 }));
    assert!(seen.interactions.lock().expect("unpoisoned").is_empty());
}

#[tokio::test(start_paused = true)]
async fn the_sender_tries_a_503_again_after_the_spec_s_backoff() {
    let (url, seen) = app().await;
    seen.failures.store(1, Ordering::SeqCst);
    let sender = sending::note_events(vec![SigningKey::Secret(SECRET.to_vec())]);
    let start = tokio::time::Instant::now();
    let delivered = sender.send(&format!("{url}/hooks/notes"), "msg_retry", &NoteEventsEvent::NoteCreated(note())).await;
    assert_eq!(delivered, Ok(Delivered { status: 204, tries: 2 }));
    // `initial_seconds: 1`, less at most a quarter of jitter.
    assert!(start.elapsed() >= Duration::from_millis(750), "the spec's first backoff was waited: {:?}", start.elapsed());
    assert_eq!(seen.notes.lock().expect("unpoisoned").len(), 1, "the retry, same id, is no replay: the app had not acknowledged it");
}

#[tokio::test(start_paused = true)]
async fn the_sender_gives_up_at_the_spec_s_last_try() {
    let (url, seen) = app().await;
    seen.failures.store(usize::MAX, Ordering::SeqCst);
    let sender = sending::note_events(vec![SigningKey::Secret(SECRET.to_vec())]);
    let delivered = sender.send(&format!("{url}/hooks/notes"), "msg_down", &NoteEventsEvent::NoteCreated(note())).await;
    assert_eq!(delivered, Err(Undelivered { status: Some(503), tries: 4 }), "the spec's `attempts: 4`");
}

#[tokio::test(start_paused = true)]
async fn a_slow_interaction_is_deferred_before_the_spec_s_deadline_and_its_handler_goes_on() {
    let finished = Arc::new(AtomicUsize::new(0));
    let done = finished.clone();
    let public: String = ed25519_dalek::SigningKey::from_bytes(&SEED).verifying_key().as_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let receiver = receiving::interactions(vec![Key::ed25519_hex(&public).expect("a key")]);
    assert_eq!(receiver.deadline(), Some(Duration::from_secs(3)), "the spec's `ack_seconds: 3`");
    let slow = receiver.deferring(Reply::Json(serde_json::json!({ "type": 5 })), Duration::from_millis(500)).post(move |_| {
        let done = done.clone();
        async move {
            tokio::time::sleep(Duration::from_secs(10)).await;
            done.fetch_add(1, Ordering::SeqCst);
            Reply::Json(serde_json::json!({ "type": 4 }))
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, axum::Router::new().route("/hooks/interactions", slow)).await });

    let start = tokio::time::Instant::now();
    let answer = post_interaction(&url, &ed25519_dalek::SigningKey::from_bytes(&SEED), now(), br#"{"type":2,"id":"11","name":"slow"}"#).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.json::<serde_json::Value>().await.expect("JSON"), serde_json::json!({ "type": 5 }), "deferred");
    assert!(start.elapsed() < Duration::from_secs(3), "answered before the deadline: {:?}", start.elapsed());
    assert_eq!(finished.load(Ordering::SeqCst), 0);
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(finished.load(Ordering::SeqCst), 1, "the handler ran to its end after the deferral");
}

#[tokio::test(start_paused = true)]
async fn the_sender_waits_out_the_retry_after_an_app_asks_for() {
    let (url, seen) = app().await;
    seen.failures.store(1, Ordering::SeqCst);
    seen.later.store(true, Ordering::SeqCst);
    let sender = sending::note_events(vec![SigningKey::Secret(SECRET.to_vec())]);
    let start = tokio::time::Instant::now();
    let delivered = sender.send(&format!("{url}/hooks/notes"), "msg_later", &NoteEventsEvent::NoteCreated(note())).await;
    assert_eq!(delivered, Ok(Delivered { status: 204, tries: 2 }));
    // `Reply::Later(20 s)` answered `Retry-After: 20`, within the spec's `max_seconds: 30`.
    assert!(start.elapsed() >= Duration::from_secs(20), "the Retry-After was waited out: {:?}", start.elapsed());
}

#[tokio::test]
async fn every_event_the_mock_platform_makes_arrives_as_it_was_sent() {
    let (url, seen) = app().await;
    let sender = sending::note_events(vec![SigningKey::Secret(SECRET.to_vec())]);
    let events = shapes_server::mock::webhook_note_events();
    assert_eq!(events.len(), 2, "one of each event the spec names");
    for (i, event) in events.iter().enumerate() {
        let delivered = sender.send(&format!("{url}/hooks/notes"), &format!("mock_{i}"), event).await;
        assert_eq!(delivered, Ok(Delivered { status: 204, tries: 1 }));
    }
    let received: Vec<NoteEventsEvent> = seen.notes.lock().expect("unpoisoned").iter().map(|r| r.event.clone()).collect();
    assert_eq!(received, events);

    let (url, seen) = app().await;
    let sender = sending::interactions(vec![SigningKey::Ed25519(ed25519_dalek::SigningKey::from_bytes(&SEED))]);
    for event in &shapes_server::mock::webhook_interactions() {
        // The envelope's `id` is the invocation's own: the delivery goes under it.
        let id = match event {
            InteractionsEvent::CommandInvoked(c) => c.id.0.to_string(),
            other => panic!("the mock makes the events the spec names, not {other:?}"),
        };
        assert_eq!(sender.send(&format!("{url}/hooks/interactions"), &id, event).await.map(|d| d.status), Ok(200));
    }
    let received: Vec<InteractionsEvent> = seen.interactions.lock().expect("unpoisoned").iter().map(|r| r.event.clone()).collect();
    assert_eq!(received, shapes_server::mock::webhook_interactions());
}

#[tokio::test]
async fn a_copy_of_a_delivery_whose_handler_still_runs_is_asked_back_later() {
    let release = Arc::new(tokio::sync::Notify::new());
    let (started, handled) = (Arc::new(tokio::sync::Notify::new()), Arc::new(AtomicUsize::new(0)));
    let (wait, start, count) = (release.clone(), started.clone(), handled.clone());
    let secret = format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(SECRET));
    let hooks = receiving::note_events(vec![Key::secret(&secret).expect("a secret")]).post(move |_| {
        let (wait, start, count) = (wait.clone(), start.clone(), count.clone());
        async move {
            count.fetch_add(1, Ordering::SeqCst);
            start.notify_one();
            wait.notified().await;
            Reply::Ack
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, axum::Router::new().route("/hooks/notes", hooks)).await });
    let t = now();
    let signature = hmac_signature(SECRET, "msg_twice", t, NOTE_BODY);
    let first = tokio::spawn({
        let (url, signature) = (url.clone(), signature.clone());
        async move { post_note(&url, "msg_twice", t, &signature, NOTE_BODY).await.status() }
    });
    started.notified().await;
    let copy = post_note(&url, "msg_twice", t, &signature, NOTE_BODY).await;
    assert_eq!(copy.status(), 503, "the handler of the first is still running");
    assert_eq!(copy.headers()["retry-after"], "1");
    release.notify_one();
    assert_eq!(first.await.expect("the first delivery"), 204);
    assert_eq!(post_note(&url, "msg_twice", t, &signature, NOTE_BODY).await.status(), 401, "acknowledged now: a replay");
    assert_eq!(handled.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_sender_follows_no_redirect() {
    let moved = axum::Router::new().route("/hooks", axum::routing::post(|| async { axum::response::Redirect::temporary("http://169.254.169.254/") }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/hooks", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, moved).await });
    let sender = sending::note_events(vec![SigningKey::Secret(SECRET.to_vec())]);
    let delivered = sender.send(&url, "msg_moved", &NoteEventsEvent::NoteCreated(note())).await;
    assert_eq!(delivered, Err(Undelivered { status: Some(307), tries: 1 }), "a redirect is the app's final answer");
}

#[tokio::test]
async fn a_sender_without_a_key_of_the_scheme_sends_nothing() {
    let (url, seen) = app().await;
    let sender = sending::interactions(vec![SigningKey::Secret(SECRET.to_vec())]);
    let delivered = sender.send(&format!("{url}/hooks/interactions"), "1", &InteractionsEvent::Unknown { name: "7".into(), raw: serde_json::json!({}) }).await;
    assert_eq!(delivered, Err(Undelivered { status: None, tries: 0 }), "an Ed25519 scheme, and only a secret");
    assert!(seen.interactions.lock().expect("unpoisoned").is_empty());
}
