//! The Rust identifier of every spec item: each function names one kind of item in one place of
//! the generated crates (a variant, a constant, a struct, a trait method), from the item's
//! `rust_name` or id. Nothing else spells a Rust name from a spec item: the emitters call these
//! with the item in hand, [`super::Plan`] with an id, and [`super::scopes`] to list every scope
//! where two spec items could end up with one identifier, which validation reports (E0141), so
//! the emitters may assume identifiers are distinct.
//!
//! Names the generator itself gives in a scope (`Unknown`, `ALL`, `KNOWN`, the server's
//! `authenticate` hook, the router's helper functions, ...) never clash with a spec item's: an
//! item whose identifier would be one of them gets a trailing `_`
//! ([`crate::plan::case::escape`]), which no converted id has.

use crate::model::*;
use crate::plan::idents::{const_ident, item_ident, type_ident, value_ident};
use proc_macro2::Ident;
use quote::format_ident;

/// An identifier from a converted name, escaped when the generator reserves it in its scope.
fn escaped(ident: Ident, reserved: &[&str]) -> Ident {
    let text = ident.to_string();
    if reserved.contains(&text.as_str()) { format_ident!("{}_", text) } else { ident }
}

/// The arm of an enum that keeps what the spec does not name, beside its named `variants`:
/// `Unknown`, or `Unnamed` when a variant is named `Unknown`, or `Unknown_` when both are taken.
fn catch_all_beside(variants: impl Iterator<Item = Ident>) -> Ident {
    let variants: Vec<Ident> = variants.collect();
    let taken = |name: &str| variants.iter().any(|v| v == name);
    if !taken("Unknown") {
        format_ident!("Unknown")
    } else if !taken("Unnamed") {
        format_ident!("Unnamed")
    } else {
        format_ident!("Unknown_")
    }
}

// --- types: shapes ---------------------------------------------------------------------------

/// The struct of a resource (`resources::Channel`).
pub fn resource(r: &Resource) -> Ident {
    item_ident(r.meta.rust())
}

/// The enum of a union (`unions::Component`).
pub fn union_type(u: &Union) -> Ident {
    item_ident(u.meta.rust())
}

/// A variant of a union, named after its field (`ActionRow`).
pub fn union_variant(v: &Field) -> Ident {
    type_ident(v.rust())
}

/// The arm of a union that keeps values the spec does not describe: `Unknown`, or `Unnamed`
/// when a variant is named `Unknown`, or `Unknown_` when both are taken.
pub fn union_catch_all(u: &Union) -> Ident {
    catch_all_beside(u.variants.iter().map(union_variant))
}

/// The enum of an enum (`enums::ActivityType`).
pub fn enum_type(e: &Enum) -> Ident {
    item_ident(e.meta.rust())
}

/// A named value of an enum.
pub fn enum_variant(v: &EnumValue) -> Ident {
    type_ident(v.meta.rust())
}

/// The arm that keeps values the spec does not name: `Unknown`, or `Unnamed` when a value is
/// named `Unknown`, or `Unknown_` when both are taken.
pub fn catch_all(e: &Enum) -> Ident {
    catch_all_beside(e.values.iter().map(enum_variant))
}

/// The variant of an event of a stream (`note.created` -> `NoteCreated`).
pub fn stream_event_variant(e: &StreamEvent) -> Ident {
    type_ident(&e.name)
}

/// The arm of a stream's events that keeps the events the spec does not name.
pub fn stream_catch_all(r: &Response) -> Ident {
    catch_all_beside(r.events.iter().map(stream_event_variant))
}

/// The bit set of a flag set (`flags::ChannelFlags`).
pub fn flags_type(f: &Flags) -> Ident {
    item_ident(f.meta.rust())
}

/// Constants every bit set has beside its named bits.
const BITSET_RESERVED: &[&str] = &["KNOWN", "NAMED"];

/// The constant of one flag.
pub fn flag_const(v: &FlagValue) -> Ident {
    escaped(const_ident(v.meta.rust()), BITSET_RESERVED)
}

/// A field of a generated struct.
pub fn field(f: &Field) -> Ident {
    value_ident(f.rust())
}

/// The field of an endpoint's `Path` for placeholder `name` of its path (a placeholder without
/// a declared parameter, which validation reports, still gets one).
pub fn path_param(e: &Endpoint, name: &str) -> Ident {
    e.path_params.iter().find(|f| f.name == name).map_or_else(|| value_ident(name), field)
}

/// The function giving the value an absent field stands for (`default_limit`).
pub fn default_fn(f: &Field) -> Ident {
    format_ident!("default_{}", field(f).to_string().trim_start_matches("r#"))
}

/// Methods of the traits every generated struct and union implements (`Clone`, `Debug`,
/// `PartialEq`, serde's, `Validate`, and the `From`/`Into` pair), which a method named after a
/// field would clash with or shadow.
const TRAIT_METHODS: &[&str] = &["clone", "clone_from", "fmt", "eq", "ne", "validate", "validate_at", "into", "from", "serialize", "deserialize"];

/// Methods a generated struct has besides its setters and [`TRAIT_METHODS`]: its constructors,
/// `Request::uri_path`, `Default::default` and the run-time bounds' check.
const STRUCT_METHODS: &[&str] = &["new", "from_parts", "from_fields", "uri_path", "default", "validate_runtime"];

/// The setter of field `f` (`title`: `Embed::new().title("x")`), named after the field, or
/// `None` when another method of the struct already has the name: one of `TRAIT_METHODS` or
/// `STRUCT_METHODS`, or one of `taken` (the struct's default functions and case checks).
pub fn setter(f: &Field, taken: &[Ident]) -> Option<Ident> {
    let ident = field(f);
    let bare = ident.to_string();
    let bare = bare.trim_start_matches("r#");
    let clashes = TRAIT_METHODS.contains(&bare) || STRUCT_METHODS.contains(&bare) || taken.iter().any(|t| t == bare);
    (!clashes).then_some(ident)
}

/// Methods of the blanket traits a method call on a union reaches besides [`TRAIT_METHODS`]
/// (`TryInto`, `ToOwned`, `Borrow`, `Any`), which an accessor of the same name would shadow.
const BLANKET_METHODS: &[&str] = &["try_into", "to_owned", "borrow", "borrow_mut", "type_id"];

/// The method of a union reading field `f`, which every variant has (`channel.id()`), named
/// after the field as its struct member is; `None` where that would shadow a trait's method.
pub fn union_accessor(f: &Field) -> Option<Ident> {
    let ident = field(f);
    let bare = ident.to_string();
    let bare = bare.trim_start_matches("r#");
    (!(TRAIT_METHODS.contains(&bare) || BLANKET_METHODS.contains(&bare))).then_some(ident)
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

// --- types: responses and headers ------------------------------------------------------------

/// The stem of a named response's items in `responses.rs` (`RateLimited` of `RateLimitedBody`,
/// `RateLimitedHeaders`, `RateLimitedResponse`). A named response's id is the spec's own name,
/// never on the wire, so a collision is settled by renaming it.
pub fn response_stem(n: &NamedResponse) -> String {
    item_ident(&n.id).to_string()
}

/// The path of a named response's headers struct, from the types crate's root
/// (`responses::RateLimitedHeaders`).
pub fn named_headers_path(n: &NamedResponse) -> String {
    format!("responses::{}", ResponseNames::new(&response_stem(n)).headers)
}

/// The path of the headers struct of an endpoint's inline response with `status`
/// (`endpoints::get_note::OkHeaders`).
pub fn inline_headers_path(e: &Endpoint, status: Status) -> String {
    format!("endpoints::{}::{}", endpoint_module(e), ResponseNames::new(&status_stem(status)).headers)
}

/// The client's `Declared` variant of a named error response.
pub fn declared_named(n: &NamedResponse) -> Ident {
    format_ident!("{}", response_stem(n))
}

/// The client's `Declared` variant of an error response an endpoint writes inline: the
/// endpoint's type name and the status's (`GetNoteNotFound`).
pub fn declared_inline(e: &Endpoint, status: Status) -> Ident {
    format_ident!("{}{}", endpoint_variant(e), status_stem(status))
}

/// The names of the items one response is emitted as: `<prefix>Body` (named fields),
/// `<prefix>Headers` and `<prefix>Response` (body and headers together).
pub struct ResponseNames {
    /// `<prefix>Body`.
    pub body: Ident,
    /// `<prefix>Headers`.
    pub headers: Ident,
    /// `<prefix>Response`.
    pub response: Ident,
    /// `<prefix>Event`: an event of a streamed response.
    pub event: Ident,
    /// `<PREFIX>_EVENTS`: how a streamed response's messages become events and back.
    pub codec: Ident,
}

impl ResponseNames {
    /// The names of a response whose items start with `prefix` (a status, a named response).
    pub fn new(prefix: &str) -> Self {
        Self {
            body: format_ident!("{prefix}Body"),
            headers: format_ident!("{prefix}Headers"),
            response: format_ident!("{prefix}Response"),
            event: format_ident!("{prefix}Event"),
            codec: format_ident!("{}_EVENTS", crate::plan::case::screaming(prefix)),
        }
    }
}

/// Reason phrases of RFC 9110 §15 (and RFC 6585's 428, 429, 431), as variant names.
const REASONS: &[(u16, &str)] = &[
    (100, "Continue"),
    (101, "SwitchingProtocols"),
    (200, "Ok"),
    (201, "Created"),
    (202, "Accepted"),
    (203, "NonAuthoritativeInformation"),
    (204, "NoContent"),
    (205, "ResetContent"),
    (206, "PartialContent"),
    (300, "MultipleChoices"),
    (301, "MovedPermanently"),
    (302, "Found"),
    (303, "SeeOther"),
    (304, "NotModified"),
    (307, "TemporaryRedirect"),
    (308, "PermanentRedirect"),
    (400, "BadRequest"),
    (401, "Unauthorized"),
    (402, "PaymentRequired"),
    (403, "Forbidden"),
    (404, "NotFound"),
    (405, "MethodNotAllowed"),
    (406, "NotAcceptable"),
    (407, "ProxyAuthenticationRequired"),
    (408, "RequestTimeout"),
    (409, "Conflict"),
    (410, "Gone"),
    (411, "LengthRequired"),
    (412, "PreconditionFailed"),
    (413, "ContentTooLarge"),
    (414, "UriTooLong"),
    (415, "UnsupportedMediaType"),
    (416, "RangeNotSatisfiable"),
    (417, "ExpectationFailed"),
    (421, "MisdirectedRequest"),
    (422, "UnprocessableContent"),
    (423, "Locked"),
    (424, "FailedDependency"),
    (425, "TooEarly"),
    (426, "UpgradeRequired"),
    (428, "PreconditionRequired"),
    (429, "TooManyRequests"),
    (431, "RequestHeaderFieldsTooLarge"),
    (451, "UnavailableForLegalReasons"),
    (500, "InternalServerError"),
    (501, "NotImplemented"),
    (502, "BadGateway"),
    (503, "ServiceUnavailable"),
    (504, "GatewayTimeout"),
    (505, "HttpVersionNotSupported"),
];

/// The name of a status in an endpoint's `Response` enum: its reason phrase (`Ok`,
/// `TooManyRequests`), the class of a range (`ClientError` for `4XX`), `Other` for `default`,
/// and `Status299` for a code without a registered phrase.
pub fn status_stem(status: Status) -> String {
    match status {
        Status::Code(code) => REASONS.iter().find(|(c, _)| *c == code).map_or_else(|| format!("Status{code}"), |(_, n)| (*n).to_owned()),
        Status::Range(1) => "Informational".to_owned(),
        Status::Range(2) => "Success".to_owned(),
        Status::Range(3) => "Redirection".to_owned(),
        Status::Range(4) => "ClientError".to_owned(),
        Status::Range(_) => "ServerError".to_owned(),
        Status::Default => "Other".to_owned(),
    }
}

/// The variant of an endpoint's `Response` enum for a status.
pub fn status_variant(status: Status) -> Ident {
    format_ident!("{}", status_stem(status))
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

/// A permission's one-bit constant of `Permissions`.
pub fn permission_const(p: &Permission) -> Ident {
    escaped(const_ident(p.meta.rust()), BITSET_RESERVED)
}

/// A condition's variant of `Condition`.
pub fn condition_variant(c: &Condition) -> Ident {
    type_ident(c.meta.rust())
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

/// A scope set's constant in `auth.rs`, beside `ISSUER`.
pub fn scope_set_const(s: &ScopeSet) -> Ident {
    escaped(const_ident(s.meta.rust()), &["ISSUER"])
}

/// An intent's variant of `Intent`.
pub fn intent_variant(i: &Intent) -> Ident {
    type_ident(i.meta.rust())
}

/// A token kind's variant of `TokenKind`.
pub fn token_kind_variant(k: &TokenKind) -> Ident {
    type_ident(k.meta.rust())
}

/// A token kind's constructor of `Credential`, beside its own functions.
pub fn token_kind_constructor(k: &TokenKind) -> Ident {
    escaped(value_ident(k.meta.rust()), &["new", "header_value", "from_header"])
}

/// A placeholder's field of `Placeholders`.
pub fn placeholder(p: &Placeholder) -> Ident {
    value_ident(p.meta.rust())
}

// --- types: http -----------------------------------------------------------------------------

/// An error's variant of `ErrorCode`.
pub fn error_variant(e: &Error) -> Ident {
    type_ident(e.meta.rust())
}

/// The arm of `ErrorCode` that keeps codes the spec does not name.
pub fn error_catch_all(errors: &[Error]) -> Ident {
    catch_all_beside(errors.iter().filter(|e| e.code.is_some()).map(error_variant))
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

/// An endpoint's module of `endpoints.rs`.
pub fn endpoint_module(e: &Endpoint) -> Ident {
    value_ident(e.meta.rust())
}

/// An endpoint's variant of the server's `Operation` and marker of `granted`.
pub fn endpoint_variant(e: &Endpoint) -> Ident {
    type_ident(e.meta.rust())
}

/// The variant of `Body` a format is carried in, when the body comes in several formats.
pub fn format_variant(format: &str) -> Ident {
    format_ident!("{}", crate::plan::case::pascal(format))
}

/// A gated behaviour's field of the endpoint's `Gates`.
pub fn gate(b: &Behaviour) -> Ident {
    value_ident(b.meta.rust())
}

/// The `Runtime` field holding another endpoint's response field (a bound known at run time),
/// and the server hook that reads it.
pub fn runtime_bound(endpoint: &Endpoint, field: &str) -> Ident {
    value_ident(&format!("{}_{}", endpoint.meta.rust(), field))
}

/// The `Runtime` field saying whether a condition, given `arg` where it takes one, holds
/// (negation set aside).
pub fn runtime_condition(c: &Condition, arg: Option<&str>) -> Ident {
    let stem = c.meta.rust();
    value_ident(&match arg {
        Some(a) => format!("{stem}_{a}"),
        None => stem.to_owned(),
    })
}

/// A change kind's variant of `ChangeKind` (`requirement` -> `Requirement`).
pub fn change_kind_variant(kind: &str) -> Ident {
    type_ident(kind)
}

/// A unit's variant of `Unit` (`MiB`, `seconds`).
pub fn unit_variant(unit: &str) -> Ident {
    type_ident(unit)
}

/// An audience's variant of a permission rule's `Audience` (`bots` -> `Bots`).
pub fn audience_variant(audience: &str) -> Ident {
    type_ident(audience)
}

// --- types: events and timeline ---------------------------------------------------------------

/// A change's constant.
pub fn change_const(c: &Change) -> Ident {
    escaped(const_ident(c.meta.rust()), LIST_RESERVED)
}

/// A limit's constant.
pub fn limit_const(l: &Limit) -> Ident {
    escaped(const_ident(l.meta.rust()), LIST_RESERVED)
}

/// An event's variant of `EventKind` and of its channel's code enum.
pub fn event_variant(e: &Event) -> Ident {
    type_ident(e.meta.rust())
}

/// The arm of a channel's code enum (`GatewayEventCode`) that keeps numbers the spec does not
/// name: `Unknown`, or `Unnamed` when an event of the channel is named `Unknown`, or `Unknown_`.
pub fn event_code_catch_all(events: &[Event], channel: &str) -> Ident {
    catch_all_beside(events.iter().filter(|e| e.channel.id == channel && e.code.is_some()).map(event_variant))
}

/// An event channel's variant of `EventChannel` (`gateway` -> `Gateway`).
pub fn channel_variant(channel: &str) -> Ident {
    type_ident(channel)
}

/// The enum of a channel's event codes (`GatewayEventCode`).
pub fn event_code_enum(channel: &str) -> Ident {
    format_ident!("{}EventCode", type_ident(channel))
}

/// The types `events.rs` declares beside the payloads.
const EVENTS_RESERVED: &[&str] =
    &["EventChannel", "EventKind", "GatewayEventCode", "AuditLogEventCode", "WebhookEventCode", "RpcEventCode", "SocialSdkEventCode"];

/// An event's payload struct.
pub fn event_payload(e: &Event) -> Ident {
    escaped(item_ident(e.meta.rust()), EVENTS_RESERVED)
}

/// The types `webhooks.rs` imports from the runtime.
const WEBHOOKS_RESERVED: &[&str] = &["Envelope", "Hook", "HookEvent", "Ping", "Schedule", "Scheme"];

/// A webhook's union of the events it carries (`NoteEventsEvent`).
pub fn webhook_event(w: &Webhook) -> Ident {
    escaped(type_ident(&format!("{}_event", w.meta.rust())), WEBHOOKS_RESERVED)
}

/// A webhook's description for the runtime (`NOTE_EVENTS`).
pub fn webhook_const(w: &Webhook) -> Ident {
    const_ident(w.meta.rust())
}

/// The function that makes a webhook's receiver (client) and sender (server): `note_events`.
pub fn webhook_fn(w: &Webhook) -> Ident {
    escaped(value_ident(w.meta.rust()), &["refusal", "hooks"])
}

/// The arm of a webhook's union that keeps events the spec does not name.
pub fn webhook_catch_all(w: &Webhook, events: &[Event]) -> Ident {
    catch_all_beside(w.events.iter().filter_map(|e| events.iter().find(|x| x.meta.id == e.event.id)).map(event_variant))
}

/// A gateway's union of its dispatch events (`GatewayEvent`).
pub fn gateway_event(g: &Gateway) -> Ident {
    type_ident(&format!("{}_event", g.meta.rust()))
}

/// A gateway's protocol for the runtime (`GATEWAY`).
pub fn gateway_const(g: &Gateway) -> Ident {
    const_ident(g.meta.rust())
}

/// The function that makes a gateway's session client (client) or hub (server): `gateway`.
pub fn gateway_fn(g: &Gateway) -> Ident {
    value_ident(g.meta.rust())
}

/// The names the client's `gateways.rs` takes from the runtime.
const CLIENT_GATEWAYS_RESERVED: &[&str] = &[
    "Compression",
    "Session",
    "Config",
    "Dispatch",
    "Filter",
    "IdentifyQueue",
    "Received",
    "SendError",
    "Sender",
    "SessionEvent",
    "Shard",
    "ShardError",
    "State",
];

/// A gateway's shard type in the client (`GatewayShard`).
pub fn gateway_shard(g: &Gateway) -> Ident {
    escaped(type_ident(&format!("{}_shard", g.meta.rust())), CLIENT_GATEWAYS_RESERVED)
}

/// The check of a gateway's commands as a server receives them (`check_gateway`).
pub fn gateway_check(g: &Gateway) -> Ident {
    value_ident(&format!("check_{}", g.meta.rust()))
}

/// The server mock's platform side of a gateway (`GatewaySessions`).
pub fn gateway_mock(g: &Gateway) -> Ident {
    escaped(type_ident(&format!("{}_sessions", g.meta.rust())), &["Mock"])
}

/// The client's function that makes a gateway's default shard configuration (`gateway_config`).
pub fn gateway_config_fn(g: &Gateway) -> Ident {
    value_ident(&format!("{}_config", g.meta.rust()))
}

/// The client's function that makes a gateway's shard from a configuration (`gateway_with`).
pub fn gateway_with_fn(g: &Gateway) -> Ident {
    value_ident(&format!("{}_with", g.meta.rust()))
}

/// The arm of a gateway's union that keeps events the spec does not name.
pub fn gateway_catch_all(g: &Gateway, events: &[Event]) -> Ident {
    catch_all_beside(g.events.iter().filter_map(|e| events.iter().find(|x| x.meta.id == e.event.id)).map(event_variant))
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
pub fn api_bound_hook(endpoint: &Endpoint, field: &str) -> Ident {
    escaped(runtime_bound(endpoint, field), API_RESERVED)
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
    "served",
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

/// The function in `router.rs` that answers an endpoint's errors in the bodies it declares for
/// them (`refuse_list_droplets`).
pub fn refusal_writer(e: &Endpoint) -> Ident {
    escaped(value_ident(&format!("refuse_{}", e.meta.rust())), ROUTER_RESERVED)
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

/// The `axum::routing` function of an HTTP method (`get`, `post`).
pub fn method_router(method: &str) -> Ident {
    format_ident!("{}", method.to_lowercase())
}

/// The `axum::routing` function that serves a service for the method of
/// [`method_router`] (`get_service`).
pub fn method_service(method: &Ident) -> Ident {
    format_ident!("{method}_service")
}

/// The `reqwest::Method` constant of an HTTP method (`GET`, `POST`).
pub fn method_const(method: &str) -> Ident {
    format_ident!("{}", method.to_uppercase())
}

/// The mock's function building a valid resource or union (`resource_channel`).
pub fn mock_builder(union: bool, id: &str) -> Ident {
    let kind = if union { "union" } else { "resource" };
    format_ident!("{kind}_{}", value_ident(id).to_string().trim_start_matches("r#"))
}

/// Methods of the client that the generator names or calls on it (`self.clone()`).
const CLIENT_RESERVED: &[&str] = &[
    "new",
    "with_http",
    "with_credential",
    "with_retry",
    "with_rate_limits",
    "with_timeouts",
    "on_deprecation",
    "on_answer",
    "retry",
    "credential",
    "placeholders",
    "http",
    "send",
    "dispatch",
    "exchange",
    "exchange_head",
    "authorization",
    "open",
    "clone",
];

/// An endpoint's method of the client.
pub fn client_method(e: &Endpoint) -> Ident {
    escaped(value_ident(e.meta.rust()), CLIENT_RESERVED)
}

/// An endpoint's request builder in the client's `calls.rs` (`CreateMessage`), which
/// [`client_method`] returns; the plan settles two endpoints whose builders would meet.
pub fn call_type(e: &Endpoint) -> Ident {
    item_ident(e.meta.rust())
}

/// Methods of a request builder besides its setters, which a setter must not be named as.
pub const CALL_METHODS: &[&str] = &["into_request", "into_future"];

/// A streaming endpoint's private method of the client that sends its request and returns the
/// answer with its body unread (the public method, and each reconnection, call it).
pub fn client_open_method(e: &Endpoint) -> Ident {
    escaped(value_ident(&format!("open_{}", e.meta.rust())), CLIENT_RESERVED)
}

/// A paginated endpoint's method of the client that streams its pages.
pub fn client_pages_method(e: &Endpoint) -> Ident {
    escaped(value_ident(&format!("{}_pages", e.meta.rust())), CLIENT_RESERVED)
}

/// A paginated endpoint's method of the client that streams the items of its pages.
pub fn client_stream_method(e: &Endpoint) -> Ident {
    escaped(value_ident(&format!("{}_stream", e.meta.rust())), CLIENT_RESERVED)
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
