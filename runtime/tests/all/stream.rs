//! Streamed responses: the event stream reader against the HTML standard's rules, whatever
//! bytes the chunks end at; typed events read, written back, and resumed after a break.

use futures_util::StreamExt;
use platform_codegen_runtime::stream::{self, Chunks, Codec, Events, Frame, Framing, Reader, Reopen, Reopened, Resume, StreamError};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The frames of `body` fed in chunks of `size` bytes.
fn frames(framing: Framing, body: &[u8], size: usize) -> Vec<Frame> {
    let mut reader = Reader::new(framing);
    let mut out = VecDeque::new();
    for chunk in body.chunks(size) {
        reader.feed(chunk, &mut out).expect("within the limit");
    }
    reader.finish(&mut out);
    out.into()
}

fn frame(event: Option<&str>, data: &str, id: Option<&str>) -> Frame {
    Frame { event: event.map(str::to_owned), data: data.to_owned(), id: id.map(str::to_owned), retry: None }
}

#[test]
fn server_sent_events_are_read_as_the_standard_says_at_every_chunk_size() {
    let body = "\u{feff}: a comment\r\nevent: created\r\ndata: {\"id\":1}\r\nid: 1\r\n\r\n\
                data:first\ndata: second\n\n\
                event: deleted\rdata\rid: 2\r\r\
                id: bad\0id\ndata: x\n\n\
                retry: 2500\nunknown: field\n\n\
                event: cut off\ndata: never sent";
    let expected = vec![
        frame(Some("created"), "{\"id\":1}", Some("1")),
        frame(None, "first\nsecond", Some("1")),
        frame(Some("deleted"), "", Some("2")),
        frame(None, "x", Some("2")),
    ];
    for size in [1, 2, 3, 7, body.len()] {
        assert_eq!(frames(Framing::Events, body.as_bytes(), size), expected, "chunks of {size} bytes");
    }
    let mut reader = Reader::new(Framing::Events);
    reader.feed(b"retry: 2500\n\n", &mut VecDeque::new()).expect("fits");
    assert_eq!(reader.retry(), Some(Duration::from_millis(2500)));
}

#[test]
fn json_lines_are_read_line_by_line_and_the_last_needs_no_newline() {
    let body = b"{\"a\":1}\r\n\n{\"a\":2}\n{\"a\":3}";
    let expected = vec![frame(None, "{\"a\":1}", None), frame(None, "{\"a\":2}", None), frame(None, "{\"a\":3}", None)];
    for size in [1, 4, body.len()] {
        assert_eq!(frames(Framing::JsonLines, body, size), expected);
    }
}

#[test]
fn a_line_that_never_ends_is_refused_past_the_limit() {
    let mut reader = Reader::new(Framing::Events);
    let chunk = vec![b'x'; 1024 * 1024];
    let mut out = VecDeque::new();
    let results: Vec<_> = (0..17).map(|_| reader.feed(&chunk, &mut out)).collect();
    assert_eq!(results.last(), Some(&Err(StreamError::TooLarge)));
}

#[test]
fn frames_written_are_read_back_the_same() {
    let written = [
        Frame { event: Some("created".into()), data: "{\"id\":1}".into(), id: Some("7".into()), retry: None },
        Frame { event: None, data: "two\nlines".into(), id: None, retry: Some(Duration::from_secs(3)) },
    ];
    let body: Vec<u8> = written.iter().flat_map(|f| f.encode(Framing::Events)).collect();
    let read = frames(Framing::Events, &body, 5);
    assert_eq!(read[0], written[0]);
    // An event without an id keeps the last one the stream gave.
    assert_eq!(read[1], Frame { id: Some("7".into()), retry: None, ..written[1].clone() });
}

/// A body of these chunks, then `end`: `None` ends it, `Some(why)` breaks it.
fn body(chunks: &[&str], end: Option<&str>) -> Chunks {
    let mut items: Vec<Result<Vec<u8>, String>> = chunks.iter().map(|c| Ok(c.as_bytes().to_vec())).collect();
    items.extend(end.map(|why| Err(why.to_owned())));
    Box::pin(futures_util::stream::iter(items))
}

const NUMBERS: Codec<u32> = Codec::json();

#[tokio::test]
async fn a_message_that_does_not_decode_is_an_error_and_the_stream_goes_on() {
    let chunks = body(&["data: 1\n\n", "event: odd\ndata: one\n\n", "data: 3\n\n"], None);
    let got: Vec<_> = stream::read(chunks, Framing::Events, NUMBERS, None).collect().await;
    assert_eq!(got.len(), 3);
    assert_eq!(got[0], Ok(1));
    assert!(matches!(&got[1], Err(StreamError::Decode { event: Some(e), .. }) if e == "odd"), "{:?}", got[1]);
    assert_eq!(got[2], Ok(3));
}

/// A reopener that answers with the next body of `bodies` and records each last event id.
fn reopener(bodies: Vec<Result<Reopened, String>>, asked: Arc<Mutex<Vec<String>>>) -> Reopen {
    let bodies = Arc::new(Mutex::new(VecDeque::from(bodies)));
    Box::new(move |last| {
        asked.lock().expect("not poisoned").push(last);
        let next = bodies.lock().expect("not poisoned").pop_front().unwrap_or(Ok(Reopened::Over));
        Box::pin(async move { next })
    })
}

#[tokio::test(start_paused = true)]
async fn a_broken_stream_resumes_after_its_last_event_and_loses_none() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let first = body(&["id: 1\ndata: 1\n\n", "id: 2\ndata: 2\n\nid: 3\nda"], Some("connection reset"));
    let reopen = reopener(
        vec![Err("refused".into()), Ok(Reopened::Body(body(&["retry: 10\nid: 3\ndata: 3\n\n"], Some("reset again")))), Ok(Reopened::Over)],
        asked.clone(),
    );
    let started = tokio::time::Instant::now();
    let got: Vec<_> = stream::read(first, Framing::Events, NUMBERS, Some((reopen, Resume::default()))).collect().await;
    assert_eq!(got, vec![Ok(1), Ok(2), Ok(3)]);
    assert_eq!(*asked.lock().expect("not poisoned"), ["2", "2", "3"]);
    // One second, two after the refusal, then the 10 ms the server asked for.
    assert_eq!(started.elapsed(), Duration::from_millis(3010));
}

#[tokio::test(start_paused = true)]
async fn reconnections_that_bring_nothing_give_up_as_broken() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let first = body(&["id: 9\ndata: 9\n\n"], Some("reset"));
    let reopen = reopener((0..5).map(|_| Err("refused".to_owned())).collect(), asked.clone());
    let resume = Resume { attempts: 2, wait: Duration::from_millis(100) };
    let got: Vec<_> = stream::read(first, Framing::Events, NUMBERS, Some((reopen, resume))).collect().await;
    assert_eq!(got.len(), 2);
    assert!(matches!(&got[1], Err(StreamError::Broken(_))), "{:?}", got[1]);
    assert_eq!(asked.lock().expect("not poisoned").len(), 2);
}

#[tokio::test]
async fn a_stream_that_is_not_resumable_ends_broken() {
    let got: Vec<_> = stream::read(body(&["data: 1\n\n"], Some("reset")), Framing::Events, NUMBERS, None).collect().await;
    assert_eq!(got, vec![Ok(1), Err(StreamError::Broken("reset".into()))]);
}

#[tokio::test]
async fn a_sender_feeds_the_stream_and_its_ids_are_written() {
    let (sender, events) = Events::channel(4);
    tokio::spawn(async move {
        sender.send_with_id("1", 10u32).await.expect("read");
        sender.send(20).await.expect("read");
        sender.break_off("the handler failed").await;
    });
    let bytes: Vec<_> = events.encoded(Framing::Events, NUMBERS).collect().await;
    assert_eq!(bytes[0].as_deref(), Ok(&b"id: 1\ndata: 10\n\n"[..]));
    assert_eq!(bytes[1].as_deref(), Ok(&b"data: 20\n\n"[..]));
    assert_eq!(bytes[2], Err(StreamError::Broken("the handler failed".into())));
}

#[tokio::test]
async fn a_sender_learns_that_the_reader_went_away() {
    let (sender, events) = Events::<u32>::channel(1);
    drop(events);
    assert!(sender.is_closed());
    assert_eq!(sender.send(1).await, Err(stream::Closed));
}
