//! Golden tests of every emitter over the shapes fixture `tests/fixtures/shapes/`, a spec
//! that uses every shape of the format: each emitted file must equal its copy under
//! `tests/fixtures/shapes/expected/`. The expected Rust crates (types, server, client) are
//! workspace members, so the fixture's generated Rust also compiles and passes clippy with the
//! rest of the workspace.
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test --test golden_shapes`.

use platform_codegen::emit::{EmitOptions, GeneratedFile, emit_all};
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

/// Every file under `dir`, as paths relative to `root`, sorted.
fn files_under(root: &Path, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.map(|e| e.expect("a readable directory entry")) {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(root, &path));
        } else {
            out.push(path.strip_prefix(root).expect("under the root").to_string_lossy().replace('\\', "/"));
        }
    }
    out.sort();
    out
}

#[test]
fn every_emitter_matches_its_golden_over_the_shapes_fixture() {
    let expected_root = fixture().join("expected");
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let files = emitted();
    let artifacts: std::collections::BTreeSet<&str> = files.iter().map(|f| f.artifact).collect();
    assert_eq!(artifacts.len(), 9, "every emitter but the spec schema runs over the fixture: {artifacts:?}");
    let mut failures = Vec::new();
    for file in &files {
        let path = expected_root.join(&file.path);
        if bless {
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("create the expected directory");
            if std::fs::read_to_string(&path).ok().as_deref() != Some(file.contents.as_str()) {
                std::fs::write(&path, &file.contents).expect("write the expected file");
            }
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == file.contents => {}
            Ok(expected) => failures.push(format!("{} differs:\n{}", file.path, first_difference(&expected, &file.contents))),
            Err(_) => failures.push(format!("{} is missing", file.path)),
        }
    }
    for path in files_under(&expected_root, &expected_root) {
        if !files.iter().any(|f| f.path == path) {
            if bless {
                std::fs::remove_file(expected_root.join(&path)).expect("remove an orphan");
            } else {
                failures.push(format!("{path} is expected but no longer emitted"));
            }
        }
    }
    assert!(failures.is_empty(), "{}\n\nrun `UPDATE_EXPECT=1 cargo test --test golden_shapes` if the change is intended", failures.join("\n\n"));
}

fn first_difference(expected: &str, actual: &str) -> String {
    let line = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    let show = |text: &str| text.lines().skip(line.saturating_sub(2)).take(5).collect::<Vec<_>>().join("\n");
    format!("at line {}\n--- expected\n{}\n+++ emitted\n{}", line + 1, show(expected), show(actual))
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
