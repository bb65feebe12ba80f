//! The platform generator: `load -> model -> validate -> emit -> files`.
//!
//! The spec under `spec/` is loaded into spanned raw structures ([`load`]), lowered into the
//! typed model ([`model`]), checked rule by rule ([`validate`]), turned into artifacts by pure
//! emitters ([`emit`]) and written by the one module that touches disk ([`files`]). [`diff`]
//! compares two specs along their timelines.
#![deny(missing_docs)]

pub mod build;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod expand;
pub mod files;
pub mod import;
#[allow(missing_docs)]
pub mod load;
#[allow(missing_docs)]
pub mod model;
#[allow(missing_docs)]
pub mod plan;
#[allow(missing_docs)]
pub mod validate;
pub mod workspace;

use diag::{Diagnostic, Diagnostics, Sources};
use model::Model;
use std::path::Path;

/// A valid model with the sources it came from and any warnings.
#[derive(Debug)]
pub struct Loaded {
    /// The validated model.
    pub model: Model,
    /// The spec files, for rendering diagnostics.
    pub sources: Sources,
    /// Warnings (the spec is valid).
    pub warnings: Vec<Diagnostic>,
}

/// Why a spec could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The spec directory could not be read (exit code 2).
    Io(load::IoError),
    /// The spec is invalid (exit code 1): every diagnostic, errors and warnings.
    Invalid {
        /// The spec files, for rendering.
        sources: Sources,
        /// Sorted diagnostics.
        diagnostics: Vec<Diagnostic>,
    },
}

/// Loads, lowers and validates the spec in `dir`; `display_root` names `dir` in diagnostics.
///
/// Parse errors stop the pipeline before lowering: a file that does not parse would otherwise
/// show up again as a cascade of unresolved references.
pub fn load_spec(dir: &Path, display_root: &str) -> Result<Loaded, LoadError> {
    let mut cx = Diagnostics::new();
    let mut sources = Sources::default();
    let raw = match load::load(&mut cx, &mut sources, dir, display_root) {
        Ok(raw) => raw,
        Err(e) => {
            let _ = cx.finish();
            return Err(LoadError::Io(e));
        }
    };
    check_loaded(cx, sources, raw)
}

/// Loads, lowers and validates spec files given as `(display path, text)`: a spec read from a
/// git revision ([`load::git`]) or held in memory.
pub fn load_spec_texts(texts: Vec<(String, String)>) -> Result<Loaded, LoadError> {
    let mut cx = Diagnostics::new();
    let mut sources = Sources::default();
    if texts.is_empty() {
        let _ = cx.finish();
        return Err(LoadError::Io(load::IoError("no `*.yaml` files in the spec".into())));
    }
    let raw = load::load_texts(&mut cx, &mut sources, texts);
    check_loaded(cx, sources, raw)
}

fn check_loaded(mut cx: Diagnostics, sources: Sources, raw: load::RawSpec) -> Result<Loaded, LoadError> {
    if cx.has_errors() {
        return Err(invalid(cx, sources));
    }
    let model = model::lower(&mut cx, &sources, raw);
    if !cx.has_errors() {
        validate::validate(&mut cx, &model);
    }
    // Identifiers are made from a model whose references resolve.
    if !cx.has_errors() {
        plan::check_identifier_collisions(&mut cx, &model);
    }
    match cx.finish() {
        Ok(warnings) => Ok(Loaded { model, sources, warnings }),
        Err(diagnostics) => Err(LoadError::Invalid { sources, diagnostics }),
    }
}

fn invalid(cx: Diagnostics, sources: Sources) -> LoadError {
    let diagnostics = match cx.finish() {
        Ok(list) | Err(list) => list,
    };
    LoadError::Invalid { sources, diagnostics }
}
