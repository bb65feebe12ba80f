fn main() {
    let _ = platform::error_code!(invalid_grant);
}
