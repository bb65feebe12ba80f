//! Expansions behind the `platform-macros` proc macros. Each function takes the macro's input
//! tokens and the loaded spec and returns the expansion, or a `syn::Error` pointing at the
//! offending token whose message names the spec file and line it was checked against.
//!
//! Nothing here names `proc_macro`: the macro crate is a thin shell that converts tokens and
//! calls these functions, so the logic is testable as a plain library.

mod cache;
mod endpoint;
mod resource;

pub use cache::spec;
pub use endpoint::endpoint;
pub use resource::derive_resource;

use crate::Loaded;
use crate::diag::{Span, did_you_mean};
use crate::model::{Bound, Meta};
use crate::plan::rust::names;
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;

/// The crate generated code and expansions refer to: the facade that re-exports the types.
fn krate() -> TokenStream {
    quote!(::platform)
}

/// `spec/file.yaml:line:col` of a spec item.
fn at(spec: &Loaded, span: Span) -> String {
    spec.sources.location(span)
}

/// An "unknown id" error at `token`, suggesting the closest id of `items` with its location.
fn unknown<'a>(spec: &Loaded, token: &Ident, kind: &str, wanted: &str, items: impl Iterator<Item = &'a Meta> + Clone) -> syn::Error {
    let ids = items.clone().map(|m| m.id.as_str());
    let mut message = format!("unknown {kind} `{wanted}`");
    match did_you_mean(wanted, ids) {
        Some(best) => {
            let meta = items.into_iter().find(|m| m.id == best).expect("BUG: suggestion comes from the list");
            message.push_str(&format!("\n\nhelp: did you mean `{best}`? (defined at {})", at(spec, meta.id_span)));
        }
        None => {
            let first = items.into_iter().next();
            if let Some(first) = first {
                let file = spec.sources.file(first.span.file).path.clone();
                message.push_str(&format!("\n\nhelp: {kind}s are defined in {file}"));
            }
        }
    }
    syn::Error::new(token.span(), message)
}

/// Combines errors so every mistake in one invocation is reported at once.
fn combine(errors: Vec<syn::Error>) -> syn::Result<()> {
    let mut iter = errors.into_iter();
    match iter.next() {
        None => Ok(()),
        Some(mut first) => {
            iter.for_each(|e| first.combine(e));
            Err(first)
        }
    }
}

/// Parses `A, B, C` (a trailing comma is allowed).
fn ident_list(input: TokenStream) -> syn::Result<Vec<Ident>> {
    let list = Punctuated::<Ident, syn::Token![,]>::parse_terminated.parse2(input)?;
    Ok(list.into_iter().collect())
}

/// Parses exactly one identifier, or a `kebab-case` id written as `a-b-c`.
fn single_id(input: TokenStream, what: &str) -> syn::Result<(String, Ident)> {
    let tokens: Vec<TokenTree> = input.clone().into_iter().collect();
    let usage = || syn::Error::new(proc_macro2::Span::call_site(), format!("expected one {what} id, like `{what}!(some_id)`"));
    let Some(TokenTree::Ident(first)) = tokens.first() else { return Err(usage()) };
    let mut id = first.to_string();
    let mut rest = tokens[1..].iter();
    while let Some(tt) = rest.next() {
        match (tt, rest.next()) {
            (TokenTree::Punct(p), Some(TokenTree::Ident(next))) if p.as_char() == '-' => {
                id.push('-');
                id.push_str(&next.to_string());
            }
            (tt, _) => return Err(syn::Error::new(tt.span(), format!("expected one {what} id"))),
        }
    }
    Ok((id, first.clone()))
}

/// `permissions![A, B]`: a const `Permissions` value of the named permissions.
pub fn permissions(spec: &Loaded, input: TokenStream) -> syn::Result<TokenStream> {
    let idents = ident_list(input)?;
    let model = &spec.model;
    let mut bits = 0u64;
    let mut errors = Vec::new();
    for ident in &idents {
        let id = ident.to_string();
        match model.permission(&id) {
            None => errors.push(unknown(spec, ident, "permission", &id, model.permissions.iter().map(|p| &p.meta))),
            Some(p) => match p.bit {
                Some(bit) => bits |= 1u64 << bit,
                None => errors.push(syn::Error::new(
                    ident.span(),
                    format!(
                        "permission `{id}` has no known bit: the source does not show it (defined at {})\n\nhelp: a permission set can only hold permissions whose bit the spec gives",
                        at(spec, p.meta.id_span)
                    ),
                )),
            },
        }
    }
    combine(errors)?;
    let krate = krate();
    Ok(quote!(#krate::Permissions::from_bits(#bits)))
}

/// `limit!(id)`: the limit's generated constant.
pub fn limit(spec: &Loaded, input: TokenStream) -> syn::Result<TokenStream> {
    let (id, ident) = single_id(input, "limit")?;
    let model = &spec.model;
    let Some(limit) = model.limit(&id) else {
        return Err(unknown(spec, &ident, "limit", &id, model.limits.iter().map(|l| &l.meta)));
    };
    let runtime = [&limit.max, &limit.value].into_iter().flatten().any(|b| matches!(b, Bound::Field { .. }));
    if runtime {
        return Err(syn::Error::new(
            ident.span(),
            format!("limit `{id}` has no constant value: its bound is known only at run time (defined at {})", at(spec, limit.meta.id_span)),
        ));
    }
    let name = respan(names::limit_const(limit), ident.span());
    let krate = krate();
    Ok(quote!(#krate::limits::#name))
}

/// `error_code!(id)`: the error's code constant.
pub fn error_code(spec: &Loaded, input: TokenStream) -> syn::Result<TokenStream> {
    let (id, ident) = single_id(input, "error_code")?;
    let model = &spec.model;
    let Some(error) = model.errors.iter().find(|e| e.meta.id == id) else {
        return Err(unknown(spec, &ident, "error", &id, model.errors.iter().map(|e| &e.meta)));
    };
    if error.code.is_none() {
        return Err(syn::Error::new(ident.span(), format!("error `{id}` has no numeric code (defined at {})", at(spec, error.meta.id_span))));
    }
    let name = respan(names::error_variant(error), ident.span());
    let krate = krate();
    Ok(quote!(#krate::errors::ErrorCode::#name))
}

/// `change!(id)`: the dated change's gate.
pub fn change(spec: &Loaded, input: TokenStream) -> syn::Result<TokenStream> {
    let (id, ident) = single_id(input, "change")?;
    let model = &spec.model;
    let Some(change) = model.change(&id) else {
        return Err(unknown(spec, &ident, "change", &id, model.changes.iter().map(|c| &c.meta)));
    };
    let name = respan(names::change_const(change), ident.span());
    let krate = krate();
    Ok(quote!(#krate::changes::#name))
}

/// `model_json!()`: the model as the macros see it, as a JSON string literal.
pub fn model_json(spec: &Loaded, input: TokenStream) -> syn::Result<TokenStream> {
    if let Some(tt) = input.into_iter().next() {
        return Err(syn::Error::new(tt.span(), "`model_json!` takes no input"));
    }
    let json = serde_json::to_string_pretty(&spec.model).expect("BUG: the model always serializes");
    Ok(quote!(#json))
}

/// `ident` pointing at the macro input, so errors about the expansion land on the user's token.
fn respan(ident: Ident, span: proc_macro2::Span) -> Ident {
    let mut ident = ident;
    ident.set_span(span);
    ident
}
