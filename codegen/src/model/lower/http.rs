//! Lowers endpoints with their behaviours, errors and the error body.

use super::*;

impl Lower<'_> {
    pub(super) fn endpoint(&mut self, s: S<raw::Endpoint>) -> Endpoint {
        let (span, v) = (self.span(&s), &s.value);
        let id = v.id.value.as_str();
        let behaviours = v
            .behaviours
            .iter()
            .map(|b| {
                let bspan = self.span(b);
                Behaviour { meta: meta!(self, b.value, bspan), gate: b.value.gate.as_ref().is_some_and(|g| g.value) }
            })
            .collect();
        let aliases = v
            .aliases
            .iter()
            .map(|a| {
                let aspan = self.span(a);
                RouteAlias { meta: meta!(self, a.value, aspan), path: self.r#ref(&a.value.path), method: self.opt_ref(a.value.method.as_ref()) }
            })
            .collect();
        Endpoint {
            meta: meta!(self, v, span),
            method: self.opt_ref(v.method.as_ref()),
            path: self.opt_ref(v.path.as_ref()),
            path_params: self.fields(&v.path_params, &format!("{id}.path")),
            query: self.fields(&v.query, &format!("{id}.query")),
            headers: self.fields(&v.headers, &format!("{id}.headers")),
            body: self.fields(&v.body, &format!("{id}.body")),
            body_schema: v.body_schema.as_ref().map(|b| {
                let name = S::new("body".to_owned(), b.referenced, b.defined);
                self.field(&name, b, id)
            }),
            body_formats: self.body_formats(v.body_format.as_ref(), span),
            body_media_type: v.body_media_type.as_ref().map(|m| Text { id: m.value.clone(), span: self.span(m) }),
            parts: self.fields(&v.parts, &format!("{id}.parts")),
            response: v.response.as_ref().and_then(|r| self.field_type(r, &Default::default(), &format!("{id}.response"))),
            response_fields: self.fields(&v.response_fields, &format!("{id}.response")),
            response_max_items: self.opt_bound(v.response_max_items.as_ref()),
            response_columns: self.fields(&v.response_columns, &format!("{id}.response_columns")),
            response_format: match &v.response_format {
                Some(f) => f.value.clone(),
                // With `responses:` the shorthand says nothing; validation reports a mix.
                None if !v.responses.is_empty() => String::new(),
                None => "json".into(),
            },
            responses: v
                .responses
                .iter()
                .map(|(status, r)| StatusResponse { status: self.r#ref(status), response: self.response_use(r, &format!("{id}.responses.{}", status.value)) })
                .collect(),
            auth: self.refs(&v.auth),
            scopes: self.refs(&v.scopes),
            behaviours,
            aliases,
            pagination: v.pagination.as_ref().map(|p| self.pagination(p)),
            idempotency_key: self.opt_ref(v.idempotency_key.as_ref()),
            last_event_id: self.opt_ref(v.last_event_id.as_ref()),
            response_span: v.response.as_ref().map_or(span, |r| self.span(r)),
            shorthand_span: v
                .response
                .as_ref()
                .map(|r| self.span(r))
                .or_else(|| v.response_fields.keys().next().map(|k| self.span(k)))
                .or_else(|| v.response_format.as_ref().map(|f| self.span(f))),
        }
    }

    fn pagination(&self, s: &S<raw::Pagination>) -> Pagination {
        let v = &s.value;
        let mut ways = Vec::new();
        if let Some(c) = &v.cursor {
            ways.push(PageWay::Cursor { param: self.r#ref(&c.value.param), from: self.r#ref(&c.value.from) });
        }
        if let Some(k) = &v.keyset {
            ways.push(PageWay::Keyset { param: self.r#ref(&k.value.param), item: self.r#ref(&k.value.item) });
        }
        if let Some(o) = &v.offset {
            ways.push(PageWay::Offset { param: self.r#ref(&o.value.param) });
        }
        if let Some(l) = &v.link {
            ways.push(PageWay::Link { param: self.r#ref(&l.value.param), header: self.r#ref(&l.value.header) });
        }
        Pagination { ways, items: self.opt_ref(v.items.as_ref()), limit: self.opt_ref(v.limit.as_ref()), span: self.span(s) }
    }

    /// `json` or `[json, form]`; `json` (at the endpoint) when absent.
    fn body_formats(&self, s: Option<&S<raw::OneOrMany>>, endpoint: Span) -> Vec<Text> {
        match s {
            None => vec![Ref { id: "json".into(), span: endpoint }],
            Some(f) => match &f.value {
                raw::OneOrMany::One(one) => vec![Ref { id: one.trim().to_owned(), span: self.span(f) }],
                raw::OneOrMany::Many(list) => self.refs(list),
            },
        }
    }

    /// A response of an endpoint, written at `path` (`get_note.responses.429`).
    fn response_use(&mut self, s: &S<raw::ResponseRef>, path: &str) -> ResponseUse {
        match &s.value {
            raw::ResponseRef::Named(id) => ResponseUse::Named(Ref { id: id.trim().to_owned(), span: self.span(s) }),
            raw::ResponseRef::Inline(r) => ResponseUse::Inline(Box::new(self.response(r, self.span(s), path))),
        }
    }

    /// A response written at `path`, which names the shapes it declares inline.
    pub(super) fn response(&mut self, v: &raw::Response, span: Span, path: &str) -> Response {
        let fields = self.fields(&v.fields, path);
        let has_body = v.ty.is_some() || !fields.is_empty();
        let format = match &v.format {
            Some(f) => f.value.trim().to_owned(),
            None if has_body => "json".to_owned(),
            None => "none".to_owned(),
        };
        let headers = v
            .headers
            .0
            .iter()
            .map(|(name, h)| ResponseHeader {
                name: name.value.clone(),
                header: match &h.value {
                    raw::HeaderRef::Named(id) => HeaderUse::Named(Ref { id: id.trim().to_owned(), span: self.span(h) }),
                    raw::HeaderRef::Inline(f) => HeaderUse::Inline(Box::new(self.field_of(name, f, &format!("{path}.headers")))),
                },
                span: self.span(name),
            })
            .collect();
        let (ty, nullable) = v.ty.as_ref().map_or((None, false), |t| self.body_type(t, path));
        let events = v
            .events
            .iter()
            .map(|(name, t)| StreamEvent {
                name: name.value.clone(),
                ty: self.field_type(t, &Default::default(), &format!("{path}.events.{}", name.value)),
                span: self.span(name),
                type_span: self.span(t),
            })
            .collect();
        Response {
            description: v.description.as_ref().map(|d| d.value.trim().to_owned()).filter(|d| !d.is_empty()),
            ty,
            nullable,
            fields,
            format,
            media_type: self.opt_ref(v.media_type.as_ref()),
            events,
            headers,
            not_shown: self.gaps(&v.not_shown),
            assumed: v.assumed.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
            notes: Self::strings(&v.notes),
            span,
            type_span: v.ty.as_ref().map(|t| self.span(t)),
            format_span: v.format.as_ref().map(|f| self.span(f)),
        }
    }

    pub(super) fn named_response(&mut self, id: &S<String>, s: &S<raw::Response>) -> NamedResponse {
        let span = self.span(s);
        NamedResponse { id: id.value.clone(), response: self.response(&s.value, span, &format!("responses.{}", id.value)), id_span: self.span(id) }
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

    pub(super) fn rate_limits(&mut self, s: S<raw::RateLimits>) -> RateLimits {
        let (span, v) = (self.span(&s), &s.value);
        let mut headers = Vec::new();
        if let Some(h) = &v.headers {
            let h = &h.value;
            let roles = [
                ("limit", &h.limit),
                ("remaining", &h.remaining),
                ("reset", &h.reset),
                ("reset_after", &h.reset_after),
                ("bucket", &h.bucket),
                ("scope", &h.scope),
                ("global", &h.global),
            ];
            headers.extend(roles.into_iter().filter_map(|(role, name)| Some((role, self.r#ref(name.as_ref()?)))));
        }
        RateLimits {
            description: v.description.as_ref().map(|d| d.value.trim().to_owned()).filter(|d| !d.is_empty()),
            headers,
            retry_after_member: self.opt_ref(v.retry_after_member.as_ref()),
            global_member: self.opt_ref(v.global_member.as_ref()),
            major_params: self.refs(&v.major_params),
            global: v.global.as_ref().map(|g| GlobalLimit { requests: g.value.requests.value, per_seconds: g.value.per_seconds.value, span: self.span(g) }),
            exempt: self.refs(&v.exempt),
            not_shown: self.gaps(&v.not_shown),
            assumed: v.assumed.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
            span,
        }
    }

    pub(super) fn retry(&mut self, s: &S<raw::RetryPolicy>) -> RetryPolicy {
        let (span, v) = (self.span(s), &s.value);
        let codes = |list: &Option<Vec<S<i64>>>| list.as_ref().map(|l| l.iter().map(|c| c.value).collect());
        RetryPolicy {
            description: v.description.as_ref().map(|d| d.value.trim().to_owned()).filter(|d| !d.is_empty()),
            attempts: v.attempts.as_ref().map(|a| a.value),
            initial_seconds: v.initial_seconds.as_ref().map(|a| a.value),
            max_seconds: v.max_seconds.as_ref().map(|a| a.value),
            statuses: codes(&v.statuses),
            idempotent_statuses: codes(&v.idempotent_statuses),
            advice_header: self.opt_ref(v.advice_header.as_ref()),
            not_shown: self.gaps(&v.not_shown),
            assumed: v.assumed.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
            span,
        }
    }

    pub(super) fn error_body(&mut self, s: S<raw::ErrorBody>) -> ErrorBody {
        let v = &s.value;
        ErrorBody {
            description: v.description.as_ref().map(|d| d.value.clone()).filter(|d| !d.trim().is_empty()),
            fields: self.fields(&v.fields, "error_body"),
            not_shown: self.gaps(&v.not_shown),
            assumed: v.assumed.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
            assumed_spans: v.assumed.keys().map(|k| self.span(k)).collect(),
        }
    }
}
