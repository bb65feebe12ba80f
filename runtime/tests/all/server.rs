//! The server's readers: every fault of a request found at once, refusals with what they
//! refused, and no panic on any input.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, header};
use platform_codegen_runtime::server::{self, Piece, Rejection};
use platform_codegen_runtime::validation::Violation;
use std::time::Duration;

#[derive(serde::Deserialize, Debug, PartialEq)]
struct Note {
    text: String,
    pins: Vec<u8>,
}

#[test]
fn json_bodies_refuse_syntax_and_locate_shape_errors() {
    let mut out = Vec::new();
    let note: Option<Note> = server::json_body(br#"{"text":"a","pins":[1]}"#, &mut out).unwrap();
    assert_eq!(note, Some(Note { text: "a".into(), pins: vec![1] }));
    let wrong: Option<Note> = server::json_body(br#"{"text":"a","pins":[1,"x"]}"#, &mut out).unwrap();
    assert_eq!(wrong, None);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].pointer, "/body/pins/1");
    let refused = server::json_body::<Note>(b"{not json", &mut out).unwrap_err();
    assert!(matches!(refused, Rejection::NotJson(_)), "{refused:?}");
    assert_eq!(refused.status(), 400);
}

#[test]
fn an_integer_written_with_a_fraction_is_that_integer() {
    let mut out = Vec::new();
    let note: Option<Note> = server::json_body(br#"{"text":"a","pins":[5.0,1e2,-0.0]}"#, &mut out).unwrap();
    assert_eq!(note, Some(Note { text: "a".into(), pins: vec![5, 100, 0] }), "{out:?}");
    assert!(out.is_empty());
    let fraction: Option<Note> = server::json_body(br#"{"text":"a","pins":[5.5]}"#, &mut out).unwrap();
    assert_eq!(fraction, None);
    assert_eq!(out.len(), 1, "a true fraction is still refused");
    assert_eq!(out[0].pointer, "/body/pins/0");
    let huge: Option<Note> = server::json_body(br#"{"text":"a","pins":[1e30]}"#, &mut Vec::new()).unwrap();
    assert_eq!(huge, None, "an integer no u64 holds is refused, not wrapped");
}

#[test]
fn an_integer_parameter_written_as_a_whole_number_with_a_fraction_is_that_integer() {
    assert_eq!(server::integer::<i64>("7262"), Ok(7262));
    assert_eq!(server::integer::<i64>("7262.0"), Ok(7262));
    assert_eq!(server::integer::<i64>("-3.000"), Ok(-3));
    assert_eq!(server::integer::<u64>("18446744073709551615.0"), Ok(u64::MAX), "exact past 2^53");
    assert_eq!(server::integer::<i32>("1e3"), Ok(1000));
    for refused in ["7262.5", "1.", ".0", "1e400", "-1.0", "4294967296.0", "x.0", "1.0e", "NaN", "inf", ""] {
        assert!(server::integer::<u32>(refused).is_err(), "{refused:?} is no u32");
    }
    let message = server::integer::<u32>("7262.5").unwrap_err();
    assert!(message.contains("7262.5"), "the refusal names the text: {message}");
}

#[test]
fn a_list_header_is_comma_separated_over_one_line_or_several() {
    let mut out = Vec::new();
    let pairs = vec![("x-ids".to_owned(), "1, 2,3".to_owned()), ("x-ids".to_owned(), " 4".to_owned())];
    let ids = server::header_list(&pairs, "x-ids", "/headers/X-Ids", true, &mut out, server::from_str::<u8>);
    assert_eq!(ids, Some(vec![1, 2, 3, 4]), "{out:?}");
    let bad = vec![("x-ids".to_owned(), "1, x".to_owned())];
    assert_eq!(server::header_list(&bad, "x-ids", "/headers/X-Ids", true, &mut out, server::from_str::<u8>), None);
    assert_eq!(out[0].pointer, "/headers/X-Ids/1");
    assert_eq!(server::header_list(&[], "x-ids", "/headers/X-Ids", false, &mut out, server::from_str::<u8>), None);
    let empty = vec![("x-ids".to_owned(), String::new()), ("x-ids".to_owned(), " , 5,".to_owned())];
    assert_eq!(server::header_list(&empty, "x-ids", "/headers/X-Ids", true, &mut out, server::from_str::<u8>), Some(vec![5]), "empty items are ignored");
    assert_eq!(out.len(), 1, "an optional absent list is no violation");
}

#[test]
fn an_empty_body_of_optional_members_is_the_empty_object() {
    assert_eq!(server::or_empty_object(b" \r\n"), b"{}");
    assert_eq!(server::or_empty_object(br#"{"a":1}"#), br#"{"a":1}"#);
}

#[test]
fn an_empty_optional_body_is_absent() {
    let read = |bytes: &[u8]| server::json_body::<Note>(bytes, &mut Vec::new());
    assert_eq!(server::optional_body(b" \n", read).unwrap(), Some(None));
    assert!(server::optional_body(b"[", read).is_err());
}

#[test]
fn parameters_report_absence_and_parse_errors() {
    let mut out: Vec<Violation> = Vec::new();
    let pairs = server::query_pairs(Some("limit=5&limit=6&after=x"), &mut out);
    assert_eq!(server::param(&pairs, "limit", "/query/limit", true, &mut out, server::from_str::<u8>), Some(5));
    assert_eq!(server::param(&pairs, "after", "/query/after", false, &mut out, server::from_str::<u64>), None);
    assert_eq!(server::param(&pairs, "before", "/query/before", true, &mut out, server::from_str::<u64>), None);
    let pointers: Vec<&str> = out.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/query/after", "/query/before"]);
    let list = server::comma_list(Some("ids=1,2,x"), "ids", "/query/ids", true, &mut out, server::from_str::<u8>);
    assert_eq!(list, None);
    assert_eq!(out.last().map(|v| v.pointer.as_str()), Some("/query/ids/2"));
    let repeated = server::param_list(&[("ids".into(), "1".into()), ("ids".into(), "2".into())], "ids", "/query/ids", true, &mut out, server::from_str::<u8>);
    assert_eq!(repeated, Some(vec![1, 2]));
}

#[test]
fn a_comma_list_splits_on_the_query_s_commas_and_keeps_encoded_ones() {
    let mut out: Vec<Violation> = Vec::new();
    let text = |t: &str| Ok::<_, String>(t.to_owned());
    let tags = server::comma_list(Some("x=1&tags=a%2Cb,c+d,&tags=e"), "tags", "/query/tags", true, &mut out, text);
    assert_eq!(tags, Some(vec!["a,b".to_owned(), "c d".to_owned(), String::new(), "e".to_owned()]));
    assert_eq!(server::comma_list(Some("x=1"), "tags", "/query/tags", false, &mut out, text), None);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(server::comma_list(Some("tags=%FF"), "tags", "/query/tags", true, &mut out, text), None);
    assert_eq!(out.len(), 1, "not UTF-8: {out:?}");
}

#[test]
fn mixed_segments_split_by_their_text() {
    let pieces = [Piece::Param, Piece::Text("."), Piece::Param];
    let split = |text: &str| split_one(text, &pieces);
    assert_eq!(split("report.tar.gz"), Some(vec!["report".to_owned(), "tar.gz".to_owned()]));
    assert_eq!(split("report"), None);
    assert_eq!(split(".gz"), None, "a placeholder is never empty");
}

/// `split_segment` over a path whose one segment is `text`, matched by axum's router.
fn split_one(text: &str, pieces: &[Piece]) -> Option<Vec<String>> {
    use axum::extract::RawPathParams;
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let pieces = pieces.to_vec();
    let app = axum::Router::new().route(
        "/{segment}",
        axum::routing::get(move |params: RawPathParams| async move {
            let values = server::split_segment(&params, "segment", &pieces).map(|v| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
            serde_json::to_string(&values).unwrap_or_default()
        }),
    );
    runtime.block_on(async {
        use tower_service::Service as _;
        let request = axum::http::Request::get(format!("/{text}")).body(Body::empty()).unwrap();
        let response = app.clone().call(request).await.unwrap();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        serde_json::from_slice(&bytes).unwrap()
    })
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused_before_they_are_read() {
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from_static("11"));
    let refused = server::read_body(&headers, Body::from("hello world"), 10, Duration::from_secs(1)).await.unwrap_err();
    assert_eq!(refused, Rejection::TooLarge { limit: 10 });
    // Without a declared length, the limit stops the read.
    let refused = server::read_body(&HeaderMap::new(), Body::from("hello world"), 10, Duration::from_secs(1)).await.unwrap_err();
    assert_eq!(refused.status(), 413);
    let read = server::read_body(&HeaderMap::new(), Body::from("hello"), 10, Duration::from_secs(1)).await.unwrap();
    assert_eq!(read, Bytes::from_static(b"hello"));
}

#[tokio::test(start_paused = true)]
async fn a_body_that_never_arrives_times_out() {
    let (_sender, body) = body_that_never_ends();
    let refused = server::read_body(&HeaderMap::new(), body, 10, Duration::from_secs(30)).await.unwrap_err();
    assert_eq!(refused, Rejection::Timeout { after: Duration::from_secs(30) });
    assert_eq!(refused.status(), 408);
    assert!(refused.to_string().contains("30000 ms"), "{refused}");
}

/// A body whose sender is kept and never sends: the read waits until the timeout.
fn body_that_never_ends() -> (tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>, Body) {
    let (sender, receiver) = tokio::sync::mpsc::channel(1);
    let stream = futures_util::stream::unfold(receiver, |mut r| async move { r.recv().await.map(|item| (item, r)) });
    (sender, Body::from_stream(stream))
}

#[tokio::test]
async fn multipart_parts_are_read_by_name() {
    use platform_codegen_runtime::multipart;
    let body = "--b\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"text\":\"a\",\"pins\":[]}\r\n--b\r\nContent-Disposition: form-data; name=\"files[1]\"; filename=\"b.png\"\r\nContent-Type: image/png\r\n\r\nB\r\n--b\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.png\"\r\n\r\nA\r\n--b--\r\n";
    let mut headers = HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("multipart/form-data; boundary=b"));
    let parts = multipart::multipart(&headers, Bytes::from(body)).await.unwrap();
    let mut out = Vec::new();
    let note: Option<Note> = multipart::part_json(&parts, "payload_json", "/body/payload_json", true, &mut out);
    assert_eq!(note, Some(Note { text: "a".into(), pins: vec![] }));
    let files = multipart::part_files(&parts, "files", "/body/files", true, true, &mut out).unwrap();
    let names: Vec<Option<&str>> = files.iter().map(|f| f.filename.as_deref()).collect();
    assert_eq!(names, [Some("a.png"), Some("b.png")], "indexed parts in index order");
    assert_eq!(files[0].content_type, "application/octet-stream");
    assert!(out.is_empty(), "{out:?}");
    let not_multipart = multipart::multipart(&HeaderMap::new(), Bytes::from_static(b"x")).await.unwrap_err();
    assert_eq!(not_multipart.status(), 400);
}

#[test]
fn responses_outside_their_declared_range_are_the_implementations_fault() {
    assert_eq!(server::in_range(204, 200, 299), Ok(204));
    let broken = server::in_range(404, 200, 299).unwrap_err();
    assert_eq!(broken.status(), 500);
    let mut response = server::status_response(200);
    assert!(server::set_header(&mut response, "x-count", &3).is_ok());
    assert_eq!(response.headers()["x-count"], "3");
    assert_eq!(server::set_header(&mut response, "x-bad", &"line\nbreak").unwrap_err().status(), 500);
}

/// A union read the way generated unions read: the value first, then each variant from it,
/// and a value no variant reads kept as unknown (open on read).
#[derive(Debug, PartialEq)]
enum Either {
    Note(Note),
    Unknown(serde_json::Value),
}

impl<'de> serde::Deserialize<'de> for Either {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
        Ok(<Note as serde::Deserialize>::deserialize(&value).map_or(Either::Unknown(value), Either::Note))
    }
}

#[test]
fn integral_numbers_reach_the_variants_of_an_open_union() {
    let mut out = Vec::new();
    let read: Option<Either> = server::json_body(br#"{"text":"a","pins":[5.0]}"#, &mut out).unwrap();
    assert_eq!(read, Some(Either::Note(Note { text: "a".into(), pins: vec![5] })), "{out:?}");
    let fraction: Option<Either> = server::json_body(br#"{"text":"a","pins":[5.5]}"#, &mut out).unwrap();
    assert!(matches!(fraction, Some(Either::Unknown(_))), "{fraction:?}");
    // Text that only looks like a number is left as it is.
    let text: Option<Either> = server::json_body(br#"{"text":"1.0","pins":[1]}"#, &mut out).unwrap();
    assert_eq!(text, Some(Either::Note(Note { text: "1.0".into(), pins: vec![1] })));
}

/// The route a generated router serves each endpoint by: its function called with the state
/// and the request, the path parameters axum matched in the request's head, and axum's own
/// 405 for another method.
#[tokio::test]
async fn a_route_answers_with_its_state_and_the_path_parameters_axum_matched() {
    use axum::extract::{FromRequestParts, RawPathParams, Request};
    use axum::response::{IntoResponse, Response};
    use std::convert::Infallible;
    use tower_service::Service;

    async fn answer(greeting: &'static str, request: Request) -> Result<Response, Infallible> {
        let (mut parts, _) = request.into_parts();
        let params = RawPathParams::from_request_parts(&mut parts, &()).await.expect("axum matched the path");
        let id = params.iter().find(|(key, _)| *key == "id").map(|(_, value)| value.to_owned());
        Ok(format!("{greeting} {}", id.expect("the parameter `id`")).into_response())
    }
    let mut router = axum::Router::new().route("/notes/{id}", axum::routing::get_service(server::Route::new("hello", answer)));
    let get = Request::get("/notes/n%201").body(Body::empty()).expect("a request");
    let response = router.call(get).await.expect("infallible");
    assert_eq!(response.status(), 200);
    let body = axum::body::to_bytes(response.into_body(), 1024).await.expect("the body");
    assert_eq!(body, Bytes::from("hello n 1"));
    let post = Request::post("/notes/n1").body(Body::empty()).expect("a request");
    assert_eq!(router.call(post).await.expect("infallible").status(), 405);
}
