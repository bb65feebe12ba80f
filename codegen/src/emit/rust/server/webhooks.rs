//! `webhooks.rs` of the server crate (feature `webhooks`): a sender per webhook whose
//! deliveries can be written, for the platform team's side.

use crate::emit::rust::shared::lib_ident;
use crate::model::Webhook;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// Whether the crate has senders.
pub fn any(plan: &Plan) -> bool {
    plan.delivered_webhooks().next().is_some()
}

/// The module.
pub fn emit(plan: &Plan) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let senders = plan.delivered_webhooks().map(sender);
    quote! {
        //! Delivering webhooks to apps: each function here makes the sender of one webhook. A
        //! sender writes the event in the webhook's envelope, signs it afresh at each try, waits
        //! for the app's answer as long as the spec says, and tries again on any `5xx`, a `429`
        //! (waiting out its `Retry-After`) or no answer, on the spec's schedule, until its last
        //! try. Any other answer is final.
        //!
        //! ```ignore
        //! let sender = webhooks::note_events(vec![webhooks::SigningKey::secret("whsec_...")?]);
        //! sender.send("https://app.example/hooks", "msg_1", &event).await?;
        //! ```

        pub use #runtime::webhooks::{BadKey, Delivered, Sender, SigningKey, Undelivered};
        use crate::types::webhooks as hooks;

        #(#senders)*
    }
}

/// One webhook's sender.
fn sender(w: &Webhook) -> TokenStream {
    let function = names::webhook_fn(w);
    let (event, constant) = (names::webhook_const(w), names::webhook_event(w));
    let what = w.meta.description.as_deref().unwrap_or(&w.meta.name);
    let doc = format!(" The sender of the webhook `{}`: {what}", w.meta.id);
    let keys = match w.verification.as_ref().map(|v| v.scheme.id.as_str()) {
        Some("ed25519") => " `keys`: the Ed25519 private key its deliveries are signed with ([`SigningKey::ed25519_hex`]).",
        Some("standard") => {
            " `keys`: the secrets ([`SigningKey::secret`]) or Ed25519 keys ([`SigningKey::ed25519_hex`]) its deliveries are signed with, each signing, while keys rotate."
        }
        Some(_) => " Its deliveries are not signed: `keys` is empty.",
        None => " The spec does not show how its deliveries are signed: `keys` is empty.",
    };
    quote! {
        #[doc = #doc]
        ///
        #[doc = #keys]
        pub fn #function(keys: Vec<SigningKey>) -> Sender<hooks::#constant> {
            Sender::new(&hooks::#event, keys)
        }
    }
}
