//! Paginated endpoints over 127.0.0.1: the generated client's `<method>_pages` and
//! `<method>_stream` against the shapes fixture's in-memory service (a keyset, a cursor and an
//! offset endpoint, each paging as a real service would) and against its generated mock, which
//! cuts consistent pages from one collection. Every item arrives once, in order, and paging ends
//! where the spec's rules say, without a request past the end where the page says it is the last.

use crate::shapes_common;

use shapes_client::types::endpoints::{browse_notes, list_archived_notes, list_notes, search_notes};
use shapes_client::types::pagination::MOCK_ITEMS;
use shapes_client::types::wire::Snowflake;
use shapes_client::{Error, StreamExt, TryStreamExt};
use shapes_common::{Server, Shapes};
use std::collections::BTreeSet;

/// A service holding `n` notes titled `note 1` to `note n`.
async fn with_notes(n: u64) -> Server {
    let server = Server::start(Shapes::new()).await;
    let client = server.client();
    for i in 1..=n {
        let request =
            shapes_client::types::endpoints::create_note::Request::new(shapes_client::types::endpoints::create_note::Fields::new(format!("note {i}")));
        client.send(&request).await.expect("a note is created");
    }
    server
}

/// Listing notes in English, `limit` a page.
fn notes(limit: Option<i64>) -> list_notes::Request {
    let mut request = list_notes::Request::default();
    request.headers.locale = "en".to_owned();
    request.query.limit = limit;
    request
}

#[tokio::test]
async fn a_keyset_stream_yields_every_note_once_and_stops_at_a_short_page() {
    let server = with_notes(7).await;
    let client = server.client();
    let request = notes(Some(3));
    let pages: Vec<list_notes::Success> = client.list_notes_pages(request.clone()).try_collect().await.expect("every page");
    let sizes: Vec<usize> = pages.iter().map(|p| p.body.len()).collect();
    assert_eq!(sizes, [3, 3, 1], "a page shorter than the limit is the last: no fourth request");
    let ids: Vec<u64> = client.list_notes_stream(request).map_ok(|n| n.id.0).try_collect().await.expect("every note");
    assert_eq!(ids, (1..=7).collect::<Vec<u64>>());
}

#[tokio::test]
async fn a_keyset_stream_without_a_limit_ends_at_an_empty_page() {
    let server = with_notes(4).await;
    let pages: Vec<list_notes::Success> = server.client().list_notes_pages(notes(None)).try_collect().await.expect("every page");
    let sizes: Vec<usize> = pages.iter().map(|p| p.body.len()).collect();
    assert_eq!(sizes, [4, 0], "nothing says the first page is the last but the empty one after it");
}

#[tokio::test]
async fn a_cursor_stream_follows_the_named_page_until_it_is_null() {
    let server = with_notes(5).await;
    let client = server.client();
    let request = search_notes::Request::default().text("note");
    let pages: Vec<search_notes::Response> = client.search_notes_pages(request.clone()).try_collect().await.expect("every page");
    assert_eq!(pages.iter().map(|p| p.items.len()).collect::<Vec<_>>(), [2, 2, 1]);
    assert!(pages.last().unwrap().next_page.is_null(), "the last page says so with null");
    let titles: Vec<String> = client.search_notes_stream(request.limit(4)).map_ok(|n| n.title).try_collect().await.expect("every note");
    assert_eq!(titles, (1..=5).map(|i| format!("note {i}")).collect::<Vec<_>>());
}

#[tokio::test]
async fn an_offset_stream_counts_the_items_before_each_page() {
    let server = with_notes(7).await;
    let ids: Vec<u64> =
        server.client().list_archived_notes_stream(list_archived_notes::Request::default()).map_ok(|n| n.id.0).try_collect().await.expect("every note");
    assert_eq!(ids, (1..=7).collect::<Vec<u64>>());
}

#[tokio::test]
async fn an_error_is_the_last_item_of_a_stream() {
    let server = with_notes(2).await;
    let mut stream = std::pin::pin!(server.client().list_notes_stream(notes(Some(0))));
    match stream.next().await {
        Some(Err(Error::Invalid(violations))) => assert_eq!(violations[0].pointer, "/query/limit"),
        other => panic!("expected the request's violation, got {other:?}"),
    }
    assert!(stream.next().await.is_none(), "nothing after the error");
    let bad_token = search_notes::Request::default().text("note").page_token("not a number");
    let failed: Result<Vec<_>, Error> = server.client().search_notes_stream(bad_token).try_collect().await;
    assert!(matches!(failed, Err(Error::Invalid(ref v)) if v[0].pointer == "/query/page_token"), "{failed:?}");
}

#[tokio::test]
async fn a_link_stream_follows_the_next_link_until_there_is_none() {
    let server = with_notes(7).await;
    let client = server.client();
    let request = browse_notes::Request::default().per_page(3);
    let pages: Vec<browse_notes::Success> = client.browse_notes_pages(request.clone()).try_collect().await.expect("every page");
    let sizes: Vec<usize> = pages.iter().map(|p| p.body.len()).collect();
    assert_eq!(sizes, [3, 3, 1], "the last page links no next one");
    let ids: Vec<u64> = client.browse_notes_stream(request).map_ok(|n| n.id.0).try_collect().await.expect("every note");
    assert_eq!(ids, (1..=7).collect::<Vec<u64>>());
}

#[tokio::test]
async fn the_mock_serves_one_collection_in_consistent_pages_for_every_way() {
    let client = shapes_common::mock_client().await;
    let keys: Vec<Snowflake> = client.list_notes_stream(notes(Some(7))).map_ok(|n| n.id).try_collect().await.expect("keyset");
    assert_eq!(keys.len(), MOCK_ITEMS);
    assert_eq!(keys.iter().collect::<BTreeSet<_>>().len(), MOCK_ITEMS, "every key once: {keys:?}");
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "in key order");
    let pages: Vec<search_notes::Response> = client.search_notes_pages(search_notes::Request::default().limit(10)).try_collect().await.expect("cursor");
    assert_eq!(pages.iter().map(|p| p.items.len()).collect::<Vec<_>>(), [10, 10, 5]);
    let offset: Vec<_> = client.list_archived_notes_stream(list_archived_notes::Request::default()).try_collect().await.expect("offset");
    assert_eq!(offset.len(), MOCK_ITEMS);
    let linked: Vec<browse_notes::Success> = client.browse_notes_pages(browse_notes::Request::default().per_page(10)).try_collect().await.expect("link");
    assert_eq!(linked.iter().map(|p| p.body.len()).collect::<Vec<_>>(), [10, 10, 5]);
    let ids: BTreeSet<Snowflake> = linked.into_iter().flat_map(|p| p.body).map(|n| n.id).collect();
    assert_eq!(ids.len(), MOCK_ITEMS, "every item once");
}
