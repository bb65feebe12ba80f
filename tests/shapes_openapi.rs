//! The OpenAPI document of the shapes fixture against the ecosystem's tools: the
//! `openapi-spec-validator` CLI accepts it, and schemathesis, driven by it against a server built
//! from the fixture (the in-memory service of `tests/shapes_common/` on 127.0.0.1), finds no
//! server error and no response whose status, media type, headers or body the document does not
//! declare: request bodies of unions, maps, patterns, formats and presence included.
//!
//! The Python tools come from the virtual environment `scripts/test.sh` creates (`.venv`); a test
//! fails, never skips, when one is missing.

use crate::shapes_common;

use platform_codegen::emit::{EmitOptions, emit_all};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture's document, written under the target directory.
fn document() -> PathBuf {
    let loaded = platform_codegen::load_spec(&root().join("tests/fixtures/shapes"), "spec").unwrap_or_else(|_| panic!("the shapes fixture is invalid"));
    let files = emit_all(&loaded.model, &EmitOptions::default());
    let doc = files.iter().find(|f| f.path == "openapi.json").expect("an openapi.json");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shapes-openapi.json");
    std::fs::write(&path, &doc.contents).unwrap();
    path
}

/// A Python tool: from PATH (the test command puts `.venv/bin` first) or from `.venv/bin`.
fn tool(name: &str) -> PathBuf {
    let venv = root().join(".venv/bin").join(name);
    if venv.is_file() {
        return venv;
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()));
    on_path.unwrap_or_else(|| {
        panic!("`{name}` is not installed: run `./scripts/test.sh`, or `python3 -m venv .venv && .venv/bin/pip install -r scripts/requirements-test.txt`")
    })
}

#[test]
fn openapi_spec_validator_accepts_the_shapes_document() {
    let out = Command::new(tool("openapi-spec-validator")).arg(document()).output().expect("run openapi-spec-validator");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("OK"), "openapi-spec-validator rejects the shapes document:\n{text}");
}

#[test]
fn the_document_declares_what_the_shapes_say() {
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(document()).unwrap()).unwrap();
    let op = |path: &str, method: &str| doc["paths"][path][method].clone();
    let get_note = op("/notes/{note_id}", "get");
    assert_eq!(get_note["security"], serde_json::json!([{}, { "bot": [] }]), "optional auth");
    assert_eq!(op("/status", "get")["security"], serde_json::json!([]), "anonymous");
    assert_eq!(op("/notes", "get")["security"], serde_json::json!([{ "bot": [] }, { "bearer": ["notes.read"] }]), "scopes of a bearer token");
    assert_eq!(get_note["responses"]["429"]["$ref"], "#/components/responses/rate_limited");
    assert_eq!(get_note["responses"]["200"]["headers"]["X-RateLimit-Limit"]["$ref"], "#/components/headers/rate_limit_limit");
    assert_eq!(
        doc["components"]["responses"]["rate_limited"]["content"]["application/json"]["schema"]["required"],
        serde_json::json!(["message", "retry_after", "global"])
    );
    let create = op("/notes", "post");
    let media: Vec<&String> = create["requestBody"]["content"].as_object().unwrap().keys().collect();
    assert_eq!(media, ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
    assert_eq!(create["requestBody"]["content"]["multipart/form-data"]["encoding"]["cover"]["contentType"], "image/*");
    let params = op("/notes", "get")["parameters"].clone();
    let param = |name: &str| params.as_array().unwrap().iter().find(|p| p["name"] == name).cloned().unwrap();
    assert_eq!((param("ids")["explode"].clone(), param("tags")["explode"].clone()), (serde_json::json!(true), serde_json::json!(false)));
    assert_eq!(param("X-Locale")["in"], "header");
    assert_eq!(op("/notes/{note_id}/attachment", "put")["requestBody"]["content"]["application/octet-stream"]["schema"]["format"], "binary");
}

/// Serves the shapes service on a free port of 127.0.0.1 from a runtime of its own, for as long
/// as the returned runtime lives.
fn serve() -> (tokio::runtime::Runtime, String) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let served = runtime.block_on(shapes_common::Server::start(shapes_common::Shapes::new()));
    (runtime, served.origin)
}

/// Runs a command with a hard time limit; returns its exit success and output.
fn run_bounded(mut cmd: Command, limit: Duration, log: &str) -> (bool, String) {
    let out_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(log);
    let file = std::fs::File::create(&out_path).unwrap();
    let mut child = cmd.stdout(file.try_clone().unwrap()).stderr(file).spawn().expect("start schemathesis");
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    match status {
        Some(s) => (s.success(), text),
        None => (false, format!("killed after {limit:?}\n{text}")),
    }
}

#[test]
fn schemathesis_finds_no_server_error_and_no_undeclared_response_in_the_shapes_server() {
    let schemathesis = tool("schemathesis");
    let document = document();
    let (_runtime, origin) = serve();
    let url = format!("{origin}/api");
    // Schemathesis keeps a cache in its working directory; keep it out of the checkout.
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    // Every operation but `get_me` accepts the bot token; `get_me` takes a bearer token with its scope.
    let groups = [("Bot bot-token", "^(?!get_me$).*$"), ("Bearer reader-token", "^get_me$")];
    for (index, (authorization, operations)) in groups.into_iter().enumerate() {
        let mut cmd = Command::new(&schemathesis);
        cmd.current_dir(work.path())
            .arg("run")
            .arg(&document)
            .args(["--url", &url])
            .args(["--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,positive_data_acceptance"])
            // Bounded and reproducible: a fixed number of cases per operation, a fixed seed, no
            // example database between runs, one worker, no open-ended stateful phase.
            .args(["--max-examples", "40", "--seed", "20260223", "--workers", "1", "--generation-database", "none"])
            .args(["--phases", "examples,coverage,fuzzing", "--request-timeout", "10", "--no-color"])
            .args(["--header", &format!("Authorization: {authorization}")])
            .args(["--include-operation-id-regex", operations]);
        let (ok, output) = run_bounded(cmd, Duration::from_secs(400), &format!("shapes-schemathesis-{index}.log"));
        assert!(ok, "schemathesis found problems in the shapes server ({operations}, `{authorization}`):\n{output}");
    }
}
