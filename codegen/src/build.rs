//! Regeneration from Cargo build scripts: `cargo build` after a spec edit brings `generated/` in
//! step with `spec/`, and a build with no spec change writes nothing.
//!
//! Every generated crate's `build.rs` calls [`regenerate`]. It re-runs only when a file under
//! `spec/` changes (or the generator itself is rebuilt), validates first and fails the build with
//! the same diagnostics as `platform-codegen check`, so an invalid spec never touches
//! `generated/`. Writes go through [`crate::files::sync`], so unchanged files keep their
//! modification times and Cargo does not rebuild the crates that include them.

use crate::emit::{EmitOptions, emit_all};
use crate::files::{Mode, sync};
use std::path::Path;

/// Regenerates `<root>/generated` from `<root>/spec`; exits the build script with status 1 and
/// rendered diagnostics when the spec is invalid.
pub fn regenerate(root: &Path) {
    let spec = root.join("spec");
    println!("cargo::rerun-if-changed={}", spec.display());
    let loaded = match crate::load_spec(&spec, "spec") {
        Ok(loaded) => loaded,
        Err(crate::LoadError::Invalid { sources, diagnostics }) => {
            eprint!("{}", crate::diag::render_text(&sources, &diagnostics, false));
            eprintln!("error: spec/ is invalid; generated/ was left untouched");
            std::process::exit(1);
        }
        Err(crate::LoadError::Io(e)) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let files = emit_all(&loaded.model, &EmitOptions::default());
    if let Err(e) = sync(&root.join("generated"), &files, Mode::Write) {
        eprintln!("error: cannot write generated/: {e}");
        std::process::exit(1);
    }
}
