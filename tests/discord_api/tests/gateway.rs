//! Discord's Gateway v10, generated from `spec/gateway.yaml` beside the imported HTTP API: the
//! client crate's shard (feature `gateway`) against the server crate's hub (feature `gateway`)
//! over 127.0.0.1. Identify with the typed payload, READY with the imported user resource,
//! MESSAGE_CREATE as an imported message with the gateway's fields, an event the spec does not
//! name, Request Channel Info answered by its Channel Info event, a resume after a dropped
//! connection, compression, and a fatal close code ending the shard with its typed error.

use discord_client::gateways::{self as client, Received, SessionEvent, ShardError};
use discord_client::types::flags::GatewayIntents;
use discord_client::types::gateway::{IdentifyPayload, RequestChannelInfoPayload};
use discord_client::types::gateways::{GATEWAY, GatewayEvent};
use discord_server::gateways::{self as server, Cause, Hub, Options, Sessions};
use serde_json::value::RawValue;
use serde_json::{Value, json};

/// The platform's side: one token, and channel info for any guild.
struct Discord;

impl Sessions for Discord {
    async fn identify(&self, data: &RawValue) -> Result<Value, Cause> {
        let identify: IdentifyPayload = serde_json::from_str(data.get()).map_err(|_| Cause::DecodeError)?;
        if identify.token != "Bot secret" {
            return Err(Cause::AuthenticationFailed);
        }
        Ok(json!({ "v": 10, "user": user("1", "bot"), "guilds": [{ "id": "41", "unavailable": true }], "application": { "id": "1", "flags": 0 } }))
    }

    async fn command(&self, _session: &str, opcode: u8, data: &RawValue) -> Result<Option<(String, Value)>, Cause> {
        match opcode {
            43 => {
                let request: RequestChannelInfoPayload = serde_json::from_str(data.get()).map_err(|_| Cause::DecodeError)?;
                let channels = json!([{ "id": "7", "status": "playing" }]);
                Ok(Some(("CHANNEL_INFO".to_owned(), json!({ "guild_id": request.guild_id, "channels": channels }))))
            }
            3 | 4 | 8 | 31 => Ok(None),
            _ => Err(Cause::UnknownOpcode),
        }
    }
}

fn user(id: &str, name: &str) -> Value {
    json!({ "id": id, "username": name, "avatar": null, "discriminator": "0", "public_flags": 0, "flags": 0, "global_name": null })
}

fn message(id: &str, content: &str) -> Value {
    json!({
        "type": 0, "content": content, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
        "timestamp": "2026-11-27T12:00:00.000000+00:00", "edited_timestamp": null, "flags": 0, "components": [],
        "id": id, "channel_id": "7", "author": user("2", "someone"), "pinned": false, "mention_everyone": false, "tts": false,
        "guild_id": "41", "member": { "roles": [], "joined_at": "2026-01-01T00:00:00+00:00" }
    })
}

fn identify() -> IdentifyPayload {
    serde_json::from_value(json!({
        "token": "Bot secret",
        "properties": { "os": "linux", "browser": "tail", "device": "tail" },
        "intents": (GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::MESSAGE_CONTENT).bits(),
    }))
    .expect("an identify payload")
}

async fn serve() -> (Hub<Discord>, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("ws://{}", listener.local_addr().expect("an address"));
    // Discord's READY always names the address to resume at: here, the same server.
    let hub = server::gateway(Discord, Options { resume_url: Some(url.clone()), ..Options::default() });
    let router = hub.router();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (hub, url)
}

async fn event(shard: &mut client::GatewayShard) -> (String, Result<GatewayEvent, String>) {
    loop {
        match shard.next().await.expect("the shard goes on").expect("no fatal close") {
            Received::Dispatch(d) => return (d.name, d.event),
            Received::Session(_) => {}
        }
    }
}

/// On the real clock: the server reads the client's commands through hyper's upgraded
/// connection, whose wakeups tokio's paused clock does not wait for. Nothing here depends on time.
#[tokio::test]
async fn a_bot_identifies_and_reads_typed_events() {
    let (hub, url) = serve().await;
    let mut shard = client::gateway(&url, &identify()).expect("a shard");
    let (name, ready) = event(&mut shard).await;
    assert_eq!(name, "READY");
    let Ok(GatewayEvent::Ready(ready)) = ready else { panic!("READY decodes: {ready:?}") };
    assert_eq!((ready.v, ready.user.username.as_str()), (10, "bot"));
    assert_eq!(shard.session().map(|s| s.id.as_str()), Some(ready.session_id.as_str()));

    hub.dispatch("MESSAGE_CREATE", &message("100", "hello"));
    hub.dispatch("SOMETHING_NEW", &json!({ "x": 1 }));
    let (_, created) = event(&mut shard).await;
    let Ok(GatewayEvent::MessageCreate(created)) = created else { panic!("MESSAGE_CREATE decodes: {created:?}") };
    assert_eq!((created.content.as_str(), created.author.username.as_str()), ("hello", "someone"));
    assert_eq!(created.guild_id.as_ref().map(ToString::to_string).as_deref(), Some("41"));
    let (name, unknown) = event(&mut shard).await;
    assert_eq!(name, "SOMETHING_NEW");
    assert!(matches!(unknown, Ok(GatewayEvent::Unknown { ref raw, .. }) if raw.get() == r#"{"x":1}"#), "{unknown:?}");

    // Request Channel Info, awaited for its reply while the shard is driven.
    let sender = shard.sender();
    let request: RequestChannelInfoPayload = serde_json::from_value(json!({ "guild_id": "41", "fields": ["status"] })).expect("a request");
    let reply = tokio::spawn(async move { sender.request(&request).await });
    let (name, info) = event(&mut shard).await;
    assert_eq!(name, "CHANNEL_INFO");
    assert!(matches!(info, Ok(GatewayEvent::ChannelInfo(_))), "{info:?}");
    let reply = reply.await.expect("joins").expect("answered");
    assert_eq!(serde_json::from_str::<Value>(reply.get()).expect("JSON")["channels"][0]["status"], "playing");

    // A dropped connection is resumed: nothing dispatched meanwhile is lost.
    hub.drop_connections();
    hub.dispatch("MESSAGE_CREATE", &message("101", "while away"));
    let (_, missed) = event(&mut shard).await;
    assert!(matches!(missed, Ok(GatewayEvent::MessageCreate(ref m)) if m.content == "while away"), "{missed:?}");
    assert_eq!(event(&mut shard).await.0, "RESUMED");
}

#[tokio::test(start_paused = true)]
async fn a_compressed_session_reads_the_same_events() {
    let (hub, url) = serve().await;
    let mut config = client::gateway_config(&url, &identify()).expect("a config");
    config.compression = Some(client::Compression::ZlibStream);
    let mut shard = client::gateway_with(config);
    assert_eq!(event(&mut shard).await.0, "READY");
    hub.dispatch("MESSAGE_CREATE", &message("100", &"long ".repeat(5000)));
    let (_, created) = event(&mut shard).await;
    assert!(matches!(created, Ok(GatewayEvent::MessageCreate(ref m)) if m.content.len() == 25_000), "{created:?}");
}

#[tokio::test(start_paused = true)]
async fn a_wrong_token_ends_the_shard_with_4004() {
    let (_hub, url) = serve().await;
    let mut wrong = identify();
    wrong.token = "Bot wrong".to_owned();
    let mut shard = client::gateway(&url, &wrong).expect("a shard");
    let error = loop {
        match shard.next().await.expect("an error before the end") {
            Ok(Received::Session(SessionEvent::Closed { code, .. })) => assert_eq!(code, Some(4004)),
            Ok(_) => {}
            Err(e) => break e,
        }
    };
    assert_eq!(error, ShardError::Fatal { code: 4004, name: "Authentication failed".to_owned() });
    assert!(shard.next().await.is_none(), "no reconnect loop");
}

#[test]
fn the_protocol_says_what_discord_documents() {
    assert_eq!(GATEWAY.query, &[("v", "10"), ("encoding", "json")]);
    let fatal: Vec<u16> = GATEWAY.close_codes.iter().filter(|c| c.policy == discord_client::types::session::Policy::Fatal).map(|c| c.code).collect();
    assert_eq!(fatal, [4004, 4010, 4011, 4012, 4013, 4014]);
    assert_eq!(GATEWAY.send_limit.map(|l| (l.commands, l.per.as_secs())), Some((120, 60)));
}
