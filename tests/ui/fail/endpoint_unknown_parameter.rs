use platform_server::Granted;
use platform_server::granted::SetVoiceChannelStatus;

#[platform::endpoint(set_voice_channel_status)]
async fn set_status(channel_id: u64, stauts: String, granted: Granted<SetVoiceChannelStatus>) {
    let _ = (channel_id, stauts, granted);
}

fn main() {}
