//! The events of a streamed response (server-sent events, JSON Lines): `<Status>Event`, a
//! variant per event the spec names and one for the others, or the one type every message
//! holds; and `<STATUS>_EVENTS`, how a message becomes an event and back.

use crate::emit::rust::shared::type_tokens;
use crate::model::types::Primitive;
use crate::model::{Response, TypeRef};
use crate::plan::rust::names::ResponseNames as Names;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// The event type and codec of a streamed response.
pub fn event_items(plan: &Plan, r: &Response, names: &Names, what: &str) -> TokenStream {
    let (event, codec) = (&names.event, &names.codec);
    let codec_doc = format!(" How a message of {what} becomes a [`{event}`] and back.");
    if r.events.is_empty() {
        let ty = r.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| type_tokens(plan, t, &quote!(crate)));
        let ty = if r.nullable { quote!(Option<#ty>) } else { ty };
        let doc = format!(" A message of {what}: every message holds one.");
        let make = if is_text(r.ty.as_ref()) && !r.nullable { quote!(crate::stream::Codec::text()) } else { quote!(crate::stream::Codec::json()) };
        return quote! {
            #[doc = #doc]
            pub type #event = #ty;

            #[doc = #codec_doc]
            pub const #codec: crate::stream::Codec<#event> = #make;
        };
    }
    let catch_all = names::stream_catch_all(r);
    let mut variants = Vec::new();
    let mut decodes = Vec::new();
    let mut encodes = Vec::new();
    for e in &r.events {
        let variant = names::stream_event_variant(e);
        let name = &e.name;
        let ty = e.ty.as_ref().map_or_else(|| quote!(serde_json::Value), |t| type_tokens(plan, t, &quote!(crate)));
        let doc = format!(" `{name}`.");
        variants.push(quote!(#[doc = #doc] #variant(#ty),));
        if is_text(e.ty.as_ref()) {
            decodes.push(quote!(#name => Ok(#event::#variant(frame.data.clone())),));
            encodes.push(quote!(#event::#variant(text) => Ok(crate::stream::Frame::named(Some(#name), text.clone())),));
        } else {
            decodes.push(quote!(#name => serde_json::from_str(&frame.data).map(#event::#variant).map_err(|e| e.to_string()),));
            encodes.push(quote!(#event::#variant(value) => Ok(crate::stream::Frame::named(Some(#name), crate::stream::json_data(value)?)),));
        }
    }
    let doc = format!(" An event of {what}: a variant per event the spec names, by the name its message gives.");
    let catch_doc = " An event the spec does not name (or a message without a name), with its data as it came.";
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum #event {
            #(#variants)*
            #[doc = #catch_doc]
            #catch_all {
                /// The name its message gave (`message` when it gave none, as the standard says).
                name: String,
                /// Its data.
                data: String,
            },
        }

        #[doc = #codec_doc]
        pub const #codec: crate::stream::Codec<#event> = crate::stream::Codec {
            // A message without a name is of the standard's default name, `message`.
            decode: |frame| match frame.event.as_deref().unwrap_or("message") {
                #(#decodes)*
                name => Ok(#event::#catch_all { name: name.to_owned(), data: frame.data.clone() }),
            },
            encode: |event| match event {
                #(#encodes)*
                #event::#catch_all { name, data } => Ok(crate::stream::Frame::named(Some(name.as_str()), data.clone())),
            },
        };
    }
}

/// Whether a message of this type is its text, not JSON.
fn is_text(ty: Option<&TypeRef>) -> bool {
    matches!(ty, Some(TypeRef::Primitive(Primitive::String)))
}
