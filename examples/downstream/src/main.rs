//! A downstream crate written against the platform's model: every macro is checked at compile
//! time against `spec/`, so a typo or a mismatch with the spec fails this build.

use platform::{Clock, FixedClock, Permissions, Resource, Snowflake};
use platform_server::Granted;
use platform_server::granted::SetVoiceChannelStatus;
use serde::Deserialize;

/// What a moderation bot asks for.
const MODERATION: Permissions = platform::permissions![PIN_MESSAGES, BYPASS_SLOWMODE];

/// The channel fields this bot reads.
#[derive(Debug, Deserialize, Resource)]
#[resource(channel)]
struct ChannelView {
    name: String,
    application_id: Option<Snowflake>,
}

/// Checks a status before sending it, with the platform's own limit.
fn status_fits(status: &str) -> bool {
    let limit = platform::limit!(voice_channel_status_length);
    limit.upper().is_some_and(|max| status.chars().count() as i64 <= max)
}

/// The business logic behind the server's `set_voice_channel_status`: callable only with the
/// proof that the endpoint's permission rule was evaluated.
#[platform::endpoint(set_voice_channel_status)]
fn apply_status(channel_id: Snowflake, status: String, granted: Granted<SetVoiceChannelStatus>) -> String {
    let _ = granted;
    format!("{channel_id}: {status}")
}

fn main() {
    assert!(MODERATION.contains(platform::permissions![PIN_MESSAGES]));
    assert!(status_fits("streaming"));
    assert!(!status_fits(&"x".repeat(501)));

    let retry_later = platform::error_code!(search_index_not_ready);
    assert_eq!(retry_later.value(), 110000);

    let pins = platform::change!(pin - messages - required);
    let clock = FixedClock::parse("2026-03-01T00:00:00Z").expect("a valid instant");
    assert!(pins.is_in_effect(clock.now()), "PIN_MESSAGES is required from 2026-02-23");

    let channel: ChannelView = serde_json::from_str(r#"{"name":"general","application_id":null}"#).expect("valid JSON");
    assert_eq!(ChannelView::RESOURCE, "channel");
    assert!(channel.application_id.is_none());
    let _ = apply_status;
    println!("{} reads `{}`; moderation bits {:#x}", env!("CARGO_PKG_NAME"), channel.name, MODERATION.bits());
}
