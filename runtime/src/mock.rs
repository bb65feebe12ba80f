//! What a generated mock server does beyond answering with examples: it pushes back.
//!
//! - [`Limits`] enforces a budget per rate-limit bucket, as the spec's [`Policy`] describes the
//!   platform's: every answer carries the bucket's headers, and a call past the budget is
//!   answered `429` with the wait in `Retry-After` and in the body, as the platform would. The
//!   buckets are the client's (the endpoint and the values of its major parameters), so a
//!   client that keeps to the headers is never refused; [`Limits::refused`] counts the calls
//!   that were.
//! - [`faults`] answers a request that asks for it (`X-Mock-Status: 503`,
//!   `X-Mock-Delay-Ms: 250`) with that status, or after that delay, so clients' retries and
//!   timeouts are tested against the mock.

use crate::ratelimit::{Policy, route};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// The header that makes the mock answer with a status of the caller's choosing.
pub const STATUS_HEADER: &str = "x-mock-status";

/// The header that makes the mock wait this many milliseconds before answering.
pub const DELAY_HEADER: &str = "x-mock-delay-ms";

/// The longest delay a request can ask for.
const MAX_DELAY: Duration = Duration::from_secs(60);

/// Answers with the status `X-Mock-Status` names (a 4xx or 5xx, empty-bodied), and after the
/// delay `X-Mock-Delay-Ms` asks for (at most a minute); otherwise as the mock would.
pub async fn faults(request: Request, next: Next) -> Response {
    // Read before the first await: a borrow of the request held across it would make the
    // future not `Send` (a body is not `Sync`).
    let (status, delay) = {
        let header = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
        (header(STATUS_HEADER), header(DELAY_HEADER))
    };
    if let Some(ms) = delay {
        tokio::time::sleep(Duration::from_millis(ms).min(MAX_DELAY)).await;
    }
    match status.and_then(|s| u16::try_from(s).ok()).and_then(|s| StatusCode::from_u16(s).ok()).filter(|s| s.is_client_error() || s.is_server_error()) {
        Some(status) => {
            let mut answer = Response::new(Body::empty());
            *answer.status_mut() = status;
            answer
        }
        None => next.run(request).await,
    }
}

/// A budget: this many calls per window, in each bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Calls per window.
    pub requests: u32,
    /// The window.
    pub per: Duration,
}

/// A route of the server, for telling which endpoint a request calls.
#[derive(Clone, Copy, Debug)]
pub struct Route {
    /// The endpoint's id.
    pub endpoint: &'static str,
    /// Its method.
    pub method: &'static str,
    /// Its path template (`/channels/{channel_id}`), relative to its address.
    pub path: &'static str,
}

/// The rate limits a mock enforces: a budget per bucket and the spec's global limit.
#[derive(Clone, Debug)]
pub struct Limits {
    policy: Policy,
    budget: Budget,
    routes: &'static [Route],
    state: Arc<Mutex<State>>,
    refused: Arc<AtomicU64>,
    /// Waits are written in whole seconds (the spec declares the headers integers).
    whole_seconds: bool,
}

#[derive(Debug, Default)]
struct State {
    /// Each bucket's window: when it started, and the calls in it.
    buckets: HashMap<String, (Instant, u32)>,
    /// The global window.
    global: Option<(Instant, u32)>,
}

/// What the budget says of one call.
struct Verdict {
    bucket: String,
    remaining: u32,
    reset_after: Duration,
    /// `Some(global)` when the call is refused.
    refused: Option<bool>,
}

impl Limits {
    /// Limits that follow `policy` with `budget` in each bucket, for a server of `routes`.
    pub fn new(policy: Policy, budget: Budget, routes: &'static [Route]) -> Self {
        Limits { policy, budget, routes, state: Arc::default(), refused: Arc::default(), whole_seconds: false }
    }

    /// These limits, writing waits in whole seconds (rounded up), for a spec that declares the
    /// headers carrying them integers.
    pub fn with_whole_seconds(self) -> Self {
        Limits { whole_seconds: true, ..self }
    }

    /// The calls answered `429` so far.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// The endpoint a request of `method` to `path` calls, by the templates' ends: of those that
    /// fit, the one with the most literal segments (`/notes/search` before `/notes/{id}`).
    fn endpoint_of(&self, method: &str, path: &str) -> Option<&Route> {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let fits = |r: &Route| {
            let template: Vec<&str> = r.path.split('/').filter(|s| !s.is_empty()).collect();
            let fit = r.method == method
                && segments.len() >= template.len()
                && template.iter().zip(&segments[segments.len() - template.len()..]).all(|(t, s)| t.contains('{') || t == s);
            fit.then(|| template.iter().filter(|t| !t.contains('{')).count())
        };
        self.routes.iter().filter_map(|r| Some((fits(r)?, r))).max_by_key(|(literal, _)| *literal).map(|(_, r)| r)
    }

    /// Counts a call of `endpoint` to `path` in its bucket and the global window.
    fn spend(&self, endpoint: &str, template: &str, path: &str) -> Verdict {
        let now = Instant::now();
        let key = route(endpoint, template, path, self.policy.major);
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let global = self.policy.global.filter(|_| !self.policy.exempt.contains(&endpoint));
        if let Some(g) = global {
            let window = state.global.get_or_insert((now, 0));
            if now.duration_since(window.0) >= g.per {
                *window = (now, 0);
            }
            if window.1 >= g.requests {
                let reset_after = g.per.saturating_sub(now.duration_since(window.0));
                return Verdict { bucket: key, remaining: 0, reset_after, refused: Some(true) };
            }
            window.1 += 1;
        }
        let budget = self.budget;
        let window = state.buckets.entry(key.clone()).or_insert((now, 0));
        if now.duration_since(window.0) >= budget.per {
            *window = (now, 0);
        }
        let reset_after = budget.per.saturating_sub(now.duration_since(window.0));
        if window.1 >= budget.requests {
            return Verdict { bucket: key, remaining: 0, reset_after, refused: Some(false) };
        }
        window.1 += 1;
        Verdict { bucket: key, remaining: budget.requests - window.1, reset_after, refused: None }
    }

    /// The middleware: counts each call, refuses one past its budget, and tells every answer
    /// its bucket's state.
    pub async fn enforce(self, request: Request, next: Next) -> Response {
        let path = request.uri().path().to_owned();
        let Some(r) = self.endpoint_of(request.method().as_str(), &path).copied() else { return next.run(request).await };
        let verdict = self.spend(r.endpoint, r.path, &path);
        let mut answer = match verdict.refused {
            Some(global) => {
                self.refused.fetch_add(1, Ordering::Relaxed);
                self.too_many(global, verdict.reset_after)
            }
            None => next.run(request).await,
        };
        self.headers(&mut answer, &verdict);
        answer
    }

    /// A `429` as the policy describes it.
    fn too_many(&self, global: bool, wait: Duration) -> Response {
        let mut body = serde_json::Map::new();
        body.insert("message".to_owned(), "You are being rate limited.".into());
        if let Some(m) = self.policy.retry_after_member {
            body.insert(m.to_owned(), wait.as_secs_f64().into());
        }
        if let Some(m) = self.policy.global_member {
            body.insert(m.to_owned(), global.into());
        }
        let mut answer = Response::new(Body::from(serde_json::Value::Object(body).to_string()));
        *answer.status_mut() = StatusCode::TOO_MANY_REQUESTS;
        let h = answer.headers_mut();
        h.insert("content-type", HeaderValue::from_static("application/json"));
        h.insert("retry-after", seconds(wait, self.whole_seconds));
        if let Some(name) = self.policy.headers.global.filter(|_| global).and_then(|n| HeaderName::try_from(n).ok()) {
            h.insert(name, HeaderValue::from_static("true"));
        }
        answer
    }

    /// The bucket's headers, as the policy names them.
    fn headers(&self, answer: &mut Response, v: &Verdict) {
        let h = self.policy.headers;
        let values = [
            (h.limit, HeaderValue::from(self.budget.requests)),
            (h.remaining, HeaderValue::from(v.remaining)),
            (h.reset_after, seconds(v.reset_after, self.whole_seconds)),
            (h.bucket, HeaderValue::from_str(&bucket_id(&v.bucket)).unwrap_or(HeaderValue::from_static("bucket"))),
        ];
        for (name, value) in values {
            if let Some(name) = name.and_then(|n| HeaderName::try_from(n).ok()) {
                answer.headers_mut().insert(name, value);
            }
        }
    }
}

/// A number of seconds as a header value, to the millisecond above (or the second above, when
/// `whole`): a client that waits what it says is never early.
fn seconds(d: Duration, whole: bool) -> HeaderValue {
    let millis = d.as_micros().div_ceil(1000);
    let text = if whole { millis.div_ceil(1000).to_string() } else { format!("{}.{:03}", millis / 1000, millis % 1000) };
    HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static("1"))
}

/// A bucket's id as the mock names it: the endpoint (major values are the client's to add).
fn bucket_id(key: &str) -> String {
    key.split(' ').next().unwrap_or(key).to_owned()
}
