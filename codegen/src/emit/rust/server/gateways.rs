//! `gateways.rs` of the server crate (feature `gateway`): the server side of each gateway, for
//! the platform team's side.

use crate::emit::rust::shared::lib_ident;
use crate::model::Gateway;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// Whether the crate has gateways to serve.
pub fn any(plan: &Plan) -> bool {
    plan.sessions().next().is_some()
}

/// The module.
pub fn emit(plan: &Plan) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let hubs = plan.sessions().map(hub);
    quote! {
        //! Serving the gateways: each function here makes the hub of one gateway, whose
        //! [`Hub::router`](crate::gateways::Hub::router) is the axum WebSocket route. The hub sends the hello, supervises
        //! heartbeats (a client silent for the interval and a half is closed with the
        //! protocol's session-timeout code), enforces the send limit with its code, keeps a
        //! bounded replay buffer per session so that a resume loses nothing, and closes each
        //! violation with the code the protocol gives it. Starting a session and answering a
        //! command are the platform's, through [`Sessions`](crate::gateways::Sessions).
        //!
        //! ```ignore
        //! let hub = gateways::gateway(MySessions, gateways::Options::default());
        //! let app = axum::Router::new().nest_service("/gateway", hub.router());
        //! hub.dispatch("MESSAGE_CREATE", &message);
        //! ```

        pub use #runtime::gateway::{Cause, GatewayEvent};
        pub use #runtime::hub::{Hub, Options, Sessions};

        #(#hubs)*
    }
}

/// One gateway's hub constructor.
fn hub(g: &Gateway) -> TokenStream {
    let function = names::gateway_fn(g);
    let constant = names::gateway_const(g);
    let check = names::gateway_check(g);
    let doc = format!(
        " The hub of the gateway `{}`'s sessions, started and answered by `sessions`; a command whose payload breaks the spec is refused (`Sessions::rejected` hears every violation) and its connection closed with the protocol's decode-error code.",
        g.meta.id
    );
    quote! {
        #[doc = #doc]
        pub fn #function<S: Sessions>(sessions: S, options: Options) -> Hub<S> {
            Hub::checking(&crate::types::gateways::#constant, sessions, options, Some(crate::types::gateways::#check))
        }
    }
}
