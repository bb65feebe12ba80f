//! `events.rs` (every event and the payloads the spec gives), `gateway.rs` (opcodes) and
//! `commands.rs` (embedded app SDK commands and their aliases).

use super::docs::{docs, meta_docs, meta_notes, summary};
use super::fields::{Struct, cases_tokens, keeps_extra, struct_tokens, struct_tokens_of};
use crate::emit::rust::shared::{deprecated_attribute, int};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The event channels of the spec format, in its order, with what each is.
const CHANNELS: &[(&str, &str)] = &[
    ("gateway", "Dispatched over the Gateway."),
    ("audit_log", "Recorded as an audit log entry."),
    ("webhook", "Delivered to a webhook."),
    ("rpc", "Sent over the local RPC transport."),
    ("social_sdk", "Delivered to the social SDK."),
];

/// `events.rs`.
pub fn events(plan: &Plan) -> TokenStream {
    let kinds: Vec<Ident> = plan.events.iter().map(names::event_variant).collect();
    let kind_docs = plan.events.iter().map(|e| meta_docs(plan, &e.meta));
    let ids = plan.events.iter().map(|e| e.meta.id.as_str());
    let names = plan.events.iter().map(|e| e.meta.name.as_str());
    let channels = plan.events.iter().map(|e| names::channel_variant(&e.channel.id));
    let codes = plan.events.iter().map(|e| match e.code {
        Some(c) => {
            let c = int(c);
            quote!(Some(#c))
        }
        None => quote!(None),
    });
    let channel_variants = CHANNELS.iter().map(|(c, doc)| {
        let (c, doc) = (names::channel_variant(c), format!(" {doc}"));
        quote!(#[doc = #doc] #c,)
    });
    let payloads = plan.events.iter().filter(|e| has_payload(e)).map(|e| {
        let docs = docs(Some(&format!("The payload of the event `{}`.", e.meta.id)), &meta_notes(plan, &e.meta));
        let name = names::event_payload(e);
        let how = Struct { extra: keeps_extra(&e.meta.not_shown), cases: &e.cases, ..Struct::default() };
        let body = struct_tokens_of(plan, &name, docs, &e.fields, how);
        let cases = cases_tokens(plan, &name, &e.fields, &e.cases);
        quote!(#body #cases)
    });
    let code_enums = CHANNELS.iter().filter_map(|(channel, _)| code_enum(plan, channel));
    let kinds_ref = &kinds;
    quote! {
        //! Events: every event the spec names, the payloads it gives, and the numbered event
        //! types of each channel as open enums.

        /// Where an event is delivered.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum EventChannel {
            #(#channel_variants)*
        }

        /// Every event the spec names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum EventKind {
            #( #kind_docs #kinds, )*
        }

        impl EventKind {
            /// Every event, in spec order.
            pub const ALL: &'static [Self] = &[#(Self::#kinds_ref),*];

            /// The event's id.
            pub const fn id(self) -> &'static str {
                match self {
                    #(Self::#kinds_ref => #ids,)*
                }
            }

            /// The event's display name.
            pub const fn name(self) -> &'static str {
                match self {
                    #(Self::#kinds_ref => #names,)*
                }
            }

            /// Where it is delivered.
            pub const fn channel(self) -> EventChannel {
                match self {
                    #(Self::#kinds_ref => EventChannel::#channels,)*
                }
            }

            /// Its number, when the channel numbers its events.
            pub const fn code(self) -> Option<i64> {
                match self {
                    #(Self::#kinds_ref => #codes,)*
                }
            }
        }

        #(#code_enums)*

        #(#payloads)*
    }
}

/// Whether the event has a payload struct: fields given, or a payload kept whole beside them.
pub fn has_payload(e: &crate::model::Event) -> bool {
    !e.fields.is_empty() || keeps_extra(&e.meta.not_shown) && !e.meta.is_not_shown("payload")
}

/// An open enum of the numbered events of one channel (`AuditLogEventCode`).
fn code_enum(plan: &Plan, channel: &str) -> Option<TokenStream> {
    let numbered: Vec<(Ident, i64, &str)> =
        plan.events.iter().filter(|e| e.channel.id == channel).filter_map(|e| Some((names::event_variant(e), e.code?, e.meta.id.as_str()))).collect();
    if numbered.is_empty() {
        return None;
    }
    let name = names::event_code_enum(channel);
    let other = plan.event_code_catch_all(channel);
    let idents: Vec<&Ident> = numbered.iter().map(|(i, _, _)| i).collect();
    let numbers: Vec<TokenStream> = numbered.iter().map(|(_, n, _)| int(*n)).collect();
    let docs = numbered.iter().map(|(_, n, id)| format!(" The event `{id}` (`{n}`)."));
    let doc = format!(" The numbered events of the `{channel}` channel; numbers the spec does not name are kept as received.");
    Some(quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #( #[doc = #docs] #idents, )*
            /// A number the spec does not name.
            #other(i64),
        }

        impl #name {
            /// The number on the wire.
            pub const fn value(self) -> i64 {
                match self {
                    #(Self::#idents => #numbers,)*
                    Self::#other(value) => value,
                }
            }

            /// The event for a wire number.
            pub const fn from_value(value: i64) -> Self {
                match value {
                    #(#numbers => Self::#idents,)*
                    number => Self::#other(number),
                }
            }

            /// The event, when the spec names the number.
            pub const fn kind(self) -> Option<EventKind> {
                match self {
                    #(Self::#idents => Some(EventKind::#idents),)*
                    Self::#other(_) => None,
                }
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
    })
}

/// `gateway.rs`.
pub fn gateway(plan: &Plan) -> TokenStream {
    let idents: Vec<Ident> = plan.opcodes.iter().map(names::opcode_variant).collect();
    let op_docs = plan.opcodes.iter().map(|o| {
        let mut notes = meta_notes(plan, &o.meta);
        notes.push(format!("Opcode `{}`, direction `{}`.", o.code, o.direction));
        if let Some(r) = &o.reply {
            notes.push(format!("Answered by the event `{}`.", r.id));
        }
        docs(Some(&summary(&o.meta)), &notes)
    });
    let numbers: Vec<TokenStream> = plan.opcodes.iter().map(|o| int(o.code)).collect();
    let sends: Vec<bool> = plan.opcodes.iter().map(|o| o.direction == "send").collect();
    let replies = plan.opcodes.iter().map(|o| match &o.reply {
        Some(r) => {
            let e = plan.event_variant(&r.id);
            quote!(Some(crate::events::EventKind::#e))
        }
        None => quote!(None),
    });
    let payloads = plan.opcodes.iter().filter(|o| !o.fields.is_empty() || keeps_extra(&o.meta.not_shown)).map(|o| {
        let docs = docs(Some(&format!("The payload of the opcode `{}` ({}).", o.meta.id, o.code)), &[]);
        struct_tokens(plan, &names::opcode_payload(o), docs, &o.fields, keeps_extra(&o.meta.not_shown))
    });
    let refs = &idents;
    let from_value = super::enums::from_value_body(&idents.iter().collect::<Vec<_>>(), &numbers, &format_ident!("Unknown"));
    quote! {
        //! The Gateway: opcodes as an open enum, and the payloads the spec gives.

        /// A Gateway opcode; numbers the spec does not name are kept as received.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Opcode {
            #( #op_docs #idents, )*
            /// An opcode the spec does not name.
            Unknown(i64),
        }

        impl Opcode {
            /// Every opcode the spec names, in spec order.
            pub const KNOWN: &'static [Self] = &[#(Self::#refs),*];

            /// The number on the wire.
            pub const fn value(self) -> i64 {
                match self {
                    #(Self::#refs => #numbers,)*
                    Self::Unknown(value) => value,
                }
            }

            /// The opcode for a wire number.
            pub const fn from_value(value: i64) -> Self {
                #from_value
            }

            /// Whether clients send it (else they receive it); unknown when the spec does not name it.
            pub const fn is_send(self) -> Option<bool> {
                match self {
                    #(Self::#refs => Some(#sends),)*
                    Self::Unknown(_) => None,
                }
            }

            /// The event that answers it, if any.
            pub const fn reply(self) -> Option<crate::events::EventKind> {
                match self {
                    #(Self::#refs => #replies,)*
                    Self::Unknown(_) => None,
                }
            }
        }

        impl serde::Serialize for Opcode {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_i64(self.value())
            }
        }

        impl<'de> serde::Deserialize<'de> for Opcode {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                <i64 as serde::Deserialize>::deserialize(deserializer).map(Self::from_value)
            }
        }

        #(#payloads)*
    }
}

/// `commands.rs`.
pub fn commands(plan: &Plan) -> TokenStream {
    let idents: Vec<Ident> = plan.commands.iter().map(names::command_variant).collect();
    let cmd_docs = plan.commands.iter().map(|c| meta_docs(plan, &c.meta));
    let names: Vec<&str> = plan.commands.iter().map(|c| if c.meta.name.is_empty() { c.meta.id.as_str() } else { c.meta.name.as_str() }).collect();
    let scopes = plan.commands.iter().map(|c| {
        let s = c.scopes.iter().map(|s| plan.scope_variant(&s.id));
        quote!(&[#(crate::auth::Scope::#s),*])
    });
    let change = |r: Option<&crate::model::Ref>| match r {
        Some(r) => {
            let c = plan.change_const(&r.id);
            quote!(Some(&crate::changes::#c))
        }
        None => quote!(None),
    };
    let aliases = plan.commands.iter().map(|c| {
        let list = c.aliases.iter().map(|a| {
            let name = if a.meta.name.is_empty() { a.meta.id.as_str() } else { a.meta.name.as_str() };
            let (deprecated, until) = (change(a.meta.deprecated.as_ref()), change(a.meta.until.as_ref()));
            quote!(Alias { name: #name, deprecated: #deprecated, until: #until })
        });
        quote!(&[#(#list),*])
    });
    let former = plan.commands.iter().zip(&idents).flat_map(|(c, ident)| {
        let current = if c.meta.name.is_empty() { c.meta.id.as_str() } else { c.meta.name.as_str() };
        c.aliases.iter().map(move |a| {
            let name = if a.meta.name.is_empty() { a.meta.id.as_str() } else { a.meta.name.as_str() };
            let konst = names::command_alias_const(a);
            let doc = format!(" `{name}`, the former name of [`Command::{ident}`] (`{current}`).");
            let instead = format!("`Command::{ident}`");
            let deprecated = deprecated_attribute(plan, a.meta.deprecated.as_ref(), a.meta.until.as_ref(), Some(&instead));
            quote! {
                #[doc = #doc]
                #deprecated
                pub const #konst: Self = Self::#ident;
            }
        })
    });
    let refs = &idents;
    quote! {
        //! Embedded app SDK commands, with their former names.

        use crate::changes::Change;

        /// A former name of a command, accepted until a change removes it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Alias {
            /// The former name.
            pub name: &'static str,
            /// The change that deprecated it.
            pub deprecated: Option<&'static Change>,
            /// The change that removes it.
            pub until: Option<&'static Change>,
        }

        /// A command of the embedded app SDK.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Command {
            #( #cmd_docs #idents, )*
        }

        impl Command {
            /// Every command, in spec order.
            pub const ALL: &'static [Self] = &[#(Self::#refs),*];

            #(#former)*

            /// The name the SDK calls it by.
            pub const fn name(self) -> &'static str {
                match self {
                    #(Self::#refs => #names,)*
                }
            }

            /// The scopes it needs.
            pub const fn scopes(self) -> &'static [crate::auth::Scope] {
                match self {
                    #(Self::#refs => #scopes,)*
                }
            }

            /// Its former names.
            pub const fn aliases(self) -> &'static [Alias] {
                match self {
                    #(Self::#refs => #aliases,)*
                }
            }

            /// The command called `name` at `now`: by its name, or by a former name that has
            /// not been removed yet.
            pub fn from_name(name: &str, now: jiff::Timestamp) -> Option<Self> {
                Self::ALL.iter().copied().find(|c| {
                    c.name() == name || c.aliases().iter().any(|a| a.name == name && a.until.is_none_or(|u| !u.is_in_effect(now)))
                })
            }
        }
    }
}
