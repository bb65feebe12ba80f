//! Checks report every violation at its JSON pointer, and build no text for valid values.

use platform_codegen_runtime::clock::{Clock, FixedClock};
use platform_codegen_runtime::validation::{self, Pointer, Violation};

#[test]
fn pointers_escape_their_tokens() {
    let body = Pointer::At("/body");
    let member = Pointer::key(&body, "a/b~c");
    let item = Pointer::index(&member, 3);
    assert_eq!(item.to_string(), "/body/a~1b~0c/3");
    assert_eq!(validation::child("/query", "x/y"), "/query/x~1y");
}

#[test]
fn every_broken_bound_is_reported() {
    let mut out = Vec::new();
    let at = Pointer::At("/body/name");
    validation::max_length(&mut out, &at, "abcdef", 3);
    validation::min_length(&mut out, &at, "abcdef", 2);
    validation::min(&mut out, &at, -1, 0);
    validation::max_items(&mut out, &at, 26, 25);
    validation::unique_items(&mut out, &at, &[1, 2, 1]);
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(out.iter().all(|v| v.pointer.starts_with("/body/name")), "{out:?}");
}

#[test]
fn media_types_match_with_wildcards_and_without_parameters() {
    let at = Pointer::At("/body/file");
    let mut out: Vec<Violation> = Vec::new();
    validation::content_type(&mut out, &at, "image/PNG; charset=x", "image/*");
    validation::content_type(&mut out, &at, "text/plain", "*/*");
    assert!(out.is_empty(), "{out:?}");
    validation::content_type(&mut out, &at, "text/plain", "image/*");
    validation::content_type(&mut out, &at, "nonsense", "image/png");
    assert_eq!(out.len(), 2);
}

#[test]
fn a_fixed_clock_is_fixed() {
    let clock = FixedClock::parse("2026-02-23T00:00:00Z").unwrap();
    assert_eq!(clock.now(), clock.now());
    assert_eq!(clock.now().to_string(), "2026-02-23T00:00:00Z");
    assert!(FixedClock::parse("yesterday").is_err());
}
