//! The standalone workspace the generator writes around a spec's crates (`emit::workspace`,
//! used by `platform-codegen mock` and the Discord tests) declares each dependency as the
//! repository's own workspace does, so the generated crates build against the same versions
//! and features in both.

use platform_codegen::emit::workspace::DEPENDENCIES;
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
