//! The handler of each endpoint in `router.rs`: every mechanical step before the implementation
//! runs (credential, parameters, body, checks, rule), then the answer by status.

use super::api::{guarded, route_doc};
use super::http::{self, parser};
use super::refusals;
use super::{pointer_token, segment_key};
use crate::emit::rust::types::deprecations;
use crate::plan::rust::{ResponseKind, RuntimeInput};

use crate::emit::rust::shared::type_tokens;
use crate::emit::rust::types::literals::as_declared;
use crate::emit::rust::types::rules::condition_call;
use crate::model::{Endpoint, Field, Piece, RouteAlias, TypeRef, is_mixed, path_segments};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// A routed endpoint's handlers: its own route's, one per alias route, then the inner handler
/// they all call.
pub(super) fn handler(plan: &Plan, e: &Endpoint) -> TokenStream {
    // An endpoint that declares its own error bodies answers its errors in them.
    let (respond, refusal) = refusals::refusal(plan, e).map_or_else(|| (format_ident!("respond"), None), |(name, writer)| (name, Some(writer)));
    let h = Handler { plan, e, inner: names::inner_handler(e), respond, has_path: !e.path_params.is_empty() };
    let own = h.own_route();
    let aliases = e.aliases.iter().enumerate().map(|(i, a)| h.alias_route(i, a));
    let inner = h.inner_handler();
    quote! {
        #own

        #(#aliases)*

        #inner

        #refusal
    }
}

/// What the pieces of one endpoint's handlers share.
struct Handler<'a> {
    plan: &'a Plan<'a>,
    e: &'a Endpoint,
    /// The inner handler every route of the endpoint calls.
    inner: Ident,
    /// What answers the inner handler's result: `respond`, or the endpoint's refusal writer.
    respond: Ident,
    /// Whether the path has parameters: every handler of the endpoint then takes them.
    has_path: bool,
}

impl Handler<'_> {
    /// `params: Result<RawPathParams, ..>,`: the argument of every handler of an endpoint whose
    /// path has parameters.
    fn params_arg(&self) -> Option<TokenStream> {
        self.has_path.then(|| quote!(params: Result<RawPathParams, RawPathParamsRejection>,))
    }

    /// The handler of the endpoint's own route, with the endpoint's lifetime and deprecation.
    fn own_route(&self) -> TokenStream {
        let name = names::handler(self.e);
        let gone = lifetime(self.plan, &self.e.meta).into_iter().collect();
        let own = deprecations::endpoint(self.e).map(|w| w.ident);
        let fixed = own.iter().map(|i| quote!(&types::deprecations::#i)).collect();
        self.route(&name, &route_doc(self.e), gone, fixed)
    }

    /// The handler of the endpoint's alias route `i`: the endpoint's lifetime and the alias's,
    /// the alias's deprecation before the endpoint's.
    fn alias_route(&self, i: usize, a: &RouteAlias) -> TokenStream {
        let (plan, e) = (self.plan, self.e);
        let alias = names::alias_handler(e, a);
        let alias_doc = format!(
            " `{} {}`: an alias route of `{}`.",
            a.method.as_ref().or(e.method.as_ref()).map(|m| m.id.as_str()).unwrap_or_default(),
            a.path.id,
            e.meta.id
        );
        let gone = lifetime(plan, &e.meta).into_iter().chain(lifetime(plan, &a.meta)).collect();
        let own = deprecations::endpoint(e).map(|w| w.ident);
        let listed = deprecations::aliases(e).into_iter().find(|(j, _)| *j == i).map(|(_, w)| w.ident);
        let fixed = listed.iter().chain(own.iter()).map(|i| quote!(&types::deprecations::#i)).collect();
        self.route(&alias, &alias_doc, gone, fixed)
    }

    /// `fn <route>`: a route's handler, which answers 404 when `gone`, calls the inner handler
    /// and adds the deprecation headers of `fixed` to its answer. It is served as a tower
    /// service ([`runtime::Route`]), so axum boxes its future alone. The request is split
    /// before the future starts: an async function keeps its arguments for its whole life, so
    /// a request passed down whole would be held twice, and its head a third time as the inner
    /// handler's parts. The path parameters axum matched are read from the head's extensions.
    fn route(&self, name: &Ident, doc: &str, gone: TokenStream, fixed: Vec<TokenStream>) -> TokenStream {
        let inner = &self.inner;
        let has_body = self.plan.facts(self.e).has_body;
        // The head is written to only to read the path parameters out of it.
        let mutable = self.has_path.then(|| quote!(mut));
        let (body, body_pass) = if has_body { (quote!(body), Some(quote!(body))) } else { (quote!(_), None) };
        let params = self.has_path.then(|| quote!(let params = RawPathParams::from_request_parts(&mut parts, &()).await;));
        let params_pass = self.has_path.then(|| quote!(params,));
        let respond = &self.respond;
        quote! {
            #[doc = #doc]
            fn #name<A: Api>(app: Arc<App<A>>, request: HttpRequest) -> impl Future<Output = Result<Response, Infallible>> {
                let (#mutable parts, #body) = request.into_parts();
                async move {
                    let now = app.clock.now();
                    #gone
                    #params
                    let notices = Notices::default();
                    let response = #respond(#inner(&app, now, &notices, #params_pass &parts, #body_pass).await);
                    Ok(deprecated(&app, response, &[#(#fixed),*], &notices))
                }
            }
        }
    }

    /// `async fn <inner>`: the request parsed and checked, the call authorized, then the
    /// implementation's answer.
    fn inner_handler(&self) -> TokenStream {
        let (plan, e, inner) = (self.plan, self.e, &self.inner);
        let module = names::endpoint_module(e);
        let params_arg = self.params_arg();
        let body_arg = plan.facts(e).has_body.then(|| quote!(body: Body,));
        let credential = http::credential_steps(e);
        let parse = self.parse();
        let parts_init = self.request_parts();
        let checks = self.checks();
        let gates = if plan.facts(e).gates.is_empty() { quote!(()) } else { quote!(endpoint::Gates::at(now)) };
        // Made only here, after `authorize` returned: the proof follows the evaluation.
        let granted = if guarded(plan, e) { quote!(crate::api::Granted::new()) } else { quote!(()) };
        let respond = self.respond();
        quote! {
            async fn #inner<A: Api>(app: &App<A>, now: Timestamp, notices: &Notices, #params_arg parts: &Parts, #body_arg) -> Result<Response, ApiError> {
                use types::endpoints::#module as endpoint;
                #credential
                #parse
                let input = endpoint::Request::from_fields(#(#parts_init),*);
                #checks
                let call = Call { caller, credential, now, input, gates: #gates, granted: #granted, deprecations: notices };
                #respond
            }
        }
    }

    /// The path, query, headers and body parsed with every violation collected, then the
    /// required values unpacked; nothing for a request without any of them.
    fn parse(&self) -> Option<TokenStream> {
        let (plan, e) = (self.plan, self.e);
        let mut required: Vec<Ident> = Vec::new();
        let mut steps = self.path_steps(&mut required);
        steps.extend(self.query_steps(&mut required));
        steps.extend(http::header_steps(plan, e, &mut required));
        steps.extend(self.body_steps(&mut required));
        if steps.is_empty() {
            return None;
        }
        // A raw body is taken as it comes: only parameters and parsed bodies add violations.
        let collects = self.has_path || !e.query.is_empty() || !e.headers.is_empty() || (plan.facts(e).has_body && !plan.facts(e).raw_body);
        let collecting = collects.then(|| quote!(mut));
        let unpack = unpack(&required);
        Some(quote! {
            let #collecting violations = Vec::new();
            #(#steps)*
            if !violations.is_empty() {
                return Err(runtime::invalid(violations));
            }
            #unpack
        })
    }

    /// `let path_<name> = ...`: each path parameter, split out of its mixed segment or read
    /// whole; each is required.
    fn path_steps(&self, required: &mut Vec<Ident>) -> Vec<TokenStream> {
        if !self.has_path {
            return Vec::new();
        }
        let mut steps = vec![quote!(let params = runtime::path_params(params).map_err(runtime::rejected)?;)];
        let mixed = mixed_segments(self.e);
        steps.extend(mixed.iter().map(split_step));
        for f in &self.e.path_params {
            let ident = local("path", f);
            let (key, pointer) = (axum_name(f), format!("/path/{}", pointer_token(f.wire())));
            let parse = parser(self.plan, f);
            match mixed.iter().find_map(|m| m.params.iter().position(|p| *p == f.name).map(|j| (m, j))) {
                Some((m, j)) => {
                    let segment = format_ident!("segment{}", m.index);
                    steps.push(quote!(let #ident = runtime::segment_param(#segment[#j], #pointer, &mut violations, #parse);));
                }
                None => steps.push(quote!(let #ident = runtime::param(&params, #key, #pointer, true, &mut violations, #parse);)),
            }
            required.push(ident);
        }
        steps
    }

    /// `let query_<name> = ...`: each query parameter, as its declared type; those neither
    /// optional, conditional nor nullable are required.
    fn query_steps(&self, required: &mut Vec<Ident>) -> Vec<TokenStream> {
        let plan = self.plan;
        if self.e.query.is_empty() {
            return Vec::new();
        }
        // The decoded pairs, which every parameter but a comma list reads; a query of comma
        // lists alone is still decoded once, so a malformed one is refused.
        let pairs = quote!(runtime::query_pairs(parts.uri.query(), &mut violations));
        let mut steps = if self.e.query.iter().all(http::is_comma_list) { vec![quote!(#pairs;)] } else { vec![quote!(let query = #pairs;)] };
        for f in &self.e.query {
            let ident = local("query", f);
            let (key, pointer) = (f.wire(), format!("/query/{}", pointer_token(f.wire())));
            let is_required = !(f.optional || f.required_when.is_some() || f.nullable);
            let parse = parser(plan, f);
            let value = match &f.ty {
                // A union may be a list, whose values come as the name repeated.
                Some(ty @ TypeRef::Union(_)) => {
                    let rust = type_tokens(plan, ty, &quote!(types));
                    quote!(runtime::union_param::<#rust>(&query, #key, #pointer, #is_required, &mut violations))
                }
                _ => http::query_list(plan, f).unwrap_or_else(|| quote!(runtime::param(&query, #key, #pointer, #is_required, &mut violations, #parse))),
            };
            let value = as_declared(plan, f, &quote!(types), value);
            steps.push(quote!(let #ident = #value;));
            if is_required {
                required.push(ident);
            }
        }
        steps
    }

    /// `let bytes = ...; let body = ...`: the body read within the limit and the timeout, then
    /// parsed by its format; it is required.
    fn body_steps(&self, required: &mut Vec<Ident>) -> Vec<TokenStream> {
        let (plan, e) = (self.plan, self.e);
        let facts = plan.facts(e);
        if !facts.has_body {
            return Vec::new();
        }
        let read = quote!(let bytes = runtime::read_body(&parts.headers, body, app.body_limit, app.body_timeout).await.map_err(runtime::rejected)?;);
        let parse = if let Some(body) = http::body_steps(plan, e) {
            body
        } else if facts.raw_body {
            quote!(let body = Some(runtime::raw_body(&parts.headers, bytes));)
        } else if facts.optional_body && e.body_format() == "form" {
            let read = http::form_body(plan, e, quote!(bytes));
            quote!(let body: Option<endpoint::Body> = runtime::optional_body(&bytes, |bytes| Ok(#read)).map_err(runtime::rejected)?;)
        } else if facts.optional_body {
            quote!(let body: Option<endpoint::Body> = runtime::optional_body(&bytes, |bytes| runtime::json_body(bytes, &mut violations)).map_err(runtime::rejected)?;)
        } else if e.body_format() == "form" {
            let read = http::form_body(plan, e, quote!(&bytes));
            quote!(let body: Option<endpoint::Body> = #read;)
        } else if facts.fields_may_be_absent {
            quote!(let body: Option<endpoint::Body> = runtime::json_body(runtime::or_empty_object(&bytes), &mut violations).map_err(runtime::rejected)?;)
        } else {
            quote!(let body: Option<endpoint::Body> = runtime::json_body(&bytes, &mut violations).map_err(runtime::rejected)?;)
        };
        required.push(format_ident!("body"));
        vec![read, parse]
    }

    /// The fields of `endpoint::Request`: the path, the query, the headers and the body, each
    /// only when the endpoint has it.
    fn request_parts(&self) -> Vec<TokenStream> {
        let e = self.e;
        let mut parts_init = Vec::new();
        if self.has_path {
            let path_fields = part_fields("path", &e.path_params);
            parts_init.push(quote!(endpoint::Path::from_fields(#(#path_fields),*)));
        }
        if !e.query.is_empty() {
            let query_fields = part_fields("query", &e.query);
            parts_init.push(quote!(endpoint::Query::from_fields(#(#query_fields),*)));
        }
        if !e.headers.is_empty() {
            parts_init.push(http::headers_init(e));
        }
        if self.plan.facts(e).has_body {
            parts_init.push(quote!(body));
        }
        parts_init
    }

    /// Validation, then the run-time checks and the permission rule, then the scopes.
    fn checks(&self) -> TokenStream {
        let (plan, e) = (self.plan, self.e);
        let variant = names::endpoint_variant(e);
        let operation = if self.has_path { quote!(Operation::#variant(input.path.clone())) } else { quote!(Operation::#variant) };
        let scopes = http::scope_check(plan, e, &operation);
        // An endpoint that accepts anonymous calls has no rule and no check that needs a caller
        // (validation makes sure), so only its scopes are checked, for a bearer token.
        if e.accepts_anonymous() {
            return quote! {
                let violations = input.validate();
                if !violations.is_empty() {
                    return Err(runtime::invalid(violations));
                }
                #scopes
            };
        }
        let runtime_checks = runtime_checks(plan, e);
        let mutable = (!runtime_checks.is_empty()).then(|| quote!(mut));
        let bot = bot_check(plan);
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
    }

    /// The implementation called and its output answered: by status, as JSON, as text or
    /// empty; an output the endpoint checks is checked before it is answered.
    fn respond(&self) -> TokenStream {
        let (plan, e) = (self.plan, self.e);
        let method = names::api_method(e);
        let check = plan.facts(e).checks_response.then(|| {
            quote! {
                let broken = endpoint::check_response(&output);
                if !broken.is_empty() {
                    return Err(runtime::broken_response(broken));
                }
            }
        });
        match plan.facts(e).response {
            _ if e.has_status_responses() => http::respond_by_status(plan, e, &method),
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
        }
    }
}

/// `let Some(path_id) = path_id else { .. };`: the required values, which are all present once
/// no violation was collected.
fn unpack(required: &[Ident]) -> TokenStream {
    match required {
        [] => quote!(),
        [r] => quote!(let Some(#r) = #r else { return Err(runtime::invalid(violations)) };),
        _ => quote!(let (#(Some(#required)),*) = (#(#required),*) else { return Err(runtime::invalid(violations)) };),
    }
}

/// `name: path_name`: each parameter of a part, from the local it was parsed into.
fn part_fields(part: &str, list: &[Field]) -> Vec<proc_macro2::Ident> {
    list.iter().map(|f| local(part, f)).collect()
}

/// Whether the call is a bot's, for `applies_to: bots`: a call with the token kind whose id is
/// `bot`, named as the naming layer names it (a `rust_name` renames it).
fn bot_check(plan: &Plan) -> TokenStream {
    match plan.token_kinds.iter().find(|k| k.meta.id == "bot") {
        Some(kind) => {
            let variant = names::token_kind_variant(kind);
            quote!(credential.kind == types::auth::TokenKind::#variant)
        }
        None => quote!(false),
    }
}

/// The local a path or query parameter is parsed into (`query_limit`): prefixed by its part,
/// so no parameter name meets another part's or a variable of the handler.
pub(super) fn local(part: &str, f: &Field) -> Ident {
    format_ident!("{part}_{}", names::field(f).to_string().trim_start_matches("r#"))
}

/// The name of a path parameter in the axum route (`{channel_id}`), as `RawPathParams` keys it.
pub(super) fn axum_name(f: &Field) -> String {
    names::field(f).to_string().trim_start_matches("r#").to_owned()
}

/// A route answers 404 outside its item's lifetime: before its `since` change takes effect and
/// from its `until` change on, as if it were not routed at all.
pub(super) fn lifetime(plan: &Plan, meta: &crate::model::Meta) -> Option<TokenStream> {
    let since = meta.since.as_ref().map(|r| {
        let c = plan.change_const(&r.id);
        quote!(!types::changes::#c.is_in_effect(now))
    });
    let until = meta.until.as_ref().map(|r| {
        let c = plan.change_const(&r.id);
        quote!(types::changes::#c.is_in_effect(now))
    });
    let outside: Vec<TokenStream> = since.into_iter().chain(until).collect();
    (!outside.is_empty()).then(|| {
        quote! {
            if #(#outside)||* {
                return Ok(not_found().await);
            }
        }
    })
}

/// The run-time checks of an endpoint: values asked of the implementation, then checked.
pub(super) fn runtime_checks(plan: &Plan, e: &Endpoint) -> TokenStream {
    let inputs = &plan.facts(e).inputs;
    if inputs.is_empty() {
        return quote!();
    }
    let fields = inputs.iter().map(|i| match i {
        RuntimeInput::Bound { endpoint, field, .. } => {
            let name = i.name();
            let hook = plan.api_bound_hook(endpoint, field);
            quote!(#name: Some(Api::#hook(&app.api, &cx).await?))
        }
        RuntimeInput::Condition { cond, .. } => {
            let name = i.name();
            let call = condition_call(plan, cond);
            quote!(#name: ask(&app.api, &cx, #call).await?)
        }
    });
    quote! {
        let runtime_values = endpoint::Runtime { #(#fields),* };
        violations.extend(input.validate_runtime(&runtime_values));
    }
}

/// A segment of an endpoint's path that mixes placeholders and text (`{Sid}.json`): the router
/// matches it whole, keyed by its first placeholder, and the handler splits it.
pub(super) struct MixedSegment<'e> {
    /// Its place among the path's segments.
    index: usize,
    /// The key the router gives the whole segment.
    key: String,
    /// Its placeholders, in order.
    params: Vec<&'e str>,
    /// Its pieces.
    pieces: Vec<Piece<'e>>,
}

pub(super) fn mixed_segments(e: &Endpoint) -> Vec<MixedSegment<'_>> {
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
pub(super) fn split_step(m: &MixedSegment<'_>) -> TokenStream {
    let segment = format_ident!("segment{}", m.index);
    let key = &m.key;
    let pieces = m.pieces.iter().map(|p| match p {
        Piece::Text(t) => quote!(runtime::Piece::Text(#t)),
        Piece::Param(_) => quote!(runtime::Piece::Param),
    });
    quote!(let #segment = runtime::split_segment(&params, #key, &[#(#pieces),*]).ok_or_else(runtime::no_route)?;)
}
