//! Lowers resources, unions, fields with their type expressions and bounds, enums and flag sets.
//!
//! Shapes written inline get a name here, from where they were written: a bare `object` with
//! `fields:` becomes a resource and `integer | string` a union, each with the id of its path
//! (`create_message.body.allowed_mentions` gives `create_message_body_allowed_mentions`), so every
//! emitter meets only named shapes and the names survive reordering.

use super::*;
use crate::model::types::Expr;

impl Lower<'_> {
    /// A type expression that names every shape (an SDK return type, ...).
    pub(super) fn type_ref(&mut self, s: &S<String>) -> Option<TypeRef> {
        let expr = self.type_expr(s)?;
        match expr.to_type_ref() {
            Some(t) => Some(t),
            None => {
                self.cx.push(
                    Diagnostic::error(codes::INVALID_TYPE, format!("invalid type expression `{}`", s.value))
                        .at(self.span(s), "an inline union or object has no name here")
                        .help("declare the union under `unions:` or the object under `resources:` and name it: `union<id>`, `object<id>`"),
                );
                None
            }
        }
    }

    fn type_expr(&mut self, s: &S<String>) -> Option<Expr> {
        match Expr::parse(&s.value) {
            Ok(t) => Some(t),
            Err(why) => {
                let help = format!(
                    "types are {} or `{}<...>`, and `A | B` for a union",
                    types::Primitive::ALL.iter().map(|(n, _)| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                    types::CONSTRUCTORS.join("<...>`, `")
                );
                let mut d = Diagnostic::error(codes::INVALID_TYPE, format!("invalid type expression `{}`", s.value)).at(self.span(s), why);
                let candidates = types::Primitive::ALL.iter().chain(types::Primitive::ALIASES).map(|(n, _)| *n);
                d = d.suggest(s.value.trim(), candidates).help(help);
                self.cx.push(d);
                None
            }
        }
    }

    /// The type of a field written at `path`, naming its inline shapes after the path. `fields`
    /// are the fields of its bare `object`, when it has one.
    /// The type of a response body, and whether the body may be `null`: `T | null` is `T` that
    /// may be `null`, so the body reads as an optional `T` rather than a union with `null`.
    pub(super) fn body_type(&mut self, s: &S<String>, path: &str) -> (Option<TypeRef>, bool) {
        if let Ok(Expr::Alternatives(list)) = Expr::parse(&s.value)
            && let [a, b] = list.as_slice()
        {
            let null = |e: &Expr| matches!(e, Expr::Primitive(types::Primitive::Null));
            let other = match (null(a), null(b)) {
                (false, true) => Some(a),
                (true, false) => Some(b),
                _ => None,
            };
            if let Some(other) = other.filter(|o| o.bare_objects() == 0) {
                let span = self.span(s);
                return (self.hoist(other, &Default::default(), path, span), true);
            }
        }
        (self.field_type(s, &Default::default(), path), false)
    }

    pub(super) fn field_type(&mut self, s: &S<String>, fields: &indexmap::IndexMap<S<String>, S<raw::Field>>, path: &str) -> Option<TypeRef> {
        let expr = self.type_expr(s)?;
        let span = self.span(s);
        match (expr.bare_objects(), fields.is_empty()) {
            (0, false) => {
                self.cx.push(
                    Diagnostic::error(codes::INLINE_OBJECT, format!("`fields:` given for a field of type `{}`", s.value.trim()))
                        .at(span, "not an inline object")
                        .help("write `type: object` (or `array<object>`, `map<string, object>`) for an object declared inline"),
                );
            }
            (1, true) => {
                self.cx.push(
                    Diagnostic::error(codes::INLINE_OBJECT, "an inline `object` without `fields:`")
                        .at(span, "no fields for this object")
                        .help("give the object's fields under `fields:`, or name a resource: `object<id>`"),
                );
                return None;
            }
            (n, _) if n > 1 => {
                self.cx.push(
                    Diagnostic::error(codes::INLINE_OBJECT, format!("`{}` has {n} inline objects; one `fields:` can describe only one", s.value.trim()))
                        .at(span, "more than one bare `object`")
                        .help("declare the objects under `resources:` and name them: `object<id>`"),
                );
                return None;
            }
            _ => {}
        }
        self.hoist(&expr, fields, path, span)
    }

    /// Replaces the inline shapes of `expr` with references to items named after `path`.
    fn hoist(&mut self, expr: &Expr, fields: &indexmap::IndexMap<S<String>, S<raw::Field>>, path: &str, span: Span) -> Option<TypeRef> {
        Some(match expr {
            Expr::Array(inner) => TypeRef::Array(Box::new(self.hoist(inner, fields, path, span)?)),
            Expr::Map(k, v) => TypeRef::Map(Box::new(self.hoist(k, fields, path, span)?), Box::new(self.hoist(v, fields, path, span)?)),
            Expr::Object(None) => {
                let id = path_id(path);
                let lowered = self.fields(fields, path);
                let meta = Meta { id: id.clone(), name: id.clone(), part: self.part.clone(), span, id_span: span, ..Meta::default() };
                self.inline_resources.push(Resource {
                    meta,
                    direction: "both".to_owned(),
                    extends: Vec::new(),
                    fields: lowered,
                    closed: false,
                    inline: Some(path.to_owned()),
                    cases: Vec::new(),
                });
                TypeRef::Object(id)
            }
            Expr::Alternatives(list) => {
                let id = path_id(path);
                let mut variants: Vec<Field> = Vec::new();
                for alt in list {
                    if matches!(alt, Expr::Object(None)) {
                        self.cx.push(
                            Diagnostic::error(codes::INLINE_OBJECT, "an inline `object` cannot be an alternative of a union")
                                .at(span, "bare `object` among alternatives")
                                .help("declare the object under `resources:` and name it: `object<id> | ...`"),
                        );
                        return None;
                    }
                    let name = alt.variant_name();
                    let ty = self.hoist(alt, fields, &format!("{path}.{name}"), span)?;
                    variants.push(Field { name, ty: Some(ty), span, type_span: span, ..Field::default() });
                }
                let meta = Meta { id: id.clone(), name: id.clone(), part: self.part.clone(), span, id_span: span, ..Meta::default() };
                self.inline_unions.push(Union { meta, discriminator: None, variants, inline: Some(path.to_owned()) });
                TypeRef::Union(id)
            }
            other => other.to_type_ref().expect("BUG: only bare objects and alternatives are inline"),
        })
    }

    fn bound(&self, s: &S<raw::Bound>) -> Bound {
        let span = self.span(s);
        match &s.value {
            raw::Bound::Value(v) => Bound::Value(span, *v),
            raw::Bound::Float(v) => Bound::Float(span, *v),
            raw::Bound::Ref { target: raw::BoundRef::Limit(id), offset } => Bound::Limit { limit: Ref { id: id.clone(), span }, offset: *offset },
            raw::Bound::Ref { target: raw::BoundRef::Field(path), offset } => {
                let (endpoint, field) = path.split_once('.').unwrap_or((path.as_str(), ""));
                Bound::Field { endpoint: Ref { id: endpoint.to_owned(), span }, field: field.to_owned(), offset: *offset }
            }
        }
    }

    pub(super) fn opt_bound(&self, s: Option<&S<raw::Bound>>) -> Option<Bound> {
        s.map(|b| self.bound(b))
    }

    /// The fields of a map, written at `owner` (`channel`, `create_message.body`).
    pub(super) fn fields(&mut self, map: &indexmap::IndexMap<S<String>, S<raw::Field>>, owner: &str) -> Vec<Field> {
        map.iter().map(|(name, f)| self.field(name, f, owner)).collect()
    }

    fn literal(&self, s: Option<&S<serde_json::Value>>) -> Option<Literal> {
        s.map(|v| Literal { value: v.value.clone(), span: self.span(v) })
    }

    pub(super) fn field(&mut self, name: &S<String>, s: &S<raw::Field>, owner: &str) -> Field {
        self.field_of(name, &s.value, owner)
    }

    /// A field from its raw form, written at `owner`; spans point at its name and keys.
    pub(super) fn field_of(&mut self, name: &S<String>, f: &raw::Field, owner: &str) -> Field {
        let path = format!("{owner}.{}", name.value);
        let ty = match &f.ty {
            Some(t) => self.field_type(t, &f.fields, &path),
            None => None,
        };
        Field {
            name: name.value.clone(),
            wire_name: f.wire_name.as_ref().map(|w| w.value.clone()),
            ty,
            description: f.description.as_ref().map(|d| d.value.trim().to_owned()).filter(|d| !d.is_empty()),
            optional: f.optional.as_ref().is_some_and(|b| b.value),
            nullable: f.nullable.as_ref().is_some_and(|b| b.value),
            default: self.literal(f.default.as_ref()),
            default_text: f.default_text.as_ref().map(|d| d.value.clone()),
            example: self.literal(f.example.as_ref()),
            format: f.format.as_ref().map(|v| v.value.clone()),
            literal: f.literal.as_ref().map(|d| d.value.clone()),
            constant: self.literal(f.constant.as_ref()),
            subset: self.refs(&f.subset),
            tag: self.literal(f.tag.as_ref()),
            constraints: self.constraints(ConstraintKeys {
                min: f.min.as_ref(),
                max: f.max.as_ref(),
                min_exclusive: f.min_exclusive.as_ref(),
                max_exclusive: f.max_exclusive.as_ref(),
                min_length: f.min_length.as_ref(),
                max_length: f.max_length.as_ref(),
                min_items: f.min_items.as_ref(),
                max_items: f.max_items.as_ref(),
                min_entries: f.min_entries.as_ref(),
                max_entries: f.max_entries.as_ref(),
                max_size: f.max_size.as_ref(),
                unique_items: f.unique_items.as_ref(),
                pattern: f.pattern.as_ref(),
            }),
            items: f.items.as_ref().map(|i| self.items(i)),
            inherited_from: None,
            required_when: f.required_when.as_ref().and_then(|c| self.cond_text(c)),
            requires_scope: self.opt_ref(f.requires_scope.as_ref()),
            style: self.opt_ref(f.style.as_ref()),
            content_type: self.opt_ref(f.content_type.as_ref()),
            since: self.opt_ref(f.since.as_ref()),
            until: self.opt_ref(f.until.as_ref()),
            deprecated: self.opt_ref(f.deprecated.as_ref()),
            not_shown: self.gaps(&f.not_shown),
            assumed: f.assumed.iter().map(|(k, v)| (k.value.clone(), v.value.clone())).collect(),
            notes: Self::strings(&f.notes),
            rust_name: self.opt_ref(f.rust_name.as_ref()),
            c_name: self.opt_ref(f.c_name.as_ref()),
            span: self.span(name),
            type_span: f.ty.as_ref().map_or_else(|| self.span(name), |t| self.span(t)),
            optional_span: f.optional.as_ref().map(|o| self.span(o)),
            nullable_span: f.nullable.as_ref().filter(|n| n.value).map(|n| self.span(n)),
            assumed_spans: f.assumed.keys().map(|k| self.span(k)).collect(),
        }
    }

    fn constraints(&self, k: ConstraintKeys<'_>) -> Constraints {
        Constraints {
            min: self.opt_bound(k.min),
            max: self.opt_bound(k.max),
            min_exclusive: self.opt_bound(k.min_exclusive),
            max_exclusive: self.opt_bound(k.max_exclusive),
            min_length: self.opt_bound(k.min_length),
            max_length: self.opt_bound(k.max_length),
            min_items: self.opt_bound(k.min_items),
            max_items: self.opt_bound(k.max_items),
            min_entries: self.opt_bound(k.min_entries),
            max_entries: self.opt_bound(k.max_entries),
            max_size: self.opt_bound(k.max_size),
            unique_items: k.unique_items.is_some_and(|u| u.value),
            unique_span: k.unique_items.map_or_else(Span::default, |u| self.span(u)),
            pattern: k.pattern.map(|p| Pattern { regex: p.value.clone(), span: self.span(p) }),
        }
    }

    fn items(&self, s: &S<raw::Items>) -> Items {
        let i = &s.value;
        Items {
            nullable: i.nullable.as_ref().is_some_and(|b| b.value),
            constraints: self.constraints(ConstraintKeys {
                min: i.min.as_ref(),
                max: i.max.as_ref(),
                min_exclusive: i.min_exclusive.as_ref(),
                max_exclusive: i.max_exclusive.as_ref(),
                min_length: i.min_length.as_ref(),
                max_length: i.max_length.as_ref(),
                min_items: i.min_items.as_ref(),
                max_items: i.max_items.as_ref(),
                min_entries: i.min_entries.as_ref(),
                max_entries: i.max_entries.as_ref(),
                max_size: None,
                unique_items: i.unique_items.as_ref(),
                pattern: i.pattern.as_ref(),
            }),
            items: i.items.as_ref().map(|inner| Box::new(self.items(inner))),
            span: self.span(s),
        }
    }

    pub(super) fn cases(&mut self, list: &[S<raw::Case>]) -> Vec<Case> {
        list.iter()
            .map(|c| {
                let (span, v) = (self.span(c), &c.value);
                let fields = v
                    .fields
                    .iter()
                    .map(|(name, f)| {
                        let f = &f.value;
                        CaseField {
                            field: self.r#ref(name),
                            literal: f.literal.as_ref().map(|l| l.value.clone()),
                            contains: self.refs(&f.contains),
                            omits: self.refs(&f.omits),
                            constraints: Constraints {
                                min_items: self.opt_bound(f.min_items.as_ref()),
                                max_items: self.opt_bound(f.max_items.as_ref()),
                                ..Constraints::default()
                            },
                        }
                    })
                    .collect();
                Case { meta: meta!(self, v, span), when: self.rule(&v.when), fields }
            })
            .collect()
    }

    pub(super) fn resource(&mut self, s: S<raw::Resource>) -> Resource {
        let (span, v) = (self.span(&s), &s.value);
        Resource {
            meta: meta!(self, v, span),
            direction: v.direction.as_ref().map_or_else(|| "both".to_owned(), |d| d.value.clone()),
            extends: self.refs(&v.extends),
            fields: self.fields(&v.fields, &v.id.value),
            closed: v.closed.as_ref().is_some_and(|c| c.value),
            inline: None,
            cases: self.cases(&v.cases),
        }
    }

    pub(super) fn union(&mut self, s: S<raw::Union>) -> Union {
        let (span, v) = (self.span(&s), &s.value);
        let discriminator = v.discriminator.as_ref().map(|d| Discriminator {
            field: d.value.field.value.clone(),
            ty: self.type_ref(&d.value.ty),
            span: self.span(&d.value.field),
            type_span: self.span(&d.value.ty),
        });
        Union { meta: meta!(self, v, span), discriminator, variants: self.fields(&v.variants, &v.id.value), inline: None }
    }

    pub(super) fn enum_(&mut self, s: S<raw::Enum>) -> Enum {
        let (span, v) = (self.span(&s), &s.value);
        let values = v
            .values
            .iter()
            .map(|e| {
                let espan = self.span(e);
                EnumValue {
                    meta: meta!(self, e.value, espan),
                    value: e.value.value.as_ref().map(|n| n.value),
                    value_span: e.value.value.as_ref().map_or(espan, |n| self.span(n)),
                }
            })
            .collect();
        Enum {
            meta: meta!(self, v, span),
            repr: v.repr.as_ref().map_or_else(|| "integer".into(), |r| r.value.clone()),
            values,
            repr_span: v.repr.as_ref().map(|r| self.span(r)),
        }
    }

    pub(super) fn flags(&mut self, s: S<raw::Flags>) -> Flags {
        let (span, v) = (self.span(&s), &s.value);
        let values = v
            .values
            .iter()
            .map(|f| {
                let fspan = self.span(f);
                FlagValue {
                    meta: meta!(self, f.value, fspan),
                    bit: f.value.bit.as_ref().map(|b| u32::try_from(b.value).unwrap_or(u32::MAX)),
                    bit_span: f.value.bit.as_ref().map_or(fspan, |b| self.span(b)),
                }
            })
            .collect();
        Flags {
            meta: meta!(self, v, span),
            repr: v.repr.as_ref().map_or_else(|| "integer".into(), |r| r.value.clone()),
            width: v.width.as_ref().map_or(64, |w| u32::try_from(w.value).unwrap_or(0)),
            values,
        }
    }
}

/// The constraint keys a field or an `items:` block may carry.
struct ConstraintKeys<'a> {
    min: Option<&'a S<raw::Bound>>,
    max: Option<&'a S<raw::Bound>>,
    min_exclusive: Option<&'a S<raw::Bound>>,
    max_exclusive: Option<&'a S<raw::Bound>>,
    min_length: Option<&'a S<raw::Bound>>,
    max_length: Option<&'a S<raw::Bound>>,
    min_items: Option<&'a S<raw::Bound>>,
    max_items: Option<&'a S<raw::Bound>>,
    min_entries: Option<&'a S<raw::Bound>>,
    max_entries: Option<&'a S<raw::Bound>>,
    max_size: Option<&'a S<raw::Bound>>,
    unique_items: Option<&'a S<bool>>,
    pattern: Option<&'a S<String>>,
}

/// The id of a shape written at `path`: the path with `_` for every character an id cannot hold.
pub fn path_id(path: &str) -> String {
    path.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c.to_ascii_lowercase() } else { '_' }).collect()
}

/// Gives each resource that extends others the fields of its bases, first and in order; a field
/// the resource declares again replaces the inherited one in place. Bases that do not resolve or
/// that lead back to the resource are left out (validation reports them).
pub(super) fn flatten_extends(model: &mut Model) {
    let ids: Vec<String> = model.resources.iter().filter(|r| !r.extends.is_empty()).map(|r| r.meta.id.clone()).collect();
    let mut done: Vec<(String, Vec<Field>)> = Vec::new();
    for id in &ids {
        let fields = full_fields(model, id, &mut Vec::new(), &mut done);
        done.push((id.clone(), fields));
    }
    for (id, fields) in &done {
        if let Some(r) = model.resources.iter_mut().find(|r| &r.meta.id == id) {
            r.fields = fields.clone();
        }
    }
    // An event's payload takes its bases' fields first, its own after (and over them).
    for i in 0..model.events.len() {
        let bases: Vec<String> = model.events[i].extends.iter().map(|b| b.id.clone()).collect();
        if bases.is_empty() {
            continue;
        }
        let mut out: Vec<Field> = Vec::new();
        for base in bases {
            for mut f in full_fields(model, &base, &mut Vec::new(), &mut done) {
                f.inherited_from.get_or_insert_with(|| base.clone());
                match out.iter_mut().find(|o| o.name == f.name) {
                    Some(slot) => *slot = f,
                    None => out.push(f),
                }
            }
        }
        for f in std::mem::take(&mut model.events[i].fields) {
            match out.iter_mut().find(|o| o.name == f.name) {
                Some(slot) => *slot = f,
                None => out.push(f),
            }
        }
        model.events[i].fields = out;
    }
}

fn full_fields(model: &Model, id: &str, visiting: &mut Vec<String>, done: &mut Vec<(String, Vec<Field>)>) -> Vec<Field> {
    if let Some((_, fields)) = done.iter().find(|(d, _)| d == id) {
        return fields.clone();
    }
    let Some(r) = model.resource(id) else { return Vec::new() };
    let mut out: Vec<Field> = Vec::new();
    visiting.push(id.to_owned());
    for base in &r.extends {
        if visiting.contains(&base.id) {
            continue;
        }
        for mut f in full_fields(model, &base.id, visiting, done) {
            f.inherited_from.get_or_insert_with(|| base.id.clone());
            match out.iter_mut().find(|o| o.name == f.name) {
                Some(slot) => *slot = f,
                None => out.push(f),
            }
        }
    }
    visiting.pop();
    for f in r.fields.iter().filter(|f| f.inherited_from.is_none()) {
        match out.iter_mut().find(|o| o.name == f.name) {
            Some(slot) => *slot = f.clone(),
            None => out.push(f.clone()),
        }
    }
    out
}
