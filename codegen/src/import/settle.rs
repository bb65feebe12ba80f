//! What is settled once every item is written, since it needs items side by side:
//!
//! - **`allOf` as an intersection.** A resource extends its bases, and may narrow a base's
//!   field but not change its type; a document's `allOf` may give one property a different
//!   named type in each part (a base's status enum, a derived part's narrower one). Such a
//!   resource is written out whole, the derived part's field winning, instead of extending.
//! - **Defaults of required members**, which are never used: kept in words.
//! - **Names the document keeps apart and generated code would not**: `StartTime`,
//!   `StartTime<` and `StartTime>` are one identifier once case-converted (`start_time`), and so
//!   are the enum values `ASC` and `asc`. Every identifier of generated code is made from an
//!   id's words ([`case::words`]), so two siblings collide exactly when their words are the
//!   same; the later one is given a `rust_name` and a `c_name` whose words differ, and the
//!   renaming is reported.

use super::document::Document;
use super::spec::{Endpoint, Enum, Field, Gap, HeaderUse, Resource, Response, ResponseUse, SpecFile, Union};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::{Piece, path_segments, route_shape};
use crate::plan::case;
use indexmap::IndexMap;
use std::collections::{BTreeSet, HashMap};

/// Settles `files`: conflicting bases written out, defaults of required members in words, and
/// every collision among siblings (fields of one object with the fields it extends, parameters
/// of one place, parts, variants, enum values) renamed.
pub(super) fn settle(cx: &mut Diagnostics, doc: &Document, files: &mut IndexMap<String, SpecFile>) {
    unroute_what_the_router_cannot_serve(cx, doc, files);
    flatten_narrowing_bases(files);
    let inherited = inherited_keys(files);
    for file in files.values_mut() {
        for (id, f) in &mut file.headers {
            nested(cx, &format!("header `{id}`"), f);
        }
        for (id, r) in &mut file.responses {
            response(cx, &format!("response `{id}`"), r);
        }
        for e in &mut file.enums {
            enum_values(cx, e);
        }
        for u in &mut file.unions {
            union(cx, u);
        }
        for r in &mut file.resources {
            resource(cx, r, &inherited);
        }
        for e in &mut file.endpoints {
            endpoint(cx, e);
        }
    }
}

/// Operations the router cannot serve keep no route, reported where the document declares
/// them: a path it cannot read (unpaired braces, placeholders side by side), and a later
/// operation of a method and path shape an earlier one has (operations told apart by a query
/// or fragment written into the path, `{id}.json` beside `{id}.xml`) or that names a segment
/// apart from it. Each is still an endpoint, with its path, for the docs and the client types.
fn unroute_what_the_router_cannot_serve(cx: &mut Diagnostics, doc: &Document, files: &mut IndexMap<String, SpecFile>) {
    let mut routes: HashMap<(String, String), String> = HashMap::new();
    let mut shapes: HashMap<String, (String, Vec<Option<String>>)> = HashMap::new();
    for e in files.values_mut().flat_map(|f| &mut f.endpoints).filter(|e| !e.method.is_empty()) {
        let why = match path_segments(&e.path) {
            Err(why) => Some(why),
            Ok(segments) => {
                let names: Vec<Option<String>> =
                    segments.iter().map(|s| s.iter().find_map(|p| if let Piece::Param(n) = p { Some((*n).to_owned()) } else { None })).collect();
                let shape = route_shape(&e.path);
                if let Some(first) = routes.get(&(e.method.clone(), shape.clone())) {
                    Some(format!("`{} {}` has the shape of `{first}`'s route, and the router tells routes apart by method and path alone", e.method, e.path))
                } else if let Some((first, _)) = shapes.get(&shape).filter(|(_, n)| *n != names) {
                    Some(format!("`{}` names a placeholder apart from `{first}`'s path of the same shape, and the router names each segment once", e.path))
                } else {
                    routes.insert((e.method.clone(), shape.clone()), e.meta.id.clone());
                    shapes.entry(shape).or_insert((e.meta.id.clone(), names));
                    None
                }
            }
        };
        let Some(why) = why else { continue };
        let pointer = e.pointer.clone();
        cx.push(
            Diagnostic::warning(codes::IMPORT_UNMAPPED, format!("the route of `{}` at `#{pointer}` is not imported", e.meta.id))
                .at(doc.span(&pointer), "not routed")
                .note(why.clone())
                .help("the endpoint is kept without a method, so `coverage` lists it; give it a path of its own to route it"),
        );
        e.meta.not_shown.push(Gap { facet: "method", detail: format!("the route at `#{pointer}` is not imported: {why}") });
        e.method.clear();
    }
}

/// Every field a resource has through its bases, bases first, by name.
pub(super) fn inherited_fields(
    by_id: &HashMap<String, (Vec<String>, IndexMap<String, Field>)>,
    id: &str,
    seen: &mut BTreeSet<String>,
) -> IndexMap<String, Field> {
    let mut out = IndexMap::new();
    let Some((bases, _)) = by_id.get(id) else { return out };
    for base in bases {
        if !seen.insert(base.clone()) {
            continue;
        }
        out.extend(inherited_fields(by_id, base, seen));
        if let Some((_, fields)) = by_id.get(base) {
            out.extend(fields.iter().map(|(k, f)| (k.clone(), f.clone())));
        }
    }
    out
}

/// Resources whose own fields give a base's field another type are written out whole.
fn flatten_narrowing_bases(files: &mut IndexMap<String, SpecFile>) {
    let by_id: HashMap<String, (Vec<String>, IndexMap<String, Field>)> =
        files.values().flat_map(|f| &f.resources).map(|r| (r.meta.id.clone(), (r.extends.clone(), r.fields.clone()))).collect();
    for r in files.values_mut().flat_map(|f| &mut f.resources).filter(|r| !r.extends.is_empty()) {
        let inherited = inherited_fields(&by_id, &r.meta.id, &mut BTreeSet::new());
        let narrowed: Vec<&String> =
            r.fields.iter().filter(|(k, f)| inherited.get(*k).is_some_and(|b| b.ty.is_some() && f.ty.is_some() && b.ty != f.ty)).map(|(k, _)| k).collect();
        if narrowed.is_empty() {
            continue;
        }
        let list = narrowed.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
        r.meta.notes.push(format!(
            "Every part of the document's `allOf` ({}) holds; {list} of this object has a type of its own there, so its fields are written out whole.",
            r.extends.join(", ")
        ));
        let mut fields = inherited;
        for (k, f) in std::mem::take(&mut r.fields) {
            fields.insert(k, f);
        }
        r.fields = fields;
        r.extends.clear();
    }
}

/// A default of a member that is always sent is never used: it stays in words.
fn required_default(f: &mut Field) {
    if !f.optional
        && let Some(d) = f.default.take()
    {
        f.default_text = Some(match d {
            serde_json::Value::String(s) => s,
            other => other.to_string(),
        });
    }
}

/// The collision keys of each resource's fields, with those of the resources it extends.
fn inherited_keys(files: &IndexMap<String, SpecFile>) -> HashMap<String, BTreeSet<String>> {
    let by_id: HashMap<&str, &Resource> = files.values().flat_map(|f| &f.resources).map(|r| (r.meta.id.as_str(), r)).collect();
    let mut out = HashMap::new();
    for r in by_id.values() {
        let mut keys = BTreeSet::new();
        let mut stack: Vec<&str> = r.extends.iter().map(String::as_str).collect();
        let mut seen = BTreeSet::new();
        while let Some(base) = stack.pop() {
            let Some(b) = by_id.get(base).filter(|_| seen.insert(base)) else {
                continue;
            };
            keys.extend(b.fields.iter().map(|(name, f)| key(f.rust_name.as_deref().unwrap_or(name))));
            stack.extend(b.extends.iter().map(String::as_str));
        }
        out.insert(r.meta.id.clone(), keys);
    }
    out
}

/// The identifier every case of an id shares: its words, lowercase.
fn key(id: &str) -> String {
    case::snake(id)
}

/// The id with the symbols that case conversion drops spelled out (`StartTime<` gives
/// `StartTime_lt_`), so its words differ from its siblings'.
fn spelled(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars() {
        let word = match c {
            '<' => "lt",
            '>' => "gt",
            '=' => "eq",
            '!' => "not",
            '.' => "dot",
            '+' => "plus",
            '*' => "star",
            '@' => "at",
            '$' => "dollar",
            '#' => "hash",
            '&' => "and",
            '|' => "or",
            '~' => "tilde",
            '%' => "percent",
            c => {
                out.push(c);
                continue;
            }
        };
        out.push('_');
        out.push_str(word);
        out.push('_');
    }
    out
}

/// A name for `id` whose key is not in `taken`.
fn fresh(id: &str, taken: &BTreeSet<String>) -> String {
    let spelled = case::snake(&spelled(id));
    if !taken.contains(&key(&spelled)) && !key(&spelled).is_empty() {
        return spelled;
    }
    (2..).map(|n| format!("{spelled}_{n}")).find(|name| !taken.contains(&key(name))).expect("BUG: some suffix is free")
}

/// Renames the later of siblings that share a key; `taken` starts with keys already used in
/// the scope (inherited fields).
fn siblings<'a>(
    cx: &mut Diagnostics,
    scope: &str,
    mut taken: BTreeSet<String>,
    names: impl Iterator<Item = (&'a str, &'a mut Option<String>, &'a mut Option<String>)>,
) {
    let mut owner: HashMap<String, String> = HashMap::new();
    for (id, rust_name, c_name) in names {
        let k = key(rust_name.as_deref().unwrap_or(id));
        if taken.insert(k.clone()) {
            owner.insert(k, id.to_owned());
            continue;
        }
        let name = fresh(id, &taken);
        taken.insert(key(&name));
        let other = owner.get(&k).map_or_else(|| "an inherited field".to_owned(), |o| format!("`{o}`"));
        cx.push(
            Diagnostic::warning(codes::IMPORT_RENAMED, format!("`{id}` and {other} in {scope} are one identifier in generated code (`{k}`)"))
                .note(format!("`{id}` is given `rust_name: {name}` and `c_name: {name}`; the wire keeps its name"))
                .help("rename it in the imported spec if another name reads better"),
        );
        *rust_name = Some(name.clone());
        *c_name = Some(name);
    }
}

fn fields(cx: &mut Diagnostics, scope: &str, taken: BTreeSet<String>, map: &mut IndexMap<String, Field>) {
    map.values_mut().for_each(required_default);
    siblings(cx, scope, taken, map.iter_mut().map(|(id, f)| (id.as_str(), &mut f.rust_name, &mut f.c_name)));
    for (id, f) in map.iter_mut() {
        nested(cx, &format!("`{id}` of {scope}"), f);
    }
}

/// The fields of an inline object.
fn nested(cx: &mut Diagnostics, scope: &str, f: &mut Field) {
    if !f.fields.is_empty() {
        fields(cx, scope, BTreeSet::new(), &mut f.fields);
    }
}

fn enum_values(cx: &mut Diagnostics, e: &mut Enum) {
    let scope = format!("the values of enum `{}`", e.meta.id);
    siblings(cx, &scope, BTreeSet::new(), e.values.iter_mut().map(|v| (v.meta.id.as_str(), &mut v.meta.rust_name, &mut v.meta.c_name)));
}

fn union(cx: &mut Diagnostics, u: &mut Union) {
    fields(cx, &format!("the variants of union `{}`", u.meta.id), BTreeSet::new(), &mut u.variants);
}

fn resource(cx: &mut Diagnostics, r: &mut Resource, inherited: &HashMap<String, BTreeSet<String>>) {
    let taken = inherited.get(&r.meta.id).cloned().unwrap_or_default();
    fields(cx, &format!("the fields of resource `{}`", r.meta.id), taken, &mut r.fields);
}

fn response(cx: &mut Diagnostics, scope: &str, r: &mut Response) {
    fields(cx, &format!("the body of {scope}"), BTreeSet::new(), &mut r.fields);
    let headers = r.headers.iter_mut().filter_map(|(id, h)| match h {
        HeaderUse::Inline(f) => Some((id.as_str(), &mut f.rust_name, &mut f.c_name)),
        HeaderUse::Named(_) => None,
    });
    siblings(cx, &format!("the headers of {scope}"), BTreeSet::new(), headers);
}

fn endpoint(cx: &mut Diagnostics, e: &mut Endpoint) {
    let id = e.meta.id.clone();
    fields(cx, &format!("the path parameters of endpoint `{id}`"), BTreeSet::new(), &mut e.path_params);
    fields(cx, &format!("the query parameters of endpoint `{id}`"), BTreeSet::new(), &mut e.query);
    fields(cx, &format!("the header parameters of endpoint `{id}`"), BTreeSet::new(), &mut e.headers);
    fields(cx, &format!("the body of endpoint `{id}`"), BTreeSet::new(), &mut e.body);
    fields(cx, &format!("the parts of endpoint `{id}`"), BTreeSet::new(), &mut e.parts);
    if let Some(b) = &mut e.body_schema {
        nested(cx, &format!("the body of endpoint `{id}`"), b);
    }
    for (status, r) in &mut e.responses {
        if let ResponseUse::Inline(r) = r {
            response(cx, &format!("the `{status}` response of endpoint `{id}`"), r);
        }
    }
}
