//! Rules about values: bits, codes, enum numbers, vocabularies, routes and constraints.

use super::refs::all_fields;
use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::types::Primitive;
use crate::model::*;
use std::collections::BTreeMap;

/// Reports the second and later occurrences of each key among `items`.
fn duplicates<K: Ord + Clone>(items: impl IntoIterator<Item = (K, Span)>, mut report: impl FnMut(&K, Span, Span)) {
    let mut seen: BTreeMap<K, Span> = BTreeMap::new();
    for (key, span) in items {
        match seen.get(&key) {
            Some(first) => report(&key, span, *first),
            None => {
                seen.insert(key, span);
            }
        }
    }
}

/// Permission bits are positions in a 64-bit set: each in 0..=63, and no two permissions share
/// one (two names for one bit would make the set ambiguous on the wire).
pub fn check_permission_bits(cx: &mut Diagnostics, model: &Model) {
    for p in &model.permissions {
        if let Some(bit) = p.bit.filter(|b| *b > 63) {
            cx.push(
                Diagnostic::error(codes::BIT_RANGE, format!("permission `{}` has bit {bit}, outside 0..=63", p.meta.id))
                    .at(p.bit_span, "bit position out of range")
                    .help("a bit is a position in the 64-bit permission set: write `bit: 51` for `1 << 51`"),
            );
        }
    }
    let bits = model.permissions.iter().filter_map(|p| p.bit.map(|b| ((b, ()), p.bit_span)));
    duplicates(bits, |(bit, ()), span, first| {
        cx.push(
            Diagnostic::error(codes::DUPLICATE_BIT, format!("two permissions have bit {bit}"))
                .at(span, "bit used again here")
                .also(first, "first used here")
                .help("each permission has its own bit; check the source for the right position"),
        );
    });
}

/// Flag bits fit the set's width (32 or 64) and are unique within the set.
pub fn check_flag_bits(cx: &mut Diagnostics, model: &Model) {
    for set in &model.flags {
        if ![32, 64].contains(&set.width) {
            cx.push(
                Diagnostic::error(codes::INVALID_VALUE, format!("flag set `{}` has width {}", set.meta.id, set.width))
                    .at(set.meta.id_span, "in this flag set")
                    .help("`width` is 32 or 64"),
            );
        }
        for v in &set.values {
            if let Some(bit) = v.bit.filter(|b| *b >= set.width) {
                cx.push(
                    Diagnostic::error(codes::BIT_RANGE, format!("flag `{}` has bit {bit}, outside 0..={}", v.meta.id, set.width - 1))
                        .at(v.bit_span, "bit position out of range")
                        .help(format!("flag set `{}` is {} bits wide", set.meta.id, set.width)),
                );
            }
        }
        let bits = set.values.iter().filter_map(|v| v.bit.map(|b| (b, v.bit_span)));
        duplicates(bits, |bit, span, first| {
            cx.push(
                Diagnostic::error(codes::DUPLICATE_BIT, format!("two flags of `{}` have bit {bit}", set.meta.id))
                    .at(span, "bit used again here")
                    .also(first, "first used here"),
            );
        });
    }
}

/// Error codes identify errors on the wire: no two errors share a numeric code or an OAuth2
/// error string.
pub fn check_error_codes(cx: &mut Diagnostics, model: &Model) {
    let codes_ = model.errors.iter().filter_map(|e| e.code.map(|c| (c, e.code_span)));
    duplicates(codes_, |code, span, first| {
        cx.push(
            Diagnostic::error(codes::DUPLICATE_ERROR_CODE, format!("two errors have code {code}"))
                .at(span, "code used again here")
                .also(first, "first used here")
                .help("each error has its own code; merge the conditions into one error or fix the code"),
        );
    });
    let oauth = model.errors.iter().filter_map(|e| e.oauth_error.clone().map(|c| (c, e.meta.span)));
    duplicates(oauth, |code, span, first| {
        cx.push(
            Diagnostic::error(codes::DUPLICATE_ERROR_CODE, format!("two errors have OAuth2 error `{code}`"))
                .at(span, "used again here")
                .also(first, "first used here"),
        );
    });
}

/// Values of one enum have distinct numbers, so decoding is unambiguous.
pub fn check_enum_values(cx: &mut Diagnostics, model: &Model) {
    for e in &model.enums {
        let values = e.values.iter().filter_map(|v| v.value.map(|n| (n, v.value_span)));
        duplicates(values, |n, span, first| {
            cx.push(
                Diagnostic::error(codes::DUPLICATE_ENUM_VALUE, format!("two values of enum `{}` are {n}", e.meta.id))
                    .at(span, "value used again here")
                    .also(first, "first used here"),
            );
        });
        if e.repr == "string" {
            for v in e.values.iter().filter(|v| v.value.is_some()) {
                cx.push(
                    Diagnostic::error(codes::INVALID_VALUE, format!("value `{}` of string enum `{}` has a number", v.meta.id, e.meta.id))
                        .at(v.value_span, "string enums are identified by name")
                        .help("remove `value:` or declare the enum `repr: integer`"),
                );
            }
        }
    }
    for m in &model.state_machines {
        let values = m.states.iter().filter_map(|s| s.value.map(|n| (n, s.meta.span)));
        duplicates(values, |n, span, first| {
            cx.push(
                Diagnostic::error(codes::DUPLICATE_ENUM_VALUE, format!("two states of `{}` have value {n}", m.meta.id))
                    .at(span, "value used again here")
                    .also(first, "first used here"),
            );
        });
    }
}

/// Closed vocabularies: each value is one the generators know how to emit.
/// The naming prefixes become identifiers and file names in every artifact: `c_type` names the C
/// types and, in snake case, the generated Rust crates; `c_macro` the C macros; `cpp_namespace`
/// the C++ namespace. Each must be an ASCII identifier starting with a letter. The header names
/// are plain file names ending in `.h` or `.hpp`, written under `sdk/include/`: a path there
/// would write outside the output directory.
pub fn check_prefixes(cx: &mut Diagnostics, model: &Model) {
    let p = &model.platform.prefixes;
    let identifier = |s: &str| s.starts_with(|c: char| c.is_ascii_alphabetic()) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let header = |s: &str| {
        let plain = !s.starts_with('.') && s.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
        let stem = s.strip_suffix(".hpp").or_else(|| s.strip_suffix(".h"));
        plain && stem.is_some_and(|stem| !stem.is_empty())
    };
    let checks: [(&str, &str, bool, &str); 5] = [
        ("c_type", &p.c_type, identifier(&p.c_type), "an ASCII identifier starting with a letter, such as `Platform_`"),
        ("c_macro", &p.c_macro, identifier(&p.c_macro), "an ASCII identifier starting with a letter, such as `PLATFORM_`"),
        ("cpp_namespace", &p.cpp_namespace, identifier(&p.cpp_namespace), "an ASCII identifier starting with a letter, such as `platformpp`"),
        ("c_header", &p.c_header, header(&p.c_header), "a file name ending in `.h`, such as `cplatform.h`"),
        ("cpp_header", &p.cpp_header, header(&p.cpp_header), "a file name ending in `.hpp` or `.h`, such as `platformpp.h`"),
    ];
    for (key, value, ok, expected) in checks {
        if !ok {
            cx.push(
                Diagnostic::error(codes::INVALID_PREFIX, format!("`prefixes.{key}` cannot be `{value}`"))
                    .at(model.platform.span, "in this platform block")
                    .help(format!("give {expected}")),
            );
        }
    }
}

pub fn check_vocabularies(cx: &mut Diagnostics, model: &Model) {
    let mut check = |what: &str, value: &str, span: Span, allowed: &[&str]| {
        if !allowed.contains(&value) {
            cx.push(
                Diagnostic::error(codes::INVALID_VALUE, format!("unknown {what} `{value}`"))
                    .at(span, format!("not a {what}"))
                    .suggest(value, allowed.iter().copied())
                    .help(format!("one of {}", allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", "))),
            );
        }
    };
    for e in &model.endpoints {
        for m in e.method.iter().chain(e.aliases.iter().filter_map(|a| a.method.as_ref())) {
            check("HTTP method", &m.id, m.span, METHODS);
        }
        for f in &e.body_formats {
            check("body format", &f.id, f.span, BODY_FORMATS);
        }
        if !e.response_format.is_empty() {
            check("response format", &e.response_format, e.meta.span, &["json", "csv", "none"]);
        }
        for r in &e.responses {
            if let ResponseUse::Inline(r) = &r.response {
                check("response format", &r.format, r.format_span.unwrap_or(r.span), RESPONSE_FORMATS);
            }
        }
    }
    for r in &model.responses {
        let r = &r.response;
        check("response format", &r.format, r.format_span.unwrap_or(r.span), RESPONSE_FORMATS);
    }
    for f in super::refs::all_fields(model).into_iter().filter_map(|f| f.style.as_ref()) {
        check("array style", &f.id, f.span, &["repeated", "comma", "indexed"]);
    }
    for l in &model.limits {
        check("unit", &l.unit.id, l.unit.span, UNITS);
        if let Some(d) = &l.duration {
            check("unit", &d.unit.id, d.unit.span, UNITS);
        }
    }
    for c in &model.changes {
        check("change kind", &c.kind.id, c.kind.span, CHANGE_KINDS);
    }
    for e in &model.events {
        check("event channel", &e.channel.id, e.channel.span, &["gateway", "audit_log", "webhook", "rpc", "social_sdk"]);
    }
    for r in &model.permission_rules {
        check("audience", &r.applies_to, r.meta.span, &["all", "bots", "users"]);
    }
    for o in &model.opcodes {
        check("opcode direction", &o.direction, o.meta.span, &["send", "receive", "both"]);
    }
    for c in &model.classes {
        for s in &c.semantics {
            check("class semantic", &s.id, s.span, &["copy", "move", "bool", "nullobj"]);
        }
    }
    for e in &model.enums {
        check("enum representation", &e.repr, e.meta.span, &["integer", "string"]);
    }
    for f in &model.flags {
        check("flags representation", &f.repr, f.meta.span, &["integer", "string_integer"]);
    }
    for r in &model.resources {
        check("resource direction", &r.direction, r.meta.span, &["request", "response", "both"]);
    }
}

/// Encodings of a request body.
pub const BODY_FORMATS: &[&str] = &["json", "form", "multipart", "csv", "binary"];
/// Encodings of a response body (`none`: no body, the default without `type` or `fields`).
pub const RESPONSE_FORMATS: &[&str] = &["json", "csv", "text", "binary", "events", "json_lines", "none"];

/// HTTP methods a route may use.
pub const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];
/// Units of limits.
pub const UNITS: &[&str] = &[
    "bytes",
    "KiB",
    "MiB",
    "GiB",
    "characters",
    "items",
    "files",
    "commands",
    "members",
    "users",
    "messages",
    "uses",
    "hours",
    "years",
    "minor_versions",
    "versions",
];
/// Kinds of dated change.
pub const CHANGE_KINDS: &[&str] = &["addition", "removal", "rename", "requirement", "shape", "behavior", "deprecation", "correction"];

/// A method and path identify one route: two endpoints with the same pair would be
/// indistinguishable to the router. Placeholder names do not matter (`/a/{x}` = `/a/{y}`).
pub fn check_routes(cx: &mut Diagnostics, model: &Model) {
    let routes = model.endpoints.iter().flat_map(|e| {
        let own = e.method.as_ref().zip(e.path.as_ref());
        let aliases = e.aliases.iter().filter_map(|a| Some((a.method.as_ref().or(e.method.as_ref())?, &a.path)));
        own.into_iter().chain(aliases).map(|(method, path)| ((method.id.clone(), route_shape(&path.id)), path.span)).collect::<Vec<_>>()
    });
    duplicates(routes, |(method, path), span, first| {
        cx.push(
            Diagnostic::error(codes::DUPLICATE_ROUTE, format!("two endpoints route `{method} {path}`"))
                .at(span, "route used again here")
                .also(first, "first used here")
                .help("each method and path pair belongs to one endpoint"),
        );
    });
}

/// Every path is one the generated router can serve. The router matches whole segments, then
/// the handler splits a segment that mixes placeholders and text (`{Sid}.json`), so a path
/// holds no query or fragment, its braces pair, and two placeholders of one segment have text
/// between them. Routes of one shape (segments with placeholders taken alike) are one route of
/// the router, which names each segment once by its first placeholder, so routes of one shape
/// name them alike (`/a/{x}` and `/a/{y}` cannot both be routes). An alias route answers
/// through its endpoint's handler, which splits the endpoint's own segments, so an alias has no
/// mixed segment. A path that no route serves (no method is shown) only names the operation.
pub fn check_path_templates(cx: &mut Diagnostics, model: &Model) {
    let mut first_by_shape: BTreeMap<String, (Vec<Vec<Piece<'_>>>, Span)> = BTreeMap::new();
    for e in &model.endpoints {
        let own = e.path.iter().map(|p| (p, false, e.method.is_some()));
        let aliases = e.aliases.iter().map(|a| (&a.path, true, a.method.is_some() || e.method.is_some()));
        // A path no route serves (its endpoint or alias has no method) only names the operation.
        for (path, alias, _) in own.chain(aliases).filter(|(_, _, routed)| *routed) {
            let segments = match path_segments(&path.id) {
                Ok(s) => s,
                Err(why) => {
                    cx.push(
                        Diagnostic::error(codes::PATH_TEMPLATE, format!("the router cannot serve path `{}` of `{}`", path.id, e.meta.id))
                            .at(path.span, why)
                            .help("a path is `/`-separated segments of text and `{placeholders}`, each placeholder with text or `/` beside it"),
                    );
                    continue;
                }
            };
            if alias && segments.iter().any(|s| is_mixed(s)) {
                cx.push(
                    Diagnostic::error(
                        codes::PATH_TEMPLATE,
                        format!("alias path `{}` of `{}` mixes a placeholder with text in one segment", path.id, e.meta.id),
                    )
                    .at(path.span, "a mixed segment in an alias")
                    .help("an alias answers through its endpoint's handler; give the alias whole-segment placeholders, or make it an endpoint"),
                );
                continue;
            }
            match first_by_shape.get(&route_shape(&path.id)) {
                None => {
                    first_by_shape.insert(route_shape(&path.id), (segments, path.span));
                }
                Some((first, span)) => {
                    if let Some(i) = renamed_segment(first, &segments) {
                        cx.push(
                            Diagnostic::error(
                                codes::PATH_TEMPLATE,
                                format!(
                                    "segment {} of path `{}` of `{}` names its placeholders apart from another route of its shape",
                                    i + 1,
                                    path.id,
                                    e.meta.id
                                ),
                            )
                            .at(path.span, "placeholders named differently here")
                            .also(*span, "the route of the same shape")
                            .help("the router names a segment once for every route of one shape: use the same placeholder names"),
                        );
                    }
                }
            }
        }
    }
}

/// The first segment where two routes of one shape name their first placeholder differently.
fn renamed_segment(a: &[Vec<Piece<'_>>], b: &[Vec<Piece<'_>>]) -> Option<usize> {
    fn first_name(s: &[Piece<'_>]) -> Option<String> {
        s.iter().find_map(|p| if let Piece::Param(n) = p { Some((*n).to_owned()) } else { None })
    }
    a.iter().zip(b).position(|(x, y)| first_name(x) != first_name(y))
}

/// Every `{placeholder}` in a path is a declared path parameter, and every declared path
/// parameter appears in the path (or the path is not shown). An alias route uses the same
/// parameters as its endpoint's path.
pub fn check_path_params(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        for a in &e.aliases {
            let used = a.path_placeholders();
            for name in used.iter().filter(|n| !e.path_params.iter().any(|p| p.name == **n)) {
                cx.push(
                    Diagnostic::error(codes::UNDECLARED_PATH_PARAM, format!("path placeholder `{{{name}}}` of an alias of `{}` is not declared", e.meta.id))
                        .at(a.path.span, "used in this alias path")
                        .help(format!("an alias takes the endpoint's path parameters; declare `{name}` under `path_params:` of `{}`", e.meta.id)),
                );
            }
            for p in e.path_params.iter().filter(|p| !used.contains(&p.name.as_str())) {
                cx.push(
                    Diagnostic::error(codes::UNUSED_PATH_PARAM, format!("path parameter `{}` does not appear in the alias path `{}`", p.name, a.path.id))
                        .at(a.path.span, "alias path without it")
                        .also(p.span, "declared here")
                        .help(format!("an alias answers as the endpoint, so its path has every parameter: add `{{{}}}`", p.name)),
                );
            }
        }
        let Some(path) = &e.path else { continue };
        let used = e.path_placeholders();
        for name in &used {
            if !e.path_params.iter().any(|p| p.name == *name) {
                cx.push(
                    Diagnostic::error(codes::UNDECLARED_PATH_PARAM, format!("path placeholder `{{{name}}}` of `{}` is not declared", e.meta.id))
                        .at(path.span, "used in this path")
                        .help(format!("declare it under `path_params:` as `{name}: {{ type: snowflake }}`")),
                );
            }
        }
        for p in &e.path_params {
            if !used.contains(&p.name.as_str()) {
                cx.push(
                    Diagnostic::error(codes::UNUSED_PATH_PARAM, format!("path parameter `{}` does not appear in the path of `{}`", p.name, e.meta.id))
                        .at(p.span, "declared here")
                        .also(path.span, "path without it")
                        .suggest(&p.name, used.iter().copied())
                        .help("remove the parameter or add `{name}` to the path"),
                );
            }
        }
    }
}

/// A constraint's lower bound does not exceed its upper bound (an exclusive one stays below),
/// comparing literal values and the values of referenced limits, on fields and on their `items:`;
/// the same holds within a limit.
pub fn check_min_max(cx: &mut Diagnostics, model: &Model) {
    let value = |b: &Bound| -> Option<f64> {
        match b {
            Bound::Value(_, v) => Some(*v as f64),
            Bound::Float(_, v) => Some(*v),
            Bound::Limit { limit, offset } => model.limit(&limit.id).and_then(|l| l.upper().map(|v| (v + offset) as f64)),
            Bound::Field { .. } => None,
        }
    };
    let lower_of = |b: &Bound| -> Option<f64> {
        match b {
            Bound::Limit { limit, offset } => model.limit(&limit.id).and_then(|l| l.lower().or(l.upper()).map(|v| (v + offset) as f64)),
            other => value(other),
        }
    };
    let mut report = |what: &str, lo: (&Bound, f64), hi: (&Bound, f64)| {
        cx.push(
            Diagnostic::error(codes::MIN_OVER_MAX, format!("{what}: minimum {} exceeds maximum {}", number(lo.1), number(hi.1)))
                .at(lo.0.span(), "minimum here")
                .also(hi.0.span(), "maximum here")
                .help("swap the bounds or correct one of them"),
        );
    };
    for set in constraint_sets(model) {
        let c = set.constraints;
        let what = format!("field `{}`{}", set.field.name, if set.nested { " (items)" } else { "" });
        let inclusive = [(&c.min, &c.max), (&c.min_length, &c.max_length), (&c.min_items, &c.max_items), (&c.min_entries, &c.max_entries)];
        for (lo, hi) in inclusive {
            if let (Some(lo), Some(hi)) = (lo, hi)
                && let (Some(a), Some(b)) = (lower_of(lo), value(hi))
                && a > b
            {
                report(&what, (lo, a), (hi, b));
            }
        }
        let exclusive = [(&c.min, &c.max_exclusive), (&c.min_exclusive, &c.max), (&c.min_exclusive, &c.max_exclusive)];
        for (lo, hi) in exclusive {
            if let (Some(lo), Some(hi)) = (lo, hi)
                && let (Some(a), Some(b)) = (lower_of(lo), value(hi))
                && a >= b
            {
                report(&format!("{what} (exclusive bound)"), (lo, a), (hi, b));
            }
        }
    }
    for l in &model.limits {
        if let (Some(lo), Some(hi)) = (&l.min, &l.max)
            && let (Some(a), Some(b)) = (value(lo), value(hi))
            && a > b
        {
            report(&format!("limit `{}`", l.meta.id), (lo, a), (hi, b));
        }
    }
}

/// A number as the spec would write it: integers without a fraction.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 { format!("{}", v as i64) } else { v.to_string() }
}

/// One set of constraints and the type it constrains: a field's own, or an `items:` block of it
/// against the elements (or map values) it describes.
pub struct ConstraintSet<'a> {
    pub field: &'a Field,
    pub ty: &'a TypeRef,
    pub constraints: &'a Constraints,
    /// Whether the set is an `items:` block.
    pub nested: bool,
}

/// Every constraint set of the model whose type is known: fields, then their `items:` blocks as
/// far as the type has elements (the rest is reported by [`check_constraint_types`]).
pub fn constraint_sets(model: &Model) -> Vec<ConstraintSet<'_>> {
    let mut out = Vec::new();
    for f in all_fields(model) {
        let Some(ty) = &f.ty else { continue };
        out.push(ConstraintSet { field: f, ty, constraints: &f.constraints, nested: false });
        let (mut ty, mut items) = (ty, f.items.as_ref());
        while let (Some(i), Some(inner)) = (items, element_of(ty)) {
            out.push(ConstraintSet { field: f, ty: inner, constraints: &i.constraints, nested: true });
            (ty, items) = (inner, i.items.as_deref());
        }
    }
    out
}

/// The type `items:` describes: an array's elements or a map's values.
pub fn element_of(ty: &TypeRef) -> Option<&TypeRef> {
    match ty {
        TypeRef::Array(inner) | TypeRef::Map(_, inner) => Some(inner),
        _ => None,
    }
}

/// Constraints fit the type they constrain: lengths and patterns on text (a pattern also on the
/// decimal text of snowflakes and string integers), items on arrays,
/// entries on maps, bounds on numbers, sizes on files, `items:` on arrays and maps, and a
/// literal on text.
pub fn check_constraint_types(cx: &mut Diagnostics, model: &Model) {
    for f in all_fields(model) {
        let Some(ty) = &f.ty else { continue };
        if f.literal.is_some() && !ty.primitive().is_some_and(Primitive::is_text) {
            cx.push(
                Diagnostic::error(codes::CONSTRAINT_TYPE, format!("`literal` does not apply to field `{}` of type `{ty}`", f.name))
                    .at(f.type_span, "type declared here")
                    .help("a literal is text; give the field a text type or drop the literal"),
            );
        }
    }
    for set in constraint_sets(model) {
        let ty = set.ty;
        let prim = ty.primitive();
        for (key, span) in set.constraints.keys() {
            let fits = match key {
                "min_length" | "max_length" => prim.is_some_and(Primitive::is_text),
                // A pattern also fits the decimal text of a snowflake or string integer.
                "pattern" => prim.is_some_and(|p| p.is_text() || matches!(p, Primitive::Snowflake | Primitive::StringInteger)),
                "min_items" | "max_items" | "unique_items" => matches!(ty, TypeRef::Array(_)),
                "min_entries" | "max_entries" => matches!(ty, TypeRef::Map(..)),
                "min" | "max" | "min_exclusive" | "max_exclusive" => prim.is_some_and(Primitive::is_numeric),
                "max_size" => matches!(ty.element(), TypeRef::Primitive(Primitive::File | Primitive::Csv)),
                _ => true,
            };
            if !fits {
                let on = if set.nested {
                    format!("the items of field `{}`, of type `{ty}`", set.field.name)
                } else {
                    format!("field `{}` of type `{ty}`", set.field.name)
                };
                cx.push(
                    Diagnostic::error(codes::CONSTRAINT_TYPE, format!("`{key}` does not apply to {on}"))
                        .at(span, "this constraint")
                        .also(set.field.type_span, "type declared here")
                        .help("lengths and patterns apply to text, items to arrays, entries to maps, bounds to numbers, `max_size` to files"),
                );
            }
        }
    }
    for f in all_fields(model) {
        let (Some(ty), Some(items)) = (&f.ty, &f.items) else { continue };
        let (mut ty, mut items) = (ty, Some(items));
        while let Some(i) = items {
            let Some(inner) = element_of(ty) else {
                cx.push(
                    Diagnostic::error(codes::CONSTRAINT_TYPE, format!("`items` does not apply to field `{}`: `{ty}` has no elements", f.name))
                        .at(i.span, "rules for elements")
                        .also(f.type_span, "type declared here")
                        .help("`items:` describes the elements of an array or the values of a map"),
                );
                break;
            };
            (ty, items) = (inner, i.items.as_deref());
        }
    }
}

/// Every error the server answers carries the error body, but an error knows only its code, its
/// message, its violations, what the caller lacks and its OAuth2 error: a required body field
/// the generator cannot fill with an empty value (an enum or a union, whose open sets have no
/// neutral value, or a resource) would leave every error body without a value for it.
pub fn check_error_body_fields(cx: &mut Diagnostics, model: &Model) {
    let Some(body) = &model.error_body else { return };
    for f in &body.fields {
        let required = !(f.optional || f.nullable || f.required_when.is_some());
        let Some(ty @ (TypeRef::Enum(_) | TypeRef::Object(_) | TypeRef::Union(_))) = &f.ty else { continue };
        if required {
            cx.push(
                Diagnostic::error(
                    codes::UNFILLED_ERROR_FIELD,
                    format!("field `{}` of the error body is required, but errors carry no value of type `{ty}`", f.name),
                )
                .at(f.type_span, "no empty value of this type")
                .help("make the field `optional: true`: the errors the server makes leave it out"),
            );
        }
    }
}

/// Every object the wire carries has each name once: two fields of one object (its own, or one
/// inherited through `extends`) with one wire name would write the key twice, and a reader
/// could keep only one of them. Headers compare without regard to case, by their own rule.
pub fn check_wire_names(cx: &mut Diagnostics, model: &Model) {
    for (what, fields) in wire_objects(model) {
        let mut seen: Vec<&Field> = Vec::new();
        for f in fields {
            match seen.iter().find(|s| s.wire() == f.wire()) {
                Some(first) => cx.push(
                    Diagnostic::error(
                        codes::DUPLICATE_WIRE_NAME,
                        format!("fields `{}` and `{}` of {what} are both `{}` on the wire", first.name, f.name, f.wire()),
                    )
                    .at(f.span, "this field")
                    .also(first.span, "and this one")
                    .help("give one of them another `wire_name`, or remove it"),
                ),
                None => seen.push(f),
            }
        }
    }
}

/// The objects of the wire, by how a reader names them, with their fields.
fn wire_objects(model: &Model) -> Vec<(String, &[Field])> {
    let mut out: Vec<(String, &[Field])> = Vec::new();
    out.extend(model.resources.iter().map(|r| (format!("resource `{}`", r.meta.id), r.fields.as_slice())));
    out.extend(model.events.iter().map(|e| (format!("event `{}`", e.meta.id), e.fields.as_slice())));
    out.extend(model.opcodes.iter().map(|o| (format!("opcode `{}`", o.meta.id), o.fields.as_slice())));
    for e in &model.endpoints {
        let id = &e.meta.id;
        out.push((format!("the path of `{id}`"), &e.path_params));
        out.push((format!("the query of `{id}`"), &e.query));
        out.push((format!("the body of `{id}`"), &e.body));
        out.push((format!("the parts of `{id}`"), &e.parts));
        out.push((format!("the response of `{id}`"), &e.response_fields));
        for r in &e.responses {
            if let ResponseUse::Inline(response) = &r.response {
                out.push((format!("the `{}` response of `{id}`", r.status.id), &response.fields));
            }
        }
    }
    out.extend(model.responses.iter().map(|r| (format!("response `{}`", r.id), r.response.fields.as_slice())));
    if let Some(b) = &model.error_body {
        out.push(("the error body".to_owned(), &b.fields));
    }
    out
}

/// An enum's representation (integer or string) is written, or follows from a value the spec
/// numbers. An enum with no numbered value and no `repr:` would otherwise become an integer
/// enum by default, a guess no reader could see.
pub fn check_enum_repr_basis(cx: &mut Diagnostics, model: &Model) {
    for e in &model.enums {
        if e.repr_span.is_none() && !e.values.iter().any(|v| v.value.is_some()) {
            cx.push(
                Diagnostic::error(codes::ENUM_REPR_BASIS, format!("enum `{}` has no `repr:` and no numbered value to show it is an integer enum", e.meta.id))
                    .at(e.meta.id_span, "representation rests on the default")
                    .help("write `repr: integer` or `repr: string`; if the source does not say which, add `assumed: { repr: \"...\" }` with the reason"),
            );
        }
    }
}

/// A class another class holds by value is returned by value from the holder's getter (the C++
/// wrapper hands it back in a `std::optional`), so it needs `copy` or `move` semantics; without
/// either the wrapper would not compile.
pub fn check_class_value_semantics(cx: &mut Diagnostics, model: &Model) {
    for holder in &model.classes {
        for f in &holder.fields {
            let Some(TypeRef::Class(id)) = f.ty.as_ref().map(TypeRef::element) else { continue };
            let Some(held) = model.class(id) else { continue };
            if !held.semantics.iter().any(|s| s.id == "copy" || s.id == "move") {
                cx.push(
                    Diagnostic::error(
                        codes::CLASS_VALUE_SEMANTICS,
                        format!("class `{id}` is held by value in `{}.{}` but has neither `copy` nor `move` semantics", holder.meta.id, f.name),
                    )
                    .at(f.type_span, "held by value here")
                    .also(held.meta.id_span, "class defined here")
                    .help(format!("give `{id}` `semantics: [move]` (or `copy`), marked `assumed:` if the source does not state it")),
                );
            }
        }
    }
}

/// A case speaks of fields its object has, and each fact fits the field: `literal` on text,
/// `contains` flags of the field's flag set, `omits` values of the enum its elements carry,
/// item counts on arrays.
pub fn check_case_facts(cx: &mut Diagnostics, model: &Model) {
    for (kind, cases, owner, fields) in model.all_cases() {
        for case in cases {
            for fact in &case.fields {
                let Some(field) = fields.iter().find(|f| f.name == fact.field.id) else {
                    cx.push(
                        Diagnostic::error(
                            codes::CASE_FACT,
                            format!("case `{}` names `{}`, which is not a field of {kind} `{owner}`", case.meta.id, fact.field.id),
                        )
                        .at(fact.field.span, "no such field")
                        .suggest(&fact.field.id, fields.iter().map(|f| f.name.as_str())),
                    );
                    continue;
                };
                case_fact_fits(cx, model, &case.meta.id, fact, field);
            }
        }
    }
}

fn case_fact_fits(cx: &mut Diagnostics, model: &Model, case: &str, fact: &CaseField, field: &Field) {
    let misfit = |cx: &mut Diagnostics, span: Span, what: String, help: String| {
        cx.push(Diagnostic::error(codes::CASE_FACT, format!("case `{case}`: {what}")).at(span, "does not fit the field").help(help));
    };
    let ty = field.ty.as_ref();
    if fact.literal.is_some() && !ty.and_then(TypeRef::primitive).is_some_and(Primitive::is_text) {
        misfit(cx, fact.field.span, format!("`literal` on field `{}`, which is not text", field.name), "a literal is text; use it on string fields".into());
    }
    let flag_set = match ty {
        Some(TypeRef::Flags(id)) => model.flag_set(id),
        _ => None,
    };
    for flag in &fact.contains {
        match flag_set {
            Some(set) if set.values.iter().any(|v| v.meta.id == flag.id) => {}
            Some(set) => {
                let names = set.values.iter().map(|v| v.meta.id.as_str());
                let d = Diagnostic::error(codes::CASE_FACT, format!("case `{case}`: `{}` is not a flag of `{}`", flag.id, set.meta.id))
                    .at(flag.span, "no such flag")
                    .suggest(&flag.id, names);
                cx.push(d);
            }
            None => misfit(
                cx,
                flag.span,
                format!("`contains` on field `{}`, which is not a flag set", field.name),
                "`contains` lists flags of a `flags<...>` field".into(),
            ),
        }
    }
    for value in &fact.omits {
        let (enum_id, name) = value.id.split_once('.').unwrap_or((value.id.as_str(), ""));
        let carried = ty.is_some_and(|t| carries_enum(model, t.element(), enum_id));
        // A value of an integer enum with no number has no representation a check could compare.
        let known = model.enum_(enum_id).is_some_and(|e| e.values.iter().any(|v| v.meta.id == name && (e.repr == "string" || v.value.is_some())));
        if !known || !carried {
            misfit(
                cx,
                value.span,
                format!("`omits: {}` does not name a value of an enum field `{}` carries", value.id, field.name),
                "name `enum_id.VALUE` of the enum the field's elements have (directly or as one of their fields), a value with a number for an integer enum"
                    .into(),
            );
        }
    }
    if !fact.constraints.is_empty() && !matches!(ty, Some(TypeRef::Array(_))) {
        misfit(cx, fact.field.span, format!("item counts on field `{}`, which is not an array", field.name), "`min_items`/`max_items` apply to arrays".into());
    }
}

/// Whether values of `ty` carry enum `enum_id`: they are of it, or are objects with a field of it.
fn carries_enum(model: &Model, ty: &TypeRef, enum_id: &str) -> bool {
    match ty {
        TypeRef::Enum(id) => id == enum_id,
        TypeRef::Object(id) => {
            model.resource(id).is_some_and(|r| r.fields.iter().any(|f| matches!(f.ty.as_ref().map(TypeRef::element), Some(TypeRef::Enum(e)) if e == enum_id)))
        }
        _ => false,
    }
}

/// Response constraints fit the response: `response_max_items` bounds an array response, and
/// `response_columns` describe a CSV response.
pub fn check_response_constraints(cx: &mut Diagnostics, model: &Model) {
    for e in &model.endpoints {
        if let Some(b) = &e.response_max_items
            && !matches!(e.response, Some(TypeRef::Array(_)))
        {
            cx.push(
                Diagnostic::error(codes::CONSTRAINT_TYPE, format!("`response_max_items` does not apply to the response of `{}`", e.meta.id))
                    .at(b.span(), "this constraint")
                    .help("item counts bound an array response: give `response: array<...>`"),
            );
        }
        if let Some(first) = e.response_columns.first()
            && e.response_format != "csv"
        {
            cx.push(
                Diagnostic::error(
                    codes::CONSTRAINT_TYPE,
                    format!("`response_columns` of `{}` describe a CSV response, but it answers `{}`", e.meta.id, e.response_format),
                )
                .at(first.span, "columns declared here")
                .help("add `response_format: csv`, or remove the columns"),
            );
        }
    }
}

/// `applies_to: bots` and `applies_to: users` tell callers apart by the token they present: a
/// call with the token kind whose id is `bot` is a bot's. Without such a kind no caller is a
/// bot, so a rule for bots never applies and a rule for users always does; that is said, not
/// left silent.
pub fn check_audience_token_kind(cx: &mut Diagnostics, model: &Model) {
    if model.token_kinds.iter().any(|k| k.meta.id == "bot") {
        return;
    }
    for r in model.permission_rules.iter().filter(|r| r.applies_to == "bots" || r.applies_to == "users") {
        cx.push(
            Diagnostic::warning(
                codes::AUDIENCE_WITHOUT_BOT,
                format!("permission rule `{}` applies to {} but no token kind has the id `bot`", r.meta.id, r.applies_to),
            )
            .at(r.meta.id_span, "this rule tells bots and users apart")
            .help("a call presenting the token kind `bot` is a bot's; add `{ id: bot, scheme: Bot }` to `token_kinds`, or make the rule apply to `all`"),
        );
    }
}
