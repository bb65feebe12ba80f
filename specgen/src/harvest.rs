//! Every identifier the generator writes for a plain spec: the names a spec item meets in the
//! generated code's scopes (`Unknown`, `KNOWN`, `validate_at`, `Rnd0_Widget_Init`, ...).

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The identifiers of the Rust sources and C/C++ headers generated for a plain random spec,
/// sorted.
pub fn identifiers() -> &'static [String] {
    static IDENTS: OnceLock<Vec<String>> = OnceLock::new();
    IDENTS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("platform-specgen-harvest-{}", std::process::id()));
        let mut spec = crate::Generated::plain(1, 0);
        let loaded = spec.make_valid(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        let files = platform_codegen::emit::emit_all(&loaded.model, &platform_codegen::emit::EmitOptions::default());
        let mut out = BTreeSet::new();
        for f in files {
            if f.path.ends_with(".rs") {
                rust_idents(&f.contents, &mut out);
            } else if f.path.ends_with(".h") {
                c_idents(&f.contents, &mut out);
            }
        }
        out.into_iter().collect()
    })
}

fn rust_idents(text: &str, out: &mut BTreeSet<String>) {
    let Ok(tokens) = text.parse::<proc_macro2::TokenStream>() else { return };
    walk(tokens, out);
}

fn walk(tokens: proc_macro2::TokenStream, out: &mut BTreeSet<String>) {
    for tt in tokens {
        match tt {
            proc_macro2::TokenTree::Ident(i) => {
                out.insert(i.to_string().trim_start_matches("r#").to_owned());
            }
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), out),
            _ => {}
        }
    }
}

/// Identifier-shaped words outside comments and string literals, roughly: enough for names.
fn c_idents(text: &str, out: &mut BTreeSet<String>) {
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        if code.trim_start().starts_with('*') || code.trim_start().starts_with("/*") {
            continue;
        }
        let mut word = String::new();
        let mut in_string = false;
        for c in code.chars().chain([' ']) {
            if c == '"' {
                in_string = !in_string;
            }
            if !in_string && (c.is_ascii_alphanumeric() || c == '_') {
                word.push(c);
            } else {
                if word.len() > 1 && !word.starts_with(|c: char| c.is_ascii_digit()) {
                    out.insert(std::mem::take(&mut word));
                }
                word.clear();
            }
        }
    }
}
