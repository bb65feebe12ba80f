//! The seed specs: the shipped spec, every fixture spec and every case of the diagnostics corpus,
//! read from the repository once per process.

use crate::archive::Files;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One seed spec: a name (its directory) and its files.
#[derive(Debug)]
pub struct Seed {
    /// The directory, relative to the repository (`tests/fixtures/minimal`).
    pub name: String,
    /// The spec files as `(display path, text)`.
    pub files: Files,
}

/// The repository root (this crate lives in `fuzz/`).
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("BUG: fuzz/ has a parent").to_path_buf()
}

/// Every seed spec, smallest first: small seeds make fast executions.
pub fn all() -> &'static [Seed] {
    static SEEDS: OnceLock<Vec<Seed>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let root = repository();
        let mut dirs = vec![root.join("spec")];
        dirs.extend(subdirs(&root.join("tests/fixtures")));
        dirs.extend(subdirs(&root.join("tests/diagnostics")));
        let mut seeds: Vec<Seed> = dirs.iter().map(|dir| read_seed(&root, dir)).filter(|s| !s.files.is_empty()).collect();
        seeds.sort_by_key(|s| (s.files.iter().map(|(_, t)| t.len()).sum::<usize>(), s.name.clone()));
        seeds
    })
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("the seed directories exist").map(|e| e.expect("readable").path()).filter(|p| p.is_dir()).collect();
    out.sort();
    out
}

fn read_seed(root: &Path, dir: &Path) -> Seed {
    let mut paths = Vec::new();
    yaml_files(dir, &mut paths);
    paths.sort();
    let files = paths
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).expect("BUG: walked under the seed").to_string_lossy().replace('\\', "/");
            (format!("spec/{rel}"), std::fs::read_to_string(&p).expect("seed files are UTF-8"))
        })
        .collect();
    Seed { name: dir.strip_prefix(root).unwrap_or(dir).to_string_lossy().into_owned(), files }
}

/// YAML files under `dir`, leaving out fixtures' `expected/` output.
fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable seed directory") {
        let path = entry.expect("readable").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "expected") {
                yaml_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// The largest seed document the seed corpus holds as text: AFL++ wants seeds of at most about
/// 100 KB, bigger ones make every mutation slow.
pub const MAX_SEED: usize = 100 * 1024;

/// One seed OpenAPI document: where it is in the repository and its text.
#[derive(Debug)]
pub struct Document {
    /// The path, relative to the repository (`tests/import/mapping_31_json/openapi.json`).
    pub name: String,
    /// The document's text (JSON or YAML).
    pub text: String,
}

/// Every seed OpenAPI document, smallest first: the importer's corpus (`tests/import/`), the
/// documents the generator exports (`generated/openapi.json` and the fixtures'), and the two real
/// documents under `tests/data/openapi/` (over a megabyte: the structure-aware generator takes
/// them from here by index, so that no corpus file has to hold them).
pub fn documents() -> &'static [Document] {
    static DOCUMENTS: OnceLock<Vec<Document>> = OnceLock::new();
    DOCUMENTS.get_or_init(|| {
        let root = repository();
        let mut paths = Vec::new();
        for case in subdirs(&root.join("tests/import")) {
            paths.extend(files_named(&case, &["openapi.yaml", "openapi.json"]));
        }
        paths.push(root.join("generated/openapi.json"));
        for fixture in subdirs(&root.join("tests/fixtures")) {
            paths.extend(files_named(&fixture.join("expected"), &["openapi.json"]));
            paths.extend(files_named(&fixture.join("expected/docs"), &["openapi.json"]));
        }
        paths.push(root.join("tests/data/openapi/discord/openapi.json"));
        paths.push(root.join("tests/data/openapi/oxide/nexus.json"));
        let mut documents: Vec<Document> = paths
            .iter()
            .map(|p| Document {
                name: p.strip_prefix(&root).unwrap_or(p).to_string_lossy().replace('\\', "/"),
                text: std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
            })
            .collect();
        documents.sort_by_key(|d| (d.text.len(), d.name.clone()));
        documents
    })
}

fn files_named(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names.iter().map(|n| dir.join(n)).filter(|p| p.is_file()).collect()
}
