//! A sample of the import corpus through every crate: Oxide's document and the two largest of
//! Twilio's are imported, generated as standalone output (what `generate --out DIR` writes) under
//! `target/scratch/sample/`, and each output's crates (types, server, client, SDK) pass
//! `cargo clippy --all-targets -D warnings`. Discord's crates are built, tested and served by
//! `discord_api.rs`; DigitalOcean's (a 267,000-line types crate) are checked by hand, their
//! figures in `docs/import.md`.
//!
//! Oxide's output also gets a small crate of its own beside the generated ones, whose test pages
//! through a paginated endpoint (`x-dropshot-pagination`) of the generated mock with the generated
//! client over 127.0.0.1: every item arrives once.
//!
//! The builds share this run's scratch target directory and the repository's lock file, so the
//! dependencies compile once for every scratch build of the suite.

use platform_codegen::emit::{EmitOptions, Layout, emit_all};
use platform_codegen::files::{self, Mode};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ is in the workspace")
}

/// `target/scratch` of this test run: the test binary lives in `target/<profile>/deps/`.
fn scratch() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).expect("the test binary lives in target/<profile>/deps").join("scratch")
}

/// The documents of the sample, by name.
const SAMPLE: &[(&str, &str)] = &[
    ("oxide", "oxide/nexus.json"),
    ("twilio_conversations_v1", "twilio/twilio_conversations_v1.json"),
    ("twilio_taskrouter_v1", "twilio/twilio_taskrouter_v1.json"),
];

#[test]
fn a_sample_of_the_corpus_generates_crates_that_are_clippy_clean() {
    let mut failures = Vec::new();
    for (name, document) in SAMPLE {
        let path = root().join("tests/data/openapi").join(document);
        let imported = platform_codegen::import::import_openapi(&path, document).unwrap_or_else(|e| panic!("{name} does not import: {e:?}"));
        let spec = tempfile::tempdir().unwrap();
        files::sync(spec.path(), &imported.files, Mode::Write).unwrap();
        let loaded = platform_codegen::load_spec(spec.path(), "spec").unwrap_or_else(|e| panic!("the spec imported from {name} is invalid: {e:?}"));
        let out = scratch().join("sample").join(name);
        let _ = std::fs::remove_dir_all(&out);
        let generated = emit_all(&loaded.model, &EmitOptions::default().with_layout(Layout::Standalone));
        files::sync(&out, &generated, Mode::Write).unwrap();
        std::fs::copy(root().join("Cargo.lock"), out.join("Cargo.lock")).unwrap();
        if *name == "oxide" {
            write_paging_check(&out);
        }
        let result = cargo(&out, &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]);
        let result = if result.status.success() && *name == "oxide" { cargo(&out.join(PAGING_CHECK), &["test", "-q"]) } else { result };
        if !result.status.success() {
            failures.push(format!("the crates generated from {name} are not clippy-clean, or their check fails:\n{}", String::from_utf8_lossy(&result.stderr)));
        } else {
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The directory of the crate that pages through Oxide's mock.
const PAGING_CHECK: &str = "paging-check";

/// A crate of its own (not a member of the generated workspace, which `generate` owns) with one
/// test: `disk_list_v1`, paginated by `x-dropshot-pagination`, streamed from the mock.
fn write_paging_check(out: &Path) {
    let dir = out.join(PAGING_CHECK);
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    let manifest = r#"[package]
name = "paging-check"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dev-dependencies]
oxide-client = { path = "../client" }
oxide-server = { path = "../server", features = ["mock"] }
axum = { version = "0.8", default-features = false, features = ["tokio", "http1"] }
tokio = { version = "1", features = ["rt-multi-thread", "macros", "net"] }
"#;
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let test = r#"use oxide_client::types::endpoints::disk_list_v1;
use oxide_client::types::pagination::MOCK_ITEMS;
use oxide_client::TryStreamExt;

#[tokio::test]
async fn every_disk_arrives_once_through_the_stream_of_pages() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, oxide_server::mock::router()).await.unwrap() });
    let client = oxide_client::Client::new(oxide_client::types::placeholders::Placeholders::at_origin(&origin));
    let pages: Vec<_> = client.disk_list_v1_pages(disk_list_v1::Request::default().limit(10u32)).try_collect().await.unwrap();
    assert_eq!(pages.iter().map(|p: &disk_list_v1::Success| p.items.len()).collect::<Vec<_>>(), [10, 10, 5]);
    assert!(pages.last().unwrap().next_page.value().is_none(), "the last page names no next one");
    let disks: Vec<_> = client.disk_list_v1_stream(disk_list_v1::Request::default()).try_collect().await.unwrap();
    let ids: std::collections::BTreeSet<_> = disks.iter().map(|d| d.id).collect();
    assert_eq!((disks.len(), ids.len()), (MOCK_ITEMS, MOCK_ITEMS), "every disk once");
}
"#;
    std::fs::write(dir.join("tests/paging.rs"), test).unwrap();
}

/// Runs cargo in `dir` with the settings of every scratch build of the suite
/// (`platform_specgen::harness`), so they share one compiled copy of each dependency.
fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", scratch())
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_INCREMENTAL", "0")
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_PROFILE_DEV_BUILD_OVERRIDE_DEBUG", "false")
        .env_remove(platform_codegen::emit::cargo::NO_REGENERATE_ENV)
        .output()
        .expect("cargo runs")
}
