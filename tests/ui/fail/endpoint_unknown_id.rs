#[platform::endpoint(set_voice_status)]
async fn set_status() {}

fn main() {}
