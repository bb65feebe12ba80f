//! The reference server: the generated router over an in-memory platform that acts out the
//! seed's behaviour, for trying the client, the docs' examples or schemathesis against.
//!
//! ```text
//! cargo run --example reference_server -- --listen 127.0.0.1:8080
//! cargo run --example reference_server -- --listen 127.0.0.1:8080 --world my-world.yaml --now 2026-11-16T00:00:00Z
//! ```
//!
//! The HTTP API is under `/api` and the authorization server at the root
//! (`/oauth2/token`, `/.well-known/oauth-authorization-server`). `--now` fixes the clock, so
//! dated changes can be tried on either side of their date. The default world and its tokens are
//! documented in `examples/reference_server/world.yaml`.
//!
//! `--mock` serves the generated mock instead of the reference platform
//! (`platform_server::mock::router_with`): it accepts every credential and answers each
//! endpoint's first success with example values, keeps no state, and is served with the same
//! options (placeholders at the served origin, `--body-timeout-ms`, `--now`), the same reference
//! page and the same connection loop with its head timeout; `--world` does not apply to it.
//! `scripts/load.sh` drives either server.
//!
//! ```text
//! cargo run --example reference_server -- --mock --listen 127.0.0.1:8080
//! ```

// The tests share this module and use more of it (revoking a user, reading a stored status).
#[allow(dead_code)]
mod reference;

use clap::Parser;
use platform_server::types::clock::FixedClock;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Serves the reference platform (or the generated mock) over HTTP.
#[derive(Parser)]
#[command(name = "reference_server")]
struct Args {
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// A world file to start from, instead of the built-in one.
    #[arg(long)]
    world: Option<PathBuf>,
    /// Fix the clock at this RFC 3339 instant (for example `2026-11-16T00:00:00Z`).
    #[arg(long)]
    now: Option<String>,
    /// Close a connection whose request head has not arrived within this many milliseconds.
    #[arg(long, default_value_t = 30_000)]
    header_timeout_ms: u64,
    /// Answer 408 to a request whose body has not arrived within this many milliseconds.
    #[arg(long, default_value_t = 30_000)]
    body_timeout_ms: u64,
    /// Serve the generated mock instead of the reference platform.
    #[arg(long, conflicts_with = "world")]
    mock: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    match run(Args::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), String> {
    let platform = if args.mock {
        None
    } else {
        let world = match &args.world {
            Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
            None => reference::DEFAULT_WORLD.to_owned(),
        };
        Some(Arc::new(reference::Reference::from_yaml(&world)?))
    };
    let now = args.now.as_deref().map(FixedClock::parse).transpose().map_err(|e| format!("--now: {e}"))?;
    let listener = tokio::net::TcpListener::bind(args.listen).await.map_err(|e| format!("{}: {e}", args.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let origin = format!("http://{address}");
    let body_timeout = Duration::from_millis(args.body_timeout_ms);
    let (what, router) = match platform {
        Some(platform) => ("the reference platform", reference::router_with_body_timeout(platform, &origin, now, body_timeout)),
        None => ("the mock", reference::mock_router(&origin, now, body_timeout)),
    };
    println!("listening on {origin} ({what}; HTTP API at {origin}/api, token endpoint at {origin}/oauth2/token)");
    serve(listener, router, Duration::from_millis(args.header_timeout_ms)).await
}

/// Serves HTTP/1.1 connections, closing one whose request head is slower than `header_timeout`.
/// `axum::serve` sets no timer on its connections, so a client sending its head a byte at a time
/// would hold a connection open for as long as it likes.
async fn serve(listener: tokio::net::TcpListener, router: axum::Router, header_timeout: Duration) -> Result<(), String> {
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
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
            builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(header_timeout);
            // A connection that fails (reset, timed out, malformed head) concerns that client only.
            let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).with_upgrades().await;
        });
    }
}
