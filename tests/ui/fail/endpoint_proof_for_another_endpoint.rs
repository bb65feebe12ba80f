use platform_server::Granted;
enum GetGuildChannels {}

#[platform::endpoint(set_voice_channel_status)]
async fn set_status(channel_id: u64, status: String, granted: Granted<GetGuildChannels>) {
    let _ = (channel_id, status, granted);
}

fn main() {}
