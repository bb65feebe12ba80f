//! Round trips over real HTTP on 127.0.0.1 between the client and the server generated from the
//! shapes fixture (`tests/fixtures/shapes/`), with the in-memory service of
//! `tests/shapes_common/` behind the server.
//!
//! Endpoint shapes: responses per status with their bodies and headers, anonymous and optional
//! credentials, scopes, header parameters, array query parameters in both styles, bodies in
//! several formats, multipart parts and binary bodies. Type shapes: PATCH presence (absent,
//! `null`, value), the enum policy (open on read, strict on write) for enums, subsets and union
//! variants, recursive shapes, and every violation of a request reported at its JSON pointer.

use crate::shapes_common;

use serde_json::{Value, json};
use shapes_client::client::Declared;
use shapes_client::types::auth::Credential;
use shapes_client::types::endpoints::{
    create_document, create_note, delete_note, evaluate, get_attachment, get_note, import_notes, list_notes, list_tags, update_profile, upload_attachment,
};
use shapes_client::types::enums::{ButtonStyle, ComponentType, Theme};
use shapes_client::types::resources::{Button, CreateDocumentBodyOwner, ImportMeta, Negation, NoteDraft};
use shapes_client::types::unions::{Component, Expression, GatewayPayload, Nonce, TitleFilter};
use shapes_client::types::wire::{FilePart, IndexMap, Presence, RawBody, Snowflake};
use shapes_client::{Error, ErrorResponse};
use shapes_common::{BOT, PLAIN, READER, Server, Shapes};
use std::sync::atomic::Ordering;

fn bot() -> Option<Credential> {
    Some(Credential::bot(BOT))
}

fn bearer(token: &str) -> Option<Credential> {
    Some(Credential::new(shapes_client::types::auth::TokenKind::Bearer, token))
}

fn json_note(title: &str) -> create_note::Request {
    create_note::Request::new(create_note::Body::Json(create_note::Fields::new(title).body("text")))
}

fn list(ids: Option<Vec<u64>>, tags: Option<&[&str]>) -> list_notes::Request {
    let mut request = list_notes::Request::default();
    request.headers = list_notes::Headers::new("en").request_id("req-1");
    request.query.ids = ids.map(|v| v.into_iter().map(Snowflake).collect());
    request.query.tags = tags.map(|t| t.iter().map(|s| (*s).to_owned()).collect());
    request
}

fn get(id: u64) -> get_note::Request {
    get_note::Request::new(id)
}

/// The status and text of a raw request.
async fn raw(request: reqwest::RequestBuilder) -> (u16, reqwest::header::HeaderMap, String) {
    let response = request.send().await.expect("an answer");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.expect("a body"))
}

/// The error answer of a call, asserting it failed with one.
fn failed<T: std::fmt::Debug>(result: Result<T, Error>) -> Box<ErrorResponse> {
    match result {
        Err(Error::Api(e)) => e,
        other => panic!("expected an error status, got {other:?}"),
    }
}

/// The JSON pointers of the violations in an error body.
fn pointers(text: &str) -> Vec<String> {
    let body: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("not an error body ({e}): {text}"));
    body["errors"].as_array().into_iter().flatten().map(|v| v["pointer"].as_str().unwrap_or_default().to_owned()).collect()
}

// ---------------------------------------------------------------------------------------------
// Responses per status.

#[tokio::test]
async fn a_new_note_is_201_with_its_location_and_the_same_again_is_200() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    let created = client.send(&json_note("groceries")).await.unwrap();
    let create_note::Success::Created(created) = created else { panic!("expected 201, got {created:?}") };
    assert_eq!(created.headers.location, format!("/notes/{}", created.body.id.0));
    assert_eq!(created.body.tags, ["json"]);
    let again = client.send(&json_note("groceries")).await.unwrap();
    assert_eq!(again, create_note::Success::Ok(created.body.clone()));

    let (status, headers, _) =
        raw(server.http.post(server.api("/notes")).header("authorization", "Bot bot-token").json(&serde_json::json!({ "title": "other" }))).await;
    assert_eq!(status, 201);
    assert_eq!(headers["location"], "/notes/2");
}

#[tokio::test]
async fn an_empty_response_is_its_status_alone() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    let create_note::Success::Created(note) = client.send(&json_note("gone soon")).await.unwrap() else { panic!() };
    let delete = delete_note::Request::new(note.body.id);
    client.send(&delete).await.unwrap();
    // The 404 is declared without a body: the error carries the status, nothing declared.
    let gone = failed(client.send(&delete).await);
    assert_eq!((gone.status, gone.declared.as_ref(), gone.bytes.as_slice()), (404, None, &b""[..]));
    let (status, _, text) = raw(server.http.delete(server.api("/notes/1")).header("authorization", "Bot bot-token")).await;
    assert_eq!((status, text.as_str()), (404, ""));
}

#[tokio::test]
async fn a_429_carries_its_typed_body_and_rate_limit_headers() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    server.shapes.limited.store(true, Ordering::SeqCst);
    let answer = failed(client.send(&get(1)).await);
    assert_eq!(answer.status, 429);
    assert_eq!(answer.headers["x-ratelimit-remaining"], "0", "the headers as they came");
    let Some(Declared::RateLimited(limited)) = answer.declared else { panic!("expected the declared 429, got {answer:?}") };
    assert_eq!((limited.body.retry_after, limited.body.global), (2, false));
    assert_eq!((limited.headers.rate_limit_limit, limited.headers.rate_limit_remaining), (50, 0));
    assert_eq!(limited.headers.rate_limit_bucket, None, "an optional header that was not sent");

    let (status, headers, text) = raw(server.http.get(server.api("/notes/1"))).await;
    assert_eq!(status, 429);
    assert_eq!(headers["x-ratelimit-remaining"], "0");
    assert!(headers.get("x-ratelimit-bucket").is_none());
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["retry_after"], 2);
}

#[tokio::test]
async fn success_headers_are_read_into_the_response() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    client.send(&json_note("with headers")).await.unwrap();
    let ok = client.send(&get(1)).await.unwrap();
    assert_eq!(ok.body.title, "with headers");
    assert_eq!(ok.headers.rate_limit_limit, 50);
    assert_eq!(ok.headers.rate_limit_reset_after, 1);
    assert_eq!(ok.headers.rate_limit_bucket.as_deref(), Some("notes"));
}

#[tokio::test]
async fn a_range_status_carries_the_status_and_its_body() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    let mut request = list(None, None);
    request.headers.locale = "xx".to_owned();
    let answer = failed(client.send(&request).await);
    let Some(Declared::ClientError(body)) = &answer.declared else { panic!("expected 4XX, got {answer:?}") };
    assert_eq!((answer.status, body.message.as_str()), (422, "unknown locale"));

    server.shapes.down.store(true, Ordering::SeqCst);
    let answer = failed(server.client_as(None).get_status().await);
    let Some(Declared::GetStatusServerError(down)) = &answer.declared else { panic!("expected 5XX, got {answer:?}") };
    assert_eq!(answer.status, 503);
    assert_eq!((down.body.message.as_str(), down.headers.retry_after), ("down for maintenance", Some(30)));
}

#[tokio::test]
async fn the_default_status_is_whatever_the_service_answered() {
    let server = Server::start(Shapes::new()).await;
    let request = upload_attachment::Request::new(99u64, RawBody { content_type: "image/png".to_owned(), bytes: vec![1, 2, 3] });
    let answer = failed(server.client_as(bot()).send(&request).await);
    let Some(Declared::ClientError(body)) = &answer.declared else { panic!("expected the default response, got {answer:?}") };
    assert_eq!((answer.status, body.code), (404, 10404));
}

#[tokio::test]
async fn a_body_that_may_be_null_is_an_option() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(None);
    let request = list_tags::Request::new(list_tags::Query::new(Theme::Dark));
    assert_eq!(client.send(&request).await.unwrap(), None);
    let (status, _, text) = raw(server.http.get(server.api("/tags?theme=dark"))).await;
    assert_eq!((status, text.as_str()), (200, "null"));
    server.client_as(bot()).send(&json_note("tagged")).await.unwrap();
    assert_eq!(client.send(&request).await.unwrap(), Some(vec!["json".to_owned()]));
}

#[tokio::test]
async fn text_csv_and_redirect_responses_come_back_typed() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    assert_eq!(server.client_as(None).get_status().await.unwrap(), "up");
    client.send(&json_note("alpha")).await.unwrap();
    let csv = client.export_notes().await.unwrap();
    assert_eq!(csv, "id,title\n1,alpha\n");
    let answer = client.send(&get_attachment::Request::new(1u64)).await.unwrap();
    let get_attachment::Success::SeeOther(moved) = answer else { panic!("expected 303, got {answer:?}") };
    assert_eq!(moved.headers.location, "https://files.example/notes/1");
    let (_, headers, _) = raw(server.http.get(server.api("/notes.csv")).header("authorization", "Bot bot-token")).await;
    assert_eq!(headers["content-type"], "text/csv");
}

#[tokio::test]
async fn an_undeclared_status_is_an_error() {
    let server = Server::start(Shapes::new()).await;
    // A 401 is none of get_note's declared statuses: the platform's error body comes back.
    let client = server.client_as(Some(Credential::bot("wrong")));
    let e = failed(client.send(&get(1)).await);
    assert_eq!((e.status, e.declared.as_ref()), (401, None));
    assert_eq!(e.error.as_ref().map(|e| e.status), Some(401), "the platform's error body, read");
}

// ---------------------------------------------------------------------------------------------
// Credentials and scopes.

#[tokio::test]
async fn anonymous_calls_are_accepted_where_declared() {
    let server = Server::start(Shapes::new()).await;
    server.client_as(bot()).send(&json_note("private body")).await.unwrap();
    let anonymous = server.client_as(None);
    let seen = anonymous.send(&get(1)).await.unwrap();
    assert_eq!(seen.body.body, None, "an anonymous caller does not see the body");
    let seen = server.client_as(bot()).send(&get(1)).await.unwrap();
    assert_eq!(seen.body.body.as_deref(), Some("text"), "a bot does");
    // An endpoint that needs a credential is not called without one.
    match anonymous.send(&list(None, None)).await {
        Err(Error::Credential { accepted }) => assert_eq!(accepted.len(), 2),
        other => panic!("expected a credential error, got {other:?}"),
    }
    // A credential that is presented must be valid, even where anonymous calls are accepted.
    let (status, _, _) = raw(server.http.get(server.api("/notes/1")).header("authorization", "Bot nope")).await;
    assert_eq!(status, 401);
    // An endpoint that accepts anonymous calls only ignores a credential.
    let (status, _, text) = raw(server.http.get(server.api("/status")).header("authorization", "Bot nope")).await;
    assert_eq!((status, text.as_str()), (200, "up"));
}

#[tokio::test]
async fn a_bearer_token_needs_the_endpoint_scopes_and_a_bot_token_does_not() {
    let server = Server::start(Shapes::new()).await;
    server.client_as(bearer(READER)).send(&list(None, None)).await.unwrap();
    server.client_as(bot()).send(&list(None, None)).await.unwrap();
    // `list_notes` declares its client errors (`4XX`), so the 403 comes back with that body.
    let refused = failed(server.client_as(bearer(PLAIN)).send(&list(None, None)).await);
    match &refused.declared {
        Some(Declared::ClientError(e)) if refused.status == 403 => assert!(e.message.contains("notes.read"), "{}", e.message),
        other => panic!("expected 403, got {other:?}"),
    }
    assert_eq!(server.client_as(bearer(READER)).get_me().await.unwrap().name, "reader");
    match server.client_as(bearer(PLAIN)).get_me().await {
        Err(Error::Api(e)) => assert_eq!(e.status, 403),
        other => panic!("expected 403, got {other:?}"),
    }
    match server.client_as(bot()).get_me().await {
        Err(Error::Credential { .. }) => {}
        other => panic!("a bot token is not accepted by get_me, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Header parameters and array query parameters.

#[tokio::test]
async fn header_parameters_travel_and_are_checked() {
    let server = Server::start(Shapes::new()).await;
    let ok = server.client_as(bot()).send(&list(None, None)).await.unwrap();
    assert_eq!(ok.headers.request_id.as_deref(), Some("req-1"), "the service echoes the header it received");
    assert_eq!(ok.headers.total, 0);

    let mut request = list(None, None);
    request.headers.request_id = Some("x".repeat(65));
    match server.client_as(bot()).send(&request).await {
        Err(Error::Invalid(v)) => assert_eq!(v[0].pointer, "/headers/X-Request-Id"),
        other => panic!("expected the client to refuse, got {other:?}"),
    }
    let get = || server.http.get(server.api("/notes")).header("authorization", "Bot bot-token");
    let (status, _, text) = raw(get().header("x-request-id", "x".repeat(65)).header("x-locale", "en")).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/headers/X-Request-Id".to_owned()]));
    let (status, _, text) = raw(get()).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/headers/X-Locale".to_owned()]), "a required header is missing");
}

#[tokio::test]
async fn array_query_parameters_travel_repeated_and_comma_separated() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    for title in ["a", "b", "c"] {
        client.send(&json_note(title)).await.unwrap();
    }
    let ids = |ok: list_notes::Success| ok.body.iter().map(|n| n.id.0).collect::<Vec<_>>();
    assert_eq!(ids(client.send(&list(Some(vec![1, 3]), None)).await.unwrap()), [1, 3]);
    assert_eq!(ids(client.send(&list(None, Some(&["json"]))).await.unwrap()), [1, 2, 3]);
    assert_eq!(ids(client.send(&list(Some(vec![2]), Some(&["json", "missing"]))).await.unwrap()), Vec::<u64>::new());
    // Two tags, each a value of its own (one text `json,json` would match no note).
    assert_eq!(ids(client.send(&list(None, Some(&["json", "json"]))).await.unwrap()), [1, 2, 3]);
    // A union that holds a list travels as the name repeated, and one text as one pair.
    let titled = |titles: TitleFilter| {
        let mut request = list(None, None);
        request.query.titles = Some(titles);
        request
    };
    let several = TitleFilter::Several(vec!["a".to_owned(), "c".to_owned()]);
    assert_eq!(ids(client.send(&titled(several)).await.unwrap()), [1, 3]);
    assert_eq!(ids(client.send(&titled(TitleFilter::One("b".to_owned()))).await.unwrap()), [2]);

    let get = |query: &str| server.http.get(server.api(&format!("/notes?{query}"))).header("authorization", "Bot bot-token").header("x-locale", "en");
    let (status, _, text) = raw(get("ids=1&ids=2")).await;
    let notes: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!((status, notes.as_array().unwrap().len()), (200, 2), "repeated `ids=` pairs");
    let (status, _, text) = raw(get("titles=a&titles=b")).await;
    let notes: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!((status, notes.as_array().unwrap().len()), (200, 2), "repeated `titles=` pairs are the list variant");
    let (status, _, text) = raw(get("tags=json,form")).await;
    assert_eq!((status, text.as_str()), (200, "[]"), "one comma-separated `tags=` value: no note is tagged both");
    let (status, _, text) = raw(get("ids=1&ids=x")).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/query/ids/1".to_owned()]), "each item is checked at its index");
    let (status, _, text) = raw(get("tags=a,b,c,d,e,f")).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/query/tags".to_owned()]), "max_items counts the comma-separated items");

    // A list header: the client writes it comma-separated; the server reads one line or several.
    let mut hiding = list(None, None);
    hiding.headers.hidden = Some(vec![Snowflake(1), Snowflake(3)]);
    assert_eq!(ids(client.send(&hiding).await.unwrap()), [2]);
    let (status, _, text) = raw(get("").header("x-hidden-ids", "1, 2").header("x-hidden-ids", "3")).await;
    assert_eq!((status, text.as_str()), (200, "[]"), "items of every line, spaces after the commas");
    let (status, _, text) = raw(get("").header("x-hidden-ids", "1,x")).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/headers/X-Hidden-Ids/1".to_owned()]), "each item is checked at its index");
}

// ---------------------------------------------------------------------------------------------
// Bodies: several formats, multipart parts, bytes.

#[tokio::test]
async fn one_body_comes_as_json_a_form_or_multipart() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    let form = create_note::Request::new(create_note::Body::Form(create_note::Fields::new("by form")));
    let create_note::Success::Created(by_form) = client.send(&form).await.unwrap() else { panic!() };
    assert_eq!(by_form.body.tags, ["form"]);
    let create_note::Success::Created(by_json) = client.send(&json_note("by json")).await.unwrap() else { panic!() };
    assert_eq!(by_json.body.tags, ["json"]);

    let post = || server.http.post(server.api("/notes")).header("authorization", "Bot bot-token");
    let (status, _, _) = raw(post().header("content-type", "application/x-www-form-urlencoded").body("title=raw+form")).await;
    assert_eq!(status, 201);
    let (status, _, text) = raw(post().header("content-type", "text/plain").body("title")).await;
    assert_eq!(status, 415, "{text}");
    let (status, _, text) = raw(post().header("content-type", "application/json").body(r#"{"title":""}"#)).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/body/title".to_owned()]));
}

fn file(name: &str, content_type: &str, bytes: &[u8]) -> FilePart {
    FilePart { filename: Some(name.to_owned()), content_type: content_type.to_owned(), bytes: bytes.to_vec() }
}

#[tokio::test]
async fn multipart_parts_arrive_typed() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    let parts = create_note::Parts::new(NoteDraft::new("with files").body("from the payload"))
        .files(vec![file("a.txt", "text/plain", b"hello"), file("b.bin", "application/octet-stream", &[0, 1, 2])])
        .cover(file("cover.png", "image/png", b"\x89PNG"))
        .caption("a \"quoted\" caption");
    let answer = client.send(&create_note::Request::new(create_note::Body::Multipart(parts.clone()))).await.unwrap();
    let create_note::Success::Created(note) = answer else { panic!("expected 201, got {answer:?}") };
    assert_eq!(note.body.title, "with files");
    assert_eq!(note.body.body.as_deref(), Some("a \"quoted\" caption"));
    assert_eq!(note.body.tags, ["multipart", "file:a.txt:5", "file:b.bin:3", "cover:image/png"]);

    let mut wrong = parts.clone();
    wrong.payload_json.title = "wrong cover".to_owned();
    wrong.cover = Some(file("cover.txt", "text/plain", b"no"));
    match client.send(&create_note::Request::new(create_note::Body::Multipart(wrong))).await {
        Err(Error::Invalid(v)) => assert_eq!(v[0].pointer, "/body/cover"),
        other => panic!("expected the client to refuse the media type, got {other:?}"),
    }

    let raw_form = |cover_type: &str, payload: &str| {
        format!(
            "--b\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json\r\n\r\n{payload}\r\n--b\r\nContent-Disposition: form-data; name=\"cover\"; filename=\"c\"\r\nContent-Type: {cover_type}\r\n\r\nxx\r\n--b--\r\n"
        )
    };
    let post = |body: String| {
        server.http.post(server.api("/notes")).header("authorization", "Bot bot-token").header("content-type", "multipart/form-data; boundary=b").body(body)
    };
    let (status, _, text) = raw(post(raw_form("text/plain", r#"{"title":"raw"}"#))).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/body/cover".to_owned()]), "the server checks the media type too");
    let (status, _, text) = raw(post(raw_form("image/gif", r#"{"title":5}"#))).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/body/payload_json/title".to_owned()]), "a JSON part is checked at its pointer");
    let (status, _, text) = raw(post("--b\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhi\r\n--b--\r\n".to_owned())).await;
    assert_eq!((status, pointers(&text)), (400, vec!["/body/payload_json".to_owned()]), "a required part is missing");
    let (status, _, _) = raw(post(raw_form("image/gif", r#"{"title":"raw ok"}"#))).await;
    assert_eq!(status, 201);
}

#[tokio::test]
async fn repeated_text_parts_a_csv_file_and_a_json_part() {
    let server = Server::start(Shapes::new()).await;
    let parts = import_notes::Parts::new(file("notes.csv", "text/csv", b"id,title\n1,first\n2,second\n"), ImportMeta::new("backup", false))
        .labels(vec!["old".to_owned(), "imported".to_owned()]);
    let accepted = server.client_as(bot()).send(&import_notes::Request::new(parts)).await.unwrap();
    assert_eq!(accepted.headers.retry_after, 1);
    assert_eq!(accepted.body.job_id, Snowflake(2));
    let notes = server.shapes.all();
    assert_eq!(notes.iter().map(|n| n.title.as_str()).collect::<Vec<_>>(), ["first", "second"]);
    assert_eq!(notes[0].tags, ["old", "imported", "source:backup"]);
}

#[tokio::test]
async fn a_binary_body_round_trips_with_its_media_type() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client_as(bot());
    client.send(&json_note("has a picture")).await.unwrap();
    let bytes: Vec<u8> = (0..=255).collect();
    let upload = upload_attachment::Request::new(1u64, RawBody { content_type: "image/png".to_owned(), bytes: bytes.clone() });
    client.send(&upload).await.unwrap();
    let answer = client.send(&get_attachment::Request::new(1u64)).await.unwrap();
    assert_eq!(answer, get_attachment::Success::Ok(RawBody { content_type: "image/png".to_owned(), bytes }));
}

// ---------------------------------------------------------------------------------------------
// Type shapes.

/// A raw answer: status and body as JSON.
async fn send(request: reqwest::RequestBuilder) -> (u16, Value) {
    let response = request.header("authorization", format!("Bot {BOT}")).send().await.expect("the request is answered");
    let status = response.status().as_u16();
    let text = response.text().await.expect("the body is read");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// The `(pointer, message)` of every violation in an error body.
fn violations(body: &Value) -> Vec<(String, String)> {
    let list = body["errors"].as_array().unwrap_or_else(|| panic!("an error body with violations: {body}"));
    list.iter().map(|v| (v["pointer"].as_str().unwrap().to_owned(), v["message"].as_str().unwrap().to_owned())).collect()
}

fn pointers_of(body: &Value) -> Vec<String> {
    violations(body).into_iter().map(|(p, _)| p).collect()
}

fn document_body() -> Value {
    json!({ "title": "Notes", "tags": ["a"], "scores": { "x": 1.5 }, "owner": { "name": "Ada" } })
}

#[tokio::test]
async fn a_patch_leaves_absent_fields_clears_null_ones_and_sets_the_others() {
    let server = Server::start(Shapes::new()).await;
    let url = server.api("/profile");
    let (status, set) = send(server.http.patch(&url).json(&json!({ "nickname": "ada", "accent_color": 255, "birthday": "1815-12-10" }))).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!((set["nickname"].clone(), set["accent_color"].clone(), set["birthday"].clone()), (json!("ada"), json!(255), json!("1815-12-10")));
    let (_, kept) = send(server.http.patch(&url).json(&json!({ "accent_color": null }))).await;
    assert_eq!(kept["nickname"], json!("ada"), "an absent field is left as it was: {kept}");
    assert_eq!(kept["accent_color"], Value::Null, "a null field is cleared, and the answer says so: {kept}");
    assert_eq!(kept["birthday"], json!("1815-12-10"));
    assert_eq!(kept["theme"], json!("dark"), "an absent defaulted field reads as its default");

    // The generated client says the same three things with `Presence`.
    let client = server.client();
    let body = update_profile::Body::default().nickname(Presence::Null).theme(Theme::Light);
    let profile = client.send(&update_profile::Request::new(body)).await.expect("the update is accepted");
    assert_eq!(profile.nickname, Presence::Null);
    assert_eq!(profile.accent_color, Presence::Null);
    assert_eq!(profile.birthday.value().map(ToString::to_string).as_deref(), Some("1815-12-10"));
    assert_eq!(profile.theme, Theme::Light);
}

#[tokio::test]
async fn request_values_outside_the_declared_set_are_400_at_their_pointer() {
    let server = Server::start(Shapes::new()).await;
    let mut body = document_body();
    body["components"] = json!([
        { "type": 99, "label": "from the future" },
        { "type": 2, "style": 5 },
        { "type": 2, "style": 77 },
        { "type": 1, "components": [{ "type": 4 }] }
    ]);
    body["nonce"] = json!(1.5);
    body["shapes"] = json!([{ "kind": "hexagon", "sides": 6 }]);
    let (status, answer) = send(server.http.post(server.api("/documents")).json(&body)).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["code"], 50035);
    let found = violations(&answer);
    let expected = [
        ("/body/nonce", "is no variant of `nonce` (it is none of `integer`, `string`)"),
        ("/body/components/0", "is no variant of `component` (`type` is 99)"),
        ("/body/components/1/style", "must be one of `PRIMARY`, `SECONDARY`, `DANGER` (got 5)"),
        ("/body/components/2/style", "must be one of `PRIMARY`, `SECONDARY`, `DANGER` (got 77)"),
        ("/body/components/3/components/0", "is no variant of `component` (`type` is 4)"),
        ("/body/shapes/0", "is no variant of `shape` (`kind` is hexagon)"),
    ];
    for (pointer, message) in expected {
        assert!(found.contains(&(pointer.to_owned(), message.to_owned())), "no `{message}` at {pointer} in {found:?}");
    }
    assert_eq!(found.len(), expected.len(), "every violation, and only them: {found:?}");
}

#[tokio::test]
async fn constraints_of_every_shape_are_checked_together() {
    let server = Server::start(Shapes::new()).await;
    let body = json!({
        "title": "no punctuation allowed!",
        "tags": ["a", "B", "a", ""],
        "scores": { "x": 101, "y": -1 },
        "owner": { "name": "" },
        "nonce": "a nonce of more than twenty-five characters",
        "shapes": [{ "kind": "circle", "radius": 0 }, { "kind": "rect", "width": 1000.75, "height": 1000 }],
        "components": [{ "type": 3, "custom_id": "", "options": ["a", "a"] }]
    });
    let (status, answer) = send(server.http.post(server.api("/documents")).json(&body)).await;
    assert_eq!(status, 400, "{answer}");
    let mut found = pointers_of(&answer);
    found.sort();
    let mut expected = vec![
        "/body/title",
        "/body/tags/1",
        "/body/tags/2",
        "/body/tags/3",
        "/body/tags/3",
        "/body/scores/x",
        "/body/scores/y",
        "/body/owner/name",
        "/body/nonce",
        "/body/shapes/0/radius",
        "/body/shapes/1/width",
        "/body/shapes/1/height",
        "/body/components/0/custom_id",
        "/body/components/0/options/1",
    ];
    expected.sort_unstable();
    assert_eq!(found, expected, "{answer}");
}

#[tokio::test]
async fn the_client_refuses_to_send_what_the_server_would_refuse() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client();
    let link = Button::new(ComponentType::Button, ButtonStyle::Link).url("not a uri");
    let unknown = Component::Unknown { tag: ComponentType::TextInput, raw: json!({ "type": 4 }) };
    let body = create_document::Body::new("Notes", Vec::new(), IndexMap::new(), CreateDocumentBodyOwner::new("Ada"))
        .nonce(Nonce::String("n".to_owned()))
        .components(vec![Component::Button(link), unknown]);
    let Err(Error::Invalid(found)) = client.send(&create_document::Request::new(body)).await else { panic!("the client sends it") };
    let found: Vec<&str> = found.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(found, ["/body/components/0/style", "/body/components/0/url", "/body/components/1"]);
}

#[tokio::test]
async fn clients_keep_what_a_newer_server_sends() {
    let server = Server::start(Shapes::new().with_newer_payloads()).await;
    let payloads = server.client().poll_gateway().await.expect("the payloads are read");
    assert!(matches!(payloads[0], GatewayPayload::Hello(_)), "{payloads:?}");
    let GatewayPayload::Unknown { tag, raw } = &payloads[2] else { panic!("an unknown payload is kept: {payloads:?}") };
    assert_eq!((*tag, raw), (99, &json!({ "op": 99, "shard": [0, 1] })));
    assert_eq!(serde_json::to_value(&payloads[2]).unwrap(), json!({ "op": 99, "shard": [0, 1] }), "it writes back as it came");
}

#[tokio::test]
async fn recursive_shapes_travel_both_ways() {
    let server = Server::start(Shapes::new()).await;
    let client = server.client();
    let mut expression = Expression::Literal(2.5);
    for _ in 0..5 {
        expression = Expression::Negation(Box::new(Negation::new(expression)));
    }
    let value = client.send(&evaluate::Request::new(expression)).await.expect("evaluated");
    assert_eq!(value, -2.5);
    let categories = client.list_categories().await.expect("listed");
    assert_eq!(categories[1].parent.as_deref().map(|p| p.name.as_str()), Some("All"));
}

#[tokio::test]
async fn a_value_of_the_wrong_shape_is_400_at_its_pointer() {
    let server = Server::start(Shapes::new()).await;
    let mut body = document_body();
    body["scores"] = json!({ "x": "high" });
    let (status, answer) = send(server.http.post(server.api("/documents")).json(&body)).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(pointers_of(&answer), ["/body/scores/x"]);
    let (status, answer) = send(server.http.get(server.api("/documents/not-a-uuid"))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(pointers_of(&answer), ["/path/document.id"]);
    let (status, answer) = send(server.http.get(server.api("/documents/00000000-0000-0000-0000-000000000001?locale=xx"))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(violations(&answer), [("/query/locale".to_owned(), "is not a value of `locale` (got xx)".to_owned())]);
    let (status, found) = send(server.http.get(server.api("/documents/00000000-0000-0000-0000-000000000001?locale=fr"))).await;
    assert_eq!((status, found["title"].clone()), (200, json!("First")));
}
