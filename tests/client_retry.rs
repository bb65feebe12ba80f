//! The generated client tries a call again when that cannot do harm, over 127.0.0.1 against a
//! server that fails on purpose: a 503 with `Retry-After` is waited out, a 500 is tried again
//! for an idempotent `GET` but not for a `POST`, a refused connection is tried again, and the
//! attempts run out. Tokio's clock is paused: the waits pass without sleeping, and the test reads
//! how long they were.

use axum::http::StatusCode;
use axum::response::IntoResponse;
use platform_client::types::auth::Credential;
use platform_client::types::endpoints::{get_guild_channels, send_lobby_message};
use platform_client::types::placeholders::Placeholders;
use platform_client::{Client, Error, Retry};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// A server answering its first `failures` requests with `status` (and `Retry-After` when
/// given), and every later one with an empty JSON list. It counts what it receives.
async fn failing(failures: usize, status: StatusCode, retry_after: Option<&'static str>) -> (Client, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let app = axum::Router::new().fallback(move || {
        let hits = counted.clone();
        async move {
            if hits.fetch_add(1, Ordering::SeqCst) < failures {
                let mut answer = (status, [("content-type", "application/json")], r#"{"code": 0, "message": "try later"}"#).into_response();
                if let Some(after) = retry_after {
                    answer.headers_mut().insert("retry-after", after.parse().unwrap());
                }
                answer
            } else {
                ([("content-type", "application/json")], "[]").into_response()
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (Client::new(Placeholders::at_origin(&origin)).with_credential(Credential::bot("bot-token")), hits)
}

fn channels() -> get_guild_channels::Request {
    get_guild_channels::Request::new(1u64)
}

#[tokio::test(start_paused = true)]
async fn a_503_with_retry_after_is_waited_out_and_tried_again() {
    let (client, hits) = failing(2, StatusCode::SERVICE_UNAVAILABLE, Some("3")).await;
    let start = Instant::now();
    let answer = client.get_guild_channels(&channels()).await;
    assert!(answer.is_ok(), "{answer:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 3);
    assert!(start.elapsed() >= Duration::from_secs(6), "two waits of the 3 s asked for: {:?}", start.elapsed());
}

#[tokio::test(start_paused = true)]
async fn a_500_is_tried_again_for_a_get_with_growing_waits_until_the_attempts_run_out() {
    let (client, hits) = failing(usize::MAX, StatusCode::INTERNAL_SERVER_ERROR, None).await;
    let start = Instant::now();
    let answer = client.get_guild_channels(&channels()).await;
    assert!(matches!(&answer, Err(Error::Api(e)) if e.status == 500), "{answer:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 3, "three tries in all");
    // Half a second then a second, each less up to a quarter.
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(1125) && waited < Duration::from_millis(1600), "{waited:?}");
}

#[tokio::test(start_paused = true)]
async fn a_500_to_a_post_is_not_tried_again_but_a_429_is() {
    let message = || send_lobby_message::Request::new(1u64, send_lobby_message::Body { content: "hi".to_owned() });
    let (client, hits) = failing(1, StatusCode::INTERNAL_SERVER_ERROR, None).await;
    let client = client.with_credential(Credential::bearer("alice-token"));
    assert!(matches!(client.send_lobby_message(&message()).await, Err(Error::Api(e)) if e.status == 500));
    assert_eq!(hits.load(Ordering::SeqCst), 1, "the message may have been sent: not again");

    let (client, hits) = failing(1, StatusCode::TOO_MANY_REQUESTS, Some("1")).await;
    let client = client.with_credential(Credential::bearer("alice-token"));
    let _ = client.send_lobby_message(&message()).await;
    assert_eq!(hits.load(Ordering::SeqCst), 2, "a 429 did nothing: tried again");
}

#[tokio::test(start_paused = true)]
async fn a_refused_connection_is_tried_again_and_never_means_once() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let client = Client::new(Placeholders::at_origin(&format!("http://127.0.0.1:{port}"))).with_credential(Credential::bot("bot-token"));
    let start = Instant::now();
    assert!(matches!(client.get_guild_channels(&channels()).await, Err(Error::Transport(_))));
    assert!(start.elapsed() >= Duration::from_millis(1125), "two waits: {:?}", start.elapsed());

    let (client, hits) = failing(1, StatusCode::SERVICE_UNAVAILABLE, None).await;
    let answer = client.with_retry(Retry::never()).get_guild_channels(&channels()).await;
    assert!(matches!(&answer, Err(Error::Api(e)) if e.status == 503), "{answer:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}
