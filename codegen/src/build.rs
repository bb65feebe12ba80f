//! Regeneration from Cargo build scripts: `cargo build` after a spec edit brings the output in
//! step with the spec, and a build with no spec change writes nothing.
//!
//! The build script of every crate generated in the [`Layout::Anchored`] layout depends on
//! nothing; when the workspace Cargo builds it in declares `[workspace.metadata.platform-codegen]`,
//! it runs that workspace's `platform-codegen build-script <crate dir>`, which calls
//! [`regenerate`]. That writes only when the declaration names exactly the directory that holds
//! the crate (see [`crate::workspace`]); a crate copied elsewhere or packaged writes nothing. It
//! re-runs only when the spec or the workspace manifest changes, validates first and fails the build with the same diagnostics as `platform-codegen check`,
//! so an invalid spec never touches the output. Writes go through [`crate::files::sync`], so
//! unchanged files keep their modification times and Cargo does not rebuild the crates that
//! include them.

use crate::emit::{EmitOptions, Layout, emit_all};
use crate::files::{Mode, sync};
use crate::workspace;
use std::path::Path;

/// Regenerates the output directory that holds the crate at `manifest_dir` from the spec its
/// workspace names; exits the build script with status 1 and rendered diagnostics when the spec
/// is invalid. Does nothing, with a Cargo warning, when the workspace does not name the crate's
/// directory as its output.
pub fn regenerate(manifest_dir: &Path) {
    let anchor = match workspace::find(manifest_dir) {
        Ok(Some(anchor)) if manifest_dir.parent().is_some_and(|dir| anchor.names_out(dir)) => anchor,
        Ok(_) => {
            println!("cargo::rerun-if-changed=Cargo.toml");
            println!(
                "cargo::warning=not regenerating: the workspace does not name `{}` as its `[workspace.metadata.{}]` output",
                manifest_dir.parent().unwrap_or(manifest_dir).display(),
                workspace::METADATA
            );
            return;
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let spec = anchor.spec_dir();
    println!("cargo::rerun-if-changed={}", spec.display());
    let loaded = match crate::load_spec(&spec, &anchor.spec) {
        Ok(loaded) => loaded,
        Err(crate::LoadError::Invalid { sources, diagnostics }) => {
            eprint!("{}", crate::diag::render_text(&sources, &diagnostics, false));
            eprintln!("error: {}/ is invalid; {}/ was left untouched", anchor.spec, anchor.out);
            std::process::exit(1);
        }
        Err(crate::LoadError::Io(e)) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let files = emit_all(&loaded.model, &EmitOptions::default().with_layout(Layout::Anchored));
    if let Err(e) = sync(&anchor.out_dir(), &files, Mode::Write) {
        eprintln!("error: cannot write {}/: {e}", anchor.out);
        std::process::exit(1);
    }
}
