//! `permissions.rs` and `flags.rs`: named bits and open bit sets that keep bits the spec does
//! not name.

use super::docs::{docs, meta_docs, meta_notes, summary};
use crate::emit::rust::shared::{deprecated_attribute, int};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// One named bit of a set.
struct Bit {
    id: String,
    constant: Ident,
    position: u32,
    docs: TokenStream,
}

/// `permissions.rs`: the `Permission` names and the `Permissions` wire set.
pub fn permissions(plan: &Plan) -> TokenStream {
    let variants: Vec<Ident> = plan.permissions.iter().map(names::permission_variant).collect();
    let (declaration, lookups, traits) = (permission_enum(plan, &variants), permission_lookups(plan, &variants), permission_traits());
    let (set, queries) = (permission_set(plan), permission_queries(plan, &variants));
    quote! {
        //! Permissions: every named permission, and the wire set of permission bits.

        use std::fmt;
        use std::str::FromStr;

        #declaration
        #lookups
        #traits
        #set
        #queries
    }
}

/// The `Permission` enum, each variant documented with its bit.
fn permission_enum(plan: &Plan, variants: &[Ident]) -> TokenStream {
    let variant_docs = plan.permissions.iter().map(|p| {
        let mut notes = meta_notes(plan, &p.meta);
        notes.push(match p.bit {
            Some(b) => format!("Bit {b} (`1 << {b}`)."),
            None => "Its bit is not shown by the source, so it has no place in a `Permissions` set.".to_owned(),
        });
        let deprecated = deprecated_attribute(plan, p.meta.deprecated.as_ref(), p.meta.until.as_ref(), None);
        let docs = docs(Some(&summary(&p.meta)), &notes);
        quote!(#docs #deprecated)
    });
    quote! {
        /// A permission the spec names, with its bit when the source shows it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Permission {
            #( #variant_docs #variants, )*
        }
    }
}

/// `impl Permission`: `ALL`, `id`, `bit` and `set`.
fn permission_lookups(plan: &Plan, variants: &[Ident]) -> TokenStream {
    let ids = plan.permissions.iter().map(|p| p.meta.id.as_str());
    let id_arms = variants.iter().zip(ids).map(|(v, id)| quote!(Self::#v => #id));
    let bit_arms = plan.permissions.iter().zip(variants).map(|(p, v)| match p.bit {
        Some(b) => {
            let b = int(i64::from(b));
            quote!(Self::#v => Some(#b))
        }
        None => quote!(Self::#v => None),
    });
    quote! {
        impl Permission {
            /// Every permission, in spec order.
            pub const ALL: &'static [Self] = &[#(Self::#variants),*];

            /// The permission's id, as the spec writes it.
            pub const fn id(self) -> &'static str {
                match self {
                    #(#id_arms,)*
                }
            }

            /// The bit position, when the source shows it.
            pub const fn bit(self) -> Option<u32> {
                match self {
                    #(#bit_arms,)*
                }
            }

            /// The one-bit set of this permission, when its bit is known.
            pub const fn set(self) -> Option<Permissions> {
                match self.bit() {
                    Some(bit) => Some(Permissions::from_bits(1 << bit)),
                    None => None,
                }
            }
        }
    }
}

/// `Display`, `FromStr` and `Serialize` for `Permission`, all by id.
fn permission_traits() -> TokenStream {
    quote! {
        impl fmt::Display for Permission {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.id())
            }
        }

        impl FromStr for Permission {
            type Err = crate::wire::UnknownName;

            // The error type by name: a variant named `Err` would make `Self::Err` ambiguous.
            fn from_str(name: &str) -> Result<Self, crate::wire::UnknownName> {
                Self::ALL.iter().copied().find(|p| p.id() == name).ok_or_else(|| crate::wire::UnknownName { kind: "permission", name: name.to_owned() })
            }
        }

        impl serde::Serialize for Permission {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.id())
            }
        }
    }
}

/// The `Permissions` bit set, one constant per permission with a known bit.
fn permission_set(plan: &Plan) -> TokenStream {
    let bits: Vec<Bit> = plan
        .permissions
        .iter()
        .filter_map(|p| {
            let position = p.bit?;
            let doc = format!(" The one-bit set of [`Permission::{}`].", names::permission_variant(p));
            let deprecated = deprecated_attribute(plan, p.meta.deprecated.as_ref(), p.meta.until.as_ref(), None);
            Some(Bit { id: p.meta.id.clone(), constant: names::permission_const(p), position, docs: quote!(#[doc = #doc] #deprecated) })
        })
        .collect();
    let set_docs = docs(
        Some("A set of permissions as the wire carries it: a 64-bit integer serialized as a decimal string."),
        &[
            "Bits the spec does not name are kept, so a set read from the wire writes back unchanged.".to_owned(),
            "Usable in `const` items: sets combine with `union`, and `Permissions::from_bits` makes one of bits the spec does not name.".to_owned(),
        ],
    );
    bitset(&format_ident!("Permissions"), set_docs, &quote!(u64), true, &bits)
}

/// `Permissions::has` and `Permissions::permissions`, and `From<Permission>` for `Option<Permissions>`.
fn permission_queries(plan: &Plan, variants: &[Ident]) -> TokenStream {
    let has_arms = plan.permissions.iter().zip(variants).map(|(p, v)| match p.bit {
        Some(b) => {
            let b = int(i64::from(b));
            quote!(Permission::#v => self.0 & (1 << #b) != 0)
        }
        None => quote!(Permission::#v => false),
    });
    quote! {
        impl Permissions {
            /// Whether the set holds `permission`; never for a permission without a known bit.
            pub const fn has(self, permission: Permission) -> bool {
                match permission {
                    #(#has_arms,)*
                }
            }

            /// The named permissions in the set, in spec order.
            pub fn permissions(self) -> impl Iterator<Item = Permission> {
                Permission::ALL.iter().copied().filter(move |p| self.has(*p))
            }
        }

        impl From<Permission> for Option<Permissions> {
            fn from(permission: Permission) -> Self {
                permission.set()
            }
        }
    }
}

/// `flags.rs`: one open bit set per flag set of the spec.
pub fn flags(plan: &Plan) -> TokenStream {
    let sets = plan.flags.iter().map(|set| {
        let name = names::flags_type(set);
        let int = if set.width <= 32 { quote!(u32) } else { quote!(u64) };
        let string_wire = set.repr == "string_integer";
        let mut notes = meta_notes(plan, &set.meta);
        let unnamed: Vec<String> = set.values.iter().filter(|v| v.bit.is_none()).map(|v| format!("`{}`", v.meta.id)).collect();
        if !unnamed.is_empty() {
            notes.push(format!("Also named, with bits not shown by the source: {}.", unnamed.join(", ")));
        }
        notes.push(if string_wire { "Carried as a decimal string.".to_owned() } else { "Carried as an integer.".to_owned() });
        let set_docs = docs(Some(&summary(&set.meta)), &notes);
        let bits: Vec<Bit> = set
            .values
            .iter()
            .filter_map(|v| {
                let (docs, deprecated) = (meta_docs(plan, &v.meta), deprecated_attribute(plan, v.meta.deprecated.as_ref(), v.meta.until.as_ref(), None));
                Some(Bit { id: v.meta.id.clone(), constant: names::flag_const(v), position: v.bit?, docs: quote!(#docs #deprecated) })
            })
            .collect();
        bitset(&name, set_docs, &int, string_wire, &bits)
    });
    let sets: Vec<TokenStream> = sets.collect();
    let uses = (!sets.is_empty()).then(|| {
        quote!(
            use std::fmt;
        )
    });
    quote! {
        //! Flag sets: named bits, with the bits the spec does not name kept as received.

        #uses

        #(#sets)*
    }
}

/// A `Copy` bit set with `const` operations, `Debug` by name and serde in the set's wire form.
fn bitset(name: &Ident, docs: TokenStream, repr: &TokenStream, string_wire: bool, bits: &[Bit]) -> TokenStream {
    let (constants, raw, algebra, edits) = (bitset_constants(bits), bitset_raw(repr), bitset_algebra(), bitset_edits());
    let (operators, debug, serde) = (bitset_operators(name), bitset_debug(name), bitset_serde(name, repr, string_wire));
    quote! {
        #docs
        #[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct #name(#repr);

        impl #name {
            #constants
            #raw
            #algebra
            #edits
        }

        #operators
        #debug
        #serde
    }
}

/// One constant per named bit, then `KNOWN` and `NAMED`.
fn bitset_constants(bits: &[Bit]) -> TokenStream {
    let consts = bits.iter().map(|b| {
        let (doc, constant, position) = (&b.docs, &b.constant, int(i64::from(b.position)));
        quote! {
            #doc
            pub const #constant: Self = Self(1 << #position);
        }
    });
    let known: u128 = bits.iter().fold(0, |acc, b| acc | (1u128 << b.position));
    let known = proc_macro2::Literal::u128_unsuffixed(known);
    let named = bits.iter().map(|b| {
        let (id, constant) = (&b.id, &b.constant);
        quote!((#id, Self::#constant))
    });
    quote! {
        #(#consts)*

        /// Every bit the spec names.
        pub const KNOWN: Self = Self(#known);

        /// The named bits and their ids, in spec order.
        const NAMED: &'static [(&'static str, Self)] = &[#(#named),*];
    }
}

/// `empty`, `from_bits` and `bits`: the set to and from its integer.
fn bitset_raw(repr: &TokenStream) -> TokenStream {
    quote! {
        /// The empty set.
        pub const fn empty() -> Self {
            Self(0)
        }

        /// The set of exactly `bits`, unnamed bits included.
        pub const fn from_bits(bits: #repr) -> Self {
            Self(bits)
        }

        /// Every bit of the set, unnamed bits included.
        pub const fn bits(self) -> #repr {
            self.0
        }
    }
}

/// The `const` set operations and tests, from `union` to `unknown`.
fn bitset_algebra() -> TokenStream {
    quote! {
        /// The bits in either set.
        pub const fn union(self, other: Self) -> Self {
            Self(self.0 | other.0)
        }

        /// The bits in both sets.
        pub const fn intersection(self, other: Self) -> Self {
            Self(self.0 & other.0)
        }

        /// The bits of `self` that are not in `other`.
        pub const fn difference(self, other: Self) -> Self {
            Self(self.0 & !other.0)
        }

        /// Whether every bit of `other` is in `self`.
        pub const fn contains(self, other: Self) -> bool {
            self.0 & other.0 == other.0
        }

        /// Whether the sets share a bit.
        pub const fn intersects(self, other: Self) -> bool {
            self.0 & other.0 != 0
        }

        /// Whether no bit is set.
        pub const fn is_empty(self) -> bool {
            self.0 == 0
        }

        /// The bits the spec does not name.
        pub const fn unknown(self) -> Self {
            Self(self.0 & !Self::KNOWN.0)
        }
    }
}

/// `insert` and `remove` in place, and `iter_names`.
fn bitset_edits() -> TokenStream {
    quote! {
        /// Adds the bits of `other`.
        pub fn insert(&mut self, other: Self) {
            self.0 |= other.0;
        }

        /// Removes the bits of `other`.
        pub fn remove(&mut self, other: Self) {
            self.0 &= !other.0;
        }

        /// The named bits in the set with their ids, in spec order.
        pub fn iter_names(self) -> impl Iterator<Item = (&'static str, Self)> {
            Self::NAMED.iter().copied().filter(move |(_, bit)| self.contains(*bit))
        }
    }
}

/// The `|`, `|=`, `&` and `-` operator impls.
fn bitset_operators(name: &Ident) -> TokenStream {
    quote! {
        impl std::ops::BitOr for #name {
            type Output = Self;

            fn bitor(self, other: Self) -> Self {
                self.union(other)
            }
        }

        impl std::ops::BitOrAssign for #name {
            fn bitor_assign(&mut self, other: Self) {
                self.insert(other);
            }
        }

        impl std::ops::BitAnd for #name {
            type Output = Self;

            fn bitand(self, other: Self) -> Self {
                self.intersection(other)
            }
        }

        impl std::ops::Sub for #name {
            type Output = Self;

            fn sub(self, other: Self) -> Self {
                self.difference(other)
            }
        }
    }
}

/// `Debug`: the named bits by id, then the unnamed bits in hex.
fn bitset_debug(name: &Ident) -> TokenStream {
    quote! {
        impl fmt::Debug for #name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut parts: Vec<String> = self.iter_names().map(|(id, _)| id.to_owned()).collect();
                if !self.unknown().is_empty() {
                    parts.push(format!("{:#x}", self.unknown().0));
                }
                if parts.is_empty() {
                    parts.push("empty".to_owned());
                }
                write!(f, "{}({})", stringify!(#name), parts.join(" | "))
            }
        }
    }
}

/// `Serialize` and `Deserialize` in the set's wire form, an integer or a decimal string.
fn bitset_serde(name: &Ident, repr: &TokenStream, string_wire: bool) -> TokenStream {
    let serialize = if string_wire { quote!(serializer.collect_str(&self.0)) } else { quote!(serde::Serialize::serialize(&self.0, serializer)) };
    // Both wire forms read as a `u64`; a narrower set refuses bits it cannot hold.
    let narrow = if repr.to_string() == "u64" {
        quote!(Ok(Self(bits)))
    } else {
        quote!(#repr::try_from(bits).map(Self).map_err(|_| <D::Error as serde::de::Error>::custom(format!("{bits} does not fit {}", stringify!(#name)))))
    };
    let what = if string_wire { "a flag set as a decimal string" } else { "a flag set as an integer" };
    quote! {
        impl serde::Serialize for #name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #serialize
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let bits = deserializer.deserialize_any(crate::wire::DecimalVisitor(#what))?;
                #narrow
            }
        }
    }
}
