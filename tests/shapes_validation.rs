//! The validators of the shapes fixture: each constraint of each shape reports its violation at
//! the JSON pointer of the offending value, and one call reports them all. The validators
//! descend into arrays (nested too), maps (keys and values), inline objects and unions.

use serde_json::json;
use shapes_types::Validate;
use shapes_types::resources::{Document, Profile};
use shapes_types::unions::{Component, Expression};

/// `(pointer, message)` of every violation.
fn violations<T: Validate>(value: &T) -> Vec<(String, String)> {
    value.validate().into_iter().map(|v| (v.pointer, v.message)).collect()
}

fn decode<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> T {
    serde_json::from_value(json).unwrap_or_else(|e| panic!("decodes: {e}"))
}

fn valid_document() -> serde_json::Value {
    json!({
        "id": "00000000-0000-0000-0000-000000000001", "created_at": "2024-05-01T12:00:00Z", "title": "Notes",
        "tags": ["a", "b"], "scores": { "x": 50 }, "owner": { "name": "Ada", "address": { "city": "London" } }, "schema_version": 2
    })
}

#[test]
fn a_valid_value_has_no_violation() {
    let mut json = valid_document();
    json["weights"] = json!([0.5, null, -1]);
    json["grid"] = json!([[0, 9], [1, 2, 3]]);
    json["summaries"] = json!({ "en": "hi", "fr": "salut" });
    json["contact"] = json!("ada@example.org");
    json["homepage"] = json!("https://example.org/ada");
    json["ratio"] = json!(1);
    json["nonce"] = json!(123);
    json["revision"] = json!("draft");
    json["slug"] = json!("newer");
    assert_eq!(violations(&decode::<Document>(json)), []);
}

#[test]
fn every_constraint_is_reported_at_its_pointer_and_all_at_once() {
    let mut json = valid_document();
    json["title"] = json!("Hello, world");
    json["slug"] = json!("new");
    json["tags"] = json!(["a", "a", "Caps"]);
    json["scores"] = json!({ "x": 150, "y": 1 });
    json["views_by_user"] = json!({ "1": -3 });
    json["summaries"] = json!({ "pt": "olá" });
    json["weights"] = json!([null, 2.5]);
    json["grid"] = json!([[1, 2, 3, 4], [10]]);
    json["contact"] = json!("not an address");
    json["homepage"] = json!("example.org");
    json["ratio"] = json!(1.5);
    json["nonce"] = json!(-1);
    json["revision"] = json!(true);
    json["schema_version"] = json!(3);
    json["shapes"] = json!([{ "kind": "circle", "radius": -1 }]);
    json["components"] = json!([{ "type": 1, "components": [{ "type": 2, "style": 5, "url": "x y" }] }]);
    let found = violations(&decode::<Document>(json));
    let expected: Vec<(&str, &str)> = vec![
        ("/title", "must match the pattern `^[A-Za-z0-9 ]+$`"),
        ("/slug", "must match the pattern `^(?!new$)[a-z][a-z0-9-]*$`"),
        ("/tags/1", "repeats item 0: items must be unique"),
        ("/tags/2", "must match the pattern `^[a-z]+$`"),
        ("/scores/x", "must be at most 100 (got 150)"),
        ("/views_by_user/1", "must be at least 0 (got -3)"),
        ("/summaries/pt", "is not a value of `locale` (got pt)"),
        ("/weights/1", "must be at most 1 (got 2.5)"),
        ("/grid/0", "must have at most 3 items (got 4)"),
        ("/grid/1/0", "must be at most 9 (got 10)"),
        ("/contact", "must be an email address (local@domain)"),
        ("/homepage", "must be an absolute URI (scheme:...)"),
        ("/nonce", "must be at least 0 (got -1)"),
        ("/revision", "is no variant of `document_revision` (it is none of `integer`, `string`, `null`)"),
        ("/shapes/0/radius", "must be greater than 0 (got -1)"),
        ("/ratio", "must be at most 1 (got 1.5)"),
        ("/components/0/components/0/style", "must be one of `PRIMARY`, `SECONDARY`, `DANGER` (got 5)"),
        ("/components/0/components/0/url", "must be an absolute URI (scheme:...)"),
        ("/schema_version", "must be `2` (got 3)"),
    ];
    for (pointer, message) in &expected {
        assert!(found.contains(&((*pointer).to_owned(), (*message).to_owned())), "no `{message}` at {pointer} in\n{found:#?}");
    }
    assert_eq!(found.len(), expected.len(), "every violation once: {found:#?}");
}

#[test]
fn presence_and_subsets_are_checked_only_when_there_is_a_value() {
    assert_eq!(violations(&decode::<Profile>(json!({ "nickname": null, "accent_color": null }))), []);
    let found = violations(&decode::<Profile>(json!({ "nickname": "x".repeat(33), "accent_color": 16_777_216, "locale": "de", "volume": 2 })));
    assert_eq!(
        found,
        [
            ("/nickname".to_owned(), "must be at most 32 characters long (got 33)".to_owned()),
            ("/accent_color".to_owned(), "must be at most 16777215 (got 16777216)".to_owned()),
            ("/volume".to_owned(), "must be at most 1 (got 2)".to_owned()),
            ("/locale".to_owned(), "must be one of `en`, `fr` (got de)".to_owned()),
        ]
    );
}

#[test]
fn union_variants_are_checked_with_their_own_constraints() {
    let select: Component = decode(json!({ "type": 3, "custom_id": "", "options": [] }));
    assert_eq!(
        violations(&select),
        [
            ("/custom_id".to_owned(), "must be at least 1 characters long (got 0)".to_owned()),
            ("/options".to_owned(), "must have at least 1 items (got 0)".to_owned()),
        ]
    );
    let nested: Expression = decode(json!({ "operand": { "operand": { "unknown": 1 } } }));
    assert_eq!(violations(&nested), [("/operand/operand".to_owned(), "is no variant of `expression` (it is none of `literal`, `negation`)".to_owned())]);
}

#[test]
fn map_entry_counts_and_exclusive_bounds_are_checked() {
    let mut json = valid_document();
    json["scores"] = serde_json::Value::Object((0..11).map(|i| (format!("k{i}"), json!(1))).collect());
    json["summaries"] = json!({});
    json["shapes"] = json!([{ "kind": "rect", "width": 1000.5, "height": 1000 }, { "kind": "rect", "width": 0, "height": 999.5 }]);
    let found = violations(&decode::<Document>(json));
    let pointers: Vec<&str> = found.iter().map(|(pointer, _)| pointer.as_str()).collect();
    assert_eq!(pointers, ["/scores", "/summaries", "/shapes/0/height"], "{found:#?}");
    assert!(found[2].1.contains("less than 1000"), "{found:#?}");
}
