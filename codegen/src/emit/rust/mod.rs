//! Rust artifacts: the `platform-runtime`, `platform-types`, `platform-server` and `platform-client`
//! crates, and the formatting and naming they share.

pub mod format;
pub(super) mod shared;

pub(super) mod client;
pub(super) mod runtime;
pub(super) mod server;

pub use server::router::routes as server_routes;
pub(super) mod types;
