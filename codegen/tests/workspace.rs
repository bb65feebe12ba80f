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
