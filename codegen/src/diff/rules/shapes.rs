//! Data shapes: fields (presence, type, optionality, nullability, wire names, conditions)
//! wherever they are declared, resources' directions and bases, enums and flag sets. What a
//! field's values may be (its type's width, defaults, bounds, patterns, constants, enum subsets,
//! element rules) is [`super::values`]; unions are [`super::unions`].
//!
//! Whether a field change breaks the wire depends on who writes the value: a client writes a
//! request field, so a tighter request (a new required field, a lower maximum) refuses requests
//! that were valid; the platform writes a response field, so a looser response (a field that may
//! now be absent or null) breaks clients that relied on it. Resources used both ways get both
//! rules (oasdiff's request-/response- rule pairs).

use super::fields::{Dir, Fields, ListKind, REQUEST_HEADER_ADDED_REQUIRED, REQUEST_HEADER_REMOVED, RESPONSE_HEADER_ADDED, RESPONSE_HEADER_REMOVED, describe};
use super::values::{FIELD_BECAME_NON_NULLABLE, FIELD_BECAME_NULLABLE};
use super::{B, C, Cx, Subject, U, pair, some, values};
use crate::diff::Audiences;
use crate::model::*;

rule!(
    "shapes",
    FIELD_ADDED,
    "field-added",
    "an optional field, or a field the platform writes, is added",
    ["addition", "shape"],
    Info,
    "oasdiff `response-optional-property-added`, `response-required-property-added`, `new-optional-request-property` (info); cargo-semver-checks `constructible_struct_adds_field`"
);
rule!(
    "shapes",
    REQUEST_FIELD_ADDED_REQUIRED,
    "request-field-added-required",
    "a required field is added to something clients send",
    ["requirement", "shape"],
    Info,
    "oasdiff `new-required-request-property`; smithy-diff `AddedRequiredMember`"
);
rule!(
    "shapes",
    FIELD_REMOVED,
    "field-removed",
    "a field is removed",
    ["removal", "deprecation", "shape"],
    Info,
    "oasdiff `response-required-property-removed`, `response-optional-property-removed`, `request-property-removed`; buf `FIELD_NO_DELETE`; smithy-diff `RemovedShape` (member)"
);
rule!(
    "shapes",
    FIELD_RENAMED,
    "field-renamed",
    "a field gets another key and keeps its wire name",
    ["rename"],
    Info,
    "buf `FIELD_SAME_NAME`; TypeSpec `@renamedFrom`"
);
rule!(
    "shapes",
    FIELD_BECAME_OPTIONAL,
    "field-became-optional",
    "a field may now be absent (the Rust type is [`field-presence-changed`]'s)",
    ["shape"],
    Info,
    "oasdiff `response-property-became-optional`; smithy-diff `ChangedNullability`"
);
rule!(
    "shapes",
    FIELD_BECAME_REQUIRED,
    "field-became-required",
    "a field must now be present",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-became-required`; smithy-diff `ChangedNullability`"
);
rule!(
    "shapes",
    FIELD_WIRE_NAME_CHANGED,
    "field-wire-name-changed",
    "a field keeps its key and changes its name on the wire",
    ["rename"],
    Info,
    "buf `FIELD_SAME_JSON_NAME`; smithy-diff `TraitBreakingChange` (the `jsonName` trait)"
);
rule!(
    "shapes",
    FIELD_REQUIRED_WHEN_ADDED,
    "field-required-when-added",
    "a field clients send becomes required under a condition",
    ["requirement"],
    Info,
    "oasdiff `request-property-became-required` (conditionally)"
);
rule!(
    "shapes",
    FIELD_SCOPE_REQUIRED,
    "field-scope-required",
    "a field carries its real value only for tokens with a scope it did not need",
    ["requirement"],
    Info,
    "oasdiff `api-security-scope-added` (per field)"
);
rule!(
    "shapes",
    RESOURCE_EXTENDS_CHANGED,
    "resource-extends-changed",
    "a resource takes its first fields from other bases (the fields it gains or loses are findings of their own)",
    ["shape"],
    Info,
    "oasdiff `request-body-all-of-added`, `response-body-all-of-removed`"
);
rule!(
    "shapes",
    RESOURCE_DIRECTION_CHANGED,
    "resource-direction-changed",
    "a resource stops being sent or received the way it was",
    ["shape", "removal"],
    Info,
    "oasdiff `request-body-removed`, `response-media-type-removed`"
);
rule!(
    "shapes",
    ENUM_REPR_CHANGED,
    "enum-repr-changed",
    "an enum switches between integer and string values",
    ["shape"],
    Info,
    "buf `FIELD_SAME_TYPE`; smithy-diff `ChangedShapeType`"
);
rule!(
    "shapes",
    ENUM_VALUE_ADDED,
    "enum-value-added",
    "an enum value is added (open enums keep the wire compatible; the Rust enum is `#[non_exhaustive]`)",
    ["addition"],
    Info,
    "oasdiff `response-property-enum-value-added` (warn; info for open enums); smithy-diff `ChangedEnumTrait` (appended); cargo-semver-checks `enum_variant_added` (not on a `#[non_exhaustive]` enum)"
);
rule!(
    "shapes",
    ENUM_VALUE_REMOVED,
    "enum-value-removed",
    "an enum value is removed",
    ["removal", "deprecation"],
    Info,
    "oasdiff `request-property-enum-value-removed`; buf `ENUM_VALUE_NO_DELETE`; smithy-diff `ChangedEnumTrait` (removed)"
);
rule!(
    "shapes",
    ENUM_VALUE_RENUMBERED,
    "enum-value-renumbered",
    "an enum value keeps its id and gets another number",
    [],
    Info,
    "buf `ENUM_VALUE_SAME_NAME` (numbers identify values); smithy-diff `ChangedEnumTrait` (value changed)"
);
rule!(
    "shapes",
    ENUM_VALUE_RENAMED,
    "enum-value-renamed",
    "an enum value keeps its number under a new id",
    ["rename"],
    Info,
    "buf `ENUM_VALUE_SAME_NAME`; smithy-diff `ChangedEnumTrait` (renamed)"
);
rule!(
    "shapes",
    FLAGS_REPR_CHANGED,
    "flags-repr-changed",
    "a flag set switches between an integer and a decimal string",
    ["shape"],
    Info,
    "buf `FIELD_SAME_TYPE`"
);
rule!(
    "shapes",
    FLAGS_WIDTH_CHANGED,
    "flags-width-changed",
    "a flag set changes width (32 or 64 bits)",
    ["shape"],
    Info,
    "buf `FIELD_WIRE_COMPATIBLE_TYPE`; cargo-semver-checks (type changed)"
);
rule!(
    "shapes",
    FLAG_ADDED,
    "flag-added",
    "a flag is added to a set",
    ["addition"],
    Info,
    "smithy-diff `ChangedEnumTrait` (appended): unknown bits are kept, so compatible"
);
rule!("shapes", FLAG_REMOVED, "flag-removed", "a flag is removed from a set", ["removal", "deprecation"], Info, "buf `ENUM_VALUE_NO_DELETE`");
rule!(
    "shapes",
    FLAG_BIT_CHANGED,
    "flag-bit-changed",
    "a flag keeps its id and moves to another bit",
    [],
    Info,
    "buf `ENUM_VALUE_SAME_NAME` (numbers identify values)"
);
rule!("shapes", FLAG_RENAMED, "flag-renamed", "a flag keeps its bit under a new id", ["rename"], Info, "buf `ENUM_VALUE_SAME_NAME`");

pub fn check(cx: &mut Cx<'_>) {
    check_resources(cx);
    check_endpoint_fields(cx);
    check_payload_fields(cx);
    check_enums(cx);
    check_flags(cx);
}

/// What a field added to a generated struct does to its Rust callers. The struct is
/// `#[non_exhaustive]`, built with `new` and setters: a field that may be left out gets a
/// setter (compatible); one that must be given is a new argument of `new`, or takes the
/// struct's `Default` away (breaking).
fn rust_added(list: &Fields<'_>, f: &Field) -> crate::diff::Impact {
    // The first member of an endpoint's body makes the request take a body (an argument of
    // `Request::new`), and the first header of a response turns its payload from the body
    // into `{ body, headers }`.
    let first = list.old.is_empty() && (list.kind == ListKind::ResponseHeaders || list.prefix.ends_with(".body."));
    if f.must_be_given() || first { B } else { C }
}

/// Compares two lists of fields with every field rule.
pub fn compare_fields(cx: &mut Cx<'_>, f: &Fields<'_>) {
    let p = pair(f.old, f.new, |x| x.name.clone());
    let renamed: Vec<(&Field, &Field)> = p.removed.iter().filter_map(|o| p.added.iter().find(|n| n.wire() == o.wire()).map(|n| (*o, *n))).collect();
    for (o, n) in &renamed {
        let s = f.subject(&o.name, Some(o), Some(n));
        let message = format!("field `{}` is renamed `{}` (the wire name `{}` is kept)", f.show(&o.name), n.name, n.wire());
        cx.push(&FIELD_RENAMED, &s, f.audiences(C, B, B), message, some(&o.name), some(&n.name));
    }
    for n in p.added.iter().filter(|n| !renamed.iter().any(|(_, r)| r.name == n.name)) {
        let s = f.subject(&n.name, None, Some(n));
        let (required, name) = (!n.may_be_absent(), f.show(&n.name));
        match f.kind {
            ListKind::RequestHeaders if required => {
                let message = format!("required header `{name}` is added to what clients send");
                cx.push(&REQUEST_HEADER_ADDED_REQUIRED, &s, f.audiences(B, B, C), message, None, Some(describe(n)));
            }
            ListKind::ResponseHeaders => {
                cx.push(&RESPONSE_HEADER_ADDED, &s, f.audiences(C, rust_added(f, n), C), format!("header `{name}` is added"), None, Some(describe(n)))
            }
            _ if required && f.dir.request() => {
                let message = format!("required field `{name}` is added to what clients send");
                cx.push(&REQUEST_FIELD_ADDED_REQUIRED, &s, f.audiences(B, rust_added(f, n), C), message, None, Some(describe(n)));
            }
            _ => cx.push(&FIELD_ADDED, &s, f.audiences(C, rust_added(f, n), C), format!("field `{name}` is added"), None, Some(describe(n))),
        }
    }
    for o in p.removed.iter().filter(|o| !renamed.iter().any(|(r, _)| r.name == o.name)) {
        let s = f.subject(&o.name, Some(o), None);
        let name = f.show(&o.name);
        let (rule, wire, message) = match f.kind {
            // The platform stops reading it: clients that send it are not refused.
            ListKind::RequestHeaders => (&REQUEST_HEADER_REMOVED, C, format!("header `{name}` is no longer read")),
            ListKind::ResponseHeaders => (&RESPONSE_HEADER_REMOVED, if o.may_be_absent() { C } else { B }, format!("header `{name}` is removed")),
            ListKind::Members => (&FIELD_REMOVED, f.wire_if(false, true), format!("field `{name}` is removed")),
        };
        cx.push(rule, &s, f.audiences(wire, B, B), message, Some(describe(o)), None);
    }
    for (o, n) in p.both {
        compare_field(cx, f, o, n);
    }
}

fn compare_field(cx: &mut Cx<'_>, f: &Fields<'_>, o: &Field, n: &Field) {
    let s = f.subject(&n.name, Some(o), Some(n));
    let name = f.show(&n.name);
    if o.deprecated.is_none()
        && let Some(by) = &n.deprecated
    {
        cx.push(&super::items::ITEM_DEPRECATED, &s, f.audiences(C, C, C), format!("field `{name}` is deprecated"), None, some(&by.id));
    }
    values::compare_type(cx, f, &s, &name, o, n);
    if o.wire() != n.wire() {
        cx.push(&FIELD_WIRE_NAME_CHANGED, &s, f.audiences(B, C, C), format!("field `{name}` changes its wire name"), some(o.wire()), some(n.wire()));
    }
    // The Rust side of presence is one finding of its own (`field-presence-changed`): a field
    // may become optional and keep its Rust type (a default stands in for absence).
    match (o.optional, n.optional) {
        (false, true) => cx.push(
            &FIELD_BECAME_OPTIONAL,
            &s,
            f.audiences(f.wire_if(false, true), U, B),
            format!("field `{name}` may now be absent"),
            some("required"),
            some("optional"),
        ),
        (true, false) => cx.push(
            &FIELD_BECAME_REQUIRED,
            &s,
            f.audiences(f.wire_if(true, false), U, B),
            format!("field `{name}` must now be present"),
            some("optional"),
            some("required"),
        ),
        _ => {}
    }
    match (o.nullable, n.nullable) {
        (false, true) => cx.push(
            &FIELD_BECAME_NULLABLE,
            &s,
            f.audiences(f.wire_if(false, true), U, B),
            format!("field `{name}` may now be null"),
            some("not nullable"),
            some("nullable"),
        ),
        (true, false) => cx.push(
            &FIELD_BECAME_NON_NULLABLE,
            &s,
            f.audiences(f.wire_if(true, false), U, B),
            format!("field `{name}` may no longer be null"),
            some("nullable"),
            some("not nullable"),
        ),
        _ => {}
    }
    values::compare_presence(cx, f, &s, &name, o, n);
    if o.required_when.is_none()
        && f.dir.request()
        && let Some(c) = &n.required_when
    {
        let cond = c.named().0.id.clone();
        // A condition no rule or input asked before adds a hook the implementation must answer.
        let rust = if cx.old.asks_condition(&cond) { C } else { B };
        cx.push(&FIELD_REQUIRED_WHEN_ADDED, &s, f.audiences(B, rust, C), format!("field `{name}` becomes required when `{cond}` holds"), None, Some(cond));
    }
    if n.requires_scope.is_some() && o.requires_scope.as_ref().map(|r| &r.id) != n.requires_scope.as_ref().map(|r| &r.id) {
        let (a, b) = (o.requires_scope.as_ref().map(|r| r.id.clone()), n.requires_scope.as_ref().map(|r| r.id.clone()));
        cx.push(&FIELD_SCOPE_REQUIRED, &s, f.audiences(B, U, U), format!("field `{name}` carries its real value only with another scope"), a, b);
    }
    values::compare_default(cx, f, &s, &name, o, n);
    values::compare_values(cx, f, &s, &name, o, n);
}

/// Resources: their direction, their bases, and their fields. A field a resource inherits from
/// the same base on both sides is the base's finding, not each heir's.
fn check_resources(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.resources, &new.resources, |r| r.meta.id.clone()).both {
        let id = &n.meta.id;
        let (a, b) = (Dir::of(&o.direction), Dir::of(&n.direction));
        let lost = (a.request() && !b.request()) || (a.response() && !b.response());
        if a != b {
            let s = Subject::item("resource", id, &[], Some(&o.meta), Some(&n.meta)).child(".direction");
            let wire = if lost { B } else { C };
            cx.push(
                &RESOURCE_DIRECTION_CHANGED,
                &s,
                Audiences::new(wire, U, U),
                format!("resource `{id}` changes direction"),
                some(&o.direction),
                some(&n.direction),
            );
        }
        let bases = |r: &Resource| r.extends.iter().map(|b| b.id.as_str()).collect::<Vec<_>>().join(", ");
        if bases(o) != bases(n) {
            let s = Subject::item("resource", id, &[], Some(&o.meta), Some(&n.meta)).child(".extends");
            cx.push(&RESOURCE_EXTENDS_CHANGED, &s, Audiences::all(U), format!("resource `{id}` extends other bases"), some(bases(o)), some(bases(n)));
        }
        let same_base =
            |f: &Field, other: &[Field]| f.inherited_from.is_some() && other.iter().any(|g| g.name == f.name && g.inherited_from == f.inherited_from);
        let own = |fields: &[Field], other: &[Field]| fields.iter().filter(|f| !same_base(f, other)).cloned().collect::<Vec<_>>();
        let (of, nf) = (own(&o.fields, &n.fields), own(&n.fields, &o.fields));
        let fields = Fields { typed_fields: true, ..Fields::members(b, format!("field:{id}."), vec![format!("resource:{id}")], &of, &nf) };
        compare_fields(cx, &fields);
    }
}

/// Parameters, headers, bodies, multipart parts and response fields of endpoints (the
/// responses declared by status are [`super::messages`]').
fn check_endpoint_fields(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.endpoints, &new.endpoints, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let body = |e: &Endpoint| e.body_schema.iter().cloned().collect::<Vec<_>>();
        let (ob, nb) = (body(o), body(n));
        let lists: [(&str, Dir, &[Field], &[Field]); 8] = [
            ("path", Dir::Request, &o.path_params, &n.path_params),
            ("query", Dir::Request, &o.query, &n.query),
            ("headers", Dir::Request, &o.headers, &n.headers),
            ("body", Dir::Request, &o.body, &n.body),
            ("body_schema", Dir::Request, &ob, &nb),
            ("parts", Dir::Request, &o.parts, &n.parts),
            ("response", Dir::Response, &o.response_fields, &n.response_fields),
            ("response_columns", Dir::Response, &o.response_columns, &n.response_columns),
        ];
        for (list, dir, a, b) in lists {
            let mut fields = Fields::members(dir, format!("endpoint:{id}.{list}."), vec![format!("endpoint:{id}")], a, b);
            if list == "headers" {
                fields.kind = ListKind::RequestHeaders;
            }
            compare_fields(cx, &fields);
        }
    }
}

/// Fields of events, opcodes, SDK classes and the error body.
fn check_payload_fields(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.events, &new.events, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        compare_fields(cx, &Fields::members(Dir::Response, format!("event:{id}."), vec![format!("event:{id}")], &o.fields, &n.fields));
    }
    for (o, n) in pair(&old.opcodes, &new.opcodes, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        compare_fields(cx, &Fields::members(Dir::of(&n.direction), format!("opcode:{id}."), vec![format!("opcode:{id}")], &o.fields, &n.fields));
    }
    for (o, n) in pair(&old.classes, &new.classes, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let fields =
            Fields { seen: (false, false, true), ..Fields::members(Dir::Both, format!("class:{id}."), vec![format!("class:{id}")], &o.fields, &n.fields) };
        compare_fields(cx, &fields);
    }
    if let (Some(o), Some(n)) = (&old.error_body, &new.error_body) {
        compare_fields(cx, &Fields::members(Dir::Response, "error_body.".into(), vec![], &o.fields, &n.fields));
    }
}

/// Enums: their representation, and their values (matched by id; a new id with an old number
/// is a rename).
fn check_enums(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.enums, &new.enums, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        if o.repr != n.repr {
            let s = Subject::item("enum", id, &[], Some(&o.meta), Some(&n.meta));
            cx.push(&ENUM_REPR_CHANGED, &s, Audiences::all(B), format!("enum `{id}` changes representation"), some(&o.repr), some(&n.repr));
        }
        let outer = [format!("enum:{id}")];
        let v = |x: &EnumValue| format!("{id}.{}", x.meta.id);
        let p = pair(&o.values, &n.values, |x| x.meta.id.clone());
        let renamed: Vec<(&EnumValue, &EnumValue)> =
            p.removed.iter().filter_map(|a| p.added.iter().find(|b| b.value.is_some() && b.value == a.value).map(|b| (*a, *b))).collect();
        for (a, b) in &renamed {
            let mut s = Subject::item("enum_value", &v(a), &outer, Some(&a.meta), Some(&b.meta));
            s.claims.push(format!("enum_value:{}", v(b)));
            let wire = if n.repr == "string" { B } else { C };
            let message = format!("enum value `{}` is renamed `{}`", v(a), b.meta.id);
            cx.push(&ENUM_VALUE_RENAMED, &s, Audiences::new(wire, B, B), message, some(&a.meta.id), some(&b.meta.id));
        }
        for b in p.added.iter().filter(|b| !renamed.iter().any(|(_, r)| r.meta.id == b.meta.id)) {
            let s = Subject::item("enum_value", &v(b), &outer, None, Some(&b.meta));
            cx.push(
                &ENUM_VALUE_ADDED,
                &s,
                Audiences::new(C, C, C),
                format!("enum value `{}` is added", v(b)),
                None,
                b.value.map(|x| x.to_string()).or(some(&b.meta.id)),
            );
        }
        for a in p.removed.iter().filter(|a| !renamed.iter().any(|(r, _)| r.meta.id == a.meta.id)) {
            let s = Subject::item("enum_value", &v(a), &outer, Some(&a.meta), None);
            cx.push(
                &ENUM_VALUE_REMOVED,
                &s,
                Audiences::all(B),
                format!("enum value `{}` is removed", v(a)),
                a.value.map(|x| x.to_string()).or(some(&a.meta.id)),
                None,
            );
        }
        for (a, b) in p.both {
            if let (Some(x), Some(y)) = (a.value, b.value)
                && x != y
            {
                let s = Subject::item("enum_value", &v(b), &outer, Some(&a.meta), Some(&b.meta));
                cx.push(&ENUM_VALUE_RENUMBERED, &s, Audiences::new(B, C, B), format!("enum value `{}` changes from {x} to {y}", v(b)), some(x), some(y));
            }
        }
    }
}

/// Flag sets: representation, width, and flags (matched by id; a new id on an old bit is a
/// rename).
fn check_flags(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.flags, &new.flags, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let set = Subject::item("flags", id, &[], Some(&o.meta), Some(&n.meta));
        if o.repr != n.repr {
            // Only the serde impls change: the type and its methods stay.
            cx.push(&FLAGS_REPR_CHANGED, &set, Audiences::new(B, C, U), format!("flag set `{id}` changes representation"), some(&o.repr), some(&n.repr));
        }
        if o.width != n.width {
            cx.push(&FLAGS_WIDTH_CHANGED, &set, Audiences::all(B), format!("flag set `{id}` changes width"), some(o.width), some(n.width));
        }
        let outer = [format!("flags:{id}")];
        let v = |x: &FlagValue| format!("{id}.{}", x.meta.id);
        let p = pair(&o.values, &n.values, |x| x.meta.id.clone());
        let renamed: Vec<(&FlagValue, &FlagValue)> =
            p.removed.iter().filter_map(|a| p.added.iter().find(|b| b.bit.is_some() && b.bit == a.bit).map(|b| (*a, *b))).collect();
        for (a, b) in &renamed {
            let mut s = Subject::item("flag", &v(a), &outer, Some(&a.meta), Some(&b.meta));
            s.claims.push(format!("flag:{}", v(b)));
            cx.push(&FLAG_RENAMED, &s, Audiences::new(C, B, B), format!("flag `{}` is renamed `{}`", v(a), b.meta.id), some(&a.meta.id), some(&b.meta.id));
        }
        let bit = |x: &FlagValue| x.bit.map(|b| format!("bit {b}"));
        for b in p.added.iter().filter(|b| !renamed.iter().any(|(_, r)| r.meta.id == b.meta.id)) {
            let s = Subject::item("flag", &v(b), &outer, None, Some(&b.meta));
            cx.push(&FLAG_ADDED, &s, Audiences::all(C), format!("flag `{}` is added", v(b)), None, bit(b).or(some(&b.meta.id)));
        }
        for a in p.removed.iter().filter(|a| !renamed.iter().any(|(r, _)| r.meta.id == a.meta.id)) {
            let s = Subject::item("flag", &v(a), &outer, Some(&a.meta), None);
            cx.push(&FLAG_REMOVED, &s, Audiences::all(B), format!("flag `{}` is removed", v(a)), bit(a).or(some(&a.meta.id)), None);
        }
        for (a, b) in p.both {
            if let (Some(x), Some(y)) = (a.bit, b.bit)
                && x != y
            {
                let s = Subject::item("flag", &v(b), &outer, Some(&a.meta), Some(&b.meta));
                cx.push(&FLAG_BIT_CHANGED, &s, Audiences::new(B, C, B), format!("flag `{}` moves from bit {x} to bit {y}", v(b)), some(x), some(y));
            }
        }
    }
}
