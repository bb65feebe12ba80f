//! Discord's interactions endpoint, generated: the app's receiver (client feature `webhooks`)
//! in an axum server on 127.0.0.1, checked against interactions signed here with
//! `ed25519-dalek` directly, as Discord signs them (Ed25519 over `X-Signature-Timestamp` and the
//! raw body, hex in `X-Signature-Ed25519`), and against the generated sender (server feature
//! `webhooks`). The handler answers with the document's interaction callback types.

use discord_client::types::enums::InteractionCallbackTypes;
use discord_client::types::webhooks::InteractionsEvent;
use discord_client::webhooks::{self, Key, Received, Reply};
use ed25519_dalek::Signer as _;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const SEED: [u8; 32] = [42; 32];

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970").as_secs() as i64
}

/// An app whose interactions endpoint answers a command with a message (callback type 4), and
/// defers one named `slow` (type 5) when it takes past the deadline; what its handler saw.
async fn app() -> (String, Arc<Mutex<Vec<Received<InteractionsEvent>>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let handled = seen.clone();
    let public = hex(ed25519_dalek::SigningKey::from_bytes(&SEED).verifying_key().as_bytes());
    let deferred = Reply::Json(json!({ "type": InteractionCallbackTypes::DeferredChannelMessageWithSource.value() }));
    let receiver = webhooks::interactions(vec![Key::ed25519_hex(&public).expect("a public key")]).deferring(deferred, Duration::from_millis(500));
    let endpoint = receiver.post(move |received: Received<InteractionsEvent>| {
        let handled = handled.clone();
        async move {
            let name = match &received.event {
                InteractionsEvent::ApplicationCommandInteraction(i) => i.data.as_ref().and_then(|d| d["name"].as_str()).unwrap_or("?").to_owned(),
                _ => "other".to_owned(),
            };
            handled.lock().expect("unpoisoned").push(received);
            if name == "slow" {
                tokio::time::sleep(Duration::from_secs(30)).await;
            }
            let message = InteractionCallbackTypes::ChannelMessageWithSource.value();
            Reply::Json(json!({ "type": message, "data": { "content": format!("ran {name}") } }))
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/interactions", listener.local_addr().expect("an address"));
    tokio::spawn(async move { axum::serve(listener, axum::Router::new().route("/interactions", endpoint)).await });
    (url, seen)
}

/// Posts `body` signed as Discord signs an interaction.
async fn post(url: &str, key: &ed25519_dalek::SigningKey, body: &serde_json::Value) -> reqwest::Response {
    let body = body.to_string();
    let timestamp = now().to_string();
    let signature = hex(&key.sign(format!("{timestamp}{body}").as_bytes()).to_bytes());
    reqwest::Client::new()
        .post(url)
        .header("X-Signature-Ed25519", signature)
        .header("X-Signature-Timestamp", timestamp)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("an answer")
}

/// An application command interaction as Discord's documentation shows one.
fn command(id: &str, name: &str) -> serde_json::Value {
    json!({
        "type": 2,
        "id": id,
        "application_id": "775799577604522054",
        "token": "A_UNIQUE_TOKEN",
        "version": 1,
        "guild_id": "290926798626357999",
        "channel_id": "645027906669510667",
        "data": { "id": "771825006014889984", "name": name, "type": 1 },
        "member": {
            "user": { "id": "53908232506183680", "username": "Mason", "discriminator": "0", "avatar": null, "public_flags": 0, "flags": 0, "global_name": null, "primary_guild": null },
            "roles": [], "joined_at": "2017-03-13T19:19:14.040000+00:00", "deaf": false, "mute": false, "pending": false, "flags": 0, "avatar": null, "banner": null, "premium_since": null, "nick": null, "communication_disabled_until": null
        },
        "app_permissions": "442368",
        "locale": "en-US",
        "guild_locale": "en-US",
        "context": 0
    })
}

#[tokio::test]
async fn a_ping_is_answered_with_a_pong_and_a_command_with_the_handler_s_message() {
    let (url, seen) = app().await;
    let key = ed25519_dalek::SigningKey::from_bytes(&SEED);
    let pong = post(&url, &key, &json!({ "type": 1, "id": "1", "application_id": "775799577604522054", "token": "t", "version": 1 })).await;
    assert_eq!(pong.status(), 200);
    assert_eq!(pong.json::<serde_json::Value>().await.expect("JSON"), json!({ "type": 1 }));
    assert!(seen.lock().expect("unpoisoned").is_empty(), "the ping never reaches the handler");

    let answer = post(&url, &key, &command("1001", "roll")).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.json::<serde_json::Value>().await.expect("JSON"), json!({ "type": 4, "data": { "content": "ran roll" } }));
    let seen = seen.lock().expect("unpoisoned");
    let InteractionsEvent::ApplicationCommandInteraction(interaction) = &seen[0].event else { panic!("a typed application command, not {:?}", seen[0].event) };
    assert_eq!(interaction.token, "A_UNIQUE_TOKEN");
    assert_eq!(interaction.member.as_ref().map(|m| m.user.username.as_str()), Some("Mason"), "the imported guild member type");
    assert_eq!(seen[0].id.as_deref(), Some("1001"));
}

#[tokio::test]
async fn an_interaction_another_key_signed_is_a_401_and_an_unknown_type_arrives_raw() {
    let (url, seen) = app().await;
    let key = ed25519_dalek::SigningKey::from_bytes(&SEED);
    assert_eq!(post(&url, &ed25519_dalek::SigningKey::from_bytes(&[7; 32]), &command("2001", "roll")).await.status(), 401);
    assert_eq!(post(&url, &key, &command("2002", "roll")).await.status(), 200);
    assert_eq!(seen.lock().expect("unpoisoned").len(), 1);
    let unknown = post(&url, &key, &json!({ "type": 99, "id": "2003" })).await;
    assert_eq!(unknown.status(), 200, "an interaction type the spec does not name reaches the handler raw");
    assert!(matches!(&seen.lock().expect("unpoisoned")[1].event, InteractionsEvent::Unknown { name, .. } if name == "99"));
}

#[tokio::test(start_paused = true)]
async fn a_slow_command_is_deferred_within_discord_s_three_seconds() {
    let (url, seen) = app().await;
    let start = tokio::time::Instant::now();
    let answer = post(&url, &ed25519_dalek::SigningKey::from_bytes(&SEED), &command("3001", "slow")).await;
    assert_eq!(answer.json::<serde_json::Value>().await.expect("JSON"), json!({ "type": 5 }), "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE");
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    assert_eq!(seen.lock().expect("unpoisoned").len(), 1);
}

#[tokio::test]
async fn the_generated_sender_delivers_an_interaction_the_receiver_reads() {
    let (url, seen) = app().await;
    let interaction: discord_client::types::events::ApplicationCommandInteraction = serde_json::from_value(command("4001", "sent")).expect("an interaction");
    let sender = discord_server::webhooks::interactions(vec![discord_server::webhooks::SigningKey::Ed25519(ed25519_dalek::SigningKey::from_bytes(&SEED))]);
    let delivered = sender.send(&url, "4001", &InteractionsEvent::ApplicationCommandInteraction(interaction)).await.expect("delivered");
    assert_eq!(delivered.status, 200);
    let seen = seen.lock().expect("unpoisoned");
    assert!(matches!(&seen[0].event, InteractionsEvent::ApplicationCommandInteraction(i) if i.data.as_ref().is_some_and(|d| d["name"] == "sent")));
    assert_eq!(seen[0].id.as_deref(), Some("4001"));
}
