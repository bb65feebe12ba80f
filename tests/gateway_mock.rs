//! The shapes fixture's gateway (member names, nested paths and opcodes unlike Discord's), served
//! by its generated mock (server features `mock` and `gateway`) and read by its generated shard
//! (client feature `gateway`) over 127.0.0.1: the mock starts any session,
//! welcomes it with an example of every event, and answers a command with its reply's example.

use serde_json::json;
use shapes_client::gateways::{self, Received};
use shapes_client::types::gateway::{StreamLoginPayload, StreamSubscribePayload};
use shapes_client::types::gateways::NoteStreamEvent;

async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("ws://{}", listener.local_addr().expect("an address"));
    let router = shapes_server::mock::gateway_note_stream().router();
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

async fn next(shard: &mut gateways::NoteStreamShard) -> (String, NoteStreamEvent) {
    loop {
        match shard.next().await.expect("the shard goes on").expect("no fatal close") {
            Received::Dispatch(d) => return (d.name, d.event.unwrap_or_else(|e| panic!("the mock's example decodes: {e}"))),
            Received::Session(_) => {}
        }
    }
}

/// On the real clock: the server reads the client's commands through hyper's upgraded
/// connection, whose wakeups tokio's paused clock does not wait for. Nothing here depends on time.
#[tokio::test]
async fn the_mock_gateway_welcomes_a_session_with_every_example_and_answers_commands() {
    let url = serve().await;
    let login: StreamLoginPayload = serde_json::from_value(json!({ "credentials": { "token": "any" }, "topics": ["news"] })).expect("a login");
    let mut shard = gateways::note_stream(&url, &login).expect("a shard");
    let (name, welcome) = next(&mut shard).await;
    assert_eq!(name, "WELCOME");
    let NoteStreamEvent::StreamWelcome(welcome) = welcome else { panic!("{welcome:?}") };
    // The hub put the session's id at the nested member the spec names.
    assert_eq!(shard.session().map(|s| s.id.as_str()), Some(welcome.session.id.as_str()));
    let (name, posted) = next(&mut shard).await;
    assert_eq!(name, "NOTE_POSTED");
    assert!(matches!(posted, NoteStreamEvent::NotePosted(_)), "{posted:?}");
    assert_eq!(next(&mut shard).await.0, "SUBSCRIBED");

    let sender = shard.sender();
    let subscribe: StreamSubscribePayload = serde_json::from_value(json!({ "topic": "notes" })).expect("a command");
    let reply = tokio::spawn(async move { sender.request(&subscribe).await });
    assert_eq!(next(&mut shard).await.0, "SUBSCRIBED");
    reply.await.expect("joins").expect("the reply");

    // A command that breaks the spec is refused before it is sent...
    let long: StreamSubscribePayload = serde_json::from_value(json!({ "topic": "x".repeat(33) })).expect("a command");
    match shard.sender().send(&long) {
        Err(gateways::SendError::Invalid(violations)) => assert_eq!(violations[0].pointer, "/topic", "{violations:?}"),
        other => panic!("refused: {other:?}"),
    }
    // ...and one sent raw anyway is refused by the server, which closes with its decode-error
    // code (4400 in this protocol) and resumes.
    shard.sender().send_raw(7, json!({ "topic": "" }).to_string()).expect("queued");
    loop {
        match shard.next().await.expect("goes on").expect("no fatal close") {
            Received::Session(gateways::SessionEvent::Closed { code, .. }) => {
                assert_eq!(code, Some(4400));
                break;
            }
            Received::Session(_) | Received::Dispatch(_) => {}
        }
    }
}
