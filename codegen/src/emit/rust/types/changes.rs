//! `changes.rs` (the timeline as constants with gates) and `limits.rs` (limits as typed
//! constants).

use super::docs::{docs, meta_notes};
use crate::emit::rust::shared::{int, lib_ident};
use crate::model::{Bound, Change, Effective, Limit};
use crate::plan::rust::{Plan, names};
use proc_macro2::TokenStream;
use quote::quote;

/// The units of the spec format, in its order, with what each counts.
const UNITS: &[(&str, &str)] = &[
    ("bytes", "Bytes."),
    ("KiB", "Kibibytes (1024 bytes)."),
    ("MiB", "Mebibytes (1024 KiB)."),
    ("GiB", "Gibibytes (1024 MiB)."),
    ("characters", "Characters (Unicode scalar values)."),
    ("items", "Items of a list."),
    ("files", "Files."),
    ("commands", "Commands."),
    ("members", "Members."),
    ("users", "Users."),
    ("messages", "Messages."),
    ("uses", "Uses."),
    ("hours", "Hours."),
    ("years", "Years."),
    ("minor_versions", "Minor versions."),
    ("versions", "Versions."),
];

/// `changes.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let consts = plan.changes.iter().map(|c| change_const(plan, c));
    let all = plan.changes.iter().map(names::change_const);
    quote! {
        //! The dated changes of the spec, one constant each, with gates to ask at an instant.
        //!
        //! A date-only effective date means 00:00 UTC that day.

        pub use #runtime::timeline::{Change, ChangeKind, Effective};

        #(#consts)*

        /// Every change, in spec order.
        pub const ALL: &[&Change] = &[#(&#all),*];

        /// The change with this id.
        pub fn by_id(id: &str) -> Option<&'static Change> {
            ALL.iter().copied().find(|c| c.id == id)
        }
    }
}

fn change_const(plan: &Plan, c: &Change) -> TokenStream {
    let name = names::change_const(c);
    let id = &c.meta.id;
    let summary = &c.summary;
    let kind = names::change_kind_variant(&c.kind.id);
    let gate = c.gate;
    let (effective, when) = match c.effective {
        Effective::AlreadyInEffect => (quote!(Effective::AlreadyInEffect), "Already in effect.".to_owned()),
        Effective::Unscheduled => (quote!(Effective::Unscheduled), "Unscheduled: not in effect yet.".to_owned()),
        Effective::Date(d) => {
            let seconds = d.to_zoned(jiff::tz::TimeZone::UTC).map(|z| z.timestamp().as_second()).expect("BUG: a civil date is a valid instant");
            let seconds = int(seconds);
            (quote!(Effective::At(jiff::Timestamp::constant(#seconds, 0))), format!("In effect from {d}T00:00:00Z."))
        }
    };
    let mut notes = vec![when, format!("Kind: `{}`.", c.kind.id)];
    notes.extend(c.affects.iter().map(|a| format!("Affects `{}:{}`.", a.kind, a.id)));
    notes.extend(meta_notes(plan, &c.meta));
    let doc = docs(Some(summary), &notes);
    quote! {
        #doc
        pub const #name: Change = Change { id: #id, effective: #effective, kind: ChangeKind::#kind, summary: #summary, gate: #gate };
    }
}

/// `limits.rs`.
pub fn limits(plan: &Plan) -> TokenStream {
    let (bound, unit, quantities, limit) = (limit_bound(), limit_unit(), limit_quantities(), limit_struct());
    let consts = plan.limits.iter().map(|l| limit_const(plan, l));
    let all = plan.limits.iter().map(names::limit_const);
    quote! {
        //! The limits of the spec as typed constants.

        use crate::changes::Change;

        #bound
        #unit
        #quantities
        #limit

        #(#consts)*

        /// Every limit, in spec order.
        pub const ALL: &[&Limit] = &[#(&#all),*];
    }
}

/// The `Bound` enum: a number, another limit, or a field of another endpoint's response.
fn limit_bound() -> TokenStream {
    quote! {
        /// One side of a limit.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Bound {
            /// A number.
            Value(i64),
            /// Another limit's value, plus an offset.
            Limit {
                /// The limit.
                limit: &'static Limit,
                /// Added to its value.
                offset: i64,
            },
            /// A field of another endpoint's response, known only at run time, plus an offset.
            Field {
                /// The endpoint's id.
                endpoint: &'static str,
                /// The response field.
                field: &'static str,
                /// Added to its value.
                offset: i64,
            },
        }
    }
}

/// The `Unit` enum, one variant per unit of the spec format, with `id` and `bytes`.
fn limit_unit() -> TokenStream {
    let units = UNITS.iter().map(|(u, doc)| {
        let (u, doc) = (names::unit_variant(u), format!(" {doc}"));
        quote!(#[doc = #doc] #u,)
    });
    let unit_ids = UNITS.iter().map(|(u, _)| {
        let v = names::unit_variant(u);
        quote!(Self::#v => #u)
    });
    quote! {
        /// The unit of a limit.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Unit {
            #(#units)*
        }

        impl Unit {
            /// The unit's spec spelling.
            pub const fn id(self) -> &'static str {
                match self {
                    #(#unit_ids,)*
                }
            }

            /// Bytes per unit, for sizes.
            pub const fn bytes(self) -> Option<u64> {
                match self {
                    Self::Bytes => Some(1),
                    Self::KiB => Some(1 << 10),
                    Self::MiB => Some(1 << 20),
                    Self::GiB => Some(1 << 30),
                    _ => None,
                }
            }
        }
    }
}

/// The `Quantity` and `Previous` structs.
fn limit_quantities() -> TokenStream {
    quote! {
        /// A number with a unit.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Quantity {
            /// The number.
            pub value: i64,
            /// Its unit.
            pub unit: Unit,
        }

        /// A value a limit had until a change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Previous {
            /// The former value.
            pub value: i64,
            /// The change that ended it.
            pub until: &'static Change,
        }
    }
}

/// The `Limit` struct with `upper`, `lower` and `upper_bytes`.
fn limit_struct() -> TokenStream {
    quote! {
        /// A limit of the platform.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Limit {
            /// The stable id.
            pub id: &'static str,
            /// The display name.
            pub name: &'static str,
            /// The value, for a limit that is one number.
            pub value: Option<Bound>,
            /// The lowest allowed value.
            pub min: Option<Bound>,
            /// The highest allowed value.
            pub max: Option<Bound>,
            /// The unit of the numbers.
            pub unit: Unit,
            /// What the limit is counted per (`type`), if anything.
            pub per: Option<&'static str>,
            /// How long it lasts, for a limit in time.
            pub duration: Option<Quantity>,
            /// Whom or what it applies to, in the spec's words.
            pub applies_to: &'static [&'static str],
            /// Values it had before dated changes.
            pub previous: &'static [Previous],
        }

        impl Limit {
            /// The literal upper bound: `max`, else `value`, when it is a number.
            pub const fn upper(&self) -> Option<i64> {
                match (&self.max, &self.value) {
                    (Some(Bound::Value(v)), _) | (_, Some(Bound::Value(v))) => Some(*v),
                    _ => None,
                }
            }

            /// The literal lower bound, when it is a number.
            pub const fn lower(&self) -> Option<i64> {
                match &self.min {
                    Some(Bound::Value(v)) => Some(*v),
                    _ => None,
                }
            }

            /// The upper bound in bytes, for a size limit.
            pub const fn upper_bytes(&self) -> Option<u64> {
                match (self.upper(), self.unit.bytes()) {
                    (Some(v), Some(per)) if v >= 0 => Some(v.unsigned_abs() * per),
                    _ => None,
                }
            }
        }
    }
}

fn limit_const(plan: &Plan, l: &Limit) -> TokenStream {
    let name = names::limit_const(l);
    let id = &l.meta.id;
    let display = &l.meta.name;
    let bound = |b: &Option<Bound>| match b {
        None => quote!(None),
        Some(b) => {
            let b = bound_tokens(plan, b);
            quote!(Some(#b))
        }
    };
    let (value, min, max) = (bound(&l.value), bound(&l.min), bound(&l.max));
    let unit = names::unit_variant(&l.unit.id);
    let per = match &l.per {
        Some(p) => quote!(Some(#p)),
        None => quote!(None),
    };
    let duration = match &l.duration {
        Some(q) => {
            let (v, u) = (int(q.value), names::unit_variant(&q.unit.id));
            quote!(Some(Quantity { value: #v, unit: Unit::#u }))
        }
        None => quote!(None),
    };
    let applies = &l.applies_to;
    let previous = l.previous.iter().map(|p| {
        let (v, until) = (int(p.value), plan.change_const(&p.until.id));
        quote!(Previous { value: #v, until: &crate::changes::#until })
    });
    let fallback = if l.meta.name.is_empty() { format!("The limit `{}`.", l.meta.id) } else { format!("{}.", l.meta.name) };
    let doc = docs(Some(l.meta.description.as_deref().unwrap_or(&fallback)), &meta_notes(plan, &l.meta));
    quote! {
        #doc
        pub const #name: Limit = Limit {
            id: #id,
            name: #display,
            value: #value,
            min: #min,
            max: #max,
            unit: Unit::#unit,
            per: #per,
            duration: #duration,
            applies_to: &[#(#applies),*],
            previous: &[#(#previous),*],
        };
    }
}

fn bound_tokens(plan: &Plan, b: &Bound) -> TokenStream {
    match b {
        Bound::Value(_, v) => {
            let v = int(*v);
            quote!(Bound::Value(#v))
        }
        Bound::Float(..) => unreachable!("BUG: limits are integers (check_float_bounds)"),
        Bound::Limit { limit, offset } => {
            let l = plan.limit_const(&limit.id);
            let offset = int(*offset);
            quote!(Bound::Limit { limit: &#l, offset: #offset })
        }
        Bound::Field { endpoint, field, offset } => {
            let (e, offset) = (&endpoint.id, int(*offset));
            quote!(Bound::Field { endpoint: #e, field: #field, offset: #offset })
        }
    }
}
