//! `runtime.rs` of the server crate: the spec-independent work every route shares (credentials,
//! parameters, bodies within the limit, violations, rule answers, error rendering).

use proc_macro2::TokenStream;
use quote::quote;

/// The module's items.
pub fn runtime() -> TokenStream {
    quote! {
        //! The work every route shares: credentials, parameters, bodies within the size limit,
        //! rule answers and the one JSON error body.
        //!
        //! Every failure here is an [`ApiError`] with a 4xx status: malformed input never
        //! reaches a handler and never becomes a 5xx.

        use crate::types::auth::{Credential, Intent, Scope, TokenKind};
        use crate::types::errors::{self, ApiError};
        use crate::types::permissions::Permission;
        use crate::types::rules::{Condition, Facts, Requirement};
        use crate::types::validation::Violation;
        use axum::body::{Body, Bytes};
        use axum::extract::RawPathParams;
        use axum::http::{HeaderMap, StatusCode, header};
        use axum::response::{IntoResponse, Response};
        use serde::Serialize;
        use serde::de::DeserializeOwned;

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

        /// The credential of the `Authorization` header, when it presents one of `accepted`.
        pub fn credential(headers: &HeaderMap, accepted: &[TokenKind]) -> Result<Credential, ApiError> {
            let value = headers.get(header::AUTHORIZATION).ok_or_else(|| unauthorized("no Authorization header"))?;
            let value = value.to_str().map_err(|_| unauthorized("the Authorization header is not text"))?;
            Credential::from_header(value, accepted).ok_or_else(|| {
                let schemes: Vec<&str> = accepted.iter().filter_map(|k| k.scheme()).collect();
                unauthorized(&format!("expected one of the schemes {}", schemes.join(", ")))
            })
        }

        /// The path parameters, decoded.
        pub fn path_params(params: Result<RawPathParams, axum::extract::rejection::RawPathParamsRejection>) -> Result<RawPathParams, ApiError> {
            params.map_err(|e| invalid(vec![Violation::new("/path", e.body_text())]))
        }

        /// A piece of a path segment that mixes placeholders and text (`{sid}.json`).
        #[derive(Clone, Copy, Debug)]
        pub enum Piece {
            /// Literal text.
            Text(&'static str),
            /// A placeholder.
            Param,
        }

        /// The placeholders' values of a segment the router matched whole (keyed `key`), split
        /// by its `pieces`: `None` (the path names no route) when its text does not fit them or a
        /// placeholder would be empty. A placeholder takes the text up to the first occurrence of
        /// the text after it, the last one up to the segment's final text.
        pub fn split_segment<'p>(params: &'p RawPathParams, key: &str, pieces: &[Piece]) -> Option<Vec<&'p str>> {
            let mut rest = params.text(key)?;
            let mut values = Vec::new();
            let mut pieces = pieces.iter().peekable();
            while let Some(piece) = pieces.next() {
                match (piece, pieces.peek()) {
                    (Piece::Text(text), _) => rest = rest.strip_prefix(text)?,
                    (Piece::Param, None) => {
                        values.push(rest);
                        rest = "";
                    }
                    (Piece::Param, Some(Piece::Text(next))) => {
                        let end = if pieces.len() == 1 { rest.rfind(next)? } else { rest.find(next)? };
                        values.push(&rest[..end]);
                        rest = &rest[end..];
                    }
                    (Piece::Param, Some(Piece::Param)) => return None,
                }
            }
            (rest.is_empty() && values.iter().all(|v| !v.is_empty())).then_some(values)
        }

        /// The error of a path that fits no route's segments.
        pub fn no_route() -> ApiError {
            error(ids::GENERAL, 404).with_status(404).with_message("404: Not Found")
        }

        /// One placeholder's value parsed with `parse`; a violation when unparsable.
        pub fn segment_param<T>(text: &str, pointer: &str, out: &mut Vec<Violation>, parse: impl Fn(&str) -> Result<T, String>) -> Option<T> {
            parse(text).map_err(|e| out.push(Violation::new(pointer, e))).ok()
        }

        /// Named texts a parameter is looked up in: the path parameters, the query's pairs, the
        /// headers' values.
        pub trait Pairs {
            /// The text of the first pair named `name`.
            fn text(&self, name: &str) -> Option<&str>;
        }

        impl Pairs for RawPathParams {
            fn text(&self, name: &str) -> Option<&str> {
                self.iter().find_map(|(k, v)| (k == name).then_some(v))
            }
        }

        impl Pairs for Vec<(String, String)> {
            fn text(&self, name: &str) -> Option<&str> {
                self.iter().find_map(|(k, v)| (k == name).then_some(v.as_str()))
            }
        }

        /// The query parameters, decoded.
        pub fn query_pairs(query: Option<&str>, out: &mut Vec<Violation>) -> Vec<(String, String)> {
            serde_urlencoded::from_str(query.unwrap_or_default()).unwrap_or_else(|e: serde_urlencoded::de::Error| {
                out.push(Violation::new("/query", e.to_string()));
                Vec::new()
            })
        }

        /// One parameter parsed with `parse`: `None` when absent (a violation when `required`)
        /// or unparsable (a violation).
        pub fn param<T>(pairs: &impl Pairs, name: &str, pointer: &str, required: bool, out: &mut Vec<Violation>, parse: impl Fn(&str) -> Result<T, String>) -> Option<T> {
            let Some(text) = pairs.text(name) else {
                if required {
                    out.push(Violation::new(pointer, "is required"));
                }
                return None;
            };
            parse(text).map_err(|e| out.push(Violation::new(pointer, e))).ok()
        }

        /// Parses with `FromStr`, the error in words.
        pub fn from_str<T: std::str::FromStr>(text: &str) -> Result<T, String>
        where
            T::Err: std::fmt::Display,
        {
            text.parse().map_err(|e: T::Err| {
                let message = e.to_string();
                if message.contains(text) { message } else { format!("`{}`: {message}", text.chars().take(64).collect::<String>()) }
            })
        }

        /// Parses JSON text (for parameters whose type is not a plain scalar).
        pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
            serde_json::from_str(text).map_err(|e| e.to_string())
        }

        /// Parses a parameter written as JSON, or as the text of a JSON string (the form
        /// clients write a union of texts in: `/disks/my-disk`, not `/disks/"my-disk"`).
        pub fn from_json_or_text<T: DeserializeOwned>(text: &str) -> Result<T, String> {
            serde_json::from_str(text).or_else(|e: serde_json::Error| serde_json::from_value(serde_json::Value::String(text.to_owned())).map_err(|_| e.to_string()))
        }

        /// The body bytes, refused with 413 beyond `limit` (by its declared length first, so
        /// an oversized upload is answered before it is read) and with 408 when it has not all
        /// arrived within `timeout`.
        pub async fn read_body(headers: &HeaderMap, body: Body, limit: usize, timeout: std::time::Duration) -> Result<Bytes, ApiError> {
            let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > u64::try_from(limit).unwrap_or(u64::MAX)) {
                return Err(too_large(limit));
            }
            let Ok(read) = tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await else {
                return Err(error(ids::GENERAL, 408).with_status(408).with_message(format!("Request timeout: the body did not arrive within {} ms", timeout.as_millis())));
            };
            read.map_err(|e| {
                let source = e.into_inner();
                if source.downcast_ref::<http_body_util::LengthLimitError>().is_some() {
                    too_large(limit)
                } else {
                    invalid(vec![Violation::new("/body", format!("the body could not be read: {source}"))])
                }
            })
        }

        fn too_large(limit: usize) -> ApiError {
            error(ids::TOO_LARGE, 413).with_message(format!("Request entity too large: the limit is {limit} bytes"))
        }

        /// A JSON body: a syntax error is `invalid_json`; a value of the wrong shape is a
        /// violation at its JSON pointer (under `/body`).
        pub fn json_body<T: DeserializeOwned>(bytes: &[u8], out: &mut Vec<Violation>) -> Result<Option<T>, ApiError> {
            let not_json = |e: &serde_json::Error| error(ids::INVALID_JSON, 400).with_violations(vec![Violation::new("/body", e.to_string())]);
            match serde_json::from_slice(bytes) {
                Ok(value) => Ok(Some(value)),
                Err(e) if e.is_data() => {
                    // Where the value went wrong is worth a second reading, of a refused body
                    // only: tracking the path costs every valid body too.
                    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
                    let violation = match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
                        Err(e) => Violation::new(pointer("/body", e.path()), e.inner().to_string()),
                        Ok(_) => Violation::new("/body", e.to_string()),
                    };
                    out.push(violation);
                    Ok(None)
                }
                Err(e) => Err(not_json(&e)),
            }
        }

        /// A body the endpoint may go without: an empty one is absent, any other is read by
        /// `read` (the JSON or form reader of its format).
        pub fn optional_body<T>(bytes: &[u8], read: impl FnOnce(&[u8]) -> Result<Option<T>, ApiError>) -> Result<Option<Option<T>>, ApiError> {
            if bytes.iter().all(u8::is_ascii_whitespace) {
                return Ok(Some(None));
            }
            read(bytes).map(|value| value.map(Some))
        }

        /// A form body (`application/x-www-form-urlencoded`).
        pub fn form_body<T: DeserializeOwned>(bytes: &[u8], out: &mut Vec<Violation>) -> Option<T> {
            serde_urlencoded::from_bytes(bytes).map_err(|e| out.push(Violation::new("/body", e.to_string()))).ok()
        }

        /// A body passed through unparsed, with its media type.
        pub fn raw_body(headers: &HeaderMap, bytes: Bytes) -> crate::types::wire::RawBody {
            let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
            crate::types::wire::RawBody { content_type, bytes: bytes.to_vec() }
        }

        /// A serde path as a JSON pointer under `root`.
        fn pointer(root: &str, path: &serde_path_to_error::Path) -> String {
            use serde_path_to_error::Segment;
            path.iter().fold(root.to_owned(), |p, segment| match segment {
                Segment::Seq { index } => crate::types::validation::child(&p, &index.to_string()),
                Segment::Map { key } => crate::types::validation::child(&p, key),
                Segment::Enum { variant } => crate::types::validation::child(&p, variant),
                Segment::Unknown => p,
            })
        }

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

        impl Facts for Answers {
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
