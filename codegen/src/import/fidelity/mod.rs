//! How faithfully a spec carries the document it was imported from: the OpenAPI document the
//! spec exports compared with the original, operation by operation (method and path,
//! parameters with their schemas, request bodies per media type, responses per status with
//! their headers and schemas).
//!
//! Schemas are compared by what they accept, not by how they are written. Both documents'
//! schemas are brought to one canonical form first (`Canon`): `$ref`s are followed (so
//! component names do not matter, and recursion is compared by its shape), annotations
//! (descriptions, titles, examples, defaults, deprecation, `x-` extensions, `discriminator`,
//! which only names the member the variants' constants already fix) are dropped, and the
//! spellings that mean the same are made one:
//!
//! - `type: [T, "null"]`, OpenAPI 3.0's `nullable: true` and `oneOf`/`anyOf` with `{type: null}`
//!   are one union with `null`; `oneOf` and `anyOf` are both unions;
//! - `enum`, `const`, `oneOf` of constants, and the exported open enum (its known values and a
//!   catch-all of the base type: enums are open on read) are the same set of known values;
//! - an integer is a range: its `format` (`int32`, `uint8`, ...; none is `int64`, the spec's
//!   `integer`) with its bounds, exclusive bounds made inclusive;
//! - `allOf` is the intersection of its parts (an object's members from every part);
//! - string formats name the same checks however written (`format: byte` or
//!   `contentEncoding: base64`; `format: binary` or `contentEncoding: binary`);
//! - a parameter or a multipart part is text (or bytes) on the wire, where `null` has no
//!   spelling (an absent one is how it is sent), so their `null` is not compared; a body of a media type other than JSON is its bytes, so a schema
//!   that says only that (`{}`, a string, binary or not) is not compared.
//!
//! Each difference left is reported with the place in the original document where the two
//! first disagree, so it can be matched with the construct the importer reported as not
//! imported there.

mod canon;

use canon::{C, Canon, N, annotation, equal, node, text_without_null, without_null};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// One way the exported document differs from the original for one operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// `GET /channels/{channel_id}`.
    pub operation: String,
    /// Where in the operation: `responses/200/application/json/properties/nonce`.
    pub place: String,
    /// The JSON pointer in the original document where the difference sits.
    pub pointer: String,
    /// What differs.
    pub what: String,
}

impl Difference {
    /// The reported construct this difference comes from: one at the place the difference sits,
    /// or inside it (the message of that warning).
    pub fn explanation<'a>(&self, reported: &[Reported<'a>]) -> Option<&'a str> {
        let found = reported.iter().find(|r| r.pointer.starts_with(&self.pointer) || self.pointer.starts_with(r.pointer));
        found.map(|r| r.message)
    }
}

/// A construct the importer reported as not imported (or imported as something else), at the
/// place of the original document its warning names.
#[derive(Clone, Copy, Debug)]
pub struct Reported<'a> {
    /// The JSON pointer, without its `#`: `/paths/~1users/get/parameters/0`.
    pub pointer: &'a str,
    /// The warning's message.
    pub message: &'a str,
}

/// The warnings of an import that name a place of the document (`` `#/paths/...` `` in their
/// message), which the differences of [`compare`] are matched with.
pub fn reported(warnings: &[crate::diag::Diagnostic]) -> Vec<Reported<'_>> {
    let place = |message: &str| {
        let start = message.find("`#")? + 2;
        Some(start..start + message[start..].find('`')?)
    };
    warnings.iter().filter_map(|d| place(&d.message).map(|at| Reported { pointer: &d.message[at], message: &d.message })).collect()
}

/// The comparison of two documents.
#[derive(Debug, Default)]
pub struct Report {
    /// Operations in the original.
    pub operations: usize,
    /// Operations whose export is equivalent.
    pub equivalent: usize,
    /// Every difference, in document order.
    pub differences: Vec<Difference>,
}

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Compares `exported` with `original`, operation by operation.
pub fn compare(original: &Value, exported: &Value) -> Report {
    let mut report = Report::default();
    let empty = Map::new();
    let paths = original.get("paths").and_then(Value::as_object).unwrap_or(&empty);
    for (path, item) in paths {
        let item_pointer = format!("/paths/{}", escape(path));
        for (method, op) in item.as_object().into_iter().flatten().filter(|(m, _)| METHODS.contains(&m.as_str())) {
            report.operations += 1;
            let name = format!("{} {path}", method.to_ascii_uppercase());
            let pointer = format!("{item_pointer}/{method}");
            let mut cmp = Comparison::new(original, exported, &name);
            match exported.get("paths").and_then(|p| p.get(path)).and_then(|i| i.get(method)) {
                Some(theirs) => cmp.operation(item, op, &pointer, theirs, &format!("/paths/{}/{method}", escape(path))),
                None => cmp.differ("", &pointer, "the operation is not in the export".into()),
            }
            if cmp.differences.is_empty() {
                report.equivalent += 1;
            }
            report.differences.extend(cmp.differences);
        }
    }
    report
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// One operation's comparison.
struct Comparison<'d> {
    ours: Canon<'d>,
    theirs: Canon<'d>,
    operation: String,
    differences: Vec<Difference>,
}

impl<'d> Comparison<'d> {
    fn new(original: &'d Value, exported: &'d Value, operation: &str) -> Self {
        Self { ours: Canon::new(original), theirs: Canon::new(exported), operation: operation.to_owned(), differences: Vec::new() }
    }

    fn differ(&mut self, place: &str, pointer: &str, what: String) {
        self.differences.push(Difference { operation: self.operation.clone(), place: place.to_owned(), pointer: pointer.to_owned(), what });
    }

    /// Follows a `$ref` of a parameter, body, response or header to what it names.
    fn deref<'v>(doc: &'v Value, v: &'v Value, pointer: &str) -> (&'v Value, String) {
        let mut v = v;
        let mut pointer = pointer.to_owned();
        for _ in 0..8 {
            match v.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
                Some(p) => match doc.pointer(p) {
                    Some(target) => {
                        v = target;
                        pointer = p.to_owned();
                    }
                    None => break,
                },
                None => break,
            }
        }
        (v, pointer)
    }

    fn operation(&mut self, item: &Value, op: &Value, pointer: &str, theirs: &Value, their_pointer: &str) {
        self.parameters(item, op, pointer, theirs, their_pointer);
        self.request_body(op, pointer, theirs, their_pointer);
        self.responses(op, pointer, theirs, their_pointer);
    }

    fn parameters(&mut self, item: &Value, op: &Value, pointer: &str, theirs: &Value, their_pointer: &str) {
        fn collect(doc: &Value, lists: Vec<(String, Option<&Value>)>) -> BTreeMap<(String, String), (Value, String)> {
            let mut out: BTreeMap<(String, String), (Value, String)> = BTreeMap::new();
            for (base, list) in lists {
                for (i, p) in list.and_then(Value::as_array).into_iter().flatten().enumerate() {
                    let (p, at) = Comparison::deref(doc, p, &format!("{base}/parameters/{i}"));
                    let name = p.get("name").and_then(Value::as_str).unwrap_or_default();
                    let place = p.get("in").and_then(Value::as_str).unwrap_or_default().to_owned();
                    let name = if place == "header" { name.to_ascii_lowercase() } else { name.to_owned() };
                    out.insert((place, name), (p.clone(), at));
                }
            }
            out
        }
        let item_pointer = pointer.rsplit_once('/').map_or("", |(p, _)| p).to_owned();
        let ours = collect(self.ours.doc, vec![(item_pointer, item.get("parameters")), (pointer.to_owned(), op.get("parameters"))]);
        let theirs_list = collect(self.theirs.doc, vec![(their_pointer.to_owned(), theirs.get("parameters"))]);
        for ((place, name), (p, at)) in &ours {
            let where_ = format!("parameters/{place}/{name}");
            let Some((q, their_at)) = theirs_list.get(&(place.clone(), name.clone())) else {
                self.differ(&where_, at, format!("the {place} parameter `{name}` is not in the export"));
                continue;
            };
            let required = |p: &Value| place == "path" || p.get("required").and_then(Value::as_bool) == Some(true);
            if required(p) != required(q) {
                self.differ(
                    &where_,
                    at,
                    format!(
                        "the parameter is {}required in the document and {}required in the export",
                        if required(p) { "" } else { "not " },
                        if required(q) { "" } else { "not " }
                    ),
                );
            }
            let (a, b) = (p.get("schema").cloned().unwrap_or(Value::Bool(true)), q.get("schema").cloned().unwrap_or(Value::Bool(true)));
            self.parameter_schemas(&where_, &a, &format!("{at}/schema"), &b, &format!("{their_at}/schema"));
        }
        for (place, name) in theirs_list.keys().filter(|k| !ours.contains_key(*k)) {
            self.differ(&format!("parameters/{place}/{name}"), pointer, format!("the export has a {place} parameter `{name}` the document does not"));
        }
    }

    fn request_body(&mut self, op: &Value, pointer: &str, theirs: &Value, their_pointer: &str) {
        let ours = op.get("requestBody").map(|b| Self::deref(self.ours.doc, b, &format!("{pointer}/requestBody")));
        let mine = theirs.get("requestBody").map(|b| Self::deref(self.theirs.doc, b, &format!("{their_pointer}/requestBody")));
        let (ours, theirs) = match (ours, mine) {
            (None, None) => return,
            (Some((b, at)), None) => {
                if b.get("content").and_then(Value::as_object).is_some_and(|c| !c.is_empty()) {
                    self.differ("requestBody", &at, "the request body is not in the export".into());
                }
                return;
            }
            (None, Some(_)) => {
                self.differ("requestBody", pointer, "the export has a request body the document does not".into());
                return;
            }
            (Some(a), Some(b)) => (a, b),
        };
        let ((body, at), (their_body, their_at)) = (ours, theirs);
        let required = |b: &Value| b.get("required").and_then(Value::as_bool) == Some(true);
        if required(body) != required(their_body) {
            self.differ(
                "requestBody",
                &at,
                format!(
                    "the body is {}required in the document and {}required in the export",
                    if required(body) { "" } else { "not " },
                    if required(their_body) { "" } else { "not " }
                ),
            );
        }
        self.content("requestBody", body, &at, their_body, &their_at);
    }

    /// The media types of a body or response, each with its schema.
    fn content(&mut self, place: &str, ours: &Value, at: &str, theirs: &Value, their_at: &str) {
        let empty = Map::new();
        let a = ours.get("content").and_then(Value::as_object).unwrap_or(&empty).clone();
        let b = theirs.get("content").and_then(Value::as_object).unwrap_or(&empty).clone();
        for (media, m) in &a {
            let where_ = format!("{place}/{media}");
            let at = format!("{at}/content/{}", escape(media));
            let Some(n) = b.get(media) else {
                self.differ(&where_, &at, format!("media type `{media}` is not in the export"));
                continue;
            };
            let (x, y) = (m.get("schema").cloned().unwrap_or(Value::Bool(true)), n.get("schema").cloned().unwrap_or(Value::Bool(true)));
            // A body of another media type than JSON is its bytes: a schema that only says so
            // (`{}`, a string, binary or not) says nothing more.
            let json = media.contains("json") || media.starts_with("multipart/") || media == "application/x-www-form-urlencoded";
            let bytes_only = |s: &Value| {
                s.as_object().is_none_or(|o| {
                    o.iter().all(|(k, v)| annotation(k) || (k == "type" && v == "string") || ((k == "format" || k == "contentEncoding") && v == "binary"))
                })
            };
            if !json && bytes_only(&x) && bytes_only(&y) {
                continue;
            }
            // A form is name=value pairs like multipart's parts: its members' `null` has no spelling.
            if media.starts_with("multipart/") || media == "application/x-www-form-urlencoded" {
                self.parts(&where_, &x, &format!("{at}/schema"), &y, &format!("{their_at}/content/{}/schema", escape(media)));
                continue;
            }
            self.schemas(&where_, &x, &format!("{at}/schema"), &y, &format!("{their_at}/content/{}/schema", escape(media)));
        }
        for media in b.keys().filter(|k| !a.contains_key(*k)) {
            self.differ(&format!("{place}/{media}"), at, format!("the export has media type `{media}` the document does not"));
        }
    }

    fn responses(&mut self, op: &Value, pointer: &str, theirs: &Value, their_pointer: &str) {
        let empty = Map::new();
        let a = op.get("responses").and_then(Value::as_object).unwrap_or(&empty).clone();
        let b = theirs.get("responses").and_then(Value::as_object).unwrap_or(&empty).clone();
        let key = |s: &str| s.to_ascii_uppercase();
        for (status, r) in &a {
            let where_ = format!("responses/{status}");
            let (r, at) = Self::deref(self.ours.doc, r, &format!("{pointer}/responses/{}", escape(status)));
            let Some((their_status, t)) = b.iter().find(|(s, _)| key(s) == key(status)) else {
                self.differ(&where_, &at, format!("status `{status}` is not in the export"));
                continue;
            };
            let (t, their_at) = Self::deref(self.theirs.doc, t, &format!("{their_pointer}/responses/{}", escape(their_status)));
            let (r, t) = (r.clone(), t.clone());
            self.headers(&where_, &r, &at, &t, &their_at);
            self.content(&where_, &r, &at, &t, &their_at);
        }
        for status in b.keys().filter(|s| !a.keys().any(|k| key(k) == key(s))) {
            self.differ(&format!("responses/{status}"), &format!("{pointer}/responses"), format!("the export has status `{status}` the document does not"));
        }
    }

    fn headers(&mut self, place: &str, ours: &Value, at: &str, theirs: &Value, their_at: &str) {
        let collect = |doc: &'d Value, r: &Value, base: &str| -> BTreeMap<String, (Value, String)> {
            r.get("headers")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(name, h)| {
                    let (h, at) = Self::deref(doc, h, &format!("{base}/headers/{}", escape(name)));
                    (name.to_ascii_lowercase(), (h.clone(), at))
                })
                .collect()
        };
        let a = collect(self.ours.doc, ours, at);
        let b = collect(self.theirs.doc, theirs, their_at);
        for (name, (h, at)) in &a {
            let where_ = format!("{place}/headers/{name}");
            let Some((g, their_at)) = b.get(name) else {
                self.differ(&where_, at, format!("header `{name}` is not in the export"));
                continue;
            };
            let required = |h: &Value| h.get("required").and_then(Value::as_bool) == Some(true);
            if required(h) != required(g) {
                self.differ(
                    &where_,
                    at,
                    format!(
                        "the header is {}required in the document and {}required in the export",
                        if required(h) { "" } else { "not " },
                        if required(g) { "" } else { "not " }
                    ),
                );
            }
            let (x, y) = (h.get("schema").cloned().unwrap_or(Value::Bool(true)), g.get("schema").cloned().unwrap_or(Value::Bool(true)));
            self.schemas(&where_, &x, &format!("{at}/schema"), &y, &format!("{their_at}/schema"));
        }
        for name in b.keys().filter(|k| !a.contains_key(*k)) {
            self.differ(&format!("{place}/headers/{name}"), at, format!("the export has header `{name}` the document does not"));
        }
    }

    /// Compares two parameter schemas: a parameter is text on the wire, where `null` has no
    /// spelling (an absent parameter is how it is sent, a list holds none), so `null` is not
    /// compared at any depth.
    fn parameter_schemas(&mut self, place: &str, ours: &Value, at: &str, theirs: &Value, their_at: &str) {
        let (a, _) = self.ours.schema(ours, at);
        let (b, _) = self.theirs.schema(theirs, their_at);
        let (a, b) = (text_without_null(&a), text_without_null(&b));
        let mut seen = BTreeSet::new();
        for (path, pointer, what) in equal(&a, &b, "", &mut seen) {
            self.differ(&format!("{place}{path}"), &pointer, what);
        }
    }

    /// Compares two multipart or form bodies: an object of parts (or pairs), each text or
    /// bytes, where `null` has no spelling (an absent part is how it is sent), so a part's
    /// `null` is not compared.
    fn parts(&mut self, place: &str, ours: &Value, at: &str, theirs: &Value, their_at: &str) {
        let (a, _) = self.ours.schema(ours, at);
        let (b, _) = self.theirs.schema(theirs, their_at);
        let strip = |n: &Rc<N>| match &n.c {
            C::Object { props, required, additional, min, max, keys } => node(
                &n.at,
                C::Object {
                    props: props.iter().map(|(k, v)| (k.clone(), without_null(v))).collect(),
                    required: required.clone(),
                    additional: additional.clone(),
                    min: *min,
                    max: *max,
                    keys: keys.clone(),
                },
            ),
            _ => n.clone(),
        };
        let (a, b) = (strip(&a), strip(&b));
        let mut seen = BTreeSet::new();
        for (path, pointer, what) in equal(&a, &b, "", &mut seen) {
            self.differ(&format!("{place}{path}"), &pointer, what);
        }
    }

    /// Compares two schemas by what they accept; every difference is reported.
    fn schemas(&mut self, place: &str, ours: &Value, at: &str, theirs: &Value, their_at: &str) {
        let (a, _) = self.ours.schema(ours, at);
        let (b, _) = self.theirs.schema(theirs, their_at);
        let mut seen = BTreeSet::new();
        for (path, pointer, what) in equal(&a, &b, "", &mut seen) {
            self.differ(&format!("{place}{path}"), &pointer, what);
        }
    }
}
