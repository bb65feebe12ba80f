//! Golden tests of the Rust emitters (types, server, client) over the fixture spec
//! `tests/fixtures/minimal/`: the output must equal `tests/fixtures/minimal/expected/<artifact>/`.
//! The expected crates are workspace members, so the fixture's generated Rust also compiles and
//! passes clippy with the rest of the workspace.
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test --test golden_rust`.

use platform_codegen::emit::{EmitOptions, GeneratedFile, emit_all};
use std::path::{Path, PathBuf};

const ARTIFACTS: &[&str] = &["runtime", "types", "server", "client"];

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal")
}

fn emitted() -> Vec<GeneratedFile> {
    let loaded = platform_codegen::load_spec(&fixture(), "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid"));
    emit_all(&loaded.model, &EmitOptions::default()).into_iter().filter(|f| ARTIFACTS.contains(&f.artifact)).collect()
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
fn rust_emitters_match_their_goldens_over_the_fixture() {
    let expected_root = fixture().join("expected");
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let files = emitted();
    assert!(ARTIFACTS.iter().all(|a| files.iter().any(|f| f.artifact == *a)), "every Rust emitter runs over the fixture");
    let mut failures = Vec::new();
    for file in &files {
        let path = expected_root.join(&file.path);
        if bless {
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("create the expected directory");
            std::fs::write(&path, &file.contents).expect("write the expected file");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == file.contents => {}
            Ok(expected) => failures.push(format!("{} differs:\n{}", file.path, first_difference(&expected, &file.contents))),
            Err(_) => failures.push(format!("{} is missing", file.path)),
        }
    }
    for artifact in ARTIFACTS {
        for path in files_under(&expected_root, &expected_root.join(artifact)) {
            if !files.iter().any(|f| f.path == path) {
                if bless {
                    std::fs::remove_file(expected_root.join(&path)).expect("remove an orphan");
                } else {
                    failures.push(format!("{path} is expected but no longer emitted"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}\n\nrun `UPDATE_EXPECT=1 cargo test --test golden_rust` if the change is intended", failures.join("\n\n"));
}

fn first_difference(expected: &str, actual: &str) -> String {
    let line = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    let show = |text: &str| text.lines().skip(line.saturating_sub(2)).take(5).collect::<Vec<_>>().join("\n");
    format!("at line {}\n--- expected\n{}\n+++ emitted\n{}", line + 1, show(expected), show(actual))
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
