//! The generated mock servers (`mock` feature of each server crate) over 127.0.0.1: the shipped
//! platform's and the shapes fixture's answer their endpoints with values the generated clients
//! decode, and that meet the spec (the clients' own checks run on what they send, the servers'
//! response checks on what the mocks answer). The imported Discord API's mock is exercised at
//! scale by `codegen/tests/discord_api.rs`.

use std::time::Duration;

/// Serves `router` on a free port of 127.0.0.1; returns `http://127.0.0.1:<port>`.
async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let origin = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, router).await.expect("the mock runs") });
    origin
}

fn http() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(30)).build().expect("an HTTP client")
}

#[tokio::test]
async fn the_platform_mock_answers_what_its_client_decodes() {
    use platform_client::types::auth::Credential;
    use platform_client::types::endpoints::{get_current_user_connections, get_guild_channels};
    use platform_client::types::placeholders::Placeholders;
    let origin = serve(platform_server::mock::router()).await;
    let client = platform_client::Client::with_http(http(), Placeholders::at_origin(&origin)).with_credential(Credential::bearer("mock"));
    let connections = client.get_current_user_connections(&get_current_user_connections::Request {}).await.expect("connections");
    assert!(connections.is_empty() || !connections.is_empty());
    let bot = client.with_credential(Credential::bot("mock"));
    let channels = bot.get_guild_channels(&get_guild_channels::Request { path: Default::default() }).await.expect("channels");
    assert_eq!(channels.len(), 1, "one element per array: {channels:?}");
}

#[tokio::test]
async fn the_shapes_mock_answers_every_status_shape_its_client_decodes() {
    use shapes_client::types::auth::Credential;
    use shapes_client::types::endpoints::{get_document, get_note, list_categories, poll_gateway};
    use shapes_client::types::placeholders::Placeholders;
    let origin = serve(shapes_server::mock::router()).await;
    let placeholders = Placeholders { api_url: format!("{origin}/api") };
    let client = shapes_client::Client::with_http(http(), placeholders).with_credential(Credential::bot("mock"));
    let note = client.get_note(&get_note::Request { path: Default::default() }).await.expect("a note");
    assert!(matches!(note, get_note::Response::Ok(_)), "the first success status: {note:?}");
    let document = client.get_document(&get_document::Request { path: Default::default(), query: Default::default() }).await.expect("a document");
    // The document's title has a pattern: the mock's value meets it.
    assert!(!document.title.is_empty() && document.title.chars().all(|c| c.is_ascii_alphanumeric() || c == ' '), "{document:?}");
    let categories = client.list_categories(&list_categories::Request {}).await.expect("categories");
    assert_eq!(categories.len(), 1);
    let payloads = client.poll_gateway(&poll_gateway::Request {}).await.expect("payloads");
    assert_eq!(payloads.len(), 1, "{payloads:?}");
}
