//! The runtime's tests, as one test binary (Cargo finds `tests/all/main.rs` as one target):
//! each file beside this one is a module of it, so the dependencies' generic code (tokio's
//! runtime, axum's router, the WebSocket client) is compiled and linked once instead of once
//! per file. Run one file's tests with `cargo test -p platform-codegen-runtime --test all
//! <file>::`.

mod ffi;
mod gateway;
mod limiter;
mod mock;
mod rules;
mod server;
mod stream;
mod validation;
mod webhooks;
mod wire;
