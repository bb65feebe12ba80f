//! `states.rs`: each state machine as a state enum, a transition enum and a transition function
//! that returns the side effects the spec lists.

use super::docs::{docs, meta_docs, meta_notes, summary};
use crate::emit::rust::shared::int;
use crate::model::{StateMachine, Transition};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

/// `states.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let machines = plan.state_machines.iter().map(|m| machine(plan, m));
    quote! {
        //! State machines: states, transitions, and the side effects each transition has.

        use crate::errors::ErrorDef;
        use crate::events::EventKind;

        /// A side effect of a transition.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Effect {
            /// The stable id.
            pub id: &'static str,
            /// What happens.
            pub description: &'static str,
            /// The event dispatched, if any.
            pub event: Option<EventKind>,
            /// The error later calls return, if any.
            pub error: Option<&'static ErrorDef>,
        }

        /// A transition asked of a state it does not leave from.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct InvalidTransition {
            /// The transition's id.
            pub transition: &'static str,
            /// The state it leaves from.
            pub from: &'static str,
            /// The state it was asked of.
            pub state: &'static str,
        }

        impl std::fmt::Display for InvalidTransition {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "transition `{}` leaves from `{}`, not from `{}`", self.transition, self.from, self.state)
            }
        }

        impl std::error::Error for InvalidTransition {}

        #(#machines)*
    }
}

fn machine(plan: &Plan, m: &StateMachine) -> TokenStream {
    let name = names::machine(m);
    let states: Vec<Ident> = m.states.iter().map(names::state).collect();
    let state_docs = m.states.iter().map(|s| meta_docs(plan, &s.meta));
    let state_ids: Vec<&str> = m.states.iter().map(|s| s.meta.id.as_str()).collect();
    let mut notes = meta_notes(plan, &m.meta);
    if let Some(subject) = &m.subject {
        notes.push(format!("The state of `{}:{}`.", subject.kind, subject.id));
    }
    if let Some(e) = &m.state_enum {
        notes.push(format!("Its states are values of the enum `{}`.", e.id));
    }
    let doc = docs(Some(&summary(&m.meta)), &notes);
    let values = value_fn(m, &states);
    let transitions = (!m.transitions.is_empty()).then(|| transitions(plan, m, &name, &states));
    let refs = &states;
    quote! {
        #doc
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #name {
            #( #state_docs #states, )*
        }

        impl #name {
            /// Every state, in spec order.
            pub const ALL: &'static [Self] = &[#(Self::#refs),*];

            /// The state's id.
            pub const fn id(self) -> &'static str {
                match self {
                    #(Self::#refs => #state_ids,)*
                }
            }

            #values
        }

        #transitions
    }
}

/// `value()` when the states carry numbers (the values of an enum).
fn value_fn(m: &StateMachine, states: &[Ident]) -> Option<TokenStream> {
    if m.states.iter().all(|s| s.value.is_none()) {
        return None;
    }
    let arms = m.states.iter().zip(states).map(|(s, ident)| match s.value {
        Some(v) => {
            let v = int(v);
            quote!(Self::#ident => Some(#v))
        }
        None => quote!(Self::#ident => None),
    });
    Some(quote! {
        /// The state's number on the wire, when the spec gives it.
        pub const fn value(self) -> Option<i64> {
            match self {
                #(#arms,)*
            }
        }
    })
}

/// The machine's transition enum, its lookups, and `apply` on the state enum.
fn transitions(plan: &Plan, m: &StateMachine, name: &Ident, states: &[Ident]) -> TokenStream {
    let tname = names::machine_transitions(m);
    let idents: Vec<Ident> = m.transitions.iter().map(names::transition).collect();
    let declaration = transition_enum(plan, m, name, &tname, &idents);
    let lookups = transition_lookups(plan, m, name, states, &tname, &idents);
    let apply = apply_fn(name, &tname);
    quote! {
        #declaration
        #lookups
        #apply
    }
}

/// The transition enum, each variant documented with its triggers and condition.
fn transition_enum(plan: &Plan, m: &StateMachine, name: &Ident, tname: &Ident, idents: &[Ident]) -> TokenStream {
    let tdocs = m.transitions.iter().map(|t| {
        let mut notes = meta_notes(plan, &t.meta);
        if !t.triggers.is_empty() {
            notes.push(format!("Triggered by: {}.", t.triggers.join(", ")));
        }
        if let Some(c) = &t.condition {
            notes.push(format!("Condition: {c}"));
        }
        docs(t.meta.description.as_deref().or(Some(&format!("From `{}` to `{}`.", t.from.id, t.to.id))), &notes)
    });
    let doc = format!(" A transition of [`{name}`].");
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum #tname {
            #( #tdocs #idents, )*
        }
    }
}

/// The transition enum's `ALL`, `id`, `from`, `to`, `triggers` and `effects`.
fn transition_lookups(plan: &Plan, m: &StateMachine, name: &Ident, states: &[Ident], tname: &Ident, refs: &[Ident]) -> TokenStream {
    let state_of = |id: &str| {
        let i = m.states.iter().position(|s| s.meta.id == id).expect("BUG: validated transition end");
        &states[i]
    };
    let ids = m.transitions.iter().map(|t| t.meta.id.as_str());
    let froms = m.transitions.iter().map(|t| state_of(&t.from.id));
    let tos = m.transitions.iter().map(|t| state_of(&t.to.id));
    let triggers = m.transitions.iter().map(|t| {
        let list = &t.triggers;
        quote!(&[#(#list),*])
    });
    let effects = m.transitions.iter().map(|t| effect_list(plan, t));
    quote! {
        impl #tname {
            /// Every transition, in spec order.
            pub const ALL: &'static [Self] = &[#(Self::#refs),*];

            /// The transition's id.
            pub const fn id(self) -> &'static str {
                match self {
                    #(Self::#refs => #ids,)*
                }
            }

            /// The state it leaves from.
            pub const fn from(self) -> #name {
                match self {
                    #(Self::#refs => #name::#froms,)*
                }
            }

            /// The state it leads to.
            pub const fn to(self) -> #name {
                match self {
                    #(Self::#refs => #name::#tos,)*
                }
            }

            /// What moves it, in the spec's words.
            pub const fn triggers(self) -> &'static [&'static str] {
                match self {
                    #(Self::#refs => #triggers,)*
                }
            }

            /// Its side effects, in spec order.
            pub const fn effects(self) -> &'static [Effect] {
                match self {
                    #(Self::#refs => #effects,)*
                }
            }
        }
    }
}

/// The `&[Effect]` a transition returns.
fn effect_list(plan: &Plan, t: &Transition) -> TokenStream {
    let list = t.effects.iter().map(|e| {
        let id = &e.meta.id;
        let description = e.meta.description.clone().unwrap_or_default();
        let event = match &e.event {
            Some(r) => {
                let v = plan.event_variant(&r.id);
                quote!(Some(EventKind::#v))
            }
            None => quote!(None),
        };
        let error = match &e.error {
            Some(r) => {
                let c = plan.error_const(&r.id);
                quote!(Some(&crate::errors::#c))
            }
            None => quote!(None),
        };
        quote!(Effect { id: #id, description: #description, event: #event, error: #error })
    });
    quote!(&[#(#list),*])
}

/// `apply` on the state enum: a transition taken from a state.
fn apply_fn(name: &Ident, tname: &Ident) -> TokenStream {
    quote! {
        impl #name {
            /// Takes `transition` from this state: the next state and the side effects, or an
            /// error when the transition does not leave from this state.
            pub fn apply(self, transition: #tname) -> Result<(Self, &'static [Effect]), InvalidTransition> {
                if transition.from() == self {
                    Ok((transition.to(), transition.effects()))
                } else {
                    Err(InvalidTransition { transition: transition.id(), from: transition.from().id(), state: self.id() })
                }
            }
        }
    }
}
