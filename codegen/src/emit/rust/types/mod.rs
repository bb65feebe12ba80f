//! The `platform-types` crate: every resource, enum, flag set, permission, error, limit, dated
//! change, scope, rule, event, opcode, state machine and endpoint shape of the spec, with the
//! validators the server and the client share.

mod auth;
mod bitsets;
mod changes;
pub(crate) mod checks;
pub(crate) mod deprecations;
pub(crate) mod docs;
pub(crate) mod endpoints;
pub(crate) mod enums;
pub(crate) mod errors;
pub(crate) mod events;
pub(crate) mod fields;
mod gateways;
pub(crate) mod literals;
mod members;
mod pages;
mod patterns;
mod rate_limits;
mod resources;
pub(crate) mod responses;
pub(crate) mod rules;
mod states;
pub(crate) mod streams;
pub(crate) mod unions;
mod webhooks;

use super::format::{Parts, format_file, format_parts};
use super::shared::{lib_ident, module_decls, package};
use crate::emit::cargo::{self, Manifest};
use crate::emit::{EmitOptions, GeneratedFile};
use crate::plan::rust::Plan;
use proc_macro2::TokenStream;
use quote::quote;

/// The artifact name in summaries.
pub const ARTIFACT: &str = "types";

/// One module of the crate: its file stem and how to emit its items. The items are emitted
/// when the module is formatted, so one module's tokens and syntax tree are held at a time.
struct Module<'a> {
    name: &'static str,
    items: Box<dyn FnOnce() -> Parts<'a> + 'a>,
}

impl<'a> Module<'a> {
    /// A module emitted whole.
    fn new(name: &'static str, items: impl FnOnce() -> TokenStream + 'a) -> Self {
        Self { name, items: Box::new(move || Box::new(std::iter::once(items()))) }
    }

    /// A module emitted an item (an endpoint, a resource) at a time.
    fn parts<I: Iterator<Item = TokenStream> + 'a>(name: &'static str, items: impl FnOnce() -> I + 'a) -> Self {
        Self { name, items: Box::new(move || Box::new(items())) }
    }
}

/// Emits `types/Cargo.toml` and `types/src/*.rs`.
pub fn emit(plan: &Plan, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let notice = opts.notice();
    let modules = modules(plan);
    let mut files = cargo_toml(plan, opts);
    files.push(GeneratedFile::new(ARTIFACT, "types/src/lib.rs", format_file(&notice, lib_rs(plan, &modules))));
    for m in modules {
        files.push(GeneratedFile::new(ARTIFACT, format!("types/src/{}.rs", m.name), format_parts(&notice, (m.items)())));
    }
    files
}

fn modules<'p>(plan: &'p Plan<'p>) -> Vec<Module<'p>> {
    let mut out = vec![
        Module::new("placeholders", move || auth::placeholders(plan)),
        Module::new("changes", move || changes::emit(plan)),
        Module::new("deprecations", move || deprecations::emit(plan)),
        Module::new("limits", move || changes::limits(plan)),
        Module::new("permissions", move || bitsets::permissions(plan)),
        Module::new("enums", move || enums::emit(plan)),
        Module::new("flags", move || bitsets::flags(plan)),
        Module::parts("resources", move || resources::emit(plan)),
    ];
    if !plan.unions.is_empty() {
        out.push(Module::parts("unions", move || unions::emit(plan)));
    }
    let patterns = plan.patterns();
    if !patterns.is_empty() {
        out.push(Module::new("patterns", move || patterns::emit(patterns)));
    }
    out.extend([
        Module::new("auth", move || auth::emit(plan)),
        Module::new("rules", move || rules::emit(plan)),
        Module::new("errors", move || errors::emit(plan)),
        Module::new("events", move || events::events(plan)),
        Module::new("gateway", move || events::gateway(plan)),
    ]);
    if !plan.commands.is_empty() {
        out.push(Module::new("commands", move || events::commands(plan)));
    }
    if plan.delivered_webhooks().next().is_some() {
        out.push(Module::new("webhooks", move || webhooks::emit(plan)));
    }
    if plan.sessions().next().is_some() {
        out.push(Module::new("gateways", move || gateways::emit(plan)));
    }
    out.push(Module::new("states", move || states::emit(plan)));
    if !plan.headers.is_empty() {
        out.push(Module::new("headers", move || responses::named_headers(plan)));
    }
    if !plan.responses.is_empty() {
        out.push(Module::new("responses", move || responses::named_responses(plan)));
    }
    if let Some(r) = &plan.rate_limits {
        out.push(Module::new("rate_limits", move || rate_limits::emit(r)));
    }
    out.push(Module::parts("endpoints", move || endpoints::emit(plan)));
    out
}

fn cargo_toml(plan: &Plan, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let description = format!("{}: every resource, enum, flag, permission, error, limit and dated change of the spec, as Rust types", plan.platform.name);
    // Crates only some shapes need are dependencies only of the crates whose spec has them.
    let needs = fields::wire_needs(plan);
    let mut runtime = vec!["model"];
    runtime.extend(needs.bytes.then_some("bytes"));
    runtime.extend(needs.map.then_some("map"));
    runtime.extend(plan.endpoints.iter().any(|e| plan.stream_of(e).is_some()).then_some("stream"));
    runtime.extend(plan.sessions().next().is_some().then_some("gateway"));
    let mut third_party = vec![cargo::JIFF];
    let (linear, backtracking) = patterns::engines(plan.patterns());
    if linear {
        third_party.push(cargo::REGEX);
    }
    if backtracking {
        third_party.push(cargo::FANCY_REGEX);
    }
    third_party.extend([cargo::SERDE, cargo::SERDE_JSON]);
    let features = &[
        "# `server`: what only a server needs, reading requests (the `Deserialize` of each endpoint's",
        "# path, query, header and body parts). A client-only build compiles without it.",
        "server = []",
    ];
    let mut dependencies = vec![cargo::sibling_with(&package(plan, cargo::RUNTIME), cargo::RUNTIME, &runtime)];
    dependencies.extend(third_party.iter().map(|d| d.line()));
    let readme = format!(
        "The typed model of the platform: resources, enums and flags, permissions, errors, limits, dated changes, and per endpoint its request, responses and checks. The server (`{}`) and the client (`{}`) share it.\n",
        package(plan, "server"),
        package(plan, "client")
    );
    let manifest = Manifest { lib: &["path = \"src/lib.rs\""], features, dependencies, readme, doc_examples: false };
    cargo::crate_files(opts, ARTIFACT, "types", &package(plan, ARTIFACT), &description, manifest)
}

fn lib_rs(plan: &Plan, modules: &[Module<'_>]) -> TokenStream {
    let names: Vec<&str> = modules.iter().map(|m| m.name).collect();
    let decls = module_decls(&names);
    let title = format!(" {}: the typed model, generated from the spec.", plan.platform.name);
    let lib = lib_ident(plan, ARTIFACT).to_string();
    let intro = [
        String::new(),
        " Every item mirrors one item of the spec, with the spec's description as its docs. Enums and".to_owned(),
        " flag sets are open: values the spec does not name round-trip (`Unknown(n)`, unknown bits kept).".to_owned(),
        " [`validation::Validate`] checks every declared constraint and reports all violations, each at".to_owned(),
        " a JSON pointer; the server and the client run the same checks.".to_owned(),
        String::new(),
        " Dated changes are constants of [`changes`]; ask one whether it is in effect at an instant".to_owned(),
        format!(" (`{lib}::changes::ALL[0].is_in_effect(now)`), with `now` read from a [`clock::Clock`]."),
        String::new(),
        " The `server` feature adds what only a server needs: reading requests, the `Deserialize` of".to_owned(),
        " each endpoint's path, query, header and body parts. The server crate turns it on; a client".to_owned(),
        " compiles without it.".to_owned(),
    ];
    let reexports = reexports(plan);
    let runtime = lib_ident(plan, cargo::RUNTIME);
    let streams = plan.endpoints.iter().any(|e| plan.stream_of(e).is_some());
    let hooks = plan.delivered_webhooks().next().is_some();
    let foundation = ["clock", "delivery", "pagination", "ratelimit", "stream", "validation", "wire"]
        .into_iter()
        .filter(|m| *m != "stream" || streams)
        .filter(|m| *m != "delivery" || hooks)
        .map(|m| proc_macro2::Ident::new(m, proc_macro2::Span::call_site()));
    // The runtime's `gateway` module is `session` here: `gateway` is the opcodes' own module.
    let session = plan.sessions().next().is_some().then(|| {
        quote! {
            #[rustfmt::skip]
            pub use #runtime::gateway as session;
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
        // `#[deprecated(since = ..)]` names the date of the deprecating change, not a crate version.
        #![allow(clippy::deprecated_semver)]

        // The spec-independent foundation, from the runtime crate beside this one.
        #[rustfmt::skip]
        pub use #runtime::{#(#foundation),*};
        #session

        #decls

        #reexports
    }
}

/// Root re-exports of the most used names, skipping any name two modules share.
fn reexports(plan: &Plan) -> TokenStream {
    let mut names: Vec<(&str, proc_macro2::Ident)> = vec![
        ("wire", quote::format_ident!("Snowflake")),
        ("wire", quote::format_ident!("StringInteger")),
        ("validation", quote::format_ident!("Validate")),
        ("validation", quote::format_ident!("Violation")),
        ("clock", quote::format_ident!("Clock")),
        ("clock", quote::format_ident!("FixedClock")),
        ("clock", quote::format_ident!("SystemClock")),
        ("changes", quote::format_ident!("Change")),
        ("placeholders", quote::format_ident!("Placeholders")),
        ("permissions", quote::format_ident!("Permission")),
        ("permissions", quote::format_ident!("Permissions")),
        ("errors", quote::format_ident!("ApiError")),
        ("errors", quote::format_ident!("ErrorBody")),
        ("errors", quote::format_ident!("ErrorCode")),
        ("auth", quote::format_ident!("Credential")),
        ("auth", quote::format_ident!("CredentialRef")),
        ("auth", quote::format_ident!("TokenKind")),
    ];
    names.extend(plan.resources.iter().map(|r| ("resources", crate::plan::rust::names::resource(r))));
    names.extend(plan.unions.iter().map(|u| ("unions", crate::plan::rust::names::union_type(u))));
    names.extend(plan.enums.iter().map(|e| ("enums", crate::plan::rust::names::enum_type(e))));
    names.extend(plan.flags.iter().map(|f| ("flags", crate::plan::rust::names::flags_type(f))));
    let mut counts = std::collections::BTreeMap::new();
    for (_, n) in &names {
        *counts.entry(n.to_string()).or_insert(0) += 1;
    }
    names
        .iter()
        .filter(|(_, n)| counts[&n.to_string()] == 1)
        .map(|(module, name)| {
            let module = proc_macro2::Ident::new(module, proc_macro2::Span::call_site());
            quote! {
                #[rustfmt::skip]
                pub use #module::#name;
            }
        })
        .collect()
}
