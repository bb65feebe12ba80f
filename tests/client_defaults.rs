//! What the generated client does before anyone configures it: `Client::new` names the SDK in
//! its `User-Agent`, and a call to an `https://` address from a build without TLS says how to get
//! it instead of reqwest's bare "scheme is not http". Over 127.0.0.1, with a listener that records
//! the request head it is sent.

use platform_client::types::auth::Credential;
use platform_client::types::placeholders::Placeholders;
use platform_client::{Client, Error};
use std::io::{Read, Write};
use std::net::TcpListener;

/// Answers one request with an empty JSON list; returns the request's head.
fn answer_once(listener: TcpListener) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("a connection");
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).expect("read the request") == 1 {
            head.push(byte[0]);
        }
        stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n[]").expect("answer");
        String::from_utf8_lossy(&head).into_owned()
    })
}

#[tokio::test]
async fn requests_name_the_sdk_and_its_version() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let origin = format!("http://{}", listener.local_addr().expect("an address"));
    let head = answer_once(listener);
    let client = Client::new(Placeholders::at_origin(&origin)).with_credential(Credential::bearer("token"));
    let connections = client.get_current_user_connections().await.expect("the call succeeds");
    assert!(connections.is_empty());
    let head = head.join().expect("the listener thread").to_ascii_lowercase();
    let agent = platform_client::client::USER_AGENT;
    assert!(agent.starts_with("platform-client/0."), "{agent}");
    let expected = format!("user-agent: {agent}\r\n");
    assert!(head.contains(&expected), "no `{}` in the request head:\n{head}", expected.trim_end());
}

#[tokio::test]
async fn an_https_address_without_tls_says_which_feature_gives_it() {
    let client = Client::new(Placeholders::at_origin("https://127.0.0.1:9")).with_credential(Credential::bearer("token"));
    let result = client.get_current_user_connections().await;
    let Err(error @ Error::Transport(_)) = result else { panic!("expected a transport error, got {result:?}") };
    let message = error.to_string();
    assert!(message.contains("https://") && message.contains("without its `rustls` feature"), "{message}");
}

#[test]
fn the_http_crate_is_the_clients_own() {
    // `with_http` takes the re-exported crate's client, whatever version the caller depends on.
    let http = platform_client::reqwest::Client::builder().build().expect("a client");
    let client = Client::with_http(http, Placeholders::at_origin("http://127.0.0.1:9"));
    assert_eq!(client.placeholders().base_url, "http://127.0.0.1:9/api");
}
