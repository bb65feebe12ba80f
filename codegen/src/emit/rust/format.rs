//! Rust output: token streams formatted with prettyplease under the `@generated` preamble.

use proc_macro2::TokenStream;

/// Formats a whole file and spaces out items with one blank line, as a reader expects between
/// definitions (prettyplease packs them). Panics only on a generator bug: tokens that do not
/// parse as a file.
pub fn format_file(notice: &str, tokens: TokenStream) -> String {
    format_parts(notice, std::iter::once(tokens))
}

/// The items of a file in parts, each emitted when the one before is printed: a large file (an
/// item per endpoint) holds the tokens and syntax tree of one part at a time. The first part
/// carries the file's inner attributes and docs.
pub type Parts<'a> = Box<dyn Iterator<Item = TokenStream> + 'a>;

/// [`format_file`] of a file emitted in [`Parts`]; the text is the same as that of the whole.
pub fn format_parts(notice: &str, parts: impl Iterator<Item = TokenStream>) -> String {
    let mut text = String::new();
    for tokens in parts {
        // No copy of the tokens is kept for the message: a shared stream is copied whole when parsed.
        text.push_str(&syn::parse::Parser::parse2(unparse_items, tokens).unwrap_or_else(|e| panic!("BUG: generated Rust does not parse: {e}")));
    }
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

/// A file printed by prettyplease one top-level item at a time, as it prints a whole file: the
/// syntax tree of one item is held at a time, not the tree of the file (the largest generated
/// files are megabytes of Rust).
fn unparse_items(input: syn::parse::ParseStream<'_>) -> syn::Result<String> {
    let one = |attrs, items| prettyplease::unparse(&syn::File { shebang: None, frontmatter: None, attrs, items });
    let mut text = one(input.call(syn::Attribute::parse_inner)?, Vec::new());
    while !input.is_empty() {
        text.push_str(&one(Vec::new(), vec![input.parse()?]));
    }
    Ok(text)
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
    // A doc comment belongs to what follows it, whatever its text ends with (`...Histogram};`).
    if p.starts_with("///") {
        return false;
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
        lines.extend(doc_text_lines(d).into_iter().map(|l| format!(" {l}")));
    }
    let notes: Vec<&str> = notes.into_iter().collect();
    if !notes.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.extend(notes.iter().flat_map(|n| note_lines(n)));
    }
    lines.iter().map(|l| quote::quote!(#[doc = #l])).collect()
}

/// The lines of a description as rustdoc reads them the way its author meant: blank lines at
/// either end dropped, and a line that continues a list item without indentation (Markdown's
/// lazy continuation, common in real descriptions, and a lint of clippy's) indented under the
/// item's text. Tabs become four spaces: rustdoc's width for them, and a lint of clippy's.
pub fn doc_text_lines(text: &str) -> Vec<String> {
    let text = text.replace('\t', "    ");
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(lines.len());
    let end = lines.iter().rposition(|l| !l.trim().is_empty()).map_or(start, |i| i + 1);
    let mut out = Vec::with_capacity(end - start);
    // The column of the text of the list item the current paragraph continues, if any.
    let mut item: Option<usize> = None;
    let mut fence = false;
    for line in &lines[start..end] {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = !fence;
            item = None;
        }
        if fence || trimmed.is_empty() {
            if trimmed.is_empty() {
                item = None;
            }
            out.push((*line).to_owned());
            continue;
        }
        if let Some(width) = list_marker(trimmed) {
            item = Some(indent + width);
            out.push((*line).to_owned());
            continue;
        }
        match item {
            // A line of the item's paragraph (a blank line ends it) goes at the item's column, as
            // clippy asks: less reads as a lazy continuation, more as the same paragraph.
            Some(column) if indent != column => out.push(format!("{}{trimmed}", " ".repeat(column))),
            _ => out.push((*line).to_owned()),
        }
    }
    out
}

/// The width of a Markdown list marker and the space after it (`- `, `* `, `+ `, `1. `, `2) `).
fn list_marker(line: &str) -> Option<usize> {
    if line.starts_with("- ") || line.starts_with("* ") || line.starts_with("+ ") {
        return Some(2);
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &line[digits..];
    (digits > 0 && digits <= 9 && (rest.starts_with(". ") || rest.starts_with(") "))).then_some(digits + 2)
}

/// A note as a Markdown list item, one doc line per line of its text: the lines after the
/// first indented under it, so a note of several lines stays one item.
pub fn note_lines(note: &str) -> Vec<String> {
    doc_text_lines(note).into_iter().enumerate().map(|(i, l)| if i == 0 { format!(" - {l}") } else { format!("   {l}") }).collect()
}

/// `text` after `lead` on the first doc line, its other lines after it as they are.
pub fn led_lines(lead: &str, text: &str) -> Vec<String> {
    let mut lines = doc_text_lines(text).into_iter();
    let first = format!(" {lead}{}", lines.next().unwrap_or_default());
    std::iter::once(first).chain(lines.map(|l| format!(" {l}"))).collect()
}
