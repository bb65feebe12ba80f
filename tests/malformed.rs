//! Malformed requests, sent raw to the reference server: bad JSON, wrong types, missing fields,
//! oversized bodies, bad path ids, missing or unknown credentials. Every answer is a 4xx with the
//! JSON error body, never a 5xx.

use crate::common;

use common::{Raw, Server};
use proptest::prelude::*;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const BOT: &str = "Bot bot-token";

/// Asserts a 4xx with the error body and the given status and code.
fn assert_error(raw: &Raw, status: u16, code: i64) {
    let body = raw.error();
    assert_eq!((raw.status, body.code), (status, code), "{}", raw.text);
    assert!(!body.message.is_empty(), "the body says what is wrong: {}", raw.text);
}

#[tokio::test]
async fn bodies_that_are_not_json_are_50109() {
    let server = Server::start(None).await;
    for body in ["{", "", "nul", "{\"status\": \"a\"} trailing", "\u{0}"] {
        let raw = Raw::send(server.http.put(server.api("/channels/12/voice-status")).header("authorization", BOT).body(body)).await;
        assert_error(&raw, 400, 50109);
    }
    let raw = Raw::send(server.http.put(server.api("/channels/12/voice-status")).header("authorization", BOT).body(vec![0xff, 0xfe, b'{'])).await;
    assert_error(&raw, 400, 50109);
    let deep = format!(r#"[{{"id": "1", "metadata": {}}}]"#, "[".repeat(100_000));
    let raw = Raw::send(server.http.post(server.api("/lobbies/1/members/bulk")).header("authorization", BOT).body(deep)).await;
    assert_error(&raw, 400, 50109);
}

#[tokio::test]
async fn wrong_types_and_missing_fields_are_50035_at_their_pointer() {
    let server = Server::start(None).await;
    let cases: [(&str, &str, &str); 6] = [
        ("/channels/12/voice-status", r#"{"status": 5}"#, "/body/status"),
        ("/lobbies/1/members/bulk", r#"[{"id": "1", "remove_member": null}]"#, "/body/0/remove_member"),
        ("/channels/12/voice-status", "{}", "/body"),
        ("/channels/12/voice-status", "[]", "/body"),
        ("/lobbies/1/members/bulk", r#"{"id": "1"}"#, "/body"),
        ("/lobbies/1/members/bulk", r#"[{"id": "1"}, {"id": "abc"}]"#, "/body/1/id"),
    ];
    for (path, body, pointer) in cases {
        let method = if path.ends_with("bulk") { reqwest::Method::POST } else { reqwest::Method::PUT };
        let raw = Raw::send(server.http.request(method, server.api(path)).header("authorization", BOT).body(body)).await;
        assert_error(&raw, 400, 50035);
        assert_eq!(raw.violations()[0].0, pointer, "{body}");
    }
    let raw = Raw::send(server.http.post(server.api("/lobbies/1/members/bulk")).header("authorization", BOT).body(r#"[{"id": -1}]"#)).await;
    assert_eq!(raw.violations()[0].0, "/body/0/id");
}

#[tokio::test]
async fn bad_path_ids_are_50035_at_the_path_parameter() {
    let server = Server::start(None).await;
    for id in ["abc", "-1", "18446744073709551616", "1.5", "%FF", "%20"] {
        let raw = Raw::send(server.http.put(server.api(&format!("/channels/{id}/voice-status"))).header("authorization", BOT).body(r#"{"status": "x"}"#)).await;
        assert_error(&raw, 400, 50035);
        assert!(raw.violations()[0].0.starts_with("/path"), "{id}: {}", raw.text);
    }
    let raw = Raw::send(server.http.get(server.api("/guilds/abc/channels")).header("authorization", BOT)).await;
    assert_eq!(raw.violations(), [("/path/guild.id".to_owned(), "`abc` is not a decimal integer between 0 and 18446744073709551615".to_owned())]);
}

#[tokio::test]
async fn missing_and_unknown_credentials_are_40001() {
    let server = Server::start(None).await;
    let url = server.api("/users/@me/connections");
    let headers =
        [None, Some(""), Some("Bot"), Some("Bot "), Some("Bearer nope"), Some("Token bot-token"), Some("Bot bot-token extra"), Some("Basic bot-token")];
    for header in headers {
        let request = server.http.get(&url);
        let request = match header {
            Some(h) => request.header("authorization", h),
            None => request,
        };
        assert_error(&Raw::send(request).await, 401, 40001);
    }
    let lowercase = Raw::send(server.http.get(&url).header("authorization", "bot bot-token")).await;
    assert_eq!(lowercase.status, 200, "schemes compare without regard to case");
    let client = platform_client::Client::new(server.placeholders.clone());
    let refused = client.get_current_user_connections().await;
    assert!(matches!(refused, Err(platform_client::Error::Credential { .. })), "a client without a credential sends nothing");
}

#[tokio::test]
async fn unknown_routes_and_methods_are_general_errors() {
    let server = Server::start(None).await;
    assert_error(&Raw::send(server.http.get(server.api("/nowhere"))).await, 404, 0);
    assert_error(&Raw::send(server.http.get(format!("{}/", server.origin))).await, 404, 0);
    assert_error(&Raw::send(server.http.delete(server.api("/lobbies"))).await, 405, 0);
    for method in ["OPTIONS", "TRACE", "PATCH", "PROPFIND"] {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        assert_error(&Raw::send(server.http.request(method, server.api("/users/@me/connections"))).await, 405, 0);
    }
}

#[tokio::test]
async fn form_bodies_of_the_token_endpoint_are_checked() {
    let server = Server::start(None).await;
    let url = server.auth("/oauth2/token");
    let basic = "Basic OTAwMTpyZWZlcmVuY2Utc2VjcmV0";
    for body in ["", "grant_type", "refresh_token=x", "grant_type=refresh_token&grant_type=x", "%%%", r#"{"grant_type":"refresh_token"}"#] {
        let raw = Raw::send(server.http.post(&url).header("authorization", basic).body(body)).await;
        assert_error(&raw, 400, 50035);
    }
}

/// Sends raw bytes over TCP and returns the status line's code.
async fn raw_tcp(server: &Server, head: String, body: Option<Vec<u8>>) -> (u16, String) {
    let address = server.origin.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    if let Some(body) = body {
        // The server may answer and close before reading everything; a write error then is fine.
        let _ = stream.write_all(&body).await;
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), async {
        let mut buf = [0u8; 8192];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
            if answer.windows(4).any(|w| w == b"\r\n\r\n") && answer.ends_with(b"}") {
                break;
            }
        }
    });
    read.await.expect("the server answers within 30 s");
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no status line: {text}"));
    (status, text)
}

#[tokio::test]
async fn a_body_over_the_upload_limit_is_40005_before_it_is_read() {
    let server = Server::start(None).await;
    let limit = platform_server::DEFAULT_BODY_LIMIT;
    assert_eq!(limit, 20 * 1024 * 1024, "the spec's upload limit, 20 MiB");
    let host = server.origin.trim_start_matches("http://");
    let head = format!(
        "PUT /api/channels/12/voice-status HTTP/1.1\r\nHost: {host}\r\nAuthorization: {BOT}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        limit + 1
    );
    let (status, text) = raw_tcp(&server, head, None).await;
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("\"code\":40005"), "{text}");
}

#[tokio::test]
async fn a_chunked_body_over_the_upload_limit_is_40005() {
    let server = Server::start(None).await;
    let host = server.origin.trim_start_matches("http://");
    let head = format!(
        "PUT /api/channels/12/voice-status HTTP/1.1\r\nHost: {host}\r\nAuthorization: {BOT}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let chunk = vec![b' '; 1 << 20];
    let mut body = Vec::new();
    for _ in 0..21 {
        body.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        body.extend_from_slice(&chunk);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    let (status, text) = raw_tcp(&server, head, Some(body)).await;
    assert_eq!(status, 413, "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the body and path segment, every routed endpoint answers 2xx or a 4xx with the
    /// error body; never a 5xx.
    #[test]
    fn any_input_is_answered_without_a_5xx(body in proptest::collection::vec(any::<u8>(), 0..256), segment in "[ -~]{0,24}", endpoint in 0usize..8) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let server = Server::start(Some("2026-01-01T00:00:00Z")).await;
            let segment: String = segment.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_string() } else { format!("%{:02X}", c as u32) }).collect();
            let (method, url, auth) = match endpoint {
                0 => (reqwest::Method::GET, server.api("/users/@me/connections"), "Bearer alice-token"),
                1 => (reqwest::Method::GET, server.api(&format!("/guilds/{segment}/channels")), BOT),
                2 => (reqwest::Method::PUT, server.api("/lobbies"), "Bearer alice-token"),
                3 => (reqwest::Method::POST, server.api(&format!("/lobbies/{segment}/messages")), "Bearer alice-token"),
                4 => (reqwest::Method::GET, server.api(&format!("/lobbies/{segment}/messages")), "Bearer alice-token"),
                5 => (reqwest::Method::POST, server.api(&format!("/lobbies/{segment}/members/bulk")), BOT),
                6 => (reqwest::Method::PUT, server.api(&format!("/channels/{segment}/voice-status")), BOT),
                _ => (reqwest::Method::POST, server.auth("/oauth2/token"), "Basic OTAwMTpyZWZlcmVuY2Utc2VjcmV0"),
            };
            let raw = Raw::send(server.http.request(method, url).header("authorization", auth).body(body)).await;
            if !(200..300).contains(&raw.status) {
                raw.error();
            }
        });
    }
}
