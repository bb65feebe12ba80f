//! Rate limits: what a spec says of them ([`Policy`]: the headers that carry a bucket's state,
//! the member of a `429` body that says how long to wait, the limit across every bucket), the
//! client's limiter that keeps a call from being sent when its bucket is spent (feature
//! `client`), and the budget a mock server enforces (feature `server`).
//!
//! A bucket is learned from the answers: the first call of a route goes alone, and its answer's
//! headers say how many calls the bucket has left and when it refills, and which bucket the
//! route is in (`X-RateLimit-Bucket`), so routes the server counts together share one state.
//! Calls past the remaining count wait for the refill; a `429` spends the bucket (or, when the
//! answer says it is global, every bucket) for the wait it asks; a `401` stops every call until
//! the credential changes, since a platform bans clients that keep sending invalid ones.

use std::time::Duration;

/// What a spec says of its rate limits, with header names in lower case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// The headers of an answer, by role.
    pub headers: Headers,
    /// The member of a `429` answer's JSON body holding the seconds to wait.
    pub retry_after_member: Option<&'static str>,
    /// The member of a `429` answer's JSON body saying the limit hit is the global one.
    pub global_member: Option<&'static str>,
    /// The limit across every bucket: this many calls per `per`.
    pub global: Option<Global>,
    /// Endpoints (by id) the global limit does not count.
    pub exempt: &'static [&'static str],
    /// Path parameters whose values split a bucket.
    pub major: &'static [&'static str],
}

/// The route a call is counted under: its endpoint and the values its `path` (the path part of
/// the address called) gives the major parameters of `template` (`/channels/{channel_id}`).
pub fn route(endpoint: &str, template: &str, path: &str, major: &[&str]) -> String {
    let mut out = endpoint.to_owned();
    let template: Vec<&str> = template.split('/').collect();
    let path: Vec<&str> = path.split('?').next().unwrap_or_default().split('/').collect();
    // The address may lead with a base path: the template matches the path's end.
    let Some(offset) = path.len().checked_sub(template.len()) else { return out };
    for (i, segment) in template.iter().enumerate() {
        let name = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
        if name.is_some_and(|n| major.contains(&n)) {
            out.push(' ');
            out.push_str(path[offset + i]);
        }
    }
    out
}

/// The limit across every bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Global {
    /// Calls in each window.
    pub requests: u32,
    /// The window.
    pub per: Duration,
}

/// The rate-limit headers of an answer, by role; `None` where the spec names none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Headers {
    /// The calls a bucket allows per window.
    pub limit: Option<&'static str>,
    /// The calls left in the window.
    pub remaining: Option<&'static str>,
    /// When the window ends, in seconds since the epoch.
    pub reset: Option<&'static str>,
    /// How long until the window ends, in seconds.
    pub reset_after: Option<&'static str>,
    /// The bucket the route is counted in.
    pub bucket: Option<&'static str>,
    /// The scope of a limit that was hit (`user`, `global`, `shared`).
    pub scope: Option<&'static str>,
    /// Present (`true`) on a `429` of the global limit.
    pub global: Option<&'static str>,
}

/// What an answer says of its bucket.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    /// The bucket's id, when the answer names it.
    pub bucket: Option<String>,
    /// The calls the window allows.
    pub limit: Option<u32>,
    /// The calls left.
    pub remaining: Option<u32>,
    /// How long until the window refills.
    pub reset_after: Option<Duration>,
    /// Whether the limit hit is the global one.
    pub global: bool,
}

impl Policy {
    /// What an answer's headers say, read by `header` (a header's value by lower-case name),
    /// `now_epoch` the wall clock in seconds for an absolute `reset`.
    pub fn read(&self, header: impl Fn(&str) -> Option<String>, now_epoch: f64) -> Reading {
        let h = &self.headers;
        let get = |name: Option<&str>| name.and_then(&header);
        let seconds = |v: String| v.trim().parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0).map(|s| Duration::from_secs_f64(s.min(86_400.0)));
        let reset_after = get(h.reset_after).and_then(seconds).or_else(|| {
            let at: f64 = get(h.reset)?.trim().parse().ok()?;
            (at.is_finite() && at >= now_epoch).then(|| Duration::from_secs_f64((at - now_epoch).min(86_400.0)))
        });
        Reading {
            bucket: get(h.bucket),
            limit: get(h.limit).and_then(|v| v.trim().parse().ok()),
            remaining: get(h.remaining).and_then(|v| v.trim().parse().ok()),
            reset_after,
            global: get(h.global).is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) || get(h.scope).is_some_and(|v| v.trim() == "global"),
        }
    }
}

#[cfg(feature = "client")]
pub use limiter::{Latched, Limiter, Permit};

#[cfg(feature = "client")]
mod limiter {
    use super::{Policy, Reading};
    use std::collections::{HashMap, VecDeque};
    use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
    use std::time::Duration;
    use tokio::sync::Notify;
    use tokio::time::Instant;

    /// The client's rate limiter: one per credential (a platform counts its limits per token).
    #[derive(Debug)]
    pub struct Limiter {
        policy: Policy,
        state: Mutex<State>,
    }

    #[derive(Debug, Default)]
    struct State {
        /// The bucket each route was last answered in.
        routes: HashMap<String, Arc<Bucket>>,
        /// The buckets the server named, by name and major values.
        named: HashMap<String, Arc<Bucket>>,
        /// No call goes before this (a global `429`).
        paused_until: Option<Instant>,
        /// The calls of the global window, oldest first.
        window: VecDeque<Instant>,
        /// A `401` was answered: nothing more is sent with this credential.
        latched: bool,
    }

    /// A bucket: its state, and a signal to the calls waiting on it when an answer changes it.
    #[derive(Debug, Default)]
    struct Bucket {
        state: Mutex<Count>,
        changed: Notify,
    }

    #[derive(Debug, Default)]
    struct Count {
        /// Calls left in the window; `None` until an answer says.
        remaining: Option<u32>,
        limit: Option<u32>,
        resets_at: Option<Instant>,
        /// A call whose answer will say what the bucket holds is on its way.
        probing: bool,
        /// Calls sent and not answered.
        in_flight: u32,
    }

    /// What a call does on its bucket's state.
    enum Turn {
        Go { probe: bool },
        WaitUntil(Instant),
        WaitForAnswer,
    }

    impl Count {
        fn turn(&mut self, now: Instant) -> Turn {
            loop {
                match self.remaining {
                    None if self.probing => return Turn::WaitForAnswer,
                    None => {
                        self.probing = true;
                        return Turn::Go { probe: true };
                    }
                    Some(0) => match self.resets_at {
                        Some(at) if at > now => return Turn::WaitUntil(at),
                        // The window ended: it holds the limit again (unknown without one).
                        Some(_) => {
                            self.remaining = self.limit;
                            self.resets_at = None;
                        }
                        // Spent, and the answers that will say when it refills are on their way.
                        None if self.in_flight > 0 => return Turn::WaitForAnswer,
                        None => self.remaining = None,
                    },
                    Some(n) => {
                        self.remaining = Some(n - 1);
                        return Turn::Go { probe: false };
                    }
                }
            }
        }
    }

    /// Why a call was not sent: an earlier one was answered `401`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Latched;

    impl std::fmt::Display for Latched {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an earlier call with this credential was answered 401; nothing more is sent with it")
        }
    }

    impl std::error::Error for Latched {}

    /// A call's turn in its bucket, given back with [`Limiter::answered`] (or dropped, when no
    /// answer came).
    #[derive(Debug)]
    pub struct Permit {
        route: String,
        bucket: Arc<Bucket>,
        probe: bool,
        done: bool,
    }

    impl Drop for Permit {
        /// A call that got no answer leaves the bucket as it was, and lets the next one try.
        fn drop(&mut self) {
            if self.done {
                return;
            }
            let mut count = lock(&self.bucket.state);
            count.in_flight = count.in_flight.saturating_sub(1);
            if self.probe {
                count.probing = false;
            }
            drop(count);
            self.bucket.changed.notify_waiters();
        }
    }

    fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
        m.lock().unwrap_or_else(PoisonError::into_inner)
    }

    impl Limiter {
        /// A limiter that follows `policy`.
        pub fn new(policy: Policy) -> Self {
            Limiter { policy, state: Mutex::new(State::default()) }
        }

        /// The policy it follows.
        pub fn policy(&self) -> &Policy {
            &self.policy
        }

        /// Waits for the turn of a call of `route` (an endpoint and the values of its major
        /// parameters) by endpoint `endpoint`: until the global window, a global pause and the
        /// route's bucket allow it.
        pub async fn acquire(&self, route: &str, endpoint: &str) -> Result<Permit, Latched> {
            loop {
                let wait = {
                    let mut state = lock(&self.state);
                    if state.latched {
                        return Err(Latched);
                    }
                    match self.global_wait(&mut state, !self.policy.exempt.contains(&endpoint)) {
                        Some(until) => until,
                        None => break,
                    }
                };
                tokio::time::sleep_until(wait).await;
            }
            loop {
                // Looked up at each turn: an answer may have moved the route to the bucket the
                // server names.
                let bucket = lock(&self.state).routes.entry(route.to_owned()).or_default().clone();
                let mut changed = std::pin::pin!(bucket.changed.notified());
                changed.as_mut().enable();
                let turn = {
                    let mut count = lock(&bucket.state);
                    let turn = count.turn(Instant::now());
                    if let Turn::Go { .. } = turn {
                        count.in_flight += 1;
                    }
                    turn
                };
                match turn {
                    Turn::Go { probe } => return Ok(Permit { route: route.to_owned(), bucket: bucket.clone(), probe, done: false }),
                    // Until the refill, or sooner when an answer changes what the bucket holds.
                    Turn::WaitUntil(at) => _ = tokio::time::timeout_at(at, changed).await,
                    Turn::WaitForAnswer => changed.await,
                }
            }
        }

        /// The instant to wait for before a call counts in the global window, `None` when it
        /// may go now (and then it is counted).
        fn global_wait(&self, state: &mut State, counted: bool) -> Option<Instant> {
            let now = Instant::now();
            if let Some(until) = state.paused_until.filter(|u| *u > now) {
                return Some(until);
            }
            let global = self.policy.global.filter(|_| counted)?;
            while state.window.front().is_some_and(|t| now.duration_since(*t) >= global.per) {
                state.window.pop_front();
            }
            if state.window.len() >= global.requests as usize {
                return state.window.front().map(|t| *t + global.per);
            }
            state.window.push_back(now);
            None
        }

        /// Learns from the answer to a call: `status`, and what its headers say (`reading`);
        /// `retry_after` is the wait a `429` asks for (its header or body).
        pub fn answered(&self, mut permit: Permit, status: u16, reading: &Reading, retry_after: Option<Duration>) {
            let now = Instant::now();
            permit.done = true;
            let target = {
                let mut state = lock(&self.state);
                if status == 401 {
                    state.latched = true;
                }
                if status == 429 && reading.global {
                    let until = now + retry_after.unwrap_or(Duration::from_secs(1));
                    state.paused_until = Some(state.paused_until.map_or(until, |u| u.max(until)));
                }
                // The route's bucket as the server names it: routes it counts together share it.
                match &reading.bucket {
                    Some(id) => {
                        let key = format!("{id} {}", permit.route.split_once(' ').map_or("", |(_, major)| major));
                        let named = state.named.entry(key).or_insert_with(|| permit.bucket.clone()).clone();
                        state.routes.insert(permit.route.clone(), named.clone());
                        named
                    }
                    None => permit.bucket.clone(),
                }
            };
            {
                let mut count = lock(&permit.bucket.state);
                count.in_flight = count.in_flight.saturating_sub(1);
                if permit.probe {
                    count.probing = false;
                }
            }
            {
                let mut count = lock(&target.state);
                if status == 429 && !reading.global {
                    count.remaining = Some(0);
                    count.resets_at = Some(now + retry_after.or(reading.reset_after).unwrap_or(Duration::from_secs(1)));
                } else {
                    count.limit = reading.limit.or(count.limit);
                    if let Some(r) = reading.remaining {
                        // Calls already counted here and still on their way are not in `r`.
                        let known = count.remaining.unwrap_or(r);
                        count.remaining = Some(known.min(r));
                    }
                    if let Some(after) = reading.reset_after {
                        count.resets_at = Some(now + after);
                    }
                }
            }
            permit.bucket.changed.notify_waiters();
            target.changed.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_route_is_its_endpoint_and_the_values_of_its_major_parameters() {
        let route = |path: &str| route("create_message", "/channels/{channel_id}/messages/{message_id}", path, DISCORD.major);
        assert_eq!(route("/api/v10/channels/7/messages/9?x=1"), "create_message 7");
        assert_eq!(route("/channels/8/messages/9"), "create_message 8");
        assert_eq!(route("/short"), "create_message", "a path that does not fit is the endpoint's");
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        let pairs = pairs.to_vec();
        move |name| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v).to_owned())
    }

    #[test]
    fn an_answer_is_read_by_the_roles_of_its_headers() {
        let reading = DISCORD.read(
            headers(&[("x-ratelimit-limit", "5"), ("x-ratelimit-remaining", "4"), ("x-ratelimit-reset-after", "1.5"), ("x-ratelimit-bucket", "abc")]),
            0.0,
        );
        assert_eq!(
            reading,
            Reading { bucket: Some("abc".into()), limit: Some(5), remaining: Some(4), reset_after: Some(Duration::from_millis(1500)), global: false }
        );
        let absolute = DISCORD.read(headers(&[("x-ratelimit-reset", "1002.25")]), 1000.0);
        assert_eq!(absolute.reset_after, Some(Duration::from_millis(2250)));
        assert!(DISCORD.read(headers(&[("x-ratelimit-global", "true")]), 0.0).global);
        assert!(DISCORD.read(headers(&[("x-ratelimit-scope", "global")]), 0.0).global);
        let odd = DISCORD.read(headers(&[("x-ratelimit-remaining", "-1"), ("x-ratelimit-reset-after", "NaN"), ("x-ratelimit-reset", "5")]), 10.0);
        assert_eq!(odd, Reading::default(), "values that mean nothing are not read");
    }
}
