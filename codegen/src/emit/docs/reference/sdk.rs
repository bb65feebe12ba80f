//! C and C++ signatures of the SDK classes, as the headers declare them.
//!
//! Every decision (names, which fields cross the boundary and how, which are optional) comes
//! from [`Abi`], the same value the C header and the C++ wrapper render, so the docs cannot
//! name a function the headers lack. This module only spells the declarations, without the
//! export macro and the doc comments the headers add.

use crate::model::{Class, Field, Model};
use crate::plan::c::abi::{Abi, AbiClass, Accessor, Kind};
use crate::plan::case;
use serde::Serialize;

/// One declaration in both languages (`c` is empty for a C++-only member).
#[derive(Debug, Serialize)]
pub struct Sig {
    pub c: String,
    pub cpp: String,
}

/// Signatures of one field: getter and setter.
#[derive(Debug, Serialize)]
pub struct FieldSigs {
    pub getter: Sig,
    pub setter: Sig,
}

/// The SDK's ABI, for signatures.
pub struct Sigs<'m> {
    abi: Abi<'m>,
}

impl<'m> Sigs<'m> {
    pub fn new(model: &'m Model) -> Self {
        Self { abi: Abi::new(model) }
    }

    /// The ABI class of a spec class.
    pub fn class(&self, class: &Class) -> Option<&AbiClass<'m>> {
        self.abi.classes.iter().find(|c| c.source.meta.id == class.meta.id)
    }

    /// The C handle type: `Platform_AuthorizationArgs`.
    pub fn c_struct(&self, class: &AbiClass) -> String {
        self.abi.c_name(&class.name)
    }

    /// Construction, destruction, copy and move, C beside the C++ member it backs.
    pub fn lifecycle(&self, class: &AbiClass) -> Vec<Sig> {
        let h = self.c_struct(class);
        let n = &class.name;
        let c = |f: &str, params: &str| format!("void {}({params});", self.abi.c_fn(n, f));
        let sem = class.semantics;
        let clone = c("Clone", &format!("{h} *self, const {h} *other"));
        let mut out = vec![
            Sig { c: c("Init", &format!("{h} *self")), cpp: format!("explicit {n}();") },
            Sig { c: c("Drop", &format!("{h} *self")), cpp: format!("~{n}();") },
        ];
        // The C clone exists for every class; the C++ copy only where the spec lists `copy`.
        out.push(match sem.copy {
            true => Sig { c: clone, cpp: format!("{n}(const {n}& other);\n{n}& operator=(const {n}& other);") },
            false => Sig { c: clone, cpp: format!("{n}(const {n}& other) = delete;\n{n}& operator=(const {n}& other) = delete;") },
        });
        if sem.move_ {
            out.push(Sig { c: String::new(), cpp: format!("{n}({n}&& other) noexcept;\n{n}& operator=({n}&& other) noexcept;") });
        } else if !sem.copy {
            out.push(Sig { c: String::new(), cpp: format!("{n}({n}&& other) = delete;\n{n}& operator=({n}&& other) = delete;") });
        }
        if sem.swaps() {
            out.push(Sig { c: String::new(), cpp: format!("void swap({n}& other) noexcept;") });
        }
        if sem.bool_ {
            out.push(Sig { c: String::new(), cpp: "explicit operator bool() const noexcept;".into() });
        }
        if sem.nullobj {
            out.push(Sig { c: String::new(), cpp: format!("static const {n} nullobj;") });
        }
        out
    }

    /// Getter and setter of a field, or `None` when the ABI does not carry it.
    pub fn field(&self, class: &AbiClass, field: &Field) -> Option<FieldSigs> {
        let a = class.accessors.iter().find(|a| a.name == case::pascal(&field.name))?;
        Some(FieldSigs {
            getter: Sig { c: self.c_getter(class, a), cpp: self.cpp_getter(a) },
            setter: Sig { c: self.c_setter(class, a), cpp: self.cpp_setter(a) },
        })
    }

    /// The C type a getter returns or writes: strings as owned buffers.
    fn c_out(&self, kind: &Kind) -> String {
        match kind {
            Kind::Bool => "bool".into(),
            Kind::Int(ty) => ty.c().into(),
            Kind::String => self.abi.c_name("String"),
            Kind::Enum(name) | Kind::Class(name) => self.abi.c_name(name),
        }
    }

    fn c_getter(&self, class: &AbiClass, a: &Accessor) -> String {
        let h = self.c_struct(class);
        let out = self.c_out(&a.kind);
        let name = self.abi.c_fn(&class.name, &a.name);
        let by_out = matches!(a.kind, Kind::String | Kind::Class(_));
        match (a.optional, by_out) {
            (false, false) => format!("{out} {name}(const {h} *self);"),
            (false, true) => format!("void {name}(const {h} *self, {out} *returnValue);"),
            (true, _) => format!("bool {name}(const {h} *self, {out} *returnValue);"),
        }
    }

    fn c_setter(&self, class: &AbiClass, a: &Accessor) -> String {
        let h = self.c_struct(class);
        let value = if a.kind == Kind::String { self.abi.c_name("StringView") } else { self.c_out(&a.kind) };
        let param = match (&a.kind, a.optional) {
            (Kind::Class(_), _) | (_, true) => format!("const {value} *value"),
            (_, false) => format!("{value} value"),
        };
        format!("void {}({h} *self, {param});", self.abi.c_fn(&class.name, &format!("Set{}", a.name)))
    }

    /// The C++ value type and the setter's input type.
    fn cpp_types(&self, a: &Accessor) -> (String, String) {
        let value = match &a.kind {
            Kind::Bool => "bool".into(),
            Kind::Int(ty) => ty.cpp(),
            Kind::String => "std::string".into(),
            Kind::Enum(name) => format!("{}::{name}", self.abi.prefixes.cpp_namespace),
            Kind::Class(name) => format!("{}::{name}", self.abi.class_named(name).namespace),
        };
        let input = if a.kind == Kind::String { "std::string_view".into() } else { value.clone() };
        (value, input)
    }

    fn cpp_getter(&self, a: &Accessor) -> String {
        let (value, _) = self.cpp_types(a);
        let out = if a.optional { format!("std::optional<{value}>") } else { value };
        format!("{out} {}() const;", a.name)
    }

    fn cpp_setter(&self, a: &Accessor) -> String {
        let (_, input) = self.cpp_types(a);
        let by_ref = matches!(a.kind, Kind::Class(_));
        let param = match (a.optional, by_ref) {
            (false, false) => format!("{input} value"),
            (false, true) => format!("const {input}& value"),
            (true, false) => format!("std::optional<{input}> value"),
            (true, true) => format!("const std::optional<{input}>& value"),
        };
        format!("void Set{}({param});", a.name)
    }
}
