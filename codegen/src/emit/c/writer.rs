//! C and C++ output: an indent-aware line writer with doc comments, like cbindgen's `SourceWriter`.
//!
//! Lines are written whole; the writer owns indentation, blank-line spacing, comment wrapping and
//! the escaping of text that comes from the spec (a `*/` inside a description must not end the
//! comment, a `"` inside a message must not end the string literal).

/// Width doc comments are wrapped to, counting indentation.
const WRAP_WIDTH: usize = 100;

/// Builds one C or C++ file line by line.
#[derive(Debug, Default)]
pub struct CWriter {
    out: String,
    indent: usize,
}

impl CWriter {
    /// An empty file.
    pub fn new() -> Self {
        Self::default()
    }

    /// One line at the current indentation; an empty `text` writes an empty line.
    pub fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        if !text.is_empty() {
            self.out.push_str(&"    ".repeat(self.indent));
            self.out.push_str(text);
        }
        self.out.push('\n');
    }

    /// A preprocessor line, always at column 0 whatever the indentation.
    pub fn directive(&mut self, text: impl AsRef<str>) {
        self.out.push_str(text.as_ref());
        self.out.push('\n');
    }

    /// One empty line, unless the previous line is already empty or opens a block.
    pub fn blank(&mut self) {
        let opens_block = self.out.ends_with("{\n");
        if !self.out.is_empty() && !self.out.ends_with("\n\n") && !opens_block {
            self.out.push('\n');
        }
    }

    /// Runs `body` one level deeper.
    pub fn indented(&mut self, body: impl FnOnce(&mut Self)) {
        self.indent += 1;
        body(self);
        self.indent -= 1;
    }

    /// `open` on its own line, `body` indented, then `close`.
    pub fn block(&mut self, open: impl AsRef<str>, close: impl AsRef<str>, body: impl FnOnce(&mut Self)) {
        self.line(open);
        self.indented(body);
        self.line(close);
    }

    /// A `/** ... */` doc comment. Each entry of `lines` is a paragraph line; an empty entry
    /// separates paragraphs and a `- ` entry is a list item whose wrapped lines hang under it.
    pub fn doc(&mut self, lines: &[String]) {
        self.comment_with("/**", lines);
    }

    /// The opening of a header: the `@generated` notice, the file's comment, and the include
    /// guard (closed by [`CWriter::close_header`]).
    pub fn open_header(&mut self, notice: &str, doc: &[String], guard: &str) {
        self.line(format!("/* {notice} */"));
        self.blank();
        self.comment(doc);
        self.blank();
        self.directive(format!("#ifndef {guard}"));
        self.directive(format!("#define {guard}"));
        self.blank();
    }

    /// The end of the include guard opened by [`CWriter::open_header`].
    pub fn close_header(&mut self, guard: &str) {
        self.directive(format!("#endif /* {guard} */"));
    }

    /// A plain `/* ... */` comment, laid out like [`CWriter::doc`].
    pub fn comment(&mut self, lines: &[String]) {
        self.comment_with("/*", lines);
    }

    fn comment_with(&mut self, opener: &str, lines: &[String]) {
        let lines = trim_blank_edges(lines);
        if lines.is_empty() {
            return;
        }
        let width = WRAP_WIDTH.saturating_sub(self.indent * 4 + 3).max(40);
        let wrapped: Vec<String> = lines.iter().flat_map(|l| wrap(&comment_safe(l), width)).collect();
        if let [only] = wrapped.as_slice()
            && opener.len() + only.len() + 6 + self.indent * 4 <= WRAP_WIDTH
        {
            self.line(format!("{opener} {only} */"));
            return;
        }
        self.line(opener);
        for l in &wrapped {
            self.line(if l.is_empty() { " *".to_string() } else { format!(" * {l}") });
        }
        self.line(" */");
    }

    /// The finished text.
    pub fn finish(self) -> String {
        self.out
    }
}

fn trim_blank_edges(lines: &[String]) -> &[String] {
    let start = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(lines.len());
    let end = lines.iter().rposition(|l| !l.trim().is_empty()).map_or(start, |i| i + 1);
    &lines[start..end]
}

/// Keeps spec text from closing the comment it is written into.
fn comment_safe(text: &str) -> String {
    text.replace("*/", "*\\/")
}

/// Wraps one paragraph or list item to `width`; list items keep a hanging indent.
fn wrap(text: &str, width: usize) -> Vec<String> {
    if text.trim().is_empty() {
        return vec![String::new()];
    }
    let (first_prefix, rest_prefix, body) = match text.strip_prefix("- ") {
        Some(item) => ("- ", "  ", item),
        None => ("", "", text),
    };
    let mut out: Vec<String> = Vec::new();
    let mut current = first_prefix.to_string();
    let mut has_word = false;
    for word in body.split_whitespace() {
        if has_word && current.len() + 1 + word.len() > width {
            out.push(std::mem::replace(&mut current, rest_prefix.to_string()));
            has_word = false;
        }
        if has_word {
            current.push(' ');
        }
        current.push_str(word);
        has_word = true;
    }
    out.push(current);
    out
}

/// A C (and C++) string literal holding `text`.
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            // `??x` would be a trigraph before C23 and C++17.
            '?' => out.push_str("\\?"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indents_blocks_and_keeps_directives_at_column_zero() {
        let mut w = CWriter::new();
        w.block("struct A {", "};", |w| {
            w.directive("#if X");
            w.line("int a;");
            w.directive("#endif");
        });
        assert_eq!(w.finish(), "struct A {\n#if X\n    int a;\n#endif\n};\n");
    }

    #[test]
    fn blank_lines_never_double_up() {
        let mut w = CWriter::new();
        w.blank();
        w.line("a");
        w.blank();
        w.blank();
        w.line("b");
        assert_eq!(w.finish(), "a\n\nb\n");
    }

    #[test]
    fn doc_comments_wrap_escape_and_hang_list_items() {
        let mut w = CWriter::new();
        w.doc(&["Short */ text.".to_string()]);
        let long = format!("- {}", "word ".repeat(30));
        w.doc(&["Intro.".to_string(), String::new(), long]);
        let text = w.finish();
        assert!(text.starts_with("/** Short *\\/ text. */\n/**\n * Intro.\n *\n * - word"), "{text}");
        assert!(text.contains("\n *   word"), "list items hang: {text}");
        assert!(text.lines().all(|l| l.len() <= WRAP_WIDTH), "{text}");
    }

    #[test]
    fn string_literals_escape_quotes_backslashes_and_trigraphs() {
        assert_eq!(string_literal(r#"a "b" \ ??="#), r#""a \"b\" \\ \?\?=""#);
    }
}
