//! Lowers the raw spanned spec into the [`Model`]: parses type expressions and dates, applies
//! defaults, and records spans. Problems local to one value (a type that does not parse, a bad
//! date) are reported here; rules across items are [`crate::validate`]'s.

use super::*;
use crate::diag::{Diagnostic, Diagnostics, FileId, Sources, codes};
use crate::load::{RawSpec, raw, span_of};
use serde_saphyr::Spanned;

/// Builds the model from every loaded file, in load order.
pub fn lower(cx: &mut Diagnostics, sources: &Sources, spec: RawSpec) -> Model {
    let mut model = Model { files: sources.files().iter().map(|f| f.path.clone()).collect(), ..Model::default() };
    let mut platform_spans = Vec::new();
    for (file, raw) in spec.files {
        let mut lw = Lower { cx: &mut *cx, sources, file, part: None };
        lw.part = raw.part.as_ref().map(|p| lw.r#ref(p));
        if let Some(p) = raw.platform {
            platform_spans.push(lw.span(&p));
            model.platform = lw.platform(p);
        }
        macro_rules! each {
            ($($key:ident => $f:ident),* $(,)?) => { $(for item in raw.$key { let v = lw.$f(item); model.$key.push(v); })* };
        }
        each!(
            features => feature, constants => constant, gaps => gap_item, permissions => permission, resources => resource, enums => enum_,
            flags => flags, endpoints => endpoint, opcodes => opcode, commands => command, conditions => condition,
            intents => intent, scopes => scope, scope_sets => scope_set, token_kinds => token_kind,
            permission_rules => permission_rule, auth_rules => auth_rule, events => event, errors => error,
            limits => limit, changes => change, state_machines => state_machine, classes => class,
            sdk_calls => sdk_call, releases => release,
        );
        if let Some(s) = raw.authorization_server {
            model.authorization_server = Some(lw.authorization_server(s));
        }
        if let Some(b) = raw.error_body {
            model.error_body = Some(lw.error_body(b));
        }
        if let Some(p) = raw.release_policy {
            model.release_policy = Some(lw.release_policy(p));
        }
    }
    check_platform_block(cx, &platform_spans);
    model
}

/// Exactly one `platform:` block: it names everything the generators emit.
fn check_platform_block(cx: &mut Diagnostics, spans: &[Span]) {
    match spans {
        [] => cx.push(
            Diagnostic::error(codes::PLATFORM_BLOCK, "the spec has no `platform:` block")
                .help("add a `platform:` block with `name` and `prefixes` to one file (by convention `platform.yaml`)"),
        ),
        [_] => {}
        [first, rest @ ..] => {
            for span in rest {
                cx.push(
                    Diagnostic::error(codes::PLATFORM_BLOCK, "the `platform:` block is defined more than once")
                        .at(*span, "second definition")
                        .also(*first, "first defined here")
                        .help("keep one `platform:` block"),
                );
            }
        }
    }
}

struct Lower<'a> {
    cx: &'a mut Diagnostics,
    sources: &'a Sources,
    file: FileId,
    part: Option<Ref>,
}

type S<T> = Spanned<T>;

/// Lowers the common fields of an `item!` struct.
macro_rules! meta {
    ($lw:expr, $item:expr, $outer:expr) => {
        $lw.meta_of(
            $outer,
            {
                use crate::load::Keys as _;
                $item.keys()
            },
            &$item.id,
            $item.name.as_ref(),
            $item.description.as_ref(),
            $item.part.as_ref(),
            [$item.since.as_ref(), $item.until.as_ref(), $item.deprecated.as_ref()],
            &$item.not_shown,
            &$item.assumed,
            &$item.notes,
        )
    };
}

impl Lower<'_> {
    fn span<T>(&self, s: &S<T>) -> Span {
        span_of(self.sources, self.file, &s.referenced)
    }

    fn r#ref(&self, s: &S<String>) -> Ref {
        Ref { id: s.value.trim().to_owned(), span: self.span(s) }
    }

    fn opt_ref(&self, s: Option<&S<String>>) -> Option<Ref> {
        s.map(|s| self.r#ref(s))
    }

    fn refs(&self, list: &[S<String>]) -> Vec<Ref> {
        list.iter().map(|s| self.r#ref(s)).collect()
    }

    fn strings(list: &[S<String>]) -> Vec<String> {
        list.iter().map(|s| s.value.clone()).collect()
    }

    fn gaps(&self, list: &[S<raw::Gap>]) -> Vec<Gap> {
        list.iter().map(|g| Gap { facet: g.value.facet.clone(), detail: g.value.detail.clone(), span: self.span(g) }).collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn meta_of(
        &mut self,
        outer: Span,
        keys: &'static [&'static str],
        id: &S<String>,
        name: Option<&S<String>>,
        description: Option<&S<String>>,
        part: Option<&S<String>>,
        [since, until, deprecated]: [Option<&S<String>>; 3],
        not_shown: &[S<raw::Gap>],
        assumed: &indexmap::IndexMap<S<String>, S<String>>,
        notes: &[S<String>],
    ) -> Meta {
        Meta {
            id: id.value.clone(),
            name: name.map_or_else(|| id.value.clone(), |n| n.value.clone()),
            description: description.map(|d| d.value.trim().to_owned()),
            part: self.opt_ref(part).or_else(|| self.part.clone()),
            since: self.opt_ref(since),
            until: self.opt_ref(until),
            deprecated: self.opt_ref(deprecated),
            not_shown: self.gaps(not_shown),
            assumed: assumed.iter().map(|(k, v)| (k.value.clone(), v.value.clone())).collect(),
            notes: Self::strings(notes),
            span: outer,
            id_span: self.span(id),
            assumed_spans: assumed.keys().map(|k| self.span(k)).collect(),
            keys,
        }
    }

    fn typed_refs(&mut self, list: &[S<String>]) -> Vec<TypedRef> {
        list.iter().filter_map(|s| self.typed_ref(s)).collect()
    }

    /// Parses `kind:id`; the kind and id are checked by validation.
    fn typed_ref(&mut self, s: &S<String>) -> Option<TypedRef> {
        let span = self.span(s);
        match s.value.split_once(':') {
            Some((kind, id)) if !kind.is_empty() && !id.is_empty() => {
                Some(TypedRef { kind: kind.trim().to_owned(), id: id.trim().to_owned(), span })
            }
            _ => {
                self.cx.push(
                    Diagnostic::error(codes::WRONG_TYPE, format!("`{}` is not a typed reference", s.value))
                        .at(span, "expected `kind:id`")
                        .help("write the kind of item before its id, for example `endpoint:get_guild_channels`"),
                );
                None
            }
        }
    }

    fn type_ref(&mut self, s: &S<String>) -> Option<TypeRef> {
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

    fn opt_bound(&self, s: Option<&S<raw::Bound>>) -> Option<Bound> {
        s.map(|b| self.bound(b))
    }

    fn fields(&mut self, map: &indexmap::IndexMap<S<String>, S<raw::Field>>) -> Vec<Field> {
        map.iter().map(|(name, f)| self.field(name, f)).collect()
    }

    fn field(&mut self, name: &S<String>, s: &S<raw::Field>) -> Field {
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
            span: self.span(name),
            type_span: f.ty.as_ref().map_or_else(|| self.span(name), |t| self.span(t)),
            optional_span: f.optional.as_ref().map(|o| self.span(o)),
            assumed_spans: f.assumed.keys().map(|k| self.span(k)).collect(),
        }
    }

    fn cases(&mut self, list: &[S<raw::Case>]) -> Vec<Case> {
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

    /// A condition written as text (`large_bot_sharding`, `id(ARG)`).
    fn cond_text(&mut self, s: &S<String>) -> Option<Cond> {
        let span = self.span(s);
        let text = s.value.trim();
        let (id, arg) = match text.split_once('(') {
            Some((id, rest)) => (id.trim(), rest.strip_suffix(')').map(|a| a.trim().to_owned())),
            None => (text, None),
        };
        Some(Cond::Named { condition: Ref { id: id.to_owned(), span }, arg })
    }

    fn cond(&self, s: &S<raw::Cond>) -> Cond {
        let span = self.span(s);
        match &s.value {
            raw::Cond::Named { id, arg } => Cond::Named { condition: Ref { id: id.clone(), span }, arg: arg.clone() },
            raw::Cond::Not(inner) => Cond::Not(Box::new(self.cond(inner))),
        }
    }

    fn rule(&self, s: &S<raw::Rule>) -> Rule {
        let span = self.span(s);
        match &s.value {
            raw::Rule::Permission(id) => Rule::Permission(Ref { id: id.clone(), span }),
            raw::Rule::All(list) => Rule::All(list.iter().map(|r| self.rule(r)).collect()),
            raw::Rule::Any(list) => Rule::Any(list.iter().map(|r| self.rule(r)).collect()),
            raw::Rule::When { when, then, otherwise } => Rule::When {
                when: self.cond(when),
                then: Box::new(self.rule(then)),
                otherwise: otherwise.as_ref().map(|o| Box::new(self.rule(o))),
            },
            raw::Rule::Condition(c) => Rule::Condition(self.cond(c)),
            raw::Rule::Intent(i) => Rule::Intent(self.r#ref(i)),
            raw::Rule::Scope(i) => Rule::Scope(self.r#ref(i)),
        }
    }

    fn date(&mut self, s: &S<String>) -> Effective {
        match s.value.trim() {
            "already_in_effect" => Effective::AlreadyInEffect,
            "unscheduled" => Effective::Unscheduled,
            text => match parse_date(text) {
                Some(date) => Effective::Date(date),
                None => {
                    self.cx.push(
                        Diagnostic::error(codes::INVALID_DATE, format!("invalid date `{text}`"))
                            .at(self.span(s), "not a calendar date")
                            .help("write `YYYY-MM-DD` (00:00 UTC), `already_in_effect` or `unscheduled`"),
                    );
                    Effective::Unscheduled
                }
            },
        }
    }

    fn platform(&mut self, s: S<raw::Platform>) -> PlatformInfo {
        let span = self.span(&s);
        let p = s.value;
        let x = &p.prefixes.value;
        PlatformInfo {
            name: p.name.value,
            description: p.description.map(|d| d.value),
            prefixes: Prefixes {
                c_type: x.c_type.value.clone(),
                c_macro: x.c_macro.value.clone(),
                cpp_namespace: x.cpp_namespace.value.clone(),
                c_header: x.c_header.value.clone(),
                cpp_header: x.cpp_header.value.clone(),
            },
            placeholders: p.placeholders.into_iter().map(|i| self.placeholder(i)).collect(),
            parts: p.parts.into_iter().map(|i| self.part_item(i)).collect(),
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

    fn feature(&mut self, s: S<raw::Feature>) -> Feature {
        let (span, v) = (self.span(&s), &s.value);
        Feature {
            meta: meta!(self, v, span),
            points: Self::strings(&v.points),
            needs_implementation: v.needs_implementation.as_ref().map(|b| b.value),
            refs: self.typed_refs(&v.refs),
        }
    }

    fn constant(&mut self, s: S<raw::Constant>) -> Constant {
        let (span, v) = (self.span(&s), &s.value);
        Constant { meta: meta!(self, v, span), value: v.value.value.clone() }
    }

    fn gap_item(&mut self, s: S<raw::GapItem>) -> GapItem {
        let (span, v) = (self.span(&s), &s.value);
        GapItem { meta: meta!(self, v, span), refs: self.typed_refs(&v.refs) }
    }

    fn permission(&mut self, s: S<raw::Permission>) -> Permission {
        let (span, v) = (self.span(&s), &s.value);
        let bit = v.bit.as_ref().map(|b| u32::try_from(b.value).unwrap_or(u32::MAX));
        Permission { meta: meta!(self, v, span), bit, bit_span: v.bit.as_ref().map_or(span, |b| self.span(b)) }
    }

    fn resource(&mut self, s: S<raw::Resource>) -> Resource {
        let (span, v) = (self.span(&s), &s.value);
        Resource {
            meta: meta!(self, v, span),
            direction: v.direction.as_ref().map_or_else(|| "both".to_owned(), |d| d.value.clone()),
            fields: self.fields(&v.fields),
            cases: self.cases(&v.cases),
        }
    }

    fn enum_(&mut self, s: S<raw::Enum>) -> Enum {
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

    fn flags(&mut self, s: S<raw::Flags>) -> Flags {
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

    fn endpoint(&mut self, s: S<raw::Endpoint>) -> Endpoint {
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

    fn opcode(&mut self, s: S<raw::Opcode>) -> Opcode {
        let (span, v) = (self.span(&s), &s.value);
        Opcode {
            meta: meta!(self, v, span),
            code: v.code.value,
            direction: v.direction.as_ref().map_or_else(|| "send".into(), |d| d.value.clone()),
            reply: self.opt_ref(v.reply.as_ref()),
            fields: self.fields(&v.fields),
        }
    }

    fn command(&mut self, s: S<raw::Command>) -> Command {
        let (span, v) = (self.span(&s), &s.value);
        let aliases = v
            .aliases
            .iter()
            .map(|a| {
                let aspan = self.span(a);
                Alias { meta: meta!(self, a.value, aspan) }
            })
            .collect();
        Command { meta: meta!(self, v, span), scopes: self.refs(&v.scopes), aliases }
    }

    fn condition(&mut self, s: S<raw::Condition>) -> Condition {
        let (span, v) = (self.span(&s), &s.value);
        Condition {
            meta: meta!(self, v, span),
            params: Self::strings(&v.params),
            param_enums: self.refs(&v.param_enums),
            limit: self.opt_ref(v.limit.as_ref()),
            refs: self.typed_refs(&v.refs),
        }
    }

    fn intent(&mut self, s: S<raw::Intent>) -> Intent {
        let (span, v) = (self.span(&s), &s.value);
        Intent { meta: meta!(self, v, span), privileged: v.privileged.as_ref().is_some_and(|b| b.value) }
    }

    fn scope(&mut self, s: S<raw::Scope>) -> Scope {
        let (span, v) = (self.span(&s), &s.value);
        Scope {
            meta: meta!(self, v, span),
            expands: v.expands.as_ref().is_some_and(|b| b.value),
            availability: v.availability.as_ref().map(|a| a.value.clone()),
        }
    }

    fn scope_set(&mut self, s: S<raw::ScopeSet>) -> ScopeSet {
        let (span, v) = (self.span(&s), &s.value);
        ScopeSet { meta: meta!(self, v, span), scopes: self.refs(&v.scopes), call: v.call.as_ref().map(|c| c.value.clone()) }
    }

    fn token_kind(&mut self, s: S<raw::TokenKind>) -> TokenKind {
        let (span, v) = (self.span(&s), &s.value);
        TokenKind { meta: meta!(self, v, span), scheme: v.scheme.as_ref().map(|c| c.value.clone()) }
    }

    fn permission_rule(&mut self, s: S<raw::PermissionRule>) -> PermissionRule {
        let (span, v) = (self.span(&s), &s.value);
        let mut variants: Vec<RuleVariant> = v
            .variants
            .iter()
            .map(|x| RuleVariant {
                since: self.opt_ref(x.value.since.as_ref()),
                until: self.opt_ref(x.value.until.as_ref()),
                rule: self.rule(&x.value.rule),
                span: self.span(x),
            })
            .collect();
        if let Some(rule) = &v.rule {
            variants.insert(0, RuleVariant { since: None, until: None, rule: self.rule(rule), span: self.span(rule) });
        }
        PermissionRule {
            meta: meta!(self, v, span),
            operation: v.operation.as_ref().map(|o| o.value.clone()),
            endpoints: self.refs(&v.endpoints),
            applies_to: v.applies_to.as_ref().map_or_else(|| "all".into(), |a| a.value.clone()),
            variants,
        }
    }

    fn auth_rule(&mut self, s: S<raw::AuthRule>) -> AuthRule {
        let (span, v) = (self.span(&s), &s.value);
        AuthRule { meta: meta!(self, v, span), number: v.number.value, refs: self.typed_refs(&v.refs) }
    }

    fn authorization_server(&mut self, s: S<raw::AuthorizationServer>) -> AuthorizationServer {
        let span = self.span(&s);
        let v = s.value;
        AuthorizationServer {
            issuer: v.issuer.value,
            metadata: v.metadata.into_iter().map(|(k, x)| (k.value, x.value)).collect(),
            not_shown: self.gaps(&v.not_shown),
            assumed_spans: v.assumed.keys().map(|k| self.span(k)).collect(),
            assumed: v.assumed.into_iter().map(|(k, x)| (k.value, x.value)).collect(),
            notes: Self::strings(&v.notes),
            span,
        }
    }

    fn event(&mut self, s: S<raw::Event>) -> Event {
        let (span, v) = (self.span(&s), &s.value);
        Event {
            meta: meta!(self, v, span),
            channel: self.r#ref(&v.channel),
            code: v.code.as_ref().map(|c| c.value),
            fields: self.fields(&v.fields),
            cases: self.cases(&v.cases),
        }
    }

    fn error(&mut self, s: S<raw::Error>) -> Error {
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

    fn error_body(&mut self, s: S<raw::ErrorBody>) -> ErrorBody {
        let v = &s.value;
        ErrorBody {
            description: v.description.as_ref().map(|d| d.value.clone()),
            fields: self.fields(&v.fields),
            not_shown: self.gaps(&v.not_shown),
            assumed: v.assumed.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
            assumed_spans: v.assumed.keys().map(|k| self.span(k)).collect(),
        }
    }

    fn limit(&mut self, s: S<raw::Limit>) -> Limit {
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

    fn change(&mut self, s: S<raw::Change>) -> Change {
        let (span, v) = (self.span(&s), &s.value);
        Change {
            meta: meta!(self, v, span),
            effective: self.date(&v.effective),
            kind: self.r#ref(&v.kind),
            summary: v.summary.value.trim().to_owned(),
            affects: self.typed_refs(&v.affects),
            gate: v.gate.as_ref().is_some_and(|g| g.value),
            effective_span: self.span(&v.effective),
        }
    }

    fn state_machine(&mut self, s: S<raw::StateMachine>) -> StateMachine {
        let (span, v) = (self.span(&s), &s.value);
        let states = v
            .states
            .iter()
            .map(|st| {
                let sspan = self.span(st);
                State { meta: meta!(self, st.value, sspan), value: st.value.value.as_ref().map(|n| n.value) }
            })
            .collect();
        let transitions = v.transitions.iter().map(|t| self.transition(t)).collect();
        StateMachine {
            meta: meta!(self, v, span),
            subject: v.subject.as_ref().and_then(|x| self.typed_ref(x)),
            state_enum: self.opt_ref(v.state_enum.as_ref()),
            states,
            transitions,
        }
    }

    fn transition(&mut self, s: &S<raw::Transition>) -> Transition {
        let (span, v) = (self.span(s), &s.value);
        let effects = v
            .effects
            .iter()
            .map(|e| {
                let espan = self.span(e);
                Effect {
                    meta: meta!(self, e.value, espan),
                    event: self.opt_ref(e.value.event.as_ref()),
                    error: self.opt_ref(e.value.error.as_ref()),
                }
            })
            .collect();
        Transition {
            meta: meta!(self, v, span),
            from: self.r#ref(&v.from),
            to: self.r#ref(&v.to),
            triggers: Self::strings(&v.triggers),
            condition: v.condition.as_ref().map(|c| c.value.clone()),
            effects,
        }
    }

    fn class(&mut self, s: S<raw::Class>) -> Class {
        let (span, v) = (self.span(&s), &s.value);
        let methods = v
            .methods
            .iter()
            .map(|m| {
                let mspan = self.span(m);
                Method {
                    meta: meta!(self, m.value, mspan),
                    returns: m.value.returns.as_ref().and_then(|r| self.type_ref(r)),
                    returns_span: m.value.returns.as_ref().map_or(mspan, |r| self.span(r)),
                }
            })
            .collect();
        Class {
            meta: meta!(self, v, span),
            namespace: v.namespace.as_ref().map(|n| n.value.clone()).unwrap_or_default(),
            fields: self.fields(&v.fields),
            methods,
            semantics: self.refs(&v.semantics),
            used_by: self.typed_refs(&v.used_by),
        }
    }

    fn sdk_call(&mut self, s: S<raw::SdkCall>) -> SdkCall {
        let (span, v) = (self.span(&s), &s.value);
        SdkCall {
            meta: meta!(self, v, span),
            signature: v.signature.value.clone(),
            returns: v.returns.as_ref().and_then(|r| self.type_ref(r)),
            refs: self.typed_refs(&v.refs),
            returns_span: v.returns.as_ref().map_or(span, |r| self.span(r)),
        }
    }

    fn release(&mut self, s: S<raw::Release>) -> Release {
        let (span, v) = (self.span(&s), &s.value);
        let toolkits = v
            .toolkits
            .iter()
            .map(|t| {
                let tspan = self.span(t);
                let dropped =
                    t.value.dropped.as_ref().map(|d| VersionRange { from: d.value.from.value.clone(), to: d.value.to.value.clone() });
                Toolkit { meta: meta!(self, t.value, tspan), minimum: t.value.minimum.value.clone(), dropped }
            })
            .collect();
        Release {
            meta: meta!(self, v, span),
            version: v.id.value.split('.').map(|n| n.parse().unwrap_or(0)).collect(),
            date: v.date.as_ref().map(|d| d.value.clone()),
            toolkits,
            packaging: v.packaging.iter().map(|(k, x)| (k.value.clone(), x.value.clone())).collect(),
        }
    }

    fn release_policy(&mut self, s: S<raw::ReleasePolicy>) -> ReleasePolicy {
        let v = &s.value;
        ReleasePolicy {
            minor_releases_per_year: v.minor_releases_per_year.value,
            release_months: v.release_months.iter().map(|m| m.value).collect(),
            support_window: self.r#ref(&v.support_window),
            notes: Self::strings(&v.notes),
            windows: v
                .windows
                .iter()
                .map(|w| SupportWindow {
                    release: w.value.release.value.clone(),
                    date: w.value.date.value.clone(),
                    oldest_supported: w.value.oldest_supported.value.clone(),
                    newest_supported: w.value.newest_supported.value.clone(),
                    end_of_life_through: w.value.end_of_life_through.value.clone(),
                })
                .collect(),
            not_shown: self.gaps(&v.not_shown),
        }
    }
}

/// Parses a strict `YYYY-MM-DD`.
pub(crate) fn parse_date(text: &str) -> Option<jiff::civil::Date> {
    let bytes = text.as_bytes();
    let shape = bytes.len() == 10 && bytes[4] == b'-' && bytes[7] == b'-';
    if !shape {
        return None;
    }
    text.parse::<jiff::civil::Date>().ok()
}
