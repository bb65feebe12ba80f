//! Pagination, once every item is written: an operation the document marks as paginated, or
//! one that follows a recognised convention, gets the endpoint's `pagination` when its
//! parameters and answer have the members that convention needs.
//!
//! - **Dropshot** (`x-dropshot-pagination`, Oxide): the query parameters `page_token` and
//!   `limit`, an answer with `items` and a `next_page` token that is `null` on the last page.
//!   An operation so marked whose shapes do not fit is reported, and keeps no pagination.
//! - **Keyset by `after`** (Discord and many others): an operation the document does not mark,
//!   with the query parameters `after` and `limit` and no `around` (which centres a window
//!   rather than moving on), answering a list of objects whose `id` is of `after`'s type. The
//!   document says nothing of it, so the endpoint marks the pagination `assumed`.
//! - **Links** (RFC 8288; GitHub and others): an operation the document does not mark, with a
//!   `page` query parameter, whose one success answer is a list with a `Link` header of text:
//!   the next page's address is in the header, its `page` the next request's. `per_page` or
//!   `limit`, when an integer, bounds a page. Marked `assumed` likewise.

use super::document::Document;
use super::spec::{Endpoint, Field, Gap, Pagination, ResponseUse, SpecFile};
use crate::diag::{Diagnostic, Diagnostics, codes};
use indexmap::IndexMap;
use std::collections::HashMap;

/// What the document says, or suggests, of an operation's pagination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// `x-dropshot-pagination`.
    Dropshot,
}

/// The note on an endpoint whose pagination follows the `after` convention.
const AFTER_ASSUMED: &str = "the document declares no pagination; the query parameters `after` and `limit` and the items' `id` follow the keyset convention";

/// The note on an endpoint whose pagination follows the link convention.
const LINK_ASSUMED: &str =
    "the document declares no pagination; the `page` query parameter and the answer's `Link` header follow the link convention (RFC 8288)";

/// Gives each endpoint the pagination its hint or convention resolves to.
pub(super) fn paginate(cx: &mut Diagnostics, doc: &Document, files: &mut IndexMap<String, SpecFile>) {
    let shapes = Shapes::of(files);
    let mut found: Vec<(usize, usize, Result<Pagination, String>)> = Vec::new();
    for (fi, file) in files.values().enumerate() {
        for (ei, e) in file.endpoints.iter().enumerate() {
            let result = match e.paging_hint {
                Some(Hint::Dropshot) => Some(shapes.dropshot(e)),
                None => shapes.after_convention(e).or_else(|| shapes.link_convention(e)).map(Ok),
            };
            if let Some(result) = result {
                found.push((fi, ei, result));
            }
        }
    }
    for (fi, ei, result) in found {
        let e = &mut files[fi].endpoints[ei];
        match result {
            Ok(p) => {
                if e.paging_hint.is_none() {
                    let why = if p.link.is_some() { LINK_ASSUMED } else { AFTER_ASSUMED };
                    e.meta.assumed.insert("pagination".to_owned(), why.to_owned());
                }
                e.pagination = Some(p);
            }
            Err(why) => {
                let pointer = format!("{}/x-dropshot-pagination", e.pointer);
                cx.push(
                    Diagnostic::warning(codes::IMPORT_UNMAPPED, format!("`x-dropshot-pagination` of `{}` is not imported", e.meta.id))
                        .at(doc.span(&pointer), "not imported")
                        .note(why.clone())
                        .help("the spec records it as a gap on the item (`not_shown`), so `coverage` lists it"),
                );
                e.meta.not_shown.push(Gap { facet: "details", detail: format!("`x-dropshot-pagination` is not imported: {why}") });
            }
        }
    }
}

/// The resources and named responses of the files, by id.
struct Shapes<'f> {
    resources: HashMap<&'f str, (&'f [String], &'f IndexMap<String, Field>)>,
    responses: HashMap<&'f str, &'f super::spec::Response>,
    headers: HashMap<&'f str, &'f Field>,
}

/// A success answer's body: its type, or its fields.
struct Body<'f> {
    ty: Option<&'f str>,
    fields: Option<IndexMap<String, &'f Field>>,
}

impl<'f> Shapes<'f> {
    fn of(files: &'f IndexMap<String, SpecFile>) -> Self {
        let mut resources = HashMap::new();
        let mut responses = HashMap::new();
        let mut headers = HashMap::new();
        for file in files.values() {
            for (id, h) in &file.headers {
                headers.insert(id.as_str(), h);
            }
            for r in &file.resources {
                resources.insert(r.meta.id.as_str(), (r.extends.as_slice(), &r.fields));
            }
            for (id, r) in &file.responses {
                responses.insert(id.as_str(), r);
            }
        }
        Shapes { resources, responses, headers }
    }

    /// The fields of a resource, its bases' first.
    fn fields(&self, id: &str, depth: u8) -> Option<IndexMap<String, &'f Field>> {
        let (extends, own) = self.resources.get(id)?;
        let mut out = IndexMap::new();
        for base in extends.iter().filter(|_| depth < 16) {
            out.extend(self.fields(base, depth + 1)?);
        }
        out.extend(own.iter().map(|(k, f)| (k.clone(), f)));
        Some(out)
    }

    /// The fields of a value of type `ty`, when it is a resource.
    fn object_fields(&self, ty: &str) -> Option<IndexMap<String, &'f Field>> {
        self.fields(ty.strip_prefix("object<")?.strip_suffix('>')?, 0)
    }

    /// The body of the endpoint's one success answer.
    fn success_body(&self, e: &'f Endpoint) -> Option<Body<'f>> {
        let mut successes = e.responses.iter().filter(|(status, _)| status.starts_with('2'));
        let (_, only) = successes.next()?;
        if successes.next().is_some() {
            return None;
        }
        let r = match only {
            ResponseUse::Named(id) => *self.responses.get(id.as_str())?,
            ResponseUse::Inline(r) => r,
        };
        if !r.fields.is_empty() {
            return Some(Body { ty: None, fields: Some(r.fields.iter().map(|(k, f)| (k.clone(), f)).collect()) });
        }
        let ty = r.ty.as_deref()?;
        Some(Body { ty: Some(ty), fields: self.object_fields(ty) })
    }

    /// The pagination of the link convention, when the operation follows it: a `page` query
    /// parameter and a list answered with a `Link` header.
    fn link_convention(&self, e: &Endpoint) -> Option<Pagination> {
        let page = e.query.get("page")?;
        if e.method != "GET" || !matches!(page.ty.as_deref(), Some("integer" | "int32" | "uint32" | "uint64" | "string")) {
            return None;
        }
        let mut successes = e.responses.iter().filter(|(status, _)| status.starts_with('2'));
        let (_, only) = successes.next()?;
        let r = match only {
            ResponseUse::Named(id) => *self.responses.get(id.as_str())?,
            ResponseUse::Inline(r) => r,
        };
        if successes.next().is_some() || !r.ty.as_deref().is_some_and(|t| t.starts_with("array<")) {
            return None;
        }
        let header = r.headers.iter().find_map(|(name, h)| {
            let f = match h {
                super::spec::HeaderUse::Inline(f) => &**f,
                super::spec::HeaderUse::Named(id) => self.headers.get(id.as_str())?,
            };
            let wire = f.wire_name.as_deref().unwrap_or(name);
            (wire.eq_ignore_ascii_case("link") && f.ty.as_deref() == Some("string")).then_some(name)
        })?;
        let limit = ["per_page", "limit"].into_iter().find(|l| e.query.get(*l).is_some_and(is_integer));
        Some(Pagination::link("page", header, limit))
    }

    /// Dropshot's pagination, or why the operation's shapes do not fit it.
    fn dropshot(&self, e: &Endpoint) -> Result<Pagination, String> {
        let query = |name: &str| e.query.get(name).ok_or_else(|| format!("the operation has no query parameter `{name}`"));
        let (token, limit) = (query("page_token")?, query("limit")?);
        let body = self.success_body(e).ok_or("the operation has no one success answer with a body")?;
        let fields = body.fields.ok_or("the answer is not an object")?;
        let items = fields.get("items").ok_or("the answer has no `items`")?;
        let next = fields.get("next_page").ok_or("the answer has no `next_page`")?;
        if !items.ty.as_deref().is_some_and(|t| t.starts_with("array<")) {
            return Err("the answer's `items` is not a list".to_owned());
        }
        if next.ty != token.ty || !(next.optional || next.nullable) {
            return Err("the answer's `next_page` is not an optional token of `page_token`'s type".to_owned());
        }
        if !is_integer(limit) {
            return Err("the query parameter `limit` is not an integer".to_owned());
        }
        Ok(Pagination::cursor("page_token", "next_page", Some("items"), Some("limit")))
    }

    /// The keyset pagination of the `after` convention, when the operation follows it.
    fn after_convention(&self, e: &Endpoint) -> Option<Pagination> {
        let (after, limit) = (e.query.get("after")?, e.query.get("limit")?);
        if e.query.contains_key("around") || !is_integer(limit) || e.method != "GET" {
            return None;
        }
        let ty = self.success_body(e)?.ty?;
        let element = ty.trim_end_matches(" | null").strip_prefix("array<")?.strip_suffix('>')?;
        let id = self.object_fields(element)?.get("id").copied()?;
        (id.ty.is_some() && id.ty == after.ty && !id.nullable).then(|| Pagination::keyset("after", "id", None, Some("limit")))
    }
}

fn is_integer(f: &Field) -> bool {
    matches!(f.ty.as_deref(), Some("integer" | "int32" | "uint32" | "uint64"))
}
