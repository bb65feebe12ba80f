//! The scopes of the C header, the C++ wrapper and the Rust library behind them, with the spec
//! items named in each: what validation checks so that the three artifacts never declare one
//! name twice.
//!
//! Every name comes from the [`Abi`] plan the three emitters render, so the scopes list exactly
//! what is declared. Names the generator itself declares (`Platform_String`, `..._Init`, the
//! export macros) are listed as reserved: a spec item whose C name would be one of them is
//! reported, to be renamed with `c_name`.

use super::abi::{Abi, Origin};
use crate::model::Model;
use crate::plan::idents::unshadowed;
use crate::plan::{Entry, Namespace};

/// Macros of the C header besides the constants (without the macro prefix).
const MACROS: &[&str] = &["API", "STATIC", "BUILDING", "DEPRECATED", "STATIC_ASSERT", "ABI_VERSION_MAJOR", "ABI_VERSION_MINOR"];

/// Ordinary identifiers of the C header besides the classes and enums (without the type prefix).
const C_NAMES: &[&str] = &["StringView", "String", "Free", "String_Free", "GetAbiVersion"];

/// Names of the C++ namespace besides the classes, enums and constants.
const CPP_NAMES: &[&str] = &["AbiCompatible", "detail"];

/// Members of every C++ class besides the accessors.
const CPP_MEMBERS: &[&str] = &["swap", "nullobj", "instance_"];

/// Functions of every C class besides the accessors.
const LIFECYCLE: &[&str] = &["Init", "Drop", "Clone"];

/// Items of the library's `consts` module besides the constants.
const RUST_CONSTS: &[&str] = &["ALL"];

fn entry(ident: String, origin: &Origin) -> Entry {
    Entry::new(ident, origin.what.clone(), origin.span)
}

fn reserved(ident: String) -> Entry {
    Entry::reserved(ident)
}

fn namespace(language: &'static str, scope: impl Into<String>, entries: Vec<Entry>) -> Namespace {
    Namespace { language, override_key: "c_name", scope: scope.into(), entries }
}

/// Every scope of the C family.
pub fn namespaces(model: &Model) -> Vec<Namespace> {
    let abi = Abi::new(model);
    let mut out = vec![macros(&abi), ordinary(&abi), rust_consts(&abi)];
    let spaces = cpp(&abi);
    // An enumerator of an enum class shadows what the enclosing namespace declares by its name
    // (`-Wshadow`), so each enum's values meet the platform namespace's names.
    let main = format!("namespace `{}`", abi.prefixes.cpp_namespace);
    let enclosing: Vec<Entry> = spaces.iter().find(|n| n.scope == main).map(|n| n.entries.clone()).unwrap_or_default();
    out.extend(spaces);
    for class in &abi.classes {
        let class_origin = Origin { what: format!("class `{}`", class.source.meta.id), span: class.source.meta.id_span };
        let mut members: Vec<Entry> = CPP_MEMBERS.iter().map(|m| reserved(m.to_string())).collect();
        // A member function named as its class would be a constructor.
        members.push(entry(class.name.clone(), &class_origin));
        for a in &class.accessors {
            members.push(entry(a.name.clone(), &a.origin));
            members.push(entry(format!("Set{}", a.name), &a.origin));
        }
        out.push(namespace("C++", format!("the members of class `{}`", class.name), members));
        let fields = class.accessors.iter().map(|a| entry(a.rust.clone(), &a.origin)).collect();
        out.push(namespace("Rust", format!("the fields of the library's struct `{}`", class.name), fields));
    }
    for e in &abi.enums {
        let values = e.values.iter().map(|v| entry(v.name.clone(), &v.origin)).chain([reserved("forceint".into())]).chain(enclosing.iter().cloned()).collect();
        out.push(namespace("C++", format!("the values of enum class `{}`", e.name), values));
    }
    out
}

/// The header's macros: every constant, the export and version macros.
fn macros(abi: &Abi) -> Namespace {
    let mut entries: Vec<Entry> = MACROS.iter().map(|m| reserved(abi.c_macro(m))).collect();
    for file in [&abi.prefixes.c_header, &abi.prefixes.cpp_header] {
        entries.push(reserved(abi.guard(file)));
    }
    entries.extend(abi.constants.iter().flat_map(|g| &g.items).map(|c| entry(abi.c_const(c), &c.origin)));
    namespace("C", "the macros of the C header", entries)
}

/// The header's types, enum values and functions: one scope in C.
fn ordinary(abi: &Abi) -> Namespace {
    let mut entries: Vec<Entry> = C_NAMES.iter().map(|n| reserved(abi.c_name(n))).collect();
    for e in &abi.enums {
        let origin = Origin { what: format!("enum `{}`", e.source.meta.id), span: e.source.meta.id_span };
        entries.push(entry(abi.c_name(&e.name), &origin));
        entries.extend(e.values.iter().map(|v| entry(abi.c_enum_value(e, &v.name), &v.origin)));
        entries.push(reserved(abi.c_enum_value(e, "forceint")));
    }
    for class in &abi.classes {
        let origin = Origin { what: format!("class `{}`", class.source.meta.id), span: class.source.meta.id_span };
        entries.push(entry(abi.c_name(&class.name), &origin));
        entries.extend(LIFECYCLE.iter().map(|f| reserved(abi.c_fn(&class.name, f))));
        for a in &class.accessors {
            entries.push(entry(abi.c_fn(&class.name, &a.name), &a.origin));
            entries.push(entry(abi.c_fn(&class.name, &format!("Set{}", a.name)), &a.origin));
        }
    }
    namespace("C", "the types and functions of the C header", entries)
}

/// The library's `consts` module: one Rust constant per header constant.
fn rust_consts(abi: &Abi) -> Namespace {
    let mut entries: Vec<Entry> = RUST_CONSTS.iter().map(|n| reserved(n.to_string())).collect();
    entries.extend(abi.constants.iter().flat_map(|g| &g.items).map(|c| entry(c.name.clone(), &c.origin)));
    namespace("Rust", "the constants of the library's `consts` module", entries)
}

/// Each C++ namespace: its classes, and in the platform's namespace the enums and constants;
/// the library's `types` module holds the same classes and enums.
fn cpp(abi: &Abi) -> Vec<Namespace> {
    let main = &abi.prefixes.cpp_namespace;
    let mut spaces: Vec<(String, Vec<Entry>)> = vec![(main.clone(), CPP_NAMES.iter().map(|n| reserved(n.to_string())).collect())];
    let mut types = Vec::new();
    let add = |spaces: &mut Vec<(String, Vec<Entry>)>, space: &str, e: Entry| match spaces.iter_mut().find(|(n, _)| n == space) {
        Some((_, list)) => list.push(e),
        None => spaces.push((space.to_owned(), vec![e])),
    };
    for e in &abi.enums {
        let origin = Origin { what: format!("enum `{}`", e.source.meta.id), span: e.source.meta.id_span };
        add(&mut spaces, main, entry(e.name.clone(), &origin));
        types.push(entry(unshadowed(&e.name), &origin));
    }
    for c in abi.constants.iter().flat_map(|g| &g.items) {
        add(&mut spaces, main, entry(Abi::cpp_const(c), &c.origin));
    }
    for class in &abi.classes {
        let origin = Origin { what: format!("class `{}`", class.source.meta.id), span: class.source.meta.id_span };
        add(&mut spaces, &class.namespace, entry(class.name.clone(), &origin));
        types.push(entry(unshadowed(&class.name), &origin));
    }
    let mut out: Vec<Namespace> = spaces.into_iter().map(|(name, entries)| namespace("C++", format!("namespace `{name}`"), entries)).collect();
    out.push(namespace("Rust", "the types of the library's `types` module", types));
    out
}
