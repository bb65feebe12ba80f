//! The platform as a whole: limits (the values constraints refer to), named constants, and the
//! prefixes every generated name carries.

use super::{B, C, Cx, Subject, U, pair, some};
use crate::diff::Audiences;
use crate::plan::idents::stem_of;

rule!(
    "platform",
    LIMIT_DECREASED,
    "limit-decreased",
    "a limit accepts less: its maximum decreases or its minimum increases",
    ["requirement", "behavior", "shape"],
    "oasdiff `request-property-max-decreased` (for every field bounded by the limit)"
);
rule!(
    "platform",
    LIMIT_INCREASED,
    "limit-increased",
    "a limit accepts more: its maximum increases or its minimum decreases",
    ["requirement", "behavior", "shape"],
    "oasdiff `request-property-max-increased` (info)"
);
rule!("platform", LIMIT_UNIT_CHANGED, "limit-unit-changed", "a limit is counted in another unit", ["shape"], "smithy-diff `ChangedRangeTrait`");
rule!(
    "platform",
    CONSTANT_VALUE_CHANGED,
    "constant-value-changed",
    "a named constant gets another value",
    ["shape", "behavior"],
    "buf `FIELD_SAME_DEFAULT` (a value both sides read changes meaning; no Rust lint sees it: the `const` keeps its type)"
);
rule!(
    "platform",
    PREFIX_CHANGED,
    "prefix-changed",
    "a naming prefix of the generated artifacts changes (C names, C++ namespace, header names; the C type prefix names the Rust crates too)",
    ["rename"],
    "cargo-semver-checks `struct_missing` (every C name moves; every Rust path, when the crates are renamed)"
);

pub fn check(cx: &mut Cx<'_>) {
    check_limits(cx);
    check_constants(cx);
    check_prefixes(cx);
}

/// Limits are compared by their literal values at this point (earlier values resolved by the
/// projection); fields bounded by a limit are not reported again.
fn check_limits(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.limits, &new.limits, |l| l.meta.id.clone()).both {
        let id = &n.meta.id;
        let s = Subject::item("limit", id, &[], Some(&o.meta), Some(&n.meta));
        if o.unit.id != n.unit.id {
            cx.push(
                &LIMIT_UNIT_CHANGED,
                &s.child(".unit"),
                Audiences::new(B, C, B),
                format!("limit `{id}` is counted in another unit"),
                some(&o.unit.id),
                some(&n.unit.id),
            );
            continue;
        }
        let unit = &n.unit.id;
        let show = |v: Option<i64>| v.map(|v| format!("{v} {unit}"));
        let (ou, nu, ol, nl) = (o.upper(), n.upper(), o.lower(), n.lower());
        let tighter = matches!((ou, nu), (Some(a), Some(b)) if b < a) || matches!((ol, nl), (Some(a), Some(b)) if b > a);
        let looser = matches!((ou, nu), (Some(a), Some(b)) if b > a) || matches!((ol, nl), (Some(a), Some(b)) if b < a);
        let (before, after) = if ou != nu { (show(ou), show(nu)) } else { (show(ol), show(nl)) };
        if tighter {
            cx.push(&LIMIT_DECREASED, &s, Audiences::new(B, C, C), format!("limit `{id}` accepts less"), before, after);
        } else if looser {
            cx.push(&LIMIT_INCREASED, &s, Audiences::new(C, C, C), format!("limit `{id}` accepts more"), before, after);
        }
    }
}

fn check_constants(cx: &mut Cx<'_>) {
    let (old, new) = (cx.old, cx.new);
    for (o, n) in pair(&old.constants, &new.constants, |c| c.meta.id.clone()).both {
        if o.value != n.value {
            let id = &n.meta.id;
            let s = Subject::item("constant", id, &[], Some(&o.meta), Some(&n.meta));
            let show = |v: &crate::load::raw::ConstantValue| serde_json::to_string(v).ok();
            cx.push(&CONSTANT_VALUE_CHANGED, &s, Audiences::new(B, U, B), format!("constant `{id}` changes value"), show(&o.value), show(&n.value));
        }
    }
}

fn check_prefixes(cx: &mut Cx<'_>) {
    let (a, b) = (&cx.old.platform.prefixes, &cx.new.platform.prefixes);
    let pairs = [
        ("c_type", &a.c_type, &b.c_type),
        ("c_macro", &a.c_macro, &b.c_macro),
        ("cpp_namespace", &a.cpp_namespace, &b.cpp_namespace),
        ("c_header", &a.c_header, &b.c_header),
        ("cpp_header", &a.cpp_header, &b.cpp_header),
    ];
    for (key, o, n) in pairs {
        if o != n {
            let mut s = Subject::new(format!("platform.prefixes.{key}"), &[]);
            s.old_span = Some(cx.old.platform.span);
            s.new_span = Some(cx.new.platform.span);
            // The crates are named after the C type prefix: another stem is other crates.
            let rust = if key == "c_type" && stem_of(o) != stem_of(n) { B } else { U };
            cx.push(&PREFIX_CHANGED, &s, Audiences::new(U, rust, B), format!("the prefix `{key}` changes"), some(o), some(n));
        }
    }
}
