//! Views of the HTTP items: endpoints with their parameters, responses and errors, the error
//! body and limits.

use super::*;

#[derive(Debug, Serialize)]
pub struct BehaviourView {
    pub meta: MetaView,
    pub gate: bool,
}

/// A group of parameters or body members of an endpoint.
#[derive(Debug, Serialize)]
pub struct ParamGroup {
    pub title: String,
    /// Why the group's encoding (`Body (multipart)`) is assumed.
    pub assumed: Option<String>,
    pub fields: Vec<FieldView>,
}

#[derive(Debug, Serialize)]
pub struct ErrorRef {
    pub link: Span,
    pub code: Cell,
    pub status: Cell,
    pub condition: String,
}

/// A response: of one status of an endpoint, or a named response.
#[derive(Debug, Serialize)]
pub struct ResponseView {
    /// `200`, `4XX`, `default`; empty for a named response shown on its own.
    pub status: String,
    /// The element id of a named response shown on its own.
    pub anchor: Option<String>,
    /// The named response's id, when shown on its own.
    pub id: Option<String>,
    /// The named response a status uses.
    pub named: Option<Span>,
    pub description: Option<String>,
    /// The body in words (`object<note>`, `text`, `bytes`), when it has one.
    pub body: Option<Rich>,
    pub media: Option<String>,
    pub fields: Vec<FieldView>,
    pub headers: Vec<FieldView>,
    pub notes: Vec<String>,
    pub gaps: Vec<GapView>,
    pub assumed: Vec<AssumedView>,
}

/// The view of a response; `named` links a status to the named response it uses, whose body
/// and headers are shown where it is defined.
pub fn status_response(cx: &Cx, r: &Response, owner: &Owner, status: &str, named: Option<Span>) -> ResponseView {
    let facets = Facets { not_shown: &r.not_shown, assumed: &r.assumed };
    let shown = named.is_none();
    let body = match r.body_kind() {
        BodyKind::Empty => None,
        BodyKind::Json if !r.fields.is_empty() => Some(Rich::plain("an object with the fields below")),
        BodyKind::Json => r.ty.as_ref().map(|t| {
            let mut body = words::type_ref(t);
            if r.nullable {
                body.text(" or null");
            }
            body
        }),
        BodyKind::Text => Some(Rich::plain("text")),
        BodyKind::Binary => Some(Rich::plain("bytes")),
        BodyKind::Stream(framing) => Some(words::stream(r, framing)),
    };
    let headers = r.headers.iter().filter_map(|h| cx.model.header_field(h)).collect::<Vec<_>>();
    ResponseView {
        status: status.to_owned(),
        anchor: None,
        id: None,
        description: r.description.clone(),
        body: body.filter(|_| shown),
        media: r.media_type().filter(|_| shown).map(str::to_owned),
        fields: if shown { fields(cx, &r.fields, owner) } else { Vec::new() },
        headers: if shown { fields(cx, &headers, owner) } else { Vec::new() },
        notes: if shown { r.notes.clone() } else { Vec::new() },
        gaps: if shown { facets.gaps() } else { Vec::new() },
        assumed: if shown { facets.assumptions() } else { Vec::new() },
        named,
    }
}

/// A named response, shown on its own.
pub fn named_response(cx: &Cx, r: &NamedResponse) -> ResponseView {
    let owner = Owner::new("response", &r.id);
    let mut view = status_response(cx, &r.response, &owner, "", None);
    view.anchor = Some(anchor("response", &r.id));
    view.id = Some(r.id.clone());
    view
}

/// The named headers, as one table.
pub fn named_headers(cx: &Cx, headers: &[Field]) -> Vec<FieldView> {
    headers.iter().map(|h| field(cx, h, &Owner::new("header", &h.name), Some(anchor("header", &h.name)))).collect()
}

#[derive(Debug, Serialize)]
pub struct EndpointView {
    pub meta: MetaView,
    pub routed: bool,
    pub method: Cell,
    pub path: Cell,
    pub server: Option<Span>,
    pub auth: Vec<Span>,
    /// Whether calls without a credential are accepted.
    pub anonymous: bool,
    /// The scopes a bearer token must hold.
    pub scopes: Vec<Span>,
    pub params: Vec<ParamGroup>,
    /// The responses by status, when the endpoint declares them.
    pub responses: Vec<ResponseView>,
    pub response: Cell,
    pub response_format: String,
    /// The item bound of an array response, checked by server and client.
    pub response_bound: Option<Rich>,
    pub response_fields: Vec<FieldView>,
    /// The columns of a CSV response, in header order.
    pub response_columns: Vec<FieldView>,
    /// How the endpoint pages, when it does.
    pub pagination: Option<Cell>,
    /// The header carrying an idempotency key, when it takes one.
    pub idempotency_key: Option<Span>,
    /// The header carrying the last event id a resumed stream goes on after.
    pub last_event_id: Option<Span>,
    pub rules: Vec<RuleView>,
    pub errors: Vec<ErrorRef>,
    pub behaviours: Vec<BehaviourView>,
}

pub fn endpoint(cx: &Cx, e: &Endpoint) -> EndpointView {
    let f = Facets::of(&e.meta);
    let owner = &Owner::new("endpoint", &e.meta.id);
    let mut params = Vec::new();
    let format_assumed = e.meta.assumption("body_format").map(str::to_owned);
    let mut group = |title: String, assumed: Option<String>, list: Vec<FieldView>| {
        if !list.is_empty() {
            params.push(ParamGroup { title, assumed, fields: list });
        }
    };
    let formats = e.body_formats.iter().map(|f| f.id.as_str()).filter(|f| *f != "multipart" || e.parts.is_empty()).collect::<Vec<_>>().join(", ");
    group("Path parameters".into(), None, fields(cx, &e.path_params, owner));
    group("Query parameters".into(), None, fields(cx, &e.query, owner));
    group("Header parameters".into(), None, fields(cx, &e.headers, owner));
    group(format!("Body ({formats})"), format_assumed.clone(), fields(cx, &e.body, owner));
    group(format!("Whole body ({formats})"), format_assumed.clone(), e.body_schema.iter().map(|b| field(cx, b, owner, None)).collect());
    group("Parts (multipart/form-data)".into(), format_assumed.clone(), fields(cx, &e.parts, owner));
    if e.body.is_empty() && e.body_schema.is_none() && e.parts.is_empty() && format_assumed.is_some() {
        // The encoding is assumed though no member is given: say so where the body would be.
        params.push(ParamGroup { title: format!("Body ({formats})"), assumed: format_assumed, fields: Vec::new() });
    }
    let server = e.meta.part.as_ref().and_then(|p| cx.model.platform.parts.iter().find(|x| x.meta.id == p.id)).and_then(|p| {
        let a = p.address.as_ref()?;
        Some(Span { text: format!("{{{}}}", a.id), href: Some(href("placeholder", &a.id)), code: true })
    });
    let response = match (&e.response, e.response_fields.is_empty(), e.response_format.as_str()) {
        (Some(ty), ..) => Some(words::type_ref(ty)),
        (None, false, _) => Some(Rich::plain("an object with the fields below")),
        (None, true, "none") => Some(Rich::plain("no body")),
        (None, true, _) => None,
    };
    EndpointView {
        meta: cx.meta("endpoint", &e.meta.id, &e.meta),
        routed: e.is_routed(),
        method: f.cell("method", e.method.as_ref().map(|m| Rich::code(&m.id))),
        path: f.cell("path", e.path.as_ref().map(|p| Rich::code(&p.id))),
        server,
        auth: e.token_kinds().map(|r| cx.link("token_kind", &r.id)).collect(),
        anonymous: e.accepts_anonymous(),
        scopes: cx.refs("scope", &e.scopes),
        params,
        responses: e
            .responses
            .iter()
            .filter_map(|r| {
                let named = match &r.response {
                    ResponseUse::Named(id) => Some(cx.link("response", &id.id)),
                    ResponseUse::Inline(_) => None,
                };
                Some(status_response(cx, cx.model.response_of(&r.response)?, owner, &r.status.id, named))
            })
            .collect(),
        response: f.cell("response", response),
        response_format: e.response_format.clone(),
        response_bound: e.response_max_items.as_ref().map(|b| words::constraint(cx.model, "max_items", b)),
        response_fields: fields(cx, &e.response_fields, owner),
        response_columns: fields(cx, &e.response_columns, owner),
        pagination: e.pagination.as_ref().map(|p| f.cell("pagination", Some(words::pagination(p)))),
        idempotency_key: e.idempotency_header().map(|h| Span { text: h.wire().to_owned(), href: None, code: true }),
        last_event_id: e.last_event_header().map(|h| Span { text: h.wire().to_owned(), href: None, code: true }),
        rules: cx.model.rules_for(&e.meta.id).into_iter().map(|r| permission_rule(cx, r)).collect(),
        errors: cx.model.errors_for(&e.meta.id).into_iter().map(|x| error_ref(cx, x)).collect(),
        behaviours: e
            .behaviours
            .iter()
            .map(|b| BehaviourView { meta: cx.meta("behaviour", &format!("{}.{}", e.meta.id, b.meta.id), &b.meta), gate: b.gate })
            .collect(),
    }
}

fn error_ref(cx: &Cx, e: &Error) -> ErrorRef {
    let f = Facets::of(&e.meta);
    ErrorRef {
        link: cx.link("error", &e.meta.id),
        code: f.cell("code", error_code(e)),
        status: f.cell("status", e.status.map(|s| Rich::code(s.to_string()))),
        condition: e.condition.clone(),
    }
}

fn error_code(e: &Error) -> Option<Rich> {
    e.code.map(|c| c.to_string()).or_else(|| e.oauth_error.clone()).map(Rich::code)
}

#[derive(Debug, Serialize)]
pub struct ErrorView {
    pub meta: MetaView,
    pub code: Cell,
    pub status: Cell,
    pub message: Cell,
    pub condition: String,
    pub endpoints: Vec<Span>,
}

pub fn error(cx: &Cx, e: &Error) -> ErrorView {
    let f = Facets::of(&e.meta);
    ErrorView {
        meta: cx.meta("error", &e.meta.id, &e.meta),
        code: f.cell("code", error_code(e)),
        status: f.cell("status", e.status.map(|s| Rich::code(s.to_string()))),
        message: f.cell("message", e.message.clone().map(Rich::plain)),
        condition: e.condition.clone(),
        endpoints: cx.refs("endpoint", &e.endpoints),
    }
}

#[derive(Debug, Serialize)]
pub struct ErrorBodyView {
    pub anchor: String,
    pub description: Option<String>,
    pub fields: Vec<FieldView>,
    pub gaps: Vec<GapView>,
    pub assumed: Vec<AssumedView>,
}

pub fn error_body(cx: &Cx, b: &ErrorBody) -> ErrorBodyView {
    let f = Facets { not_shown: &b.not_shown, assumed: &b.assumed };
    ErrorBodyView {
        anchor: anchor("section", "error-body"),
        description: b.description.clone(),
        fields: fields(cx, &b.fields, &Owner { anchor: anchor("section", "error-body"), label: "error_body" }),
        gaps: f.gaps(),
        assumed: f.assumptions(),
    }
}

/// A value a limit had before a change.
#[derive(Debug, Serialize)]
pub struct PreviousView {
    pub value: String,
    pub change: Span,
    pub effective: String,
}

#[derive(Debug, Serialize)]
pub struct LimitView {
    pub meta: MetaView,
    pub value: Rich,
    pub per: Option<String>,
    pub duration: Option<String>,
    pub applies_to: Vec<String>,
    pub previous: Vec<PreviousView>,
    pub refs: Vec<Span>,
}

pub fn limit(cx: &Cx, l: &Limit) -> LimitView {
    let unit = &l.unit.id;
    let bound = |b: &Bound| -> Rich {
        match b {
            Bound::Value(_, v) => Rich::plain(v.to_string()),
            Bound::Float(_, v) => Rich::plain(v.to_string()),
            Bound::Limit { limit, offset } => {
                let mut r = Rich::default();
                r.link(&limit.id, href("limit", &limit.id), true);
                if *offset != 0 {
                    r.text(format!(" {offset:+}"));
                }
                r
            }
            Bound::Field { endpoint, field, offset } => {
                let mut r = Rich::code(field.as_str());
                r.text(" of ").link(&endpoint.id, href("endpoint", &endpoint.id), true);
                if *offset != 0 {
                    r.text(format!(" {} {}", if *offset < 0 { "−" } else { "+" }, offset.unsigned_abs()));
                }
                r
            }
        }
    };
    let mut value = Rich::default();
    match (&l.value, &l.min, &l.max) {
        (Some(v), ..) => value.append(bound(v)),
        (None, Some(min), Some(max)) => value.append(bound(min)).text(" to ").append(bound(max)),
        (None, None, Some(max)) => value.text("at most ").append(bound(max)),
        (None, Some(min), None) => value.text("at least ").append(bound(min)),
        (None, None, None) => &mut value,
    };
    value.text(format!(" {unit}"));
    let previous = l
        .previous
        .iter()
        .map(|p| PreviousView {
            value: format!("{} {unit}", p.value),
            change: cx.link("change", &p.until.id),
            effective: cx.model.change(&p.until.id).map(|c| when(c.effective)).unwrap_or_default(),
        })
        .collect();
    LimitView {
        meta: cx.meta("limit", &l.meta.id, &l.meta),
        value,
        per: l.per.clone(),
        duration: l.duration.as_ref().map(|d| match d.value {
            // Units are plural ids (`hours`); one of them reads singular.
            1 => format!("per {}", d.unit.id.trim_end_matches('s')),
            n => format!("per {n} {}", d.unit.id),
        }),
        applies_to: l.applies_to.clone(),
        previous,
        refs: cx.typed_all(&l.refs),
    }
}
