//! Reads the spec directory: every `*.yaml` file into a spanned [`raw::SpecFile`].

pub mod git;
pub mod raw;

use crate::diag::{Diagnostic, Diagnostics, FileId, Sources, Span, codes};
use serde_saphyr::Location;
use std::path::{Path, PathBuf};

/// The spec as written: every file parsed, in path order.
#[derive(Debug, Default)]
pub struct RawSpec {
    pub files: Vec<(FileId, raw::SpecFile)>,
}

/// An I/O problem that is not the spec's fault (exit code 2).
#[derive(Debug)]
pub struct IoError(pub String);

impl std::fmt::Display for IoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IoError {}

/// Reads every `*.yaml` under `dir` (recursively, in sorted path order so the result does not
/// depend on directory listing order). Files that do not parse are reported and skipped.
///
/// `display_root` is how `dir` is named in diagnostics (`spec`).
pub fn load(cx: &mut Diagnostics, sources: &mut Sources, dir: &Path, display_root: &str) -> Result<RawSpec, IoError> {
    let mut paths = Vec::new();
    collect_yaml(dir, &mut paths)?;
    if paths.is_empty() {
        return Err(IoError(format!("no `*.yaml` files under `{}`", dir.display())));
    }
    paths.sort();
    let mut texts = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|e| IoError(format!("cannot read `{}`: {e}", path.display())))?;
        let rel = path.strip_prefix(dir).unwrap_or(&path);
        texts.push((display_path(display_root, rel), text));
    }
    Ok(load_texts(cx, sources, texts))
}

/// Parses spec files given as `(display path, text)`, in the order given (a spec read from a
/// git revision, or held in memory). Files that do not parse are reported and skipped.
pub fn load_texts(cx: &mut Diagnostics, sources: &mut Sources, texts: Vec<(String, String)>) -> RawSpec {
    let mut spec = RawSpec::default();
    for (shown, text) in texts {
        let id = sources.add(shown, text);
        if let Some(file) = parse_file(cx, sources, id) {
            spec.files.push((id, file));
        }
    }
    spec
}

/// Parses one source text already added to `sources` (also used for in-memory specs).
pub fn parse_file(cx: &mut Diagnostics, sources: &Sources, id: FileId) -> Option<raw::SpecFile> {
    let text = &sources.file(id).text;
    if text.trim().is_empty() {
        return Some(raw::SpecFile::default());
    }
    match serde_saphyr::from_str_with_options::<raw::SpecFile>(text, options()) {
        Ok(file) => Some(file),
        Err(err) => {
            cx.push(parse_error(sources, id, &err));
            None
        }
    }
}

/// How deep mappings and sequences may nest in a spec file. The shipped spec needs a dozen
/// levels; the reader's default of 64 lets a file of nested rules deserialize deep enough to
/// overflow a 2 MiB thread stack (a test thread's, a build script's) in a debug build.
pub const MAX_DEPTH: usize = 32;

/// The YAML reader's settings: serde-saphyr's default limits on size and aliases, a tighter
/// one on nesting.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! { budget: serde_saphyr::budget! { max_depth: MAX_DEPTH } }
}

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), IoError> {
    let entries = std::fs::read_dir(dir).map_err(|e| IoError(format!("cannot read spec directory `{}`: {e}", dir.display())))?;
    for entry in entries {
        let path = entry.map_err(|e| IoError(e.to_string()))?.path();
        if path.is_dir() {
            collect_yaml(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
    Ok(())
}

/// `root/rel` with `/` separators, as files are named in diagnostics.
pub fn display_path(root: &str, rel: &Path) -> String {
    let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
    if root.is_empty() { rel } else { format!("{}/{rel}", root.trim_end_matches('/')) }
}

/// The span of a spanned raw value in file `file`.
pub fn span_of(sources: &Sources, file: FileId, loc: &Location) -> Span {
    let text = &sources.file(file).text;
    let start = loc.span().byte_offset().map(|o| o as usize).unwrap_or_else(|| offset_of(text, loc.line(), loc.column()));
    let len = loc.span().byte_len().map_or(1, |l| l.max(1) as usize);
    // The reader's offsets can fall inside a character (a byte order mark, a replayed alias):
    // a span starts and ends on character boundaries, or nothing can slice the text by it.
    let start = floor_boundary(text, start.min(text.len()));
    let end = trim_end(text, start, floor_boundary(text, (start + len).min(text.len())).max(start));
    Span { file, start: start as u32, end: end as u32 }
}

/// The nearest character boundary of `text` at or before `at`.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Spans of block values run to the start of the next key; stop them at the end of their line
/// so the caret underlines what was written, not the indentation after it.
fn trim_end(text: &str, start: usize, end: usize) -> usize {
    match text[start..end].find('\n') {
        Some(nl) if nl > 0 => start + nl,
        _ => end,
    }
}

/// Byte offset of a one-based line and character column.
fn offset_of(text: &str, line: u64, column: u64) -> usize {
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1) as usize).map(str::len).sum();
    let rest = &text[line_start.min(text.len())..];
    line_start + rest.char_indices().nth(column.saturating_sub(1) as usize).map_or(rest.len(), |(i, _)| i)
}

/// Turns a serde-saphyr error into a located diagnostic with our wording and codes.
fn parse_error(sources: &Sources, file: FileId, err: &serde_saphyr::Error) -> Diagnostic {
    let text = &sources.file(file).text;
    let span = err.location().map(|loc| {
        let start = offset_of(text, loc.line(), loc.column()).min(text.len());
        Span { file, start: start as u32, end: start as u32 }
    });
    let plain = err.without_snippet();
    let message = strip_location(&plain.to_string());
    // Errors raised by the YAML scanner itself are syntax errors; everything else comes from
    // deserializing into the schema.
    let syntax = matches!(plain, serde_saphyr::Error::ExternalMessage { .. } | serde_saphyr::Error::Eof { .. });
    let diagnostic = if let Some(breach) = breach_of(err) {
        budget_breached(breach)
    } else if syntax {
        Diagnostic::error(codes::YAML_SYNTAX, format!("invalid YAML: {}", lowercase_first(&message)))
    } else {
        classify(&message)
    };
    match span {
        Some(span) => {
            let label = diagnostic.message.clone();
            diagnostic.at(span, label_for(&label))
        }
        None => diagnostic.note(format!("in `{}`", sources.file(file).path)),
    }
}

/// The parser's resource limits (nesting depth, node and alias counts) in words: serde-saphyr's
/// own message for them is the `Debug` form of its breach (`Depth { depth: 65 }`).
fn budget_breached(breach: &serde_saphyr::budget::BudgetBreach) -> Diagnostic {
    budget_diagnostic(breach_in_words(breach, "a spec file", MAX_DEPTH))
}

/// The breach of the YAML reader's limits behind `err`, also when it was met replaying an alias.
pub(crate) fn breach_of(mut err: &serde_saphyr::Error) -> Option<&serde_saphyr::budget::BudgetBreach> {
    loop {
        match err {
            serde_saphyr::Error::AliasError { error, .. } | serde_saphyr::Error::WithSnippet { error, .. } => err = error,
            serde_saphyr::Error::Budget { breach, .. } => return Some(breach),
            _ => return None,
        }
    }
}

/// A breach of the YAML reader's limits in words, for a reader of `what` (`a spec file`) that
/// nests at most `max_depth` levels.
pub(crate) fn breach_in_words(breach: &serde_saphyr::budget::BudgetBreach, what: &str, max_depth: usize) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    match breach {
        B::Depth { .. } => format!("the YAML nests mappings and sequences more than {max_depth} levels deep"),
        B::Events { .. } | B::Nodes { .. } => format!("the YAML has more values than {what} may hold"),
        B::Aliases { .. } | B::AliasAnchorRatio { .. } | B::RecordedAnchorEvents { .. } | B::RecordedAnchorBytes { .. } => {
            format!("the YAML repeats anchored values through aliases more than {what} may")
        }
        B::Anchors { .. } => format!("the YAML defines more anchors than {what} may"),
        B::Documents { .. } => format!("the file holds more YAML documents than {what} may"),
        B::ScalarBytes { .. } | B::InputBytes { .. } | B::CommentBytes { .. } => format!("the file is larger than {what} may be"),
        B::MergeKeys { .. } => format!("the YAML has more merge keys (`<<`) than {what} may"),
        B::SequenceUnbalanced => "the YAML closes a collection it never opened".to_owned(),
        _ => format!("the YAML is larger or more complex than {what} may be"),
    }
}

fn budget_diagnostic(what: String) -> Diagnostic {
    Diagnostic::error(codes::YAML_SYNTAX, format!("invalid YAML: {what}"))
        .help("a spec file is read with fixed limits on size, nesting and aliases; split the file or flatten what is nested")
}

fn label_for(message: &str) -> String {
    if message.starts_with("unknown key") {
        "unknown key".into()
    } else if message.starts_with("duplicate key") {
        "second definition of this key".into()
    } else if message.starts_with("wrong type") || message.starts_with("missing required") {
        "in this value".into()
    } else {
        "here".into()
    }
}

/// Drops serde-saphyr's ` at line N, column M` suffix and `line N column M: ` prefix.
fn strip_location(message: &str) -> String {
    let message = message.split(" at line ").next().unwrap_or(message);
    let message = match message.strip_prefix("line ") {
        Some(rest) => rest.split_once(": ").map_or(message, |(_, m)| m),
        None => message,
    };
    message.trim().to_owned()
}

fn classify(message: &str) -> Diagnostic {
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (name, expected) = rest.split_once(", expected").unwrap_or((rest, ""));
        let name = name.trim_matches('`');
        let expected: Vec<&str> = expected.trim_start_matches(" one of").split(',').map(|s| s.trim().trim_matches('`')).filter(|s| !s.is_empty()).collect();
        let mut d = Diagnostic::error(codes::UNKNOWN_KEY, format!("unknown key `{name}`")).suggest(name, expected.iter().copied());
        if !expected.is_empty() && d.help.is_empty() {
            d = d.help(format!("expected one of {}", expected.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")));
        }
        return d;
    }
    if let Some(rest) = message.strip_prefix("duplicate mapping key: ") {
        let key = rest.split(',').next().unwrap_or(rest).trim();
        return Diagnostic::error(codes::DUPLICATE_KEY, format!("duplicate key `{key}`"))
            .help("each key may appear once per mapping; merge the two entries or remove one");
    }
    if message.starts_with("missing field ") {
        let name = message.trim_start_matches("missing field ").trim_matches('`');
        return Diagnostic::error(codes::WRONG_TYPE, format!("missing required key `{name}`")).help(format!("add `{name}:` to this mapping"));
    }
    Diagnostic::error(codes::WRONG_TYPE, format!("wrong type: {}", lowercase_first(message)))
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The keys a raw struct accepts, read from its `Deserialize` impl, so rules that name keys
/// (`assumed:` must name a key of its item) follow the schema without a second list to keep in
/// step. serde's derive hands the field names to `deserialize_struct`; the probe records them
/// and stops there.
pub fn keys_of<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    let mut keys = None;
    let _ = T::deserialize(KeyProbe(&mut keys));
    keys.unwrap_or(&[])
}

/// A deserializer that only answers `deserialize_struct`, by remembering the field names.
struct KeyProbe<'a>(&'a mut Option<&'static [&'static str]>);

impl<'de> serde::Deserializer<'de> for KeyProbe<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("a key probe reads struct names only"))
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = Some(fields);
        Err(serde::de::Error::custom("keys recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// The schema keys of a raw value's type, by method call so it reads the same on a value and
/// on a reference.
pub trait Keys {
    /// The keys the value's type accepts.
    fn keys(&self) -> &'static [&'static str];
}

impl<T: serde::de::DeserializeOwned> Keys for T {
    fn keys(&self) -> &'static [&'static str] {
        keys_of::<T>()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_of_reads_the_schema() {
        let keys = super::keys_of::<super::raw::Endpoint>();
        assert!(keys.contains(&"body_format") && keys.contains(&"id") && keys.contains(&"assumed"), "{keys:?}");
        assert!(!keys.contains(&"format"));
    }

    /// A spec nested as deep as the reader allows, with every level a rule (the costliest shape
    /// to deserialize), loads within a 2 MiB stack; one level more is a located diagnostic.
    #[test]
    fn nesting_up_to_the_limit_fits_a_small_stack() {
        let spec = |depth: usize| {
            let rule = format!("{}PIN_MESSAGES{}", "{ all: [".repeat(depth), "] }".repeat(depth));
            let text = format!(
                "platform:\n  name: Case\n  prefixes: {{ c_type: Case_, c_macro: CASE_, cpp_namespace: casepp, c_header: ccase.h, cpp_header: casepp.h }}\npermissions:\n  - {{ id: PIN_MESSAGES, bit: 51 }}\npermission_rules:\n  - id: pin\n    rule: {rule}\n"
            );
            vec![("spec/spec.yaml".to_owned(), text)]
        };
        // The rule sits 3 levels down (file, `permission_rules`, the item), each `all` adds two.
        let deepest = (super::MAX_DEPTH - 3) / 2;
        let small = std::thread::Builder::new().stack_size(2 << 20);
        let result = small.spawn(move || (crate::load_spec_texts(spec(deepest)).is_ok(), crate::load_spec_texts(spec(deepest + 1)))).unwrap().join().unwrap();
        assert!(result.0, "{deepest} levels of rules load");
        let Err(crate::LoadError::Invalid { diagnostics, .. }) = result.1 else { panic!("one level more is refused") };
        assert!(diagnostics[0].message.contains("more than 32 levels deep"), "{}", diagnostics[0].message);
    }
}
