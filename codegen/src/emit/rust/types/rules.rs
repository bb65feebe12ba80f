//! `rules.rs`: conditions, permission rules as constant data, and their evaluation at an instant.

use super::docs::{docs, meta_docs, meta_notes, summary};
use crate::emit::rust::shared::lib_ident;
use crate::model::{Cond, PermissionRule, Rule};
use crate::plan::rust::{Plan, names};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `rules.rs`.
pub fn emit(plan: &Plan) -> TokenStream {
    let runtime = lib_ident(plan, crate::emit::cargo::RUNTIME);
    let conditions = conditions(plan);
    let consts = plan.permission_rules.iter().map(|r| rule_const(plan, r));
    let all = plan.permission_rules.iter().map(names::rule_const);
    quote! {
        //! Permission rules as data: each evaluated at an instant against what the caller holds.
        //!
        //! A rule with dated forms applies its old form before the change and its new form from
        //! the change on; [`PermissionRule::missing`] names everything the caller lacks.

        use crate::auth::{Intent, Scope};
        use crate::permissions::Permission;
        use std::fmt;

        #conditions

        pub use #runtime::rules::{Audience, Facts, Vocabulary};

        /// The words this spec's rules are written in: its permissions, conditions, intents and
        /// scopes (the runtime's rule expressions are generic over them).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum SpecVocabulary {}

        impl Vocabulary for SpecVocabulary {
            type Permission = Permission;
            type Condition = Condition;
            type Intent = Intent;
            type Scope = Scope;
        }

        /// A condition, or its negation.
        pub type Cond = #runtime::rules::Cond<SpecVocabulary>;
        /// A rule expression over permissions, conditions, intents and scopes.
        pub type Rule = #runtime::rules::Rule<SpecVocabulary>;
        /// Something a caller lacks.
        pub type Requirement = #runtime::rules::Requirement<SpecVocabulary>;
        /// What evaluating rules asks of the implementation ([`Rule::gather`]).
        pub type Needs = #runtime::rules::Needs<SpecVocabulary>;
        /// One form of a rule, bounded by dated changes.
        pub type RuleVariant = #runtime::rules::RuleVariant<SpecVocabulary>;
        /// A permission rule and its forms over time.
        pub type PermissionRule = #runtime::rules::PermissionRule<SpecVocabulary>;

        #(#consts)*

        /// Every permission rule, in spec order.
        pub const ALL: &[&PermissionRule] = &[#(&#all),*];
    }
}

fn conditions(plan: &Plan) -> TokenStream {
    let variants: Vec<Ident> = plan.conditions.iter().map(names::condition_variant).collect();
    let decls = plan.conditions.iter().zip(&variants).map(|(c, v)| {
        let doc = meta_docs(plan, &c.meta);
        if c.params.is_empty() {
            quote!(#doc #v,)
        } else {
            let params = c.params.iter().map(|p| names::condition_param(p));
            let param_docs = c.params.iter().enumerate().map(|(i, p)| {
                let of = c.param_enums.get(i).map(|e| format!(", a value of the enum `{}`", e.id)).unwrap_or_default();
                format!(" The argument `{p}`{of}.")
            });
            quote!(#doc #v { #( #[doc = #param_docs] #params: &'static str, )* },)
        }
    });
    let id_arms = plan.conditions.iter().zip(&variants).map(|(c, v)| {
        let id = &c.meta.id;
        if c.params.is_empty() { quote!(Self::#v => #id) } else { quote!(Self::#v { .. } => #id) }
    });
    let display_arms = plan.conditions.iter().zip(&variants).map(|(c, v)| {
        let id = &c.meta.id;
        if c.params.is_empty() {
            quote!(Self::#v => f.write_str(#id))
        } else {
            // Bound by position: a parameter may be named like the formatter.
            let params: Vec<Ident> = c.params.iter().map(|p| names::condition_param(p)).collect();
            let values: Vec<Ident> = (0..params.len()).map(|i| format_ident!("value{i}")).collect();
            let format = format!("{id}({})", vec!["{}"; params.len()].join(", "));
            quote!(Self::#v { #(#params: #values),* } => write!(f, #format, #(#values),*))
        }
    });
    // A reference to an empty enum is not uninhabited to the compiler; its value is.
    let display = if plan.conditions.is_empty() { quote!(let _ = f; match *self {}) } else { quote!(match self { #(#display_arms,)* }) };
    quote! {
        /// A named condition as a rule asks it, with its arguments; the implementation answers it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Condition {
            #(#decls)*
        }

        impl Condition {
            /// The condition's id.
            pub const fn id(self) -> &'static str {
                match self {
                    #(#id_arms,)*
                }
            }
        }

        impl fmt::Display for Condition {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                #display
            }
        }
    }
}

fn rule_const(plan: &Plan, r: &PermissionRule) -> TokenStream {
    let name = names::rule_const(r);
    let id = &r.meta.id;
    let display = &r.meta.name;
    let operation = match &r.operation {
        Some(o) => quote!(Some(#o)),
        None => quote!(None),
    };
    let endpoints = r.endpoints.iter().map(|e| e.id.as_str());
    let audience = names::audience_variant(&r.applies_to);
    let change = |c: Option<&crate::model::Ref>| match c {
        Some(c) => {
            let c = plan.change_const(&c.id);
            quote!(Some(&crate::changes::#c))
        }
        None => quote!(None),
    };
    let variants = r.variants.iter().map(|v| {
        let since = change(v.since.as_ref().or(r.meta.since.as_ref()));
        let until = change(v.until.as_ref().or(r.meta.until.as_ref()));
        let rule = rule_tokens(plan, &v.rule);
        quote!(RuleVariant { since: #since, until: #until, rule: #rule })
    });
    let mut notes = meta_notes(plan, &r.meta);
    notes.push(format!("Applies to: {}.", r.applies_to));
    let doc = docs(Some(&summary(&r.meta)), &notes);
    quote! {
        #doc
        pub const #name: PermissionRule = PermissionRule {
            id: #id,
            name: #display,
            operation: #operation,
            endpoints: &[#(#endpoints),*],
            applies_to: Audience::#audience,
            variants: &[#(#variants),*],
        };
    }
}

/// A rule expression as a `Rule` value, with paths relative to the rules module.
pub fn rule_tokens(plan: &Plan, rule: &Rule) -> TokenStream {
    match rule {
        Rule::Permission(p) => {
            let p = plan.permission_variant(&p.id);
            quote!(Rule::Permission(Permission::#p))
        }
        Rule::All(rules) => {
            let rules = rules.iter().map(|r| rule_tokens(plan, r));
            quote!(Rule::All(&[#(#rules),*]))
        }
        Rule::Any(rules) => {
            let rules = rules.iter().map(|r| rule_tokens(plan, r));
            quote!(Rule::Any(&[#(#rules),*]))
        }
        Rule::When { when, then, otherwise } => {
            let (when, then) = (cond_tokens(plan, when), rule_tokens(plan, then));
            let otherwise = match otherwise {
                Some(o) => {
                    let o = rule_tokens(plan, o);
                    quote!(Some(&#o))
                }
                None => quote!(None),
            };
            quote!(Rule::When { when: #when, then: &#then, otherwise: #otherwise })
        }
        Rule::Condition(c) => {
            let c = cond_tokens(plan, c);
            quote!(Rule::Condition(#c))
        }
        Rule::Intent(i) => {
            let i = plan.intent_variant(&i.id);
            quote!(Rule::Intent(Intent::#i))
        }
        Rule::Scope(s) => {
            let s = plan.scope_variant(&s.id);
            quote!(Rule::Scope(Scope::#s))
        }
    }
}

/// A condition expression; validation guarantees arity, so a call has its one argument.
pub fn cond_tokens(plan: &Plan, cond: &Cond) -> TokenStream {
    match cond {
        Cond::Named { .. } => {
            let call = condition_call(plan, cond);
            quote!(Cond::Is(#call))
        }
        Cond::Not(inner) => {
            let inner = cond_tokens(plan, inner);
            quote!(Cond::Not(&#inner))
        }
    }
}

/// The `Condition` value a condition expression names (its negation set aside), as a path
/// relative to the rules module.
pub fn condition_call(plan: &Plan, cond: &Cond) -> TokenStream {
    let (condition, arg) = cond.named();
    let v = plan.condition_variant(&condition.id);
    let param = plan.conditions.iter().find(|c| c.meta.id == condition.id).and_then(|c| c.params.first());
    match (param, arg) {
        (Some(param), Some(arg)) => {
            let param = names::condition_param(param);
            quote!(Condition::#v { #param: #arg })
        }
        _ => quote!(Condition::#v),
    }
}
