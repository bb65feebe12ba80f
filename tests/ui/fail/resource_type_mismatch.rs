#[derive(platform::Resource)]
#[resource(channel)]
struct Channel {
    name: u64,
}

fn main() {}
