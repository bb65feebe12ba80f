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
    use platform_client::types::endpoints::get_guild_channels;
    use platform_client::types::placeholders::Placeholders;
    let origin = serve(platform_server::mock::router()).await;
    let client = platform_client::Client::with_http(http(), Placeholders::at_origin(&origin)).with_credential(Credential::bearer("mock"));
    let connections = client.get_current_user_connections().await.expect("connections");
    assert_eq!(connections.len(), 1, "one element per array: {connections:?}");
    let bot = client.with_credential(Credential::bot("mock"));
    let channels = bot.send(&get_guild_channels::Request::new(0u64)).await.expect("channels");
    assert_eq!(channels.len(), 1, "one element per array: {channels:?}");
}

#[tokio::test]
async fn the_shapes_mock_answers_every_status_shape_its_client_decodes() {
    use shapes_client::types::auth::Credential;
    use shapes_client::types::endpoints::{get_document, get_note};
    use shapes_client::types::placeholders::Placeholders;
    let origin = serve(shapes_server::mock::router()).await;
    let placeholders = Placeholders { api_url: format!("{origin}/api") };
    let client = shapes_client::Client::with_http(http(), placeholders).with_credential(Credential::bot("mock"));
    let note = client.send(&get_note::Request::new(0u64)).await.expect("a note");
    assert!(note.headers.rate_limit_limit >= 0, "the first success status, its headers within their bounds: {note:?}");
    let document = client.send(&get_document::Request::new(shapes_client::types::wire::Uuid(0))).await.expect("a document");
    // The document's title has a pattern: the mock's value meets it.
    assert!(!document.title.is_empty() && document.title.chars().all(|c| c.is_ascii_alphanumeric() || c == ' '), "{document:?}");
    let categories = client.list_categories().await.expect("categories");
    assert_eq!(categories.len(), 1);
    let payloads = client.poll_gateway().await.expect("payloads");
    assert_eq!(payloads.len(), 1, "{payloads:?}");
}

/// A segment that mixes placeholders and text (`export.{format}`, `{archive}.tar.gz`) is routed
/// whole and split by the handler: the client writes it, the server reads each placeholder, and
/// a segment that does not fit answers 404, never a 500 or a panic.
#[tokio::test]
async fn segments_that_mix_placeholders_and_text_route_both_ways() {
    use shapes_client::types::endpoints::{get_archive, get_note_export};
    use shapes_client::types::placeholders::Placeholders;
    let origin = serve(shapes_server::mock::router()).await;
    let client = shapes_client::Client::with_http(http(), Placeholders { api_url: format!("{origin}/api") });
    let request = get_note_export::Request::new(7u64, "md");
    assert_eq!(request.uri_path(), "/notes/7/export.md");
    client.send(&request).await.expect("the export");
    let request = get_archive::Request::new("logs.2026");
    assert_eq!(request.uri_path(), "/archives/logs.2026.tar.gz");
    client.send(&request).await.expect("the archive");
    for (path, status) in [
        ("/api/notes/7/export.md", 200),
        ("/api/notes/7/exportmd", 404),
        ("/api/notes/7/export.", 404),
        ("/api/notes/7/export.MD", 400),
        ("/api/notes/x/export.md", 400),
        ("/api/archives/a.tar.gz.tar.gz", 200),
        ("/api/archives/.tar.gz", 404),
        ("/api/archives/a.zip", 404),
    ] {
        let answer = http().get(format!("{origin}{path}")).send().await.expect("an answer");
        assert_eq!(answer.status().as_u16(), status, "GET {path}");
    }
}

/// A body the endpoint may go without, as a form or as JSON: an empty body is absent, a body
/// is read and checked, a malformed one is a 400, never a refusal of every request.
#[tokio::test]
async fn optional_bodies_of_either_format_may_be_left_out() {
    let origin = serve(shapes_server::mock::router()).await;
    let post = |path: &str, media: &str, body: &'static str| http().post(format!("{origin}/api{path}")).header("content-type", media).body(body).send();
    for (path, media, body, status) in [
        ("/feedback/form", "application/x-www-form-urlencoded", "", 204),
        ("/feedback/form", "application/x-www-form-urlencoded", "rating=4&comment=clear", 204),
        ("/feedback/form", "application/x-www-form-urlencoded", "rating=9", 400),
        ("/feedback/form", "application/x-www-form-urlencoded", "rating=many", 400),
        ("/feedback", "application/json", "", 204),
        ("/feedback", "application/json", "{\"rating\": 2}", 204),
        ("/feedback", "application/json", "{\"rating\": 0}", 400),
        ("/feedback", "application/json", "{", 400),
    ] {
        let answer = post(path, media, body).await.expect("an answer");
        assert_eq!(answer.status().as_u16(), status, "POST {path} with {body:?}");
    }

    use shapes_client::types::placeholders::Placeholders;
    let client = shapes_client::Client::with_http(http(), Placeholders { api_url: format!("{origin}/api") });
    client.send_feedback_form().await.expect("no feedback as a form");
    client.send_feedback().await.expect("no feedback as JSON");
}

/// A JSON body of another JSON media type (`body_media_type`): the client sends it as that
/// type, the server takes it by that type and refuses plain `application/json` with a 415.
#[tokio::test]
async fn a_json_body_travels_as_its_declared_media_type() {
    use shapes_client::types::endpoints::amend_feedback;
    use shapes_client::types::placeholders::Placeholders;
    let origin = serve(shapes_server::mock::router()).await;
    for (media, status) in [("application/merge-patch+json", 204), ("application/x-www-form-urlencoded", 204), ("application/json", 415)] {
        let body = if media.ends_with("json") { "{\"rating\": 3}" } else { "rating=3" };
        let answer = http().patch(format!("{origin}/api/feedback")).header("content-type", media).body(body).send().await.expect("an answer");
        assert_eq!(answer.status().as_u16(), status, "PATCH /feedback as {media}");
    }
    let client = shapes_client::Client::with_http(http(), Placeholders { api_url: format!("{origin}/api") });
    let body = amend_feedback::Body::Json(amend_feedback::Fields::default().rating(3));
    client.send(&amend_feedback::Request::new(body)).await.expect("the client sends the merge patch as its media type");
}

/// An endpoint that declares its own body for a status the server refuses with
/// (`browse_notes`: `listing_refused` for 400) is answered in that body when the server refuses
/// the request itself: the declared members filled from the error, the optional one left out.
/// Its other refusals (401, which it does not declare) keep the error body.
#[tokio::test]
async fn the_servers_own_refusals_take_the_body_the_endpoint_declares_for_their_status() {
    let origin = serve(shapes_server::mock::router()).await;
    let browse = |query: &str, credential: Option<&str>| {
        let request = http().get(format!("{origin}/api/notes/browse?{query}"));
        let request = match credential {
            Some(c) => request.header("authorization", c),
            None => request,
        };
        async move {
            let answer = request.send().await.expect("an answer");
            let status = answer.status().as_u16();
            (status, answer.json::<serde_json::Value>().await.expect("a JSON body"))
        }
    };
    let (status, body) = browse("per_page=0", Some("Bot mock")).await;
    assert_eq!(status, 400, "{body}");
    let mut members: Vec<&str> = body.as_object().expect("an object").keys().map(String::as_str).collect();
    members.sort_unstable();
    assert_eq!(members, ["causes", "detail", "kind", "reason"], "the declared members, the optional one left out: {body}");
    assert_eq!((body["kind"].as_str(), body["reason"].as_str()), (Some("refused"), Some("bad_request")), "{body}");
    let causes = body["causes"].as_array().expect("a list");
    assert!(causes.len() == 1 && causes[0].as_str().is_some_and(|c| c.contains("/query/per_page")), "each violation: {body}");
    assert!(body["detail"].as_str().is_some_and(|d| d.contains("/query/per_page")), "the message says the violation: {body}");

    let (status, body) = browse("per_page=5", None).await;
    assert_eq!(status, 401, "{body}");
    assert!(body["code"].is_i64() && body["message"].is_string(), "the error body: {body}");
}
