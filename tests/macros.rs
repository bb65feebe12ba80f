//! The macros see the same model as `generated/model.json`. Their pass and compile-fail cases are
//! the `platform-ui` crate's (`tests/ui/`).

#[test]
fn macros_see_the_committed_model() {
    let committed: serde_json::Value = serde_json::from_str(include_str!("../generated/model.json")).unwrap();
    let seen: serde_json::Value = serde_json::from_str(platform::model_json!()).unwrap();
    assert!(committed["model"] == seen, "the macros' model differs from generated/model.json; run `cargo run -p platform-codegen -- generate`");
}
