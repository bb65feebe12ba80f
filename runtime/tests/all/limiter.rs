//! The client's rate limiter on a paused clock: a spent bucket waits for its refill, the
//! global window holds across buckets, a `401` latches, routes the server counts together share
//! a bucket. (Tests that need tokio's test clock live here, not in `src/`: the generator copies
//! `src/` into every output, whose runtime has no dev-dependencies.)

use platform_codegen_runtime::ratelimit::{Global, Headers, Latched, Limiter, Policy, Reading};
use std::time::Duration;
use tokio::time::Instant;

const DISCORD: Policy = Policy {
    headers: Headers {
        limit: Some("x-ratelimit-limit"),
        remaining: Some("x-ratelimit-remaining"),
        reset: Some("x-ratelimit-reset"),
        reset_after: Some("x-ratelimit-reset-after"),
        bucket: Some("x-ratelimit-bucket"),
        scope: Some("x-ratelimit-scope"),
        global: Some("x-ratelimit-global"),
    },
    retry_after_member: Some("retry_after"),
    global_member: Some("global"),
    global: Some(Global { requests: 3, per: Duration::from_secs(1) }),
    exempt: &["exempt"],
    major: &["channel_id"],
};

#[tokio::test(start_paused = true)]
async fn a_spent_bucket_waits_for_its_refill() {
    let limiter = Limiter::new(Policy { global: None, ..DISCORD });
    let permit = limiter.acquire("get_widget", "get_widget").await.unwrap();
    let reading = Reading { remaining: Some(1), limit: Some(2), reset_after: Some(Duration::from_secs(10)), ..Default::default() };
    limiter.answered(permit, 200, &reading, None);
    let start = Instant::now();
    let permit = limiter.acquire("get_widget", "get_widget").await.unwrap();
    assert_eq!(start.elapsed(), Duration::ZERO, "one call left");
    limiter.answered(permit, 200, &Reading { remaining: Some(0), ..reading.clone() }, None);
    let _third = limiter.acquire("get_widget", "get_widget").await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_secs(10), "the refill is waited for");
}

#[tokio::test(start_paused = true)]
async fn the_global_window_holds_across_buckets_but_not_for_exempt_endpoints() {
    let limiter = Limiter::new(DISCORD);
    let start = Instant::now();
    for i in 0..6 {
        let route = format!("route_{i}");
        let permit = limiter.acquire(&route, &route).await.unwrap();
        limiter.answered(permit, 200, &Reading::default(), None);
    }
    assert_eq!(start.elapsed(), Duration::from_secs(1), "three a second: the fourth waits a window");
    let permit = limiter.acquire("exempt", "exempt").await.unwrap();
    limiter.answered(permit, 200, &Reading::default(), None);
    assert_eq!(start.elapsed(), Duration::from_secs(1), "an exempt endpoint does not wait");
}

#[tokio::test(start_paused = true)]
async fn a_401_latches_and_a_global_429_pauses_every_bucket() {
    let limiter = Limiter::new(Policy { global: None, ..DISCORD });
    let permit = limiter.acquire("a", "a").await.unwrap();
    limiter.answered(permit, 429, &Reading { global: true, ..Default::default() }, Some(Duration::from_secs(3)));
    let start = Instant::now();
    let permit = limiter.acquire("b", "b").await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_secs(3));
    limiter.answered(permit, 401, &Reading::default(), None);
    assert_eq!(limiter.acquire("c", "c").await.unwrap_err(), Latched);
}

#[tokio::test(start_paused = true)]
async fn routes_the_server_counts_together_share_a_bucket() {
    let limiter = Limiter::new(Policy { global: None, ..DISCORD });
    let named = Reading { bucket: Some("shared".into()), remaining: Some(0), limit: Some(1), reset_after: Some(Duration::from_secs(5)), ..Default::default() };
    let permit = limiter.acquire("first 7", "first").await.unwrap();
    limiter.answered(permit, 200, &named, None);
    let permit = limiter.acquire("second 7", "second").await.unwrap();
    limiter.answered(permit, 200, &named, None);
    let start = Instant::now();
    let _ = limiter.acquire("first 7", "first").await.unwrap();
    assert_eq!(start.elapsed(), Duration::from_secs(5), "the shared bucket is spent");
}
