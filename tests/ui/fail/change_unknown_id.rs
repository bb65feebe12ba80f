fn main() {
    let _ = platform::change!(pin-message-required);
}
