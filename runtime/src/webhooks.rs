//! Webhook deliveries: checking that a request to an app's endpoint comes from the platform,
//! before its body is read as anything, and signing one as the platform sends it.
//!
//! Two schemes are known:
//!
//! - **Ed25519 over the timestamp and the body** (Discord's interactions and webhook events):
//!   the signature header holds the hex signature of the timestamp header's value followed by
//!   the raw body, checked with the application's public key (hex).
//! - **Standard Webhooks** (`webhook-id`, `webhook-timestamp`, `webhook-signature`): the
//!   signature header holds one or more space-separated signatures of `{id}.{timestamp}.{body}`,
//!   each `v1,<base64 HMAC-SHA256>` with a shared secret (`whsec_<base64>`) or `v1a,<base64
//!   Ed25519>` with a public key; one that verifies is enough, so keys can be rotated.
//!
//! Signatures are compared in constant time (`hmac`'s `verify_slice`, `ed25519-dalek`'s strict
//! verification). A timestamp further from now than the tolerance is stale, and a delivery id
//! seen within the tolerance is a replay ([`Replays`]).

use crate::delivery::{Delivery, Hook, HookEvent, read};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

pub use crate::delivery::Scheme;

/// A key a delivery may be signed with.
#[derive(Clone)]
pub enum Key {
    /// An Ed25519 public key.
    Ed25519(ed25519_dalek::VerifyingKey),
    /// A secret shared with the platform, for HMAC-SHA256.
    Secret(Vec<u8>),
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Ed25519(key) => write!(f, "Ed25519({})", hex(key.as_bytes())),
            // A secret is never written out.
            Key::Secret(_) => f.write_str("Secret(..)"),
        }
    }
}

/// Why a text is no key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadKey(pub String);

impl fmt::Display for BadKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a key: {}", self.0)
    }
}

impl std::error::Error for BadKey {}

impl Key {
    /// An Ed25519 public key written in hex (64 digits), as platforms show it.
    pub fn ed25519_hex(text: &str) -> Result<Key, BadKey> {
        let bytes: [u8; 32] = unhex(text.trim()).and_then(|b| b.try_into().ok()).ok_or_else(|| BadKey("an Ed25519 key is 64 hex digits".to_owned()))?;
        ed25519_dalek::VerifyingKey::from_bytes(&bytes).map(Key::Ed25519).map_err(|e| BadKey(e.to_string()))
    }

    /// A Standard Webhooks secret, `whsec_` and base64 (the prefix may be left out), of at
    /// least [`MIN_SECRET`] bytes: an empty or short one (an unset variable) would let anyone
    /// sign.
    pub fn secret(text: &str) -> Result<Key, BadKey> {
        let text = text.trim();
        let encoded = text.strip_prefix("whsec_").unwrap_or(text);
        let bytes = BASE64.decode(encoded).map_err(|_| BadKey("a secret is `whsec_` and base64".to_owned()))?;
        if bytes.len() < MIN_SECRET {
            return Err(BadKey(format!("a secret of {} bytes; Standard Webhooks' are 24 to 64, and fewer than {MIN_SECRET} are refused", bytes.len())));
        }
        Ok(Key::Secret(bytes))
    }
}

/// The fewest bytes a secret may have.
pub const MIN_SECRET: usize = 16;

/// The most signatures one delivery's header may carry: a few while keys rotate. More is
/// refused before any is checked, so a forged header cannot make the receiver hash its body
/// thousands of times.
pub const MAX_SIGNATURES: usize = 8;

/// Why a delivery is refused: none of these calls the handler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// A header the scheme needs is missing, or is not text.
    Missing(&'static str),
    /// The timestamp is not a number of seconds.
    BadTimestamp,
    /// No signature verifies with any key.
    BadSignature,
    /// The timestamp is further from now than the tolerance.
    Stale {
        /// How far it is, in seconds.
        seconds: i64,
    },
    /// The delivery's id was seen within the tolerance.
    Replayed,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Missing(header) => write!(f, "the header {header} is missing"),
            Rejection::BadTimestamp => f.write_str("the timestamp is not a number of seconds"),
            Rejection::BadSignature => f.write_str("no signature verifies"),
            Rejection::Stale { seconds } => write!(f, "the timestamp is {seconds} s from now"),
            Rejection::Replayed => f.write_str("the delivery was received before"),
        }
    }
}

impl std::error::Error for Rejection {}

/// What a verified delivery says of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The delivery's id, when the scheme has one.
    pub id: Option<String>,
    /// Its timestamp, in seconds since the epoch.
    pub timestamp: i64,
}

/// Checks deliveries: the scheme, the keys any of which may have signed, and how old a
/// delivery may be.
#[derive(Debug)]
pub struct Verifier {
    scheme: Scheme,
    keys: Vec<Key>,
    tolerance: Option<Duration>,
    replays: Option<Replays>,
}

impl Verifier {
    /// A verifier of `scheme` with `keys`, accepting any timestamp.
    pub fn new(scheme: Scheme, keys: Vec<Key>) -> Self {
        Verifier { scheme, keys, tolerance: None, replays: None }
    }

    /// Refusing a timestamp further than `tolerance` from now, and, for a scheme with delivery
    /// ids, an id seen within it.
    pub fn with_tolerance(self, tolerance: Duration) -> Self {
        let replays = matches!(self.scheme, Scheme::Standard { .. }).then(|| Replays::new(tolerance));
        Verifier { tolerance: Some(tolerance), replays, ..self }
    }

    /// Checks a delivery: its headers (looked up by lower-case name), its raw body, at `now`
    /// seconds since the epoch. Nothing of the body is read before its signature verifies.
    pub fn verify<'h>(&self, header: impl Fn(&str) -> Option<&'h str>, body: &[u8], now: i64) -> Result<Verified, Rejection> {
        let verified = match self.scheme {
            Scheme::Ed25519 { signature, timestamp } => {
                let stamp = header(timestamp).ok_or(Rejection::Missing(timestamp))?;
                let sig = header(signature).ok_or(Rejection::Missing(signature))?;
                let sig = unhex(sig.trim()).and_then(|b| <[u8; 64]>::try_from(b).ok()).ok_or(Rejection::BadSignature)?;
                let signed = [stamp.as_bytes(), body].concat();
                if !self.ed25519_verifies(&signed, &sig) {
                    return Err(Rejection::BadSignature);
                }
                Verified { id: None, timestamp: stamp.trim().parse().map_err(|_| Rejection::BadTimestamp)? }
            }
            Scheme::Standard { id, timestamp, signature } => {
                let delivery = header(id).ok_or(Rejection::Missing(id))?;
                let stamp = header(timestamp).ok_or(Rejection::Missing(timestamp))?;
                let signatures = header(signature).ok_or(Rejection::Missing(signature))?;
                let signed = [delivery.as_bytes(), b".", stamp.as_bytes(), b".", body].concat();
                if signatures.split_ascii_whitespace().nth(MAX_SIGNATURES).is_some() {
                    return Err(Rejection::BadSignature);
                }
                // Each secret's tag is computed once, whatever the number of signatures.
                let tags = self.hmac_tags(&signed);
                if !signatures.split_ascii_whitespace().any(|s| self.standard_verifies(&signed, &tags, s)) {
                    return Err(Rejection::BadSignature);
                }
                Verified { id: Some(delivery.to_owned()), timestamp: stamp.trim().parse().map_err(|_| Rejection::BadTimestamp)? }
            }
        };
        if let Some(tolerance) = self.tolerance {
            let seconds = now.saturating_sub(verified.timestamp);
            if seconds.unsigned_abs() > tolerance.as_secs() {
                return Err(Rejection::Stale { seconds });
            }
        }
        if let (Some(replays), Some(id)) = (&self.replays, &verified.id)
            && replays.seen(id, now)
        {
            return Err(Rejection::Replayed);
        }
        Ok(verified)
    }

    /// Remembers the delivery `id` as done, for a scheme with delivery ids and a tolerance: the
    /// receiver calls it once the app acknowledged the delivery.
    pub fn remember(&self, id: &str, now: i64) {
        if let Some(replays) = &self.replays {
            replays.remember(id, now);
        }
    }

    fn ed25519_verifies(&self, signed: &[u8], signature: &[u8; 64]) -> bool {
        let signature = ed25519_dalek::Signature::from_bytes(signature);
        self.keys.iter().any(|k| matches!(k, Key::Ed25519(key) if key.verify_strict(signed, &signature).is_ok()))
    }

    /// The HMAC-SHA256 tag of `signed` under each secret (an empty secret signs nothing).
    fn hmac_tags(&self, signed: &[u8]) -> Vec<hmac::digest::CtOutput<Hmac<Sha256>>> {
        let secrets = self.keys.iter().filter_map(|k| match k {
            Key::Secret(secret) if !secret.is_empty() => Some(secret),
            _ => None,
        });
        secrets
            .filter_map(|secret| {
                let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
                mac.update(signed);
                Some(mac.finalize())
            })
            .collect()
    }

    /// One `v1,<base64>` (HMAC, against each secret's `tags`) or `v1a,<base64>` (Ed25519)
    /// signature. Tags are compared in constant time (`CtOutput`'s equality).
    fn standard_verifies(&self, signed: &[u8], tags: &[hmac::digest::CtOutput<Hmac<Sha256>>], one: &str) -> bool {
        let Some((version, encoded)) = one.split_once(',') else { return false };
        let Ok(bytes) = BASE64.decode(encoded) else { return false };
        match version {
            "v1" => {
                let Some(given) = hmac::digest::generic_array::GenericArray::from_exact_iter(bytes.iter().copied()) else { return false };
                let given = hmac::digest::CtOutput::<Hmac<Sha256>>::new(given);
                // `CtOutput`'s equality is constant-time, and so each comparison here.
                tags.contains(&given)
            }
            "v1a" => <[u8; 64]>::try_from(bytes.as_slice()).is_ok_and(|sig| self.ed25519_verifies(signed, &sig)),
            _ => false,
        }
    }
}

/// The ids of the deliveries received within a window, to refuse one received again. Memory is
/// bounded by the window: ids older than it are forgotten, since a delivery that old is stale.
#[derive(Debug)]
pub struct Replays {
    window: Duration,
    seen: Mutex<Seen>,
}

/// The ids received, oldest first with when, and as a set.
#[derive(Debug, Default)]
struct Seen {
    order: VecDeque<(i64, String)>,
    ids: HashSet<String>,
}

impl Replays {
    /// Remembering ids for `window`.
    pub fn new(window: Duration) -> Self {
        Replays { window, seen: Mutex::new(Seen::default()) }
    }

    /// Whether `id` is new at `now`; it is remembered either way.
    pub fn first_time(&self, id: &str, now: i64) -> bool {
        let new = !self.seen(id, now);
        self.remember(id, now);
        new
    }

    /// Whether `id` was remembered within the window before `now`.
    pub fn seen(&self, id: &str, now: i64) -> bool {
        let mut guard = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let Seen { order, ids } = &mut *guard;
        let horizon = now.saturating_sub(i64::try_from(self.window.as_secs()).unwrap_or(i64::MAX));
        while order.front().is_some_and(|(at, _)| *at < horizon) {
            if let Some((_, old)) = order.pop_front() {
                ids.remove(&old);
            }
        }
        ids.contains(id)
    }

    /// Remembers `id` as done at `now`. A receiver remembers a delivery once the app
    /// acknowledged it, so that the platform's next try of one the app failed is not a replay.
    pub fn remember(&self, id: &str, now: i64) {
        let mut guard = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if guard.ids.insert(id.to_owned()) {
            guard.order.push_back((now, id.to_owned()));
        }
    }
}

/// A key the platform signs deliveries with.
#[derive(Clone)]
pub enum SigningKey {
    /// An Ed25519 private key.
    Ed25519(ed25519_dalek::SigningKey),
    /// A shared secret, for HMAC-SHA256.
    Secret(Vec<u8>),
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Private keys are never written out.
        f.write_str(match self {
            SigningKey::Ed25519(_) => "Ed25519(..)",
            SigningKey::Secret(_) => "Secret(..)",
        })
    }
}

impl SigningKey {
    /// An Ed25519 private key from its 32-byte seed written in hex (64 digits).
    pub fn ed25519_hex(text: &str) -> Result<SigningKey, BadKey> {
        let seed: [u8; 32] = unhex(text.trim()).and_then(|b| b.try_into().ok()).ok_or_else(|| BadKey("an Ed25519 seed is 64 hex digits".to_owned()))?;
        Ok(SigningKey::Ed25519(ed25519_dalek::SigningKey::from_bytes(&seed)))
    }

    /// A Standard Webhooks secret, `whsec_` and base64 (the prefix may be left out).
    pub fn secret(text: &str) -> Result<SigningKey, BadKey> {
        match Key::secret(text)? {
            Key::Secret(bytes) => Ok(SigningKey::Secret(bytes)),
            Key::Ed25519(_) => unreachable!("a secret reads as a secret"),
        }
    }

    /// The key that checks what this one signs.
    pub fn verifying(&self) -> Key {
        match self {
            SigningKey::Ed25519(key) => Key::Ed25519(key.verifying_key()),
            SigningKey::Secret(secret) => Key::Secret(secret.clone()),
        }
    }
}

/// The headers that sign a delivery of `body` under `scheme`, with each of `keys` (several
/// while keys rotate; the Ed25519 scheme carries one signature, the first key's).
pub fn sign(scheme: Scheme, keys: &[SigningKey], id: &str, timestamp: i64, body: &[u8]) -> Vec<(&'static str, String)> {
    let stamp = timestamp.to_string();
    match scheme {
        Scheme::Ed25519 { signature, timestamp } => {
            use ed25519_dalek::Signer as _;
            let signed = [stamp.as_bytes(), body].concat();
            let sig = keys.iter().find_map(|k| match k {
                SigningKey::Ed25519(key) => Some(hex(&key.sign(&signed).to_bytes())),
                SigningKey::Secret(_) => None,
            });
            vec![(timestamp, stamp), (signature, sig.unwrap_or_default())]
        }
        Scheme::Standard { id: id_header, timestamp, signature } => {
            use ed25519_dalek::Signer as _;
            let signed = [id.as_bytes(), b".", stamp.as_bytes(), b".", body].concat();
            let signatures: Vec<String> = keys
                .iter()
                .map(|k| match k {
                    SigningKey::Secret(secret) => {
                        let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
                        mac.update(&signed);
                        format!("v1,{}", BASE64.encode(mac.finalize().into_bytes()))
                    }
                    SigningKey::Ed25519(key) => format!("v1a,{}", BASE64.encode(key.sign(&signed).to_bytes())),
                })
                .collect();
            vec![(id_header, id.to_owned()), (timestamp, stamp), (signature, signatures.join(" "))]
        }
    }
}

/// Lower-case hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes from hex, upper or lower case.
fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// Why a receiver refuses a delivery, with the status it answers: `401` for what does not
/// verify (or was received before), `400` for a verified body that does not read. The handler
/// is never called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// `401` or `400`.
    pub status: u16,
    /// What was wrong, for the error body.
    pub message: String,
}

/// Checks a delivery of `hook` and reads it: the signature first, on the raw bytes, and only
/// then the body. `verifier` is `None` for a hook whose deliveries are not signed. `header`
/// looks headers up by lower-case name; `now` is in seconds since the epoch. A delivery id
/// the envelope carries (rather than a header) is checked against `replays` once read. Neither
/// remembers the id: that is done once the app acknowledges the delivery
/// ([`Verifier::remember`], [`Replays::remember`]).
pub fn accept<'h, E: HookEvent>(
    hook: &Hook,
    verifier: Option<&Verifier>,
    replays: Option<&Replays>,
    header: impl Fn(&str) -> Option<&'h str>,
    body: &[u8],
    now: i64,
) -> Result<Delivery<E>, Refusal> {
    let refuse = |status: u16, message: String| Refusal { status, message };
    let verified = match verifier {
        Some(v) => Some(v.verify(header, body, now).map_err(|r| refuse(401, r.to_string()))?),
        None => None,
    };
    let mut delivery = read::<E>(hook, body).map_err(|m| refuse(400, m))?;
    if let Delivery::Event(received) = &mut delivery {
        match verified.and_then(|v| v.id) {
            // The scheme's id was checked for replays as it was verified.
            Some(id) => received.id = Some(id),
            None => {
                if let (Some(replays), Some(id)) = (replays, &received.id)
                    && replays.seen(id, now)
                {
                    return Err(refuse(401, Rejection::Replayed.to_string()));
                }
            }
        }
    }
    Ok(delivery)
}

/// The wall clock in seconds since the epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

impl Verifier {
    /// The verifier of `hook`'s deliveries with `keys`, refusing what is older than its
    /// tolerance; `None` when its deliveries are not signed.
    pub fn for_hook(hook: &Hook, keys: Vec<Key>) -> Option<Verifier> {
        let verifier = Verifier::new(hook.scheme?, keys);
        Some(match hook.tolerance {
            Some(tolerance) => verifier.with_tolerance(tolerance),
            None => verifier,
        })
    }
}

impl Replays {
    /// The memory of the delivery ids `hook`'s envelope carries, where the scheme carries none:
    /// only with a tolerance, which bounds it.
    pub fn for_hook(hook: &Hook) -> Option<Replays> {
        let header_id = matches!(hook.scheme, Some(Scheme::Standard { .. }));
        (!header_id && hook.envelope.id.is_some()).then_some(hook.tolerance).flatten().map(Replays::new)
    }
}

#[cfg(feature = "client")]
pub use sender::{Delivered, Sender, Undelivered, deliver};

/// The platform's side: delivering an event to an app, signed, and again while it fails.
#[cfg(feature = "client")]
mod sender {
    use super::{Scheme, SigningKey, sign};
    use crate::delivery::{Hook, HookEvent, write};
    use crate::retry::{Outcome, Retry, retry_after};
    use std::marker::PhantomData;
    use std::time::Duration;

    /// A delivery the app acknowledged: its status, and the tries it took.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Delivered {
        /// The 2xx status.
        pub status: u16,
        /// Tries in all.
        pub tries: u32,
    }

    /// A delivery given up: the last status (none when no answer came), and the tries (none
    /// when the event could not be written, or signed with the keys given).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Undelivered {
        /// The last answer's status.
        pub status: Option<u16>,
        /// Tries in all.
        pub tries: u32,
    }

    /// Delivers `hook`'s events (`E`), signed with its keys, tried again on its schedule.
    #[derive(Debug)]
    pub struct Sender<E> {
        hook: &'static Hook,
        keys: Vec<SigningKey>,
        http: reqwest::Client,
        clock: fn() -> i64,
        events: PhantomData<fn(&E)>,
    }

    impl<E> Clone for Sender<E> {
        fn clone(&self) -> Self {
            Sender { hook: self.hook, keys: self.keys.clone(), http: self.http.clone(), clock: self.clock, events: PhantomData }
        }
    }

    impl<E: HookEvent> Sender<E> {
        /// A sender of `hook`'s events signed with `keys` (several while keys rotate).
        pub fn new(hook: &'static Hook, keys: Vec<SigningKey>) -> Self {
            // A redirect is the app's final answer: following it would carry the platform's signed
            // request wherever the app points (and turn the POST into a GET on a 303).
            let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap_or_default();
            Sender { hook, keys, http, clock: super::now, events: PhantomData }
        }

        /// Sending with `http`.
        pub fn with_http(self, http: reqwest::Client) -> Self {
            Sender { http, ..self }
        }

        /// Reading the time (seconds since the epoch) from `clock`, for the signatures and the
        /// envelope's timestamp.
        pub fn with_clock(self, clock: fn() -> i64) -> Self {
            Sender { clock, ..self }
        }

        /// The retry policy of the hook's schedule: any `5xx`, `429` and a missing answer are
        /// tried again.
        pub fn retry(&self) -> Retry {
            let s = &self.hook.schedule;
            Retry { attempts: s.attempts, initial: s.initial, max: s.max, ..Retry::default() }
        }

        /// Delivers `event` to `url` as the delivery `id`.
        pub async fn send(&self, url: &str, id: &str, event: &E) -> Result<Delivered, Undelivered> {
            let body = self.body(id, event).map_err(|_| Undelivered { status: None, tries: 0 })?;
            self.send_body(url, id, &body).await
        }

        /// The body of `event` as the delivery `id`, in the hook's envelope.
        pub fn body(&self, id: &str, event: &E) -> Result<Vec<u8>, String> {
            let now = (self.clock)();
            let stamp = jiff::Timestamp::from_second(now).map_or(serde_json::Value::Null, |t| serde_json::Value::String(t.to_string()));
            write(self.hook, event, id, stamp)
        }

        /// Pings `url` as the platform checks an app's endpoint: the hook's ping member and value,
        /// nothing else; tried once. `None` when the hook has no ping.
        pub async fn ping(&self, url: &str, id: &str) -> Option<Result<Delivered, Undelivered>> {
            let ping = self.hook.ping?;
            let value: serde_json::Value = serde_json::from_str(ping.value).ok()?;
            let mut body = serde_json::Value::Object(serde_json::Map::new());
            crate::delivery::put(&mut body, ping.member, value).ok()?;
            let once = Retry { attempts: 1, ..self.retry() };
            let deadline = self.hook.ack_deadline.unwrap_or(Duration::from_secs(10));
            Some(deliver(&self.http, url, self.hook.scheme, &self.keys, id, body.to_string().as_bytes(), &once, deadline, self.clock).await)
        }

        /// Delivers a body already written (a body kept from an earlier try).
        pub async fn send_body(&self, url: &str, id: &str, body: &[u8]) -> Result<Delivered, Undelivered> {
            // An app gets the whole deadline; a hook without one gets the runtime's ten seconds.
            let deadline = self.hook.ack_deadline.unwrap_or(Duration::from_secs(10));
            deliver(&self.http, url, self.hook.scheme, &self.keys, id, body, &self.retry(), deadline, self.clock).await
        }
    }

    /// Delivers `body` (JSON) to `url`, signed with `keys` under `scheme` (if any) afresh at
    /// each try (the same id, the time of the try), waiting at most `deadline` for each
    /// answer. A connection error, a timeout, `429` and any `5xx` are tried again as `retry`
    /// says (its backoff, or the `Retry-After` asked for); any other answer is final. Tokio's
    /// clock times the waits; `clock` gives each try's timestamp.
    #[allow(clippy::too_many_arguments)]
    pub async fn deliver(
        http: &reqwest::Client,
        url: &str,
        scheme: Option<Scheme>,
        keys: &[SigningKey],
        id: &str,
        body: &[u8],
        retry: &Retry,
        deadline: Duration,
        clock: impl Fn() -> i64,
    ) -> Result<Delivered, Undelivered> {
        let mut tries = 0;
        loop {
            tries += 1;
            let mut request = http.post(url).header("content-type", "application/json").body(body.to_vec());
            let signed = scheme.map(|s| sign(s, keys, id, clock(), body)).unwrap_or_default();
            // No key of the scheme's kind: nothing is sent that no receiver could verify.
            if signed.iter().any(|(_, value)| value.is_empty()) {
                return Err(Undelivered { status: None, tries: tries - 1 });
            }
            for (name, value) in signed {
                request = request.header(name, value);
            }
            let answer = tokio::time::timeout(deadline, request.send()).await.ok().and_then(Result::ok);
            let outcome = match &answer {
                Some(a) if a.status().is_success() => return Ok(Delivered { status: a.status().as_u16(), tries }),
                Some(a) => {
                    let asked = a.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(retry_after);
                    // The app failing, or asking for time, is worth another try: a receiver does
                    // a delivery once per id. Any other refusal is final.
                    let worth = a.status().is_server_error() || a.status().as_u16() == 429;
                    Outcome::Answered { status: a.status().as_u16(), asked, advice: Some(worth) }
                }
                None => Outcome::NotSent,
            };
            let status = answer.as_ref().map(|a| a.status().as_u16());
            match retry.wait(tries, outcome, true) {
                Some(wait) => tokio::time::sleep(wait).await,
                None => return Err(Undelivered { status, tries }),
            }
        }
    }
}

#[cfg(feature = "receiver")]
pub use receiver::{Receiver, Reply};

/// The app's side: an axum handler that verifies, reads and answers deliveries.
#[cfg(feature = "receiver")]
mod receiver {
    use super::{Key, Refusal, Replays, Verifier, accept};
    use crate::delivery::{Delivery, Hook, HookEvent, Ping, Received};
    use axum::body::Bytes;
    use axum::http::{HeaderMap, StatusCode, header};
    use axum::response::{IntoResponse, Response};
    use std::future::Future;
    use std::marker::PhantomData;
    use std::sync::Arc;
    use std::time::Duration;

    /// What an app's handler answers an event with.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Reply {
        /// The hook's acknowledgement status, no body.
        Ack,
        /// `200` with a JSON body (an interaction's response).
        Json(serde_json::Value),
        /// Another status: a `5xx` or `429` asks the platform to try again later.
        Status(u16),
        /// `503` with `Retry-After`: the app asks for the delivery again after this long.
        Later(Duration),
    }

    /// Receives `hook`'s deliveries: checks each before reading it, answers the platform's
    /// ping itself, and hands every event, typed, to the app's handler.
    pub struct Receiver<E> {
        hook: &'static Hook,
        verifier: Option<Verifier>,
        replays: Option<Replays>,
        clock: fn() -> i64,
        refusal: fn(&Refusal) -> serde_json::Value,
        deferral: Option<(Reply, Duration)>,
        /// The ids of the deliveries whose handler is running: a copy that arrives meanwhile
        /// (the platform's retry after its deadline, or a replay) is asked to come back later.
        in_flight: std::sync::Mutex<std::collections::HashSet<String>>,
        events: PhantomData<fn() -> E>,
    }

    impl<E: HookEvent> Receiver<E> {
        /// A receiver of `hook`'s deliveries, signed with any of `keys`; `refusal` writes the
        /// error body of a refused one.
        pub fn new(hook: &'static Hook, keys: Vec<Key>, refusal: fn(&Refusal) -> serde_json::Value) -> Self {
            Receiver {
                hook,
                verifier: Verifier::for_hook(hook, keys),
                replays: Replays::for_hook(hook),
                clock: super::now,
                refusal,
                deferral: None,
                in_flight: std::sync::Mutex::default(),
                events: PhantomData,
            }
        }

        /// Reading the time (seconds since the epoch) from `clock`.
        pub fn with_clock(self, clock: fn() -> i64) -> Self {
            Receiver { clock, ..self }
        }

        /// Answers `reply` in the handler's place when the handler has not answered `margin`
        /// before the hook's acknowledgement deadline (an interaction's "deferred" response),
        /// so the platform never gives up on a slow handler. The handler still runs to its end;
        /// its own answer is then dropped, and it follows up through the platform's API. Without
        /// a deadline in the spec, nothing is deferred.
        pub fn deferring(self, reply: Reply, margin: Duration) -> Self {
            let deferral = self.hook.ack_deadline.map(|deadline| (reply, deadline.saturating_sub(margin)));
            Receiver { deferral, ..self }
        }

        /// How long the platform waits for an answer, as the spec says.
        pub fn deadline(&self) -> Option<Duration> {
            self.hook.ack_deadline
        }

        /// Checks and reads one delivery. The id of an event delivery is not remembered: call
        /// [`Receiver::acknowledge`] once the app has acknowledged it, or use [`Receiver::answer`]
        /// or [`Receiver::post`], which do.
        pub fn receive(&self, headers: &HeaderMap, body: &[u8]) -> Result<Delivery<E>, Refusal> {
            let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
            accept(self.hook, self.verifier.as_ref(), self.replays.as_ref(), header, body, (self.clock)())
        }

        /// Remembers the delivery `id` as done, so that the platform's next delivery of it is a
        /// replay: for as long as a delivery signed up to the tolerance ahead of now stays fresh.
        pub fn acknowledge(&self, id: &str) {
            let tolerance = self.hook.tolerance.map_or(0, |t| i64::try_from(t.as_secs()).unwrap_or(i64::MAX));
            let until = (self.clock)().saturating_add(tolerance);
            self.verifier.iter().for_each(|v| v.remember(id, until));
            self.replays.iter().for_each(|r| r.remember(id, until));
        }

        /// Marks `id` as being handled; `false` when it already is.
        fn begin(&self, id: Option<&str>) -> bool {
            let Some(id) = id else { return true };
            self.in_flight.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(id.to_owned())
        }

        /// The answer to one delivery: a refusal, the ping's answer, or the handler's. The
        /// handler is awaited here: [`Receiver::deferring`] applies to [`Receiver::post`].
        pub async fn answer<F, Fut>(&self, headers: &HeaderMap, body: &[u8], handler: &F) -> Response
        where
            F: Fn(Received<E>) -> Fut,
            Fut: Future<Output = Reply>,
        {
            match self.event(headers, body) {
                Err(answered) => answered,
                Ok(received) => {
                    let id = received.id.clone();
                    if !self.begin(id.as_deref()) {
                        return busy();
                    }
                    let reply = handler(received).await;
                    self.finish(id, reply)
                }
            }
        }

        /// The event of a delivery for the handler, or the answer when there is none for it.
        // The answer is the response written at once; boxing it would only add an allocation.
        #[allow(clippy::result_large_err)]
        fn event(&self, headers: &HeaderMap, body: &[u8]) -> Result<Received<E>, Response> {
            match self.receive(headers, body) {
                Err(refusal) => Err(json(status(refusal.status), &(self.refusal)(&refusal))),
                Ok(Delivery::Ping) => Err(match self.hook.ping {
                    Some(Ping { answer: Some(json), status: code, .. }) => (status(code), [(header::CONTENT_TYPE, "application/json")], json).into_response(),
                    Some(ping) => status(ping.status).into_response(),
                    None => status(self.hook.ack_status).into_response(),
                }),
                Ok(Delivery::Event(received)) => Ok(received),
            }
        }

        /// The handler's reply as a response; a delivery acknowledged is remembered, so the
        /// platform's next delivery of its id is a replay. One the app failed is tried again,
        /// and must pass.
        fn finish(&self, id: Option<String>, reply: Reply) -> Response {
            let response = match reply {
                Reply::Ack => status(self.hook.ack_status).into_response(),
                Reply::Json(value) => json(StatusCode::OK, &value),
                Reply::Status(code) => status(code).into_response(),
                Reply::Later(wait) => {
                    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                    (StatusCode::SERVICE_UNAVAILABLE, [(header::RETRY_AFTER, seconds.to_string())]).into_response()
                }
            };
            if let Some(id) = id {
                if response.status().is_success() {
                    self.acknowledge(&id);
                }
                self.in_flight.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&id);
            }
            response
        }
    }

    impl<E: HookEvent + Send + 'static> Receiver<E> {
        /// An axum `POST` handler answering every delivery with `handler`, to mount where the
        /// app told the platform to deliver (`Router::new().route("/hooks", receiver.post(h))`).
        pub fn post<F, Fut>(self, handler: F) -> axum::routing::MethodRouter
        where
            F: Fn(Received<E>) -> Fut + Clone + Send + Sync + 'static,
            Fut: Future<Output = Reply> + Send + 'static,
        {
            let this = Arc::new(self);
            axum::routing::post(move |headers: HeaderMap, body: Bytes| {
                let (this, handler) = (this.clone(), handler.clone());
                async move {
                    let received = match this.event(&headers, &body) {
                        Ok(received) => received,
                        Err(answered) => return answered,
                    };
                    let id = received.id.clone();
                    if !this.begin(id.as_deref()) {
                        return busy();
                    }
                    let reply = match this.deferral.clone() {
                        None => handler(received).await,
                        Some((deferred, after)) => {
                            // The handler runs on its own task, so it goes on once deferred.
                            let mut task = tokio::spawn(handler(received));
                            match tokio::time::timeout(after, &mut task).await {
                                Ok(Ok(reply)) => reply,
                                Ok(Err(_)) => Reply::Status(500),
                                Err(_) => deferred,
                            }
                        }
                    };
                    this.finish(id, reply)
                }
            })
        }
    }

    /// `503` with `Retry-After: 1`: a copy of a delivery whose handler is still running.
    fn busy() -> Response {
        (StatusCode::SERVICE_UNAVAILABLE, [(header::RETRY_AFTER, "1")]).into_response()
    }

    /// A JSON response.
    fn json(status: StatusCode, value: &serde_json::Value) -> Response {
        (status, [(header::CONTENT_TYPE, "application/json")], value.to_string()).into_response()
    }

    /// A status from its number; a number that is none is a `500`, which the hook never gives.
    fn status(code: u16) -> StatusCode {
        StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }
}
