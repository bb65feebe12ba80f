fn main() {
    let _ = platform::permissions![PIN_MESAGES, BYPASS_SLOWMODE, KICK_MEMBERS];
}
