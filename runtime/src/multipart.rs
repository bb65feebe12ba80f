//! Multipart bodies (`multipart/form-data`): the parts of a body, and each declared part read
//! as a file, a text or JSON value.

use crate::server::{self, Rejection};
use crate::validation::Violation;
use crate::wire::FilePart;
use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use serde::de::DeserializeOwned;

/// One part of a multipart body.
#[derive(Debug)]
pub struct Part {
    /// The part's name.
    pub name: String,
    /// The file name, for a file.
    pub filename: Option<String>,
    /// The media type it was sent with.
    pub content_type: Option<String>,
    /// Its bytes.
    pub bytes: Bytes,
}

/// Every part of a `multipart/form-data` body; 400 when the body is not one.
pub async fn multipart(headers: &HeaderMap, bytes: Bytes) -> Result<Vec<Part>, Rejection> {
    let refused = |message: String| Rejection::Invalid(vec![Violation::new("/body", message)]);
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let boundary = multer::parse_boundary(content_type).map_err(|e| refused(format!("not a multipart body: {e}")))?;
    let stream = futures_util::stream::once(async move { Ok::<Bytes, std::convert::Infallible>(bytes) });
    let mut reader = multer::Multipart::new(stream, boundary);
    let mut parts = Vec::new();
    while let Some(field) = reader.next_field().await.map_err(|e| refused(e.to_string()))? {
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        let content_type = field.content_type().map(ToString::to_string);
        let bytes = field.bytes().await.map_err(|e| refused(e.to_string()))?;
        parts.push(Part { name, filename, content_type, bytes });
    }
    Ok(parts)
}

/// The parts of an array: each part named `name` (`repeated`), or `name[0]`, `name[1]`, ...
/// in index order (`indexed`).
fn named<'a>(parts: &'a [Part], name: &str, indexed: bool) -> Vec<&'a Part> {
    if !indexed {
        return parts.iter().filter(|p| p.name == name).collect();
    }
    let index = |p: &Part| p.name.strip_prefix(name)?.strip_prefix('[')?.strip_suffix(']')?.parse::<usize>().ok();
    let mut found: Vec<(usize, &Part)> = parts.iter().filter_map(|p| index(p).map(|i| (i, p))).collect();
    found.sort_by_key(|(i, _)| *i);
    found.into_iter().map(|(_, p)| p).collect()
}

fn absent<T>(pointer: &str, required: bool, out: &mut Vec<Violation>) -> Option<T> {
    if required {
        out.push(Violation::new(pointer, "is required"));
    }
    None
}

fn file(part: &Part) -> FilePart {
    FilePart {
        filename: part.filename.clone(),
        content_type: part.content_type.clone().unwrap_or_else(|| "application/octet-stream".to_owned()),
        bytes: part.bytes.to_vec(),
    }
}

fn text<'a>(part: &'a Part, pointer: &str, out: &mut Vec<Violation>) -> Option<&'a str> {
    std::str::from_utf8(&part.bytes).map_err(|_| out.push(Violation::new(pointer, "is not UTF-8 text"))).ok()
}

/// A file part.
pub fn part_file(parts: &[Part], name: &str, pointer: &str, required: bool, out: &mut Vec<Violation>) -> Option<FilePart> {
    match parts.iter().find(|p| p.name == name) {
        Some(part) => Some(file(part)),
        None => absent(pointer, required, out),
    }
}

/// The files of an array part.
pub fn part_files(parts: &[Part], name: &str, pointer: &str, required: bool, indexed: bool, out: &mut Vec<Violation>) -> Option<Vec<FilePart>> {
    let found = named(parts, name, indexed);
    if found.is_empty() {
        return absent(pointer, required, out);
    }
    Some(found.into_iter().map(file).collect())
}

/// A text part, parsed with `parse`.
pub fn part_text<T>(
    parts: &[Part],
    name: &str,
    pointer: &str,
    required: bool,
    out: &mut Vec<Violation>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<T> {
    let Some(part) = parts.iter().find(|p| p.name == name) else { return absent(pointer, required, out) };
    let text = text(part, pointer, out)?;
    parse(text).map_err(|e| out.push(Violation::new(pointer, e))).ok()
}

/// The text parts of an array, each parsed with `parse`.
pub fn part_texts<T>(
    parts: &[Part],
    name: &str,
    pointer: &str,
    required: bool,
    indexed: bool,
    out: &mut Vec<Violation>,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Option<Vec<T>> {
    let found = named(parts, name, indexed);
    if found.is_empty() {
        return absent(pointer, required, out);
    }
    let before = out.len();
    let mut values = Vec::new();
    for (index, part) in found.into_iter().enumerate() {
        let at = format!("{pointer}/{index}");
        if let Some(value) = text(part, &at, out).and_then(|t| parse(t).map_err(|e| out.push(Violation::new(&at, e))).ok()) {
            values.push(value);
        }
    }
    (out.len() == before).then_some(values)
}

/// A JSON part; a value of the wrong shape is a violation at its JSON pointer.
///
/// A list may come as one part holding the JSON array, or as the part's name repeated with
/// one element in each (how OpenAPI writes an array property of a multipart body, and how
/// form tools send one): repeated parts are read as the array of their values, and a single
/// part that is not an array as an array of one when `T` is a list.
pub fn part_json<T: DeserializeOwned>(parts: &[Part], name: &str, pointer: &str, required: bool, out: &mut Vec<Violation>) -> Option<T> {
    let found = named(parts, name, false);
    let mut values = Vec::with_capacity(found.len());
    for (index, part) in found.iter().enumerate() {
        let at = if found.len() == 1 { pointer.to_owned() } else { format!("{pointer}/{index}") };
        let value: serde_json::Value = serde_json::from_slice(&part.bytes).map_err(|e| out.push(Violation::new(at, e.to_string()))).ok()?;
        values.push(value);
    }
    let value = match values.len() {
        0 => return absent(pointer, required, out),
        1 => values.pop().expect("BUG: one value"),
        _ => serde_json::Value::Array(values),
    };
    let error = match serde_path_to_error::deserialize(&value) {
        Ok(read) => return Some(read),
        Err(e) => e,
    };
    // A list of one sent as its element.
    if !value.is_array()
        && let Ok(read) = T::deserialize(serde_json::Value::Array(vec![value]))
    {
        return Some(read);
    }
    out.push(Violation::new(server::pointer(pointer, error.path()), error.inner().to_string()));
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(name: &str, json: &str) -> Part {
        Part { name: name.to_owned(), filename: None, content_type: Some("application/json".to_owned()), bytes: Bytes::from(json.to_owned()) }
    }

    #[test]
    fn a_list_part_reads_one_array_repeated_parts_or_one_element() {
        let mut out = Vec::new();
        let whole = [part("ids", "[1,2]")];
        assert_eq!(part_json::<Vec<u32>>(&whole, "ids", "/body/ids", true, &mut out), Some(vec![1, 2]));
        let repeated = [part("ids", "1"), part("other", "{}"), part("ids", "2")];
        assert_eq!(part_json::<Vec<u32>>(&repeated, "ids", "/body/ids", true, &mut out), Some(vec![1, 2]));
        let one = [part("ids", "7")];
        assert_eq!(part_json::<Vec<u32>>(&one, "ids", "/body/ids", true, &mut out), Some(vec![7]));
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_wrong_element_is_a_violation_at_its_index_and_repeated_parts_are_no_single_value() {
        let mut out = Vec::new();
        let repeated = [part("ids", "1"), part("ids", "\"x\"")];
        assert_eq!(part_json::<Vec<u32>>(&repeated, "ids", "/body/ids", true, &mut out), None);
        assert_eq!(out[0].pointer, "/body/ids/1");
        out.clear();
        assert_eq!(part_json::<u32>(&[part("n", "1"), part("n", "2")], "n", "/body/n", true, &mut out), None);
        assert_eq!(out.len(), 1);
        out.clear();
        assert_eq!(part_json::<u32>(&[part("n", "{")], "n", "/body/n", true, &mut out), None);
        assert_eq!(out[0].pointer, "/body/n");
    }
}
