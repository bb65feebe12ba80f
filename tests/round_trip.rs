//! Round trips: the generated client against the reference server over a real socket on
//! 127.0.0.1, for every routed endpoint: the happy path, each constraint (caught by the client,
//! and again by the server when sent raw), each branch of the permission rules, both sides of
//! each dated change, and each error code the routes can answer.

use crate::common;

use common::{Raw, Server, tokens};
use platform_client::Error;
use platform_client::types::auth::Credential;
use platform_client::types::deprecations::Notice;
use platform_client::types::endpoints::{
    bulk_update_lobby_members, create_or_join_lobby, get_guild_channels, get_lobby_messages, send_lobby_message, set_voice_channel_status, token,
};
use platform_client::types::enums::GrantType;
use platform_client::types::errors::{self, ApiError};
use platform_client::types::flags::ChannelFlags;
use platform_client::types::resources::{Channel, LobbyMemberUpdate};
use platform_client::types::wire::Snowflake;

/// The platform's error, asserting the call failed with one.
fn api_error<T: std::fmt::Debug>(result: Result<T, Error>) -> ApiError {
    match result {
        Err(Error::Api(e)) => e.error.unwrap_or_else(|| panic!("expected the platform's error body, got {:?}", String::from_utf8_lossy(&e.bytes))),
        other => panic!("expected an error response, got {other:?}"),
    }
}

/// The violations of a request the client refused to send.
fn refused<T: std::fmt::Debug>(result: Result<T, Error>) -> Vec<(String, String)> {
    match result {
        Err(Error::Invalid(violations)) => violations.into_iter().map(|v| (v.pointer, v.message)).collect(),
        other => panic!("expected the client to refuse the request, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Get Current User Connections: the two dated changes.

async fn connection_ids(now: &str) -> Vec<String> {
    let server = Server::start(Some(now)).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let connections = alice.get_current_user_connections().await.unwrap();
    connections.into_iter().map(|c| c.id).collect()
}

#[tokio::test]
async fn connections_before_any_change_hide_only_new_launcher_and_publisher_ones() {
    assert_eq!(connection_ids("2026-07-09T23:59:59Z").await, ["steam-100", "riot-100", "gh-100"]);
}

#[tokio::test]
async fn legacy_publisher_connections_are_hidden_from_2026_07_10() {
    assert_eq!(connection_ids("2026-07-10T00:00:00Z").await, ["steam-100", "gh-100"]);
    assert_eq!(connection_ids("2026-09-21T23:59:59Z").await, ["steam-100", "gh-100"]);
}

#[tokio::test]
async fn existing_launcher_connections_are_hidden_from_2026_09_22() {
    assert_eq!(connection_ids("2026-09-22T00:00:00Z").await, ["gh-100"]);
}

#[tokio::test]
async fn connection_objects_carry_their_service() {
    let server = Server::start(Some("2026-01-01T00:00:00Z")).await;
    let bob = server.client(Credential::bearer(tokens::BOB));
    assert!(bob.get_current_user_connections().await.unwrap().is_empty());
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let connections = alice.get_current_user_connections().await.unwrap();
    assert_eq!((connections[0].r#type.as_str(), connections[0].name.as_str()), ("steam", "alice"));
}

// ---------------------------------------------------------------------------------------------
// Get Guild Channels: obfuscation before 2026-11-16, omission from it.

fn guild_channels(guild: u64) -> get_guild_channels::Request {
    get_guild_channels::Request::new(guild)
}

#[tokio::test]
async fn unviewable_channels_are_obfuscated_before_2026_11_16() {
    let server = Server::start(Some("2026-11-15T23:59:59Z")).await;
    let bot = server.client(Credential::bot(tokens::BOT));
    let channels = bot.send(&guild_channels(1)).await.unwrap();
    assert_eq!(channels.iter().map(|c| c.id.get()).collect::<Vec<_>>(), [10, 11, 12, 13]);
    let hidden: &Channel = &channels[1];
    assert_eq!(hidden.name, "___hidden___");
    assert_eq!(hidden.name, Channel::OBFUSCATED_NAME);
    assert_eq!(hidden.check_obfuscated(), [], "the obfuscated channel is what case `obfuscated` says");
    assert!(!channels[0].check_obfuscated().is_empty(), "a visible channel is not obfuscated");
    assert!(hidden.flags.contains(ChannelFlags::CHANNEL_OBFUSCATED));
    assert_eq!(hidden.permission_overwrites.len(), 1, "exactly one overwrite");
    assert_eq!(hidden.permission_overwrites[0].id, Snowflake(1), "for @everyone, whose id is the guild's");
    assert_eq!(hidden.application_id, platform_client::types::wire::Presence::Null, "a sensitive field is nulled, and present");
    let visible = &channels[0];
    assert_eq!(visible.name, "general");
    assert!(!visible.flags.contains(ChannelFlags::CHANNEL_OBFUSCATED));

    let raw = Raw::send(server.http.get(server.api("/guilds/1/channels")).header("authorization", "Bot bot-token")).await;
    let json: serde_json::Value = serde_json::from_str(&raw.text).unwrap();
    assert_eq!(json[1]["application_id"], serde_json::Value::Null);
    assert_eq!(json[1]["flags"], serde_json::json!(1 << 17), "channel flags are an integer");
    assert_eq!(json[1]["id"], serde_json::json!("11"), "snowflakes are strings on the wire");
}

#[tokio::test]
async fn unviewable_channels_are_omitted_from_2026_11_16() {
    let server = Server::start(Some("2026-11-16T00:00:00Z")).await;
    let bot = server.client(Credential::bot(tokens::BOT));
    let channels = bot.send(&guild_channels(1)).await.unwrap();
    assert_eq!(channels.iter().map(|c| c.id.get()).collect::<Vec<_>>(), [10, 12, 13]);
    assert!(channels.iter().all(|c| !c.flags.contains(ChannelFlags::CHANNEL_OBFUSCATED)));
}

#[tokio::test]
async fn an_unknown_guild_is_10004() {
    let server = Server::start(None).await;
    let e = api_error(server.client(Credential::bot(tokens::BOT)).send(&guild_channels(77)).await);
    assert_eq!((e.status, e.code.value()), (404, 10004));
    assert!(e.is(&errors::UNKNOWN_GUILD));
}

// ---------------------------------------------------------------------------------------------
// Lobbies.

fn lobby_with(secret: &str) -> create_or_join_lobby::Request {
    create_or_join_lobby::Request::new(create_or_join_lobby::Body::default().secret(secret))
}

fn message(lobby: Snowflake, content: &str) -> send_lobby_message::Request {
    send_lobby_message::Request::new(lobby, send_lobby_message::Body::new(content))
}

fn messages_of(lobby: Snowflake) -> get_lobby_messages::Request {
    get_lobby_messages::Request::new(lobby)
}

#[tokio::test]
async fn a_secret_creates_a_lobby_then_joins_it() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let bob = server.client(Credential::bearer(tokens::BOB));
    let created = alice.send(&lobby_with("raid-night")).await.unwrap();
    assert_eq!(created.application_id, Snowflake(9001));
    assert_eq!(created.members.iter().map(|m| m.id.get()).collect::<Vec<_>>(), [100]);
    let joined = bob.send(&lobby_with("raid-night")).await.unwrap();
    assert_eq!(joined.id, created.id, "the same secret names the same lobby");
    assert_eq!(joined.members.iter().map(|m| m.id.get()).collect::<Vec<_>>(), [100, 101]);
    let again = bob.send(&lobby_with("raid-night")).await.unwrap();
    assert_eq!(again.members.len(), 2, "joining twice does not duplicate a member");
    let other = bob.send(&lobby_with("another")).await.unwrap();
    assert_ne!(other.id, created.id);
}

#[tokio::test]
async fn lobby_messages_are_for_members_only() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let bob = server.client(Credential::bearer(tokens::BOB));
    let lobby = alice.send(&lobby_with("members-only")).await.unwrap().id;
    let sent = alice.send(&message(lobby, "hello")).await.unwrap();
    assert_eq!((sent.content.as_str(), sent.author_id, sent.lobby_id), ("hello", Snowflake(100), lobby));
    assert_eq!(sent.additional_name.as_deref(), Some("Aria the Bold"), "the name the game backend set");

    let e = api_error(bob.send(&message(lobby, "let me in")).await);
    assert_eq!((e.status, e.code.value()), (403, 50001));
    let e = api_error(bob.send(&messages_of(lobby)).await);
    assert!(e.is(&errors::MISSING_ACCESS));

    let e = api_error(alice.send(&messages_of(Snowflake(123))).await);
    assert_eq!((e.status, e.code), (404, errors::GENERAL_CODE), "an unknown lobby has no code of its own");
    assert!(e.is(&errors::UNKNOWN_LOBBY));
}

#[tokio::test]
async fn reading_returns_the_200_most_recent_messages_newest_first() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let lobby = alice.send(&lobby_with("chatty")).await.unwrap().id;
    for n in 0..205 {
        alice.send(&message(lobby, &n.to_string())).await.unwrap();
    }
    let read = alice.send(&messages_of(lobby)).await.unwrap();
    assert_eq!(read.len(), 200);
    assert_eq!(read.first().map(|m| m.content.as_str()), Some("204"));
    assert_eq!(read.last().map(|m| m.content.as_str()), Some("5"));
}

fn bulk(lobby: Snowflake, entries: Vec<LobbyMemberUpdate>) -> bulk_update_lobby_members::Request {
    bulk_update_lobby_members::Request::new(lobby, entries)
}

fn entry(user: u64, remove: bool) -> LobbyMemberUpdate {
    let mut entry = LobbyMemberUpdate::new(user);
    entry.metadata = (!remove).then(|| serde_json::json!({ "team": "red" }));
    entry.remove_member = remove.then_some(true);
    entry
}

#[tokio::test]
async fn bulk_members_are_added_updated_and_removed_in_one_request() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let bot = server.client(Credential::bot(tokens::BOT));
    let lobby = alice.send(&lobby_with("managed")).await.unwrap().id;
    let members = bot.send(&bulk(lobby, vec![entry(101, false), entry(102, false), entry(100, true)])).await.unwrap();
    assert_eq!(members.iter().map(|m| m.id.get()).collect::<Vec<_>>(), [101, 102]);
    assert_eq!(members[0].metadata, Some(serde_json::json!({ "team": "red" })));
}

#[tokio::test]
async fn bulk_members_accept_25_and_refuse_26() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let bot = server.client(Credential::bot(tokens::BOT));
    let lobby = alice.send(&lobby_with("crowded")).await.unwrap().id;
    let many = |n: u64| (1000..1000 + n).map(|u| entry(u, false)).collect::<Vec<_>>();
    assert_eq!(bot.send(&bulk(lobby, many(25))).await.unwrap().len(), 26);

    let violations = refused(bot.send(&bulk(lobby, many(26))).await);
    assert_eq!(violations, [("/body".to_owned(), "must have at most 25 items (got 26)".to_owned())]);

    let raw = Raw::send(server.http.post(server.api(&format!("/lobbies/{lobby}/members/bulk"))).header("authorization", "Bot bot-token").json(&many(26))).await;
    assert_eq!((raw.status, raw.error().code), (400, 50035));
    assert_eq!(raw.violations(), violations, "the server reports what the client would have");
}

#[tokio::test]
async fn bulk_members_take_a_bot_token() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let lobby = alice.send(&lobby_with("bots-only")).await.unwrap().id;
    assert!(matches!(alice.send(&bulk(lobby, vec![entry(101, false)])).await, Err(Error::Credential { .. })));
    let raw = Raw::send(
        server.http.post(server.api(&format!("/lobbies/{lobby}/members/bulk"))).header("authorization", "Bearer alice-token").json(&[entry(101, false)]),
    )
    .await;
    assert_eq!((raw.status, raw.error().code), (401, 40001));
    let e = api_error(server.client(Credential::bot(tokens::BOT)).send(&bulk(Snowflake(5), vec![])).await);
    assert!(e.is(&errors::UNKNOWN_LOBBY));
}

// ---------------------------------------------------------------------------------------------
// Set Voice Channel Status: every branch of its rule, and its length limit.

fn voice_status(channel: u64, status: &str) -> set_voice_channel_status::Request {
    set_voice_channel_status::Request::new(channel, set_voice_channel_status::Body::new(status))
}

#[tokio::test]
async fn a_bot_connected_to_the_channel_needs_only_set_voice_channel_status() {
    let server = Server::start(None).await;
    let bot = server.client(Credential::bot(tokens::BOT));
    bot.send(&voice_status(12, "Raiding")).await.unwrap();
    assert_eq!(server.platform.voice_status(12).as_deref(), Some("Raiding"));
}

#[tokio::test]
async fn a_caller_not_connected_also_needs_manage_channels() {
    let server = Server::start(None).await;
    let bot = server.client(Credential::bot(tokens::BOT));
    let e = api_error(bot.send(&voice_status(13, "Raiding")).await);
    assert_eq!((e.status, e.code.value()), (403, 50013));
    assert_eq!(e.missing, ["MANAGE_CHANNELS"], "the body names what is missing");
    assert!(e.message.contains("MANAGE_CHANNELS"));
    assert_eq!(server.platform.voice_status(13), None);

    let manager = server.client(Credential::bearer(tokens::MANAGER));
    manager.send(&voice_status(13, "Stage time")).await.unwrap();
    assert_eq!(server.platform.voice_status(13).as_deref(), Some("Stage time"));
}

#[tokio::test]
async fn a_caller_without_set_voice_channel_status_is_refused_whatever_else_it_lacks() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    let e = api_error(alice.send(&voice_status(12, "Raiding")).await);
    assert_eq!(e.status, 403);
    assert_eq!(e.missing, ["SET_VOICE_CHANNEL_STATUS", "MANAGE_CHANNELS"], "all of it, at once");
}

#[tokio::test]
async fn a_status_of_500_characters_is_accepted_and_501_refused_on_both_sides() {
    let server = Server::start(None).await;
    let bot = server.client(Credential::bot(tokens::BOT));
    bot.send(&voice_status(12, &"é".repeat(500))).await.unwrap();

    let long = "x".repeat(501);
    let violations = refused(bot.send(&voice_status(12, &long)).await);
    assert_eq!(violations, [("/body/status".to_owned(), "must be at most 500 characters long (got 501)".to_owned())]);

    let raw = Raw::send(
        server.http.put(server.api("/channels/12/voice-status")).header("authorization", "Bot bot-token").json(&serde_json::json!({ "status": long })),
    )
    .await;
    assert_eq!((raw.status, raw.error().code), (400, 50035));
    assert_eq!(raw.violations(), violations);
}

#[tokio::test]
async fn unknown_and_non_voice_channels_are_refused() {
    let server = Server::start(None).await;
    let manager = server.client(Credential::bearer(tokens::MANAGER));
    let e = api_error(manager.send(&voice_status(999, "x")).await);
    assert_eq!((e.status, e.code.value()), (404, 10003));
    let e = api_error(manager.send(&voice_status(10, "x")).await);
    assert_eq!((e.status, e.code.value()), (400, 50035));
    assert_eq!(e.violations[0].pointer, "/path/channel.id");
}

// ---------------------------------------------------------------------------------------------
// The token endpoint.

fn refresh(token: &str) -> token::Request {
    token::Request::new(token::Body::new(GrantType::RefreshToken).refresh_token(token))
}

fn exchange(code: &str, verifier: &str) -> token::Request {
    token::Request::new(token::Body::new(GrantType::AuthorizationCode).code(code).code_verifier(verifier))
}

fn assert_invalid_grant<T: std::fmt::Debug>(result: Result<T, Error>) {
    let e = api_error(result);
    assert_eq!(e.status, 400);
    assert_eq!(e.oauth_error.as_ref().map(|e| e.as_str()), Some("invalid_grant"));
    assert!(e.is(&errors::INVALID_GRANT));
}

#[tokio::test]
async fn a_refresh_issues_tokens_that_work_and_rotates_the_refresh_token() {
    let server = Server::start(Some("2026-01-01T00:00:00Z")).await;
    let app = server.client(Credential::client(tokens::CLIENT));
    let issued = app.send(&refresh("alice-refresh")).await.unwrap();
    assert_eq!(issued.token_type, "Bearer");
    assert_eq!(issued.scope.as_deref(), Some("openid sdk.social_layer"));
    let alice = server.client(Credential::bearer(&issued.access_token));
    assert_eq!(alice.get_current_user_connections().await.unwrap().len(), 3);
    assert_invalid_grant(app.send(&refresh("alice-refresh")).await);
    let next = issued.refresh_token.expect("a new refresh token");
    app.send(&refresh(&next)).await.unwrap();
}

/// Every deprecation notice a client reports, shared with the test.
type Seen = std::sync::Arc<std::sync::Mutex<Vec<Notice>>>;

fn watching(client: platform_client::Client) -> (platform_client::Client, Seen) {
    let seen = Seen::default();
    let sink = seen.clone();
    (client.on_deprecation(move |n| sink.lock().unwrap().push(n.clone())), seen)
}

#[tokio::test]
async fn refreshing_a_provisional_accounts_oidc_token_answers_with_the_grants_deprecation() {
    let server = Server::start(Some("2026-01-01T00:00:00Z")).await;
    let (app, seen) = watching(server.client(Credential::client(tokens::CLIENT)));
    app.send(&refresh("alice-refresh")).await.unwrap();
    assert!(seen.lock().unwrap().is_empty(), "an ordinary refresh is not deprecated");

    let issued = app.send(&refresh("provisional-refresh")).await.unwrap();
    let entry = format!("{}#change-provisional-oidc-refresh-grant-deprecated", server.placeholders.docs_url);
    let notice = seen.lock().unwrap().pop().expect("the answer said the grant is deprecated");
    assert_eq!(notice.endpoint, "token");
    assert_eq!(notice.deprecated_at, Some(jiff::Timestamp::UNIX_EPOCH), "already in effect: deprecated since before any date");
    assert_eq!(notice.sunset, None, "no removal is announced");
    assert_eq!(notice.links, [entry]);
    app.send(&refresh(issued.refresh_token.as_deref().unwrap())).await.unwrap();
    assert_eq!(seen.lock().unwrap().len(), 1, "the rotated refresh token is the provisional account's too");

    // On the wire: RFC 9745 `Deprecation`, a `Link` with relation `deprecation`, no `Sunset`.
    let basic = format!("Basic {}", tokens::CLIENT);
    let form = [("grant_type", "refresh_token"), ("refresh_token", "provisional-refresh")];
    let server = Server::start(Some("2026-01-01T00:00:00Z")).await;
    let entry = format!("{}#change-provisional-oidc-refresh-grant-deprecated", server.placeholders.docs_url);
    let response = server.http.post(server.auth("/oauth2/token")).header("authorization", basic).form(&form).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let header = |name: &str| response.headers().get_all(name).iter().map(|v| v.to_str().unwrap().to_owned()).collect::<Vec<_>>();
    assert_eq!(header("deprecation"), ["@0"]);
    assert!(header("sunset").is_empty());
    assert_eq!(header("link"), [format!("<{entry}>; rel=\"deprecation\"; type=\"text/html\"")]);

    // The link leads to the change's entry in the reference page the server publishes.
    let page = server.http.get(&server.placeholders.docs_url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("id=\"change-provisional-oidc-refresh-grant-deprecated\""));
}

#[tokio::test]
async fn a_revoked_refresh_token_is_invalid_grant() {
    let server = Server::start(None).await;
    let app = server.client(Credential::client(tokens::CLIENT));
    assert_invalid_grant(app.send(&refresh("banned-refresh")).await);
    assert_invalid_grant(app.send(&refresh("never-issued")).await);
}

#[tokio::test]
async fn revoking_a_user_invalidates_its_tokens_and_refreshes() {
    let server = Server::start(None).await;
    let app = server.client(Credential::client(tokens::CLIENT));
    let issued = app.send(&refresh("alice-refresh")).await.unwrap();
    server.platform.revoke_user(100);
    assert_invalid_grant(app.send(&refresh(issued.refresh_token.as_deref().unwrap())).await);
    let alice = server.client(Credential::bearer(&issued.access_token));
    let e = api_error(alice.get_current_user_connections().await);
    assert_eq!((e.status, e.code.value()), (401, 40001));
}

#[tokio::test]
async fn an_authorization_code_is_exchanged_once_with_its_verifier() {
    let server = Server::start(None).await;
    let app = server.client(Credential::client(tokens::CLIENT));
    assert_invalid_grant(app.send(&exchange("alice-code", "wrong-verifier")).await);
    let issued = app.send(&exchange("alice-code", "alice-verifier")).await.unwrap();
    assert!(issued.access_token.starts_with("access-"));
    assert_invalid_grant(app.send(&exchange("alice-code", "alice-verifier")).await);
}

#[tokio::test]
async fn the_token_endpoint_takes_client_credentials_and_its_parameters() {
    let server = Server::start(None).await;
    let alice = server.client(Credential::bearer(tokens::ALICE));
    assert!(matches!(alice.send(&refresh("alice-refresh")).await, Err(Error::Credential { .. })));
    let wrong = server.client(Credential::client("d3Jvbmc6d3Jvbmc="));
    assert_eq!(api_error(wrong.send(&refresh("alice-refresh")).await).status, 401);

    let app = server.client(Credential::client(tokens::CLIENT));
    let mut missing = refresh("x");
    missing.body.refresh_token = None;
    let e = api_error(app.send(&missing).await);
    assert_eq!((e.status, e.code.value()), (400, 50035));
    assert_eq!(e.violations[0].pointer, "/body/refresh_token");

    let raw = Raw::send(
        server.http.post(server.auth("/oauth2/token")).header("authorization", "Basic OTAwMTpyZWZlcmVuY2Utc2VjcmV0").form(&[("grant_type", "password")]),
    )
    .await;
    assert_eq!(raw.violations()[0].0, "/body/grant_type");
}

#[tokio::test]
async fn client_credentials_authenticate_nowhere_else() {
    let server = Server::start(None).await;
    let app = server.client(Credential::client(tokens::CLIENT));
    let e = api_error(app.get_current_user_connections().await);
    assert_eq!((e.status, e.code.value()), (401, 40001));
}

// ---------------------------------------------------------------------------------------------
// The authorization server documents.

#[tokio::test]
async fn server_metadata_and_openid_configuration_come_from_the_spec() {
    let server = Server::start(None).await;
    for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
        let raw = Raw::send(server.http.get(server.auth(path))).await;
        assert_eq!(raw.status, 200, "{path}: {}", raw.text);
        let doc: serde_json::Value = serde_json::from_str(&raw.text).unwrap();
        assert_eq!(doc["issuer"], serde_json::json!(server.origin), "{path}: the issuer is {{auth_url}}");
        assert_eq!(doc["authorization_response_iss_parameter_supported"], serde_json::json!(true), "{path}");
        assert_eq!(doc["token_endpoint"], serde_json::json!(format!("{}/oauth2/token", server.origin)), "{path}");
    }
}
