//! SDK surfaces: embedded-app commands renamed with their former names kept as aliases,
//! aliases removed, the scopes commands need, and social SDK call signatures.

use super::{B, C, Cx, Subject, U, items::ITEM_ADDED, pair, renamed_commands, some};
use crate::diff::Audiences;

rule!(
    "sdk",
    COMMAND_RENAMED,
    "command-renamed",
    "a command gets a new id and keeps its former name as an alias",
    ["rename"],
    Info,
    "TypeSpec `@renamedFrom`; buf `FIELD_SAME_NAME` (the name is what callers send)"
);
rule!(
    "sdk",
    ALIAS_REMOVED,
    "alias-removed",
    "a former name of a command stops being accepted before its `until`",
    ["removal"],
    Info,
    "oasdiff `api-removed-before-sunset`"
);
rule!("sdk", COMMAND_SCOPE_ADDED, "command-scope-added", "a command needs a scope it did not", ["requirement"], Info, "oasdiff `api-security-scope-added`");
rule!(
    "sdk",
    SDK_CALL_SIGNATURE_CHANGED,
    "sdk-call-signature-changed",
    "a social SDK call changes its C++ signature",
    ["shape", "rename"],
    Info,
    "cargo-semver-checks `function_parameter_count_changed` (for the C and C++ ABI)"
);

pub fn check(cx: &mut Cx<'_>) {
    check_renames(cx);
    check_aliases(cx);
    check_scopes(cx);
    check_calls(cx);
}

/// A rename that keeps the former name as an alias is compatible on the wire (the alias is
/// accepted); the Rust enum loses the former variant. Commands are not part of the C ABI.
fn check_renames(cx: &mut Cx<'_>) {
    for (from, to) in renamed_commands(cx.old, cx.new) {
        let (o, n) = (cx.old.commands.iter().find(|c| c.meta.id == from), cx.new.commands.iter().find(|c| c.meta.id == to));
        let mut s = Subject::item("command", &from, &[format!("command:{to}")], o.map(|c| &c.meta), n.map(|c| &c.meta));
        s.claims.push(format!("command:{from}"));
        let message = format!("command `{from}` is renamed `{to}`; its former name stays as an alias");
        cx.push(&COMMAND_RENAMED, &s, Audiences::new(C, B, U), message, some(&from), some(&to));
    }
}

fn check_aliases(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.commands, &new.commands, |c| c.meta.id.clone()).both {
        let id = &n.meta.id;
        let outer = [format!("command:{id}")];
        let p = pair(&o.aliases, &n.aliases, |a| a.meta.id.clone());
        for a in p.removed {
            let s = Subject::item("command", &format!("{id}.aliases.{}", a.meta.id), &outer, Some(&a.meta), None);
            let message = format!("command `{id}` no longer accepts its former name `{}`", a.meta.name);
            cx.push(&ALIAS_REMOVED, &s, Audiences::new(B, B, U), message, some(&a.meta.name), None);
        }
        for a in p.added {
            let s = Subject::item("command", &format!("{id}.aliases.{}", a.meta.id), &outer, None, Some(&a.meta));
            let message = format!("command `{id}` also accepts `{}`", a.meta.name);
            cx.push(&ITEM_ADDED, &s, Audiences::new(C, C, U), message, None, some(&a.meta.name));
        }
    }
}

fn check_scopes(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.commands, &new.commands, |c| c.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = Subject::item("command", id, &[], Some(&o.meta), Some(&n.meta));
        for scope in pair(&o.scopes, &n.scopes, |r| r.id.clone()).added {
            let mut s = s.child(&format!(".scopes.{}", scope.id));
            s.claims.push(format!("scope:{}", scope.id));
            cx.push(&COMMAND_SCOPE_ADDED, &s, Audiences::new(B, U, U), format!("command `{id}` needs scope `{}`", scope.id), None, some(&scope.id));
        }
    }
}

fn check_calls(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.sdk_calls, &new.sdk_calls, |c| c.meta.id.clone()).both {
        if o.signature != n.signature {
            let id = &n.meta.id;
            let s = Subject::item("sdk_call", id, &[], Some(&o.meta), Some(&n.meta));
            cx.push(
                &SDK_CALL_SIGNATURE_CHANGED,
                &s.child(".signature"),
                Audiences::new(U, U, B),
                format!("SDK call `{id}` changes signature"),
                some(&o.signature),
                some(&n.signature),
            );
        }
    }
}
