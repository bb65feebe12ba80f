//! `runtime/`: the runtime crate the other generated crates depend on, as a byte copy of the
//! hand-written crate `runtime/` of this repository under the output's package name
//! (`platform-runtime`, `widget-runtime`).
//!
//! The runtime is ordinary Rust, formatted, linted and tested where it lives; the generator only
//! carries its text, so an output directory builds anywhere without a registry (the precedent is a
//! vendored dependency). Each file gains the `@generated` line; nothing else changes.

use super::shared::package;
use crate::emit::cargo;
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::Model;

/// The artifact name in summaries.
pub const ARTIFACT: &str = "runtime";

/// The package name the hand-written manifest carries, replaced by the output's.
const SOURCE_PACKAGE: &str = "platform-codegen-runtime";

/// The manifest: its leading comment and its dev-dependencies serve the source crate and are not
/// copied.
const MANIFEST: &str = include_str!("../../../../runtime/Cargo.toml");

/// The sources, by path under `src/`.
const SOURCES: &[(&str, &str)] = &[
    ("lib.rs", include_str!("../../../../runtime/src/lib.rs")),
    ("clock.rs", include_str!("../../../../runtime/src/clock.rs")),
    ("delivery.rs", include_str!("../../../../runtime/src/delivery.rs")),
    ("ffi.rs", include_str!("../../../../runtime/src/ffi.rs")),
    ("form.rs", include_str!("../../../../runtime/src/form.rs")),
    ("gateway.rs", include_str!("../../../../runtime/src/gateway.rs")),
    ("hub.rs", include_str!("../../../../runtime/src/hub.rs")),
    ("mock.rs", include_str!("../../../../runtime/src/mock.rs")),
    ("multipart.rs", include_str!("../../../../runtime/src/multipart.rs")),
    ("pagination.rs", include_str!("../../../../runtime/src/pagination.rs")),
    ("ratelimit.rs", include_str!("../../../../runtime/src/ratelimit.rs")),
    ("retry.rs", include_str!("../../../../runtime/src/retry.rs")),
    ("rules.rs", include_str!("../../../../runtime/src/rules.rs")),
    ("server.rs", include_str!("../../../../runtime/src/server.rs")),
    ("shard.rs", include_str!("../../../../runtime/src/shard.rs")),
    ("stream.rs", include_str!("../../../../runtime/src/stream.rs")),
    ("timeline.rs", include_str!("../../../../runtime/src/timeline.rs")),
    ("validation.rs", include_str!("../../../../runtime/src/validation.rs")),
    ("webhooks.rs", include_str!("../../../../runtime/src/webhooks.rs")),
    ("wire.rs", include_str!("../../../../runtime/src/wire.rs")),
];

/// Emits `runtime/Cargo.toml`, `runtime/README.md` and `runtime/src/*.rs`.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let notice = opts.notice();
    let mut files = vec![
        GeneratedFile::new(ARTIFACT, format!("{}/Cargo.toml", cargo::RUNTIME), manifest(model, &notice)),
        GeneratedFile::new(ARTIFACT, format!("{}/README.md", cargo::RUNTIME), readme(model, &notice)),
    ];
    files.extend(SOURCES.iter().map(|(path, text)| GeneratedFile::new(ARTIFACT, format!("{}/src/{path}", cargo::RUNTIME), format!("// {notice}\n\n{text}"))));
    files
}

/// The README: the crate documentation of `lib.rs`, which says what each module is for and
/// which feature brings it, so the two cannot drift apart.
fn readme(model: &Model, notice: &str) -> String {
    let lib = SOURCES.iter().find(|(p, _)| *p == "lib.rs").map_or("", |(_, t)| *t);
    let docs: Vec<&str> = lib.lines().filter_map(|l| l.strip_prefix("//!")).map(|l| l.strip_prefix(' ').unwrap_or(l)).collect();
    format!("<!-- {notice} -->\n\n# {}\n\n{}\n", package(model, ARTIFACT), docs.join("\n").trim())
}

fn manifest(model: &Model, notice: &str) -> String {
    let body = MANIFEST.trim_start_matches(|c| c != '[');
    let body = body.split("\n[dev-dependencies]").next().unwrap_or(body);
    let kept: Vec<&str> = body.lines().collect();
    let end = kept.iter().rposition(|l| !l.trim().is_empty() && !l.starts_with('#')).map_or(0, |i| i + 1);
    let body = kept[..end].join("\n");
    let from = format!("name = \"{SOURCE_PACKAGE}\"");
    assert!(body.contains(&from), "BUG: runtime/Cargo.toml names the package {SOURCE_PACKAGE}");
    let body = body.replacen(&from, &format!("name = \"{}\"", package(model, ARTIFACT)), 1);
    let body = body.replacen("\n[lib]", "readme = \"README.md\"\n\n[lib]", 1);
    // The unit tests are this crate's, run where the generator is built: a copy has none to
    // build, and no doc examples.
    let lib = "[lib]\npath = \"src/lib.rs\"\n";
    assert!(body.contains(lib), "BUG: runtime/Cargo.toml's [lib] is not `{lib}`");
    let body = body.replacen(
        lib,
        &format!("{lib}# The unit tests are the generator's runtime crate's: no test harness to build.\ntest = false\ndoctest = false\n"),
        1,
    );
    format!("# {notice}\n\n{body}")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every source file of the runtime crate is carried: a new module cannot be left behind.
    #[test]
    fn every_runtime_source_is_carried() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        on_disk.sort();
        let mut carried: Vec<String> = super::SOURCES.iter().map(|(p, _)| (*p).to_owned()).collect();
        carried.sort();
        assert_eq!(carried, on_disk);
    }

    /// The crate documentation, which is also the README, names every module.
    #[test]
    fn the_readme_names_every_module() {
        let lib = super::SOURCES.iter().find(|(p, _)| *p == "lib.rs").map(|(_, t)| *t).unwrap_or_default();
        let docs: String = lib.lines().filter(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
        for module in lib.lines().filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';')) {
            assert!(docs.contains(&format!("`{module}`")), "runtime/src/lib.rs does not say what `{module}` is for");
        }
    }

    /// The runtime's `ChangeKind` has a variant for every kind of change the format accepts.
    #[test]
    fn the_runtime_knows_every_change_kind() {
        let timeline = super::SOURCES.iter().find(|(p, _)| *p == "timeline.rs").map(|(_, t)| *t).unwrap_or_default();
        for kind in crate::validate::CHANGE_KINDS {
            assert!(timeline.contains(&format!("=> \"{kind}\"")), "runtime/src/timeline.rs has no `ChangeKind` for `{kind}`");
        }
    }
}
