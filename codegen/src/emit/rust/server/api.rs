//! `api.rs` of the server crate: the `Api` trait (one method per routed endpoint, the hooks
//! rules ask), `Call`, `Granted` and the operation list.

use super::http;
use super::{lowercase_first, routed};
use crate::emit::rust::shared::type_tokens;
use crate::emit::rust::types::deprecations;
use crate::plan::rust::RuntimeInput;

use crate::model::{Endpoint, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The hook that reads a response field of another endpoint (`get_gateway_bot_max_concurrency`).
pub(super) fn bound_hooks(plan: &Plan) -> Vec<(Ident, String, String)> {
    let mut out: Vec<(Ident, String, String)> = Vec::new();
    for e in routed(plan) {
        for input in &plan.facts(e).inputs {
            if let RuntimeInput::Bound { endpoint, field, .. } = input {
                let hook = plan.api_bound_hook(endpoint, field);
                if !out.iter().any(|(n, _, _)| *n == hook) {
                    out.push((hook, endpoint.clone(), field.clone()));
                }
            }
        }
    }
    out
}

/// `api.rs`: the operations, what hooks are asked about, the proof of a rule, `Call`,
/// `Notices` and the `Api` trait.
pub(super) fn api(plan: &Plan) -> TokenStream {
    let routed = routed(plan);
    let operation = operation(&routed);
    let granted = granted(plan, &routed);
    let call = call(plan);
    let notices = notices();
    let api_trait = api_trait(plan, &routed);
    quote! {
        //! The trait an implementation provides: one method per routed endpoint, and the hooks
        //! that permission rules and run-time checks ask.

        use crate::types;
        use crate::types::auth::CredentialRef;
        use crate::types::clock::Timestamp;
        use crate::types::errors::ApiError;
        use std::future::Future;

        #operation

        /// What a hook is asked about: who calls, for which operation, at which instant.
        #[derive(Debug)]
        pub struct RuleContext<'a, C> {
            /// The authenticated caller.
            pub caller: &'a C,
            /// The credential it presented, borrowed from the request.
            pub credential: &'a CredentialRef<'a>,
            /// The operation and its path parameters.
            pub operation: &'a Operation,
            /// The request's instant, read once.
            pub now: Timestamp,
        }

        #granted

        #call

        #notices

        #api_trait
    }
}

/// `Operation`: one variant per routed endpoint, with its path parameters, and `id`.
fn operation(routed: &[&Endpoint]) -> TokenStream {
    let variants = routed.iter().map(|e| {
        let v = names::endpoint_variant(e);
        let module = names::endpoint_module(e);
        let doc = route_doc(e);
        if e.path_params.is_empty() { quote!(#[doc = #doc] #v,) } else { quote!(#[doc = #doc] #v(types::endpoints::#module::Path),) }
    });
    let id_arms = routed.iter().map(|e| {
        let (v, id) = (names::endpoint_variant(e), &e.meta.id);
        if e.path_params.is_empty() { quote!(Self::#v => #id) } else { quote!(Self::#v(_) => #id) }
    });
    let match_self = crate::emit::rust::shared::match_ref(routed.is_empty());
    quote! {
        /// Which operation a request is for, with its path parameters.
        #[derive(Clone, Debug, PartialEq)]
        #[non_exhaustive]
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
    }
}

/// `Granted`, the proof that a rule held, and the markers of the guarded endpoints it is
/// parameterized by.
fn granted(plan: &Plan, routed: &[&Endpoint]) -> TokenStream {
    let markers = routed.iter().filter(|e| guarded(plan, e)).map(|e| {
        let marker = names::endpoint_variant(e);
        let doc = format!(" Endpoint `{}`: {}", e.meta.id, route_doc(e).trim());
        quote!(#[doc = #doc] #[derive(Debug)] pub enum #marker {})
    });
    // Only a spec with a guarded endpoint has a proof to make.
    let granted_new = routed.iter().any(|e| guarded(plan, e)).then(|| {
        quote! {
            impl<E> Granted<E> {
                /// Only the router grants.
                pub(crate) fn new() -> Self {
                    Self { endpoint: ::std::marker::PhantomData }
                }
            }
        }
    });
    quote! {
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
    }
}

/// `Call`: what an endpoint's method is given, its caller and credential optional when some
/// endpoint accepts anonymous calls.
fn call(plan: &Plan) -> TokenStream {
    // With endpoints that accept anonymous calls, the credential is a parameter of `Call` too:
    // those endpoints' calls carry `Option<CredentialRef>` (and an optional caller).
    let anonymous = http::any_anonymous(plan);
    let (credential_param, credential_type) = if anonymous { (quote!(, K = CredentialRef<'a>), quote!(K)) } else { (quote!(), quote!(CredentialRef<'a>)) };
    let call_doc = if anonymous {
        quote! {
            /// One call of an endpoint, after every check passed. An endpoint that accepts
            /// anonymous calls gets `Call<'_, Option<Caller>, Request, G, P, Option<CredentialRef>>`.
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
    // The call borrows from the request (the credential) and from the router (the notices), so
    // the router makes neither a copy of the token nor a shared list for every request.
    quote! {
        #call_doc
        #[derive(Debug)]
        pub struct Call<'a, C, I, G = (), P = () #credential_param> {
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
            pub deprecations: &'a Notices,
        }
    }
}

/// `Notices`: the deprecated things a call used, which the router owns and the handler borrows.
fn notices() -> TokenStream {
    // A mutex (not a `RefCell`) so a handler's future that holds `&Notices` is `Send`. The list
    // is boxed when the first notice comes: the router keeps the `Notices` in every request's
    // future, and 16 bytes there instead of 32 keep the largest of them (a guarded `PUT` with a
    // body) under the 1,032 bytes glibc serves from its per-thread cache.
    quote! {
        /// What a call used that is deprecated: the router adds `Deprecation`, `Sunset` and
        /// `Link` headers for each to the answer.
        #[derive(Debug, Default)]
        #[allow(clippy::box_collection, reason = "an unused list is one null pointer in every request's future, not a `Vec`'s three words")]
        pub struct Notices(std::sync::Mutex<Option<Box<Vec<&'static types::deprecations::Deprecated>>>>);

        impl Notices {
            /// Records that the call carried out `deprecated` (a constant of
            /// `types::deprecations`, usually a deprecated behaviour of the endpoint).
            pub fn used(&self, deprecated: &'static types::deprecations::Deprecated) {
                let mut list = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let list = list.get_or_insert_default();
                if !list.contains(&deprecated) {
                    list.push(deprecated);
                }
            }

            /// Everything recorded, in the order it was reported.
            pub fn list(&self) -> Vec<&'static types::deprecations::Deprecated> {
                self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_deref().cloned().unwrap_or_default()
            }
        }
    }
}

/// The `Api` trait (the hooks, then a method per routed endpoint) and its implementation for
/// `Arc<T>`, which forwards every method.
fn api_trait(plan: &Plan, routed: &[&Endpoint]) -> TokenStream {
    let hooks = hooks(plan);
    let methods: Vec<TokenStream> = routed.iter().map(|e| endpoint_method(plan, e)).collect();
    let delegation = delegation(&hooks, &methods);
    quote! {
        /// A platform implementation. Methods return futures that are `Send`; implement them
        /// with `async fn`.
        #[allow(clippy::wrong_self_convention, reason = "the methods are named after the spec's endpoints (`new`, `from_…`), not conversions")]
        pub trait Api: Send + Sync + 'static {
            /// Who a credential belongs to.
            type Caller: Send + Sync + 'static;

            /// The caller a credential authenticates; `None` answers 401.
            fn authenticate(&self, credential: CredentialRef<'_>) -> impl Future<Output = Option<Self::Caller>> + Send;

            #hooks

            #(#methods)*
        }

        /// A shared implementation is an implementation, so its owner can keep a handle to it.
        impl<T: Api> Api for std::sync::Arc<T> {
            type Caller = T::Caller;

            fn authenticate(&self, credential: CredentialRef<'_>) -> impl Future<Output = Option<Self::Caller>> + Send {
                T::authenticate(self, credential)
            }

            #delegation
        }
    }
}

/// The `Arc<T>` forwarding bodies of trait method declarations: each `fn name(&self, a: A, ..) -> R;`
/// becomes `fn name(&self, a: A, ..) -> R { T::name(self, a, ..) }` (docs dropped).
pub(super) fn delegation(hooks: &TokenStream, methods: &[TokenStream]) -> TokenStream {
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

pub(super) fn route_doc(e: &Endpoint) -> String {
    match (&e.method, &e.path) {
        (Some(m), Some(p)) => format!(" `{} {}`: {}.", m.id, p.id, if e.meta.name.is_empty() { &e.meta.id } else { &e.meta.name }),
        _ => format!(" `{}`.", e.meta.id),
    }
}

pub(super) fn hooks(plan: &Plan) -> TokenStream {
    let mut out = quote! {
        /// The permissions the caller holds where the operation acts.
        fn permissions(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<Vec<types::permissions::Permission>, ApiError>> + Send;
    };
    if !plan.intents.is_empty() {
        out.extend(quote! {
            /// The intents of the caller's app.
            fn intents(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<Vec<types::auth::Intent>, ApiError>> + Send;
        });
    }
    if !plan.scopes.is_empty() {
        out.extend(quote! {
            /// The scopes of the caller's token.
            fn scopes(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<Vec<types::auth::Scope>, ApiError>> + Send;
        });
    }
    for c in asked_conditions(plan) {
        let name = names::api_hook(c);
        // Through the doc writer: a description may hold Markdown lists and tabs.
        let docs = match &c.meta.description {
            Some(d) => crate::emit::rust::format::led_lines(&format!("Whether `{}` holds: ", c.meta.id), &lowercase_first(d)),
            None => vec![format!(" Whether `{}` holds.", c.meta.id)],
        };
        let params = c.params.iter().enumerate().map(|(i, p)| {
            let ident = names::condition_param(p);
            let ty = param_type(plan, c.param_enums.get(i).map(|r| r.id.as_str()));
            quote!(#ident: #ty)
        });
        out.extend(quote! {
            #(#[doc = #docs])*
            fn #name(&self, cx: &RuleContext<'_, Self::Caller> #(, #params)*) -> impl Future<Output = Result<bool, ApiError>> + Send;
        });
    }
    for (name, endpoint, field) in bound_hooks(plan) {
        let doc = format!(" `{field}` of the endpoint `{endpoint}` for the caller: a bound some routed endpoint checks.");
        out.extend(quote! {
            #[doc = #doc]
            fn #name(&self, cx: &RuleContext<'_, Self::Caller>) -> impl Future<Output = Result<i64, ApiError>> + Send;
        });
    }
    out
}

/// The type a condition's argument is passed as: its enum's type, else text.
pub(super) fn param_type(plan: &Plan, enum_id: Option<&str>) -> TokenStream {
    match enum_id.and_then(|id| plan.enum_(id)) {
        Some(e) => type_tokens(plan, &TypeRef::Enum(e.meta.id.clone()), &quote!(types)),
        None => quote!(String),
    }
}

/// The value a condition's argument (an enum value id) is passed as.
pub(super) fn param_value(plan: &Plan, enum_id: Option<&str>, arg: &TokenStream) -> TokenStream {
    match enum_id.and_then(|id| plan.enum_(id)) {
        Some(e) if e.repr == "string" => {
            let ty = type_tokens(plan, &TypeRef::Enum(e.meta.id.clone()), &quote!(types));
            quote!(#ty::from(#arg))
        }
        Some(e) => {
            let ty = type_tokens(plan, &TypeRef::Enum(e.meta.id.clone()), &quote!(types));
            let other = names::catch_all(e);
            quote!(#ty::KNOWN.iter().copied().find(|v| v.id() == Some(#arg)).unwrap_or(#ty::#other(0)))
        }
        None => quote!(#arg.to_owned()),
    }
}

pub(super) fn gates_type(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    let module = names::endpoint_module(e);
    (!plan.facts(e).gates.is_empty()).then(|| quote!(types::endpoints::#module::Gates))
}

/// Whether a permission rule guards the endpoint.
pub(super) fn guarded(plan: &Plan, e: &Endpoint) -> bool {
    !plan.rules_for(&e.meta.id).is_empty()
}

/// The `Call` type parameters after the input: gates and proof, each only when needed.
pub(super) fn call_extras(plan: &Plan, e: &Endpoint) -> TokenStream {
    let gates = gates_type(plan, e);
    if e.accepts_anonymous() {
        // Never guarded (validation makes sure): no proof, an optional credential.
        let gates = gates.unwrap_or_else(|| quote!(()));
        return quote!(, #gates, (), Option<CredentialRef<'_>>);
    }
    if guarded(plan, e) {
        let marker = names::endpoint_variant(e);
        let gates = gates.unwrap_or_else(|| quote!(()));
        quote!(, #gates, Granted<granted::#marker>)
    } else {
        gates.map(|g| quote!(, #g)).unwrap_or_default()
    }
}

pub(super) fn endpoint_method(plan: &Plan, e: &Endpoint) -> TokenStream {
    let name = names::api_method(e);
    let module = names::endpoint_module(e);
    let gates = call_extras(plan, e);
    let mut lines = vec![route_doc(e)];
    if let Some(d) = &e.meta.description {
        lines.push(String::new());
        lines.extend(crate::emit::rust::format::doc_text_lines(d).into_iter().map(|l| format!(" {l}")));
    }
    for b in &plan.facts(e).gates {
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
    lines.push(String::new());
    lines.push(" Not implemented unless the implementation provides it: the default answers 501.".to_owned());
    let caller = if e.accepts_anonymous() { quote!(Option<Self::Caller>) } else { quote!(Self::Caller) };
    let id = &e.meta.id;
    // A default body, so an endpoint added to the spec is not a new required method of every
    // implementation (cargo-semver-checks `trait_method_added`).
    quote! {
        #(#[doc = #lines])*
        fn #name(&self, call: Call<'_, #caller, types::endpoints::#module::Request #gates>) -> impl Future<Output = Result<types::endpoints::#module::Response, ApiError>> + Send {
            let _ = call;
            std::future::ready(Err(crate::runtime::not_implemented(#id)))
        }
    }
}

/// The conditions the router may ask: those of permission rules and of endpoint inputs
/// (`required_when`), in spec order. The implementation gets one hook for each.
pub(super) fn asked_conditions<'p>(plan: &'p Plan<'p>) -> Vec<&'p crate::model::Condition> {
    plan.conditions.iter().filter(|c| plan.asks_condition(&c.meta.id)).collect()
}
