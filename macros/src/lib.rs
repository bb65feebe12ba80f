//! Proc macros checked against the platform's spec at compile time.
//!
//! Each macro parses its input and hands it to `platform_codegen::expand`, which holds all the
//! logic; errors point at the offending token and name the spec file and line they were checked
//! against. The spec is the workspace's `spec/` (found by this crate's build script), parsed once
//! per process.

use proc_macro::TokenStream;
use std::path::Path;

/// Runs an expansion against the workspace spec.
fn run(f: impl FnOnce(&platform_codegen::Loaded) -> syn::Result<proc_macro2::TokenStream>) -> syn::Result<proc_macro2::TokenStream> {
    let spec = platform_codegen::expand::spec(Path::new(env!("PLATFORM_SPEC_DIR")));
    match spec.as_ref() {
        Ok(loaded) => f(loaded),
        Err(message) => Err(syn::Error::new(proc_macro2::Span::call_site(), message)),
    }
}

/// An item-position expansion; every failure becomes `compile_error!`.
fn expand(f: impl FnOnce(&platform_codegen::Loaded) -> syn::Result<proc_macro2::TokenStream>) -> TokenStream {
    run(f).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// An expression-position expansion: several `compile_error!`s are wrapped in a block so that
/// all of them are reported and nothing else is.
fn expand_expr(f: impl FnOnce(&platform_codegen::Loaded) -> syn::Result<proc_macro2::TokenStream>) -> TokenStream {
    run(f)
        .unwrap_or_else(|e| {
            let errors = e.into_compile_error();
            quote::quote!({ #errors unreachable!() })
        })
        .into()
}

/// A `const`-usable `Permissions` set of permission ids: `permissions![PIN_MESSAGES, BYPASS_SLOWMODE]`.
///
/// Each id must be a permission of the spec whose bit the spec gives.
#[proc_macro]
pub fn permissions(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    expand_expr(|spec| platform_codegen::expand::permissions(spec, input))
}

/// A limit of the spec as its typed constant: `limit!(voice_channel_status_length)`.
#[proc_macro]
pub fn limit(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    expand_expr(|spec| platform_codegen::expand::limit(spec, input))
}

/// An error of the spec as its error code: `error_code!(search_index_not_ready)`.
#[proc_macro]
pub fn error_code(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    expand_expr(|spec| platform_codegen::expand::error_code(spec, input))
}

/// A dated change's gate: `change!(pin-messages-required).is_in_effect(now)`.
#[proc_macro]
pub fn change(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    expand_expr(|spec| platform_codegen::expand::change(spec, input))
}

/// The model as these macros see it, as a JSON string (for checking it against `generated/model.json`).
#[proc_macro]
pub fn model_json(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    expand_expr(|spec| platform_codegen::expand::model_json(spec, input))
}

/// Checks a handler against a routed endpoint: `#[endpoint(set_voice_channel_status)]`.
///
/// The handler's parameters are the endpoint's inputs by name (path parameters with `.` as `_`,
/// query parameters, body fields, or `body` for a whole-body schema) with compatible types, plus
/// optionally a request context; an endpoint guarded by a permission rule also takes
/// `Granted<Endpoint>`, which only the router creates after the rule holds.
#[proc_macro_attribute]
pub fn endpoint(attr: TokenStream, item: TokenStream) -> TokenStream {
    let (attr, item) = (proc_macro2::TokenStream::from(attr), proc_macro2::TokenStream::from(item));
    expand(|spec| platform_codegen::expand::endpoint(spec, attr, item))
}

/// Checks a struct against a spec resource: `#[derive(Resource)] #[resource(channel)]`.
///
/// Every field (by its serde name) must be a field of the resource, with a compatible type;
/// optional or nullable spec fields need `Option<_>`.
#[proc_macro_derive(Resource, attributes(resource))]
pub fn derive_resource(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    expand(|spec| platform_codegen::expand::derive_resource(spec, input))
}
