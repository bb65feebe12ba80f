//! A Cargo workspace of its own around a spec's generated crates, for a spec that lives outside
//! this repository's workspace: `platform-codegen mock` builds one to run the mock server, and
//! the tests build the imported Discord API in one.
//!
//! The crates are the standalone output ([`Layout::Standalone`]: every manifest states its
//! dependencies in full, no build scripts); this workspace's root replaces the plain one of
//! that output, to add the mock runner and the caller's members, which take their dependencies
//! from the workspace with the versions and features this repository's own workspace gives
//! them ([`DEPENDENCIES`]; a test keeps the two in step).

use super::cargo::{self, Layout};
use super::rust::shared::{crate_stem, package};
use super::{EmitOptions, GeneratedFile, emit_all};
use crate::model::Model;

/// The workspace dependencies the mock runner and the caller's members may use, as the root
/// `Cargo.toml` declares them.
pub const DEPENDENCIES: &[(&str, &str)] = &[
    ("serde", r#"{ version = "1", features = ["derive"] }"#),
    ("serde_json", r#"{ version = "1", features = ["preserve_order"] }"#),
    ("indexmap", r#"{ version = "2", features = ["serde"] }"#),
    ("jiff", r#""0.2""#),
    ("base64", r#""0.23""#),
    ("regex", r#""1""#),
    ("fancy-regex", r#""0.16""#),
    ("axum", r#"{ version = "0.8", default-features = false }"#),
    ("http-body-util", r#""0.1""#),
    ("serde_path_to_error", r#""0.1""#),
    ("serde_urlencoded", r#""0.7""#),
    ("multer", r#""3""#),
    ("futures-util", r#"{ version = "0.3", default-features = false }"#),
    ("reqwest", r#"{ version = "0.13", default-features = false }"#),
    ("tokio", r#"{ version = "1", default-features = false }"#),
    ("hyper", r#"{ version = "1", features = ["server", "http1"] }"#),
    ("hyper-util", r#"{ version = "0.1", features = ["tokio", "service"] }"#),
    ("ed25519-dalek", r#"{ version = "2", default-features = false, features = ["std", "fast", "zeroize"] }"#),
];

/// The dev profile, as the root `Cargo.toml` sets it (a test keeps the two in step): a workspace
/// built into the repository's target directory (the Discord tests) then reuses the dependencies
/// the repository already compiled, since Cargo keys compiled crates by their profile too. Line
/// tables keep backtraces readable at a fraction of full debug info's size, and build scripts
/// (which link the generator) share the normal profile so the generator is compiled once.
pub const PROFILES: &str = "[profile.dev]\ndebug = \"line-tables-only\"\n\n[profile.dev.build-override]\ndebug = \"line-tables-only\"\n";

/// How the workspace is put together.
#[derive(Clone, Debug, Default)]
pub struct WorkspaceOptions {
    /// Further members, by path relative to the workspace (a test crate the caller adds).
    pub members: Vec<String>,
    /// Whether to add `mock-server/`, a binary serving the mock on the address it is given.
    pub mock_runner: bool,
}

/// The files of the workspace: its manifest, every artifact of the spec (the crates in
/// `types/`, `server/`, `client/`, `sdk/`), and the mock runner when asked for.
pub fn workspace(model: &Model, opts: &EmitOptions, ws: &WorkspaceOptions) -> Vec<GeneratedFile> {
    let opts = EmitOptions { layout: Layout::Standalone, ..opts.clone() };
    let mut files = emit_all(model, &opts);
    files.retain(|f| f.path != "Cargo.toml");
    let mut members: Vec<String> = cargo::CRATES.iter().map(|s| (*s).to_owned()).collect();
    if ws.mock_runner {
        members.push("mock-server".to_owned());
        files.extend(mock_runner(model, &opts.notice()));
    }
    members.extend(ws.members.iter().cloned());
    files.push(GeneratedFile::new(cargo::ARTIFACT, "Cargo.toml", manifest(&members, &opts.notice())));
    files
}

fn manifest(members: &[String], notice: &str) -> String {
    let members: Vec<String> = members.iter().map(|m| format!("{m:?}")).collect();
    let deps: String = DEPENDENCIES.iter().map(|(name, spec)| format!("{name} = {spec}\n")).collect();
    format!(
        "# {notice}\n\n[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n[workspace.package]\nedition = \"2024\"\nversion = \"0.1.0\"\nlicense = \"MIT OR Apache-2.0\"\nrust-version = \"1.85\"\npublish = false\n\n[workspace.dependencies]\n{deps}\n{PROFILES}",
        members.join(", ")
    )
}

/// `mock-server/`: `cargo run -p <stem>-mock-server -- 127.0.0.1:8080` serves the mock.
///
/// The runner serves each connection through hyper's HTTP/1 builder with a request-head timeout
/// rather than through `axum::serve`, which sets no timer on its connections: a client sending
/// its head a byte at a time would hold a connection for as long as it liked. The router itself
/// bounds the wait for a request body (`Options::body_timeout`).
fn mock_runner(model: &Model, notice: &str) -> Vec<GeneratedFile> {
    let server = package(model, "server");
    let runner = mock_runner_package(model);
    let server_lib = server.replace('-', "_");
    // The gateways a session client can speak are served too, each under a path of its own that
    // no HTTP route of a spec takes.
    let gateways: Vec<_> = model.gateways.iter().filter(|g| g.is_sessionable()).collect();
    let features = if gateways.is_empty() { "\"mock\"" } else { "\"mock\", \"gateway\"" };
    let manifest = format!(
        "# {notice}\n\n[package]\nname = {runner:?}\ndescription = \"Serves the mock implementation of the spec's server\"\nedition.workspace = true\nversion.workspace = true\nlicense.workspace = true\npublish.workspace = true\n\n[dependencies]\n{server} = {{ path = \"../server\", features = [{features}] }}\nhyper.workspace = true\nhyper-util.workspace = true\ntokio = {{ workspace = true, features = [\"rt-multi-thread\", \"macros\", \"net\", \"time\"] }}\n"
    );
    let mut nests = String::new();
    for g in &gateways {
        let stem = crate::plan::rust::names::gateway_fn(g).to_string();
        let stem = stem.trim_start_matches("r#");
        let path = format!("{MOCK_GATEWAYS}/{}", g.meta.id);
        nests.push_str(&format!("\n        .nest({path:?}, {server_lib}::mock::gateway_{stem}().router())"));
    }
    let announce: String = gateways
        .iter()
        .map(|g| format!("\n    eprintln!(\"mock gateway `{}` at ws://{{}}{MOCK_GATEWAYS}/{}\", listener.local_addr()?);", g.meta.id, g.meta.id))
        .collect();
    let main = RUNNER_MAIN.replace("{server_lib}", &server_lib).replace("{nests}", &nests).replace("{announce}", &announce);
    let main = format!("// {notice}\n\n{main}");
    vec![GeneratedFile::new("mock", "mock-server/Cargo.toml", manifest), GeneratedFile::new("mock", "mock-server/src/main.rs", main)]
}

/// Where the mock runner serves each gateway: `/_mock/gateways/<id>`.
pub const MOCK_GATEWAYS: &str = "/_mock/gateways";

/// The package name of the mock runner (`platform-mock-server`).
pub fn mock_runner_package(model: &Model) -> String {
    format!("{}-mock-server", crate_stem(model).replace('_', "-"))
}

/// The runner's `main.rs`, with `{server_lib}` standing for the server crate's library name.
const RUNNER_MAIN: &str = r#"//! Serves the mock of the spec's server on the address given (`127.0.0.1:8080` by default).

use std::time::Duration;

/// How long a connection may take to send a request head before it is closed.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listen = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8080".to_owned());
    let listener = tokio::net::TcpListener::bind(&listen).await?;
    eprintln!("mock server listening on http://{}", listener.local_addr()?);{announce}
    let router = {server_lib}::mock::router(){nests};
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors or a connection reset before it was accepted: the listener
            // itself is fine; wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT);
            // A connection that fails (reset, timed out, malformed head) concerns that client only.
            let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).with_upgrades().await;
        });
    }
}
"#;
