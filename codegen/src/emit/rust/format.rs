//! Rust output: token streams formatted with prettyplease under the `@generated` preamble.

use proc_macro2::TokenStream;

/// Formats a whole file and spaces out items with one blank line, as a reader expects between
/// definitions (prettyplease packs them). Panics only on a generator bug: tokens that do not
/// parse as a file.
pub fn format_file(notice: &str, tokens: TokenStream) -> String {
    // No copy of the tokens is kept for the message: a shared stream is copied whole when parsed.
    let file: syn::File = syn::parse2(tokens).unwrap_or_else(|e| panic!("BUG: generated Rust does not parse: {e}"));
    let text = prettyplease::unparse(&file);
    let mut out = format!("// {notice}\n\n");
    let mut prev: Option<&str> = None;
    for line in text.lines() {
        if let Some(p) = prev
            && needs_gap(p, line)
        {
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
        prev = Some(line);
    }
    out
}

/// Whether a blank line belongs between two consecutive lines.
fn needs_gap(prev: &str, line: &str) -> bool {
    let (p, l) = (prev.trim_start(), line.trim_start());
    if p.is_empty() || l.is_empty() {
        return false;
    }
    let indent = |s: &str| s.len() - s.trim_start().len();
    if p.starts_with("//!") || p.starts_with("#![") {
        return !(l.starts_with("//!") || l.starts_with("#!["));
    }
    let declaration = |s: &str| ["use ", "pub use ", "mod ", "pub mod "].iter().any(|k| s.starts_with(k)) && s.ends_with(';');
    let item_start = ["///", "#[", "pub ", "pub(", "fn ", "impl", "struct ", "enum ", "const ", "type ", "mod ", "use ", "trait ", "async fn "]
        .iter()
        .any(|k| l.starts_with(k));
    let item_end = p.ends_with('}') || p.ends_with(';');
    let same_block = indent(prev) == indent(line);
    let run_of_declarations = declaration(p) && (l.starts_with("#[rustfmt::skip]") || declaration(l));
    item_start && item_end && same_block && !run_of_declarations
}

/// `///` doc attributes for an optional description and notes, one attribute per line of text.
pub fn docs<'a>(description: Option<&str>, notes: impl IntoIterator<Item = &'a str>) -> TokenStream {
    let mut lines: Vec<String> = Vec::new();
    if let Some(d) = description {
        lines.extend(d.lines().map(|l| format!(" {l}")));
    }
    let notes: Vec<&str> = notes.into_iter().collect();
    if !notes.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.extend(notes.iter().map(|n| format!(" - {n}")));
    }
    lines.iter().map(|l| quote::quote!(#[doc = #l])).collect()
}
