//! References: every id written in one item that names another must resolve.

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::*;
use crate::model::{Index, KINDS};

/// One reference in the model and the kind of item it must name.
pub struct Reference<'a> {
    pub kind: &'static str,
    pub target: &'a Ref,
}

/// Every common-field block in the model, nested items included.
pub fn all_metas(model: &Model) -> Vec<&Meta> {
    let mut out: Vec<&Meta> = Vec::new();
    fn push<'a, T: Item>(out: &mut Vec<&'a Meta>, items: &'a [T]) {
        out.extend(items.iter().map(Item::meta));
    }
    push(&mut out, &model.platform.placeholders);
    push(&mut out, &model.platform.parts);
    push(&mut out, &model.features);
    push(&mut out, &model.constants);
    push(&mut out, &model.gaps);
    push(&mut out, &model.permissions);
    push(&mut out, &model.resources);
    push(&mut out, &model.unions);
    push(&mut out, &model.enums);
    push(&mut out, &model.flags);
    push(&mut out, &model.endpoints);
    push(&mut out, &model.opcodes);
    push(&mut out, &model.commands);
    push(&mut out, &model.conditions);
    push(&mut out, &model.intents);
    push(&mut out, &model.scopes);
    push(&mut out, &model.scope_sets);
    push(&mut out, &model.token_kinds);
    push(&mut out, &model.permission_rules);
    push(&mut out, &model.auth_rules);
    push(&mut out, &model.events);
    push(&mut out, &model.webhooks);
    push(&mut out, &model.gateways);
    push(&mut out, &model.errors);
    push(&mut out, &model.limits);
    push(&mut out, &model.changes);
    push(&mut out, &model.state_machines);
    push(&mut out, &model.classes);
    push(&mut out, &model.sdk_calls);
    push(&mut out, &model.releases);
    for e in &model.enums {
        push(&mut out, &e.values);
    }
    for f in &model.flags {
        push(&mut out, &f.values);
    }
    for e in &model.endpoints {
        push(&mut out, &e.behaviours);
        push(&mut out, &e.aliases);
    }
    for c in &model.commands {
        push(&mut out, &c.aliases);
    }
    for m in &model.state_machines {
        push(&mut out, &m.states);
        push(&mut out, &m.transitions);
        for t in &m.transitions {
            push(&mut out, &t.effects);
        }
    }
    for c in &model.classes {
        push(&mut out, &c.methods);
    }
    for r in &model.releases {
        push(&mut out, &r.toolkits);
    }
    for cases in model.all_cases() {
        push(&mut out, cases.1);
    }
    out
}

/// Every field in the model (resource fields, endpoint inputs and outputs, payloads, members,
/// union variants). A field a resource takes from a base is listed once, on the base.
pub fn all_fields(model: &Model) -> Vec<&Field> {
    let mut out: Vec<&Field> = Vec::new();
    for r in &model.resources {
        out.extend(r.own_fields());
    }
    for u in &model.unions {
        out.extend(&u.variants);
    }
    for e in &model.endpoints {
        out.extend(e.path_params.iter().chain(&e.query).chain(&e.body).chain(&e.response_fields).chain(&e.body_schema));
        out.extend(&e.response_columns);
        out.extend(e.headers.iter().chain(&e.parts));
        for r in &e.responses {
            if let ResponseUse::Inline(r) = &r.response {
                out.extend(response_fields(r));
            }
        }
    }
    out.extend(&model.headers);
    for r in &model.responses {
        out.extend(response_fields(&r.response));
    }
    for o in &model.opcodes {
        out.extend(&o.fields);
    }
    for e in &model.events {
        out.extend(&e.fields);
    }
    for c in &model.classes {
        out.extend(&c.fields);
    }
    if let Some(b) = &model.error_body {
        out.extend(&b.fields);
    }
    out
}

/// The body fields and inline header fields of a response.
fn response_fields(r: &Response) -> impl Iterator<Item = &Field> {
    let headers = r.headers.iter().filter_map(|h| match &h.header {
        HeaderUse::Inline(f) => Some(&**f),
        HeaderUse::Named(_) => None,
    });
    r.fields.iter().chain(headers)
}

/// Every plain reference in the model with the kind it must name.
pub fn all_references<'a>(model: &'a Model) -> Vec<Reference<'a>> {
    let mut out = Vec::new();
    let add = &mut |kind: &'static str, target: &'a Ref| out.push(Reference { kind, target });
    for meta in all_metas(model) {
        meta.part.iter().for_each(|r| add("part", r));
        [&meta.since, &meta.until, &meta.deprecated].into_iter().flatten().for_each(|r| add("change", r));
    }
    for part in &model.platform.parts {
        part.address.iter().for_each(|r| add("placeholder", r));
    }
    model.platform.docs.iter().for_each(|r| add("placeholder", r));
    for field in all_fields(model) {
        field_references(field, add);
    }
    for e in &model.endpoints {
        e.token_kinds().for_each(|r| add("token_kind", r));
        e.scopes.iter().for_each(|r| add("scope", r));
        e.response_max_items.iter().for_each(|b| bound_references(b, add));
        for r in &e.responses {
            if let ResponseUse::Named(id) = &r.response {
                add("response", id);
            }
        }
    }
    for r in model.all_responses() {
        for h in &r.headers {
            if let HeaderUse::Named(id) = &h.header {
                add("header", id);
            }
        }
    }
    for r in &model.resources {
        r.extends.iter().for_each(|b| add("resource", b));
    }
    for (_, cases, ..) in model.all_cases() {
        for case in cases {
            rule_references(&case.when, add);
            for f in &case.fields {
                f.constraints.all().into_iter().for_each(|(_, b)| bound_references(b, add));
            }
        }
    }
    for o in &model.opcodes {
        o.reply.iter().for_each(|r| add("event", r));
    }
    for e in &model.events {
        e.extends.iter().for_each(|r| add("resource", r));
    }
    for w in &model.webhooks {
        w.events.iter().for_each(|e| add("event", &e.event));
    }
    for g in &model.gateways {
        g.events.iter().for_each(|e| add("event", &e.event));
        g.commands.iter().for_each(|c| add("opcode", c));
        g.roles.iter().flat_map(|r| r.all()).for_each(|(_, o)| add("opcode", o));
    }
    for c in &model.commands {
        c.scopes.iter().for_each(|r| add("scope", r));
    }
    for c in &model.conditions {
        c.param_enums.iter().for_each(|r| add("enum", r));
        c.limit.iter().for_each(|r| add("limit", r));
    }
    for s in &model.scope_sets {
        s.scopes.iter().for_each(|r| add("scope", r));
    }
    for rule in &model.permission_rules {
        rule.endpoints.iter().for_each(|r| add("endpoint", r));
        for v in &rule.variants {
            [&v.since, &v.until].into_iter().flatten().for_each(|r| add("change", r));
            rule_references(&v.rule, add);
        }
    }
    for e in &model.errors {
        e.endpoints.iter().for_each(|r| add("endpoint", r));
    }
    for l in &model.limits {
        [&l.value, &l.min, &l.max].into_iter().flatten().for_each(|b| bound_references(b, add));
        l.previous.iter().for_each(|p| add("change", &p.until));
    }
    for m in &model.state_machines {
        m.state_enum.iter().for_each(|r| add("enum", r));
        for t in &m.transitions {
            for e in &t.effects {
                e.event.iter().for_each(|r| add("event", r));
                e.error.iter().for_each(|r| add("error", r));
            }
        }
    }
    if let Some(p) = &model.release_policy {
        add("limit", &p.support_window);
    }
    out
}

fn field_references<'a>(field: &'a Field, add: &mut impl FnMut(&'static str, &'a Ref)) {
    [&field.since, &field.until, &field.deprecated].into_iter().flatten().for_each(|r| add("change", r));
    field.requires_scope.iter().for_each(|r| add("scope", r));
    field.required_when.iter().for_each(|c| add("condition", c.named().0));
    for (_, bound) in field.constraints.all() {
        bound_references(bound, add);
    }
    let mut items = field.items.as_ref();
    while let Some(i) = items {
        i.constraints.all().into_iter().for_each(|(_, b)| bound_references(b, add));
        items = i.items.as_deref();
    }
}

fn bound_references<'a>(bound: &'a Bound, add: &mut impl FnMut(&'static str, &'a Ref)) {
    match bound {
        Bound::Value(..) | Bound::Float(..) => {}
        Bound::Limit { limit, .. } => add("limit", limit),
        Bound::Field { endpoint, .. } => add("endpoint", endpoint),
    }
}

fn rule_references<'a>(rule: &'a Rule, add: &mut impl FnMut(&'static str, &'a Ref)) {
    rule.walk(&mut |r| match r {
        Rule::Permission(p) => add("permission", p),
        Rule::Intent(i) => add("intent", i),
        Rule::Scope(s) => add("scope", s),
        _ => {}
    });
    for c in rule.conditions() {
        add("condition", c.named().0);
    }
}

/// Type expressions in the model with where they were written: `(kind, id, span)`.
fn type_references<'a>(model: &'a Model) -> Vec<(&'static str, &'a str, crate::diag::Span)> {
    let mut out = Vec::new();
    let mut add = |ty: &'a TypeRef, span| {
        ty.walk(&mut |t: &'a TypeRef| match t {
            TypeRef::Enum(id) => out.push(("enum", id.as_str(), span)),
            TypeRef::Flags(id) => out.push(("flags", id.as_str(), span)),
            TypeRef::Object(id) => out.push(("resource", id.as_str(), span)),
            TypeRef::Class(id) => out.push(("class", id.as_str(), span)),
            TypeRef::Union(id) => out.push(("union", id.as_str(), span)),
            TypeRef::Primitive(_) | TypeRef::Array(_) | TypeRef::Map(..) => {}
        })
    };
    for u in &model.unions {
        if let Some(d) = &u.discriminator {
            d.ty.iter().for_each(|t| add(t, d.type_span));
        }
    }
    for f in all_fields(model) {
        f.ty.iter().for_each(|t| add(t, f.type_span));
    }
    for e in &model.endpoints {
        e.response.iter().for_each(|t| add(t, e.response_span));
    }
    for r in model.all_responses() {
        r.ty.iter().for_each(|t| add(t, r.type_span.unwrap_or(r.span)));
        for event in &r.events {
            event.ty.iter().for_each(|t| add(t, event.type_span));
        }
    }
    for c in &model.classes {
        for m in &c.methods {
            m.returns.iter().for_each(|t| add(t, m.returns_span));
        }
    }
    for c in &model.sdk_calls {
        c.returns.iter().for_each(|t| add(t, c.returns_span));
    }
    out
}

/// Every reference names an existing item of the expected kind (permission, condition, change,
/// limit, error, endpoint, resource, type, ...), with a did-you-mean when one is close.
pub fn check_references(cx: &mut Diagnostics, model: &Model, index: &Index) {
    for r in all_references(model) {
        if !index.has(r.kind, &r.target.id) {
            cx.push(unresolved(index, r.kind, &r.target.id, r.target.span));
        }
    }
    for (kind, id, span) in type_references(model) {
        if !index.has(kind, id) {
            cx.push(unresolved(index, kind, id, span));
        }
    }
    check_bound_fields(cx, model);
    check_state_refs(cx, model);
}

fn unresolved(index: &Index, kind: &str, id: &str, span: crate::diag::Span) -> Diagnostic {
    let noun = kind.replace('_', " ");
    Diagnostic::error(codes::UNRESOLVED, format!("unknown {noun} `{id}`")).at(span, format!("no {noun} has this id")).suggest(id, index.ids(kind))
}

/// `{field: endpoint.field}` bounds name a field of that endpoint's response.
fn check_bound_fields(cx: &mut Diagnostics, model: &Model) {
    for field in all_fields(model) {
        for (_, bound) in field.constraints.all() {
            let Bound::Field { endpoint, field: name, .. } = bound else { continue };
            let Some(ep) = model.endpoint(&endpoint.id) else { continue };
            if !ep.response_fields.iter().any(|f| &f.name == name) {
                cx.push(
                    Diagnostic::error(codes::UNRESOLVED, format!("unknown response field `{name}` of endpoint `{}`", endpoint.id))
                        .at(endpoint.span, "no such response field")
                        .suggest(name, ep.response_fields.iter().map(|f| f.name.as_str()))
                        .help(format!("declare it under `response_fields:` of `{}`", endpoint.id)),
                );
            }
        }
    }
}

/// Transitions go between states of their own machine.
fn check_state_refs(cx: &mut Diagnostics, model: &Model) {
    for m in &model.state_machines {
        let states: Vec<&str> = m.states.iter().map(|s| s.meta.id.as_str()).collect();
        for t in &m.transitions {
            for end in [&t.from, &t.to] {
                if !states.contains(&end.id.as_str()) {
                    cx.push(
                        Diagnostic::error(codes::UNRESOLVED, format!("unknown state `{}` of state machine `{}`", end.id, m.meta.id))
                            .at(end.span, "no state has this id")
                            .suggest(&end.id, states.iter().copied()),
                    );
                }
            }
        }
    }
}

/// Typed references (`kind:id`) name a known kind and an existing item of it.
pub fn check_typed_references(cx: &mut Diagnostics, model: &Model, index: &Index) {
    let mut all: Vec<&TypedRef> = Vec::new();
    all.extend(model.features.iter().flat_map(|f| &f.refs));
    all.extend(model.gaps.iter().flat_map(|f| &f.refs));
    all.extend(model.auth_rules.iter().flat_map(|f| &f.refs));
    all.extend(model.limits.iter().flat_map(|f| &f.refs));
    all.extend(model.changes.iter().flat_map(|f| &f.affects));
    all.extend(model.state_machines.iter().filter_map(|m| m.subject.as_ref()));
    all.extend(model.classes.iter().flat_map(|f| &f.used_by));
    all.extend(model.sdk_calls.iter().flat_map(|f| &f.refs));
    all.extend(model.conditions.iter().flat_map(|f| &f.refs));
    for r in all {
        if !KINDS.contains(&r.kind.as_str()) {
            cx.push(
                Diagnostic::error(codes::UNRESOLVED, format!("unknown kind `{}` in typed reference", r.kind))
                    .at(r.span, "not a kind of item")
                    .suggest(&r.kind, KINDS.iter().copied()),
            );
        } else if !index.has(&r.kind, &r.id) {
            cx.push(unresolved(index, KINDS.iter().find(|k| **k == r.kind).expect("BUG: checked above"), &r.id, r.span));
        }
    }
}

/// A condition is called with as many arguments as it has parameters, and an argument is a
/// value of the parameter's enum.
pub fn check_condition_arity(cx: &mut Diagnostics, model: &Model, index: &Index) {
    let mut uses: Vec<&Cond> = Vec::new();
    for rule in &model.permission_rules {
        for v in &rule.variants {
            uses.extend(v.rule.conditions());
        }
    }
    uses.extend(super::refs::all_fields(model).into_iter().filter_map(|f| f.required_when.as_ref()));
    for (_, cases, ..) in model.all_cases() {
        uses.extend(cases.iter().flat_map(|c| c.when.conditions()));
    }
    for cond in uses {
        let (id, arg) = cond.named();
        let Some(def) = model.conditions.iter().find(|c| c.meta.id == id.id) else { continue };
        let expected = def.params.len();
        let given = usize::from(arg.is_some());
        if expected != given {
            cx.push(
                Diagnostic::error(codes::CONDITION_ARITY, format!("condition `{}` takes {expected} argument(s) but {given} given", id.id))
                    .at(id.span, "called here")
                    .also(def.meta.id_span, "condition defined here")
                    .help(match expected {
                        0 => format!("write `{}` without parentheses", id.id),
                        _ => format!("write `{}({})`", id.id, def.params.join(", ").to_uppercase()),
                    }),
            );
            continue;
        }
        if let (Some(arg), Some(enum_ref)) = (arg, def.param_enums.first())
            && index.has("enum", &enum_ref.id)
            && !index.has("enum_value", &format!("{}.{arg}", enum_ref.id))
        {
            let values = model.enum_(&enum_ref.id).map(|e| e.values.iter().map(|v| v.meta.id.as_str()).collect::<Vec<_>>()).unwrap_or_default();
            cx.push(
                Diagnostic::error(codes::UNRESOLVED, format!("unknown {} value `{arg}`", enum_ref.id.replace('_', " ")))
                    .at(id.span, format!("`{arg}` is not a value of enum `{}`", enum_ref.id))
                    .suggest(arg, values),
            );
        }
    }
}
