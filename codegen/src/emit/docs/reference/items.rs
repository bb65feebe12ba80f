//! One view per kind of item: endpoints, resources, permissions, errors, limits, events, ...

use super::diagram::{self, Diagram};
use super::sdk::{FieldSigs, Sig, Sigs};
use super::view::{AssumedView, Badge, Cell, Cx, Facets, GapView, MetaView, rule_words, when};
use crate::emit::docs::words::{self, Rich, Span, anchor, href};
use crate::load::raw::ConstantValue;
use crate::model::types::Primitive;
use crate::model::*;
use serde::Serialize;

/// A field, parameter or body member.
#[derive(Debug, Serialize)]
pub struct FieldView {
    pub name: String,
    /// Why the name is assumed, when the source does not give it (the wire name is ours).
    pub name_assumed: Option<String>,
    /// The spec's name, when the wire name differs.
    pub spec_name: Option<String>,
    pub anchor: Option<String>,
    pub ty: Cell,
    /// Required or optional; marked assumed when the source does not say.
    pub presence: Cell,
    pub nullable: bool,
    pub constraints: Vec<Rich>,
    pub default: Option<String>,
    pub literal: Option<String>,
    pub requires_scope: Option<Span>,
    pub description: Option<String>,
    pub notes: Vec<String>,
    pub badges: Vec<Badge>,
    pub changes: Vec<Span>,
    pub gaps: Vec<GapView>,
    pub assumed: Vec<AssumedView>,
    /// The base a resource takes the field from.
    pub inherited: Option<Span>,
    /// The shapes declared inline in the field's type, shown under it.
    pub nested: Vec<NestedView>,
}

/// A shape declared inline (an object written as `type: object`, a union written `A | B`),
/// shown under the field that declares it.
#[derive(Debug, Serialize)]
pub struct NestedView {
    pub anchor: String,
    /// `object` or `union`.
    pub kind: &'static str,
    pub id: String,
    /// Where it was declared (`create_document.body.owner`).
    pub path: String,
    pub fields: Vec<FieldView>,
    pub union: Option<UnionBody>,
}

/// The variants of a union and what tags them.
#[derive(Debug, Serialize)]
pub struct UnionBody {
    /// `tagged by the field type (enum<component_type>)`, or the resolution order.
    pub how: Rich,
    pub variants: Vec<VariantRow>,
}

/// One variant of a union.
#[derive(Debug, Serialize)]
pub struct VariantRow {
    pub name: String,
    /// The discriminator value that names it.
    pub tag: Option<Rich>,
    pub ty: Cell,
    pub constraints: Vec<Rich>,
    pub description: Option<String>,
    pub nested: Vec<NestedView>,
}

#[derive(Debug, Serialize)]
pub struct UnionView {
    pub meta: MetaView,
    pub body: UnionBody,
}

pub fn union(cx: &Cx, u: &Union) -> UnionView {
    UnionView { meta: cx.meta("union", &u.meta.id, &u.meta), body: union_body(cx, u) }
}

fn union_body(cx: &Cx, u: &Union) -> UnionBody {
    let how = match &u.discriminator {
        Some(d) => {
            let mut r = Rich::plain("Tagged by the field ");
            r.append(Rich::code(d.field.as_str()));
            if let Some(t) = &d.ty {
                r.text(" (").append(words::type_ref(t)).text(")");
            }
            r.text(". A value with a tag no variant has is kept by clients and refused by the server.");
            r
        }
        None => Rich::plain(
            "Untagged: the variants are tried in this order and the first that decodes wins. A value none decodes is kept by clients and refused by the server.",
        ),
    };
    let variants = u
        .variants
        .iter()
        .map(|v| {
            let tag = cx.model.variant_tag(u, v).map(|t| match t {
                TagValue::Enum(id) => {
                    let enum_id = match u.discriminator.as_ref().and_then(|d| d.ty.as_ref()) {
                        Some(TypeRef::Enum(e)) => e.as_str(),
                        _ => "",
                    };
                    let value = cx.model.enum_(enum_id).and_then(|e| e.values.iter().find(|x| x.meta.id == id)).and_then(|x| x.value);
                    let mut r = Rich::default();
                    r.link(&id, href("enum_value", &format!("{enum_id}.{id}")), true);
                    if let Some(n) = value {
                        r.text(format!(" ({n})"));
                    }
                    r
                }
                other => Rich::code(other.to_string()),
            });
            let facets = Facets { not_shown: &v.not_shown, assumed: &v.assumed };
            VariantRow {
                name: v.name.clone(),
                tag,
                ty: facets.cell("type", v.ty.as_ref().map(words::type_ref)),
                constraints: words::constraints(cx.model, v),
                description: v.description.clone(),
                nested: v.ty.as_ref().map(|t| nested(cx, t)).unwrap_or_default(),
            }
        })
        .collect();
    UnionBody { how, variants }
}

/// The inline shapes in `ty` not shown yet, each with its fields or variants.
fn nested(cx: &Cx, ty: &TypeRef) -> Vec<NestedView> {
    let mut found: Vec<(&'static str, String)> = Vec::new();
    ty.walk(&mut |t| match t {
        TypeRef::Object(id) if cx.model.resource(id).is_some_and(|r| r.inline.is_some()) => found.push(("object", id.clone())),
        TypeRef::Union(id) if cx.model.union(id).is_some_and(|u| u.inline.is_some()) => found.push(("union", id.clone())),
        _ => {}
    });
    found
        .into_iter()
        .filter(|(kind, id)| cx.shown_inline.borrow_mut().insert(format!("{kind}:{id}")))
        .filter_map(|(kind, id)| match kind {
            "object" => {
                let r = cx.model.resource(&id)?;
                let owner = Owner::new("resource", &r.meta.id);
                let fields = r.fields.iter().map(|f| field(cx, f, &owner, None)).collect();
                Some(NestedView { anchor: anchor("resource", &id), kind, path: r.inline.clone().unwrap_or_default(), id, fields, union: None })
            }
            _ => {
                let u = cx.model.union(&id)?;
                let body = union_body(cx, u);
                Some(NestedView { anchor: anchor("union", &id), kind, path: u.inline.clone().unwrap_or_default(), id, fields: Vec::new(), union: Some(body) })
            }
        })
        .collect()
}

/// Where a field is shown: its owner's anchor and label, and its own anchor when other items
/// link to it (resource fields).
pub struct Owner<'a> {
    pub anchor: String,
    pub label: &'a str,
}

impl<'a> Owner<'a> {
    pub fn new(kind: &str, id: &'a str) -> Self {
        Self { anchor: anchor(kind, id), label: id }
    }
}

/// Builds a field view; `own` is the field's anchor when other items link to it.
pub fn field(cx: &Cx, f: &Field, owner: &Owner, own: Option<String>) -> FieldView {
    let facets = Facets { not_shown: &f.not_shown, assumed: &f.assumed };
    let mut presence = Rich::plain(if f.optional { "optional" } else { "required" });
    if let Some(c) = &f.required_when {
        presence.text("; required when ").append(words::condition(cx.model, c));
    }
    let label = format!("{}.{}", owner.label, f.wire());
    let key = own.clone().unwrap_or_else(|| owner.anchor.clone());
    let mut constraints = words::constraints(cx.model, f);
    constraints.extend(encoding_words(f));
    constraints.extend(format_words(f));
    if let Some(format) = &f.format {
        constraints.push(Rich::plain("format ").append(Rich::code(format)).text(" (not checked)").clone());
    }
    if let Some(e) = &f.example {
        constraints.push(Rich::plain("for example ").append(Rich::code(e.value.to_string())).clone());
    }
    FieldView {
        name: f.wire().to_owned(),
        name_assumed: f.assumed.get("name").or_else(|| f.assumed.get("wire_name")).cloned(),
        spec_name: f.wire_name.as_ref().map(|_| f.name.clone()),
        ty: facets.cell("type", f.ty.as_ref().map(words::type_ref)),
        presence: facets.cell("optional", Some(presence)),
        nullable: f.nullable,
        constraints,
        default: f.default_text.clone().or_else(|| f.default.as_ref().map(|d| format!("`{}`", d.value))),
        literal: f.literal.clone(),
        requires_scope: f.requires_scope.as_ref().map(|s| cx.link("scope", &s.id)),
        description: f.description.clone(),
        notes: f.notes.clone(),
        badges: cx.badges(&key, &label, [&f.since, &f.until, &f.deprecated]),
        changes: own.as_deref().map(|a| cx.changes_of(a)).unwrap_or_default(),
        gaps: facets.gaps(),
        assumed: facets.assumptions(),
        anchor: own,
        inherited: f.inherited_from.as_ref().map(|b| cx.link("resource", b)),
        nested: f.ty.as_ref().map(|t| nested(cx, t)).unwrap_or_default(),
    }
}

/// The form a checked text format takes, in words: what the validators accept and, for bytes,
/// how they travel in JSON.
fn format_words(f: &Field) -> Option<Rich> {
    let words = match f.ty.as_ref()?.primitive()? {
        Primitive::Bytes => "base64 text on the wire",
        Primitive::Email => "an email address (one `@`)",
        Primitive::Url => "an absolute URI, with its scheme",
        Primitive::Date => "a date, `YYYY-MM-DD`",
        Primitive::Uuid => "a UUID, 8-4-4-4-12 hexadecimal digits",
        _ => return None,
    };
    Some(Rich::plain(words))
}

/// How a list travels and what a part carries, in words.
fn encoding_words(f: &Field) -> Vec<Rich> {
    let mut out = Vec::new();
    let name = f.wire();
    match f.style.as_ref().map(|s| s.id.as_str()) {
        Some("comma") => {
            out.push(Rich::plain("sent as one comma-separated value: ").append(Rich::code(format!("{name}=a,b"))).clone());
        }
        Some("repeated") => {
            out.push(Rich::plain("sent as one value per item: ").append(Rich::code(format!("{name}=a&{name}=b"))).clone());
        }
        Some("indexed") => {
            out.push(
                Rich::plain("one part per item, named ")
                    .append(Rich::code(format!("{name}[0]")))
                    .text(", ")
                    .append(Rich::code(format!("{name}[1]")))
                    .text(", ...")
                    .clone(),
            );
        }
        _ => {}
    }
    if let Some(m) = &f.content_type {
        out.push(Rich::plain("media type ").append(Rich::code(&m.id)).clone());
    }
    out
}

fn fields(cx: &Cx, list: &[Field], owner: &Owner) -> Vec<FieldView> {
    list.iter().map(|f| field(cx, f, owner, None)).collect()
}

#[derive(Debug, Serialize)]
pub struct ResourceView {
    pub meta: MetaView,
    pub direction: String,
    /// The resources it extends.
    pub extends: Vec<Span>,
    pub fields: Vec<FieldView>,
    pub cases: Vec<CaseView>,
}

pub fn resource(cx: &Cx, r: &Resource) -> ResourceView {
    let owner = Owner::new("resource", &r.meta.id);
    let fields = r.fields.iter().map(|f| field(cx, f, &owner, Some(anchor("field", &format!("{}.{}", r.meta.id, f.name))))).collect();
    let mut meta = cx.meta("resource", &r.meta.id, &r.meta);
    if r.closed {
        meta.notes.push("Closed: the object has no members but these; another one is refused.".to_owned());
    }
    ResourceView { meta, direction: r.direction.clone(), extends: cx.refs("resource", &r.extends), fields, cases: cases(cx, &r.meta.id, &r.fields, &r.cases) }
}

/// A shape an object takes when a condition holds: the condition in words and one line per
/// field fact.
#[derive(Debug, Serialize)]
pub struct CaseView {
    pub meta: MetaView,
    pub when: Rich,
    pub facts: Vec<Rich>,
}

fn cases(cx: &Cx, owner: &str, fields: &[Field], list: &[Case]) -> Vec<CaseView> {
    list.iter()
        .map(|c| CaseView {
            meta: cx.meta("case", &format!("{owner}.{}", c.meta.id), &c.meta),
            when: rule_words(cx, &c.when),
            facts: c.fields.iter().flat_map(|f| case_facts(cx, fields, f)).collect(),
        })
        .collect()
}

fn case_facts(cx: &Cx, fields: &[Field], fact: &CaseField) -> Vec<Rich> {
    let wire = fields.iter().find(|f| f.name == fact.field.id).map_or(fact.field.id.as_str(), Field::wire);
    let lead = || Rich::code(wire);
    let mut out = Vec::new();
    if let Some(l) = &fact.literal {
        let mut r = lead();
        r.text(" is ").append(Rich::code(l.as_str()));
        out.push(r);
    }
    let set = fields.iter().find(|f| f.name == fact.field.id).and_then(|f| match &f.ty {
        Some(TypeRef::Flags(id)) => Some(id.as_str()),
        _ => None,
    });
    for flag in &fact.contains {
        let mut r = lead();
        r.text(" contains ");
        match set {
            Some(set) => r.0.push(cx.link("flag", &format!("{set}.{}", flag.id))),
            None => r.0.push(Span { text: flag.id.clone(), href: None, code: true }),
        }
        out.push(r);
    }
    for value in &fact.omits {
        let mut r = lead();
        r.text(" leaves out ");
        r.0.push(cx.link("enum_value", &value.id));
        out.push(r);
    }
    let counts = (&fact.constraints.min_items, &fact.constraints.max_items);
    if let (Some(Bound::Value(_, lo)), Some(Bound::Value(_, hi))) = counts
        && lo == hi
    {
        let mut r = lead();
        r.text(format!(" has exactly {lo} item{}", if *lo == 1 { "" } else { "s" }));
        out.push(r);
    } else {
        for (key, bound) in fact.constraints.all() {
            let mut r = lead();
            r.text(" has ").append(words::constraint(cx.model, key, bound));
            out.push(r);
        }
    }
    out
}

#[derive(Debug, Serialize)]
pub struct ValueView {
    pub meta: MetaView,
    pub value: Cell,
}

#[derive(Debug, Serialize)]
pub struct EnumView {
    pub meta: MetaView,
    pub repr: Cell,
    pub values: Vec<ValueView>,
}

pub fn enum_(cx: &Cx, e: &Enum) -> EnumView {
    let values = e
        .values
        .iter()
        .map(|v| ValueView {
            meta: cx.meta("enum_value", &format!("{}.{}", e.meta.id, v.meta.id), &v.meta),
            value: Facets::of(&v.meta).cell("value", v.value.map(|n| Rich::code(n.to_string()))),
        })
        .collect();
    let repr = Facets::of(&e.meta).cell("repr", Some(Rich::code(&e.repr)));
    EnumView { meta: cx.meta("enum", &e.meta.id, &e.meta), repr, values }
}

#[derive(Debug, Serialize)]
pub struct FlagsView {
    pub meta: MetaView,
    pub repr: String,
    pub width: u32,
    pub values: Vec<BitView>,
}

/// A flag or permission bit: the position and the value it sets.
#[derive(Debug, Serialize)]
pub struct BitView {
    pub meta: MetaView,
    pub bit: Cell,
    pub value: Option<String>,
    /// Permission rules that name the permission.
    pub rules: Vec<Span>,
}

fn bit_value(bit: Option<u32>) -> Option<String> {
    bit.and_then(|b| 1u128.checked_shl(b)).map(|v| format!("1 << {} = {v}", bit.unwrap_or_default()))
}

pub fn flags(cx: &Cx, f: &Flags) -> FlagsView {
    let values = f
        .values
        .iter()
        .map(|v| BitView {
            meta: cx.meta("flag", &format!("{}.{}", f.meta.id, v.meta.id), &v.meta),
            bit: Facets::of(&v.meta).cell("bit", v.bit.map(|b| Rich::code(b.to_string()))),
            value: bit_value(v.bit),
            rules: vec![],
        })
        .collect();
    FlagsView { meta: cx.meta("flags", &f.meta.id, &f.meta), repr: f.repr.clone(), width: f.width, values }
}

pub fn permission(cx: &Cx, p: &Permission) -> BitView {
    let rules = cx
        .model
        .permission_rules
        .iter()
        .filter(|r| r.variants.iter().any(|v| v.rule.permissions().iter().any(|x| x.id == p.meta.id)))
        .map(|r| cx.link("permission_rule", &r.meta.id))
        .collect();
    BitView {
        meta: cx.meta("permission", &p.meta.id, &p.meta),
        bit: Facets::of(&p.meta).cell("bit", p.bit.map(|b| Rich::code(b.to_string()))),
        value: bit_value(p.bit),
        rules,
    }
}

/// One dated form of a permission rule.
#[derive(Debug, Serialize)]
pub struct VariantView {
    /// `until <date>`, `from <date>`, or empty for a rule with one form.
    pub period: String,
    pub change: Option<Span>,
    pub words: Rich,
    /// Why this form is assumed, when the spec assumed the rule's earlier forms.
    pub assumed: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct RuleView {
    pub meta: MetaView,
    pub operation: Option<String>,
    pub applies_to: String,
    pub endpoints: Vec<Span>,
    pub variants: Vec<VariantView>,
}

pub fn permission_rule(cx: &Cx, r: &PermissionRule) -> RuleView {
    RuleView {
        meta: cx.meta("permission_rule", &r.meta.id, &r.meta),
        operation: r.operation.clone(),
        applies_to: r.applies_to.clone(),
        endpoints: cx.refs("endpoint", &r.endpoints),
        variants: r.variants.iter().map(|v| variant(cx, r, v)).collect(),
    }
}

/// The reason a rule form is assumed: `assumed: { rule }` marks the one form, `assumed:
/// { variants }` the forms before a change (what the source leaves unsaid is how things were).
fn variant_assumption(r: &PermissionRule, v: &RuleVariant) -> Option<String> {
    if let Some(why) = r.meta.assumption("rule").filter(|_| v.since.is_none() && v.until.is_none()) {
        return Some(why.to_owned());
    }
    let why = r.meta.assumption("variants")?;
    let earlier = r.variants.iter().any(|x| x.until.is_some());
    (v.until.is_some() || !earlier).then(|| why.to_owned())
}

pub fn variant(cx: &Cx, r: &PermissionRule, v: &RuleVariant) -> VariantView {
    let bound = |word: &str, r: &Option<Ref>| {
        let c = cx.model.change(&r.as_ref()?.id)?;
        Some((format!("{word} {}", when(c.effective)), cx.link("change", &c.meta.id)))
    };
    let (period, change) = bound("until", &v.until).or_else(|| bound("from", &v.since)).unzip();
    VariantView { period: period.unwrap_or_default(), change, words: rule_words(cx, &v.rule), assumed: variant_assumption(r, v) }
}

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
        BodyKind::Json => r.ty.as_ref().map(words::type_ref),
        BodyKind::Text => Some(Rich::plain("text")),
        BodyKind::Binary => Some(Rich::plain("bytes")),
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

#[derive(Debug, Serialize)]
pub struct EventView {
    pub meta: MetaView,
    pub code: Option<i64>,
    pub payload: Cell,
    pub fields: Vec<FieldView>,
    pub cases: Vec<CaseView>,
}

/// Events of one channel.
#[derive(Debug, Serialize)]
pub struct ChannelGroup {
    pub channel: String,
    pub events: Vec<EventView>,
}

pub fn events_by_channel(cx: &Cx, list: &[&Event]) -> Vec<ChannelGroup> {
    let mut groups: Vec<ChannelGroup> = Vec::new();
    for e in list {
        let view = EventView {
            meta: cx.meta("event", &e.meta.id, &e.meta),
            code: e.code,
            payload: Facets::of(&e.meta).cell("payload", (!e.fields.is_empty()).then(|| Rich::plain(format!("{} field(s)", e.fields.len())))),
            fields: fields(cx, &e.fields, &Owner::new("event", &e.meta.id)),
            cases: cases(cx, &e.meta.id, &e.fields, &e.cases),
        };
        match groups.iter_mut().find(|g| g.channel == e.channel.id) {
            Some(g) => g.events.push(view),
            None => groups.push(ChannelGroup { channel: e.channel.id.clone(), events: vec![view] }),
        }
    }
    groups
}

#[derive(Debug, Serialize)]
pub struct OpcodeView {
    pub meta: MetaView,
    pub code: i64,
    pub direction: String,
    pub reply: Option<Span>,
    pub fields: Vec<FieldView>,
}

pub fn opcode(cx: &Cx, o: &Opcode) -> OpcodeView {
    OpcodeView {
        meta: cx.meta("opcode", &o.meta.id, &o.meta),
        code: o.code,
        direction: o.direction.clone(),
        reply: o.reply.as_ref().map(|r| cx.link("event", &r.id)),
        fields: fields(cx, &o.fields, &Owner::new("opcode", &o.meta.id)),
    }
}

#[derive(Debug, Serialize)]
pub struct CommandView {
    pub meta: MetaView,
    pub scopes: Vec<Span>,
    pub aliases: Vec<MetaView>,
}

pub fn command(cx: &Cx, c: &Command) -> CommandView {
    CommandView {
        meta: cx.meta("command", &c.meta.id, &c.meta),
        scopes: cx.refs("scope", &c.scopes),
        aliases: c.aliases.iter().map(|a| cx.meta("alias", &format!("{}.{}", c.meta.id, a.meta.id), &a.meta)).collect(),
    }
}

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
fn returns_cell(f: Facets, ty: Option<&TypeRef>) -> Cell {
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

#[derive(Debug, Serialize)]
pub struct StateView {
    pub meta: MetaView,
    pub value: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct EffectView {
    pub meta: MetaView,
    pub links: Vec<Span>,
}

#[derive(Debug, Serialize)]
pub struct TransitionView {
    pub meta: MetaView,
    pub from: Span,
    pub to: Span,
    pub triggers: Vec<String>,
    pub condition: Option<String>,
    pub effects: Vec<EffectView>,
}

#[derive(Debug, Serialize)]
pub struct MachineView {
    pub meta: MetaView,
    pub links: Vec<Span>,
    pub states: Vec<StateView>,
    pub transitions: Vec<TransitionView>,
    pub diagram: Diagram,
    pub mermaid: String,
}

pub fn state_machine(cx: &Cx, m: &StateMachine) -> MachineView {
    let state_link = |id: &str| {
        let name = m.states.iter().find(|s| s.meta.id == id).map_or(id, |s| s.meta.name.as_str());
        Span { text: name.to_owned(), href: Some(href("state", &format!("{}.{id}", m.meta.id))), code: false }
    };
    let transitions = m
        .transitions
        .iter()
        .map(|t| TransitionView {
            meta: cx.meta("transition", &format!("{}.{}", m.meta.id, t.meta.id), &t.meta),
            from: state_link(&t.from.id),
            to: state_link(&t.to.id),
            triggers: t.triggers.clone(),
            condition: t.condition.clone(),
            effects: t
                .effects
                .iter()
                .map(|e| EffectView {
                    meta: cx.meta("effect", &format!("{}.{}.{}", m.meta.id, t.meta.id, e.meta.id), &e.meta),
                    links: e.event.iter().map(|x| cx.link("event", &x.id)).chain(e.error.iter().map(|x| cx.link("error", &x.id))).collect(),
                })
                .collect(),
        })
        .collect();
    let links = m.subject.iter().map(|s| cx.typed(s)).chain(m.state_enum.iter().map(|e| cx.link("enum", &e.id))).collect();
    MachineView {
        meta: cx.meta("state_machine", &m.meta.id, &m.meta),
        links,
        states: m.states.iter().map(|s| StateView { meta: cx.meta("state", &format!("{}.{}", m.meta.id, s.meta.id), &s.meta), value: s.value }).collect(),
        transitions,
        diagram: diagram::layout(m),
        mermaid: diagram::mermaid(m),
    }
}

#[derive(Debug, Serialize)]
pub struct ClassFieldView {
    pub field: FieldView,
    pub sigs: Option<FieldSigs>,
}

#[derive(Debug, Serialize)]
pub struct MethodView {
    pub meta: MetaView,
    pub name: Cell,
    pub returns: Cell,
}

#[derive(Debug, Serialize)]
pub struct ClassView {
    pub meta: MetaView,
    pub namespace: String,
    pub semantics: Vec<String>,
    pub c_struct: String,
    pub cpp_namespace: String,
    pub cpp_name: String,
    pub lifecycle: Vec<Sig>,
    /// What the ABI leaves out of the class, and why.
    pub left_out: Vec<String>,
    pub fields: Vec<ClassFieldView>,
    pub methods: Vec<MethodView>,
    pub members: Cell,
    pub used_by: Vec<Span>,
}

pub fn class(cx: &Cx, sigs: &Sigs, c: &Class) -> ClassView {
    let abi = sigs.class(c);
    let owner = Owner::new("class", &c.meta.id);
    let fields = c.fields.iter().map(|f| ClassFieldView { field: field(cx, f, &owner, None), sigs: abi.and_then(|a| sigs.field(a, f)) }).collect();
    let methods = c
        .methods
        .iter()
        .map(|m| {
            let f = Facets::of(&m.meta);
            MethodView {
                meta: cx.meta("method", &format!("{}.{}", c.meta.id, m.meta.id), &m.meta),
                name: f.cell("name", (!m.meta.is_not_shown("name")).then(|| Rich::code(format!("{}()", m.meta.id)))),
                returns: returns_cell(f, m.returns.as_ref()),
            }
        })
        .collect();
    let has_members = !(c.fields.is_empty() && c.methods.is_empty());
    ClassView {
        meta: cx.meta("class", &c.meta.id, &c.meta),
        namespace: c.namespace.clone(),
        semantics: c.semantics.iter().map(|s| s.id.clone()).collect(),
        c_struct: abi.map(|a| sigs.c_struct(a)).unwrap_or_default(),
        cpp_namespace: abi.map(|a| a.namespace.clone()).unwrap_or_default(),
        cpp_name: abi.map(|a| a.name.clone()).unwrap_or_default(),
        lifecycle: abi.map(|a| sigs.lifecycle(a)).unwrap_or_default(),
        left_out: abi.map(|a| a.left_out.clone()).unwrap_or_default(),
        fields,
        methods,
        members: Facets::of(&c.meta).cell("members", has_members.then(|| Rich::plain(format!("{} given", c.fields.len() + c.methods.len())))),
        used_by: cx.typed_all(&c.used_by),
    }
}
