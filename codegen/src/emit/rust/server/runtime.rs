//! `runtime.rs` of the server crate: what every route shares and the spec decides (error ids,
//! credentials, rule answers, error rendering), over the runtime crate's request readers.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// The module's items; `runtime` is the runtime crate's library name.
pub fn runtime(runtime: &Ident, multipart: bool) -> TokenStream {
    [module_head(runtime, multipart), error_ids(), check_errors(), responses(), credential_reading(), rejections(), rule_answers()].into_iter().collect()
}

/// The module's inner doc, the runtime's readers re-exported and the imports.
fn module_head(runtime: &Ident, multipart: bool) -> TokenStream {
    let multipart = multipart.then(|| quote!(pub use #runtime::multipart::*;));
    quote! {
        //! The work every route shares: credentials, rule answers and the one JSON error body,
        //! beside the runtime's readers of parameters and bodies (re-exported here).
        //!
        //! Every failure here is an [`ApiError`] with a 4xx status: malformed input never
        //! reaches a handler and never becomes a 5xx.

        pub use #runtime::server::*;
        #multipart

        use crate::types::auth::{CredentialRef, Intent, Scope, TokenKind};
        use crate::types::errors::{self, ApiError};
        use crate::types::permissions::Permission;
        use crate::types::rules::{Condition, Facts, Requirement, SpecVocabulary};
        use crate::types::validation::Violation;
        use axum::http::{HeaderMap, StatusCode, header};
        use axum::response::{IntoResponse, Response};
        use serde::Serialize;
    }
}

/// The `ids` module of the spec errors the router answers with, and `error`, which looks one up.
fn error_ids() -> TokenStream {
    quote! {
        /// The spec errors the router answers its own failures with, by id; when the spec lacks
        /// one, the failure carries the general code and the status given here.
        pub mod ids {
            /// No route, or no code of its own (404, and 405 for another method).
            pub const GENERAL: &str = "general_error";
            /// No credential the endpoint accepts, or one the implementation rejects (401).
            pub const UNAUTHORIZED: &str = "unauthorized";
            /// A parameter or body value of the wrong type, or a broken constraint (400).
            pub const INVALID_FORM_BODY: &str = "invalid_form_body";
            /// A body that is not JSON (400).
            pub const INVALID_JSON: &str = "invalid_json";
            /// A body over the size limit (413).
            pub const TOO_LARGE: &str = "request_entity_too_large";
            /// A permission rule the caller does not satisfy (403).
            pub const MISSING_PERMISSIONS: &str = "missing_permissions";
        }

        /// The error the spec names `id`, or a general error with `status` when it names none.
        pub fn error(id: &str, status: u16) -> ApiError {
            match errors::ALL.iter().find(|e| e.id == id) {
                Some(def) => ApiError::new(def),
                None => ApiError {
                    status,
                    code: errors::GENERAL_CODE,
                    message: StatusCode::from_u16(status).ok().and_then(|s| s.canonical_reason()).unwrap_or("Error").to_owned(),
                    violations: Vec::new(),
                    missing: Vec::new(),
                    oauth_error: None,
                },
            }
        }
    }
}

/// `unauthorized`, `invalid`, `broken_response` and `missing`: the errors of failed checks.
fn check_errors() -> TokenStream {
    quote! {
        /// 401: no credential, or not one the endpoint accepts.
        pub fn unauthorized(detail: &str) -> ApiError {
            error(ids::UNAUTHORIZED, 401).with_message(format!("401: Unauthorized ({detail})"))
        }

        /// 400 with every violation found.
        pub fn invalid(violations: Vec<Violation>) -> ApiError {
            error(ids::INVALID_FORM_BODY, 400).with_violations(violations)
        }

        /// 500: the implementation returned a response that breaks what the spec says of it (an
        /// item count, CSV columns). A server error rather than a wrong answer: the source gives
        /// no status for it, and the client would refuse the response anyway.
        pub fn broken_response(violations: Vec<Violation>) -> ApiError {
            error("", 500).with_message("500: the implementation's response breaks the spec").with_violations(violations)
        }

        /// 403 naming everything the caller lacks.
        pub fn missing(requirements: &[Requirement]) -> ApiError {
            let names: Vec<String> = requirements.iter().map(ToString::to_string).collect();
            let message = format!("Missing permissions: {}", names.join(", "));
            error(ids::MISSING_PERMISSIONS, 403).with_message(message).with_missing(names)
        }
    }
}

/// The response writers, `error_response` to `text_response`.
fn responses() -> TokenStream {
    quote! {
        /// Renders an error as the platform's JSON error body.
        pub fn error_response(error: &ApiError) -> Response {
            let status = StatusCode::from_u16(error.status).unwrap_or(StatusCode::BAD_REQUEST);
            json_response(status, &error.to_body())
        }

        /// A JSON response.
        pub fn json_response<T: Serialize>(status: StatusCode, value: &T) -> Response {
            match serde_json::to_vec(value) {
                Ok(bytes) => (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
                Err(e) => {
                    let error = error(ids::GENERAL, 400).with_message(format!("the response could not be encoded: {e}"));
                    (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "application/json")], serde_json::to_vec(&error.to_body()).unwrap_or_default()).into_response()
                }
            }
        }

        /// A response without a body.
        pub fn empty_response() -> Response {
            StatusCode::NO_CONTENT.into_response()
        }

        /// `response` with the `Deprecation`, `Sunset` and `Link` headers of everything in `used`.
        pub fn with_deprecation(mut response: Response, used: &[&crate::types::deprecations::Deprecated], docs: Option<&str>) -> Response {
            for (name, value) in crate::types::deprecations::headers(used, docs) {
                if let Ok(value) = header::HeaderValue::from_str(&value) {
                    response.headers_mut().append(name, value);
                }
            }
            response
        }

        /// A text response of `content_type`.
        pub fn text_response(text: String, content_type: &'static str) -> Response {
            (StatusCode::OK, [(header::CONTENT_TYPE, content_type)], text).into_response()
        }
    }
}

/// `credential`, which reads the `Authorization` header.
fn credential_reading() -> TokenStream {
    quote! {
        /// The credential of the `Authorization` header, when it presents one of `accepted`: its
        /// token borrowed from the header.
        pub fn credential<'h>(headers: &'h HeaderMap, accepted: &[TokenKind]) -> Result<CredentialRef<'h>, ApiError> {
            let value = headers.get(header::AUTHORIZATION).ok_or_else(|| unauthorized("no Authorization header"))?;
            let value = value.to_str().map_err(|_| unauthorized("the Authorization header is not text"))?;
            CredentialRef::from_header(value, accepted).ok_or_else(|| {
                let schemes: Vec<&str> = accepted.iter().filter_map(|k| k.scheme()).collect();
                unauthorized(&format!("expected one of the schemes {}", schemes.join(", ")))
            })
        }
    }
}

/// `no_route` and `rejected`: the errors of a path no route fits and of the runtime's readers.
fn rejections() -> TokenStream {
    quote! {
        /// The error of a path that fits no route's segments.
        pub fn no_route() -> ApiError {
            error(ids::GENERAL, 404).with_status(404).with_message("404: Not Found")
        }

        /// The answer of an endpoint the implementation does not provide (the trait's default
        /// method): 501, so an implementation written before the endpoint was added still builds.
        pub fn not_implemented(endpoint: &str) -> ApiError {
            error(ids::GENERAL, 501).with_status(501).with_message(format!("501: {endpoint} is not implemented"))
        }

        /// A failure of the runtime's readers and writers as the platform's error body.
        pub fn rejected(rejection: Rejection) -> ApiError {
            let message = rejection.to_string();
            match rejection {
                Rejection::Invalid(violations) => invalid(violations),
                Rejection::NotJson(violation) => error(ids::INVALID_JSON, 400).with_violations(vec![violation]),
                Rejection::TooLarge { .. } => error(ids::TOO_LARGE, 413).with_message(message),
                Rejection::Timeout { .. } => error(ids::GENERAL, 408).with_status(408).with_message(message),
                Rejection::Broken(_) => error(ids::GENERAL, 500).with_status(500).with_message(message),
            }
        }
    }
}

/// `Answers`, the facts a rule is evaluated against.
fn rule_answers() -> TokenStream {
    quote! {
        /// The answers a rule is evaluated against, gathered from the implementation before.
        #[derive(Clone, Debug, Default)]
        pub struct Answers {
            /// The permissions the caller holds where the operation acts.
            pub permissions: Vec<Permission>,
            /// The intents of the caller's app.
            pub intents: Vec<Intent>,
            /// The scopes of the caller's token.
            pub scopes: Vec<Scope>,
            /// The conditions asked that hold.
            pub conditions: Vec<Condition>,
        }

        impl Facts<SpecVocabulary> for Answers {
            fn has_permission(&self, permission: Permission) -> bool {
                self.permissions.contains(&permission)
            }

            fn holds(&self, condition: Condition) -> bool {
                self.conditions.contains(&condition)
            }

            fn has_intent(&self, intent: Intent) -> bool {
                self.intents.contains(&intent)
            }

            fn has_scope(&self, scope: Scope) -> bool {
                self.scopes.contains(&scope)
            }
        }
    }
}
