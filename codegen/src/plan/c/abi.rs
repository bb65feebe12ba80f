//! The C ABI a spec describes, decided once for the C header, the C++ wrapper and the Rust library.
//!
//! [`Abi::new`] turns the model into names, constants, enums and classes with their accessors;
//! the sibling modules `header`, `cpp` and `sdk` only render it, so the three artifacts cannot
//! disagree on a name, a value or which field is optional. What the spec declares not shown is
//! collected as `left_out` text for the comments that say why it is missing.

use super::docs::{deprecation, field_doc, gap_text, item_doc, with_notes};
use crate::diag::Span;
use crate::load::raw::ConstantValue;
use crate::model::types::Primitive;
use crate::model::{Bound, Class, Enum, Limit, Meta, Model, Prefixes, TypeRef};
use crate::plan::case;

/// Version of the ABI's conventions: handle layout, string structs and ownership rules.
///
/// It belongs to the generator, not to the platform: it changes when this module changes how
/// the spec maps to C, and both the header and the library carry it.
pub const ABI_VERSION: (u32, u32) = (1, 0);

/// The whole ABI of a model.
#[derive(Debug)]
pub struct Abi<'m> {
    /// The model the ABI describes.
    pub model: &'m Model,
    /// `Platform_`, `PLATFORM_`, `platformpp`, the header names.
    pub prefixes: &'m Prefixes,
    /// Constant groups in a fixed order: permissions, flags, enums, errors, limits, events,
    /// opcodes, scopes.
    pub constants: Vec<ConstGroup>,
    /// Enums used by SDK classes: C enums and C++ `enum class`es.
    pub enums: Vec<AbiEnum<'m>>,
    /// SDK classes: opaque handles.
    pub classes: Vec<AbiClass<'m>>,
}

/// A titled group of constants with what the spec leaves out of it.
#[derive(Debug)]
pub struct ConstGroup {
    /// Heading comment.
    pub title: String,
    /// Description lines of the group.
    pub doc: Vec<String>,
    /// The constants, in spec order.
    pub items: Vec<Constant>,
    /// One line per item or facet left out because the spec does not show it.
    pub left_out: Vec<String>,
}

/// One constant.
#[derive(Debug)]
pub struct Constant {
    /// `PERMISSION_PIN_MESSAGES`: the C name without the macro prefix; the Rust name as is; the
    /// C++ name in PascalCase.
    pub name: String,
    /// The value.
    pub value: Value,
    /// Doc lines.
    pub doc: Vec<String>,
    /// The unit of a number (`MiB`, `characters`).
    pub unit: Option<String>,
    /// The summary of the change that deprecates it.
    pub deprecated: Option<String>,
    /// The spec item it comes from, for diagnostics about its name.
    pub origin: Origin,
}

/// A spec item as diagnostics name it: `permission `PIN_MESSAGES``, with where its id is.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// The kind and id.
    pub what: String,
    /// Where the id (or field name) is written.
    pub span: Span,
}

impl Origin {
    fn of(what: &str, meta: &Meta) -> Self {
        Origin { what: format!("{what} `{}`", meta.id), span: meta.id_span }
    }
}

/// A C identifier from an id or `c_name`: PascalCase, led by `V` where it would start with a
/// digit (C identifiers cannot).
pub fn c_pascal(stem: &str) -> String {
    lead(case::pascal(stem))
}

/// SCREAMING_SNAKE_CASE, led by `V` where it would start with a digit.
pub fn c_screaming(stem: &str) -> String {
    lead(case::screaming(stem))
}

fn lead(name: String) -> String {
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) { format!("V{name}") } else { name }
}

/// An integer as a C++ expression of type `ty`: the most negative 64-bit value, whose digits
/// alone do not fit the type, as a difference.
pub fn int_literal(value: i64, ty: &str) -> String {
    if value == i64::MIN { format!("{ty}{{-9223372036854775807}} - 1") } else { value.to_string() }
}

/// A constant's value with its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `1 << bit`.
    Bit { bit: u32, ty: IntTy },
    /// A plain integer.
    Int { value: i64, ty: IntTy },
    /// A string.
    Str(String),
}

/// Integer types of constants and scalar fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntTy {
    I32,
    I64,
    U32,
    U64,
    /// `float`: not an integer, but it crosses the boundary the same way (by value).
    F32,
    /// `double`.
    F64,
}

impl IntTy {
    /// The signed type that holds `value`.
    fn signed_for(value: i64) -> IntTy {
        if i32::try_from(value).is_ok() { IntTy::I32 } else { IntTy::I64 }
    }

    /// `int32_t`.
    pub fn c(self) -> &'static str {
        match self {
            IntTy::I32 => "int32_t",
            IntTy::I64 => "int64_t",
            IntTy::U32 => "uint32_t",
            IntTy::U64 => "uint64_t",
            IntTy::F32 => "float",
            IntTy::F64 => "double",
        }
    }

    /// `INT32_C`.
    pub fn c_literal_macro(self) -> &'static str {
        match self {
            IntTy::I32 => "INT32_C",
            IntTy::I64 => "INT64_C",
            IntTy::U32 => "UINT32_C",
            IntTy::U64 => "UINT64_C",
            // Constants are integers; a floating-point literal needs no macro.
            IntTy::F32 | IntTy::F64 => "",
        }
    }

    /// `std::int32_t` (`double` for floating point).
    pub fn cpp(self) -> String {
        match self {
            IntTy::F32 | IntTy::F64 => self.c().to_owned(),
            _ => format!("std::{}", self.c()),
        }
    }

    /// `i32`.
    pub fn rust(self) -> &'static str {
        match self {
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
            IntTy::F32 => "f32",
            IntTy::F64 => "f64",
        }
    }
}

/// An enum used by SDK classes.
#[derive(Debug)]
pub struct AbiEnum<'m> {
    /// The spec's enum.
    pub source: &'m Enum,
    /// `IntegrationType`.
    pub name: String,
    /// Values with a known number.
    pub values: Vec<AbiEnumValue>,
    /// Whether the spec leaves values out, so any integer may be one of them.
    pub open: bool,
    /// Doc lines.
    pub doc: Vec<String>,
    /// What is left out and why.
    pub left_out: Vec<String>,
}

/// One value of an [`AbiEnum`].
#[derive(Debug)]
pub struct AbiEnumValue {
    /// `GuildInstall`.
    pub name: String,
    /// Its number.
    pub value: i32,
    /// Doc lines.
    pub doc: Vec<String>,
    /// The spec value it comes from.
    pub origin: Origin,
}

/// An SDK class.
#[derive(Debug)]
pub struct AbiClass<'m> {
    /// The spec's class.
    pub source: &'m Class,
    /// `AuthorizationArgs`.
    pub name: String,
    /// The C++ namespace it lives in.
    pub namespace: String,
    /// One getter/setter pair per field the ABI can carry.
    pub accessors: Vec<Accessor>,
    /// Doc lines.
    pub doc: Vec<String>,
    /// Members left out and why.
    pub left_out: Vec<String>,
    /// The summary of the change that deprecates the class.
    pub deprecated: Option<String>,
    /// What the C++ wrapper gives the class: exactly the spec's `semantics`.
    pub semantics: Semantics,
}

/// The value semantics a class declares (`semantics: [copy, move, bool, nullobj]`). The C++
/// wrapper gives a class only these, so it never claims a behaviour the spec does not state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Semantics {
    /// Copy construction and assignment (deep, through `_Clone`).
    pub copy: bool,
    /// Move construction and assignment (the handle is stolen).
    pub move_: bool,
    /// `explicit operator bool`: whether the object holds a valid handle.
    pub bool_: bool,
    /// `static const nullobj`: an invalid instance.
    pub nullobj: bool,
}

impl Semantics {
    fn of(class: &Class) -> Self {
        let has = |name: &str| class.semantics.iter().any(|s| s.id == name);
        Self { copy: has("copy"), move_: has("move"), bool_: has("bool"), nullobj: has("nullobj") }
    }

    /// Whether the class can be swapped (it has copy or move assignment to build on).
    pub fn swaps(self) -> bool {
        self.copy || self.move_
    }
}

/// A field's getter (`ClientId`) and setter (`SetClientId`).
#[derive(Debug)]
pub struct Accessor {
    /// `ClientId`.
    pub name: String,
    /// `client_id`: the Rust field.
    pub rust: String,
    /// How values cross the boundary.
    pub kind: Kind,
    /// Optional fields have a pointer setter (NULL unsets) and a `bool` getter.
    pub optional: bool,
    /// A field of a class that can lead back to its own class (`parent: class<Node>`): the Rust
    /// struct holds it as `Option<Box<_>>`, so the struct has a size, and a required one is made
    /// when it is first read, so a new object's default value is finite.
    pub boxed: bool,
    /// Doc lines.
    pub doc: Vec<String>,
    /// The summary of the change that deprecates the field (or its class).
    pub deprecated: Option<String>,
    /// The field it comes from.
    pub origin: Origin,
}

/// How a field's value crosses the boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `bool`.
    Bool,
    /// A fixed-width integer.
    Int(IntTy),
    /// Bytes: a borrowed view in, an owned string out.
    String,
    /// An [`AbiEnum`], by name.
    Enum(String),
    /// Another class, by name: deep-copied in, a new owned handle out.
    Class(String),
}

impl<'m> Abi<'m> {
    /// Decides the ABI of `model`.
    pub fn new(model: &'m Model) -> Self {
        let enums = sdk_enums(model);
        let mut constants = Vec::new();
        constants.extend(permissions(model));
        constants.extend(flags(model));
        constants.extend(plain_enums(model, &enums));
        constants.extend(errors(model));
        constants.extend(limits(model));
        constants.extend(events(model));
        constants.extend(opcodes(model));
        constants.extend(scopes(model));
        constants.extend(named_values(model));
        let classes = model.classes.iter().map(|c| class(model, c, &enums)).collect();
        Abi { model, prefixes: &model.platform.prefixes, constants, enums, classes }
    }

    /// The C name of a constant: `PLATFORM_PERMISSION_PIN_MESSAGES`.
    pub fn c_const(&self, c: &Constant) -> String {
        format!("{}{}", self.prefixes.c_macro, c.name)
    }

    /// The C++ name of a constant: `PermissionPinMessages`.
    pub fn cpp_const(c: &Constant) -> String {
        case::pascal(&c.name)
    }

    /// A macro of the header's own: `PLATFORM_API`.
    pub fn c_macro(&self, name: &str) -> String {
        format!("{}{}", self.prefixes.c_macro, name)
    }

    /// A C type or function: `Platform_AuthorizationArgs`, `Platform_StringView`, `Platform_Free`.
    pub fn c_name(&self, name: &str) -> String {
        format!("{}{}", self.prefixes.c_type, name)
    }

    /// `Platform_AuthorizationArgs_SetScopes`.
    pub fn c_fn(&self, class: &str, function: &str) -> String {
        format!("{}{class}_{function}", self.prefixes.c_type)
    }

    /// `Platform_IntegrationType_GuildInstall`.
    pub fn c_enum_value(&self, e: &AbiEnum, value: &str) -> String {
        format!("{}{}_{value}", self.prefixes.c_type, e.name)
    }

    /// The include guard of a header file: `PLATFORM_HEADER_CPLATFORM_H_`.
    pub fn guard(&self, file: &str) -> String {
        format!("{}HEADER_{}_", self.prefixes.c_macro, case::screaming(file))
    }

    /// The enum with this ABI name.
    pub fn enum_named(&self, name: &str) -> &AbiEnum<'m> {
        self.enums.iter().find(|e| e.name == name).expect("BUG: accessor names an enum the ABI does not have")
    }

    /// Whether anything the headers declare is deprecated.
    pub fn has_deprecations(&self) -> bool {
        self.constants.iter().flat_map(|g| &g.items).any(|c| c.deprecated.is_some())
            || self.classes.iter().any(|c| c.deprecated.is_some() || c.accessors.iter().any(|a| a.deprecated.is_some()))
    }

    /// The class with this ABI name.
    pub fn class_named(&self, name: &str) -> &AbiClass<'m> {
        self.classes.iter().find(|c| c.name == name).expect("BUG: accessor names a class the ABI does not have")
    }
}

fn constant(model: &Model, what: &str, meta: &Meta, name: String, value: Value) -> Constant {
    let deprecated = deprecation(model, meta.deprecated.as_ref());
    Constant { name, value, doc: item_doc(model, meta), unit: None, deprecated, origin: Origin::of(what, meta) }
}

fn permissions(model: &Model) -> Option<ConstGroup> {
    let mut group = group("Permissions", vec!["Permission bits.".into()]);
    let mut unshown = Vec::new();
    for p in &model.permissions {
        match p.bit {
            Some(bit) => {
                let name = format!("PERMISSION_{}", case::screaming(p.meta.c()));
                group.items.push(constant(model, "permission", &p.meta, name, Value::Bit { bit, ty: IntTy::U64 }));
            }
            None => unshown.push(p.meta.id.clone()),
        }
    }
    if !unshown.is_empty() {
        group.left_out.push(format!("Left out, their bits are not shown: {}.", unshown.join(", ")));
    }
    non_empty(group)
}

fn flags(model: &Model) -> Vec<ConstGroup> {
    model
        .flags
        .iter()
        .filter_map(|set| {
            let ty = if set.width <= 32 { IntTy::U32 } else { IntTy::U64 };
            let mut group = group(&format!("{} (`{}`)", set.meta.name, set.meta.id), item_doc(model, &set.meta));
            group.left_out.extend(set.meta.not_shown.iter().map(|g| format!("Left out, {}.", gap_text([g]))));
            for v in &set.values {
                match v.bit {
                    Some(bit) => {
                        let name = format!("{}_{}", c_screaming(set.meta.c()), case::screaming(v.meta.c()));
                        group.items.push(constant(model, "flag", &v.meta, name, Value::Bit { bit, ty }));
                    }
                    None => group.left_out.push(format!("Left out, the bit of {} is not shown.", v.meta.id)),
                }
            }
            non_empty(group)
        })
        .collect()
}

/// Enums no class uses: their values as constants (string enums as their wire strings).
fn plain_enums(model: &Model, sdk: &[AbiEnum]) -> Vec<ConstGroup> {
    model
        .enums
        .iter()
        .filter(|e| !sdk.iter().any(|s| std::ptr::eq(s.source, *e)))
        .filter_map(|e| {
            let mut group = group(&format!("{} (`{}`)", e.meta.name, e.meta.id), item_doc(model, &e.meta));
            group.left_out.extend(e.meta.not_shown.iter().map(|g| format!("Left out, {}.", gap_text([g]))));
            for v in &e.values {
                let name = format!("{}_{}", c_screaming(e.meta.c()), case::screaming(v.meta.c()));
                let value = match (e.repr.as_str(), v.value) {
                    ("string", _) => Value::Str(v.meta.id.clone()),
                    (_, Some(n)) => Value::Int { value: n, ty: IntTy::signed_for(n) },
                    (_, None) => {
                        group.left_out.push(format!("Left out, the value of {} is not shown.", v.meta.id));
                        continue;
                    }
                };
                group.items.push(constant(model, "enum value", &v.meta, name, value));
            }
            non_empty(group)
        })
        .collect()
}

fn errors(model: &Model) -> Option<ConstGroup> {
    let mut group = group("Error codes", vec!["Error codes, and OAuth2 error strings where the error is one.".into()]);
    for e in &model.errors {
        let id = case::screaming(e.meta.c());
        let mut doc = vec![format!("{}: {}", e.meta.name, e.condition)];
        if let Some(status) = e.status {
            doc.push(format!("HTTP status {status}."));
        }
        doc.extend(item_doc(model, &e.meta));
        let deprecated = deprecation(model, e.meta.deprecated.as_ref());
        let with = |name: String, value: Value| Constant {
            name,
            value,
            doc: doc.clone(),
            unit: None,
            deprecated: deprecated.clone(),
            origin: Origin::of("error", &e.meta),
        };
        if let Some(code) = e.code {
            group.items.push(with(format!("ERROR_{id}"), Value::Int { value: code, ty: IntTy::signed_for(code) }));
        }
        if let Some(oauth) = &e.oauth_error {
            group.items.push(with(format!("OAUTH_ERROR_{id}"), Value::Str(oauth.clone())));
        }
        if e.code.is_none() && e.meta.is_not_shown("code") {
            group.left_out.push(format!("Left out, the code of {} is not shown.", e.meta.id));
        }
    }
    non_empty(group)
}

fn limits(model: &Model) -> Option<ConstGroup> {
    let mut group = group("Limits", vec!["Limits; each constant's unit is in its comment.".into()]);
    for limit in &model.limits {
        let id = case::screaming(limit.meta.c());
        // One doc block per limit, above its first constant.
        let first = group.items.len();
        let bounds = [("MIN", &limit.min), ("MAX", &limit.max), ("VALUE", &limit.value)];
        for (suffix, bound) in bounds {
            let Some(bound) = bound else { continue };
            match literal(model, bound) {
                Some(value) => group.items.push(Constant {
                    name: format!("LIMIT_{id}_{suffix}"),
                    value: Value::Int { value, ty: IntTy::I64 },
                    doc: Vec::new(),
                    unit: Some(limit.unit.id.clone()),
                    deprecated: deprecation(model, limit.meta.deprecated.as_ref()),
                    origin: Origin::of("limit", &limit.meta),
                }),
                None => group.left_out.push(format!(
                    "Left out, the {} of {} is known only at run time ({}).",
                    suffix.to_lowercase(),
                    limit.meta.id,
                    bound_text(bound)
                )),
            }
        }
        if let Some(d) = &limit.duration {
            group.items.push(Constant {
                name: format!("LIMIT_{id}_DURATION"),
                value: Value::Int { value: d.value, ty: IntTy::I64 },
                doc: Vec::new(),
                unit: Some(d.unit.id.clone()),
                deprecated: deprecation(model, limit.meta.deprecated.as_ref()),
                origin: Origin::of("limit", &limit.meta),
            });
        }
        if let Some(c) = group.items.get_mut(first) {
            c.doc = limit_doc(model, limit);
        }
    }
    non_empty(group)
}

fn limit_doc(model: &Model, limit: &Limit) -> Vec<String> {
    let mut doc: Vec<String> = limit.meta.description.iter().cloned().collect();
    let mut unit = format!("Unit: {}", limit.unit.id);
    if let Some(per) = &limit.per {
        unit.push_str(&format!(", per {per}"));
    }
    doc.push(format!("{unit}."));
    for p in &limit.previous {
        let summary = model.change(&p.until.id).map(|c| format!(": {}", c.summary)).unwrap_or_default();
        doc.push(format!("It was {} until `{}`{summary}", p.value, p.until.id));
    }
    with_notes(doc, &limit.meta.notes)
}

/// The literal a bound comes to, following references to other limits.
fn literal(model: &Model, bound: &Bound) -> Option<i64> {
    match bound {
        Bound::Value(_, v) => Some(*v),
        Bound::Limit { limit, offset } => model.limit(&limit.id).and_then(Limit::upper).map(|v| v + offset),
        Bound::Float(..) | Bound::Field { .. } => None,
    }
}

fn bound_text(bound: &Bound) -> String {
    let offset = |o: i64| match o {
        0 => String::new(),
        o if o < 0 => format!(" - {}", -o),
        o => format!(" + {o}"),
    };
    match bound {
        Bound::Value(_, v) => v.to_string(),
        Bound::Float(_, v) => v.to_string(),
        Bound::Limit { limit, offset: o } => format!("{}{}", limit.id, offset(*o)),
        Bound::Field { endpoint, field, offset: o } => format!("{}.{field}{}", endpoint.id, offset(*o)),
    }
}

fn events(model: &Model) -> Option<ConstGroup> {
    let mut group = group("Event codes", vec!["Numbered events, by the channel they arrive on.".into()]);
    for e in model.events.iter() {
        let Some(code) = e.code else { continue };
        let name = format!("{}_EVENT_{}", case::screaming(&e.channel.id), case::screaming(e.meta.c()));
        group.items.push(constant(model, "event", &e.meta, name, Value::Int { value: code, ty: IntTy::signed_for(code) }));
    }
    non_empty(group)
}

fn opcodes(model: &Model) -> Option<ConstGroup> {
    let mut group = group("Opcodes", vec!["Gateway opcodes.".into()]);
    for op in &model.opcodes {
        let name = format!("OPCODE_{}", case::screaming(op.meta.c()));
        group.items.push(constant(model, "opcode", &op.meta, name, Value::Int { value: op.code, ty: IntTy::signed_for(op.code) }));
    }
    non_empty(group)
}

fn scopes(model: &Model) -> Option<ConstGroup> {
    let mut group = group("Scopes", vec!["OAuth2 scopes, and scope sets as space-separated scope strings.".into()]);
    for s in &model.scopes {
        group.items.push(constant(model, "scope", &s.meta, format!("SCOPE_{}", case::screaming(s.meta.c())), Value::Str(s.meta.id.clone())));
    }
    for set in &model.scope_sets {
        let joined = set.scopes.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(" ");
        let mut c = constant(model, "scope set", &set.meta, format!("SCOPE_SET_{}", case::screaming(set.meta.c())), Value::Str(joined));
        if let Some(call) = &set.call {
            c.doc.push(format!("What {call} returns."));
        }
        group.items.push(c);
    }
    non_empty(group)
}

fn named_values(model: &Model) -> Option<ConstGroup> {
    let mut group = group("Named values", vec!["Values of the platform that are neither limits nor enum values.".into()]);
    for c in &model.constants {
        let value = match &c.value {
            ConstantValue::Text(text) => Value::Str(text.clone()),
            ConstantValue::Integer(n) => Value::Int { value: *n, ty: IntTy::signed_for(*n) },
        };
        group.items.push(constant(model, "constant", &c.meta, c_screaming(c.meta.c()), value));
    }
    non_empty(group)
}

fn group(title: &str, doc: Vec<String>) -> ConstGroup {
    ConstGroup { title: title.to_string(), doc, items: Vec::new(), left_out: Vec::new() }
}

fn non_empty(group: ConstGroup) -> Option<ConstGroup> {
    (!group.items.is_empty() || !group.left_out.is_empty()).then_some(group)
}

/// Integer enums some class field uses, in spec order.
fn sdk_enums(model: &Model) -> Vec<AbiEnum<'_>> {
    let used = |e: &Enum| model.classes.iter().flat_map(|c| &c.fields).any(|f| f.ty.as_ref() == Some(&TypeRef::Enum(e.meta.id.clone())));
    model.enums.iter().filter(|e| e.repr != "string" && used(e)).map(|e| sdk_enum(model, e)).collect()
}

fn sdk_enum<'m>(model: &Model, e: &'m Enum) -> AbiEnum<'m> {
    let mut left_out: Vec<String> = e.meta.not_shown.iter().map(|g| format!("Left out, {}.", gap_text([g]))).collect();
    let mut values = Vec::new();
    for v in &e.values {
        match v.value.map(i32::try_from) {
            Some(Ok(value)) => {
                values.push(AbiEnumValue { name: c_pascal(v.meta.c()), value, doc: item_doc(model, &v.meta), origin: Origin::of("value", &v.meta) })
            }
            Some(Err(_)) => left_out.push(format!("Left out, the value of {} does not fit a C enum.", v.meta.id)),
            None => left_out.push(format!("Left out, the value of {} is not shown.", v.meta.id)),
        }
    }
    let open = values.is_empty() || values.len() < e.values.len() || e.meta.not_shown.iter().any(|g| g.facet == "values");
    AbiEnum { source: e, name: c_pascal(e.meta.c()), values, open, doc: item_doc(model, &e.meta), left_out }
}

fn class<'m>(model: &'m Model, c: &'m Class, enums: &[AbiEnum]) -> AbiClass<'m> {
    let deprecated = deprecation(model, c.meta.deprecated.as_ref());
    let mut left_out: Vec<String> = c.meta.not_shown.iter().map(|g| format!("Left out, {}.", gap_text([g]))).collect();
    let mut accessors = Vec::new();
    for f in &c.fields {
        match f.ty.as_ref().map(|t| kind(model, t, enums)) {
            Some(Some(kind)) => accessors.push(Accessor {
                name: c_pascal(f.c()),
                rust: rust_field(f.c()),
                boxed: matches!(&f.ty, Some(TypeRef::Class(target)) if class_reaches(model, target, &c.meta.id, &mut Vec::new())),
                kind,
                optional: f.optional || f.nullable,
                doc: field_doc(model, f),
                deprecated: deprecation(model, f.deprecated.as_ref()).or_else(|| deprecated.clone()),
                origin: Origin { what: format!("field `{}`", f.name), span: f.span },
            }),
            Some(None) => left_out.push(format!(
                "Left out, field {} has type `{}`, which has no C mapping.",
                f.name,
                f.ty.as_ref().map(ToString::to_string).unwrap_or_default()
            )),
            None => left_out.push(format!("Left out, the type of field {} is not shown.", f.name)),
        }
    }
    for m in &c.methods {
        let what = m.meta.description.as_deref().map(|d| format!(" ({})", d.trim_end_matches('.'))).unwrap_or_default();
        let why =
            if m.meta.not_shown.is_empty() { "the spec describes no behaviour the library could implement".to_string() } else { gap_text(&m.meta.not_shown) };
        left_out.push(format!("Left out, method {}{what}: {why}.", m.meta.id));
    }
    let namespace = if c.namespace.is_empty() { model.platform.prefixes.cpp_namespace.clone() } else { c.namespace.clone() };
    AbiClass { source: c, name: c_pascal(c.meta.c()), namespace, accessors, doc: item_doc(model, &c.meta), left_out, deprecated, semantics: Semantics::of(c) }
}

/// Whether class `from` holds class `target` through its class fields, at any depth.
fn class_reaches(model: &Model, from: &str, target: &str, seen: &mut Vec<String>) -> bool {
    if from == target {
        return true;
    }
    if seen.iter().any(|s| s == from) {
        return false;
    }
    seen.push(from.to_owned());
    let Some(class) = model.class(from) else { return false };
    class.fields.iter().any(|f| matches!(&f.ty, Some(TypeRef::Class(next)) if class_reaches(model, next, target, seen)))
}

/// The field of the library's Rust struct: snake case, led by `v` where it would start with a
/// digit, a raw identifier where it is a keyword.
fn rust_field(stem: &str) -> String {
    let name = case::snake(stem);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) { format!("v{name}") } else { name }
}

/// How a field type crosses the boundary; `None` for the types `TypeRef::crosses_c_abi` keeps on
/// the Rust side.
fn kind(model: &Model, ty: &TypeRef, enums: &[AbiEnum]) -> Option<Kind> {
    if !ty.crosses_c_abi() {
        return None;
    }
    Some(match ty {
        TypeRef::Primitive(p) => match p {
            Primitive::Boolean => Kind::Bool,
            Primitive::Int32 => Kind::Int(IntTy::I32),
            Primitive::Uint32 => Kind::Int(IntTy::U32),
            Primitive::Integer => Kind::Int(IntTy::I64),
            Primitive::Uint64 | Primitive::Snowflake => Kind::Int(IntTy::U64),
            Primitive::Number => Kind::Int(IntTy::F64),
            Primitive::Float32 => Kind::Int(IntTy::F32),
            // Text, and numbers the wire carries as text, stay bytes so they round-trip exactly;
            // dates and ids in their text forms too.
            Primitive::String
            | Primitive::Url
            | Primitive::Email
            | Primitive::Timestamp
            | Primitive::Date
            | Primitive::Uuid
            | Primitive::StringInteger
            | Primitive::Csv
            | Primitive::Json => Kind::String,
            Primitive::File | Primitive::Bytes | Primitive::Null => return None,
        },
        TypeRef::Flags(id) => Kind::Int(if model.flag_set(id).is_some_and(|f| f.width <= 32) { IntTy::U32 } else { IntTy::U64 }),
        TypeRef::Enum(id) => match enums.iter().find(|e| &e.source.meta.id == id) {
            Some(e) => Kind::Enum(e.name.clone()),
            None => Kind::String,
        },
        TypeRef::Class(id) => Kind::Class(c_pascal(model.class(id).map_or(id.as_str(), |c| c.meta.c()))),
        TypeRef::Array(_) | TypeRef::Object(_) | TypeRef::Map(..) | TypeRef::Union(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> Model {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/minimal");
        crate::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid")).model
    }

    #[test]
    fn fixture_classes_map_every_field_kind() {
        let model = fixture();
        let abi = Abi::new(&model);
        let args = abi.class_named("WidgetArgs");
        let kinds: Vec<(&str, &Kind, bool)> = args.accessors.iter().map(|a| (a.name.as_str(), &a.kind, a.optional)).collect();
        assert_eq!(
            kinds,
            [
                ("Size", &Kind::Int(IntTy::U64), false),
                ("Label", &Kind::String, false),
                ("Note", &Kind::String, true),
                ("Paint", &Kind::Enum("Color".into()), true),
                ("Parent", &Kind::Class("Handle".into()), true),
                ("Visible", &Kind::Bool, false),
            ]
        );
        assert!(abi.class_named("Handle").accessors.is_empty());
        assert!(!abi.enum_named("Color").open);
    }

    #[test]
    fn values_not_shown_are_left_out_with_a_reason() {
        let model = fixture();
        let abi = Abi::new(&model);
        let all: Vec<&ConstGroup> = abi.constants.iter().collect();
        let perms = all.iter().find(|g| g.title == "Permissions").unwrap();
        assert_eq!(perms.items.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["PERMISSION_VIEW_WIDGET", "PERMISSION_EDIT_WIDGET"]);
        assert_eq!(perms.left_out, ["Left out, their bits are not shown: OWNER."]);
        let kinds = all.iter().find(|g| g.title.contains("widget_kind")).unwrap();
        assert_eq!(kinds.left_out, ["Left out, the value of HUGE is not shown."]);
    }

    #[test]
    fn constant_names_are_unique() {
        let model = fixture();
        let abi = Abi::new(&model);
        let mut names: Vec<&str> = abi.constants.iter().flat_map(|g| &g.items).map(|c| c.name.as_str()).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
