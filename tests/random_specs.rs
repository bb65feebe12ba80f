//! A valid spec never generates code that does not compile.
//!
//! Every fixture under `tests/fixtures/` is built here, every crate of it: most hold a shape
//! that once did not compile (a spec without conditions, recursion through every path, names
//! that collide after case conversion or are keywords, dates of its own, enum values a case
//! omits from nullable and optional places, a multipart part that alone may be absent, floats on
//! an SDK class, a gateway that takes no command). The random specs of three fixed seeds use every construct of
//! the format with names drawn to break identifiers (`platform_specgen`). All of them are
//! generated into one scratch workspace and built at once with warnings and clippy's lints
//! denied (the servers with their `mock` feature), in the target directory
//! `scripts/random-specs.sh` shares (`target/scratch`), and their C and C++ headers are compiled
//! with strict warnings. Then every server's mock router is built and served on 127.0.0.1, and
//! must answer a request (a router axum cannot build panics only then, after a clean build).

use platform_codegen::emit::{EmitOptions, emit_all};
use platform_specgen::harness::{self, Source};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every fixture under `tests/fixtures/`, so each one's every crate is built here.
fn fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("tests/fixtures"))
        .expect("tests/fixtures is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().expect("a fixture has a name").to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 8, "the fixtures shrank to {names:?}");
    names
}

/// The seeds built on every run; `scripts/random-specs.sh` builds fifty more.
const SEEDS: &[u64] = &[1, 2, 3];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures").join(name)
}

#[test]
fn fixtures_and_random_specs_compile_without_warnings() {
    let repo = repo();
    let target = harness::test_scratch_target();
    std::fs::create_dir_all(&target).expect("create the scratch target directory");
    let root = tempfile::tempdir_in(&target).expect("a scratch directory");
    let mut sources: Vec<Source> = fixtures().iter().map(|f| Source::Spec(fixture(f))).collect();
    sources.extend(SEEDS.iter().map(|s| Source::Seed(*s)));
    if let Err(failures) = harness::run(root.path(), &target, &repo, &sources) {
        panic!("{failures}");
    }
}

#[test]
fn forty_random_specs_pass_check_and_generate() {
    let root = tempfile::tempdir().expect("a scratch directory");
    let sources: Vec<Source> = (100..140).map(Source::Seed).collect();
    // Panics, naming the seed, on a spec the checker rejects for anything but a name to rename.
    let members = harness::prepare(root.path(), &sources);
    assert_eq!(members.len(), 40);
    assert!(members.iter().all(|m| m.out.join("types/src/lib.rs").is_file()), "every spec generates its crates");
    // Every router builds: its routes go into axum's path router without the error that makes
    // axum panic at startup (a parameter with text beside it, two conflicting routes).
    let mut list_headers = 0;
    for m in &members {
        let loaded = platform_codegen::load_spec(&m.spec, "spec").expect("a random spec is valid");
        let is_list = |f: &platform_codegen::model::Field| matches!(f.ty, Some(platform_codegen::model::TypeRef::Array(_)));
        list_headers += loaded.model.endpoints.iter().flat_map(|e| &e.headers).filter(|f| is_list(f)).count();
        if let Err(e) = platform_fuzz::targets::router_builds(&loaded.model) {
            panic!("the router of {} does not build: {e}", m.what);
        }
    }
    assert!(list_headers > 0, "some random spec has a request header that is a list");
}

/// Every `YYYY-MM-DD` in `text`.
fn dates(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let shape = |w: &[u8]| w.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() });
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    (0..bytes.len().saturating_sub(9))
        .filter(|&i| shape(&bytes[i..i + 10]) && !(i > 0 && digit(i - 1)) && !digit(i + 10))
        .map(|i| text[i..i + 10].to_owned())
        .collect()
}

/// The text of every YAML file under `dir`.
fn spec_text(dir: &Path) -> String {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir).expect("a spec directory").map(|e| e.expect("a directory entry").path()) {
        if entry.is_dir() {
            out.push_str(&spec_text(&entry));
        } else if entry.extension().is_some_and(|e| e == "yaml") {
            out.push_str(&std::fs::read_to_string(&entry).expect("a readable spec file"));
        }
    }
    out
}

/// Every generated file of the spec in `dir`, by path.
fn generated(dir: &Path) -> Vec<(String, String)> {
    let loaded = platform_codegen::load_spec(dir, "spec").unwrap_or_else(|e| panic!("{} is invalid: {e:?}", dir.display()));
    emit_all(&loaded.model, &EmitOptions::default()).into_iter().map(|f| (f.path, f.contents)).collect()
}

#[test]
fn generated_files_carry_only_dates_of_their_spec() {
    for name in &fixtures() {
        let dir = fixture(name);
        let mut own = dates(&spec_text(&dir));
        // The Atom feed's `updated` of an undated change: the Unix epoch, the generator's own.
        own.insert("1970-01-01".to_owned());
        for (path, contents) in generated(&dir) {
            let foreign: Vec<String> = dates(&contents).difference(&own).cloned().collect();
            assert!(foreign.is_empty(), "{path} of fixture `{name}` carries dates its spec does not: {foreign:?}");
        }
    }
}

/// Copies the spec directory `from` into `to`, each date moved 400 years on (the same
/// calendar, so every date stays valid and their order stays).
fn copy_with_dates_moved(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    for entry in std::fs::read_dir(from).expect("a spec directory").map(|e| e.expect("a directory entry").path()) {
        let target = to.join(entry.file_name().expect("a file name"));
        if entry.is_dir() {
            copy_with_dates_moved(&entry, &target);
            continue;
        }
        let mut text = std::fs::read_to_string(&entry).expect("a readable spec file");
        for date in dates(&text) {
            let year: u32 = date[..4].parse().expect("a year");
            text = text.replace(&date, &format!("{}{}", year + 400, &date[4..]));
        }
        std::fs::write(&target, text).expect("write the copy");
    }
}

#[test]
fn moving_the_dates_of_the_shipped_spec_moves_them_in_every_generated_file() {
    let shipped = repo().join("spec");
    let original = dates(&spec_text(&shipped));
    assert!(original.contains("2026-11-16"), "the shipped spec's dated changes are the ones this test moves");
    let copy = tempfile::tempdir().expect("a scratch directory");
    copy_with_dates_moved(&shipped, copy.path());
    for (path, contents) in generated(copy.path()) {
        let kept: Vec<&String> = original.iter().filter(|d| contents.contains(d.as_str())).collect();
        assert!(kept.is_empty(), "{path} keeps dates of the shipped spec after they moved: {kept:?}");
    }
}

#[test]
fn names_that_real_apis_keep_apart_stay_apart() {
    let files = generated(&fixture("colliding_names"));
    let file = |path: &str| files.iter().find(|(p, _)| p == path).map(|(_, c)| c.as_str()).unwrap_or_else(|| panic!("{path} is generated"));
    let enums = file("types/src/enums.rs");
    // `user`, `-user` and `+user` are three sort orders; `userName` is renamed in the spec.
    for variant in ["User,", "MinusUser,", "PlusUser,", "UserName,", "UserNameCamel,", "Cafe,", "CafU00e9,", "MinusCreatedAt,"] {
        assert!(enums.contains(variant), "enum `sort` has the variant `{variant}`:\n{enums}");
    }
    // A value named `Unknown` leaves the catch-all another name.
    assert!(enums.contains("Unnamed("), "the catch-all of `sort` steps aside for its value `Unknown`");
    let resources = file("types/src/resources.rs");
    for field in ["pub r#type:", "pub self_:", "pub self_type:", "pub crate_:", "pub r#match:", "pub r#fn:", "pub r#async:", "pub v3d:"] {
        assert!(resources.contains(field), "resource `type` has the field `{field}`");
    }
    assert!(resources.contains("pub struct OptionType"), "a resource named `Option` does not shadow the prelude");
    // A field every variant of a union has is read through the enum, except where the method
    // would shadow one every enum has (`clone`).
    let unions = file("types/src/unions.rs");
    assert!(unions.contains("pub fn into_raw(&self)") && unions.contains("pub fn len(&self)"), "accessors of `figure`:\n{unions}");
    assert!(!unions.contains("pub fn clone(&self)"), "no accessor shadows `Clone::clone`:\n{unions}");
    let header = file("sdk/include/codd.h");
    assert!(header.contains("Odd_Delete_Class"), "the C accessor of field `class` of class `delete`");
    // Value `delete` of enum `kind` would shadow class `Delete` of the C++ namespace; its `c_name` settles it.
    let cpp = file("sdk/include/oddpp.h");
    assert!(cpp.contains("    Deleted = 6,") && cpp.contains("class Delete"), "value `delete` is `Kind::Deleted` beside class `Delete`:\n{cpp}");
}

/// A property over generated documents: the OpenAPI document exported from a random valid spec
/// (every construct of the format, names drawn to break identifiers) is one more real document
/// for the importer. Imported, it must give a spec that passes `check` and whose server builds
/// its router, and exporting that spec again must agree with the document operation by
/// operation, except where the importer reported a construct it did not carry.
#[test]
fn exported_documents_of_random_specs_import_and_agree() {
    let mut failures = Vec::new();
    for (index, seed) in (200..232).enumerate() {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let loaded = platform_specgen::Generated::new(seed, index).make_valid(dir.path());
        let document = platform_codegen::emit::emit_openapi(&loaded.model, &EmitOptions::default()).contents;
        if let Err(e) = import_agrees(&document) {
            // The spec and its export stay for a look; `platform-codegen import openapi` on the
            // export reproduces the failure.
            std::fs::write(dir.path().join("openapi.json"), &document).expect("write the export");
            failures.push(format!("seed {seed} (the spec and its export `openapi.json` are kept in {}): {e}", dir.keep().display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Imports `document`, checks the spec, builds its router and compares its export with
/// `document`.
fn import_agrees(document: &str) -> Result<(), String> {
    use platform_codegen::import::fidelity::{compare, reported};
    use platform_codegen::import::{ImportError, import_text};
    use platform_codegen::{LoadError, diag::render_text};
    let imported = match import_text("openapi.json", document.to_owned()) {
        Ok(imported) => imported,
        Err(ImportError::Invalid { sources, diagnostics }) => {
            return Err(format!("the document does not import:\n{}", render_text(&sources, &diagnostics, false)));
        }
        Err(ImportError::Io(e)) => return Err(format!("an import from text read a file: {e}")),
    };
    let files = imported.files.iter().map(|f| (format!("spec/{}", f.path), f.contents.clone())).collect();
    let spec = match platform_codegen::load_spec_texts(files) {
        Ok(spec) => spec,
        Err(LoadError::Invalid { sources, diagnostics }) => {
            return Err(format!("the imported spec does not pass `check`:\n{}", render_text(&sources, &diagnostics, false)));
        }
        Err(LoadError::Io(e)) => return Err(format!("the imported spec does not load: {e}")),
    };
    platform_fuzz::targets::router_builds(&spec.model).map_err(|e| format!("the router of the imported spec does not build: {e}"))?;
    let original: serde_json::Value = serde_json::from_str(document).expect("the export is JSON");
    let again: serde_json::Value =
        serde_json::from_str(&platform_codegen::emit::emit_openapi(&spec.model, &EmitOptions::default()).contents).expect("the export is JSON");
    let reported = reported(&imported.warnings);
    let unexplained: Vec<String> = compare(&original, &again)
        .differences
        .iter()
        .filter(|d| d.explanation(&reported).is_none())
        .map(|d| format!("  {} at {}: {} (#{})", d.operation, d.place, d.what, d.pointer))
        .collect();
    if unexplained.is_empty() {
        return Ok(());
    }
    Err(format!("the export of the import differs, with no reported construct to explain it:\n{}", unexplained.join("\n")))
}
