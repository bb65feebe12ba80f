//! The cases of `tests/diff/` as the oracle tests (`semver.rs`, `c_compat.rs`) read them: their
//! names, and `diff`'s verdict on each for one audience.

use platform_codegen::diff::{self, Audiences, DiffOptions, Impact};
use platform_codegen::load_spec;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory of case `name`.
pub fn case(name: &str) -> PathBuf {
    repo().join("tests/diff").join(name)
}

/// Every case of the catalogue, by name, sorted.
pub fn catalogue() -> Vec<String> {
    let root = repo().join("tests/diff");
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .expect("tests/diff is readable")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| root.join(n).is_dir())
        .collect();
    names.sort();
    names
}

/// Whether `diff` calls the change from the case's `old` to its `new` breaking for the audience
/// `of` picks.
pub fn diff_says_breaking(case: &Path, of: fn(&Audiences) -> Impact) -> bool {
    let load = |side: &str| load_spec(&case.join(side), side).unwrap_or_else(|_| panic!("{}/{side} is a valid spec", case.display()));
    let (old, new) = (load("old"), load("new"));
    diff::diff(&old.model, &new.model, &DiffOptions::default()).iter().any(|f| of(&f.audiences) == Impact::Breaking)
}
