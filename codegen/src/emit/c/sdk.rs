//! `sdk/`: the crate `<stem>-sdk` (`platform-sdk`), the Rust library that implements the C header.
//!
//! It is built as a static library, a dynamic library and an rlib. `types` holds the SDK classes
//! as plain Rust values (strings as bytes, so they round-trip exactly), `consts` the header's
//! constants, `ffi` the boundary's building blocks and `abi` one `extern "C"` function per C
//! declaration. Every exported function runs inside a panic guard, treats NULL and empty handles
//! as defined no-ops, and validates enum integers with `match`, never a transmute.

use crate::emit::cargo;
use crate::emit::rust::format::format_file;
use crate::emit::rust::shared::package;
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::Model;
use crate::plan::c::abi::{ABI_VERSION, Abi, AbiClass, AbiEnum, Accessor, Constant, IntTy, Kind, Value};
use crate::plan::case;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

/// Emits the crate's manifest and sources.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let abi = Abi::new(model);
    let notice = opts.notice();
    let file = |path: &str, tokens: TokenStream| GeneratedFile::new("sdk", format!("sdk/{path}"), format_file(&notice, tokens));
    // The crate does not depend on the types crate, so in an anchored layout it regenerates on
    // its own too.
    let mut files = manifest(&abi, opts);
    files.extend([
        file("src/lib.rs", lib(&abi)),
        file("src/ffi.rs", ffi(&abi)),
        file("src/types.rs", types(&abi)),
        file("src/consts.rs", consts(&abi)),
        file("src/abi.rs", functions(&abi)),
    ]);
    files
}

fn manifest(abi: &Abi, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let description = format!("The C ABI of {}: the library behind the C and C++ headers", abi.model.platform.name);
    let lib =
        ["# A static and a dynamic library for C and C++ programs, an rlib for Rust users and tests.", "crate-type = [\"staticlib\", \"cdylib\", \"rlib\"]"];
    let dependencies = vec![cargo::sibling_with(&package(abi.model, cargo::RUNTIME), cargo::RUNTIME, &["ffi"])];
    let readme =
        "The library behind the C header and the C++ wrapper under `include/`: link its static or dynamic library and include the headers.\n".to_owned();
    let manifest = cargo::Manifest { lib: &lib, features: &[], dependencies, readme, doc_examples: false };
    cargo::crate_files(opts, "sdk", "sdk", &package(abi.model, "sdk"), &description, manifest)
}

/// `#[doc]` attributes, one per line; the layout of [`Abi`] docs (paragraphs, `- ` items) is
/// already Markdown.
fn docs(lines: &[String]) -> TokenStream {
    // Blank lines only separate paragraphs: none at either end (an item without prose gets no
    // empty doc comment).
    // A description's list items continued without indentation are indented as the Rust
    // crates' docs are (clippy's `doc_lazy_continuation`).
    let lines = crate::emit::rust::format::doc_text_lines(&lines.join("\n"));
    let start = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let end = lines.iter().rposition(|l| !l.is_empty()).map_or(start, |i| i + 1);
    lines[start..end]
        .iter()
        .map(|l| {
            let l = if l.is_empty() { String::new() } else { format!(" {}", markdown_safe(l)) };
            quote!(#[doc = #l])
        })
        .collect()
}

/// Escapes what rustdoc would read as HTML or links in spec prose (`Set<Field>`, `[x]`),
/// leaving code spans as they are.
fn markdown_safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => in_code = !in_code,
            '<' | '>' | '[' | ']' if !in_code => out.push('\\'),
            _ => {}
        }
        out.push(c);
    }
    out
}

fn deprecated(summary: Option<&str>) -> TokenStream {
    summary.map(|s| quote!(#[deprecated(note = #s)])).unwrap_or_default()
}

/// The library implements its own deprecated items, so its modules allow using them.
fn allow_deprecated(abi: &Abi) -> TokenStream {
    if abi.has_deprecations() { quote!(#![allow(deprecated)]) } else { TokenStream::new() }
}

fn ident(name: &str) -> Ident {
    case::rust_ident(name)
}

/// The library's Rust type of a class or enum: its C++ name, unless that would shadow the
/// prelude the library's code names (`Option<Self>`).
pub fn type_ident(name: &str) -> Ident {
    case::rust_ident(&crate::emit::rust::shared::unshadowed(name))
}

fn lib(abi: &Abi) -> TokenStream {
    let title =
        format!(" The C ABI of {}: the library behind `include/{}` and `include/{}`.", abi.model.platform.name, abi.prefixes.c_header, abi.prefixes.cpp_header);
    quote! {
        #![doc = #title]
        //!
        //! - [`types`]: the SDK classes and enums as Rust values.
        //! - [`consts`]: the header's constants, with the same values.
        //! - [`abi`]: the `extern "C"` functions the C header declares, one for one.
        //! - [`ffi`]: handles and strings as C sees them.

        #[rustfmt::skip]
        pub mod abi;
        #[rustfmt::skip]
        pub mod consts;
        #[rustfmt::skip]
        pub mod ffi;
        #[rustfmt::skip]
        pub mod types;
    }
}

fn ffi(abi: &Abi) -> TokenStream {
    let runtime = format_ident!("{}", package(abi.model, cargo::RUNTIME).replace('-', "_"));
    let view = format_ident!("{}", abi.c_name("StringView"));
    let string = format_ident!("{}", abi.c_name("String"));
    let string_free = abi.c_name("String_Free");
    let view_doc = format!(" `{view}`: bytes borrowed from C for the duration of one call.");
    let string_doc = format!(" `{string}`: bytes the library hands to C, NUL-terminated, freed by `{string_free}`.");
    quote! {
        //! Handles and strings as C sees them, the C allocator, and the guard that keeps panics
        //! from crossing into C: the runtime's, under the header's names.

        pub use #runtime::ffi::*;

        #[doc = #view_doc]
        #[allow(non_camel_case_types)]
        pub type #view = StringView;

        #[doc = #string_doc]
        #[allow(non_camel_case_types)]
        pub type #string = OwnedString;
    }
}

fn types(abi: &Abi) -> TokenStream {
    let allow = allow_deprecated(abi);
    let enums = abi.enums.iter().map(rust_enum);
    let classes = abi.classes.iter().map(|c| rust_class(abi, c));
    quote! {
        //! The SDK's classes and enums as Rust values: strings as bytes, optional fields as
        //! `Option`.
        #allow

        #(#enums)*
        #(#classes)*
    }
}

fn rust_enum(e: &AbiEnum) -> TokenStream {
    let name = type_ident(&e.name);
    let doc = docs(&e.doc);
    let variants: Vec<Ident> = e.values.iter().map(|v| ident(&v.name)).collect();
    let numbers: Vec<Literal> = e.values.iter().map(|v| Literal::i32_unsuffixed(v.value)).collect();
    let variant_docs = e.values.iter().map(|v| docs(&v.doc));
    let (unknown, from_other, to_other) = if e.open {
        (
            quote! {
                /// A value the spec does not show, kept as it is.
                Unknown(i32),
            },
            quote!(other => Some(Self::Unknown(other))),
            quote!(Self::Unknown(other) => other,),
        )
    } else {
        (TokenStream::new(), quote!(_ => None), TokenStream::new())
    };
    let default_variant = variants.first();
    let (derive_default, default_impl) = match default_variant {
        Some(_) => (quote!(Default,), TokenStream::new()),
        None => (
            TokenStream::new(),
            quote! {
                impl Default for #name {
                    fn default() -> Self {
                        Self::Unknown(0)
                    }
                }
            },
        ),
    };
    let first_attr = variants.iter().enumerate().map(|(i, _)| if i == 0 { quote!(#[default]) } else { TokenStream::new() });
    let from_doc = if e.open {
        " The enum for a C value; values the spec does not show become `Unknown`."
    } else {
        " The enum for a C value; `None` for a value the enum does not list."
    };
    let (from_body, to_body) = if variants.is_empty() {
        (quote!(Some(Self::Unknown(value))), quote!(let Self::Unknown(value) = self; value))
    } else {
        (quote!(match value { #(#numbers => Some(Self::#variants),)* #from_other }), quote!(match self { #(Self::#variants => #numbers,)* #to_other }))
    };
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, #derive_default PartialEq, Eq, Hash)]
        pub enum #name {
            #(#variant_docs #first_attr #variants,)*
            #unknown
        }

        #default_impl

        impl #name {
            #[doc = #from_doc]
            pub fn from_c(value: i32) -> Option<Self> {
                #from_body
            }

            /// The C value.
            pub fn to_c(self) -> i32 {
                #to_body
            }
        }
    }
}

/// The Rust type a field is stored as.
fn rust_value(kind: &Kind) -> TokenStream {
    match kind {
        Kind::Bool => quote!(bool),
        Kind::Int(ty) => int_type(*ty),
        // Spelled out in full: a spec class may be named `Vec` or `Option`.
        Kind::String => quote!(::std::vec::Vec<u8>),
        Kind::Enum(name) | Kind::Class(name) => {
            let name = type_ident(name);
            quote!(#name)
        }
    }
}

fn int_type(ty: IntTy) -> TokenStream {
    let ty = format_ident!("{}", ty.rust());
    quote!(#ty)
}

fn rust_class(abi: &Abi, class: &AbiClass) -> TokenStream {
    let name = type_ident(&class.name);
    let mut doc_lines = class.doc.clone();
    if !class.left_out.is_empty() {
        doc_lines.push(String::new());
        doc_lines.extend(class.left_out.iter().map(|l| format!("- {l}")));
    }
    let doc = docs(&doc_lines);
    let class_deprecated = deprecated(class.deprecated.as_deref());
    let fields = class.accessors.iter().map(|a| {
        let field = ident(&a.rust);
        let value = rust_value(&a.kind);
        let ty = match (a.boxed, a.optional) {
            (true, _) => quote!(::std::option::Option<::std::boxed::Box<#value>>),
            (false, true) => quote!(::std::option::Option<#value>),
            (false, false) => value,
        };
        let doc = docs(&a.doc);
        let attr = deprecated(a.deprecated.as_deref().filter(|_| class.deprecated.is_none()));
        quote!(#doc #attr pub #field: #ty,)
    });
    let handle = format!(" Its C handle is `{}`.", abi.c_name(&class.name));
    let eq = (!holds_float(abi, class, &mut Vec::new())).then(|| quote!(, Eq));
    quote! {
        #doc
        #[doc = ""]
        #[doc = #handle]
        #class_deprecated
        #[derive(Clone, Debug, Default, PartialEq #eq)]
        pub struct #name {
            #(#fields)*
        }
    }
}

/// Whether a class holds a float, itself or through a class it holds: then it has no `Eq`.
fn holds_float(abi: &Abi, class: &AbiClass, seen: &mut Vec<String>) -> bool {
    if seen.contains(&class.name) {
        return false;
    }
    seen.push(class.name.clone());
    class.accessors.iter().any(|a| match &a.kind {
        Kind::Int(IntTy::F32 | IntTy::F64) => true,
        Kind::Class(name) => abi.classes.iter().find(|c| c.name == *name).is_some_and(|c| holds_float(abi, c, seen)),
        _ => false,
    })
}

fn consts(abi: &Abi) -> TokenStream {
    let allow = allow_deprecated(abi);
    let items = abi.constants.iter().flat_map(|g| &g.items).map(rust_const);
    let table = abi.constants.iter().flat_map(|g| &g.items).map(|c| {
        let name = ident(&c.name);
        let c_name = abi.c_const(c);
        let cpp_name = format!("{}::{}", abi.prefixes.cpp_namespace, Abi::cpp_const(c));
        let variant = match &c.value {
            Value::Bit { ty, .. } | Value::Int { ty, .. } => format_ident!("{}", case::pascal(ty.rust())),
            Value::Str(_) => format_ident!("Str"),
        };
        quote!(Constant { c: #c_name, cpp: #cpp_name, value: Value::#variant(#name) },)
    });
    quote! {
        //! The constants of the C and C++ headers, with the same values.
        // Bits are written `1 << bit` for every bit, bit 0 included.
        #![allow(clippy::identity_op)]
        #allow

        #(#items)*

        /// A constant's value, typed as in C.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Value {
            /// `int32_t`.
            I32(i32),
            /// `int64_t`.
            I64(i64),
            /// `uint32_t`.
            U32(u32),
            /// `uint64_t`.
            U64(u64),
            /// A string literal.
            Str(&'static str),
        }

        /// A constant with its names in the C and C++ headers.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Constant {
            /// The C macro.
            pub c: &'static str,
            /// The qualified C++ name.
            pub cpp: &'static str,
            /// The value.
            pub value: Value,
        }

        /// Every constant, in header order: what tools and tests compare the headers against.
        pub const ALL: &[Constant] = &[#(#table)*];
    }
}

fn rust_const(c: &Constant) -> TokenStream {
    let name = ident(&c.name);
    let mut lines = c.doc.clone();
    if let Some(unit) = &c.unit {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(format!("Unit: {unit}."));
    }
    let doc = docs(&lines);
    let attr = deprecated(c.deprecated.as_deref());
    let (ty, value) = match &c.value {
        Value::Bit { bit, ty } => {
            let bit = Literal::u32_unsuffixed(*bit);
            (int_type(*ty), quote!(1 << #bit))
        }
        Value::Int { value, ty } => {
            let magnitude = Literal::u64_unsuffixed(value.unsigned_abs());
            let value = if *value < 0 { quote!(-#magnitude) } else { quote!(#magnitude) };
            (int_type(*ty), value)
        }
        Value::Str(s) => (quote!(&str), quote!(#s)),
    };
    quote!(#doc #attr pub const #name: #ty = #value;)
}

fn functions(abi: &Abi) -> TokenStream {
    let allow = allow_deprecated(abi);
    let view = format_ident!("{}", abi.c_name("StringView"));
    let string = format_ident!("{}", abi.c_name("String"));
    let free = format_ident!("{}", abi.c_name("Free"));
    let string_free = format_ident!("{}", abi.c_name("String_Free"));
    let version = format_ident!("{}", abi.c_name("GetAbiVersion"));
    let (major, minor) = (Literal::u32_unsuffixed(ABI_VERSION.0), Literal::u32_unsuffixed(ABI_VERSION.1));
    let aliases = abi.classes.iter().map(|c| {
        let alias = format_ident!("{}", abi.c_name(&c.name));
        let name = type_ident(&c.name);
        let doc = format!(" The C handle of [`types::{name}`].");
        quote!(#[doc = #doc] pub type #alias = Handle<types::#name>;)
    });
    let classes = abi.classes.iter().map(|c| class_functions(abi, c));
    // Classes are named by path (`types::X`): a spec class may share a name with anything
    // imported here. Without classes there are no handles and no types to name.
    let (ffi_import, types_import) = match abi.classes.is_empty() {
        true => (
            quote!(
                use crate::ffi;
            ),
            quote!(),
        ),
        false => (
            quote!(
                use crate::ffi::{self, Handle};
            ),
            quote!(
                use crate::types;
            ),
        ),
    };
    quote! {
        //! The `extern "C"` functions the C header declares, one for one.
        // The names are the C names.
        #![allow(non_snake_case, non_camel_case_types)]
        #allow

        #ffi_import
        pub use crate::ffi::{#string, #view};
        #types_import
        use std::ffi::c_void;

        /// The ABI version's major part, as in the header.
        pub const ABI_VERSION_MAJOR: u32 = #major;
        /// The ABI version's minor part, as in the header.
        pub const ABI_VERSION_MINOR: u32 = #minor;

        #(#aliases)*

        /// Frees a buffer the library returned; NULL does nothing.
        ///
        /// # Safety
        ///
        /// `ptr` is NULL or a buffer this library returned that was not freed yet.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn #free(ptr: *mut c_void) {
            unsafe { ffi::release(ptr) }
        }

        /// Frees a string the library returned and zeroes it; NULL does nothing.
        ///
        /// # Safety
        ///
        /// `string` is NULL or points to a string this library returned, or to a zeroed one.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn #string_free(string: *mut #string) {
            let Some(string) = (unsafe { string.as_mut() }) else { return };
            let ptr = std::mem::replace(&mut string.ptr, std::ptr::null_mut());
            string.size = 0;
            unsafe { ffi::release(ptr.cast()) }
        }

        /// The library's ABI version, `(MAJOR << 16) | MINOR`.
        #[unsafe(no_mangle)]
        pub extern "C" fn #version() -> u32 {
            (ABI_VERSION_MAJOR << 16) | ABI_VERSION_MINOR
        }

        #(#classes)*
    }
}

const SAFETY_HANDLE: &str = " `handle` is NULL or points to an empty or live handle of this library.";

fn extern_fn(name: &str, doc: &[&str], safety: &[&str], signature: TokenStream, body: TokenStream) -> TokenStream {
    let name = format_ident!("{name}");
    let doc = doc.iter().map(|d| quote!(#[doc = #d]));
    let safety = safety.iter().filter(|s| !s.is_empty()).map(|s| quote!(#[doc = #s]));
    quote! {
        #(#doc)*
        ///
        /// # Safety
        ///
        #(#safety)*
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn #name #signature {
            ffi::guard(|| #body)
        }
    }
}

fn class_functions(abi: &Abi, class: &AbiClass) -> TokenStream {
    let handle = format_ident!("{}", abi.c_name(&class.name));
    let mut out = vec![
        extern_fn(
            &abi.c_fn(&class.name, "Init"),
            &[" Writes a new handle holding the default values into `handle`."],
            &[" `handle` is NULL or valid for writing a handle; what it held is not read."],
            quote!((handle: *mut #handle)),
            quote!(unsafe { Handle::write(handle, Some(Default::default())) }),
        ),
        extern_fn(
            &abi.c_fn(&class.name, "Drop"),
            &[" Frees the handle and sets it to NULL; NULL and empty handles are left as they are."],
            &[SAFETY_HANDLE, " No alias of it is dropped again."],
            quote!((handle: *mut #handle)),
            quote!(unsafe { Handle::drop(handle) }),
        ),
        extern_fn(
            &abi.c_fn(&class.name, "Clone"),
            &[" Writes a deep copy of `other` into `handle` without reading what `handle` held."],
            &[" `handle` is NULL or valid for writing a handle; `other` is NULL or points to an empty or live handle."],
            quote!((handle: *mut #handle, other: *const #handle)),
            quote!(unsafe { Handle::write(handle, Handle::get(other).cloned()) }),
        ),
    ];
    for a in &class.accessors {
        out.push(getter(abi, class, a));
        out.push(setter(abi, class, a));
    }
    quote!(#(#out)*)
}

/// The C type of a value crossing by value or behind a pointer, as Rust spells it.
fn c_value(abi: &Abi, kind: &Kind, out: bool) -> TokenStream {
    match kind {
        Kind::Bool => quote!(bool),
        Kind::Int(ty) => int_type(*ty),
        Kind::String if out => {
            let s = format_ident!("{}", abi.c_name("String"));
            quote!(#s)
        }
        Kind::String => {
            let s = format_ident!("{}", abi.c_name("StringView"));
            quote!(#s)
        }
        Kind::Enum(_) => quote!(i32),
        Kind::Class(name) => {
            let h = format_ident!("{}", abi.c_name(name));
            quote!(#h)
        }
    }
}

fn getter(abi: &Abi, class: &AbiClass, a: &Accessor) -> TokenStream {
    let handle = format_ident!("{}", abi.c_name(&class.name));
    let field = ident(&a.rust);
    let value = c_value(abi, &a.kind, true);
    let name = abi.c_fn(&class.name, &a.name);
    let doc = format!(" The getter of [`types::{}::{}`].", crate::emit::rust::shared::unshadowed(&class.name), a.rust);
    let out_safety = " `return_value` is NULL or valid for writes; what it held is not read.";
    let this = quote!(Handle::get(handle));
    if a.optional {
        let body = match &a.kind {
            Kind::Bool | Kind::Int(_) => quote!(unsafe { ffi::write_opt(return_value, #this.and_then(|this| this.#field)) }),
            Kind::Enum(e) => {
                let e = type_ident(e);
                quote!(unsafe { ffi::write_opt(return_value, #this.and_then(|this| this.#field).map(types::#e::to_c)) })
            }
            Kind::String => quote!(unsafe { #value::write_opt(return_value, #this.and_then(|this| this.#field.as_deref())) }),
            Kind::Class(_) if a.boxed => quote!(unsafe { Handle::write_opt(return_value, #this.and_then(|this| this.#field.as_deref().cloned())) }),
            Kind::Class(_) => quote!(unsafe { Handle::write_opt(return_value, #this.and_then(|this| this.#field.clone())) }),
        };
        return extern_fn(
            &name,
            &[&doc, "", " Returns false, leaving `return_value` untouched, when the field is unset or the handle empty."],
            &[SAFETY_HANDLE, out_safety],
            quote!((handle: *const #handle, return_value: *mut #value) -> bool),
            body,
        );
    }
    match &a.kind {
        Kind::Bool | Kind::Int(_) | Kind::Enum(_) => {
            let read = if matches!(a.kind, Kind::Enum(_)) { quote!(this.#field.to_c()) } else { quote!(this.#field) };
            extern_fn(
                &name,
                &[&doc, "", " Returns zero for an empty handle."],
                &[SAFETY_HANDLE],
                quote!((handle: *const #handle) -> #value),
                quote!(unsafe { #this }.map(|this| #read).unwrap_or_default()),
            )
        }
        Kind::String | Kind::Class(_) => {
            let read = match (&a.kind, a.boxed) {
                (Kind::String, _) => quote!(this.#field.as_slice()),
                // Unset until first set: the new object it stands for.
                (_, true) => quote!(this.#field.as_deref().cloned().unwrap_or_default()),
                (_, false) => quote!(this.#field.clone()),
            };
            let writer = if a.kind == Kind::String { quote!(#value) } else { quote!(Handle) };
            extern_fn(
                &name,
                &[&doc, "", " Writes the empty value for an empty handle."],
                &[SAFETY_HANDLE, out_safety],
                quote!((handle: *const #handle, return_value: *mut #value)),
                quote!(unsafe { #writer::write(return_value, #this.map(|this| #read)) }),
            )
        }
    }
}

fn setter(abi: &Abi, class: &AbiClass, a: &Accessor) -> TokenStream {
    let handle = format_ident!("{}", abi.c_name(&class.name));
    let field = ident(&a.rust);
    let value_ty = c_value(abi, &a.kind, false);
    let name = abi.c_fn(&class.name, &format!("Set{}", a.name));
    let doc = format!(" The setter of [`types::{}::{}`].", crate::emit::rust::shared::unshadowed(&class.name), a.rust);
    let by_pointer = a.optional || matches!(a.kind, Kind::Class(_));
    let param = if by_pointer { quote!(*const #value_ty) } else { quote!(#value_ty) };
    // Each conversion reads `value` completely before `handle` is touched.
    let convert = match (&a.kind, a.optional) {
        (Kind::Bool | Kind::Int(_), false) => TokenStream::new(),
        (Kind::Bool | Kind::Int(_), true) => quote!(let value = unsafe { value.as_ref() }.copied();),
        (Kind::String, false) => quote!(let value = unsafe { value.to_vec() };),
        (Kind::String, true) => quote!(let value = unsafe { #value_ty::opt_to_vec(value) };),
        (Kind::Enum(e), false) => {
            let e = type_ident(e);
            quote!(let Some(value) = types::#e::from_c(value) else { return };)
        }
        (Kind::Enum(e), true) => {
            let e = type_ident(e);
            quote!(let value = unsafe { value.as_ref() }.and_then(|v| types::#e::from_c(*v));)
        }
        (Kind::Class(_), false) if a.boxed => quote!(let value = Some(::std::boxed::Box::new(unsafe { Handle::get(value) }.cloned().unwrap_or_default()));),
        (Kind::Class(_), true) if a.boxed => quote!(let value = unsafe { Handle::get(value) }.cloned().map(::std::boxed::Box::new);),
        (Kind::Class(_), false) => quote!(let value = unsafe { Handle::get(value) }.cloned().unwrap_or_default();),
        (Kind::Class(_), true) => quote!(let value = unsafe { Handle::get(value) }.cloned();),
    };
    let rule = match (&a.kind, a.optional) {
        (Kind::Class(_), true) => " NULL or an empty `value` unsets the field; the object is copied.",
        (Kind::Class(_), false) => " NULL or an empty `value` resets the field to a new object; the object is copied.",
        (Kind::Enum(name), _) if !abi.enum_named(name).open => {
            if a.optional {
                " NULL, or a value the enum does not list, unsets the field."
            } else {
                " A value the enum does not list is ignored."
            }
        }
        (_, true) => " NULL unsets the field.",
        (_, false) => " An empty handle is left as it is.",
    };
    let value_safety = match (&a.kind, by_pointer) {
        (Kind::String, false) => " `value.ptr` is NULL or valid for reading `value.size` bytes.",
        (Kind::String, true) => " `value` is NULL or points to a view whose `ptr` is NULL or valid for reading `size` bytes.",
        (Kind::Class(_), _) => " `value` is NULL or points to an empty or live handle.",
        (_, true) => " `value` is NULL or valid for reads.",
        (_, false) => "",
    };
    extern_fn(
        &name,
        &[&doc, "", rule],
        &[SAFETY_HANDLE, value_safety],
        quote!((handle: *mut #handle, value: #param)),
        quote!({
            #convert
            if let Some(this) = unsafe { Handle::get_mut(handle) } {
                this.#field = value;
            }
        }),
    )
}
