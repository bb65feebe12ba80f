//! The diagnostics corpus: one minimal broken spec per rule under `tests/diagnostics/<case>/`,
//! each with the rendered diagnostics it must produce in `expected.txt`.
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test --test all diagnostics::`.

use platform_codegen::{LoadError, diag, load_spec};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs
}

/// Renders a case's diagnostics without colour, as the CLI prints them.
fn render(dir: &Path) -> (String, bool) {
    match load_spec(dir, "spec") {
        Ok(loaded) => (diag::render_text(&loaded.sources, &loaded.warnings, false), false),
        Err(LoadError::Invalid { sources, diagnostics }) => (diag::render_text(&sources, &diagnostics, false), true),
        Err(LoadError::Io(e)) => panic!("{}: {e}", dir.display()),
    }
}

#[test]
fn every_case_gives_its_expected_diagnostic() {
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 30, "the corpus shrank to {} cases", cases.len());
    for dir in cases {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (text, invalid) = render(&dir);
        let code = name.split('_').next().unwrap().to_uppercase();
        assert!(text.contains(&format!("[{code}]")), "{name}: expected a {code} diagnostic, got:\n{text}");
        assert_eq!(invalid, code.starts_with('E'), "{name}: errors make the spec invalid, warnings do not:\n{text}");
        let expected_path = dir.join("expected.txt");
        if bless {
            std::fs::write(&expected_path, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != text {
            failures.push(format!("--- {name}: expected\n{expected}\n+++ got\n{text}"));
        }
    }
    assert!(failures.is_empty(), "{}\n\nrun `UPDATE_EXPECT=1 cargo test --test all diagnostics::` if the change is intended", failures.join("\n"));
}

#[test]
fn json_format_locates_every_diagnostic() {
    for dir in cases() {
        let Err(LoadError::Invalid { sources, diagnostics }) = load_spec(&dir, "spec") else { continue };
        for d in &diagnostics {
            let json = diag::to_json(&sources, d);
            if d.primary.is_some() {
                let loc = &json["location"];
                assert!(loc["file"].as_str().unwrap().starts_with("spec/"), "{json}");
                assert!(loc["line"].as_u64().unwrap() >= 1, "{json}");
                assert!(loc["column"].as_u64().unwrap() >= 1, "{json}");
            }
            assert!(json["code"].as_str().unwrap().starts_with('E') || json["code"].as_str().unwrap().starts_with('W'));
        }
    }
}
