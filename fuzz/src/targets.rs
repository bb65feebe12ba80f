//! The fuzz targets: each takes the fuzzer's bytes and panics only on a bug.

use platform_codegen::diag::{self, Diagnostic};
use platform_codegen::emit::{EmitOptions, emit_all};
use platform_codegen::import::{ImportError, import_text};
use platform_codegen::{LoadError, load_spec_texts};

/// Loads, lowers and validates the spec `data` stands for; renders its diagnostics as text and
/// JSON when it is invalid, and runs every emitter when it is valid. A diagnostic that shows Rust
/// `Debug` output is a bug too.
pub fn load_spec(data: &[u8]) {
    let files = crate::input::spec_files(data);
    if files.is_empty() {
        return;
    }
    match load_spec_texts(files) {
        Ok(loaded) => {
            check_wording(&loaded.warnings);
            let _ = diag::render_text(&loaded.sources, &loaded.warnings, false);
            let files = emit_all(&loaded.model, &EmitOptions::default());
            assert!(!files.is_empty(), "a valid spec generates files");
            if let Err(e) = router_builds(&loaded.model) {
                panic!("a valid spec's server cannot build its router: {e}");
            }
        }
        Err(LoadError::Invalid { sources, diagnostics }) => {
            assert!(!diagnostics.is_empty(), "an invalid spec says why");
            check_wording(&diagnostics);
            render(&sources, &diagnostics);
        }
        Err(LoadError::Io(_)) => {}
    }
}

/// Imports the OpenAPI document `data` stands for (JSON or YAML). When the document cannot be
/// imported, renders its diagnostics as text and JSON; when it can, loads the spec files it
/// wrote, which must pass `check` (an import that writes an invalid spec is the importer's bug),
/// and runs every emitter on them. A diagnostic that shows Rust `Debug` output is a bug too.
pub fn import_openapi(data: &[u8]) {
    let text = crate::input::document_text(data);
    match import_text("openapi.yaml", text) {
        Ok(imported) => {
            check_wording(&imported.warnings);
            render(&imported.sources, &imported.warnings);
            let files = imported.files.into_iter().map(|f| (format!("spec/{}", f.path), f.contents)).collect();
            match load_spec_texts(files) {
                Ok(loaded) => {
                    check_wording(&loaded.warnings);
                    let files = emit_all(&loaded.model, &EmitOptions::default());
                    assert!(!files.is_empty(), "a valid spec generates files");
                    if let Err(e) = router_builds(&loaded.model) {
                        panic!("the imported spec's server cannot build its router: {e}");
                    }
                }
                Err(LoadError::Invalid { sources, diagnostics }) => {
                    panic!("the imported spec does not pass `check`:\n{}", diag::render_text(&sources, &diagnostics, false))
                }
                Err(LoadError::Io(e)) => panic!("the imported spec does not load: {e}"),
            }
        }
        Err(ImportError::Invalid { sources, diagnostics }) => {
            assert!(!diagnostics.is_empty(), "a document that does not import says why");
            check_wording(&diagnostics);
            render(&sources, &diagnostics);
        }
        Err(ImportError::Io(e)) => panic!("an import from text reads no file, yet: {e}"),
    }
}

/// Whether the generated server's routes go into axum's path router (matchit, at the version
/// axum 0.8 uses) without the error that makes axum panic when the router is built: every path
/// is one it can match, no two routes conflict, and no route has a method twice. Routes under an
/// address placeholder sit under a path of their own.
pub fn router_builds(model: &platform_codegen::model::Model) -> Result<(), String> {
    let mut router = matchit::Router::new();
    for (address, path, methods) in platform_codegen::emit::rust::server_routes(model) {
        let full = if address.is_empty() { path } else { format!("/{address}{path}") };
        let mut seen = methods.clone();
        seen.sort();
        seen.dedup();
        if seen.len() != methods.len() {
            return Err(format!("`{full}` routes a method twice: {methods:?}"));
        }
        router.insert(full.clone(), methods).map_err(|e| format!("`{full}`: {e}"))?;
    }
    Ok(())
}

/// Renders diagnostics both ways the command line does: as text and as JSON.
fn render(sources: &diag::Sources, diagnostics: &[Diagnostic]) {
    let _ = diag::render_text(sources, diagnostics, false);
    for d in diagnostics {
        let _ = diag::to_json(sources, d);
    }
}

/// Panics when a diagnostic's words show Rust `Debug` output instead of wording of its own.
fn check_wording(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        let labels = d.primary.iter().chain(&d.secondary).map(|(_, l)| l.as_str());
        for text in std::iter::once(d.message.as_str()).chain(labels).chain(d.help.iter().map(String::as_str)).chain(d.notes.iter().map(String::as_str)) {
            if let Some(shape) = debug_shape(text) {
                panic!("diagnostic {} shows Debug output (`{shape}`): {text}", d.code);
            }
        }
    }
}

/// A piece of `text`, outside the quotes and backticks that carry the user's own words, shaped
/// like a derived `Debug` rendering: `Name { field: ..`, `Some(..`, `Name(..`.
pub fn debug_shape(text: &str) -> Option<String> {
    let bare = unquoted(text);
    let words: Vec<&str> = bare.split_whitespace().collect();
    for pair in words.windows(3) {
        let named = pair[0].chars().next().is_some_and(|c| c.is_ascii_uppercase()) && pair[0].chars().all(|c| c.is_ascii_alphanumeric());
        if named && pair[1] == "{" && pair[2].ends_with(':') {
            return Some(pair.join(" "));
        }
    }
    for word in &words {
        let (head, tail) = word.split_once('(').unwrap_or((word, ""));
        let camel = head.len() > 1
            && head.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && head.chars().any(|c| c.is_ascii_lowercase())
            && head.chars().all(|c| c.is_ascii_alphanumeric());
        if camel && word.contains('(') && !tail.is_empty() {
            return Some((*word).to_owned());
        }
    }
    None
}

/// `text` without the parts between backticks or double quotes.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut open: Option<char> = None;
    for c in text.chars() {
        match open {
            Some(q) if c == q => open = None,
            Some(_) => {}
            None if c == '`' || c == '"' => open = Some(c),
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::debug_shape;

    #[test]
    fn debug_output_is_recognised_and_wording_is_not() {
        assert!(debug_shape("invalid YAML: budget breached: Depth { depth: 65 }").is_some());
        assert!(debug_shape("wrong type: Some(Integer(5))").is_some());
        assert!(debug_shape("unknown key `Foo { a: 1 }`").is_none());
        assert!(debug_shape("invalid YAML: nesting deeper than 64 levels (Depth limit)").is_none());
        assert!(debug_shape("wrong type: invalid type: string \"Some(x)\", expected u64").is_none());
    }
}
