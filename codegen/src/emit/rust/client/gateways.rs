//! `gateways.rs` of the client crate (feature `gateway`): a session client per gateway, typed
//! with its events.

use crate::emit::rust::shared::lib_ident;
use crate::model::Gateway;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// Whether the crate has session clients.
pub fn any(plan: &Plan) -> bool {
    plan.sessions().next().is_some()
}

/// The module.
pub fn emit(plan: &Plan) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let shards = plan.sessions().map(|g| shard(plan, g));
    quote! {
        //! The gateways' session clients: each function here makes a shard of one gateway, a
        //! session kept alive across everything the network and the gateway do to it. It beats
        //! the heart at the interval the gateway gives, resumes after a dropped connection or a
        //! missed acknowledgement without losing or repeating an event, starts a new session
        //! when the gateway says so, stops with a typed error on a fatal close code, reconnects
        //! with a capped backoff, keeps within the send limit and identifies through a queue
        //! its process's shards share.
        //!
        //! ```ignore
        //! let mut shard = gateways::gateway(url, &identify)?;
        //! while let Some(item) = shard.next().await {
        //!     match item? {
        //!         gateways::Received::Dispatch(d) => println!("{} {:?}", d.name, d.event),
        //!         gateways::Received::Session(e) => eprintln!("{e:?}"),
        //!     }
        //! }
        //! ```

        pub use #runtime::gateway::{Compression, Session};
        pub use #runtime::shard::{Config, Dispatch, Filter, IdentifyQueue, Received, SendError, Sender, SessionEvent, Shard, ShardError, State};

        #(#shards)*
    }
}

/// One gateway's shard type and constructor.
fn shard(plan: &Plan, g: &Gateway) -> TokenStream {
    let function = names::gateway_fn(g);
    let (union, constant) = (names::gateway_event(g), names::gateway_const(g));
    let alias = names::gateway_shard(g);
    let roles = g.roles.as_ref().expect("BUG: a session gateway has roles");
    let identify = plan.opcode(&roles.identify.id);
    let payload = if identify.fields.is_empty() {
        quote!(serde_json::Value)
    } else {
        let payload = names::opcode_payload(identify);
        quote!(crate::types::gateway::#payload)
    };
    let alias_doc = format!(" A shard of the gateway `{}`, handing out its events typed.", g.meta.id);
    let with = names::gateway_with_fn(g);
    let doc = format!(
        " A shard of the gateway `{}` connecting to `url` (the gateway's address, without its query) and identifying with `identify`; change its [`Config`] with [`{with}`] for compression, sharding, a saved session or an event filter.",
        g.meta.id
    );
    let config_doc = format!(" The default [`Config`] of a shard of the gateway `{}`.", g.meta.id);
    let config_fn = names::gateway_config_fn(g);
    let with_doc = format!(" A shard of the gateway `{}` with `config`.", g.meta.id);
    quote! {
        #[doc = #alias_doc]
        pub type #alias = Shard<crate::types::gateways::#union>;

        #[doc = #config_doc]
        pub fn #config_fn(url: impl Into<String>, identify: &#payload) -> Result<Config, serde_json::Error> {
            Ok(Config::new(&crate::types::gateways::#constant, url, serde_json::to_string(identify)?))
        }

        #[doc = #doc]
        pub fn #function(url: impl Into<String>, identify: &#payload) -> Result<#alias, serde_json::Error> {
            Ok(#with(#config_fn(url, identify)?))
        }

        #[doc = #with_doc]
        pub fn #with(config: Config) -> #alias {
            Shard::new(&crate::types::gateways::#constant, config)
        }
    }
}
