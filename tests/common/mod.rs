//! Shared by the tests that talk to the reference server over 127.0.0.1: start it, name its
//! tokens, make clients and raw requests.

// Each test binary uses a different part of these helpers and of the reference module.
#![allow(dead_code)]

#[path = "../../examples/reference_server/reference.rs"]
pub mod reference;

use platform_client::Client;
use platform_client::types::auth::Credential;
use platform_client::types::clock::FixedClock;
use platform_client::types::errors::ErrorBody;
use platform_client::types::placeholders::Placeholders;
use reference::{DEFAULT_WORLD, Reference};
use std::sync::Arc;
use std::time::Duration;

/// The tokens of the default world (`examples/reference_server/world.yaml`).
pub mod tokens {
    pub const BOT: &str = "bot-token";
    pub const ALICE: &str = "alice-token";
    pub const BOB: &str = "bob-token";
    pub const MANAGER: &str = "manager-token";
    /// `base64("9001:reference-secret")`.
    pub const CLIENT: &str = "OTAwMTpyZWZlcmVuY2Utc2VjcmV0";
}

/// A reference server listening on 127.0.0.1 for the duration of one test.
pub struct Server {
    /// `http://127.0.0.1:<port>`.
    pub origin: String,
    /// The addresses clients use.
    pub placeholders: Placeholders,
    /// The platform behind the router, to look at or change between requests.
    pub platform: Arc<Reference>,
    /// A plain HTTP client for raw requests.
    pub http: reqwest::Client,
}

impl Server {
    /// Starts a server on a free port, with the clock fixed at `now` (RFC 3339) when given.
    pub async fn start(now: Option<&str>) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
        let origin = format!("http://{}", listener.local_addr().expect("local address"));
        let platform = Arc::new(Reference::from_yaml(DEFAULT_WORLD).expect("the default world loads"));
        let clock = now.map(|t| FixedClock::parse(t).expect("an RFC 3339 instant"));
        let router = reference::router(platform.clone(), &origin, clock);
        tokio::spawn(async move { axum::serve(listener, router).await.expect("the server runs") });
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().expect("an HTTP client");
        let placeholders = Placeholders::at_origin(&origin);
        Server { origin, placeholders, platform, http }
    }

    /// A generated client presenting `credential`.
    pub fn client(&self, credential: Credential) -> Client {
        Client::with_http(self.http.clone(), self.placeholders.clone()).with_credential(credential)
    }

    /// The URL of an HTTP API path (`/lobbies`).
    pub fn api(&self, path: &str) -> String {
        format!("{}{path}", self.placeholders.base_url)
    }

    /// The URL of an authorization server path (`/oauth2/token`).
    pub fn auth(&self, path: &str) -> String {
        format!("{}{path}", self.placeholders.auth_url)
    }
}

/// A raw answer: status, error body when it is one, and the text.
#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub text: String,
}

impl Raw {
    /// Sends a request built by `build` and reads the whole answer.
    pub async fn send(request: reqwest::RequestBuilder) -> Raw {
        let response = request.send().await.expect("the request is answered");
        let status = response.status().as_u16();
        let text = response.text().await.expect("the body is read");
        Raw { status, text }
    }

    /// The error body, asserting the answer is a 4xx that carries one.
    pub fn error(&self) -> ErrorBody {
        assert!((400..500).contains(&self.status), "expected a 4xx, got {}: {}", self.status, self.text);
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not an error body ({e}): {}", self.text))
    }

    /// The violations of an error body, as `(pointer, message)`.
    pub fn violations(&self) -> Vec<(String, String)> {
        let errors = self.error().errors.unwrap_or_else(|| serde_json::Value::Array(Vec::new()));
        let list: Vec<platform_client::types::validation::Violation> = serde_json::from_value(errors).expect("violations");
        list.into_iter().map(|v| (v.pointer, v.message)).collect()
    }
}

/// The reference server's program, as a separate process: `PLATFORM_REFERENCE_SERVER` when the
/// test command names the one its workspace build made; else built now with the workspace's
/// features (`cargo build --workspace --example reference_server`), which waits for the
/// target directory's lock while another build holds it.
pub fn reference_server_program() -> std::path::PathBuf {
    if let Some(program) = std::env::var_os("PLATFORM_REFERENCE_SERVER") {
        let program = std::path::PathBuf::from(program);
        assert!(program.is_file(), "PLATFORM_REFERENCE_SERVER names {}, which is no file", program.display());
        return program;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let built = std::process::Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--workspace", "--example", "reference_server"])
        .args(platform_specgen::harness::Clippy::inherited_args())
        .current_dir(root)
        .status()
        .expect("cargo runs");
    assert!(built.success(), "cargo build --example reference_server failed");
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile = exe.ancestors().nth(2).expect("the test binary lives in target/<profile>/deps");
    profile.join("examples").join(format!("reference_server{}", std::env::consts::EXE_SUFFIX))
}
