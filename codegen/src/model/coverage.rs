//! What the source does not show (gaps) and what the spec assumed, per part: the honesty ledger
//! that `coverage` prints and the docs render.

use super::*;
use serde::Serialize;

/// The part of items that name none.
pub const GENERAL: &str = "general";

/// One gap or assumption, attributed to an item.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// The part of the platform (`general` when the item names none).
    pub part: String,
    /// `kind:id` of the item (`endpoint:get_current_user_guilds`), or `kind:id.field`.
    pub item: String,
    /// The facet (`method`, `status`, ...).
    pub facet: String,
    /// The detail of a gap, or the reason of an assumption.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// Every gap and every assumption of the model, in spec order.
#[derive(Debug, Default, Serialize)]
pub struct Coverage {
    pub gaps: Vec<Entry>,
    pub assumptions: Vec<Entry>,
}

impl Coverage {
    /// Counts per part: `(part, gaps, assumptions)`, parts in platform order then `general`.
    pub fn by_part(&self, model: &Model) -> Vec<(String, usize, usize)> {
        let mut parts: Vec<String> = model.platform.parts.iter().map(|p| p.meta.id.clone()).collect();
        for e in self.gaps.iter().chain(&self.assumptions) {
            if !parts.contains(&e.part) {
                parts.push(e.part.clone());
            }
        }
        parts
            .into_iter()
            .map(|p| {
                let g = self.gaps.iter().filter(|e| e.part == p).count();
                let a = self.assumptions.iter().filter(|e| e.part == p).count();
                (p, g, a)
            })
            .filter(|(_, g, a)| g + a > 0)
            .collect()
    }
}

/// Collects the ledger, kinds in the order the spec lists them.
pub fn coverage(model: &Model) -> Coverage {
    let mut cov = Coverage::default();
    model_gaps(&mut cov, model);
    shape_entries(&mut cov, model);
    for e in &model.endpoints {
        endpoint_entries(&mut cov, e);
    }
    for h in &model.headers {
        add(&mut cov, GENERAL, &format!("header:{}", h.name), &h.not_shown, &h.assumed);
    }
    for r in &model.responses {
        let owner = Meta { id: r.id.clone(), ..Meta::default() };
        response_gaps(&mut cov, &owner, &r.response);
    }
    access_entries(&mut cov, model);
    event_and_error_entries(&mut cov, model);
    lifecycle_and_sdk_entries(&mut cov, model);
    cov
}

/// Adds an item's own gaps and assumptions as `kind:id`, in its part, else `part`, else `general`.
fn item(cov: &mut Coverage, kind: &str, meta: &Meta, part: Option<&Ref>) {
    let part = meta.part.as_ref().or(part).map_or_else(|| GENERAL.to_owned(), |p| p.id.clone());
    let name = format!("{kind}:{}", meta.id);
    add(cov, &part, &name, &meta.not_shown, &meta.assumed);
}

/// Adds the model's declared gaps as `gap:<id>`, one entry per facet they name.
fn model_gaps(cov: &mut Coverage, model: &Model) {
    for g in &model.gaps {
        let part = g.meta.part.as_ref().map_or_else(|| GENERAL.to_owned(), |p| p.id.clone());
        let text = g.meta.description.clone().or_else(|| Some(g.meta.name.clone()));
        // A gap that names no facet still has to show up once in the ledger.
        let facets: Vec<String> = match g.meta.not_shown.as_slice() {
            [] => vec!["details".into()],
            list => list.iter().map(|x| x.facet.clone()).collect(),
        };
        for facet in facets {
            cov.gaps.push(Entry { part: part.clone(), item: format!("gap:{}", g.meta.id), facet, text: text.clone() });
        }
    }
}

/// Adds constants, permissions, resources, unions, enums and flags with their members.
fn shape_entries(cov: &mut Coverage, model: &Model) {
    for c in &model.constants {
        item(cov, "constant", &c.meta, None);
    }
    for p in &model.permissions {
        item(cov, "permission", &p.meta, None);
    }
    for r in &model.resources {
        item(cov, "resource", &r.meta, None);
        fields(cov, "resource", &r.meta, &r.fields);
        cases(cov, &r.meta, &r.cases);
    }
    for u in &model.unions {
        item(cov, "union", &u.meta, None);
        fields(cov, "union", &u.meta, &u.variants);
    }
    for e in &model.enums {
        item(cov, "enum", &e.meta, None);
        for v in &e.values {
            item(cov, "enum_value", &v.meta, e.meta.part.as_ref());
        }
    }
    for f in &model.flags {
        item(cov, "flags", &f.meta, None);
        for v in &f.values {
            item(cov, "flag", &v.meta, f.meta.part.as_ref());
        }
    }
}

/// Adds one endpoint: itself, its parameters and fields, its inline responses, its body schema
/// and its behaviours.
fn endpoint_entries(cov: &mut Coverage, e: &Endpoint) {
    item(cov, "endpoint", &e.meta, None);
    for list in [&e.path_params, &e.query, &e.headers, &e.body, &e.parts, &e.response_fields] {
        fields(cov, "endpoint", &e.meta, list);
    }
    for r in &e.responses {
        if let ResponseUse::Inline(response) = &r.response {
            let owner = Meta { id: format!("{}.responses.{}", e.meta.id, r.status.id), part: e.meta.part.clone(), ..Meta::default() };
            response_gaps(cov, &owner, response);
        }
    }
    fields(cov, "endpoint", &e.meta, e.body_schema.as_slice());
    for b in &e.behaviours {
        item(cov, "behaviour", &b.meta, e.meta.part.as_ref());
    }
}

/// Adds Gateway opcodes, embedded-app commands, and who may do what: conditions, intents,
/// scopes, token kinds, rules and the authorization server.
fn access_entries(cov: &mut Coverage, model: &Model) {
    for o in &model.opcodes {
        item(cov, "opcode", &o.meta, None);
    }
    for c in &model.commands {
        item(cov, "command", &c.meta, None);
    }
    for x in &model.conditions {
        item(cov, "condition", &x.meta, None);
    }
    for x in &model.intents {
        item(cov, "intent", &x.meta, None);
    }
    for x in &model.scopes {
        item(cov, "scope", &x.meta, None);
    }
    for x in &model.scope_sets {
        item(cov, "scope_set", &x.meta, None);
    }
    for x in &model.token_kinds {
        item(cov, "token_kind", &x.meta, None);
    }
    for x in &model.permission_rules {
        item(cov, "permission_rule", &x.meta, None);
    }
    for x in &model.auth_rules {
        item(cov, "auth_rule", &x.meta, None);
    }
    if let Some(s) = &model.authorization_server {
        add(cov, GENERAL, "authorization_server:metadata", &s.not_shown, &s.assumed);
    }
}

/// Adds events with their fields and cases, errors and the shared error body.
fn event_and_error_entries(cov: &mut Coverage, model: &Model) {
    for x in &model.events {
        item(cov, "event", &x.meta, None);
        fields(cov, "event", &x.meta, &x.fields);
        cases(cov, &x.meta, &x.cases);
    }
    for x in &model.webhooks {
        item(cov, "webhook", &x.meta, None);
        if let Some(r) = &x.retry {
            add(cov, GENERAL, &format!("webhook:{}.retry", x.meta.id), &r.not_shown, &r.assumed);
        }
    }
    for x in &model.gateways {
        item(cov, "gateway", &x.meta, None);
    }
    for x in &model.errors {
        item(cov, "error", &x.meta, None);
    }
    if let Some(b) = &model.error_body {
        add(cov, GENERAL, "error_body:error_body", &b.not_shown, &b.assumed);
        for f in &b.fields {
            add(cov, GENERAL, &format!("error_body:error_body.{}", f.name), &f.not_shown, &f.assumed);
        }
    }
}

/// Adds limits, changes, state machines, SDK classes and calls, releases and the release policy.
fn lifecycle_and_sdk_entries(cov: &mut Coverage, model: &Model) {
    for x in &model.limits {
        item(cov, "limit", &x.meta, None);
    }
    for x in &model.changes {
        item(cov, "change", &x.meta, None);
    }
    for m in &model.state_machines {
        item(cov, "state_machine", &m.meta, None);
        for t in &m.transitions {
            item(cov, "transition", &t.meta, m.meta.part.as_ref());
        }
    }
    for c in &model.classes {
        item(cov, "class", &c.meta, None);
        fields(cov, "class", &c.meta, &c.fields);
        for m in &c.methods {
            item(cov, "method", &m.meta, c.meta.part.as_ref());
        }
    }
    for x in &model.sdk_calls {
        item(cov, "sdk_call", &x.meta, None);
    }
    for x in &model.releases {
        item(cov, "release", &x.meta, None);
    }
    // A release policy carries no assumptions of its own, only what the source leaves out.
    if let Some(p) = &model.release_policy {
        add(cov, GENERAL, "release_policy:release_policy", &p.not_shown, &IndexMap::new());
    }
}

/// The gaps of a response (`response:<endpoint>.responses.<status>` or `response:<id>`), its
/// fields and its headers written inline.
fn response_gaps(cov: &mut Coverage, owner: &Meta, r: &Response) {
    let part = owner.part.as_ref().map_or_else(|| GENERAL.to_owned(), |p| p.id.clone());
    add(cov, &part, &format!("response:{}", owner.id), &r.not_shown, &r.assumed);
    fields(cov, "response", owner, &r.fields);
    for h in &r.headers {
        if let HeaderUse::Inline(f) = &h.header {
            add(cov, &part, &format!("response:{}.{}", owner.id, h.name), &f.not_shown, &f.assumed);
        }
    }
}

/// The gaps and assumptions of an object's cases, as `case:<owner>.<case>`.
fn cases(cov: &mut Coverage, owner: &Meta, list: &[Case]) {
    for c in list {
        let part = c.meta.part.as_ref().or(owner.part.as_ref()).map_or_else(|| GENERAL.to_owned(), |p| p.id.clone());
        add(cov, &part, &format!("case:{}.{}", owner.id, c.meta.id), &c.meta.not_shown, &c.meta.assumed);
    }
}

fn fields(cov: &mut Coverage, kind: &str, owner: &Meta, list: &[Field]) {
    let part = owner.part.as_ref().map_or_else(|| GENERAL.to_owned(), |p| p.id.clone());
    for f in list {
        add(cov, &part, &format!("{kind}:{}.{}", owner.id, f.name), &f.not_shown, &f.assumed);
    }
}

fn add(cov: &mut Coverage, part: &str, item: &str, gaps: &[Gap], assumed: &IndexMap<String, String>) {
    for g in gaps {
        cov.gaps.push(Entry { part: part.to_owned(), item: item.to_owned(), facet: g.facet.clone(), text: g.detail.clone() });
    }
    for (facet, why) in assumed {
        cov.assumptions.push(Entry { part: part.to_owned(), item: item.to_owned(), facet: facet.clone(), text: Some(why.clone()) });
    }
}
