//! Fuzz targets of the generator, shared by the coverage-guided fuzzer and the test suite.
//!
//! A target is one function from bytes to a public entry point ([`targets::load_spec`],
//! [`targets::import_openapi`]). The AFL build under `fuzz/afl/` wraps each target in
//! `afl::fuzz!`; the bounded pass of the test suite (`fuzz/tests/`) feeds it inputs from a fixed
//! seed and replays every crash kept under `fuzz/crashes/<target>/`. Adding a target is one function here, one binary under
//! `fuzz/afl/src/bin/`, and one corpus directory.
//!
//! Random bytes rarely get past a YAML parser, so an input is read two ways ([`input`]): text as
//! written (an archive of spec files, an OpenAPI document: what the seed corpus holds, mutated
//! byte by byte), or choices that pick a seed and apply structure-aware edits to its trees
//! ([`mutate`] for specs, [`openapi`] for OpenAPI documents).
#![deny(missing_docs)]

pub mod archive;
pub mod input;
pub mod mutate;
pub mod openapi;
pub mod seeds;
pub mod targets;
