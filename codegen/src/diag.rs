//! Located diagnostics: collected by every stage, rendered rustc-style, as JSON, or as plain text.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;
use std::fmt::Write as _;

/// Index of a source file in [`Sources`].
pub type FileId = u32;

/// A byte range in one spec file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

/// The text of every spec file read, for rendering snippets and line numbers.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    files: Vec<SourceFile>,
}

/// One spec file: its display path (`spec/errors.yaml`) and contents.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Display path.
    pub path: String,
    /// Contents.
    pub text: String,
}

impl Sources {
    /// Adds a file and returns its id.
    pub fn add(&mut self, path: String, text: String) -> FileId {
        self.files.push(SourceFile { path, text });
        u32::try_from(self.files.len() - 1).expect("BUG: more than u32::MAX spec files")
    }

    /// The file a span points into.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }

    /// Every file, in load order.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// One-based line and column (in characters) of a span's start.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let text = &self.file(span.file).text;
        let start = (span.start as usize).min(text.len());
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// `spec/file.yaml:line:col` of a span.
    pub fn location(&self, span: Span) -> String {
        let (line, col) = self.line_col(span);
        format!("{}:{line}:{col}", self.file(span.file).path)
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The spec is invalid.
    Error,
    /// The spec is valid but probably not as meant.
    Warning,
}

/// One finding about the spec.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Stable code, `E0102`; see [`crate::diag::codes`].
    pub code: &'static str,
    /// Lowercase, no final period, names things in backticks.
    pub message: String,
    /// Where, and what to say there.
    pub primary: Option<(Span, String)>,
    /// Related places ("first defined here").
    pub secondary: Vec<(Span, String)>,
    /// What to do about it.
    pub help: Vec<String>,
    /// Background (`note:` lines).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A new error.
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }

    /// A new warning.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }

    fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Self {
        Self { severity, code, message: message.into(), primary: None, secondary: vec![], help: vec![], notes: vec![] }
    }

    /// Points the diagnostic at `span` with a label.
    pub fn at(mut self, span: Span, label: impl Into<String>) -> Self {
        self.primary = Some((span, label.into()));
        self
    }

    /// Adds a related place.
    pub fn also(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push((span, label.into()));
        self
    }

    /// Adds a `help:` line.
    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help.push(text.into());
        self
    }

    /// Adds a `note:` line.
    pub fn note(mut self, text: impl Into<String>) -> Self {
        self.notes.push(text.into());
        self
    }

    /// Adds "did you mean" help when a close candidate exists.
    pub fn suggest<'a>(self, wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Self {
        match did_you_mean(wrong, candidates) {
            Some(best) => self.help(format!("did you mean `{best}`?")),
            None => self,
        }
    }
}

/// The closest candidate, if it is close enough to be a likely typo: a small edit distance
/// (transpositions count once) or a high Jaro-Winkler similarity for longer names.
pub fn did_you_mean<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = wrong.to_ascii_lowercase();
    candidates
        .into_iter()
        .filter_map(|c| {
            let other = c.to_ascii_lowercase();
            let edits = strsim::damerau_levenshtein(&lower, &other);
            let similarity = strsim::jaro_winkler(&lower, &other);
            let close = edits <= (lower.len().max(other.len()) / 3).max(1) || similarity >= 0.9;
            close.then_some((edits, std::cmp::Reverse((similarity * 1000.0) as u32), c))
        })
        .min()
        .map(|(_, _, c)| c)
}

/// The context every stage reports into (`cx` is the first parameter by convention).
///
/// Dropping it with unread errors is a bug, caught like serde's `Ctxt` drop bomb.
#[derive(Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    checked: bool,
}

impl Diagnostics {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.list.push(diagnostic);
    }

    /// Whether any error (not warning) was recorded.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }

    /// Ends the context: `Ok(warnings)` if there were no errors, else every diagnostic.
    ///
    /// Diagnostics come out sorted by file and position so output does not depend on the order
    /// rules ran in.
    pub fn finish(mut self) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        self.checked = true;
        let mut list = std::mem::take(&mut self.list);
        list.sort_by_key(|d| (d.primary.as_ref().map(|p| p.0), d.code));
        if list.iter().any(|d| d.severity == Severity::Error) { Err(list) } else { Ok(list) }
    }
}

impl Drop for Diagnostics {
    fn drop(&mut self) {
        if !self.checked && !self.list.is_empty() && !std::thread::panicking() {
            panic!("BUG: Diagnostics dropped without finish()");
        }
    }
}

/// Renders diagnostics rustc-style, without colour when `color` is false.
pub fn render_text(sources: &Sources, diagnostics: &[Diagnostic], color: bool) -> String {
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let mut out = String::new();
    for d in diagnostics {
        let _ = writeln!(out, "{}\n", renderer.render(&report(sources, d)));
    }
    let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = diagnostics.len() - errors;
    if errors > 0 {
        let _ = writeln!(out, "error: the spec has {errors} error{}{}", plural(errors), warning_tail(warnings));
    } else if warnings > 0 {
        let _ = writeln!(out, "warning: the spec has {warnings} warning{}", plural(warnings));
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn warning_tail(warnings: usize) -> String {
    if warnings == 0 { String::new() } else { format!(" and {warnings} warning{}", plural(warnings)) }
}

fn report<'a>(sources: &'a Sources, d: &'a Diagnostic) -> Vec<Group<'a>> {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let mut group = Group::with_title(level.primary_title(d.message.as_str()).id(d.code));
    if let Some((span, label)) = &d.primary {
        let mut marks = vec![(*span, AnnotationKind::Primary, label.as_str())];
        marks.extend(d.secondary.iter().filter(|(s, _)| s.file == span.file).map(|(s, l)| (*s, AnnotationKind::Context, l.as_str())));
        group = group.element(snippet(sources, &marks));
    }
    let other_files = d.secondary.iter().filter(|(s, _)| d.primary.as_ref().is_none_or(|p| p.0.file != s.file));
    for (span, label) in other_files {
        group = group.element(snippet(sources, &[(*span, AnnotationKind::Context, label.as_str())]));
    }
    for note in &d.notes {
        group = group.element(Level::NOTE.message(note.as_str()));
    }
    for help in &d.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    vec![group]
}

/// A snippet of one file with its marks (the first mark's file). It is given only the lines the
/// marks cover, numbered as in the file: annotate-snippets reads all the source it is given
/// for every diagnostic, and an imported document is megabytes.
fn snippet<'a>(sources: &'a Sources, marks: &[(Span, AnnotationKind, &'a str)]) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
    let file = sources.file(marks[0].0.file);
    let text = file.text.as_str();
    let ranges: Vec<std::ops::Range<usize>> = marks.iter().map(|(span, ..)| range(sources, *span)).collect();
    let first = ranges.iter().map(|r| r.start).min().unwrap_or(0);
    let last = ranges.iter().map(|r| r.end).max().unwrap_or(0);
    let start = text[..first].rfind('\n').map_or(0, |i| i + 1);
    // Through the line where the last mark ends (the next line's start, when it ends on a newline:
    // annotate-snippets draws that line too).
    let end = text[last..].find('\n').map_or(text.len(), |i| last + i + 1);
    let line = 1 + text.as_bytes()[..start].iter().filter(|&&b| b == b'\n').count();
    let mut snippet = Snippet::source(&text[start..end]).line_start(line).path(file.path.as_str());
    for ((_, kind, label), r) in marks.iter().zip(ranges) {
        snippet = snippet.annotation((*kind).span(r.start - start..r.end - start).label(*label));
    }
    snippet
}

/// A span's byte range, clamped to the file and to char boundaries, never empty.
fn range(sources: &Sources, span: Span) -> std::ops::Range<usize> {
    let text = &sources.file(span.file).text;
    let mut start = (span.start as usize).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (span.end as usize).clamp(start, text.len());
    if end == start {
        end = text[start..].chars().next().map_or(start, |c| start + c.len_utf8());
    }
    start..end
}

/// One diagnostic as a JSON object (one line of `check --format json`).
pub fn to_json(sources: &Sources, d: &Diagnostic) -> serde_json::Value {
    let place = |span: Span, label: &str| {
        let (line, column) = sources.line_col(span);
        serde_json::json!({ "file": sources.file(span.file).path, "line": line, "column": column, "label": label })
    };
    serde_json::json!({
        "severity": d.severity,
        "code": d.code,
        "message": d.message,
        "location": d.primary.as_ref().map(|(s, l)| place(*s, l)),
        "related": d.secondary.iter().map(|(s, l)| place(*s, l)).collect::<Vec<_>>(),
        "help": d.help,
        "notes": d.notes,
    })
}

/// One-line plain text (`spec/x.yaml:3:5: error[E0102]: message`), for `compile_error!`.
pub fn to_plain(sources: &Sources, d: &Diagnostic) -> String {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut out = match &d.primary {
        Some((span, _)) => format!("{}: {severity}[{}]: {}", sources.location(*span), d.code, d.message),
        None => format!("{severity}[{}]: {}", d.code, d.message),
    };
    for help in &d.help {
        let _ = write!(out, "\n  help: {help}");
    }
    out
}

/// The catalog of diagnostic codes. Each rule owns one; the corpus under `tests/diagnostics/`
/// has a broken spec for each.
pub mod codes {
    /// The YAML itself does not parse.
    pub const YAML_SYNTAX: &str = "E0001";
    /// A key the schema does not know.
    pub const UNKNOWN_KEY: &str = "E0002";
    /// The same key twice in one mapping.
    pub const DUPLICATE_KEY: &str = "E0003";
    /// A value of the wrong type, or a missing required key.
    pub const WRONG_TYPE: &str = "E0004";
    /// No `platform:` block, or more than one.
    pub const PLATFORM_BLOCK: &str = "E0005";
    /// Two items of one kind share an id.
    pub const DUPLICATE_ID: &str = "E0101";
    /// A reference names nothing of the expected kind.
    pub const UNRESOLVED: &str = "E0102";
    /// Two permissions (or two flags of one set) share a bit.
    pub const DUPLICATE_BIT: &str = "E0103";
    /// A bit outside 0..=63 (or the flag set's width).
    pub const BIT_RANGE: &str = "E0104";
    /// Two errors share a code.
    pub const DUPLICATE_ERROR_CODE: &str = "E0105";
    /// A date that is not `YYYY-MM-DD` (or `already_in_effect` / `unscheduled`).
    pub const INVALID_DATE: &str = "E0106";
    /// `until` does not come after `since`.
    pub const LIFETIME_ORDER: &str = "E0107";
    /// A change nothing refers to and that affects nothing.
    pub const UNUSED_CHANGE: &str = "W0108";
    /// Two endpoints with the same method and path.
    pub const DUPLICATE_ROUTE: &str = "E0109";
    /// A `{placeholder}` in a path with no declared path parameter.
    pub const UNDECLARED_PATH_PARAM: &str = "E0110";
    /// A declared path parameter that the path does not use.
    pub const UNUSED_PATH_PARAM: &str = "E0111";
    /// A facet both given and declared not shown.
    pub const GIVEN_AND_NOT_SHOWN: &str = "E0112";
    /// A required facet neither given nor declared not shown.
    pub const MISSING_FACET: &str = "E0113";
    /// A constraint whose minimum exceeds its maximum.
    pub const MIN_OVER_MAX: &str = "E0114";
    /// Two values of one enum share a number (or a name).
    pub const DUPLICATE_ENUM_VALUE: &str = "E0115";
    /// A `not_shown` facet or `assumed` facet the item kind does not have.
    pub const UNKNOWN_FACET: &str = "E0116";
    /// A type expression that does not parse.
    pub const INVALID_TYPE: &str = "E0117";
    /// A value outside a closed vocabulary (HTTP method, unit, change kind, event channel, ...).
    pub const INVALID_VALUE: &str = "E0118";
    /// An `assumed` facet whose value is not given.
    pub const ASSUMED_NOT_GIVEN: &str = "E0119";
    /// Dated rule variants that leave a gap or overlap on the timeline.
    pub const VARIANT_TIMELINE: &str = "E0120";
    /// A condition called with the wrong number of arguments.
    pub const CONDITION_ARITY: &str = "E0121";
    /// A constraint that does not fit the field's type (`max_length` on an integer).
    pub const CONSTRAINT_TYPE: &str = "E0123";
    /// An `assumed` key that is not a key of its item (`format` where the key is `body_format`).
    pub const UNKNOWN_ASSUMED_KEY: &str = "E0124";
    /// A field whose name is assumed but whose presence is not written and marked assumed.
    pub const ASSUMED_NAME_PRESENCE: &str = "E0125";
    /// An enum whose representation rests on nothing written: no `repr:` and no numbered value.
    pub const ENUM_REPR_BASIS: &str = "E0126";
    /// A `since` or `until` that names a correction, which changes no item's lifetime.
    pub const CORRECTION_LIFETIME: &str = "E0127";
    /// A class held by value in another class without `copy` or `move` semantics.
    pub const CLASS_VALUE_SEMANTICS: &str = "E0128";
    /// A case fact that does not fit its field (an unknown field, flag or enum value).
    pub const CASE_FACT: &str = "E0129";
    /// `fields:` without an inline `object`, or an inline `object` without `fields:`.
    pub const INLINE_OBJECT: &str = "E0130";
    /// A tagged union whose variant is not an object carrying the discriminator field.
    pub const UNION_VARIANT: &str = "E0131";
    /// A tagged union's variant without a tag, with a tag of the wrong type, or with a tag
    /// another variant has.
    pub const UNION_TAG: &str = "E0132";
    /// An untagged union's variant that an earlier variant of the same type always wins.
    pub const UNREACHABLE_VARIANT: &str = "E0133";
    /// `subset:` on a field that is not an enum, or naming a value the enum does not have.
    pub const ENUM_SUBSET: &str = "E0134";
    /// A `const`, `default` or `tag` value that is not a value of the field's type.
    pub const VALUE_TYPE: &str = "E0135";
    /// A map key type that is not text, a snowflake, an integer, a uuid or an enum.
    pub const MAP_KEY: &str = "E0136";
    /// A `pattern` the `regex` crate does not accept.
    pub const INVALID_PATTERN: &str = "E0137";
    /// A fractional bound on an integer field.
    pub const FLOAT_BOUND: &str = "E0138";
    /// `extends` that leads back to the resource itself.
    pub const EXTENDS_CYCLE: &str = "E0139";
    /// A field declared again by a resource with a type other than its base's.
    pub const EXTENDS_REDEFINED: &str = "E0140";
    /// Two spec items that become one identifier in one scope of generated code (Rust, C or
    /// C++), or an item whose identifier is one the generator declares there.
    pub const IDENTIFIER_COLLISION: &str = "E0141";
    /// A `tag` on a field that is not a variant of a tagged union.
    pub const TAG_PLACEMENT: &str = "E0142";
    /// A discriminator whose type is not `integer`, `string` or an enum.
    pub const DISCRIMINATOR_TYPE: &str = "E0143";
    /// A path, query or header parameter or a multipart part that may be `null`.
    pub const NULL_PARAMETER: &str = "E0144";
    /// A field of an SDK class whose type the C ABI does not carry: the headers leave it out.
    pub const NO_C_MAPPING: &str = "W0145";
    /// An `example` that is not a wire value of the field's type.
    pub const EXAMPLE_TYPE: &str = "E0146";
    /// A response key that is not a status (`200`, `4XX`, `default`), or one status twice.
    pub const INVALID_STATUS: &str = "E0150";
    /// `responses` beside the single-response shorthand (`response`, `response_fields`, `response_format`).
    pub const RESPONSE_SHORTHAND_MIX: &str = "E0151";
    /// A body on a status that has none (1xx, 204, 304).
    pub const BODY_ON_BODILESS_STATUS: &str = "E0152";
    /// A response whose body does not fit its format (`fields` with `csv`, `json` without a body).
    pub const RESPONSE_BODY: &str = "E0153";
    /// A header whose type is not one scalar value.
    pub const HEADER_TYPE: &str = "E0154";
    /// A header name that is not an HTTP token, is owned by the generator, or is repeated.
    pub const HEADER_NAME: &str = "E0155";
    /// An endpoint accepting anonymous calls with a rule or check that needs a caller.
    pub const ANONYMOUS_NEEDS_CALLER: &str = "E0156";
    /// A token kind named `none`, the word `auth` uses for anonymous calls.
    pub const RESERVED_TOKEN_KIND: &str = "E0157";
    /// Endpoint scopes with no accepted token kind that carries scopes (a bearer token).
    pub const SCOPES_WITHOUT_BEARER: &str = "E0158";
    /// An array `style` where it does not apply, or without what it needs.
    pub const ARRAY_STYLE: &str = "E0159";
    /// Body formats that do not fit the body (`parts` without `multipart`, a repeated format).
    pub const BODY_FORMATS: &str = "E0160";
    /// A media type that is not `type/subtype`, or `content_type` outside a multipart part.
    pub const MEDIA_TYPE: &str = "E0161";
    /// A naming prefix or header name the generated code cannot use (not an identifier, not a
    /// plain file name).
    pub const INVALID_PREFIX: &str = "E0162";
    /// A path the router cannot serve: a query or fragment in it, unpaired braces, two
    /// placeholders side by side, placeholders named apart where routes meet.
    pub const PATH_TEMPLATE: &str = "E0163";
    /// A rule for bots or for users in a spec with no token kind `bot`: no caller counts as a bot.
    pub const AUDIENCE_WITHOUT_BOT: &str = "W0164";
    /// A required error-body field of a type errors have no value for (an enum, a union, a resource).
    pub const UNFILLED_ERROR_FIELD: &str = "E0170";
    /// Two fields of one object that have the same name on the wire.
    pub const DUPLICATE_WIRE_NAME: &str = "E0171";
    /// A pagination the clients cannot follow: no way or several, a parameter or member that
    /// names nothing, items that are not a list, a cursor or key of another type than its
    /// parameter.
    pub const PAGINATION: &str = "E0172";
    /// Rate limits the clients cannot keep to: an exempt endpoint or a major parameter that
    /// names nothing, a global limit of no calls or no time, a header name HTTP does not allow.
    pub const RATE_LIMITS: &str = "E0173";
    /// An idempotency key that is not one of the endpoint's header parameters of type `string`.
    pub const IDEMPOTENCY_KEY: &str = "E0174";
    /// A retry policy clients cannot follow: no try, a wait that is not a positive number of
    /// seconds, a longest wait shorter than the first, a status that is no error.
    pub const RETRY_POLICY: &str = "E0175";
    /// A streamed response (`events`, `json_lines`) clients cannot read: a stream that is not
    /// one success status, messages without a type, an event name SSE cannot carry, a last
    /// event id that is no optional text header of an endpoint with an `events` stream.
    pub const STREAM: &str = "E0176";
    /// A webhook its receiver and sender cannot follow: an event of another channel, an
    /// envelope member that is no path, events not named as the envelope says, an unknown
    /// signature scheme or one without its headers, a ping that is an event, a status that is
    /// no success.
    pub const WEBHOOK: &str = "E0177";
    /// A gateway its session client and server cannot speak: a role played by an opcode of the
    /// wrong direction or by two, an opcode that is no byte, a command that plays a role, an
    /// event of another channel, a close code listed twice or with an unknown policy or cause,
    /// a compression the runtime does not speak, limits that are no positive numbers, envelope
    /// members that are not distinct.
    pub const GATEWAY: &str = "E0178";
    /// An OpenAPI document that does not parse, or of a version the importer does not read.
    pub const IMPORT_DOCUMENT: &str = "E0201";
    /// A `$ref` to another document.
    pub const IMPORT_REMOTE_REF: &str = "E0202";
    /// A local `$ref` that names nothing in the document.
    pub const IMPORT_UNRESOLVED_REF: &str = "E0203";
    /// A construct of the document the spec does not carry (recorded as a gap on its item).
    pub const IMPORT_UNMAPPED: &str = "W0210";
    /// A security scheme or requirement the spec's token kinds do not carry.
    pub const IMPORT_UNMAPPED_SECURITY: &str = "W0211";
    /// An example that is not a value of its type, kept as a note instead.
    pub const IMPORT_EXAMPLE: &str = "W0212";
    /// Siblings that become one identifier, the later one renamed.
    pub const IMPORT_RENAMED: &str = "W0213";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rendering annotate-snippets gives with the whole file as the source.
    fn whole_file(sources: &Sources, d: &Diagnostic) -> String {
        let (span, label) = d.primary.as_ref().unwrap();
        let file = sources.file(span.file);
        let mut snippet =
            Snippet::source(file.text.as_str()).path(file.path.as_str()).annotation(AnnotationKind::Primary.span(range(sources, *span)).label(label.as_str()));
        for (other, label) in &d.secondary {
            snippet = snippet.annotation(AnnotationKind::Context.span(range(sources, *other)).label(label.as_str()));
        }
        let group = Group::with_title(Level::WARNING.primary_title(d.message.as_str()).id(d.code)).element(snippet);
        format!("{}\n\n", Renderer::plain().render(&[group]))
    }

    #[test]
    fn a_snippet_of_the_marked_lines_renders_as_the_whole_file_does() {
        let text = "first: 1\nsecond:\n  nested: [a, b]\n\nfifth: \"é\"\nlast: 6";
        let mut sources = Sources::default();
        let file = sources.add("spec/x.yaml".into(), text.into());
        let at = |needle: &str| text.find(needle).unwrap() as u32;
        let span = |start: u32, end: u32| Span { file, start, end };
        let cases = [
            (span(0, 5), vec![]),
            (span(at("nested"), at("nested") + 6), vec![(span(at("second"), at("second") + 6), "parent".to_owned())]),
            // Ends just after a newline, covers several lines, is empty, sits on the last line
            // without a final newline, or inside a multi-byte character.
            (span(at("second"), at("  nested")), vec![]),
            (span(at("second"), at("fifth")), vec![(span(0, 1), "top".to_owned())]),
            (span(at("\n\n") + 1, at("\n\n") + 1), vec![]),
            (span(at("last"), text.len() as u32), vec![]),
            (span(text.len() as u32, text.len() as u32), vec![]),
            (span(at("é") + 1, at("é") + 2), vec![(span(at("last"), at("last") + 1), "after".to_owned())]),
        ];
        for (primary, secondary) in cases {
            let mut d = Diagnostic::warning(codes::IMPORT_UNMAPPED, "marked");
            d.primary = Some((primary, "here".to_owned()));
            d.secondary = secondary;
            let windowed = render_text(&sources, std::slice::from_ref(&d), false);
            let expected = whole_file(&sources, &d);
            assert!(windowed.starts_with(&expected), "{primary:?}:\n{windowed}\nexpected\n{expected}");
        }
    }
}
