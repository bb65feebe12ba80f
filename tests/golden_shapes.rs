//! Golden tests of every emitter over the shapes fixture `tests/fixtures/shapes/`, a spec
//! that uses every shape of the format: each emitted file must equal its copy under
//! `tests/fixtures/shapes/expected/`. The expected Rust crates (types, server, client) are
//! workspace members, so the fixture's generated Rust also compiles and passes clippy with the
//! rest of the workspace.
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test --test all golden_shapes::`.

use platform_codegen::emit::{EmitOptions, GeneratedFile, emit_all};
use platform_specgen::golden;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shapes")
}

fn emitted() -> Vec<GeneratedFile> {
    let loaded = platform_codegen::load_spec(&fixture(), "spec").unwrap_or_else(|e| panic!("the shapes fixture is invalid: {e:?}"));
    // The one warning is the class field the C ABI leaves out on purpose (the headers say so).
    let warnings: Vec<(&str, &str)> = loaded.warnings.iter().map(|w| (w.code, w.message.as_str())).collect();
    assert_eq!(
        warnings,
        [("W0145", "field `Payload` of class `Sample` has type `bytes`, which the C ABI does not carry")],
        "the shapes fixture's warnings changed"
    );
    // The spec format's JSON Schema is the same for every spec: `generated/spec.schema.json`
    // carries it, and `spec_schema.rs` checks this fixture against it. The workspace root of
    // standalone output is left out: the expected crates are members of this repository's
    // workspace, and a root beside them would claim them too.
    emit_all(&loaded.model, &EmitOptions::default())
        .into_iter()
        .filter(|f| f.artifact != "schema" && f.artifact != platform_codegen::emit::cargo::ARTIFACT)
        .collect()
}

#[test]
fn every_emitter_matches_its_golden_over_the_shapes_fixture() {
    let files = emitted();
    let artifacts: std::collections::BTreeSet<&str> = files.iter().map(|f| f.artifact).collect();
    assert_eq!(artifacts.len(), 10, "every emitter but the spec schema runs over the fixture: {artifacts:?}");
    let texts = files.iter().map(|f| (f.path.as_str(), f.contents.as_str()));
    golden::compare_tree(&fixture().join("expected"), texts, &[""], "golden_shapes");
}

#[test]
fn the_fixture_crates_are_workspace_members() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    for artifact in ["runtime", "types", "server", "client"] {
        let member = format!("\"tests/fixtures/shapes/expected/{artifact}\"");
        assert!(workspace.contains(&member), "the shapes fixture's {artifact} crate is a workspace member, so it is compiled and linted");
    }
}
