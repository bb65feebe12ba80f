//! The generated client's calls as `tracing` sees them, over 127.0.0.1 against the shapes mock:
//! a span `call` per call with the endpoint, the method and the address's path, an event per
//! try with its status, and never the credential nor the query. One test: it installs the
//! process's subscriber.

use shapes_client::types::auth::Credential;
use shapes_client::types::endpoints::list_notes;
use shapes_client::types::placeholders::Placeholders;
use std::sync::{Arc, Mutex};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Every span and event, as its name and its fields written out.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

struct Fields(String);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!(" {}={value:?}", field.name()));
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut fields = Fields(format!("span {}", span.metadata().name()));
        span.record(&mut fields);
        let mut all = self.0.lock().unwrap();
        all.push(fields.0);
        Id::from_u64(all.len() as u64)
    }
    fn record(&self, _: &Id, values: &Record<'_>) {
        let mut fields = Fields("record".to_owned());
        values.record(&mut fields);
        self.0.lock().unwrap().push(fields.0);
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields("event".to_owned());
        event.record(&mut fields);
        self.0.lock().unwrap().push(fields.0);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[tokio::test]
async fn a_call_is_a_span_with_an_event_per_try_and_no_secret() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, shapes_server::mock::router()).await });
    let client = shapes_client::Client::new(Placeholders::at_origin(&origin)).with_credential(Credential::bot("secret-token"));
    let mut request = list_notes::Request::default();
    request.headers.locale = "en".to_owned();
    request.query.tags = Some(vec!["secret-tag".to_owned()]);
    // The process's subscriber, not a scoped one: tracing caches each call site's interest
    // process-wide, and a scoped subscriber races with call sites first met elsewhere. This
    // file holds this one test, so nothing else runs in the process.
    let recorder = Recorder::default();
    tracing::subscriber::set_global_default(recorder.clone()).expect("the only subscriber");
    let answer = client.send(&request).await;
    assert!(answer.is_ok(), "{answer:?}");
    let seen = recorder.0.lock().unwrap().join("\n");
    assert!(seen.contains("span call endpoint=\"list_notes\" method=GET path=\""), "{seen}");
    assert!(seen.contains("/api/notes\""), "the path, without its query: {seen}");
    assert!(seen.contains("tried=1 status=200"), "{seen}");
    assert!(!seen.contains("secret-token") && !seen.contains("secret-tag"), "no credential, no query: {seen}");
}
