//! Rate limits, once every item is written: response headers that follow a rate-limit
//! convention become the spec's `rate_limits`, their roles read from their names.
//!
//! The conventions recognised, by header name (case aside):
//!
//! | role | `X-RateLimit-*` (GitHub, Discord) | `X-Rate-Limit-*` (Twilio) | `RateLimit-*` (IETF draft, DigitalOcean) |
//! |---|---|---|---|
//! | limit | `X-RateLimit-Limit` | `X-Rate-Limit-Limit` | `RateLimit-Limit` |
//! | remaining | `X-RateLimit-Remaining` | `X-Rate-Limit-Remaining` | `RateLimit-Remaining` |
//! | reset (an instant, epoch seconds) | `X-RateLimit-Reset` | `X-Rate-Limit-Reset` | `RateLimit-Reset` when its description says epoch or timestamp |
//! | reset after (seconds) | `X-RateLimit-Reset-After` | | `RateLimit-Reset` otherwise (the draft's delta seconds) |
//! | bucket, scope, global | `X-RateLimit-Bucket`, `-Scope`, `-Global` | | |
//!
//! A document with the limit and remaining headers of one convention gets the block; the roles
//! are the importer's reading of the names, so the block marks `headers` assumed. A `429`
//! answer's body members `retry_after` (a number) and `global` (a boolean) are its members.

use super::spec::{Field, HeaderUse, RateLimits, ResponseUse, SpecFile};
use indexmap::IndexMap;
use std::collections::HashMap;

/// The convention's prefixes, each with the suffix and role of its headers.
const CONVENTIONS: &[(&str, &[(&str, &str)])] = &[
    (
        "x-ratelimit-",
        &[
            ("limit", "limit"),
            ("remaining", "remaining"),
            ("reset", "reset"),
            ("reset-after", "reset_after"),
            ("bucket", "bucket"),
            ("scope", "scope"),
            ("global", "global"),
        ],
    ),
    ("x-rate-limit-", &[("limit", "limit"), ("remaining", "remaining"), ("reset", "reset")]),
    ("ratelimit-", &[("limit", "limit"), ("remaining", "remaining"), ("reset", "reset_after")]),
];

/// Writes `rate_limits` into the platform file when the document's headers follow a convention.
pub(super) fn detect(files: &mut IndexMap<String, SpecFile>, platform_file: &str) {
    let headers = response_headers(files);
    let Some(block) = CONVENTIONS.iter().find_map(|(prefix, roles)| block(&headers, prefix, roles)) else { return };
    let mut block = block;
    let (retry_after, global) = too_many_members(files);
    block.retry_after_member = retry_after;
    block.global_member = global;
    if let Some(f) = files.get_mut(platform_file) {
        f.rate_limits = Some(block);
    }
}

/// Every response header of the files: its name as written, and its description.
fn response_headers(files: &IndexMap<String, SpecFile>) -> HashMap<String, (String, String)> {
    let mut out = HashMap::new();
    let mut add = |name: &str, f: &Field| {
        let wire = f.wire_name.clone().unwrap_or_else(|| name.to_owned());
        out.entry(wire.to_ascii_lowercase()).or_insert((wire, f.description.clone().unwrap_or_default()));
    };
    let named: HashMap<&str, &Field> = files.values().flat_map(|f| f.headers.iter().map(|(id, h)| (id.as_str(), h))).collect();
    let responses = files.values().flat_map(|f| {
        let inline = f.endpoints.iter().flat_map(|e| e.responses.values()).filter_map(|r| match r {
            ResponseUse::Inline(r) => Some(&**r),
            ResponseUse::Named(_) => None,
        });
        f.responses.values().chain(inline)
    });
    for r in responses {
        for (name, h) in &r.headers {
            match h {
                HeaderUse::Inline(f) => add(name, f),
                HeaderUse::Named(id) => {
                    if let Some(f) = named.get(id.as_str()) {
                        add(name, f);
                    }
                }
            }
        }
    }
    out
}

/// The block of one convention, when the document has its limit and remaining headers.
fn block(headers: &HashMap<String, (String, String)>, prefix: &str, roles: &[(&str, &'static str)]) -> Option<RateLimits> {
    let mut found: IndexMap<&'static str, String> = IndexMap::new();
    for (suffix, role) in roles {
        let Some((name, description)) = headers.get(&format!("{prefix}{suffix}")) else { continue };
        let lower = description.to_ascii_lowercase();
        // The draft's reset is a delta; documents that give an instant say so.
        let role = if *suffix == "reset" && (lower.contains("epoch") || lower.contains("timestamp")) { "reset" } else { role };
        found.insert(role, name.clone());
    }
    (found.contains_key("limit") && found.contains_key("remaining")).then(|| RateLimits {
        headers: found.into_iter().map(|(role, name)| (role.to_owned(), name)).collect(),
        assumed: IndexMap::from([(
            "headers".to_owned(),
            format!("the document declares the headers; their roles are read from their names, by the `{prefix}*` convention"),
        )]),
        ..Default::default()
    })
}

/// The members of a `429` answer's body that say how long to wait (`retry_after`, a number)
/// and whether the limit is the global one (`global`, a boolean).
fn too_many_members(files: &IndexMap<String, SpecFile>) -> (Option<String>, Option<String>) {
    let named: HashMap<&str, &super::spec::Response> = files.values().flat_map(|f| f.responses.iter().map(|(id, r)| (id.as_str(), r))).collect();
    let resources: HashMap<&str, &super::spec::Resource> = files.values().flat_map(|f| f.resources.iter().map(|r| (r.meta.id.as_str(), r))).collect();
    let fields_of = |id: &str| {
        let mut out: Vec<(&String, &Field)> = Vec::new();
        let mut queue = vec![id];
        let mut seen = 0;
        while let Some(id) = queue.pop().filter(|_| seen < 16) {
            seen += 1;
            if let Some(r) = resources.get(id) {
                out.extend(&r.fields);
                queue.extend(r.extends.iter().map(String::as_str));
            }
        }
        out
    };
    for e in files.values().flat_map(|f| &f.endpoints) {
        let Some(r) = e.responses.get("429") else { continue };
        let response = match r {
            ResponseUse::Named(id) => named.get(id.as_str()).copied(),
            ResponseUse::Inline(r) => Some(&**r),
        };
        let Some(ty) = response.and_then(|r| r.ty.as_deref()) else { continue };
        let Some(id) = ty.strip_prefix("object<").and_then(|t| t.strip_suffix('>')) else { continue };
        let fields = fields_of(id);
        let member = |name: &str, types: &[&str]| {
            fields.iter().find(|(k, f)| *k == name && f.ty.as_deref().is_some_and(|t| types.contains(&t))).map(|(k, _)| (*k).clone())
        };
        let found = (member("retry_after", &["number", "integer", "float32"]), member("global", &["boolean"]));
        if found.0.is_some() {
            return found;
        }
    }
    (None, None)
}
