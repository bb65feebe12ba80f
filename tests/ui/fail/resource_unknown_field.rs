#[derive(platform::Resource)]
#[resource(channel)]
struct Channel {
    nmae: String,
}

fn main() {}
