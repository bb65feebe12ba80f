//! The importer against a corpus of real documents: Discord's and Oxide's, Twilio's 54 and
//! DigitalOcean's, which is split over 2,907 files joined by relative `$ref`s (all under
//! `tests/data/openapi/`, each with its license). Every document imports with no error, and
//! the spec it writes passes `check` with no warning: an import either refuses a document with
//! a located diagnostic or writes a spec that checks, never one that does not.
//!
//! What each document leaves out is counted in `tests/data/openapi/corpus.md`, the table
//! `docs/import.md` shows. Bless a change with
//! `UPDATE_EXPECT=1 cargo test -p platform-codegen --test import_corpus`.

use platform_codegen::diag::{self, Diagnostic, codes};
use platform_codegen::files::{self, Mode};
use platform_codegen::import::{ImportError, import_openapi};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Every document of the corpus: its name and its root file.
fn corpus() -> Vec<(String, PathBuf)> {
    let data = root().join("tests/data/openapi");
    let mut docs = vec![
        ("discord".to_owned(), data.join("discord/openapi.json")),
        ("oxide".to_owned(), data.join("oxide/nexus.json")),
        ("digitalocean".to_owned(), data.join("digitalocean/specification/DigitalOcean-public.v2.yaml")),
    ];
    let mut twilio: Vec<PathBuf> =
        std::fs::read_dir(data.join("twilio")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    twilio.sort();
    assert_eq!(twilio.len(), 54, "the Twilio documents");
    docs.extend(twilio.into_iter().map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p)));
    docs
}

/// One row of the table: what a document is, and what its import left out or changed.
fn row(name: &str, operations: usize, endpoints: usize, unrouted: usize, warnings: &[Diagnostic]) -> String {
    let count = |code: &str| warnings.iter().filter(|d| d.code == code).count();
    format!(
        "| {name} | {operations} | {endpoints} | {unrouted} | {} | {} | {} |\n",
        count(codes::IMPORT_UNMAPPED) + count(codes::IMPORT_UNMAPPED_SECURITY),
        count(codes::IMPORT_EXAMPLE),
        count(codes::IMPORT_RENAMED)
    )
}

/// The operations of a document: each method of each path item of its root file.
fn operations(path: &Path) -> usize {
    const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];
    let text = std::fs::read_to_string(path).unwrap();
    let doc: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(|item| item.as_object())
        .map(|item| item.keys().filter(|k| METHODS.contains(&k.as_str())).count())
        .sum()
}

#[test]
fn every_document_of_the_corpus_imports_and_passes_check() {
    let mut table = String::from(
        "| document | operations | endpoints | not routed | constructs not imported | examples kept as notes | names given for code |\n|---|---|---|---|---|---|---|\n",
    );
    let mut failures = Vec::new();
    for (name, path) in corpus() {
        let shown = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
        let imported = match import_openapi(&path, &shown) {
            Ok(imported) => imported,
            Err(ImportError::Invalid { sources, diagnostics }) => {
                failures.push(format!("{name} does not import:\n{}", diag::render_text(&sources, &diagnostics, false)));
                continue;
            }
            Err(ImportError::Io(e)) => panic!("{e}"),
        };
        let dir = tempfile::tempdir().unwrap();
        files::sync(dir.path(), &imported.files, Mode::Write).unwrap();
        let loaded = match platform_codegen::load_spec(dir.path(), "spec") {
            Ok(loaded) => loaded,
            Err(platform_codegen::LoadError::Invalid { sources, diagnostics }) => {
                failures.push(format!("the spec imported from {name} does not pass `check`:\n{}", diag::render_text(&sources, &diagnostics, false)));
                continue;
            }
            Err(platform_codegen::LoadError::Io(e)) => panic!("{e}"),
        };
        if !loaded.warnings.is_empty() {
            failures.push(format!("the spec imported from {name} has warnings:\n{}", diag::render_text(&loaded.sources, &loaded.warnings, false)));
        }
        let endpoints = loaded.model.endpoints.len();
        let unrouted = loaded.model.endpoints.iter().filter(|e| !e.is_routed()).count();
        if let Err(why) = platform_fuzz::targets::router_builds(&loaded.model) {
            failures.push(format!("the router of the spec imported from {name} does not build: {why}"));
        }
        let operations = operations(&path);
        if endpoints != operations {
            failures.push(format!("{name}: {operations} operations, {endpoints} endpoints"));
        }
        table.push_str(&row(&name, operations, endpoints, unrouted, &imported.warnings));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let expected = root().join("tests/data/openapi/corpus.md");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected, &table).unwrap();
    }
    let written = std::fs::read_to_string(&expected).unwrap_or_default();
    assert_eq!(written, table, "the corpus table changed: run `UPDATE_EXPECT=1 cargo test -p platform-codegen --test import_corpus` if intended");
    let doc = std::fs::read_to_string(root().join("docs/import.md")).unwrap();
    assert!(doc.contains(&table), "docs/import.md does not show the table of tests/data/openapi/corpus.md");
}
