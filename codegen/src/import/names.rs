//! Names the document keeps apart and generated code would not: `StartTime`, `StartTime<` and
//! `StartTime>` are one identifier once case-converted (`start_time`), and so are the enum values
//! `ASC` and `asc`. Every identifier of generated code is made from an id's words
//! ([`case::words`]), so two siblings collide exactly when their words are the same; the later
//! one is given a `rust_name` and a `c_name` whose words differ, and the renaming is reported.

use super::spec::{
    Endpoint, Enum, Field, HeaderUse, Resource, Response, ResponseUse, SpecFile, Union,
};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::emit::case;
use indexmap::IndexMap;
use std::collections::{BTreeSet, HashMap};

/// Settles every collision among siblings in `files`: fields of one object (with the fields it
/// extends), parameters of one place, parts, variants and enum values.
pub(super) fn settle(cx: &mut Diagnostics, files: &mut IndexMap<String, SpecFile>) {
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

/// The collision keys of each resource's fields, with those of the resources it extends.
fn inherited_keys(files: &IndexMap<String, SpecFile>) -> HashMap<String, BTreeSet<String>> {
    let by_id: HashMap<&str, &Resource> = files
        .values()
        .flat_map(|f| &f.resources)
        .map(|r| (r.meta.id.as_str(), r))
        .collect();
    let mut out = HashMap::new();
    for r in by_id.values() {
        let mut keys = BTreeSet::new();
        let mut stack: Vec<&str> = r.extends.iter().map(String::as_str).collect();
        let mut seen = BTreeSet::new();
        while let Some(base) = stack.pop() {
            let Some(b) = by_id.get(base).filter(|_| seen.insert(base)) else {
                continue;
            };
            keys.extend(
                b.fields
                    .iter()
                    .map(|(name, f)| key(f.rust_name.as_deref().unwrap_or(name))),
            );
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
    (2..)
        .map(|n| format!("{spelled}_{n}"))
        .find(|name| !taken.contains(&key(name)))
        .expect("BUG: some suffix is free")
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
        let other = owner
            .get(&k)
            .map_or_else(|| "an inherited field".to_owned(), |o| format!("`{o}`"));
        cx.push(
            Diagnostic::warning(
                codes::IMPORT_RENAMED,
                format!(
                    "`{id}` and {other} in {scope} are one identifier in generated code (`{k}`)"
                ),
            )
            .note(format!(
                "`{id}` is given `rust_name: {name}` and `c_name: {name}`; the wire keeps its name"
            ))
            .help("rename it in the imported spec if another name reads better"),
        );
        *rust_name = Some(name.clone());
        *c_name = Some(name);
    }
}

fn fields(
    cx: &mut Diagnostics,
    scope: &str,
    taken: BTreeSet<String>,
    map: &mut IndexMap<String, Field>,
) {
    siblings(
        cx,
        scope,
        taken,
        map.iter_mut()
            .map(|(id, f)| (id.as_str(), &mut f.rust_name, &mut f.c_name)),
    );
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
    siblings(
        cx,
        &scope,
        BTreeSet::new(),
        e.values.iter_mut().map(|v| {
            (
                v.meta.id.as_str(),
                &mut v.meta.rust_name,
                &mut v.meta.c_name,
            )
        }),
    );
}

fn union(cx: &mut Diagnostics, u: &mut Union) {
    fields(
        cx,
        &format!("the variants of union `{}`", u.meta.id),
        BTreeSet::new(),
        &mut u.variants,
    );
}

fn resource(cx: &mut Diagnostics, r: &mut Resource, inherited: &HashMap<String, BTreeSet<String>>) {
    let taken = inherited.get(&r.meta.id).cloned().unwrap_or_default();
    fields(
        cx,
        &format!("the fields of resource `{}`", r.meta.id),
        taken,
        &mut r.fields,
    );
}

fn response(cx: &mut Diagnostics, scope: &str, r: &mut Response) {
    fields(
        cx,
        &format!("the body of {scope}"),
        BTreeSet::new(),
        &mut r.fields,
    );
    let headers = r.headers.iter_mut().filter_map(|(id, h)| match h {
        HeaderUse::Inline(f) => Some((id.as_str(), &mut f.rust_name, &mut f.c_name)),
        HeaderUse::Named(_) => None,
    });
    siblings(
        cx,
        &format!("the headers of {scope}"),
        BTreeSet::new(),
        headers,
    );
}

fn endpoint(cx: &mut Diagnostics, e: &mut Endpoint) {
    let id = e.meta.id.clone();
    fields(
        cx,
        &format!("the path parameters of endpoint `{id}`"),
        BTreeSet::new(),
        &mut e.path_params,
    );
    fields(
        cx,
        &format!("the query parameters of endpoint `{id}`"),
        BTreeSet::new(),
        &mut e.query,
    );
    fields(
        cx,
        &format!("the header parameters of endpoint `{id}`"),
        BTreeSet::new(),
        &mut e.headers,
    );
    fields(
        cx,
        &format!("the body of endpoint `{id}`"),
        BTreeSet::new(),
        &mut e.body,
    );
    fields(
        cx,
        &format!("the parts of endpoint `{id}`"),
        BTreeSet::new(),
        &mut e.parts,
    );
    if let Some(b) = &mut e.body_schema {
        nested(cx, &format!("the body of endpoint `{id}`"), b);
    }
    for (status, r) in &mut e.responses {
        if let ResponseUse::Inline(r) = r {
            response(
                cx,
                &format!("the `{status}` response of endpoint `{id}`"),
                r,
            );
        }
    }
}
