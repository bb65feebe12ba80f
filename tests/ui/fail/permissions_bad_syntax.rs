fn main() {
    let _ = platform::permissions![PIN_MESSAGES BYPASS_SLOWMODE];
}
