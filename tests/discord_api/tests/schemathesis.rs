//! Schemathesis, driven by the OpenAPI document the imported Discord spec exports, against the
//! mock server of that spec over 127.0.0.1, over every operation: no server error, every
//! request the document allows accepted, and every response's status, media type, headers and
//! body as the document declares them.
//!
//! One thing is narrowed in the document it is given: text path parameters are at most 1024
//! characters (Discord allows an invite code of 152133, a webhook token of any length). The HTTP
//! layer bounds a request line (hyper refuses one over 400 KiB, which 152133 percent-encoded
//! characters exceed, with a bare 431 before any route runs), so such a value never reaches the
//! server the document describes.
//!
//! `schemathesis` comes from PATH (the test command puts the repository's `.venv/bin` first);
//! the test fails, never skips, when it is missing.

use discord_api_tests::Mock;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn tool(name: &str) -> PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()));
    on_path.unwrap_or_else(|| panic!("`{name}` is not installed: run `./scripts/test.sh`, which installs it into `.venv`"))
}

#[test]
fn schemathesis_finds_no_server_error_and_no_undeclared_response_in_the_mock() {
    let exported = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&exported).expect("the exported document")).expect("JSON");
    let operations = doc["paths"].as_object().expect("paths").values().map(|item| item.as_object().expect("a path item").len()).sum::<usize>();
    assert_eq!(operations, 242, "the exported document has every operation");
    let mut bounded = 0;
    for item in doc["paths"].as_object_mut().expect("paths").values_mut() {
        for op in item.as_object_mut().expect("a path item").values_mut() {
            for p in op.get_mut("parameters").and_then(serde_json::Value::as_array_mut).into_iter().flatten() {
                let in_path = p["in"] == "path";
                let schema = &mut p["schema"];
                let long = schema.get("maxLength").and_then(serde_json::Value::as_u64).is_none_or(|m| m > 1024);
                if in_path && schema["type"] == "string" && long && schema.get("pattern").is_none() {
                    schema["maxLength"] = serde_json::json!(1024);
                    bounded += 1;
                }
            }
        }
    }
    assert!(bounded > 0, "no text path parameter longer than a request line takes: drop this step");
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("discord-schemathesis");
    std::fs::create_dir_all(&work).expect("a work directory");
    let document = work.join("openapi.json");
    std::fs::write(&document, serde_json::to_string(&doc).expect("JSON")).expect("write the document");
    let mock = Mock::start();
    let log = work.join("schemathesis.log");
    let mut cmd = Command::new(tool("schemathesis"));
    cmd.current_dir(&work)
        .arg("run")
        .arg(&document)
        .args(["--url", &mock.base_url()])
        // The server accepts every request the document allows (`positive_data_acceptance`), as
        // well as answering each as declared.
        .args([
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,positive_data_acceptance",
        ])
        // Bounded and reproducible over 242 operations: few cases each, a fixed seed, no example
        // database, the generated cases only (no stateful phase). One worker: two threads of
        // Hypothesis now and then trip Python 3.11's `ast` module ("AST constructor recursion
        // depth mismatch", a runtime error of the tool, seen on Oxide's mock).
        .args(["--max-examples", "10", "--seed", "20260718", "--workers", "1", "--generation-database", "none"])
        .args(["--phases", "examples,fuzzing", "--request-timeout", "10", "--no-color"])
        // A bearer token: OAuth2 operations take it as such, bot operations (whose token kind has
        // no scheme word) as the whole header value.
        .args(["--header", "Authorization: Bearer mock-token"]);
    let file = std::fs::File::create(&log).expect("a log file");
    let mut child = cmd.stdout(file.try_clone().expect("a second handle")).stderr(file).spawn().expect("start schemathesis");
    let deadline = Instant::now() + Duration::from_secs(900);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let output = std::fs::read_to_string(&log).unwrap_or_default();
    let ok = status.is_some_and(|s| s.success());
    assert!(ok, "schemathesis found problems in the mock (log: {}):\n{output}", log.display());
    assert!(output.contains("242"), "schemathesis did not run every operation:\n{output}");
}
