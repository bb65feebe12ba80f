//! The standalone workspace the generator writes around a spec's crates (`emit::workspace`,
//! used by `platform-codegen mock` and the Discord tests) declares each dependency as the
//! repository's own workspace does, so the generated crates build against the same versions
//! and features in both, under the same dev profile (so that a workspace built into the
//! repository's target directory reuses what the repository compiled).

use platform_codegen::emit::workspace::{DEPENDENCIES, PROFILES};
use std::path::Path;

#[test]
fn workspace_dependencies_match_the_root_manifest() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml")).unwrap();
    let section = manifest.split("[workspace.dependencies]").nth(1).expect("a [workspace.dependencies] table");
    let section = section.split("\n[").next().unwrap_or_default();
    for (name, spec) in DEPENDENCIES {
        let line = format!("{name} = {spec}");
        assert!(section.lines().any(|l| l.trim() == line), "the root manifest does not declare `{line}`");
    }
}

#[test]
fn workspace_profiles_match_the_root_manifest() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml")).unwrap();
    // The root manifest's profile tables, comments left out, in the order they are written.
    let profiles: Vec<&str> = manifest.split("\n[").filter(|t| t.starts_with("profile.")).collect();
    let written: Vec<String> =
        profiles.iter().map(|t| format!("[{}", t.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n").trim_end())).collect();
    assert_eq!(written.join("\n\n") + "\n", PROFILES, "the generated workspace's profiles differ from the root manifest's");
}

/// The runtime crate's manifest is copied into every output as it is, so it states its
/// dependencies in full; they are the ones every other generated manifest states
/// (`emit::cargo::ALL`), made optional behind the runtime's features.
#[test]
fn runtime_dependencies_are_the_generated_crates_own() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/Cargo.toml")).unwrap();
    let section = manifest.split("\n[dependencies]").nth(1).expect("a [dependencies] table");
    let section = section.split("\n[").next().unwrap_or_default();
    let lines: Vec<&str> = section.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert!(!lines.is_empty(), "the runtime depends on something");
    for line in lines {
        let name = line.split(" = ").next().unwrap_or_default();
        let dep =
            platform_codegen::emit::cargo::ALL.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("`{name}` is not a dependency the generator knows"));
        let expected = match dep.line().strip_suffix(" }") {
            Some(table) => format!("{table}, optional = true }}"),
            None => format!("{name} = {{ version = \"{}\", optional = true }}", dep.requirement),
        };
        assert_eq!(line, expected, "runtime/Cargo.toml states `{name}` differently from the generated manifests");
    }
}
