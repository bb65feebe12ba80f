//! Hand-built payloads of the real API decode into the generated types and encode back to the
//! same JSON: a Create Message request with embeds, allowed mentions, attachments and components
//! of several kinds, and Get Channel answers for several kinds of channel (each must land in
//! its own variant of the untagged union, told apart by the constraints of its `type`).

use discord_client::types::resources::MessageCreateRequest;
use discord_client::types::unions::GetChannelResponse200;
use discord_client::types::wire::Presence;
use serde_json::{Value, json};

/// Decodes `value` as `T` and encodes it back: the JSON must come back unchanged.
fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) -> T {
    let decoded: T = serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("does not decode: {e}\n{value:#}"));
    let encoded = serde_json::to_value(&decoded).expect("encodes");
    assert_eq!(&encoded, value, "the value changed in a round trip");
    decoded
}

fn user(id: &str, name: &str) -> Value {
    json!({
        "id": id, "username": name, "avatar": null, "discriminator": "0", "public_flags": 0,
        "flags": 0, "global_name": name, "primary_guild": null
    })
}

#[test]
fn create_message_with_embeds_mentions_attachments_and_components_round_trips() {
    let message = json!({
        "content": "Release notes for 1.2",
        "tts": false,
        "nonce": "release-1.2",
        "enforce_nonce": true,
        "embeds": [{
            "title": "Version 1.2",
            "description": "What changed",
            "url": "https://example.com/releases/1.2",
            "color": 5793266,
            "timestamp": "2026-02-23T10:00:00Z",
            "author": { "name": "Release bot", "url": "https://example.com/bot" },
            "fields": [
                { "name": "Fixed", "value": "Crash on start", "inline": true },
                { "name": "Added", "value": "Dark theme", "inline": false }
            ],
            "footer": { "text": "Shipped" },
            "image": { "url": "https://example.com/banner.png" }
        }],
        "allowed_mentions": { "parse": ["users"], "users": ["80351110224678912"], "replied_user": false },
        "attachments": [
            { "id": "0", "filename": "notes.txt", "description": "The full notes" },
            { "id": "1", "filename": "screenshot.png", "is_spoiler": true }
        ],
        "components": [
            {
                "type": 1,
                "components": [
                    { "type": 2, "style": 1, "label": "Upgrade", "custom_id": "upgrade" },
                    { "type": 2, "style": 5, "label": "Changelog", "url": "https://example.com/changelog" }
                ]
            },
            {
                "type": 1,
                "components": [{
                    "type": 3,
                    "custom_id": "channel",
                    "placeholder": "Release channel",
                    "min_values": 1,
                    "max_values": 1,
                    "options": [
                        { "label": "Stable", "value": "stable", "default": true },
                        { "label": "Beta", "value": "beta", "description": "Early builds" }
                    ]
                }]
            },
            { "type": 10, "content": "Thanks for testing!" },
            { "type": 14, "divider": true, "spacing": 1 }
        ],
        "message_reference": { "message_id": "1092837465", "channel_id": "1029384756", "fail_if_not_exists": false }
    });
    let decoded: MessageCreateRequest = round_trip(&message);
    let Presence::Value(components) = decoded.components else { panic!("the components are missing") };
    assert_eq!(components.len(), 4, "every component kept");
    let kinds: Vec<String> = components.iter().map(|c| format!("{c:?}").split('(').next().unwrap_or_default().to_owned()).collect();
    assert_eq!(kinds, ["ActionRowComponentForMessageRequest", "ActionRowComponentForMessageRequest", "TextDisplayComponentForMessageRequest", "SeparatorComponentForMessageRequest"]);
}

#[test]
fn get_channel_answers_of_several_kinds_round_trip_in_their_own_variant() {
    let text = json!({
        "id": "41771983423143937", "type": 0, "flags": 0, "guild_id": "41771983423143936",
        "name": "general", "position": 6, "topic": "24/7 chat", "nsfw": false,
        "last_message_id": "155117677105512449", "rate_limit_per_user": 2, "parent_id": null,
        "permission_overwrites": []
    });
    let voice = json!({
        "id": "155101607195836416", "type": 2, "flags": 0, "guild_id": "41771983423143937",
        "name": "ROCKET CHEESE", "position": 5, "bitrate": 64000, "user_limit": 0,
        "rtc_region": null, "parent_id": null, "permission_overwrites": []
    });
    let dm = json!({
        "id": "319674150115610528", "type": 1, "flags": 0, "last_message_id": "3343820033257021450",
        "recipients": [user("82198898841029460", "test")]
    });
    let group = json!({
        "id": "319674150115710528", "type": 3, "flags": 0, "name": "Some test channel", "icon": null,
        "owner_id": "82198810841029460", "recipients": [user("82198898841029460", "test"), user("82198810841029460", "test2")]
    });
    let thread = json!({
        "id": "41771983423143937", "type": 11, "flags": 0, "guild_id": "41771983423143936",
        "name": "don't buy dota-2", "parent_id": "41771983423143936", "owner_id": "41771983423143936",
        "last_message_id": "155117677105512449", "message_count": 1, "member_count": 5,
        "total_message_sent": 1, "rate_limit_per_user": 2,
        "thread_metadata": { "archived": false, "auto_archive_duration": 1440, "archive_timestamp": "2021-04-12T23:40:39.855793Z", "locked": false }
    });
    let cases = [
        (text, "GuildChannelResponse"),
        (voice, "GuildChannelResponse"),
        (dm, "PrivateChannelResponse"),
        (group, "PrivateGroupChannelResponse"),
        (thread, "ThreadResponse"),
    ];
    for (payload, variant) in cases {
        let decoded: GetChannelResponse200 = round_trip(&payload);
        let got = format!("{decoded:?}");
        assert!(got.starts_with(variant), "{} decoded as {}", payload["type"], got.split('(').next().unwrap_or_default());
    }
}
