//! `resources.rs`: one serde struct per resource, with its validator.

use super::docs::meta_notes;
use super::fields::{Struct, cases_tokens, keeps_extra, struct_tokens_of};
use crate::emit::rust::shared::Shape;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// `resources.rs`: its docs, then the items of each resource.
pub fn emit<'p>(plan: &'p Plan<'p>) -> impl Iterator<Item = TokenStream> + 'p {
    let docs = quote! {
        //! Resources: the objects the platform sends and receives, one struct each.
        //!
        //! Where the source gives only some fields of an object, the struct keeps the others in a
        //! map, so a value read from the wire writes back unchanged.
    };
    let structs = plan.resources.iter().map(|r| {
        let mut notes = meta_notes(plan, &r.meta);
        notes.push(format!("Direction: {}.", r.direction));
        let description = r.meta.description.clone().unwrap_or_else(|| r.meta.name.clone());
        let docs = super::docs::docs(Some(&description), &notes);
        let name = names::resource(r);
        let how =
            Struct { extra: keeps_extra(&r.meta.not_shown), owner: Some(Shape::Resource(&r.meta.id)), closed: r.closed, cases: &r.cases, ..Struct::default() };
        let body = struct_tokens_of(plan, &name, docs, &r.fields, how);
        let cases = cases_tokens(plan, &name, &r.fields, &r.cases);
        quote!(#body #cases)
    });
    std::iter::once(docs).chain(structs)
}
