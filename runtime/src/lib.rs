//! The spec-independent runtime of the crates `platform-codegen` generates.
//!
//! Everything here reads the same whatever the spec says: the wire primitives every types crate
//! uses, the constraint checks the server and the client share, the clock dated changes are read
//! against, the request readers of a generated server and the C ABI's handles and strings. The
//! generated crates depend on it and render only what their spec decides.
//!
//! The generator carries this crate's source and writes a byte copy of it beside the crates it
//! generates (as `<prefix>-runtime`), so that a copy of its output builds anywhere without a
//! registry; the features say which parts a spec's crates use.
//!
//! Each part is behind the feature that names it, so the modules are written as plain names here:
//!
//! - `wire`, `validation`, `clock`, `timeline`, `rules` (feature `model`): the types crate's
//!   foundation.
//! - `server` (feature `server`) and `multipart` (feature `multipart`): the server's readers.
//! - `form` (feature `form`, with `server` and `client`): form bodies read and written, a list
//!   as its name repeated.
//! - `mock` (feature `server`): the budgets and faults a generated mock server pushes back with.
//! - `ffi` (feature `ffi`): the C ABI's building blocks.
//! - `pagination` (feature `model`; its streams with `client`): how a paginated endpoint's
//!   request makes the next one, and the pages a mock cuts from an example.
//! - `ratelimit` (feature `model`; its limiter with `client`): what a spec says of its rate
//!   limits, and the limiter that keeps a client within them.
//! - `retry` (feature `client`): how a generated client sends a request, and when it tries it
//!   again.
//! - `stream` (feature `stream`): streamed responses (server-sent events, JSON Lines) as typed
//!   events, written by a server and read, resumed where they broke, by a client.
//! - `delivery` (feature `model`): what a spec says of the deliveries it makes to an app's
//!   endpoint (webhook events, interactions), and how a body becomes a typed event and back.
//! - `webhooks` (feature `webhooks`): checking that a delivery to an app comes from the
//!   platform before reading it, and signing one as the platform sends it; its sender with
//!   `client`, its axum receiver with `receiver`.
//! - `gateway` (feature `gateway`): what a spec says of a session protocol over WebSocket (its
//!   envelope, opcodes, close codes and limits), and its frames.
//! - `shard` (feature `gateway-client`): the session client, which keeps a session alive and
//!   hands out typed events; `wss://` with `gateway-rustls`.
//! - `hub` (feature `gateway-server`): the server side of a session protocol, an axum WebSocket
//!   route with heartbeat supervision and replay for resumes.
#![warn(missing_docs)]
#![deny(unsafe_code)]

#[cfg(feature = "model")]
pub mod clock;
#[cfg(feature = "model")]
pub mod delivery;
#[cfg(feature = "ffi")]
#[allow(unsafe_code)]
pub mod ffi;
#[cfg(feature = "form")]
pub mod form;
#[cfg(feature = "gateway")]
pub mod gateway;
#[cfg(feature = "gateway-server")]
pub mod hub;
#[cfg(feature = "server")]
pub mod mock;
#[cfg(feature = "multipart")]
pub mod multipart;
#[cfg(feature = "model")]
pub mod pagination;
#[cfg(feature = "model")]
pub mod ratelimit;
#[cfg(feature = "client")]
pub mod retry;
#[cfg(feature = "model")]
pub mod rules;
#[cfg(feature = "server")]
pub mod server;
#[cfg(feature = "gateway-client")]
pub mod shard;
#[cfg(feature = "stream")]
pub mod stream;
#[cfg(feature = "model")]
pub mod timeline;
#[cfg(feature = "model")]
pub mod validation;
#[cfg(feature = "webhooks")]
pub mod webhooks;
#[cfg(feature = "model")]
pub mod wire;
