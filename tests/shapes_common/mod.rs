//! An in-memory implementation of the shapes fixture's server trait (`tests/fixtures/shapes/`),
//! for the tests that talk to it over 127.0.0.1: documents, a profile updated by PATCH,
//! expressions evaluated, gateway payloads and categories.

// Each test binary uses a different part of these helpers.
#![allow(dead_code)]

use shapes_server::api::{Api, Call, RuleContext};
use shapes_server::types::auth::Credential;
use shapes_server::types::endpoints::{create_document, evaluate, get_document, list_categories, poll_gateway, update_profile};
use shapes_server::types::enums::Locale;
use shapes_server::types::errors::{self, ApiError};
use shapes_server::types::permissions::Permission;
use shapes_server::types::resources::{Category, Document, DocumentOwner, Heartbeat, Hello, Profile};
use shapes_server::types::unions::{Expression, GatewayPayload};
use shapes_server::types::wire::{IndexMap, Presence, Uuid};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The one token the server knows.
pub const TOKEN: &str = "shapes-token";

/// The state behind the router.
pub struct Shapes {
    documents: Mutex<Vec<Document>>,
    profile: Mutex<Profile>,
    /// Whether `poll_gateway` also answers a payload with an op no variant has (as a newer
    /// server would), to show clients keep it.
    pub newer_payloads: bool,
}

impl Shapes {
    /// This server, also answering gateway payloads a newer server would send.
    pub fn with_newer_payloads(self) -> Shapes {
        Shapes { newer_payloads: true, ..self }
    }

    /// A server with one document and a default profile.
    pub fn new() -> Shapes {
        let document = Document {
            id: Uuid(1),
            created_at: jiff::Timestamp::from_second(1_700_000_000).expect("a valid instant"),
            title: "First".to_owned(),
            tags: vec!["intro".to_owned()],
            scores: IndexMap::from_iter([("clarity".to_owned(), 90.0)]),
            views_by_user: None,
            summaries: Some(IndexMap::from_iter([(Locale::En, "The first document.".to_owned())])),
            weights: None,
            grid: None,
            contact: None,
            homepage: None,
            checksum: None,
            published: None,
            nonce: None,
            revision: None,
            owner: DocumentOwner { name: "Ada".to_owned(), address: None },
            shapes: None,
            ratio: None,
            components: None,
            schema_version: 2,
            category: None,
        };
        Shapes { documents: Mutex::new(vec![document]), profile: Mutex::new(Profile::default()), newer_payloads: false }
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
    type Caller = ();

    async fn authenticate(&self, credential: &Credential) -> Option<()> {
        (credential.token == TOKEN).then_some(())
    }

    async fn permissions(&self, _cx: &RuleContext<'_, ()>) -> Result<Vec<Permission>, ApiError> {
        Ok(Vec::new())
    }

    async fn create_document(&self, call: Call<(), create_document::Request>) -> Result<Document, ApiError> {
        let body = call.input.body;
        let mut documents = self.documents.lock().expect("the lock");
        let document = Document {
            id: Uuid(u128::try_from(documents.len()).unwrap_or(u128::MAX) + 1),
            created_at: call.now,
            title: body.title,
            tags: body.tags,
            scores: body.scores,
            owner: DocumentOwner { name: body.owner.name, address: None },
            nonce: body.nonce,
            components: body.components,
            shapes: body.shapes,
            ..documents[0].clone()
        };
        let document = Document { summaries: None, ..document };
        documents.push(document.clone());
        Ok(document)
    }

    async fn get_document(&self, call: Call<(), get_document::Request>) -> Result<Document, ApiError> {
        let documents = self.documents.lock().expect("the lock");
        let found = documents.iter().find(|d| d.id == call.input.path.document_id).cloned();
        found.ok_or_else(|| ApiError::new(&errors::UNKNOWN_DOCUMENT))
    }

    async fn update_profile(&self, call: Call<(), update_profile::Request>) -> Result<Profile, ApiError> {
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

    async fn evaluate(&self, call: Call<(), evaluate::Request>) -> Result<f64, ApiError> {
        let value = value_of(&call.input.body);
        // A finite answer only: JSON has no number for an overflow.
        if value.is_finite() { Ok(value) } else { Err(ApiError::new(&errors::INVALID_FORM_BODY).with_message("the value is not finite")) }
    }

    async fn poll_gateway(&self, _call: Call<(), poll_gateway::Request>) -> Result<Vec<GatewayPayload>, ApiError> {
        let mut out = vec![
            GatewayPayload::Hello(Hello { op: 10, heartbeat_interval: 41_250 }),
            GatewayPayload::Heartbeat(Heartbeat { op: 1, seq: None }),
        ];
        if self.newer_payloads {
            let raw = serde_json::json!({ "op": 99, "shard": [0, 1] });
            out.push(GatewayPayload::Unknown { tag: 99, raw });
        }
        Ok(out)
    }

    async fn list_categories(&self, _call: Call<(), list_categories::Request>) -> Result<Vec<Category>, ApiError> {
        let root = Category { name: "All".to_owned(), parent: None };
        let child = Category { name: "Notes".to_owned(), parent: Some(Box::new(root.clone())) };
        Ok(vec![root, child])
    }
}

/// A shapes server listening on 127.0.0.1 for the duration of one test.
pub struct Server {
    /// `http://127.0.0.1:<port>`.
    pub origin: String,
    /// The state behind the router.
    pub shapes: Arc<Shapes>,
    /// A plain HTTP client for raw requests.
    pub http: reqwest::Client,
}

impl Server {
    /// Starts a server with `shapes` behind it on a free port.
    pub async fn start(shapes: Shapes) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
        let origin = format!("http://{}", listener.local_addr().expect("local address"));
        let shapes = Arc::new(shapes);
        let options = shapes_server::Options::default().with_placeholders(shapes_server::types::placeholders::Placeholders::at_origin(&origin));
        let router = shapes_server::router_with(shapes.clone(), options);
        tokio::spawn(async move { axum::serve(listener, router).await.expect("the server runs") });
        let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().expect("an HTTP client");
        Server { origin, shapes, http }
    }

    /// The URL of an API path (`/documents`).
    pub fn api(&self, path: &str) -> String {
        format!("{}{path}", shapes_server::types::placeholders::Placeholders::at_origin(&self.origin).api_url)
    }

    /// A generated client presenting the server's token.
    pub fn client(&self) -> shapes_client::Client {
        let placeholders = shapes_client::types::placeholders::Placeholders::at_origin(&self.origin);
        shapes_client::Client::with_http(self.http.clone(), placeholders).with_credential(Credential::bot(TOKEN))
    }
}
