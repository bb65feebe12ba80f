//! `import openapi`: the importer's corpus under `tests/import/` (one document per case, with
//! the diagnostics it must give and, for the mapping cases, the spec files it must write), and
//! the two real documents under `tests/data/openapi/` (Discord's, OpenAPI 3.1, and Oxide's,
//! OpenAPI 3.0): each imports, the imported spec passes `check`, the same document imports to
//! the same bytes, and every construct not imported is listed in `unmapped.txt` beside the
//! document (and counted in the README).
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test -p platform-codegen --test import_openapi`.

use platform_codegen::diag::{self, Diagnostic, Sources};
use platform_codegen::emit::GeneratedFile;
use platform_codegen::files::{self, Mode};
use platform_codegen::import::{ImportError, Imported, import_openapi};
use std::path::{Path, PathBuf};

/// The workspace root (this crate is `codegen/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn bless() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some()
}

/// The document of a case directory: `openapi.yaml`, `openapi.json`, or the one `*.json`.
fn document(dir: &Path) -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "json") && p.file_stem().is_some_and(|s| s != "expected"))
        .collect();
    found.sort();
    found.into_iter().next().unwrap_or_else(|| panic!("{}: no document", dir.display()))
}

/// Imports `path`, named relative to the repository in diagnostics.
fn import(path: &Path) -> Result<Imported, (Sources, Vec<Diagnostic>)> {
    let shown = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
    match import_openapi(path, &shown) {
        Ok(imported) => Ok(imported),
        Err(ImportError::Invalid { sources, diagnostics }) => Err((sources, diagnostics)),
        Err(ImportError::Io(e)) => panic!("{e}"),
    }
}

/// Writes the files to a fresh temporary directory and checks the spec there: its
/// diagnostics (none expected) and the directory.
fn check_spec(files: &[GeneratedFile]) -> (tempfile::TempDir, platform_codegen::Loaded) {
    let dir = tempfile::tempdir().unwrap();
    files::sync(dir.path(), files, Mode::Write).unwrap();
    match platform_codegen::load_spec(dir.path(), "spec") {
        Ok(loaded) => (dir, loaded),
        Err(platform_codegen::LoadError::Invalid { sources, diagnostics }) => {
            panic!("the imported spec does not pass `check`:\n{}", diag::render_text(&sources, &diagnostics, false))
        }
        Err(platform_codegen::LoadError::Io(e)) => panic!("{e}"),
    }
}

/// Compares `actual` with the file at `path`, or writes it when blessing.
fn expect_file(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if bless() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        if std::fs::read_to_string(path).ok().as_deref() != Some(actual) {
            std::fs::write(path, actual).unwrap();
        }
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => failures.push(format!("{} differs:\n--- expected\n{expected}\n+++ actual\n{actual}", path.display())),
        Err(_) => failures.push(format!("{} is missing", path.display())),
    }
}

#[test]
fn every_import_case_gives_its_expected_diagnostics_and_spec() {
    let cases = root().join("tests/import");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&cases).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    assert!(dirs.len() >= 8, "the import corpus shrank to {} cases", dirs.len());
    let mut failures = Vec::new();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (text, files) = match import(&document(&dir)) {
            Ok(imported) => (diag::render_text(&imported.sources, &imported.warnings, false), Some(imported.files)),
            Err((sources, diagnostics)) => (diag::render_text(&sources, &diagnostics, false), None),
        };
        let code = name.split('_').next().unwrap().to_uppercase();
        if code.starts_with('E') {
            assert!(files.is_none(), "{name}: an error stops the import");
            assert!(text.contains(&format!("[{code}]")), "{name}: expected a {code} diagnostic, got:\n{text}");
        } else if code.starts_with('W') {
            assert!(text.contains(&format!("[{code}]")), "{name}: expected a {code} warning, got:\n{text}");
        }
        expect_file(&dir.join("expected.txt"), &text, &mut failures);
        let Some(files) = files else { continue };
        let (_dir, _loaded) = check_spec(&files);
        if name.starts_with("mapping") {
            for f in &files {
                expect_file(&dir.join("expected").join(&f.path), &f.contents, &mut failures);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\nrun `UPDATE_EXPECT=1 cargo test -p platform-codegen --test import_openapi` if the change is intended",
        failures.join("\n\n")
    );
}

#[test]
fn import_diagnostics_render_as_json_with_their_pointer() {
    let imported = import(&document(&root().join("tests/import/w0210_unmapped_keyword"))).unwrap();
    assert!(!imported.warnings.is_empty());
    for d in &imported.warnings {
        let json = diag::to_json(&imported.sources, d);
        assert_eq!(json["severity"], "warning", "{json}");
        assert!(json["message"].as_str().unwrap().contains("`#/"), "the message names the JSON pointer: {json}");
        assert_eq!(json["location"]["file"], "tests/import/w0210_unmapped_keyword/openapi.yaml", "{json}");
        assert!(json["location"]["line"].as_u64().unwrap() > 1, "{json}");
    }
}

/// The real documents: the directory under `tests/data/openapi/` and the document in it.
const DOCUMENTS: &[(&str, &str)] = &[("discord", "openapi.json"), ("oxide", "nexus.json")];

/// One line per construct not imported: code, place and message.
fn ledger(imported: &Imported) -> String {
    imported
        .warnings
        .iter()
        .map(|d| {
            let place = d.primary.as_ref().map(|(s, _)| imported.sources.location(*s)).unwrap_or_default();
            format!("{} {place} {}\n", d.code, d.message)
        })
        .collect()
}

/// Whether a warning reports a construct left out (the others say how one was carried: an
/// example kept as a note, a name given for generated code).
fn not_imported(d: &Diagnostic) -> bool {
    [diag::codes::IMPORT_UNMAPPED, diag::codes::IMPORT_UNMAPPED_SECURITY].contains(&d.code)
}

#[test]
fn the_real_documents_import_pass_check_and_list_what_they_leave_out() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut failures = Vec::new();
    for (name, file) in DOCUMENTS {
        let dir = root().join("tests/data/openapi").join(name);
        let imported = import(&dir.join(file)).unwrap_or_else(|(s, d)| panic!("{name} does not import:\n{}", diag::render_text(&s, &d, false)));
        let (_spec, loaded) = check_spec(&imported.files);
        assert!(loaded.warnings.is_empty(), "{name}: the imported spec has warnings: {:?}", loaded.warnings);
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
        let operations: usize =
            doc["paths"].as_object().unwrap().values().map(|item| item.as_object().unwrap().keys().filter(|k| *k != "parameters").count()).sum();
        assert_eq!(loaded.model.endpoints.len(), operations, "{name}: every operation is an endpoint");
        expect_file(&dir.join("unmapped.txt"), &ledger(&imported), &mut failures);
        // Every construct not imported is a gap `coverage` lists, with its pointer.
        let gaps: Vec<String> = platform_codegen::model::coverage::coverage(&loaded.model).gaps.into_iter().filter_map(|g| g.text).collect();
        for d in imported.warnings.iter().filter(|d| not_imported(d)) {
            let pointer = d.message.split('`').find(|s| s.starts_with("#/")).expect("the message names a pointer");
            assert!(gaps.iter().any(|g| g.contains(pointer)), "{name}: `coverage` does not list {pointer} ({})", d.message);
        }
        // The README's table states the counts.
        let row = format!("| {name} | {operations} | {} |", imported.warnings.iter().filter(|d| not_imported(d)).count());
        assert!(readme.contains(&row), "README.md lacks the row `{row}` (operations, constructs not imported)");
    }
    assert!(
        failures.is_empty(),
        "{}\n\nrun `UPDATE_EXPECT=1 cargo test -p platform-codegen --test import_openapi` if the change is intended",
        failures.join("\n\n")
    );
}

#[test]
fn the_same_document_imports_to_the_same_bytes() {
    for (name, file) in DOCUMENTS {
        let path = root().join("tests/data/openapi").join(name).join(file);
        let first = import(&path).ok().unwrap().files;
        let second = import(&path).ok().unwrap().files;
        assert_eq!(first, second, "{name}: two imports differ");
        // A YAML copy of the document imports to the same spec: only where values sit differs.
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let yaml = platform_codegen::import::yaml::file("", &doc);
        let tmp = tempfile::tempdir().unwrap();
        let copy = tmp.path().join("openapi.yaml");
        std::fs::write(&copy, yaml).unwrap();
        let from_yaml = match import_openapi(&copy, "copy.yaml") {
            Ok(i) => i.files,
            Err(e) => panic!("{name}: the YAML copy does not import: {e:?}"),
        };
        assert_eq!(first, from_yaml, "{name}: the YAML copy imports differently");
    }
}

/// The `webhooks` of a document this generator exported read back as the same webhooks: the
/// shapes fixture's, exported, imported and exported again, give the same `webhooks` member.
#[test]
fn exported_webhooks_import_back_to_the_same_webhooks() {
    let loaded = platform_codegen::load_spec(&root().join("tests/fixtures/shapes"), "spec").unwrap_or_else(|e| panic!("{e:?}"));
    let exported = platform_codegen::emit::emit_openapi(&loaded.model, &platform_codegen::emit::EmitOptions::default()).contents;
    let imported = platform_codegen::import::import_text("shapes.json", exported.clone()).unwrap_or_else(|e| panic!("{e:?}"));
    let (_dir, again) = check_spec(&imported.files);
    let exported_again = platform_codegen::emit::emit_openapi(&again.model, &platform_codegen::emit::EmitOptions::default()).contents;
    let webhooks = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap()["webhooks"].clone();
    assert!(webhooks(&exported).as_object().is_some_and(|w| w.len() >= 4), "the fixture's webhooks are exported");
    assert_eq!(webhooks(&exported_again), webhooks(&exported));
}
