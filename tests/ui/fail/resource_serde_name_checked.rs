#[derive(serde::Deserialize, platform::Resource)]
#[resource(channel)]
struct Channel {
    #[serde(rename = "title")]
    name: String,
}

fn main() {}
