//! The HTTP API: endpoints with their behaviours, and the errors they return with the error body.

use super::{Field, Gap, S};
use indexmap::IndexMap;
use serde::Deserialize;

item! {
    /// An operation of the HTTP API.
    pub struct Endpoint {
        #[serde(default)]
        pub method: Option<S<String>>,
        #[serde(default)]
        pub path: Option<S<String>>,
        #[serde(default)]
        pub path_params: IndexMap<S<String>, S<Field>>,
        #[serde(default)]
        pub query: IndexMap<S<String>, S<Field>>,
        #[serde(default)]
        pub body: IndexMap<S<String>, S<Field>>,
        /// The body as a whole, when it is not an object of named fields (a JSON array).
        #[serde(default)]
        pub body_schema: Option<S<Field>>,
        /// `json` (default), `form` (`application/x-www-form-urlencoded`), `multipart` or `csv`.
        #[serde(default)]
        pub body_format: Option<S<String>>,
        /// The response: a type expression.
        #[serde(default)]
        pub response: Option<S<String>>,
        /// Named fields of the response, when the response is an inline object.
        #[serde(default)]
        pub response_fields: IndexMap<S<String>, S<Field>>,
        /// At most this many items in an array response (checked by server and client).
        #[serde(default)]
        pub response_max_items: Option<S<super::Bound>>,
        /// The columns of a CSV response, in order: the header line names them exactly.
        #[serde(default)]
        pub response_columns: IndexMap<S<String>, S<Field>>,
        /// `json` (default), `csv` or `none`.
        #[serde(default)]
        pub response_format: Option<S<String>>,
        /// Token kinds accepted (`bot`, `bearer`); empty means any.
        #[serde(default)]
        pub auth: Vec<S<String>>,
        /// Dated or conditional behaviours of the operation.
        #[serde(default)]
        pub behaviours: Vec<S<Behaviour>>,
    }
}

item! {
    /// A behaviour of an operation, possibly bounded by dated changes.
    pub struct Behaviour {
        /// Generate a runtime gate the implementation asks (for behaviour only it can carry out).
        #[serde(default)]
        pub gate: Option<S<bool>>,
    }
}

item! {
    /// An error the platform returns.
    pub struct Error {
        /// The platform's numeric error code.
        #[serde(default)]
        pub code: Option<S<i64>>,
        /// An OAuth2 error string (`invalid_grant`).
        #[serde(default)]
        pub oauth_error: Option<S<String>>,
        /// The HTTP status.
        #[serde(default)]
        pub status: Option<S<i64>>,
        /// When the error happens.
        pub condition: S<String>,
        /// The message text, where the source gives it.
        #[serde(default)]
        pub message: Option<S<String>>,
        /// Endpoints that return it.
        #[serde(default)]
        pub endpoints: Vec<S<String>>,
    }
}

/// The shape of every error response body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    #[serde(default)]
    pub description: Option<S<String>>,
    pub fields: IndexMap<S<String>, S<Field>>,
    #[serde(default)]
    pub not_shown: Vec<S<Gap>>,
    #[serde(default)]
    pub assumed: IndexMap<S<String>, S<String>>,
}
