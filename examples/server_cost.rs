//! The generated router's cost per request, side by side with hand-written axum routes doing the
//! same work: the driver `scripts/bench.sh` runs under callgrind (instructions) and whose counting
//! allocator reports allocations per request and the largest block a request takes.
//!
//! ```text
//! cargo run --release --example server_cost -- <generated|hand|none> <put|get> <requests>
//! ```
//!
//! Two routes: `PUT /api/channels/{channel.id}/voice-status` (Set Voice Channel Status: a path
//! parameter, a bearer token, a JSON body whose `status` has at most 500 characters, and a
//! permission rule asking for SET_VOICE_CHANNEL_STATUS plus MANAGE_CHANNELS unless the bot is
//! connected to the channel), and `GET /api/users/@me/connections` (a token, an empty list back).
//! Every request is built before the measured loop and sent in-process to the `Router` on a
//! current-thread runtime, so what is measured is the router's own work: the implementation
//! behind both sides answers from constants. `none` builds the same requests and drops them, so
//! subtracting its count leaves the cost of serving alone.

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Path;
use axum::http::{HeaderMap, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use platform_server::api::{Api, Call, Granted, RuleContext, granted};
use platform_server::types;
use platform_server::types::auth::{CredentialRef, TokenKind};
use platform_server::types::errors::ApiError;
use platform_server::types::permissions::Permission;
use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use tower::ServiceExt;

/// Counts every allocation and reallocation (each hands out a new block, as dhat counts them).
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
/// The largest block handed out: above 1,032 bytes glibc serves it from its bins instead of the
/// per-thread cache, and consolidates its fast bins first (a box per request that size costs
/// about 500 instructions more).
static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: as for `dealloc`, and `new_size` is the caller's valid size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const TOKEN: &str = "bench-token";
const BODY: &str = r#"{"status":"Streaming the finals"}"#;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(side), Some(route), Some(count)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("usage: server_cost <generated|hand|none> <put|get> <requests>");
        return ExitCode::FAILURE;
    };
    let Ok(count) = count.parse::<u64>() else {
        eprintln!("error: `{count}` is not a number of requests");
        return ExitCode::FAILURE;
    };
    let router = match side.as_str() {
        "generated" => Some(platform_server::router::router(Minimal)),
        "hand" => Some(hand_written()),
        "none" => None,
        other => {
            eprintln!("error: unknown side `{other}`");
            return ExitCode::FAILURE;
        }
    };
    let make: fn() -> Request<Body> = match route.as_str() {
        "put" => put_request,
        "get" => get_request,
        other => {
            eprintln!("error: unknown route `{other}`");
            return ExitCode::FAILURE;
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().expect("BUG: a runtime");
    // One request first, so lazily initialised state is not counted per request.
    if let Some(router) = &router {
        let status = runtime.block_on(send(router, make()));
        if !status.is_success() {
            eprintln!("error: the {side} router answered {status}");
            return ExitCode::FAILURE;
        }
    }
    let requests: Vec<Request<Body>> = (0..count).map(|_| make()).collect();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    LARGEST.store(0, Ordering::Relaxed);
    match &router {
        Some(router) => runtime.block_on(async {
            for request in requests {
                std::hint::black_box(send(router, request).await);
            }
        }),
        None => drop(std::hint::black_box(requests)),
    }
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    let largest = LARGEST.load(Ordering::Relaxed);
    println!("{side} {route}: {:.2} allocations per request, the largest {largest} bytes", allocations as f64 / count as f64);
    ExitCode::SUCCESS
}

async fn send(router: &Router, request: Request<Body>) -> StatusCode {
    let response = router.clone().oneshot(request).await.expect("BUG: routers are infallible");
    response.status()
}

fn put_request() -> Request<Body> {
    Request::put("/api/channels/1234567890123456789/voice-status")
        .header(header::AUTHORIZATION, format!("Bot {TOKEN}"))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, BODY.len())
        .body(Body::from(BODY))
        .expect("BUG: a valid request")
}

fn get_request() -> Request<Body> {
    Request::get("/api/users/@me/connections").header(header::AUTHORIZATION, format!("Bearer {TOKEN}")).body(Body::empty()).expect("BUG: a valid request")
}

// The hand-written side: what one would write for these two routes with axum's extractors, with
// the body guarded as the generated router guards it (a size limit and a read timeout).

/// The hand-written routes, under the same prefix as the generated router's default.
fn hand_written() -> Router {
    Router::new()
        .route("/api/channels/{channel_id}/voice-status", axum::routing::put(hand_put))
        .route("/api/users/@me/connections", axum::routing::get(hand_get))
}

/// Whether the `Bot` or `Bearer` Authorization header presents the known token.
fn hand_authenticated(headers: &HeaderMap) -> bool {
    let value = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let token = value.and_then(|v| v.strip_prefix("Bot ").or_else(|| v.strip_prefix("Bearer ")));
    token == Some(TOKEN)
}

fn hand_error(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "code": 0, "message": message });
    (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

/// The body as the generated router reads it, so both sides pay for the same guard: at most
/// the same number of bytes, within the same time (a tokio timer armed per request).
async fn hand_body(body: Body) -> Result<Bytes, Response> {
    let limit = platform_server::DEFAULT_BODY_LIMIT;
    match tokio::time::timeout(platform_server::DEFAULT_BODY_TIMEOUT, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(hand_error(StatusCode::PAYLOAD_TOO_LARGE, "body too large")),
        Err(_) => Err(hand_error(StatusCode::REQUEST_TIMEOUT, "body too slow")),
    }
}

async fn hand_put(Path(channel_id): Path<u64>, headers: HeaderMap, body: Body) -> Response {
    if !hand_authenticated(&headers) {
        return hand_error(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let body = match hand_body(body).await {
        Ok(bytes) => bytes,
        Err(refused) => return refused,
    };
    let is_json = headers.get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !is_json {
        return hand_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, "expected application/json");
    }
    let body: types::endpoints::set_voice_channel_status::Body = match serde_json::from_slice(&body) {
        Ok(body) => body,
        Err(e) => return hand_error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    if body.status.chars().count() > 500 {
        return hand_error(StatusCode::BAD_REQUEST, "status: at most 500 characters");
    }
    let permissions = minimal_permissions();
    let granted = permissions.contains(&Permission::SetVoiceChannelStatus) && (minimal_bot_connected() || permissions.contains(&Permission::ManageChannels));
    if !granted {
        return hand_error(StatusCode::FORBIDDEN, "missing permissions");
    }
    std::hint::black_box((channel_id, body));
    StatusCode::NO_CONTENT.into_response()
}

async fn hand_get(headers: HeaderMap) -> Response {
    if !hand_authenticated(&headers) {
        return hand_error(StatusCode::UNAUTHORIZED, "unauthorized");
    }
    let connections: types::endpoints::get_current_user_connections::Response = Vec::new();
    match serde_json::to_vec(&connections) {
        Ok(bytes) => (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
        Err(e) => hand_error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

// The implementation behind the generated router: the same constants as the hand-written side.

fn minimal_permissions() -> Vec<Permission> {
    vec![Permission::SetVoiceChannelStatus, Permission::ManageChannels]
}

fn minimal_bot_connected() -> bool {
    std::hint::black_box(true)
}

/// Answers from constants, so the generated side's cost is the router's own.
struct Minimal;

fn not_measured() -> ApiError {
    platform_server::runtime::error(platform_server::runtime::ids::GENERAL, 501)
}

impl Api for Minimal {
    type Caller = ();

    async fn authenticate(&self, credential: CredentialRef<'_>) -> Option<()> {
        (credential.token == TOKEN && matches!(credential.kind, TokenKind::Bot | TokenKind::Bearer)).then_some(())
    }

    async fn permissions(&self, _cx: &RuleContext<'_, ()>) -> Result<Vec<Permission>, ApiError> {
        Ok(minimal_permissions())
    }

    async fn intents(&self, _cx: &RuleContext<'_, ()>) -> Result<Vec<types::auth::Intent>, ApiError> {
        Ok(Vec::new())
    }

    async fn scopes(&self, _cx: &RuleContext<'_, ()>) -> Result<Vec<types::auth::Scope>, ApiError> {
        Ok(Vec::new())
    }

    async fn guild_has_feature(&self, _cx: &RuleContext<'_, ()>, _feature: types::enums::GuildFeature) -> Result<bool, ApiError> {
        Ok(false)
    }

    async fn bot_connected_to_voice_channel(&self, _cx: &RuleContext<'_, ()>) -> Result<bool, ApiError> {
        Ok(minimal_bot_connected())
    }

    async fn caller_is_inviter(&self, _cx: &RuleContext<'_, ()>) -> Result<bool, ApiError> {
        Ok(false)
    }

    async fn app_can_read_message_content(&self, _cx: &RuleContext<'_, ()>) -> Result<bool, ApiError> {
        Ok(false)
    }

    async fn large_bot_sharding(&self, _cx: &RuleContext<'_, ()>) -> Result<bool, ApiError> {
        Ok(false)
    }

    async fn get_current_user_connections(
        &self,
        _call: Call<'_, (), types::endpoints::get_current_user_connections::Request, types::endpoints::get_current_user_connections::Gates>,
    ) -> Result<types::endpoints::get_current_user_connections::Response, ApiError> {
        Ok(Vec::new())
    }

    async fn get_guild_channels(
        &self,
        _call: Call<'_, (), types::endpoints::get_guild_channels::Request, types::endpoints::get_guild_channels::Gates>,
    ) -> Result<types::endpoints::get_guild_channels::Response, ApiError> {
        Err(not_measured())
    }

    async fn create_or_join_lobby(
        &self,
        _call: Call<'_, (), types::endpoints::create_or_join_lobby::Request>,
    ) -> Result<types::endpoints::create_or_join_lobby::Response, ApiError> {
        Err(not_measured())
    }

    async fn send_lobby_message(
        &self,
        _call: Call<'_, (), types::endpoints::send_lobby_message::Request>,
    ) -> Result<types::endpoints::send_lobby_message::Response, ApiError> {
        Err(not_measured())
    }

    async fn get_lobby_messages(
        &self,
        _call: Call<'_, (), types::endpoints::get_lobby_messages::Request>,
    ) -> Result<types::endpoints::get_lobby_messages::Response, ApiError> {
        Err(not_measured())
    }

    async fn bulk_update_lobby_members(
        &self,
        _call: Call<'_, (), types::endpoints::bulk_update_lobby_members::Request>,
    ) -> Result<types::endpoints::bulk_update_lobby_members::Response, ApiError> {
        Err(not_measured())
    }

    async fn set_voice_channel_status(
        &self,
        call: Call<'_, (), types::endpoints::set_voice_channel_status::Request, (), Granted<granted::SetVoiceChannelStatus>>,
    ) -> Result<types::endpoints::set_voice_channel_status::Response, ApiError> {
        std::hint::black_box(call.input);
        Ok(())
    }

    async fn token(&self, _call: Call<'_, (), types::endpoints::token::Request>) -> Result<types::endpoints::token::Response, ApiError> {
        Err(not_measured())
    }
}
