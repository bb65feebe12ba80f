//! Near-valid OpenAPI documents: a seed document's JSON tree edited the way hand edits and
//! other tools break documents, then written as JSON or YAML.
//!
//! Every choice is read from an [`Unstructured`], like [`crate::mutate`] does for specs. A real
//! document (over a megabyte) is first cut to a few of its paths and the components they refer
//! to, so that one execution stays well under the fuzzer's hang limit while still carrying the
//! real document's shapes. The edits: drop, duplicate or retype members; point `$ref`s at other,
//! missing, remote or malformed targets; cycles of `$ref`; deep nesting of schemas; odd `type`
//! lists; `allOf`/`oneOf`/`anyOf` mixes; huge and negative numbers in constraints; unusual keys
//! and strings. The text is then JSON (compact or pretty) or YAML, sometimes with anchors and
//! aliases, a byte order mark, CRLF, truncation or stray characters.

use crate::mutate::{TextEdits, edit_text, escape, odd_scalar, put, remove};
use crate::seeds::{self, Document};
use arbitrary::{Result, Unstructured};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Above this size, a seed document is cut to a slice of its paths before it is edited.
const SLICE_ABOVE: usize = 64 * 1024;

/// Every seed document as a tree (a seed that does not parse is left out: the raw-text inputs
/// of the corpus cover it).
fn trees() -> &'static [(String, usize, Value)] {
    static TREES: OnceLock<Vec<(String, usize, Value)>> = OnceLock::new();
    TREES.get_or_init(|| seeds::documents().iter().filter_map(|d: &Document| Some((d.name.clone(), d.text.len(), parse(&d.text)?))).collect())
}

fn parse(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok().or_else(|| serde_saphyr::from_str(text).ok())
}

/// A near-valid document chosen and edited by `u`, as text.
pub fn document(u: &mut Unstructured) -> Result<String> {
    let all = trees();
    if all.is_empty() {
        return Ok(String::new());
    }
    let (_, size, seed) = &all[u.choose_index(all.len())?];
    let mut doc = if *size > SLICE_ABOVE { slice(u, seed)? } else { seed.clone() };
    let edits = [0, 1, 1, 1, 1, 2, 2, 3, 5, 8];
    for _ in 0..*u.choose(&edits)? {
        edit(u, &mut doc)?;
    }
    let mut text = render(u, &doc)?;
    if u.ratio(1, 3)? {
        text = edit_text(u, text, &DOCUMENT_TEXT)?;
    }
    Ok(text)
}

/// Some of `doc`'s paths, the components they refer to (transitively), and everything else of
/// the document but its other paths and components.
fn slice(u: &mut Unstructured, doc: &Value) -> Result<Value> {
    let Some(Value::Object(root)) = Some(doc) else { return Ok(doc.clone()) };
    let paths = root.get("paths").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut kept = Map::new();
    for _ in 0..u.int_in_range(1..=6)? {
        if paths.is_empty() {
            break;
        }
        let (path, item) = paths.iter().nth(u.choose_index(paths.len())?).expect("BUG: index in range");
        kept.insert(path.clone(), item.clone());
    }
    let mut out: Map<String, Value> = root.iter().filter(|(k, _)| *k != "paths" && *k != "components").map(|(k, v)| (k.clone(), v.clone())).collect();
    let mut components = Map::new();
    if let Some(schemes) = doc.pointer("/components/securitySchemes") {
        components.insert("securitySchemes".to_owned(), schemes.clone());
    }
    let mut queue = Vec::new();
    refs(&Value::Object(kept.clone()), &mut queue);
    let mut seen = BTreeSet::new();
    while let Some(target) = queue.pop() {
        if !seen.insert(target.clone()) {
            continue;
        }
        let Some(pointer) = target.strip_prefix('#') else { continue };
        let Some(value) = doc.pointer(pointer) else { continue };
        refs(value, &mut queue);
        let mut parts = pointer.splitn(4, '/').skip(1);
        if let (Some("components"), Some(kind), Some(name)) = (parts.next(), parts.next(), parts.next()) {
            let name = name.replace("~1", "/").replace("~0", "~");
            let group = components.entry(kind.to_owned()).or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(group) = group {
                group.insert(name, value.clone());
            }
        }
    }
    out.insert("paths".to_owned(), Value::Object(kept));
    out.insert("components".to_owned(), Value::Object(components));
    Ok(Value::Object(out))
}

/// Every `$ref` target under `value`.
fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    ("$ref", Value::String(target)) => out.push(target.clone()),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// Every node of `value` as a JSON pointer, and which of them are mappings.
fn nodes(value: &Value, pointer: String, out: &mut Vec<(String, bool)>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                nodes(v, format!("{pointer}/{}", escape(k)), out);
            }
        }
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| nodes(v, format!("{pointer}/{i}"), out)),
        _ => {}
    }
    out.push((pointer, value.is_object()));
}

/// One edit of the document.
fn edit(u: &mut Unstructured, doc: &mut Value) -> Result<()> {
    let mut all = Vec::new();
    nodes(doc, String::new(), &mut all);
    let objects: Vec<&str> = all.iter().filter(|(_, o)| *o).map(|(p, _)| p.as_str()).collect();
    let any = u.choose(&all)?.0.clone();
    let object = if objects.is_empty() { String::new() } else { (*u.choose(&objects)?).to_owned() };
    match u.int_in_range(0..=13)? {
        0 => remove(doc, &any),
        1 => duplicate(u, doc, &any)?,
        2 => put(doc, &any, odd_scalar(u)?),
        3 => put(doc, &any, reference(u, doc, &object)?),
        4 => cycle(u, doc)?,
        5 => nest(u, doc, &any)?,
        6 => set(doc, &object, "type", odd_type(u)?),
        7 => compose(u, doc, &object)?,
        8 => {
            let (keyword, number) = (*u.choose(NUMERIC)?, odd_number(u)?);
            set(doc, &object, keyword, number);
        }
        9 => {
            let key = odd_key(u)?;
            rename(u, doc, &object, key)?;
        }
        10 => {
            let borrowed = doc.pointer(&u.choose(&all)?.0).cloned().unwrap_or(Value::Null);
            put(doc, &any, borrowed);
        }
        11 => {
            let key = u.choose(KEYWORDS)?.to_string();
            rename(u, doc, &object, key)?;
        }
        12 => set(doc, &object, u.choose(KEYWORDS)?, odd_scalar(u)?),
        _ => put(doc, &any, Value::String(odd_string(u)?)),
    }
    Ok(())
}

/// Keywords an OpenAPI document holds, for keys put where others were.
const KEYWORDS: &[&str] = &[
    "$ref",
    "type",
    "properties",
    "items",
    "required",
    "enum",
    "const",
    "nullable",
    "format",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "discriminator",
    "additionalProperties",
    "parameters",
    "requestBody",
    "responses",
    "content",
    "schema",
    "in",
    "name",
    "operationId",
    "tags",
    "security",
    "securitySchemes",
    "deprecated",
    "default",
    "example",
    "examples",
    "headers",
    "paths",
    "components",
    "servers",
    "info",
    "openapi",
    "x-discord-union",
    "prefixItems",
    "patternProperties",
    "contentEncoding",
];

/// Numeric keywords, for extreme numbers.
const NUMERIC: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "default",
    "const",
];

/// Sets `key` of the mapping at `pointer` (nothing when it is not a mapping).
fn set(doc: &mut Value, pointer: &str, key: &str, value: Value) {
    if let Some(Value::Object(map)) = doc.pointer_mut(pointer) {
        map.insert(key.to_owned(), value);
    }
}

/// Repeats an item of a list, or copies a member of a mapping under a similar key.
fn duplicate(u: &mut Unstructured, doc: &mut Value, pointer: &str) -> Result<()> {
    let times = if u.ratio(1, 8)? { u.int_in_range(2..=300)? } else { 1 };
    match doc.pointer_mut(pointer) {
        Some(Value::Array(items)) if !items.is_empty() => {
            let i = u.choose_index(items.len())?;
            let item = items[i].clone();
            for _ in 0..times {
                items.insert(i, item.clone());
            }
        }
        Some(Value::Object(map)) if !map.is_empty() => {
            let (key, value) = map.iter().nth(u.choose_index(map.len())?).map(|(k, v)| (k.clone(), v.clone())).expect("BUG: index in range");
            let suffix = *u.choose(&["_", "2", "-copy", "_2", "X", "/"])?;
            map.insert(format!("{key}{suffix}"), value);
        }
        _ => {}
    }
    Ok(())
}

/// A `$ref` to another target of the document, to a missing, remote or malformed one, or to
/// the node itself.
fn reference(u: &mut Unstructured, doc: &Value, here: &str) -> Result<Value> {
    let mut known = Vec::new();
    refs(doc, &mut known);
    let other = if known.is_empty() { "#/components/schemas/Missing".to_owned() } else { u.choose(&known)?.clone() };
    let targets = [
        other,
        "#/components/schemas/Missing".to_owned(),
        "#/components/schemas/".to_owned(),
        "#/components/parameters/x/schema".to_owned(),
        "#/components/schemas/a~2b".to_owned(),
        "#/components/schemas/%7Bx%7D".to_owned(),
        "#/paths/~1a~1{id}/get".to_owned(),
        "#".to_owned(),
        "#/".to_owned(),
        "".to_owned(),
        "https://example.com/schemas.json#/User".to_owned(),
        "other.yaml#/components/schemas/User".to_owned(),
        "#/components/schemas/Missing/properties/x".to_owned(),
        format!("#{here}"),
        "#/info".to_owned(),
        "#/components/schemas/\u{202e}é".to_owned(),
    ];
    let target = u.choose(&targets)?.clone();
    Ok(if u.ratio(1, 6)? { json!({ "$ref": target, "description": "a sibling of $ref", "type": "object" }) } else { json!({ "$ref": target }) })
}

/// A cycle of `$ref`s between component schemas: a schema that is only a reference to itself,
/// two that refer to each other, or one that contains itself through a property, an item or a
/// composition.
fn cycle(u: &mut Unstructured, doc: &mut Value) -> Result<()> {
    let names: Vec<String> = doc.pointer("/components/schemas").and_then(Value::as_object).map(|m| m.keys().cloned().collect()).unwrap_or_default();
    let a = if names.is_empty() { "A".to_owned() } else { u.choose(&names)?.clone() };
    let b = if names.is_empty() { "B".to_owned() } else { u.choose(&names)?.clone() };
    let to = |name: &str| json!({ "$ref": format!("#/components/schemas/{}", escape(name)) });
    let (first, second) = match u.int_in_range(0..=4)? {
        0 => (to(&a), None),
        1 => (to(&b), Some(to(&a))),
        2 => (json!({ "type": "object", "properties": { "next": to(&a) }, "required": ["next"] }), None),
        3 => (json!({ "type": "array", "items": to(&a) }), None),
        _ => (json!({ "allOf": [to(&b), { "type": "object" }] }), Some(json!({ "oneOf": [to(&a), { "type": "string" }] }))),
    };
    let Value::Object(root) = doc else { return Ok(()) };
    let components = root.entry("components").or_insert_with(|| json!({}));
    let Value::Object(components) = components else { return Ok(()) };
    let schemas = components.entry("schemas").or_insert_with(|| json!({}));
    if let Value::Object(schemas) = schemas {
        schemas.insert(a, first);
        if let Some(second) = second {
            schemas.insert(b, second);
        }
    }
    Ok(())
}

/// Wraps a node in schemas (items, properties, compositions) or plain lists, up to hundreds of
/// levels deep.
fn nest(u: &mut Unstructured, doc: &mut Value, pointer: &str) -> Result<()> {
    let depth = u.int_in_range(1..=200)?;
    let how = u.int_in_range(0..=3)?;
    if let Some(slot) = doc.pointer_mut(pointer) {
        let mut value = slot.take();
        for _ in 0..depth {
            value = match how {
                0 => json!({ "type": "array", "items": value }),
                1 => json!({ "type": "object", "properties": { "a": value } }),
                2 => json!({ "allOf": [value] }),
                _ => Value::Array(vec![value]),
            };
        }
        *slot = value;
    }
    Ok(())
}

/// A `type` as 3.1 lists allow and as documents get wrong.
fn odd_type(u: &mut Unstructured) -> Result<Value> {
    let choices = [
        json!(["string", "null"]),
        json!(["null", "integer"]),
        json!(["integer", "string"]),
        json!(["array", "object", "null"]),
        json!([]),
        json!(["null"]),
        json!(["string", "string"]),
        json!("nul"),
        json!("int"),
        json!(5),
        json!({ "type": "string" }),
        json!("object"),
        json!("array"),
        json!("number"),
        json!("boolean"),
        json!("null"),
    ];
    Ok(u.choose(&choices)?.clone())
}

/// The mapping at `pointer` composed with another schema of the document, or with a scalar
/// schema, through `allOf`, `oneOf`, `anyOf` or `not`, sometimes several at once and with a
/// discriminator.
fn compose(u: &mut Unstructured, doc: &mut Value, pointer: &str) -> Result<()> {
    let mut known = Vec::new();
    refs(doc, &mut known);
    let other = if known.is_empty() { json!({ "type": "string" }) } else { json!({ "$ref": u.choose(&known)?.clone() }) };
    let Some(slot) = doc.pointer_mut(pointer) else { return Ok(()) };
    let current = slot.take();
    let keyword = *u.choose(&["allOf", "oneOf", "anyOf", "not"])?;
    let mut composed = if keyword == "not" { json!({ "not": current }) } else { json!({ keyword: [current, other] }) };
    if u.ratio(1, 3)? {
        composed[*u.choose(&["allOf", "oneOf", "anyOf"])?] = json!([{ "type": "integer" }, { "type": "object", "properties": { "kind": { "const": 1 } } }]);
    }
    if u.ratio(1, 3)? {
        let mapping = if u.arbitrary()? { json!({ "1": "#/components/schemas/Missing", "x": "#/components/schemas/A" }) } else { json!({}) };
        composed["discriminator"] = json!({ "propertyName": *u.choose(&["kind", "type", "", "missing"])?, "mapping": mapping });
    }
    *slot = composed;
    Ok(())
}

/// A number no constraint expects: huge, negative, fractional, past `u64`.
fn odd_number(u: &mut Unstructured) -> Result<Value> {
    let choices = [
        json!(-1),
        json!(0),
        json!(-0.0),
        json!(0.5),
        json!(i64::MIN),
        json!(i64::MAX),
        json!(u64::MAX),
        json!(1e300),
        json!(-1e300),
        json!(f64::MIN_POSITIVE),
        json!(9_007_199_254_740_993_u64),
        json!("12"),
    ];
    Ok(u.choose(&choices)?.clone())
}

/// A string documents rarely hold where it is put.
fn odd_string(u: &mut Unstructured) -> Result<String> {
    let long = "y".repeat(u.int_in_range(0..=20_000)?);
    let choices = [
        String::new(),
        long,
        "/a/{id}/{id}".to_owned(),
        "/a/{".to_owned(),
        "{id}".to_owned(),
        "get".to_owned(),
        "3.1.0".to_owned(),
        "3.0".to_owned(),
        "2.0".to_owned(),
        "é\u{202e}💥\u{feff}".to_owned(),
        "\u{0}\u{7}\u{1b}[31m".to_owned(),
        "a b/c:d~e".to_owned(),
        "Some(x)".to_owned(),
        "int64".to_owned(),
        "date-time".to_owned(),
        "#/components/schemas".to_owned(),
        "\\u0000".to_owned(),
        "null".to_owned(),
    ];
    Ok(u.choose(&choices)?.clone())
}

/// A key documents rarely hold: empty, a keyword, unusual characters, a name that clashes once
/// cased.
fn odd_key(u: &mut Unstructured) -> Result<String> {
    let choices = ["", " ", "~1", "/", "{", "self", "type", "Type", "TYPE", "r#type", "1st", "a-b", "a_b", "aB", "é", "💥", "\u{0}", "x-", "$ref", "__proto__"];
    Ok(u.choose(&choices)?.to_string())
}

/// Renames a member of the mapping at `pointer` (the value stays).
fn rename(u: &mut Unstructured, doc: &mut Value, pointer: &str, new: String) -> Result<()> {
    if let Some(Value::Object(map)) = doc.pointer_mut(pointer)
        && !map.is_empty()
    {
        let old = map.keys().nth(u.choose_index(map.len())?).expect("BUG: index in range").clone();
        let value = map.shift_remove(&old).expect("BUG: the key is in the map");
        map.insert(new, value);
    }
    Ok(())
}

/// The document as JSON (compact or pretty) or YAML (the importer's own writer, or
/// serde-saphyr's), sometimes with anchors and aliases.
fn render(u: &mut Unstructured, doc: &Value) -> Result<String> {
    Ok(match u.int_in_range(0..=4)? {
        0 => serde_json::to_string(doc).expect("BUG: JSON values serialize"),
        1 => serde_json::to_string_pretty(doc).expect("BUG: JSON values serialize"),
        2 => anchored(u, platform_codegen::import::yaml::file("", doc))?,
        3 => serde_saphyr::to_string(doc).unwrap_or_else(|_| serde_json::to_string(doc).expect("BUG: JSON values serialize")),
        _ => platform_codegen::import::yaml::file("", doc),
    })
}

/// YAML text with one value anchored and another line's value made an alias of it (often a
/// different shape from what was there, or the anchor's own ancestor).
fn anchored(u: &mut Unstructured, text: String) -> Result<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let keyed: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(": ")).collect();
    if keyed.len() < 2 {
        return Ok(text);
    }
    let (a, b) = (*u.choose(&keyed)?, *u.choose(&keyed)?);
    let at = lines[a].find(": ").expect("BUG: keyed lines hold `: `") + 2;
    lines[a].insert_str(at, "&fz ");
    let at = lines[b].find(": ").expect("BUG: keyed lines hold `: `") + 2;
    lines[b].truncate(at);
    lines[b].push_str("*fz");
    Ok(lines.join("\n") + "\n")
}

/// The text edits of an OpenAPI document, JSON's punctuation among what they insert.
const DOCUMENT_TEXT: TextEdits = TextEdits {
    inserts: &["\t", "\u{0}", "\u{fffe}", "\r", "\u{85}", "\u{2028}", "\"", "}", "]", ",", "//", "&a ", "*a", "!!binary ", "? ", "<<: "],
    second_document: "\n---\n",
    directives: "%YAML 1.1\n---\n",
    prefix: "openapi: 3.1.0\n",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_document_is_cut_to_its_paths_and_what_they_refer_to() {
        let (_, _, discord) = trees().iter().find(|(name, _, _)| name.ends_with("discord/openapi.json")).expect("the Discord document is a seed");
        let bytes: Vec<u8> = (0..64).collect();
        let cut = slice(&mut Unstructured::new(&bytes), discord).unwrap();
        let text = serde_json::to_string(&cut).unwrap();
        assert!(text.len() < 200_000, "the slice holds {} bytes", text.len());
        let mut targets = Vec::new();
        refs(&cut, &mut targets);
        for target in targets {
            assert!(cut.pointer(target.trim_start_matches('#')).is_some(), "the slice lacks {target}");
        }
    }
}
