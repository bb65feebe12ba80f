//! Writes a spec file (a JSON value) as block YAML, remembering on which line each item id,
//! field name and condition parameter is written, so a diagnostic's line leads back to the value
//! to change.
//!
//! Every string and key is written double-quoted with JSON escapes, which YAML reads the same
//! way, so no name of the pool can change the document's structure.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One step into a JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A key of a mapping.
    Key(String),
    /// An element of a sequence.
    Index(usize),
}

/// What a line names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// An item, by the path to its mapping (the line of its `id`).
    Item(Vec<Seg>),
    /// A field, by the path to its mapping (the line of its name).
    Field(Vec<Seg>),
    /// A condition parameter, by the path to the string.
    Param(Vec<Seg>),
}

/// Keys whose mappings are field lists: name to field.
pub const FIELD_MAPS: &[&str] = &["fields", "body", "query", "path_params", "response_fields", "response_columns", "headers", "parts", "variants"];

/// A written file and what each line names (1-based lines).
#[derive(Debug, Default)]
pub struct Written {
    /// The YAML text.
    pub text: String,
    /// Line to what it names.
    pub marks: BTreeMap<usize, Mark>,
}

/// Writes `doc` (a mapping) as YAML.
pub fn write(doc: &Map<String, Value>) -> Written {
    let mut w = Written::default();
    let mut path = Vec::new();
    map_body(&mut w, doc, 0, &mut path, None);
    w
}

fn line(w: &Written) -> usize {
    w.text.matches('\n').count() + 1
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("BUG: a string serializes")
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("null".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(quoted(s)),
        Value::Array(a) if a.is_empty() => Some("[]".into()),
        Value::Object(o) if o.is_empty() => Some("{}".into()),
        _ => None,
    }
}

/// The entries of a mapping at `indent`; the first entry's line is already started when
/// `first_inline` (a sequence item's `- `). `parent` is the key the mapping is the value of.
fn map_body(w: &mut Written, map: &Map<String, Value>, indent: usize, path: &mut Vec<Seg>, parent: Option<&str>) {
    let mut first = true;
    for (key, value) in map {
        if !(first && w.text.ends_with("- ")) {
            w.text.push_str(&" ".repeat(indent));
        }
        first = false;
        let in_field_map = parent.is_some_and(|p| FIELD_MAPS.contains(&p));
        if in_field_map {
            let mut field = path.clone();
            field.push(Seg::Key(key.clone()));
            w.marks.insert(line(w), Mark::Field(field));
        } else if key == "id" {
            w.marks.insert(line(w), Mark::Item(path.clone()));
        }
        w.text.push_str(&quoted(key));
        w.text.push(':');
        path.push(Seg::Key(key.clone()));
        match scalar(value) {
            Some(s) => {
                w.text.push(' ');
                w.text.push_str(&s);
                w.text.push('\n');
            }
            None => {
                w.text.push('\n');
                nested(w, value, indent + 2, path, Some(key));
            }
        }
        path.pop();
    }
}

fn nested(w: &mut Written, value: &Value, indent: usize, path: &mut Vec<Seg>, parent: Option<&str>) {
    match value {
        Value::Object(map) => map_body(w, map, indent, path, parent),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                w.text.push_str(&" ".repeat(indent));
                w.text.push_str("- ");
                if parent == Some("params") {
                    w.marks.insert(line(w), Mark::Param(path.clone()));
                }
                match (scalar(item), item) {
                    (Some(s), _) => {
                        w.text.push_str(&s);
                        w.text.push('\n');
                    }
                    (None, Value::Object(map)) => map_body(w, map, indent + 2, path, None),
                    (None, other) => {
                        w.text.push('\n');
                        nested(w, other, indent + 2, path, None);
                    }
                }
                path.pop();
            }
        }
        other => {
            let s = scalar(other).expect("BUG: scalars are written inline");
            w.text.push_str(&" ".repeat(indent));
            w.text.push_str(&s);
            w.text.push('\n');
        }
    }
}

/// The value at `path`.
pub fn at<'a>(root: &'a mut Map<String, Value>, path: &[Seg]) -> Option<&'a mut Value> {
    let (first, rest) = path.split_first()?;
    let Seg::Key(k) = first else { return None };
    let mut v = root.get_mut(k)?;
    for seg in rest {
        v = match seg {
            Seg::Key(k) => v.get_mut(k)?,
            Seg::Index(i) => v.get_mut(*i)?,
        };
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn marks_lead_back_to_values() {
        let doc = json!({
            "enums": [{ "id": "e", "values": [{ "id": "a" }, { "id": "b\"c" }] }],
            "resources": [{ "id": "r", "fields": { "id": { "type": "string" }, "x": { "type": "integer" } } }],
            "conditions": [{ "id": "c", "params": ["p", "q"] }],
        });
        let Value::Object(map) = doc else { unreachable!() };
        let w = write(&map);
        let marked: Vec<&Mark> = w.marks.values().collect();
        assert!(marked.contains(&&Mark::Item(vec![Seg::Key("enums".into()), Seg::Index(0), Seg::Key("values".into()), Seg::Index(1)])));
        assert!(marked.contains(&&Mark::Field(vec![Seg::Key("resources".into()), Seg::Index(0), Seg::Key("fields".into()), Seg::Key("id".into())])));
        assert!(marked.contains(&&Mark::Param(vec![Seg::Key("conditions".into()), Seg::Index(0), Seg::Key("params".into()), Seg::Index(1)])));
        for (line, mark) in &w.marks {
            let text = w.text.lines().nth(line - 1).unwrap();
            match mark {
                Mark::Item(_) => assert!(text.contains("\"id\":"), "{text}"),
                Mark::Field(p) => assert!(
                    text.contains(&format!(
                        "{:?}:",
                        match p.last() {
                            Some(Seg::Key(k)) => k.as_str(),
                            _ => "",
                        }
                    )),
                    "{text}"
                ),
                Mark::Param(_) => assert!(text.trim_start().starts_with("- "), "{text}"),
            }
        }
    }
}
