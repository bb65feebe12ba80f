#[platform::endpoint(set_voice_channel_status, extra)]
async fn set_status() {}

fn main() {}
