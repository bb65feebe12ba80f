//! The page body: one section per part of the platform, each holding its items grouped by kind.

use super::items::{self, *};
use super::sdk::Sigs;
use super::timeline::{self, PolicyView, ReleaseLine};
use super::view::Cx;
use crate::emit::docs::words::{Span, anchor, href};
use crate::model::{Item, Meta, Model};
use serde::Serialize;

use crate::model::coverage::GENERAL;

#[derive(Debug, Serialize)]
pub struct PartView {
    pub id: String,
    pub anchor: String,
    pub name: String,
    pub description: Option<String>,
    pub address: Option<Span>,
    pub groups: Vec<Group>,
}

/// The items of one kind within a part.
#[derive(Debug, Serialize)]
pub struct Group {
    /// Which template block renders the items.
    pub key: &'static str,
    pub title: &'static str,
    pub anchor: String,
    pub count: usize,
    pub items: Items,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Items {
    Simple(Vec<SimpleView>),
    Endpoints(Vec<EndpointView>),
    Resources(Vec<ResourceView>),
    Unions(Vec<UnionView>),
    Enums(Vec<EnumView>),
    Flags(Vec<FlagsView>),
    Bits(Vec<BitView>),
    Rules(Vec<RuleView>),
    Events(Vec<ChannelGroup>),
    Opcodes(Vec<OpcodeView>),
    Commands(Vec<CommandView>),
    Errors(Vec<ErrorView>),
    ErrorBody(ErrorBodyView),
    AuthServer(AuthServerView),
    Limits(Vec<LimitView>),
    Machines(Vec<MachineView>),
    Gateways(Vec<GatewayView>),
    Classes(Vec<ClassView>),
    Releases(Vec<ReleaseLine>),
    Policy(PolicyView),
    Responses(Vec<ResponseView>),
    Fields(Vec<FieldView>),
}

/// The part an item belongs to.
fn part_of(meta: &Meta) -> &str {
    meta.part.as_ref().map_or(GENERAL, |p| p.id.as_str())
}

fn in_part<'m, T: Item>(list: &'m [T], part: &str) -> Vec<&'m T> {
    list.iter().filter(|i| part_of(i.meta()) == part).collect()
}

/// Every part in platform order, then `general` when some item names no part.
pub fn parts(cx: &Cx) -> Vec<PartView> {
    let model = cx.model;
    let mut out: Vec<PartView> = model
        .platform
        .parts
        .iter()
        .map(|p| PartView {
            id: p.meta.id.clone(),
            anchor: anchor("part", &p.meta.id),
            name: p.meta.name.clone(),
            description: p.meta.description.clone(),
            address: p.address.as_ref().map(|a| Span { text: format!("{{{}}}", a.id), href: Some(href("placeholder", &a.id)), code: true }),
            groups: groups(cx, &p.meta.id),
        })
        .collect();
    let general = groups(cx, GENERAL);
    if !general.is_empty() {
        out.push(PartView {
            id: GENERAL.into(),
            anchor: anchor("part", GENERAL),
            name: "General".into(),
            description: Some("Items that belong to no single part of the platform.".into()),
            address: None,
            groups: general,
        });
    }
    out
}

fn groups(cx: &Cx, part: &str) -> Vec<Group> {
    let m = cx.model;
    let mut out = Vec::new();
    let mut push = |key: &'static str, title: &'static str, count: usize, items: Items| {
        if count > 0 {
            out.push(Group { key, title, anchor: format!("{part}-{key}"), count, items });
        }
    };
    macro_rules! list {
        ($key:literal, $title:literal, $field:ident, $variant:ident, $f:expr) => {{
            let v: Vec<_> = in_part(&m.$field, part).into_iter().map(|i| $f(cx, i)).collect();
            push($key, $title, v.len(), Items::$variant(v));
        }};
    }
    list!("features", "Features", features, Simple, items::feature);
    list!("constants", "Named values", constants, Simple, items::constant);
    list!("endpoints", "Endpoints", endpoints, Endpoints, items::endpoint);
    // Shapes declared inline are shown under the field that declares them.
    let resources: Vec<_> = in_part(&m.resources, part).into_iter().filter(|r| r.inline.is_none()).map(|r| items::resource(cx, r)).collect();
    push("resources", "Resources", resources.len(), Items::Resources(resources));
    let unions: Vec<_> = in_part(&m.unions, part).into_iter().filter(|u| u.inline.is_none()).map(|u| items::union(cx, u)).collect();
    push("unions", "Unions", unions.len(), Items::Unions(unions));
    list!("enums", "Enums", enums, Enums, items::enum_);
    list!("flags", "Flag sets", flags, Flags, items::flags);
    list!("permissions", "Permissions", permissions, Bits, items::permission);
    list!("permission_rules", "Permission rules", permission_rules, Rules, items::permission_rule);
    list!("conditions", "Conditions", conditions, Simple, items::condition);
    list!("intents", "Intents", intents, Simple, items::intent);
    list!("scopes", "Scopes", scopes, Simple, items::scope);
    list!("scope_sets", "Scope sets", scope_sets, Simple, items::scope_set);
    list!("token_kinds", "Token kinds", token_kinds, Simple, items::token_kind);
    list!("auth_rules", "Authorization rules", auth_rules, Simple, items::auth_rule);
    if let Some(s) = m.authorization_server.as_ref().filter(|_| auth_server_part(m) == part) {
        push("authorization_server", "Authorization server", 1, Items::AuthServer(items::authorization_server(s)));
    }
    list!("opcodes", "Gateway opcodes", opcodes, Opcodes, items::opcode);
    let events = in_part(&m.events, part);
    push("events", "Events by channel", events.len(), Items::Events(items::events_by_channel(cx, &events)));
    list!("webhooks", "Webhooks", webhooks, Simple, items::webhook);
    list!("gateways", "Gateways", gateways, Gateways, items::gateway);
    list!("commands", "Commands", commands, Commands, items::command);
    list!("errors", "Errors", errors, Errors, items::error);
    if let Some(b) = m.error_body.as_ref().filter(|_| http_part(m) == part) {
        push("error_body", "Error body", 1, Items::ErrorBody(items::error_body(cx, b)));
    }
    if http_part(m) == part {
        push("responses", "Named responses", m.responses.len(), Items::Responses(m.responses.iter().map(|r| items::named_response(cx, r)).collect()));
        push("headers", "Named headers", m.headers.len(), Items::Fields(items::named_headers(cx, &m.headers)));
    }
    list!("limits", "Limits", limits, Limits, items::limit);
    list!("state_machines", "State machines", state_machines, Machines, items::state_machine);
    let sigs = Sigs::new(m);
    list!("classes", "SDK classes", classes, Classes, |cx, c| items::class(cx, &sigs, c));
    list!("sdk_calls", "SDK calls", sdk_calls, Simple, items::sdk_call);
    if let Some(p) = m.release_policy.as_ref().filter(|_| releases_part(m) == part) {
        push("release_policy", "Release policy and support window", 1, Items::Policy(timeline::policy(cx, p)));
    }
    let releases = in_part(&m.releases, part);
    push("releases", "SDK releases", releases.len(), Items::Releases(timeline::release_lines(cx, &releases)));
    list!("gaps", "Not shown", gaps, Simple, items::gap_item);
    out
}

/// The part of the HTTP API: where the first routed endpoint lives. The error body is shown there.
fn http_part(m: &Model) -> &str {
    m.routed_endpoints().next().or(m.endpoints.first()).map_or(GENERAL, |e| part_of(&e.meta))
}

/// The part whose address the issuer names (`{auth_url}`).
fn auth_server_part(m: &Model) -> &str {
    let Some(s) = &m.authorization_server else { return GENERAL };
    m.platform.parts.iter().find(|p| p.address.as_ref().is_some_and(|a| s.issuer.contains(&format!("{{{}}}", a.id)))).map_or(GENERAL, |p| p.meta.id.as_str())
}

/// The part of the SDK releases, which the release policy governs.
fn releases_part(m: &Model) -> &str {
    m.releases.first().map_or(GENERAL, |r| part_of(&r.meta))
}
