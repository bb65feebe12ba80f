//! What a field's values may be: how wide its type is (a map's keys and values, a scalar that
//! accepts more or fewer values), how its presence shows in Rust, its default, its bounds,
//! pattern, constant and enum subset, and the rules of its elements.
//!
//! Like [`super::shapes`], a change's wire impact depends on who writes the value: accepting
//! less breaks what clients send, accepting more breaks what clients read.

use super::fields::Fields;
use super::{B, C, Cx, Subject, U, some};
use crate::model::types::Primitive;
use crate::model::*;
use std::collections::BTreeSet;

rule!(
    "shapes",
    FIELD_TYPE_CHANGED,
    "field-type-changed",
    "a field's type changes",
    ["shape"],
    Info,
    "oasdiff `response-property-type-changed`, `request-property-type-changed`; buf `FIELD_SAME_TYPE`; smithy-diff `ChangedMemberTarget`"
);
rule!(
    "shapes",
    FIELD_BECAME_NULLABLE,
    "field-became-nullable",
    "a field may now be null",
    ["shape"],
    Info,
    "oasdiff `response-property-became-nullable`; smithy-diff `ChangedNullability`"
);
rule!(
    "shapes",
    FIELD_BECAME_NON_NULLABLE,
    "field-became-non-nullable",
    "a field may no longer be null",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-became-not-nullable`"
);
rule!(
    "shapes",
    FIELD_DEFAULT_CHANGED,
    "field-default-changed",
    "a field's default changes",
    ["shape", "behavior"],
    Info,
    "buf `FIELD_SAME_DEFAULT`; smithy-diff `ChangedDefault`"
);
rule!(
    "shapes",
    REQUEST_MAX_DECREASED,
    "request-max-decreased",
    "a maximum (value, length, items, size) of something clients send decreases",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-max-decreased`, `request-property-max-length-decreased`, `request-parameter-max-items-decreased`; smithy-diff `ChangedLengthTrait`, `ChangedRangeTrait`"
);
rule!(
    "shapes",
    REQUEST_MIN_INCREASED,
    "request-min-increased",
    "a minimum (value, length, items) of something clients send increases",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-min-increased`, `request-property-min-length-increased`, `request-property-min-items-increased`"
);
rule!(
    "shapes",
    REQUEST_BOUND_ADDED,
    "request-bound-added",
    "something clients send gets a bound it did not have",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-max-set`, `request-property-min-set`"
);
rule!(
    "shapes",
    REQUEST_BOUND_LOOSENED,
    "request-bound-loosened",
    "a bound of something clients send is raised, lowered or removed so more is accepted",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-max-increased` (info)"
);
rule!(
    "shapes",
    RESPONSE_BOUND_LOOSENED,
    "response-bound-loosened",
    "a bound of something the platform writes is loosened: clients may see values they did not",
    ["shape"],
    Warning,
    "oasdiff `response-property-max-increased` (warn)"
);

rule!(
    "shapes",
    FIELD_TYPE_GENERALIZED,
    "field-type-generalized",
    "a field's type accepts every value it did and more (`int32` to `integer`, `email` to `string`)",
    ["shape"],
    Info,
    "oasdiff `request-property-type-generalized` (info), `response-property-type-generalized` (error)"
);
rule!(
    "shapes",
    FIELD_TYPE_SPECIALIZED,
    "field-type-specialized",
    "a field's type accepts only some of the values it did (`string` to `uuid`, `number` to `float32`)",
    ["shape", "requirement"],
    Info,
    "oasdiff `request-property-type-changed` (error), `response-property-type-specialized` (info)"
);
rule!(
    "shapes",
    MAP_KEY_TYPE_CHANGED,
    "map-key-type-changed",
    "the keys of a map field change type",
    ["shape"],
    Info,
    "buf `FIELD_SAME_TYPE` (a map's key type); oasdiff `request-property-type-changed` (`propertyNames`)"
);
rule!(
    "shapes",
    MAP_VALUE_TYPE_CHANGED,
    "map-value-type-changed",
    "the values of a map field change type",
    ["shape"],
    Info,
    "buf `FIELD_SAME_TYPE` (a map's value type); oasdiff `response-property-type-changed` (`additionalProperties`)"
);
rule!(
    "shapes",
    FIELD_PRESENCE_CHANGED,
    "field-presence-changed",
    "a field's Rust type changes between `T`, `Option<T>` and `Presence<T>` (absent, null or a value)",
    ["shape"],
    Info,
    "smithy-diff `ChangedNullability` (the generated member's nullability); cargo-semver-checks (a public field's type changes)"
);
rule!(
    "shapes",
    FIELD_DEFAULT_ADDED,
    "field-default-added",
    "a field that may be absent gets a default that stands for absence",
    ["shape", "behavior"],
    Info,
    "oasdiff `request-property-default-value-added`, `response-property-default-value-added` (info); smithy-diff `ChangedDefault` (added: danger)"
);
rule!(
    "shapes",
    FIELD_DEFAULT_REMOVED,
    "field-default-removed",
    "a field loses its default: absence no longer stands for a value",
    ["shape", "behavior"],
    Info,
    "oasdiff `request-property-default-value-removed`; smithy-diff `ChangedDefault` (removed: error)"
);
rule!(
    "shapes",
    FIELD_PATTERN_ADDED,
    "field-pattern-added",
    "a text field gets a pattern its values must match",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-pattern-added`, `request-parameter-pattern-added`"
);
rule!(
    "shapes",
    FIELD_PATTERN_CHANGED,
    "field-pattern-changed",
    "a text field's pattern changes: whether it accepts more or less cannot be decided",
    ["requirement", "shape"],
    Warning,
    "oasdiff `request-property-pattern-changed` (error), `request-parameter-pattern-changed`"
);
rule!(
    "shapes",
    FIELD_CONSTANT_CHANGED,
    "field-constant-changed",
    "the one value a field takes (`const`) is set, changes or is lifted",
    ["shape"],
    Info,
    "oasdiff `request-body-const-added`, `request-body-const-changed`, `request-property-const-removed`"
);
rule!(
    "shapes",
    FIELD_ENUM_SUBSET_NARROWED,
    "field-enum-subset-narrowed",
    "a field accepts fewer of its enum's values",
    ["requirement", "shape"],
    Info,
    "oasdiff `request-property-enum-value-removed`, `request-parameter-enum-value-removed`"
);
rule!(
    "shapes",
    FIELD_ENUM_SUBSET_WIDENED,
    "field-enum-subset-widened",
    "a field accepts more of its enum's values",
    ["shape"],
    Info,
    "oasdiff `response-property-enum-value-added`"
);

/// A field's type: a map's key and value compared apart, a scalar or array that accepts more
/// or less told apart from one that accepts other values.
pub fn compare_type(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, o: &Field, n: &Field) {
    let Some(a) = &o.ty else { return };
    if o.ty == n.ty {
        return;
    }
    let Some(b) = &n.ty else {
        cx.push(&FIELD_TYPE_CHANGED, s, f.audiences(B, B, B), format!("field `{name}` changes type"), some(a), some("untyped"));
        return;
    };
    match (a, b) {
        (TypeRef::Map(k1, v1), TypeRef::Map(k2, v2)) => {
            if k1 != k2 {
                cx.push(&MAP_KEY_TYPE_CHANGED, &s.child(".keys"), f.audiences(B, B, B), format!("the keys of map `{name}` change type"), some(k1), some(k2));
            }
            if v1 != v2 {
                cx.push(
                    &MAP_VALUE_TYPE_CHANGED,
                    &s.child(".values"),
                    f.audiences(B, B, B),
                    format!("the values of map `{name}` change type"),
                    some(v1),
                    some(v2),
                );
            }
        }
        _ if includes(b, a) => {
            let message = format!("field `{name}` accepts every value it did and more");
            cx.push(&FIELD_TYPE_GENERALIZED, s, f.audiences(f.wire_if(false, true), B, B), message, some(a), some(b));
        }
        _ if includes(a, b) => {
            let message = format!("field `{name}` accepts only some of the values it did");
            cx.push(&FIELD_TYPE_SPECIALIZED, s, f.audiences(f.wire_if(true, false), B, B), message, some(a), some(b));
        }
        _ => cx.push(&FIELD_TYPE_CHANGED, s, f.audiences(B, B, B), format!("field `{name}` changes type"), some(a), some(b)),
    }
}

/// Whether every value of `narrow` is a value of `wide` as JSON carries it: integers of fewer
/// bits within wider ones and within `number`, text formats within `string`, element-wise for
/// arrays and maps.
fn includes(wide: &TypeRef, narrow: &TypeRef) -> bool {
    use Primitive::*;
    match (wide, narrow) {
        _ if wide == narrow => true,
        (TypeRef::Array(w), TypeRef::Array(n)) => includes(w, n),
        (TypeRef::Map(wk, wv), TypeRef::Map(nk, nv)) => includes(wk, nk) && includes(wv, nv),
        (TypeRef::Primitive(w), TypeRef::Primitive(n)) => match w {
            Number => matches!(n, Integer | Int32 | Uint32 | Uint64 | Float32),
            Integer => matches!(n, Int32 | Uint32),
            Uint64 => matches!(n, Uint32),
            String => matches!(n, Email | Uuid | Url | Date | Timestamp | Snowflake | StringInteger),
            _ => false,
        },
        _ => false,
    }
}

/// How a field's presence shows in Rust: `(kind, words)`; a defaulted field is a plain value.
fn rust_presence(f: &Field) -> (&'static str, &'static str) {
    if f.three_state() {
        ("presence", "`Presence<T>` (absent, null or a value)")
    } else if f.defaulted() {
        ("value", "`T` (its default stands for absence)")
    } else if f.may_be_absent() || f.nullable {
        ("option", "`Option<T>`")
    } else {
        ("value", "`T`")
    }
}

/// The Rust side of a field's presence: optionality, nullability and a default together decide
/// whether the member is a value, an `Option` or a three-state `Presence`.
pub fn compare_presence(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, o: &Field, n: &Field) {
    let (a, b) = (rust_presence(o), rust_presence(n));
    if a.0 == b.0 || !f.seen.1 {
        return;
    }
    cx.push(&FIELD_PRESENCE_CHANGED, &s.child(".presence"), f.audiences(U, B, U), format!("the Rust type of field `{name}` changes"), some(a.1), some(b.1));
}

/// Defaults: a changed one changes what an absent value means; an added one gives absence a
/// meaning; a removed one takes it away from clients that left the field out.
pub fn compare_default(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, o: &Field, n: &Field) {
    let s = s.child(".default");
    match (&o.default, &n.default) {
        (Some(a), Some(b)) if a.value != b.value => {
            cx.push(&FIELD_DEFAULT_CHANGED, &s, f.audiences(B, U, U), format!("the default of field `{name}` changes"), some(&a.value), some(&b.value));
        }
        (None, Some(b)) => cx.push(&FIELD_DEFAULT_ADDED, &s, f.audiences(C, U, U), format!("field `{name}` gets a default"), None, some(&b.value)),
        (Some(a), None) => {
            let message = format!("field `{name}` loses its default");
            cx.push(&FIELD_DEFAULT_REMOVED, &s, f.audiences(f.wire_if(true, false), U, U), message, some(&a.value), None);
        }
        _ => {}
    }
}

/// Everything that bounds a field's values: its constraints, constant, enum subset and the
/// rules of its elements.
pub fn compare_values(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, o: &Field, n: &Field) {
    compare_constraints(cx, f, s, name, &o.constraints, &n.constraints);
    compare_constant(cx, f, s, name, o, n);
    compare_subset(cx, f, s, name, o, n);
    compare_items(cx, f, &s.child(".items"), name, o.items.as_ref(), n.items.as_ref());
}

/// Bounds, `unique_items` and the pattern of one field (or a union's variant, or elements).
pub fn compare_constraints(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, old: &Constraints, new: &Constraints) {
    compare_bounds(cx, f, s, name, old, new);
    if old.unique_items != new.unique_items {
        let b = Bounded { key: "unique_items", name, tighter: new.unique_items, added: new.unique_items, upper: false };
        let words = |u: bool| some(if u { "unique items" } else { "repeated items allowed" });
        report_bound(cx, f, s, &b, words(old.unique_items), words(new.unique_items));
    }
    let pattern = |p: &Option<Pattern>| p.as_ref().map(|p| p.regex.clone());
    match (pattern(&old.pattern), pattern(&new.pattern)) {
        (None, Some(p)) => {
            let s = s.child(".pattern");
            cx.push(&FIELD_PATTERN_ADDED, &s, f.audiences(f.wire_if(true, false), U, U), format!("field `{name}` must match a pattern"), None, Some(p));
        }
        (Some(a), Some(b)) if a != b => {
            let s = s.child(".pattern");
            cx.push(
                &FIELD_PATTERN_CHANGED,
                &s,
                f.audiences(f.wire_if(true, false), U, U),
                format!("field `{name}` must match another pattern"),
                Some(a),
                Some(b),
            );
        }
        (Some(a), None) => report_bound(cx, f, s, &Bounded { key: "pattern", name, tighter: false, added: false, upper: false }, Some(a), None),
        _ => {}
    }
}

/// `const`: setting it accepts one value only; lifting it lets clients see others.
fn compare_constant(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, o: &Field, n: &Field) {
    let s = s.child(".const");
    let (a, b) = (o.constant.as_ref().map(|c| &c.value), n.constant.as_ref().map(|c| &c.value));
    let (wire, message) = match (a, b) {
        (None, Some(v)) => (f.wire_if(true, false), format!("field `{name}` always carries `{v}`")),
        (Some(x), Some(y)) if x != y => (B, format!("field `{name}` always carries `{y}` instead of `{x}`")),
        (Some(x), None) => (f.wire_if(false, true), format!("field `{name}` no longer always carries `{x}`")),
        _ => return,
    };
    cx.push(&FIELD_CONSTANT_CHANGED, &s, f.audiences(wire, U, U), message, a.map(ToString::to_string), b.map(ToString::to_string));
}

/// The enum a field's values (or its elements) come from.
fn enum_of(t: Option<&TypeRef>) -> Option<&str> {
    match t? {
        TypeRef::Enum(id) => Some(id),
        TypeRef::Array(inner) => enum_of(Some(inner)),
        _ => None,
    }
}

/// An enum subset: the values of the field's enum it accepts (every one when none is named).
/// Values the enum itself gains or loses are the enum's findings; only an explicit subset is
/// compared here.
fn compare_subset(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, o: &Field, n: &Field) {
    if o.subset.is_empty() && n.subset.is_empty() {
        return;
    }
    let (Some(e), Some(e2)) = (enum_of(o.ty.as_ref()), enum_of(n.ty.as_ref())) else { return };
    if e != e2 {
        return;
    }
    let accepted = |m: &Model, field: &Field| -> BTreeSet<String> {
        if field.subset.is_empty() {
            m.enum_(e).map(|x| x.values.iter().map(|v| v.meta.id.clone()).collect()).unwrap_or_default()
        } else {
            field.subset.iter().map(|r| r.id.clone()).collect()
        }
    };
    let (was, is) = (accepted(cx.old, o), accepted(cx.new, n));
    // In the enum's order, values it no longer has last.
    let order: Vec<String> = cx.new.enum_(e).map(|x| x.values.iter().map(|v| v.meta.id.clone()).collect()).unwrap_or_default();
    let list = |set: &BTreeSet<String>| {
        let mut ids: Vec<&String> = set.iter().collect();
        ids.sort_by_key(|v| order.iter().position(|o| o == *v).unwrap_or(order.len()));
        ids.iter().map(|v| format!("{e}.{v}")).collect::<Vec<_>>().join(", ")
    };
    let s = s.child(".subset");
    let lost: BTreeSet<String> = was.difference(&is).cloned().collect();
    let gained: BTreeSet<String> = is.difference(&was).cloned().collect();
    if !lost.is_empty() {
        let message = format!("field `{name}` no longer accepts {}", list(&lost));
        cx.push(&FIELD_ENUM_SUBSET_NARROWED, &s, f.audiences(f.wire_if(true, false), U, U), message, some(list(&was)), some(list(&is)));
    }
    if !gained.is_empty() {
        let message = format!("field `{name}` also accepts {}", list(&gained));
        cx.push(&FIELD_ENUM_SUBSET_WIDENED, &s, f.audiences(f.wire_if(false, true), U, U), message, some(list(&was)), some(list(&is)));
    }
}

/// The rules of an array's elements (or a map's values): whether one may be `null`, their
/// bounds, and their own elements'.
fn compare_items(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, o: Option<&Items>, n: Option<&Items>) {
    if o.is_none() && n.is_none() {
        return;
    }
    let none = Items::default();
    let (a, b) = (o.unwrap_or(&none), n.unwrap_or(&none));
    match (a.nullable, b.nullable) {
        (false, true) => cx.push(
            &FIELD_BECAME_NULLABLE,
            s,
            f.audiences(f.wire_if(false, true), B, B),
            format!("elements of field `{name}` may now be null"),
            some("not nullable"),
            some("nullable"),
        ),
        (true, false) => cx.push(
            &FIELD_BECAME_NON_NULLABLE,
            s,
            f.audiences(f.wire_if(true, false), B, B),
            format!("elements of field `{name}` may no longer be null"),
            some("nullable"),
            some("not nullable"),
        ),
        _ => {}
    }
    compare_constraints(cx, f, s, &format!("{name} (elements)"), &a.constraints, &b.constraints);
    compare_items(cx, f, &s.child(".items"), &format!("{name} (elements)"), a.items.as_deref(), b.items.as_deref());
}

/// The keys of upper bounds (a larger value accepts more).
const UPPER: &[&str] = &["max", "max_exclusive", "max_length", "max_items", "max_entries", "max_size"];

/// A bound's number at this point of the timeline: literals, and limits with their value of the
/// projection; `None` for bounds known only at run time.
fn number(m: &Model, b: &Bound, upper: bool) -> Option<f64> {
    match b {
        Bound::Value(_, v) => Some(*v as f64),
        Bound::Float(_, v) => Some(*v),
        Bound::Limit { limit, offset } => {
            let l = m.limit(&limit.id)?;
            let v = if upper { l.upper() } else { l.lower().or(l.upper()) };
            v.map(|v| (v + offset) as f64)
        }
        Bound::Field { .. } => None,
    }
}

/// Bounds in words: `32`, `label_length (32)`, `get_gateway_bot.max_concurrency`.
fn bound_words(m: &Model, b: &Bound, upper: bool) -> String {
    let offset = |o: i64| if o == 0 { String::new() } else { format!("{o:+}") };
    match b {
        Bound::Value(_, v) => v.to_string(),
        Bound::Float(_, v) => v.to_string(),
        Bound::Limit { limit, offset: o } => match number(m, b, upper) {
            Some(v) => format!("limit {}{} ({v})", limit.id, offset(*o)),
            None => format!("limit {}{}", limit.id, offset(*o)),
        },
        Bound::Field { endpoint, field, offset: o } => format!("{}.{field}{}", endpoint.id, offset(*o)),
    }
}

/// Two bounds naming the same limit (or response field) with the same offset: a change of the
/// limit's own value is the limit's finding, not each field's.
fn same_reference(a: &Bound, b: &Bound) -> bool {
    match (a, b) {
        (Bound::Limit { limit: x, offset: o }, Bound::Limit { limit: y, offset: p }) => x.id == y.id && o == p,
        (Bound::Field { endpoint: x, field: f, offset: o }, Bound::Field { endpoint: y, field: g, offset: p }) => x.id == y.id && f == g && o == p,
        _ => false,
    }
}

fn compare_bounds(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, name: &str, old: &Constraints, new: &Constraints) {
    let (o_all, n_all) = (old.all(), new.all());
    let mut keys: Vec<&str> = o_all.iter().chain(&n_all).map(|(k, _)| *k).collect();
    keys.dedup();
    let mut seen = Vec::new();
    keys.retain(|k| {
        !seen.contains(k) && {
            seen.push(*k);
            true
        }
    });
    for key in keys {
        let a = o_all.iter().find(|(k, _)| *k == key).map(|(_, b)| *b);
        let b = n_all.iter().find(|(k, _)| *k == key).map(|(_, b)| *b);
        let upper = UPPER.contains(&key);
        let words_old = a.map(|x| format!("{key} {}", bound_words(cx.old, x, upper)));
        let words_new = b.map(|x| format!("{key} {}", bound_words(cx.new, x, upper)));
        // `Some(true)`: the new bound accepts less; `Some(false)`: more; `None`: the same.
        let tighter = match (a, b) {
            (None, None) => None,
            (None, Some(_)) => Some(true),
            (Some(_), None) => Some(false),
            (Some(x), Some(y)) if same_reference(x, y) => None,
            (Some(x), Some(y)) => match (number(cx.old, x, upper), number(cx.new, y, upper)) {
                (Some(p), Some(q)) if p == q => None,
                (Some(p), Some(q)) => Some(if upper { q < p } else { q > p }),
                // A run-time bound swapped for another: take it as tighter, a change must say.
                _ => Some(true),
            },
        };
        let Some(tighter) = tighter else { continue };
        let change = Bounded { key, name, tighter, added: a.is_none(), upper };
        report_bound(cx, f, s, &change, words_old, words_new);
    }
}

/// One bound (or `unique_items`, or a pattern removed) that accepts less or more.
struct Bounded<'a> {
    key: &'a str,
    name: &'a str,
    /// The new bound accepts less.
    tighter: bool,
    /// There was no such bound before.
    added: bool,
    /// A larger value accepts more.
    upper: bool,
}

/// A tighter bound breaks what clients send; a looser one is worth knowing about where the
/// platform writes (clients may see values they did not). A tighter bound on what only the
/// platform writes changes nothing a client relies on.
fn report_bound(cx: &mut Cx<'_>, f: &Fields<'_>, s: &Subject, b: &Bounded<'_>, old: Option<String>, new: Option<String>) {
    let (key, name) = (b.key, b.name);
    let s = s.child(&format!(".{key}"));
    if b.tighter && f.dir.request() {
        let rule = match (b.added, b.upper) {
            (true, _) => &REQUEST_BOUND_ADDED,
            (false, true) => &REQUEST_MAX_DECREASED,
            (false, false) => &REQUEST_MIN_INCREASED,
        };
        cx.push(rule, &s, f.audiences(B, U, U), format!("`{key}` of field `{name}` accepts less"), old, new);
    } else if !b.tighter {
        let rule = if f.dir.response() { &RESPONSE_BOUND_LOOSENED } else { &REQUEST_BOUND_LOOSENED };
        cx.push(rule, &s, f.audiences(C, U, U), format!("`{key}` of field `{name}` accepts more"), old, new);
    }
}
