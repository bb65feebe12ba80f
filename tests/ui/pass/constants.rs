//! `limit!`, `error_code!` and `change!` name the generated constants.
fn main() {
    const STATUS: platform::limits::Limit = platform::limit!(voice_channel_status_length);
    assert_eq!(STATUS.upper(), Some(500));
    assert_eq!(platform::limit!(lobby_members_per_bulk_request).upper(), Some(25));
    assert_eq!(platform::error_code!(search_index_not_ready).value(), 110000);
    // A change id as the spec writes it, hyphens and all (rustfmt would space them as minus signs).
    #[rustfmt::skip]
    let pins = platform::change!(pin-messages-required);
    let before = platform::FixedClock::parse("2026-02-22T23:59:59Z").unwrap();
    let after = platform::FixedClock::parse("2026-02-23T00:00:00Z").unwrap();
    use platform::Clock;
    assert!(!pins.is_in_effect(before.now()));
    assert!(pins.is_in_effect(after.now()));
}
