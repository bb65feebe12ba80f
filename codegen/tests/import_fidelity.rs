//! Fidelity of `import openapi`, measured: each real document under `tests/data/openapi/` is
//! imported, the spec's own OpenAPI document is exported from it, and the two are compared
//! operation by operation (`platform_codegen::import::fidelity`). The test writes the report
//! (`fidelity.txt` beside the document: the fraction of equivalent operations and each
//! difference) and requires every difference to have its reason: a construct the importer
//! reported as not imported at that place in the document. `docs/import.md` states the
//! figures; the test checks them.
//!
//! Bless a changed report with `UPDATE_EXPECT=1 cargo test -p platform-codegen --test import_fidelity`.

use platform_codegen::emit::{EmitOptions, emit_openapi};
use platform_codegen::files::{self, Mode};
use platform_codegen::import::fidelity::{Difference, Reported, compare, reported};
use platform_codegen::import::import_openapi;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The reported construct a difference comes from (`Difference::explanation`), or the export's
/// own convention.
fn reason<'a>(d: &Difference, reported: &[Reported<'a>]) -> Option<&'a str> {
    d.explanation(reported).or_else(|| export_convention(d))
}

/// A difference the export makes on purpose, whatever the document (`docs/import.md`).
fn export_convention(d: &Difference) -> Option<&'static str> {
    let closed_form = d.place.ends_with("multipart/form-data") && d.what.starts_with("other members are anything in the document");
    closed_form.then_some(
        "the export lists a multipart form's parts and no others: the server reads only those, and a part name is a header parameter not every text fits",
    )
}

#[test]
fn export_of_the_import_matches_each_document_operation_by_operation() {
    let docs = std::fs::read_to_string(root().join("docs/import.md")).unwrap_or_default();
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for (name, file) in [("discord", "openapi.json"), ("oxide", "nexus.json")] {
        let dir = root().join("tests/data/openapi").join(name);
        let imported = import_openapi(&dir.join(file), file).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let spec = tempfile::tempdir().unwrap();
        files::sync(spec.path(), &imported.files, Mode::Write).unwrap();
        let loaded = platform_codegen::load_spec(spec.path(), "spec").unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let exported: serde_json::Value = serde_json::from_str(&emit_openapi(&loaded.model, &EmitOptions::default()).contents).unwrap();
        let original: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
        let report = compare(&original, &exported);
        let reported = reported(&imported.warnings);
        let mut text = format!("{name}: {}/{} operations equivalent\n", report.equivalent, report.operations);
        let mut unexplained = Vec::new();
        for d in &report.differences {
            let why = reason(d, &reported);
            let _ = writeln!(text, "\n{} at {}\n  {}\n  at #{}\n  because: {}", d.operation, d.place, d.what, d.pointer, why.unwrap_or("(no reason)"));
            if why.is_none() {
                unexplained.push(format!("{} at {}: {} (#{})", d.operation, d.place, d.what, d.pointer));
            }
        }
        println!("{text}");
        let path = dir.join("fidelity.txt");
        if bless {
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            failures.push(format!("{} differs from this run's report:\n{text}", path.display()));
        }
        if !unexplained.is_empty() {
            failures.push(format!("{name}: differences no reported construct explains:\n{}", unexplained.join("\n")));
        }
        let figure = format!("| {name} | {}/{} |", report.equivalent, report.operations);
        if !docs.contains(&figure) {
            failures.push(format!("docs/import.md lacks the row `{figure}`"));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\nrun `UPDATE_EXPECT=1 cargo test -p platform-codegen --test import_fidelity` if the change is intended",
        failures.join("\n\n")
    );
}
