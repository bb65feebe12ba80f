//! Lowers resources, fields with their type expressions and bounds, enums and flag sets.

use super::*;

impl Lower<'_> {
    pub(super) fn type_ref(&mut self, s: &S<String>) -> Option<TypeRef> {
        match TypeRef::parse(&s.value) {
            Ok(t) => Some(t),
            Err(why) => {
                let help = format!(
                    "types are {} or `{}<...>`",
                    types::Primitive::ALL.iter().map(|(n, _)| format!("`{n}`")).collect::<Vec<_>>().join(", "),
                    types::CONSTRUCTORS.join("<...>`, `")
                );
                let mut d = Diagnostic::error(codes::INVALID_TYPE, format!("invalid type expression `{}`", s.value))
                    .at(self.span(s), why);
                let candidates = types::Primitive::ALL.iter().map(|(n, _)| *n);
                d = d.suggest(s.value.trim(), candidates).help(help);
                self.cx.push(d);
                None
            }
        }
    }

    fn bound(&self, s: &S<raw::Bound>) -> Bound {
        let span = self.span(s);
        match &s.value {
            raw::Bound::Value(v) => Bound::Value(span, *v),
            raw::Bound::Ref { target: raw::BoundRef::Limit(id), offset } => {
                Bound::Limit { limit: Ref { id: id.clone(), span }, offset: *offset }
            }
            raw::Bound::Ref { target: raw::BoundRef::Field(path), offset } => {
                let (endpoint, field) = path.split_once('.').unwrap_or((path.as_str(), ""));
                Bound::Field { endpoint: Ref { id: endpoint.to_owned(), span }, field: field.to_owned(), offset: *offset }
            }
        }
    }

    pub(super) fn opt_bound(&self, s: Option<&S<raw::Bound>>) -> Option<Bound> {
        s.map(|b| self.bound(b))
    }

    pub(super) fn fields(&mut self, map: &indexmap::IndexMap<S<String>, S<raw::Field>>) -> Vec<Field> {
        map.iter().map(|(name, f)| self.field(name, f)).collect()
    }

    pub(super) fn field(&mut self, name: &S<String>, s: &S<raw::Field>) -> Field {
        let f = &s.value;
        Field {
            name: name.value.clone(),
            wire_name: f.wire_name.as_ref().map(|w| w.value.clone()),
            ty: f.ty.as_ref().and_then(|t| self.type_ref(t)),
            description: f.description.as_ref().map(|d| d.value.trim().to_owned()),
            optional: f.optional.as_ref().is_some_and(|b| b.value),
            nullable: f.nullable.as_ref().is_some_and(|b| b.value),
            default: f.default.as_ref().map(|d| d.value.clone()),
            literal: f.literal.as_ref().map(|d| d.value.clone()),
            constraints: Constraints {
                min: self.opt_bound(f.min.as_ref()),
                max: self.opt_bound(f.max.as_ref()),
                max_exclusive: self.opt_bound(f.max_exclusive.as_ref()),
                min_length: self.opt_bound(f.min_length.as_ref()),
                max_length: self.opt_bound(f.max_length.as_ref()),
                min_items: self.opt_bound(f.min_items.as_ref()),
                max_items: self.opt_bound(f.max_items.as_ref()),
                max_size: self.opt_bound(f.max_size.as_ref()),
            },
            required_when: f.required_when.as_ref().and_then(|c| self.cond_text(c)),
            requires_scope: self.opt_ref(f.requires_scope.as_ref()),
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
            assumed_spans: f.assumed.keys().map(|k| self.span(k)).collect(),
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
            fields: self.fields(&v.fields),
            cases: self.cases(&v.cases),
        }
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
