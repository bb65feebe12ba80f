//! Generated crates stand on their own, and their build scripts write only where their
//! workspace says the output is:
//!
//! - `generate --out` into an empty directory gives crates that `cargo build` there as they are;
//! - copies of the shipped crates placed in another workspace, beside a `spec/` that differs
//!   from theirs, build and write nothing, whether that workspace names no output or another;
//! - `cargo package --no-verify` of every shipped crate gives packages that build alone.
//!
//! Builds share the scratch target directory `target/scratch` (dependencies compile once, for
//! every scratch build of the test suite) and run offline against this repository's lock file,
//! whose every package is fetched first (`harness::fetch_locked`), so they pass on a machine
//! whose Cargo home holds only what building this workspace downloaded.
//! Sources that must sit outside this repository (Cargo would take them for members of its
//! workspace) go to a directory of the system's temporary directory named after this checkout,
//! so repeated runs reuse their compiled artifacts; it is removed afterwards.

use platform_codegen::emit::{EmitOptions, Layout, emit_all};
use platform_codegen::files::{Mode, sync};
use platform_specgen::harness;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch_target() -> PathBuf {
    harness::test_scratch_target()
}

/// An empty directory outside this repository for `what`, the same on every run of this checkout.
fn outside(what: &str) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    repo().hash(&mut hasher);
    let dir = std::env::temp_dir().join(format!("platform-{what}-{:016x}", hasher.finish()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// `cargo <args>` in `dir` with the scratch target directory; panics with Cargo's output on failure.
fn cargo_ok(dir: &Path, args: &[&str]) -> String {
    let out = harness::cargo(dir, &scratch_target(), args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "`cargo {}` failed in {}:\n{stderr}", args.join(" "), dir.display());
    stderr
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn generate_out_into_an_empty_directory_builds_there() {
    let dir = outside("standalone");
    let out = dir.join("generated");
    let loaded = platform_codegen::load_spec(&repo().join("spec"), "spec").expect("spec/ is valid");
    // What `platform-codegen generate --out <dir>` does.
    let layout = platform_codegen::workspace::layout_for(&out).expect("no manifest to misread");
    assert_eq!(layout, Layout::Standalone, "no workspace names a fresh directory");
    let files = emit_all(&loaded.model, &EmitOptions::default().with_layout(layout));
    sync(&out, &files, Mode::Write).expect("write the output");
    assert!(out.join("Cargo.toml").is_file(), "standalone output has a workspace root");
    assert!(!out.join("types/build.rs").exists(), "standalone crates have no build script");
    harness::seed_lock(&out, repo());
    cargo_ok(&out, &["build", "--workspace", "--all-targets"]);
    // A second generate beside Cargo's lock file and target directory removes nothing of theirs.
    std::fs::create_dir_all(out.join("target/debug")).unwrap();
    let report = sync(&out, &files, Mode::Check).expect("check the output");
    assert!(report.is_clean(), "Cargo's files are not orphans: {:?}", report.orphans);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies of the shipped crates in a workspace of their own, with a `spec/` beside them whose
/// limit differs from the shipped one: the layout in which a build script that trusts `../..`
/// would regenerate them.
fn copies_beside_another_spec(root: &Path, manifest: &str) {
    copy_tree(&repo().join("spec"), &root.join("spec"));
    let limits = root.join("spec/limits.yaml");
    let text = std::fs::read_to_string(&limits).unwrap();
    assert!(text.contains("max: 500"), "the shipped spec has the limit this test edits");
    std::fs::write(&limits, text.replacen("max: 500", "max: 499", 1)).unwrap();
    for krate in platform_codegen::emit::cargo::CRATES {
        copy_tree(&repo().join("generated").join(krate), &root.join("generated").join(krate));
        // The runtime reads no spec: the other crates' build scripts regenerate it with them.
        let scripted = *krate != platform_codegen::emit::cargo::RUNTIME;
        assert_eq!(root.join("generated").join(krate).join("build.rs").is_file(), scripted, "which shipped crates have a build script ({krate})");
    }
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    harness::seed_lock(root, repo());
    // Settle the lock file first: Cargo's own write is not the build scripts'.
    cargo_ok(root, &["metadata", "--format-version", "1"]);
}

#[test]
fn copies_of_the_generated_crates_build_elsewhere_and_write_nothing() {
    let members = "members = [\"generated/runtime\", \"generated/types\", \"generated/server\", \"generated/client\", \"generated/sdk\"]";
    let manifests = [
        ("a workspace that names no output", format!("[workspace]\nresolver = \"3\"\n{members}\n")),
        (
            "a workspace that names another output",
            format!("[workspace]\nresolver = \"3\"\n{members}\n\n[workspace.metadata.platform-codegen]\nspec = \"spec\"\nout = \"elsewhere\"\n"),
        ),
    ];
    for (what, manifest) in manifests {
        let root = outside("elsewhere");
        copies_beside_another_spec(&root, &manifest);
        let before = crate::tree::contents(&root);
        let stderr = cargo_ok(&root, &["build", "--workspace", "--locked"]);
        assert!(crate::tree::contents(&root) == before, "building copies of the generated crates in {what} wrote into their directory:\n{stderr}");
        let _ = std::fs::remove_dir_all(&root);
    }
}

#[test]
fn packaged_crates_build_on_their_own() {
    // `cargo package` reads every package of the lock file, other targets' too.
    harness::fetch_locked(repo());
    let package_dir = scratch_target().join("package");
    let _ = std::fs::remove_dir_all(&package_dir);
    let packages: Vec<String> = platform_codegen::emit::cargo::CRATES.iter().map(|k| format!("--package=platform-{k}")).collect();
    let mut args = vec!["package", "--no-verify", "--allow-dirty"];
    args.extend(packages.iter().map(String::as_str));
    cargo_ok(repo(), &args);
    let dir = outside("packaged");
    for krate in platform_codegen::emit::cargo::CRATES {
        let archive = package_dir.join(format!("platform-{krate}-0.1.0.crate"));
        let status = std::process::Command::new("tar").arg("xzf").arg(&archive).current_dir(&dir).status().expect("tar runs");
        assert!(status.success(), "cannot unpack {}", archive.display());
    }
    // The published runtime and types crates, for the crates that depend on them: as if they
    // came from a registry.
    let patches: Vec<String> = ["runtime", "types"]
        .iter()
        .map(|k| format!("patch.crates-io.platform-{k}.path={:?}", dir.join(format!("platform-{k}-0.1.0")).display().to_string()))
        .collect();
    for krate in platform_codegen::emit::cargo::CRATES {
        let unpacked = dir.join(format!("platform-{krate}-0.1.0"));
        let before = crate::tree::contents(&unpacked);
        let stderr = if *krate == platform_codegen::emit::cargo::RUNTIME {
            cargo_ok(&unpacked, &["build", "--locked"])
        } else {
            let mut args = vec!["build"];
            patches.iter().for_each(|p| args.extend(["--config", p.as_str()]));
            cargo_ok(&unpacked, &args)
        };
        let after: BTreeMap<_, _> = crate::tree::contents(&unpacked).into_iter().filter(|(p, _)| !p.ends_with("Cargo.lock")).collect();
        let before: BTreeMap<_, _> = before.into_iter().filter(|(p, _)| !p.ends_with("Cargo.lock")).collect();
        assert!(after == before, "building the packaged {krate} crate wrote into it:\n{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
