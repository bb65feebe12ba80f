//! The template environment: HTML and Markdown escaping of everything that comes from the spec.
//!
//! Templates named `*.html` escape for HTML and those named `*.md` for GitHub-flavoured Markdown,
//! through one formatter, so a template cannot print spec text unescaped by forgetting a filter.
//! The `prose` filter additionally turns the spec's `` `code` `` spans into code in both formats.

use minijinja::{AutoEscape, Environment, Error, Output, State, Value};

/// The escaping name of Markdown templates.
const MARKDOWN: &str = "markdown";

/// The templates, embedded so the emitter reads no files.
const TEMPLATES: &[(&str, &str)] = &[
    ("macros.html", include_str!("../../../../templates/docs/macros.html.j2")),
    ("index.html", include_str!("../../../../templates/docs/index.html.j2")),
    ("macros.md", include_str!("../../../../templates/docs/macros.md.j2")),
    ("reference.md", include_str!("../../../../templates/docs/reference.md.j2")),
];

/// The environment with every docs template loaded.
pub fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_syntax(minijinja::syntax::SyntaxConfig::builder().trim_blocks(true).lstrip_blocks(true).build().expect("BUG: default delimiters are valid"));
    env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
    env.set_auto_escape_callback(|name| if name.ends_with(".md") { AutoEscape::Custom(MARKDOWN.into()) } else { AutoEscape::Html });
    env.set_formatter(format);
    env.add_filter("prose", prose);
    env.add_filter("code", code);
    env.add_filter("href", href);
    for (name, source) in TEMPLATES {
        env.add_template(name, source).unwrap_or_else(|e| panic!("BUG: template {name} does not parse: {e:#}"));
    }
    env
}

fn is_markdown(state: &State) -> bool {
    matches!(state.auto_escape(), AutoEscape::Custom(name) if name == MARKDOWN)
}

/// Prints a value escaped for the template's format; safe strings (already escaped) pass through.
fn format(out: &mut Output, state: &mut State, value: &Value) -> Result<(), Error> {
    let text = value.to_string();
    let escaped = if value.is_safe() {
        text
    } else if is_markdown(state) {
        markdown_text(&text)
    } else {
        html(&text)
    };
    out.write_str(&escaped).map_err(Error::from)
}

/// Escapes text for HTML element content and quoted attribute values.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text so GitHub-flavoured Markdown shows it literally, on one line (it may sit in a
/// table cell). Underscores inside words stay bare: GFM never reads them as emphasis, and ids
/// like `get_guild_channels` stay readable in the raw file.
pub fn markdown_text(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\n' | '\r' => out.push(' '),
            '_' => {
                let inner = |j: Option<usize>| j.and_then(|j| chars.get(j)).is_some_and(|c| c.is_alphanumeric());
                if !(inner(i.checked_sub(1)) && inner(Some(i + 1))) {
                    out.push('\\');
                }
                out.push('_');
            }
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '|' | '&' | '~' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// A Markdown code span holding `text` literally. GFM has no escape inside code spans, so a
/// text with a pipe (which would end a table cell) is written as escaped plain text instead.
fn markdown_code(text: &str) -> String {
    if text.contains('|') || text.contains('\n') {
        return markdown_text(text);
    }
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Spec prose: escaped, with `` `code` `` spans rendered as code.
fn prose(state: &State, text: &str) -> Value {
    let md = is_markdown(state);
    let mut out = String::new();
    let parts: Vec<&str> = text.split('`').collect();
    // An odd number of parts means every backtick is paired.
    let paired = parts.len() % 2 == 1;
    for (i, part) in parts.iter().enumerate() {
        let is_code = i % 2 == 1 && paired;
        let literal = if i > 0 && !paired { format!("`{part}") } else { (*part).to_owned() };
        out.push_str(&match (is_code, md) {
            (true, true) => markdown_code(part),
            (true, false) => format!("<code>{}</code>", html(part)),
            (false, true) => markdown_text(&literal),
            (false, false) => html(&literal),
        });
    }
    Value::from_safe_string(out)
}

/// An identifier or signature shown as code.
fn code(state: &State, text: &str) -> Value {
    let out = if is_markdown(state) { markdown_code(text) } else { format!("<code>{}</code>", html(text)) };
    Value::from_safe_string(out)
}

/// A link target: characters outside a conservative set are percent-encoded, so an id can
/// neither break out of an attribute nor end a Markdown link.
fn href(text: &str) -> Value {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"#-._~:/@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Value::from_safe_string(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escapes_what_gfm_would_interpret() {
        assert_eq!(markdown_text("a|b <i>*x*</i>"), r"a\|b \<i\>\*x\*\</i\>");
        assert_eq!(markdown_text("get_guild_channels _x_"), r"get_guild_channels \_x\_");
        assert_eq!(markdown_text("[link](y)"), r"\[link\](y)");
    }

    #[test]
    fn markdown_code_spans_survive_backticks_and_pipes() {
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("x|y"), r"x\|y");
    }

    #[test]
    fn html_escapes_markup() {
        assert_eq!(html(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }

    #[test]
    fn prose_renders_code_spans_in_both_formats() {
        let env = environment();
        let render = |name: &str| {
            let mut env = env.clone();
            env.add_template_owned(name.to_owned(), "{{ t|prose }}").unwrap();
            env.get_template(name).unwrap().render(minijinja::context! { t => "use `a<b>` & <b>" }).unwrap()
        };
        assert_eq!(render("t.html"), "use <code>a&lt;b&gt;</code> &amp; &lt;b&gt;");
        assert_eq!(render("t.md"), r"use `a<b>` \& \<b\>");
    }
}
