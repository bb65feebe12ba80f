#[derive(platform::Resource)]
#[resource(chanel)]
struct Channel {
    name: String,
}

fn main() {}
