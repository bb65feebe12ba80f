//! `#[endpoint(id)]`: a handler's parameters are the endpoint's inputs, and a handler of an
//! endpoint with a permission rule takes the proof that the rule was evaluated.

use super::resource::compatible;
use super::{at, combine, single_id, unknown};
use crate::Loaded;
use crate::diag::did_you_mean;
use crate::model::{Endpoint, Field};
use crate::plan::rust::names;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Pat, Type};

/// Parameter types that are not endpoint inputs: the request context and credentials.
const CONTEXT_TYPES: &[&str] = &["RequestContext", "Context", "Caller", "Credential"];

/// The proof type the router hands to handlers after evaluating a permission rule.
const PROOF: &str = "Granted";

/// The server's per-call type, carrying the checked request (`Call<Caller, Request, ...>`).
const CALL: &str = "Call";

/// Checks the handler against the endpoint and returns it with a doc line naming its route.
pub fn endpoint(spec: &Loaded, attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let (id, id_token) = single_id(attr, "endpoint")?;
    let mut func: ItemFn = syn::parse2(item)?;
    let model = &spec.model;
    let Some(endpoint) = model.endpoint(&id) else {
        return Err(unknown(spec, &id_token, "endpoint", &id, model.endpoints.iter().map(|e| &e.meta)));
    };
    let place = at(spec, endpoint.meta.id_span);
    let (Some(method), Some(path)) = (&endpoint.method, &endpoint.path) else {
        let missing = if endpoint.method.is_none() { "method" } else { "path" };
        return Err(syn::Error::new(
            id_token.span(),
            format!(
                "endpoint `{id}` has no route: its {missing} is not shown in the source (defined at {place})\n\nhelp: only endpoints with a known method and path can have handlers"
            ),
        ));
    };
    check_params(spec, endpoint, &func, &place)?;
    let doc = format!(" Handles `{} {}` (endpoint `{id}`, {place}).", method.id, path.id);
    func.attrs.push(syn::parse_quote!(#[doc = #doc]));
    Ok(quote!(#func))
}

/// Every input of the endpoint, as a handler parameter name with its spec field and role.
fn inputs(endpoint: &Endpoint) -> Vec<(String, &Field, &'static str)> {
    let mut out = Vec::new();
    for f in &endpoint.path_params {
        out.push((names::field(f).to_string(), f, "path parameter"));
    }
    for f in &endpoint.query {
        out.push((names::field(f).to_string(), f, "query parameter"));
    }
    for f in &endpoint.headers {
        out.push((names::field(f).to_string(), f, "header parameter"));
    }
    // A body that comes in several formats arrives as one value, whichever format it came in.
    if endpoint.body_formats.len() > 1 {
        out.push(("body".to_owned(), whole_body(), "request body"));
        return out;
    }
    for f in &endpoint.body {
        out.push((names::field(f).to_string(), f, "body field"));
    }
    for f in &endpoint.parts {
        out.push((names::field(f).to_string(), f, "multipart part"));
    }
    if let Some(f) = &endpoint.body_schema {
        out.push(("body".to_owned(), f, "request body"));
    }
    out
}

/// The body of an endpoint with several formats: its type is the endpoint's `Body` enum, which
/// the spec does not spell as a type expression, so any type is accepted for it.
fn whole_body() -> &'static Field {
    static BODY: std::sync::OnceLock<Field> = std::sync::OnceLock::new();
    BODY.get_or_init(|| Field { name: "body".to_owned(), ..Field::default() })
}

fn check_params(spec: &Loaded, endpoint: &Endpoint, func: &ItemFn, place: &str) -> syn::Result<()> {
    let id = &endpoint.meta.id;
    let inputs = inputs(endpoint);
    let mut errors = Vec::new();
    let mut seen = Vec::new();
    let mut proof = None;
    let mut whole_call = false;
    for arg in &func.sig.inputs {
        let FnArg::Typed(arg) = arg else { continue };
        let last = last_segment(&arg.ty);
        if last.as_deref() == Some(PROOF) {
            proof = Some(&*arg.ty);
            continue;
        }
        if last.as_deref() == Some(CALL) {
            // The trait method form: the inputs arrive checked inside the server's `Call`.
            whole_call = true;
            match check_call(endpoint, &arg.ty, place) {
                Ok(granted) => proof = proof.or(granted),
                Err(e) => errors.push(e),
            }
            continue;
        }
        if last.as_deref().is_some_and(|l| CONTEXT_TYPES.contains(&l)) {
            continue;
        }
        let Pat::Ident(name) = &*arg.pat else {
            errors.push(syn::Error::new(arg.pat.span(), "handler parameters must be plain names, so they can be matched to the endpoint's inputs"));
            continue;
        };
        let name_str = name.ident.to_string();
        match inputs.iter().find(|(n, ..)| *n == name_str) {
            None => {
                let mut message = format!("endpoint `{id}` (defined at {place}) has no input `{name_str}`");
                match did_you_mean(&name_str, inputs.iter().map(|(n, ..)| n.as_str())) {
                    Some(best) => message.push_str(&format!("\n\nhelp: did you mean `{best}`?")),
                    None if inputs.is_empty() => message.push_str("\n\nhelp: the endpoint takes no path, query or body inputs"),
                    None => {
                        message.push_str(&format!("\n\nhelp: its inputs are {}", inputs.iter().map(|(n, ..)| format!("`{n}`")).collect::<Vec<_>>().join(", ")))
                    }
                }
                errors.push(syn::Error::new(name.ident.span(), message));
            }
            Some((_, field, role)) => {
                seen.push(name_str.clone());
                if let Err(why) = compatible(&spec.model, field, &arg.ty) {
                    let location = spec.sources.location(field.type_span);
                    errors.push(syn::Error::new(arg.ty.span(), format!("{role} `{name_str}` of endpoint `{id}` is {why} (spec at {location})")));
                }
            }
        }
    }
    for (name, field, role) in inputs.iter().filter(|_| !whole_call) {
        if !seen.contains(name) {
            let location = spec.sources.location(field.span);
            errors.push(syn::Error::new(
                func.sig.ident.span(),
                format!("handler of endpoint `{id}` lacks the {role} `{name}` (spec at {location})\n\nhelp: add a parameter `{name}`"),
            ));
        }
    }
    errors.extend(check_proof(spec, endpoint, func, proof));
    combine(errors)
}

/// An endpoint with a permission rule needs `Granted<Endpoint>`: only the router, after
/// evaluating the rule, can make one, so the handler cannot run without the rule.
fn check_proof(spec: &Loaded, endpoint: &Endpoint, func: &ItemFn, proof: Option<&Type>) -> Option<syn::Error> {
    let rules = spec.model.rules_for(&endpoint.meta.id);
    let marker = names::endpoint_variant(endpoint).to_string();
    match (rules.first(), proof) {
        (Some(rule), None) => Some(syn::Error::new(
            func.sig.ident.span(),
            format!(
                "endpoint `{}` is guarded by permission rule `{}` (defined at {}), so its handler must take `{PROOF}<{marker}>`\n\nhelp: add a parameter `granted: {PROOF}<{marker}>`; the router creates it only after the rule holds",
                endpoint.meta.id,
                rule.meta.id,
                at(spec, rule.meta.id_span)
            ),
        )),
        (None, Some(ty)) => Some(syn::Error::new(
            ty.span(),
            format!("endpoint `{}` (defined at {}) has no permission rule, so there is nothing to grant", endpoint.meta.id, at(spec, endpoint.meta.id_span)),
        )),
        (Some(_), Some(ty)) => {
            let arg = generic_arg(ty);
            (arg.as_deref() != Some(marker.as_str())).then(|| {
                syn::Error::new(
                    ty.span(),
                    format!(
                        "expected `{PROOF}<{marker}>`: the proof must be for endpoint `{}` (defined at {})",
                        endpoint.meta.id,
                        at(spec, endpoint.meta.id_span)
                    ),
                )
            })
        }
        (None, None) => None,
    }
}

/// A `Call<_, endpoint::Request, ..>` parameter belongs to this endpoint; returns its proof
/// type argument, if it has one.
fn check_call<'a>(endpoint: &Endpoint, ty: &'a Type, place: &str) -> syn::Result<Option<&'a Type>> {
    let args = type_args(ty);
    let module = names::endpoint_module(endpoint).to_string();
    let request = args.iter().find(|t| path_segments(t).contains(&module));
    if request.is_none() {
        return Err(syn::Error::new(
            ty.span(),
            format!("this `Call` is not for endpoint `{}` (defined at {place})\n\nhelp: expected `Call<_, {module}::Request, ..>`", endpoint.meta.id),
        ));
    }
    Ok(args.into_iter().find(|t| last_segment(t).as_deref() == Some(PROOF)))
}

fn type_args(ty: &Type) -> Vec<&Type> {
    let Type::Path(p) = ty else { return vec![] };
    let Some(last) = p.path.segments.last() else { return vec![] };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return vec![] };
    args.args
        .iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect()
}

fn path_segments(ty: &Type) -> Vec<String> {
    match ty {
        Type::Path(p) => p.path.segments.iter().map(|s| s.ident.to_string()).collect(),
        _ => vec![],
    }
}

fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => last_segment(&r.elem),
        _ => None,
    }
}

fn generic_arg(ty: &Type) -> Option<String> {
    let Type::Path(p) = ty else { return None };
    let syn::PathArguments::AngleBracketed(args) = &p.path.segments.last()?.arguments else { return None };
    args.args.iter().find_map(|a| match a {
        syn::GenericArgument::Type(t) => last_segment(t),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes() -> Loaded {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/shapes");
        crate::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the shapes fixture is invalid"))
    }

    #[test]
    fn header_parameters_are_inputs() {
        let spec = shapes();
        let handler = quote!(
            fn h(
                ids: Option<Vec<u64>>,
                tags: Option<Vec<String>>,
                titles: Option<TitleFilter>,
                after: Option<u64>,
                limit: Option<i64>,
                request_id: Option<String>,
                locale: String,
                hidden: Option<Vec<u64>>,
            ) {
            }
        );
        assert!(endpoint(&spec, quote!(list_notes), handler).is_ok());
        let lacking = quote!(
            fn h(
                ids: Option<Vec<u64>>,
                tags: Option<Vec<String>>,
                titles: Option<TitleFilter>,
                after: Option<u64>,
                limit: Option<i64>,
                request_id: Option<String>,
                hidden: Option<Vec<u64>>,
            ) {
            }
        );
        let error = endpoint(&spec, quote!(list_notes), lacking).unwrap_err().to_string();
        assert!(error.contains("lacks the header parameter `locale`"), "{error}");
    }

    #[test]
    fn parts_are_inputs_and_a_body_of_several_formats_is_one() {
        let spec = shapes();
        let parts = quote!(
            fn h(file: FilePart, meta: ImportMeta, labels: Option<Vec<String>>) {}
        );
        assert!(endpoint(&spec, quote!(import_notes), parts).is_ok());
        let wrong = quote!(
            fn h(file: String, meta: ImportMeta, labels: Option<Vec<String>>) {}
        );
        let error = endpoint(&spec, quote!(import_notes), wrong).unwrap_err().to_string();
        assert!(error.contains("multipart part `file`"), "{error}");
        assert!(
            endpoint(
                &spec,
                quote!(create_note),
                quote!(
                    fn h(body: Body) {}
                )
            )
            .is_ok()
        );
    }
}
