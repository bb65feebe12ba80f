//! The server's own errors in the body an endpoint declares for them. An endpoint may declare
//! its own JSON body for a status the server answers by itself (DigitalOcean's `{code,
//! message}` for a `400`, beside the document's `{id, message}`): a request the server refuses
//! at that status is then answered in that body, filled from the `ApiError`, so the answer is
//! what the document says. A status whose declared body is the error body, or one the refusal
//! cannot fill (a required member of a type an error says nothing of), keeps the error body.
//!
//! How a declared body is filled, member by member (optional members are left out): a constant
//! is its value, a nullable member `null`; a text named like an identifier (`code`, `id`,
//! `type`, `kind`, `reason`, `error_code`) the status's reason (`bad_request`), any other text
//! the message with its violations; an integer `code` the error's code, `status` the status; a
//! list of texts the violations, another list or a map empty; an object its own members, the
//! same way. The message says the violations as the error body's does (`ApiError::message_with`).

use crate::emit::rust::types::errors::body_fields;
use crate::model::types::Primitive;
use crate::model::{Endpoint, Field, Status, TypeRef};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{ToTokens, quote};

/// How deep a declared body's objects are filled; deeper (or a cycle) is not filled.
const DEPTH: usize = 4;

/// `e`'s refusal writer: its name (the route handlers call it in place of `respond`) and
/// `fn refuse_<endpoint>`, which renders an error in the body `e` declares for its status, or
/// as the error body. None when `e` declares no body of its own for a status it may refuse with.
pub(super) fn refusal(plan: &Plan, e: &Endpoint) -> Option<(Ident, TokenStream)> {
    let mut arms = arms(plan, e);
    // An arm of the error body is needed only before a later arm of a declared one, which
    // would take its statuses; the rest fall to the last arm.
    while arms.last().is_some_and(|(_, own)| own.is_none()) {
        arms.pop();
    }
    if arms.is_empty() {
        return None;
    }
    let rest = (!arms.iter().any(|(s, _)| *s == Status::Default)).then(|| quote!(_ => runtime::error_response(error),));
    let arms = arms.into_iter().map(|(status, own)| {
        let pattern = pattern(status);
        match own {
            Some(body) => quote!(#pattern => runtime::json_response(runtime::status_code(error.status), &#body),),
            None => quote!(#pattern => runtime::error_response(error),),
        }
    });
    let name = names::refusal_writer(e);
    let doc = format!(" Answers a result of `{}`: an error in the body the endpoint declares for its status.", e.meta.id);
    let writer = quote! {
        #[doc = #doc]
        fn #name(result: Result<Response, ApiError>) -> Response {
            let error = match result {
                Ok(response) => return response,
                Err(error) => error,
            };
            let error = &error;
            match error.status {
                #(#arms)*
                #rest
            }
        }
    };
    Some((name, writer))
}

/// The statuses `e` declares a JSON body for at 400 and above, each with the expression of its
/// filled body when that body is not the error body and can be filled. Exact codes first, then
/// ranges, then `default`, as they match.
fn arms(plan: &Plan, e: &Endpoint) -> Vec<(Status, Option<TokenStream>)> {
    let error_body = body_fields(plan);
    let mut statuses: Vec<(Status, Option<TokenStream>)> = e
        .responses
        .iter()
        .filter_map(|r| {
            let status = r.status()?;
            let refused = match status {
                Status::Code(c) => c >= 400,
                Status::Range(h) => h >= 4,
                Status::Default => true,
            };
            let response = plan.response_of(&r.response)?;
            (refused && response.format == "json").then(|| (status, own_body(plan, &error_body, response)))
        })
        .collect();
    statuses.sort_by_key(|(s, _)| match s {
        Status::Code(_) => 0,
        Status::Range(_) => 1,
        Status::Default => 2,
    });
    statuses
}

/// The match pattern of a status: the code, the range of a hundred, or `_`.
fn pattern(status: Status) -> TokenStream {
    match status {
        Status::Code(c) => Literal::u16_unsuffixed(c).into_token_stream(),
        Status::Range(h) => {
            let (low, high) = (Literal::u16_unsuffixed(h * 100), Literal::u16_unsuffixed(h * 100 + 99));
            quote!(#low..=#high)
        }
        Status::Default => quote!(_),
    }
}

/// The filled body of a declared response, when it is a body of its own (not the error body's
/// members) and every required member can be filled.
fn own_body(plan: &Plan, error_body: &[Field], response: &crate::model::Response) -> Option<TokenStream> {
    let (fields, closed) = match &response.ty {
        Some(TypeRef::Object(id)) => {
            let resource = plan.resource(id).filter(|r| r.cases.is_empty())?;
            (&resource.fields, resource.closed)
        }
        Some(_) => return None,
        None => (&response.fields, false),
    };
    if fields.is_empty() || fits(error_body, fields, closed) {
        return None;
    }
    object(plan, fields, DEPTH)
}

/// Whether an error body is also a value of a declared body: each member the declared body
/// requires is one the error body always has, of the same type; each member it may leave out
/// has the same type where the error body has it; and a closed body has no other member.
fn fits(error_body: &[Field], declared: &[Field], closed: bool) -> bool {
    let of = |f: &Field| error_body.iter().find(|e| e.wire() == f.wire());
    let members = declared.iter().all(|d| match of(d) {
        Some(e) => e.ty == d.ty && (d.may_be_absent() || !e.may_be_absent()) && (d.nullable || !e.nullable),
        None => d.may_be_absent(),
    });
    members && (!closed || error_body.iter().all(|e| declared.iter().any(|d| d.wire() == e.wire())))
}

/// A JSON object of the required members of `fields`, each filled from `error`.
fn object(plan: &Plan, fields: &[Field], depth: usize) -> Option<TokenStream> {
    let members = fields
        .iter()
        .filter(|f| !f.may_be_absent())
        .map(|f| {
            let wire = f.wire();
            let value = member(plan, f, depth)?;
            Some(quote!(body.insert(#wire.to_owned(), #value);))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(quote!({
        let mut body = serde_json::Map::new();
        #(#members)*
        serde_json::Value::Object(body)
    }))
}

/// The value of one required member.
fn member(plan: &Plan, f: &Field, depth: usize) -> Option<TokenStream> {
    // A constant of an enum names a value, whose wire form may be another.
    if let Some(constant) = &f.constant {
        if !matches!(f.ty, Some(TypeRef::Primitive(_))) {
            return None;
        }
        return Some(match &constant.value {
            serde_json::Value::String(s) => quote!(serde_json::Value::from(#s)),
            serde_json::Value::Bool(b) => quote!(serde_json::Value::from(#b)),
            other => {
                let text = other.to_string();
                quote!(serde_json::from_str::<serde_json::Value>(#text).unwrap_or_default())
            }
        });
    }
    if f.nullable {
        return Some(quote!(serde_json::Value::Null));
    }
    let c = &f.constraints;
    let free_text = c.pattern.is_none() && c.min_length.is_none() && c.max_length.is_none() && f.format.is_none();
    let free_number = c.min.is_none() && c.max.is_none() && c.min_exclusive.is_none() && c.max_exclusive.is_none();
    let free_list = c.min_items.is_none() && c.min_entries.is_none();
    let named = |names: &[&str]| names.contains(&f.wire().to_ascii_lowercase().as_str());
    match f.ty.as_ref()? {
        TypeRef::Primitive(Primitive::String) if free_text && named(&["code", "id", "type", "kind", "reason", "error_code"]) => {
            Some(quote!(serde_json::Value::from(runtime::refusal_reason(error.status))))
        }
        TypeRef::Primitive(Primitive::String) if free_text => Some(quote!(serde_json::Value::from(error.message_with(&error.violations)))),
        TypeRef::Primitive(Primitive::Integer | Primitive::Int32) if free_number && named(&["code"]) => {
            Some(quote!(serde_json::Value::from(error.code.value())))
        }
        TypeRef::Primitive(Primitive::Integer | Primitive::Int32 | Primitive::Uint32 | Primitive::Uint64) if free_number && named(&["status"]) => {
            Some(quote!(serde_json::Value::from(error.status)))
        }
        TypeRef::Array(item) if free_list && **item == TypeRef::Primitive(Primitive::String) && f.items.is_none() => {
            Some(quote!(serde_json::Value::from(error.violations.iter().map(ToString::to_string).collect::<Vec<_>>())))
        }
        TypeRef::Array(_) if free_list => Some(quote!(serde_json::Value::Array(Vec::new()))),
        TypeRef::Map(..) if free_list => Some(quote!(serde_json::Value::Object(serde_json::Map::new()))),
        TypeRef::Object(id) if depth > 0 => object(plan, &plan.resource(id).filter(|r| r.cases.is_empty())?.fields, depth - 1),
        _ => None,
    }
}

/// `refusal_reason`, which the refusal writers share (in `runtime.rs`): the status's reason as
/// an identifier. None when no endpoint declares a body of its own.
pub(super) fn helpers(plan: &Plan) -> TokenStream {
    if !plan.endpoints.iter().any(|e| refusal(plan, e).is_some()) {
        return TokenStream::new();
    }
    quote! {
        /// The reason of a status as an identifier (`bad_request` for 400), for the bodies an
        /// endpoint declares for its errors.
        pub fn refusal_reason(status: u16) -> String {
            let reason = StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("error");
            reason.to_ascii_lowercase().replace([' ', '-'], "_")
        }
    }
}
