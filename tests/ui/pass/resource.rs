//! `#[derive(Resource)]` accepts a subset of a resource's fields with compatible types.
#[derive(serde::Deserialize, platform::Resource)]
#[resource(channel)]
struct ChannelName {
    name: String,
    application_id: Option<u64>,
}

#[derive(serde::Deserialize, platform::Resource)]
#[resource(voice_channel_info)]
struct VoiceInfo {
    #[serde(rename = "status")]
    text: String,
}

fn main() {
    use platform::Resource;
    assert_eq!(ChannelName::RESOURCE, "channel");
    assert_eq!(VoiceInfo::RESOURCE, "voice_channel_info");
    let c: ChannelName = serde_json::from_str(r#"{"name": "general", "application_id": null}"#).unwrap();
    assert_eq!(c.name, "general");
    assert!(c.application_id.is_none());
    let v: VoiceInfo = serde_json::from_str(r#"{"status": "live"}"#).unwrap();
    assert_eq!(v.text, "live");
}
