//! `generated/openapi.json` against the ecosystem's tools: the `openapi-spec-validator` CLI
//! accepts it, a Rust OpenAPI 3.1 parser (oas3) reads it back with every reference resolving,
//! and schemathesis, driven by it, finds no server error and no non-conforming response in the
//! reference server. The shapes fixture's document has its own tests (`tests/shapes_openapi.rs`).
//!
//! The Python tools come from the virtual environment `scripts/test.sh` creates (`.venv`); a test
//! fails, never skips, when one is missing.

use platform_codegen::emit::{EmitOptions, emit_all};
use platform_codegen::model::{Bound, Model};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn model(dir: &Path) -> Model {
    platform_codegen::load_spec(dir, "spec").unwrap_or_else(|_| panic!("{} is not a valid spec", dir.display())).model
}

fn shipped_model() -> Model {
    model(&root().join("spec"))
}

/// The committed document (what users and the tools read).
fn document() -> String {
    let path = root().join("generated/openapi.json");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}; run `cargo run -p platform-codegen -- generate`", path.display()))
}

/// The document of the fixture spec, written under the target directory.
fn fixture_document() -> PathBuf {
    let files = emit_all(&model(&root().join("tests/fixtures/minimal")), &EmitOptions::default());
    let doc = files.iter().find(|f| f.path == "openapi.json").expect("an openapi.json");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixture-openapi.json");
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
fn openapi_spec_validator_accepts_the_documents() {
    let validator = tool("openapi-spec-validator");
    for path in [root().join("generated/openapi.json"), fixture_document()] {
        let out = Command::new(&validator).arg(&path).output().expect("run openapi-spec-validator");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && text.contains("OK"), "openapi-spec-validator rejects {}:\n{text}", path.display());
    }
}

#[test]
fn an_openapi_3_1_parser_reads_it_back() {
    let spec = oas3::from_json(document()).expect("oas3 parses the document");
    assert!(spec.openapi.starts_with("3.1."), "not an OpenAPI 3.1 document: {}", spec.openapi);
    let model = shipped_model();
    let ops: Vec<_> = spec.operations().collect();
    assert_eq!(ops.len(), model.routed_endpoints().count(), "one operation per routed endpoint");
    for e in model.routed_endpoints() {
        let method = &e.method.as_ref().unwrap().id;
        let op = ops
            .iter()
            .find(|(_, m, op)| m.as_str() == method && op.operation_id.as_deref() == Some(e.meta.id.as_str()))
            .map(|(_, _, op)| *op)
            .unwrap_or_else(|| panic!("no {method} operation {}", e.meta.id));
        let params = op.parameters(&spec).unwrap_or_else(|err| panic!("{}: parameters do not resolve: {err}", e.meta.id));
        assert_eq!(params.len(), e.path_params.len() + e.query.len(), "{}: parameters", e.meta.id);
        op.request_body(&spec).unwrap_or_else(|err| panic!("{}: request body does not resolve: {err}", e.meta.id));
        let responses = op.responses(&spec);
        assert!(responses.keys().any(|s| s.starts_with('2')), "{}: no success response", e.meta.id);
        for (status, r) in &responses {
            for media in r.content.values() {
                if let Some(schema) = &media.schema {
                    resolve_deep(&spec, schema, &format!("{} {status}", e.meta.id), 0);
                }
            }
        }
    }
    let components = spec.components.as_ref().expect("components");
    for (name, schema) in &components.schemas {
        resolve_deep(&spec, schema, name, 0);
    }
    for t in &model.token_kinds {
        assert!(components.security_schemes.contains_key(&t.meta.id), "no security scheme for token kind {}", t.meta.id);
    }
}

/// Resolves a schema and everything it nests, failing on a reference that leads nowhere.
fn resolve_deep(spec: &oas3::Spec, schema: &oas3::spec::Schema, at: &str, depth: usize) {
    if depth > 8 {
        return;
    }
    let resolved = schema.resolve(spec).unwrap_or_else(|e| panic!("{at}: {e}"));
    let oas3::spec::Schema::Object(obj) = resolved else { return };
    let oas3::spec::ObjectOrReference::Object(obj) = *obj else { return };
    for (name, p) in &obj.properties {
        resolve_deep(spec, p, &format!("{at}.{name}"), depth + 1);
    }
    for s in obj.any_of.iter().chain(&obj.one_of).chain(&obj.all_of).chain(obj.items.as_deref()) {
        resolve_deep(spec, s, at, depth + 1);
    }
}

#[test]
fn constraints_become_json_schema_keywords() {
    let model = shipped_model();
    let doc: serde_json::Value = serde_json::from_str(&document()).unwrap();
    let mut checked = 0;
    for e in model.routed_endpoints() {
        let op = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .filter_map(|item| item.get(e.method.as_ref().unwrap().id.to_lowercase()))
            .find(|op| op["operationId"] == e.meta.id.as_str())
            .unwrap_or_else(|| panic!("no operation {}", e.meta.id));
        let body = op["requestBody"]["content"].as_object().and_then(|c| c.values().next()).map(|m| &m["schema"]);
        let fields = e.body.iter().map(|f| body.map(|b| &b["properties"][f.wire()]));
        let whole = e.body_schema.iter().map(|_| body);
        for (field, schema) in e.body.iter().chain(&e.body_schema).zip(fields.chain(whole)) {
            let schema = schema.unwrap_or_else(|| panic!("{}: no request body schema", e.meta.id));
            for (key, bound) in field.constraints.all() {
                let keyword = match key {
                    "max_length" => "maxLength",
                    "min_length" => "minLength",
                    "max_items" => "maxItems",
                    "min_items" => "minItems",
                    "min" => "minimum",
                    "max" => "maximum",
                    _ => continue,
                };
                let expected = match bound {
                    Bound::Value(_, v) => *v,
                    Bound::Float(..) => unreachable!("the shipped spec has no floating-point bound"),
                    Bound::Limit { limit, offset } => {
                        let l = model.limit(&limit.id).unwrap();
                        (if key.starts_with("min") { l.lower() } else { l.upper() }).expect("a numeric limit") + offset
                    }
                    Bound::Field { .. } => {
                        assert!(schema["x-dynamic-bounds"].is_object(), "{}: run-time bound not carried", e.meta.id);
                        continue;
                    }
                };
                assert_eq!(schema[keyword], expected, "{}.{}: {keyword}", e.meta.id, field.name);
                checked += 1;
            }
        }
    }
    assert!(checked >= 2, "expected the shipped spec to constrain some request bodies");
}

/// The reference server ([`crate::common::reference_server_program`]), started on a free port
/// of 127.0.0.1; stopped when dropped.
struct ReferenceServer {
    child: std::process::Child,
    port: u16,
}

impl ReferenceServer {
    /// Time for the server to listen once started.
    const START: std::time::Duration = std::time::Duration::from_secs(120);

    fn start() -> ReferenceServer {
        let example = root().join("examples/reference_server.rs");
        let dir = root().join("examples/reference_server");
        assert!(
            example.is_file() || dir.is_dir(),
            "the reference server example (examples/reference_server) does not exist yet, so schemathesis has nothing to test"
        );
        // Ask the OS for a free port; the short window until the server binds is harmless here.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(crate::common::reference_server_program())
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .current_dir(root())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("start the reference server");
        let mut server = ReferenceServer { child, port };
        let deadline = std::time::Instant::now() + Self::START;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("the reference server exited before listening: {status}");
            }
            assert!(std::time::Instant::now() < deadline, "the reference server did not listen on 127.0.0.1:{port} within {:?}", Self::START);
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        server.port = port;
        server
    }

    /// A server URL of the document (`{base_url}` with its default) moved to this server.
    fn url(&self, default: &str) -> String {
        let rest = default.split_once("://").map_or(default, |(_, r)| r);
        let path = rest.find('/').map_or("", |i| &rest[i..]);
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for ReferenceServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Operations grouped by the server they are addressed at and the token kind to call them with
/// (the first kind their security accepts that the world has a token for):
/// `(default URL, token kind, operation ids)`.
fn operations_by_server(doc: &serde_json::Value, tokens: &std::collections::BTreeMap<String, String>) -> Vec<(String, String, Vec<String>)> {
    let default_of = |servers: &serde_json::Value| -> Option<String> {
        let s = servers.as_array()?.first()?;
        let mut url = s["url"].as_str()?.to_owned();
        for (name, var) in s["variables"].as_object()? {
            url = url.replace(&format!("{{{name}}}"), var["default"].as_str()?);
        }
        Some(url)
    };
    let top = default_of(&doc["servers"]).expect("the document names a server");
    let mut groups: Vec<(String, String, Vec<String>)> = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        let server = default_of(&item["servers"]).unwrap_or_else(|| top.clone());
        for op in item.as_object().unwrap().values().filter(|o| o["operationId"].is_string()) {
            let id = op["operationId"].as_str().unwrap().to_owned();
            let security = op.get("security").unwrap_or(&doc["security"]);
            let kind = security
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|req| req.as_object()?.keys().next().cloned())
                .find(|k| tokens.contains_key(k))
                .unwrap_or_else(|| panic!("the world file has no token that {id} accepts"));
            match groups.iter_mut().find(|(s, k, _)| *s == server && *k == kind) {
                Some((_, _, ops)) => ops.push(id),
                None => groups.push((server.clone(), kind, vec![id])),
            }
        }
    }
    groups
}

/// Runs a command with a hard time limit; returns its exit success and output.
fn run_bounded(mut cmd: Command, limit: std::time::Duration) -> (bool, String) {
    let out_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("schemathesis.log");
    let log = std::fs::File::create(&out_path).unwrap();
    let mut child = cmd.stdout(log.try_clone().unwrap()).stderr(log).spawn().expect("start schemathesis");
    let deadline = std::time::Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    match status {
        Some(s) => (s.success(), text),
        None => (false, format!("killed after {limit:?}\n{text}")),
    }
}

#[test]
fn schemathesis_finds_no_server_error_in_the_reference_server() {
    let schemathesis = tool("schemathesis");
    let doc: serde_json::Value = serde_json::from_str(&document()).unwrap();
    let server = ReferenceServer::start();
    let credentials = world_credentials();
    // Schemathesis keeps a cache in its working directory; keep it out of the checkout.
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for (default, kind, ops) in operations_by_server(&doc, &credentials) {
        let url = server.url(&default);
        let scheme = doc["components"]["securitySchemes"][&kind]["x-token-scheme"].as_str().unwrap_or_else(|| panic!("no scheme for {kind}"));
        let mut cmd = Command::new(&schemathesis);
        cmd.current_dir(work.path())
            .arg("run")
            .arg(root().join("generated/openapi.json"))
            .args(["--url", &url])
            .args(["--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"])
            // Bounded and reproducible: a fixed number of cases per operation, a fixed seed, no
            // example database between runs, one worker, no open-ended stateful phase.
            .args(["--max-examples", "50", "--seed", "20260223", "--workers", "1", "--generation-database", "none"])
            .args(["--phases", "examples,coverage,fuzzing", "--request-timeout", "10", "--no-color"])
            .args(["--header", &format!("Authorization: {scheme} {}", credentials[&kind])])
            .args(["--include-operation-id-regex", &format!("^({})$", ops.join("|"))]);
        let (ok, output) = run_bounded(cmd, std::time::Duration::from_secs(300));
        assert!(ok, "schemathesis found problems at {url} with the {kind} token ({}):\n{output}", ops.join(", "));
    }
}

/// The token of each token kind that the reference server's world file documents.
fn world_credentials() -> std::collections::BTreeMap<String, String> {
    #[derive(serde::Deserialize)]
    struct World {
        #[serde(default)]
        application: Option<Application>,
        #[serde(default)]
        credentials: Vec<Credential>,
    }
    #[derive(serde::Deserialize)]
    struct Application {
        client_token: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Credential {
        kind: String,
        token: String,
    }
    let path = root().join("examples/reference_server/world.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}: the reference server's world file documents the tokens to call it with", path.display()));
    let world: World = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = std::collections::BTreeMap::new();
    for c in world.credentials {
        out.entry(c.kind).or_insert(c.token);
    }
    // The application's own credentials authenticate it at the token endpoint.
    if let Some(token) = world.application.and_then(|a| a.client_token) {
        out.entry("client".to_owned()).or_insert(token);
    }
    out
}
