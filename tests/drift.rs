//! `generated/` matches what the generator makes of `spec/` today.

use platform_codegen::emit::{EmitOptions, Layout, emit_all};
use platform_codegen::files::{Mode, sync};
use std::path::Path;

#[test]
fn generated_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loaded =
        platform_codegen::load_spec(&root.join("spec"), "spec").unwrap_or_else(|_| panic!("spec/ is invalid: run `cargo run -p platform-codegen -- check`"));
    // The workspace names generated/ as its output, so the crates there are the anchored kind.
    let layout = platform_codegen::workspace::layout_for(&root.join("generated")).expect("the workspace manifest reads");
    assert_eq!(layout, Layout::Anchored, "Cargo.toml's [workspace.metadata.platform-codegen] names generated/");
    let files = emit_all(&loaded.model, &EmitOptions::default().with_layout(layout));
    let report = sync(&root.join("generated"), &files, Mode::Check).unwrap();
    assert!(
        report.is_clean(),
        "generated/ is out of date (stale: {:?}, missing: {:?}, orphans: {:?}); run `cargo run -p platform-codegen -- generate` locally and commit",
        report.stale,
        report.missing,
        report.orphans
    );
}
