//! `router.rs` of the server crate: the route table, the body limit, the metadata routes and
//! `authorize`; each endpoint's handler is [`super::handler`].

use super::api::{asked_conditions, param_value};
use super::handler::handler;
use super::{prefix_local, routed, segment_key};
use crate::emit::rust::shared::{address_placeholders, endpoint_address};
use crate::plan::rust::ResponseKind;

use crate::model::{Endpoint, Piece, is_mixed, path_segments};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `router.rs`: the router and its machinery, then a handler per routed endpoint.
pub(super) fn router<'p>(plan: &'p Plan<'p>) -> impl Iterator<Item = TokenStream> + 'p {
    let uses = router_uses(plan);
    let defaults = body_defaults(plan);
    let options = options();
    let router_fns = router_fns(plan);
    let answers = answers(plan);
    let authorize = authorize(plan);
    let head = quote! {
        #uses

        #defaults

        #options

        #router_fns

        #answers

        #authorize
    };
    let handlers = routed(plan).into_iter().map(|e| handler(plan, e));
    std::iter::once(head).chain(handlers)
}

/// The module's doc and its `use`s, each import only when some route needs it.
fn router_uses(plan: &Plan) -> TokenStream {
    let routed = routed(plan);
    // A spec that routes no endpoint leaves the request machinery (parsing, rules, the app's
    // state) without a caller.
    let unused = routed.is_empty().then(|| quote!(#![allow(dead_code, unused_imports)]));
    let answers_json = routed.iter().any(|e| matches!(plan.facts(e).response, ResponseKind::Json)) || plan.authorization_server.is_some();
    let status_code = answers_json.then(|| {
        quote!(
            use axum::http::StatusCode;
        )
    });
    let path_params = routed.iter().any(|e| !e.path_params.is_empty()).then(|| {
        quote! {
            use axum::extract::{FromRequestParts, RawPathParams};
            use axum::extract::rejection::RawPathParamsRejection;
        }
    });
    let body_use = routed.iter().any(|e| plan.facts(e).has_body).then(|| {
        quote!(
            use axum::body::Body;
        )
    });
    // Only the metadata routes are handler functions, which take the app as axum's state.
    let state_use = plan.authorization_server.is_some().then(|| {
        quote!(
            use axum::extract::State;
        )
    });
    // An operation and its context are made for rules (endpoints that need a caller) and for
    // the scopes of anonymous ones.
    let operations = routed.iter().any(|e| !e.accepts_anonymous() || !e.scopes.is_empty());
    let api_uses = if operations || routed.is_empty() {
        quote!(
            use crate::api::{Api, Call, Notices, Operation, RuleContext};
        )
    } else {
        quote!(
            use crate::api::{Api, Call, Notices};
        )
    };
    quote! {
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
        #body_use
        #path_params
        use axum::extract::Request as HttpRequest;
        #state_use
        use axum::http::request::Parts;
        #status_code
        use axum::response::Response;
        use std::convert::Infallible;
        use std::sync::Arc;
        use std::time::Duration;
    }
}

/// `DEFAULT_BODY_LIMIT` and `DEFAULT_BODY_TIMEOUT`.
fn body_defaults(plan: &Plan) -> TokenStream {
    let (limit, limit_doc) = body_limit(plan);
    quote! {
        #[doc = #limit_doc]
        pub const DEFAULT_BODY_LIMIT: usize = #limit;

        /// How long the router waits for a request body to arrive, a setting of this server: a
        /// sender slower than this is answered 408 and its connection closed, so that slow
        /// senders cannot hold connections and buffers open.
        pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
    }
}

/// `Options`, its defaults and its setters.
fn options() -> TokenStream {
    quote! {
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
    }
}

/// `App` (the state routes share), `router` and `router_with`, which mounts every route under
/// its address's path.
fn router_fns(plan: &Plan) -> TokenStream {
    let placeholders = address_placeholders(plan);
    let used: Vec<&str> = routed(plan).iter().filter_map(|e| endpoint_address(plan, e)).collect();
    let prefixes = placeholders.iter().filter(|p| used.contains(p)).map(|p| {
        let (field, local) = (plan.placeholder(p), prefix_local(plan, p));
        quote!(let #local = types::placeholders::path_of(&app.placeholders.#field).to_owned();)
    });
    let routes = route_table(plan);
    let issuer = plan.authorization_server.as_ref().map(|_| quote!(let issuer = issuer_path(&app.placeholders);));
    let metadata = metadata_routes(plan);
    // Only a route that reads a body needs the limit at run time.
    let reads_body = routed(plan).iter().any(|e| plan.facts(e).has_body);
    let (limit_field, limit_init) = match reads_body {
        true => (quote!(body_limit: usize, body_timeout: Duration,), quote!(body_limit: options.body_limit, body_timeout: options.body_timeout,)),
        false => (quote!(), quote!()),
    };
    quote! {
        /// The state every route shares.
        struct App<A> {
            api: A,
            clock: Arc<dyn Clock>,
            placeholders: Placeholders,
            #limit_field
        }

        /// The route that serves `handler` with the app.
        fn served<A, F>(app: &Arc<App<A>>, handler: F) -> runtime::Route<Arc<App<A>>, F> {
            runtime::Route::new(Arc::clone(app), handler)
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
    }
}

/// The answers every handler shares: 404, 405, an error as its answer, and the deprecation
/// headers.
fn answers(plan: &Plan) -> TokenStream {
    // Without a docs address there is no `Link` to write, and `app` is not needed.
    let (app_arg, docs) = match &plan.platform.docs {
        Some(r) => {
            let p = plan.placeholder(&r.id);
            (quote!(app), quote!(Some(app.placeholders.#p.as_str())))
        }
        None => (quote!(_app), quote!(None)),
    };
    quote! {
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
    }
}

/// The default body limit: the largest size limit of the spec, else axum's 2 MiB.
pub(super) fn body_limit(plan: &Plan) -> (TokenStream, String) {
    let largest = plan.limits.iter().filter_map(|l| l.upper_bytes().map(|b| (l, b))).max_by_key(|(_, b)| *b);
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
pub fn routes(plan: &Plan) -> Vec<(String, String, Vec<String>)> {
    route_entries(plan).into_iter().map(|(address, path, handlers)| (address, path, handlers.iter().map(|(m, _)| m.to_string()).collect())).collect()
}

/// `.route(...)` calls, one per distinct path (methods of one path share a route): every routed
/// endpoint's own route and its alias routes.
pub(super) fn route_table(plan: &Plan) -> TokenStream {
    let paths = route_entries(plan);
    paths
        .iter()
        .map(|(address, path, handlers)| {
            let mut methods = handlers.iter();
            let (first_method, first_handler) = methods.next().expect("BUG: a route has an endpoint");
            // Through `self::`, which no local variable of `router_with` can shadow.
            let first = names::method_service(first_method);
            let rest = methods.map(|(m, h)| {
                let m = names::method_service(m);
                quote!(.#m(served(&app, self::#h::<A>)))
            });
            let route = match address.is_empty() {
                true => quote!(#path),
                false => {
                    let prefix = prefix_local(plan, address);
                    quote!(&[#prefix.as_str(), #path].concat())
                }
            };
            quote!(.route(#route, axum::routing::#first(served(&app, self::#first_handler::<A>)) #(#rest)*))
        })
        .collect()
}

/// The routes of [`routes`], each with its handlers.
pub(super) fn route_entries(plan: &Plan) -> Vec<RouteEntry> {
    let mut paths: Vec<RouteEntry> = Vec::new();
    for e in routed(plan) {
        let address = endpoint_address(plan, e).unwrap_or_default().to_owned();
        let method = |m: Option<&crate::model::Text>| names::method_router(m.or(e.method.as_ref()).map_or("", |m| m.id.as_str()));
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

/// The axum path of an endpoint's path or alias path: `{channel.id}` becomes `{channel_id}`,
/// the name `RawPathParams` keys the parameter by; a segment that mixes placeholders and text
/// (`{Sid}.json`) becomes one placeholder keyed by its first (`{sid}`), split by the handler.
pub(super) fn axum_path(e: &Endpoint, path: &str) -> String {
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
pub(super) fn metadata_routes(plan: &Plan) -> Option<TokenStream> {
    plan.authorization_server.as_ref()?;
    Some(quote! {
        .route(&["/.well-known/oauth-authorization-server", issuer.as_str()].concat(), axum::routing::get(authorization_server_metadata::<A>))
        .route(&[issuer.as_str(), "/.well-known/openid-configuration"].concat(), axum::routing::get(authorization_server_metadata::<A>))
    })
}

/// `authorize` (rules evaluated against the implementation's answers), `ask` (one condition)
/// and, with an authorization server, its metadata handler.
pub(super) fn authorize(plan: &Plan) -> TokenStream {
    let asked = asked_conditions(plan);
    // Conditions only a case of a payload names are the implementation's to evaluate when it
    // builds the payload; the router never asks them.
    let unasked = (asked.len() < plan.conditions.len())
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
            let values = bound.iter().enumerate().map(|(i, p)| param_value(plan, c.param_enums.get(i).map(|r| r.id.as_str()), &quote!(#p)));
            quote!(Condition::#v { #(#params: #bound),* } => Api::#hook(api, cx #(, #values)*).await)
        }
    });
    let intents = (!plan.intents.is_empty()).then(|| {
        quote! {
            if needs.intents {
                answers.intents = api.intents(cx).await?;
            }
        }
    });
    let scopes = (!plan.scopes.is_empty()).then(|| {
        quote! {
            if needs.scopes {
                answers.scopes = api.scopes(cx).await?;
            }
        }
    });
    let metadata = plan.authorization_server.as_ref().map(|_| {
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
    if !routed(plan).iter().any(|e| !e.accepts_anonymous()) && !routed(plan).is_empty() {
        return metadata.unwrap_or_default();
    }
    let ask = match (arms.is_empty(), unasked.is_some()) {
        // Only conditions the router never asks: no arm to match, the one answer is the bug's.
        (true, true) => {
            quote!(let _ = (api, cx); unreachable!("BUG: the router asks only the conditions of rules and request fields, not `{condition}`"))
        }
        (true, false) => quote!(let _ = (api, cx); match condition {}),
        (false, _) => quote!(match condition { #(#arms,)* #unasked }),
    };
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
