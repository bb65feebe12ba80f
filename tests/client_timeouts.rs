//! The generated client's idempotency keys and timeouts, over 127.0.0.1 against servers that
//! fail or stall on purpose, on tokio's paused clock.
//!
//! The shapes fixture's `retry` policy tries a call four times in all. A `POST` whose endpoint
//! takes an idempotency key is sent with a fresh key, tried again after
//! a `500` with the same key; a `POST` without one is not tried again once sent; a key the caller
//! gives is kept. A try slower than the per-try timeout has no answer (and an idempotent call is
//! tried again); a call slower than the whole-call timeout fails with `Error::TimedOut`. The head
//! of every answer reaches `on_answer`.

use axum::http::{HeaderMap, StatusCode};
use shapes_client::types::endpoints::{create_note, get_note, send_feedback};
use shapes_client::types::placeholders::Placeholders;
use shapes_client::types::wire::Snowflake;
use shapes_client::{Client, Error, Timeouts};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// A server that answers every request `status` after `delay`, recording the `Idempotency-Key`
/// of each (empty when it had none).
async fn server(status: StatusCode, delay: Duration) -> (Client, Arc<Mutex<Vec<String>>>) {
    let keys = Arc::new(Mutex::new(Vec::new()));
    let seen = keys.clone();
    let app = axum::Router::new().fallback(move |headers: HeaderMap| {
        let seen = seen.clone();
        async move {
            let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
            seen.lock().unwrap().push(key);
            tokio::time::sleep(delay).await;
            (status, [("content-type", "application/json")], r#"{"code": 0, "message": "failed"}"#)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let client = Client::new(Placeholders::at_origin(&origin)).with_credential(shapes_client::types::auth::Credential::bot("bot"));
    (client, keys)
}

#[tokio::test(start_paused = true)]
async fn a_post_with_an_idempotency_key_is_tried_again_with_the_same_key() {
    let (client, keys) = server(StatusCode::INTERNAL_SERVER_ERROR, Duration::ZERO).await;
    let failed = client.send_feedback().await;
    assert_eq!(failed.err().and_then(|e| e.status()), Some(500));
    let keys = keys.lock().unwrap().clone();
    assert_eq!(keys.len(), 4, "the spec's four tries in all (`retry.attempts`): {keys:?}");
    assert_eq!(keys[0].len(), 36, "a UUID: {keys:?}");
    assert!(keys.iter().all(|k| *k == keys[0]), "one key for every try: {keys:?}");
    let (client, keys) = server(StatusCode::INTERNAL_SERVER_ERROR, Duration::ZERO).await;
    let _ = client.send_feedback().await;
    assert_ne!(keys.lock().unwrap()[0], "", "a fresh key per call");
}

#[tokio::test(start_paused = true)]
async fn a_key_the_caller_gives_is_sent_as_given() {
    let (client, keys) = server(StatusCode::INTERNAL_SERVER_ERROR, Duration::ZERO).await;
    let mut request = send_feedback::Request::default();
    request.headers.idempotency_key = Some("mine".to_owned());
    let _ = client.send(&request).await;
    assert_eq!(*keys.lock().unwrap(), ["mine"; 4]);
    // The same through the request's setter of the header.
    let _ = client.send_feedback().idempotency_key("also mine").await;
    assert_eq!(keys.lock().unwrap()[4..], ["also mine"; 4]);
}

#[tokio::test(start_paused = true)]
async fn a_post_without_a_key_is_not_tried_again_once_sent() {
    let (client, keys) = server(StatusCode::INTERNAL_SERVER_ERROR, Duration::ZERO).await;
    let request = create_note::Request::new(create_note::Fields::new("t"));
    let failed = client.send(&request).await;
    assert_eq!(failed.err().and_then(|e| e.status()), Some(500));
    assert_eq!(*keys.lock().unwrap(), [""], "one try, and no key");
}

#[tokio::test(start_paused = true)]
async fn a_try_slower_than_its_timeout_has_no_answer_and_is_tried_again() {
    let (client, keys) = server(StatusCode::OK, Duration::from_secs(120)).await;
    let client = client.with_timeouts(Timeouts { per_try: Some(Duration::from_secs(5)), total: None });
    let start = Instant::now();
    let failed = client.send(&get_note::Request::new(Snowflake(1))).await;
    assert!(matches!(&failed, Err(Error::Transport(e)) if e.is_timeout()), "{failed:?}");
    assert_eq!(keys.lock().unwrap().len(), 4, "a GET is tried again, four tries in all");
    assert!(start.elapsed() >= Duration::from_secs(20) && start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
}

#[tokio::test(start_paused = true)]
async fn a_call_slower_than_its_whole_timeout_times_out() {
    let (client, _) = server(StatusCode::OK, Duration::from_secs(120)).await;
    let client = client.with_timeouts(Timeouts { per_try: None, total: Some(Duration::from_secs(7)) });
    let start = Instant::now();
    let failed = client.send(&get_note::Request::new(Snowflake(1))).await;
    assert!(matches!(failed, Err(Error::TimedOut)), "{failed:?}");
    assert_eq!(start.elapsed(), Duration::from_secs(7));
}

#[tokio::test(start_paused = true)]
async fn the_specs_retry_policy_is_the_clients_default() {
    let retry = shapes_client::client::RETRY;
    assert_eq!((retry.attempts, retry.initial, retry.max), (4, Duration::from_millis(250), Duration::from_secs(4)));
    // `409` is one of the spec's statuses that did nothing: a POST without a key is tried again.
    let (client, keys) = server(StatusCode::CONFLICT, Duration::ZERO).await;
    let request = create_note::Request::new(create_note::Fields::new("t"));
    let start = Instant::now();
    let _ = client.send(&request).await;
    assert_eq!(keys.lock().unwrap().len(), 4);
    assert!(start.elapsed() <= Duration::from_millis(250 + 500 + 1000), "the spec's backoff: {:?}", start.elapsed());
}

#[tokio::test(start_paused = true)]
async fn every_answers_head_reaches_the_on_answer_handler() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, shapes_server::mock::router()).await });
    let heads = Arc::new(Mutex::new(Vec::new()));
    let seen = heads.clone();
    let client = shapes_client::Client::new(Placeholders::at_origin(&origin)).with_credential(shapes_client::types::auth::Credential::bot("bot")).on_answer(
        move |head| {
            let kind = head.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
            seen.lock().unwrap().push((head.endpoint, head.status, kind));
        },
    );
    let mut request = shapes_client::types::endpoints::list_notes::Request::default();
    request.headers.locale = "en".to_owned();
    client.send(&request).await.expect("notes");
    let refused = client
        .with_credential(shapes_client::types::auth::Credential::new(shapes_client::types::auth::TokenKind::Bearer, "b"))
        .send(&request.clone().limit(0))
        .await;
    assert!(matches!(refused, Err(shapes_client::Error::Invalid(_))), "refused before sending: no answer");
    assert_eq!(*heads.lock().unwrap(), [("list_notes", 200, "application/json".to_owned())]);
}
