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

// The tests share this module and use more of it (revoking a user, reading a stored status).
#[allow(dead_code)]
mod reference;

use clap::Parser;
use platform_server::types::clock::FixedClock;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Serves the reference platform over HTTP.
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
    let world = match &args.world {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
        None => reference::DEFAULT_WORLD.to_owned(),
    };
    let platform = Arc::new(reference::Reference::from_yaml(&world)?);
    let now = args.now.as_deref().map(FixedClock::parse).transpose().map_err(|e| format!("--now: {e}"))?;
    let listener = tokio::net::TcpListener::bind(args.listen).await.map_err(|e| format!("{}: {e}", args.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let origin = format!("http://{address}");
    println!("listening on {origin} (HTTP API at {origin}/api, token endpoint at {origin}/oauth2/token)");
    axum::serve(listener, reference::router(platform, &origin, now)).await.map_err(|e| e.to_string())
}
