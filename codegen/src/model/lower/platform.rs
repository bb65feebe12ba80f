//! Lowers the platform block, features, constants, standalone gaps and limits.

use super::*;

impl Lower<'_> {
    pub(super) fn platform(&mut self, s: S<raw::Platform>) -> PlatformInfo {
        let span = self.span(&s);
        let p = s.value;
        let x = &p.prefixes.value;
        PlatformInfo {
            name: p.name.value,
            description: p.description.map(|d| d.value).filter(|d| !d.trim().is_empty()),
            prefixes: Prefixes {
                c_type: x.c_type.value.clone(),
                c_macro: x.c_macro.value.clone(),
                cpp_namespace: x.cpp_namespace.value.clone(),
                c_header: x.c_header.value.clone(),
                cpp_header: x.cpp_header.value.clone(),
            },
            placeholders: p.placeholders.into_iter().map(|i| self.placeholder(i)).collect(),
            parts: p.parts.into_iter().map(|i| self.part_item(i)).collect(),
            docs: self.opt_ref(p.docs.as_ref()),
            span,
        }
    }

    fn placeholder(&mut self, s: S<raw::Placeholder>) -> Placeholder {
        let (span, v) = (self.span(&s), &s.value);
        Placeholder { meta: meta!(self, v, span), example: v.example.as_ref().map(|e| e.value.clone()) }
    }

    fn part_item(&mut self, s: S<raw::Part>) -> Part {
        let (span, v) = (self.span(&s), &s.value);
        let mut meta = meta!(self, v, span);
        meta.part = None;
        Part { meta, address: self.opt_ref(v.address.as_ref()) }
    }

    pub(super) fn feature(&mut self, s: S<raw::Feature>) -> Feature {
        let (span, v) = (self.span(&s), &s.value);
        Feature {
            meta: meta!(self, v, span),
            points: Self::strings(&v.points),
            needs_implementation: v.needs_implementation.as_ref().map(|b| b.value),
            refs: self.typed_refs(&v.refs),
        }
    }

    pub(super) fn constant(&mut self, s: S<raw::Constant>) -> Constant {
        let (span, v) = (self.span(&s), &s.value);
        Constant { meta: meta!(self, v, span), value: v.value.value.clone() }
    }

    pub(super) fn gap_item(&mut self, s: S<raw::GapItem>) -> GapItem {
        let (span, v) = (self.span(&s), &s.value);
        GapItem { meta: meta!(self, v, span), refs: self.typed_refs(&v.refs) }
    }

    pub(super) fn limit(&mut self, s: S<raw::Limit>) -> Limit {
        let (span, v) = (self.span(&s), &s.value);
        Limit {
            meta: meta!(self, v, span),
            value: self.opt_bound(v.value.as_ref()),
            min: self.opt_bound(v.min.as_ref()),
            max: self.opt_bound(v.max.as_ref()),
            unit: self.r#ref(&v.unit),
            per: v.per.as_ref().map(|p| p.value.clone()),
            duration: v.duration.as_ref().map(|d| Quantity { value: d.value.value.value, unit: self.r#ref(&d.value.unit) }),
            applies_to: Self::strings(&v.applies_to),
            refs: self.typed_refs(&v.refs),
            previous: v.previous.iter().map(|p| PreviousValue { value: p.value.value.value, until: self.r#ref(&p.value.until) }).collect(),
        }
    }
}
