//! The shortest code that calls each endpoint of the shapes fixture (every shape of request the
//! format has: path parameters, queries, headers, JSON, form, multipart, raw and union bodies,
//! streams) with its generated client, against its generated mock over 127.0.0.1.
//!
//! The generated structs are `#[non_exhaustive]`, so a request is built by the client's method
//! of its endpoint (path parameters and the body's required fields as arguments) and setters,
//! never a struct literal; this test keeps that short. Every routed
//! endpoint of the fixture has one call below, and each call is one statement of at most
//! [`LONGEST`] characters: a design that made building a request longer fails here.

use shapes_client::Client;
use shapes_client::types::auth::Credential;
use shapes_client::types::endpoints::*;
use shapes_client::types::enums::Theme;
use shapes_client::types::resources::{CreateDocumentBodyOwner, ImportMeta};
use shapes_client::types::unions::Expression;
use shapes_client::types::wire::{FilePart, IndexMap, RawBody, Uuid};

/// The longest call allowed, in characters without indentation.
const LONGEST: usize = 100;

/// Each call through `c` (a bot's credential), or `b` (a bearer token's) where only one is accepted.
async fn every_endpoint(c: &Client, b: &Client) -> Result<(), shapes_client::Error> {
    // calls:begin
    c.get_status().await?;
    c.list_tags(list_tags::Query::new(Theme::Dark)).await?;
    c.get_note_export(1u64, "md").await?;
    c.get_archive("logs").await?;
    c.send_feedback_form().await?;
    c.send_feedback().await?;
    c.amend_feedback().await?;
    c.get_note(1u64).await?;
    c.list_notes().limit(5).await?;
    c.search_notes().text("note").await?;
    c.list_archived_notes().await?;
    c.browse_notes().await?;
    b.get_me().await?;
    c.create_note("a title").await?;
    c.import_notes(import_notes::Parts::new(csv(), ImportMeta::new("x", false))).await?;
    c.upload_attachment(1u64, png()).await?;
    c.get_attachment(1u64).await?;
    c.export_notes().await?;
    c.watch_notes().await?;
    c.stream_notes().await?;
    c.delete_note(1u64).await?;
    c.create_document(document()).await?;
    c.get_document(Uuid(1)).await?;
    c.update_profile().theme(Theme::Light).await?;
    c.evaluate(Expression::Literal(1.0)).await?;
    c.poll_gateway().await?;
    c.list_categories().await?;
    // calls:end
    Ok(())
}

fn csv() -> FilePart {
    FilePart { filename: Some("notes.csv".to_owned()), content_type: "text/csv".to_owned(), bytes: b"id,title\n".to_vec() }
}

fn document() -> create_document::Body {
    create_document::Body::new("Notes", vec![], IndexMap::new(), CreateDocumentBodyOwner::new("Ada"))
}

fn png() -> RawBody {
    RawBody { content_type: "image/png".to_owned(), bytes: vec![1] }
}

#[tokio::test]
async fn every_endpoint_is_one_short_call() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let origin = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, shapes_server::mock::router()).await.expect("the mock runs") });
    let placeholders = shapes_client::types::placeholders::Placeholders { api_url: format!("{origin}/api") };
    let client = Client::new(placeholders);
    let (bot, bearer) = (client.with_credential(Credential::bot("mock")), client.with_credential(Credential::bearer("mock")));
    every_endpoint(&bot, &bearer).await.unwrap_or_else(|e| panic!("a call failed: {e}"));
}

#[test]
fn the_calls_are_one_statement_each_and_short() {
    let source = include_str!("shortest_calls.rs");
    let block = source.split("// calls:begin").nth(1).and_then(|r| r.split("// calls:end").next()).expect("the calls");
    let calls: Vec<&str> = block.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shapes");
    let model = platform_codegen::load_spec(&fixture, "shapes").unwrap_or_else(|_| panic!("the shapes fixture is valid")).model;
    let routed: Vec<&str> = model.endpoints.iter().filter(|e| e.is_routed()).map(|e| e.meta.id.as_str()).collect();
    assert_eq!(calls.len(), routed.len(), "one call per routed endpoint: {routed:?}");
    for id in routed {
        let call = |client: &str| format!("{client}.{id}(");
        assert!(calls.iter().any(|c| c.starts_with(&call("c")) || c.starts_with(&call("b"))), "no call of `{id}`");
    }
    for call in calls {
        assert!(call.ends_with(".await?;"), "one statement per call: {call}");
        assert!(call.chars().count() <= LONGEST, "{} characters (at most {LONGEST}): {call}", call.chars().count());
    }
}
