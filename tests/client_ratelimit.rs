//! The generated client keeps to the rate limits the spec describes, against the shapes
//! fixture's generated mock pushing back over 127.0.0.1 (`mock::router_limited`: a budget per
//! bucket, the spec's global limit, `429` past either). Tokio's clock is paused: the windows
//! pass without sleeping, and the tests read how long the client waited.
//!
//! A burst of 200 calls on one bucket all succeed and the mock refuses none; a burst across
//! buckets keeps to the global limit; a `401` stops the credential after one call; a client
//! without a limiter is refused, which shows the mock does push back.

use shapes_client::types::auth::Credential;
use shapes_client::types::endpoints::get_note;
use shapes_client::types::placeholders::Placeholders;
use shapes_client::types::wire::Snowflake;
use shapes_client::{Client, Error, Retry};
use shapes_server::mock::{Budget, Limits};
use shapes_server::types::ratelimit::Policy;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// The mock with `budget` per bucket, served on a free port; a client of it, and the mock's
/// count of refused calls and of every call it received.
async fn limited(budget: Budget) -> (Client, Limits, Arc<AtomicUsize>) {
    let (router, limits) = shapes_server::mock::router_limited(Default::default(), budget);
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let router = router.layer(axum::middleware::from_fn(move |request, next: axum::middleware::Next| {
        counted.fetch_add(1, Ordering::SeqCst);
        next.run(request)
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    let client = Client::new(Placeholders::at_origin(&origin)).with_credential(Credential::bot("mock"));
    (client, limits, hits)
}

/// `calls` concurrent calls of `get_note` for the notes `note(i)` names.
async fn burst(client: &Client, calls: u64, note: impl Fn(u64) -> u64) -> Vec<Result<(), Error>> {
    let mut set = tokio::task::JoinSet::new();
    for i in 0..calls {
        let (client, id) = (client.clone(), note(i));
        set.spawn(async move { client.send(&get_note::Request::new(Snowflake(id))).await.map(drop) });
    }
    set.join_all().await
}

#[tokio::test(start_paused = true)]
async fn a_burst_on_one_bucket_waits_for_each_window_and_is_never_refused() {
    let (client, limits, hits) = limited(Budget { requests: 5, per: Duration::from_secs(1) }).await;
    let start = Instant::now();
    let answers = burst(&client, 200, |_| 1).await;
    assert!(answers.iter().all(Result::is_ok), "{:?}", answers.iter().find(|a| a.is_err()));
    assert_eq!(limits.refused(), 0, "the client kept to every window");
    assert_eq!(hits.load(Ordering::SeqCst), 200, "and sent each call once");
    assert!(start.elapsed() >= Duration::from_secs(39), "40 windows of 5: {:?}", start.elapsed());
}

#[tokio::test(start_paused = true)]
async fn a_burst_across_buckets_keeps_to_the_global_limit() {
    let (client, limits, _) = limited(Budget { requests: 1_000, per: Duration::from_secs(1) }).await;
    let start = Instant::now();
    let answers = burst(&client, 200, |i| i + 1).await;
    assert!(answers.iter().all(Result::is_ok));
    assert_eq!(limits.refused(), 0);
    let global = shapes_client::types::rate_limits::POLICY.global.unwrap();
    assert_eq!(global.requests, 50, "the fixture's global limit");
    assert!(start.elapsed() >= Duration::from_secs(3), "200 calls at 50 a second: {:?}", start.elapsed());
}

#[tokio::test(start_paused = true)]
async fn a_client_without_a_limiter_is_refused_by_the_mock() {
    let (client, limits, _) = limited(Budget { requests: 5, per: Duration::from_secs(1) }).await;
    let client = client.with_rate_limits(None::<Policy>).with_retry(Retry::never());
    let answers = burst(&client, 20, |_| 1).await;
    let refused = answers.iter().filter(|a| matches!(a, Err(e) if e.status() == Some(429))).count();
    assert_eq!(refused, 15, "five went through the window");
    assert_eq!(limits.refused(), 15);
}

#[tokio::test(start_paused = true)]
async fn a_401_stops_the_credential_until_it_changes() {
    let (router, _) = shapes_server::mock::router_limited(Default::default(), Budget { requests: 100, per: Duration::from_secs(1) });
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    // Every call is answered 401, as a platform answers a revoked token.
    let router = router.layer(axum::middleware::from_fn(move |mut request: axum::extract::Request, next: axum::middleware::Next| {
        counted.fetch_add(1, Ordering::SeqCst);
        request.headers_mut().insert("x-mock-status", "401".parse().unwrap());
        next.run(request)
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    let client = Client::new(Placeholders::at_origin(&origin)).with_credential(Credential::bot("revoked"));
    let request = get_note::Request::new(Snowflake(1));
    let first = client.send(&request).await;
    assert_eq!(first.as_ref().err().and_then(Error::status), Some(401), "{first:?}");
    for _ in 0..3 {
        assert!(matches!(client.send(&request).await, Err(Error::CredentialRejected)));
    }
    assert_eq!(hits.load(Ordering::SeqCst), 1, "nothing more was sent with the credential");
    let renewed = client.with_credential(Credential::bot("another"));
    assert_eq!(renewed.send(&request).await.err().and_then(|e| e.status()), Some(401), "another credential is sent");
    assert_eq!(hits.load(Ordering::SeqCst), 2);
}
