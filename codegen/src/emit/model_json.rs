//! `model.json`: the resolved model as a JSON AST other tools can read.

use super::{EmitOptions, GeneratedFile};
use crate::model::Model;

/// Emits `model.json` (stable key order: spec order for items, declaration order for keys).
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let doc = serde_json::json!({ "$comment": opts.notice(), "model": model });
    let text = serde_json::to_string_pretty(&doc).expect("BUG: the model always serializes");
    vec![GeneratedFile::new("model", "model.json", text)]
}
