//! Webhook verification against signatures computed elsewhere: RFC 8032's Ed25519 test vectors
//! and the Standard Webhooks specification's HMAC example (which Python's `hmac` reproduces),
//! then the runtime's own signer, key rotation, tampering, staleness and replays.

use platform_codegen_runtime::delivery::{self, Delivery, Envelope, Hook, HookEvent, Ping, Received, Schedule};
use platform_codegen_runtime::webhooks::{self, Key, Rejection, Replays, Scheme, SigningKey, Verified, Verifier};
use std::collections::HashMap;
use std::time::Duration;

const DISCORD: Scheme = Scheme::Ed25519 { signature: "x-signature-ed25519", timestamp: "x-signature-timestamp" };

/// RFC 8032 §7.1, test 2: the public key, the message (one byte, `r`) and its signature.
const RFC8032_PUBLIC: &str = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
const RFC8032_SIGNATURE: &str =
    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00";

/// The Standard Webhooks specification's example: a secret, a delivery and its signature.
const STANDARD_SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const STANDARD_ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const STANDARD_TIMESTAMP: i64 = 1_614_265_330;
const STANDARD_BODY: &[u8] = br#"{"test": 2432232314}"#;
const STANDARD_SIGNATURE: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

fn headers(pairs: &[(&str, String)]) -> HashMap<String, String> {
    pairs.iter().map(|(n, v)| ((*n).to_owned(), v.clone())).collect()
}

fn check(v: &Verifier, h: &HashMap<String, String>, body: &[u8], now: i64) -> Result<Verified, Rejection> {
    v.verify(|name| h.get(name).map(String::as_str), body, now)
}

#[test]
fn an_rfc_8032_signature_verifies_and_a_tampered_one_does_not() {
    let verifier = Verifier::new(DISCORD, vec![Key::ed25519_hex(RFC8032_PUBLIC).expect("a key")]);
    // The message is the timestamp's text followed by the body: here `` and `r`.
    let signed = headers(&[("x-signature-timestamp", String::new()), ("x-signature-ed25519", RFC8032_SIGNATURE.to_owned())]);
    assert_eq!(check(&verifier, &signed, b"r", 0), Err(Rejection::BadTimestamp), "the signature verified; the empty timestamp is then no number");
    assert_eq!(check(&verifier, &signed, b"s", 0), Err(Rejection::BadSignature), "a tampered body");
    let mut tampered = RFC8032_SIGNATURE.to_owned();
    tampered.replace_range(0..2, "93");
    let forged = headers(&[("x-signature-timestamp", String::new()), ("x-signature-ed25519", tampered)]);
    assert_eq!(check(&verifier, &forged, b"r", 0), Err(Rejection::BadSignature), "a tampered signature");
    assert_eq!(check(&verifier, &headers(&[]), b"r", 0), Err(Rejection::Missing("x-signature-timestamp")));
}

#[test]
fn the_standard_webhooks_example_verifies() {
    let verifier = Verifier::new(Scheme::STANDARD, vec![Key::secret(STANDARD_SECRET).expect("a secret")]);
    let signed = headers(&[
        ("webhook-id", STANDARD_ID.to_owned()),
        ("webhook-timestamp", STANDARD_TIMESTAMP.to_string()),
        ("webhook-signature", STANDARD_SIGNATURE.to_owned()),
    ]);
    let verified = check(&verifier, &signed, STANDARD_BODY, STANDARD_TIMESTAMP).expect("verifies");
    assert_eq!(verified, Verified { id: Some(STANDARD_ID.to_owned()), timestamp: STANDARD_TIMESTAMP });
    assert_eq!(check(&verifier, &signed, br#"{"test": 2432232315}"#, STANDARD_TIMESTAMP), Err(Rejection::BadSignature));
    let wrong = Verifier::new(Scheme::STANDARD, vec![Key::secret("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").expect("a secret")]);
    assert_eq!(check(&wrong, &signed, STANDARD_BODY, STANDARD_TIMESTAMP), Err(Rejection::BadSignature), "the wrong key");
}

#[test]
fn the_signer_signs_what_the_verifier_checks_with_either_scheme() {
    let ed = SigningKey::Ed25519(ed25519_dalek::SigningKey::from_bytes(&[7; 32]));
    let hmac = SigningKey::Secret(b"a shared secret".to_vec());
    for (scheme, key) in [(DISCORD, ed.clone()), (Scheme::STANDARD, hmac.clone()), (Scheme::STANDARD, ed.clone())] {
        let signed = headers(&webhooks::sign(scheme, std::slice::from_ref(&key), "msg_1", 1_700_000_000, b"{}"));
        let verifier = Verifier::new(scheme, vec![key.verifying()]);
        assert!(check(&verifier, &signed, b"{}", 1_700_000_000).is_ok(), "{scheme:?} with {key:?}");
        assert_eq!(check(&verifier, &signed, b"{ }", 1_700_000_000), Err(Rejection::BadSignature));
    }
}

#[test]
fn one_valid_signature_among_several_passes_while_keys_rotate() {
    let (old, new) = (SigningKey::Secret(b"old secret".to_vec()), SigningKey::Secret(b"new secret".to_vec()));
    let signed = headers(&webhooks::sign(Scheme::STANDARD, &[old, new.clone()], "msg_2", 10, b"{}"));
    assert_eq!(signed["webhook-signature"].split(' ').count(), 2);
    let verifier = Verifier::new(Scheme::STANDARD, vec![new.verifying()]);
    assert!(check(&verifier, &signed, b"{}", 10).is_ok(), "the new key checks one of the two");
}

#[test]
fn a_stale_timestamp_and_a_replayed_id_are_refused() {
    let key = SigningKey::Secret(b"secret".to_vec());
    let verifier = Verifier::new(Scheme::STANDARD, vec![key.verifying()]).with_tolerance(Duration::from_secs(300));
    let signed = headers(&webhooks::sign(Scheme::STANDARD, std::slice::from_ref(&key), "msg_3", 1_000, b"{}"));
    assert_eq!(check(&verifier, &signed, b"{}", 1_301), Err(Rejection::Stale { seconds: 301 }));
    assert_eq!(check(&verifier, &signed, b"{}", 699), Err(Rejection::Stale { seconds: -301 }), "from the future too");
    assert!(check(&verifier, &signed, b"{}", 1_200).is_ok());
    assert!(check(&verifier, &signed, b"{}", 1_210).is_ok(), "not done yet: the platform may try it again");
    verifier.remember("msg_3", 1_220);
    assert_eq!(check(&verifier, &signed, b"{}", 1_250), Err(Rejection::Replayed));
}

#[test]
fn replays_are_forgotten_past_the_window() {
    let replays = Replays::new(Duration::from_secs(60));
    assert!(replays.first_time("a", 0));
    assert!(!replays.first_time("a", 30));
    assert!(replays.first_time("b", 100), "`a` is forgotten by now");
    assert!(replays.first_time("a", 100));
}

#[test]
fn empty_and_short_secrets_are_refused_and_an_empty_one_never_verifies() {
    assert!(Key::secret("whsec_").is_err(), "an unset variable");
    assert!(Key::secret("").is_err());
    assert!(Key::secret("whsec_c2hvcnQ=").is_err(), "`short`, five bytes");
    assert!(SigningKey::secret("whsec_c2hvcnQ=").is_err());
    assert!(Key::secret(STANDARD_SECRET).is_ok());
    let empty = SigningKey::Secret(Vec::new());
    let verifier = Verifier::new(Scheme::STANDARD, vec![empty.verifying()]);
    let h = headers(&webhooks::sign(Scheme::STANDARD, std::slice::from_ref(&empty), "msg", 5, b"{}"));
    assert_eq!(check(&verifier, &h, b"{}", 5), Err(Rejection::BadSignature), "anyone can compute an HMAC under an empty key");
}

#[test]
fn a_header_of_too_many_signatures_is_refused_before_any_is_checked() {
    let key = SigningKey::Secret(b"a secret of enough bytes".to_vec());
    let verifier = Verifier::new(Scheme::STANDARD, vec![key.verifying()]);
    let mut h = headers(&webhooks::sign(Scheme::STANDARD, std::slice::from_ref(&key), "msg", 5, b"{}"));
    let valid = h["webhook-signature"].clone();
    assert!(check(&verifier, &h, b"{}", 5).is_ok());
    let padded = format!("{} {valid}", ["v1,AAAA"; webhooks::MAX_SIGNATURES].join(" "));
    h.insert("webhook-signature".into(), padded);
    assert_eq!(check(&verifier, &h, b"{}", 5), Err(Rejection::BadSignature), "nine signatures, the last one valid");
}

#[test]
fn keys_that_are_not_keys_are_refused() {
    assert!(Key::ed25519_hex("zz").is_err());
    assert!(Key::ed25519_hex(&"+f".repeat(32)).is_err());
    assert!(Key::secret("whsec_not base64!").is_err());
}

/// A hook in Discord's interaction envelope: the whole body is the event, named by its integer
/// `type`; `1` is the ping, answered `{"type":1}`.
const INTERACTIONS: Hook = Hook {
    id: "interactions",
    envelope: Envelope { kind: &["type"], numbered: true, data: None, id: Some(&["id"]), timestamp: None },
    scheme: Some(DISCORD),
    tolerance: Some(Duration::from_secs(300)),
    ping: Some(Ping { member: &["type"], value: "1", status: 200, answer: Some(r#"{"type":1}"#) }),
    ack_status: 204,
    ack_deadline: Some(Duration::from_secs(3)),
    schedule: Schedule { attempts: 1, initial: Duration::from_secs(1), max: Duration::from_secs(1) },
};

/// A hook in a nested envelope: `event.type` names it, `event.data` holds it.
const NESTED: Hook = Hook {
    id: "nested",
    envelope: Envelope { kind: &["event", "type"], numbered: false, data: Some(&["event", "data"]), id: None, timestamp: Some(&["event", "timestamp"]) },
    scheme: Some(Scheme::STANDARD),
    tolerance: Some(Duration::from_secs(300)),
    ping: Some(Ping { member: &["type"], value: "0", status: 204, answer: None }),
    ack_status: 204,
    ack_deadline: None,
    schedule: Schedule { attempts: 3, initial: Duration::from_secs(1), max: Duration::from_secs(4) },
};

/// A union of one named event and the others, as the generator writes one.
#[derive(Clone, Debug, PartialEq)]
enum Event {
    Named { note: String },
    Unknown { name: String, raw: serde_json::Value },
}

impl HookEvent for Event {
    fn from_data(name: &str, data: serde_json::Value) -> Result<Self, String> {
        match name {
            "2" | "note.created" => {
                let note = data.get("note").and_then(|n| n.as_str()).ok_or("no note")?;
                Ok(Event::Named { note: note.to_owned() })
            }
            _ => Ok(Event::Unknown { name: name.to_owned(), raw: data }),
        }
    }

    fn to_data(&self) -> Result<(String, serde_json::Value), String> {
        match self {
            Event::Named { note } => Ok(("note.created".to_owned(), serde_json::json!({ "note": note }))),
            Event::Unknown { name, raw } => Ok((name.clone(), raw.clone())),
        }
    }
}

#[test]
fn a_delivery_is_verified_before_it_is_read() {
    let key = SigningKey::Secret(b"secret".to_vec());
    let verifier = Verifier::for_hook(&NESTED, vec![key.verifying()]).expect("signed");
    let signed = |body: &[u8], id: &str| headers(&webhooks::sign(Scheme::STANDARD, std::slice::from_ref(&key), id, 5, body));
    let accept =
        |h: &HashMap<String, String>, body: &[u8]| webhooks::accept::<Event>(&NESTED, Some(&verifier), None, |n| h.get(n).map(String::as_str), body, 5);
    assert_eq!(accept(&signed(br#"{"type":0}"#, "a"), br#"{"type":0}"#), Ok(Delivery::Ping));
    let body = br#"{"type":1,"event":{"type":"note.created","timestamp":"t","data":{"note":"n"}}}"#;
    let Ok(Delivery::Event(received)) = accept(&signed(body, "b"), body) else { panic!("an event") };
    assert_eq!(received, Received { event: Event::Named { note: "n".into() }, id: Some("b".into()), timestamp: Some("t".into()) });
    let refused = accept(&signed(body, "c"), br#"{"type":2}"#).expect_err("tampered");
    assert_eq!(refused.status, 401);
    let malformed = accept(&signed(b"{not json", "d"), b"{not json").expect_err("malformed");
    assert_eq!(malformed.status, 400, "verified, then refused as unreadable: {}", malformed.message);
    let unknown = br#"{"type":1,"event":{"type":"note.burnt","data":[1]}}"#;
    let Ok(Delivery::Event(received)) = accept(&signed(unknown, "e"), unknown) else { panic!("an event") };
    assert_eq!(received.event, Event::Unknown { name: "note.burnt".into(), raw: serde_json::json!([1]) });
}

#[test]
fn an_envelope_written_is_read_back() {
    let event = Event::Named { note: "n".into() };
    let body = delivery::write(&NESTED, &event, "id", serde_json::json!("t")).expect("written");
    let read: Delivery<Event> = delivery::read(&NESTED, &body).expect("read");
    assert_eq!(read, Delivery::Event(Received { event, id: None, timestamp: Some("t".into()) }));
    let interaction =
        delivery::write(&INTERACTIONS, &Event::Unknown { name: "2".into(), raw: serde_json::json!({ "note": "x" }) }, "9", serde_json::Value::Null)
            .expect("written");
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&interaction).expect("JSON"), serde_json::json!({ "note": "x", "type": 2, "id": "9" }));
    let read: Delivery<Event> = delivery::read(&INTERACTIONS, &interaction).expect("read");
    assert_eq!(read, Delivery::Event(Received { event: Event::Named { note: "x".into() }, id: Some("9".into()), timestamp: None }));
    assert!(delivery::read::<Event>(&INTERACTIONS, br#"{"type":"2"}"#).is_err(), "a numbered event named by text");
}

#[test]
fn an_envelope_id_seen_before_is_a_replay_where_the_scheme_has_none() {
    let signing = SigningKey::Ed25519(ed25519_dalek::SigningKey::from_bytes(&[7; 32]));
    let verifier = Verifier::for_hook(&INTERACTIONS, vec![signing.verifying()]).expect("signed");
    let replays = Replays::for_hook(&INTERACTIONS).expect("an envelope id and a tolerance");
    let body = br#"{"type":2,"id":"42","note":"n"}"#;
    let h = headers(&webhooks::sign(DISCORD, std::slice::from_ref(&signing), "", 100, body));
    let accept = || webhooks::accept::<Event>(&INTERACTIONS, Some(&verifier), Some(&replays), |n| h.get(n).map(String::as_str), body, 100);
    assert!(accept().is_ok());
    assert!(accept().is_ok(), "not acknowledged yet");
    replays.remember("42", 100);
    assert_eq!(accept().expect_err("again").status, 401);
}

mod delivering {
    use super::*;
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A receiver over 127.0.0.1 that verifies each delivery with `key`, answers its first
    /// `failures` verified deliveries with `status` (and `Retry-After: 2`), then 204. It counts
    /// the verified ones.
    async fn receiver(key: Key, failures: usize, status: StatusCode) -> (String, Arc<AtomicUsize>) {
        let verified = Arc::new(AtomicUsize::new(0));
        let counted = verified.clone();
        let verifier = Arc::new(Verifier::new(Scheme::STANDARD, vec![key]));
        let app = axum::Router::new().fallback(move |h: axum::http::HeaderMap, body: axum::body::Bytes| {
            let (verified, verifier) = (counted.clone(), verifier.clone());
            async move {
                let header = |name: &str| h.get(name).and_then(|v| v.to_str().ok());
                if verifier.verify(header, &body, webhooks::now()).is_err() {
                    return StatusCode::UNAUTHORIZED.into_response();
                }
                if verified.fetch_add(1, Ordering::SeqCst) < failures {
                    (status, [("retry-after", "2")]).into_response()
                } else {
                    StatusCode::NO_CONTENT.into_response()
                }
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}/webhooks", listener.local_addr().expect("an address"));
        tokio::spawn(async move { axum::serve(listener, app).await });
        (url, verified)
    }

    fn retry() -> platform_codegen_runtime::retry::Retry {
        platform_codegen_runtime::retry::Retry { attempts: 4, initial: Duration::from_secs(1), max: Duration::from_secs(10), ..Default::default() }
    }

    async fn deliver(url: &str, key: &SigningKey) -> Result<webhooks::Delivered, webhooks::Undelivered> {
        let http = reqwest::Client::new();
        let keys = std::slice::from_ref(key);
        webhooks::deliver(&http, url, Some(Scheme::STANDARD), keys, "msg_9", br#"{"type":1}"#, &retry(), Duration::from_secs(3), webhooks::now).await
    }

    #[tokio::test(start_paused = true)]
    async fn a_503_is_delivered_again_after_its_retry_after() {
        let key = SigningKey::Secret(b"secret".to_vec());
        let (url, verified) = receiver(key.verifying(), 1, StatusCode::SERVICE_UNAVAILABLE).await;
        let start = tokio::time::Instant::now();
        assert_eq!(deliver(&url, &key).await, Ok(webhooks::Delivered { status: 204, tries: 2 }));
        assert_eq!(verified.load(Ordering::SeqCst), 2, "each try signed afresh and verified");
        assert!(start.elapsed() >= Duration::from_secs(2), "the Retry-After was waited out: {:?}", start.elapsed());
    }

    #[tokio::test(start_paused = true)]
    async fn a_receiver_that_always_fails_is_given_up_at_the_limit() {
        let key = SigningKey::Secret(b"secret".to_vec());
        let (url, verified) = receiver(key.verifying(), usize::MAX, StatusCode::INTERNAL_SERVER_ERROR).await;
        assert_eq!(deliver(&url, &key).await, Err(webhooks::Undelivered { status: Some(500), tries: 4 }));
        assert_eq!(verified.load(Ordering::SeqCst), 4);
    }

    #[tokio::test(start_paused = true)]
    async fn a_refusal_is_final() {
        let (url, verified) = receiver(SigningKey::Secret(b"the app's".to_vec()).verifying(), 0, StatusCode::OK).await;
        let wrong = SigningKey::Secret(b"another".to_vec());
        assert_eq!(deliver(&url, &wrong).await, Err(webhooks::Undelivered { status: Some(401), tries: 1 }));
        assert_eq!(verified.load(Ordering::SeqCst), 0);
    }
}
