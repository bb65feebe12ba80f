//! Schemas in a canonical form: references resolved, `allOf` intersected, unions flattened,
//! annotations dropped, so that two documents' schemas can be compared by the values they accept.

use super::escape;
use crate::model::types::Primitive;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

/// A canonical schema node, with the pointer of the schema it was read from.
#[derive(Debug)]
pub(super) struct N {
    pub(super) at: String,
    pub(super) c: C,
}

/// What a schema accepts, in one form.
#[derive(Debug)]
pub(super) enum C {
    Any,
    Never,
    Null,
    Bool(Option<BTreeSet<bool>>),
    Int {
        min: i128,
        max: i128,
        values: Option<BTreeSet<i128>>,
    },
    Num {
        min: Option<(f64, bool)>,
        max: Option<(f64, bool)>,
        float: bool,
        values: Option<Vec<f64>>,
    },
    Str {
        min: u64,
        max: Option<u64>,
        /// Every pattern the text matches (`allOf` parts each give one).
        patterns: BTreeSet<String>,
        format: Option<String>,
        values: Option<BTreeSet<String>>,
    },
    Array {
        items: Rc<N>,
        min: u64,
        max: Option<u64>,
        unique: bool,
    },
    Object {
        props: BTreeMap<String, Rc<N>>,
        required: BTreeSet<String>,
        additional: Option<Rc<N>>,
        min: u64,
        max: Option<u64>,
        /// What the keys are (`propertyNames`), as written.
        keys: Option<String>,
    },
    Union(Vec<Rc<N>>),
    /// A keyword the comparison does not read; never equal to anything.
    Other(String),
    /// A reference back to the schema `up` references up: recursion, by its shape. `null` says
    /// whether that schema lets `null` through (a union around the reference then needs no
    /// `null` of its own).
    Cycle {
        up: usize,
        null: bool,
    },
}

pub(super) fn node(at: &str, c: C) -> Rc<N> {
    Rc::new(N { at: at.to_owned(), c })
}

/// The canonical forms of one document's schemas.
pub(super) struct Canon<'d> {
    pub(super) doc: &'d Value,
    pub(super) memo: HashMap<String, Rc<N>>,
    pub(super) stack: Vec<String>,
}

/// Keywords that say nothing about which values are accepted.
pub(super) fn annotation(key: &str) -> bool {
    key.starts_with("x-")
        || matches!(
            key,
            "description"
                | "title"
                | "summary"
                | "example"
                | "examples"
                | "default"
                | "deprecated"
                | "readOnly"
                | "writeOnly"
                | "$comment"
                | "externalDocs"
                | "xml"
                | "discriminator"
                | "contentMediaType"
                | "$schema"
                | "$id"
        )
}

pub(super) fn int_range(format: Option<&str>) -> (i128, i128) {
    match format {
        Some("int32") => (i32::MIN.into(), i32::MAX.into()),
        Some("int16") => (i16::MIN.into(), i16::MAX.into()),
        Some("int8") => (i8::MIN.into(), i8::MAX.into()),
        Some("uint8") => (0, u8::MAX.into()),
        Some("uint16") => (0, u16::MAX.into()),
        Some("uint32") => (0, u32::MAX.into()),
        Some("uint64") => (0, u64::MAX.into()),
        _ => (i64::MIN.into(), i64::MAX.into()),
    }
}

pub(super) fn as_i128(v: &Value) -> Option<i128> {
    v.as_i64().map(i128::from).or_else(|| v.as_u64().map(i128::from)).or_else(|| v.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i128))
}

impl<'d> Canon<'d> {
    pub(super) fn new(doc: &'d Value) -> Self {
        Self { doc, memo: HashMap::new(), stack: Vec::new() }
    }

    /// The canonical form of the schema at `at`, and the lowest reference depth a cycle in it
    /// points back to (`usize::MAX` when none: the form does not depend on where it is used).
    pub(super) fn schema(&mut self, v: &Value, at: &str) -> (Rc<N>, usize) {
        let obj = match v {
            Value::Object(o) => o,
            Value::Bool(false) => return (node(at, C::Never), usize::MAX),
            _ => return (node(at, C::Any), usize::MAX),
        };
        let mut low = usize::MAX;
        // Each part with whether it only refines texts.
        let mut parts: Vec<(Rc<N>, bool)> = Vec::new();
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            let (n, l) = self.reference(r, at);
            low = low.min(l);
            parts.push((n, false));
        }
        for (i, p) in obj.get("allOf").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let (n, l) = self.schema(p, &format!("{at}/allOf/{i}"));
            low = low.min(l);
            parts.push((n, text_refinement(p)));
        }
        let (own, l) = self.own(obj, at);
        low = low.min(l);
        let mut out = own;
        for (p, text_only) in parts {
            out = if text_only { refine_texts(&out, &p) } else { intersect(&out, &p) };
        }
        // `unevaluatedProperties: false` closes the object all the parts make.
        if obj.get("unevaluatedProperties") == Some(&Value::Bool(false))
            && let C::Object { props, required, min, max, keys, .. } = &out.c
        {
            let closed =
                C::Object { props: props.clone(), required: required.clone(), additional: Some(node(at, C::Never)), min: *min, max: *max, keys: keys.clone() };
            out = node(&out.at, closed);
        }
        let untyped = !obj.contains_key("type") && !obj.contains_key("oneOf") && !obj.contains_key("anyOf");
        if untyped && obj.get("nullable").and_then(Value::as_bool) == Some(true) {
            out = union(at, vec![out, node(at, C::Null)]);
        }
        (out, low)
    }

    fn reference(&mut self, r: &str, at: &str) -> (Rc<N>, usize) {
        let Some(pointer) = r.strip_prefix('#') else { return (node(at, C::Other(format!("a reference outside the document: {r}"))), usize::MAX) };
        if let Some(i) = self.stack.iter().position(|p| p == pointer) {
            let null = self.doc.pointer(pointer).is_some_and(|target| admits_null(self.doc, target, &mut BTreeSet::new()));
            return (node(pointer, C::Cycle { up: self.stack.len() - i, null }), i);
        }
        if let Some(n) = self.memo.get(pointer) {
            return (n.clone(), usize::MAX);
        }
        let Some(target) = self.doc.pointer(pointer) else { return (node(at, C::Other(format!("a reference to nothing: {r}"))), usize::MAX) };
        self.stack.push(pointer.to_owned());
        let (n, low) = self.schema(target, pointer);
        self.stack.pop();
        if low >= self.stack.len() {
            self.memo.insert(pointer.to_owned(), n.clone());
            return (n, usize::MAX);
        }
        (n, low)
    }

    /// The node's own keywords: its type (or types), alternatives, values and constraints.
    fn own(&mut self, o: &Map<String, Value>, at: &str) -> (Rc<N>, usize) {
        let mut low = usize::MAX;
        let unknown: Vec<&String> = o
            .keys()
            .filter(|k| !annotation(k))
            .filter(|k| {
                !matches!(
                    k.as_str(),
                    "$ref"
                        | "allOf"
                        | "oneOf"
                        | "anyOf"
                        | "type"
                        | "nullable"
                        | "enum"
                        | "const"
                        | "format"
                        | "minimum"
                        | "maximum"
                        | "exclusiveMinimum"
                        | "exclusiveMaximum"
                        | "minLength"
                        | "maxLength"
                        | "pattern"
                        | "contentEncoding"
                        | "items"
                        | "minItems"
                        | "maxItems"
                        | "uniqueItems"
                        | "properties"
                        | "required"
                        | "additionalProperties"
                        | "minProperties"
                        | "maxProperties"
                        | "propertyNames"
                        | "unevaluatedProperties"
                )
            })
            .collect();
        if let Some(k) = unknown.first() {
            return (node(&format!("{at}/{}", escape(k)), C::Other(format!("`{k}`"))), low);
        }
        let mut types: Vec<&str> = match o.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(l)) => l.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        // OpenAPI 3.0's `nullable: true` lets `null` through; generators write it beside
        // `allOf` without a `type` and mean the same, so it is read that way there too.
        let nullable = o.get("nullable").and_then(Value::as_bool) == Some(true);
        if nullable && !types.is_empty() {
            types.push("null");
        }
        let alternatives = o.get("oneOf").map(|v| ("oneOf", v)).or_else(|| o.get("anyOf").map(|v| ("anyOf", v)));
        let mut result: Rc<N> = if types.is_empty() {
            match infer(o) {
                Some(t) => self.typed(t, o, at, &mut low),
                None => node(at, C::Any),
            }
        } else {
            let alts: Vec<Rc<N>> = types.iter().map(|t| self.typed(t, o, at, &mut low)).collect();
            union(at, alts)
        };
        if let Some((key, Value::Array(list))) = alternatives {
            let alts: Vec<Rc<N>> = list
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let (n, l) = self.schema(s, &format!("{at}/{key}/{i}"));
                    low = low.min(l);
                    n
                })
                .collect();
            let u = union(at, alts);
            // `nullable: true` beside alternatives (OpenAPI 3.0) lets `null` through too.
            let u = if o.get("nullable").and_then(Value::as_bool) == Some(true) { union(at, vec![u, node(at, C::Null)]) } else { u };
            result = if types.is_empty() { u } else { intersect(&result, &u) };
        }
        if nullable && types.is_empty() && alternatives.is_none() {
            result = union(at, vec![result, node(at, C::Null)]);
        }
        let values: Option<Vec<Value>> = match (o.get("const"), o.get("enum").and_then(Value::as_array)) {
            (Some(c), _) => Some(vec![c.clone()]),
            (None, Some(list)) => Some(list.clone()),
            _ => None,
        };
        if let Some(values) = values {
            let alts: Vec<Rc<N>> = values.iter().map(|v| constant(at, v)).collect();
            let set = if alts.is_empty() { node(at, C::Never) } else { union(at, alts) };
            result = intersect(&result, &set);
        }
        (result, low)
    }

    /// The form of the schema read as type `t`, from the keywords that type reads.
    fn typed(&mut self, t: &str, o: &Map<String, Value>, at: &str, low: &mut usize) -> Rc<N> {
        match t {
            "null" => node(at, C::Null),
            "boolean" => node(at, C::Bool(None)),
            "integer" => integer(o, at),
            "number" => number(o, at),
            "string" => string(o, at),
            "array" => self.array(o, at, low),
            "object" => self.object(o, at, low),
            other => node(at, C::Other(format!("type `{other}`"))),
        }
    }

    /// The form of a subschema, lowering `low` to the reference depth a cycle in it points to.
    fn nested(&mut self, v: &Value, at: &str, low: &mut usize) -> Rc<N> {
        let (n, l) = self.schema(v, at);
        *low = (*low).min(l);
        n
    }

    /// An array: its items (any value when not given), length bounds and uniqueness.
    fn array(&mut self, o: &Map<String, Value>, at: &str, low: &mut usize) -> Rc<N> {
        let items = match o.get("items") {
            Some(i) => self.nested(i, &format!("{at}/items"), low),
            None => node(at, C::Any),
        };
        node(
            at,
            C::Array {
                items,
                min: o.get("minItems").and_then(Value::as_u64).unwrap_or(0),
                max: o.get("maxItems").and_then(Value::as_u64),
                unique: o.get("uniqueItems").and_then(Value::as_bool) == Some(true),
            },
        )
    }

    /// An object: its properties, required names, other properties and size bounds.
    fn object(&mut self, o: &Map<String, Value>, at: &str, low: &mut usize) -> Rc<N> {
        let mut props = BTreeMap::new();
        for (name, s) in o.get("properties").and_then(Value::as_object).into_iter().flatten() {
            let n = self.nested(s, &format!("{at}/properties/{}", escape(name)), low);
            props.insert(name.clone(), n);
        }
        let required = o.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect();
        let additional = match o.get("additionalProperties") {
            None | Some(Value::Bool(true)) => None,
            Some(s) => Some(self.nested(s, &format!("{at}/additionalProperties"), low)),
        };
        // A map's keys as text of a type, pattern or format: what the keys may be, compared as
        // written; any other `propertyNames` is not read.
        let keys = o.get("propertyNames").and_then(Value::as_object).map(|n| n.iter().filter(|(k, _)| !annotation(k)).collect::<BTreeMap<_, _>>());
        if let Some(names) = &keys
            && !names.keys().all(|k| ["type", "format", "pattern"].contains(&k.as_str()))
        {
            return node(&format!("{at}/propertyNames"), C::Other(format!("`propertyNames` {}", o["propertyNames"])));
        }
        let keys = keys.filter(|n| !n.is_empty()).map(|n| serde_json::to_string(&n).unwrap_or_default());
        node(
            at,
            C::Object {
                props,
                required,
                additional,
                min: o.get("minProperties").and_then(Value::as_u64).unwrap_or(0),
                max: o.get("maxProperties").and_then(Value::as_u64),
                keys,
            },
        )
    }
}

/// An integer: the range of its format, narrowed by its bounds (exclusive ones as OpenAPI 3.0's
/// `true` or 3.1's number).
fn integer(o: &Map<String, Value>, at: &str) -> Rc<N> {
    let (mut min, mut max) = int_range(o.get("format").and_then(Value::as_str));
    if let Some(v) = o.get("minimum").and_then(as_i128) {
        min = min.max(v);
    }
    if let Some(v) = o.get("maximum").and_then(as_i128) {
        max = max.min(v);
    }
    match o.get("exclusiveMinimum") {
        Some(Value::Bool(true)) => min += 1,
        Some(v) => {
            if let Some(v) = as_i128(v) {
                min = min.max(v + 1);
            }
        }
        None => {}
    }
    match o.get("exclusiveMaximum") {
        Some(Value::Bool(true)) => max -= 1,
        Some(v) => {
            if let Some(v) = as_i128(v) {
                max = max.min(v - 1);
            }
        }
        None => {}
    }
    node(at, C::Int { min, max, values: None })
}

/// A number: its bounds, each with whether it is exclusive, and whether it is a `float`.
fn number(o: &Map<String, Value>, at: &str) -> Rc<N> {
    let bound = |key: &str, ex: &str| -> Option<(f64, bool)> {
        match (o.get(key).and_then(Value::as_f64), o.get(ex)) {
            (_, Some(Value::Number(n))) => n.as_f64().map(|f| (f, true)),
            (Some(f), Some(Value::Bool(true))) => Some((f, true)),
            (Some(f), _) => Some((f, false)),
            _ => None,
        }
    };
    let float = o.get("format").and_then(Value::as_str) == Some("float");
    node(at, C::Num { min: bound("minimum", "exclusiveMinimum"), max: bound("maximum", "exclusiveMaximum"), float, values: None })
}

/// A string: its length bounds, pattern and format (an encoding counts as a format, so
/// `format: byte` and `contentEncoding: base64` compare equal).
fn string(o: &Map<String, Value>, at: &str) -> Rc<N> {
    let format = match (o.get("format").and_then(Value::as_str), o.get("contentEncoding").and_then(Value::as_str)) {
        (_, Some("base64")) | (Some("byte"), _) => Some("base64".to_owned()),
        (_, Some("binary")) | (Some("binary"), _) => Some("binary".to_owned()),
        (Some("url"), _) => Some("uri".to_owned()),
        (Some(f), _) => Some(f.to_owned()),
        (None, Some(e)) => Some(format!("encoding {e}")),
        (None, None) => None,
    };
    node(
        at,
        C::Str {
            min: o.get("minLength").and_then(Value::as_u64).unwrap_or(0),
            max: o.get("maxLength").and_then(Value::as_u64),
            patterns: o.get("pattern").and_then(Value::as_str).filter(|p| !format_pattern(format.as_deref(), p)).map(str::to_owned).into_iter().collect(),
            format,
            values: None,
        },
    )
}

/// Whether an `allOf` part only narrows texts: no `type`, and only keywords that apply to
/// strings (`{pattern: ...}`, as the export writes a field's own pattern beside its type's).
/// In JSON Schema such a part lets every value that is not a string through (`null` among
/// them), so it refines the texts of the whole and leaves the rest as it is.
fn text_refinement(part: &Value) -> bool {
    part.as_object().is_some_and(|o| {
        o.keys().any(|k| k != "format") && o.keys().all(|k| annotation(k) || matches!(k.as_str(), "pattern" | "minLength" | "maxLength" | "format"))
    })
}

/// `n` with its texts narrowed by `part`: a text, or the text alternatives of a union.
fn refine_texts(n: &Rc<N>, part: &Rc<N>) -> Rc<N> {
    match &n.c {
        C::Str { .. } => intersect(n, part),
        C::Union(alts) => union(&n.at, alts.iter().map(|a| refine_texts(a, part)).collect()),
        _ => n.clone(),
    }
}

/// Whether `pattern` only spells out what `format` checks: the pattern an export writes beside a
/// format whose texts are fewer than any string (`Primitive::wire_pattern`), which says the same
/// as the format.
fn format_pattern(format: Option<&str>, pattern: &str) -> bool {
    let primitive = match format {
        Some("snowflake") => Primitive::Snowflake,
        Some("base64") => Primitive::Bytes,
        Some("date") => Primitive::Date,
        _ => return false,
    };
    primitive.wire_pattern() == Some(pattern)
}

/// Whether the schema `v` of `doc` says it lets `null` through: `null` among its types or its
/// values, OpenAPI 3.0's `nullable: true`, or a reference or alternative that does, with no
/// keyword beside them that keeps `null` out. A schema that says nothing of `null` does not (the
/// canonical form infers a type from its keywords). `seen` holds the references being followed,
/// so a cycle answers no.
fn admits_null(doc: &Value, v: &Value, seen: &mut BTreeSet<String>) -> bool {
    let Value::Object(o) = v else { return *v == Value::Bool(true) };
    let mut says = o.get("nullable") == Some(&Value::Bool(true));
    if let Some(t) = o.get("type") {
        let null_type = match t {
            Value::String(t) => t == "null",
            Value::Array(ts) => ts.iter().any(|t| t == "null"),
            _ => false,
        };
        if !null_type && !says {
            return false;
        }
        says = true;
    }
    if let Some(values) = o.get("enum").and_then(Value::as_array) {
        if !values.contains(&Value::Null) {
            return false;
        }
        says = true;
    }
    if let Some(c) = o.get("const") {
        if !c.is_null() {
            return false;
        }
        says = true;
    }
    if let Some(r) = o.get("$ref").and_then(Value::as_str) {
        let pointer = r.strip_prefix('#').unwrap_or(r);
        if !seen.insert(pointer.to_owned()) {
            return false;
        }
        let admits = doc.pointer(pointer).is_some_and(|t| admits_null(doc, t, seen));
        seen.remove(pointer);
        if !admits {
            return false;
        }
        says = true;
    }
    for part in o.get("allOf").and_then(Value::as_array).into_iter().flatten() {
        if !admits_null(doc, part, seen) {
            return false;
        }
        says = true;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alternatives) = o.get(key).and_then(Value::as_array) {
            if !alternatives.iter().any(|a| admits_null(doc, a, seen)) {
                return false;
            }
            says = true;
        }
    }
    says
}

/// The type a schema without `type` has, from its keywords (none: any value).
pub(super) fn infer(o: &Map<String, Value>) -> Option<&'static str> {
    if o.contains_key("properties") || o.contains_key("additionalProperties") {
        Some("object")
    } else if o.contains_key("items") {
        Some("array")
    } else if o.contains_key("minLength") || o.contains_key("maxLength") || o.contains_key("pattern") {
        Some("string")
    } else {
        None
    }
}

/// A schema that accepts one value.
pub(super) fn constant(at: &str, v: &Value) -> Rc<N> {
    let c = match v {
        Value::Null => C::Null,
        Value::Bool(b) => C::Bool(Some([*b].into())),
        Value::String(s) => C::Str { min: 0, max: None, patterns: BTreeSet::new(), format: None, values: Some([s.clone()].into()) },
        Value::Number(n) => match as_i128(v) {
            Some(i) if !n.is_f64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) => C::Int { min: i128::MIN, max: i128::MAX, values: Some([i].into()) },
            _ => C::Num { min: None, max: None, float: false, values: Some(vec![n.as_f64().unwrap_or_default()]) },
        },
        other => C::Other(format!("a constant {other}")),
    };
    node(at, c)
}

/// The alternatives, flattened and simplified: any `Any` makes the whole `Any`; `null` counts
/// once (a nullable union inside a nullable place), and not at all beside a recursive reference
/// to a schema that lets it through; values of one kind are one set; an unconstrained
/// alternative of a kind whose values are listed (an open enum's catch-all) is dropped.
pub(super) fn union(at: &str, alts: Vec<Rc<N>>) -> Rc<N> {
    let mut flat: Vec<Rc<N>> = Vec::new();
    for a in alts {
        match &a.c {
            C::Union(inner) => flat.extend(inner.iter().cloned()),
            C::Never => {}
            _ => flat.push(a),
        }
    }
    let mut null = flat.iter().any(|a| matches!(a.c, C::Cycle { null: true, .. }));
    flat.retain(|a| !matches!(a.c, C::Null) || !std::mem::replace(&mut null, true));
    if flat.iter().any(|a| matches!(a.c, C::Any)) {
        return node(at, C::Any);
    }
    // Values of one kind form one set.
    let mut ints: BTreeSet<i128> = BTreeSet::new();
    let mut strs: BTreeSet<String> = BTreeSet::new();
    let mut rest: Vec<Rc<N>> = Vec::new();
    let (mut int_at, mut str_at) = (None, None);
    for a in flat {
        match &a.c {
            C::Int { values: Some(v), .. } => {
                ints.extend(v.iter().copied());
                int_at.get_or_insert_with(|| a.at.clone());
            }
            C::Str { values: Some(v), min: 0, max: None, patterns, .. } if patterns.is_empty() => {
                strs.extend(v.iter().cloned());
                str_at.get_or_insert_with(|| a.at.clone());
            }
            _ => rest.push(a),
        }
    }
    let bare_int = |n: &N| matches!(n.c, C::Int { values: None, min, max, .. } if min <= i128::from(i32::MIN) && max >= i128::from(i32::MAX));
    let bare_str = |n: &N| matches!(&n.c, C::Str { values: None, min: 0, max: None, patterns, .. } if patterns.is_empty());
    if !ints.is_empty() {
        rest.retain(|n| !bare_int(n));
        rest.push(node(&int_at.unwrap_or_default(), C::Int { min: i128::MIN, max: i128::MAX, values: Some(ints) }));
    }
    if !strs.is_empty() {
        rest.retain(|n| !bare_str(n));
        rest.push(node(&str_at.unwrap_or_default(), C::Str { min: 0, max: None, patterns: BTreeSet::new(), format: None, values: Some(strs) }));
    }
    match rest.len() {
        0 => node(at, C::Never),
        1 => rest.pop().expect("BUG: one alternative"),
        _ => node(at, C::Union(rest)),
    }
}

pub(super) fn min_opt<T: PartialOrd + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y < x { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The values both accept.
pub(super) fn intersect(a: &Rc<N>, b: &Rc<N>) -> Rc<N> {
    let at = &a.at;
    match (&a.c, &b.c) {
        (C::Any, _) => b.clone(),
        (_, C::Any) => a.clone(),
        (C::Never, _) | (_, C::Never) => node(at, C::Never),
        (C::Union(alts), _) => union(at, alts.iter().map(|x| intersect(x, b)).collect()),
        (_, C::Union(alts)) => union(at, alts.iter().map(|x| intersect(a, x)).collect()),
        (C::Null, C::Null) => a.clone(),
        (C::Bool(x), C::Bool(y)) => node(
            at,
            C::Bool(match (x, y) {
                (Some(x), Some(y)) => Some(x.intersection(y).copied().collect()),
                (x, None) => x.clone(),
                (None, y) => y.clone(),
            }),
        ),
        (C::Int { min, max, values }, C::Int { min: min2, max: max2, values: v2 }) => {
            let (lo, hi) = ((*min).max(*min2), (*max).min(*max2));
            let values = match (values, v2) {
                (Some(x), Some(y)) => Some(x.intersection(y).copied().collect()),
                (Some(x), None) | (None, Some(x)) => Some(x.iter().copied().filter(|v| *v >= lo && *v <= hi).collect()),
                (None, None) => None,
            };
            // A set of values needs no range: it is exact.
            let (lo, hi) = if values.is_some() { (i128::MIN, i128::MAX) } else { (lo, hi) };
            node(at, C::Int { min: lo, max: hi, values })
        }
        (C::Str { min, max, patterns, format, values }, C::Str { min: m2, max: x2, patterns: p2, format: f2, values: v2 }) => {
            let patterns = patterns.union(p2).cloned().collect();
            let values = match (values, v2) {
                (Some(x), Some(y)) => Some(x.intersection(y).cloned().collect()),
                (x, y) => x.clone().or_else(|| y.clone()),
            };
            node(at, C::Str { min: (*min).max(*m2), max: min_opt(*max, *x2), patterns, format: format.clone().or_else(|| f2.clone()), values })
        }
        (C::Num { min, max, float, values }, C::Num { min: m2, max: x2, float: f2, values: v2 }) => {
            let hi = |x: Option<(f64, bool)>, y: Option<(f64, bool)>| match (x, y) {
                (Some(a), Some(b)) => Some(if b.0 > a.0 || (b.0 == a.0 && b.1) { b } else { a }),
                (a, None) => a,
                (None, b) => b,
            };
            let lo = |x: Option<(f64, bool)>, y: Option<(f64, bool)>| match (x, y) {
                (Some(a), Some(b)) => Some(if b.0 < a.0 || (b.0 == a.0 && b.1) { b } else { a }),
                (a, None) => a,
                (None, b) => b,
            };
            node(at, C::Num { min: hi(*min, *m2), max: lo(*max, *x2), float: *float || *f2, values: values.clone().or_else(|| v2.clone()) })
        }
        (C::Int { .. }, C::Num { .. }) => a.clone(),
        (C::Num { .. }, C::Int { .. }) => b.clone(),
        (C::Array { items, min, max, unique }, C::Array { items: i2, min: m2, max: x2, unique: u2 }) => {
            node(at, C::Array { items: intersect(items, i2), min: (*min).max(*m2), max: min_opt(*max, *x2), unique: *unique || *u2 })
        }
        (C::Object { props, required, additional, min, max, keys }, C::Object { props: p2, required: r2, additional: a2, min: m2, max: x2, keys: k2 }) => {
            let mut merged = props.clone();
            for (k, v) in p2 {
                let joined = match merged.get(k) {
                    Some(mine) => intersect(mine, v),
                    None => v.clone(),
                };
                merged.insert(k.clone(), joined);
            }
            let additional = match (additional, a2) {
                (Some(x), Some(y)) => Some(intersect(x, y)),
                (x, y) => x.clone().or_else(|| y.clone()),
            };
            let keys = keys.clone().or_else(|| k2.clone());
            node(
                at,
                C::Object { props: merged, required: required.union(r2).cloned().collect(), additional, min: (*min).max(*m2), max: min_opt(*max, *x2), keys },
            )
        }
        (C::Other(_), _) => a.clone(),
        (_, C::Other(_)) => b.clone(),
        (C::Cycle { .. }, _) => a.clone(),
        (_, C::Cycle { .. }) => b.clone(),
        _ => node(at, C::Never),
    }
}

/// A node without its `null` alternative.
pub(super) fn without_null(n: &Rc<N>) -> Rc<N> {
    match &n.c {
        C::Union(alts) => union(&n.at, alts.iter().filter(|a| !matches!(a.c, C::Null)).cloned().collect()),
        _ => n.clone(),
    }
}

/// `n` without `null` at any depth of its alternatives and elements: a value written as text
/// (a parameter, its list's elements) has no spelling for it.
pub(super) fn text_without_null(n: &Rc<N>) -> Rc<N> {
    match &n.c {
        C::Union(alts) => union(&n.at, alts.iter().filter(|a| !matches!(a.c, C::Null)).map(text_without_null).collect()),
        C::Array { items, min, max, unique } => node(&n.at, C::Array { items: text_without_null(items), min: *min, max: *max, unique: *unique }),
        _ => n.clone(),
    }
}

/// A short description of what a node accepts, for a difference's message.
pub(super) fn describe(n: &N) -> String {
    match &n.c {
        C::Any => "any value".into(),
        C::Never => "no value".into(),
        C::Null => "null".into(),
        C::Bool(_) => "a boolean".into(),
        C::Int { values: Some(v), .. } => format!("one of the integers {v:?}"),
        C::Int { min, max, .. } => format!("an integer in {min}..={max}"),
        C::Num { min, max, float, .. } => format!("a {} number from {min:?} to {max:?}", if *float { "32-bit" } else { "64-bit" }),
        C::Str { values: Some(v), .. } => format!("one of the texts {v:?}"),
        C::Str { min, max, patterns, format, .. } => {
            format!(
                "a text (length {min}..{}, pattern {}, format {})",
                max.map_or("".into(), |m| m.to_string()),
                if patterns.is_empty() { "none".to_owned() } else { patterns.iter().map(String::as_str).collect::<Vec<_>>().join(" and ") },
                format.as_deref().unwrap_or("none")
            )
        }
        C::Array { min, max, unique, .. } => {
            format!("an array ({min}..{} items{})", max.map_or("".into(), |m| m.to_string()), if *unique { ", unique" } else { "" })
        }
        C::Object { props, .. } => format!("an object with {} members", props.len()),
        C::Union(alts) => format!("one of {} alternatives", alts.len()),
        C::Other(what) => what.clone(),
        C::Cycle { up, .. } => format!("the schema {up} references up"),
    }
}

pub(super) type Mismatch = (String, String, String);

/// Whether two canonical nodes accept the same values: every difference found (where below
/// the schema, the original's pointer there, and what differs); the members of objects are
/// all compared, so one difference does not hide another.
pub(super) fn equal(a: &N, b: &N, path: &str, seen: &mut BTreeSet<(usize, usize)>) -> Vec<Mismatch> {
    let key = (a as *const N as usize, b as *const N as usize);
    if !seen.insert(key) {
        return Vec::new();
    }
    let differ = |what: String| vec![(path.to_owned(), a.at.clone(), what)];
    let accepts = || format!("the document accepts {}, the export {}", describe(a), describe(b));
    match (&a.c, &b.c) {
        (C::Any, C::Any) | (C::Never, C::Never) | (C::Null, C::Null) => Vec::new(),
        (C::Bool(x), C::Bool(y)) if x == y => Vec::new(),
        (C::Int { min, max, values }, C::Int { min: m2, max: x2, values: v2 }) => {
            if values != v2 || (values.is_none() && (min != m2 || max != x2)) {
                return differ(accepts());
            }
            Vec::new()
        }
        (C::Num { min, max, float, values }, C::Num { min: m2, max: x2, float: f2, values: v2 }) if min == m2 && max == x2 && float == f2 && values == v2 => {
            Vec::new()
        }
        (C::Str { min, max, patterns, format, values }, C::Str { min: m2, max: x2, patterns: p2, format: f2, values: v2 })
            if min == m2 && max == x2 && patterns == p2 && format == f2 && values == v2 =>
        {
            Vec::new()
        }
        (C::Array { items, min, max, unique }, C::Array { items: i2, min: m2, max: x2, unique: u2 }) => {
            let mut out = if (min, max, unique) != (m2, x2, u2) { differ(accepts()) } else { Vec::new() };
            out.extend(equal(items, i2, &format!("{path}/items"), seen));
            out
        }
        (C::Object { props, required, additional, min, max, keys }, C::Object { props: p2, required: r2, additional: a2, min: m2, max: x2, keys: k2 }) => {
            let mut out = Vec::new();
            if keys != k2 {
                out.extend(differ(format!(
                    "the document's keys are {}, the export's {}",
                    keys.as_deref().unwrap_or("any text"),
                    k2.as_deref().unwrap_or("any text")
                )));
            }
            for name in props.keys().filter(|k| !p2.contains_key(*k)) {
                out.push((format!("{path}/{name}"), props[name].at.clone(), format!("member `{name}` is not in the export")));
            }
            for name in p2.keys().filter(|k| !props.contains_key(*k)) {
                out.extend(differ(format!("the export has a member `{name}` the document does not")));
            }
            if required != r2 {
                let only: Vec<&String> = required.symmetric_difference(r2).collect();
                out.extend(differ(format!("required members differ: {only:?} (document: {required:?})")));
            }
            if (min, max) != (m2, x2) {
                out.extend(differ(format!("the document allows {min}..{max:?} members, the export {m2}..{x2:?}")));
            }
            match (additional, a2) {
                (None, None) => {}
                (Some(x), Some(y)) => out.extend(equal(x, y, &format!("{path}/*"), seen)),
                (Some(x), None) => {
                    out.push((format!("{path}/*"), x.at.clone(), format!("other members are {} in the document and anything in the export", describe(x))))
                }
                (None, Some(y)) => out.extend(differ(format!("other members are anything in the document and {} in the export", describe(y)))),
            }
            for (name, x) in props {
                if let Some(y) = p2.get(name) {
                    out.extend(equal(x, y, &format!("{path}/{name}"), seen));
                }
            }
            out
        }
        (C::Union(xs), C::Union(ys)) => {
            if xs.len() != ys.len() {
                return differ(format!("the document has {} alternatives, the export {}", xs.len(), ys.len()));
            }
            let mut unmatched: Vec<&Rc<N>> = ys.iter().collect();
            let mut out = Vec::new();
            for x in xs {
                match unmatched.iter().position(|y| equal(x, y, path, &mut seen.clone()).is_empty()) {
                    Some(i) => {
                        unmatched.remove(i);
                    }
                    // The difference with the closest alternative: one of the same kind.
                    None => match unmatched.iter().position(|y| std::mem::discriminant(&y.c) == std::mem::discriminant(&x.c)) {
                        Some(i) => out.extend(equal(x, unmatched.remove(i), path, seen)),
                        None => out.push((path.to_owned(), x.at.clone(), format!("the export has no alternative accepting {}", describe(x)))),
                    },
                }
            }
            out
        }
        (C::Cycle { up: x, .. }, C::Cycle { up: y, .. }) if x == y => Vec::new(),
        (C::Other(what), _) => differ(format!("the comparison cannot read {what}")),
        _ => differ(accepts()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The members `bare` and `wrapped` of the object alternative of `Tree`, whose `tree`
    /// alternatives are given.
    fn members(tree: Vec<Value>) -> (Rc<N>, Rc<N>) {
        let mut alternatives = vec![json!({"type": "object", "properties": {
            "bare": {"$ref": "#/components/schemas/Tree"},
            "wrapped": {"anyOf": [{"$ref": "#/components/schemas/Tree"}, {"type": "null"}]},
        }})];
        alternatives.extend(tree);
        let doc = json!({"components": {"schemas": {"Tree": {"anyOf": alternatives}}}});
        let tree = Canon::new(&doc).reference("#/components/schemas/Tree", "#/test").0;
        let alternatives = match &tree.c {
            C::Union(alternatives) => alternatives.clone(),
            _ => vec![tree.clone()],
        };
        let object = alternatives.iter().find_map(|a| match &a.c {
            C::Object { props, .. } => Some(props.clone()),
            _ => None,
        });
        let props = object.expect("Tree has an object alternative");
        (props["bare"].clone(), props["wrapped"].clone())
    }

    #[test]
    fn null_beside_a_recursive_reference_to_a_schema_that_admits_it_counts_once() {
        for admits in [json!({"type": "null"}), json!({"type": "string", "nullable": true}), json!({"enum": ["a", null]})] {
            let (bare, wrapped) = members(vec![admits.clone()]);
            assert_eq!(equal(&bare, &wrapped, "", &mut BTreeSet::new()), Vec::new(), "beside {admits}");
        }
    }

    #[test]
    fn null_beside_a_recursive_reference_to_a_schema_that_refuses_it_is_a_difference() {
        for refuses in [json!({"type": "string"}), json!({"type": "string", "enum": ["a", null]}), json!({"properties": {}})] {
            let (bare, wrapped) = members(vec![refuses.clone()]);
            assert_ne!(equal(&bare, &wrapped, "", &mut BTreeSet::new()), Vec::new(), "beside {refuses}");
        }
    }
}
