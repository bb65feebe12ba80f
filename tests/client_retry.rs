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
    let answer = client.send(&channels()).await;
    assert!(answer.is_ok(), "{answer:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 3);
    assert!(start.elapsed() >= Duration::from_secs(6), "two waits of the 3 s asked for: {:?}", start.elapsed());
}

#[tokio::test(start_paused = true)]
async fn a_500_is_tried_again_for_a_get_with_growing_waits_until_the_attempts_run_out() {
    let (client, hits) = failing(usize::MAX, StatusCode::INTERNAL_SERVER_ERROR, None).await;
    let start = Instant::now();
    let answer = client.send(&channels()).await;
    assert!(matches!(&answer, Err(Error::Api(e)) if e.status == 500), "{answer:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 3, "three tries in all");
    // Half a second then a second, each less up to a quarter.
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(1125) && waited < Duration::from_millis(1600), "{waited:?}");
}

#[tokio::test(start_paused = true)]
async fn a_500_to_a_post_is_not_tried_again_but_a_429_is() {
    let message = || send_lobby_message::Request::new(1u64, send_lobby_message::Body::new("hi"));
    let (client, hits) = failing(1, StatusCode::INTERNAL_SERVER_ERROR, None).await;
    let client = client.with_credential(Credential::bearer("alice-token"));
    assert!(matches!(client.send(&message()).await, Err(Error::Api(e)) if e.status == 500));
    assert_eq!(hits.load(Ordering::SeqCst), 1, "the message may have been sent: not again");

    let (client, hits) = failing(1, StatusCode::TOO_MANY_REQUESTS, Some("1")).await;
    let client = client.with_credential(Credential::bearer("alice-token"));
    let _ = client.send(&message()).await;
    assert_eq!(hits.load(Ordering::SeqCst), 2, "a 429 did nothing: tried again");
}

#[tokio::test(start_paused = true)]
async fn a_refused_connection_is_tried_again_and_never_means_once() {
    // A port nothing listens on: bound, then closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let client = Client::new(Placeholders::at_origin(&format!("http://127.0.0.1:{port}"))).with_credential(Credential::bot("bot-token"));
    let start = Instant::now();
    assert!(matches!(client.send(&channels()).await, Err(Error::Transport(_))));
    assert!(start.elapsed() >= Duration::from_millis(1125), "two waits: {:?}", start.elapsed());

    let (client, hits) = failing(1, StatusCode::SERVICE_UNAVAILABLE, None).await;
    let answer = client.with_retry(Retry::never()).send(&channels()).await;
    assert!(matches!(&answer, Err(Error::Api(e)) if e.status == 503), "{answer:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

/// A server of the shapes fixture answering its first request with `status` and `headers`, and
/// every later one with `ok`. It counts what it receives.
async fn answering_once(status: StatusCode, headers: &'static [(&'static str, &'static str)]) -> (shapes_client::Client, Arc<AtomicUsize>) {
    answering_once_with(status, headers.iter().map(|(n, v)| (*n, (*v).to_owned())).collect()).await
}

async fn answering_once_with(status: StatusCode, headers: Vec<(&'static str, String)>) -> (shapes_client::Client, Arc<AtomicUsize>) {
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let app = axum::Router::new().fallback(move || {
        let (hits, headers) = (counted.clone(), headers.clone());
        async move {
            if hits.fetch_add(1, Ordering::SeqCst) == 0 {
                let mut answer = (status, [("content-type", "application/json")], r#"{"code": 0, "message": "no"}"#).into_response();
                for (name, value) in headers {
                    answer.headers_mut().insert(name, value.parse().unwrap());
                }
                answer
            } else {
                ([("content-type", "text/plain")], "ok").into_response()
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (shapes_client::Client::new(shapes_client::types::placeholders::Placeholders::at_origin(&origin)), hits)
}

#[tokio::test(start_paused = true)]
async fn the_servers_advice_header_decides_whatever_the_status() {
    assert_eq!(shapes_client::client::RETRY.advice, Some("x-should-retry"), "the spec names the header");
    let request = shapes_client::types::endpoints::get_status::Request::default();
    let (client, hits) = answering_once(StatusCode::BAD_REQUEST, &[("x-should-retry", "true")]).await;
    assert_eq!(client.send(&request).await.expect("tried again, as advised"), "ok");
    assert_eq!(hits.load(Ordering::SeqCst), 2);
    let (client, hits) = answering_once(StatusCode::SERVICE_UNAVAILABLE, &[("x-should-retry", "false")]).await;
    let failed = client.send(&request).await;
    assert!(matches!(&failed, Err(shapes_client::Error::Api(e)) if e.status == 503), "{failed:?}");
    assert_eq!(hits.load(Ordering::SeqCst), 1, "a 503 is not tried again when the server says so");
}

#[tokio::test(start_paused = true)]
async fn a_retry_after_date_is_waited_out() {
    let at = jiff::Timestamp::now().checked_add(jiff::SignedDuration::from_secs(3)).expect("in range");
    let date = jiff::fmt::rfc2822::DateTimePrinter::new().timestamp_to_rfc9110_string(&at).expect("a date");
    let (client, hits) = answering_once_with(StatusCode::SERVICE_UNAVAILABLE, vec![("retry-after", date.clone())]).await;
    let start = Instant::now();
    let answer = client.get_status().await;
    assert_eq!(answer.expect("tried again"), "ok");
    assert_eq!(hits.load(Ordering::SeqCst), 2);
    // The date has whole seconds: the wait is what is left of the three, less than a second off.
    let waited = start.elapsed();
    assert!(waited >= Duration::from_secs(2) && waited <= Duration::from_secs(4), "waited {waited:?} for {date}");
}
