//! The `platform-client` crate: a reqwest client with one async method per routed endpoint,
//! running the shared validators before anything is sent.

mod calls;
mod exchange;
mod gateways;
mod streams;
mod webhooks;

use super::format::format_file;
use super::shared::{endpoint_address, lib_ident, module_decls, package};
use crate::plan::rust::ResponseKind;

use crate::emit::cargo::{self, Manifest};
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::Endpoint;
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// The artifact name in summaries.
pub const ARTIFACT: &str = "client";

/// Emits `client/Cargo.toml` and `client/src/*.rs`.
pub fn emit(plan: &Plan, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let notice = opts.notice();
    let mut files = cargo_toml(plan, opts);
    files.push(GeneratedFile::new(ARTIFACT, "client/src/lib.rs", format_file(&notice, lib_rs(plan))));
    files.push(GeneratedFile::new(ARTIFACT, "client/src/client.rs", format_file(&notice, client(plan))));
    if plan.routed_endpoints().next().is_some() {
        files.push(GeneratedFile::new(ARTIFACT, "client/src/calls.rs", format_file(&notice, calls::emit(plan))));
    }
    if webhooks::any(plan) {
        files.push(GeneratedFile::new(ARTIFACT, "client/src/webhooks.rs", format_file(&notice, webhooks::emit(plan))));
    }
    if gateways::any(plan) {
        files.push(GeneratedFile::new(ARTIFACT, "client/src/gateways.rs", format_file(&notice, gateways::emit(plan))));
    }
    files
}

fn cargo_toml(plan: &Plan, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let description = format!("{}: an async client that checks requests before sending them", plan.platform.name);
    let mut dependencies =
        vec![cargo::sibling_with(&package(plan, cargo::RUNTIME), cargo::RUNTIME, &["client"]), cargo::sibling(&package(plan, "types"), "types")];
    dependencies.extend([cargo::REQWEST, cargo::SERDE, cargo::SERDE_JSON, cargo::SERDE_URLENCODED].iter().map(|d| d.line()));
    let mut features = vec![
        "default = []".to_owned(),
        "# TLS through rustls for https:// addresses; off by default so a plain build stays small.".to_owned(),
        "rustls = [\"reqwest/rustls\"]".to_owned(),
    ];
    if webhooks::any(plan) {
        features.push("# `webhooks`: receivers of the platform's webhooks for the app's axum server (src/webhooks.rs).".to_owned());
        features.push(format!("webhooks = [\"{}/receiver\"]", package(plan, cargo::RUNTIME)));
    }
    if gateways::any(plan) {
        features.push("# `gateway`: the gateways' session clients (src/gateways.rs); `gateway-rustls` for `wss://`.".to_owned());
        features.push(format!("gateway = [\"{}/gateway-client\"]", package(plan, cargo::RUNTIME)));
        features.push(format!("gateway-rustls = [\"gateway\", \"{}/gateway-rustls\"]", package(plan, cargo::RUNTIME)));
    }
    let features: Vec<&str> = features.iter().map(String::as_str).collect();
    let manifest = Manifest { lib: &["path = \"src/lib.rs\""], features: &features, dependencies, readme: super::readme::client(plan), doc_examples: true };
    cargo::crate_files(opts, ARTIFACT, "client", &package(plan, ARTIFACT), &description, manifest)
}

fn lib_rs(plan: &Plan) -> TokenStream {
    let types = lib_ident(plan, "types");
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let declared =
        (!plan.declared_errors().is_empty()).then_some(" Where the endpoint declares a body for the status, it comes decoded too ([`client::Declared`]).");
    let intro = [
        "",
        " ## The client",
        "",
        " [`Client`] has one method per routed endpoint, taking its path parameters and returning its",
        " request (one type per endpoint, in `calls`), whose setters fill the query parameters and the",
        " body's fields and which is sent when awaited; `Client::send` sends a request built whole.",
        " Each call runs the same validators as the server before sending, so a request that breaks a",
        " declared constraint never leaves the process ([`Error::Invalid`]). A call returns what the",
        " endpoint answers when it succeeds;",
        " every error status, declared or not, is an [`Error::Api`] holding the [`ErrorResponse`]:",
        " status, headers and body as they came, and the platform's error read from the body (code,",
        " message, violations) when it is one.",
    ];
    let intro = intro.into_iter().chain(declared).chain([
        "",
        " Plain `http://` works out of the box; enable the `rustls` feature for `https://` addresses",
        " (without it, a call to one fails with an [`Error::Transport`] that says so). Requests carry",
        " a `User-Agent` naming this crate and its version ([`client::USER_AGENT`]); the `reqwest` it",
        " sends through is re-exported, for [`Client::with_http`].",
        "",
        " An answer that says what was called is deprecated (`Deprecation`, `Sunset` and `Link`",
        " headers) reaches the handler set with [`Client::on_deprecation`]; methods of deprecated",
        " endpoints are `#[deprecated]`, so the compiler says so where they are called.",
    ]);
    let routed = plan.routed_endpoints().next().is_some();
    let decls = module_decls(if routed { &["calls", "client"] } else { &["client"] });
    let exported = ["Call", "Client", "Error", "ErrorResponse", "Retry", "Timeouts"].into_iter().filter(|name| routed || *name != "Call");
    let exported = exported.map(|name| proc_macro2::Ident::new(name, proc_macro2::Span::call_site()));
    let gateways = gateways::any(plan).then(|| {
        quote! {
            /// The gateways' session clients (feature `gateway`).
            #[cfg(feature = "gateway")]
            #[rustfmt::skip]
            pub mod gateways;
        }
    });
    let webhooks = webhooks::any(plan).then(|| {
        quote! {
            /// Receivers of the platform's webhooks, for the app's axum server (feature `webhooks`).
            #[cfg(feature = "webhooks")]
            #[rustfmt::skip]
            pub mod webhooks;
        }
    });
    quote! {
        // The README opens the crate docs: its quick start is compiled as a doctest.
        #![doc = include_str!("../README.md")]
        #(#![doc = #intro])*
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]
        // Items the spec deprecates are `#[deprecated]` so their users' compilers say so; the
        // generated crates' own listings of them (`KNOWN`, match arms, derives) are not such uses.
        #![allow(deprecated)]
        // `#[deprecated(since = ..)]` names the date of the deprecating change, not a crate version.
        #![allow(clippy::deprecated_semver)]

        #[rustfmt::skip]
        pub use #types as types;
        // Under its own name too: rustc names the types crate so in the paths it suggests.
        #[doc(hidden)]
        #[rustfmt::skip]
        pub use #types;

        #decls
        #webhooks

        #gateways

        #[rustfmt::skip]
        pub use client::{#(#exported),*};
        /// The HTTP client crate requests go through, at the version this crate was built with
        /// (for [`Client::with_http`]).
        pub use reqwest;
        /// What the streams of paginated endpoints are read with (`stream.next().await`,
        /// `stream.try_collect().await`).
        pub use #runtime::pagination::{Stream, StreamExt, TryStreamExt};
    }
}

/// The items of `client.rs`, in the order the module lists them.
fn client(plan: &Plan) -> TokenStream {
    // Without a routed endpoint nothing sends nor is told of deprecations: those parts would be
    // dead code.
    let routed = plan.routed_endpoints().next().is_some();
    let mut out = imports(plan, routed);
    out.extend([error_type(plan), error_traits()]);
    out.extend(declared_enum(plan));
    out.extend(routed.then(sending_types));
    out.extend(routed.then(route_type));
    out.extend(routed.then(|| answers(plan)));
    out.extend([user_agent(), client_type(routed), client_impl(plan, routed)]);
    out.extend(routed.then(call_trait));
    out.extend(plan.routed_endpoints().map(|e| method(plan, e)));
    out.extend(retry_const(plan));
    out.extend(routed.then(join));
    out.extend(helpers(plan));
    out.extend(exchange::helpers(plan));
    out
}

/// `RETRY`, the spec's retry policy, which clients follow unless told otherwise.
fn retry_const(plan: &Plan) -> Option<TokenStream> {
    let r = plan.retry.as_ref()?;
    let attempts = r.attempts.unwrap_or(3);
    let millis = |s: Option<f64>, default: u64| s.map_or(default, |s| (s * 1000.0).round().clamp(0.0, u64::MAX as f64) as u64);
    let (initial, max) = (millis(r.initial_seconds, 500), millis(r.max_seconds, 8000));
    let codes = |list: &Option<Vec<i64>>, default: TokenStream| match list {
        Some(l) => {
            let l = l.iter().map(|c| u16::try_from(*c).unwrap_or(0));
            quote!(&[#(#l),*])
        }
        None => default,
    };
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let statuses = codes(&r.statuses, quote!(#runtime::retry::STATUSES));
    let idempotent = codes(&r.idempotent_statuses, quote!(#runtime::retry::IDEMPOTENT_STATUSES));
    // Header names are looked up in lower case.
    let advice = match &r.advice_header {
        Some(h) => {
            let name = h.id.to_ascii_lowercase();
            quote!(Some(#name))
        }
        None => quote!(None),
    };
    let doc = r
        .description
        .as_deref()
        .map_or_else(|| " How a failed call is tried again, as the spec says.".to_owned(), |d| format!(" {}", d.lines().next().unwrap_or_default()));
    Some(quote! {
        #[doc = #doc]
        ///
        /// Every client follows it unless [`Client::with_retry`] says otherwise; what the spec
        /// leaves out is the runtime's default.
        pub const RETRY: Retry = Retry {
            attempts: #attempts,
            initial: std::time::Duration::from_millis(#initial),
            max: std::time::Duration::from_millis(#max),
            statuses: #statuses,
            idempotent_statuses: #idempotent,
            advice: #advice,
        };
    })
}

/// `USER_AGENT`, which `Client::new` sends.
fn user_agent() -> TokenStream {
    quote! {
        /// The `User-Agent` of the requests of [`Client::new`]'s client: this crate's name and
        /// version, so the platform can tell which SDK calls it.
        pub const USER_AGENT: &str = concat!(env!("CARGO_PKG_NAME"), "/", env!("CARGO_PKG_VERSION"));
    }
}

/// Whether some routed endpoint takes the simple path, the only caller of `send`.
fn sends(plan: &Plan) -> bool {
    plan.routed_endpoints().any(|e| !exchange::needs_exchange(plan, e))
}

/// The module's inner doc and its imports.
fn imports(plan: &Plan, routed: bool) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let retry = routed.then(|| quote!(use #runtime::{ratelimit, retry};));
    let errors = if routed { quote!({ApiError, ErrorBody}) } else { quote!(ApiError) };
    let uses = if routed {
        quote! {
            use crate::calls;
            use crate::types;
            use crate::types::auth::{Credential, TokenKind};
            use crate::types::deprecations::Notice;
            use crate::types::errors::#errors;
            use crate::types::placeholders::Placeholders;
            use crate::types::validation::{Validate, Violation};
        }
    } else {
        quote! {
            use crate::types::auth::{Credential, TokenKind};
            use crate::types::errors::ApiError;
            use crate::types::placeholders::Placeholders;
            use crate::types::validation::Violation;
        }
    };
    quote! {
        //! The client and its error.

        #uses
        #retry
        use std::fmt;

        pub use #runtime::retry::{Retry, Timeouts};
    }
}

/// The `Error` enum, its accessors, and `ErrorResponse`, what an error answer carries.
fn error_type(plan: &Plan) -> TokenStream {
    let declared = !plan.declared_errors().is_empty();
    let declared_field = declared.then(|| {
        quote! {
            /// The body (and headers) as the endpoint declares them for this status, decoded;
            /// `None` when it declares no payload for it, or the payload did not decode.
            pub declared: Option<Declared>,
        }
    });
    quote! {
        /// Why a call failed.
        #[derive(Debug)]
        #[non_exhaustive]
        pub enum Error {
            /// The request breaks declared constraints; nothing was sent.
            Invalid(Vec<Violation>),
            /// The client holds no credential of a kind the endpoint accepts; nothing was sent.
            Credential {
                /// The kinds the endpoint accepts.
                accepted: &'static [TokenKind],
            },
            /// The platform answered with an error status (4xx or 5xx), declared by the
            /// endpoint or not.
            Api(Box<ErrorResponse>),
            /// An earlier call with this client's credential was answered `401`; nothing was
            /// sent, since a platform bans clients that keep presenting invalid credentials.
            /// [`Client::with_credential`] gives a client that sends again.
            CredentialRejected,
            /// The call, its tries and waits included, took longer than the client's
            /// [`Timeouts::total`].
            TimedOut,
            /// The request could not be sent, or the response not read.
            Transport(reqwest::Error),
            /// The response could not be decoded, or came with a status the endpoint does not
            /// declare.
            Decode {
                /// The response status.
                status: u16,
                /// What went wrong.
                message: String,
            },
            /// The response decoded but breaks what the spec says of it (an item count, CSV
            /// columns).
            InvalidResponse(Vec<Violation>),
        }

        /// An answer with an error status: its status, headers and body as they came, the
        /// platform's error read from the body when it is one, and what the endpoint declares.
        #[derive(Clone, Debug)]
        pub struct ErrorResponse {
            /// The id of the endpoint called.
            pub endpoint: &'static str,
            /// The HTTP status.
            pub status: u16,
            /// The headers.
            pub headers: reqwest::header::HeaderMap,
            /// The body, as received.
            pub bytes: Vec<u8>,
            /// The body read as the platform's error (code, message, violations), when it is one.
            pub error: Option<ApiError>,
            #declared_field
        }

        impl Error {
            /// The platform's error, when it answered with one.
            pub fn api(&self) -> Option<&ApiError> {
                self.response().and_then(|r| r.error.as_ref())
            }

            /// The answer with an error status, when the platform sent one.
            pub fn response(&self) -> Option<&ErrorResponse> {
                match self {
                    Self::Api(r) => Some(r),
                    _ => None,
                }
            }

            /// The status of the answer, when one came.
            pub fn status(&self) -> Option<u16> {
                match self {
                    Self::Api(r) => Some(r.status),
                    Self::Decode { status, .. } => Some(*status),
                    _ => None,
                }
            }
        }
    }
}

/// `Display`, `std::error::Error` and `From<reqwest::Error>` for `Error`.
fn error_traits() -> TokenStream {
    quote! {
        impl fmt::Display for Error {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    Self::Invalid(violations) => {
                        f.write_str("invalid request")?;
                        violations.iter().try_for_each(|v| write!(f, "; {v}"))
                    }
                    Self::Credential { accepted } => {
                        let kinds: Vec<&str> = accepted.iter().map(|k| k.as_str()).collect();
                        write!(f, "the client has no credential of a kind the endpoint accepts ({})", kinds.join(", "))
                    }
                    Self::Api(r) => write!(f, "{r}"),
                    Self::CredentialRejected => f.write_str("an earlier call with this credential was answered 401; nothing more is sent with it"),
                    Self::TimedOut => f.write_str("the call took longer than the client's timeout"),
                    Self::Transport(e) if without_tls(e) => {
                        write!(f, "transport: {e} (an https:// address, and this client crate was built without its `rustls` feature: enable it for TLS)")
                    }
                    Self::Transport(e) => write!(f, "transport: {e}"),
                    Self::Decode { status, message } => write!(f, "undecodable response (status {status}): {message}"),
                    Self::InvalidResponse(violations) => {
                        f.write_str("the response breaks the spec")?;
                        violations.iter().try_for_each(|v| write!(f, "; {v}"))
                    }
                }
            }
        }

        /// Whether `e` failed to connect to an `https://` address from a build without the
        /// `rustls` feature: reqwest without TLS refuses such an address with a bare "scheme is
        /// not http".
        fn without_tls(e: &reqwest::Error) -> bool {
            !cfg!(feature = "rustls") && e.is_connect() && e.url().is_some_and(|u| u.scheme() == "https")
        }

        impl fmt::Display for ErrorResponse {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match &self.error {
                    Some(e) => write!(f, "{e}"),
                    None => {
                        // The body says what went wrong; a long one is cut, not dropped.
                        let text = String::from_utf8_lossy(&self.bytes);
                        let short: String = text.chars().take(300).collect();
                        let more = if short.len() < text.len() { "…" } else { "" };
                        write!(f, "status {} from {}: {short}{more}", self.status, self.endpoint)
                    }
                }
            }
        }

        impl std::error::Error for Error {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                match self {
                    Self::Api(r) => r.error.as_ref().map(|e| e as &(dyn std::error::Error + 'static)),
                    Self::Transport(e) => Some(e),
                    _ => None,
                }
            }
        }

        impl From<reqwest::Error> for Error {
            fn from(e: reqwest::Error) -> Self {
                Self::Transport(e)
            }
        }
    }
}

/// `Outgoing`, a body to send, and `OnDeprecation`, what is told of deprecation notices.
fn sending_types() -> TokenStream {
    quote! {
        /// A body to send: its media type and bytes.
        struct Outgoing {
            content_type: String,
            bytes: Vec<u8>,
        }

        /// What is told of deprecation notices.
        #[derive(Clone)]
        struct OnDeprecation(std::sync::Arc<dyn Fn(&Notice) + Send + Sync>);

        impl fmt::Debug for OnDeprecation {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("OnDeprecation(..)")
            }
        }

        /// What is told of every answer.
        #[derive(Clone)]
        struct OnAnswer(std::sync::Arc<dyn Fn(&Head<'_>) + Send + Sync>);

        impl fmt::Debug for OnAnswer {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("OnAnswer(..)")
            }
        }

        /// The head of an answer as it came, for the handler set with [`Client::on_answer`]: the
        /// status and headers beside the typed value a call returns (a rate limit's state, a
        /// request id, a header the spec does not declare).
        #[derive(Debug)]
        pub struct Head<'a> {
            /// The endpoint called.
            pub endpoint: &'static str,
            /// The status.
            pub status: u16,
            /// Every header.
            pub headers: &'a reqwest::header::HeaderMap,
        }
    }
}

/// The argument naming an endpoint's route for `send`, `exchange` and `dispatch`.
fn route_type() -> TokenStream {
    quote! {
        /// The calling endpoint's id, its path template, and the header it takes an idempotency
        /// key in.
        type Route = (&'static str, &'static str, Option<&'static str>);
    }
}

/// `Some("Idempotency-Key")`, the header an endpoint takes an idempotency key in, or `None`.
fn idempotency_key(e: &Endpoint) -> TokenStream {
    match e.idempotency_header() {
        Some(h) => {
            let wire = h.wire();
            quote!(Some(#wire))
        }
        None => quote!(None),
    }
}

/// The `Client` struct.
fn client_type(routed: bool) -> TokenStream {
    let on_deprecation_field = routed.then(|| quote!(on_deprecation: Option<OnDeprecation>, on_answer: Option<OnAnswer>,));
    let limiter_field = routed.then(|| {
        quote! {
            /// The rate limiter of this client's credential, shared by its clones.
            limiter: Option<std::sync::Arc<ratelimit::Limiter>>,
            timeouts: Timeouts,
        }
    });
    quote! {
        /// A client of the platform: its addresses, an HTTP client and, usually, a credential.
        ///
        /// Cloning is cheap (the HTTP client is shared); [`Client::with_credential`] gives a client
        /// that presents another credential.
        #[derive(Clone, Debug)]
        pub struct Client {
            http: reqwest::Client,
            placeholders: Placeholders,
            credential: Option<Credential>,
            retry: Retry,
            #on_deprecation_field
            #limiter_field
        }
    }
}

/// `impl Client`: its constructors, its accessors, `send`, `exchange` and a method per routed
/// endpoint.
fn client_impl(plan: &Plan, routed: bool) -> TokenStream {
    let new = new_client(plan);
    let on_deprecation_init = routed.then(|| quote!(on_deprecation: None, on_answer: None,));
    let limiter_init = routed.then(|| {
        if plan.rate_limits.is_some() {
            quote!(limiter: Some(std::sync::Arc::new(ratelimit::Limiter::new(types::rate_limits::POLICY))), timeouts: Timeouts::default(),)
        } else {
            quote!(limiter: None, timeouts: Timeouts::default(),)
        }
    });
    let rate_limits = routed.then(rate_limit_methods);
    let retry = if plan.retry.is_some() { quote!(RETRY) } else { quote!(Retry::default()) };
    let on_deprecation = routed.then(on_deprecation_method);
    let accessors = accessors(routed);
    let send = sends(plan).then(send_method);
    let dispatch = routed.then(dispatch_method);
    let exchange_method = exchange::exchange_method(plan);
    let methods = plan.routed_endpoints().map(|e| {
        let mut m = builder_method(plan, e);
        m.extend(page_methods(plan, e));
        m
    });
    let send_prepared = routed.then(|| {
        quote! {
            /// Sends a request built beforehand (`Request::new(..)`, or a builder's
            /// `into_request`): what awaiting the builder its method returns does.
            pub async fn send<R: Call>(&self, request: &R) -> Result<R::Output, Error> {
                request.call(self).await
            }
        }
    });
    quote! {
        impl Client {
            #new

            /// A client that sends through `http` (for timeouts, proxies, TLS settings).
            pub fn with_http(http: reqwest::Client, placeholders: Placeholders) -> Self {
                Self { http, placeholders, credential: None, retry: #retry, #on_deprecation_init #limiter_init }
            }

            #rate_limits

            #on_deprecation

            #accessors

            #dispatch

            #send

            #exchange_method

            #send_prepared

            #(#methods)*
        }
    }
}

/// The client's method of an endpoint: its docs, then what returns its request builder.
fn builder_method(plan: &Plan, e: &Endpoint) -> TokenStream {
    let mut lines = method_doc(e);
    lines.push(String::new());
    lines.push(" Returns the request, which takes setters for the query and header parameters and the body's".to_owned());
    lines.push(" fields and is sent when awaited.".to_owned());
    if e.has_status_responses() {
        lines.push(" A success comes back as `Success`; an error status, declared or not, as [`Error::Api`], with what".to_owned());
        lines.push(" the endpoint declares for it decoded.".to_owned());
    }
    if let Some((streamed, _)) = plan.stream_of(e) {
        lines.push(String::new());
        lines.push(format!(" The `{}` answer is a stream of events, each decoded as it arrives;", streamed.status.id));
        if e.last_event_id.is_some() {
            lines.push(" a connection that breaks is made again with the last event's id, as the retry policy".to_owned());
            lines.push(" allows, so no event is lost or repeated. An error status is [`Error::Api`].".to_owned());
        } else {
            lines.push(" an error status is [`Error::Api`].".to_owned());
        }
    }
    let alias = alias(e);
    let deprecated = super::shared::deprecated_attribute(plan, e.meta.deprecated.as_ref(), e.meta.until.as_ref(), None);
    calls::client_method(plan, e, quote!(#(#[doc = #lines])* #alias #deprecated))
}

/// `impl Call` for an endpoint's `Request`: `body` runs with the request as `request`, the
/// client as `client` and the endpoint's module as `endpoint`.
pub(super) fn call_impl(e: &Endpoint, body: TokenStream) -> TokenStream {
    let module = names::endpoint_module(e);
    let output = calls::output(e, &quote!(types));
    quote! {
        impl Call for types::endpoints::#module::Request {
            type Output = #output;

            async fn call(&self, client: &Client) -> Result<Self::Output, Error> {
                use types::endpoints::#module as endpoint;
                let request = self;
                #body
            }
        }
    }
}

/// The trait the requests of every endpoint implement: how `Client::send` sends each.
fn call_trait() -> TokenStream {
    quote! {
        /// A request the client can send: every endpoint's `Request`.
        pub trait Call: Sync {
            /// What the endpoint answers when it succeeds.
            type Output;

            /// Sends this request through `client`: validated, then sent, its answer read.
            fn call(&self, client: &Client) -> impl std::future::Future<Output = Result<Self::Output, Error>> + Send;
        }

        /// The future a request of [`calls`] becomes when awaited.
        pub type Sending<'c, T> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<T, Error>> + Send + 'c>>;

        /// `request` sent through `client`: what a request of [`calls`] does when awaited.
        pub(crate) fn sending<'c, R: Call + Send + 'c>(client: &'c Client, request: R) -> Sending<'c, R::Output> {
            Box::pin(async move { client.send(&request).await })
        }
    }
}

/// `Client::with_rate_limits`.
fn rate_limit_methods() -> TokenStream {
    quote! {
        /// This client, keeping within `policy` (by default the spec's rate limits, when it
        /// gives them); `None` sends every call as soon as it is made.
        pub fn with_rate_limits(&self, policy: Option<ratelimit::Policy>) -> Self {
            Self { limiter: policy.map(|p| std::sync::Arc::new(ratelimit::Limiter::new(p))), ..self.clone() }
        }

        /// This client, bounding each try and each whole call as `timeouts` says (by default a
        /// minute per try; [`Timeouts::none`] waits as long as it takes).
        /// A call past its whole bound fails with [`Error::TimedOut`]; a try past its own has no
        /// answer, and is tried again where that cannot do harm.
        pub fn with_timeouts(&self, timeouts: Timeouts) -> Self {
            Self { timeouts, ..self.clone() }
        }
    }
}

/// `Client::on_deprecation`.
fn on_deprecation_method() -> TokenStream {
    quote! {
        /// This client, calling `handler` with the notice of every answer that says what was
        /// called is deprecated (its `Deprecation`, `Sunset` and `Link` headers), errors
        /// included.
        pub fn on_deprecation(&self, handler: impl Fn(&Notice) + Send + Sync + 'static) -> Self {
            Self { on_deprecation: Some(OnDeprecation(std::sync::Arc::new(handler))), ..self.clone() }
        }

        /// This client, calling `handler` with the head (status and headers) of every answer,
        /// the last try's of each call, errors included.
        pub fn on_answer(&self, handler: impl Fn(&Head<'_>) + Send + Sync + 'static) -> Self {
            Self { on_answer: Some(OnAnswer(std::sync::Arc::new(handler))), ..self.clone() }
        }
    }
}

/// `Client::with_credential` and the accessors of the credential, the addresses and the HTTP
/// client.
fn accessors(routed: bool) -> TokenStream {
    let with_credential = if routed {
        quote! {
            /// This client, presenting `credential`, with a rate limiter of its own (a platform
            /// counts its limits per credential; a `401` stops only the credential it answered).
            pub fn with_credential(&self, credential: Credential) -> Self {
                let limiter = self.limiter.as_ref().map(|l| std::sync::Arc::new(ratelimit::Limiter::new(*l.policy())));
                Self { credential: Some(credential), limiter, ..self.clone() }
            }
        }
    } else {
        quote! {
            /// This client, presenting `credential`.
            pub fn with_credential(&self, credential: Credential) -> Self {
                Self { credential: Some(credential), ..self.clone() }
            }
        }
    };
    quote! {
        #with_credential

        /// This client, trying calls again as `retry` says (by default three tries in all, for
        /// what cannot do harm: see [`Retry`]); [`Retry::never`] tries each call once.
        pub fn with_retry(&self, retry: Retry) -> Self {
            Self { retry, ..self.clone() }
        }

        /// The credential presented, if any.
        pub fn credential(&self) -> Option<&Credential> {
            self.credential.as_ref()
        }

        /// The addresses.
        pub fn placeholders(&self) -> &Placeholders {
            &self.placeholders
        }

        /// The HTTP client requests go through.
        pub fn http(&self) -> &reqwest::Client {
            &self.http
        }

        /// How calls are tried again.
        pub fn retry(&self) -> &Retry {
            &self.retry
        }
    }
}

/// `Client::fetch`.
fn send_method() -> TokenStream {
    quote! {
        /// Sends one request and returns the body of a 2xx answer; any other answer is an
        /// error.
        async fn fetch(&self, route: Route, method: reqwest::Method, url: String, accepted: &'static [TokenKind], body: Option<Outgoing>) -> Result<Vec<u8>, Error> {
            let header = self.credential.as_ref().filter(|c| accepted.contains(&c.kind)).and_then(Credential::header_value).ok_or(Error::Credential { accepted })?;
            let endpoint = route.0;
            let answer = self.dispatch(route, method, url, Some(header), Vec::new(), body).await?;
            if (200..300).contains(&answer.status) {
                return Ok(answer.bytes);
            }
            Err(undeclared(endpoint, answer))
        }
    }
}

/// `Client::dispatch`, which every call goes through.
fn dispatch_method() -> TokenStream {
    quote! {
        /// Sends one request, trying it again as [`Client::with_retry`] allows, and reads the
        /// last answer.
        async fn dispatch(&self, route: Route, method: reqwest::Method, url: String, authorization: Option<String>, headers: Vec<(&'static str, String)>, body: Option<Outgoing>) -> Result<Answer, Error> {
            let response = self.open(route, method, url, authorization, headers, body, false).await?;
            Answer::read(response).await
        }

        /// Sends one request, trying it again as [`Client::with_retry`] allows, and returns the
        /// last answer with its body unread (`streamed`: read as it comes, for as long as it
        /// lasts). Its deprecation headers go to the handler set with `on_deprecation`.
        // Each argument is one fact of the calling endpoint's route or request.
        #[allow(clippy::too_many_arguments)]
        async fn open(&self, (endpoint, path, idempotency_key): Route, method: reqwest::Method, url: String, authorization: Option<String>, headers: Vec<(&'static str, String)>, body: Option<Outgoing>, streamed: bool) -> Result<reqwest::Response, Error> {
            let route = self.limiter.as_ref().map(|l| ratelimit::route(endpoint, path, &url, l.policy().major));
            let request = retry::Outgoing {
                endpoint,
                method: &method,
                url: &url,
                authorization: authorization.as_deref(),
                headers: &headers,
                body: body.as_ref().map(|b| (b.content_type.as_str(), b.bytes.as_slice())),
                limit: self.limiter.as_deref().zip(route.as_deref()).map(|(limiter, route)| (limiter, route, endpoint)),
                idempotency_key,
                timeouts: self.timeouts,
                streamed,
            };
            let response = retry::send(&self.http, &self.retry, request).await.map_err(|failure| match failure {
                retry::Failure::Transport(e) => Error::Transport(e),
                retry::Failure::Latched(_) => Error::CredentialRejected,
                retry::Failure::TimedOut => Error::TimedOut,
            })?;
            if let Some(OnAnswer(handler)) = &self.on_answer {
                handler(&Head { endpoint, status: response.status().as_u16(), headers: response.headers() });
            }
            if let Some(OnDeprecation(handler)) = &self.on_deprecation {
                let headers = response.headers().iter().filter_map(|(name, value)| Some((name.as_str(), value.to_str().ok()?)));
                if let Some(notice) = Notice::from_headers(endpoint, headers) {
                    handler(&notice);
                }
            }
            Ok(response)
        }
    }
}

/// `Answer`, what came back, and the errors made of it: `undeclared` for a status the endpoint
/// does not declare, `failure` for an error status.
fn answers(plan: &Plan) -> TokenStream {
    let declared = !plan.declared_errors().is_empty();
    // Reading a declared payload fails over to `None`: the answer is kept as it came anyway.
    let read_declared = declared.then(|| {
        quote! {
            /// The payload an endpoint declares for an error status, when it reads.
            fn read_declared(read: impl FnOnce() -> Result<Declared, Error>) -> Option<Declared> {
                read().ok()
            }
        }
    });
    let (declared_param, declared_field, none) = if declared {
        (quote!(, declared: Option<Declared>), quote!(declared,), quote!(, None))
    } else {
        (TokenStream::new(), TokenStream::new(), TokenStream::new())
    };
    quote! {
        /// An answer: its status, headers and body.
        struct Answer {
            status: u16,
            headers: reqwest::header::HeaderMap,
            bytes: Vec<u8>,
        }

        impl Answer {
            /// Reads the whole of `response`.
            async fn read(response: reqwest::Response) -> Result<Self, Error> {
                let status = response.status().as_u16();
                let headers = response.headers().clone();
                let bytes = response.bytes().await?.to_vec();
                Ok(Self { status, headers, bytes })
            }
        }

        /// The error of an answer no declared status covers: an error status is the platform's
        /// answer all the same; any other (a 1xx, 2xx or 3xx the endpoint does not declare)
        /// cannot be read as the call's result.
        fn undeclared(endpoint: &'static str, answer: Answer) -> Error {
            if answer.status >= 400 {
                return failure(endpoint, answer #none);
            }
            Error::Decode { status: answer.status, message: "a status the endpoint does not declare".to_owned() }
        }

        #read_declared

        /// The error of an answer with an error status: the platform's error read from the
        /// body when it is one, the answer kept as it came.
        fn failure(endpoint: &'static str, answer: Answer #declared_param) -> Error {
            let error = serde_json::from_slice::<ErrorBody>(&answer.bytes).ok().map(|body| ApiError::from_body(answer.status, body));
            Error::Api(Box::new(ErrorResponse { endpoint, status: answer.status, headers: answer.headers, bytes: answer.bytes, error, #declared_field }))
        }
    }
}

/// `Declared`: every error response with a payload that some endpoint declares, a variant
/// each, when there is one.
fn declared_enum(plan: &Plan) -> Option<TokenStream> {
    if plan.declared_errors().is_empty() {
        return None;
    }
    let variants = plan.declared_errors().iter().map(|d| {
        let module = names::endpoint_module(d.endpoint);
        let (response, response_names, path) =
            crate::emit::rust::types::responses::resolve_at(plan, d.response, quote!(types::endpoints::#module::), quote!(types::responses::));
        let payload = crate::emit::rust::types::responses::payload_type_in(plan, response, &response_names, &path, &quote!(types))
            .expect("BUG: the plan declares only responses with a payload");
        let doc = match &d.response.response {
            crate::model::ResponseUse::Named(id) => format!(" The named response `{}`.", id.id),
            crate::model::ResponseUse::Inline(_) => format!(" The `{}` response of `{}`.", d.response.status.id, d.endpoint.meta.id),
        };
        let variant = crate::plan::rust::parse_ident(&d.variant);
        quote!(#[doc = #doc] #variant(#payload),)
    });
    let large = (plan.declared_errors().len() > 1).then(crate::emit::rust::types::responses::large_variants_allowed);
    Some(quote! {
        /// An error answer as the endpoint declares it, decoded: a variant per error response
        /// with a payload that some endpoint declares.
        #[derive(Clone, Debug, PartialEq)]
        #large
        #[non_exhaustive]
        pub enum Declared {
            #(#variants)*
        }
    })
}

/// `join`, of an address and a path.
fn join() -> TokenStream {
    quote! {
        /// An address and a path, with one slash between them.
        fn join(address: &str, path: &str) -> String {
            format!("{}{path}", address.trim_end_matches('/'))
        }
    }
}

/// `Client::new`. When some endpoint declares a redirect (3xx) among its responses, redirects
/// are not followed, so the answer comes back as its variant.
fn new_client(plan: &Plan) -> TokenStream {
    let redirects = plan.routed_endpoints().flat_map(|e| &e.responses).filter_map(|r| r.status()).any(|s| {
        let (low, high) = s.codes();
        low <= 399 && high >= 300 && s != crate::model::Status::Default
    });
    if !redirects {
        return quote! {
            /// A client of the platform at `placeholders`' addresses, with no credential, whose
            /// requests carry [`USER_AGENT`].
            pub fn new(placeholders: Placeholders) -> Self {
                let http = reqwest::Client::builder().user_agent(USER_AGENT).build().unwrap_or_default();
                Self::with_http(http, placeholders)
            }
        };
    }
    quote! {
        /// A client of the platform at `placeholders`' addresses, with no credential, whose
        /// requests carry [`USER_AGENT`]. It does not follow redirects: some endpoints declare 3xx
        /// answers, which come back as their variants (give [`Client::with_http`] a client with
        /// `redirect::Policy::none()` too).
        pub fn new(placeholders: Placeholders) -> Self {
            let http = reqwest::Client::builder().user_agent(USER_AGENT).redirect(reqwest::redirect::Policy::none()).build().unwrap_or_default();
            Self::with_http(http, placeholders)
        }
    }
}

/// Whether an endpoint's body is sent as JSON in some format it accepts.
fn sends_json(plan: &Plan, e: &Endpoint) -> bool {
    plan.facts(e).has_body
        && !plan.facts(e).raw_body
        && !plan.facts(e).parts_body
        && (if plan.facts(e).several_formats { e.accepts_format("json") } else { e.body_format() != "form" })
}

/// Whether an endpoint's body is sent as a form in some format it accepts.
fn sends_form(plan: &Plan, e: &Endpoint) -> bool {
    plan.facts(e).has_body && !plan.facts(e).raw_body && e.accepts_format("form")
}

/// The encoders and decoders some routed endpoint uses.
fn helpers(plan: &Plan) -> TokenStream {
    let routed: Vec<&Endpoint> = plan.routed_endpoints().collect();
    let mut out = TokenStream::new();
    if routed.iter().any(|e| sends_json(plan, e)) {
        out.extend(quote! {
            /// A JSON body.
            fn json<T: serde::Serialize>(value: &T) -> Result<Outgoing, Error> {
                let bytes = serde_json::to_vec(value).map_err(|e| Error::Invalid(vec![Violation::new("/body", e.to_string())]))?;
                Ok(Outgoing { content_type: "application/json".to_owned(), bytes })
            }
        });
    }
    if routed.iter().any(|e| sends_form(plan, e)) {
        let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
        out.extend(quote! {
            /// A form body.
            fn form<T: serde::Serialize>(value: &T) -> Result<Outgoing, Error> {
                let text = #runtime::form::to_text(value).map_err(|e| Error::Invalid(vec![Violation::new("/body", e)]))?;
                Ok(Outgoing { content_type: "application/x-www-form-urlencoded".to_owned(), bytes: text.into_bytes() })
            }
        });
    }
    if routed.iter().any(|e| !e.query.is_empty() && !exchange::list_query(e)) {
        out.extend(quote! {
            /// `url` with `query` appended when it has parameters.
            fn with_query<Q: serde::Serialize>(url: String, query: &Q) -> Result<String, Error> {
                let query = serde_urlencoded::to_string(query).map_err(|e| Error::Invalid(vec![Violation::new("/query", e.to_string())]))?;
                Ok(if query.is_empty() { url } else { format!("{url}?{query}") })
            }
        });
    }
    // Endpoints that go through `exchange` decode their answers there.
    if routed.iter().any(|e| !exchange::needs_exchange(plan, e) && matches!(plan.facts(e).response, ResponseKind::Json)) {
        out.extend(quote! {
            /// Decodes a JSON answer.
            fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
                serde_json::from_slice(bytes).map_err(|e| Error::Decode { status: 200, message: e.to_string() })
            }
        });
    }
    out
}

/// The address an endpoint's requests go to: its part's placeholder, or nothing when no part
/// has an address (the request is made at its path alone).
pub(super) fn address(plan: &Plan, e: &Endpoint) -> TokenStream {
    endpoint_address(plan, e).map_or_else(
        || quote!(""),
        |id| {
            let id = plan.placeholder(id);
            quote!(&client.placeholders.#id)
        },
    )
}

/// `<method>_pages` and `<method>_stream` of a paginated endpoint: its pages, and their items,
/// as streams that fetch the next page when polled past the one before.
fn page_methods(plan: &Plan, e: &Endpoint) -> Option<TokenStream> {
    let item = plan.paging(e)?.ok()?;
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let (call, pages, stream) = (names::client_method(e), names::client_pages_method(e), names::client_stream_method(e));
    let module = names::endpoint_module(e);
    let page = if e.has_status_responses() { quote!(Success) } else { quote!(Response) };
    let way = match item.way {
        crate::model::PageWay::Cursor { .. } => format!("the cursor in `{}`", item.from.map_or("", |f| f.name.as_str())),
        crate::model::PageWay::Keyset { .. } => format!("the `{}` of its last item", item.key.map_or("", |f| f.name.as_str())),
        crate::model::PageWay::Offset { .. } => "the count of the items before it".to_owned(),
        crate::model::PageWay::Link { .. } => format!("the `{}` of the next page's address in its `Link` header", item.param.wire()),
    };
    let pages_doc = [
        format!(" The pages of [`Self::{call}`], from the one `request` asks for: each next one is asked for"),
        format!(" with `{}` set to {way}.", item.param.name),
        " A page is fetched when the stream is polled past the one before, so dropping the stream".to_owned(),
        " stops paging; an error is the stream's last item. The stream holds a clone of this client,".to_owned(),
        " so it outlives the borrow and can be moved to another task.".to_owned(),
    ];
    let stream_doc = format!(" The items of every page of [`Self::{pages}`], in order.");
    let deprecated = crate::emit::rust::shared::deprecated_attribute(plan, e.meta.deprecated.as_ref(), e.meta.until.as_ref(), None);
    Some(quote! {
        #(#[doc = #pages_doc])*
        #deprecated
        pub fn #pages(
            &self,
            request: types::endpoints::#module::Request,
        ) -> impl #runtime::pagination::Stream<Item = Result<types::endpoints::#module::#page, Error>> + Send + use<> {
            let client = self.clone();
            #runtime::pagination::pages(request, move |request| {
                let client = client.clone();
                async move { client.send(&request).await }
            })
        }

        #[doc = #stream_doc]
        #deprecated
        pub fn #stream(
            &self,
            request: types::endpoints::#module::Request,
        ) -> impl #runtime::pagination::Stream<Item = Result<<types::endpoints::#module::Request as #runtime::pagination::Paginated>::Item, Error>> + Send + use<> {
            let client = self.clone();
            #runtime::pagination::items(request, move |request| {
                let client = client.clone();
                async move { client.send(&request).await }
            })
        }
    })
}

fn method(plan: &Plan, e: &Endpoint) -> TokenStream {
    if exchange::needs_exchange(plan, e) {
        return exchange::method(plan, e);
    }
    let address = address(plan, e);
    let http_method = names::method_const(e.method.as_ref().map_or("", |m| m.id.as_str()));
    let query = (!e.query.is_empty()).then(|| quote!(let url = with_query(url, &request.query)?;));
    let body = if !plan.facts(e).has_body {
        quote!(None)
    } else if plan.facts(e).raw_body {
        quote!(Some(Outgoing { content_type: request.body.content_type.clone(), bytes: request.body.bytes.clone() }))
    } else if e.body_format() == "form" {
        encoded(plan, e, quote!(form))
    } else {
        encoded(plan, e, quote!(json))
    };
    let id = &e.meta.id;
    let key = idempotency_key(e);
    let send = quote!(client.fetch((#id, endpoint::PATH, #key), reqwest::Method::#http_method, url, endpoint::AUTH, #body).await?);
    let check = plan.facts(e).checks_response.then(|| {
        quote! {
            let violations = endpoint::check_response(&response);
            if !violations.is_empty() {
                return Err(Error::InvalidResponse(violations));
            }
        }
    });
    let answer = match plan.facts(e).response {
        ResponseKind::Json if check.is_some() => quote! {
            let bytes = #send;
            let response: endpoint::Response = decode(&bytes)?;
            #check
            Ok(response)
        },
        ResponseKind::Json => quote! {
            let bytes = #send;
            decode(&bytes)
        },
        ResponseKind::Text if check.is_some() => quote! {
            let bytes = #send;
            let response = String::from_utf8(bytes).map_err(|e| Error::Decode { status: 200, message: e.to_string() })?;
            #check
            Ok(response)
        },
        ResponseKind::Text => quote! {
            let bytes = #send;
            String::from_utf8(bytes).map_err(|e| Error::Decode { status: 200, message: e.to_string() })
        },
        ResponseKind::Empty => quote! {
            #send;
            Ok(())
        },
    };
    call_impl(
        e,
        quote! {
            let violations = request.validate();
            if !violations.is_empty() {
                return Err(Error::Invalid(violations));
            }
            let url = join(#address, &request.uri_path());
            #query
            #answer
        },
    )
}

/// `#[doc(alias)]` of the endpoint's display name, so rustdoc's search finds the method by the
/// name the platform's docs use ("Create Reaction"); none when it is the id or the method's own
/// name, or is one rustc refuses as an alias (a quote, whitespace other than a space, a space at
/// either end).
/// The first lines of a method's docs: the endpoint's method, path and display name, then its
/// description.
pub(super) fn method_doc(e: &Endpoint) -> Vec<String> {
    let verb = e.method.as_ref().map(|m| m.id.as_str()).unwrap_or_default();
    let path = e.path.as_ref().map(|p| p.id.as_str()).unwrap_or_default();
    let title = if e.meta.name.is_empty() { e.meta.id.as_str() } else { e.meta.name.as_str() };
    let mut lines = vec![format!(" `{verb} {path}`: {title}.")];
    if let Some(d) = &e.meta.description {
        lines.push(String::new());
        lines.extend(crate::emit::rust::format::doc_text_lines(d).into_iter().map(|l| format!(" {l}")));
    }
    lines
}

pub(super) fn alias(e: &Endpoint) -> Option<TokenStream> {
    let name = e.meta.name.as_str();
    let refused = |c: char| c == '"' || c == '\'' || (c.is_whitespace() && c != ' ');
    let method = names::client_method(e).to_string();
    let usable = !name.is_empty() && name == name.trim_matches(' ') && !name.contains(refused);
    (usable && name != e.meta.id && name != method.trim_start_matches("r#")).then(|| quote!(#[doc(alias = #name)]))
}

/// The outgoing body of an endpoint whose body `encode` (`json` or `form`) writes: none for an
/// optional body left out; a JSON body of another JSON media type sent as that type.
pub(super) fn encoded(plan: &Plan, e: &Endpoint, encode: TokenStream) -> TokenStream {
    let retyped = |value: TokenStream| match (&e.body_media_type, encode.to_string() == "json") {
        (Some(m), true) => {
            let media = &m.id;
            quote!(#encode(#value).map(|o| Outgoing { content_type: #media.to_owned(), ..o }))
        }
        _ => quote!(#encode(#value)),
    };
    if plan.facts(e).optional_body && e.body_media_type.is_none() {
        quote!(request.body.as_ref().map(#encode).transpose()?)
    } else if plan.facts(e).optional_body {
        let each = retyped(quote!(body));
        quote!(request.body.as_ref().map(|body| #each).transpose()?)
    } else {
        let one = retyped(quote!(&request.body));
        quote!(Some(#one?))
    }
}
