#[derive(platform::Resource)]
#[resource(channel)]
struct Channel {
    application_id: u64,
}

fn main() {}
