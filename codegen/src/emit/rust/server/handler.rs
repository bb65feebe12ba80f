//! The handler of each endpoint in `router.rs`: every mechanical step before the implementation
//! runs (credential, parameters, body, checks, rule), then the answer by status.

use super::api::{guarded, route_doc};
use super::http::{self, parser};
use super::{pointer_token, segment_key};
use crate::emit::rust::types::deprecations;
use crate::plan::rust::{ResponseKind, RuntimeInput};

use crate::emit::rust::types::literals::as_declared;
use crate::emit::rust::types::rules::condition_call;
use crate::model::{Endpoint, Field, Piece, is_mixed, path_segments};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

pub(super) fn handler(plan: &Plan, e: &Endpoint) -> TokenStream {
    let name = names::handler(e);
    let inner = names::inner_handler(e);
    let module = names::endpoint_module(e);
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
            let parse = parser(plan, f);
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
            let parse = parser(plan, f);
            let value = http::query_list(plan, f).unwrap_or_else(|| quote!(runtime::param(&query, #key, #pointer, #is_required, &mut violations, #parse)));
            let value = as_declared(plan, f, &quote!(types), value);
            steps.push(quote!(let #ident = #value;));
            if is_required {
                required.push(ident);
            }
        }
    }
    steps.extend(http::header_steps(plan, e, &mut required));
    if plan.facts(e).has_body {
        steps.push(quote!(let bytes = runtime::read_body(&parts.headers, body, app.body_limit, app.body_timeout).await.map_err(runtime::rejected)?;));
        steps.push(if let Some(body) = http::body_steps(plan, e) {
            body
        } else if plan.facts(e).raw_body {
            quote!(let body = Some(runtime::raw_body(&parts.headers, bytes));)
        } else if plan.facts(e).optional_body && e.body_format() == "form" {
            quote!(let body: Option<endpoint::Body> = runtime::optional_body(&bytes, |bytes| Ok(runtime::form_body(bytes, &mut violations))).map_err(runtime::rejected)?;)
        } else if plan.facts(e).optional_body {
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
    if plan.facts(e).has_body {
        parts_init.push(quote!(body));
    }
    let variant = names::endpoint_variant(e);
    let operation = if has_path { quote!(Operation::#variant(input.path.clone())) } else { quote!(Operation::#variant) };
    let runtime_checks = runtime_checks(plan, e);
    // `applies_to: bots` means a call with the token kind whose id is `bot`, named as the naming
    // layer names it (a `rust_name` renames it).
    let bot = match plan.token_kinds.iter().find(|k| k.meta.id == "bot") {
        Some(kind) => {
            let variant = names::token_kind_variant(kind);
            quote!(credential.kind == types::auth::TokenKind::#variant)
        }
        None => quote!(false),
    };
    let gates = if plan.facts(e).gates.is_empty() { quote!(()) } else { quote!(endpoint::Gates::at(now)) };
    // Made only here, after `authorize` returned: the proof follows the evaluation.
    let granted = if guarded(plan, e) { quote!(crate::api::Granted::new()) } else { quote!(()) };
    let method = names::api_method(e);
    let check = plan.facts(e).checks_response.then(|| {
        quote! {
            let broken = endpoint::check_response(&output);
            if !broken.is_empty() {
                return Err(runtime::broken_response(broken));
            }
        }
    });
    let respond = match plan.facts(e).response {
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
    };
    let parts_pattern = if plan.facts(e).has_body { quote!((parts, body)) } else { quote!((parts, _)) };
    // A raw body is taken as it comes: only parameters and parsed bodies add violations.
    let collects = has_path || !e.query.is_empty() || !e.headers.is_empty() || (plan.facts(e).has_body && !plan.facts(e).raw_body);
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
    let scopes = http::scope_check(plan, e, &operation);
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
    let own_lifetime = lifetime(plan, &e.meta);
    let own_list = own.iter().map(|i| quote!(&types::deprecations::#i));
    let aliases = e.aliases.iter().enumerate().map(|(i, a)| {
        let alias = names::alias_handler(e, a);
        let alias_doc = format!(
            " `{} {}`: an alias route of `{}`.",
            a.method.as_ref().or(e.method.as_ref()).map(|m| m.id.as_str()).unwrap_or_default(),
            a.path.id,
            e.meta.id
        );
        let gone = lifetime(plan, &e.meta).into_iter().chain(lifetime(plan, &a.meta));
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
                return not_found().await;
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
