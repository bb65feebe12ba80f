#[derive(platform::Resource)]
struct Channel {
    name: String,
}

fn main() {}
