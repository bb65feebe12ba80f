//! The mock server's pushback on a paused clock, through its middleware in an axum router: a
//! bucket is spent per major value and refills after its window, the global window counts every
//! bucket but the exempt, the answers carry the policy's headers and a `429` its body, and
//! faults are answered on request.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::Response;
use platform_codegen_runtime::mock::{Budget, Limits, Route, faults};
use platform_codegen_runtime::ratelimit::{Global, Headers, Policy};
use std::time::Duration;
use tower_service::Service;

const POLICY: Policy = Policy {
    headers: Headers {
        limit: Some("x-ratelimit-limit"),
        remaining: Some("x-ratelimit-remaining"),
        reset: None,
        reset_after: Some("x-ratelimit-reset-after"),
        bucket: Some("x-ratelimit-bucket"),
        scope: None,
        global: Some("x-ratelimit-global"),
    },
    retry_after_member: Some("retry_after"),
    global_member: Some("global"),
    global: Some(Global { requests: 4, per: Duration::from_secs(1) }),
    exempt: &["status"],
    major: &["id"],
};

const ROUTES: &[Route] = &[
    Route { endpoint: "get_note", method: "GET", path: "/notes/{id}" },
    Route { endpoint: "search", method: "GET", path: "/notes/search" },
    Route { endpoint: "status", method: "GET", path: "/status" },
];

/// A router answering 200 everywhere, behind `limits`.
fn router(limits: &Limits) -> axum::Router {
    let enforcing = limits.clone();
    axum::Router::new()
        .fallback(|| async { "ok" })
        .layer(axum::middleware::from_fn(move |request, next| enforcing.clone().enforce(request, next)))
        .layer(axum::middleware::from_fn(faults))
}

async fn get(router: &mut axum::Router, path: &str, headers: &[(&str, &str)]) -> Response {
    let mut request = Request::get(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    router.call(request.body(Body::empty()).unwrap()).await.unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_bucket_is_spent_per_major_value_and_refills_after_its_window() {
    let limits = Limits::new(Policy { global: None, ..POLICY }, Budget { requests: 2, per: Duration::from_secs(1) }, ROUTES);
    let mut app = router(&limits);
    let first = get(&mut app, "/api/notes/7", &[]).await;
    assert_eq!(first.headers()["x-ratelimit-remaining"], "1");
    assert_eq!(first.headers()["x-ratelimit-limit"], "2");
    assert_eq!(first.headers()["x-ratelimit-reset-after"], "1.000");
    assert_eq!(first.headers()["x-ratelimit-bucket"], "get_note");
    assert_eq!(get(&mut app, "/api/notes/7", &[]).await.status(), StatusCode::OK);
    let refused = get(&mut app, "/api/notes/7", &[]).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["retry-after"], "1.000");
    let body = axum::body::to_bytes(refused.into_body(), 1 << 16).await.unwrap();
    let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!((body["retry_after"].as_f64(), body["global"].as_bool()), (Some(1.0), Some(false)));
    assert_eq!(get(&mut app, "/api/notes/8", &[]).await.status(), StatusCode::OK, "another note is another bucket");
    assert_eq!(get(&mut app, "/api/notes/search", &[]).await.headers()["x-ratelimit-bucket"], "search", "the literal route wins");
    tokio::time::advance(Duration::from_secs(1)).await;
    assert_eq!(get(&mut app, "/api/notes/7", &[]).await.status(), StatusCode::OK, "the window refilled");
    assert_eq!(limits.refused(), 1);
}

#[tokio::test(start_paused = true)]
async fn the_global_window_counts_every_bucket_but_the_exempt() {
    let limits = Limits::new(POLICY, Budget { requests: 100, per: Duration::from_secs(1) }, ROUTES).with_whole_seconds();
    let mut app = router(&limits);
    for i in 0..4 {
        assert_eq!(get(&mut app, &format!("/notes/{i}"), &[]).await.status(), StatusCode::OK);
    }
    let refused = get(&mut app, "/notes/9", &[]).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["x-ratelimit-global"], "true");
    assert_eq!(refused.headers()["retry-after"], "1", "whole seconds");
    assert_eq!(get(&mut app, "/status", &[]).await.status(), StatusCode::OK, "exempt");
}

#[tokio::test(start_paused = true)]
async fn faults_are_answered_on_request() {
    let limits = Limits::new(Policy { global: None, ..POLICY }, Budget { requests: 100, per: Duration::from_secs(1) }, ROUTES);
    let mut app = router(&limits);
    assert_eq!(get(&mut app, "/status", &[("x-mock-status", "503")]).await.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(get(&mut app, "/status", &[("x-mock-status", "200")]).await.status(), StatusCode::OK, "only errors are injected");
    assert_eq!(get(&mut app, "/status", &[("x-mock-status", "nonsense")]).await.status(), StatusCode::OK);
    let start = tokio::time::Instant::now();
    assert_eq!(get(&mut app, "/status", &[("x-mock-delay-ms", "250")]).await.status(), StatusCode::OK);
    assert_eq!(start.elapsed(), Duration::from_millis(250));
    let start = tokio::time::Instant::now();
    let _ = get(&mut app, "/status", &[("x-mock-delay-ms", "99999999999")]).await;
    assert_eq!(start.elapsed(), Duration::from_secs(60), "at most a minute");
}
