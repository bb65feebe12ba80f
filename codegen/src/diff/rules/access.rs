//! Who may do what: permission bits and renames, permission rules compared as logic (tightened
//! when some caller the old rule let through is now refused), intents, token kinds and the
//! credentials an endpoint accepts.

use super::{B, C, Cx, Subject, U, pair, some};
use crate::diff::{Audiences, RuleDef, Severity};
use crate::model::*;

pub static PERMISSION_BIT_CHANGED: RuleDef = RuleDef {
    id: "permission-bit-changed",
    group: "access",
    summary: "a permission keeps its id and moves to another bit",
    kinds: &[],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "buf `ENUM_VALUE_SAME_NAME` (numbers identify values)",
};

pub static PERMISSION_RENAMED: RuleDef = RuleDef {
    id: "permission-renamed",
    group: "access",
    summary: "a permission keeps its bit under a new id",
    kinds: &["rename"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "buf `ENUM_VALUE_SAME_NAME`; TypeSpec `@renamedFrom`",
};

pub static PERMISSION_RULE_ADDED: RuleDef = RuleDef {
    id: "permission-rule-added",
    group: "access",
    summary: "a permission rule is added: callers need something they did not",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-added` (info there; a new requirement refuses callers, so an error here)",
};

pub static PERMISSION_RULE_REMOVED: RuleDef = RuleDef {
    id: "permission-rule-removed",
    group: "access",
    summary: "a permission rule is removed: fewer callers are refused, and guarded handlers lose their proof type",
    kinds: &["requirement", "removal"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-removed`",
};

pub static PERMISSION_RULE_TIGHTENED: RuleDef = RuleDef {
    id: "permission-rule-tightened",
    group: "access",
    summary: "a permission rule refuses some caller it let through",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-scope-added` (info there: the gap this rule fills)",
};

pub static PERMISSION_RULE_LOOSENED: RuleDef = RuleDef {
    id: "permission-rule-loosened",
    group: "access",
    summary: "a permission rule lets through some caller it refused, and refuses none it let through",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-scope-removed`",
};

pub static PERMISSION_RULE_ENDPOINT_ADDED: RuleDef = RuleDef {
    id: "permission-rule-endpoint-added",
    group: "access",
    summary: "a permission rule starts guarding an endpoint",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-added`",
};

pub static PERMISSION_RULE_ENDPOINT_REMOVED: RuleDef = RuleDef {
    id: "permission-rule-endpoint-removed",
    group: "access",
    summary: "a permission rule stops guarding an endpoint",
    kinds: &["requirement", "removal"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-removed`",
};

pub static INTENT_BECAME_PRIVILEGED: RuleDef = RuleDef {
    id: "intent-became-privileged",
    group: "access",
    summary: "an intent becomes privileged: apps must be approved to use it",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-scope-added`",
};

pub static TOKEN_KIND_SCHEME_CHANGED: RuleDef = RuleDef {
    id: "token-kind-scheme-changed",
    group: "access",
    summary: "a token kind is presented under another `Authorization` scheme",
    kinds: &["shape"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-component-type-changed`",
};

pub static ENDPOINT_AUTH_NARROWED: RuleDef = RuleDef {
    id: "endpoint-auth-narrowed",
    group: "access",
    summary: "an endpoint stops accepting a kind of credential it accepted",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-removed` / `api-global-security-added`",
};

pub static ENDPOINT_AUTH_WIDENED: RuleDef = RuleDef {
    id: "endpoint-auth-widened",
    group: "access",
    summary: "an endpoint accepts a kind of credential it did not",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-added` (an alternative: info)",
};

pub static ENDPOINT_SCOPE_ADDED: RuleDef = RuleDef {
    id: "endpoint-scope-added",
    group: "access",
    summary: "a bearer token needs an OAuth2 scope it did not to call an endpoint",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-scope-added` (error)",
};

pub static ENDPOINT_SCOPE_REMOVED: RuleDef = RuleDef {
    id: "endpoint-scope-removed",
    group: "access",
    summary: "a bearer token no longer needs an OAuth2 scope to call an endpoint",
    kinds: &["requirement"],
    claimable: true,
    otherwise: Severity::Info,
    anchor: "oasdiff `api-security-scope-removed` (info)",
};

/// Permissions whose id changed and bit did not: `(old id, new id)`.
pub fn renamed_permissions(old: &Model, new: &Model) -> Vec<(String, String)> {
    let p = pair(&old.permissions, &new.permissions, |p| p.meta.id.clone());
    p.removed
        .iter()
        .filter_map(|o| {
            let n = p.added.iter().find(|n| n.bit.is_some() && n.bit == o.bit)?;
            Some((o.meta.id.clone(), n.meta.id.clone()))
        })
        .collect()
}

pub fn check(cx: &mut Cx<'_>) {
    check_permissions(cx);
    check_permission_rules(cx);
    check_intents(cx);
    check_token_kinds(cx);
    check_endpoint_auth(cx);
}

/// A permission's bit is its identity on the wire and in the C header: moving it breaks every
/// stored or compiled permission set; a new id for the same bit breaks only source.
fn check_permissions(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.permissions, &new.permissions, |p| p.meta.id.clone()).both {
        if let (Some(a), Some(b)) = (o.bit, n.bit)
            && a != b
        {
            let s = Subject::item("permission", &n.meta.id, &[], Some(&o.meta), Some(&n.meta));
            cx.push(
                &PERMISSION_BIT_CHANGED,
                &s,
                Audiences::new(B, C, B),
                format!("permission `{}` moves from bit {a} to bit {b}", n.meta.id),
                some(a),
                some(b),
            );
        }
    }
    for (from, to) in renamed_permissions(old, new) {
        let (o, n) = (old.permission(&from), new.permission(&to));
        let mut s = Subject::item("permission", &to, &[format!("permission:{from}")], o.map(|p| &p.meta), n.map(|p| &p.meta));
        s.path = format!("permission:{from}");
        let bit = n.and_then(|p| p.bit).unwrap_or_default();
        let message = format!("permission `{from}` (bit {bit}) is renamed `{to}`");
        cx.push(&PERMISSION_RENAMED, &s, Audiences::new(C, B, B), message, some(&from), some(&to));
    }
}

/// The endpoints of a rule that the server routes: the ones whose handlers receive its proof.
fn routed(m: &Model, r: &PermissionRule) -> bool {
    r.endpoints.iter().any(|e| m.endpoint(&e.id).is_some_and(Endpoint::is_routed))
}

fn rule_subject(r: &PermissionRule, old: Option<&PermissionRule>, new: Option<&PermissionRule>) -> Subject {
    let outer: Vec<String> = r.endpoints.iter().map(|e| format!("endpoint:{}", e.id)).collect();
    Subject::item("permission_rule", &r.meta.id, &outer, old.map(|r| &r.meta), new.map(|r| &r.meta))
}

/// Rules are compared as logic over their atoms (permissions, conditions, intents, scopes and
/// whether the caller is a bot): tightened when some assignment the old rule grants is refused
/// by the new one, loosened when only the reverse happens.
fn check_permission_rules(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    let p = pair(&old.permission_rules, &new.permission_rules, |r| r.meta.id.clone());
    for n in &p.added {
        let s = rule_subject(n, None, Some(n));
        let rust = if routed(new, n) { B } else { U };
        cx.push(&PERMISSION_RULE_ADDED, &s, Audiences::new(B, rust, U), format!("permission rule `{}` is added", n.meta.id), None, Some(words(n)));
    }
    for o in &p.removed {
        let s = rule_subject(o, Some(o), None);
        let rust = if routed(old, o) { B } else { U };
        cx.push(&PERMISSION_RULE_REMOVED, &s, Audiences::new(C, rust, U), format!("permission rule `{}` is removed", o.meta.id), Some(words(o)), None);
    }
    for (o, n) in p.both {
        let s = rule_subject(n, Some(o), Some(n));
        let (tighter, looser) = compare(cx, o, n);
        let id = &n.meta.id;
        if tighter {
            cx.push(
                &PERMISSION_RULE_TIGHTENED,
                &s,
                Audiences::new(B, U, U),
                format!("permission rule `{id}` refuses callers it let through"),
                Some(words(o)),
                Some(words(n)),
            );
        } else if looser {
            cx.push(
                &PERMISSION_RULE_LOOSENED,
                &s,
                Audiences::new(C, U, U),
                format!("permission rule `{id}` lets through callers it refused"),
                Some(words(o)),
                Some(words(n)),
            );
        }
        let eps = pair(&o.endpoints, &n.endpoints, |e| e.id.clone());
        for e in eps.added {
            let mut s = s.child("");
            s.path = format!("permission_rule:{id}.endpoints.{}", e.id);
            s.claims.push(format!("endpoint:{}", e.id));
            let rust = if new.endpoint(&e.id).is_some_and(Endpoint::is_routed) { B } else { U };
            cx.push(
                &PERMISSION_RULE_ENDPOINT_ADDED,
                &s,
                Audiences::new(B, rust, U),
                format!("permission rule `{id}` now guards endpoint `{}`", e.id),
                None,
                some(&e.id),
            );
        }
        for e in eps.removed {
            let mut s = s.child("");
            s.path = format!("permission_rule:{id}.endpoints.{}", e.id);
            s.claims.push(format!("endpoint:{}", e.id));
            let rust = if old.endpoint(&e.id).is_some_and(Endpoint::is_routed) { B } else { U };
            cx.push(
                &PERMISSION_RULE_ENDPOINT_REMOVED,
                &s,
                Audiences::new(C, rust, U),
                format!("permission rule `{id}` no longer guards endpoint `{}`", e.id),
                some(&e.id),
                None,
            );
        }
    }
}

/// The rule in force (a projection keeps one variant) as an expression, with who it applies to.
fn in_force(r: &PermissionRule) -> Option<&Rule> {
    r.variants.first().map(|v| &v.rule)
}

/// How a rule's atoms are named on one side: a permission by its bit where it has one, so a
/// renamed permission is the same atom on both sides.
struct Names<'m>(&'m Model);

impl Names<'_> {
    fn permission(&self, id: &str) -> String {
        match self.0.permission(id).and_then(|p| p.bit) {
            Some(bit) => format!("bit:{bit}"),
            None => format!("permission:{id}"),
        }
    }
}

/// `(tightened, loosened)`.
fn compare(cx: &Cx<'_>, old: &PermissionRule, new: &PermissionRule) -> (bool, bool) {
    let (Some(a), Some(b)) = (in_force(old), in_force(new)) else { return (false, false) };
    let (na, nb) = (Names(cx.old), Names(cx.new));
    let mut atoms = vec!["caller:bot".to_owned()];
    collect_atoms(a, &na, &mut atoms);
    collect_atoms(b, &nb, &mut atoms);
    // Beyond 16 atoms the truth table gets slow; a rule that large is compared as text, and any
    // edit counts as tightening, which a change must then claim.
    if atoms.len() > 16 {
        let differs = serde_json::to_string(a).ok() != serde_json::to_string(b).ok() || old.applies_to != new.applies_to;
        return (differs, false);
    }
    let (mut tighter, mut looser) = (false, false);
    for bits in 0u32..(1 << atoms.len()) {
        let truth = |atom: &str| atoms.iter().position(|a| a == atom).is_some_and(|i| bits & (1 << i) != 0);
        let bot = truth("caller:bot");
        let grant = |r: &PermissionRule, rule: &Rule, names: &Names<'_>| !applies(&r.applies_to, bot) || eval(rule, names, &truth);
        let (was, is) = (grant(old, a, &na), grant(new, b, &nb));
        tighter |= was && !is;
        looser |= is && !was;
    }
    (tighter, looser)
}

fn applies(to: &str, bot: bool) -> bool {
    match to {
        "bots" => bot,
        "users" => !bot,
        _ => true,
    }
}

fn collect_atoms(rule: &Rule, names: &Names<'_>, out: &mut Vec<String>) {
    let mut add = |a: String| {
        if !out.contains(&a) {
            out.push(a);
        }
    };
    rule.walk(&mut |r| match r {
        Rule::Permission(p) => add(names.permission(&p.id)),
        Rule::Intent(i) => add(format!("intent:{}", i.id)),
        Rule::Scope(s) => add(format!("scope:{}", s.id)),
        Rule::When { when, .. } | Rule::Condition(when) => add(cond_atom(when)),
        Rule::All(_) | Rule::Any(_) => {}
    });
}

fn cond_atom(c: &Cond) -> String {
    let (id, arg) = c.named();
    match arg {
        Some(arg) => format!("condition:{}({arg})", id.id),
        None => format!("condition:{}", id.id),
    }
}

fn eval_cond(c: &Cond, truth: &dyn Fn(&str) -> bool) -> bool {
    match c {
        Cond::Not(inner) => !eval_cond(inner, truth),
        Cond::Named { .. } => truth(&cond_atom(c)),
    }
}

fn eval(rule: &Rule, names: &Names<'_>, truth: &dyn Fn(&str) -> bool) -> bool {
    match rule {
        Rule::Permission(p) => truth(&names.permission(&p.id)),
        Rule::Intent(i) => truth(&format!("intent:{}", i.id)),
        Rule::Scope(s) => truth(&format!("scope:{}", s.id)),
        Rule::All(rules) => rules.iter().all(|r| eval(r, names, truth)),
        Rule::Any(rules) => rules.iter().any(|r| eval(r, names, truth)),
        Rule::Condition(c) => eval_cond(c, truth),
        Rule::When { when, then, otherwise } => {
            if eval_cond(when, truth) {
                eval(then, names, truth)
            } else {
                otherwise.as_ref().is_none_or(|o| eval(o, names, truth))
            }
        }
    }
}

/// A rule in short words: `all(EDIT_WIDGET, when not caller_owns_widget then VIEW_WIDGET)`.
fn words(r: &PermissionRule) -> String {
    let rule = in_force(r).map_or_else(|| "nothing".to_owned(), rule_words);
    match r.applies_to.as_str() {
        "all" => rule,
        to => format!("{rule} (for {to})"),
    }
}

fn rule_words(rule: &Rule) -> String {
    let list = |rules: &[Rule]| rules.iter().map(rule_words).collect::<Vec<_>>().join(", ");
    match rule {
        Rule::Permission(p) => p.id.clone(),
        Rule::Intent(i) => format!("intent {}", i.id),
        Rule::Scope(s) => format!("scope {}", s.id),
        Rule::All(rules) => format!("all({})", list(rules)),
        Rule::Any(rules) => format!("any({})", list(rules)),
        Rule::Condition(c) => cond_words(c),
        Rule::When { when, then, otherwise } => match otherwise {
            Some(o) => format!("when {} then {} else {}", cond_words(when), rule_words(then), rule_words(o)),
            None => format!("when {} then {}", cond_words(when), rule_words(then)),
        },
    }
}

fn cond_words(c: &Cond) -> String {
    match c {
        Cond::Not(inner) => format!("not {}", cond_words(inner)),
        Cond::Named { condition, arg: Some(arg) } => format!("{}({arg})", condition.id),
        Cond::Named { condition, arg: None } => condition.id.clone(),
    }
}

/// An intent that becomes privileged needs approval the app may not have.
fn check_intents(cx: &mut Cx<'_>) {
    for (o, n) in pair(&cx.old.intents, &cx.new.intents, |i| i.meta.id.clone()).both {
        if !o.privileged && n.privileged {
            let s = Subject::item("intent", &n.meta.id, &[], Some(&o.meta), Some(&n.meta));
            cx.push(
                &INTENT_BECAME_PRIVILEGED,
                &s,
                Audiences::new(B, U, U),
                format!("intent `{}` becomes privileged", n.meta.id),
                some("not privileged"),
                some("privileged"),
            );
        }
    }
}

fn check_token_kinds(cx: &mut Cx<'_>) {
    for (o, n) in pair(&cx.old.token_kinds, &cx.new.token_kinds, |k| k.meta.id.clone()).both {
        if o.scheme.is_some() && o.scheme != n.scheme {
            let s = Subject::item("token_kind", &n.meta.id, &[], Some(&o.meta), Some(&n.meta));
            let message = format!("token kind `{}` is presented under another scheme", n.meta.id);
            cx.push(&TOKEN_KIND_SCHEME_CHANGED, &s, Audiences::new(B, C, U), message, o.scheme.clone(), n.scheme.clone());
        }
    }
}

/// The credentials an endpoint accepts: its `auth` list, where an empty list accepts every
/// token kind of the spec.
fn accepted(m: &Model, e: &Endpoint) -> Vec<String> {
    if e.auth.is_empty() { m.token_kinds.iter().map(|k| k.meta.id.clone()).collect() } else { e.auth.iter().map(|r| r.id.clone()).collect() }
}

fn check_endpoint_auth(cx: &mut Cx<'_>) {
    for (o, n) in pair(&cx.old.endpoints, &cx.new.endpoints, |e| e.meta.id.clone()).both {
        let (was, is) = (accepted(cx.old, o), accepted(cx.new, n));
        let lost: Vec<&String> = was.iter().filter(|k| !is.contains(k)).collect();
        let gained: Vec<&String> = is.iter().filter(|k| !was.contains(k)).collect();
        let s = Subject::item("endpoint", &n.meta.id, &[], Some(&o.meta), Some(&n.meta)).child(".auth");
        let (old_v, new_v) = (some(was.join(", ")), some(is.join(", ")));
        let id = &n.meta.id;
        // Accepting anonymous calls or not changes the caller a handler gets (`Option<Caller>`).
        let rust = if o.accepts_anonymous() == n.accepts_anonymous() { C } else { B };
        if !lost.is_empty() {
            let message = format!("endpoint `{id}` stops accepting {}", ticks(&lost));
            cx.push(&ENDPOINT_AUTH_NARROWED, &s, Audiences::new(B, rust, U), message, old_v, new_v);
        } else if !gained.is_empty() {
            let message = format!("endpoint `{id}` also accepts {}", ticks(&gained));
            cx.push(&ENDPOINT_AUTH_WIDENED, &s, Audiences::new(C, rust, U), message, old_v, new_v);
        }
        check_endpoint_scopes(cx, o, n);
    }
}

/// The OAuth2 scopes a bearer token must hold to call an endpoint.
fn check_endpoint_scopes(cx: &mut Cx<'_>, o: &Endpoint, n: &Endpoint) {
    let ids = |e: &Endpoint| e.scopes.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
    let (was, is) = (ids(o), ids(n));
    let gained: Vec<&String> = is.iter().filter(|k| !was.contains(k)).collect();
    let lost: Vec<&String> = was.iter().filter(|k| !is.contains(k)).collect();
    let s = Subject::item("endpoint", &n.meta.id, &[], Some(&o.meta), Some(&n.meta)).child(".scopes");
    let (old_v, new_v) = (some(was.join(", ")), some(is.join(", ")));
    let id = &n.meta.id;
    if !gained.is_empty() {
        let message = format!("endpoint `{id}` needs scope {} of bearer tokens", ticks(&gained));
        cx.push(&ENDPOINT_SCOPE_ADDED, &s, Audiences::new(B, U, U), message, old_v.clone(), new_v.clone());
    }
    if !lost.is_empty() {
        let message = format!("endpoint `{id}` no longer needs scope {} of bearer tokens", ticks(&lost));
        cx.push(&ENDPOINT_SCOPE_REMOVED, &s, Audiences::new(C, U, U), message, old_v, new_v);
    }
}

fn ticks(list: &[&String]) -> String {
    list.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
}
