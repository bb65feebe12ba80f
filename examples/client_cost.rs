//! The generated client's cost per call with its rate limiter and without, the driver
//! `scripts/bench.sh` runs under callgrind.
//!
//! ```text
//! cargo run --release --example client_cost -- <limited|plain|none> <calls>
//! ```
//!
//! The shapes fixture's generated mock serves on 127.0.0.1 in the same process, on a
//! current-thread runtime, and the shapes client calls `GET /notes/{note.id}` `calls` times,
//! one after another: `limited` with the spec's rate limits (each call waits for its turn in
//! the limiter, which reads the answer's rate-limit headers), `plain` with none. The mock's
//! budget is never spent, so no call waits. `none` starts the same server and client and makes
//! no call, so subtracting its count leaves the calls alone, server side included; the
//! difference between `limited` and `plain` is the limiter's cost per call.

use shapes_client::types::auth::Credential;
use shapes_client::types::endpoints::get_note;
use shapes_client::types::placeholders::Placeholders;
use shapes_client::types::wire::Snowflake;
use shapes_server::mock::Budget;
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(side), Some(calls)) = (args.first(), args.get(1).and_then(|n| n.parse::<u64>().ok())) else {
        eprintln!("usage: client_cost <limited|plain|none> <calls>");
        return ExitCode::from(2);
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let done = runtime.block_on(async {
        let budget = Budget { requests: u32::MAX, per: Duration::from_secs(3600) };
        let (router, _) = shapes_server::mock::router_limited(Default::default(), budget);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
        let origin = format!("http://{}", listener.local_addr().expect("an address"));
        tokio::spawn(async move { axum::serve(listener, router).await });
        let client = shapes_client::Client::new(Placeholders::at_origin(&origin)).with_credential(Credential::bot("bench"));
        let client = match side.as_str() {
            "limited" | "none" => client,
            "plain" => client.with_rate_limits(None),
            _ => return Err(format!("unknown side `{side}`")),
        };
        let calls = if side == "none" { 0 } else { calls };
        let request = get_note::Request::new(Snowflake(1));
        for _ in 0..calls {
            client.send(&request).await.map_err(|e| e.to_string())?;
        }
        Ok(calls)
    });
    match done {
        Ok(calls) => {
            println!("{side}: {calls} calls");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
