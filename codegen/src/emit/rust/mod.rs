//! Rust artifacts: the `platform-runtime`, `platform-types`, `platform-server` and `platform-client`
//! crates, and the formatting and naming they share.

pub mod format;
pub(super) mod shared;

pub(super) mod client;
mod readme;
pub(super) mod runtime;
pub(super) mod server;

pub(super) mod types;

/// The routes of the generated server, as (address placeholder, path, methods): what the
/// router gives axum, for checking it builds.
pub fn server_routes(model: &crate::model::Model) -> Vec<(String, String, Vec<String>)> {
    server::router::routes(&crate::plan::rust::Plan::new(model))
}
