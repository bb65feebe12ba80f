//! The `Deserialize` of a generated struct: its members read from a map through the runtime's
//! `wire::members`, which holds the visitor, the keys and the errors once for every struct.
//! What is written here is what the spec decides: each member's wire name and slot, what an
//! absent member stands for, and what becomes of a name the struct does not list.

use crate::model::Field;
use crate::plan::rust::names;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// How a struct reads its members.
pub struct Reading<'a> {
    pub name: &'a Ident,
    pub fields: &'a [Field],
    /// Each field's member type, as declared in the struct.
    pub member: &'a dyn Fn(&Field) -> TokenStream,
    /// The map that keeps the members the spec does not list, when the struct has one.
    pub extra: Option<&'a Ident>,
    /// It refuses members it does not list.
    pub closed: bool,
}

/// `impl FromMembers` and `impl Deserialize` for a struct; `server_only` puts both behind the
/// types crate's `server` feature, as a request part's are.
pub fn deserialize_impl(reading: &Reading<'_>, server_only: bool) -> TokenStream {
    let Reading { name, fields, extra, .. } = *reading;
    let map = local(fields, "map");
    let text = name.to_string();
    let wires = fields.iter().map(Field::wire);
    // A struct without fields hands the map on whole; one with fields reads it in place.
    let (body, binding) = if fields.is_empty() { (others(reading, &map), quote!(#map)) } else { (read_loop(reading, &map), quote!(mut #map)) };
    let inits = fields.iter().map(|f| {
        let ident = names::field(f);
        match finish(f, &ident) {
            Some(value) => quote!(#ident: #value),
            None => quote!(#ident),
        }
    });
    let extra_init = extra.map(|e| quote!(#e,));
    let gate = server_only.then(|| quote!(#[cfg(feature = "server")]));
    quote! {
        #gate
        impl<'de> crate::wire::members::FromMembers<'de> for #name {
            const NAME: &'static str = #text;
            const MEMBERS: &'static [&'static str] = &[#(#wires),*];

            fn from_members<A: serde::de::MapAccess<'de>>(#binding: A) -> Result<Self, A::Error> {
                #body
                Ok(Self { #(#inits,)* #extra_init })
            }
        }

        #gate
        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                crate::wire::members::deserialize(deserializer)
            }
        }
    }
}

/// The slots, and the loop that fills them from the map's entries.
fn read_loop(reading: &Reading<'_>, map: &Ident) -> TokenStream {
    let Reading { fields, member, extra, closed, .. } = *reading;
    let key = local(fields, "key");
    let slots = fields.iter().map(|f| {
        let (ident, ty) = (names::field(f), slot_type(f, member(f)));
        quote!(let mut #ident: #ty = None;)
    });
    let arms = fields.iter().map(|f| {
        let (ident, wire) = (names::field(f), f.wire());
        quote!(#wire => crate::wire::members::take(&mut #map, &mut #ident, #wire)?,)
    });
    let (extra_slot, other) = match extra {
        Some(e) => (Some(quote!(let mut #e = serde_json::Map::new();)), quote!(_ => crate::wire::members::keep(&mut #map, &mut #e, #key)?,)),
        None if closed => (None, quote!(_ => return Err(crate::wire::members::unknown(&#key, Self::MEMBERS)),)),
        None => (None, quote!(_ => crate::wire::members::skip(&mut #map)?,)),
    };
    quote! {
        #(#slots)*
        #extra_slot
        while let Some(#key) = #map.next_key::<crate::wire::members::Key<'de>>()? {
            match #key.as_str() {
                #(#arms)*
                #other
            }
        }
    }
}

/// The body of a struct without fields: every member is one it does not list.
fn others(reading: &Reading<'_>, map: &Ident) -> TokenStream {
    let closed = reading.closed;
    match reading.extra {
        Some(e) => quote! {
            let mut #e = serde_json::Map::new();
            crate::wire::members::others(#map, Some(&mut #e), #closed)?;
        },
        None => quote!(crate::wire::members::others(#map, None, #closed)?;),
    }
}

/// The slot a member is read into: `Option` of what the map gives, except for an optional
/// member, whose `Option` is its own (a present member is its value: `null` is refused unless
/// the type reads it).
fn slot_type(f: &Field, member: TokenStream) -> TokenStream {
    if optional_value(f) { member } else { quote!(Option<#member>) }
}

/// An optional member that is neither nullable nor defaulted: absent is `None`, present is the
/// value.
fn optional_value(f: &Field) -> bool {
    f.may_be_absent() && !f.nullable && !f.defaulted()
}

/// The member's value once the map is read; `None` where it is the slot itself.
fn finish(f: &Field, slot: &Ident) -> Option<TokenStream> {
    let wire = f.wire();
    Some(if f.three_state() {
        // Absent, as `Presence::Absent`; a present member read `null` or the value.
        quote!(#slot.unwrap_or_default())
    } else if f.defaulted() {
        let function = names::default_fn(f);
        quote!(#slot.unwrap_or_else(Self::#function))
    } else if optional_value(f) {
        return None;
    } else if f.nullable {
        // A required nullable member is `None` when absent, as serde's derive read it.
        quote!(#slot.flatten())
    } else {
        quote!(crate::wire::members::required(#slot, #wire)?)
    })
}

/// A local of the reading function named `base`, or `base_`, ...: the members' slots are named
/// after the fields, so the map and the key take a name no field has.
fn local(fields: &[Field], base: &str) -> Ident {
    let mut name = base.to_owned();
    while fields.iter().any(|f| names::field(f) == name.as_str()) {
        name.push('_');
    }
    format_ident!("{name}")
}
