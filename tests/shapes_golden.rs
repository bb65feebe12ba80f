//! Goldens of every emitter over the shapes fixture (`tests/fixtures/shapes/`): the whole output
//! of `generate` must equal `tests/fixtures/shapes/expected/`, file for file. Its Rust crates
//! are workspace members, so they also compile and pass clippy with the rest of the workspace.
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test --test shapes_golden`.

use platform_codegen::emit::{EmitOptions, GeneratedFile, emit_all};
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shapes")
}

fn emitted() -> Vec<GeneratedFile> {
    let loaded = platform_codegen::load_spec(&fixture(), "spec").unwrap_or_else(|_| {
        panic!("the shapes fixture is invalid; run `cargo run -p platform-codegen -- --spec tests/fixtures/shapes check`")
    });
    emit_all(&loaded.model, &EmitOptions::default())
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path, root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.map(|e| e.expect("a readable directory entry")) {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path, root));
        } else {
            out.push(path.strip_prefix(root).expect("under the root").to_string_lossy().replace('\\', "/"));
        }
    }
    out.sort();
    out
}

#[test]
fn every_emitter_matches_its_goldens_over_the_shapes_fixture() {
    let expected = fixture().join("expected");
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let files = emitted();
    let artifacts: std::collections::BTreeSet<&str> = files.iter().map(|f| f.artifact).collect();
    for artifact in ["model", "types", "server", "client", "sdk", "docs", "openapi"] {
        assert!(artifacts.contains(artifact), "the {artifact} emitter runs over the fixture");
    }
    let mut failures = Vec::new();
    for file in &files {
        let path = expected.join(&file.path);
        if bless {
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("create the expected directory");
            std::fs::write(&path, &file.contents).expect("write the expected file");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(text) if text == file.contents => {}
            Ok(text) => {
                let line = text.lines().zip(file.contents.lines()).position(|(a, b)| a != b).unwrap_or(0);
                failures.push(format!("{} differs at line {}", file.path, line + 1));
            }
            Err(_) => failures.push(format!("{} is missing", file.path)),
        }
    }
    for path in files_under(&expected, &expected) {
        if files.iter().any(|f| f.path == path) {
            continue;
        }
        if bless {
            std::fs::remove_file(expected.join(&path)).expect("remove an orphan");
        } else {
            failures.push(format!("{path} is expected but no longer emitted"));
        }
    }
    assert!(failures.is_empty(), "{}\n\nrun `UPDATE_EXPECT=1 cargo test --test shapes_golden` if the change is intended", failures.join("\n"));
}

#[test]
fn the_fixture_crates_are_workspace_members() {
    let workspace = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).expect("the workspace manifest");
    for artifact in ["types", "server", "client"] {
        let member = format!("\"tests/fixtures/shapes/expected/{artifact}\"");
        assert!(workspace.contains(&member), "the shapes fixture's {artifact} crate is a workspace member, so it is compiled and linted");
    }
}
