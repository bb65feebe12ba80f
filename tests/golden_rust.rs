//! Golden tests of the Rust emitters (types, server, client) over the fixture spec
//! `tests/fixtures/minimal/`: the output must equal `tests/fixtures/minimal/expected/<artifact>/`.
//! The expected crates are workspace members, so the fixture's generated Rust also compiles and
//! passes clippy with the rest of the workspace.
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test --test all golden_rust::`.

use platform_codegen::emit::{EmitOptions, GeneratedFile, emit_all};
use platform_specgen::golden;
use std::path::{Path, PathBuf};

const ARTIFACTS: &[&str] = &["runtime", "types", "server", "client"];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal")
}

fn emitted() -> Vec<GeneratedFile> {
    let loaded = platform_codegen::load_spec(&fixture(), "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid"));
    emit_all(&loaded.model, &EmitOptions::default()).into_iter().filter(|f| ARTIFACTS.contains(&f.artifact)).collect()
}

#[test]
fn rust_emitters_match_their_goldens_over_the_fixture() {
    let files = emitted();
    assert!(ARTIFACTS.iter().all(|a| files.iter().any(|f| f.artifact == *a)), "every Rust emitter runs over the fixture");
    let texts = files.iter().map(|f| (f.path.as_str(), f.contents.as_str()));
    golden::compare_tree(&fixture().join("expected"), texts, ARTIFACTS, "golden_rust");
}

#[test]
fn crate_names_come_from_the_spec_prefix() {
    let files = emitted();
    let manifest = |artifact: &str| files.iter().find(|f| f.path == format!("{artifact}/Cargo.toml")).map(|f| f.contents.clone()).expect("a manifest");
    assert!(manifest("types").contains("name = \"widget-types\""));
    assert!(manifest("server").contains("widget-types = { version = \"0.1.0\", path = \"../types\", features = [\"server\"] }"));
    assert!(
        manifest("client").contains("widget-types = { version = \"0.1.0\", path = \"../types\" }"),
        "a client reads no requests: it leaves the types crate's `server` feature off"
    );
    assert!(manifest("types").contains("\nserver = []\n"));
    assert!(manifest("client").contains("rustls = [\"reqwest/rustls\"]"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    for artifact in ARTIFACTS {
        let member = format!("\"tests/fixtures/minimal/expected/{artifact}\"");
        assert!(workspace.contains(&member), "the fixture's {artifact} crate is a workspace member, so it is compiled and linted");
    }
}
