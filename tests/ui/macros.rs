//! The proc macros: pass cases compile and run, fail cases give their expected errors
//! (`fail/*.stderr`; re-bless with `TRYBUILD=overwrite cargo test -p platform-ui`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("pass/*.rs");
    t.compile_fail("fail/*.rs");
}
