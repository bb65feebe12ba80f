//! Lowers the raw spanned spec into the [`Model`]: parses type expressions and dates, applies
//! defaults, and records spans. Problems local to one value (a type that does not parse, a bad
//! date) are reported here; rules across items are [`crate::validate`]'s.

use super::*;
use crate::diag::{Diagnostic, Diagnostics, FileId, Sources, codes};
use crate::load::{RawSpec, raw, span_of};

/// Builds the model from every loaded file, in load order.
pub fn lower(cx: &mut Diagnostics, sources: &Sources, spec: RawSpec) -> Model {
    let mut model = Model { files: sources.files().iter().map(|f| f.path.clone()).collect(), ..Model::default() };
    let mut platform_spans = Vec::new();
    for (file, raw) in spec.files {
        let mut lw = Lower { cx: &mut *cx, sources, file, part: None, inline_resources: Vec::new(), inline_unions: Vec::new() };
        lw.part = raw.part.as_ref().map(|p| lw.r#ref(p));
        if let Some(p) = raw.platform {
            platform_spans.push(lw.span(&p));
            model.platform = lw.platform(p);
        }
        macro_rules! each {
            ($($key:ident => $f:ident),* $(,)?) => { $(for item in raw.$key { let v = lw.$f(item); model.$key.push(v); })* };
        }
        each!(
            features => feature, constants => constant, gaps => gap_item, permissions => permission, resources => resource, unions => union, enums => enum_,
            flags => flags, endpoints => endpoint, opcodes => opcode, commands => command, conditions => condition,
            intents => intent, scopes => scope, scope_sets => scope_set, token_kinds => token_kind,
            permission_rules => permission_rule, auth_rules => auth_rule, events => event, webhooks => webhook, gateways => gateway, errors => error,
            limits => limit, changes => change, state_machines => state_machine, classes => class,
            sdk_calls => sdk_call, releases => release,
        );
        if let Some(s) = raw.authorization_server {
            model.authorization_server = Some(lw.authorization_server(s));
        }
        if let Some(b) = raw.error_body {
            model.error_body = Some(lw.error_body(b));
        }
        if let Some(r) = raw.rate_limits {
            model.rate_limits = Some(lw.rate_limits(r));
        }
        if let Some(r) = raw.retry {
            model.retry = Some(lw.retry(&r));
        }
        for (id, h) in &raw.headers {
            let header = lw.field(id, h, "headers");
            model.headers.push(header);
        }
        for (id, r) in &raw.responses {
            let response = lw.named_response(id, r);
            model.responses.push(response);
        }
        if let Some(p) = raw.release_policy {
            model.release_policy = Some(lw.release_policy(p));
        }
        // Shapes declared inline come after the file's own items, in the order written.
        model.resources.append(&mut lw.inline_resources);
        model.unions.append(&mut lw.inline_unions);
    }
    check_platform_block(cx, &platform_spans);
    shapes::flatten_extends(&mut model);
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
    /// Objects declared inline in this file's fields, named after their paths.
    inline_resources: Vec<Resource>,
    /// Unions written inline (`integer | string`) in this file's fields.
    inline_unions: Vec<Union>,
}

use crate::load::raw::S;

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
            [$item.rust_name.as_ref(), $item.c_name.as_ref()],
        )
    };
}

// The concern modules come after `meta!`, which they use.
mod access;
mod events;
mod gateway;
mod http;
mod platform;
mod sdk;
mod shapes;
mod timeline;
mod versioning;

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
        [rust_name, c_name]: [Option<&S<String>>; 2],
    ) -> Meta {
        Meta {
            id: id.value.clone(),
            name: name.map_or_else(|| id.value.clone(), |n| n.value.clone()),
            description: description.map(|d| d.value.trim().to_owned()).filter(|d| !d.is_empty()),
            part: self.opt_ref(part).or_else(|| self.part.clone()),
            since: self.opt_ref(since),
            until: self.opt_ref(until),
            deprecated: self.opt_ref(deprecated),
            not_shown: self.gaps(not_shown),
            assumed: assumed.iter().map(|(k, v)| (k.value.clone(), v.value.clone())).collect(),
            notes: Self::strings(notes),
            rust_name: self.opt_ref(rust_name),
            c_name: self.opt_ref(c_name),
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
            Some((kind, id)) if !kind.is_empty() && !id.is_empty() => Some(TypedRef { kind: kind.trim().to_owned(), id: id.trim().to_owned(), span }),
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
}
