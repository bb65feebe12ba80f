//! The `platform-server` crate: a trait with one async method per routed endpoint (plus the
//! hooks rules ask), and an axum router that does every mechanical step before a handler runs.

mod api;
mod gateways;
mod handler;
mod http;
mod mock;
mod refusals;
pub(super) mod router;
mod runtime;
mod webhooks;

use super::format::{Parts, format_file, format_parts};
use super::shared::{lib_ident, module_decls, package};
use crate::emit::cargo::{self, Manifest};
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::Endpoint;
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The artifact name in summaries.
pub const ARTIFACT: &str = "server";

/// Emits `server/Cargo.toml` and `server/src/*.rs`.
pub fn emit(plan: &Plan, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let notice = opts.notice();
    // Each module is emitted when it is formatted, the router a handler at a time: the tokens
    // of one part are held at a time.
    let whole = |items: fn(&Plan) -> TokenStream| -> Parts<'_> { Box::new(std::iter::once(items(plan))) };
    let modules: [(&str, Parts<'_>); 4] =
        [("api", whole(api::api)), ("router", Box::new(router::router(plan))), ("runtime", whole(runtime_module)), ("mock", whole(mock::mock))];
    let mut files = cargo_toml(plan, opts);
    files.push(GeneratedFile::new(ARTIFACT, "server/src/lib.rs", format_file(&notice, lib_rs(plan))));
    for (name, items) in modules {
        files.push(GeneratedFile::new(ARTIFACT, format!("server/src/{name}.rs"), format_parts(&notice, items)));
    }
    if webhooks::any(plan) {
        files.push(GeneratedFile::new(ARTIFACT, "server/src/webhooks.rs", format_file(&notice, webhooks::emit(plan))));
    }
    if gateways::any(plan) {
        files.push(GeneratedFile::new(ARTIFACT, "server/src/gateways.rs", format_file(&notice, gateways::emit(plan))));
    }
    files
}

/// `runtime.rs`: the fixed runtime and the spec's HTTP items.
fn runtime_module(plan: &Plan) -> TokenStream {
    let mut runtime = runtime::runtime(&lib_ident(plan, cargo::RUNTIME), http::any_parts(plan));
    runtime.extend(http::runtime_items(plan));
    runtime.extend(refusals::helpers(plan));
    runtime
}

fn cargo_toml(plan: &Plan, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let description = format!("{}: an axum server that enforces the spec before your handlers run", plan.platform.name);
    // The server reads requests: the types crate's `server` feature.
    // The runtime's request readers, with multipart bodies only for specs that have them.
    let mut runtime = vec!["server"];
    runtime.extend(http::any_parts(plan).then_some("multipart"));
    runtime.extend(plan.endpoints.iter().any(|e| plan.stream_of(e).is_some()).then_some("stream"));
    let mut dependencies =
        vec![cargo::sibling_with(&package(plan, cargo::RUNTIME), cargo::RUNTIME, &runtime), cargo::sibling_with(&package(plan, "types"), "types", &["server"])];
    let third_party = [cargo::AXUM, cargo::SERDE, cargo::SERDE_JSON];
    dependencies.extend(third_party.iter().map(|d| d.line()));
    let mut features = vec!["# `mock`: an implementation of `Api` answering values that meet the spec (src/mock.rs).".to_owned(), "mock = []".to_owned()];
    if webhooks::any(plan) {
        let runtime = package(plan, cargo::RUNTIME);
        features.push("# `webhooks`: senders that sign and deliver webhook events to apps (src/webhooks.rs).".to_owned());
        features.push(format!("webhooks = [\"{runtime}/webhooks\", \"{runtime}/client\"]"));
    }
    if gateways::any(plan) {
        features.push("# `gateway`: the gateways' WebSocket routes and hubs of sessions (src/gateways.rs).".to_owned());
        features.push(format!("gateway = [\"{}/gateway-server\"]", package(plan, cargo::RUNTIME)));
    }
    let features: Vec<&str> = features.iter().map(String::as_str).collect();
    let manifest = Manifest {
        lib: &["path = \"src/lib.rs\""],
        features: &features,
        dependencies,
        readme: "Implement the `Api` trait, one async method per routed endpoint, and serve `router(api)` with `axum::serve`: the router authenticates, parses, checks every declared constraint and permission rule, and answers the spec's error bodies before a handler runs. The `mock` feature adds an `Api` that answers values meeting the spec.\n".to_owned(),
        doc_examples: false,
    };
    cargo::crate_files(opts, ARTIFACT, "server", &package(plan, ARTIFACT), &description, manifest)
}

fn lib_rs(plan: &Plan) -> TokenStream {
    let types = lib_ident(plan, "types");
    let title = format!(" {}: the server side, generated from the spec.", plan.platform.name);
    let intro = [
        "",
        " Implement [`Api`]: one async method per routed endpoint, plus the hooks permission rules ask",
        " (the caller's permissions, intents and scopes, and each named condition). Mount [`router()`] and",
        " serve it with `axum::serve`. Before a handler runs, the router has:",
        "",
        " - authenticated the caller (401 without a credential the endpoint accepts);",
        " - parsed the path, the query and the body (a malformed value answers 400 with the JSON error",
        "   body and a JSON pointer, never a 5xx);",
        " - refused a body over the upload limit (413);",
        " - checked every declared constraint, reporting all violations at once;",
        " - evaluated the endpoint's permission rules as of the request's instant, read once from the",
        "   [`Options::clock`] (403 naming what is missing).",
        "",
        " Dated behaviour only the implementation can carry out reaches the handler as the gates of",
        " [`Call::gates`], decided at the same instant. A handler of an endpoint with a permission rule",
        " receives [`Granted`] in [`Call::granted`]: the proof, only the router can make, that the rule held.",
        "",
        " Answers of deprecated endpoints and alias routes, and of calls whose handler reports a",
        " deprecated behaviour ([`Call::deprecations`]), carry `Deprecation` (RFC 9745), `Sunset`",
        " (RFC 8594) and `Link` headers naming the changes' entries in the reference page.",
    ];
    let decls = module_decls(&["api", "router", "runtime"]);
    let gateways = gateways::any(plan).then(|| {
        quote! {
            /// The gateways' WebSocket routes and hubs of sessions (feature `gateway`).
            #[cfg(feature = "gateway")]
            #[rustfmt::skip]
            pub mod gateways;
        }
    });
    let webhooks = webhooks::any(plan).then(|| {
        quote! {
            /// Senders that sign and deliver webhook events to apps (feature `webhooks`).
            #[cfg(feature = "webhooks")]
            #[rustfmt::skip]
            pub mod webhooks;
        }
    });
    quote! {
        #![doc = #title]
        #(#![doc = #intro])*
        #![forbid(unsafe_code)]
        #![warn(missing_docs)]
        // Items the spec deprecates are `#[deprecated]` so their users' compilers say so; the
        // generated crates' own listings of them (`KNOWN`, match arms, derives) are not such uses.
        #![allow(deprecated)]

        #[rustfmt::skip]
        pub use #types as types;

        #decls

        /// A mock implementation of [`Api`] that answers every endpoint with values that meet
        /// the spec (feature `mock`).
        #[cfg(feature = "mock")]
        #[rustfmt::skip]
        pub mod mock;

        #webhooks

        #gateways

        #[rustfmt::skip]
        pub use api::{Api, Call, Granted, Notices, Operation, RuleContext, granted};

        #[rustfmt::skip]
        pub use router::{DEFAULT_BODY_LIMIT, DEFAULT_BODY_TIMEOUT, Options, router, router_with};
    }
}

/// Routed endpoints, in spec order.
pub(super) fn routed<'p>(plan: &'p Plan<'p>) -> Vec<&'p Endpoint> {
    plan.routed_endpoints().collect()
}

/// The key `RawPathParams` gives a placeholder (or the mixed segment it starts).
pub(super) fn segment_key(e: &Endpoint, name: &str) -> String {
    let field = names::path_param(e, name);
    field.to_string().trim_start_matches("r#").to_owned()
}

/// `text` with its first letter in lower case, to continue a sentence.
pub(super) fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

/// A JSON pointer reference token (RFC 6901).
pub(super) fn pointer_token(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The local holding the path of a placeholder's address (`prefix_base_url`).
pub(super) fn prefix_local(plan: &Plan, placeholder: &str) -> Ident {
    format_ident!("prefix_{}", plan.placeholder(placeholder).to_string().trim_start_matches("r#"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Bound, Cond, Model, Ref};

    /// The fixture spec, with a routed query parameter whose bound is another endpoint's response
    /// field and which a condition makes required: the shape of the shipped spec's `shard`,
    /// which no routed endpoint has yet.
    fn model_with_runtime_checks() -> Model {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/minimal");
        let mut model = crate::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid")).model;
        let list = model.endpoints.iter_mut().find(|e| e.meta.id == "list_widgets").expect("the fixture routes list_widgets");
        let page = &mut list.query[0];
        let named = |id: &str| Ref { id: id.to_owned(), span: Default::default() };
        page.constraints.max_exclusive = Some(Bound::Field { endpoint: named("delete_widget"), field: "pages".to_owned(), offset: 0 });
        page.required_when = Some(Cond::Named { condition: named("caller_owns_widget"), arg: None });
        model
    }

    fn file<'f>(files: &'f [GeneratedFile], path: &str) -> &'f str {
        &files.iter().find(|f| f.path == path).unwrap_or_else(|| panic!("{path} is emitted")).contents
    }

    #[test]
    fn run_time_bounds_and_conditions_are_asked_of_the_implementation() {
        let model = model_with_runtime_checks();
        let plan = Plan::new(&model);
        let server = emit(&plan, &EmitOptions::default());
        let api = file(&server, "server/src/api.rs");
        assert!(api.contains("fn delete_widget_pages("), "a hook reads the bound:\n{api}");
        let router = file(&server, "server/src/router.rs");
        assert!(router.contains("delete_widget_pages: Some(Api::delete_widget_pages(&app.api, &cx).await?)"), "{router}");
        assert!(router.contains("caller_owns_widget: ask(&app.api, &cx, Condition::CallerOwnsWidget).await?"), "{router}");
        assert!(router.contains("violations.extend(input.validate_runtime(&runtime_values));"), "{router}");
        let types = super::super::types::emit(&plan, &EmitOptions::default());
        let endpoints = file(&types, "types/src/endpoints.rs");
        assert!(endpoints.contains("pub delete_widget_pages: Option<i64>,"), "{endpoints}");
        assert!(endpoints.contains("\"is required\"") || endpoints.contains("crate::validation::required("), "{endpoints}");
    }

    #[test]
    fn without_run_time_checks_no_hook_is_asked_for() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/minimal");
        let model = crate::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid")).model;
        let server = emit(&Plan::new(&model), &EmitOptions::default());
        assert!(!file(&server, "server/src/router.rs").contains("validate_runtime"));
    }
}
