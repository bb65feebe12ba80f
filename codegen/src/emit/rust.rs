//! Rust output: token streams formatted with prettyplease under the `@generated` preamble.

use proc_macro2::TokenStream;

/// Formats a whole file, with a blank line between top-level items so readers can scan it
/// (prettyplease keeps them back to back). Panics only on a generator bug: tokens that do not
/// parse as a file.
pub fn format_file(notice: &str, tokens: TokenStream) -> String {
    let file: syn::File = syn::parse2(tokens.clone()).unwrap_or_else(|e| panic!("BUG: generated Rust does not parse: {e}\n{tokens}"));
    let mut out = format!("// {notice}\n\n");
    let header = syn::File { shebang: None, frontmatter: None, attrs: file.attrs, items: vec![] };
    let header = prettyplease::unparse(&header);
    out.push_str(&header);
    for (i, item) in file.items.into_iter().enumerate() {
        if i > 0 || !header.is_empty() {
            out.push('\n');
        }
        out.push_str(&prettyplease::unparse(&syn::File { shebang: None, frontmatter: None, attrs: vec![], items: vec![item] }));
    }
    out
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

/// The `build.rs` of a generated crate whose build must see fresh sources: it regenerates
/// `generated/` from `spec/` before the crate compiles (see [`crate::build`]).
pub fn build_script(notice: &str) -> String {
    format!(
        "// {notice}\n\n//! Regenerates `generated/` from `spec/` when the spec changes, before this crate compiles.\n\nfn main() {{\n    let root = std::path::Path::new(env!(\"CARGO_MANIFEST_DIR\")).join(\"../..\");\n    platform_codegen::build::regenerate(&root);\n}}\n"
    )
}

/// The manifest section that goes with [`build_script`].
pub const BUILD_DEPENDENCIES: &str = "[build-dependencies]\n# Regenerates generated/ from spec/ when the spec changes (build.rs).\nplatform-codegen = { path = \"../../codegen\" }\n";
