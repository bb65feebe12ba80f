fn main() {
    let _ = platform::limit!(shard_parameter);
}
