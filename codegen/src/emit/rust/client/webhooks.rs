//! `webhooks.rs` of the client crate (feature `webhooks`): a receiver per webhook whose
//! deliveries can be checked, for the app's own axum server.

use crate::emit::rust::shared::lib_ident;
use crate::model::Webhook;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// Whether the crate has receivers: a webhook with its envelope and its verification.
pub fn any(plan: &Plan) -> bool {
    plan.delivered_webhooks().any(received)
}

/// Whether a webhook gets a receiver: one whose deliveries can be both read and checked.
fn received(w: &Webhook) -> bool {
    w.verification.is_some()
}

/// The module.
pub fn emit(plan: &Plan) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let receivers = plan.delivered_webhooks().filter(|w| received(w)).map(receiver);
    quote! {
        //! Receiving the platform's webhooks in the app's own axum server: each function here
        //! makes the receiver of one webhook. A receiver checks the signature on the raw body
        //! before reading anything (in constant time), refuses a stale timestamp or a delivery
        //! id seen before where the spec gives a tolerance (`401`), answers the platform's ping
        //! itself, and hands the handler a typed event, with the events the spec does not name
        //! kept as they came. A body that does not read is a `400` with the platform's error
        //! body; the handler is never called for a refused delivery.
        //!
        //! ```ignore
        //! let receiver = webhooks::note_events(vec![webhooks::Key::secret("whsec_...")?]);
        //! let app = axum::Router::new().route("/hooks", receiver.post(|received| async move {
        //!     println!("{:?}", received.event);
        //!     webhooks::Reply::Ack
        //! }));
        //! ```

        pub use #runtime::delivery::{Delivery, Received};
        pub use #runtime::webhooks::{BadKey, Key, Receiver, Refusal, Reply};
        use crate::types::errors::{ApiError, GENERAL_CODE};
        use crate::types::webhooks as hooks;

        /// The platform's error body for a refused delivery.
        fn refusal(refused: &Refusal) -> serde_json::Value {
            let error = ApiError {
                status: refused.status,
                code: GENERAL_CODE,
                message: refused.message.clone(),
                violations: Vec::new(),
                missing: Vec::new(),
                oauth_error: None,
            };
            serde_json::to_value(error.to_body()).unwrap_or_default()
        }

        #(#receivers)*
    }
}

/// One webhook's receiver.
fn receiver(w: &Webhook) -> TokenStream {
    let function = names::webhook_fn(w);
    let (event, constant) = (names::webhook_event(w), names::webhook_const(w));
    let signed = w.verification.as_ref().is_some_and(|v| v.scheme.id != "none");
    let what = w.meta.description.as_deref().unwrap_or(&w.meta.name);
    let doc = format!(" The receiver of the webhook `{}`: {what}", w.meta.id);
    let keys = match w.verification.as_ref().map(|v| v.scheme.id.as_str()) {
        Some("ed25519") => " Its deliveries are signed with Ed25519: `keys` are the platform's public keys ([`Key::ed25519_hex`]).",
        Some("standard") => {
            " Its deliveries are signed as Standard Webhooks are: `keys` are the secrets ([`Key::secret`]) or Ed25519 public keys ([`Key::ed25519_hex`]) the platform signs with; any one that verifies is enough, so keys can be rotated."
        }
        _ => " Its deliveries are not signed.",
    };
    if signed {
        quote! {
            #[doc = #doc]
            ///
            #[doc = #keys]
            pub fn #function(keys: Vec<Key>) -> Receiver<hooks::#event> {
                Receiver::new(&hooks::#constant, keys, refusal)
            }
        }
    } else {
        quote! {
            #[doc = #doc]
            ///
            #[doc = #keys]
            pub fn #function() -> Receiver<hooks::#event> {
                Receiver::new(&hooks::#constant, Vec::new(), refusal)
            }
        }
    }
}
