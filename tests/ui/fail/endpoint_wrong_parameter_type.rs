use platform_server::Granted;
use platform_server::granted::SetVoiceChannelStatus;

#[platform::endpoint(set_voice_channel_status)]
async fn set_status(channel_id: u64, status: u64, granted: Granted<SetVoiceChannelStatus>) {
    let _ = (channel_id, status, granted);
}

fn main() {}
