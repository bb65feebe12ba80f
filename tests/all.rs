//! The root package's tests, as one test binary: each file under `tests/` is a module of it,
//! so the dependencies' generic code is compiled and linked once instead of once per file
//! (as 43 binaries they took 91 s of a cold workspace build; as one, 24 s). Run one file's tests
//! with `cargo test --test all <file>::`. `client_tracing.rs` is a binary of its own: it installs
//! the process's `tracing` subscriber.

mod asyncapi;
mod c_abi;
mod c_compat;
mod client_defaults;
mod client_pagination;
mod client_ratelimit;
mod client_retry;
mod client_streams;
mod client_timeouts;
mod common;
mod deprecation;
mod determinism;
mod diagnostics;
mod diff_cases;
mod diff_rules;
mod docs;
mod docs_browser;
mod drift;
mod feeds;
mod gateway_mock;
mod golden_rust;
mod golden_shapes;
mod ledger;
mod load;
mod macros;
mod malformed;
mod mock;
mod openapi;
mod random_specs;
mod rebuild;
mod round_trip;
mod sdk_emitters;
mod semver;
mod serde_roundtrip;
mod shapes_common;
mod shapes_openapi;
mod shapes_round_trip;
mod shapes_serde_roundtrip;
mod shapes_validation;
mod shortest_calls;
mod spec;
mod spec_schema;
mod standalone;
mod tree;
mod types_model;
mod values;
mod webhooks;
