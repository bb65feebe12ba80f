//! The proc macros: pass cases compile and run, fail cases give their expected errors
//! (`tests/ui/fail/*.stderr`; re-bless with `TRYBUILD=overwrite cargo test --test macros`), and
//! the macros see the same model as `generated/model.json`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}

#[test]
fn macros_see_the_committed_model() {
    let committed: serde_json::Value = serde_json::from_str(include_str!("../generated/model.json")).unwrap();
    let seen: serde_json::Value = serde_json::from_str(platform::model_json!()).unwrap();
    assert!(committed["model"] == seen, "the macros' model differs from generated/model.json; run `cargo run -p platform-codegen -- generate`");
}
