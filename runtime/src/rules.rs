//! Permission rules as data: expressions over permissions, conditions, intents and scopes,
//! evaluated against what a caller holds, in forms bounded by dated changes.
//!
//! The expressions are generic over a spec's [`Vocabulary`]: its types crate names the
//! permissions, conditions, intents and scopes, and writes its rules as constants of these types
//! (`Rule<Spec>`, behind aliases of the same names).

use crate::timeline::Change;
use jiff::Timestamp;
use std::fmt::{self, Debug, Display};
use std::hash::Hash;

/// The words a spec's rules are written in.
pub trait Vocabulary: Copy + Debug + Eq + Hash + 'static {
    /// A permission the caller may hold.
    type Permission: Copy + Debug + Display + Eq + Hash + 'static;
    /// A named condition asked of the implementation.
    type Condition: Copy + Debug + Display + Eq + Hash + 'static;
    /// An intent the caller's app may have.
    type Intent: Copy + Debug + Display + Eq + Hash + 'static;
    /// A scope the caller's token may carry.
    type Scope: Copy + Debug + Display + Eq + Hash + 'static;
}

/// A condition, or its negation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond<V: Vocabulary> {
    /// The condition holds.
    Is(V::Condition),
    /// The condition does not hold.
    Not(&'static Cond<V>),
}

impl<V: Vocabulary> Cond<V> {
    /// The condition at the root of the expression.
    pub const fn condition(self) -> V::Condition {
        match self {
            Self::Is(c) => c,
            Self::Not(inner) => inner.condition(),
        }
    }

    /// Whether the expression holds, given `facts`.
    pub fn holds(self, facts: &dyn Facts<V>) -> bool {
        match self {
            Self::Is(c) => facts.holds(c),
            Self::Not(inner) => !inner.holds(facts),
        }
    }
}

impl<V: Vocabulary> fmt::Display for Cond<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Is(c) => write!(f, "{c}"),
            Self::Not(inner) => write!(f, "not {inner}"),
        }
    }
}

/// A rule expression over permissions, conditions, intents and scopes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule<V: Vocabulary> {
    /// The caller holds the permission.
    Permission(V::Permission),
    /// Every sub-rule holds.
    All(&'static [Rule<V>]),
    /// At least one sub-rule holds.
    Any(&'static [Rule<V>]),
    /// `then` when the condition holds, else `otherwise` (nothing when absent).
    When {
        /// The condition asked.
        when: Cond<V>,
        /// The rule when it holds.
        then: &'static Rule<V>,
        /// The rule when it does not.
        otherwise: Option<&'static Rule<V>>,
    },
    /// The condition holds.
    Condition(Cond<V>),
    /// The app has the intent.
    Intent(V::Intent),
    /// The token has the scope.
    Scope(V::Scope),
}

/// What a rule is evaluated against: answers about one caller and one request.
pub trait Facts<V: Vocabulary> {
    /// Whether the caller holds `permission`.
    fn has_permission(&self, permission: V::Permission) -> bool;

    /// Whether `condition` holds.
    fn holds(&self, condition: V::Condition) -> bool;

    /// Whether the app has `intent`.
    fn has_intent(&self, intent: V::Intent) -> bool;

    /// Whether the token has `scope`.
    fn has_scope(&self, scope: V::Scope) -> bool;
}

/// Something a caller lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requirement<V: Vocabulary> {
    /// A permission.
    Permission(V::Permission),
    /// An intent.
    Intent(V::Intent),
    /// A scope.
    Scope(V::Scope),
    /// A condition that does not hold (or one that holds, negated).
    Condition(Cond<V>),
    /// Each of these.
    AllOf(Vec<Requirement<V>>),
    /// One of these.
    AnyOf(Vec<Requirement<V>>),
}

impl<V: Vocabulary> fmt::Display for Requirement<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |items: &[Requirement<V>]| items.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
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

impl<V: Vocabulary> Rule<V> {
    /// Whether the rule holds, given `facts` ([`Rule::missing`] says what is lacking when
    /// it does not).
    pub fn holds(&self, facts: &dyn Facts<V>) -> bool {
        match *self {
            Self::Permission(p) => facts.has_permission(p),
            Self::Intent(i) => facts.has_intent(i),
            Self::Scope(s) => facts.has_scope(s),
            Self::Condition(c) => c.holds(facts),
            Self::All(rules) => rules.iter().all(|r| r.holds(facts)),
            Self::Any(rules) => rules.iter().any(|r| r.holds(facts)),
            Self::When { when, then, otherwise } => {
                if when.holds(facts) {
                    then.holds(facts)
                } else {
                    otherwise.is_none_or(|r| r.holds(facts))
                }
            }
        }
    }

    /// Everything the rule needs that `facts` lacks; empty when the rule holds.
    pub fn missing(&self, facts: &dyn Facts<V>) -> Vec<Requirement<V>> {
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
    pub fn walk(&self, visit: &mut dyn FnMut(&Rule<V>)) {
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
    pub fn gather(&self, needs: &mut Needs<V>) {
        self.walk(&mut |r| match r {
            Self::Permission(_) => needs.permissions = true,
            Self::Intent(_) => needs.intents = true,
            Self::Scope(_) => needs.scopes = true,
            Self::Condition(c) | Self::When { when: c, .. } => push_new(&mut needs.conditions, c.condition()),
            Self::All(_) | Self::Any(_) => {}
        });
    }

    /// Every permission the rule names, without duplicates.
    pub fn permissions(&self) -> Vec<V::Permission> {
        let mut out = Vec::new();
        self.walk(&mut |r| {
            if let Self::Permission(p) = r {
                push_new(&mut out, *p)
            }
        });
        out
    }

    /// Every condition the rule asks, including those of `When`, without duplicates.
    pub fn conditions(&self) -> Vec<V::Condition> {
        let mut out = Vec::new();
        self.walk(&mut |r| match r {
            Self::Condition(c) | Self::When { when: c, .. } => push_new(&mut out, c.condition()),
            _ => {}
        });
        out
    }

    /// Every intent the rule needs, without duplicates.
    pub fn intents(&self) -> Vec<V::Intent> {
        let mut out = Vec::new();
        self.walk(&mut |r| {
            if let Self::Intent(i) = r {
                push_new(&mut out, *i)
            }
        });
        out
    }

    /// Every scope the rule needs, without duplicates.
    pub fn scopes(&self) -> Vec<V::Scope> {
        let mut out = Vec::new();
        self.walk(&mut |r| {
            if let Self::Scope(s) = r {
                push_new(&mut out, *s)
            }
        });
        out
    }
}

/// What evaluating rules asks of the implementation: which answers to fetch and which
/// conditions to ask ([`Rule::gather`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Needs<V: Vocabulary> {
    /// Whether a rule names a permission.
    pub permissions: bool,
    /// Whether a rule names an intent.
    pub intents: bool,
    /// Whether a rule names a scope.
    pub scopes: bool,
    /// Every condition a rule asks, including those of `When`, without duplicates, in
    /// the order first met.
    pub conditions: Vec<V::Condition>,
}

impl<V: Vocabulary> Default for Needs<V> {
    fn default() -> Self {
        Needs { permissions: false, intents: false, scopes: false, conditions: Vec::new() }
    }
}

fn lacks<V: Vocabulary>(has: bool, requirement: Requirement<V>) -> Vec<Requirement<V>> {
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
pub struct RuleVariant<V: Vocabulary> {
    /// The change from which this form applies.
    pub since: Option<&'static Change>,
    /// The change from which it no longer applies.
    pub until: Option<&'static Change>,
    /// The rule.
    pub rule: Rule<V>,
}

impl<V: Vocabulary> RuleVariant<V> {
    /// Whether this form applies at `now`.
    pub fn is_in_force(&self, now: Timestamp) -> bool {
        self.since.is_none_or(|c| c.is_in_effect(now)) && self.until.is_none_or(|c| !c.is_in_effect(now))
    }
}

/// A permission rule and its forms over time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PermissionRule<V: Vocabulary> {
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
    pub variants: &'static [RuleVariant<V>],
}

impl<V: Vocabulary> PermissionRule<V> {
    /// The form in force at `now`; none before the rule exists.
    pub fn at(&self, now: Timestamp) -> Option<&'static Rule<V>> {
        self.variants.iter().find(|v| v.is_in_force(now)).map(|v| &v.rule)
    }

    /// Everything a caller lacks at `now`; empty when the rule is satisfied or not in force.
    pub fn missing(&self, now: Timestamp, facts: &dyn Facts<V>) -> Vec<Requirement<V>> {
        self.at(now).map(|r| r.missing(facts)).unwrap_or_default()
    }
}
