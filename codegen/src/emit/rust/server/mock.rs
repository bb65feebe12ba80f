//! `mock.rs` of the server crate (feature `mock`): an implementation of the `Api` trait for any
//! spec, so that a spec no one has implemented runs as a server.
//!
//! The mock accepts every credential, grants every permission, intent and scope, answers every
//! named condition `false`, and answers each endpoint with its first success status (the first
//! `2xx` declared, else the first status declared). Bodies and headers are built from the
//! shapes: a field's `example` where the spec gives one that meets its constraints, otherwise a
//! value chosen here, when generating, to meet them: the smallest number in the bounds, a text
//! of the allowed length (one matching the field's `pattern`, found by walking the pattern's
//! syntax tree with `regex-syntax` and checked with `regex`), the first value of an enum (or of
//! its `subset`, or its `const`), the first variant of a union, one element per array. Optional
//! members are left out, which keeps answers small and every cycle of shapes finite; builders
//! take a depth, and past it arrays are empty and unions take a variant that holds no shape.

use super::api::{asked_conditions, bound_hooks, endpoint_method, guarded, hooks};
use super::routed;
use crate::emit::rust::shared::{Shape, needs_box};
use crate::emit::rust::types::literals::literal_tokens;
use crate::emit::rust::types::responses::resolve_at;
use crate::model::bounds::{Resolved, resolve};
use crate::model::types::Primitive;
use crate::model::*;
use crate::plan::rust::names::ResponseNames as Names;
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

/// How deep builders nest shapes with elements before they stop adding elements.
const DEPTH: u8 = 2;

/// `mock.rs`.
pub fn mock(plan: &Plan) -> TokenStream {
    let runtime = crate::emit::rust::shared::lib_ident(plan, crate::emit::cargo::RUNTIME);
    let limited = plan.rate_limits.is_some().then(|| limited(plan, &runtime));
    let mut values = Values { plan, queue: Vec::new(), done: BTreeSet::new(), paged: None, resumed: None, link: None };
    let methods = methods(plan, &mut values);
    let deliveries = webhook_events(plan, &mut values);
    let builders = values.builders(&quote!());
    // What only the gateways' mocks build is behind their feature, or it would be dead code.
    let gateways = gateway_mocks(plan, &mut values);
    let builders = [builders, values.builders(&quote!(#[cfg(feature = "gateway")]))];
    // Handlers take a `Call`; a spec without routed endpoints has none.
    let call = (!routed(plan).is_empty()).then(|| {
        quote!(
            use crate::api::Call;
        )
    });
    // The signatures name what `api.rs` has in scope: the proof of guarded endpoints too.
    let granted = routed(plan).iter().any(|e| guarded(plan, e)).then(|| {
        quote!(
            use crate::api::{Granted, granted};
        )
    });
    quote! {
        //! A mock implementation of [`Api`] (feature `mock`): every credential is accepted, the
        //! caller holds every permission, intent and scope, named conditions do not hold, and
        //! each endpoint answers its first success status with values that meet the spec: a
        //! field's `example` where it has one, otherwise one chosen from its shape and
        //! constraints. Optional members are left out.
        //!
        //! [`router`](fn@crate::mock::router) serves it: `axum::serve(listener, platform_server::mock::router())`.
        #![allow(clippy::too_many_lines, unused_variables, reason = "one method per endpoint, and the mock reads no input")]

        use crate::api::{Api, RuleContext};
        #call
        #granted
        use crate::types;
        use crate::types::auth::CredentialRef;
        use crate::types::errors::ApiError;

        /// The mock: it keeps no state.
        #[derive(Clone, Copy, Debug, Default)]
        pub struct Mock;

        /// The router serving [`Mock`] at the spec's addresses. A request may ask for a fault:
        /// `X-Mock-Status: 503` is answered with that status, `X-Mock-Delay-Ms: 250` after that
        /// delay.
        pub fn router() -> axum::Router {
            router_with(crate::Options::default())
        }

        /// The router serving [`Mock`] with `options`, faults as [`router`]'s.
        pub fn router_with(options: crate::Options) -> axum::Router {
            crate::router_with(Mock, options).layer(axum::middleware::from_fn(#runtime::mock::faults))
        }

        #limited

        impl Api for Mock {
            type Caller = ();

            async fn authenticate(&self, credential: CredentialRef<'_>) -> Option<()> {
                Some(())
            }

            #methods
        }

        #deliveries

        #gateways

        #(#builders)*
    }
}

/// `webhook_<id>()` per webhook whose events can be written: one event of each kind it
/// carries, with values that meet the spec, for a sender to deliver.
fn webhook_events(plan: &Plan, values: &mut Values) -> TokenStream {
    let mut out = TokenStream::new();
    for w in plan.delivered_webhooks() {
        let union = names::webhook_event(w);
        let function = quote::format_ident!("webhook_{}", names::webhook_fn(w).to_string().trim_start_matches("r#"));
        let events: Vec<TokenStream> = plan
            .webhook_events(w)
            .map(|(_, e)| {
                let variant = names::event_variant(e);
                let payload = event_example(values, e).unwrap_or_else(|| quote!(serde_json::Value::Object(Default::default())));
                quote!(types::webhooks::#union::#variant(#payload))
            })
            .collect();
        let doc = format!(" One event of each kind the webhook `{}` carries, with values that meet the spec: what a mock platform delivers.", w.meta.id);
        out.extend(quote! {
            #[doc = #doc]
            pub fn #function() -> Vec<types::webhooks::#union> {
                let depth: u8 = 0;
                vec![#(#events),*]
            }
        });
    }
    out
}

/// An event's payload struct with values that meet the spec; `None` for an event whose payload
/// is not shown.
fn event_example(values: &mut Values, e: &Event) -> Option<TokenStream> {
    if !crate::emit::rust::types::events::has_payload(e) {
        return None;
    }
    let ty = names::event_payload(e);
    let fields = values.members(&e.fields, None, quote!(depth));
    Some(quote!(types::events::#ty::from_fields(#fields)))
}

/// Per gateway a session client can speak (feature `gateway` too): `gateway_<id>_events()`, one
/// event of each kind it dispatches; `<Id>Sessions`, a platform side that starts any session
/// with the ready event's example, answers each command with its reply's example and welcomes
/// each new session with the other examples; and `gateway_<id>()`, the hub serving it.
fn gateway_mocks(plan: &Plan, values: &mut Values) -> TokenStream {
    let mut out = TokenStream::new();
    for g in plan.sessions() {
        let union = names::gateway_event(g);
        let stem = names::gateway_fn(g).to_string();
        let stem = stem.trim_start_matches("r#");
        let (events_fn, hub_fn) = (quote::format_ident!("gateway_{stem}_events"), quote::format_ident!("gateway_{stem}"));
        let (sessions, make) = (names::gateway_mock(g), names::gateway_fn(g));
        let example = |values: &mut Values, e: &Event| match event_example(values, e) {
            Some(payload) => quote!(serde_json::to_value(#payload).unwrap_or_default()),
            None => quote!(serde_json::Value::Object(Default::default())),
        };
        let events: Vec<TokenStream> = plan
            .gateway_events(g)
            .map(|(_, e)| {
                let variant = names::event_variant(e);
                let payload = match event_example(values, e) {
                    Some(payload) => quote!(Box::new(#payload)),
                    None => quote!(serde_json::value::to_raw_value(&serde_json::Value::Object(Default::default())).expect("an empty object is JSON")),
                };
                quote!(types::gateways::#union::#variant(#payload))
            })
            .collect();
        let ready_name = g.ready.as_ref().map(|r| r.event.id.as_str()).unwrap_or_default();
        let ready = match plan.gateway_events(g).find(|(name, _)| *name == ready_name) {
            Some((_, e)) => example(values, e),
            None => quote!(serde_json::Value::Object(Default::default())),
        };
        let replies: Vec<TokenStream> = g
            .commands
            .iter()
            .map(|c| {
                let op = plan.opcode(&c.id);
                let code = proc_macro2::Literal::u8_unsuffixed(u8::try_from(op.code).unwrap_or_default());
                let reply = op.reply.as_ref().and_then(|r| plan.gateway_events(g).find(|(_, e)| e.meta.id == r.id));
                match reply {
                    Some((name, e)) => {
                        let payload = example(values, e);
                        quote!(#code => Ok(Some((#name.to_owned(), #payload))),)
                    }
                    None => quote!(#code => Ok(None),),
                }
            })
            .collect();
        let events_doc = format!(" One event of each kind the gateway `{}` dispatches, with values that meet the spec.", g.meta.id);
        let sessions_doc = format!(
            " The mock platform side of the gateway `{}`: any identify starts a session (with the ready event's example), each command is answered with its reply's example, and each new session is welcomed with the example of every other event.",
            g.meta.id
        );
        let hub_doc = format!(" The hub of the gateway `{}` serving [`{sessions}`]: `axum::serve(listener, gateway().router())`.", g.meta.id);
        out.extend(quote! {
            #[doc = #events_doc]
            #[cfg(feature = "gateway")]
            pub fn #events_fn() -> Vec<types::gateways::#union> {
                let depth: u8 = 0;
                vec![#(#events),*]
            }

            #[doc = #sessions_doc]
            #[cfg(feature = "gateway")]
            #[derive(Clone, Copy, Debug, Default)]
            pub struct #sessions;

            #[cfg(feature = "gateway")]
            impl crate::gateways::Sessions for #sessions {
                async fn identify(&self, data: &serde_json::value::RawValue) -> Result<serde_json::Value, crate::gateways::Cause> {
                    let depth: u8 = 0;
                    Ok(#ready)
                }

                async fn command(&self, session: &str, opcode: u8, data: &serde_json::value::RawValue) -> Result<Option<(String, serde_json::Value)>, crate::gateways::Cause> {
                    let depth: u8 = 0;
                    match opcode {
                        #(#replies)*
                        _ => Err(crate::gateways::Cause::UnknownOpcode),
                    }
                }

                fn welcome(&self) -> Vec<(String, serde_json::Value)> {
                    use crate::gateways::GatewayEvent as _;
                    #events_fn()
                        .iter()
                        .filter_map(|e| e.encode().ok())
                        .filter(|(name, _)| name != #ready_name)
                        .map(|(name, data)| (name, serde_json::from_str(data.get()).unwrap_or_default()))
                        .collect()
                }
            }

            #[doc = #hub_doc]
            #[cfg(feature = "gateway")]
            pub fn #hub_fn() -> crate::gateways::Hub<#sessions> {
                crate::gateways::#make(#sessions, crate::gateways::Options::default())
            }
        });
    }
    out
}

/// `ROUTES` and `router_limited`: the mock enforcing a budget per rate-limit bucket, with the
/// spec's headers.
fn limited(plan: &Plan, runtime: &Ident) -> TokenStream {
    let routes = routed(plan).into_iter().map(|e| {
        let id = &e.meta.id;
        let module = names::endpoint_module(e);
        quote!(#runtime::mock::Route { endpoint: #id, method: types::endpoints::#module::METHOD, path: types::endpoints::#module::PATH })
    });
    let whole = whole_seconds(plan).then(|| quote!(.with_whole_seconds()));
    quote! {
        pub use #runtime::mock::{Budget, Limits};

        /// Every route, for telling which endpoint a request calls.
        pub const ROUTES: &[#runtime::mock::Route] = &[#(#routes),*];

        /// The router serving [`Mock`] that pushes back: each rate-limit bucket (an endpoint and
        /// the values of its major parameters) allows `budget`, the spec's global limit holds
        /// across them, every answer carries the spec's rate-limit headers, and a call past a
        /// budget is answered `429`. The [`Limits`](#runtime::mock::Limits) count the calls
        /// refused.
        pub fn router_limited(options: crate::Options, budget: #runtime::mock::Budget) -> (axum::Router, #runtime::mock::Limits) {
            let limits = #runtime::mock::Limits::new(types::rate_limits::POLICY, budget, ROUTES)#whole;
            let enforcing = limits.clone();
            let router = router_with(options).layer(axum::middleware::from_fn(move |request, next| enforcing.clone().enforce(request, next)));
            (router, limits)
        }
    }
}

/// Whether some response declares the header of the rate limits' `reset_after` role, or
/// `Retry-After`, an integer: the mock then writes waits in whole seconds, as declared.
fn whole_seconds(plan: &Plan) -> bool {
    let Some(r) = &plan.rate_limits else { return false };
    let names: Vec<&str> = r.header("reset_after").into_iter().chain(["Retry-After"]).collect();
    plan.all_responses()
        .into_iter()
        .flat_map(|resp| plan.header_fields(resp))
        .any(|h| names.iter().any(|n| n.eq_ignore_ascii_case(h.wire())) && crate::model::is_integer(h.ty.as_ref()))
}

/// The trait's methods, each with its mock body, from the same signatures the trait declares.
fn methods(plan: &Plan, values: &mut Values) -> TokenStream {
    let mut all = hooks(plan);
    let endpoints = routed(plan);
    for e in &endpoints {
        all.extend(endpoint_method(plan, e));
    }
    let items: syn::File = syn::parse2(quote!(trait T { #all })).expect("BUG: trait items parse");
    let Some(syn::Item::Trait(t)) = items.items.first() else { unreachable!("BUG: one trait was parsed") };
    let conditions: Vec<String> = asked_conditions(plan).iter().map(|c| names::api_hook(c).to_string()).collect();
    let bounds: Vec<String> = bound_hooks(plan).iter().map(|(n, _, _)| n.to_string()).collect();
    let mut out = TokenStream::new();
    for item in &t.items {
        let syn::TraitItem::Fn(f) = item else { continue };
        let mut sig = f.sig.clone();
        let name = sig.ident.to_string();
        let body = match name.as_str() {
            "permissions" => quote!(Ok(types::permissions::Permission::ALL.to_vec())),
            "intents" => quote!(Ok(types::auth::Intent::ALL.to_vec())),
            "scopes" => quote!(Ok(types::auth::Scope::ALL.to_vec())),
            n if conditions.iter().any(|c| c == n) => quote!(Ok(false)),
            n if bounds.iter().any(|b| b == n) => quote!(Ok(1)),
            n => match endpoints.iter().find(|e| names::api_method(e) == n) {
                Some(e) => {
                    let answer = values.answer(e);
                    quote!(let depth: u8 = 0; #answer)
                }
                None => unreachable!("BUG: every trait method is a hook or an endpoint"),
            },
        };
        // The mock reads none of its arguments, but a paginated endpoint's query and a resumed
        // stream's last event id.
        let paged = endpoints.iter().any(|e| names::api_method(e) == name && (paged(plan, e) || e.last_event_header().is_some()));
        for input in sig.inputs.iter_mut().filter(|_| !paged) {
            if let syn::FnArg::Typed(t) = input {
                *t.pat = syn::parse_quote!(_);
            }
        }
        let output = match &sig.output {
            syn::ReturnType::Type(_, ty) => future_output(ty),
            syn::ReturnType::Default => None,
        };
        sig.asyncness = Some(Default::default());
        if let Some(out_ty) = output {
            sig.output = syn::parse_quote!(-> #out_ty);
        }
        out.extend(quote!(#sig { #body }));
    }
    out
}

/// Whether the mock answers `e` with pages cut from a collection.
fn paged(plan: &Plan, e: &Endpoint) -> bool {
    plan.paging(e).is_some_and(|p| p.is_ok())
}

/// The body `value` of a paginated endpoint's answer, cut to the page the call asks for.
fn page_of(value: TokenStream, paginated: &TokenStream) -> TokenStream {
    quote!(types::pagination::mock_page_of(#value, &call.input.query, &<#paginated as types::pagination::Paginated>::PAGINATION))
}

/// `T` of `impl Future<Output = T> + Send`.
fn future_output(ty: &syn::Type) -> Option<syn::Type> {
    let syn::Type::ImplTrait(it) = ty else { return None };
    it.bounds.iter().find_map(|b| {
        let syn::TypeParamBound::Trait(t) = b else { return None };
        let seg = t.path.segments.last()?;
        let syn::PathArguments::AngleBracketed(args) = &seg.arguments else { return None };
        args.args.iter().find_map(|a| match a {
            syn::GenericArgument::AssocType(assoc) if assoc.ident == "Output" => Some(assoc.ty.clone()),
            _ => None,
        })
    })
}

/// The value builders: one function per resource and union an answer needs.
struct Values<'m> {
    plan: &'m Plan<'m>,
    queue: Vec<(bool, String)>,
    done: BTreeSet<(bool, String)>,
    /// For the success answer of a paginated endpoint being built, its `Paginated` impl: the
    /// body is then the page the request asks for, cut from a collection.
    paged: Option<TokenStream>,
    /// For the answer of an endpoint whose stream resumes, the last event id the request gives.
    resumed: Option<TokenStream>,
    /// For the answer of a link-paginated endpoint, the header that links the next page.
    link: Option<Field>,
}

impl<'m> Values<'m> {
    /// The answer of an endpoint.
    fn answer(&mut self, e: &Endpoint) -> TokenStream {
        let module = names::endpoint_module(e);
        self.paged = paged(self.plan, e).then(|| quote!(types::endpoints::#module::Request));
        self.link = self.plan.paging(e).and_then(Result::ok).and_then(|p| p.link);
        self.resumed = e.last_event_header().map(|h| {
            let ident = names::field(h);
            quote!(call.input.headers.#ident.as_deref())
        });
        if !e.has_status_responses() {
            let answer = self.shorthand(e, &module);
            self.paged = None;
            return answer;
        }
        let chosen = e
            .responses
            .iter()
            .find(|r| r.status().is_some_and(|s| matches!(s, Status::Code(200..=299) | Status::Range(2))))
            .or_else(|| e.responses.first())
            .expect("BUG: an endpoint with responses by status has one");
        let status = chosen.status().expect("BUG: validation parses every status");
        let (response, names, path) = resolve_at(self.plan, chosen, quote!(types::endpoints::#module::), quote!(types::responses::));
        let variant = names::status_variant(status);
        if self.plan.paging(e).and_then(Result::ok).and_then(|p| p.answer.status).is_none_or(|s| !std::ptr::eq(s, chosen)) {
            self.paged = None;
        }
        let payload = self.payload(response, &names, &path);
        self.paged = None;
        let code = match status {
            Status::Code(c) => Some(c),
            Status::Range(r) => Some(r * 100),
            Status::Default => Some(200),
        };
        let ranged = !matches!(status, Status::Code(_));
        let value = match (ranged, payload) {
            (false, None) => quote!(types::endpoints::#module::Response::#variant),
            (false, Some(p)) => quote!(types::endpoints::#module::Response::#variant(#p)),
            (true, None) => quote!(types::endpoints::#module::Response::#variant(#code)),
            (true, Some(p)) => quote!(types::endpoints::#module::Response::#variant(#code, #p)),
        };
        quote!(Ok(#value))
    }

    /// The answer of an endpoint with one response (`response`, `response_fields`).
    fn shorthand(&mut self, e: &Endpoint, module: &Ident) -> TokenStream {
        if !e.response_fields.is_empty() {
            let fields = self.members(&e.response_fields, None, quote!(depth));
            let value = self.paged(quote!(types::endpoints::#module::Response::from_fields(#fields)));
            return quote!(Ok(#value));
        }
        if e.response_format == "csv" {
            let header: Vec<&str> = e.response_columns.iter().map(|c| c.wire()).collect();
            let text = format!("{}\n", header.join(","));
            return quote!(Ok(#text.to_owned()));
        }
        match &e.response {
            Some(ty) if e.response_format != "none" => {
                let value = self.value(ty, None, quote!(depth));
                let value = self.paged(value);
                quote!(Ok(#value))
            }
            _ => quote!(Ok(())),
        }
    }

    /// `value`, the body of an answer, cut to a page when the answer is a paginated one's.
    fn paged(&self, value: TokenStream) -> TokenStream {
        match &self.paged {
            Some(paginated) => page_of(value, paginated),
            None => value,
        }
    }

    /// What a response's variant carries: its body, or its body and headers.
    fn payload(&mut self, r: &Response, names: &Names, path: &TokenStream) -> Option<TokenStream> {
        let body = match r.body_kind() {
            BodyKind::Empty => None,
            BodyKind::Text => Some(if r.format == "csv" { quote!("\n".to_owned()) } else { quote!("ok".to_owned()) }),
            BodyKind::Binary => {
                let media = r
                    .media_type()
                    .unwrap_or("application/octet-stream")
                    .replace('*', "octet-stream")
                    .replace("octet-stream/octet-stream", "application/octet-stream");
                // Not empty: a reader parses a structured media type (`application/yaml`), and nothing
                // reads as `null`, no text.
                Some(quote!(types::wire::RawBody { content_type: #media.to_owned(), bytes: b"example".to_vec() }))
            }
            BodyKind::Json if !r.fields.is_empty() => {
                let body = &names.body;
                let fields = self.members(&r.fields, None, quote!(depth));
                Some(quote!(#path #body::from_fields(#fields)))
            }
            BodyKind::Stream(_) => Some(self.events(r, names, path)),
            BodyKind::Json => Some(match &r.ty {
                // A body that may be null is given: the mock shows what the value looks like.
                Some(ty) if r.nullable => {
                    let value = self.value(ty, None, quote!(depth));
                    quote!(Some(#value))
                }
                Some(ty) => self.value(ty, None, quote!(depth)),
                None => quote!(serde_json::Value::Object(Default::default())),
            }),
        };
        let body = body.map(|b| self.paged(b));
        if r.headers.is_empty() {
            return body;
        }
        let headers = self.plan.header_fields(r);
        // A linked page's `Link` header names the next page of the mock's collection.
        let link = match (&self.paged, &self.link) {
            (Some(paginated), Some(link)) => Some((link.name.clone(), paginated.clone())),
            _ => None,
        };
        let mut members = TokenStream::new();
        for h in &headers {
            let value = match &link {
                Some((name, paginated)) if *name == h.name => {
                    let value = quote!(types::pagination::mock_link(&call.input.query, &<#paginated as types::pagination::Paginated>::PAGINATION));
                    if h.may_be_absent() || h.nullable { value } else { quote!(#value.unwrap_or_default()) }
                }
                _ => self.member(h, false, quote!(depth)),
            };
            members.extend(quote!(#value,));
        }
        let (h, resp) = (&names.headers, &names.response);
        let body = body.map(|b| quote!(body: #b,));
        Some(quote!(#path #resp { #body headers: #path #h::from_fields(#members) }))
    }

    /// The events of a streamed answer, numbered from 1: an example of each event the spec
    /// names, or three of the one type every message holds; a resumed stream goes on after the
    /// last event id the request gives.
    fn events(&mut self, r: &Response, names: &Names, path: &TokenStream) -> TokenStream {
        let event = &names.event;
        let values: Vec<TokenStream> = if r.events.is_empty() {
            let one = match &r.ty {
                Some(ty) if r.nullable => {
                    let value = self.value(ty, None, quote!(depth));
                    quote!(Some(#value))
                }
                Some(ty) => self.value(ty, None, quote!(depth)),
                None => quote!(serde_json::Value::Object(Default::default())),
            };
            vec![one.clone(), one.clone(), one]
        } else {
            r.events
                .iter()
                .map(|e| {
                    let variant = names::stream_event_variant(e);
                    let value = e.ty.as_ref().map_or_else(|| quote!(serde_json::Value::Object(Default::default())), |t| self.value(t, None, quote!(depth)));
                    quote!(#path #event::#variant(#value))
                })
                .collect()
        };
        let after = self.resumed.clone().unwrap_or_else(|| quote!(None));
        quote!(types::stream::Events::numbered_after(vec![#(#values),*], #after))
    }

    /// `value,` for each field of a struct, in order (the arguments of its `from_fields`):
    /// required ones with a value, optional ones absent unless they have an example.
    fn members(&mut self, fields: &[Field], owner: Option<Shape<'_>>, depth: TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        for f in fields {
            let boxed = owner.is_some_and(|o| f.ty.as_ref().is_some_and(|t| needs_box(self.plan, o, t)));
            let value = self.member(f, boxed, depth.clone());
            out.extend(quote!(#value,));
        }
        out
    }

    /// The value of one member, in the Rust type its presence gives it.
    fn member(&mut self, f: &Field, boxed: bool, depth: TokenStream) -> TokenStream {
        let Some(ty) = &f.ty else { return quote!(Default::default()) };
        let wrap = |v: TokenStream| if boxed { quote!(Box::new(#v)) } else { v };
        if f.three_state() {
            return match self.example(f) {
                Some(v) => {
                    let v = wrap(v);
                    quote!(types::wire::Presence::Value(#v))
                }
                None => quote!(types::wire::Presence::Absent),
            };
        }
        if f.defaulted() {
            let d = f.default.as_ref().expect("BUG: a defaulted field has a default");
            return wrap(literal_tokens(self.plan, ty, &d.value, &quote!(types)));
        }
        if f.may_be_absent() {
            return match self.example(f) {
                Some(v) => {
                    let v = wrap(v);
                    quote!(Some(#v))
                }
                None => quote!(None),
            };
        }
        // A required member that holds its own shape again: `null` where allowed ends it.
        if boxed && f.nullable {
            return quote!(None);
        }
        let v = wrap(self.value(ty, Some(f), depth));
        if f.nullable { quote!(Some(#v)) } else { v }
    }

    /// The field's example as a value of its type, when it is one and meets its constraints.
    fn example(&mut self, f: &Field) -> Option<TokenStream> {
        let example = f.example.as_ref()?;
        let ty = f.ty.as_ref()?;
        scalar_literal(self.plan, ty, f, &example.value)
    }

    /// A value of `ty` meeting the rules of `f` (its constraints, constant, subset, example).
    fn value(&mut self, ty: &TypeRef, f: Option<&Field>, depth: TokenStream) -> TokenStream {
        if let Some(f) = f {
            if let Some(c) = &f.constant {
                return literal_tokens(self.plan, ty, &c.value, &quote!(types));
            }
            if let Some(v) = self.example(f) {
                return v;
            }
        }
        let c = f.map(|f| &f.constraints);
        match ty {
            TypeRef::Primitive(p) => self.primitive(*p, f),
            TypeRef::Enum(id) => {
                let e = self.plan.enum_(id).expect("BUG: validation resolves every enum");
                let name = names::enum_type(e);
                let first = f
                    .and_then(|f| f.subset.first())
                    .map(|r| r.id.clone())
                    .or_else(|| e.values.iter().find(|v| e.repr == "string" || v.value.is_some()).map(|v| v.meta.id.clone()));
                match first {
                    Some(v) => {
                        let variant = self.plan.enum_variant(id, &v);
                        quote!(types::enums::#name::#variant)
                    }
                    // An enum without a known value: its catch-all.
                    None if e.repr == "string" => {
                        let other = names::catch_all(e);
                        quote!(types::enums::#name::#other("unknown".to_owned()))
                    }
                    None => {
                        let other = names::catch_all(e);
                        quote!(types::enums::#name::#other(0))
                    }
                }
            }
            TypeRef::Flags(id) => {
                let name = self.plan.flags_type(id);
                quote!(types::flags::#name::from_bits(0))
            }
            TypeRef::Object(id) => {
                let builder = self.builder(false, id);
                quote!(#builder(#depth.saturating_add(1)))
            }
            TypeRef::Union(id) => {
                let builder = self.builder(true, id);
                quote!(#builder(#depth.saturating_add(1)))
            }
            TypeRef::Class(_) => quote!(serde_json::Value::Null),
            TypeRef::Array(inner) => {
                let min = c.and_then(|c| c.min_items.as_ref()).and_then(|b| static_bound(self.plan, b, false)).unwrap_or(0).max(0);
                let max = c.and_then(|c| c.max_items.as_ref()).and_then(|b| static_bound(self.plan, b, true));
                let unique = c.is_some_and(|c| c.unique_items);
                let items = f.and_then(|f| f.items.as_ref());
                let element = self.element(inner, items, depth.clone());
                // One element, or the minimum; none past the depth unless the minimum needs them.
                let wanted = if max == Some(0) { 0 } else { min.max(1) };
                let wanted = if unique { wanted.min(1).max(min.min(1)) } else { wanted };
                let min_tokens = proc_macro2::Literal::i64_unsuffixed(min.min(wanted));
                let wanted_tokens = proc_macro2::Literal::i64_unsuffixed(wanted);
                let count = if min.min(wanted) == wanted { quote!(#wanted_tokens) } else { quote!(if #depth < #DEPTH { #wanted_tokens } else { #min_tokens }) };
                quote!({
                    let count: i64 = #count;
                    (0..count).map(|_| #element).collect::<Vec<_>>()
                })
            }
            TypeRef::Map(key, value) => {
                let min = c.and_then(|c| c.min_entries.as_ref()).and_then(|b| static_bound(self.plan, b, false)).unwrap_or(0).max(0);
                if min == 0 {
                    return quote!(types::wire::IndexMap::new());
                }
                let items = f.and_then(|f| f.items.as_ref());
                let element = self.element(value, items, depth.clone());
                let keys: Vec<TokenStream> = (0..min).map(|i| self.map_key(key, i)).collect();
                quote!({
                    let mut map = types::wire::IndexMap::new();
                    #(map.insert(#keys, #element);)*
                    map
                })
            }
        }
    }

    /// An element of an array or a value of a map, under its `items` rules.
    fn element(&mut self, ty: &TypeRef, items: Option<&Items>, depth: TokenStream) -> TokenStream {
        let rules = items.map(|i| Field { ty: Some(ty.clone()), constraints: i.constraints.clone(), items: i.items.as_deref().cloned(), ..Field::default() });
        let v = self.value(ty, rules.as_ref(), depth);
        if items.is_some_and(|i| i.nullable) { quote!(Some(#v)) } else { v }
    }

    /// The `i`th key of a map.
    fn map_key(&mut self, key: &TypeRef, i: i64) -> TokenStream {
        match key {
            TypeRef::Primitive(Primitive::Snowflake) => {
                let n = proc_macro2::Literal::u64_unsuffixed(i as u64 + 1);
                quote!(types::wire::Snowflake(#n))
            }
            TypeRef::Primitive(Primitive::Uuid) => {
                let n = proc_macro2::Literal::u128_unsuffixed(i as u128 + 1);
                quote!(types::wire::Uuid(#n))
            }
            TypeRef::Primitive(p) if p.is_integer() => {
                let n = proc_macro2::Literal::i64_unsuffixed(i + 1);
                quote!(#n)
            }
            TypeRef::Enum(id) => {
                let e = self.plan.enum_(id).expect("BUG: validation resolves every enum");
                let name = names::enum_type(e);
                let v = &e.values[(i as usize).min(e.values.len().saturating_sub(1))];
                let variant = names::enum_variant(v);
                quote!(types::enums::#name::#variant)
            }
            _ => {
                let text = format!("key{i}");
                quote!(#text.to_owned())
            }
        }
    }

    fn primitive(&mut self, p: Primitive, f: Option<&Field>) -> TokenStream {
        let c = f.map(|f| &f.constraints);
        match p {
            Primitive::String | Primitive::Csv => {
                if let Some(l) = f.and_then(|f| f.literal.as_ref()) {
                    return quote!(#l.to_owned());
                }
                let preferred = f.and_then(|f| f.format.as_deref()).and_then(format_sample).unwrap_or("example");
                let text = sample_text(self.plan, c, preferred);
                quote!(#text.to_owned())
            }
            Primitive::Url => {
                let text = sample_text(self.plan, c, "https://example.com/");
                quote!(#text.to_owned())
            }
            Primitive::Email => {
                let text = sample_text(self.plan, c, "user@example.com");
                quote!(#text.to_owned())
            }
            Primitive::Boolean => quote!(false),
            Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64 => {
                let n = integer_in(self.plan, c, p);
                let lit = proc_macro2::Literal::i128_unsuffixed(n);
                quote!(#lit)
            }
            Primitive::Number | Primitive::Float32 => {
                let n = number_in(c);
                let lit = if p == Primitive::Float32 { proc_macro2::Literal::f32_suffixed(n as f32) } else { proc_macro2::Literal::f64_suffixed(n) };
                quote!(#lit)
            }
            Primitive::Snowflake => {
                let n = decimal_in(c);
                quote!(types::wire::Snowflake(#n))
            }
            Primitive::StringInteger => {
                let n = decimal_in(c);
                quote!(types::wire::StringInteger(#n))
            }
            Primitive::Timestamp => quote!(types::clock::Timestamp::UNIX_EPOCH),
            Primitive::Date => quote!(types::wire::Date::constant(2024, 1, 1)),
            Primitive::Uuid => quote!(types::wire::Uuid(1)),
            Primitive::Bytes => quote!(types::wire::Bytes(Vec::new())),
            Primitive::File => quote!(Default::default()),
            Primitive::Json => quote!(serde_json::Value::Object(Default::default())),
            Primitive::Null => quote!(()),
        }
    }

    /// The builder function of a resource (`false`) or union (`true`), queued to be emitted.
    fn builder(&mut self, union: bool, id: &str) -> Ident {
        let key = (union, id.to_owned());
        if !self.done.contains(&key) {
            self.done.insert(key.clone());
            self.queue.push(key);
        }
        names::mock_builder(union, id)
    }

    /// Every queued builder, emitting those they queue in turn.
    /// The builders asked for since the last call, each under `attributes`.
    fn builders(&mut self, attributes: &TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        let mut i = 0;
        while i < self.queue.len() {
            let (union, id) = self.queue[i].clone();
            i += 1;
            let builder = if union { self.union_builder(&id) } else { self.resource_builder(&id) };
            out.extend(quote!(#attributes #builder));
        }
        self.queue.clear();
        out
    }

    fn resource_builder(&mut self, id: &str) -> TokenStream {
        let r = self.plan.resource(id).expect("BUG: validation resolves every resource");
        let name = names::resource(r);
        let fn_name = names::mock_builder(false, id);
        let members = self.members(&r.fields, Some(Shape::Resource(id)), quote!(depth));
        let doc = format!(" A `{id}` that meets the spec.");
        quote! {
            #[doc = #doc]
            fn #fn_name(depth: u8) -> types::resources::#name {
                types::resources::#name::from_fields(#members)
            }
        }
    }

    fn union_builder(&mut self, id: &str) -> TokenStream {
        let u = self.plan.union(id).expect("BUG: validation resolves every union");
        let name = names::union_type(u);
        let fn_name = names::mock_builder(true, id);
        // The first variant; past the depth, the first that holds no shape (ends a cycle).
        let first = &u.variants[0];
        let flat = u.variants.iter().find(|v| v.ty.as_ref().is_some_and(|t| !holds_shape(t)));
        let build = |this: &mut Self, v: &Field| -> TokenStream {
            let ident = names::union_variant(v);
            match &v.ty {
                Some(TypeRef::Primitive(Primitive::Null)) => quote!(types::unions::#name::#ident),
                Some(ty) => {
                    let value = this.value(ty, Some(v), quote!(depth));
                    let boxed = needs_box(this.plan, Shape::Union(id), ty);
                    if boxed { quote!(types::unions::#name::#ident(Box::new(#value))) } else { quote!(types::unions::#name::#ident(#value)) }
                }
                None => quote!(types::unions::#name::#ident(serde_json::Value::Null)),
            }
        };
        let first_value = build(self, first);
        let body = match flat.filter(|v| !std::ptr::eq(*v, first)) {
            Some(v) => {
                let flat_value = build(self, v);
                quote!(if depth < #DEPTH { #first_value } else { #flat_value })
            }
            None => first_value,
        };
        let doc = format!(" A `{id}` that meets the spec.");
        quote! {
            #[doc = #doc]
            fn #fn_name(depth: u8) -> types::unions::#name {
                #body
            }
        }
    }
}

/// Whether a value of `ty` holds a resource or union (directly, or in an array or a map).
fn holds_shape(ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Object(_) | TypeRef::Union(_) => true,
        TypeRef::Array(inner) => holds_shape(inner),
        TypeRef::Map(_, v) => holds_shape(v),
        _ => false,
    }
}

/// A bound known when generating.
fn static_bound(plan: &Plan, b: &Bound, upper: bool) -> Option<i64> {
    match resolve(plan, b, upper, false)? {
        Resolved::Static(v) => Some(v),
        Resolved::Runtime { .. } => None,
    }
}

/// The inclusive range the constraints (and the type) allow an integer.
fn integer_bounds(plan: &Plan, c: Option<&Constraints>, p: Primitive) -> (i128, i128) {
    let (floor, ceiling) = match p {
        Primitive::Int32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        Primitive::Uint32 => (0, i128::from(u32::MAX)),
        Primitive::Uint64 => (0, i128::from(u64::MAX)),
        _ => (i128::from(i64::MIN), i128::from(i64::MAX)),
    };
    let Some(c) = c else { return (floor, ceiling) };
    let min = c.min.as_ref().and_then(|b| static_bound(plan, b, false)).map(i128::from);
    let min_ex = c.min_exclusive.as_ref().and_then(|b| static_bound(plan, b, false)).map(|v| i128::from(v) + 1);
    let max = c.max.as_ref().and_then(|b| static_bound(plan, b, true)).map(i128::from);
    let max_ex = c.max_exclusive.as_ref().and_then(|b| static_bound(plan, b, true)).map(|v| i128::from(v) - 1);
    let low = min.into_iter().chain(min_ex).fold(floor, i128::max);
    let high = max.into_iter().chain(max_ex).fold(ceiling, i128::min);
    (low, high)
}

/// The integer closest to 0 the constraints allow.
fn integer_in(plan: &Plan, c: Option<&Constraints>, p: Primitive) -> i128 {
    let (low, high) = integer_bounds(plan, c, p);
    0i128.clamp(low, high.max(low))
}

/// A non-negative decimal for snowflakes and string integers, 1 unless the pattern refuses it.
fn decimal_in(c: Option<&Constraints>) -> proc_macro2::Literal {
    let pattern = c.and_then(|c| c.pattern.as_ref()).and_then(|p| Matcher::new(&p.regex).ok());
    let n = (1u64..1000).find(|n| pattern.as_ref().is_none_or(|r| r.is_match(&n.to_string()))).unwrap_or(1);
    proc_macro2::Literal::u64_unsuffixed(n)
}

/// A number within the bounds (written as floats or integers).
fn number_in(c: Option<&Constraints>) -> f64 {
    let Some(c) = c else { return 0.0 };
    let value = |b: &Option<Bound>| match b {
        Some(Bound::Value(_, v)) => Some(*v as f64),
        Some(Bound::Float(_, v)) => Some(*v),
        _ => None,
    };
    let (min, max, min_ex, max_ex) = (value(&c.min), value(&c.max), value(&c.min_exclusive), value(&c.max_exclusive));
    let mut n = 0.0f64;
    if let Some(m) = min {
        n = n.max(m);
    }
    if let Some(m) = min_ex
        && n <= m
    {
        n = m + max.or(max_ex).map_or(1.0, |hi| ((hi - m) / 2.0).min(1.0));
    }
    if let Some(m) = max {
        n = n.min(m);
    }
    if let Some(m) = max_ex
        && n >= m
    {
        n = m - 1.0;
    }
    n
}

/// A text the constraints accept: `preferred` when it does, else one built from the pattern.
/// A text of a format the generated code does not check but a reader of the document may
/// (JSON Schema's formats, and `ip` for either address), so the mock's texts pass it.
fn format_sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "ipv4" | "ip" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "hostname" | "idn-hostname" => "example.com",
        "uri" | "iri" | "uri-reference" | "iri-reference" => "https://example.com/",
        "uri-template" => "https://example.com/{id}",
        "email" | "idn-email" => "user@example.com",
        "date-time" => "1970-01-01T00:00:00Z",
        "date" => "2024-01-01",
        "time" => "00:00:00Z",
        "duration" => "P1D",
        "uuid" => "00000000-0000-0000-0000-000000000001",
        "regex" => "^example$",
        "json-pointer" => "/example",
        "relative-json-pointer" => "0",
        _ => return None,
    })
}

fn sample_text(plan: &Plan, c: Option<&Constraints>, preferred: &str) -> String {
    let min = c.and_then(|c| c.min_length.as_ref()).and_then(|b| static_bound(plan, b, false)).unwrap_or(0).max(0) as usize;
    let max = c.and_then(|c| c.max_length.as_ref()).and_then(|b| static_bound(plan, b, true)).map(|m| m.max(0) as usize);
    let pattern = c.and_then(|c| c.pattern.as_ref()).map(|p| p.regex.as_str());
    text_matching(pattern, min, max, preferred).unwrap_or_else(|| fit_length(preferred, min, max))
}

/// `preferred` cut or padded to the length bounds.
fn fit_length(preferred: &str, min: usize, max: Option<usize>) -> String {
    let mut s: String = preferred.chars().take(max.unwrap_or(usize::MAX)).collect();
    while s.chars().count() < min {
        s.push('x');
    }
    s
}

/// A text that matches `pattern` and has `min..=max` characters, if one can be found.
pub fn text_matching(pattern: Option<&str>, min: usize, max: Option<usize>, preferred: &str) -> Option<String> {
    let fits = |s: &str| {
        let n = s.chars().count();
        n >= min && max.is_none_or(|m| n <= m)
    };
    let Some(pattern) = pattern else { return Some(fit_length(preferred, min, max)) };
    let regex = Matcher::new(pattern).ok()?;
    let candidate = fit_length(preferred, min, max);
    if regex.is_match(&candidate) && fits(&candidate) {
        return Some(candidate);
    }
    // Look-around only narrows what the rest matches: a text is drawn from the rest and kept
    // when the whole pattern matches it.
    let hir = regex_syntax::Parser::new().parse(&without_look_around(pattern)).ok()?;
    for reps in [1u32, 2, 3, 0, 5, 8, 13, 21, 34, 64] {
        let mut out = String::new();
        if sample(&hir, reps, &mut out) && fits(&out) && regex.is_match(&out) {
            return Some(out);
        }
    }
    None
}

/// `pattern` without its look-around groups (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`), which
/// `regex_syntax` cannot read.
fn without_look_around(pattern: &str) -> String {
    const OPENERS: [&str; 4] = ["(?=", "(?!", "(?<=", "(?<!"];
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while !rest.is_empty() {
        if let Some(opener) = OPENERS.iter().find(|o| rest.starts_with(**o)) {
            rest = &rest[group_end(rest, opener.len())..];
            continue;
        }
        let mut chars = rest.chars();
        let c = chars.next().unwrap_or_default();
        out.push(c);
        // An escaped character is copied whole, so `\(` opens nothing.
        if c == '\\'
            && let Some(next) = chars.next()
        {
            out.push(next);
        }
        rest = chars.as_str();
    }
    out
}

/// The byte offset just past the group of `text` whose contents start at `from`: parentheses
/// nest, escapes and character classes hide them.
fn group_end(text: &str, from: usize) -> usize {
    let (mut depth, mut class, mut escaped) = (1usize, false, false);
    for (i, c) in text[from..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !class => class = true,
            ']' if class => class = false,
            '(' if !class => depth += 1,
            ')' if !class => {
                depth -= 1;
                if depth == 0 {
                    return from + i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// Writes a text `hir` matches: literals as written, a letter or digit of each class where it
/// has one, the first alternative, and `reps` repetitions where the bounds allow.
fn sample(hir: &regex_syntax::hir::Hir, reps: u32, out: &mut String) -> bool {
    use regex_syntax::hir::{Class, HirKind};
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => true,
        HirKind::Literal(l) => match std::str::from_utf8(&l.0) {
            Ok(s) => {
                out.push_str(s);
                true
            }
            Err(_) => false,
        },
        HirKind::Class(Class::Unicode(c)) => {
            let ranges: Vec<(char, char)> = c.ranges().iter().map(|r| (r.start(), r.end())).collect();
            let pick = ['a', 'x', '0', '1', 'A', '-', '_', '.']
                .into_iter()
                .find(|ch| ranges.iter().any(|(s, e)| s <= ch && ch <= e))
                .or_else(|| ranges.iter().find_map(|(s, e)| (*s..=*e).find(|ch| !ch.is_control())));
            match pick {
                Some(ch) => {
                    out.push(ch);
                    true
                }
                None => false,
            }
        }
        HirKind::Class(Class::Bytes(c)) => match c.ranges().iter().flat_map(|r| r.start()..=r.end()).find(|b| b.is_ascii_alphanumeric()) {
            Some(b) => {
                out.push(b as char);
                true
            }
            None => false,
        },
        HirKind::Repetition(r) => {
            let count = reps.max(r.min).min(r.max.unwrap_or(u32::MAX));
            (0..count).all(|_| sample(&r.sub, reps, out))
        }
        HirKind::Capture(c) => sample(&c.sub, reps, out),
        HirKind::Concat(list) => list.iter().all(|h| sample(h, reps, out)),
        HirKind::Alternation(list) => list.first().is_some_and(|h| sample(h, reps, out)),
    }
}

/// An example as a Rust value of a scalar type, when it meets the field's constraints.
fn scalar_literal(plan: &Plan, ty: &TypeRef, f: &Field, value: &serde_json::Value) -> Option<TokenStream> {
    let c = &f.constraints;
    let p = match ty {
        TypeRef::Primitive(p) => *p,
        _ => return None,
    };
    match (p, value) {
        (Primitive::String | Primitive::Url | Primitive::Email, serde_json::Value::String(s)) => {
            let min = c.min_length.as_ref().and_then(|b| static_bound(plan, b, false)).unwrap_or(0).max(0) as usize;
            let max = c.max_length.as_ref().and_then(|b| static_bound(plan, b, true)).map(|m| m.max(0) as usize);
            let n = s.chars().count();
            let pattern_ok = c.pattern.as_ref().is_none_or(|p| Matcher::new(&p.regex).is_ok_and(|r| r.is_match(s)));
            (n >= min && max.is_none_or(|m| n <= m) && pattern_ok).then(|| quote!(#s.to_owned()))
        }
        (Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64, serde_json::Value::Number(n)) => {
            let v = i128::from(n.as_i64()?);
            let (low, high) = integer_bounds(plan, Some(c), p);
            let lit = proc_macro2::Literal::i128_unsuffixed(v);
            (low <= v && v <= high).then(|| quote!(#lit))
        }
        (Primitive::Boolean, serde_json::Value::Bool(b)) => Some(quote!(#b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Oxide's `Name`: a name, but not a UUID (a negative look-ahead).
    const NAME: &str = "^(?![0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$)^[a-z]([a-zA-Z0-9-]*[a-zA-Z0-9]+)?$";

    #[test]
    fn look_around_groups_are_cut_whole() {
        assert_eq!(without_look_around(NAME), "^^[a-z]([a-zA-Z0-9-]*[a-zA-Z0-9]+)?$");
        assert_eq!(without_look_around(r"a(?=b(c)[)])d"), "ad");
        assert_eq!(without_look_around(r"(?<!x)y\(?!z"), r"y\(?!z");
    }

    #[test]
    fn a_text_is_found_for_a_look_ahead_pattern() {
        let matcher = Matcher::new(NAME).expect("fancy-regex compiles it");
        assert_eq!(matcher.engine(), Engine::Backtracking);
        let text = text_matching(Some(NAME), 1, Some(63), "Example").expect("a name");
        assert!(matcher.is_match(&text), "{text}");
        assert!(!matcher.is_match("0b6c1a3e-2f4d-4c5b-9a8e-7d6f5e4c3b2a"));
    }
}
