#[platform::endpoint(search_guild_messages)]
async fn search() {}

fn main() {}
