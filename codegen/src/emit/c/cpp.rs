//! `sdk/include/<cpp_header>`: the header-only C++17 wrapper over the C header.
//!
//! Each class holds exactly one C handle and gets the value semantics its spec lists, no more:
//! `copy` (through `_Clone`, copy-and-swap assignment), `move` (the handle is stolen), `bool`
//! (`explicit operator bool`), `nullobj` (a `static const` invalid instance); what is not listed
//! is deleted or absent, so the header never promises what the source does not say. Classes are
//! declared first and their members defined after every class, so a class can use another by
//! value whatever their order in the spec. Everything is `inline`, so any number of translation
//! units may include the header with no "implementation" macro.

use super::writer::{CWriter, string_literal};
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::Model;
use crate::plan::c::abi::{Abi, AbiClass, AbiEnum, Accessor, Constant, Kind, Value};

/// Emits the C++ header.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let abi = Abi::new(model);
    vec![GeneratedFile::new("sdk", format!("sdk/include/{}", abi.prefixes.cpp_header), render(&abi, opts))]
}

fn render(abi: &Abi, opts: &EmitOptions) -> String {
    let mut w = CWriter::new();
    let guard = abi.guard(&abi.prefixes.cpp_header);
    w.open_header(&opts.notice(), &file_doc(abi), &guard);
    w.directive(format!("#include \"{}\"", abi.prefixes.c_header));
    w.blank();
    for header in ["cstdint", "optional", "string", "string_view", "utility"] {
        w.directive(format!("#include <{header}>"));
    }
    let deprecations = abi.has_deprecations();
    if deprecations {
        // The wrapper itself calls the deprecated C functions; users get the warning at their
        // own calls to the deprecated C++ members instead.
        w.blank();
        w.directive("#if defined(__GNUC__)");
        w.directive("#  pragma GCC diagnostic push");
        w.directive("#  pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"");
        w.directive("#elif defined(_MSC_VER)");
        w.directive("#  pragma warning(push)");
        w.directive("#  pragma warning(disable : 4996)");
        w.directive("#endif");
    }
    let root = abi.prefixes.cpp_namespace.as_str();
    let mut ns = Namespaces::default();
    ns.enter(&mut w, root);
    for group in &abi.constants {
        w.blank();
        let mut heading = vec![group.title.clone()];
        heading.extend(group.left_out.iter().map(|l| format!("- {l}")));
        w.comment(&heading);
        for c in &group.items {
            constant(&mut w, abi, c);
        }
    }
    for e in &abi.enums {
        w.blank();
        enumeration(&mut w, abi, e);
    }
    w.blank();
    abi_compatible(&mut w, abi);
    w.blank();
    detail(&mut w, abi);
    w.blank();
    for class in &abi.classes {
        ns.enter(&mut w, &class.namespace);
        w.line(format!("class {};", class.name));
    }
    for class in &abi.classes {
        ns.enter(&mut w, &class.namespace);
        w.blank();
        declaration(&mut w, abi, class);
    }
    ns.enter(&mut w, root);
    w.blank();
    access(&mut w);
    for class in &abi.classes {
        ns.enter(&mut w, &class.namespace);
        w.blank();
        definitions(&mut w, abi, class);
    }
    ns.close(&mut w);
    if deprecations {
        w.blank();
        w.directive("#if defined(__GNUC__)");
        w.directive("#  pragma GCC diagnostic pop");
        w.directive("#elif defined(_MSC_VER)");
        w.directive("#  pragma warning(pop)");
        w.directive("#endif");
    }
    w.blank();
    w.close_header(&guard);
    w.finish()
}

/// Opens and closes `namespace` blocks as the current namespace changes.
#[derive(Default)]
struct Namespaces {
    open: Option<String>,
}

impl Namespaces {
    fn enter(&mut self, w: &mut CWriter, namespace: &str) {
        if self.open.as_deref() == Some(namespace) {
            return;
        }
        self.close(w);
        w.blank();
        w.line(format!("namespace {namespace} {{"));
        self.open = Some(namespace.to_string());
    }

    fn close(&mut self, w: &mut CWriter) {
        if let Some(open) = self.open.take() {
            w.blank();
            w.line(format!("}} // namespace {open}"));
        }
    }
}

fn file_doc(abi: &Abi) -> Vec<String> {
    vec![
        format!("{}: the header-only C++17 wrapper of {} ({}).", abi.prefixes.cpp_header, abi.prefixes.c_header, abi.model.platform.name),
        String::new(),
        "Include it from any number of translation units; nothing needs defining first.".into(),
        String::new(),
        "Every class holds one C handle and is one pointer wide. The default constructor makes a valid".into(),
        "object holding default values. Each class has the value semantics its spec lists, and only those:".into(),
        "- `copy`: copies are deep; assignment is copy-and-swap, so self-assignment is safe.".into(),
        "- `move`: a move steals the handle and leaves the source invalid.".into(),
        "- `bool`: `explicit operator bool` is true when the object holds a valid handle.".into(),
        "- `nullobj`: a static invalid instance, to assign or compare against.".into(),
        "A class without `copy` (or `move`) has that construction and assignment deleted.".into(),
        "Accessors of an invalid object do nothing and return default values.".into(),
    ]
}

fn deprecated_attribute(abi: &Abi, summary: Option<&str>) -> String {
    summary.map(|s| format!("{}({}) ", abi.c_macro("DEPRECATED"), string_literal(s))).unwrap_or_default()
}

fn constant(w: &mut CWriter, abi: &Abi, c: &Constant) {
    w.doc(&c.doc);
    let (ty, value) = match &c.value {
        Value::Bit { bit, ty } => (ty.cpp(), format!("{}{{1}} << {bit}", ty.cpp())),
        Value::Int { value, ty } => (ty.cpp(), crate::plan::c::abi::int_literal(*value, &ty.cpp())),
        Value::Str(s) => ("std::string_view".to_string(), string_literal(s)),
    };
    let unit = c.unit.as_ref().map(|u| format!(" /* {u} */")).unwrap_or_default();
    let attribute = deprecated_attribute(abi, c.deprecated.as_deref());
    w.line(format!("{attribute}inline constexpr {ty} {} = {value};{unit}", Abi::cpp_const(c)));
}

fn enumeration(w: &mut CWriter, abi: &Abi, e: &AbiEnum) {
    let mut doc = e.doc.clone();
    if !e.left_out.is_empty() {
        doc.push(String::new());
        doc.extend(e.left_out.iter().map(|l| format!("- {l}")));
    }
    if e.open {
        doc.push(String::new());
        doc.push("The spec does not show every value: others may arrive and are kept as they are.".into());
    }
    w.doc(&doc);
    w.block(format!("enum class {} : std::int32_t {{", e.name), "};", |w| {
        for v in &e.values {
            w.doc(&v.doc);
            w.line(format!("{} = {},", v.name, v.value));
        }
    });
    let c = abi.c_name(&e.name);
    w.line(format!("static_assert(sizeof({}) == sizeof({c}), \"{} must be as wide as {c}\");", e.name, e.name));
    for v in &e.values {
        w.line(format!(
            "static_assert(static_cast<std::int32_t>({}::{}) == static_cast<std::int32_t>({}), \"{}::{} must equal the C value\");",
            e.name,
            v.name,
            abi.c_enum_value(e, &v.name),
            e.name,
            v.name
        ));
    }
}

fn abi_compatible(w: &mut CWriter, abi: &Abi) {
    let (major, minor) = (abi.c_macro("ABI_VERSION_MAJOR"), abi.c_macro("ABI_VERSION_MINOR"));
    w.doc(&["Whether the library linked in speaks the ABI this header describes: the same major version, at least its minor version.".into()]);
    w.block("inline bool AbiCompatible() noexcept {", "}", |w| {
        w.line(format!("const std::uint32_t version = {}();", abi.c_name("GetAbiVersion")));
        w.line(format!("const std::uint32_t required = (std::uint32_t{{{major}}} << 16) | std::uint32_t{{{minor}}};"));
        w.line(format!("return (version >> 16) == std::uint32_t{{{major}}} && version >= required;"));
    });
}

fn detail(w: &mut CWriter, abi: &Abi) {
    let (view, string) = (abi.c_name("StringView"), abi.c_name("String"));
    namespace_body(w, "detail", |w| {
        w.doc(&["Selects the private constructor of invalid objects such as `nullobj`.".into()]);
        w.line("struct InvalidTag {};");
        w.blank();
        w.doc(&["Lets the classes reach each other's handles.".into()]);
        w.line("struct Access;");
        w.blank();
        w.doc(&["Borrows `text` for the duration of one call.".into()]);
        w.block(format!("inline {view} View(std::string_view text) noexcept {{"), "}", |w| {
            w.line(format!("return {view}{{reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}};"));
        });
        w.blank();
        w.doc(&["Frees a string the library returned when it goes out of scope, even if copying it threw.".into()]);
        class_body(
            w,
            "class OwnedString {",
            |w| {
                w.line(format!("explicit OwnedString({string}& string) noexcept : string_(string) {{}}"));
                w.line(format!("~OwnedString() {{ {}(&string_); }}", abi.c_name("String_Free")));
                w.line("OwnedString(const OwnedString&) = delete;");
                w.line("OwnedString& operator=(const OwnedString&) = delete;");
            },
            |w| w.line(format!("{string}& string_;")),
        );
        w.blank();
        w.doc(&["Copies a string the library returned into a `std::string`, then frees it.".into()]);
        w.block(format!("inline std::string Take({string}& string) {{"), "}", |w| {
            w.line("const OwnedString owned(string);");
            w.block("if (string.size == 0) {", "}", |w| w.line("return std::string();"));
            w.line("return std::string(reinterpret_cast<const char*>(string.ptr), string.size);");
        });
    });
}

/// `namespace name { ... }` with the body flush left, as C++ code is usually laid out.
fn namespace_body(w: &mut CWriter, name: &str, body: impl FnOnce(&mut CWriter)) {
    w.line(format!("namespace {name} {{"));
    w.blank();
    body(w);
    w.blank();
    w.line(format!("}} // namespace {name}"));
}

/// A class with `public:` and `private:` at the class's own indentation.
fn class_body(w: &mut CWriter, open: &str, public: impl FnOnce(&mut CWriter), private: impl FnOnce(&mut CWriter)) {
    w.line(open);
    w.line("public:");
    w.indented(public);
    w.blank();
    w.line("private:");
    w.indented(private);
    w.line("};");
}

fn access(w: &mut CWriter) {
    namespace_body(w, "detail", |w| {
        w.block("struct Access {", "};", |w| {
            w.doc(&["The C handle inside `object`.".into()]);
            w.line("template <class T>");
            w.line("static const auto& Raw(const T& object) noexcept { return object.instance_; }");
            w.doc(&["Wraps a handle the library returned; the wrapper owns it from now on.".into()]);
            w.line("template <class T, class Handle>");
            w.line("static T Adopt(Handle handle) noexcept { return T(handle); }");
        });
    });
}

/// The C++ type a getter returns and the parameter its setter takes.
struct CppTypes {
    out: String,
    setter_param: String,
}

fn cpp_types(abi: &Abi, a: &Accessor) -> CppTypes {
    let value = match &a.kind {
        Kind::Bool => "bool".to_string(),
        Kind::Int(ty) => ty.cpp(),
        Kind::String => "std::string".to_string(),
        Kind::Enum(name) => qualified(abi.prefixes.cpp_namespace.as_str(), name),
        Kind::Class(name) => qualified(&abi.class_named(name).namespace, name),
    };
    let input = if a.kind == Kind::String { "std::string_view".to_string() } else { value.clone() };
    let by_ref = matches!(a.kind, Kind::Class(_));
    match (a.optional, by_ref) {
        (false, false) => CppTypes { out: value, setter_param: format!("{input} value") },
        (false, true) => CppTypes { out: value, setter_param: format!("const {input}& value") },
        (true, false) => CppTypes { out: format!("std::optional<{value}>"), setter_param: format!("std::optional<{input}> value") },
        (true, true) => CppTypes { out: format!("std::optional<{value}>"), setter_param: format!("const std::optional<{input}>& value") },
    }
}

/// `platformpp::IntegrationType`: qualified, because inside a class a member function of the same
/// name (`IntegrationType()`) hides the type.
fn qualified(namespace: &str, name: &str) -> String {
    format!("{namespace}::{name}")
}

fn declaration(w: &mut CWriter, abi: &Abi, class: &AbiClass) {
    let d = detail_namespace(abi, class);
    let mut doc = class.doc.clone();
    if !class.left_out.is_empty() {
        doc.push(String::new());
        doc.extend(class.left_out.iter().map(|l| format!("- {l}")));
    }
    w.doc(&doc);
    let name = &class.name;
    let handle = abi.c_name(name);
    let sem = class.semantics;
    let public = |w: &mut CWriter| {
        w.doc(&["Creates a valid object holding the default values.".into()]);
        w.line(format!("{}explicit {name}();", deprecated_attribute(abi, class.deprecated.as_deref())));
        w.line(format!("~{name}();"));
        if sem.copy {
            w.line(format!("{name}(const {name}& other);"));
            w.line(format!("{name}& operator=(const {name}& other);"));
        } else {
            w.line(format!("{name}(const {name}& other) = delete;"));
            w.line(format!("{name}& operator=(const {name}& other) = delete;"));
        }
        if sem.move_ {
            w.line(format!("{name}({name}&& other) noexcept;"));
            w.line(format!("{name}& operator=({name}&& other) noexcept;"));
        } else if !sem.copy {
            // With copy and no move, a move falls back to the copy; with neither, both are gone.
            w.line(format!("{name}({name}&& other) = delete;"));
            w.line(format!("{name}& operator=({name}&& other) = delete;"));
        }
        if sem.swaps() {
            w.line(format!("void swap({name}& other) noexcept;"));
            w.line(format!("friend void swap({name}& a, {name}& b) noexcept {{ a.swap(b); }}"));
        }
        if sem.bool_ {
            w.doc(&["True when the object holds a valid handle.".into()]);
            w.line("explicit operator bool() const noexcept;");
        }
        if sem.nullobj {
            w.doc(&["An invalid object, to assign or compare against.".into()]);
            w.line(format!("static const {name} nullobj;"));
        }
        for a in &class.accessors {
            let types = cpp_types(abi, a);
            let attribute = deprecated_attribute(abi, a.deprecated.as_deref());
            w.blank();
            w.doc(&a.doc);
            w.line(format!("{attribute}{} {}() const;", types.out, a.name));
            w.doc(&[format!("Sets `{}`{}.", a.name, if a.optional { "; `std::nullopt` unsets it" } else { "" })]);
            w.line(format!("{attribute}void Set{}({});", a.name, types.setter_param));
        }
    };
    let private = |w: &mut CWriter| {
        w.line(format!("friend struct {d}::Access;"));
        if sem.nullobj {
            w.line(format!("constexpr explicit {name}({d}::InvalidTag) noexcept : instance_{{nullptr}} {{}}"));
        }
        w.line(format!("explicit {name}({handle} adopted) noexcept : instance_(adopted) {{}}"));
        w.line(format!("{handle} instance_;"));
    };
    class_body(w, &format!("class {name} {{"), public, private);
    w.line(format!("static_assert(sizeof({name}) == sizeof(void*), \"{name} must be one pointer wide\");"));
}

fn definitions(w: &mut CWriter, abi: &Abi, class: &AbiClass) {
    let d = detail_namespace(abi, class);
    let name = &class.name;
    let handle = abi.c_name(name);
    let f = |function: &str| abi.c_fn(name, function);
    let sem = class.semantics;
    if sem.nullobj {
        w.line(format!("inline const {name} {name}::nullobj{{{d}::InvalidTag{{}}}};"));
        w.blank();
    }
    w.block(format!("inline {name}::{name}() : instance_{{nullptr}} {{"), "}", |w| w.line(format!("{}(&instance_);", f("Init"))));
    w.blank();
    w.block(format!("inline {name}::~{name}() {{"), "}", |w| {
        w.block("if (instance_.opaque) {", "}", |w| w.line(format!("{}(&instance_);", f("Drop"))));
    });
    if sem.copy {
        w.blank();
        w.block(format!("inline {name}::{name}(const {name}& other) : instance_{{nullptr}} {{"), "}", |w| {
            w.block("if (other.instance_.opaque) {", "}", |w| w.line(format!("{}(&instance_, &other.instance_);", f("Clone"))));
        });
    }
    if sem.move_ {
        w.blank();
        w.line(format!("inline {name}::{name}({name}&& other) noexcept : instance_{{std::exchange(other.instance_, {handle}{{nullptr}})}} {{}}"));
    }
    if sem.copy {
        w.blank();
        w.block(format!("inline {name}& {name}::operator=(const {name}& other) {{"), "}", |w| {
            w.line(format!("{name} copy(other);"));
            w.line("swap(copy);");
            w.line("return *this;");
        });
    }
    if sem.move_ {
        w.blank();
        w.block(format!("inline {name}& {name}::operator=({name}&& other) noexcept {{"), "}", |w| {
            w.line(format!("{name} moved(std::move(other));"));
            w.line("swap(moved);");
            w.line("return *this;");
        });
    }
    if sem.swaps() {
        w.blank();
        w.block(format!("inline void {name}::swap({name}& other) noexcept {{"), "}", |w| w.line("std::swap(instance_, other.instance_);"));
    }
    if sem.bool_ {
        w.blank();
        w.block(format!("inline {name}::operator bool() const noexcept {{"), "}", |w| w.line("return instance_.opaque != nullptr;"));
    }
    for a in &class.accessors {
        w.blank();
        getter(w, abi, class, a);
        w.blank();
        setter(w, abi, class, a);
    }
}

fn getter(w: &mut CWriter, abi: &Abi, class: &AbiClass, a: &Accessor) {
    let d = detail_namespace(abi, class);
    let types = cpp_types(abi, a);
    let call = abi.c_fn(&class.name, &a.name);
    w.block(format!("inline {} {}::{}() const {{", types.out, class.name, a.name), "}", |w| {
        let wrap = |raw: &str| match &a.kind {
            Kind::Bool | Kind::Int(_) => raw.to_string(),
            Kind::String => format!("{d}::Take({raw})"),
            Kind::Enum(_) => format!("static_cast<{}>({raw})", cpp_value(abi, a)),
            Kind::Class(_) => format!("{d}::Access::Adopt<{}>({raw})", cpp_value(abi, a)),
        };
        let direct = matches!(a.kind, Kind::Bool | Kind::Int(_) | Kind::Enum(_));
        if !a.optional && direct {
            w.line(format!("return {};", wrap(&format!("{call}(&instance_)"))));
            return;
        }
        w.line(format!("{} value{{}};", c_out(abi, &a.kind)));
        if a.optional {
            w.block(format!("if (!{call}(&instance_, &value)) {{"), "}", |w| w.line("return std::nullopt;"));
        } else {
            w.line(format!("{call}(&instance_, &value);"));
        }
        w.line(format!("return {};", wrap("value")));
    });
}

fn setter(w: &mut CWriter, abi: &Abi, class: &AbiClass, a: &Accessor) {
    let d = detail_namespace(abi, class);
    let types = cpp_types(abi, a);
    let call = abi.c_fn(&class.name, &format!("Set{}", a.name));
    w.block(format!("inline void {}::Set{}({}) {{", class.name, a.name, types.setter_param), "}", |w| {
        let c = c_out(abi, &a.kind);
        match (&a.kind, a.optional) {
            (Kind::Bool | Kind::Int(_), false) => w.line(format!("{call}(&instance_, value);")),
            (Kind::Bool | Kind::Int(_), true) => w.line(format!("{call}(&instance_, value ? &*value : nullptr);")),
            (Kind::String, false) => w.line(format!("{call}(&instance_, {d}::View(value));")),
            (Kind::String, true) => {
                let view = abi.c_name("StringView");
                w.line(format!("const {view} view = value ? {d}::View(*value) : {view}{{nullptr, 0}};"));
                w.line(format!("{call}(&instance_, value ? &view : nullptr);"));
            }
            (Kind::Enum(_), false) => w.line(format!("{call}(&instance_, static_cast<{c}>(value));")),
            (Kind::Enum(_), true) => {
                w.line(format!("const {c} raw = value ? static_cast<{c}>(*value) : {c}{{}};"));
                w.line(format!("{call}(&instance_, value ? &raw : nullptr);"));
            }
            (Kind::Class(_), false) => w.line(format!("{call}(&instance_, &{d}::Access::Raw(value));")),
            (Kind::Class(_), true) => w.line(format!("{call}(&instance_, value ? &{d}::Access::Raw(*value) : nullptr);")),
        }
    });
}

/// The wrapper's `detail` namespace as a class reaches it: by name from the platform's
/// namespace, fully qualified from a class namespace of its own.
fn detail_namespace(abi: &Abi, class: &AbiClass) -> String {
    if class.namespace == abi.prefixes.cpp_namespace { "detail".to_owned() } else { format!("::{}::detail", abi.prefixes.cpp_namespace) }
}

/// The C++ value type of an accessor, without `std::optional`.
fn cpp_value(abi: &Abi, a: &Accessor) -> String {
    match &a.kind {
        Kind::Enum(name) => qualified(&abi.prefixes.cpp_namespace, name),
        Kind::Class(name) => qualified(&abi.class_named(name).namespace, name),
        _ => unreachable!("BUG: only enums and classes are converted"),
    }
}

/// The C type a getter writes.
fn c_out(abi: &Abi, kind: &Kind) -> String {
    match kind {
        Kind::Bool => "bool".to_string(),
        Kind::Int(ty) => ty.cpp(),
        Kind::String => abi.c_name("String"),
        Kind::Enum(name) | Kind::Class(name) => abi.c_name(name),
    }
}
