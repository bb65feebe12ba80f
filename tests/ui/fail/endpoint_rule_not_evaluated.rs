#[platform::endpoint(set_voice_channel_status)]
async fn set_status(channel_id: u64, status: String) {
    let _ = (channel_id, status);
}

fn main() {}
