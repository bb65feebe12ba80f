//! One view per kind of item: endpoints, resources, permissions, errors, limits, events, ...

mod classes;
mod events;
mod facts;
mod http;
mod machines;

pub use classes::*;
pub use events::*;
pub use facts::*;
pub use http::*;
pub use machines::*;

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
