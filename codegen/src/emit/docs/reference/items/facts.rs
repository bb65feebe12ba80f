//! Small items shown as labelled facts: conditions, intents, scopes, token kinds, authorization
//! rules, constants, features, gaps, SDK calls, and the authorization server.

use super::*;

/// A small item: its meta plus labelled facts (`privileged: yes`) and links.
#[derive(Debug, Serialize)]
pub struct SimpleView {
    pub meta: MetaView,
    pub facts: Vec<Fact>,
    pub links: Vec<Span>,
}

/// A labelled value.
#[derive(Debug, Serialize)]
pub struct Fact {
    pub label: String,
    pub value: Cell,
}

fn fact(label: &str, value: Cell) -> Fact {
    Fact { label: label.into(), value }
}

fn given(text: impl Into<String>) -> Cell {
    Cell { value: Rich::plain(text), ..Cell::default() }
}

pub fn condition(cx: &Cx, c: &Condition) -> SimpleView {
    let mut facts = Vec::new();
    if !c.params.is_empty() {
        facts.push(fact("parameters", Cell { value: Rich::code(c.params.join(", ")), ..Cell::default() }));
    }
    if let Some(l) = &c.limit {
        let mut value = Rich::default();
        value.0.push(cx.link("limit", &l.id));
        facts.push(fact("limit", Cell { value, ..Cell::default() }));
    }
    let mut links = cx.refs("enum", &c.param_enums);
    links.extend(cx.typed_all(&c.refs));
    SimpleView { meta: cx.meta("condition", &c.meta.id, &c.meta), facts, links }
}

pub fn intent(cx: &Cx, i: &Intent) -> SimpleView {
    let facts = vec![fact("privileged", given(if i.privileged { "yes" } else { "no" }))];
    SimpleView { meta: cx.meta("intent", &i.meta.id, &i.meta), facts, links: vec![] }
}

pub fn scope(cx: &Cx, s: &Scope) -> SimpleView {
    let mut facts = vec![fact("expands automatically", given(if s.expands { "yes" } else { "no" }))];
    if let Some(a) = &s.availability {
        facts.push(fact("availability", given(a)));
    }
    SimpleView { meta: cx.meta("scope", &s.meta.id, &s.meta), facts, links: vec![] }
}

pub fn scope_set(cx: &Cx, s: &ScopeSet) -> SimpleView {
    let facts = s.call.iter().map(|c| fact("SDK call", Cell { value: Rich::code(c), ..Cell::default() })).collect();
    SimpleView { meta: cx.meta("scope_set", &s.meta.id, &s.meta), facts, links: cx.refs("scope", &s.scopes) }
}

pub fn token_kind(cx: &Cx, t: &TokenKind) -> SimpleView {
    let f = Facets::of(&t.meta);
    let header = t.scheme.as_ref().map(|s| Rich::code(format!("Authorization: {s} <token>")));
    let facts = vec![fact("scheme", f.cell("scheme", t.scheme.as_deref().map(Rich::code))), fact("header", f.cell("scheme", header))];
    SimpleView { meta: cx.meta("token_kind", &t.meta.id, &t.meta), facts, links: vec![] }
}

pub fn auth_rule(cx: &Cx, r: &AuthRule) -> SimpleView {
    let facts = vec![fact("number", given(r.number.to_string()))];
    SimpleView { meta: cx.meta("auth_rule", &r.meta.id, &r.meta), facts, links: cx.typed_all(&r.refs) }
}

pub fn constant(cx: &Cx, c: &Constant) -> SimpleView {
    let value = match &c.value {
        ConstantValue::Text(text) => text.clone(),
        ConstantValue::Integer(n) => n.to_string(),
    };
    let facts = vec![fact("value", Cell { value: Rich::code(value), ..Cell::default() })];
    SimpleView { meta: cx.meta("constant", &c.meta.id, &c.meta), facts, links: vec![] }
}

pub fn feature(cx: &Cx, f: &Feature) -> SimpleView {
    let mut facts: Vec<Fact> = f.points.iter().map(|p| fact("", given(p))).collect();
    if let Some(n) = f.needs_implementation {
        facts.push(fact("needs an implementation", given(if n { "yes" } else { "no" })));
    }
    SimpleView { meta: cx.meta("feature", &f.meta.id, &f.meta), facts, links: cx.typed_all(&f.refs) }
}

pub fn gap_item(cx: &Cx, g: &GapItem) -> SimpleView {
    SimpleView { meta: cx.meta("gap", &g.meta.id, &g.meta), facts: vec![], links: cx.typed_all(&g.refs) }
}

pub fn sdk_call(cx: &Cx, c: &SdkCall) -> SimpleView {
    let f = Facets::of(&c.meta);
    let facts = vec![fact("signature", Cell { value: Rich::code(&c.signature), ..Cell::default() }), fact("returns", returns_cell(f, c.returns.as_ref()))];
    SimpleView { meta: cx.meta("sdk_call", &c.meta.id, &c.meta), facts, links: cx.typed_all(&c.refs) }
}

/// A result type: given, not shown, or (when the source shows the call without one) nothing.
pub(super) fn returns_cell(f: Facets, ty: Option<&TypeRef>) -> Cell {
    match ty {
        Some(t) => f.cell("type", Some(words::type_ref(t))),
        None if f.not_shown.iter().any(|g| g.facet == "type") => f.cell("type", None),
        None => given("nothing given"),
    }
}

#[derive(Debug, Serialize)]
pub struct AuthServerView {
    pub anchor: String,
    pub issuer: Cell,
    pub metadata: Vec<Fact>,
    pub gaps: Vec<GapView>,
    pub assumed: Vec<AssumedView>,
    pub notes: Vec<String>,
}

pub fn authorization_server(s: &AuthorizationServer) -> AuthServerView {
    let f = Facets { not_shown: &s.not_shown, assumed: &s.assumed };
    AuthServerView {
        anchor: anchor("section", "authorization-server"),
        issuer: f.cell("issuer", Some(Rich::code(&s.issuer))),
        metadata: s.metadata.iter().map(|(k, v)| fact(k, Cell { value: Rich::code(v.to_string()), ..Cell::default() })).collect(),
        gaps: f.gaps(),
        assumed: f.assumptions(),
        notes: s.notes.clone(),
    }
}
