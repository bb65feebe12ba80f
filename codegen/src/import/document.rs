//! Reading an OpenAPI document: JSON or YAML text into a JSON value, with the place of every
//! value kept by its JSON pointer, so a construct the importer cannot map is reported where it
//! was written.

use crate::diag::{Diagnostic, Diagnostics, FileId, Sources, Span, codes};
use crate::load::span_of;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::fmt;

type S<T> = serde_saphyr::Spanned<T>;

/// The OpenAPI versions the importer reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// 3.0.x: JSON Schema draft-04-like schemas with `nullable`.
    V30,
    /// 3.1.x: JSON Schema 2020-12 schemas (type lists, `const`, `contentEncoding`).
    V31,
}

/// A parsed document: its root value, the file it came from, and where each value is.
pub struct Document {
    /// The whole document, keys in the order written.
    pub root: Value,
    /// The document in [`Sources`].
    pub file: FileId,
    /// Its OpenAPI version.
    pub version: Version,
    pub(super) spans: HashMap<String, Span>,
}

impl Document {
    /// The span of the value at `pointer`, or of the nearest enclosing value that has one.
    pub fn span(&self, pointer: &str) -> Span {
        nearest_span(&self.spans, pointer).unwrap_or(Span { file: self.file, start: 0, end: 0 })
    }

    /// The value at a JSON pointer (`/components/schemas/User`).
    pub fn at(&self, pointer: &str) -> Option<&Value> {
        self.root.pointer(pointer)
    }
}

/// The span of the value at `pointer` in `spans`, or of the nearest enclosing value that has one.
pub(super) fn nearest_span(spans: &HashMap<String, Span>, pointer: &str) -> Option<Span> {
    let mut p = pointer;
    loop {
        if let Some(span) = spans.get(p) {
            return Some(*span);
        }
        p = &p[..p.rfind('/')?];
    }
}

/// A value of the document with its place: the YAML (or JSON) node tree as serde-saphyr reads it.
enum Node {
    Null,
    Bool(bool),
    Number(Number),
    Text(String),
    List(Vec<S<Node>>),
    Map(Vec<(S<String>, S<Node>)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON or YAML value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Bool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Number(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
                Ok(Node::Number(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
                Number::from_f64(v).map(Node::Number).ok_or_else(|| E::custom("a number JSON cannot hold (NaN or infinite)"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Text(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
                Ok(Node::Text(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element()? {
                    out.push(v);
                }
                Ok(Node::List(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut out = Vec::new();
                while let Some(key) = map.next_key::<S<String>>()? {
                    out.push((key, map.next_value()?));
                }
                Ok(Node::Map(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// Escapes one JSON pointer token (`~` -> `~0`, `/` -> `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The deepest a document may nest: serde-saphyr's default, deeper than the spec loader's
/// (`load::MAX_DEPTH`), since real documents nest schemas in paths in components.
const MAX_DEPTH: usize = 64;

/// Reads `text` (already in `sources` as `file`) as an OpenAPI 3.0 or 3.1 document.
pub fn read(cx: &mut Diagnostics, sources: &Sources, file: FileId) -> Option<Document> {
    let (root, spans) = parse(cx, sources, file)?;
    let version = match root.get("openapi").and_then(Value::as_str) {
        Some(v) if v.starts_with("3.0.") || v == "3.0" => Version::V30,
        Some(v) if v.starts_with("3.1.") || v == "3.1" => Version::V31,
        other => {
            let span = spans.get("/openapi").or_else(|| spans.get("")).copied().unwrap_or(Span { file, start: 0, end: 0 });
            let message = match other {
                Some(v) => format!("OpenAPI version `{v}` is not supported"),
                None if root.get("swagger").is_some() => "Swagger 2.0 documents are not supported".to_owned(),
                None => "the document has no `openapi` version".to_owned(),
            };
            cx.push(Diagnostic::error(codes::IMPORT_DOCUMENT, message).at(span, "here").help("import an OpenAPI 3.0.x or 3.1.x document"));
            return None;
        }
    };
    Some(Document { root, file, version, spans })
}

/// Reads one file (the document, or a file it refers to) as JSON or YAML, with the span of
/// every value by its JSON pointer.
pub fn parse(cx: &mut Diagnostics, sources: &Sources, file: FileId) -> Option<(Value, HashMap<String, Span>)> {
    let text = &sources.file(file).text;
    let options = serde_saphyr::options! { budget: serde_saphyr::budget! { max_depth: MAX_DEPTH } };
    let node: S<Node> = match serde_saphyr::from_str_with_options(text, options) {
        Ok(node) => node,
        Err(err) => {
            let plain = err.without_snippet().to_string();
            let message = match crate::load::breach_of(&err) {
                // serde-saphyr words a breach of its limits as the breach's `Debug` form.
                Some(breach) => crate::load::breach_in_words(breach, "a document", MAX_DEPTH),
                None => plain.split(" at line ").next().unwrap_or(&plain).trim().to_owned(),
            };
            let mut d = Diagnostic::error(codes::IMPORT_DOCUMENT, format!("the document is not valid JSON or YAML: {message}"));
            if let Some(loc) = err.location() {
                d = d.at(span_of(sources, file, &loc), "here");
            }
            cx.push(d);
            return None;
        }
    };
    let mut spans = HashMap::new();
    let root = lower(sources, file, node, String::new(), &mut spans);
    Some((root, spans))
}

fn lower(sources: &Sources, file: FileId, node: S<Node>, pointer: String, spans: &mut HashMap<String, Span>) -> Value {
    spans.insert(pointer.clone(), span_of(sources, file, &node.referenced));
    match node.value {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Number(n) => Value::Number(n),
        Node::Text(s) => Value::String(s),
        Node::List(items) => Value::Array(items.into_iter().enumerate().map(|(i, v)| lower(sources, file, v, format!("{pointer}/{i}"), spans)).collect()),
        Node::Map(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                let child = format!("{pointer}/{}", escape(&key.value));
                let v = lower(sources, file, value, child, spans);
                map.insert(key.value, v);
            }
            Value::Object(map)
        }
    }
}
