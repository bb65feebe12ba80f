//! The JSON Schema of spec files (`generated/spec.schema.json`, derived from the raw layer):
//! every spec file names it on its first line, a real validator (Python `jsonschema`, installed
//! into `.venv` by `scripts/test.sh`) accepts the shipped spec and every fixture spec, and
//! refuses the diagnostics corpus's unknown-key and wrong-type cases, as the loader does.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `*.yaml` under `dir`, sorted.
fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(yaml_files(&path));
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The spec files that must be valid: the shipped spec and every fixture spec.
fn valid_specs() -> Vec<PathBuf> {
    let mut files = yaml_files(&root().join("spec"));
    files.extend(yaml_files(&root().join("tests/fixtures")));
    files.extend(yaml_files(&root().join("tests/diff")));
    files
}

/// `.venv/bin/python3`, or a loud failure saying how to get it.
fn python() -> PathBuf {
    let venv = root().join(".venv/bin/python3");
    assert!(
        venv.is_file(),
        "the test virtual environment is missing: run `./scripts/test.sh`, or `python3 -m venv .venv && .venv/bin/pip install -r scripts/requirements-test.txt`"
    );
    venv
}

/// Validates each JSON instance against the schema with Python's `jsonschema`; one list of
/// error messages per instance.
fn validate(instances: &[serde_json::Value]) -> Vec<Vec<String>> {
    const SCRIPT: &str = r#"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
out = [[f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(i)] for i in json.load(sys.stdin)]
json.dump(out, sys.stdout)
"#;
    let schema = root().join("generated/spec.schema.json");
    let mut child = Command::new(python())
        .args(["-c", SCRIPT, schema.to_str().expect("a UTF-8 path")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python runs");
    child.stdin.take().expect("stdin").write_all(serde_json::to_string(instances).expect("JSON").as_bytes()).expect("write instances");
    let out = child.wait_with_output().expect("python finishes");
    assert!(out.status.success(), "the validator failed (is `jsonschema` installed? run ./scripts/test.sh): {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("a list of error lists")
}

/// A spec file as the JSON value the loader sees.
fn instance(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).expect("a readable file");
    if text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
        return Ok(serde_json::json!({}));
    }
    serde_saphyr::from_str(&text).map_err(|e| e.to_string())
}

#[test]
fn every_spec_file_names_the_schema_on_its_first_line() {
    let schema = root().join("generated/spec.schema.json");
    let mut files = valid_specs();
    files.extend(yaml_files(&root().join("tests/diagnostics")));
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable file");
        let first = text.lines().next().unwrap_or_default();
        let target =
            first.strip_prefix("# yaml-language-server: $schema=").unwrap_or_else(|| panic!("{}: the first line names no schema: {first}", file.display()));
        let resolved = file.parent().expect("a directory").join(target);
        assert_eq!(
            std::fs::canonicalize(&resolved).ok(),
            std::fs::canonicalize(&schema).ok(),
            "{}: `{target}` is not generated/spec.schema.json",
            file.display()
        );
    }
}

#[test]
fn the_shipped_spec_and_every_fixture_spec_are_valid() {
    let files = valid_specs();
    assert!(files.len() > 100, "the shipped spec, the fixture and the diff cases: {}", files.len());
    let instances: Vec<_> = files.iter().map(|f| instance(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()))).collect();
    let errors = validate(&instances);
    let failures: Vec<String> =
        files.iter().zip(&errors).filter(|(_, e)| !e.is_empty()).map(|(f, e)| format!("{}:\n  {}", f.display(), e.join("\n  "))).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The schema knows the spec's shape, not its meaning: the corpus's unknown-key, wrong-type and
/// missing-key cases fail it, and every case the loader accepts structurally (an unknown
/// permission, a duplicate bit) passes it.
#[test]
fn the_corpus_fails_the_schema_exactly_where_the_loader_refuses_the_shape() {
    let mut cases: Vec<(String, serde_json::Value)> = Vec::new();
    for dir in std::fs::read_dir(root().join("tests/diagnostics")).expect("the corpus").map(|e| e.expect("an entry").path()) {
        let name = dir.file_name().expect("a name").to_string_lossy().to_string();
        // Not YAML at all, or YAML no parser accepts: nothing for a schema to judge.
        if name.starts_with("e0001") || name.starts_with("e0003") {
            continue;
        }
        for file in yaml_files(&dir) {
            let value = instance(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            cases.push((name.clone(), value));
        }
    }
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    let errors = validate(&cases.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>());
    let shape = ["e0002", "e0004"];
    let mut failed_shapes = Vec::new();
    for ((name, _), errors) in cases.iter().zip(&errors) {
        if shape.iter().any(|s| name.starts_with(s)) {
            assert!(!errors.is_empty(), "{name}: the schema accepts what the loader refuses");
            failed_shapes.push(name.as_str());
        } else {
            assert!(errors.is_empty(), "{name}: the schema refuses a well-shaped spec: {errors:?}");
        }
    }
    for code in shape {
        assert!(failed_shapes.iter().any(|n| n.starts_with(code)), "no {code} case was checked");
    }
}
