//! `enums.rs`: open enums. A value the spec does not name round-trips as `Unknown`.

use super::docs::{docs, meta_docs, meta_notes, summary};
use crate::emit::rust::shared::{deprecated_attribute, int};
use crate::model::Enum;
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `enums.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let enums = plan.enums.iter().map(|e| if e.repr == "string" { string_enum(plan, e) } else { integer_enum(plan, e) });
    quote! {
        //! Open enums: named values, and `Unknown` for values the spec does not name.

        #(#enums)*
    }
}

fn enum_docs(plan: &Plan, e: &Enum) -> TokenStream {
    let mut notes = meta_notes(plan, &e.meta);
    let unnamed: Vec<String> = e.values.iter().filter(|v| e.repr != "string" && v.value.is_none()).map(|v| format!("`{}`", v.meta.id)).collect();
    if !unnamed.is_empty() {
        notes.push(format!("Also named, with values not shown by the source (they arrive as `Unknown`): {}.", unnamed.join(", ")));
    }
    docs(Some(&summary(&e.meta)), &notes)
}

fn integer_enum(plan: &Plan, e: &Enum) -> TokenStream {
    let name = names::enum_type(e);
    let other = names::catch_all(e);
    let known: Vec<(&crate::model::EnumValue, Ident, i64)> = e.values.iter().filter_map(|v| Some((v, names::enum_variant(v), v.value?))).collect();
    let variants = known.iter().map(|(v, ident, n)| {
        let mut notes = meta_notes(plan, &v.meta);
        notes.push(format!("Wire value `{n}`."));
        let fallback = format!("`{}`.", v.meta.id);
        let d = docs(Some(v.meta.description.as_deref().unwrap_or(&fallback)), &notes);
        let deprecated = deprecated_attribute(plan, v.meta.deprecated.as_ref(), v.meta.until.as_ref(), None);
        quote!(#d #deprecated #ident,)
    });
    let idents: Vec<&Ident> = known.iter().map(|(_, i, _)| i).collect();
    let numbers: Vec<TokenStream> = known.iter().map(|(_, _, n)| int(*n)).collect();
    let ids: Vec<&str> = known.iter().map(|(v, _, _)| v.meta.id.as_str()).collect();
    let doc = enum_docs(plan, e);
    let from_value = from_value_body(&idents, &numbers, &other);
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
            /// A value the spec does not name, kept as received.
            #other(i64),
        }

        impl #name {
            /// Every value the spec names, in spec order.
            pub const KNOWN: &'static [Self] = &[#(Self::#idents),*];

            /// The number on the wire.
            pub const fn value(self) -> i64 {
                match self {
                    #(Self::#idents => #numbers,)*
                    Self::#other(value) => value,
                }
            }

            /// The value for a wire number; a number the spec does not name is kept as received.
            pub const fn from_value(value: i64) -> Self {
                #from_value
            }

            /// The spec id of a named value.
            pub const fn id(self) -> Option<&'static str> {
                match self {
                    #(Self::#idents => Some(#ids),)*
                    Self::#other(_) => None,
                }
            }
        }

        impl From<i64> for #name {
            fn from(value: i64) -> Self {
                Self::from_value(value)
            }
        }

        impl From<#name> for i64 {
            fn from(value: #name) -> Self {
                value.value()
            }
        }

        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.value())
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <i64 as serde::Deserialize>::deserialize(deserializer).map(Self::from_value)
            }
        }
    }
}

fn string_enum(plan: &Plan, e: &Enum) -> TokenStream {
    let name = names::enum_type(e);
    let other = names::catch_all(e);
    let idents: Vec<Ident> = e.values.iter().map(names::enum_variant).collect();
    let ids: Vec<&str> = e.values.iter().map(|v| v.meta.id.as_str()).collect();
    let variants = e.values.iter().zip(&idents).map(|(v, ident)| {
        let d = meta_docs(plan, &v.meta);
        let deprecated = deprecated_attribute(plan, v.meta.deprecated.as_ref(), v.meta.until.as_ref(), None);
        quote!(#d #deprecated #ident,)
    });
    let doc = enum_docs(plan, e);
    let from_text = if ids.is_empty() {
        quote!(Self::#other(text.to_owned()))
    } else {
        quote! {
            match text {
                #(#ids => Self::#idents,)*
                other => Self::#other(other.to_owned()),
            }
        }
    };
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #(#variants)*
            /// A value the spec does not name, kept as received.
            #other(String),
        }

        impl #name {
            /// Every value the spec names, in spec order.
            pub const KNOWN: &'static [Self] = &[#(Self::#idents),*];

            /// The text on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#idents => #ids,)*
                    Self::#other(text) => text,
                }
            }

            /// Whether the spec names this value.
            pub fn is_known(&self) -> bool {
                !matches!(self, Self::#other(_))
            }
        }

        impl From<&str> for #name {
            fn from(text: &str) -> Self {
                #from_text
            }
        }

        impl From<String> for #name {
            fn from(text: String) -> Self {
                Self::from(text.as_str())
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <String as serde::Deserialize>::deserialize(deserializer).map(Self::from)
            }
        }
    }
}

/// The body of `from_value`: a match over the named numbers, or the catch-all alone when the
/// spec names none.
pub fn from_value_body(idents: &[&Ident], numbers: &[TokenStream], other: &Ident) -> TokenStream {
    if idents.is_empty() {
        return quote!(Self::#other(value));
    }
    quote! {
        match value {
            #(#numbers => Self::#idents,)*
            other => Self::#other(other),
        }
    }
}
