//! `sdk/include/<c_header>`: the C ABI header (constants, enums, opaque handles, functions).
//!
//! The layout follows the SDK's own C header: `typedef struct Platform_X { void *opaque; }`
//! handles with `_Init`/`_Drop`/`_Clone`, a getter named as the field and a `Set<Field>` setter,
//! optional fields as a pointer setter (NULL unsets) and a `bool` getter with an out-parameter,
//! strings as pointer + length, enums with a `_forceint` sentinel. Bit flags stay macros: before
//! C23 an enum constant must fit an `int`.

use super::writer::{CWriter, string_literal};
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::Model;
use crate::plan::c::abi::{ABI_VERSION, Abi, AbiClass, AbiEnum, Accessor, Constant, Kind, Value};

/// Emits the C header.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let abi = Abi::new(model);
    vec![GeneratedFile::new("sdk", format!("sdk/include/{}", abi.prefixes.c_header), render(&abi, opts))]
}

fn render(abi: &Abi, opts: &EmitOptions) -> String {
    let mut w = CWriter::new();
    let guard = abi.guard(&abi.prefixes.c_header);
    w.open_header(&opts.notice(), &file_doc(abi), &guard);
    for header in ["stdbool.h", "stddef.h", "stdint.h"] {
        w.directive(format!("#include <{header}>"));
    }
    w.blank();
    macros(&mut w, abi);
    for group in &abi.constants {
        w.blank();
        let mut heading = vec![group.title.clone(), String::new()];
        heading.extend(group.doc.iter().cloned());
        if !group.left_out.is_empty() {
            heading.push(String::new());
            heading.extend(group.left_out.iter().map(|l| format!("- {l}")));
        }
        w.comment(&heading);
        for c in &group.items {
            constant(&mut w, abi, c);
        }
    }
    w.blank();
    w.directive("#ifdef __cplusplus");
    w.directive("extern \"C\" {");
    w.directive("#endif");
    shared_types(&mut w, abi);
    for e in &abi.enums {
        w.blank();
        enumeration(&mut w, abi, e);
    }
    for class in &abi.classes {
        w.blank();
        let mut doc = class.doc.clone();
        if !class.left_out.is_empty() {
            doc.push(String::new());
            doc.extend(class.left_out.iter().map(|l| format!("- {l}")));
        }
        w.doc(&doc);
        let name = abi.c_name(&class.name);
        w.line(format!("typedef struct {name} {{ void *opaque; }} {name};"));
    }
    shared_functions(&mut w, abi);
    for class in &abi.classes {
        class_functions(&mut w, abi, class);
    }
    w.blank();
    w.directive("#ifdef __cplusplus");
    w.directive("} /* extern \"C\" */");
    w.directive("#endif");
    w.blank();
    w.close_header(&guard);
    w.finish()
}

fn file_doc(abi: &Abi) -> Vec<String> {
    let t = |name: &str| abi.c_name(name);
    vec![
        format!("{}: the C ABI of {}.", abi.prefixes.c_header, abi.model.platform.name),
        String::new(),
        "Usable from C99 on and from C++, where the declarations are `extern \"C\"`.".into(),
        String::new(),
        "Rules every function follows:".into(),
        format!("- `{}` writes a new handle into `self`; calling it on a live handle leaks that handle.", t("X_Init")),
        format!("- `{}` frees the handle and sets it to NULL; dropping an empty handle does nothing.", t("X_Drop")),
        format!(
            "- `{}(self, other)` writes a deep copy of `other` into `self`, whose previous contents are overwritten, not dropped; cloning an empty handle gives an empty handle.",
            t("X_Clone")
        ),
        "- A handle is empty when it or its `opaque` is NULL. Getters and setters on an empty handle do nothing and return zero, an empty string or false.".into(),
        "- Copying a handle struct by value makes an alias, not a copy: drop only one of them.".into(),
        "- String inputs are borrowed for the call only and copied; `ptr` may be NULL when `size` is 0.".into(),
        format!(
            "- String outputs belong to the caller, who frees them with `{}` (or `{}(s.ptr)`), never with `free`. They are NUL-terminated; `size` excludes the NUL.",
            t("String_Free"),
            t("Free")
        ),
        "- Object-valued setters copy the object; object-valued getters write a new handle the caller drops.".into(),
        "- Optional fields have a pointer setter (NULL unsets) and a getter that returns false, leaving `returnValue` untouched, when the value is unset.".into(),
        "- An enum value the enum does not list is ignored when the enum lists all its values (an optional field becomes unset); enums the spec shows only in part keep any value.".into(),
    ]
}

fn macros(w: &mut CWriter, abi: &Abi) {
    let m = |name: &str| abi.c_macro(name);
    w.comment(&[format!("Export macro: define `{}` when linking the static library on Windows.", m("STATIC"))]);
    w.directive(format!("#if defined({})", m("STATIC")));
    w.directive(format!("#  define {}", m("API")));
    w.directive("#elif defined(_WIN32)");
    w.directive(format!("#  if defined({})", m("BUILDING")));
    w.directive(format!("#    define {} __declspec(dllexport)", m("API")));
    w.directive("#  else");
    w.directive(format!("#    define {} __declspec(dllimport)", m("API")));
    w.directive("#  endif");
    w.directive("#elif defined(__GNUC__)");
    w.directive(format!("#  define {} __attribute__((visibility(\"default\")))", m("API")));
    w.directive("#else");
    w.directive(format!("#  define {}", m("API")));
    w.directive("#endif");
    w.blank();
    w.comment(&["Marks a declaration deprecated by a change of the platform, with the change's summary.".into()]);
    w.directive("#if defined(__cplusplus) && __cplusplus >= 201402L");
    w.directive(format!("#  define {}(message) [[deprecated(message)]]", m("DEPRECATED")));
    w.directive("#elif defined(__GNUC__)");
    w.directive(format!("#  define {}(message) __attribute__((deprecated(message)))", m("DEPRECATED")));
    w.directive("#elif defined(_MSC_VER)");
    w.directive(format!("#  define {}(message) __declspec(deprecated(message))", m("DEPRECATED")));
    w.directive("#else");
    w.directive(format!("#  define {}(message)", m("DEPRECATED")));
    w.directive("#endif");
    w.blank();
    w.comment(&["A compile-time assertion usable from C99 on; `name` makes each C99 fallback typedef unique.".into()]);
    w.directive("#if defined(__cplusplus)");
    w.directive(format!("#  define {}(name, condition) static_assert(condition, #name)", m("STATIC_ASSERT")));
    w.directive("#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L");
    w.directive(format!("#  define {}(name, condition) _Static_assert(condition, #name)", m("STATIC_ASSERT")));
    w.directive("#else");
    w.directive(format!(
        "#  define {}(name, condition) typedef char {}static_assert_##name[(condition) ? 1 : -1]",
        m("STATIC_ASSERT"),
        abi.prefixes.c_type.to_lowercase()
    ));
    w.directive("#endif");
    w.blank();
    w.doc(&[format!("The ABI version this header describes; `{}()` returns the library's as `(MAJOR << 16) | MINOR`.", abi.c_name("GetAbiVersion"))]);
    w.directive(format!("#define {} {}", m("ABI_VERSION_MAJOR"), ABI_VERSION.0));
    w.directive(format!("#define {} {}", m("ABI_VERSION_MINOR"), ABI_VERSION.1));
}

fn constant(w: &mut CWriter, abi: &Abi, c: &Constant) {
    let mut doc = c.doc.clone();
    if let Some(summary) = &c.deprecated {
        doc.push(format!("Deprecated: {summary}"));
    }
    w.doc(&doc);
    let unit = c.unit.as_ref().map(|u| format!(" /* {u} */")).unwrap_or_default();
    w.directive(format!("#define {} {}{unit}", abi.c_const(c), c_value(&c.value)));
}

/// A constant's C expression, parenthesised whenever it is more than one token.
fn c_value(value: &Value) -> String {
    match value {
        Value::Bit { bit, ty } => format!("({}(1) << {bit})", ty.c_literal_macro()),
        Value::Int { value: i64::MIN, ty } => format!("({0}(-9223372036854775807) - {0}(1))", ty.c_literal_macro()),
        Value::Int { value, ty } if *value < 0 => format!("({}({value}))", ty.c_literal_macro()),
        Value::Int { value, ty } => format!("{}({value})", ty.c_literal_macro()),
        Value::Str(s) => string_literal(s),
    }
}

fn shared_types(w: &mut CWriter, abi: &Abi) {
    w.blank();
    w.doc(&["Borrowed bytes passed into the library for the duration of one call.".into()]);
    let view = abi.c_name("StringView");
    w.line(format!("typedef struct {view} {{ const uint8_t *ptr; size_t size; }} {view};"));
    w.blank();
    w.doc(&[format!("Bytes the library returns; the caller owns them and frees them with `{}`.", abi.c_name("String_Free"))]);
    let string = abi.c_name("String");
    w.line(format!("typedef struct {string} {{ uint8_t *ptr; size_t size; }} {string};"));
}

fn enumeration(w: &mut CWriter, abi: &Abi, e: &AbiEnum) {
    let name = abi.c_name(&e.name);
    let mut doc = e.doc.clone();
    if !e.left_out.is_empty() {
        doc.push(String::new());
        doc.extend(e.left_out.iter().map(|l| format!("- {l}")));
    }
    if e.values.is_empty() {
        doc.push(String::new());
        doc.push("No value is shown, so this is a plain integer with no named values.".into());
        w.doc(&doc);
        w.line(format!("typedef int32_t {name};"));
    } else {
        w.doc(&doc);
        w.block(format!("typedef enum {name} {{"), format!("}} {name};"), |w| {
            for v in &e.values {
                w.doc(&v.doc);
                w.line(format!("{} = {},", abi.c_enum_value(e, &v.name), v.value));
            }
            w.line(format!("{} = 0x7FFFFFFF", abi.c_enum_value(e, "forceint")));
        });
    }
    w.line(format!("{}({name}_is_32_bits, sizeof({name}) == sizeof(int32_t));", abi.c_macro("STATIC_ASSERT")));
}

fn shared_functions(w: &mut CWriter, abi: &Abi) {
    let api = abi.c_macro("API");
    w.blank();
    w.doc(&["Frees a buffer the library returned (the `ptr` of a string); NULL does nothing.".into()]);
    w.line(format!("{api} void {}(void *ptr);", abi.c_name("Free")));
    w.blank();
    w.doc(&["Frees a string the library returned and zeroes it, so freeing it twice is harmless; NULL does nothing.".into()]);
    w.line(format!("{api} void {}({} *string);", abi.c_name("String_Free"), abi.c_name("String")));
    w.blank();
    w.doc(&[format!("The library's ABI version, `({} << 16) | {}` as it was built.", abi.c_macro("ABI_VERSION_MAJOR"), abi.c_macro("ABI_VERSION_MINOR"))]);
    w.line(format!("{api} uint32_t {}(void);", abi.c_name("GetAbiVersion")));
}

fn class_functions(w: &mut CWriter, abi: &Abi, class: &AbiClass) {
    let handle = abi.c_name(&class.name);
    let lifecycle = [
        ("Init", format!("{handle} *self"), "Writes a new handle holding the default values into `self`."),
        ("Drop", format!("{handle} *self"), "Frees the handle and sets it to NULL; an empty handle is left as it is."),
        ("Clone", format!("{handle} *self, const {handle} *other"), "Writes a deep copy of `other` into `self`, overwriting it without dropping it."),
    ];
    for (function, params, doc) in lifecycle {
        w.blank();
        w.doc(&[doc.to_string()]);
        declare(w, abi, class.deprecated.as_deref(), "void", &abi.c_fn(&class.name, function), &params);
    }
    for a in &class.accessors {
        accessor(w, abi, class, a);
    }
}

fn accessor(w: &mut CWriter, abi: &Abi, class: &AbiClass, a: &Accessor) {
    let handle = abi.c_name(&class.name);
    let out = c_out_type(abi, &a.kind);
    let by_out = matches!(a.kind, Kind::String | Kind::Class(_));
    let mut getter_doc = a.doc.clone();
    getter_doc.push(String::new());
    let (ret, params) = match (a.optional, by_out) {
        (false, false) => {
            getter_doc.push("Returns the value, or zero for an empty handle.".into());
            (out, format!("const {handle} *self"))
        }
        (false, true) => {
            getter_doc.push(format!("Writes {} into `returnValue` (an empty one for an empty handle).", owned(&a.kind)));
            ("void".to_string(), format!("const {handle} *self, {out} *returnValue"))
        }
        (true, _) => {
            getter_doc.push(format!(
                "Returns true and writes {} into `returnValue` when set; returns false and leaves `returnValue` untouched when unset.",
                owned(&a.kind)
            ));
            ("bool".to_string(), format!("const {handle} *self, {out} *returnValue"))
        }
    };
    w.blank();
    w.doc(&getter_doc);
    declare(w, abi, a.deprecated.as_deref(), &ret, &abi.c_fn(&class.name, &a.name), &params);
    let value = c_in_type(abi, &a.kind);
    let setter_param = match (&a.kind, a.optional) {
        (Kind::Class(_), _) | (_, true) => format!("const {value} *value"),
        (_, false) => format!("{value} value"),
    };
    let mut setter_doc = vec![format!("Sets `{}`.", a.name)];
    setter_doc.extend(setter_rules(a));
    w.blank();
    w.doc(&setter_doc);
    declare(w, abi, a.deprecated.as_deref(), "void", &abi.c_fn(&class.name, &format!("Set{}", a.name)), &format!("{handle} *self, {setter_param}"));
}

fn setter_rules(a: &Accessor) -> Vec<String> {
    let mut rules = Vec::new();
    match &a.kind {
        Kind::String => rules.push("The bytes are copied.".to_string()),
        Kind::Class(_) if a.optional => rules.push("The object is copied; NULL or an empty handle unsets the field.".to_string()),
        Kind::Class(_) => rules.push("The object is copied; NULL or an empty handle resets the field to a new object.".to_string()),
        _ => {}
    }
    if a.optional && !matches!(a.kind, Kind::Class(_)) {
        rules.push("NULL unsets the field.".to_string());
    }
    rules
}

/// What a getter hands over, in words.
fn owned(kind: &Kind) -> &'static str {
    match kind {
        Kind::String => "a string the caller frees",
        Kind::Class(_) => "a new handle the caller drops",
        _ => "the value",
    }
}

/// The C type a setter reads: strings as borrowed views.
fn c_in_type(abi: &Abi, kind: &Kind) -> String {
    match kind {
        Kind::String => abi.c_name("StringView"),
        other => c_out_type(abi, other),
    }
}

/// The C type a getter returns or writes: strings as owned buffers.
fn c_out_type(abi: &Abi, kind: &Kind) -> String {
    match kind {
        Kind::Bool => "bool".to_string(),
        Kind::Int(ty) => ty.c().to_string(),
        Kind::String => abi.c_name("String"),
        Kind::Enum(name) | Kind::Class(name) => abi.c_name(name),
    }
}

fn declare(w: &mut CWriter, abi: &Abi, deprecated: Option<&str>, ret: &str, name: &str, params: &str) {
    let attribute = deprecated.map(|d| format!("{}({}) ", abi.c_macro("DEPRECATED"), string_literal(d))).unwrap_or_default();
    w.line(format!("{attribute}{} {ret} {name}({params});", abi.c_macro("API")));
}
