//! Constraint checks shared by the server and the client: every violation, each at a JSON pointer.
//!
//! Pointers (RFC 6901) locate a violation in the request seen as one document:
//! `/path/channel.id`, `/query/shard`, `/body/status`, `/body/3/id`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One broken constraint: where it is and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Violation {
    /// A JSON pointer to the offending value.
    pub pointer: String,
    /// What is wrong, in words.
    pub message: String,
    /// The platform's code for what is wrong, as text, when its answer gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

impl Violation {
    /// A violation at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self { pointer: pointer.into(), message: message.into(), code: None }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.pointer.is_empty() {
            write!(f, "{}: ", self.pointer)?;
        }
        f.write_str(&self.message)?;
        match &self.code {
            Some(code) => write!(f, " ({code})"),
            None => Ok(()),
        }
    }
}

/// Where a value sits, as the chain of reference tokens that leads to it. A pointer is
/// written out (RFC 6901, `~` and `/` escaped) only when a violation is reported, so
/// checking a valid value builds no text.
#[derive(Clone, Copy)]
pub enum Pointer<'a> {
    /// A pointer written out already: `""` is the document's root, `/body` a member of it.
    At(&'a str),
    /// The member of `parent` with this name.
    Key(&'a Pointer<'a>, &'a str),
    /// The item of `parent` at this index.
    Index(&'a Pointer<'a>, usize),
    /// The entry of `parent` under this key, written as the key displays.
    Entry(&'a Pointer<'a>, &'a dyn fmt::Display),
}

impl<'a> Pointer<'a> {
    /// The document's root.
    pub const ROOT: Pointer<'static> = Pointer::At("");

    /// The member `name` of `parent`.
    pub const fn key(parent: &'a Pointer<'a>, name: &'a str) -> Self {
        Self::Key(parent, name)
    }

    /// The item `index` of `parent`.
    pub const fn index(parent: &'a Pointer<'a>, index: usize) -> Self {
        Self::Index(parent, index)
    }

    /// The entry of `parent` under `key`.
    pub const fn entry(parent: &'a Pointer<'a>, key: &'a dyn fmt::Display) -> Self {
        Self::Entry(parent, key)
    }
}

impl fmt::Display for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::At(text) => f.write_str(text),
            Self::Key(parent, name) => write!(f, "{parent}/{}", Escaped(name)),
            Self::Index(parent, index) => write!(f, "{parent}/{index}"),
            Self::Entry(parent, key) => {
                write!(f, "{parent}/{}", Escaped(&key.to_string()))
            }
        }
    }
}

impl fmt::Debug for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pointer({:?})", self.to_string())
    }
}

impl From<&Pointer<'_>> for String {
    fn from(pointer: &Pointer<'_>) -> Self {
        pointer.to_string()
    }
}

/// The violations of a tree that nests them by field, as some platforms report a refused
/// request: one member per field name or item index, down to a `leaf` member listing what is
/// wrong there (`{"embeds": {"0": {"title": {"_errors": [{"code": 50035, "message": "…"}]}}}}`).
/// Each item's `message` (and `code`, as text, when it has one) becomes a violation at the
/// pointer of the members that lead to it (`/embeds/0/title`), in the tree's order.
pub fn violations_from_tree(tree: &serde_json::Value, leaf: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    walk_tree(tree, leaf, String::new(), &mut out);
    out
}

fn walk_tree(node: &serde_json::Value, leaf: &str, pointer: String, out: &mut Vec<Violation>) {
    let Some(members) = node.as_object() else { return };
    for (key, value) in members {
        if key == leaf {
            let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
            out.extend(items.iter().filter_map(|item| tree_item(item, &pointer)));
        } else {
            walk_tree(value, leaf, child(&pointer, key), out);
        }
    }
}

fn tree_item(item: &serde_json::Value, pointer: &str) -> Option<Violation> {
    let message = item.get("message")?.as_str()?;
    let code = match item.get("code") {
        Some(serde_json::Value::String(code)) => Some(code.clone()),
        Some(serde_json::Value::Number(code)) => Some(code.to_string()),
        _ => None,
    };
    Some(Violation { pointer: pointer.to_owned(), message: message.to_owned(), code })
}

/// `violations` as a tree [`violations_from_tree`] reads back, each listed under `leaf` with
/// its message and the `code` that `code` gives it (none when it gives none), and the
/// violations the tree cannot hold. A violation in the request's body is written from the
/// body's members (`/body/content` under `content`), as such trees describe a body; the
/// request's other parts keep their part's name. A point either lists violations or holds
/// members, as the schemas of such trees say, so a violation at a point that already holds
/// members, or below one that lists violations, is left out of the tree and returned.
pub fn violation_tree<'v>(
    violations: &'v [Violation],
    leaf: &str,
    code: impl Fn(&Violation) -> Option<serde_json::Value>,
) -> (serde_json::Value, Vec<&'v Violation>) {
    let mut tree = serde_json::Map::new();
    let mut unplaced = Vec::new();
    for v in violations {
        let pointer = v.pointer.strip_prefix("/body").filter(|p| p.is_empty() || p.starts_with('/')).unwrap_or(&v.pointer);
        let tokens = pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~"));
        match tree_point(&mut tree, tokens, leaf) {
            Some(list) => list.push(tree_entry(v, &code)),
            None => unplaced.push(v),
        }
    }
    (serde_json::Value::Object(tree), unplaced)
}

/// The list of violations at the point `tokens` lead to from `node`, made on the way; `None`
/// where the tree's shape leaves no room for it.
fn tree_point<'t>(
    mut node: &'t mut serde_json::Map<String, serde_json::Value>,
    tokens: impl Iterator<Item = String>,
    leaf: &str,
) -> Option<&'t mut Vec<serde_json::Value>> {
    for token in tokens {
        if node.contains_key(leaf) || token == leaf {
            return None;
        }
        node = node.entry(token).or_insert_with(|| serde_json::Value::Object(serde_json::Map::new())).as_object_mut()?;
    }
    if node.keys().any(|k| k != leaf) {
        return None;
    }
    node.entry(leaf.to_owned()).or_insert_with(|| serde_json::Value::Array(Vec::new())).as_array_mut()
}

fn tree_entry(v: &Violation, code: &impl Fn(&Violation) -> Option<serde_json::Value>) -> serde_json::Value {
    let mut item = serde_json::Map::new();
    if let Some(code) = code(v) {
        item.insert("code".to_owned(), code);
    }
    item.insert("message".to_owned(), serde_json::Value::String(v.message.clone()));
    serde_json::Value::Object(item)
}

/// A reference token escaped as RFC 6901 says: `~` as `~0`, `/` as `~1`.
struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(['~', '/']) {
            f.write_str(&rest[..at])?;
            f.write_str(if rest[at..].starts_with('~') { "~0" } else { "~1" })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

/// A value whose declared constraints can be checked.
pub trait Validate {
    /// Appends every violation in `self` to `out`, located under `pointer`.
    fn validate_at(&self, pointer: &Pointer<'_>, out: &mut Vec<Violation>);

    /// Every violation, located from the value's root.
    fn validate(&self) -> Vec<Violation> {
        let mut out = Vec::new();
        self.validate_at(&Pointer::ROOT, &mut out);
        out
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate_at(&self, pointer: &Pointer<'_>, out: &mut Vec<Violation>) {
        for (index, item) in self.iter().enumerate() {
            item.validate_at(&Pointer::index(pointer, index), out);
        }
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate_at(&self, pointer: &Pointer<'_>, out: &mut Vec<Violation>) {
        if let Some(value) = self {
            value.validate_at(pointer, out);
        }
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate_at(&self, pointer: &Pointer<'_>, out: &mut Vec<Violation>) {
        (**self).validate_at(pointer, out);
    }
}

/// `pointer` extended by one reference token, escaped as RFC 6901 says (`~` and `/`).
pub fn child(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", Escaped(token))
}

/// A text has at least `min` characters (Unicode scalar values).
pub fn min_length(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: &str, min: i64) {
    let len = value.chars().count();
    if i128::try_from(len).unwrap_or(i128::MAX) < i128::from(min) {
        out.push(Violation::new(pointer, format!("must be at least {min} characters long (got {len})")));
    }
}

/// A text has at most `max` characters (Unicode scalar values).
pub fn max_length(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: &str, max: i64) {
    let len = value.chars().count();
    if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
        out.push(Violation::new(pointer, format!("must be at most {max} characters long (got {len})")));
    }
}

/// A list has at least `min` items.
pub fn min_items(out: &mut Vec<Violation>, pointer: &Pointer<'_>, len: usize, min: i64) {
    if i128::try_from(len).unwrap_or(i128::MAX) < i128::from(min) {
        out.push(Violation::new(pointer, format!("must have at least {min} items (got {len})")));
    }
}

/// A list has at most `max` items.
pub fn max_items(out: &mut Vec<Violation>, pointer: &Pointer<'_>, len: usize, max: i64) {
    if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
        out.push(Violation::new(pointer, format!("must have at most {max} items (got {len})")));
    }
}

/// A number is at least `min`.
pub fn min(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: i128, min: i64) {
    if value < i128::from(min) {
        out.push(Violation::new(pointer, format!("must be at least {min} (got {value})")));
    }
}

/// A number is at most `max`.
pub fn max(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: i128, max: i64) {
    if value > i128::from(max) {
        out.push(Violation::new(pointer, format!("must be at most {max} (got {value})")));
    }
}

/// A number is below `bound`.
pub fn max_exclusive(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: i128, bound: i64) {
    if value >= i128::from(bound) {
        out.push(Violation::new(pointer, format!("must be less than {bound} (got {value})")));
    }
}

/// A number is above `bound`.
pub fn min_exclusive(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: i128, bound: i64) {
    if value <= i128::from(bound) {
        out.push(Violation::new(pointer, format!("must be greater than {bound} (got {value})")));
    }
}

/// A floating-point number is at least `min`.
pub fn min_number(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: f64, min: f64) {
    if value.is_nan() || value < min {
        out.push(Violation::new(pointer, format!("must be at least {min} (got {value})")));
    }
}

/// A floating-point number is at most `max`.
pub fn max_number(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: f64, max: f64) {
    if value.is_nan() || value > max {
        out.push(Violation::new(pointer, format!("must be at most {max} (got {value})")));
    }
}

/// A floating-point number is above `bound`.
pub fn min_exclusive_number(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: f64, bound: f64) {
    if value.is_nan() || value <= bound {
        out.push(Violation::new(pointer, format!("must be greater than {bound} (got {value})")));
    }
}

/// A floating-point number is below `bound`.
pub fn max_exclusive_number(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: f64, bound: f64) {
    if value.is_nan() || value >= bound {
        out.push(Violation::new(pointer, format!("must be less than {bound} (got {value})")));
    }
}

/// A map has at least `min` entries.
pub fn min_entries(out: &mut Vec<Violation>, pointer: &Pointer<'_>, len: usize, min: i64) {
    if i128::try_from(len).unwrap_or(i128::MAX) < i128::from(min) {
        out.push(Violation::new(pointer, format!("must have at least {min} entries (got {len})")));
    }
}

/// A map has at most `max` entries.
pub fn max_entries(out: &mut Vec<Violation>, pointer: &Pointer<'_>, len: usize, max: i64) {
    if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
        out.push(Violation::new(pointer, format!("must have at most {max} entries (got {len})")));
    }
}

/// No two items of a list are equal: each repeat is reported at its own index.
pub fn unique_items<T: PartialEq>(out: &mut Vec<Violation>, pointer: &Pointer<'_>, items: &[T]) {
    for (index, item) in items.iter().enumerate() {
        if let Some(first) = items[..index].iter().position(|earlier| earlier == item) {
            out.push(Violation::new(&Pointer::index(pointer, index), format!("repeats item {first}: items must be unique")));
        }
    }
}

/// A text has the shape of an email address: a local part, one `@`, a domain, no spaces.
pub fn email(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: &str) {
    let shaped = value.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty() && !domain.is_empty() && !domain.contains('@') && !value.chars().any(|c| c.is_whitespace() || c.is_control())
    });
    if !shaped {
        out.push(Violation::new(pointer, "must be an email address (local@domain)"));
    }
}

/// A text is an absolute URI: a scheme (`https`, `mailto`, ...), `:`, and no spaces.
pub fn uri(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: &str) {
    let scheme_ok = value.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic()) && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if !scheme_ok || value.chars().any(|c| c.is_whitespace() || c.is_control()) {
        out.push(Violation::new(pointer, "must be an absolute URI (scheme:...)"));
    }
}

/// A value of an open enum is one the spec names: unknown values are read, never sent.
pub fn known(out: &mut Vec<Violation>, pointer: &Pointer<'_>, is_known: bool, enum_id: &str, got: impl fmt::Display) {
    if !is_known {
        out.push(Violation::new(pointer, format!("is not a value of `{enum_id}` (got {got})")));
    }
}

/// A value is one of those a field accepts (a subset of its enum).
pub fn one_of(out: &mut Vec<Violation>, pointer: &Pointer<'_>, accepted: bool, allowed: &[&str], got: impl fmt::Display) {
    if !accepted {
        let names: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
        out.push(Violation::new(pointer, format!("must be one of {} (got {got})", names.join(", "))));
    }
}

/// A value is the one a field is fixed to.
pub fn constant(out: &mut Vec<Violation>, pointer: &Pointer<'_>, equal: bool, expected: &str, got: impl fmt::Display) {
    if !equal {
        out.push(Violation::new(pointer, format!("must be {expected} (got {got})")));
    }
}

/// A union's value is one of its variants: a value read from a newer peer is kept, never
/// sent.
pub fn unknown_variant(out: &mut Vec<Violation>, pointer: &Pointer<'_>, union_id: &str, detail: impl fmt::Display) {
    out.push(Violation::new(pointer, format!("is no variant of `{union_id}` ({detail})")));
}

/// A file is at most `max` bytes.
pub fn max_size(out: &mut Vec<Violation>, pointer: &Pointer<'_>, len: usize, max: i64) {
    if i128::try_from(len).unwrap_or(i128::MAX) > i128::from(max) {
        out.push(Violation::new(pointer, format!("must be at most {max} bytes (got {len})")));
    }
}

/// A value that a condition makes mandatory is present.
pub fn required(out: &mut Vec<Violation>, pointer: &Pointer<'_>, present: bool, condition: &str) {
    if !present {
        out.push(Violation::new(pointer, format!("is required when {condition}")));
    }
}

/// A fact a case states of a value holds (`message` says it when it does not).
pub fn fact(out: &mut Vec<Violation>, pointer: &Pointer<'_>, holds: bool, message: &str) {
    if !holds {
        out.push(Violation::new(pointer, message));
    }
}

/// A text is exactly `expected`.
pub fn literal(out: &mut Vec<Violation>, pointer: &Pointer<'_>, value: &str, expected: &str) {
    if value != expected {
        out.push(Violation::new(pointer, format!("must be `{expected}` (got `{value}`)")));
    }
}

/// One column of a CSV text: its name in the header, and what each of its cells must be.
#[derive(Clone, Copy, Debug)]
pub struct CsvColumn {
    /// The name the header line gives it.
    pub name: &'static str,
    /// What a cell must be, in words (`a snowflake`).
    pub expects: &'static str,
    /// Whether a cell is one.
    pub accepts: fn(&str) -> bool,
}

/// A CSV text has exactly `columns`: the header line names them in order, and every
/// further line has one accepted cell per column. Pointers are `/<line>` (the header is
/// line 0) and `/<line>/<column>`.
pub fn csv(out: &mut Vec<Violation>, pointer: &Pointer<'_>, text: &str, columns: &[CsvColumn]) {
    let mut lines = text.lines();
    let header: Vec<&str> = columns.iter().map(|c| c.name).collect();
    let expected = header.join(",");
    match lines.next() {
        Some(first) if first.trim_end_matches('\r') == expected => {}
        Some(first) => out.push(Violation::new(&Pointer::index(pointer, 0), format!("the header must be exactly `{expected}` (got `{first}`)"))),
        None => {
            out.push(Violation::new(pointer, format!("must start with the header `{expected}`")));
            return;
        }
    }
    for (index, line) in lines.enumerate() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        let row = Pointer::index(pointer, index + 1);
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != columns.len() {
            out.push(Violation::new(&row, format!("must have {} cell(s) (got {})", columns.len(), cells.len())));
            continue;
        }
        for (column, (cell, spec)) in cells.iter().zip(columns).enumerate() {
            if !(spec.accepts)(cell) {
                out.push(Violation::new(&Pointer::index(&row, column), format!("`{}` must be {} (got `{cell}`)", spec.name, spec.expects)));
            }
        }
    }
}

/// A file's media type is `expected`, where `*` stands for any type or subtype
/// (`image/*`); parameters (`; charset=utf-8`) and case do not matter.
pub fn content_type(out: &mut Vec<Violation>, pointer: &Pointer<'_>, actual: &str, expected: &str) {
    let essence = |m: &str| m.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let (actual, expected) = (essence(actual), essence(expected));
    let matches = match (actual.split_once('/'), expected.split_once('/')) {
        (Some((a, b)), Some((x, y))) => (x == "*" || a == x) && (y == "*" || b == y),
        _ => false,
    };
    if !matches {
        out.push(Violation::new(pointer, format!("must be of media type {expected} (got {actual})")));
    }
}
