//! Rules about shapes: unions and their tags, enum subsets, typed values, map keys, patterns,
//! floating-point bounds, composition and the names shapes generate.

use super::refs::all_fields;
use super::values::constraint_sets;
use crate::diag::{Diagnostic, Diagnostics, Span, codes};
use crate::model::types::Primitive;
use crate::model::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// The discriminator type of a tagged union, when it is one a tag can have (reported otherwise).
fn tag_type(u: &Union) -> Option<(&Discriminator, &TypeRef)> {
    let d = u.discriminator.as_ref()?;
    let ty = d.ty.as_ref()?;
    matches!(ty, TypeRef::Primitive(Primitive::Integer | Primitive::String) | TypeRef::Enum(_)).then_some((d, ty))
}

/// A discriminator's values are integers, texts or the values of one enum: the generated
/// decoder reads the field before anything else and dispatches on it.
pub fn check_discriminator_type(cx: &mut Diagnostics, model: &Model) {
    for u in &model.unions {
        let Some(d) = &u.discriminator else { continue };
        let Some(ty) = &d.ty else { continue };
        let fits = matches!(ty, TypeRef::Primitive(Primitive::Integer | Primitive::String) | TypeRef::Enum(_));
        if !fits {
            cx.push(
                Diagnostic::error(codes::DISCRIMINATOR_TYPE, format!("the discriminator of union `{}` has type `{ty}`", u.meta.id))
                    .at(d.type_span, "not a discriminator type")
                    .help("a discriminator is `integer`, `string` or `enum<id>`"),
            );
        }
    }
}

/// Each variant of a tagged union is a resource that carries the discriminator field, required,
/// not nullable and of the discriminator's type, so every value of the variant names it.
pub fn check_union_variants(cx: &mut Diagnostics, model: &Model) {
    for u in &model.unions {
        let Some((d, _)) = tag_type(u) else { continue };
        for v in &u.variants {
            let Some(ty) = &v.ty else { continue };
            let TypeRef::Object(id) = ty else {
                cx.push(
                    Diagnostic::error(codes::UNION_VARIANT, format!("variant `{}` of tagged union `{}` is `{ty}`, not an object", v.name, u.meta.id))
                        .at(v.type_span, "not an object")
                        .also(d.span, "the union is tagged by this field")
                        .help("a tagged variant is `object<id>` (or an inline `object`) whose fields include the discriminator"),
                );
                continue;
            };
            let Some(resource) = model.resource(id) else { continue };
            let Some(field) = model.tag_field(u, v) else {
                cx.push(
                    Diagnostic::error(codes::UNION_VARIANT, format!("resource `{id}` of variant `{}` has no field `{}`", v.name, d.field))
                        .at(v.type_span, "this variant")
                        .also(resource.meta.id_span, "resource declared here")
                        .also(d.span, "the discriminator")
                        .help(format!("declare `{}` on `{id}` with the variant's value as `const`", d.field)),
                );
                continue;
            };
            let problem = if field.may_be_absent() || field.nullable {
                Some("optional or nullable".to_owned())
            } else if field.ty.is_some() && d.ty.is_some() && !same_tag_type(field.ty.as_ref(), d.ty.as_ref()) {
                Some(format!("of type `{}`", field.ty.as_ref().map(ToString::to_string).unwrap_or_default()))
            } else {
                None
            };
            if let Some(problem) = problem {
                let expected = d.ty.as_ref().map(ToString::to_string).unwrap_or_default();
                cx.push(
                    Diagnostic::error(codes::UNION_VARIANT, format!("discriminator field `{}` of `{id}` is {problem}", d.field))
                        .at(field.span, "declared here")
                        .also(d.span, "the discriminator")
                        .help(format!("declare it required, not nullable, of type `{expected}`")),
                );
            }
        }
    }
}

/// Whether a variant's discriminator field holds the discriminator's values: the same enum, or
/// text for text, or an integer type for integers.
fn same_tag_type(field: Option<&TypeRef>, discriminator: Option<&TypeRef>) -> bool {
    match (field, discriminator) {
        (Some(TypeRef::Primitive(a)), Some(TypeRef::Primitive(b))) => a == b || (a.is_integer() && b.is_integer()),
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// Every variant of a tagged union has a tag (`tag:` or its field's `const`), of the
/// discriminator's type, agreeing when both are given, and no two variants share one: a value's
/// tag must name exactly one variant.
pub fn check_union_tags(cx: &mut Diagnostics, model: &Model) {
    for u in &model.unions {
        let Some((d, dty)) = tag_type(u) else { continue };
        let mut seen: BTreeMap<TagValue, Span> = BTreeMap::new();
        for v in &u.variants {
            if !matches!(v.ty, Some(TypeRef::Object(_))) {
                continue;
            }
            let Some(literal) = model.tag_literal(u, v) else {
                cx.push(
                    Diagnostic::error(codes::UNION_TAG, format!("variant `{}` of union `{}` has no tag", v.name, u.meta.id))
                        .at(v.span, "no `tag:` and no `const` on its discriminator field")
                        .help(format!("give the variant's value of `{}`: `tag: ...` here or `const: ...` on the field", d.field)),
                );
                continue;
            };
            let Some(tag) = model.tag_of_type(dty, &literal.value) else {
                cx.push(
                    Diagnostic::error(codes::UNION_TAG, format!("tag `{}` of variant `{}` is not a value of `{dty}`", literal.value, v.name))
                        .at(literal.span, "this tag")
                        .also(d.type_span, "discriminator type")
                        .help(tag_help(model, dty)),
                );
                continue;
            };
            if let (TypeRef::Enum(id), TagValue::Enum(value)) = (dty, &tag)
                && let Some(e) = model.enum_(id)
                && e.values.iter().any(|x| x.meta.id == *value && !has_wire_value(e, x))
            {
                cx.push(
                    Diagnostic::error(codes::UNION_TAG, format!("tag `{value}` of variant `{}` has no number in integer enum `{id}`", v.name))
                        .at(literal.span, "no wire value to dispatch on")
                        .help("give the enum value its number"),
                );
                continue;
            }
            let from_field = model.tag_field(u, v).and_then(|f| f.constant.as_ref());
            if let (Some(own), Some(field)) = (&v.tag, from_field)
                && model.tag_of_type(dty, &field.value).as_ref() != Some(&tag)
            {
                cx.push(
                    Diagnostic::error(codes::UNION_TAG, format!("variant `{}` has tag {} but its field says {}", v.name, own.value, field.value))
                        .at(own.span, "tag here")
                        .also(field.span, "`const` of the discriminator field")
                        .help("give one value, or make the two agree"),
                );
            }
            match seen.get(&tag) {
                Some(first) => cx.push(
                    Diagnostic::error(codes::UNION_TAG, format!("two variants of union `{}` have tag {tag}", u.meta.id))
                        .at(literal.span, "tag used again here")
                        .also(*first, "first used here")
                        .help("each variant has its own tag"),
                ),
                None => {
                    seen.insert(tag, literal.span);
                }
            }
        }
    }
}

fn tag_help(model: &Model, ty: &TypeRef) -> String {
    match ty {
        TypeRef::Enum(id) => {
            let values: Vec<String> = model.enum_(id).map(|e| e.values.iter().map(|v| format!("`{}`", v.meta.id)).collect()).unwrap_or_default();
            format!("a tag of `enum<{id}>` is one of its value ids: {}", values.join(", "))
        }
        TypeRef::Primitive(Primitive::String) => "a tag of a `string` discriminator is a text".to_owned(),
        _ => "a tag of an `integer` discriminator is an integer".to_owned(),
    }
}

/// `tag:` belongs to the variants of a tagged union, the one place a value is named by it.
pub fn check_tag_placement(cx: &mut Diagnostics, model: &Model) {
    let mut tagged: Vec<*const Field> = Vec::new();
    for u in model.unions.iter().filter(|u| u.discriminator.is_some()) {
        tagged.extend(u.variants.iter().map(|v| v as *const Field));
    }
    for f in all_fields(model) {
        let Some(tag) = &f.tag else { continue };
        if !tagged.contains(&(f as *const Field)) {
            cx.push(
                Diagnostic::error(codes::TAG_PLACEMENT, format!("`tag` on `{}`, which is not a variant of a tagged union", f.name))
                    .at(tag.span, "no discriminator reads this")
                    .help("`tag:` goes on a variant of a union with a `discriminator`; a field fixed to one value takes `const:`"),
            );
        }
    }
}

/// An untagged union tries its variants in its try order ([`Union::try_order`]) and keeps the
/// first that decodes and meets its own constraints, so a variant tried after an unconstrained
/// one that decodes everything it would (the same type, or text before other text-shaped
/// types) is never chosen.
pub fn check_untagged_order(cx: &mut Diagnostics, model: &Model) {
    for u in model.unions.iter().filter(|u| u.discriminator.is_none()) {
        let order = u.try_order(model);
        for (i, later) in order.iter().enumerate() {
            let Some(ty) = &later.ty else { continue };
            // An earlier variant with constraints of its own lets through what breaks them.
            let winner = order[..i].iter().find(|earlier| !narrowed(earlier) && earlier.ty.as_ref().is_some_and(|e| shadows(model, e, ty)));
            if let Some(earlier) = winner {
                cx.push(
                    Diagnostic::error(codes::UNREACHABLE_VARIANT, format!("variant `{}` of union `{}` is never chosen", later.name, u.meta.id))
                        .at(later.type_span, "decoded by the earlier variant first")
                        .also(earlier.type_span, "this variant comes first")
                        .help("variants are tried in order: put the narrower one first, or tag the union"),
                );
            }
        }
    }
}

/// Whether a variant has constraints of its own, which its decoder checks before it wins.
fn narrowed(f: &Field) -> bool {
    !f.constraints.is_empty() || f.constant.is_some() || !f.subset.is_empty() || f.items.is_some()
}

/// Whether every value of `later` also decodes as `earlier`.
fn shadows(model: &Model, earlier: &TypeRef, later: &TypeRef) -> bool {
    let text = |t: &TypeRef| matches!(t, TypeRef::Primitive(Primitive::String | Primitive::Url | Primitive::Email | Primitive::Csv));
    let string_only = |t: &TypeRef| match t {
        TypeRef::Primitive(p) => matches!(p, Primitive::Timestamp | Primitive::Date | Primitive::Uuid | Primitive::Bytes) || text(t),
        TypeRef::Enum(id) => model.enum_(id).is_some_and(|e| e.repr == "string"),
        _ => false,
    };
    earlier == later || matches!(earlier, TypeRef::Primitive(Primitive::Json)) || (text(earlier) && string_only(later))
}

/// `subset:` narrows an enum field (or an array of one) to some of its values: the field is an
/// enum and every id named is one of its values.
pub fn check_enum_subsets(cx: &mut Diagnostics, model: &Model) {
    for f in all_fields(model) {
        let Some(first) = f.subset.first() else { continue };
        let Some(ty) = &f.ty else { continue };
        let TypeRef::Enum(id) = ty.element() else {
            cx.push(
                Diagnostic::error(codes::ENUM_SUBSET, format!("`subset` on field `{}` of type `{ty}`", f.name))
                    .at(first.span, "not an enum field")
                    .also(f.type_span, "type declared here")
                    .help("`subset:` lists values of the field's enum; a field fixed to one value takes `const:`"),
            );
            continue;
        };
        let Some(e) = model.enum_(id) else { continue };
        for r in &f.subset {
            if let Some(v) = e.values.iter().find(|v| v.meta.id == r.id)
                && !has_wire_value(e, v)
            {
                cx.push(
                    Diagnostic::error(codes::ENUM_SUBSET, format!("`{}` of integer enum `{id}` has no number", r.id))
                        .at(r.span, "no wire value to accept")
                        .also(v.meta.id_span, "value declared here")
                        .help("a subset names values the wire carries: give the value its number, or leave it out"),
                );
            } else if !e.values.iter().any(|v| v.meta.id == r.id) {
                cx.push(
                    Diagnostic::error(codes::ENUM_SUBSET, format!("`{}` is not a value of enum `{id}`", r.id))
                        .at(r.span, "not in the enum")
                        .suggest(&r.id, e.values.iter().map(|v| v.meta.id.as_str()))
                        .help(format!("a subset names values of `{id}` by id")),
                );
            }
        }
    }
}

/// `const` and `default` are values of the field's type: a number within an integer type's
/// range, a text for text, a date that parses, an enum value id (or number) of the field's
/// enum, an array of such for arrays. A default belongs to a field that may be absent.
pub fn check_literal_values(cx: &mut Diagnostics, model: &Model) {
    for f in all_fields(model) {
        let Some(ty) = &f.ty else { continue };
        for (key, literal) in [("const", &f.constant), ("default", &f.default)] {
            let Some(literal) = literal else { continue };
            if let Err(why) = fits(model, ty, &literal.value, key == "default") {
                cx.push(
                    Diagnostic::error(codes::VALUE_TYPE, format!("`{key}` of field `{}` is not a value of `{ty}`", f.name))
                        .at(literal.span, why)
                        .also(f.type_span, "type declared here")
                        .help("write the value as the wire carries it; an enum value by its id"),
                );
            }
        }
        if let Some(d) = &f.default
            && !f.may_be_absent()
        {
            cx.push(
                Diagnostic::error(codes::VALUE_TYPE, format!("`default` on field `{}`, which is required", f.name))
                    .at(d.span, "never used: the field is always sent")
                    .help("declare the field `optional: true`, or remove the default"),
            );
        }
    }
}

/// An `example` is a value the field may take, as the wire carries it (an enum value by its
/// wire value, a snowflake as decimal text), so the docs, the OpenAPI document and the mock
/// server never show one the field would refuse.
pub fn check_examples(cx: &mut Diagnostics, model: &Model) {
    for f in all_fields(model) {
        let (Some(ty), Some(example)) = (&f.ty, &f.example) else { continue };
        if example.value.is_null() && f.nullable {
            continue;
        }
        if let Err(why) = fits_wire(model, ty, &example.value) {
            cx.push(
                Diagnostic::error(codes::EXAMPLE_TYPE, format!("`example` of field `{}` is not a value of `{ty}`", f.name))
                    .at(example.span, why)
                    .also(f.type_span, "type declared here")
                    .help("write the example as the wire carries it: an enum value by its wire value, a snowflake as decimal text"),
            );
        }
    }
}

/// Whether `value` is a wire value of `ty`: like [`fits`], with enum values and snowflakes as
/// the JSON carries them, and any object for objects, maps and unions.
fn fits_wire(model: &Model, ty: &TypeRef, value: &Value) -> Result<(), String> {
    let want = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("expected {what}")) };
    match ty {
        TypeRef::Primitive(Primitive::Snowflake | Primitive::StringInteger) => {
            want(value.as_str().is_some_and(|s| !s.is_empty() && s.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit())), "a decimal integer as text")
        }
        TypeRef::Primitive(Primitive::Bytes | Primitive::File | Primitive::Csv) => want(value.is_string(), "a text"),
        TypeRef::Primitive(_) => fits(model, ty, value, false),
        TypeRef::Enum(id) => match model.enum_(id) {
            Some(e) if e.repr == "integer" => want(value.is_i64(), "an integer"),
            Some(_) => want(value.is_string(), "a text"),
            None => Ok(()),
        },
        TypeRef::Flags(_) => want(value.is_u64() || value.is_string(), "the flag set's bits"),
        TypeRef::Array(inner) => match value.as_array() {
            Some(list) => list.iter().try_for_each(|v| fits_wire(model, inner, v)),
            None => Err("expected an array".to_owned()),
        },
        TypeRef::Map(..) | TypeRef::Object(_) => want(value.is_object(), "an object"),
        TypeRef::Union(_) | TypeRef::Class(_) => Ok(()),
    }
}

/// Whether `value` is a value of `ty`; the error says why not.
fn fits(model: &Model, ty: &TypeRef, value: &Value, array_ok: bool) -> Result<(), String> {
    let want = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("expected {what}")) };
    match ty {
        TypeRef::Primitive(p) => match p {
            Primitive::Boolean => want(value.is_boolean(), "`true` or `false`"),
            Primitive::Integer => want(value.is_i64(), "an integer"),
            Primitive::Int32 => want(value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()), "an integer in the range of `int32`"),
            Primitive::Uint32 => want(value.as_u64().is_some_and(|n| u32::try_from(n).is_ok()), "an integer in the range of `uint32`"),
            Primitive::Uint64 => want(value.is_u64(), "a non-negative integer"),
            Primitive::Number | Primitive::Float32 => want(value.is_number(), "a number"),
            Primitive::Snowflake | Primitive::StringInteger => {
                want(value.is_u64() || value.as_str().is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())), "a decimal integer")
            }
            Primitive::String | Primitive::Url | Primitive::Email | Primitive::Csv => want(value.is_string(), "a text"),
            Primitive::Timestamp => want(value.as_str().is_some_and(|s| s.parse::<jiff::Timestamp>().is_ok()), "an RFC 3339 instant"),
            Primitive::Date => want(value.as_str().is_some_and(|s| s.parse::<jiff::civil::Date>().is_ok()), "a date `YYYY-MM-DD`"),
            Primitive::Uuid => want(value.as_str().is_some_and(is_uuid), "a UUID `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`"),
            Primitive::Null => want(value.is_null(), "`null`"),
            Primitive::Json => Ok(()),
            Primitive::Bytes | Primitive::File => Err(format!("no literal of type `{}`", p.name())),
        },
        TypeRef::Enum(id) => match model.enum_(id) {
            Some(e) if model.enum_value_of(id, value).is_some_and(|v| !has_wire_value(e, v)) => {
                Err(format!("the value has no number in integer enum `{id}`, so nothing on the wire is it"))
            }
            Some(_) if model.enum_value_of(id, value).is_some() => Ok(()),
            Some(e) => Err(format!("expected a value of `{id}`: {}", e.values.iter().map(|v| format!("`{}`", v.meta.id)).collect::<Vec<_>>().join(", "))),
            None => Ok(()),
        },
        TypeRef::Flags(_) => want(value.is_u64(), "the flag set's bits as an integer"),
        TypeRef::Array(inner) if array_ok => match value.as_array() {
            Some(list) => list.iter().try_for_each(|v| fits(model, inner, v, false)),
            None => Err("expected an array".to_owned()),
        },
        _ => Err(format!("no literal of type `{ty}`")),
    }
}

/// Whether an enum value has a form on the wire: every value of a string enum does, a value of
/// an integer enum when the spec gives its number.
fn has_wire_value(e: &Enum, v: &EnumValue) -> bool {
    e.repr == "string" || v.value.is_some()
}

/// The 8-4-4-4-12 hexadecimal form.
fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12]) && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A field of an SDK class is what the C and C++ headers expose; one whose type the C ABI does not
/// carry is left out of them (and said so on the class), which is worth a look, not an error.
pub fn check_class_fields_cross_c(cx: &mut Diagnostics, model: &Model) {
    for c in &model.classes {
        for f in &c.fields {
            let Some(ty) = f.ty.as_ref().filter(|t| !t.crosses_c_abi()) else { continue };
            cx.push(
                Diagnostic::warning(
                    codes::NO_C_MAPPING,
                    format!("field `{}` of class `{}` has type `{ty}`, which the C ABI does not carry", f.name, c.meta.id),
                )
                .at(f.type_span, "left out of the C and C++ headers")
                .help("the headers say so on the class; give the field a scalar, text, enum, flag or class type for C callers to reach it"),
            );
        }
    }
}

/// A map's keys are JSON object keys, so text on the wire: text, snowflakes, uuids, integers
/// (written as decimal text) or the values of an enum.
pub fn check_map_keys(cx: &mut Diagnostics, model: &Model) {
    let key_ok = |k: &TypeRef| match k {
        TypeRef::Primitive(p) => matches!(p, Primitive::String | Primitive::Snowflake | Primitive::Uuid) || (p.is_integer() && *p != Primitive::StringInteger),
        TypeRef::Enum(_) => true,
        _ => false,
    };
    for f in all_fields(model) {
        let Some(ty) = &f.ty else { continue };
        ty.walk(&mut |t| {
            if let TypeRef::Map(k, _) = t
                && !key_ok(k)
            {
                cx.push(
                    Diagnostic::error(codes::MAP_KEY, format!("map key type `{k}` of field `{}`", f.name))
                        .at(f.type_span, "not a key type")
                        .help("map keys are `string`, `snowflake`, `uuid`, an integer type or `enum<id>`"),
                );
            }
        });
    }
}

/// A `pattern` compiles with an engine of the generated validators (`regex`, or `fancy-regex`
/// for look-around and backreferences), so a pattern that would fail at run time fails here
/// instead, where it was written.
pub fn check_patterns(cx: &mut Diagnostics, model: &Model) {
    for set in constraint_sets(model) {
        let Some(p) = &set.constraints.pattern else { continue };
        if let Err(why) = p.engine() {
            cx.push(
                Diagnostic::error(codes::INVALID_PATTERN, format!("pattern of field `{}` does not compile: {why}", set.field.name))
                    .at(p.span, "this pattern")
                    .help("patterns use the `regex` crate's syntax, with look-around and backreferences as `fancy-regex` reads them"),
            );
        }
    }
}

/// A fractional bound fits only a floating-point field's `min`/`max` keys: an integer field,
/// a length or a count is bounded by an integer.
pub fn check_float_bounds(cx: &mut Diagnostics, model: &Model) {
    for set in constraint_sets(model) {
        let float_type = set.ty.primitive().is_some_and(Primitive::is_float);
        for (key, bound) in set.constraints.all() {
            let Bound::Float(span, v) = bound else { continue };
            let value_bound = matches!(key, "min" | "max" | "min_exclusive" | "max_exclusive");
            if !(float_type && value_bound) {
                cx.push(
                    Diagnostic::error(codes::FLOAT_BOUND, format!("`{key}: {v}` on field `{}` of type `{}`", set.field.name, set.ty))
                        .at(*span, "a fractional bound")
                        .also(set.field.type_span, "type declared here")
                        .help("fractions bound `number` and `float32` values; lengths, counts and integers take integers"),
                );
            }
        }
    }
}

/// `extends` never leads back to the resource: its fields would be their own base.
pub fn check_extends_cycles(cx: &mut Diagnostics, model: &Model) {
    for r in &model.resources {
        for base in &r.extends {
            if reaches(model, &base.id, &r.meta.id, &mut Vec::new()) {
                cx.push(
                    Diagnostic::error(codes::EXTENDS_CYCLE, format!("resource `{}` extends itself through `{}`", r.meta.id, base.id))
                        .at(base.span, "leads back to the resource")
                        .help("remove one `extends` of the cycle"),
                );
            }
        }
    }
}

fn reaches(model: &Model, from: &str, target: &str, seen: &mut Vec<String>) -> bool {
    if from == target {
        return true;
    }
    if seen.iter().any(|s| s == from) {
        return false;
    }
    seen.push(from.to_owned());
    model.resource(from).is_some_and(|r| r.extends.iter().any(|b| reaches(model, &b.id, target, seen)))
}

/// A resource may declare a field of its base again to narrow it (a `const`, tighter bounds),
/// but with the same type: a value of the resource is also a value of its base.
pub fn check_extends_redefinitions(cx: &mut Diagnostics, model: &Model) {
    for r in model.resources.iter().filter(|r| !r.extends.is_empty()) {
        for own in r.own_fields() {
            for base in &r.extends {
                let Some(b) = model.resource(&base.id) else { continue };
                let Some(inherited) = b.fields.iter().find(|f| f.name == own.name) else { continue };
                if let (Some(a), Some(t)) = (&inherited.ty, &own.ty)
                    && a != t
                {
                    cx.push(
                        Diagnostic::error(
                            codes::EXTENDS_REDEFINED,
                            format!("field `{}` of `{}` is `{t}`, but `{a}` in its base `{}`", own.name, r.meta.id, b.meta.id),
                        )
                        .at(own.type_span, "type here")
                        .also(inherited.type_span, "base's type")
                        .help("keep the base's type (constraints may narrow it), or rename the field"),
                    );
                }
            }
        }
    }
}
