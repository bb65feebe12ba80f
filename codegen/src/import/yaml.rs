//! The one writer of spec YAML: a JSON value (keys in the order they were inserted) as block
//! YAML, with short mappings and lists of scalars on one line (`{ type: string, max_length: 25 }`)
//! the way the hand-written specs read.
//!
//! Text is written plain when the YAML core schema would read it back as the same text, as a
//! literal block (`|-`) when it spans lines, and double-quoted (JSON escapes, which YAML shares)
//! otherwise, so every file loads back to exactly the value written.

use serde_json::Value;
use std::fmt::Write as _;

/// Lines longer than this are written in block style.
const WIDTH: usize = 110;

/// A whole file: a mapping at the top level, with a blank line between its keys.
pub fn file(header: &str, root: &Value) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let Value::Object(map) = root else { return out };
    for (i, (key, value)) in map.iter().enumerate() {
        if i > 0 || !header.is_empty() {
            out.push('\n');
        }
        entry(&mut out, 0, key, value);
    }
    out
}

/// `key: value` at `indent`, the value inline when it fits, else on the lines below.
fn entry(out: &mut String, indent: usize, key: &str, value: &Value) {
    let pad = " ".repeat(indent);
    let key = scalar_text(key, true);
    if key.chars().count() > MAX_IMPLICIT_KEY {
        return explicit_entry(out, indent, &key, value);
    }
    value_after(out, indent, &format!("{pad}{key}:"), value);
}

/// `? key` then `: value` at `indent`: YAML reads a key written plainly before `:` (an implicit
/// key) only up to 1024 characters, so a longer one is written after `?`.
fn explicit_entry(out: &mut String, indent: usize, key: &str, value: &Value) {
    let pad = " ".repeat(indent);
    let _ = writeln!(out, "{pad}? {key}");
    value_after(out, indent, &format!("{pad}:"), value);
}

/// A value after `lead` (`key:` or the `:` of an explicit key, indented): on the same line when it
/// fits, else on the lines below, indented under it.
fn value_after(out: &mut String, indent: usize, lead: &str, value: &Value) {
    if let Some(inline) = inline(value, WIDTH.saturating_sub(lead.len() + 1)) {
        let _ = writeln!(out, "{lead} {inline}");
        return;
    }
    match value {
        Value::Object(map) => {
            let _ = writeln!(out, "{lead}");
            for (k, v) in map {
                entry(out, indent + 2, k, v);
            }
        }
        Value::Array(list) => {
            let _ = writeln!(out, "{lead}");
            for v in list {
                item(out, indent + 2, v);
            }
        }
        Value::String(s) => {
            let _ = writeln!(out, "{lead} {}", block_text(s, indent + 2));
        }
        other => {
            let _ = writeln!(out, "{lead} {}", inline(other, usize::MAX).expect("BUG: scalars are inline"));
        }
    }
}

/// The longest key YAML reads before `:` without a `?` (an implicit key), with room for quotes.
const MAX_IMPLICIT_KEY: usize = 1000;

/// Whether every key of `map` can be written as an implicit key (required in flow mappings).
fn short_keys(map: &serde_json::Map<String, Value>) -> bool {
    map.keys().all(|k| scalar_text(k, true).chars().count() <= MAX_IMPLICIT_KEY)
}

/// `- value` at `indent`; a mapping starts on the dash line.
fn item(out: &mut String, indent: usize, value: &Value) {
    let pad = " ".repeat(indent);
    if let Some(inline) = inline(value, WIDTH.saturating_sub(indent + 2)) {
        let _ = writeln!(out, "{pad}- {inline}");
        return;
    }
    match value {
        Value::Object(map) => {
            let mut first = String::new();
            let mut rest = map.iter();
            if let Some((k, v)) = rest.next() {
                entry(&mut first, indent + 2, k, v);
            }
            // The first key sits after the dash: `- id: x`.
            out.push_str(&pad);
            out.push_str("- ");
            out.push_str(&first[indent + 2..]);
            for (k, v) in rest {
                entry(out, indent + 2, k, v);
            }
        }
        Value::Array(list) => {
            let _ = writeln!(out, "{pad}-");
            for v in list {
                item(out, indent + 2, v);
            }
        }
        Value::String(s) => {
            let _ = writeln!(out, "{pad}- {}", block_text(s, indent + 2));
        }
        other => {
            let _ = writeln!(out, "{pad}- {}", inline(other, usize::MAX).expect("BUG: scalars are inline"));
        }
    }
}

/// The value on one line, if it fits in `room` and has no nested collections of collections.
/// An empty collection is always on one line: it has no block form.
fn inline(value: &Value, room: usize) -> Option<String> {
    let text = match value {
        Value::Array(list) if list.is_empty() => return Some("[]".to_owned()),
        Value::Object(map) if map.is_empty() => return Some("{}".to_owned()),
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.contains('\n') => return None,
        Value::String(s) => scalar_text(s, false),
        Value::Array(list) => {
            let parts: Option<Vec<String>> = list.iter().map(|v| flow(v, 1)).collect();
            format!("[{}]", parts?.join(", "))
        }
        Value::Object(map) if !short_keys(map) => return None,
        Value::Object(map) => {
            let parts: Option<Vec<String>> = map.iter().map(|(k, v)| Some(format!("{}: {}", scalar_text(k, true), flow(v, 1)?))).collect();
            format!("{{ {} }}", parts?.join(", "))
        }
    };
    (text.chars().count() <= room).then_some(text)
}

/// A value inside a flow collection: scalars, and one more level of small collections.
fn flow(value: &Value, depth: usize) -> Option<String> {
    match value {
        Value::String(s) if s.contains('\n') => None,
        Value::Array(list) if !list.is_empty() => {
            if depth > 1 {
                return None;
            }
            let parts: Option<Vec<String>> = list.iter().map(|v| flow(v, depth + 1)).collect();
            Some(format!("[{}]", parts?.join(", ")))
        }
        Value::Object(map) if !map.is_empty() => {
            if depth > 1 || !short_keys(map) {
                return None;
            }
            let parts: Option<Vec<String>> = map.iter().map(|(k, v)| Some(format!("{}: {}", scalar_text(k, true), flow(v, depth + 1)?))).collect();
            Some(format!("{{ {} }}", parts?.join(", ")))
        }
        other => inline(other, usize::MAX),
    }
}

/// Text that spans lines: a literal block when its lines allow one, else quoted.
fn block_text(s: &str, indent: usize) -> String {
    let literal_ok = !s.ends_with('\n')
        && !s.starts_with([' ', '\t', '\n'])
        && !s.contains(['\r', '\t'])
        && s.lines().all(|l| !l.ends_with(' '))
        && s.chars().all(|c| !c.is_control() || c == '\n');
    if !literal_ok {
        return quoted(s);
    }
    let pad = " ".repeat(indent);
    let mut out = "|-".to_owned();
    for line in s.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
    }
    out
}

/// A scalar text, plain when that reads back as the same text, else double-quoted.
fn scalar_text(s: &str, key: bool) -> String {
    if plain_ok(s, key) { s.to_owned() } else { quoted(s) }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("BUG: strings always serialize")
}

/// Whether `s` can be written unquoted, in block and flow context alike, and read back as text.
fn plain_ok(s: &str, key: bool) -> bool {
    let Some(first) = s.chars().next() else { return false };
    if !(first.is_alphanumeric() || first == '_' || first == '/' || (!key && first == '$')) {
        return false;
    }
    if s.ends_with(' ') || s.contains("  ") {
        return false;
    }
    let allowed = |c: char| c.is_alphanumeric() || " _-./()'+=;<>$^~@*&!?%".contains(c);
    if !s.chars().all(allowed) {
        return false;
    }
    // Words and numbers the core schema reads as something other than text.
    let lower = s.to_ascii_lowercase();
    if ["true", "false", "null", "~", ".inf", "-.inf", ".nan", "yes", "no", "on", "off", "y", "n"].contains(&lower.as_str()) {
        return false;
    }
    let numeric = s.trim_start_matches(['-', '+']);
    if numeric.parse::<f64>().is_ok() || numeric.starts_with("0x") || numeric.starts_with("0o") || numeric.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_what_reads_back() {
        let value = json!({
            "resources": [{
                "id": "user",
                "description": "A user.\n\nWith two paragraphs.",
                "fields": {
                    "id": { "type": "snowflake" },
                    "tags": { "type": "map<string, integer>", "optional": true },
                    "name": { "type": "string", "description": "yes: no, [x] # y", "max_length": 32 },
                    "200": { "type": "integer | null" },
                }
            }]
        });
        let text = file("imported", &value);
        let back: Value = serde_saphyr::from_str(&text).unwrap();
        assert_eq!(back, value, "{text}");
        assert!(text.contains("id: { type: snowflake }"), "{text}");
    }

    #[test]
    fn a_key_longer_than_yaml_reads_plainly_reads_back() {
        let long = "y".repeat(3000);
        let value = json!({
            "variants": { long.clone(): { "type": "json" }, "short": { "type": "string" } },
            "list": [{ long.clone(): "x" }],
            "block": { long.clone(): { "a": [1, 2], "b": { "c": "line one\nline two" }, "d": "x".repeat(200) } },
        });
        let text = file("", &value);
        let back: Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, value, "{text}");
    }

    #[test]
    fn empty_collections_deeper_than_the_line_is_wide_read_back() {
        // 32 levels of `x: - ` indent past the line width (110), so the empty collections at the
        // bottom have no room left and must still be written inline.
        let mut value = json!({ "a": {}, "b": [], "c": [{}] });
        for _ in 0..32 {
            value = json!({ "x": [value] });
        }
        let text = file("", &value);
        let back: Value = serde_saphyr::from_str_with_options(&text, serde_saphyr::options! { budget: serde_saphyr::budget! { max_depth: 1000 } })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, value);
    }

    #[test]
    fn quotes_what_would_change() {
        for s in ["true", "1.5", "007", "", " x", "a: b", "#x", "-x", "x,y", "{x}", "@me", "~", "NO"] {
            assert!(!plain_ok(s, false), "{s}");
        }
        for s in ["snowflake", "array<object<user>>", "A user.", "/users/@me", "2FA code"] {
            assert!(plain_ok(s, false), "{s}");
        }
    }
}
