//! Streamed responses over 127.0.0.1: the shapes fixture's `watch_notes` (server-sent events by
//! name, resumable with `Last-Event-ID`) and `stream_notes` (JSON Lines), from the generated
//! server's typed sender to the generated client's stream of typed events, against the
//! in-memory service and the generated mock. Every event is decoded, one the spec does not name
//! arrives raw, and a stream that breaks resumes after its last event without loss or repeat.

use crate::shapes_common;

use shapes_client::types::endpoints::{create_note, watch_notes};
use shapes_client::types::stream::StreamError;
use shapes_client::types::wire::Snowflake;
use shapes_client::{Error, Retry, StreamExt, TryStreamExt};
use shapes_common::{Server, Shapes};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A service holding two notes.
async fn with_notes(shapes: Shapes) -> Server {
    let server = Server::start(shapes).await;
    for title in ["first", "second"] {
        let request = create_note::Request::new(create_note::Fields::new(title));
        server.client().send(&request).await.expect("a note is created");
    }
    server
}

/// What each event says, in a line of text.
fn described(event: &watch_notes::OkEvent) -> String {
    match event {
        watch_notes::OkEvent::NoteCreated(note) => format!("created {}", note.title),
        watch_notes::OkEvent::NoteDeleted(id) => format!("deleted {}", id.0),
        watch_notes::OkEvent::Heartbeat(text) => format!("heartbeat {text}"),
        watch_notes::OkEvent::Unknown { name, data } => format!("unknown {name} {data}"),
        other => format!("{other:?}"),
    }
}

#[tokio::test]
async fn every_event_is_decoded_and_one_the_spec_does_not_name_arrives_raw() {
    let server = with_notes(Shapes::new().with_newer_payloads()).await;
    let events = server.client().watch_notes().await.expect("the stream opens");
    let events: Vec<String> = events.map_ok(|e| described(&e)).try_collect().await.expect("every event");
    assert_eq!(events, ["created first", "created second", "heartbeat still here", r#"unknown note_pinned {"id":"1"}"#, "deleted 999"]);
}

#[tokio::test]
async fn a_stream_that_breaks_resumes_after_its_last_event_and_loses_none() {
    let server = with_notes(Shapes::new()).await;
    server.shapes.break_watch_after.store(2, Ordering::SeqCst);
    let retry = Retry { initial: Duration::from_millis(1), ..Retry::default() };
    let client = server.client().with_retry(retry);
    let events = client.watch_notes().await.expect("the stream opens");
    let events: Vec<String> = events.map_ok(|e| described(&e)).try_collect().await.expect("every event, across the break");
    assert_eq!(events, ["created first", "created second", "heartbeat still here", "deleted 999"]);
    assert_eq!(server.shapes.break_watch_after.load(Ordering::SeqCst), 0, "the stream did break");
}

#[tokio::test]
async fn a_stream_that_breaks_without_retries_ends_with_the_break() {
    let server = with_notes(Shapes::new()).await;
    server.shapes.break_watch_after.store(1, Ordering::SeqCst);
    let events = server.client().watch_notes().await.expect("the stream opens");
    let got: Vec<Result<watch_notes::OkEvent, StreamError>> = events.collect().await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(matches!(&got[0], Ok(watch_notes::OkEvent::NoteCreated(n)) if n.title == "first"), "{got:?}");
    assert!(matches!(&got[1], Err(StreamError::Broken(_))), "{got:?}");
}

#[tokio::test]
async fn a_resumed_request_carries_the_last_event_id_to_the_handler() {
    let server = with_notes(Shapes::new()).await;
    let mut request = watch_notes::Request::default();
    request.headers.last_event_id = Some("3".to_owned());
    let events = server.client().send(&request).await.expect("the stream opens");
    let events: Vec<String> = events.map_ok(|e| described(&e)).try_collect().await.expect("every event after the third");
    assert_eq!(events, ["deleted 999"]);
}

#[tokio::test]
async fn json_lines_arrive_one_note_a_line() {
    let server = with_notes(Shapes::new()).await;
    let notes = server.client().stream_notes().await.expect("the stream opens");
    let titles: Vec<String> = notes.map_ok(|n| n.title).try_collect().await.expect("every note");
    assert_eq!(titles, ["first", "second"]);
}

#[tokio::test]
async fn an_error_status_is_an_error_and_no_stream() {
    let server = with_notes(Shapes::new()).await;
    let client = server.client_as(Some(shapes_client::types::auth::Credential::bot("not a token")));
    let failed = client.watch_notes().await;
    assert!(matches!(&failed, Err(Error::Api(e)) if e.status == 401), "{failed:?}");
}

#[tokio::test]
async fn the_server_says_what_it_streams() {
    let server = with_notes(Shapes::new()).await;
    let answer = server.http.get(server.api("/notes/stream")).header("authorization", "Bot bot-token").send().await.expect("an answer");
    assert_eq!(answer.headers()["content-type"], "application/jsonl");
    let text = answer.text().await.expect("the body");
    assert_eq!(text.lines().count(), 2, "{text}");
    let answer = server.http.get(server.api("/notes/events")).header("authorization", "Bot bot-token").send().await.expect("an answer");
    assert_eq!(answer.headers()["content-type"], "text/event-stream");
    assert_eq!(answer.headers()["cache-control"], "no-cache");
    let text = answer.text().await.expect("the body");
    assert!(text.starts_with("id: 1\nevent: note_created\ndata: {"), "{text}");
}

#[tokio::test]
async fn the_mock_streams_an_example_of_each_event_and_resumes_after_an_id() {
    let client = shapes_common::mock_client().await;
    let events: Vec<watch_notes::OkEvent> = client.watch_notes().await.expect("the stream opens").try_collect().await.expect("every event");
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(matches!(events[0], watch_notes::OkEvent::NoteCreated(_)));
    assert!(matches!(events[1], watch_notes::OkEvent::NoteDeleted(Snowflake(_))));
    assert!(matches!(events[2], watch_notes::OkEvent::Heartbeat(_)));
    let mut request = watch_notes::Request::default();
    request.headers.last_event_id = Some("2".to_owned());
    let rest: Vec<_> = client.send(&request).await.expect("the stream opens").try_collect().await.expect("the rest");
    assert_eq!(rest, events[2..]);
    let notes: Vec<_> = client.stream_notes().await.expect("the stream opens").try_collect().await.expect("every line");
    assert_eq!(notes.len(), 3);
}
