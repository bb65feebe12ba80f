//! How a generated client sends a request, and when it tries it again: the statuses and
//! failures worth another try, and how long to wait before it.
//!
//! A call is tried again when trying cannot do harm: the request never reached the server (it
//! could not connect), the server says it did nothing (`429`, `503`, `408`), or the method is
//! idempotent (RFC 9110 §9.2.2: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`) and the server failed
//! (`500`, `502`, `504`). The wait doubles from [`Retry::initial`] up to [`Retry::max`], less up
//! to a quarter at random so that clients that failed together do not come back together; a
//! `Retry-After` the server sends (seconds, or an HTTP date) is waited instead, up to `max`.
//! Where the policy names an advice header (`X-Should-Retry`, as Stainless-generated SDKs
//! read it), the server's `true` or `false` in it decides whether to try again.

use std::time::Duration;

/// How a client tries a call again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retry {
    /// Tries in all, the first included: `1` never tries again.
    pub attempts: u32,
    /// The wait before the first retry; each next one doubles it.
    pub initial: Duration,
    /// The longest wait, the server's `Retry-After` included.
    pub max: Duration,
    /// Statuses that say the server did nothing: tried again whatever the method.
    pub statuses: &'static [u16],
    /// Statuses of a failure that may have done something: tried again only when that cannot
    /// do harm (an idempotent method, or an idempotency key).
    pub idempotent_statuses: &'static [u16],
    /// The header in which a server says whether to try again (`true`) or not (`false`),
    /// whatever the status: its word is final. None is read when `None`.
    pub advice: Option<&'static str>,
}

/// `408`, `429` and `503`: the server says it did nothing.
pub const STATUSES: &[u16] = &[408, 429, 503];

/// `500`, `502` and `504`: the server failed, perhaps half way.
pub const IDEMPOTENT_STATUSES: &[u16] = &[500, 502, 504];

impl Default for Retry {
    /// Three tries in all, waiting half a second, then a second, at most eight; [`STATUSES`]
    /// and [`IDEMPOTENT_STATUSES`].
    fn default() -> Self {
        Self {
            attempts: 3,
            initial: Duration::from_millis(500),
            max: Duration::from_secs(8),
            statuses: STATUSES,
            idempotent_statuses: IDEMPOTENT_STATUSES,
            advice: None,
        }
    }
}

/// What came of one try, as the retry policy needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The request could not be sent: nothing reached the server.
    NotSent,
    /// The request was sent, but no answer came (a reset, a timeout): it may have been done.
    NoAnswer,
    /// An answer.
    Answered {
        /// Its status.
        status: u16,
        /// The wait its `Retry-After` asks for.
        asked: Option<Duration>,
        /// What its advice header says: try again, or not.
        advice: Option<bool>,
    },
}

impl Outcome {
    /// An answer with this status and nothing more to say.
    pub const fn status(status: u16) -> Self {
        Outcome::Answered { status, asked: None, advice: None }
    }
}

impl Retry {
    /// One try, never another.
    pub const fn never() -> Self {
        Self { attempts: 1, initial: Duration::ZERO, max: Duration::ZERO, statuses: &[], idempotent_statuses: &[], advice: None }
    }

    /// How long to wait before trying again after try number `tried` (1 for the first) came
    /// to `outcome`, for a request of a method that is `idempotent` or not; `None` when the
    /// outcome is final.
    pub fn wait(&self, tried: u32, outcome: Outcome, idempotent: bool) -> Option<Duration> {
        if tried >= self.attempts {
            return None;
        }
        let worth = match outcome {
            Outcome::NotSent => true,
            Outcome::NoAnswer => idempotent,
            // The server's word on its own answer is final.
            Outcome::Answered { advice: Some(advice), .. } => advice,
            Outcome::Answered { status, .. } => self.statuses.contains(&status) || (idempotent && self.idempotent_statuses.contains(&status)),
        };
        if !worth {
            return None;
        }
        Some(match outcome {
            Outcome::Answered { asked: Some(asked), .. } => asked.min(self.max),
            _ => self.backoff(tried, jitter()),
        })
    }

    /// The wait after try number `tried` when the server asks for none: `initial` doubled for
    /// each try before, at most `max`, less `jitter` (0 to 1) of a quarter of it.
    pub fn backoff(&self, tried: u32, jitter: f64) -> Duration {
        let doubled = self.initial.saturating_mul(1 << tried.saturating_sub(1).min(16));
        let wait = doubled.min(self.max);
        wait.mul_f64(1.0 - jitter.clamp(0.0, 1.0) / 4.0)
    }
}

/// Whether a method may be sent twice with the effect of once (RFC 9110 §9.2.2).
pub fn idempotent(method: &str) -> bool {
    matches!(method, "GET" | "HEAD" | "PUT" | "DELETE" | "OPTIONS" | "TRACE")
}

/// The wait a `Retry-After` value asks for: a number of seconds, or an HTTP date (RFC 9110
/// §10.2.3; a fraction of a second is read too, as some platforms send one). Anything else
/// asks for none.
pub fn retry_after(value: &str) -> Option<Duration> {
    retry_after_at(value, epoch_seconds())
}

/// [`retry_after`] at `now` (seconds since the epoch): a date past is no wait.
pub fn retry_after_at(value: &str, now: f64) -> Option<Duration> {
    let value = value.trim();
    let seconds = match value.parse::<f64>() {
        Ok(seconds) => seconds,
        Err(_) => {
            static HTTP_DATE: jiff::fmt::rfc2822::DateTimeParser = jiff::fmt::rfc2822::DateTimeParser::new();
            let at = HTTP_DATE.parse_timestamp(value).ok()?;
            (at.as_millisecond() as f64 / 1000.0 - now).max(0.0)
        }
    };
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds.min(86_400.0)))
}

/// What an advice header's value says: `true` try again, `false` do not; anything else nothing.
pub fn advice(value: &str) -> Option<bool> {
    match value.trim() {
        v if v.eq_ignore_ascii_case("true") => Some(true),
        v if v.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

/// One request as a generated client sends it: everything needed to build it again for each try.
#[derive(Clone, Copy, Debug)]
pub struct Outgoing<'a> {
    /// The endpoint's id, for the call's span.
    pub endpoint: &'static str,
    /// The HTTP method.
    pub method: &'a reqwest::Method,
    /// The whole address, query included.
    pub url: &'a str,
    /// The `Authorization` header's value, when a credential is presented.
    pub authorization: Option<&'a str>,
    /// The header parameters, by wire name.
    pub headers: &'a [(&'static str, String)],
    /// The body's media type and bytes.
    pub body: Option<(&'a str, &'a [u8])>,
    /// The rate limiter each try waits for its turn with, and the route and endpoint it is
    /// counted under.
    pub limit: Option<(&'a crate::ratelimit::Limiter, &'a str, &'a str)>,
    /// The header the endpoint takes an idempotency key in: when the headers carry none, a
    /// fresh key is sent, the same on every try, and the call is tried again like an
    /// idempotent one (the server does it once per key).
    pub idempotency_key: Option<&'static str>,
    /// How long a try, and the whole call, may take.
    pub timeouts: Timeouts,
    /// The answer's body is a stream, read as it comes for as long as it lasts: a try's
    /// timeout bounds the wait for the answer's head only.
    pub streamed: bool,
}

/// How long a call may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Each try, from sending to the answer's head: a try that takes longer has no answer, and
    /// is tried again when that cannot do harm.
    pub per_try: Option<Duration>,
    /// The whole call, its tries and the waits between them included.
    pub total: Option<Duration>,
}

impl Default for Timeouts {
    /// A minute per try; no bound on the whole call beyond its tries.
    fn default() -> Self {
        Timeouts { per_try: Some(Duration::from_secs(60)), total: None }
    }
}

impl Timeouts {
    /// No timeout at all.
    pub const fn none() -> Self {
        Timeouts { per_try: None, total: None }
    }
}

/// Why no answer came back.
#[derive(Debug)]
pub enum Failure {
    /// The request could not be sent, or no answer read.
    Transport(reqwest::Error),
    /// An earlier call with the credential was answered `401`: nothing was sent.
    Latched(crate::ratelimit::Latched),
    /// The whole call took longer than [`Timeouts::total`].
    TimedOut,
}

impl From<reqwest::Error> for Failure {
    fn from(e: reqwest::Error) -> Self {
        Failure::Transport(e)
    }
}

/// Sends `request` through `http`, trying it again as `retry` allows (sleeping on tokio's
/// clock between tries), each try in its turn of the rate limiter when there is one, and
/// returns the last answer, or the last failure to get one.
///
/// The call runs in a `tracing` span `call` (the endpoint, the method, the address's path:
/// never the credential, nor the query, which may carry secrets), with an event per try.
pub async fn send(http: &reqwest::Client, retry: &Retry, request: Outgoing<'_>) -> Result<reqwest::Response, Failure> {
    use tracing::Instrument;
    let path = request.url.split(['?', '#']).next().unwrap_or_default();
    let span = tracing::debug_span!("call", endpoint = request.endpoint, method = %request.method, path);
    let call = async {
        match request.timeouts.total {
            Some(total) => tokio::time::timeout(total, tries(http, retry, request)).await.map_err(|_| {
                tracing::debug!(?total, "timed out");
                Failure::TimedOut
            })?,
            None => tries(http, retry, request).await,
        }
    };
    call.instrument(span).await
}

/// The tries of [`send`].
async fn tries(http: &reqwest::Client, retry: &Retry, request: Outgoing<'_>) -> Result<reqwest::Response, Failure> {
    let given = |name: &str| request.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    let key = request.idempotency_key.filter(|name| !given(name)).map(|name| (name, fresh_key()));
    let idempotent = idempotent(request.method.as_str()) || request.idempotency_key.is_some();
    let mut tried = 0;
    loop {
        let permit = match request.limit {
            Some((limiter, route, endpoint)) => Some(limiter.acquire(route, endpoint).await.map_err(Failure::Latched)?),
            None => None,
        };
        let mut builder = http.request(request.method.clone(), request.url);
        if let Some(value) = request.authorization {
            builder = builder.header("authorization", value);
        }
        for (name, value) in request.headers.iter().chain(&key) {
            builder = builder.header(*name, value);
        }
        if let Some(timeout) = request.timeouts.per_try.filter(|_| !request.streamed) {
            builder = builder.timeout(timeout);
        }
        if let Some((content_type, bytes)) = request.body {
            builder = builder.header("content-type", content_type).body(bytes.to_vec());
        }
        tried += 1;
        // `None`: no head came within a streamed try's timeout.
        let sent = match request.timeouts.per_try.filter(|_| request.streamed) {
            Some(timeout) => tokio::time::timeout(timeout, builder.send()).await.ok(),
            None => Some(builder.send().await),
        };
        let Some(sent) = sent else {
            tracing::debug!(tried, timeout = true, "no answer");
            match retry.wait(tried, Outcome::NoAnswer, idempotent) {
                Some(wait) => {
                    tokio::time::sleep(wait).await;
                    continue;
                }
                None => return Err(Failure::TimedOut),
            }
        };
        if let (Some(permit), Some((limiter, ..)), Ok(answer)) = (permit, request.limit, &sent) {
            let reading = limiter.policy().read(|name| Some(answer.headers().get(name)?.to_str().ok()?.to_owned()), epoch_seconds());
            let asked = answer.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(retry_after);
            limiter.answered(permit, answer.status().as_u16(), &reading, asked);
        }
        let outcome = match &sent {
            Ok(answer) => {
                let header = |name: &str| answer.headers().get(name).and_then(|v| v.to_str().ok());
                Outcome::Answered {
                    status: answer.status().as_u16(),
                    asked: header("retry-after").and_then(retry_after),
                    advice: retry.advice.and_then(header).and_then(advice),
                }
            }
            Err(e) if e.is_connect() => Outcome::NotSent,
            Err(_) => Outcome::NoAnswer,
        };
        match &sent {
            Ok(answer) => tracing::debug!(tried, status = answer.status().as_u16(), "answered"),
            // Not the error's text: it holds the whole address, query included.
            Err(e) => tracing::debug!(tried, timeout = e.is_timeout(), connect = e.is_connect(), "no answer"),
        }
        match retry.wait(tried, outcome, idempotent) {
            Some(wait) => {
                tracing::debug!(tried, ?wait, "trying again");
                tokio::time::sleep(wait).await;
            }
            None => return Ok(sent?),
        }
    }
}

/// The wall clock in seconds since the epoch, for a `reset` header that is an instant.
fn epoch_seconds() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// A fresh idempotency key: a random (version 4) UUID.
pub fn fresh_key() -> String {
    let (a, b) = (random_bits(), random_bits());
    let a = (a & !0xf000) | 0x4000;
    let b = (b & !(0b11 << 62)) | (0b10 << 62);
    format!("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xffff, b >> 48, b & 0xffff_ffff_ffff)
}

/// 64 random bits: the random state the standard library seeds its hash maps with.
fn random_bits() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new().build_hasher().finish()
}

/// A number from 0 to 1, different at each call: the random state the standard library seeds
/// its hash maps with, so that no dependency is needed for it.
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let bits = std::collections::hash_map::RandomState::new().build_hasher().finish();
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_advice_decides_whatever_the_status() {
        let retry = Retry { advice: Some("x-should-retry"), ..Retry::default() };
        let advised = |status, advice| Outcome::Answered { status, asked: None, advice: Some(advice) };
        assert!(retry.wait(1, advised(400, true), false).is_some(), "a status never tried again is, when the server says so");
        assert_eq!(retry.wait(1, advised(503, false), true), None, "a status always tried again is not, when the server says so");
        assert_eq!(retry.wait(3, advised(503, true), true), None, "within the attempts");
        assert_eq!((advice("True"), advice("false"), advice("maybe")), (Some(true), Some(false), None));
    }

    #[test]
    fn a_failure_worth_it_is_tried_until_the_attempts_are_spent() {
        let retry = Retry::default();
        let unavailable = Outcome::status(503);
        assert!(retry.wait(1, unavailable, false).is_some());
        assert!(retry.wait(2, unavailable, false).is_some());
        assert_eq!(retry.wait(3, unavailable, false), None, "three tries in all");
        assert_eq!(Retry::never().wait(1, Outcome::NotSent, true), None);
    }

    #[test]
    fn a_request_that_may_have_been_done_is_tried_again_only_when_idempotent() {
        let retry = Retry::default();
        for status in [500, 502, 504] {
            assert!(retry.wait(1, Outcome::status(status), true).is_some());
            assert_eq!(retry.wait(1, Outcome::status(status), false), None, "{status}");
        }
        assert_eq!(retry.wait(1, Outcome::NoAnswer, false), None);
        assert!(retry.wait(1, Outcome::NoAnswer, true).is_some());
        assert!(retry.wait(1, Outcome::NotSent, false).is_some(), "nothing reached the server");
        for status in [200, 201, 204, 301, 400, 401, 403, 404, 409, 422, 501] {
            assert_eq!(retry.wait(1, Outcome::status(status), true), None, "{status}");
        }
    }

    #[test]
    fn the_wait_doubles_within_its_bounds_and_a_retry_after_is_waited_up_to_max() {
        let retry = Retry::default();
        assert_eq!(retry.backoff(1, 0.0), Duration::from_millis(500));
        assert_eq!(retry.backoff(2, 0.0), Duration::from_secs(1));
        assert_eq!(retry.backoff(5, 0.0), Duration::from_secs(8));
        assert_eq!(retry.backoff(60, 0.0), Duration::from_secs(8), "no overflow");
        assert_eq!(retry.backoff(1, 1.0), Duration::from_millis(375), "a quarter off at most");
        let asked = |s: u64| Outcome::Answered { status: 429, asked: Some(Duration::from_secs(s)), advice: None };
        assert_eq!(retry.wait(1, asked(3), false), Some(Duration::from_secs(3)));
        assert_eq!(retry.wait(1, asked(60), false), Some(Duration::from_secs(8)));
        for _ in 0..100 {
            let wait = retry.wait(1, Outcome::NotSent, false).unwrap();
            assert!(wait > Duration::from_millis(374) && wait <= Duration::from_millis(500), "{wait:?}");
        }
    }

    #[test]
    fn retry_after_is_seconds_or_a_date() {
        assert_eq!(retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(retry_after(" 1.5 "), Some(Duration::from_millis(1500)));
        // That instant is 1445412480 seconds after the epoch.
        assert_eq!(retry_after_at("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_450.0), Some(Duration::from_secs(30)));
        assert_eq!(retry_after_at("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_490.0), Some(Duration::ZERO), "a date past");
        assert_eq!(retry_after("the day after"), None);
        assert_eq!(retry_after("-1"), None);
        assert_eq!(retry_after("NaN"), None);
        assert!(idempotent("PUT") && !idempotent("POST") && !idempotent("PATCH"));
    }

    #[test]
    fn fresh_keys_are_version_4_uuids_and_differ() {
        let (a, b) = (fresh_key(), fresh_key());
        assert_ne!(a, b);
        let parts: Vec<&str> = a.split('-').collect();
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), [8, 4, 4, 4, 12], "{a}");
        assert!(parts[2].starts_with('4') && matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'), "{a}");
    }
}
