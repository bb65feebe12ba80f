//! `permissions!` is usable in `const` items and holds exactly the named bits.
const MODERATION: platform::Permissions = platform::permissions![PIN_MESSAGES, BYPASS_SLOWMODE];
const NONE: platform::Permissions = platform::permissions![];

fn main() {
    assert_eq!(MODERATION.bits(), (1 << 51) | (1 << 52));
    assert_eq!(NONE.bits(), 0);
    assert!(MODERATION.contains(platform::permissions![PIN_MESSAGES]));
}
