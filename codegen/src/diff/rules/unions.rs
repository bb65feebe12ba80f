//! Unions: their variants (added, removed, retyped, retagged, reordered), their discriminator,
//! and the bounds each variant keeps.
//!
//! A union is a type, so who writes it depends on where it is used: a variant added to a union
//! the platform writes meets clients that do not know it (oasdiff's `response-property-one-of-added`
//! is an error); one removed from a union clients write refuses what they sent. The Rust enum
//! of a union is `#[non_exhaustive]` (its `Unknown` variant keeps values the spec does not
//! describe), so a variant added breaks no `match`, unless it lacks a field every variant had
//! and with it the enum's accessor. The C ABI does not carry unions.

use super::fields::{Dir, Fields, describe};
use super::{B, C, Cx, Subject, U, pair, some, values};
use crate::diff::Audiences;
use crate::model::*;

rule!(
    "shapes",
    UNION_VARIANT_ADDED,
    "union-variant-added",
    "a union gains a variant: clients reading it meet a shape they do not know; the Rust enum is `#[non_exhaustive]`, but loses the accessor of a field every variant had that the new one lacks",
    ["addition", "shape"],
    Info,
    "oasdiff `response-property-one-of-added` (error), `request-property-one-of-added` (info); smithy-diff `AddedShape` (a union member); cargo-semver-checks `enum_variant_added`"
);
rule!(
    "shapes",
    UNION_VARIANT_REMOVED,
    "union-variant-removed",
    "a union loses a variant",
    ["removal", "deprecation", "shape"],
    Info,
    "oasdiff `request-property-one-of-removed` (error), `response-property-one-of-removed` (info); smithy-diff `RemovedShape` (a union member)"
);
rule!(
    "shapes",
    UNION_VARIANT_TYPE_CHANGED,
    "union-variant-type-changed",
    "a variant of a union carries another type",
    ["shape"],
    Info,
    "smithy-diff `ChangedMemberTarget`; buf `FIELD_SAME_TYPE` (a `oneof` member)"
);
rule!(
    "shapes",
    UNION_VARIANT_TAG_CHANGED,
    "union-variant-tag-changed",
    "a variant of a tagged union is named by another discriminator value",
    [],
    Info,
    "oasdiff `response-body-discriminator-mapping-changed`, `request-body-discriminator-mapping-changed`; buf `ENUM_VALUE_SAME_NAME` (values identify)"
);
rule!(
    "shapes",
    UNION_DISCRIMINATOR_CHANGED,
    "union-discriminator-changed",
    "a union is tagged by another field or type, or becomes tagged or untagged",
    ["shape"],
    Info,
    "oasdiff `request-body-discriminator-property-name-changed`, `response-body-discriminator-property-name-changed`, `...-discriminator-added`, `...-discriminator-removed`"
);
rule!(
    "shapes",
    UNION_VARIANTS_REORDERED,
    "union-variants-reordered",
    "an untagged union tries its variants in another order, so a value may decode as another variant",
    ["shape"],
    Warning,
    "smithy-diff `ChangedMemberOrder` (danger)"
);

pub fn check(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.unions, &new.unions, |u| u.meta.id.clone()).both {
        let dir = writers(old, &o.meta.id).and(writers(new, &n.meta.id));
        let union = Subject::item("union", &n.meta.id, &[], Some(&o.meta), Some(&n.meta));
        check_discriminator(cx, &union, o, n);
        check_variants(cx, dir, &union, o, n);
        check_order(cx, &union, o, n);
    }
}

/// `field `type` (enum<component_type>)`, or `untagged`.
fn tagging(u: &Union) -> String {
    match &u.discriminator {
        Some(d) => format!("field `{}` ({})", d.field, d.ty.as_ref().map_or_else(|| "untyped".to_owned(), ToString::to_string)),
        None => "untagged".to_owned(),
    }
}

fn check_discriminator(cx: &mut Cx<'_>, union: &Subject, o: &Union, n: &Union) {
    let (a, b) = (tagging(o), tagging(n));
    if a != b {
        let id = &n.meta.id;
        cx.push(
            &UNION_DISCRIMINATOR_CHANGED,
            &union.child(".discriminator"),
            Audiences::new(B, U, U),
            format!("union `{id}` is told apart another way"),
            some(a),
            some(b),
        );
    }
}

fn check_variants(cx: &mut Cx<'_>, dir: Dir, union: &Subject, o: &Union, n: &Union) {
    let id = &n.meta.id;
    let variant = |v: &Field, old: Option<&Field>, new: Option<&Field>| {
        let mut s = Subject::new(format!("{}.{}", union.path, v.name), &union.claims);
        s.old_span = old.map(|f| f.span);
        s.new_span = new.map(|f| f.span);
        s
    };
    let p = pair(&o.variants, &n.variants, |v| v.name.clone());
    let lost = lost_accessors(cx.old, cx.new, o, n);
    for v in &p.added {
        let wire = if dir.response() { B } else { C };
        let (rust, also) = if lost.is_empty() {
            (C, String::new())
        } else {
            (
                B,
                format!(
                    ", which lacks the field{} every variant had (`{}`: the Rust enum's accessor goes)",
                    if lost.len() == 1 { "" } else { "s" },
                    lost.join("`, `")
                ),
            )
        };
        cx.push(
            &UNION_VARIANT_ADDED,
            &variant(v, None, Some(v)),
            Audiences::new(wire, rust, U),
            format!("union `{id}` gains variant `{}`{also}", v.name),
            None,
            Some(describe(v)),
        );
    }
    for v in &p.removed {
        let wire = if dir.request() { B } else { C };
        cx.push(
            &UNION_VARIANT_REMOVED,
            &variant(v, Some(v), None),
            Audiences::new(wire, B, U),
            format!("union `{id}` loses variant `{}`", v.name),
            Some(describe(v)),
            None,
        );
    }
    let fields = Fields::members(dir, format!("{}.", union.path), union.claims.clone(), &o.variants, &n.variants);
    for (a, b) in p.both {
        let s = variant(b, Some(a), Some(b));
        let name = format!("{id}.{}", b.name);
        if a.deprecated.is_none()
            && let Some(by) = &b.deprecated
        {
            cx.push(&super::items::ITEM_DEPRECATED, &s, Audiences::all(C), format!("variant `{name}` is deprecated"), None, some(&by.id));
        }
        if a.ty != b.ty {
            let show = |f: &Field| f.ty.as_ref().map(ToString::to_string);
            cx.push(&UNION_VARIANT_TYPE_CHANGED, &s, Audiences::new(B, B, U), format!("variant `{name}` carries another type"), show(a), show(b));
        }
        if let (Some(x), Some(y)) = (cx.old.variant_tag(o, a), cx.new.variant_tag(n, b))
            && x != y
        {
            cx.push(
                &UNION_VARIANT_TAG_CHANGED,
                &s.child(".tag"),
                Audiences::new(B, U, U),
                format!("variant `{name}` is tagged {y} instead of {x}"),
                some(&x),
                some(&y),
            );
        }
        values::compare_values(cx, &fields, &s, &name, a, b);
    }
}

/// The fields every variant of `o` had that not every variant of `n` has: each was a method of
/// the Rust enum ([`Union::shared_fields`]). A field removed from a variant's record or retyped
/// there is already a breaking change of that record; a variant added without it is not.
fn lost_accessors(old: &Model, new: &Model, o: &Union, n: &Union) -> Vec<String> {
    let accessors = |m: &Model, u: &Union| -> Vec<String> {
        u.shared_fields(m).into_iter().filter(|f| crate::plan::rust::names::union_accessor(f).is_some()).map(|f| f.name.clone()).collect()
    };
    let kept = accessors(new, n);
    accessors(old, o).into_iter().filter(|f| !kept.contains(f)).collect()
}

/// An untagged union decodes a value as the first variant that accepts it: the order of the
/// variants both sides keep is part of the contract.
fn check_order(cx: &mut Cx<'_>, union: &Subject, o: &Union, n: &Union) {
    if o.discriminator.is_some() || n.discriminator.is_some() {
        return;
    }
    let kept =
        |u: &Union, other: &Union| u.variants.iter().filter(|v| other.variants.iter().any(|w| w.name == v.name)).map(|v| v.name.clone()).collect::<Vec<_>>();
    let (a, b) = (kept(o, n), kept(n, o));
    if a != b {
        let id = &n.meta.id;
        cx.push(
            &UNION_VARIANTS_REORDERED,
            &union.child(".variants"),
            Audiences::new(C, U, U),
            format!("union `{id}` tries its variants in another order"),
            some(a.join(", ")),
            some(b.join(", ")),
        );
    }
}

/// Who writes values of union `id`: the writers of every list of fields that uses it, `Both`
/// when nothing does or a union holds it (a union is typed where it is used).
pub fn writers(m: &Model, id: &str) -> Dir {
    let mut found: Option<Dir> = None;
    let mut see = |fields: &[Field], dir: Dir| {
        if fields.iter().any(|f| f.ty.as_ref().is_some_and(|t| names_union(t, id))) {
            found = Some(found.map_or(dir, |d| d.and(dir)));
        }
    };
    for r in &m.resources {
        see(&r.fields, Dir::of(&r.direction));
    }
    for e in &m.endpoints {
        for list in [&e.path_params, &e.query, &e.headers, &e.body, &e.parts] {
            see(list, Dir::Request);
        }
        see(e.body_schema.as_slice(), Dir::Request);
        see(&e.response_fields, Dir::Response);
        if e.response.as_ref().is_some_and(|t| names_union(t, id)) {
            see(&[Field { ty: e.response.clone(), ..Field::default() }], Dir::Response);
        }
        for r in e.responses.iter().filter_map(|r| m.response_of(&r.response)) {
            see(&r.fields, Dir::Response);
            see(&[Field { ty: r.ty.clone(), ..Field::default() }], Dir::Response);
        }
    }
    for e in &m.events {
        see(&e.fields, Dir::Response);
    }
    for o in &m.opcodes {
        see(&o.fields, Dir::of(&o.direction));
    }
    for u in &m.unions {
        see(&u.variants, Dir::Both);
    }
    found.unwrap_or(Dir::Both)
}

/// Whether a type is union `id` or holds it (in an array or a map).
fn names_union(t: &TypeRef, id: &str) -> bool {
    match t {
        TypeRef::Union(u) => u == id,
        TypeRef::Array(inner) => names_union(inner, id),
        TypeRef::Map(k, v) => names_union(k, id) || names_union(v, id),
        _ => false,
    }
}
