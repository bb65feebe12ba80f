//! `#[endpoint]` accepts handlers whose parameters are the endpoint's inputs, with the proof
//! for guarded endpoints.
use platform::Snowflake;
use platform_server::Granted;
use platform_server::granted::SetVoiceChannelStatus;

#[platform::endpoint(set_voice_channel_status)]
async fn set_status(channel_id: Snowflake, status: String, granted: Granted<SetVoiceChannelStatus>) -> usize {
    let _ = (channel_id, granted);
    status.len()
}

#[platform::endpoint(get_lobby_messages)]
fn lobby_messages(lobby_id: u64) -> u64 {
    lobby_id
}

#[platform::endpoint(bulk_update_lobby_members)]
fn bulk(lobby_id: Snowflake, body: Vec<platform::resources::LobbyMemberUpdate>) -> usize {
    let _ = lobby_id;
    body.len()
}

fn main() {
    let _ = set_status;
    assert_eq!(lobby_messages(7), 7);
    let _ = bulk;
}
