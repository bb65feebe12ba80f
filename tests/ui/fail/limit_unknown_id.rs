fn main() {
    let _ = platform::limit!(voice_status_length);
}
