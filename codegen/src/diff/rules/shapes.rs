//! Data shapes: fields (presence, type, optionality, nullability, wire names, conditions,
//! defaults, bounds) wherever they are declared, resources' directions, enums and flag sets.
//!
//! Whether a field change breaks the wire depends on who writes the value: a client writes a
//! request field, so a tighter request (a new required field, a lower maximum) refuses requests
//! that were valid; the platform writes a response field, so a looser response (a field that may
//! now be absent or null) breaks clients that relied on it. Resources used both ways get both
//! rules (oasdiff's request-/response- rule pairs).

use super::{B, C, Cx, Subject, U, pair, some};
use crate::diff::{Audiences, Impact, RuleDef, Severity};
use crate::model::*;

macro_rules! rule {
    ($name:ident, $id:literal, $summary:literal, [$($kind:literal),*], $otherwise:ident, $anchor:literal) => {
        pub static $name: RuleDef = RuleDef {
            id: $id,
            group: "shapes",
            summary: $summary,
            kinds: &[$($kind),*],
            claimable: true,
            otherwise: Severity::$otherwise,
            anchor: $anchor,
        };
    };
}

rule!(FIELD_ADDED, "field-added", "an optional field, or a field the platform writes, is added", ["addition", "shape"], Info,
    "oasdiff `response-optional-property-added`, `response-required-property-added`, `new-optional-request-property` (info); cargo-semver-checks `constructible_struct_adds_field`");
rule!(REQUEST_FIELD_ADDED_REQUIRED, "request-field-added-required", "a required field is added to something clients send", ["requirement", "shape"], Info,
    "oasdiff `new-required-request-property`; smithy-diff `AddedRequiredMember`");
rule!(FIELD_REMOVED, "field-removed", "a field is removed", ["removal", "deprecation", "shape"], Info,
    "oasdiff `response-required-property-removed`, `response-optional-property-removed`, `request-property-removed`; buf `FIELD_NO_DELETE`; smithy-diff `RemovedShape` (member)");
rule!(FIELD_RENAMED, "field-renamed", "a field gets another key and keeps its wire name", ["rename"], Info,
    "buf `FIELD_SAME_NAME`; TypeSpec `@renamedFrom`");
rule!(FIELD_TYPE_CHANGED, "field-type-changed", "a field's type changes", ["shape"], Info,
    "oasdiff `response-property-type-changed`, `request-property-type-changed`; buf `FIELD_SAME_TYPE`; smithy-diff `ChangedMemberTarget`");
rule!(FIELD_BECAME_OPTIONAL, "field-became-optional", "a field may now be absent", ["shape"], Info,
    "oasdiff `response-property-became-optional`; smithy-diff `ChangedNullability`");
rule!(FIELD_BECAME_REQUIRED, "field-became-required", "a field must now be present", ["requirement", "shape"], Info,
    "oasdiff `request-property-became-required`; smithy-diff `ChangedNullability`");
rule!(FIELD_BECAME_NULLABLE, "field-became-nullable", "a field may now be null", ["shape"], Info,
    "oasdiff `response-property-became-nullable`; smithy-diff `ChangedNullability`");
rule!(FIELD_BECAME_NON_NULLABLE, "field-became-non-nullable", "a field may no longer be null", ["requirement", "shape"], Info,
    "oasdiff `request-property-became-not-nullable`");
rule!(FIELD_WIRE_NAME_CHANGED, "field-wire-name-changed", "a field keeps its key and changes its name on the wire", ["rename"], Info,
    "buf `FIELD_SAME_JSON_NAME`; smithy-diff `TraitBreakingChange` (the `jsonName` trait)");
rule!(FIELD_REQUIRED_WHEN_ADDED, "field-required-when-added", "a field clients send becomes required under a condition", ["requirement"], Info,
    "oasdiff `request-property-became-required` (conditionally)");
rule!(FIELD_SCOPE_REQUIRED, "field-scope-required", "a field carries its real value only for tokens with a scope it did not need", ["requirement"], Info,
    "oasdiff `api-security-scope-added` (per field)");
rule!(FIELD_DEFAULT_CHANGED, "field-default-changed", "a field's default changes", ["shape", "behavior"], Info,
    "buf `FIELD_SAME_DEFAULT`; smithy-diff `ChangedDefault`");
rule!(REQUEST_MAX_DECREASED, "request-max-decreased", "a maximum (value, length, items, size) of something clients send decreases", ["requirement", "shape"], Info,
    "oasdiff `request-property-max-decreased`, `request-property-max-length-decreased`, `request-parameter-max-items-decreased`; smithy-diff `ChangedLengthTrait`, `ChangedRangeTrait`");
rule!(REQUEST_MIN_INCREASED, "request-min-increased", "a minimum (value, length, items) of something clients send increases", ["requirement", "shape"], Info,
    "oasdiff `request-property-min-increased`, `request-property-min-length-increased`, `request-property-min-items-increased`");
rule!(REQUEST_BOUND_ADDED, "request-bound-added", "something clients send gets a bound it did not have", ["requirement", "shape"], Info,
    "oasdiff `request-property-max-set`, `request-property-min-set`");
rule!(REQUEST_BOUND_LOOSENED, "request-bound-loosened", "a bound of something clients send is raised, lowered or removed so more is accepted", ["requirement", "shape"], Info,
    "oasdiff `request-property-max-increased` (info)");
rule!(RESPONSE_BOUND_LOOSENED, "response-bound-loosened", "a bound of something the platform writes is loosened: clients may see values they did not", ["shape"], Warning,
    "oasdiff `response-property-max-increased` (warn)");
rule!(RESOURCE_DIRECTION_CHANGED, "resource-direction-changed", "a resource stops being sent or received the way it was", ["shape", "removal"], Info,
    "oasdiff `request-body-removed`, `response-media-type-removed`");
rule!(ENUM_REPR_CHANGED, "enum-repr-changed", "an enum switches between integer and string values", ["shape"], Info,
    "buf `FIELD_SAME_TYPE`; smithy-diff `ChangedShapeType`");
rule!(ENUM_VALUE_ADDED, "enum-value-added", "an enum value is added (open enums keep the wire compatible; the Rust enum is exhaustive)", ["addition"], Info,
    "oasdiff `response-property-enum-value-added` (warn; info for open enums); smithy-diff `ChangedEnumTrait` (appended); cargo-semver-checks `enum_variant_added`");
rule!(ENUM_VALUE_REMOVED, "enum-value-removed", "an enum value is removed", ["removal", "deprecation"], Info,
    "oasdiff `request-property-enum-value-removed`; buf `ENUM_VALUE_NO_DELETE`; smithy-diff `ChangedEnumTrait` (removed)");
rule!(ENUM_VALUE_RENUMBERED, "enum-value-renumbered", "an enum value keeps its id and gets another number", [], Info,
    "buf `ENUM_VALUE_SAME_NAME` (numbers identify values); smithy-diff `ChangedEnumTrait` (value changed)");
rule!(ENUM_VALUE_RENAMED, "enum-value-renamed", "an enum value keeps its number under a new id", ["rename"], Info,
    "buf `ENUM_VALUE_SAME_NAME`; smithy-diff `ChangedEnumTrait` (renamed)");
rule!(FLAGS_REPR_CHANGED, "flags-repr-changed", "a flag set switches between an integer and a decimal string", ["shape"], Info,
    "buf `FIELD_SAME_TYPE`");
rule!(FLAGS_WIDTH_CHANGED, "flags-width-changed", "a flag set changes width (32 or 64 bits)", ["shape"], Info,
    "buf `FIELD_WIRE_COMPATIBLE_TYPE`; cargo-semver-checks (type changed)");
rule!(FLAG_ADDED, "flag-added", "a flag is added to a set", ["addition"], Info,
    "smithy-diff `ChangedEnumTrait` (appended): unknown bits are kept, so compatible");
rule!(FLAG_REMOVED, "flag-removed", "a flag is removed from a set", ["removal", "deprecation"], Info,
    "buf `ENUM_VALUE_NO_DELETE`");
rule!(FLAG_BIT_CHANGED, "flag-bit-changed", "a flag keeps its id and moves to another bit", [], Info,
    "buf `ENUM_VALUE_SAME_NAME` (numbers identify values)");
rule!(FLAG_RENAMED, "flag-renamed", "a flag keeps its bit under a new id", ["rename"], Info,
    "buf `ENUM_VALUE_SAME_NAME`");

pub fn check(cx: &mut Cx<'_>) {
    check_resources(cx);
    check_endpoint_fields(cx);
    check_payload_fields(cx);
    check_enums(cx);
    check_flags(cx);
}

/// Who writes a list of fields.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Clients write it (request bodies, parameters, opcodes clients send).
    Request,
    /// The platform writes it (responses, events).
    Response,
    /// Both, or neither in particular (resources used both ways, SDK class members).
    Both,
}

impl Dir {
    fn of(direction: &str) -> Dir {
        match direction {
            "request" | "send" => Dir::Request,
            "response" | "receive" => Dir::Response,
            _ => Dir::Both,
        }
    }

    fn request(self) -> bool {
        self != Dir::Response
    }

    fn response(self) -> bool {
        self != Dir::Request
    }
}

/// A list of fields and what the findings about them need: who writes them, which audiences
/// see them, and how to name a field.
pub struct Fields<'a> {
    pub dir: Dir,
    /// Which audiences see the fields at all: `(wire, rust, c)`.
    pub seen: (bool, bool, bool),
    /// Prefix of a field's path (`field:widget.`, `endpoint:rename_widget.body.`).
    pub prefix: String,
    /// Typed references that claim every field of the list.
    pub claims: Vec<String>,
    /// Whether a field is named as a typed reference of its own (`field:resource.name`).
    pub typed_fields: bool,
    pub old: &'a [Field],
    pub new: &'a [Field],
}

impl Fields<'_> {
    fn audiences(&self, wire: Impact, rust: Impact, c: Impact) -> Audiences {
        let mask = |seen: bool, i: Impact| if seen { i } else { U };
        Audiences::new(mask(self.seen.0, wire), mask(self.seen.1, rust), mask(self.seen.2, c))
    }

    fn subject(&self, name: &str, old: Option<&Field>, new: Option<&Field>) -> Subject {
        let path = format!("{}{name}", self.prefix);
        let mut claims = Vec::new();
        if self.typed_fields {
            claims.push(path.clone());
        }
        claims.extend(self.claims.iter().cloned());
        let mut s = Subject::new(path, &claims);
        s.old_span = old.map(|f| f.span);
        s.new_span = new.map(|f| f.span);
        s
    }

    /// A field's name in messages: its path without the kind (`widget.label`,
    /// `rename_widget.body.tags`).
    fn show(&self, name: &str) -> String {
        let prefix = self.prefix.split_once(':').map_or(self.prefix.as_str(), |(_, rest)| rest);
        format!("{prefix}{name}")
    }

    /// Breaking on the wire when clients write it (`request`) or the platform does
    /// (`response`), compatible otherwise.
    fn wire_if(&self, request: bool, response: bool) -> Impact {
        if (request && self.dir.request()) || (response && self.dir.response()) { B } else { C }
    }
}

/// Compares two lists of fields with every field rule.
pub fn compare_fields(cx: &mut Cx<'_>, f: &Fields<'_>) {
    let p = pair(f.old, f.new, |x| x.name.clone());
    let renamed: Vec<(&Field, &Field)> =
        p.removed.iter().filter_map(|o| p.added.iter().find(|n| n.wire() == o.wire()).map(|n| (*o, *n))).collect();
    for (o, n) in &renamed {
        let s = f.subject(&o.name, Some(o), Some(n));
        let message = format!("field `{}` is renamed `{}` (the wire name `{}` is kept)", f.show(&o.name), n.name, n.wire());
        cx.push(&FIELD_RENAMED, &s, f.audiences(C, B, B), message, some(&o.name), some(&n.name));
    }
    for n in p.added.iter().filter(|n| !renamed.iter().any(|(_, r)| r.name == n.name)) {
        let s = f.subject(&n.name, None, Some(n));
        let required = !n.optional && n.required_when.is_none();
        if required && f.dir.request() {
            let message = format!("required field `{}` is added to what clients send", f.show(&n.name));
            cx.push(&REQUEST_FIELD_ADDED_REQUIRED, &s, f.audiences(B, B, C), message, None, Some(describe(n)));
        } else {
            cx.push(&FIELD_ADDED, &s, f.audiences(C, B, C), format!("field `{}` is added", f.show(&n.name)), None, Some(describe(n)));
        }
    }
    for o in p.removed.iter().filter(|o| !renamed.iter().any(|(r, _)| r.name == o.name)) {
        let s = f.subject(&o.name, Some(o), None);
        let wire = f.wire_if(false, true);
        cx.push(&FIELD_REMOVED, &s, f.audiences(wire, B, B), format!("field `{}` is removed", f.show(&o.name)), Some(describe(o)), None);
    }
    for (o, n) in p.both {
        compare_field(cx, f, o, n);
    }
}

/// `snowflake`, `optional string`, `nullable integer`.
fn describe(f: &Field) -> String {
    let ty = f.ty.as_ref().map_or_else(|| "untyped".to_owned(), ToString::to_string);
    let mut words = Vec::new();
    if f.optional {
        words.push("optional");
    }
    if f.nullable {
        words.push("nullable");
    }
    words.push(&ty);
    words.join(" ")
}

fn compare_field(cx: &mut Cx<'_>, f: &Fields<'_>, o: &Field, n: &Field) {
    let s = f.subject(&n.name, Some(o), Some(n));
    let name = f.show(&n.name);
    if o.deprecated.is_none()
        && let Some(by) = &n.deprecated
    {
        cx.push(&super::items::ITEM_DEPRECATED, &s, f.audiences(C, C, C), format!("field `{name}` is deprecated"), None, some(&by.id));
    }
    if o.ty.is_some() && o.ty != n.ty {
        let (a, b) = (o.ty.as_ref().map(ToString::to_string), n.ty.as_ref().map(ToString::to_string));
        cx.push(&FIELD_TYPE_CHANGED, &s, f.audiences(B, B, B), format!("field `{name}` changes type"), a, b);
    }
    if o.wire() != n.wire() {
        cx.push(&FIELD_WIRE_NAME_CHANGED, &s, f.audiences(B, C, C), format!("field `{name}` changes its wire name"), some(o.wire()), some(n.wire()));
    }
    match (o.optional, n.optional) {
        (false, true) => cx.push(&FIELD_BECAME_OPTIONAL, &s, f.audiences(f.wire_if(false, true), B, B), format!("field `{name}` may now be absent"), some("required"), some("optional")),
        (true, false) => cx.push(&FIELD_BECAME_REQUIRED, &s, f.audiences(f.wire_if(true, false), B, B), format!("field `{name}` must now be present"), some("optional"), some("required")),
        _ => {}
    }
    match (o.nullable, n.nullable) {
        (false, true) => cx.push(&FIELD_BECAME_NULLABLE, &s, f.audiences(f.wire_if(false, true), B, B), format!("field `{name}` may now be null"), some("not nullable"), some("nullable")),
        (true, false) => cx.push(&FIELD_BECAME_NON_NULLABLE, &s, f.audiences(f.wire_if(true, false), B, B), format!("field `{name}` may no longer be null"), some("nullable"), some("not nullable")),
        _ => {}
    }
    if o.required_when.is_none() && f.dir.request()
        && let Some(c) = &n.required_when
    {
        let cond = c.named().0.id.clone();
        cx.push(&FIELD_REQUIRED_WHEN_ADDED, &s, f.audiences(B, C, C), format!("field `{name}` becomes required when `{cond}` holds"), None, Some(cond));
    }
    if n.requires_scope.is_some() && o.requires_scope.as_ref().map(|r| &r.id) != n.requires_scope.as_ref().map(|r| &r.id) {
        let (a, b) = (o.requires_scope.as_ref().map(|r| r.id.clone()), n.requires_scope.as_ref().map(|r| r.id.clone()));
        cx.push(&FIELD_SCOPE_REQUIRED, &s, f.audiences(B, U, U), format!("field `{name}` carries its real value only with another scope"), a, b);
    }
    if let (Some(a), Some(b)) = (&o.default, &n.default)
        && a.value != b.value
    {
        cx.push(&FIELD_DEFAULT_CHANGED, &s, f.audiences(B, U, U), format!("the default of field `{name}` changes"), some(&a.value), some(&b.value));
    }
    compare_bounds(cx, f, &s, &name, &o.constraints, &n.constraints);
}

/// The keys of upper bounds (a larger value accepts more).
const UPPER: &[&str] = &["max", "max_exclusive", "max_length", "max_items", "max_size"];

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
    keys.retain(|k| !seen.contains(k) && { seen.push(*k); true });
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
        let s = s.child(&format!(".{key}"));
        if tighter && f.dir.request() {
            let rule = match (a.is_some(), upper) {
                (false, _) => &REQUEST_BOUND_ADDED,
                (true, true) => &REQUEST_MAX_DECREASED,
                (true, false) => &REQUEST_MIN_INCREASED,
            };
            cx.push(rule, &s, f.audiences(B, U, U), format!("`{key}` of field `{name}` accepts less"), words_old, words_new);
        } else if !tighter {
            let (rule, audiences) = if f.dir.response() { (&RESPONSE_BOUND_LOOSENED, f.audiences(C, U, U)) } else { (&REQUEST_BOUND_LOOSENED, f.audiences(C, U, U)) };
            cx.push(rule, &s, audiences, format!("`{key}` of field `{name}` accepts more"), words_old, words_new);
        }
    }
}

/// Resources: their direction, and their fields.
fn check_resources(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.resources, &new.resources, |r| r.meta.id.clone()).both {
        let id = &n.meta.id;
        let (a, b) = (Dir::of(&o.direction), Dir::of(&n.direction));
        let lost = (a.request() && !b.request()) || (a.response() && !b.response());
        if a != b {
            let s = Subject::item("resource", id, &[], Some(&o.meta), Some(&n.meta)).child(".direction");
            let wire = if lost { B } else { C };
            cx.push(&RESOURCE_DIRECTION_CHANGED, &s, Audiences::new(wire, U, U), format!("resource `{id}` changes direction"), some(&o.direction), some(&n.direction));
        }
        let fields = Fields {
            dir: b,
            seen: (true, true, false),
            prefix: format!("field:{id}."),
            claims: vec![format!("resource:{id}")],
            typed_fields: true,
            old: &o.fields,
            new: &n.fields,
        };
        compare_fields(cx, &fields);
    }
}

/// Parameters, bodies and response fields of endpoints.
fn check_endpoint_fields(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.endpoints, &new.endpoints, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let body = |e: &Endpoint| e.body_schema.iter().cloned().collect::<Vec<_>>();
        let (ob, nb) = (body(o), body(n));
        let lists: [(&str, Dir, &[Field], &[Field]); 5] = [
            ("path", Dir::Request, &o.path_params, &n.path_params),
            ("query", Dir::Request, &o.query, &n.query),
            ("body", Dir::Request, &o.body, &n.body),
            ("body_schema", Dir::Request, &ob, &nb),
            ("response", Dir::Response, &o.response_fields, &n.response_fields),
        ];
        for (list, dir, a, b) in lists {
            let fields = Fields {
                dir,
                seen: (true, true, false),
                prefix: format!("endpoint:{id}.{list}."),
                claims: vec![format!("endpoint:{id}")],
                typed_fields: false,
                old: a,
                new: b,
            };
            compare_fields(cx, &fields);
        }
    }
}

/// Fields of events, opcodes, SDK classes and the error body.
fn check_payload_fields(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.events, &new.events, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let claims = vec![format!("event:{id}")];
        compare_fields(cx, &Fields { dir: Dir::Response, seen: (true, true, false), prefix: format!("event:{id}."), claims, typed_fields: false, old: &o.fields, new: &n.fields });
    }
    for (o, n) in pair(&old.opcodes, &new.opcodes, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let claims = vec![format!("opcode:{id}")];
        let dir = Dir::of(&n.direction);
        compare_fields(cx, &Fields { dir, seen: (true, true, false), prefix: format!("opcode:{id}."), claims, typed_fields: false, old: &o.fields, new: &n.fields });
    }
    for (o, n) in pair(&old.classes, &new.classes, |e| e.meta.id.clone()).both {
        let id = &n.meta.id;
        let claims = vec![format!("class:{id}")];
        compare_fields(cx, &Fields { dir: Dir::Both, seen: (false, false, true), prefix: format!("class:{id}."), claims, typed_fields: false, old: &o.fields, new: &n.fields });
    }
    if let (Some(o), Some(n)) = (&old.error_body, &new.error_body) {
        compare_fields(cx, &Fields { dir: Dir::Response, seen: (true, true, false), prefix: "error_body.".into(), claims: vec![], typed_fields: false, old: &o.fields, new: &n.fields });
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
            cx.push(&ENUM_VALUE_ADDED, &s, Audiences::new(C, B, C), format!("enum value `{}` is added", v(b)), None, b.value.map(|x| x.to_string()).or(some(&b.meta.id)));
        }
        for a in p.removed.iter().filter(|a| !renamed.iter().any(|(r, _)| r.meta.id == a.meta.id)) {
            let s = Subject::item("enum_value", &v(a), &outer, Some(&a.meta), None);
            cx.push(&ENUM_VALUE_REMOVED, &s, Audiences::all(B), format!("enum value `{}` is removed", v(a)), a.value.map(|x| x.to_string()).or(some(&a.meta.id)), None);
        }
        for (a, b) in p.both {
            if let (Some(x), Some(y)) = (a.value, b.value)
                && x != y
            {
                let s = Subject::item("enum_value", &v(b), &outer, Some(&a.meta), Some(&b.meta));
                cx.push(&ENUM_VALUE_RENUMBERED, &s, Audiences::all(B), format!("enum value `{}` changes from {x} to {y}", v(b)), some(x), some(y));
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
            cx.push(&FLAGS_REPR_CHANGED, &set, Audiences::new(B, B, U), format!("flag set `{id}` changes representation"), some(&o.repr), some(&n.repr));
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
                cx.push(&FLAG_BIT_CHANGED, &s, Audiences::all(B), format!("flag `{}` moves from bit {x} to bit {y}", v(b)), some(x), some(y));
            }
        }
    }
}
