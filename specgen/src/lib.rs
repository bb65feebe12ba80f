//! Random valid specs, and the harness that proves what the generator makes of them compiles.
//!
//! [`spec`] builds a spec that uses every construct of the format (the list is in that
//! module's docs: extend it, and the builder, when the format grows), naming its items from a
//! [`pool`] of names chosen to break identifier generation. Where two names would become one
//! identifier, [`Generated::make_valid`] renames one with `rust_name` or `c_name`, guided by the
//! checker's own diagnostics, as a user would: the spec it returns passes `check`.
//!
//! [`harness`] writes such specs, generates their crates into one scratch workspace, builds it
//! with warnings denied, and compiles the C and C++ headers with the strict flags of
//! [`harness::C_STRICT`] and [`harness::CXX_STRICT`]. `tests/random_specs.rs` runs a few fixed
//! seeds; `scripts/random-specs.sh` runs fifty.

pub mod golden;
pub mod harness;
mod harvest;
pub mod pool;
pub mod rng;
pub mod spec;
pub mod yaml;

use platform_codegen::diag::{Diagnostic, Sources, codes};
use platform_codegen::{LoadError, Loaded};
use serde_json::{Map, Value, json};
use std::path::Path;
use yaml::{Mark, Seg};

/// One random spec: its files, as values that can still be changed.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The seed it came from.
    pub seed: u64,
    /// File name to top-level mapping.
    pub files: Vec<(String, Map<String, Value>)>,
    /// Renames given so far (to keep new ones unique).
    renames: usize,
}

impl Generated {
    /// The spec of `seed`, number `index` of a batch (which keeps crate names apart).
    pub fn new(seed: u64, index: usize) -> Self {
        Generated { seed, files: spec::Builder::new(seed, index, false).build(), renames: 0 }
    }

    /// A spec of ordinary words only.
    pub fn plain(seed: u64, index: usize) -> Self {
        Generated { seed, files: spec::Builder::new(seed, index, true).build(), renames: 0 }
    }

    /// Writes the files into `dir` (created; other `*.yaml` files there are removed).
    pub fn write(&self, dir: &Path) -> std::io::Result<Vec<(String, yaml::Written)>> {
        std::fs::create_dir_all(dir)?;
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "yaml") {
                std::fs::remove_file(path)?;
            }
        }
        let mut out = Vec::new();
        for (name, doc) in &self.files {
            let written = yaml::write(doc);
            std::fs::write(dir.join(name), &written.text)?;
            out.push((name.clone(), written));
        }
        Ok(out)
    }

    /// Writes the spec into `dir` and loads it, renaming items (`rust_name`, `c_name`) or
    /// condition parameters wherever the checker reports two names that become one identifier,
    /// until it is valid. Panics when the spec has any other error: that is a bug of the
    /// builder, or a rule the builder does not know yet.
    pub fn make_valid(&mut self, dir: &Path) -> Loaded {
        for _ in 0..64 {
            let written = self.write(dir).unwrap_or_else(|e| panic!("cannot write the spec of seed {}: {e}", self.seed));
            match platform_codegen::load_spec(dir, "spec") {
                Ok(loaded) => return loaded,
                Err(LoadError::Io(e)) => panic!("cannot read the spec of seed {}: {e}", self.seed),
                Err(LoadError::Invalid { sources, diagnostics }) => {
                    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.severity == platform_codegen::diag::Severity::Error).collect();
                    let other: Vec<&&Diagnostic> = errors.iter().filter(|d| d.code != codes::IDENTIFIER_COLLISION).collect();
                    if !other.is_empty() {
                        panic!(
                            "the random spec of seed {} is invalid (written to {}):\n{}",
                            self.seed,
                            dir.display(),
                            platform_codegen::diag::render_text(&sources, &diagnostics, false)
                        );
                    }
                    // One rename per diagnostic, at most one per line: the next round re-checks.
                    let mut done = std::collections::BTreeSet::new();
                    for d in errors {
                        let Some((span, _)) = &d.primary else { continue };
                        let file = sources.file(span.file).path.trim_start_matches("spec/").to_owned();
                        let (line, _) = sources.line_col(*span);
                        if done.insert((file.clone(), line)) {
                            self.rename(&sources, d, &written, &file, line);
                        }
                    }
                }
            }
        }
        panic!("the random spec of seed {} still has colliding names after 64 rounds of renames", self.seed)
    }

    /// Renames what line `line` of `file` names, in the language the diagnostic is about.
    fn rename(&mut self, sources: &Sources, d: &Diagnostic, written: &[(String, yaml::Written)], file: &str, line: usize) {
        let Some((_, w)) = written.iter().find(|(name, _)| name == file) else {
            panic!("seed {}: a diagnostic in a file the builder did not write: {}", self.seed, platform_codegen::diag::to_plain(sources, d))
        };
        let Some(mark) = w.marks.get(&line).cloned() else {
            panic!("seed {}: nothing to rename on line {line} of {file}: {}", self.seed, platform_codegen::diag::to_plain(sources, d))
        };
        self.renames += 1;
        let key = if d.help.iter().any(|h| h.contains("`c_name`")) { "c_name" } else { "rust_name" };
        let fresh = format!("renamed {}", self.renames);
        let doc = &mut self.files.iter_mut().find(|(name, _)| name == file).expect("BUG: written files are the spec's").1;
        match mark {
            Mark::Item(path) | Mark::Field(path) => {
                let value = yaml::at(doc, &path).expect("BUG: a mark leads to a value");
                value[key] = json!(fresh);
            }
            Mark::Param(path) => {
                let value = yaml::at(doc, &path).expect("BUG: a mark leads to a value");
                *value = json!(fresh);
            }
        }
    }
}

/// A path into the spec, for messages.
pub fn describe(path: &[Seg]) -> String {
    path.iter()
        .map(|s| match s {
            Seg::Key(k) => k.clone(),
            Seg::Index(i) => i.to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}
