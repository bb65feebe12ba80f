//! A sample of the import corpus through every crate: Oxide's document and the two largest of
//! Twilio's are imported, generated as standalone output (what `generate --out DIR` writes) under
//! `target/scratch/sample/`, and each output's crates (types, server, client, SDK) pass
//! `cargo clippy --all-targets -D warnings`. Discord's crates are built, tested and served by
//! `discord_api.rs`; DigitalOcean's (a 267,000-line types crate) are checked by hand, their
//! figures in `docs/import.md`.
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
        let result = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])
            .current_dir(&out)
            // The settings of every scratch build of the suite (`platform_specgen::harness`), so
            // they share one compiled copy of each dependency.
            .env("CARGO_TARGET_DIR", scratch())
            .env("RUSTFLAGS", "-D warnings")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env("CARGO_INCREMENTAL", "0")
            .env("CARGO_PROFILE_DEV_DEBUG", "false")
            .env("CARGO_PROFILE_DEV_BUILD_OVERRIDE_DEBUG", "false")
            .env_remove(platform_codegen::emit::cargo::NO_REGENERATE_ENV)
            .output()
            .expect("cargo runs");
        if !result.status.success() {
            failures.push(format!("the crates generated from {name} are not clippy-clean:\n{}", String::from_utf8_lossy(&result.stderr)));
        } else {
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
