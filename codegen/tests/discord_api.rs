//! The imported Discord API through every artifact. Discord's OpenAPI document
//! (`tests/data/openapi/discord/`) is imported, and every artifact of the spec is generated into a
//! Cargo workspace of its own under `target/scratch/discord` (the generator's
//! `emit::workspace`): the types, server, client and SDK crates, the C and C++ headers, the docs
//! and the exported OpenAPI document, plus the mock runner and the tests of `tests/discord_api/`.
//! Discord's interactions, which the document does not declare as deliveries, and its Gateway v10,
//! which it does not describe at all, are added as spec files written from Discord's public
//! documentation (`tests/discord_api/spec/`). Then:
//!
//! - the C header and the C++ wrapper compile with strict warnings as errors;
//! - the AsyncAPI document of its Gateway is valid for the AsyncAPI initiative's parser;
//! - its tests build with clippy's lints, warnings denied (what `cargo clippy --all-targets -D
//!   warnings` checks, the mock feature on, through the tests), and pass: the interactions endpoint's generated receiver answers pings, typed
//!   commands and deferrals, against interactions signed with `ed25519-dalek` and the generated
//!   sender; the generated shard identifies, resumes and reads typed events from the generated
//!   gateway hub; the generated client calls operations of the mock server over 127.0.0.1 and
//!   decodes every answer, hand-built Create Message and Get Channel payloads round-trip, and
//!   schemathesis drives every operation of the mock from the exported document.
//!
//! The client alone (the types crate without the `server` feature) is not checked again here:
//! the feature only adds derives to the request parts, which clippy sees in the server's build,
//! and the random-spec harness checks the client of every fixture and random spec alone with
//! warnings denied.
//!
//! The scratch workspace shares this test's target directory, so the dependencies the main
//! workspace already compiled with the same features are reused; `CARGO_INCREMENTAL=0` keeps its
//! ~200k generated lines from filling the disk with incremental state.

use platform_codegen::emit::workspace::{WorkspaceOptions, workspace};
use platform_codegen::emit::{EmitOptions, GeneratedFile};
use platform_codegen::files::{self, Mode};
use std::path::Path;
use std::process::Command;

/// The workspace root (this crate is `codegen/`).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ is in the workspace")
}

/// The files of `tests/discord_api/`, as files of the scratch workspace's `tests/` member.
fn test_crate() -> Vec<GeneratedFile> {
    let base = root().join("tests/discord_api");
    let mut out = Vec::new();
    let mut stack = vec![base.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            // The spec files added to the import are the spec's, not the test crate's.
            if path == base.join("spec") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(&base).unwrap().to_string_lossy().replace('\\', "/");
                out.push(GeneratedFile::new("tests", format!("tests/{rel}"), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out
}

/// Runs a command in `dir`, failing the test with its output when it fails.
fn run(what: &str, cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(out.status.success(), "{what} failed:\n{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

/// Cargo in the scratch workspace, building into this run's target directory with clippy's
/// lints, warnings denied (`platform_specgen::harness::Clippy::cargo`), with the repository's
/// Python tools first on PATH.
fn cargo(dir: &Path, args: &[&str]) -> Command {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let paths = std::iter::once(root().join(".venv/bin")).chain(std::env::split_paths(&path));
    let mut cmd = platform_specgen::harness::Clippy::cargo(dir, &platform_specgen::harness::test_target(), args);
    cmd.env("PATH", std::env::join_paths(paths).unwrap());
    cmd
}

#[test]
fn the_imported_discord_api_builds_clippy_clean_and_serves_its_mock() {
    let scratch = platform_specgen::harness::test_scratch_target();
    let spec_dir = scratch.join("discord-spec");
    let document = root().join("tests/data/openapi/discord/openapi.json");
    let mut imported = platform_codegen::import::import_openapi(&document, "openapi.json").unwrap_or_else(|e| panic!("the import failed: {e:?}"));
    // Discord's interactions, which the document does not declare as deliveries.
    let interactions = root().join("tests/discord_api/spec/interactions.yaml");
    imported.files.push(GeneratedFile::new("spec", "interactions.yaml", std::fs::read_to_string(interactions).unwrap()));
    // Discord's Gateway v10, which the document (HTTP only) does not describe.
    let gateway = root().join("tests/discord_api/spec/gateway.yaml");
    imported.files.push(GeneratedFile::new("spec", "gateway.yaml", std::fs::read_to_string(gateway).unwrap()));
    files::sync(&spec_dir, &imported.files, Mode::Write).unwrap();
    let loaded = platform_codegen::load_spec(&spec_dir, "spec").unwrap_or_else(|e| panic!("the imported spec is invalid: {e:?}"));
    let options = WorkspaceOptions { members: vec!["tests".into()], mock_runner: true };
    let mut generated = workspace(&loaded.model, &EmitOptions::default(), &options);
    generated.extend(test_crate());
    // The main workspace's lock file: the same versions, already compiled in the target directory.
    generated.push(GeneratedFile::new("lock", "Cargo.lock", std::fs::read_to_string(root().join("Cargo.lock")).unwrap()));
    let dir = scratch.join("discord");
    files::sync(&dir, &generated, Mode::Write).unwrap();

    let include = dir.join("sdk/include");
    for (compiler, header, std) in [("gcc", "cdiscord.h", "-std=c11"), ("g++", "discordpp.h", "-std=c++17")] {
        let language = if compiler == "gcc" { "c" } else { "c++" };
        run(
            &format!("{compiler} -fsyntax-only {header}"),
            Command::new(compiler)
                .args([std, "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only", "-x", language])
                .arg(include.join(header))
                .arg("-I")
                .arg(&include),
        );
    }
    // The AsyncAPI document of the Gateway, for the AsyncAPI initiative's parser.
    let parser = root().join("tools/asyncapi");
    assert!(
        parser.join("node_modules/@asyncapi/parser").is_dir(),
        "the AsyncAPI parser is not installed: run `./scripts/test.sh`, or `npm ci --prefix tools/asyncapi`"
    );
    run("the AsyncAPI parser over asyncapi.json", Command::new("node").arg(parser.join("validate.mjs")).arg(dir.join("asyncapi.json")));
    // Clippy lints the crates while the tests build them (the crates have no benches, the one
    // kind of target `cargo test` leaves out that `cargo clippy --all-targets` checks). The
    // generated crates have no unit tests (the runtime's are the generator's runtime crate's,
    // run in the repository's workspace); the client's quick start is its doctest.
    run("the Discord crates' tests, built with clippy -D warnings", &mut cargo(&dir, &["test", "--workspace"]));
}
