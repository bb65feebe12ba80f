//! An in-memory implementation of the shapes fixture's server trait (`tests/fixtures/shapes/`),
//! and a way to serve it on 127.0.0.1: what the round trip tests and schemathesis talk to.
//!
//! Notes live in a map, documents in a list, and one profile is updated by PATCH; expressions
//! are evaluated, gateway payloads and categories answered. Tokens: `bot-token` (a bot),
//! `reader-token` (a bearer token holding `notes.read` and `identify`), `plain-token` (a bearer
//! token holding no scope). Switches let a test make the service answer its declared error
//! statuses, `down` (503 from `get_status`) and `limited` (429 from `get_note`), answer what
//! a newer server would (`newer_payloads`), or break a stream off (`break_watch_after`).

// Each test binary uses a different part of these helpers.
#![allow(dead_code)]

use shapes_server::types::auth::{Credential, CredentialRef, Scope, TokenKind};
use shapes_server::types::endpoints::{
    amend_feedback, browse_notes, create_document, create_note, delete_note, evaluate, export_notes, get_archive, get_attachment, get_document, get_me,
    get_note, get_note_export, get_status, import_notes, list_archived_notes, list_categories, list_notes, list_tags, poll_gateway, search_notes,
    send_feedback, send_feedback_form, stream_notes, update_profile, upload_attachment, watch_notes,
};
use shapes_server::types::enums::Locale;
use shapes_server::types::errors::{self, ApiError};
use shapes_server::types::permissions::Permission;
use shapes_server::types::resources::{Category, Document, DocumentOwner, Heartbeat, Hello, Note, Profile, User};
use shapes_server::types::responses::{ClientErrorBody, RateLimitedBody, RateLimitedHeaders, RateLimitedResponse};
use shapes_server::types::stream::Events;
use shapes_server::types::unions::{Expression, GatewayPayload, TitleFilter};
use shapes_server::types::wire::{IndexMap, Presence, RawBody, Snowflake, Uuid};
use shapes_server::{Api, Call, RuleContext};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const BOT: &str = "bot-token";
pub const READER: &str = "reader-token";
pub const PLAIN: &str = "plain-token";

/// Who called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    Bot,
    Reader,
    Plain,
}

/// The state behind the router, and the switches.
#[derive(Debug)]
pub struct Shapes {
    notes: Mutex<BTreeMap<u64, Note>>,
    attachments: Mutex<BTreeMap<u64, RawBody>>,
    next: AtomicU64,
    documents: Mutex<Vec<Document>>,
    profile: Mutex<Profile>,
    /// `get_status` answers 503.
    pub down: AtomicBool,
    /// `get_note` answers 429.
    pub limited: AtomicBool,
    /// `poll_gateway` also answers a payload with an op no variant has (as a newer server
    /// would), to show clients keep it; `watch_notes` an event no variant names.
    pub newer_payloads: bool,
    /// The next `watch_notes` stream breaks off after this many events (0: it does not).
    pub break_watch_after: AtomicUsize,
}

impl Shapes {
    /// A service with no note, one document and a default profile.
    pub fn new() -> Shapes {
        let created = jiff::Timestamp::from_second(1_700_000_000).expect("a valid instant");
        let scores = IndexMap::from_iter([("clarity".to_owned(), 90.0)]);
        let document = Document::new(Uuid(1), created, "First", vec!["intro".to_owned()], scores, DocumentOwner::new("Ada"), 2)
            .slug("first")
            .summaries(IndexMap::from_iter([(Locale::En, "The first document.".to_owned())]));
        Shapes {
            notes: Mutex::default(),
            attachments: Mutex::default(),
            next: AtomicU64::new(0),
            documents: Mutex::new(vec![document]),
            profile: Mutex::new(Profile::default()),
            down: AtomicBool::new(false),
            limited: AtomicBool::new(false),
            newer_payloads: false,
            break_watch_after: AtomicUsize::new(0),
        }
    }

    /// This service, also answering gateway payloads a newer server would send.
    pub fn with_newer_payloads(self) -> Shapes {
        Shapes { newer_payloads: true, ..self }
    }

    fn add(&self, title: &str, body: Option<String>, tags: Vec<String>) -> Note {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut note = Note::new(id, title, tags);
        note.body = body;
        self.notes.lock().unwrap().insert(id, note.clone());
        note
    }

    /// Every note, in id order.
    pub fn all(&self) -> Vec<Note> {
        self.notes.lock().unwrap().values().cloned().collect()
    }

    fn get(&self, id: Snowflake) -> Option<Note> {
        self.notes.lock().unwrap().get(&id.0).cloned()
    }

    fn rate_headers() -> shapes_server::types::endpoints::get_note::OkHeaders {
        get_note::OkHeaders::new(50, 49, 1).rate_limit_bucket("notes")
    }

    /// Creates a note, or answers the one with the same title.
    fn create(&self, title: &str, body: Option<String>, tags: Vec<String>) -> create_note::Response {
        if let Some(existing) = self.all().into_iter().find(|n| n.title == title) {
            return create_note::Response::Ok(existing);
        }
        let note = self.add(title, body, tags);
        let location = format!("/notes/{}", note.id.0);
        create_note::Response::Created(create_note::CreatedResponse { body: note, headers: create_note::CreatedHeaders::new(location) })
    }
}

impl Default for Shapes {
    fn default() -> Self {
        Shapes::new()
    }
}

/// The value of an expression.
fn value_of(e: &Expression) -> f64 {
    match e {
        Expression::Literal(n) => *n,
        Expression::Negation(n) => -value_of(&n.operand),
        // The router refused it: validators reject unknown variants on the way in.
        Expression::Unknown(_) => f64::NAN,
        _ => f64::NAN,
    }
}

/// Applies one field of a partial update: absent leaves it, `null` clears it, a value sets it.
fn patch<T>(field: &mut Presence<T>, update: Presence<T>) {
    match update {
        Presence::Absent => {}
        other => *field = other,
    }
}

impl Api for Shapes {
    type Caller = Caller;

    async fn authenticate(&self, credential: CredentialRef<'_>) -> Option<Caller> {
        match (credential.kind, credential.token) {
            (TokenKind::Bot, BOT) => Some(Caller::Bot),
            (TokenKind::Bearer, READER) => Some(Caller::Reader),
            (TokenKind::Bearer, PLAIN) => Some(Caller::Plain),
            _ => None,
        }
    }

    async fn permissions(&self, _cx: &RuleContext<'_, Caller>) -> Result<Vec<Permission>, ApiError> {
        Ok(Vec::new())
    }

    async fn scopes(&self, cx: &RuleContext<'_, Caller>) -> Result<Vec<Scope>, ApiError> {
        Ok(match cx.caller {
            Caller::Reader => vec![Scope::NotesRead, Scope::Identify],
            _ => Vec::new(),
        })
    }

    async fn get_note_export(
        &self,
        call: Call<'_, Option<Caller>, get_note_export::Request, (), (), Option<CredentialRef<'_>>>,
    ) -> Result<get_note_export::Response, ApiError> {
        let path = call.input.path;
        Ok(get_note_export::Response::Ok(format!("note {} as {}", path.note_id, path.format)))
    }

    async fn get_archive(
        &self,
        call: Call<'_, Option<Caller>, get_archive::Request, (), (), Option<CredentialRef<'_>>>,
    ) -> Result<get_archive::Response, ApiError> {
        Ok(get_archive::Response::Ok(format!("archive {}", call.input.path.archive)))
    }

    async fn send_feedback_form(
        &self,
        _call: Call<'_, Option<Caller>, send_feedback_form::Request, (), (), Option<CredentialRef<'_>>>,
    ) -> Result<send_feedback_form::Response, ApiError> {
        Ok(send_feedback_form::Response::NoContent)
    }

    async fn amend_feedback(
        &self,
        _call: Call<'_, Option<Caller>, amend_feedback::Request, (), (), Option<CredentialRef<'_>>>,
    ) -> Result<amend_feedback::Response, ApiError> {
        Ok(amend_feedback::Response::NoContent)
    }

    async fn send_feedback(
        &self,
        _call: Call<'_, Option<Caller>, send_feedback::Request, (), (), Option<CredentialRef<'_>>>,
    ) -> Result<send_feedback::Response, ApiError> {
        Ok(send_feedback::Response::NoContent)
    }

    async fn get_status(
        &self,
        _call: Call<'_, Option<Caller>, get_status::Request, (), (), Option<CredentialRef<'_>>>,
    ) -> Result<get_status::Response, ApiError> {
        if self.down.load(Ordering::SeqCst) {
            let body = get_status::ServerErrorBody::new("down for maintenance");
            let headers = get_status::ServerErrorHeaders::default().retry_after(30);
            return Ok(get_status::Response::ServerError(503, get_status::ServerErrorResponse { body, headers }));
        }
        Ok(get_status::Response::Ok("up".to_owned()))
    }

    async fn list_tags(&self, _call: Call<'_, Option<Caller>, list_tags::Request, (), (), Option<CredentialRef<'_>>>) -> Result<list_tags::Response, ApiError> {
        let tags: Vec<String> = self.all().into_iter().flat_map(|n| n.tags).collect();
        Ok(list_tags::Response::Ok((!tags.is_empty()).then_some(tags)))
    }

    async fn get_note(&self, call: Call<'_, Option<Caller>, get_note::Request, (), (), Option<CredentialRef<'_>>>) -> Result<get_note::Response, ApiError> {
        if self.limited.load(Ordering::SeqCst) {
            let body = RateLimitedBody::new("You are being rate limited.", 2, false);
            let headers = RateLimitedHeaders::new(50, 0, 2);
            return Ok(get_note::Response::TooManyRequests(RateLimitedResponse { body, headers }));
        }
        let Some(mut note) = self.get(call.input.path.note_id) else { return Ok(get_note::Response::NotFound) };
        // Only a bot sees the body.
        if call.caller.is_none() {
            note.body = None;
        }
        Ok(get_note::Response::Ok(get_note::OkResponse { body: note, headers: Self::rate_headers() }))
    }

    async fn list_notes(&self, call: Call<'_, Caller, list_notes::Request>) -> Result<list_notes::Response, ApiError> {
        let (query, headers) = (&call.input.query, &call.input.headers);
        if headers.locale == "xx" {
            let body = ClientErrorBody::new(0, "unknown locale");
            return Ok(list_notes::Response::ClientError(422, body));
        }
        let mut notes: Vec<Note> = self
            .all()
            .into_iter()
            .filter(|n| query.ids.as_ref().is_none_or(|ids| ids.contains(&n.id)))
            .filter(|n| query.tags.as_ref().is_none_or(|tags| tags.iter().all(|t| n.tags.contains(t))))
            .filter(|n| match &query.titles {
                None => true,
                Some(TitleFilter::Several(titles)) => titles.contains(&n.title),
                Some(TitleFilter::One(title)) => n.title == *title,
                Some(_) => false,
            })
            .filter(|n| headers.hidden.as_ref().is_none_or(|hidden| !hidden.contains(&n.id)))
            .filter(|n| query.after.is_none_or(|after| n.id > after))
            .collect();
        let total = i64::try_from(notes.len()).unwrap_or(i64::MAX);
        if let Some(limit) = query.limit {
            notes.truncate(usize::try_from(limit).unwrap_or(0));
        }
        let mut headers = list_notes::OkHeaders::new(total);
        headers.request_id = call.input.headers.request_id.clone();
        Ok(list_notes::Response::Ok(list_notes::OkResponse { body: notes, headers }))
    }

    async fn search_notes(&self, call: Call<'_, Caller, search_notes::Request>) -> Result<search_notes::Response, ApiError> {
        // The token is the position of the page's first note among the matches.
        let query = &call.input.query;
        let matches: Vec<Note> = self.all().into_iter().filter(|n| n.title.contains(&query.text)).collect();
        let start = query
            .page_token
            .as_deref()
            .map_or(Ok(0), str::parse::<usize>)
            .map_err(|_| ApiError::new(&errors::INVALID_FORM_BODY).with_message("not a page token"))?;
        let size = query.limit.map_or(2, |l| usize::try_from(l).unwrap_or(1));
        let items: Vec<Note> = matches.iter().skip(start).take(size).cloned().collect();
        let end = start + items.len();
        let next_page = if end < matches.len() { Presence::Value(end.to_string()) } else { Presence::Null };
        Ok(search_notes::Response::new(items).next_page(next_page))
    }

    async fn list_archived_notes(&self, call: Call<'_, Caller, list_archived_notes::Request>) -> Result<list_archived_notes::Response, ApiError> {
        let offset = usize::try_from(call.input.query.offset.unwrap_or(0)).unwrap_or(0);
        Ok(self.all().into_iter().skip(offset).take(3).collect())
    }

    /// `per_page` notes (ten by default) from `page`, GitHub's way: the `Link` header names the
    /// next page among the others (`first`), and is left out on the last.
    async fn browse_notes(&self, call: Call<'_, Caller, browse_notes::Request>) -> Result<browse_notes::Response, ApiError> {
        let all = self.all();
        let start = usize::try_from(call.input.query.page.unwrap_or(0)).unwrap_or(0);
        let size = usize::try_from(call.input.query.per_page.unwrap_or(10)).unwrap_or(10);
        let body: Vec<Note> = all.iter().skip(start).take(size).cloned().collect();
        let end = start + body.len();
        let first = format!("</api/notes/browse?per_page={size}&page=0>; rel=\"first\"");
        let mut headers = browse_notes::OkHeaders::default();
        headers.link = (end < all.len()).then(|| format!("{first}, </api/notes/browse?per_page={size}&page={end}>; rel=\"next\""));
        Ok(browse_notes::Response::Ok(browse_notes::OkResponse { body, headers }))
    }

    async fn get_me(&self, _call: Call<'_, Caller, get_me::Request>) -> Result<get_me::Response, ApiError> {
        Ok(User::new(7, "reader"))
    }

    async fn create_note(&self, call: Call<'_, Caller, create_note::Request>) -> Result<create_note::Response, ApiError> {
        Ok(match call.input.body {
            create_note::Body::Json(fields) => self.create(&fields.title, fields.body, vec!["json".to_owned()]),
            create_note::Body::Form(fields) => self.create(&fields.title, fields.body, vec!["form".to_owned()]),
            create_note::Body::Multipart(parts) => {
                // The note says what arrived with it, so a test can see every part.
                let mut tags = vec!["multipart".to_owned()];
                for file in parts.files.iter().flatten() {
                    tags.push(format!("file:{}:{}", file.filename.clone().unwrap_or_default(), file.bytes.len()));
                }
                if let Some(cover) = &parts.cover {
                    tags.push(format!("cover:{}", cover.content_type));
                }
                tags.truncate(5);
                let body = parts.caption.or(parts.payload_json.body);
                self.create(&parts.payload_json.title, body, tags)
            }
            _ => return Err(ApiError::new(&errors::INVALID_FORM_BODY).with_message("a body format this service does not read")),
        })
    }

    async fn import_notes(&self, call: Call<'_, Caller, import_notes::Request>) -> Result<import_notes::Response, ApiError> {
        let parts = call.input.body;
        let text = String::from_utf8_lossy(&parts.file.bytes).into_owned();
        let mut tags: Vec<String> = parts.labels.unwrap_or_default();
        tags.push(format!("source:{}", parts.meta.source));
        tags.truncate(5);
        let mut last = 0;
        for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let title = line.split_once(',').map_or(line, |(_, t)| t).trim();
            if !title.is_empty() && title.chars().count() <= 100 {
                last = self.add(title, None, tags.clone()).id.0;
            }
        }
        let body = import_notes::AcceptedBody::new(last);
        Ok(import_notes::Response::Accepted(import_notes::AcceptedResponse { body, headers: import_notes::AcceptedHeaders::new(1) }))
    }

    async fn upload_attachment(&self, call: Call<'_, Caller, upload_attachment::Request>) -> Result<upload_attachment::Response, ApiError> {
        let id = call.input.path.note_id;
        if self.get(id).is_none() {
            return Ok(upload_attachment::Response::Other(404, ClientErrorBody::new(10404, "Unknown note")));
        }
        self.attachments.lock().unwrap().insert(id.0, call.input.body);
        Ok(upload_attachment::Response::NoContent)
    }

    async fn get_attachment(&self, call: Call<'_, Caller, get_attachment::Request>) -> Result<get_attachment::Response, ApiError> {
        let id = call.input.path.note_id;
        Ok(match self.attachments.lock().unwrap().get(&id.0) {
            Some(raw) => get_attachment::Response::Ok(raw.clone()),
            None => {
                let location = format!("https://files.example/notes/{}", id.0);
                get_attachment::Response::SeeOther(get_attachment::SeeOtherResponse { headers: get_attachment::SeeOtherHeaders::new(location) })
            }
        })
    }

    async fn export_notes(&self, _call: Call<'_, Caller, export_notes::Request>) -> Result<export_notes::Response, ApiError> {
        let mut csv = String::from("id,title\n");
        for n in self.all() {
            csv.push_str(&format!("{},{}\n", n.id.0, n.title));
        }
        Ok(export_notes::Response::Ok(csv))
    }

    /// A note created for each note, a heartbeat, a newer server's event when it is one, and a
    /// deletion, numbered from 1; a resumed stream goes on after the id it gives.
    async fn watch_notes(&self, call: Call<'_, Caller, watch_notes::Request>) -> Result<watch_notes::Response, ApiError> {
        let mut events: Vec<watch_notes::OkEvent> = self.all().into_iter().map(watch_notes::OkEvent::NoteCreated).collect();
        events.push(watch_notes::OkEvent::Heartbeat("still here".to_owned()));
        if self.newer_payloads {
            events.push(watch_notes::OkEvent::Unknown { name: "note_pinned".to_owned(), data: r#"{"id":"1"}"#.to_owned() });
        }
        events.push(watch_notes::OkEvent::NoteDeleted(Snowflake(999)));
        let after = call.input.headers.last_event_id.as_deref().and_then(|id| id.parse::<usize>().ok()).unwrap_or(0);
        let cut = self.break_watch_after.swap(0, Ordering::SeqCst);
        let (sender, stream) = Events::channel(4);
        tokio::spawn(async move {
            for (n, event) in events.into_iter().enumerate().skip(after) {
                if cut != 0 && n == after + cut {
                    sender.break_off("the server fell over").await;
                    return;
                }
                if sender.send_with_id((n + 1).to_string(), event).await.is_err() {
                    return;
                }
            }
        });
        Ok(watch_notes::Response::Ok(stream))
    }

    async fn stream_notes(&self, _call: Call<'_, Caller, stream_notes::Request>) -> Result<stream_notes::Response, ApiError> {
        Ok(stream_notes::Response::Ok(Events::numbered_after(self.all(), None)))
    }

    async fn delete_note(&self, call: Call<'_, Caller, delete_note::Request>) -> Result<delete_note::Response, ApiError> {
        let removed = self.notes.lock().unwrap().remove(&call.input.path.note_id.0);
        Ok(if removed.is_some() { delete_note::Response::NoContent } else { delete_note::Response::NotFound })
    }

    async fn create_document(&self, call: Call<'_, Caller, create_document::Request>) -> Result<Document, ApiError> {
        let body = call.input.body;
        let mut documents = self.documents.lock().expect("the lock");
        let id = Uuid(u128::try_from(documents.len()).unwrap_or(u128::MAX) + 1);
        let mut document = documents[0].clone();
        (document.id, document.created_at, document.title, document.tags, document.scores) = (id, call.now, body.title, body.tags, body.scores);
        (document.owner, document.nonce, document.components, document.shapes) =
            (DocumentOwner::new(body.owner.name), body.nonce, body.components, body.shapes);
        document.summaries = None;
        documents.push(document.clone());
        Ok(document)
    }

    async fn get_document(&self, call: Call<'_, Caller, get_document::Request>) -> Result<Document, ApiError> {
        let documents = self.documents.lock().expect("the lock");
        let found = documents.iter().find(|d| d.id == call.input.path.document_id).cloned();
        found.ok_or_else(|| ApiError::new(&errors::UNKNOWN_DOCUMENT))
    }

    async fn update_profile(&self, call: Call<'_, Caller, update_profile::Request>) -> Result<Profile, ApiError> {
        let body = call.input.body;
        let mut profile = self.profile.lock().expect("the lock");
        patch(&mut profile.nickname, body.nickname);
        patch(&mut profile.accent_color, body.accent_color);
        patch(&mut profile.birthday, body.birthday);
        if let Some(theme) = body.theme {
            profile.theme = theme;
        }
        if body.locale.is_some() {
            profile.locale = body.locale;
        }
        Ok(profile.clone())
    }

    async fn evaluate(&self, call: Call<'_, Caller, evaluate::Request>) -> Result<f64, ApiError> {
        let value = value_of(&call.input.body);
        // A finite answer only: JSON has no number for an overflow.
        if value.is_finite() { Ok(value) } else { Err(ApiError::new(&errors::INVALID_FORM_BODY).with_message("the value is not finite")) }
    }

    async fn poll_gateway(&self, _call: Call<'_, Caller, poll_gateway::Request>) -> Result<Vec<GatewayPayload>, ApiError> {
        let mut out = vec![GatewayPayload::Hello(Hello::new(10, 41_250)), GatewayPayload::Heartbeat(Heartbeat::new(1))];
        if self.newer_payloads {
            let raw = serde_json::json!({ "op": 99, "shard": [0, 1] });
            out.push(GatewayPayload::Unknown { tag: 99, raw });
        }
        Ok(out)
    }

    async fn list_categories(&self, _call: Call<'_, Caller, list_categories::Request>) -> Result<Vec<Category>, ApiError> {
        let root = Category::new("All");
        let child = Category::new("Notes").parent(root.clone());
        Ok(vec![root, child])
    }
}

/// The service listening on 127.0.0.1 for the duration of one test.
pub struct Server {
    /// `http://127.0.0.1:<port>`.
    pub origin: String,
    /// The state behind the router, to look at or switch between requests.
    pub shapes: Arc<Shapes>,
    /// A plain HTTP client for raw requests (it follows no redirect).
    pub http: reqwest::Client,
}

impl Server {
    /// Serves `shapes` on a free port of 127.0.0.1, from the current runtime.
    pub async fn start(shapes: Shapes) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
        let origin = format!("http://{}", listener.local_addr().expect("local address"));
        let shapes = Arc::new(shapes);
        let placeholders = shapes_server::types::placeholders::Placeholders::at_origin(&origin);
        let router = shapes_server::router_with(shapes.clone(), shapes_server::Options::default().with_placeholders(placeholders));
        tokio::spawn(async move { axum::serve(listener, router).await.expect("the server runs") });
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(Duration::from_secs(30)).build().expect("an HTTP client");
        Server { origin, shapes, http }
    }

    /// The URL of an API path (`/notes`).
    pub fn api(&self, path: &str) -> String {
        format!("{}{path}", shapes_server::types::placeholders::Placeholders::at_origin(&self.origin).api_url)
    }

    /// A generated client presenting the bot token.
    pub fn client(&self) -> shapes_client::Client {
        self.client_as(Some(Credential::bot(BOT)))
    }

    /// A generated client presenting `credential`, or none.
    pub fn client_as(&self, credential: Option<Credential>) -> shapes_client::Client {
        let placeholders = shapes_client::types::placeholders::Placeholders::at_origin(&self.origin);
        // Each answer as it came: the tests look at 429s and 5xx; `client_retry.rs` tries again.
        let client = shapes_client::Client::with_http(self.http.clone(), placeholders).with_retry(shapes_client::Retry::never());
        match credential {
            Some(c) => client.with_credential(c),
            None => client,
        }
    }
}

/// A generated client of the fixture's generated mock, served on a free port of 127.0.0.1,
/// presenting a bot token (the mock takes any).
pub async fn mock_client() -> shapes_client::Client {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let origin = format!("http://{}", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, shapes_server::mock::router()).await.expect("the mock runs") });
    let placeholders = shapes_client::types::placeholders::Placeholders::at_origin(&origin);
    shapes_client::Client::new(placeholders).with_credential(Credential::bot("mock"))
}
