//! The `platform-server` crate: a trait with one async method per routed endpoint (plus the
//! hooks rules ask), and an axum router that does every mechanical step before a handler runs.

mod http;
mod mock;
mod runtime;

use super::format::{Parts, format_file, format_parts};
use super::shared::{address_placeholders, endpoint_address, lib_ident, module_decls, package, type_tokens};
use super::types::deprecations;
use super::types::endpoints::{
    ResponseKind, RuntimeInput, checks_response, gated, has_body, module_ident, optional_body, raw_body, response_kind, runtime_inputs,
};
use super::types::literals::as_declared;
use super::types::rules::condition_call;
use crate::emit::cargo::{self, Manifest};
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::types::Primitive;
use crate::model::{Endpoint, Field, Model, Piece, TypeRef, is_mixed, path_segments};
use crate::plan::rust as names;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The artifact name in summaries.
pub const ARTIFACT: &str = "server";

/// Emits `server/Cargo.toml` and `server/src/*.rs`.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let notice = opts.notice();
    // Each module is emitted when it is formatted, the router a handler at a time: the tokens
    // of one part are held at a time.
    let whole = |items: fn(&Model) -> TokenStream| -> Parts<'_> { Box::new(std::iter::once(items(model))) };
    let modules: [(&str, Parts<'_>); 4] =
        [("api", whole(api)), ("router", Box::new(router(model))), ("runtime", whole(runtime_module)), ("mock", whole(mock::mock))];
    let mut files = cargo_toml(model, opts);
    files.push(GeneratedFile::new(ARTIFACT, "server/src/lib.rs", format_file(&notice, lib_rs(model))));
    for (name, items) in modules {
        files.push(GeneratedFile::new(ARTIFACT, format!("server/src/{name}.rs"), format_parts(&notice, items)));
    }
    files
}

/// `runtime.rs`: the fixed runtime and the spec's HTTP items.
fn runtime_module(model: &Model) -> TokenStream {
    let mut runtime = runtime::runtime(&lib_ident(model, cargo::RUNTIME), http::any_parts(model));
    runtime.extend(http::runtime_items(model));
    runtime
}

fn cargo_toml(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let description = format!("{}: an axum server that enforces the spec before your handlers run", model.platform.name);
    // The server reads requests: the types crate's `server` feature.
    // The runtime's request readers, with multipart bodies only for specs that have them.
    let runtime: &[&str] = if http::any_parts(model) { &["server", "multipart"] } else { &["server"] };
    let mut dependencies = vec![
        cargo::sibling_with(&package(model, cargo::RUNTIME), cargo::RUNTIME, runtime),
        cargo::sibling_with(&package(model, "types"), "types", &["server"]),
    ];
    let third_party = [cargo::AXUM, cargo::SERDE, cargo::SERDE_JSON];
    dependencies.extend(third_party.iter().map(|d| d.line()));
    let manifest = Manifest {
        lib: &["path = \"src/lib.rs\""],
        features: &["# `mock`: an implementation of `Api` answering values that meet the spec (src/mock.rs).", "mock = []"],
        dependencies,
    };
    cargo::crate_files(opts, ARTIFACT, "server", &package(model, ARTIFACT), &description, manifest)
}

fn lib_rs(model: &Model) -> TokenStream {
    let types = lib_ident(model, "types");
    let title = format!(" {}: the server side, generated from the spec.", model.platform.name);
    let intro = [
        "",
        " Implement [`Api`]: one async method per routed endpoint, plus the hooks permission rules ask",
        " (the caller's permissions, intents and scopes, and each named condition). Mount [`router()`] and",
        " serve it with `axum::serve`. Before a handler runs, the router has:",
        "",
        " - authenticated the caller (401 without a credential the endpoint accepts);",
        " - parsed the path, the query and the body (a malformed value answers 400 with the JSON error",
        "   body and a JSON pointer, never a 5xx);",
        " - refused a body over the upload limit (413);",
        " - checked every declared constraint, reporting all violations at once;",
        " - evaluated the endpoint's permission rules as of the request's instant, read once from the",
        "   [`Options::clock`] (403 naming what is missing).",
        "",
        " Dated behaviour only the implementation can carry out reaches the handler as the gates of",
        " [`Call::gates`], decided at the same instant. A handler of an endpoint with a permission rule",
        " receives [`Granted`] in [`Call::granted`]: the proof, only the router can make, that the rule held.",
        "",
        " Answers of deprecated endpoints and alias routes, and of calls whose handler reports a",
        " deprecated behaviour ([`Call::deprecations`]), carry `Deprecation` (RFC 9745), `Sunset`",
        " (RFC 8594) and `Link` headers naming the changes' entries in the reference page.",
    ];
    let decls = module_decls(&["api", "router", "runtime"]);
    quote! {
        #![doc = #title]
        #(#![doc = #intro])*
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]
        // Items the spec deprecates are `#[deprecated]` so their users' compilers say so; the
        // generated crates' own listings of them (`KNOWN`, match arms, derives) are not such uses.
        #![allow(deprecated)]

        #[rustfmt::skip]
        pub use #types as types;

        #decls

        /// A mock implementation of [`Api`] that answers every endpoint with values that meet
        /// the spec (feature `mock`).
        #[cfg(feature = "mock")]
        #[rustfmt::skip]
        pub mod mock;

        #[rustfmt::skip]
        pub use api::{Api, Call, Granted, Notices, Operation, RuleContext, granted};

        #[rustfmt::skip]
        pub use router::{DEFAULT_BODY_LIMIT, DEFAULT_BODY_TIMEOUT, Options, router, router_with};
    }
}

/// Routed endpoints, in spec order.
fn routed(model: &Model) -> Vec<&Endpoint> {
    model.routed_endpoints().collect()
}

/// The hook that reads a response field of another endpoint (`get_gateway_bot_max_concurrency`).
fn bound_hooks(model: &Model) -> Vec<(Ident, String, String)> {
    let mut out: Vec<(Ident, String, String)> = Vec::new();
    for e in routed(model) {
        for input in runtime_inputs(model, e) {
            if let RuntimeInput::Bound { endpoint, field, .. } = input {
                let hook = names::api_bound_hook(model, &endpoint, &field);
                if !out.iter().any(|(n, _, _)| *n == hook) {
                    out.push((hook, endpoint, field));
                }
            }
        }
    }
    out
}

fn api(model: &Model) -> TokenStream {
    let routed = routed(model);
    let variants = routed.iter().map(|e| {
        let v = names::endpoint_variant(e);
        let module = module_ident(e);
        let doc = route_doc(e);
        if e.path_params.is_empty() { quote!(#[doc = #doc] #v,) } else { quote!(#[doc = #doc] #v(types::endpoints::#module::Path),) }
    });
    let id_arms = routed.iter().map(|e| {
        let (v, id) = (names::endpoint_variant(e), &e.meta.id);
        if e.path_params.is_empty() { quote!(Self::#v => #id) } else { quote!(Self::#v(_) => #id) }
    });
    let hooks = hooks(model);
    let match_self = super::shared::match_ref(routed.is_empty());
    let methods: Vec<TokenStream> = routed.iter().map(|e| endpoint_method(model, e)).collect();
    let markers = routed.iter().filter(|e| guarded(model, e)).map(|e| {
        let marker = names::endpoint_variant(e);
        let doc = format!(" Endpoint `{}`: {}", e.meta.id, route_doc(e).trim());
        quote!(#[doc = #doc] #[derive(Debug)] pub enum #marker {})
    });
    let delegation = delegation(&hooks, &methods);
    // Only a spec with a guarded endpoint has a proof to make.
    let granted_new = routed.iter().any(|e| guarded(model, e)).then(|| {
        quote! {
            impl<E> Granted<E> {
                /// Only the router grants.
                pub(crate) fn new() -> Self {
                    Self { endpoint: ::std::marker::PhantomData }
                }
            }
        }
    });
    // With endpoints that accept anonymous calls, the credential is a parameter of `Call` too:
    // those endpoints' calls carry `Option<Credential>` (and an optional caller).
    let anonymous = http::any_anonymous(model);
    let (credential_param, credential_type) = if anonymous { (quote!(, K = Credential), quote!(K)) } else { (quote!(), quote!(Credential)) };
    let call_doc = if anonymous {
        quote! {
            /// One call of an endpoint, after every check passed. An endpoint that accepts
            /// anonymous calls gets `Call<Option<Caller>, Request, G, P, Option<Credential>>`.
        }
    } else {
        quote!(#[doc = r" One call of an endpoint, after every check passed."])
    };
    let caller_doc =
        if anonymous { quote!(#[doc = r" The authenticated caller (`None` for an anonymous call)."]) } else { quote!(#[doc = r" The authenticated caller."]) };
    let credential_doc = if anonymous {
        quote!(#[doc = r" The credential it presented (`None` for an anonymous call)."])
    } else {
        quote!(#[doc = r" The credential it presented."])
    };
    quote! {
        //! The trait an implementation provides: one method per routed endpoint, and the hooks
        //! that permission rules and run-time checks ask.

        use crate::types;
        use crate::types::auth::Credential;
        use crate::types::clock::Timestamp;
        use crate::types::errors::ApiError;
        use std::future::Future;

        /// Which operation a request is for, with its path parameters.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Operation {
            #(#variants)*
        }

        impl Operation {
            /// The endpoint's id.
            pub const fn id(&self) -> &'static str {
                #match_self {
                    #(#id_arms,)*
                }
            }
        }

        /// What a hook is asked about: who calls, for which operation, at which instant.
        #[derive(Debug)]
        pub struct RuleContext<'a, C> {
            /// The authenticated caller.
            pub caller: &'a C,
            /// The credential it presented.
            pub credential: &'a Credential,
            /// The operation and its path parameters.
            pub operation: &'a Operation,
            /// The request's instant, read once.
            pub now: Timestamp,
        }

        /// Proof that the permission rule of endpoint `E` held for a call, at the call's instant.
        ///
        /// Only the router makes one, after evaluating the rule, so a function that takes a
        /// `Granted<E>` cannot run unless the rule was evaluated (`#[endpoint]` requires it of
        /// handlers of guarded endpoints).
        pub struct Granted<E> {
            endpoint: ::std::marker::PhantomData<fn() -> E>,
        }

        #granted_new

        impl<E> ::std::fmt::Debug for Granted<E> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(::std::any::type_name::<Self>())
            }
        }

        /// The endpoints guarded by a permission rule, as the type parameter of [`Granted`].
        pub mod granted {
            #(#markers)*
        }

        #call_doc
        #[derive(Debug)]
        pub struct Call<C, I, G = (), P = () #credential_param> {
            #caller_doc
            pub caller: C,
            #credential_doc
            pub credential: #credential_type,
            /// The request's instant, read once: the same instant the rules were evaluated at.
            pub now: Timestamp,
            /// The parsed and checked request.
            pub input: I,
            /// The gates of the endpoint's dated behaviour at `now`.
            pub gates: G,
            /// For an endpoint with a permission rule, the proof that it held at `now`.
            pub granted: P,
            /// Where the handler reports a deprecated behaviour it carried out, so the answer
            /// says so.
            pub deprecations: Notices,
        }

        /// What a call used that is deprecated: the router adds `Deprecation`, `Sunset` and
        /// `Link` headers for each to the answer.
        #[derive(Clone, Debug, Default)]
        pub struct Notices(std::sync::Arc<std::sync::Mutex<Vec<&'static types::deprecations::Deprecated>>>);

        impl Notices {
            /// Records that the call carried out `deprecated` (a constant of
            /// `types::deprecations`, usually a deprecated behaviour of the endpoint).
            pub fn used(&self, deprecated: &'static types::deprecations::Deprecated) {
                let mut list = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if !list.contains(&deprecated) {
                    list.push(deprecated);
                }
            }

            /// Everything recorded, in the order it was reported.
            pub fn list(&self) -> Vec<&'static types::deprecations::Deprecated> {
                self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
            }
        }

        /// A platform implementation. Methods return futures that are `Send`; implement them
        /// with `async fn`.
        pub trait Api: Send + Sync + 'static {
            /// Who a credential belongs to.
            type Caller: Send + Sync + 'static;

            /// The caller a credential authenticates; `None` answers 401.
            fn authenticate(&self, credential: &Credential) -> impl Future<Output = Option<Self::Caller>> + Send;

            #hooks

            #(#methods)*
        }

        /// A shared implementation is an implementation, so its owner can keep a handle to it.
        impl<T: Api> Api for std::sync::Arc<T> {
            type Caller = T::Caller;

            fn authenticate(&self, credential: &Credential) -> impl Future<Output = Option<Self::Caller>> + Send {
                T::authenticate(self, credential)
            }

            #delegation
        }
    }
}

/// The `Arc<T>` forwarding bodies of trait method declarations: each `fn name(&self, a: A, ..) -> R;`
/// becomes `fn name(&self, a: A, ..) -> R { T::name(self, a, ..) }` (docs dropped).
fn delegation(hooks: &TokenStream, methods: &[TokenStream]) -> TokenStream {
    let mut all = hooks.clone();
    all.extend(methods.iter().cloned());
    let items: syn::File = syn::parse2(quote!(trait T { #all })).expect("BUG: trait items parse");
    let Some(syn::Item::Trait(t)) = items.items.first() else { unreachable!("BUG: one trait was parsed") };
    t.items
        .iter()
        .filter_map(|item| {
            let syn::TraitItem::Fn(f) = item else { return None };
            let sig = &f.sig;
            let name = &sig.ident;
            let args = sig.inputs.iter().filter_map(|arg| match arg {
                syn::FnArg::Typed(t) => Some(&t.pat),
                syn::FnArg::Receiver(_) => None,
            });
            Some(quote! {
                #sig {
                    T::#name(self #(, #args)*)
                }
            })
        })
        .collect()
}

fn route_doc(e: &Endpoint) -> String {
    match (&e.method, &e.path) {
        (Some(m), Some(p)) => format!(" `{} {}`: {}.", m.id, p.id, if e.meta.name.is_empty() { &e.meta.id } else { &e.meta.name }),
        _ => format!(" `{}`.", e.meta.id),
    }
}

fn hooks(model: &Model) -> TokenStream {
    let mut out = quote! {
        /// The permissions the caller holds where the operation acts.
        fn permissions(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<Vec<types::permissions::Permission>, ApiError>> + Send;
    };
    if !model.intents.is_empty() {
        out.extend(quote! {
            /// The intents of the caller's app.
            fn intents(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<Vec<types::auth::Intent>, ApiError>> + Send;
        });
    }
    if !model.scopes.is_empty() {
        out.extend(quote! {
            /// The scopes of the caller's token.
            fn scopes(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<Vec<types::auth::Scope>, ApiError>> + Send;
        });
    }
    for c in asked_conditions(model) {
        let name = names::api_hook(c);
        let doc = match &c.meta.description {
            Some(d) => format!(" Whether `{}` holds ({}).", c.meta.id, lowercase_first(d.trim_end_matches('.'))),
            None => format!(" Whether `{}` holds.", c.meta.id),
        };
        let params = c.params.iter().enumerate().map(|(i, p)| {
            let ident = names::condition_param(p);
            let ty = param_type(model, c.param_enums.get(i).map(|r| r.id.as_str()));
            quote!(#ident: #ty)
        });
        out.extend(quote! {
            #[doc = #doc]
            fn #name(&self, cx: &RuleContext<'_, Self::Caller> #(, #params)*) -> impl Future<Output = Result<bool, ApiError>> + Send;
        });
    }
    for (name, endpoint, field) in bound_hooks(model) {
        let doc = format!(" `{field}` of the endpoint `{endpoint}` for the caller: a bound some routed endpoint checks.");
        out.extend(quote! {
            #[doc = #doc]
            fn #name(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<i64, ApiError>> + Send;
        });
    }
    out
}

/// The type a condition's argument is passed as: its enum's type, else text.
fn param_type(model: &Model, enum_id: Option<&str>) -> TokenStream {
    match enum_id.and_then(|id| model.enum_(id)) {
        Some(e) => type_tokens(model, &TypeRef::Enum(e.meta.id.clone()), &quote!(types)),
        None => quote!(String),
    }
}

/// The value a condition's argument (an enum value id) is passed as.
fn param_value(model: &Model, enum_id: Option<&str>, arg: &TokenStream) -> TokenStream {
    match enum_id.and_then(|id| model.enum_(id)) {
        Some(e) if e.repr == "string" => {
            let ty = type_tokens(model, &TypeRef::Enum(e.meta.id.clone()), &quote!(types));
            quote!(#ty::from(#arg))
        }
        Some(e) => {
            let ty = type_tokens(model, &TypeRef::Enum(e.meta.id.clone()), &quote!(types));
            let other = names::catch_all(e);
            quote!(#ty::KNOWN.iter().copied().find(|v| v.id() == Some(#arg)).unwrap_or(#ty::#other(0)))
        }
        None => quote!(#arg.to_owned()),
    }
}

fn gates_type(e: &Endpoint) -> Option<TokenStream> {
    let module = module_ident(e);
    (!gated(e).is_empty()).then(|| quote!(types::endpoints::#module::Gates))
}

/// Whether a permission rule guards the endpoint.
fn guarded(model: &Model, e: &Endpoint) -> bool {
    !model.rules_for(&e.meta.id).is_empty()
}

/// The `Call` type parameters after the input: gates and proof, each only when needed.
fn call_extras(model: &Model, e: &Endpoint) -> TokenStream {
    let gates = gates_type(e);
    if e.accepts_anonymous() {
        // Never guarded (validation makes sure): no proof, an optional credential.
        let gates = gates.unwrap_or_else(|| quote!(()));
        return quote!(, #gates, (), Option<Credential>);
    }
    if guarded(model, e) {
        let marker = names::endpoint_variant(e);
        let gates = gates.unwrap_or_else(|| quote!(()));
        quote!(, #gates, Granted<granted::#marker>)
    } else {
        gates.map(|g| quote!(, #g)).unwrap_or_default()
    }
}

fn endpoint_method(model: &Model, e: &Endpoint) -> TokenStream {
    let name = names::api_method(e);
    let module = module_ident(e);
    let gates = call_extras(model, e);
    let mut lines = vec![route_doc(e)];
    if let Some(d) = &e.meta.description {
        lines.push(String::new());
        lines.extend(crate::emit::rust::format::doc_text_lines(d).into_iter().map(|l| format!(" {l}")));
    }
    for b in gated(e) {
        lines.push(String::new());
        lines.extend(crate::emit::rust::format::led_lines(&format!("Gate `{}`: ", names::gate(b)), b.meta.description.as_deref().unwrap_or_default()));
    }
    if let Some(w) = deprecations::endpoint(e) {
        lines.push(String::new());
        lines.push(format!(" Deprecated by change `{}`: the router says so in every answer.", w.by.id));
    }
    for w in deprecations::behaviours(e) {
        let konst = &w.ident;
        lines.push(String::new());
        lines.push(format!(" Deprecated behaviour (change `{}`): report it with `call.deprecations.used(&types::deprecations::{konst})` when the call carries it out, so the answer says so.", w.by.id));
    }
    let caller = if e.accepts_anonymous() { quote!(Option<Self::Caller>) } else { quote!(Self::Caller) };
    quote! {
        #(#[doc = #lines])*
        fn #name(&self, call: Call<#caller, types::endpoints::#module::Request #gates>) -> impl Future<Output = Result<types::endpoints::#module::Response, ApiError>> + Send;
    }
}

/// `router.rs`: the router and its machinery, then a handler per routed endpoint.
fn router(model: &Model) -> impl Iterator<Item = TokenStream> + '_ {
    let placeholders = address_placeholders(model);
    let used: Vec<&str> = routed(model).iter().filter_map(|e| endpoint_address(model, e)).collect();
    let prefixes = placeholders.iter().filter(|p| used.contains(p)).map(|p| {
        let (field, local) = (names::placeholder_id(model, p), prefix_local(model, p));
        quote!(let #local = types::placeholders::path_of(&app.placeholders.#field).to_owned();)
    });
    let routes = route_table(model);
    let issuer = model.authorization_server.as_ref().map(|_| quote!(let issuer = issuer_path(&app.placeholders);));
    let metadata = metadata_routes(model);
    let handlers = routed(model).into_iter().map(|e| handler(model, e));
    let (limit, limit_doc) = body_limit(model);
    let authorize = authorize(model);
    // A spec that routes no endpoint leaves the request machinery (parsing, rules, the app's
    // state) without a caller.
    let unused = routed(model).is_empty().then(|| quote!(#![allow(dead_code, unused_imports)]));
    let answers_json = routed(model).iter().any(|e| matches!(response_kind(e), ResponseKind::Json)) || model.authorization_server.is_some();
    let status_code = answers_json.then(|| {
        quote!(
            use axum::http::StatusCode;
        )
    });
    let path_params = routed(model).iter().any(|e| !e.path_params.is_empty()).then(|| {
        quote! {
            use axum::extract::RawPathParams;
            use axum::extract::rejection::RawPathParamsRejection;
        }
    });
    // Only a route that reads a body needs the limit at run time.
    let reads_body = routed(model).iter().any(|e| has_body(e));
    // An operation and its context are made for rules (endpoints that need a caller) and for
    // the scopes of anonymous ones.
    let operations = routed(model).iter().any(|e| !e.accepts_anonymous() || !e.scopes.is_empty());
    let api_uses = if operations || routed(model).is_empty() {
        quote!(
            use crate::api::{Api, Call, Notices, Operation, RuleContext};
        )
    } else {
        quote!(
            use crate::api::{Api, Call, Notices};
        )
    };
    let (limit_field, limit_init) = match reads_body {
        true => (quote!(body_limit: usize, body_timeout: Duration,), quote!(body_limit: options.body_limit, body_timeout: options.body_timeout,)),
        false => (quote!(), quote!()),
    };
    // Without a docs address there is no `Link` to write, and `app` is not needed.
    let (app_arg, docs) = match &model.platform.docs {
        Some(r) => {
            let p = names::placeholder_id(model, &r.id);
            (quote!(app), quote!(Some(app.placeholders.#p.as_str())))
        }
        None => (quote!(_app), quote!(None)),
    };
    let head = quote! {
        //! The router: one route per routed endpoint, each doing the mechanical work before the
        //! handler runs.
        #unused

        #api_uses
        use crate::runtime;
        use crate::types::deprecations::Deprecated;
        use crate::types;
        use crate::types::clock::{Clock, SystemClock, Timestamp};
        use crate::types::errors::ApiError;
        use crate::types::placeholders::Placeholders;
        use crate::types::validation::Validate;
        use axum::Router;
        #path_params
        use axum::extract::{Request as HttpRequest, State};
        #status_code
        use axum::response::Response;
        use std::sync::Arc;
        use std::time::Duration;

        #[doc = #limit_doc]
        pub const DEFAULT_BODY_LIMIT: usize = #limit;

        /// How long the router waits for a request body to arrive, a setting of this server: a
        /// sender slower than this is answered 408 and its connection closed, so that slow
        /// senders cannot hold connections and buffers open.
        pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

        /// How the router is set up.
        #[derive(Clone)]
        pub struct Options {
            /// The addresses: routes are mounted under their paths, and documents name them.
            /// Defaults to the spec's examples.
            pub placeholders: Placeholders,
            /// Where "now" comes from, read once per request. Defaults to the system clock.
            pub clock: Arc<dyn Clock>,
            /// The largest request body accepted, in bytes. Defaults to [`DEFAULT_BODY_LIMIT`].
            pub body_limit: usize,
            /// How long a request body may take to arrive. Defaults to [`DEFAULT_BODY_TIMEOUT`].
            pub body_timeout: Duration,
        }

        impl Default for Options {
            fn default() -> Self {
                Self { placeholders: Placeholders::default(), clock: Arc::new(SystemClock), body_limit: DEFAULT_BODY_LIMIT, body_timeout: DEFAULT_BODY_TIMEOUT }
            }
        }

        impl Options {
            /// Sets the addresses.
            pub fn with_placeholders(mut self, placeholders: Placeholders) -> Self {
                self.placeholders = placeholders;
                self
            }

            /// Sets the clock (a [`types::clock::FixedClock`] puts every request at one instant).
            pub fn with_clock(mut self, clock: impl Clock + 'static) -> Self {
                self.clock = Arc::new(clock);
                self
            }

            /// Sets the body limit.
            pub fn with_body_limit(mut self, bytes: usize) -> Self {
                self.body_limit = bytes;
                self
            }

            /// Sets how long a request body may take to arrive.
            pub fn with_body_timeout(mut self, timeout: Duration) -> Self {
                self.body_timeout = timeout;
                self
            }
        }

        /// The state every route shares.
        struct App<A> {
            api: A,
            clock: Arc<dyn Clock>,
            placeholders: Placeholders,
            #limit_field
        }

        /// The router with default options: the spec's example addresses, the system clock and
        /// the spec's upload limit.
        pub fn router<A: Api>(api: A) -> Router {
            router_with(api, Options::default())
        }

        /// The router with `options`.
        pub fn router_with<A: Api>(api: A, options: Options) -> Router {
            let app = Arc::new(App { api, clock: options.clock, placeholders: options.placeholders, #limit_init });
            #(#prefixes)*
            #issuer
            Router::new()
                #routes
                #metadata
                .fallback(not_found)
                .method_not_allowed_fallback(method_not_allowed)
                .with_state(app)
        }

        async fn not_found() -> Response {
            runtime::error_response(&runtime::error(runtime::ids::GENERAL, 404).with_status(404).with_message("404: Not Found"))
        }

        async fn method_not_allowed() -> Response {
            runtime::error_response(&runtime::error(runtime::ids::GENERAL, 405).with_status(405).with_message("405: Method Not Allowed"))
        }

        /// Answers a handler's result.
        fn respond(result: Result<Response, ApiError>) -> Response {
            result.unwrap_or_else(|e| runtime::error_response(&e))
        }

        /// Adds the deprecation headers of `fixed` (the endpoint or route called) and of what the
        /// handler reported using.
        fn deprecated<A>(#app_arg: &App<A>, response: Response, fixed: &[&'static Deprecated], notices: &Notices) -> Response {
            let reported = notices.list();
            if fixed.is_empty() && reported.is_empty() {
                return response;
            }
            let mut used = fixed.to_vec();
            used.extend(reported.into_iter().filter(|d| !fixed.contains(d)));
            runtime::with_deprecation(response, &used, #docs)
        }

        #authorize
    };
    std::iter::once(head).chain(handlers)
}

/// The default body limit: the largest size limit of the spec, else axum's 2 MiB.
fn body_limit(model: &Model) -> (TokenStream, String) {
    let largest = model.limits.iter().filter_map(|l| l.upper_bytes().map(|b| (l, b))).max_by_key(|(_, b)| *b);
    match largest {
        Some((l, bytes)) => (
            quote!(#bytes as usize),
            format!(
                " The default body limit in bytes, a setting of this server: the spec gives no limit for a whole request body, so the default is its largest size limit, `{}` ({} {}), which need not be a limit on whole bodies.",
                l.meta.id,
                l.upper().unwrap_or_default(),
                l.unit.id
            ),
        ),
        None => (quote!(2 * 1024 * 1024), " The default body limit in bytes: the spec declares no size limit, so axum's 2 MiB.".to_owned()),
    }
}

/// One `.route(...)`: the address placeholder, the axum path, and `(method, handler)` pairs.
type RouteEntry = (String, String, Vec<(Ident, Ident)>);

/// Every route the generated router declares: the address placeholder it sits under (empty for
/// none), its axum path and its methods (lowercase), in the order the router declares them.
/// The router is built from the same list, so a test can hold every spec to "the router builds"
/// by giving the list to axum's own path router.
pub fn routes(model: &Model) -> Vec<(String, String, Vec<String>)> {
    route_entries(model).into_iter().map(|(address, path, handlers)| (address, path, handlers.iter().map(|(m, _)| m.to_string()).collect())).collect()
}

/// `.route(...)` calls, one per distinct path (methods of one path share a route): every routed
/// endpoint's own route and its alias routes.
fn route_table(model: &Model) -> TokenStream {
    let paths = route_entries(model);
    paths
        .iter()
        .map(|(address, path, handlers)| {
            let mut methods = handlers.iter();
            let (first_method, first_handler) = methods.next().expect("BUG: a route has an endpoint");
            // Through `self::`, which no local variable of `router_with` can shadow.
            let rest = methods.map(|(m, h)| quote!(.#m(self::#h::<A>)));
            let route = match address.is_empty() {
                true => quote!(#path),
                false => {
                    let prefix = prefix_local(model, address);
                    quote!(&[#prefix.as_str(), #path].concat())
                }
            };
            quote!(.route(#route, axum::routing::#first_method(self::#first_handler::<A>) #(#rest)*))
        })
        .collect()
}

/// The routes of [`routes`], each with its handlers.
fn route_entries(model: &Model) -> Vec<RouteEntry> {
    let mut paths: Vec<RouteEntry> = Vec::new();
    for e in routed(model) {
        let address = endpoint_address(model, e).unwrap_or_default().to_owned();
        let method = |m: Option<&crate::model::Text>| format_ident!("{}", m.or(e.method.as_ref()).map(|m| m.id.to_lowercase()).unwrap_or_default());
        let mut routes = vec![(axum_path(e, e.path.as_ref().map(|p| p.id.as_str()).unwrap_or_default()), method(None), names::handler(e))];
        for a in &e.aliases {
            routes.push((axum_path(e, &a.path.id), method(a.method.as_ref()), names::alias_handler(e, a)));
        }
        for (path, method, handler) in routes {
            match paths.iter_mut().find(|(a, p, _)| *p == path && *a == address) {
                Some((_, _, list)) => list.push((method, handler)),
                None => paths.push((address.clone(), path, vec![(method, handler)])),
            }
        }
    }
    paths
}

/// A segment of an endpoint's path that mixes placeholders and text (`{Sid}.json`): the router
/// matches it whole, keyed by its first placeholder, and the handler splits it.
struct MixedSegment<'e> {
    /// Its place among the path's segments.
    index: usize,
    /// The key the router gives the whole segment.
    key: String,
    /// Its placeholders, in order.
    params: Vec<&'e str>,
    /// Its pieces.
    pieces: Vec<Piece<'e>>,
}

fn mixed_segments(e: &Endpoint) -> Vec<MixedSegment<'_>> {
    let Some(path) = &e.path else { return Vec::new() };
    let Ok(segments) = path_segments(&path.id) else { return Vec::new() };
    segments
        .into_iter()
        .enumerate()
        .filter(|(_, pieces)| is_mixed(pieces))
        .map(|(index, pieces)| {
            let params: Vec<&str> = pieces.iter().filter_map(|p| if let Piece::Param(n) = p { Some(*n) } else { None }).collect();
            let key = segment_key(e, params[0]);
            MixedSegment { index, key, params, pieces }
        })
        .collect()
}

/// `let segment2 = runtime::split_segment(...)`: a mixed segment's values, or no route.
fn split_step(m: &MixedSegment<'_>) -> TokenStream {
    let segment = format_ident!("segment{}", m.index);
    let key = &m.key;
    let pieces = m.pieces.iter().map(|p| match p {
        Piece::Text(t) => quote!(runtime::Piece::Text(#t)),
        Piece::Param(_) => quote!(runtime::Piece::Param),
    });
    quote!(let #segment = runtime::split_segment(&params, #key, &[#(#pieces),*]).ok_or_else(runtime::no_route)?;)
}

/// The key `RawPathParams` gives a placeholder (or the mixed segment it starts).
fn segment_key(e: &Endpoint, name: &str) -> String {
    let field = e.path_params.iter().find(|f| f.name == name).map_or_else(|| super::shared::value_ident(name), names::field);
    field.to_string().trim_start_matches("r#").to_owned()
}

/// The axum path of an endpoint's path or alias path: `{channel.id}` becomes `{channel_id}`,
/// the name `RawPathParams` keys the parameter by; a segment that mixes placeholders and text
/// (`{Sid}.json`) becomes one placeholder keyed by its first (`{sid}`), split by the handler.
fn axum_path(e: &Endpoint, path: &str) -> String {
    if let Ok(segments) = path_segments(path)
        && segments.iter().any(|s| is_mixed(s))
    {
        return segments
            .iter()
            .map(|pieces| match pieces.iter().find_map(|p| if let Piece::Param(n) = p { Some(*n) } else { None }) {
                Some(first) => format!("/{{{}}}", segment_key(e, first)),
                None => format!("/{}", pieces.iter().map(|p| if let Piece::Text(t) = p { *t } else { "" }).collect::<String>()),
            })
            .collect();
    }
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else { break };
        out.push('{');
        let name = &rest[open + 1..open + close];
        out.push_str(&segment_key(e, name));
        out.push('}');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The authorization server metadata (RFC 8414) and OpenID configuration routes.
fn metadata_routes(model: &Model) -> Option<TokenStream> {
    model.authorization_server.as_ref()?;
    Some(quote! {
        .route(&["/.well-known/oauth-authorization-server", issuer.as_str()].concat(), axum::routing::get(authorization_server_metadata::<A>))
        .route(&[issuer.as_str(), "/.well-known/openid-configuration"].concat(), axum::routing::get(authorization_server_metadata::<A>))
    })
}

/// `authorize` (rules evaluated against the implementation's answers), `ask` (one condition)
/// and, with an authorization server, its metadata handler.
fn authorize(model: &Model) -> TokenStream {
    let asked = asked_conditions(model);
    // Conditions only a case of a payload names are the implementation's to evaluate when it
    // builds the payload; the router never asks them.
    let unasked = (asked.len() < model.conditions.len())
        .then(|| quote!(other => unreachable!("BUG: the router asks only the conditions of rules and request fields, not `{other}`")));
    let arms = asked.into_iter().map(|c| {
        let v = names::condition_variant(c);
        let hook = names::api_hook(c);
        if c.params.is_empty() {
            quote!(Condition::#v => Api::#hook(api, cx).await)
        } else {
            // Bound by position, so no parameter shadows `api` or `cx`; the hook is called by
            // path, so no method of another trait (`into`) answers in its place.
            let params: Vec<Ident> = c.params.iter().map(|p| names::condition_param(p)).collect();
            let bound: Vec<Ident> = (0..params.len()).map(|i| format_ident!("value{i}")).collect();
            let values = bound.iter().enumerate().map(|(i, p)| param_value(model, c.param_enums.get(i).map(|r| r.id.as_str()), &quote!(#p)));
            quote!(Condition::#v { #(#params: #bound),* } => Api::#hook(api, cx #(, #values)*).await)
        }
    });
    let intents = (!model.intents.is_empty()).then(|| {
        quote! {
            if needs.intents {
                answers.intents = api.intents(cx).await?;
            }
        }
    });
    let scopes = (!model.scopes.is_empty()).then(|| {
        quote! {
            if needs.scopes {
                answers.scopes = api.scopes(cx).await?;
            }
        }
    });
    let metadata = model.authorization_server.as_ref().map(|_| {
        quote! {
            /// The path of the issuer identifier.
            fn issuer_path(placeholders: &Placeholders) -> String {
                types::placeholders::path_of(&placeholders.substitute(types::auth::ISSUER)).to_owned()
            }

            async fn authorization_server_metadata<A: Api>(State(app): State<Arc<App<A>>>) -> Response {
                runtime::json_response(StatusCode::OK, &types::auth::authorization_server_metadata(&app.placeholders))
            }
        }
    });
    // A spec whose router asks no condition has no hook to call; the parameters stay for one
    // signature.
    let arms: Vec<TokenStream> = arms.collect();
    // Rules guard only endpoints that need a caller: with none, nothing is authorized.
    if !routed(model).iter().any(|e| !e.accepts_anonymous()) && !routed(model).is_empty() {
        return metadata.unwrap_or_default();
    }
    let ask = if arms.is_empty() { quote!(let _ = (api, cx); match condition { #unasked }) } else { quote!(match condition { #(#arms,)* #unasked }) };
    quote! {
        use crate::types::rules::{Condition, Needs, PermissionRule};

        /// Evaluates `rules` as of `cx.now`: asks the implementation only what the forms in force
        /// need, then answers 403 naming everything missing.
        async fn authorize<A: Api>(api: &A, cx: &RuleContext<'_, A::Caller>, rules: &[&PermissionRule], bot: bool) -> Result<(), ApiError> {
            let active = || rules.iter().filter(|r| r.applies_to.includes(bot)).filter_map(|r| r.at(cx.now));
            if active().next().is_none() {
                return Ok(());
            }
            let mut needs = Needs::default();
            active().for_each(|r| r.gather(&mut needs));
            let mut answers = runtime::Answers::default();
            if needs.permissions {
                answers.permissions = api.permissions(cx).await?;
            }
            #intents
            #scopes
            // The conditions asked are kept in place, those that hold first.
            let mut asked = needs.conditions;
            let mut holding = 0;
            for index in 0..asked.len() {
                if ask(api, cx, asked[index]).await? {
                    asked.swap(holding, index);
                    holding += 1;
                }
            }
            asked.truncate(holding);
            answers.conditions = asked;
            if active().all(|r| r.holds(&answers)) {
                return Ok(());
            }
            let missing: Vec<_> = active().flat_map(|r| r.missing(&answers)).collect();
            if missing.is_empty() { Ok(()) } else { Err(runtime::missing(&missing)) }
        }

        /// Asks the implementation whether one condition holds.
        async fn ask<A: Api>(api: &A, cx: &RuleContext<'_, A::Caller>, condition: Condition) -> Result<bool, ApiError> {
            #ask
        }

        #metadata
    }
}

/// The conditions the router may ask: those of permission rules and of endpoint inputs
/// (`required_when`), in spec order. The implementation gets one hook for each.
fn asked_conditions(model: &Model) -> Vec<&crate::model::Condition> {
    let mut ids: Vec<&str> = Vec::new();
    for rule in &model.permission_rules {
        for v in &rule.variants {
            ids.extend(v.rule.conditions().into_iter().map(|c| c.named().0.id.as_str()));
        }
    }
    for e in &model.endpoints {
        let inputs = e.path_params.iter().chain(&e.query).chain(&e.body).chain(&e.body_schema);
        ids.extend(inputs.filter_map(|f| f.required_when.as_ref()).map(|c| c.named().0.id.as_str()));
    }
    model.conditions.iter().filter(|c| ids.contains(&c.meta.id.as_str())).collect()
}

/// The closure that parses a parameter's text into its type.
fn parser(model: &Model, f: &Field) -> TokenStream {
    parser_for(model, f.ty.as_ref())
}

/// The closure that parses text into a value of `ty`.
fn parser_for(model: &Model, ty: Option<&TypeRef>) -> TokenStream {
    let root = quote!(types);
    let Some(ty) = ty else { return quote!(runtime::from_json::<serde_json::Value>) };
    let rust = type_tokens(model, ty, &root);
    match ty {
        TypeRef::Primitive(Primitive::String | Primitive::Url | Primitive::Csv) => quote!(|text: &str| Ok::<_, String>(text.to_owned())),
        TypeRef::Primitive(Primitive::Json | Primitive::File) => quote!(runtime::from_json::<#rust>),
        TypeRef::Primitive(_) => quote!(runtime::from_str::<#rust>),
        TypeRef::Enum(id) if model.enum_(id).is_some_and(|e| e.repr == "string") => quote!(|text: &str| Ok::<_, String>(#rust::from(text))),
        TypeRef::Enum(_) => quote!(|text: &str| runtime::from_str::<i64>(text).map(#rust::from_value)),
        _ => quote!(runtime::from_json_or_text::<#rust>),
    }
}

fn handler(model: &Model, e: &Endpoint) -> TokenStream {
    let name = names::handler(e);
    let inner = names::inner_handler(e);
    let module = module_ident(e);
    let has_path = !e.path_params.is_empty();
    let params_arg = has_path.then(|| quote!(params: Result<RawPathParams, RawPathParamsRejection>,));
    let params_pass = has_path.then(|| quote!(params,));
    let mut steps = Vec::new();
    let mut required: Vec<Ident> = Vec::new();
    if has_path {
        steps.push(quote!(let params = runtime::path_params(params).map_err(runtime::rejected)?;));
        let mixed = mixed_segments(e);
        steps.extend(mixed.iter().map(split_step));
        for f in &e.path_params {
            let ident = local("path", f);
            let (key, pointer) = (axum_name(f), format!("/path/{}", pointer_token(f.wire())));
            let parse = parser(model, f);
            match mixed.iter().find_map(|m| m.params.iter().position(|p| *p == f.name).map(|j| (m, j))) {
                Some((m, j)) => {
                    let segment = format_ident!("segment{}", m.index);
                    steps.push(quote!(let #ident = runtime::segment_param(#segment[#j], #pointer, &mut violations, #parse);));
                }
                None => steps.push(quote!(let #ident = runtime::param(&params, #key, #pointer, true, &mut violations, #parse);)),
            }
            required.push(ident);
        }
    }
    if !e.query.is_empty() {
        steps.push(quote!(let query = runtime::query_pairs(parts.uri.query(), &mut violations);));
        for f in &e.query {
            let ident = local("query", f);
            let (key, pointer) = (f.wire(), format!("/query/{}", pointer_token(f.wire())));
            let is_required = !(f.optional || f.required_when.is_some() || f.nullable);
            let parse = parser(model, f);
            let value = http::query_list(model, f).unwrap_or_else(|| quote!(runtime::param(&query, #key, #pointer, #is_required, &mut violations, #parse)));
            let value = as_declared(model, f, &quote!(types), value);
            steps.push(quote!(let #ident = #value;));
            if is_required {
                required.push(ident);
            }
        }
    }
    steps.extend(http::header_steps(model, e, &mut required));
    if has_body(e) {
        steps.push(quote!(let bytes = runtime::read_body(&parts.headers, body, app.body_limit, app.body_timeout).await.map_err(runtime::rejected)?;));
        steps.push(if let Some(body) = http::body_steps(model, e) {
            body
        } else if raw_body(e) {
            quote!(let body = Some(runtime::raw_body(&parts.headers, bytes));)
        } else if optional_body(e) && e.body_format() == "form" {
            quote!(let body: Option<endpoint::Body> = runtime::optional_body(&bytes, |bytes| Ok(runtime::form_body(bytes, &mut violations))).map_err(runtime::rejected)?;)
        } else if optional_body(e) {
            quote!(let body: Option<endpoint::Body> = runtime::optional_body(&bytes, |bytes| runtime::json_body(bytes, &mut violations)).map_err(runtime::rejected)?;)
        } else if e.body_format() == "form" {
            quote!(let body: Option<endpoint::Body> = runtime::form_body(&bytes, &mut violations);)
        } else {
            quote!(let body: Option<endpoint::Body> = runtime::json_body(&bytes, &mut violations).map_err(runtime::rejected)?;)
        });
        required.push(format_ident!("body"));
    }
    let unpack = match required.len() {
        0 => quote!(),
        1 => {
            let r = &required[0];
            quote!(let Some(#r) = #r else { return Err(runtime::invalid(violations)) };)
        }
        _ => quote!(let (#(Some(#required)),*) = (#(#required),*) else { return Err(runtime::invalid(violations)) };),
    };
    let fields_of = |part: &str, list: &[Field]| -> Vec<TokenStream> {
        list.iter()
            .map(|f| {
                let (field, value) = (names::field(f), local(part, f));
                quote!(#field: #value)
            })
            .collect()
    };
    let (path_fields, query_fields) = (fields_of("path", &e.path_params), fields_of("query", &e.query));
    let mut parts_init = Vec::new();
    if has_path {
        parts_init.push(quote!(path: endpoint::Path { #(#path_fields),* }));
    }
    if !e.query.is_empty() {
        parts_init.push(quote!(query: endpoint::Query { #(#query_fields),* }));
    }
    if !e.headers.is_empty() {
        parts_init.push(http::headers_init(e));
    }
    if has_body(e) {
        parts_init.push(quote!(body));
    }
    let variant = names::endpoint_variant(e);
    let operation = if has_path { quote!(Operation::#variant(input.path.clone())) } else { quote!(Operation::#variant) };
    let runtime_checks = runtime_checks(model, e);
    // `applies_to: bots` means a call with the token kind whose id is `bot`, named as the naming
    // layer names it (a `rust_name` renames it).
    let bot = match model.token_kinds.iter().find(|k| k.meta.id == "bot") {
        Some(kind) => {
            let variant = names::token_kind_variant(kind);
            quote!(credential.kind == types::auth::TokenKind::#variant)
        }
        None => quote!(false),
    };
    let gates = if gated(e).is_empty() { quote!(()) } else { quote!(endpoint::Gates::at(now)) };
    // Made only here, after `authorize` returned: the proof follows the evaluation.
    let granted = if guarded(model, e) { quote!(crate::api::Granted::new()) } else { quote!(()) };
    let method = names::api_method(e);
    let check = checks_response(e).then(|| {
        quote! {
            let broken = endpoint::check_response(&output);
            if !broken.is_empty() {
                return Err(runtime::broken_response(broken));
            }
        }
    });
    let respond = match response_kind(e) {
        _ if e.has_status_responses() => http::respond_by_status(model, e, &method),
        ResponseKind::Json => quote! {
            let output = Api::#method(&app.api, call).await?;
            #check
            Ok(runtime::json_response(StatusCode::OK, &output))
        },
        ResponseKind::Text => quote! {
            let output = Api::#method(&app.api, call).await?;
            #check
            Ok(runtime::text_response(output, "text/csv"))
        },
        ResponseKind::Empty => quote! {
            Api::#method(&app.api, call).await?;
            Ok(runtime::empty_response())
        },
    };
    let parts_pattern = if has_body(e) { quote!((parts, body)) } else { quote!((parts, _)) };
    // A raw body is taken as it comes: only parameters and parsed bodies add violations.
    let collects = has_path || !e.query.is_empty() || !e.headers.is_empty() || (has_body(e) && !raw_body(e));
    let collecting = collects.then(|| quote!(mut));
    let parse = (!steps.is_empty()).then(|| {
        quote! {
            let #collecting violations = Vec::new();
            #(#steps)*
            if !violations.is_empty() {
                return Err(runtime::invalid(violations));
            }
            #unpack
        }
    });
    let mutable = (!runtime_checks.is_empty()).then(|| quote!(mut));
    let credential = http::credential_steps(e);
    let scopes = http::scope_check(model, e, &operation);
    // An endpoint that accepts anonymous calls has no rule and no check that needs a caller
    // (validation makes sure), so only its scopes are checked, for a bearer token.
    let checks = if e.accepts_anonymous() {
        quote! {
            let violations = input.validate();
            if !violations.is_empty() {
                return Err(runtime::invalid(violations));
            }
            #scopes
        }
    } else {
        quote! {
            let #mutable violations = input.validate();
            let operation = #operation;
            let cx = RuleContext { caller: &caller, credential: &credential, operation: &operation, now };
            #runtime_checks
            if !violations.is_empty() {
                return Err(runtime::invalid(violations));
            }
            authorize(&app.api, &cx, endpoint::RULES, #bot).await?;
            #scopes
        }
    };
    let doc = route_doc(e);
    let own = deprecations::endpoint(e).map(|w| w.ident);
    let own_lifetime = lifetime(model, &e.meta);
    let own_list = own.iter().map(|i| quote!(&types::deprecations::#i));
    let aliases = e.aliases.iter().enumerate().map(|(i, a)| {
        let alias = names::alias_handler(e, a);
        let alias_doc = format!(
            " `{} {}`: an alias route of `{}`.",
            a.method.as_ref().or(e.method.as_ref()).map(|m| m.id.as_str()).unwrap_or_default(),
            a.path.id,
            e.meta.id
        );
        let gone = lifetime(model, &e.meta).into_iter().chain(lifetime(model, &a.meta));
        let listed = deprecations::aliases(e).into_iter().find(|(j, _)| *j == i).map(|(_, w)| w.ident);
        let fixed = listed.iter().chain(own.iter()).map(|i| quote!(&types::deprecations::#i));
        quote! {
            #[doc = #alias_doc]
            async fn #alias<A: Api>(State(app): State<Arc<App<A>>>, #params_arg request: HttpRequest) -> Response {
                let now = app.clock.now();
                #(#gone)*
                let notices = Notices::default();
                let response = respond(#inner(&app, now, &notices, #params_pass request).await);
                deprecated(&app, response, &[#(#fixed),*], &notices)
            }
        }
    });
    quote! {
        #[doc = #doc]
        async fn #name<A: Api>(State(app): State<Arc<App<A>>>, #params_arg request: HttpRequest) -> Response {
            let now = app.clock.now();
            #own_lifetime
            let notices = Notices::default();
            let response = respond(#inner(&app, now, &notices, #params_pass request).await);
            deprecated(&app, response, &[#(#own_list),*], &notices)
        }

        #(#aliases)*

        async fn #inner<A: Api>(app: &App<A>, now: Timestamp, notices: &Notices, #params_arg request: HttpRequest) -> Result<Response, ApiError> {
            use types::endpoints::#module as endpoint;
            let #parts_pattern = request.into_parts();
            #credential
            #parse
            let input = endpoint::Request { #(#parts_init),* };
            #checks
            let call = Call { caller, credential, now, input, gates: #gates, granted: #granted, deprecations: notices.clone() };
            #respond
        }
    }
}

/// The local a path or query parameter is parsed into (`query_limit`): prefixed by its part,
/// so no parameter name meets another part's or a variable of the handler.
fn local(part: &str, f: &Field) -> Ident {
    format_ident!("{part}_{}", names::field(f).to_string().trim_start_matches("r#"))
}

/// The name of a path parameter in the axum route (`{channel_id}`), as `RawPathParams` keys it.
fn axum_name(f: &Field) -> String {
    names::field(f).to_string().trim_start_matches("r#").to_owned()
}

/// The local holding the path of a placeholder's address (`prefix_base_url`).
fn prefix_local(model: &Model, placeholder: &str) -> Ident {
    format_ident!("prefix_{}", names::placeholder_id(model, placeholder).to_string().trim_start_matches("r#"))
}

/// A route answers 404 outside its item's lifetime: before its `since` change takes effect and
/// from its `until` change on, as if it were not routed at all.
fn lifetime(model: &Model, meta: &crate::model::Meta) -> Option<TokenStream> {
    let since = meta.since.as_ref().map(|r| {
        let c = names::change_const_id(model, &r.id);
        quote!(!types::changes::#c.is_in_effect(now))
    });
    let until = meta.until.as_ref().map(|r| {
        let c = names::change_const_id(model, &r.id);
        quote!(types::changes::#c.is_in_effect(now))
    });
    let outside: Vec<TokenStream> = since.into_iter().chain(until).collect();
    (!outside.is_empty()).then(|| {
        quote! {
            if #(#outside)||* {
                return not_found().await;
            }
        }
    })
}

/// The run-time checks of an endpoint: values asked of the implementation, then checked.
fn runtime_checks(model: &Model, e: &Endpoint) -> TokenStream {
    let inputs = runtime_inputs(model, e);
    if inputs.is_empty() {
        return quote!();
    }
    let fields = inputs.iter().map(|i| match i {
        RuntimeInput::Bound { name, endpoint, field } => {
            let hook = names::api_bound_hook(model, endpoint, field);
            quote!(#name: Some(Api::#hook(&app.api, &cx).await?))
        }
        RuntimeInput::Condition { name, cond } => {
            let call = condition_call(model, cond);
            quote!(#name: ask(&app.api, &cx, #call).await?)
        }
    });
    quote! {
        let runtime_values = endpoint::Runtime { #(#fields),* };
        violations.extend(input.validate_runtime(&runtime_values));
    }
}

/// A JSON pointer reference token (RFC 6901).
fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// `text` with its first letter in lower case, to continue a sentence.
fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bound, Cond, Ref};

    /// The fixture spec, with a routed query parameter whose bound is another endpoint's response
    /// field and which a condition makes required: the shape of the shipped spec's `shard`,
    /// which no routed endpoint has yet.
    fn model_with_runtime_checks() -> Model {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/minimal");
        let mut model = crate::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid")).model;
        let list = model.endpoints.iter_mut().find(|e| e.meta.id == "list_widgets").expect("the fixture routes list_widgets");
        let page = &mut list.query[0];
        let named = |id: &str| Ref { id: id.to_owned(), span: Default::default() };
        page.constraints.max_exclusive = Some(Bound::Field { endpoint: named("delete_widget"), field: "pages".to_owned(), offset: 0 });
        page.required_when = Some(Cond::Named { condition: named("caller_owns_widget"), arg: None });
        model
    }

    fn file<'f>(files: &'f [GeneratedFile], path: &str) -> &'f str {
        &files.iter().find(|f| f.path == path).unwrap_or_else(|| panic!("{path} is emitted")).contents
    }

    #[test]
    fn run_time_bounds_and_conditions_are_asked_of_the_implementation() {
        let model = model_with_runtime_checks();
        let server = emit(&model, &EmitOptions::default());
        let api = file(&server, "server/src/api.rs");
        assert!(api.contains("fn delete_widget_pages("), "a hook reads the bound:\n{api}");
        let router = file(&server, "server/src/router.rs");
        assert!(router.contains("delete_widget_pages: Some(Api::delete_widget_pages(&app.api, &cx).await?)"), "{router}");
        assert!(router.contains("caller_owns_widget: ask(&app.api, &cx, Condition::CallerOwnsWidget).await?"), "{router}");
        assert!(router.contains("violations.extend(input.validate_runtime(&runtime_values));"), "{router}");
        let types = super::super::types::emit(&model, &EmitOptions::default());
        let endpoints = file(&types, "types/src/endpoints.rs");
        assert!(endpoints.contains("pub delete_widget_pages: Option<i64>,"), "{endpoints}");
        assert!(endpoints.contains("\"is required\"") || endpoints.contains("crate::validation::required("), "{endpoints}");
    }

    #[test]
    fn without_run_time_checks_no_hook_is_asked_for() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/minimal");
        let model = crate::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid")).model;
        let server = emit(&model, &EmitOptions::default());
        assert!(!file(&server, "server/src/router.rs").contains("validate_runtime"));
    }
}
