//! The Rust plan: the Rust identifier of every spec item and the facts the Rust emitters ask of
//! every endpoint, decided once for a model before any crate is written.
//!
//! [`names`] says how each kind of item is named, from the item itself; [`Plan`] applies it to
//! every item once and answers by id, so an emitter holding a reference (`enum_id`, a change
//! id) never searches the model for the item to name it. [`endpoint`] holds what the types,
//! server and client crates must agree on about an endpoint: its body, its answer, the values
//! only the running service knows. [`scopes`] lists where two identifiers could meet.
//!
//! The types, server and client emitters render from a plan: it reads as the model it was made
//! from (`plan.resources`, `plan.endpoints`), with the decisions beside.

pub mod endpoint;
pub mod names;
mod patterns;
pub mod scopes;

pub use endpoint::{EndpointFacts, ResponseKind, RuntimeInput};
pub use patterns::PlannedPattern;
pub use scopes::namespaces;

use crate::model::*;
use proc_macro2::{Ident, Span, TokenStream};
use std::collections::HashMap;

/// The kinds of item an emitter names by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Named {
    Resource,
    Union,
    Enum,
    EnumValue,
    Flags,
    Flag,
    Permission,
    Condition,
    Scope,
    Intent,
    TokenKind,
    Placeholder,
    Error,
    Change,
    Limit,
    Event,
}

/// Every Rust name of a model, and the facts of its endpoints.
pub struct Plan<'m> {
    model: &'m Model,
    /// Identifiers by kind, owner id (the enum of a value, the flag set of a flag; empty for
    /// items of their own) and id. Kept as text: a plan is shared by emitters running on several
    /// threads, and `proc_macro2` identifiers stay on one.
    names: HashMap<(Named, &'m str, &'m str), String>,
    /// The facts of each endpoint, in spec order.
    endpoints: Vec<EndpointFacts<'m>>,
    endpoint_index: HashMap<&'m str, usize>,
    /// Every distinct `pattern`, in the order first written: `patterns.rs` compiles each once
    /// and each check names its static by the index here.
    patterns: Vec<PlannedPattern>,
    error_catch_all: String,
    /// The variants of the client's `Declared`: each error response with a payload that some
    /// routed endpoint declares, once, in spec order.
    declared: Vec<DeclaredError<'m>>,
    /// The catch-all arm of each event channel's code enum.
    event_code_catch_alls: HashMap<&'m str, String>,
    /// The client's request builder of each routed endpoint, by endpoint id.
    call_types: HashMap<&'m str, String>,
    /// Where the headers struct of each set of named headers is defined: by the set (each
    /// header's name and id, in order), the path of the first response that holds it (named
    /// responses first, then the endpoints' in spec order). The responses after it name that
    /// struct: a large API sends the same rate-limit headers with every answer.
    header_homes: HashMap<HeaderSet<'m>, String>,
}

/// A response's headers when each is a named header: their names and ids, in order. Two
/// responses with the same set have identical headers structs.
type HeaderSet<'m> = Vec<(&'m str, &'m str)>;

/// The set of `r`'s headers, when it has some and all are named.
fn header_set(r: &Response) -> Option<HeaderSet<'_>> {
    if r.headers.is_empty() {
        return None;
    }
    r.headers
        .iter()
        .map(|h| match &h.header {
            HeaderUse::Named(id) => Some((h.name.as_str(), id.id.as_str())),
            HeaderUse::Inline(_) => None,
        })
        .collect()
}

/// Every response with headers and the path of the headers struct it would define: the named
/// responses, then the endpoints' inline ones in spec order.
fn responses_with_headers(model: &Model) -> impl Iterator<Item = (&Response, String)> {
    let named = model.responses.iter().map(|n| (&n.response, names::named_headers_path(n)));
    let inline = model
        .endpoints
        .iter()
        .flat_map(move |e| e.responses.iter().filter(|r| matches!(r.response, ResponseUse::Inline(_))).filter_map(move |r| own_headers(model, e, r)));
    named.chain(inline).filter(|(r, _)| !r.headers.is_empty())
}

/// The response `r` of `e` stands for (its own, or the named one it uses), and the path of the
/// headers struct that response would define.
fn own_headers<'m>(model: &'m Model, e: &Endpoint, r: &'m StatusResponse) -> Option<(&'m Response, String)> {
    match &r.response {
        ResponseUse::Inline(response) => Some((&**response, names::inline_headers_path(e, r.status()?))),
        ResponseUse::Named(id) => {
            let named = model.named_response(&id.id)?;
            Some((&named.response, names::named_headers_path(named)))
        }
    }
}

/// The first response to hold each set of named headers, as the path of its headers struct.
fn header_homes(model: &Model) -> HashMap<HeaderSet<'_>, String> {
    let mut homes = HashMap::new();
    for (response, path) in responses_with_headers(model) {
        if let Some(set) = header_set(response) {
            homes.entry(set).or_insert(path);
        }
    }
    homes
}

impl std::ops::Deref for Plan<'_> {
    type Target = Model;

    /// A plan reads as its model, so that an emitter needs one value in hand, not two.
    fn deref(&self) -> &Model {
        self.model
    }
}

impl<'m> Plan<'m> {
    /// Decides every name of `model`, and the facts of its endpoints.
    pub fn new(model: &'m Model) -> Self {
        let endpoints: Vec<EndpointFacts<'m>> = model.endpoints.iter().map(|e| EndpointFacts::new(model, e)).collect();
        let endpoint_index = model.endpoints.iter().enumerate().map(|(i, e)| (e.meta.id.as_str(), i)).collect();
        Plan {
            model,
            names: item_names(model),
            endpoints,
            endpoint_index,
            patterns: patterns::gather(model),
            error_catch_all: names::error_catch_all(&model.errors).to_string(),
            declared: declared_errors(model),
            event_code_catch_alls: event_channels(model).map(|c| (c, names::event_code_catch_all(&model.events, c).to_string())).collect(),
            call_types: call_types(model),
            header_homes: header_homes(model),
        }
    }

    /// The headers struct `r`'s headers are when an earlier response with the same named
    /// headers defines it, from the types crate's root; `own` is the path of the struct `r`
    /// would define ([`names::named_headers_path`], [`names::inline_headers_path`]).
    pub fn shared_headers(&self, r: &Response, own: &str) -> Option<TokenStream> {
        let home = self.header_homes.get(&header_set(r)?)?;
        (home != own).then(|| home.parse().expect("BUG: a headers struct's path parses"))
    }

    /// The headers struct the response `r` of `e` carries, by path from the types crate's root;
    /// `None` when it has no headers.
    pub fn headers_struct(&self, e: &Endpoint, r: &'m StatusResponse) -> Option<TokenStream> {
        let (response, own) = own_headers(self.model, e, r)?;
        if response.headers.is_empty() {
            return None;
        }
        Some(self.shared_headers(response, &own).unwrap_or_else(|| own.parse().expect("BUG: a headers struct's path parses")))
    }

    /// The headers structs the types crate defines, each with a response that holds it, by
    /// path from the types crate's root.
    pub fn headers_structs(&self) -> impl Iterator<Item = (TokenStream, &'m Response)> {
        responses_with_headers(self.model)
            .filter(|(r, path)| self.shared_headers(r, path).is_none())
            .map(|(r, path)| (path.parse().expect("BUG: a headers struct's path parses"), r))
    }

    /// The client's request builder of routed endpoint `e` (`CreateMessage`).
    pub fn call_type(&self, e: &Endpoint) -> Ident {
        Ident::new(&self.call_types[e.meta.id.as_str()], Span::call_site())
    }

    /// The webhooks whose deliveries can be read: those whose envelope the spec gives.
    pub fn delivered_webhooks(&self) -> impl Iterator<Item = &'m Webhook> {
        self.model.webhooks.iter().filter(|w| w.envelope.is_some())
    }

    /// A webhook's events, each with the value that names it.
    pub fn webhook_events<'w>(&self, w: &'w Webhook) -> impl Iterator<Item = (&'w str, &'m Event)> {
        let events = &self.model.events;
        w.events.iter().map(move |e| (e.value.as_str(), events.iter().find(|x| x.meta.id == e.event.id).expect("BUG: validated reference")))
    }

    /// The gateways a session client and server can speak: those that give every member and
    /// role the session machinery reads.
    pub fn sessions(&self) -> impl Iterator<Item = &'m Gateway> {
        self.model.gateways.iter().filter(|g| g.is_sessionable())
    }

    /// A gateway's dispatch events, each with the name the envelope gives it.
    pub fn gateway_events<'g>(&self, g: &'g Gateway) -> impl Iterator<Item = (&'g str, &'m Event)> {
        let events = &self.model.events;
        g.events.iter().map(move |e| (e.name.as_str(), events.iter().find(|x| x.meta.id == e.event.id).expect("BUG: validated reference")))
    }

    /// The opcode with this id.
    pub fn opcode(&self, id: &str) -> &'m Opcode {
        self.model.opcodes.iter().find(|o| o.meta.id == id).expect("BUG: validated reference")
    }

    /// The model the plan was made for.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// The identifier of the item of `kind` with this id under `owner`; the id itself, made an
    /// identifier, where there is none (validation rules that out).
    fn ident(&self, kind: Named, owner: &str, id: &str) -> Ident {
        match self.names.get(&(kind, owner, id)) {
            Some(name) => parse_ident(name),
            None => crate::plan::case::rust_ident(id),
        }
    }

    /// The struct of the resource with this id.
    pub fn resource_type(&self, id: &str) -> Ident {
        self.ident(Named::Resource, "", id)
    }

    /// The enum of the union with this id.
    pub fn union_type(&self, id: &str) -> Ident {
        self.ident(Named::Union, "", id)
    }

    /// The enum of the enum with this id.
    pub fn enum_type(&self, id: &str) -> Ident {
        self.ident(Named::Enum, "", id)
    }

    /// The variant of value `value` of the enum with id `enum_id`.
    pub fn enum_variant(&self, enum_id: &str, value: &str) -> Ident {
        self.ident(Named::EnumValue, enum_id, value)
    }

    /// The bit set of the flag set with this id.
    pub fn flags_type(&self, id: &str) -> Ident {
        self.ident(Named::Flags, "", id)
    }

    /// The constant of flag `flag` of the flag set with id `set`.
    pub fn flag_const(&self, set: &str, flag: &str) -> Ident {
        self.ident(Named::Flag, set, flag)
    }

    /// The variant of the permission with this id.
    pub fn permission_variant(&self, id: &str) -> Ident {
        self.ident(Named::Permission, "", id)
    }

    /// The variant of the condition with this id.
    pub fn condition_variant(&self, id: &str) -> Ident {
        self.ident(Named::Condition, "", id)
    }

    /// The variant of the scope with this id.
    pub fn scope_variant(&self, id: &str) -> Ident {
        self.ident(Named::Scope, "", id)
    }

    /// The variant of the intent with this id.
    pub fn intent_variant(&self, id: &str) -> Ident {
        self.ident(Named::Intent, "", id)
    }

    /// The variant of the token kind with this id.
    pub fn token_kind_variant(&self, id: &str) -> Ident {
        self.ident(Named::TokenKind, "", id)
    }

    /// The field of `Placeholders` of the placeholder with this id.
    pub fn placeholder(&self, id: &str) -> Ident {
        self.ident(Named::Placeholder, "", id)
    }

    /// The constant of the error with this id.
    pub fn error_const(&self, id: &str) -> Ident {
        self.ident(Named::Error, "", id)
    }

    /// The constant of the change with this id.
    pub fn change_const(&self, id: &str) -> Ident {
        self.ident(Named::Change, "", id)
    }

    /// The constant of the limit with this id.
    pub fn limit_const(&self, id: &str) -> Ident {
        self.ident(Named::Limit, "", id)
    }

    /// The variant of `EventKind` of the event with this id.
    pub fn event_variant(&self, id: &str) -> Ident {
        self.ident(Named::Event, "", id)
    }

    /// The arm of `ErrorCode` that keeps codes the spec does not name.
    pub fn error_catch_all(&self) -> Ident {
        parse_ident(&self.error_catch_all)
    }

    /// The arm of a channel's code enum that keeps numbers the spec does not name.
    pub fn event_code_catch_all(&self, channel: &str) -> Ident {
        self.event_code_catch_alls.get(channel).map_or_else(|| names::event_code_catch_all(&self.model.events, channel), |name| parse_ident(name))
    }

    /// The `Runtime` field holding field `field` of endpoint `endpoint`'s response.
    pub fn runtime_bound(&self, endpoint: &str, field: &str) -> Ident {
        endpoint::runtime_bound(self.model, endpoint, field)
    }

    /// The `Runtime` field saying whether a condition (negation set aside) holds.
    pub fn runtime_condition(&self, cond: &Cond) -> Ident {
        endpoint::runtime_condition(self.model, cond)
    }

    /// The server hook reading field `field` of endpoint `endpoint`'s response.
    pub fn api_bound_hook(&self, endpoint: &str, field: &str) -> Ident {
        match self.model.endpoint(endpoint) {
            Some(e) => names::api_bound_hook(e, field),
            None => crate::plan::idents::value_ident(&format!("{endpoint}_{field}")),
        }
    }

    /// The facts of an endpoint of the model.
    pub fn facts(&self, e: &Endpoint) -> &EndpointFacts<'m> {
        &self.endpoints[self.endpoint_index[e.meta.id.as_str()]]
    }

    /// Every distinct pattern, in the order first written.
    pub fn patterns(&self) -> &[PlannedPattern] {
        &self.patterns
    }

    /// The variants of the client's `Declared`, in spec order.
    pub fn declared_errors(&self) -> &[DeclaredError<'m>] {
        &self.declared
    }

    /// The `Declared` variant an error response of `e` decodes into, when it has a payload.
    pub fn declared_variant(&self, e: &Endpoint, r: &StatusResponse) -> Option<Ident> {
        let key = DeclaredError::key(e, r);
        self.declared.iter().find(|d| d.key == key).map(|d| parse_ident(&d.variant))
    }
}

/// An error response some routed endpoint declares with a payload (a body or headers): a
/// variant of the client's `Declared`.
pub struct DeclaredError<'m> {
    /// The variant's name.
    pub variant: String,
    /// The first endpoint that declares it, and how.
    pub endpoint: &'m Endpoint,
    pub response: &'m StatusResponse,
    /// The named response's id, or the endpoint's id and the status.
    key: String,
}

impl DeclaredError<'_> {
    fn key(e: &Endpoint, r: &StatusResponse) -> String {
        match &r.response {
            ResponseUse::Named(id) => id.id.clone(),
            ResponseUse::Inline(_) => format!("{}\0{}", e.meta.id, r.status.id),
        }
    }
}

/// The client's `Declared` variants of `model`.
pub(super) fn declared_errors(model: &Model) -> Vec<DeclaredError<'_>> {
    let mut out: Vec<DeclaredError<'_>> = Vec::new();
    for e in model.routed_endpoints() {
        for r in e.error_responses() {
            let Some(response) = model.response_of(&r.response) else { continue };
            let key = DeclaredError::key(e, r);
            if (response.body_kind() == BodyKind::Empty && response.headers.is_empty()) || out.iter().any(|d| d.key == key) {
                continue;
            }
            let variant = match &r.response {
                ResponseUse::Named(id) => model.named_response(&id.id).map(names::declared_named),
                ResponseUse::Inline(_) => r.status().map(|s| names::declared_inline(e, s)),
            };
            let Some(variant) = variant else { continue };
            out.push(DeclaredError { variant: variant.to_string(), endpoint: e, response: r, key });
        }
    }
    out
}

/// An identifier decided before, from its text (`r#type` is a raw one).
pub(crate) fn parse_ident(text: &str) -> Ident {
    match text.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(text, Span::call_site()),
    }
}

/// Each event channel once.
fn event_channels(model: &Model) -> impl Iterator<Item = &str> {
    model.events.iter().map(|e| e.channel.id.as_str()).collect::<std::collections::BTreeSet<_>>().into_iter()
}

/// The name of every item an emitter names by id.
fn item_names<'m>(model: &'m Model) -> HashMap<(Named, &'m str, &'m str), String> {
    let mut out = HashMap::new();
    let mut put = |kind: Named, owner: &'m str, id: &'m str, ident: Ident| {
        out.insert((kind, owner, id), ident.to_string());
    };
    model.resources.iter().for_each(|r| put(Named::Resource, "", &r.meta.id, names::resource(r)));
    model.unions.iter().for_each(|u| put(Named::Union, "", &u.meta.id, names::union_type(u)));
    for e in &model.enums {
        put(Named::Enum, "", &e.meta.id, names::enum_type(e));
        e.values.iter().for_each(|v| put(Named::EnumValue, &e.meta.id, &v.meta.id, names::enum_variant(v)));
    }
    for f in &model.flags {
        put(Named::Flags, "", &f.meta.id, names::flags_type(f));
        f.values.iter().for_each(|v| put(Named::Flag, &f.meta.id, &v.meta.id, names::flag_const(v)));
    }
    model.permissions.iter().for_each(|p| put(Named::Permission, "", &p.meta.id, names::permission_variant(p)));
    model.conditions.iter().for_each(|c| put(Named::Condition, "", &c.meta.id, names::condition_variant(c)));
    model.scopes.iter().for_each(|s| put(Named::Scope, "", &s.meta.id, names::scope_variant(s)));
    model.intents.iter().for_each(|i| put(Named::Intent, "", &i.meta.id, names::intent_variant(i)));
    model.token_kinds.iter().for_each(|k| put(Named::TokenKind, "", &k.meta.id, names::token_kind_variant(k)));
    model.platform.placeholders.iter().for_each(|p| put(Named::Placeholder, "", &p.meta.id, names::placeholder(p)));
    model.errors.iter().for_each(|e| put(Named::Error, "", &e.meta.id, names::error_const(e)));
    model.changes.iter().for_each(|c| put(Named::Change, "", &c.meta.id, names::change_const(c)));
    model.limits.iter().for_each(|l| put(Named::Limit, "", &l.meta.id, names::limit_const(l)));
    model.events.iter().for_each(|e| put(Named::Event, "", &e.meta.id, names::event_variant(e)));
    out
}

/// The request builder of each routed endpoint: named after it, and where two would meet
/// (`string` and `string_type` both give `StringType`), the later one with `Call` appended
/// until it is free.
fn call_types(model: &Model) -> HashMap<&str, String> {
    let mut taken = std::collections::HashSet::new();
    let mut out = HashMap::new();
    for e in model.routed_endpoints() {
        let mut name = names::call_type(e).to_string();
        while !taken.insert(name.clone()) {
            name.push_str("Call");
        }
        out.insert(e.meta.id.as_str(), name);
    }
    out
}
