//! The Rust identifier of every spec item, and the scopes those identifiers share.
//!
//! Each function here names one kind of item in one place of the generated crates (a variant, a
//! constant, a struct, a trait method), from the item's `rust_name` or id. The emitters call
//! them, and so does [`namespaces`], which lists every scope where two spec items could end up
//! with one identifier: validation reports those ([`crate::validate`], E0141), so the emitters
//! may assume identifiers are distinct.
//!
//! Names the generator itself gives in a scope (`Unknown`, `ALL`, `KNOWN`, the server's
//! `authenticate` hook, the router's helper functions, ...) never clash with a spec item's: an
//! item whose identifier would be one of them gets a trailing `_`
//! ([`crate::plan::case::escape`]), which no converted id has.

use super::idents::{const_ident, item_ident, type_ident, value_ident};
use crate::model::*;
use crate::plan::{Entry, Namespace};
use proc_macro2::Ident;
use quote::format_ident;
use std::borrow::Cow;

/// An identifier from a converted name, escaped when the generator reserves it in its scope.
fn escaped(ident: Ident, reserved: &[&str]) -> Ident {
    let text = ident.to_string();
    if reserved.contains(&text.as_str()) { format_ident!("{}_", text) } else { ident }
}

/// The item of `items` with this id.
fn find<'m, T: Item>(items: &'m [T], id: &str) -> Option<&'m T> {
    items.iter().find(|i| i.meta().id == id)
}

/// The Rust stem of the item of `items` with this id (the id itself if there is none, which
/// validation rules out).
fn stem<'m, T: Item>(items: &'m [T], id: &'m str) -> &'m str {
    find(items, id).map_or(id, |i| i.meta().rust())
}

// --- types: shapes ---------------------------------------------------------------------------

/// The struct of a resource (`resources::Channel`).
pub fn resource(r: &Resource) -> Ident {
    item_ident(r.meta.rust())
}

/// The struct of the resource with this id.
pub fn resource_id(model: &Model, id: &str) -> Ident {
    item_ident(stem(&model.resources, id))
}

/// The enum of a union (`unions::Component`).
pub fn union_type(u: &Union) -> Ident {
    item_ident(u.meta.rust())
}

/// The union with this id.
pub fn union_id(model: &Model, id: &str) -> Ident {
    item_ident(stem(&model.unions, id))
}

/// A variant of a union, named after its field (`ActionRow`).
pub fn union_variant(v: &Field) -> Ident {
    type_ident(v.rust())
}

/// The arm of a union that keeps values the spec does not describe: `Unknown`, or `Unnamed`
/// when a variant is named `Unknown`, or `Unknown_` when both are taken.
pub fn union_catch_all(u: &Union) -> Ident {
    let taken = |name: &str| u.variants.iter().any(|v| union_variant(v) == name);
    if !taken("Unknown") {
        format_ident!("Unknown")
    } else if !taken("Unnamed") {
        format_ident!("Unnamed")
    } else {
        format_ident!("Unknown_")
    }
}

/// The enum of an enum (`enums::ActivityType`).
pub fn enum_type(e: &Enum) -> Ident {
    item_ident(e.meta.rust())
}

/// The enum with this id.
pub fn enum_id(model: &Model, id: &str) -> Ident {
    item_ident(stem(&model.enums, id))
}

/// A named value of an enum.
pub fn enum_variant(v: &EnumValue) -> Ident {
    type_ident(v.meta.rust())
}

/// The variant of value `value` of the enum with id `enum_id`.
pub fn enum_variant_id(model: &Model, enum_id: &str, value: &str) -> Ident {
    type_ident(find(&model.enums, enum_id).map_or(value, |e| stem(&e.values, value)))
}

/// The arm that keeps values the spec does not name: `Unknown`, or `Unnamed` when a value is
/// named `Unknown`, or `Unknown_` when both are taken.
pub fn catch_all(e: &Enum) -> Ident {
    let taken = |name: &str| e.values.iter().any(|v| enum_variant(v) == name);
    if !taken("Unknown") {
        format_ident!("Unknown")
    } else if !taken("Unnamed") {
        format_ident!("Unnamed")
    } else {
        format_ident!("Unknown_")
    }
}

/// The bit set of a flag set (`flags::ChannelFlags`).
pub fn flags_type(f: &Flags) -> Ident {
    item_ident(f.meta.rust())
}

/// The flag set with this id.
pub fn flags_id(model: &Model, id: &str) -> Ident {
    item_ident(stem(&model.flags, id))
}

/// Constants every bit set has beside its named bits.
const BITSET_RESERVED: &[&str] = &["KNOWN", "NAMED"];

/// The constant of one flag.
pub fn flag_const(v: &FlagValue) -> Ident {
    escaped(const_ident(v.meta.rust()), BITSET_RESERVED)
}

/// The constant of flag `flag` of the flag set with id `set`.
pub fn flag_const_id(model: &Model, set: &str, flag: &str) -> Ident {
    escaped(const_ident(find(&model.flags, set).map_or(flag, |f| stem(&f.values, flag))), BITSET_RESERVED)
}

/// A field of a generated struct.
pub fn field(f: &Field) -> Ident {
    value_ident(f.rust())
}

/// The function giving the value an absent field stands for (`default_limit`).
pub fn default_fn(f: &Field) -> Ident {
    format_ident!("default_{}", field(f).to_string().trim_start_matches("r#"))
}

/// The constant holding a field's literal value (`KIND_LITERAL`).
pub fn literal_const(f: &Field) -> Ident {
    format_ident!("{}_LITERAL", field(f).to_string().trim_start_matches("r#").to_uppercase())
}

/// A case's rule constant in its object's `impl` (`OBFUSCATED`).
pub fn case_const(c: &Case) -> Ident {
    const_ident(c.meta.rust())
}

/// The constant of the literal a case gives field `f` (`OBFUSCATED_NAME`).
pub fn case_literal(c: &Case, f: &Field) -> Ident {
    const_ident(&format!("{}_{}", c.meta.rust(), f.rust()))
}

/// The method checking a value against a case (`check_obfuscated`).
pub fn case_check(c: &Case) -> Ident {
    value_ident(&format!("check_{}", c.meta.rust()))
}

/// The associated items of the struct of `fields` with `cases`: literal constants, and each
/// case's rule constant, literal constants and check.
fn associated_items(fields: &[Field], cases: &[Case]) -> Vec<Entry> {
    let mut out: Vec<Entry> =
        fields.iter().filter(|f| f.literal.is_some()).map(|f| Entry::new(literal_const(f).to_string(), format!("field `{}`", f.name), f.span)).collect();
    out.extend(fields.iter().filter(|f| f.defaulted()).map(|f| Entry::new(default_fn(f).to_string(), format!("the default of field `{}`", f.name), f.span)));
    for c in cases {
        let what = format!("case `{}`", c.meta.id);
        out.push(Entry::new(case_const(c).to_string(), what.clone(), c.meta.id_span));
        out.push(Entry::new(case_check(c).to_string(), what.clone(), c.meta.id_span));
        for fact in c.fields.iter().filter(|fact| fact.literal.is_some()) {
            if let Some(f) = fields.iter().find(|f| f.name == fact.field.id) {
                out.push(Entry::new(case_literal(c, f).to_string(), format!("the literal of `{}` in case `{}`", f.name, c.meta.id), fact.field.span));
            }
        }
    }
    out
}

// --- types: responses and headers ------------------------------------------------------------

/// The stem of a named response's items in `responses.rs` (`RateLimited` of `RateLimitedBody`,
/// `RateLimitedHeaders`, `RateLimitedResponse`). A named response's id is the spec's own name,
/// never on the wire, so a collision is settled by renaming it.
pub fn response_stem(n: &NamedResponse) -> String {
    item_ident(&n.id).to_string()
}

/// A named header's constant in `headers.rs`.
pub fn header_const(h: &Field) -> Ident {
    const_ident(h.rust())
}

// --- types: access ---------------------------------------------------------------------------

/// A permission's variant of `Permission`.
pub fn permission_variant(p: &Permission) -> Ident {
    type_ident(p.meta.rust())
}

/// The variant of the permission with this id.
pub fn permission_variant_id(model: &Model, id: &str) -> Ident {
    type_ident(stem(&model.permissions, id))
}

/// A permission's one-bit constant of `Permissions`.
pub fn permission_const(p: &Permission) -> Ident {
    escaped(const_ident(p.meta.rust()), BITSET_RESERVED)
}

/// A condition's variant of `Condition`.
pub fn condition_variant(c: &Condition) -> Ident {
    type_ident(c.meta.rust())
}

/// The variant of the condition with this id.
pub fn condition_variant_id(model: &Model, id: &str) -> Ident {
    type_ident(stem(&model.conditions, id))
}

/// A parameter of a condition: a field of its variant and an argument of its hook, beside the
/// hook's `cx`.
pub fn condition_param(param: &str) -> Ident {
    escaped(value_ident(param), &["cx"])
}

/// Constants of `rules.rs`, `changes.rs` and `limits.rs` beside the spec's.
const LIST_RESERVED: &[&str] = &["ALL"];

/// A permission rule's constant.
pub fn rule_const(r: &PermissionRule) -> Ident {
    escaped(const_ident(r.meta.rust()), LIST_RESERVED)
}

/// A scope's variant of `Scope`.
pub fn scope_variant(s: &Scope) -> Ident {
    type_ident(s.meta.rust())
}

/// The variant of the scope with this id.
pub fn scope_variant_id(model: &Model, id: &str) -> Ident {
    type_ident(stem(&model.scopes, id))
}

/// A scope set's constant in `auth.rs`, beside `ISSUER`.
pub fn scope_set_const(s: &ScopeSet) -> Ident {
    escaped(const_ident(s.meta.rust()), &["ISSUER"])
}

/// An intent's variant of `Intent`.
pub fn intent_variant(i: &Intent) -> Ident {
    type_ident(i.meta.rust())
}

/// The variant of the intent with this id.
pub fn intent_variant_id(model: &Model, id: &str) -> Ident {
    type_ident(stem(&model.intents, id))
}

/// A token kind's variant of `TokenKind`.
pub fn token_kind_variant(k: &TokenKind) -> Ident {
    type_ident(k.meta.rust())
}

/// The variant of the token kind with this id.
pub fn token_kind_variant_id(model: &Model, id: &str) -> Ident {
    type_ident(stem(&model.token_kinds, id))
}

/// A token kind's constructor of `Credential`, beside its own functions.
pub fn token_kind_constructor(k: &TokenKind) -> Ident {
    escaped(value_ident(k.meta.rust()), &["new", "header_value", "from_header"])
}

/// A placeholder's field of `Placeholders`.
pub fn placeholder(p: &Placeholder) -> Ident {
    value_ident(p.meta.rust())
}

/// The field of the placeholder with this id.
pub fn placeholder_id(model: &Model, id: &str) -> Ident {
    value_ident(stem(&model.platform.placeholders, id))
}

// --- types: http -----------------------------------------------------------------------------

/// An error's variant of `ErrorCode`.
pub fn error_variant(e: &Error) -> Ident {
    type_ident(e.meta.rust())
}

/// The arm of `ErrorCode` that keeps codes the spec does not name.
pub fn error_catch_all(model: &Model) -> Ident {
    let taken = |name: &str| model.errors.iter().any(|e| e.code.is_some() && error_variant(e) == name);
    if !taken("Unknown") {
        format_ident!("Unknown")
    } else if !taken("Unnamed") {
        format_ident!("Unnamed")
    } else {
        format_ident!("Unknown_")
    }
}

/// An error's variant of `OAuthError`: from its OAuth2 error string, or its `rust_name`.
pub fn oauth_variant(e: &Error) -> Option<Ident> {
    let text = e.oauth_error.as_deref()?;
    let stem = e.meta.rust_name.as_ref().map_or(text, |r| r.id.as_str());
    Some(escaped(type_ident(stem), &["Unknown"]))
}

/// Constants of `errors.rs` beside the spec's errors.
const ERRORS_RESERVED: &[&str] = &["ALL", "GENERAL_CODE"];

/// An error's constant (`errors::MISSING_ACCESS`).
pub fn error_const(e: &Error) -> Ident {
    escaped(const_ident(e.meta.rust()), ERRORS_RESERVED)
}

/// The constant of the error with this id.
pub fn error_const_id(model: &Model, id: &str) -> Ident {
    escaped(const_ident(stem(&model.errors, id)), ERRORS_RESERVED)
}

/// An endpoint's module of `endpoints.rs`.
pub fn endpoint_module(e: &Endpoint) -> Ident {
    value_ident(e.meta.rust())
}

/// An endpoint's variant of the server's `Operation` and marker of `granted`.
pub fn endpoint_variant(e: &Endpoint) -> Ident {
    type_ident(e.meta.rust())
}

/// A gated behaviour's field of the endpoint's `Gates`.
pub fn gate(b: &Behaviour) -> Ident {
    value_ident(b.meta.rust())
}

/// The `Runtime` field holding another endpoint's response field (a bound known at run time),
/// and the server hook that reads it.
pub fn runtime_bound(model: &Model, endpoint: &str, field: &str) -> Ident {
    value_ident(&format!("{}_{}", stem(&model.endpoints, endpoint), field))
}

/// The `Runtime` field saying whether a condition (negation set aside) holds.
pub fn runtime_condition(model: &Model, cond: &Cond) -> Ident {
    let (c, arg) = cond.named();
    let stem = stem(&model.conditions, &c.id);
    value_ident(&match arg {
        Some(a) => format!("{stem}_{a}"),
        None => stem.to_owned(),
    })
}

// --- types: events and timeline ---------------------------------------------------------------

/// A change's constant.
pub fn change_const(c: &Change) -> Ident {
    escaped(const_ident(c.meta.rust()), LIST_RESERVED)
}

/// The constant of the change with this id.
pub fn change_const_id(model: &Model, id: &str) -> Ident {
    escaped(const_ident(stem(&model.changes, id)), LIST_RESERVED)
}

/// A limit's constant.
pub fn limit_const(l: &Limit) -> Ident {
    escaped(const_ident(l.meta.rust()), LIST_RESERVED)
}

/// The constant of the limit with this id.
pub fn limit_const_id(model: &Model, id: &str) -> Ident {
    escaped(const_ident(stem(&model.limits, id)), LIST_RESERVED)
}

/// An event's variant of `EventKind` and of its channel's code enum.
pub fn event_variant(e: &Event) -> Ident {
    type_ident(e.meta.rust())
}

/// The variant of the event with this id.
pub fn event_variant_id(model: &Model, id: &str) -> Ident {
    type_ident(stem(&model.events, id))
}

/// The arm of a channel's code enum (`GatewayEventCode`) that keeps numbers the spec does not
/// name: `Unknown`, or `Unnamed` when an event of the channel is named `Unknown`, or `Unknown_`.
pub fn event_code_catch_all(model: &Model, channel: &str) -> Ident {
    let taken = |name: &str| model.events.iter().any(|e| e.channel.id == channel && e.code.is_some() && event_variant(e) == name);
    if !taken("Unknown") {
        format_ident!("Unknown")
    } else if !taken("Unnamed") {
        format_ident!("Unnamed")
    } else {
        format_ident!("Unknown_")
    }
}

/// The types `events.rs` declares beside the payloads.
const EVENTS_RESERVED: &[&str] =
    &["EventChannel", "EventKind", "GatewayEventCode", "AuditLogEventCode", "WebhookEventCode", "RpcEventCode", "SocialSdkEventCode"];

/// An event's payload struct.
pub fn event_payload(e: &Event) -> Ident {
    escaped(item_ident(e.meta.rust()), EVENTS_RESERVED)
}

/// An opcode's variant of `Opcode`.
pub fn opcode_variant(o: &Opcode) -> Ident {
    escaped(type_ident(o.meta.rust()), &["Unknown"])
}

/// An opcode's payload struct (`RequestChannelInfoPayload`).
pub fn opcode_payload(o: &Opcode) -> Ident {
    type_ident(&format!("{}_payload", o.meta.rust()))
}

/// A former name of a command, as a constant of `Command` (`impl Command { pub const OLD: Self }`).
pub fn command_alias_const(a: &Alias) -> Ident {
    escaped(const_ident(a.meta.rust()), LIST_RESERVED)
}

/// A command's variant of `Command`.
pub fn command_variant(c: &Command) -> Ident {
    type_ident(c.meta.rust())
}

/// The types `states.rs` declares beside the machines, and the names it imports.
const STATES_RESERVED: &[&str] = &["Effect", "InvalidTransition", "ErrorDef", "EventKind"];

/// A state machine's state enum.
pub fn machine(m: &StateMachine) -> Ident {
    escaped(item_ident(m.meta.rust()), STATES_RESERVED)
}

/// A state machine's transition enum (`AccountLinkTransition`).
pub fn machine_transitions(m: &StateMachine) -> Ident {
    escaped(item_ident(&format!("{}_transition", m.meta.rust())), STATES_RESERVED)
}

/// A state's variant.
pub fn state(s: &State) -> Ident {
    type_ident(s.meta.rust())
}

/// A transition's variant.
pub fn transition(t: &Transition) -> Ident {
    type_ident(t.meta.rust())
}

// --- server and client -----------------------------------------------------------------------

/// Methods of the server's `Api` trait that the generator names.
const API_RESERVED: &[&str] = &["authenticate", "permissions", "intents", "scopes"];

/// An endpoint's method of the server's `Api` trait.
pub fn api_method(e: &Endpoint) -> Ident {
    escaped(value_ident(e.meta.rust()), API_RESERVED)
}

/// A condition's hook of the server's `Api` trait.
pub fn api_hook(c: &Condition) -> Ident {
    escaped(value_ident(c.meta.rust()), API_RESERVED)
}

/// A run-time bound's hook of the server's `Api` trait.
pub fn api_bound_hook(model: &Model, endpoint: &str, field: &str) -> Ident {
    escaped(runtime_bound(model, endpoint, field), API_RESERVED)
}

/// What `router.rs` declares and imports beside the handlers.
const ROUTER_RESERVED: &[&str] = &[
    "router",
    "router_with",
    "not_found",
    "method_not_allowed",
    "respond",
    "deprecated",
    "authorize",
    "ask",
    "issuer_path",
    "authorization_server_metadata",
    "runtime",
    "types",
    "handle",
];

/// An endpoint's handler function in `router.rs`.
pub fn handler(e: &Endpoint) -> Ident {
    escaped(value_ident(e.meta.rust()), ROUTER_RESERVED)
}

/// The function in `router.rs` that does an endpoint's work for its route and its aliases
/// (`handle_get_channel`).
pub fn inner_handler(e: &Endpoint) -> Ident {
    escaped(value_ident(&format!("handle_{}", e.meta.rust())), ROUTER_RESERVED)
}

/// The handler of an alias route of an endpoint (`get_channel_alias_legacy`).
pub fn alias_handler(e: &Endpoint, a: &RouteAlias) -> Ident {
    escaped(value_ident(&format!("{}_alias_{}", e.meta.rust(), a.meta.rust())), ROUTER_RESERVED)
}

/// The constant of `deprecations.rs` for a deprecated endpoint, alias route or behaviour:
/// `ENDPOINT_<endpoint>`, `ALIAS_<endpoint>_<alias>`, `BEHAVIOUR_<endpoint>_<behaviour>`.
pub fn deprecation_const(kind: &str, parts: &[&str]) -> Ident {
    escaped(const_ident(&std::iter::once(kind).chain(parts.iter().copied()).collect::<Vec<_>>().join("_")), DEPRECATIONS_RESERVED)
}

/// Items of `deprecations.rs` beside the constants.
const DEPRECATIONS_RESERVED: &[&str] = &["ALL", "Deprecated", "Notice"];

/// Methods of the client that the generator names or calls on it (`self.clone()`).
const CLIENT_RESERVED: &[&str] = &["new", "with_http", "with_credential", "on_deprecation", "credential", "placeholders", "http", "send", "exchange", "clone"];

/// An endpoint's method of the client.
pub fn client_method(e: &Endpoint) -> Ident {
    escaped(value_ident(e.meta.rust()), CLIENT_RESERVED)
}

// --- scopes ------------------------------------------------------------------------------------

/// Every Rust scope where two spec items could be given one identifier, with the items in it.
pub fn namespaces(model: &Model) -> Vec<Namespace> {
    let mut out = Vec::new();
    // Scopes of names that are the spec's own (never on the wire): renaming settles them.
    let mut renamed = Vec::new();
    let mut ns = |scope: String, entries: Vec<Entry>| out.push(Namespace { language: "Rust", override_key: "rust_name", scope, entries });
    let item = |what: String, meta: &Meta, ident: Ident| Entry::new(ident.to_string(), format!("{what} `{}`", meta.id), meta.id_span);
    let of_field = |f: &Field| Entry::new(field(f).to_string(), format!("field `{}`", f.name), f.span);

    ns("the types of `resources.rs`".into(), model.resources.iter().map(|r| shape_entry("resource", &r.meta, r.inline.as_ref(), resource(r))).collect());
    ns("the types of `unions.rs`".into(), model.unions.iter().map(|u| shape_entry("union", &u.meta, u.inline.as_ref(), union_type(u))).collect());
    for u in &model.unions {
        let variants = u.variants.iter().map(|v| Entry::new(union_variant(v).to_string(), format!("variant `{}`", v.name), v.span));
        ns(format!("the variants of union `{}`", u.meta.id), variants.collect());
    }
    let responses = model.responses.iter().map(|n| Entry::new(format!("{}Response", response_stem(n)), format!("response `{}`", n.id), n.id_span));
    renamed.push(Namespace { language: "Rust", override_key: "", scope: "the types of `responses.rs`".into(), entries: responses.collect() });
    ns(
        "the constants of `headers.rs`".into(),
        model.headers.iter().map(|h| Entry::new(header_const(h).to_string(), format!("header `{}`", h.name), h.span)).collect(),
    );
    ns("the types of `enums.rs`".into(), model.enums.iter().map(|e| item("enum".into(), &e.meta, enum_type(e))).collect());
    ns("the types of `flags.rs`".into(), model.flags.iter().map(|f| item("flag set".into(), &f.meta, flags_type(f))).collect());
    for e in &model.enums {
        ns(format!("the variants of enum `{}`", e.meta.id), e.values.iter().map(|v| item("value".into(), &v.meta, enum_variant(v))).collect());
    }
    for f in &model.flags {
        ns(format!("the constants of flag set `{}`", f.meta.id), f.values.iter().map(|v| item("flag".into(), &v.meta, flag_const(v))).collect());
    }
    ns("the variants of `Permission`".into(), model.permissions.iter().map(|p| item("permission".into(), &p.meta, permission_variant(p))).collect());
    ns(
        "the constants of `Permissions`".into(),
        model.permissions.iter().filter(|p| p.bit.is_some()).map(|p| item("permission".into(), &p.meta, permission_const(p))).collect(),
    );
    ns("the variants of `Condition`".into(), model.conditions.iter().map(|c| item("condition".into(), &c.meta, condition_variant(c))).collect());
    for c in &model.conditions {
        let params = c
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| Entry::new(condition_param(p).to_string(), format!("parameter `{p}`"), c.param_spans.get(i).copied().unwrap_or(c.meta.id_span)));
        renamed.push(Namespace {
            language: "Rust",
            override_key: "",
            scope: format!("the parameters of condition `{}`", c.meta.id),
            entries: params.collect(),
        });
    }
    ns("the constants of `rules.rs`".into(), model.permission_rules.iter().map(|r| item("permission rule".into(), &r.meta, rule_const(r))).collect());
    ns("the variants of `Scope`".into(), model.scopes.iter().map(|s| item("scope".into(), &s.meta, scope_variant(s))).collect());
    ns("the constants of `auth.rs`".into(), model.scope_sets.iter().map(|s| item("scope set".into(), &s.meta, scope_set_const(s))).collect());
    ns("the variants of `Intent`".into(), model.intents.iter().map(|i| item("intent".into(), &i.meta, intent_variant(i))).collect());
    ns("the variants of `TokenKind`".into(), model.token_kinds.iter().map(|k| item("token kind".into(), &k.meta, token_kind_variant(k))).collect());
    ns("the functions of `Credential`".into(), model.token_kinds.iter().map(|k| item("token kind".into(), &k.meta, token_kind_constructor(k))).collect());
    ns("the fields of `Placeholders`".into(), model.platform.placeholders.iter().map(|p| item("placeholder".into(), &p.meta, placeholder(p))).collect());
    ns(
        "the variants of `ErrorCode`".into(),
        model.errors.iter().filter(|e| e.code.is_some()).map(|e| item("error".into(), &e.meta, error_variant(e))).collect(),
    );
    ns("the variants of `OAuthError`".into(), model.errors.iter().filter_map(|e| Some(item("error".into(), &e.meta, oauth_variant(e)?))).collect());
    ns("the constants of `errors.rs`".into(), model.errors.iter().map(|e| item("error".into(), &e.meta, error_const(e))).collect());
    ns("the constants of `changes.rs`".into(), model.changes.iter().map(|c| item("change".into(), &c.meta, change_const(c))).collect());
    ns("the constants of `limits.rs`".into(), model.limits.iter().map(|l| item("limit".into(), &l.meta, limit_const(l))).collect());
    ns("the variants of `EventKind`".into(), model.events.iter().map(|e| item("event".into(), &e.meta, event_variant(e))).collect());
    ns("the types of `events.rs`".into(), model.events.iter().map(|e| item("event".into(), &e.meta, event_payload(e))).collect());
    ns("the variants of `Opcode`".into(), model.opcodes.iter().map(|o| item("opcode".into(), &o.meta, opcode_variant(o))).collect());
    ns("the variants of `Command`".into(), model.commands.iter().map(|c| item("command".into(), &c.meta, command_variant(c))).collect());
    let aliases = model.commands.iter().flat_map(|c| {
        c.aliases
            .iter()
            .map(move |a| Entry::new(command_alias_const(a).to_string(), format!("alias `{}` of command `{}`", a.meta.id, c.meta.id), a.meta.id_span))
    });
    ns("the constants of `Command`".into(), aliases.collect());
    let machines = model.state_machines.iter().flat_map(|m| {
        let transitions = (!m.transitions.is_empty()).then(|| item("state machine".into(), &m.meta, machine_transitions(m)));
        std::iter::once(item("state machine".into(), &m.meta, machine(m))).chain(transitions)
    });
    ns("the types of `states.rs`".into(), machines.collect());
    for m in &model.state_machines {
        ns(format!("the states of `{}`", m.meta.id), m.states.iter().map(|s| item("state".into(), &s.meta, state(s))).collect());
        ns(format!("the transitions of `{}`", m.meta.id), m.transitions.iter().map(|t| item("transition".into(), &t.meta, transition(t))).collect());
    }
    ns("the modules of `endpoints.rs`".into(), model.endpoints.iter().map(|e| item("endpoint".into(), &e.meta, endpoint_module(e))).collect());
    ns("the variants of the server's `Operation`".into(), model.routed_endpoints().map(|e| item("endpoint".into(), &e.meta, endpoint_variant(e))).collect());
    ns("the functions of the server's `router.rs`".into(), router_functions(model, &item));
    ns("the constants of `deprecations.rs`".into(), deprecation_consts(model));
    ns("the methods of the client".into(), model.routed_endpoints().map(|e| item("endpoint".into(), &e.meta, client_method(e))).collect());
    ns("the methods of the server's `Api` trait".into(), api_methods(model, &item));
    for (what, list) in field_lists(model) {
        ns(what, list.iter().map(of_field).collect());
    }
    for r in &model.resources {
        ns(format!("the associated items of resource `{}`", r.meta.id), associated_items(&r.fields, &r.cases));
    }
    for e in &model.events {
        ns(format!("the associated items of event `{}`", e.meta.id), associated_items(&e.fields, &e.cases));
    }
    for e in &model.endpoints {
        ns(format!("the fields of `Gates` of endpoint `{}`", e.meta.id), e.behaviours.iter().map(|b| item("behaviour".into(), &b.meta, gate(b))).collect());
    }
    out.extend(renamed);
    out
}

/// A shape's entry: a declared one by its id, one written inline by its path (its id is made
/// from the path, so the path is what the reader finds in the spec).
fn shape_entry(kind: &str, meta: &Meta, inline: Option<&String>, ident: Ident) -> Entry {
    let what = match inline {
        Some(path) => format!("the {kind} written at `{path}`"),
        None => format!("{kind} `{}`", meta.id),
    };
    Entry::new(ident.to_string(), what, meta.id_span)
}

/// The router's functions: each routed endpoint's handler and worker, and a handler per alias
/// route.
fn router_functions(model: &Model, item: &dyn Fn(String, &Meta, Ident) -> Entry) -> Vec<Entry> {
    let mut out = Vec::new();
    for e in model.routed_endpoints() {
        out.push(item("endpoint".into(), &e.meta, handler(e)));
        out.push(item("the worker of endpoint".into(), &e.meta, inner_handler(e)));
        for a in &e.aliases {
            out.push(Entry::new(alias_handler(e, a).to_string(), format!("alias `{}` of endpoint `{}`", a.meta.id, e.meta.id), a.meta.id_span));
        }
    }
    out
}

/// The constants of deprecated endpoints, alias routes and behaviours.
fn deprecation_consts(model: &Model) -> Vec<Entry> {
    let mut out = Vec::new();
    for e in model.endpoints.iter() {
        let id = e.meta.rust();
        if e.meta.deprecated.is_some() {
            out.push(Entry::new(deprecation_const("endpoint", &[id]).to_string(), format!("endpoint `{}`", e.meta.id), e.meta.id_span));
        }
        for a in e.aliases.iter().filter(|a| a.meta.deprecated.is_some()) {
            out.push(Entry::new(
                deprecation_const("alias", &[id, a.meta.rust()]).to_string(),
                format!("alias `{}` of endpoint `{}`", a.meta.id, e.meta.id),
                a.meta.id_span,
            ));
        }
        for b in e.behaviours.iter().filter(|b| b.meta.deprecated.is_some()) {
            out.push(Entry::new(
                deprecation_const("behaviour", &[id, b.meta.rust()]).to_string(),
                format!("behaviour `{}` of endpoint `{}`", b.meta.id, e.meta.id),
                b.meta.id_span,
            ));
        }
    }
    out
}

/// The trait's methods: one per routed endpoint, condition and run-time bound.
fn api_methods(model: &Model, item: &dyn Fn(String, &Meta, Ident) -> Entry) -> Vec<Entry> {
    let mut out: Vec<Entry> = model.routed_endpoints().map(|e| item("endpoint".into(), &e.meta, api_method(e))).collect();
    out.extend(model.conditions.iter().map(|c| item("condition".into(), &c.meta, api_hook(c))));
    for e in model.routed_endpoints() {
        for f in e.path_params.iter().chain(&e.query).chain(&e.body).chain(e.body_schema.iter()) {
            for (_, bound) in f.constraints.all() {
                if let Bound::Field { endpoint, field, .. } = bound {
                    let ident = api_bound_hook(model, &endpoint.id, field);
                    let entry = Entry::new(ident.to_string(), format!("the bound `{}.{field}`", endpoint.id), endpoint.span);
                    if !out.iter().any(|o| o.ident == entry.ident && o.what == entry.what) {
                        out.push(entry);
                    }
                }
            }
        }
    }
    out
}

/// Every list of fields that becomes one struct, with the struct's description.
fn field_lists(model: &Model) -> Vec<(String, Cow<'_, [Field]>)> {
    let mut out: Vec<(String, Cow<'_, [Field]>)> = Vec::new();
    out.extend(model.resources.iter().map(|r| (format!("the fields of resource `{}`", r.meta.id), Cow::from(&r.fields[..]))));
    out.extend(model.events.iter().map(|e| (format!("the fields of event `{}`", e.meta.id), Cow::from(&e.fields[..]))));
    out.extend(model.opcodes.iter().map(|o| (format!("the fields of opcode `{}`", o.meta.id), Cow::from(&o.fields[..]))));
    for e in &model.endpoints {
        let id = &e.meta.id;
        out.push((format!("the path parameters of endpoint `{id}`"), Cow::from(&e.path_params[..])));
        out.push((format!("the query parameters of endpoint `{id}`"), Cow::from(&e.query[..])));
        out.push((format!("the header parameters of endpoint `{id}`"), Cow::from(&e.headers[..])));
        out.push((format!("the body of endpoint `{id}`"), Cow::from(&e.body[..])));
        out.push((format!("the multipart parts of endpoint `{id}`"), Cow::from(&e.parts[..])));
        out.push((format!("the response fields of endpoint `{id}`"), Cow::from(&e.response_fields[..])));
        for r in &e.responses {
            if let ResponseUse::Inline(response) = &r.response {
                let at = format!("the `{}` response of endpoint `{id}`", r.status.id);
                out.push((format!("the fields of {at}"), Cow::from(&response.fields[..])));
                out.push((format!("the headers of {at}"), Cow::from(model.header_fields(response))));
            }
        }
    }
    for n in &model.responses {
        out.push((format!("the fields of response `{}`", n.id), Cow::from(&n.response.fields[..])));
        out.push((format!("the headers of response `{}`", n.id), Cow::from(model.header_fields(&n.response))));
    }
    if let Some(b) = &model.error_body {
        out.push(("the fields of the error body".into(), Cow::from(&b.fields[..])));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_get_a_trailing_underscore() {
        assert_eq!(escaped(format_ident!("KNOWN"), BITSET_RESERVED), "KNOWN_");
        assert_eq!(escaped(format_ident!("OTHER"), BITSET_RESERVED), "OTHER");
    }
}
