//! Lowers endpoints with their behaviours, errors and the error body.

use super::*;

impl Lower<'_> {
    pub(super) fn endpoint(&mut self, s: S<raw::Endpoint>) -> Endpoint {
        let (span, v) = (self.span(&s), &s.value);
        let behaviours = v
            .behaviours
            .iter()
            .map(|b| {
                let bspan = self.span(b);
                Behaviour { meta: meta!(self, b.value, bspan), gate: b.value.gate.as_ref().is_some_and(|g| g.value) }
            })
            .collect();
        Endpoint {
            meta: meta!(self, v, span),
            method: self.opt_ref(v.method.as_ref()),
            path: self.opt_ref(v.path.as_ref()),
            path_params: self.fields(&v.path_params),
            query: self.fields(&v.query),
            body: self.fields(&v.body),
            body_schema: v.body_schema.as_ref().map(|b| {
                let name = Spanned::new("body".to_owned(), b.referenced, b.defined);
                self.field(&name, b)
            }),
            body_format: v.body_format.as_ref().map_or_else(|| "json".into(), |f| f.value.clone()),
            response: v.response.as_ref().and_then(|r| self.type_ref(r)),
            response_fields: self.fields(&v.response_fields),
            response_max_items: self.opt_bound(v.response_max_items.as_ref()),
            response_columns: self.fields(&v.response_columns),
            response_format: v.response_format.as_ref().map_or_else(|| "json".into(), |f| f.value.clone()),
            auth: self.refs(&v.auth),
            behaviours,
            response_span: v.response.as_ref().map_or(span, |r| self.span(r)),
        }
    }

    pub(super) fn error(&mut self, s: S<raw::Error>) -> Error {
        let (span, v) = (self.span(&s), &s.value);
        Error {
            meta: meta!(self, v, span),
            code: v.code.as_ref().map(|c| c.value),
            oauth_error: v.oauth_error.as_ref().map(|c| c.value.clone()),
            status: v.status.as_ref().map(|c| u16::try_from(c.value).unwrap_or(0)),
            condition: v.condition.value.clone(),
            message: v.message.as_ref().map(|c| c.value.clone()),
            endpoints: self.refs(&v.endpoints),
            code_span: v.code.as_ref().map_or(span, |c| self.span(c)),
            status_span: v.status.as_ref().map_or(span, |c| self.span(c)),
        }
    }

    pub(super) fn error_body(&mut self, s: S<raw::ErrorBody>) -> ErrorBody {
        let v = &s.value;
        ErrorBody {
            description: v.description.as_ref().map(|d| d.value.clone()),
            fields: self.fields(&v.fields),
            not_shown: self.gaps(&v.not_shown),
            assumed: v.assumed.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
            assumed_spans: v.assumed.keys().map(|k| self.span(k)).collect(),
        }
    }
}
