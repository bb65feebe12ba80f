//! `spec.schema.json`: the JSON Schema of a spec file, derived from the raw layer's types
//! ([`crate::load::raw::SpecFile`]) so it accepts exactly the keys the loader accepts.
//!
//! Editors that speak the YAML language server protocol read it from the
//! `# yaml-language-server: $schema=...` line at the top of each spec file, and complete and
//! check keys as the spec is written. The loader stays the judge: the schema cannot express
//! cross-references (an unknown permission id), which validation reports.

use super::{EmitOptions, GeneratedFile};
use crate::load::raw::SpecFile;
use crate::model::Model;

/// The artifact name in summaries.
pub const ARTIFACT: &str = "schema";

/// Where the schema is written, relative to the output directory.
pub const PATH: &str = "spec.schema.json";

/// Emits `spec.schema.json`. The schema depends only on the generator, never on the model.
pub fn emit(_model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let mut schema = schemars::generate::SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<SpecFile>();
    schema.insert("$comment".into(), opts.notice().into());
    schema.insert("title".into(), "Platform spec file".into());
    let text = serde_json::to_string_pretty(&schema).expect("BUG: a schema always serializes");
    vec![GeneratedFile::new(ARTIFACT, PATH, text)]
}
