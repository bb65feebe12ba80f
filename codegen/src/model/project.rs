//! The platform as of one point of its timeline: [`project()`] is a pure function from the model
//! (every item with its `since` / `until` / `deprecated`, every dated variant) to the model as
//! it is on one day.
//!
//! This is TypeSpec's projection with dates as the version axis. `--as-of DATE` publishes the
//! docs and OpenAPI document of a given day with it, and `diff` compares two specs day by day
//! through it, so a change bounded by a dated entry shows up on the day the entry takes effect.

use super::*;
use super::{Index, KINDS};
use serde::Serialize;
use std::fmt;

/// A point of the timeline.
///
/// Changes `already_in_effect` are in effect everywhere; `unscheduled` ones nowhere, since no
/// date is known for them yet. [`At::Start`] comes before every dated change, [`At::Date`]
/// is 00:00 UTC of a day (a change dated that day is in effect), [`At::End`] comes after every
/// dated change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum At {
    /// Before every dated change: only changes already in effect apply.
    Start,
    /// 00:00 UTC of a day.
    Date(jiff::civil::Date),
    /// After every dated change.
    End,
}

impl At {
    /// Whether a change taking effect at `e` is in effect at this point.
    pub fn sees(self, e: Effective) -> bool {
        match (e, self) {
            (Effective::AlreadyInEffect, _) => true,
            (Effective::Unscheduled, _) => false,
            (Effective::Date(d), At::Date(at)) => d <= at,
            (Effective::Date(_), At::Start) => false,
            (Effective::Date(_), At::End) => true,
        }
    }

    /// The point a change takes effect: `None` for `unscheduled`.
    pub fn of(e: Effective) -> Option<At> {
        match e {
            Effective::AlreadyInEffect => Some(At::Start),
            Effective::Date(d) => Some(At::Date(d)),
            Effective::Unscheduled => None,
        }
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Start => f.write_str("already in effect"),
            At::Date(d) => write!(f, "{d}"),
            At::End => f.write_str("after every dated change"),
        }
    }
}

impl Serialize for At {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            At::Start => s.serialize_str("already_in_effect"),
            At::Date(d) => s.serialize_str(&d.to_string()),
            At::End => s.serialize_str("after_every_dated_change"),
        }
    }
}

/// The model as it is at `at`.
///
/// - Items (and fields) whose `since` change is not yet in effect, or whose `until` change is,
///   are absent.
/// - Each permission rule keeps the one variant in force, without bounds.
/// - A limit has the value it has at `at`: an earlier value still in force replaces the
///   current one, and only the values that ended before `at` stay as its history.
/// - Only changes in effect at `at` remain: the projection knows nothing of the future, so a
///   `deprecated` or `until` naming a later change is dropped with it.
/// - References from lists (`affects`, `refs`, `endpoints`, ...) to absent items are dropped.
pub fn project(model: &Model, at: At) -> Model {
    let mut m = model.clone();
    let live = |id: &str| model.change(id).is_none_or(|c| at.sees(c.effective));
    let present = |meta: &Meta| meta.since.as_ref().is_none_or(|s| live(&s.id)) && meta.until.as_ref().is_none_or(|u| !live(&u.id));
    items(&mut m, &present);
    fields(&mut m, &|f: &Field| f.since.as_ref().is_none_or(|s| live(&s.id)) && f.until.as_ref().is_none_or(|u| !live(&u.id)));
    for rule in &mut m.permission_rules {
        resolve_variants(rule, &live);
    }
    for limit in &mut m.limits {
        resolve_limit(model, limit, at);
    }
    m.changes.retain(|c| at.sees(c.effective));
    forget_future(&mut m, &live);
    drop_dangling(&mut m);
    m
}

/// Keeps the items present at the point, nested items included.
fn items(m: &mut Model, present: &dyn Fn(&Meta) -> bool) {
    macro_rules! retain {
        ($($list:expr),* $(,)?) => {{ $($list.retain(|x| present(Item::meta(x)));)* }};
    }
    retain!(
        m.platform.placeholders,
        m.platform.parts,
        m.features,
        m.constants,
        m.gaps,
        m.permissions,
        m.resources,
        m.unions,
        m.enums,
        m.flags,
        m.endpoints,
        m.opcodes,
        m.commands,
        m.conditions,
        m.intents,
        m.scopes,
        m.scope_sets,
        m.token_kinds,
        m.permission_rules,
        m.auth_rules,
        m.events,
        m.webhooks,
        m.gateways,
        m.errors,
        m.limits,
        m.state_machines,
        m.classes,
        m.sdk_calls,
        m.releases,
    );
    m.enums.iter_mut().for_each(|e| retain!(e.values));
    m.flags.iter_mut().for_each(|f| retain!(f.values));
    m.resources.iter_mut().for_each(|r| retain!(r.cases));
    m.events.iter_mut().for_each(|e| retain!(e.cases));
    m.endpoints.iter_mut().for_each(|e| retain!(e.behaviours, e.aliases));
    m.commands.iter_mut().for_each(|c| retain!(c.aliases));
    for s in &mut m.state_machines {
        retain!(s.states, s.transitions);
        s.transitions.iter_mut().for_each(|t| retain!(t.effects));
    }
    m.classes.iter_mut().for_each(|c| retain!(c.methods));
    m.releases.iter_mut().for_each(|r| retain!(r.toolkits));
}

/// Keeps the fields present at the point, in every list of fields (union variants and
/// response headers included).
fn fields(m: &mut Model, present: &dyn Fn(&Field) -> bool) {
    for e in &mut m.endpoints {
        if e.body_schema.as_ref().is_some_and(|b| !present(b)) {
            e.body_schema = None;
        }
        for r in &mut e.responses {
            if let ResponseUse::Inline(r) = &mut r.response {
                r.headers.retain(|h| !matches!(&h.header, HeaderUse::Inline(f) if !present(f)));
            }
        }
    }
    for r in &mut m.responses {
        r.response.headers.retain(|h| !matches!(&h.header, HeaderUse::Inline(f) if !present(f)));
    }
    for list in field_lists(m) {
        list.retain(present);
    }
}

/// Every list of fields of the model: objects' fields, endpoint parameters, bodies and
/// responses, union variants, named headers.
fn field_lists(m: &mut Model) -> Vec<&mut Vec<Field>> {
    let mut lists: Vec<&mut Vec<Field>> = Vec::new();
    for r in &mut m.resources {
        lists.push(&mut r.fields);
    }
    for u in &mut m.unions {
        lists.push(&mut u.variants);
    }
    for e in &mut m.endpoints {
        lists.extend([&mut e.path_params, &mut e.query, &mut e.headers, &mut e.body, &mut e.parts, &mut e.response_fields, &mut e.response_columns]);
        for r in &mut e.responses {
            if let ResponseUse::Inline(r) = &mut r.response {
                lists.push(&mut r.fields);
            }
        }
    }
    for r in &mut m.responses {
        lists.push(&mut r.response.fields);
    }
    lists.push(&mut m.headers);
    for o in &mut m.opcodes {
        lists.push(&mut o.fields);
    }
    for e in &mut m.events {
        lists.push(&mut e.fields);
    }
    for c in &mut m.classes {
        lists.push(&mut c.fields);
    }
    if let Some(b) = &mut m.error_body {
        lists.push(&mut b.fields);
    }
    lists
}

/// The variant in force, without bounds (the first one if the spec's variants do not tile the
/// timeline, which validation reports).
fn resolve_variants(rule: &mut PermissionRule, live: &dyn Fn(&str) -> bool) {
    let in_force =
        rule.variants.iter().position(|v| v.since.as_ref().is_none_or(|s| live(&s.id)) && v.until.as_ref().is_none_or(|u| !live(&u.id))).unwrap_or(0);
    if rule.variants.is_empty() {
        return;
    }
    let mut variant = rule.variants.swap_remove(in_force);
    variant.since = None;
    variant.until = None;
    rule.variants = vec![variant];
}

/// The limit's value at the point: the earliest earlier value whose end is not yet in effect
/// replaces the literal upper bound; ended values stay as history.
fn resolve_limit(model: &Model, limit: &mut Limit, at: At) {
    let effective = |p: &PreviousValue| model.change(&p.until.id).map_or(Effective::AlreadyInEffect, |c| c.effective);
    let mut previous = std::mem::take(&mut limit.previous);
    previous.sort_by_key(|p| effective(p));
    let (ended, pending): (Vec<_>, Vec<_>) = previous.into_iter().partition(|p| at.sees(effective(p)));
    limit.previous = ended;
    let Some(first) = pending.first() else { return };
    for bound in [&mut limit.value, &mut limit.max] {
        if let Some(Bound::Value(_, v)) = bound {
            *v = first.value;
            return;
        }
    }
}

/// Drops `deprecated` and `until` naming changes not yet in effect: the projection does not
/// know them.
fn forget_future(m: &mut Model, live: &dyn Fn(&str) -> bool) {
    let forget = |r: &mut Option<Ref>| {
        if r.as_ref().is_some_and(|c| !live(&c.id)) {
            *r = None;
        }
    };
    for_each_meta(m, &mut |meta| {
        forget(&mut meta.deprecated);
        forget(&mut meta.until);
    });
    for_each_field(m, &mut |f| {
        forget(&mut f.deprecated);
        forget(&mut f.until);
    });
}

/// Drops references in lists to items the projection left out.
fn drop_dangling(m: &mut Model) {
    let index = Index::build(m);
    let typed = |list: &mut Vec<TypedRef>| list.retain(|r| !KINDS.contains(&r.kind.as_str()) || index.has(&r.kind, &r.id));
    m.changes.iter_mut().for_each(|c| typed(&mut c.affects));
    m.features.iter_mut().for_each(|f| typed(&mut f.refs));
    m.gaps.iter_mut().for_each(|g| typed(&mut g.refs));
    m.auth_rules.iter_mut().for_each(|r| typed(&mut r.refs));
    m.limits.iter_mut().for_each(|l| typed(&mut l.refs));
    m.classes.iter_mut().for_each(|c| typed(&mut c.used_by));
    m.sdk_calls.iter_mut().for_each(|c| typed(&mut c.refs));
    let plain = |list: &mut Vec<Ref>, kind: &str| list.retain(|r| index.has(kind, &r.id));
    m.permission_rules.iter_mut().for_each(|r| plain(&mut r.endpoints, "endpoint"));
    m.errors.iter_mut().for_each(|e| plain(&mut e.endpoints, "endpoint"));
    m.scope_sets.iter_mut().for_each(|s| plain(&mut s.scopes, "scope"));
    m.commands.iter_mut().for_each(|c| plain(&mut c.scopes, "scope"));
    m.endpoints.iter_mut().for_each(|e| plain(&mut e.auth, "token_kind"));
    m.webhooks.iter_mut().for_each(|w| w.events.retain(|e| index.has("event", &e.event.id)));
    m.gateways.iter_mut().for_each(|g| g.events.retain(|e| index.has("event", &e.event.id)));
    m.gateways.iter_mut().for_each(|g| plain(&mut g.commands, "opcode"));
    for r in &mut m.resources {
        keep_case_fields(&mut r.cases, &r.fields);
    }
    for e in &mut m.events {
        keep_case_fields(&mut e.cases, &e.fields);
    }
}

/// Drops what a case says of fields its object no longer has, and cases left saying nothing.
fn keep_case_fields(cases: &mut Vec<Case>, fields: &[Field]) {
    cases.retain_mut(|case| {
        let before = case.fields.len();
        case.fields.retain(|cf| fields.iter().any(|f| f.name == cf.field.id));
        before == 0 || !case.fields.is_empty()
    });
}

/// Visits the common fields of every item, nested items included.
fn for_each_meta(m: &mut Model, f: &mut dyn FnMut(&mut Meta)) {
    macro_rules! each {
        ($($list:expr),* $(,)?) => {{ $(for x in $list.iter_mut() { f(&mut x.meta); })* }};
    }
    each!(
        m.platform.placeholders,
        m.platform.parts,
        m.features,
        m.constants,
        m.gaps,
        m.permissions,
        m.resources,
        m.unions,
        m.enums,
        m.flags,
        m.endpoints,
        m.opcodes,
        m.commands,
        m.conditions,
        m.intents,
        m.scopes,
        m.scope_sets,
        m.token_kinds,
        m.permission_rules,
        m.auth_rules,
        m.events,
        m.webhooks,
        m.gateways,
        m.errors,
        m.limits,
        m.changes,
        m.state_machines,
        m.classes,
        m.sdk_calls,
        m.releases,
    );
    for e in &mut m.enums {
        each!(e.values);
    }
    for r in &mut m.resources {
        each!(r.cases);
    }
    for e in &mut m.events {
        each!(e.cases);
    }
    for x in &mut m.flags {
        each!(x.values);
    }
    for e in &mut m.endpoints {
        each!(e.behaviours, e.aliases);
    }
    for c in &mut m.commands {
        each!(c.aliases);
    }
    for s in &mut m.state_machines {
        each!(s.states, s.transitions);
        for t in &mut s.transitions {
            each!(t.effects);
        }
    }
    for c in &mut m.classes {
        each!(c.methods);
    }
    for r in &mut m.releases {
        each!(r.toolkits);
    }
}

/// Visits every field of the model.
fn for_each_field(m: &mut Model, f: &mut dyn FnMut(&mut Field)) {
    for e in &mut m.endpoints {
        if let Some(b) = &mut e.body_schema {
            f(b);
        }
        for r in &mut e.responses {
            if let ResponseUse::Inline(r) = &mut r.response {
                inline_headers(&mut r.headers, f);
            }
        }
    }
    for r in &mut m.responses {
        inline_headers(&mut r.response.headers, f);
    }
    for list in field_lists(m) {
        list.iter_mut().for_each(&mut *f);
    }
}

/// Visits the headers of a response written inline.
fn inline_headers(headers: &mut [ResponseHeader], f: &mut dyn FnMut(&mut Field)) {
    for h in headers {
        if let HeaderUse::Inline(field) = &mut h.header {
            f(field);
        }
    }
}

/// Every point at which some change of `models` takes effect, with [`At::Start`] and
/// [`At::End`]: between two consecutive points nothing changes.
pub fn points<'m>(models: impl IntoIterator<Item = &'m Model>) -> Vec<At> {
    let mut out = vec![At::Start, At::End];
    for m in models {
        out.extend(m.changes.iter().filter_map(|c| At::of(c.effective)));
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> Model {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/minimal");
        crate::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("the fixture spec is invalid")).model
    }

    fn date(text: &str) -> At {
        At::Date(text.parse().expect("a date"))
    }

    #[test]
    fn items_appear_and_rules_switch_on_their_dates() {
        let m = fixture();
        let before = project(&m, date("2029-12-31"));
        let after = project(&m, date("2030-01-01"));
        let rule = |m: &Model| serde_json::to_string(&m.permission_rules[0].variants[0].rule).expect("a rule serializes");
        assert_eq!(before.permission_rules[0].variants.len(), 1);
        assert_ne!(rule(&before), rule(&after), "the edit rule switches on 2030-01-01");
        let behaviours = |m: &Model| m.endpoints.iter().flat_map(|e| &e.behaviours).filter(|b| b.meta.id == "hide_archived").count();
        assert_eq!(behaviours(&project(&m, date("2030-05-31"))), 0);
        assert_eq!(behaviours(&project(&m, date("2030-06-01"))), 1);
        assert!(project(&m, At::Start).changes.iter().all(|c| c.effective == Effective::AlreadyInEffect));
    }

    #[test]
    fn a_limit_has_its_earlier_value_before_the_change() {
        let m = fixture();
        let value = |at| project(&m, at).limit("label_length").and_then(Limit::upper);
        assert_eq!(value(date("2024-12-31")), Some(16));
        assert_eq!(value(date("2025-01-01")), Some(32));
        assert!(project(&m, date("2024-12-31")).limit("label_length").is_some_and(|l| l.previous.is_empty()));
    }

    /// A spec written out to a temporary directory, loaded.
    fn spec(yaml: &str) -> Model {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(dir.path().join("spec.yaml"), yaml).expect("write the spec");
        crate::load_spec(dir.path(), "spec").unwrap_or_else(|e| panic!("the spec is invalid: {e:?}")).model
    }

    #[test]
    fn union_variants_statuses_and_headers_follow_their_dates() {
        let m = spec(
            r#"
platform: { name: T, prefixes: { c_type: T_, c_macro: T_, cpp_namespace: t, c_header: t.h, cpp_header: t.hpp } }
unions:
  - id: nonce
    variants:
      integer: { type: integer }
      flag: { type: boolean, since: nonce-flag }
endpoints:
  - id: get_widget
    method: GET
    path: /widget
    headers:
      locale: { wire_name: X-Locale, type: string, optional: true, until: locale-dropped }
    responses:
      200:
        type: union<nonce>
        headers:
          total: { wire_name: X-Total-Count, type: integer, since: nonce-flag }
changes:
  - { id: nonce-flag, effective: 2030-01-01, kind: addition, summary: A nonce may be a flag. }
  - { id: locale-dropped, effective: 2031-01-01, kind: removal, summary: The locale header is no longer read. }
"#,
        );
        let variants = |at| project(&m, at).unions[0].variants.iter().map(|v| v.name.clone()).collect::<Vec<_>>();
        assert_eq!(variants(date("2029-12-31")), ["integer"]);
        assert_eq!(variants(date("2030-01-01")), ["integer", "flag"]);
        let headers = |at| {
            let p = project(&m, at);
            let e = &p.endpoints[0];
            let ResponseUse::Inline(r) = &e.responses[0].response else { panic!("an inline response") };
            (e.headers.len(), r.headers.len())
        };
        assert_eq!(headers(date("2029-12-31")), (1, 0));
        assert_eq!(headers(date("2030-06-01")), (1, 1));
        assert_eq!(headers(date("2031-01-01")), (0, 1));
    }
}
