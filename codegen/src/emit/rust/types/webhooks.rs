//! `webhooks.rs`: per webhook, the union of the events it carries (a variant per event the
//! spec names, one that keeps any other as it came) and the constant that describes its
//! envelope, signatures, ping, acknowledgement and retries to the runtime.

use super::docs::docs;
use super::events::has_payload;
use super::literals::{member_path as path, millis, optional, unsuffixed};
use crate::model::{Envelope, Member, Webhook};
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// `webhooks.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let hooks = plan.delivered_webhooks().map(|w| hook(plan, w));
    quote! {
        //! Webhooks: the events each carries to an app's endpoint, and how they are delivered.
        //! The receiver (in the client crate) and the sender (in the server crate) read both.

        use crate::delivery::{Envelope, Hook, HookEvent, Schedule};

        #(#hooks)*
    }
}

/// One webhook's union and constant.
fn hook(plan: &Plan, w: &Webhook) -> TokenStream {
    let (union, constant) = (names::webhook_event(w), names::webhook_const(w));
    let catch_all = names::webhook_catch_all(w, &plan.events);
    let mut variants = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut names_of = Vec::new();
    for (value, event) in plan.webhook_events(w) {
        let variant = names::event_variant(event);
        let ty = if has_payload(event) {
            let payload = names::event_payload(event);
            quote!(crate::events::#payload)
        } else {
            quote!(serde_json::Value)
        };
        let doc = docs(Some(&format!("The event `{}`, named `{value}`.", event.meta.id)), &[]);
        variants.push(quote!(#doc #variant(#ty),));
        reads.push(quote!(#value => serde_json::from_value(data).map(Self::#variant).map_err(|e| e.to_string()),));
        writes.push(quote!(Self::#variant(payload) => (#value, serde_json::to_value(payload).map_err(|e| e.to_string())?),));
        names_of.push(quote!(Self::#variant(_) => #value,));
    }
    let union_doc = docs(Some(&format!("An event of the webhook `{}`: {}", w.meta.id, w.meta.description.as_deref().unwrap_or(&w.meta.name))), &[]);
    let const_doc = format!(" How the webhook `{}` is delivered.", w.meta.id);
    let description = description(w);
    quote! {
        #union_doc
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
        pub enum #union {
            #(#variants)*
            /// An event the spec does not name, with its data as it came.
            #catch_all {
                /// Its name, as the envelope wrote it.
                name: String,
                /// Its data.
                raw: serde_json::Value,
            },
        }

        impl #union {
            /// The event's name, as the envelope writes it.
            pub fn name(&self) -> &str {
                match self {
                    #(#names_of)*
                    Self::#catch_all { name, .. } => name,
                }
            }
        }

        impl HookEvent for #union {
            fn from_data(name: &str, data: serde_json::Value) -> Result<Self, String> {
                match name {
                    #(#reads)*
                    _ => Ok(Self::#catch_all { name: name.to_owned(), raw: data }),
                }
            }

            fn to_data(&self) -> Result<(String, serde_json::Value), String> {
                let (name, data) = match self {
                    #(#writes)*
                    Self::#catch_all { name, raw } => (name.as_str(), raw.clone()),
                };
                Ok((name.to_owned(), data))
            }
        }

        #[doc = #const_doc]
        pub const #constant: Hook = #description;
    }
}

/// The `Hook` literal.
fn description(w: &Webhook) -> TokenStream {
    let id = &w.meta.id;
    let envelope = envelope(w.envelope.as_ref().expect("BUG: only webhooks with an envelope are delivered"));
    let verification = w.verification.as_ref().filter(|v| v.scheme.id != "none");
    let scheme = match verification {
        Some(v) => {
            let header = |role: &str| v.header(role).unwrap_or_default().to_ascii_lowercase();
            let (signature, timestamp) = (header("signature"), header("timestamp"));
            if v.scheme.id == "ed25519" {
                quote!(Some(crate::delivery::Scheme::Ed25519 { signature: #signature, timestamp: #timestamp }))
            } else {
                let id = header("id");
                quote!(Some(crate::delivery::Scheme::Standard { id: #id, timestamp: #timestamp, signature: #signature }))
            }
        }
        None => quote!(None),
    };
    let tolerance = optional(verification.and_then(|v| v.tolerance_seconds).map(|t| {
        let t = unsuffixed(u64::from(t));
        quote!(std::time::Duration::from_secs(#t))
    }));
    let ping = optional(w.ping.as_ref().map(|p| {
        let member = path(&p.member);
        let (value, status) = (p.value.to_string(), unsuffixed(u64::from(p.status)));
        let answer = optional(p.answer.as_ref().map(|a| {
            let a = a.to_string();
            quote!(#a)
        }));
        quote!(crate::delivery::Ping { member: #member, value: #value, status: #status, answer: #answer })
    }));
    // An acknowledgement the spec leaves out is `204`: a success with nothing to say.
    let ack_status = unsuffixed(u64::from(w.ack_status.unwrap_or(204)));
    let deadline = optional(w.ack_seconds.map(millis));
    // What the spec leaves out of the retry schedule: one try, or the runtime's backoff.
    let retry = w.retry.as_ref();
    let attempts = unsuffixed(u64::from(retry.and_then(|r| r.attempts).unwrap_or(1)));
    let initial = millis(retry.and_then(|r| r.initial_seconds).unwrap_or(0.5));
    let max = millis(retry.and_then(|r| r.max_seconds).unwrap_or(8.0));
    quote! {
        Hook {
            id: #id,
            envelope: #envelope,
            scheme: #scheme,
            tolerance: #tolerance,
            ping: #ping,
            ack_status: #ack_status,
            ack_deadline: #deadline,
            schedule: Schedule { attempts: #attempts, initial: #initial, max: #max },
        }
    }
}

fn envelope(e: &Envelope) -> TokenStream {
    let kind = path(&e.kind);
    let numbered = e.numbered();
    let member = |m: Option<&Member>| optional(m.map(path));
    let (data, id, timestamp) = (member(e.data.as_ref()), member(e.id.as_ref()), member(e.timestamp.as_ref()));
    quote!(Envelope { kind: #kind, numbered: #numbered, data: #data, id: #id, timestamp: #timestamp })
}
