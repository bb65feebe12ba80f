//! A sample of the import corpus through every crate: DigitalOcean's multi-file document,
//! Oxide's and the two largest of Twilio's are imported, generated as a Cargo workspace of their
//! own (the standalone output with the generator's `emit::workspace` root) under
//! `target/scratch/sample/`, and each workspace's crates (runtime, types, server, client, SDK)
//! build with clippy's lints, warnings denied. Discord's crates are built, tested and served by
//! `discord_api.rs`.
//!
//! Each workspace also holds a small crate beside the generated ones, whose test serves
//! the generated mock over 127.0.0.1 and runs schemathesis against it, driven by the exported
//! document, with positive-data acceptance: no server error, every request the document allows
//! accepted, every response as declared. Oxide's also pages through a paginated endpoint
//! (`x-dropshot-pagination`) with the generated client: every item arrives once. `schemathesis`
//! comes from PATH (the test command puts `.venv/bin` first); the test fails when it is missing.
//!
//! One build per document is both the clippy run and the check's build (clippy-driver as the
//! workspace's wrapper, as `cargo clippy` runs it), so each generated crate compiles once. The
//! builds use this run's target directory and the repository's lock file and dev profile (as the
//! Discord crates' do), so the dependencies the workspace already compiled are reused.

use platform_codegen::emit::EmitOptions;
use platform_codegen::emit::workspace::{WorkspaceOptions, workspace};
use platform_codegen::files::{self, Mode};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ is in the workspace")
}

/// The documents of the sample, by name.
/// DigitalOcean's first: its mock's check is the longest, and runs while the others build.
const SAMPLE: &[(&str, &str)] = &[
    ("digitalocean", "digitalocean/specification/DigitalOcean-public.v2.yaml"),
    ("oxide", "oxide/nexus.json"),
    ("twilio_conversations_v1", "twilio/twilio_conversations_v1.json"),
    ("twilio_taskrouter_v1", "twilio/twilio_taskrouter_v1.json"),
];

#[test]
fn a_sample_of_the_corpus_generates_crates_that_are_clippy_clean_and_mocks_that_pass_schemathesis() {
    let schemathesis = tool("schemathesis");
    let mut failures = Vec::new();
    // Each sample's check runs while the next one builds: the check is mostly schemathesis
    // (Python), the build mostly one crate's codegen, and the two share the cores better than
    // either alone uses them.
    let mut checks = Vec::new();
    for (name, document) in SAMPLE {
        let out = generate(name, document, &schemathesis);
        // Every member's library and the check's test, linted (the generated crates have no
        // unit tests of their own).
        let built = cargo(&out, &["test", "--workspace", "--no-run", "--message-format=json"]);
        if !built.status.success() {
            let output = format!("{}{}", String::from_utf8_lossy(&built.stdout), String::from_utf8_lossy(&built.stderr));
            failures.push(format!("the crates generated from {name} are not clippy-clean, or their check does not build:\n{output}"));
            continue;
        }
        let log = out.join("check.log");
        let file = std::fs::File::create(&log).unwrap();
        let child = Command::new(test_executable(&built.stdout)).stdout(file.try_clone().unwrap()).stderr(file).spawn().expect("the check runs");
        checks.push((name, out, child, log));
    }
    for (name, out, mut child, log) in checks {
        if child.wait().expect("the check ends").success() {
            let _ = std::fs::remove_dir_all(&out);
        } else {
            let output = std::fs::read_to_string(&log).unwrap_or_default();
            failures.push(format!("the check of the crates generated from {name} fails (log: {}):\n{output}", log.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Imports `document` and generates its workspace, with the check crate as a member, under the
/// scratch directory; returns where.
fn generate(name: &str, document: &str, schemathesis: &Path) -> PathBuf {
    let path = root().join("tests/data/openapi").join(document);
    let imported = platform_codegen::import::import_openapi(&path, document).unwrap_or_else(|e| panic!("{name} does not import: {e:?}"));
    let spec = tempfile::tempdir().unwrap();
    files::sync(spec.path(), &imported.files, Mode::Write).unwrap();
    let loaded = platform_codegen::load_spec(spec.path(), "spec").unwrap_or_else(|e| panic!("the spec imported from {name} is invalid: {e:?}"));
    let out = platform_specgen::harness::test_scratch_target().join("sample").join(name);
    let _ = std::fs::remove_dir_all(&out);
    let options = WorkspaceOptions { members: vec![CHECK.to_owned()], mock_runner: false };
    let generated = workspace(&loaded.model, &EmitOptions::default(), &options);
    files::sync(&out, &generated, Mode::Write).unwrap();
    std::fs::copy(root().join("Cargo.lock"), out.join("Cargo.lock")).unwrap();
    write_check(&out, &loaded.model, name == "oxide", schemathesis);
    out
}

/// The check's test executable, as Cargo reports it in `--message-format=json` output.
fn test_executable(messages: &[u8]) -> PathBuf {
    let executables: Vec<PathBuf> = String::from_utf8_lossy(messages)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["target"]["name"] == "check")
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .collect();
    assert_eq!(executables.len(), 1, "the check crate has one test executable");
    executables.into_iter().next().unwrap()
}

/// A tool from PATH (the test command puts the repository's `.venv/bin` first); missing, the
/// test fails and says how to install it.
fn tool(name: &str) -> PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()));
    on_path.unwrap_or_else(|| panic!("`{name}` is not installed: run `./scripts/test.sh`, which installs it into `.venv`"))
}

/// The directory of the crate that checks the generated mock.
const CHECK: &str = "sample-check";

/// A member of the generated workspace whose test serves the generated mock over 127.0.0.1 and
/// runs schemathesis, driven by the exported document, against it: no server error, every
/// request the document allows accepted (`positive_data_acceptance`), every response as declared. For Oxide it also pages through
/// `disk_list_v1` (paginated by `x-dropshot-pagination`) with the generated client.
fn write_check(out: &Path, model: &platform_codegen::model::Model, paging: bool, schemathesis: &Path) {
    use platform_codegen::plan::idents::{lib_ident, package};
    let dir = out.join(CHECK);
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    let (server, client) = (package(model, "server"), package(model, "client"));
    let client_dependency = if paging { format!("{client} = {{ path = \"../client\" }}\n") } else { String::new() };
    // Axum's and Tokio's features are the ones the repository's workspace compiles them with,
    // so the target directory's builds of them are reused.
    let manifest = format!(
        r#"[package]
name = "sample-check"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
{client_dependency}{server} = {{ path = "../server", features = ["mock"] }}
axum = {{ workspace = true, features = ["tokio", "http1"] }}
tokio = {{ workspace = true, features = ["rt-multi-thread", "macros", "net", "io-util", "time", "test-util"] }}
"#
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let document = out.join("openapi.json");
    let config = out.join("schemathesis.toml");
    std::fs::write(&config, schemathesis_config(&document)).unwrap();
    let args = schemathesis_args(&document, &config);
    let server_lib = lib_ident(model, "server").to_string();
    let mut test = format!(
        r#"async fn serve() -> String {{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{{}}", listener.local_addr().unwrap());
    tokio::spawn(async move {{ axum::serve(listener, {server_lib}::mock::router()).await.unwrap() }});
    origin
}}

#[tokio::test(flavor = "multi_thread")]
async fn schemathesis_finds_no_server_error_no_refused_valid_request_and_no_undeclared_response() {{
    let origin = serve().await;
    let run = move || std::process::Command::new({schemathesis:?}).args({args:?}).args(["--url", &origin]).output();
    let output = tokio::task::spawn_blocking(run).await.unwrap().expect("schemathesis runs");
    let log = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "schemathesis found problems in the mock:\n{{log}}");
}}
"#
    );
    if paging {
        let client_lib = lib_ident(model, "client").to_string();
        test.push_str(&format!(
            r#"
#[tokio::test]
async fn every_disk_arrives_once_through_the_stream_of_pages() {{
    use {client_lib}::TryStreamExt;
    use {client_lib}::types::endpoints::disk_list_v1;
    let client = {client_lib}::Client::new({client_lib}::types::placeholders::Placeholders::at_origin(&serve().await));
    let pages: Vec<_> = client.disk_list_v1_pages(disk_list_v1::Request::default().limit(10u32)).try_collect().await.unwrap();
    assert_eq!(pages.iter().map(|p: &disk_list_v1::Success| p.items.len()).collect::<Vec<_>>(), [10, 10, 5]);
    assert!(pages.last().unwrap().next_page.value().is_none(), "the last page names no next one");
    let disks: Vec<_> = client.disk_list_v1_stream(disk_list_v1::Request::default()).try_collect().await.unwrap();
    let ids: std::collections::BTreeSet<_> = disks.iter().map(|d| d.id).collect();
    let items = {client_lib}::types::pagination::MOCK_ITEMS;
    assert_eq!((disks.len(), ids.len()), (items, items), "every disk once");
}}
"#
        ));
    }
    std::fs::write(dir.join("tests/check.rs"), test).unwrap();
}

/// Schemathesis's arguments for `document`: every check on responses and positive-data
/// acceptance, bounded and reproducible (few cases per operation, a fixed seed, no example
/// database, no stateful phase, one worker), and a credential of each scheme the document
/// declares (the mock accepts any). One worker: with two, Python 3.11's `ast` module, which
/// Hypothesis uses from both threads, now and then fails with "AST constructor recursion depth
/// mismatch" on Oxide's deepest schema (a runtime error of the tool, not a finding), and on a
/// busy machine one worker was also the faster (38 s against 54 s for Oxide).
fn schemathesis_args(document: &Path, config: &Path) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(document).expect("the exported document")).expect("JSON");
    let mut args: Vec<String> = ["--config-file", &config.display().to_string(), "run", &document.display().to_string()].map(str::to_owned).to_vec();
    let checks =
        "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,positive_data_acceptance";
    args.extend(["--checks", checks, "--max-examples", "10", "--seed", "20260718", "--workers", "1", "--generation-database", "none"].map(str::to_owned));
    args.extend(["--phases", "examples,fuzzing", "--request-timeout", "10", "--no-color"].map(str::to_owned));
    let schemes: Vec<&serde_json::Value> = doc["components"]["securitySchemes"].as_object().into_iter().flat_map(|m| m.values()).collect();
    if schemes.iter().any(|s| s["type"] == "http" && s["scheme"].as_str().is_some_and(|w| w.eq_ignore_ascii_case("basic"))) {
        args.extend(["--auth", "mock:token"].map(str::to_owned));
    } else {
        args.extend(["--header", "Authorization: Bearer mock-token"].map(str::to_owned));
    }
    args
}

/// Schemathesis's configuration for `document`: a request the document allows must be answered
/// with a success, or by an operation that declares none (an endpoint retired with `410 Gone`,
/// which says every request is answered so), with one of the statuses it declares. The other
/// statuses are the ones schemathesis accepts by default (a request it makes up may name a
/// resource that does not exist, or be refused a credential).
fn schemathesis_config(document: &Path) -> String {
    const ACCEPTED: &[&str] = &["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"];
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(document).expect("the exported document")).expect("JSON");
    let mut config = String::new();
    let operations = doc["paths"].as_object().into_iter().flat_map(|paths| paths.values()).filter_map(|item| item.as_object()).flat_map(|item| item.values());
    for operation in operations {
        let (Some(id), Some(responses)) = (operation["operationId"].as_str(), operation["responses"].as_object()) else { continue };
        let succeeds = responses.keys().any(|status| status.starts_with('2') || status.starts_with('3'));
        let declared: Vec<&str> = responses
            .keys()
            .map(String::as_str)
            .filter(|s| s.len() == 3 && s.starts_with('4') && !ACCEPTED.contains(s) && *s != "400" && *s != "422")
            .collect();
        if succeeds || declared.is_empty() {
            continue;
        }
        let statuses: Vec<String> = ACCEPTED.iter().chain(&declared).map(|s| format!("{s:?}")).collect();
        config.push_str(&format!(
            "[[operations]]\ninclude-operation-id = {id:?}\nchecks.positive_data_acceptance.expected-statuses = [{}]\n\n",
            statuses.join(", ")
        ));
    }
    config
}

/// Cargo in `dir`, building into this run's target directory with clippy's lints, warnings
/// denied (`platform_specgen::harness::Clippy::cargo`).
fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    platform_specgen::harness::Clippy::cargo(dir, &platform_specgen::harness::test_target(), args).output().expect("cargo runs")
}
