//! `gateway-tail --url ws://HOST:PORT --token TOKEN [--intents N]`: the generated shard of
//! Discord's Gateway v10, run against any gateway. Every dispatch it receives (READY, and events
//! the spec does not name or whose payload does not decode, included) is one JSON line
//! `{"t": ..., "s": ..., "d": ...}` on stdout, in order, as the gateway sent it; what happens to
//! the session goes to stderr. A fatal close ends it with exit status 1 and the close code in
//! the last line on stderr; an address it cannot use, with status 2.

use discord_client::gateways::{self, Received, ShardError};
use discord_client::types::gateway::IdentifyPayload;
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: gateway-tail --url ws://HOST:PORT --token TOKEN [--intents N]";

struct Args {
    url: String,
    token: String,
    intents: u64,
}

fn args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let (mut url, mut token, mut intents) = (None, None, None);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("`{flag}` needs a value"))?;
        match flag.as_str() {
            "--url" => url = Some(value),
            "--token" => token = Some(value),
            "--intents" => intents = Some(value.parse::<u64>().map_err(|_| format!("`--intents {value}` is no number"))?),
            _ => return Err(format!("unknown argument `{flag}`")),
        }
    }
    // Without --intents: every intent that needs no approval, and MESSAGE_CONTENT, which a
    // tail of messages is for.
    let all = (1 << 0) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15);
    Ok(Args { url: url.ok_or("`--url` is required")?, token: token.ok_or("`--token` is required")?, intents: intents.unwrap_or(all) })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = match args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let identify = json!({
        "token": args.token,
        "properties": { "os": std::env::consts::OS, "browser": "gateway-tail", "device": "gateway-tail" },
        "intents": args.intents,
    });
    let identify: IdentifyPayload = match serde_json::from_value(identify) {
        Ok(identify) => identify,
        Err(e) => {
            eprintln!("the identify payload does not build: {e}");
            return ExitCode::from(2);
        }
    };
    let mut shard = match gateways::gateway(args.url, &identify) {
        Ok(shard) => shard,
        Err(e) => {
            eprintln!("the identify payload does not serialize: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    while let Some(item) = shard.next().await {
        match item {
            Ok(Received::Dispatch(d)) => {
                let name = serde_json::to_string(&d.name).unwrap_or_else(|_| "null".to_owned());
                let sequence = d.sequence.map_or_else(|| "null".to_owned(), |s| s.to_string());
                if writeln!(out, "{{\"t\":{name},\"s\":{sequence},\"d\":{}}}", d.data().get()).and_then(|()| out.flush()).is_err() {
                    // Whoever read stdout is gone.
                    return ExitCode::SUCCESS;
                }
                if let Err(e) = &d.event {
                    eprintln!("event {} #{sequence} does not decode: {e}", d.name);
                }
            }
            Ok(Received::Session(event)) => eprintln!("session: {event:?}"),
            Err(ShardError::Fatal { code, name }) => {
                eprintln!("fatal close {code} ({name})");
                return ExitCode::from(1);
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}
