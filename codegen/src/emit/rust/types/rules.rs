//! `rules.rs`: conditions, permission rules as constant data, and their evaluation at an instant.

use super::docs::{docs, meta_docs, meta_notes, summary};
use crate::emit::rust::shared::type_ident;
use crate::model::{Cond, Model, PermissionRule, Rule};
use crate::plan::rust as names;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `rules.rs`.
pub fn emit(model: &Model) -> TokenStream {
    let conditions = conditions(model);
    let consts = model.permission_rules.iter().map(|r| rule_const(model, r));
    let all = model.permission_rules.iter().map(names::rule_const);
    quote! {
        //! Permission rules as data: each evaluated at an instant against what the caller holds.
        //!
        //! A rule with dated forms applies its old form before the change and its new form from
        //! the change on; [`PermissionRule::missing`] names everything the caller lacks.

        use crate::auth::{Intent, Scope};
        use crate::changes::Change;
        use crate::permissions::Permission;
        use jiff::Timestamp;
        use std::fmt;

        #conditions

        /// A condition, or its negation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Cond {
            /// The condition holds.
            Is(Condition),
            /// The condition does not hold.
            Not(&'static Cond),
        }

        impl Cond {
            /// The condition at the root of the expression.
            pub const fn condition(self) -> Condition {
                match self {
                    Self::Is(c) => c,
                    Self::Not(inner) => inner.condition(),
                }
            }

            /// Whether the expression holds, given `facts`.
            pub fn holds(self, facts: &dyn Facts) -> bool {
                match self {
                    Self::Is(c) => facts.holds(c),
                    Self::Not(inner) => !inner.holds(facts),
                }
            }
        }

        impl fmt::Display for Cond {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    Self::Is(c) => write!(f, "{c}"),
                    Self::Not(inner) => write!(f, "not {inner}"),
                }
            }
        }

        /// A rule expression over permissions, conditions, intents and scopes.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Rule {
            /// The caller holds the permission.
            Permission(Permission),
            /// Every sub-rule holds.
            All(&'static [Rule]),
            /// At least one sub-rule holds.
            Any(&'static [Rule]),
            /// `then` when the condition holds, else `otherwise` (nothing when absent).
            When {
                /// The condition asked.
                when: Cond,
                /// The rule when it holds.
                then: &'static Rule,
                /// The rule when it does not.
                otherwise: Option<&'static Rule>,
            },
            /// The condition holds.
            Condition(Cond),
            /// The app has the intent.
            Intent(Intent),
            /// The token has the scope.
            Scope(Scope),
        }

        /// What a rule is evaluated against: answers about one caller and one request.
        pub trait Facts {
            /// Whether the caller holds `permission`.
            fn has_permission(&self, permission: Permission) -> bool;
            /// Whether `condition` holds.
            fn holds(&self, condition: Condition) -> bool;
            /// Whether the app has `intent`.
            fn has_intent(&self, intent: Intent) -> bool;
            /// Whether the token has `scope`.
            fn has_scope(&self, scope: Scope) -> bool;
        }

        /// Something a caller lacks.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Requirement {
            /// A permission.
            Permission(Permission),
            /// An intent.
            Intent(Intent),
            /// A scope.
            Scope(Scope),
            /// A condition that does not hold (or one that holds, negated).
            Condition(Cond),
            /// Each of these.
            AllOf(Vec<Requirement>),
            /// One of these.
            AnyOf(Vec<Requirement>),
        }

        impl fmt::Display for Requirement {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let list = |items: &[Requirement]| items.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
                match self {
                    Self::Permission(p) => write!(f, "{p}"),
                    Self::Intent(i) => write!(f, "intent {i}"),
                    Self::Scope(s) => write!(f, "scope {s}"),
                    Self::Condition(c) => write!(f, "{c}"),
                    Self::AllOf(items) => write!(f, "all of ({})", list(items)),
                    Self::AnyOf(items) => write!(f, "any of ({})", list(items)),
                }
            }
        }

        impl Rule {
            /// Whether the rule holds, given `facts` ([`Rule::missing`] says what is lacking when
            /// it does not).
            pub fn holds(&self, facts: &dyn Facts) -> bool {
                match *self {
                    Self::Permission(p) => facts.has_permission(p),
                    Self::Intent(i) => facts.has_intent(i),
                    Self::Scope(s) => facts.has_scope(s),
                    Self::Condition(c) => c.holds(facts),
                    Self::All(rules) => rules.iter().all(|r| r.holds(facts)),
                    Self::Any(rules) => rules.iter().any(|r| r.holds(facts)),
                    Self::When { when, then, otherwise } => {
                        if when.holds(facts) { then.holds(facts) } else { otherwise.is_none_or(|r| r.holds(facts)) }
                    }
                }
            }

            /// Everything the rule needs that `facts` lacks; empty when the rule holds.
            pub fn missing(&self, facts: &dyn Facts) -> Vec<Requirement> {
                match *self {
                    Self::Permission(p) => lacks(facts.has_permission(p), Requirement::Permission(p)),
                    Self::Intent(i) => lacks(facts.has_intent(i), Requirement::Intent(i)),
                    Self::Scope(s) => lacks(facts.has_scope(s), Requirement::Scope(s)),
                    Self::Condition(c) => lacks(c.holds(facts), Requirement::Condition(c)),
                    Self::All(rules) => rules.iter().flat_map(|r| r.missing(facts)).collect(),
                    Self::Any(rules) => {
                        let mut alternatives = Vec::new();
                        for rule in rules {
                            let mut missing = rule.missing(facts);
                            match missing.len() {
                                0 => return Vec::new(),
                                1 => alternatives.append(&mut missing),
                                _ => alternatives.push(Requirement::AllOf(missing)),
                            }
                        }
                        vec![Requirement::AnyOf(alternatives)]
                    }
                    Self::When { when, then, otherwise } => {
                        if when.holds(facts) {
                            then.missing(facts)
                        } else {
                            otherwise.map(|r| r.missing(facts)).unwrap_or_default()
                        }
                    }
                }
            }

            /// Visits the rule and every sub-rule.
            pub fn walk(&self, visit: &mut dyn FnMut(&Rule)) {
                visit(self);
                match self {
                    Self::All(rules) | Self::Any(rules) => rules.iter().for_each(|r| r.walk(visit)),
                    Self::When { then, otherwise, .. } => {
                        then.walk(visit);
                        if let Some(o) = otherwise {
                            o.walk(visit);
                        }
                    }
                    Self::Permission(_) | Self::Condition(_) | Self::Intent(_) | Self::Scope(_) => {}
                }
            }

            /// Adds what evaluating the rule asks of the implementation to `needs`, in one walk.
            pub fn gather(&self, needs: &mut Needs) {
                self.walk(&mut |r| match r {
                    Self::Permission(_) => needs.permissions = true,
                    Self::Intent(_) => needs.intents = true,
                    Self::Scope(_) => needs.scopes = true,
                    Self::Condition(c) | Self::When { when: c, .. } => push_new(&mut needs.conditions, c.condition()),
                    Self::All(_) | Self::Any(_) => {}
                });
            }

            /// Every permission the rule names, without duplicates.
            pub fn permissions(&self) -> Vec<Permission> {
                let mut out = Vec::new();
                self.walk(&mut |r| if let Self::Permission(p) = r { push_new(&mut out, *p) });
                out
            }

            /// Every condition the rule asks, including those of `When`, without duplicates.
            pub fn conditions(&self) -> Vec<Condition> {
                let mut out = Vec::new();
                self.walk(&mut |r| match r {
                    Self::Condition(c) | Self::When { when: c, .. } => push_new(&mut out, c.condition()),
                    _ => {}
                });
                out
            }

            /// Every intent the rule needs, without duplicates.
            pub fn intents(&self) -> Vec<Intent> {
                let mut out = Vec::new();
                self.walk(&mut |r| if let Self::Intent(i) = r { push_new(&mut out, *i) });
                out
            }

            /// Every scope the rule needs, without duplicates.
            pub fn scopes(&self) -> Vec<Scope> {
                let mut out = Vec::new();
                self.walk(&mut |r| if let Self::Scope(s) = r { push_new(&mut out, *s) });
                out
            }
        }

        /// What evaluating rules asks of the implementation: which answers to fetch and which
        /// conditions to ask ([`Rule::gather`]).
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct Needs {
            /// Whether a rule names a permission.
            pub permissions: bool,
            /// Whether a rule names an intent.
            pub intents: bool,
            /// Whether a rule names a scope.
            pub scopes: bool,
            /// Every condition a rule asks, including those of `When`, without duplicates, in
            /// the order first met.
            pub conditions: Vec<Condition>,
        }

        fn lacks(has: bool, requirement: Requirement) -> Vec<Requirement> {
            if has { Vec::new() } else { vec![requirement] }
        }

        fn push_new<T: PartialEq>(out: &mut Vec<T>, item: T) {
            if !out.contains(&item) {
                out.push(item);
            }
        }

        /// Whom a rule applies to.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Audience {
            /// Every caller.
            All,
            /// Bots only.
            Bots,
            /// Users only.
            Users,
        }

        impl Audience {
            /// Whether a caller (a bot or not) is in the audience.
            pub const fn includes(self, bot: bool) -> bool {
                match self {
                    Self::All => true,
                    Self::Bots => bot,
                    Self::Users => !bot,
                }
            }
        }

        /// One form of a rule, in force from `since` (when given) until `until` (when given).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct RuleVariant {
            /// The change from which this form applies.
            pub since: Option<&'static Change>,
            /// The change from which it no longer applies.
            pub until: Option<&'static Change>,
            /// The rule.
            pub rule: Rule,
        }

        impl RuleVariant {
            /// Whether this form applies at `now`.
            pub fn is_in_force(&self, now: Timestamp) -> bool {
                self.since.is_none_or(|c| c.is_in_effect(now)) && self.until.is_none_or(|c| !c.is_in_effect(now))
            }
        }

        /// A permission rule and its forms over time.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct PermissionRule {
            /// The stable id.
            pub id: &'static str,
            /// The display name.
            pub name: &'static str,
            /// The operation it guards, in the spec's words.
            pub operation: Option<&'static str>,
            /// The endpoints it guards, by id.
            pub endpoints: &'static [&'static str],
            /// Whom it applies to.
            pub applies_to: Audience,
            /// Its forms, covering the timeline without overlap.
            pub variants: &'static [RuleVariant],
        }

        impl PermissionRule {
            /// The form in force at `now`; none before the rule exists.
            pub fn at(&self, now: Timestamp) -> Option<&'static Rule> {
                self.variants.iter().find(|v| v.is_in_force(now)).map(|v| &v.rule)
            }

            /// Everything a caller lacks at `now`; empty when the rule is satisfied or not in force.
            pub fn missing(&self, now: Timestamp, facts: &dyn Facts) -> Vec<Requirement> {
                self.at(now).map(|r| r.missing(facts)).unwrap_or_default()
            }
        }

        #(#consts)*

        /// Every permission rule, in spec order.
        pub const ALL: &[&PermissionRule] = &[#(&#all),*];
    }
}

fn conditions(model: &Model) -> TokenStream {
    let variants: Vec<Ident> = model.conditions.iter().map(names::condition_variant).collect();
    let decls = model.conditions.iter().zip(&variants).map(|(c, v)| {
        let doc = meta_docs(model, &c.meta);
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
    let id_arms = model.conditions.iter().zip(&variants).map(|(c, v)| {
        let id = &c.meta.id;
        if c.params.is_empty() { quote!(Self::#v => #id) } else { quote!(Self::#v { .. } => #id) }
    });
    let display_arms = model.conditions.iter().zip(&variants).map(|(c, v)| {
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
    let display = if model.conditions.is_empty() { quote!(let _ = f; match *self {}) } else { quote!(match self { #(#display_arms,)* }) };
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

fn rule_const(model: &Model, r: &PermissionRule) -> TokenStream {
    let name = names::rule_const(r);
    let id = &r.meta.id;
    let display = &r.meta.name;
    let operation = match &r.operation {
        Some(o) => quote!(Some(#o)),
        None => quote!(None),
    };
    let endpoints = r.endpoints.iter().map(|e| e.id.as_str());
    let audience = type_ident(&r.applies_to);
    let change = |c: Option<&crate::model::Ref>| match c {
        Some(c) => {
            let c = names::change_const_id(model, &c.id);
            quote!(Some(&crate::changes::#c))
        }
        None => quote!(None),
    };
    let variants = r.variants.iter().map(|v| {
        let since = change(v.since.as_ref().or(r.meta.since.as_ref()));
        let until = change(v.until.as_ref().or(r.meta.until.as_ref()));
        let rule = rule_tokens(model, &v.rule);
        quote!(RuleVariant { since: #since, until: #until, rule: #rule })
    });
    let mut notes = meta_notes(model, &r.meta);
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
pub fn rule_tokens(model: &Model, rule: &Rule) -> TokenStream {
    match rule {
        Rule::Permission(p) => {
            let p = names::permission_variant_id(model, &p.id);
            quote!(Rule::Permission(Permission::#p))
        }
        Rule::All(rules) => {
            let rules = rules.iter().map(|r| rule_tokens(model, r));
            quote!(Rule::All(&[#(#rules),*]))
        }
        Rule::Any(rules) => {
            let rules = rules.iter().map(|r| rule_tokens(model, r));
            quote!(Rule::Any(&[#(#rules),*]))
        }
        Rule::When { when, then, otherwise } => {
            let (when, then) = (cond_tokens(model, when), rule_tokens(model, then));
            let otherwise = match otherwise {
                Some(o) => {
                    let o = rule_tokens(model, o);
                    quote!(Some(&#o))
                }
                None => quote!(None),
            };
            quote!(Rule::When { when: #when, then: &#then, otherwise: #otherwise })
        }
        Rule::Condition(c) => {
            let c = cond_tokens(model, c);
            quote!(Rule::Condition(#c))
        }
        Rule::Intent(i) => {
            let i = names::intent_variant_id(model, &i.id);
            quote!(Rule::Intent(Intent::#i))
        }
        Rule::Scope(s) => {
            let s = names::scope_variant_id(model, &s.id);
            quote!(Rule::Scope(Scope::#s))
        }
    }
}

/// A condition expression; validation guarantees arity, so a call has its one argument.
pub fn cond_tokens(model: &Model, cond: &Cond) -> TokenStream {
    match cond {
        Cond::Named { .. } => {
            let call = condition_call(model, cond);
            quote!(Cond::Is(#call))
        }
        Cond::Not(inner) => {
            let inner = cond_tokens(model, inner);
            quote!(Cond::Not(&#inner))
        }
    }
}

/// The `Condition` value a condition expression names (its negation set aside), as a path
/// relative to the rules module.
pub fn condition_call(model: &Model, cond: &Cond) -> TokenStream {
    let (condition, arg) = cond.named();
    let v = names::condition_variant_id(model, &condition.id);
    let param = model.conditions.iter().find(|c| c.meta.id == condition.id).and_then(|c| c.params.first());
    match (param, arg) {
        (Some(param), Some(arg)) => {
            let param = names::condition_param(param);
            quote!(Condition::#v { #param: #arg })
        }
        _ => quote!(Condition::#v),
    }
}
