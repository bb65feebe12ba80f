//! A bot written against the generated Discord client as its users would write one: who am I,
//! my guilds and the channels of one, a message with an embed that mentions no one, an edit, a
//! reaction, a page of the messages before it, and errors handled through `?` and by status.
//! It runs against the imported API's mock server over 127.0.0.1; `docs/client.md` puts its
//! calls beside the same calls with twilight-http.

use axum::http::StatusCode;
use discord_api_tests::Mock;
use discord_client::client::Declared;
use discord_client::types::endpoints::list_my_guilds;
use discord_client::types::errors::{ApiError, ErrorBody};
use discord_client::types::pagination::MOCK_ITEMS;
use discord_client::types::resources::{MessageAllowedMentionsRequest, RichEmbed};
use discord_client::types::unions::ErrorDetails;
use discord_client::{Client, Error, TryStreamExt};
use std::collections::BTreeSet;

/// The bot: every call through `?`, so any failure (refused before sending, an error status,
/// transport) stops it with one error type.
async fn bot(client: &Client) -> Result<usize, Error> {
    let me = client.get_my_user().await?.body;
    let guilds = client.list_my_guilds().await?.body.unwrap_or_default();
    let channels = client.list_guild_channels(guilds[0].id).await?.body.unwrap_or_default();
    let channel_id = *channels[0].id().unwrap();
    let embed = RichEmbed::default().title("Hello").description(format!("from {}", me.username));
    let mentions = MessageAllowedMentionsRequest::default().parse([]);
    let sent = client.create_message(channel_id).content("hi").embeds([embed]).allowed_mentions(mentions).await?.body;
    client.update_message(channel_id, sent.id).content("hi again").await?;
    client.add_my_message_reaction(channel_id, sent.id, "👍").await?;
    let messages = client.list_messages(channel_id).before(sent.id).limit(50).await?.body.unwrap_or_default();
    Ok(messages.len())
}

#[test]
fn the_bot_runs_against_the_mock() {
    let mock = Mock::start();
    let client = mock.client();
    let read = mock.block_on(bot(&client)).unwrap_or_else(|e| panic!("the bot failed: {e}"));
    assert!(read > 0, "a page of messages");
}

#[test]
fn every_guild_arrives_once_through_the_stream_of_pages() {
    let mock = Mock::start();
    let client = mock.client();
    // The mock serves one collection of guilds; the stream asks for each next page after the
    // last guild's id, as the imported pagination (`after`, `limit`) says.
    let pages: Vec<list_my_guilds::Success> = mock.block_on(client.list_my_guilds_pages(list_my_guilds::Request::default().limit(10)).try_collect()).expect("pages");
    let sizes: Vec<usize> = pages.iter().map(|p| p.body.as_ref().map_or(0, Vec::len)).collect();
    assert_eq!(sizes, [10, 10, 5], "the short page is the last");
    let guilds: Vec<_> = mock.block_on(client.list_my_guilds_stream(list_my_guilds::Request::default()).try_collect()).expect("guilds");
    let ids: BTreeSet<_> = guilds.iter().map(|g| g.id).collect();
    assert_eq!((guilds.len(), ids.len()), (MOCK_ITEMS, MOCK_ITEMS), "every guild once");
}

#[test]
fn a_request_that_breaks_a_declared_limit_is_refused_before_sending() {
    let mock = Mock::start();
    let client = mock.client();
    let answer = mock.block_on(client.create_message(1u64).content("x".repeat(4001)));
    let Err(Error::Invalid(violations)) = answer else { panic!("expected the client to refuse, got {answer:?}") };
    assert_eq!(violations[0].pointer, "/body/content");
}

/// Discord's answer to a message it refuses: code 50035 and the violations nested by field (each
/// `_errors` item's `code` an integer, as the document declares it).
const INVALID_FORM_BODY: &str = r#"{"code": 50035, "message": "Invalid Form Body", "errors": {"content": {"_errors": [{"code": 50035, "message": "Must be 2000 or fewer in length."}]}}}"#;

/// A server answering every request with `status` and `body`, as the platform refuses one.
fn refusing(mock: &Mock, status: StatusCode, body: &'static str) -> Client {
    let listener = mock.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("a free port");
    let addr = listener.local_addr().expect("an address");
    let app = axum::Router::new().fallback(move || async move {
        (status, [("content-type", "application/json"), ("x-ratelimit-bucket", "abc")], body)
    });
    mock.spawn(async move { axum::serve(listener, app).await });
    // Each refusal as it came: a 429 would be tried again otherwise.
    mock.client_at(&format!("http://{addr}/api/v10")).with_retry(discord_client::Retry::never())
}

#[test]
fn an_error_status_is_an_err_with_the_declared_body_and_its_nested_details() {
    let mock = Mock::start();
    let client = refusing(&mock, StatusCode::BAD_REQUEST, INVALID_FORM_BODY);
    let error = mock.block_on(client.create_message(1u64).content("hi")).expect_err("refused");
    assert_eq!(error.status(), Some(400));
    assert_eq!(error.api().map(|e| (e.code.value(), e.message.as_str())), Some((50035, "Invalid Form Body")), "{error}");
    let response = error.response().expect("an error status");
    assert_eq!(response.headers["x-ratelimit-bucket"], "abc");
    let Some(Declared::ClientErrorResponse(declared)) = &response.declared else { panic!("the declared 4XX body: {response:?}") };
    let Some(ErrorDetails::Object(fields)) = &declared.body.errors else { panic!("errors by field: {:?}", declared.body.errors) };
    // `{"_errors": [...]}` is the object with that required member, not a map of anything.
    let Some(ErrorDetails::InnerErrors(inner)) = fields.get("content") else { panic!("the field's errors: {fields:?}") };
    assert_eq!(inner.errors[0].message, "Must be 2000 or fewer in length.");
    // The same details read as violations: the path to each field, its code and its message.
    let violations: Vec<_> = error.api().map(|e| e.violations.iter().map(|v| (v.pointer.as_str(), v.code.as_deref(), v.message.as_str())).collect()).unwrap_or_default();
    assert_eq!(violations, [("/content", Some("50035"), "Must be 2000 or fewer in length.")]);
}

/// Discord's nesting by item index, several fields and several errors at one field.
const NESTED: &str = r#"{"code": 50035, "message": "Invalid Form Body", "errors": {
    "embeds": {"0": {"title": {"_errors": [{"code": 50035, "message": "Must be 256 or fewer in length."}]},
                     "fields": {"1": {"name": {"_errors": [{"code": 50035, "message": "This field is required"}, {"code": 50035, "message": "Twice"}]}}}}},
    "a/b~c": {"_errors": [{"code": 50035, "message": "escaped"}]}}}"#;

#[test]
fn nested_validation_errors_read_as_violations_at_json_pointers() {
    let mock = Mock::start();
    let client = refusing(&mock, StatusCode::BAD_REQUEST, NESTED);
    let error = mock.block_on(client.get_my_user()).expect_err("refused");
    let violations: Vec<_> = error.api().map(|e| e.violations.iter().map(|v| (v.pointer.as_str(), v.message.as_str())).collect()).unwrap_or_default();
    assert_eq!(
        violations,
        [
            ("/embeds/0/title", "Must be 256 or fewer in length."),
            ("/embeds/0/fields/1/name", "This field is required"),
            ("/embeds/0/fields/1/name", "Twice"),
            ("/a~1b~0c", "escaped"),
        ]
    );
    assert!(error.to_string().contains("/embeds/0/title: Must be 256 or fewer in length. (50035)"), "{error}");
}

#[test]
fn a_429_comes_back_as_the_declared_rate_limit() {
    let mock = Mock::start();
    let body = r#"{"code": 0, "message": "You are being rate limited.", "retry_after": 1.5, "global": false}"#;
    let client = refusing(&mock, StatusCode::TOO_MANY_REQUESTS, body);
    let error = mock.block_on(client.get_my_user()).expect_err("limited");
    let Some(Declared::ClientRatelimitedResponse(limited)) = error.response().and_then(|r| r.declared.as_ref()) else {
        panic!("the declared 429: {error:?}")
    };
    assert_eq!((limited.body.retry_after, limited.body.global), (1.5, false));
}

#[test]
fn the_mock_names_every_violation_in_its_refusal() {
    let mock = Mock::start();
    let body = serde_json::json!({ "content": "x".repeat(4001), "embeds": vec![serde_json::json!({}); 11] });
    let (status, text) = mock.block_on(async {
        let url = format!("{}/channels/1/messages", mock.base_url());
        let answer = reqwest::Client::new().post(url).header("authorization", "mock-token").json(&body).send().await.expect("an answer");
        (answer.status().as_u16(), answer.text().await.expect("a body"))
    });
    assert_eq!(status, 400, "{text}");
    // In Discord's error body: nested by field under `errors`, each with the error's code.
    let body: serde_json::Value = serde_json::from_str(&text).expect("a JSON error body");
    let content = &body["errors"]["content"]["_errors"][0];
    assert!(content["message"].as_str().is_some_and(|m| !m.is_empty()) && content["code"] == body["code"], "{text}");
    assert!(body["errors"]["embeds"]["_errors"][0]["message"].is_string(), "{text}");
    // And read back as the violations the mock found, at the body's members.
    let read = ApiError::from_body(status, serde_json::from_str::<ErrorBody>(&text).expect("the declared error body"));
    let pointers: BTreeSet<_> = read.violations.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, BTreeSet::from(["/content", "/embeds"]), "{read}");
}
