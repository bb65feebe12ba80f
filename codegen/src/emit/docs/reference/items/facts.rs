//! Small items shown as labelled facts: conditions, intents, scopes, token kinds, authorization
//! rules, constants, features, gaps, SDK calls, webhooks, and the authorization server.

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
        facts.push(fact("limit", linked(cx, "limit", &l.id)));
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

/// A webhook: its envelope, signatures, ping, acknowledgement and retries, and its events by
/// the name each is delivered under.
pub fn webhook(cx: &Cx, w: &Webhook) -> SimpleView {
    let f = Facets::of(&w.meta);
    let mut facts = vec![
        fact("envelope", f.cell("envelope", w.envelope.as_ref().map(envelope_words))),
        fact("signature", f.cell("verification", w.verification.as_ref().map(|v| signature_words(v, w.envelope.as_ref().is_some_and(|e| e.id.is_some()))))),
    ];
    if let Some(p) = &w.ping {
        let answer = p.answer.as_ref().map_or_else(String::new, |a| format!(" `{a}`"));
        facts.push(fact("ping", given(format!("`{}` is `{}`: answered {}{answer} by the receiver, not the handler", dotted(&p.member), p.value, p.status))));
    }
    let status = w.ack_status.map_or_else(|| "a success (the receiver answers 204)".to_owned(), |s| s.to_string());
    let ack = match w.ack_seconds {
        Some(s) => format!("{status} within {s} s"),
        None => format!("{status}; no deadline is given"),
    };
    facts.push(fact("acknowledgement", f.cell("ack_deadline", Some(Rich::plain(ack)))));
    facts.push(fact("retries", f.cell("retry", w.retry.as_ref().map(retry_words))));
    for e in &w.events {
        facts.push(fact(&e.value, linked(cx, "event", &e.event.id)));
    }
    SimpleView { meta: cx.meta("webhook", &w.meta.id, &w.meta), facts, links: vec![] }
}

/// A gateway: its facts and the session lifecycle drawn.
#[derive(Debug, Serialize)]
pub struct GatewayView {
    #[serde(flatten)]
    pub item: SimpleView,
    pub diagram: Option<Diagram>,
    pub mermaid: Option<String>,
}

/// A gateway: how to connect, its frames, the opcode of each role, its close codes with their
/// policy, its limits, its commands, its dispatch events by name and the session lifecycle.
pub fn gateway(cx: &Cx, g: &Gateway) -> GatewayView {
    let lifecycle = diagram::gateway_lifecycle(cx.model, g);
    GatewayView { item: gateway_facts(cx, g), diagram: lifecycle.as_ref().map(diagram::layout), mermaid: lifecycle.as_ref().map(diagram::mermaid) }
}

fn gateway_facts(cx: &Cx, g: &Gateway) -> SimpleView {
    let f = Facets::of(&g.meta);
    let code = |t: String| Rich::code(t);
    let mut facts = vec![fact("address", f.cell("url", g.url.as_ref().map(|u| code(u.id.clone()))))];
    if !g.query.is_empty() {
        let query: Vec<String> = g.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
        facts.push(fact("query", given(format!("`?{}` on every connection", query.join("&")))));
    }
    if let Some(c) = &g.compression {
        let offered: Vec<&str> = c.offered.iter().map(|o| o.id.as_str()).collect();
        facts.push(fact("compression", given(format!("`{}={}`", c.parameter.id, offered.join("|")))));
    }
    facts.push(fact(
        "envelope",
        f.cell(
            "envelope",
            g.envelope.as_ref().map(|e| {
                Rich::plain(format!(
                    "`{}` the opcode, `{}` the payload, `{}` a dispatch's sequence, `{}` its event name",
                    e.opcode.id, e.data.id, e.sequence.id, e.event.id
                ))
            }),
        ),
    ));
    match &g.roles {
        Some(roles) => {
            for (role, r) in roles.all() {
                facts.push(fact(&format!("role: {role}"), linked(cx, "opcode", &r.id)));
            }
        }
        None => facts.push(fact("roles", f.cell("roles", None))),
    }
    facts.push(fact(
        "heartbeat",
        f.cell(
            "heartbeat_interval",
            g.heartbeat_interval
                .as_ref()
                .map(|m| Rich::plain(format!("every `{}` milliseconds of the hello's payload; the first after a random fraction of it", dotted(m)))),
        ),
    ));
    facts.push(fact("identify token", f.cell("identify_token", g.identify_token.as_ref().map(|m| code(dotted(m))))));
    facts.push(fact(
        "ready",
        f.cell(
            "ready",
            g.ready.as_ref().map(|r| {
                let resume = r.resume_url.as_ref().map_or_else(String::new, |u| format!(", the resume address in `{}`", dotted(u)));
                Rich::plain(format!("`{}`, the session id in `{}`{resume}", r.event.id, dotted(&r.session_id)))
            }),
        ),
    ));
    facts.push(fact(
        "resume",
        f.cell(
            "resume",
            g.resume.as_ref().map(|r| {
                let resumed = r.resumed.as_ref().map_or_else(String::new, |x| format!("; `{}` once the missed events are replayed", x.id));
                Rich::plain(format!("`{}`, `{}` and `{}`{resumed}", r.token.id, r.session_id.id, r.sequence.id))
            }),
        ),
    ));
    if g.close_codes.is_empty() {
        facts.push(fact("close codes", f.cell("close_codes", None)));
    }
    for c in &g.close_codes {
        let cause = c.cause.as_ref().map_or_else(String::new, |x| format!(", for `{}`", x.id));
        let description = c.description.as_ref().map_or_else(String::new, |d| format!(": {d}"));
        facts.push(fact(&format!("close {}", c.code), given(format!("{} ({}{cause}){description}", c.name, c.policy.id))));
    }
    let unknown = g.unknown_close.as_ref().map_or("resume (not given)", |p| p.id.as_str());
    facts.push(fact("other close codes", given(unknown.to_owned())));
    facts.push(fact(
        "send limit",
        f.cell("send_limit", g.send_limit.as_ref().map(|l| Rich::plain(format!("{} frames per {} s, heartbeats included", l.frames, l.per_seconds)))),
    ));
    facts.push(fact(
        "identify limit",
        f.cell(
            "identify_limit",
            g.identify_limit.as_ref().map(|l| {
                let buckets = l.max_concurrency.as_ref().map_or_else(String::new, |m| format!(" in each bucket `shard % {}`", m.id));
                Rich::plain(format!("one identify per {} s{buckets}", l.per_seconds))
            }),
        ),
    ));
    for c in &g.commands {
        facts.push(fact("command", linked(cx, "opcode", &c.id)));
    }
    for e in &g.events {
        facts.push(fact(&e.name, linked(cx, "event", &e.event.id)));
    }
    SimpleView { meta: cx.meta("gateway", &g.meta.id, &g.meta), facts, links: vec![] }
}

/// A cell holding a link to the item of `kind` named `id`.
fn linked(cx: &Cx, kind: &str, id: &str) -> Cell {
    let mut value = Rich::default();
    value.0.push(cx.link(kind, id));
    Cell { value, ..Cell::default() }
}

fn dotted(m: &Member) -> String {
    m.path.join(".")
}

fn envelope_words(e: &Envelope) -> Rich {
    let mut words = format!("`{}` names the event ({}); ", dotted(&e.kind), if e.numbered() { "an integer" } else { "a string" });
    words.push_str(&match &e.data {
        Some(d) => format!("`{}` holds its data", dotted(d)),
        None => "the whole body is the event".to_owned(),
    });
    for (m, what) in [(&e.id, "the delivery's id"), (&e.timestamp, "when it happened"), (&e.version, "the envelope's version")] {
        if let Some(m) = m {
            words.push_str(&format!("; `{}` holds {what}", dotted(m)));
        }
    }
    Rich::plain(words)
}

/// The scheme in words; `ids` says whether the envelope carries a delivery id.
fn signature_words(v: &Verification, ids: bool) -> Rich {
    let header = |role: &str| v.header(role).unwrap_or_default().to_owned();
    let mut words = match v.scheme.id.as_str() {
        "ed25519" => format!("Ed25519 of the `{}` header's value followed by the raw body, in hex in `{}`", header("timestamp"), header("signature")),
        "standard" => format!(
            "Standard Webhooks: `v1,` HMAC-SHA256 or `v1a,` Ed25519 of `{{id}}.{{timestamp}}.{{body}}`, in `{}` (several while keys rotate), with `{}` and `{}`",
            header("signature"),
            header("id"),
            header("timestamp")
        ),
        _ => "not signed".to_owned(),
    };
    match v.tolerance_seconds {
        Some(t) if ids || v.scheme.id == "standard" => {
            words.push_str(&format!("; a timestamp more than {t} s from now, or a delivery id acknowledged within that time, is refused"))
        }
        Some(t) => words.push_str(&format!("; a timestamp more than {t} s from now is refused")),
        None if v.scheme.id != "none" => words.push_str("; no tolerance is given, so neither stale nor replayed deliveries are refused"),
        None => {}
    }
    Rich::plain(words)
}

fn retry_words(r: &RetryPolicy) -> Rich {
    let tries = match r.attempts {
        None | Some(1) => "one try".to_owned(),
        Some(a) => format!("{a} tries in all"),
    };
    let first = r.initial_seconds.map_or_else(String::new, |s| format!(", waiting {s} s and doubling"));
    let max = r.max_seconds.map_or_else(String::new, |s| format!(" up to {s} s"));
    if tries == "one try" {
        return Rich::plain("one try: a delivery the app does not acknowledge is not tried again");
    }
    Rich::plain(format!("{tries}{first}{max}, again on any 5xx, a 429 (after its Retry-After) and no answer"))
}
