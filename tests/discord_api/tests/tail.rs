//! `gateway-tail` (the binary beside these tests, which `scripts/gateway-tail` builds) against
//! the generated gateway hub: one JSON line per dispatch in order, READY, unknown and
//! undecodable events included; a resume after a dropped connection; a fatal close ending it
//! with its code.

use discord_server::gateways::{self as server, Cause, Hub, Options, Sessions};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Platform;

impl Sessions for Platform {
    async fn identify(&self, data: &RawValue) -> Result<Value, Cause> {
        let data: Value = serde_json::from_str(data.get()).map_err(|_| Cause::DecodeError)?;
        match data["token"].as_str() {
            Some("secret") => Ok(json!({ "v": 10, "user": { "id": "1", "username": "tail", "avatar": null, "discriminator": "0", "public_flags": 0, "flags": 0, "global_name": null }, "guilds": [], "application": { "id": "1" } })),
            _ => Err(Cause::AuthenticationFailed),
        }
    }

    async fn command(&self, _session: &str, _opcode: u8, _data: &RawValue) -> Result<Option<(String, Value)>, Cause> {
        Err(Cause::UnknownOpcode)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tail_prints_each_dispatch_once_in_order_and_exits_on_a_fatal_close() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("ws://{}", listener.local_addr().expect("an address"));
    let hub: Hub<Platform> = server::gateway(Platform, Options { resume_url: Some(url.clone()), ..Options::default() });
    let router = hub.router();
    tokio::spawn(async move { axum::serve(listener, router).await });

    let mut tail = Command::new(env!("CARGO_BIN_EXE_gateway-tail"))
        .args(["--url", &url, "--token", "secret", "--intents", "33281"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tail starts");
    let (tx, lines) = mpsc::channel::<String>();
    let stdout = tail.stdout.take().expect("stdout");
    std::thread::spawn(move || BufReader::new(stdout).lines().map_while(Result::ok).for_each(|l| drop(tx.send(l))));
    let next = move || {
        let line = lines.recv_timeout(Duration::from_secs(30)).expect("a line within 30 s");
        serde_json::from_str::<Value>(&line).unwrap_or_else(|e| panic!("`{line}` is no JSON: {e}"))
    };

    let ready = next();
    assert_eq!((ready["t"].as_str(), ready["s"].as_u64()), (Some("READY"), Some(1)));
    assert!(ready["d"]["session_id"].is_string());
    hub.dispatch("SOMETHING_NEW", &json!({ "x": [1] }));
    hub.dispatch("MESSAGE_CREATE", &json!({ "id": "not a message" }));
    assert_eq!(next(), json!({ "t": "SOMETHING_NEW", "s": 2, "d": { "x": [1] } }));
    assert_eq!(next(), json!({ "t": "MESSAGE_CREATE", "s": 3, "d": { "id": "not a message" } }), "undecodable, printed as it came");

    hub.drop_connections();
    hub.dispatch("TYPING_START", &json!({ "channel_id": "7", "user_id": "2", "timestamp": 1 }));
    assert_eq!(next()["s"], 4, "the event dispatched while the tail was away, after the resume");
    assert_eq!(next()["t"], "RESUMED");

    hub.close_all(4004);
    let mut stderr = tail.stderr.take().expect("stderr");
    let (status, stderr) = tokio::task::spawn_blocking(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).expect("UTF-8");
        (tail.wait().expect("the tail exits"), text)
    })
    .await
    .expect("joins");
    assert_eq!(status.code(), Some(1), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.contains("4004"), "the last line names the close code: {last}");
}

#[test]
fn the_tail_explains_its_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_gateway-tail")).args(["--url"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let mut stderr = String::new();
    out.stderr.as_slice().read_to_string(&mut stderr).expect("UTF-8");
    assert!(stderr.contains("usage: gateway-tail --url"), "{stderr}");
}
