//! Checks report every violation at its JSON pointer, and build no text for valid values.

use platform_codegen_runtime::clock::{Clock, FixedClock};
use platform_codegen_runtime::validation::{self, Pointer, Violation, violation_tree, violations_from_tree};

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

/// Discord's shape: members by field name or item index, `_errors` at the points that are wrong.
const TREE: &str = r#"{"embeds": {"0": {"title": {"_errors": [{"code": 50035, "message": "Too long"}]},
    "fields": {"1": {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "Required"}, {"message": "Twice"}]}}}}},
    "a/b~c": {"_errors": [{"code": 1, "message": "escaped"}]}}"#;

#[test]
fn a_tree_of_violations_reads_as_pointers_codes_and_messages_in_its_order() {
    let tree: serde_json::Value = serde_json::from_str(TREE).unwrap();
    let read: Vec<_> = violations_from_tree(&tree, "_errors").into_iter().map(|v| (v.pointer, v.code, v.message)).collect();
    let s = |t: &str| t.to_owned();
    assert_eq!(
        read,
        [
            (s("/embeds/0/title"), Some(s("50035")), s("Too long")),
            (s("/embeds/0/fields/1/name"), Some(s("BASE_TYPE_REQUIRED")), s("Required")),
            (s("/embeds/0/fields/1/name"), None, s("Twice")),
            (s("/a~1b~0c"), Some(s("1")), s("escaped")),
        ]
    );
    // What is not a tree of that shape reads as no violation, never a panic.
    for odd in ["[]", "null", "3", r#"{"_errors": 3}"#, r#"{"x": {"_errors": [3, {"code": 1}]}}"#] {
        assert!(violations_from_tree(&serde_json::from_str(odd).unwrap(), "_errors").is_empty(), "{odd}");
    }
}

#[test]
fn violations_written_as_a_tree_read_back_from_the_body_s_members() {
    let violations = [
        Violation::new("/body/embeds/0/title", "Too long"),
        Violation::new("/body/embeds/0/title", "Twice"),
        Violation::new("/query/limit", "Too big"),
        Violation::new("/body/a~1b", "escaped"),
    ];
    let (tree, unplaced) = violation_tree(&violations, "_errors", |_| Some(serde_json::json!(50035)));
    assert!(unplaced.is_empty());
    assert_eq!(tree["embeds"]["0"]["title"]["_errors"][1], serde_json::json!({"code": 50035, "message": "Twice"}));
    let pointers: Vec<_> = violations_from_tree(&tree, "_errors").into_iter().map(|v| v.pointer).collect();
    assert_eq!(pointers, ["/embeds/0/title", "/embeds/0/title", "/query/limit", "/a~1b"]);
}

#[test]
fn a_point_lists_violations_or_holds_members_never_both() {
    let violations = [
        Violation::new("/body", "not an object"),
        Violation::new("/body/name", "required"),
        Violation::new("/path/id", "not a number"),
        Violation::new("/path/id/deeper", "below a listed point"),
        Violation::new("/path", "at a point with members"),
        Violation::new("/body/_errors", "the leaf's own name"),
    ];
    let (tree, unplaced) = violation_tree(&violations, "_errors", |_| None);
    assert_eq!(tree, serde_json::json!({"_errors": [{"message": "not an object"}]}), "the first violation takes the root");
    let messages: Vec<_> = unplaced.iter().map(|v| v.message.as_str()).collect();
    assert_eq!(messages, ["required", "not a number", "below a listed point", "at a point with members", "the leaf's own name"]);
    let (tree, unplaced) = violation_tree(&violations[1..], "_errors", |_| None);
    assert_eq!(tree["path"]["id"]["_errors"][0]["message"], "not a number");
    let messages: Vec<_> = unplaced.iter().map(|v| v.message.as_str()).collect();
    assert_eq!(messages, ["below a listed point", "at a point with members", "the leaf's own name"]);
}
