//! Who may do what: permissions, conditions, intents, scopes and scope sets, token kinds,
//! permission rules with their rule expressions, numbered auth rules and the authorization server.

use super::{Gap, Meta, Ref, TypedRef};
use crate::diag::Span;
use indexmap::IndexMap;
use serde::Serialize;

/// A permission.
#[derive(Clone, Debug, Serialize)]
pub struct Permission {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bit: Option<u32>,
    #[serde(skip)]
    pub bit_span: Span,
}

/// A named condition.
#[derive(Clone, Debug, Serialize)]
pub struct Condition {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub param_enums: Vec<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Ref>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
    /// Where each parameter was named.
    #[serde(skip)]
    pub param_spans: Vec<Span>,
}

/// An intent.
#[derive(Clone, Debug, Serialize)]
pub struct Intent {
    #[serde(flatten)]
    pub meta: Meta,
    pub privileged: bool,
}

/// A scope.
#[derive(Clone, Debug, Serialize)]
pub struct Scope {
    #[serde(flatten)]
    pub meta: Meta,
    pub expands: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub availability: Option<String>,
}

/// A scope set.
#[derive(Clone, Debug, Serialize)]
pub struct ScopeSet {
    #[serde(flatten)]
    pub meta: Meta,
    pub scopes: Vec<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
}

/// A token kind.
#[derive(Clone, Debug, Serialize)]
pub struct TokenKind {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheme: Option<String>,
}

/// A permission rule, with its forms over time.
#[derive(Clone, Debug, Serialize)]
pub struct PermissionRule {
    #[serde(flatten)]
    pub meta: Meta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<Ref>,
    pub applies_to: String,
    /// At least one; a rule with one form has one variant with no bounds.
    pub variants: Vec<RuleVariant>,
}

/// One form of a rule, valid between `since` and `until`.
#[derive(Clone, Debug, Serialize)]
pub struct RuleVariant {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<Ref>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<Ref>,
    pub rule: Rule,
    #[serde(skip)]
    pub span: Span,
}

/// A rule expression.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    Permission(Ref),
    All(Vec<Rule>),
    Any(Vec<Rule>),
    When {
        when: Cond,
        then: Box<Rule>,
        #[serde(rename = "else", skip_serializing_if = "Option::is_none")]
        otherwise: Option<Box<Rule>>,
    },
    Condition(Cond),
    Intent(Ref),
    Scope(Ref),
}

/// A condition expression: a named condition (with an argument) or its negation.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cond {
    Named {
        condition: Ref,
        #[serde(skip_serializing_if = "Option::is_none")]
        arg: Option<String>,
    },
    Not(Box<Cond>),
}

impl Rule {
    /// Every permission the rule names, in order, without duplicates.
    pub fn permissions(&self) -> Vec<&Ref> {
        let mut out: Vec<&Ref> = Vec::new();
        self.walk(&mut |r| {
            if let Rule::Permission(p) = r
                && !out.iter().any(|o| o.id == p.id)
            {
                out.push(p);
            }
        });
        out
    }

    /// Visits this rule and every sub-rule.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Rule)) {
        f(self);
        match self {
            Rule::All(rules) | Rule::Any(rules) => rules.iter().for_each(|r| r.walk(f)),
            Rule::When { then, otherwise, .. } => {
                then.walk(f);
                if let Some(o) = otherwise {
                    o.walk(f);
                }
            }
            Rule::Permission(_) | Rule::Condition(_) | Rule::Intent(_) | Rule::Scope(_) => {}
        }
    }

    /// Every condition the rule asks, including those inside `when`.
    pub fn conditions(&self) -> Vec<&Cond> {
        let mut out = Vec::new();
        self.walk(&mut |r| match r {
            Rule::When { when, .. } => out.push(when),
            Rule::Condition(c) => out.push(c),
            _ => {}
        });
        out
    }
}

impl Cond {
    /// The named condition at the root of the expression.
    pub fn named(&self) -> (&Ref, Option<&str>) {
        match self {
            Cond::Named { condition, arg } => (condition, arg.as_deref()),
            Cond::Not(inner) => inner.named(),
        }
    }
}

/// A numbered authorization rule.
#[derive(Clone, Debug, Serialize)]
pub struct AuthRule {
    #[serde(flatten)]
    pub meta: Meta,
    pub number: i64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<TypedRef>,
}

/// The authorization server.
#[derive(Clone, Debug, Serialize)]
pub struct AuthorizationServer {
    pub issuer: String,
    pub metadata: IndexMap<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_shown: Vec<Gap>,
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub assumed: IndexMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip)]
    pub span: Span,
    /// Each `assumed` key.
    #[serde(skip)]
    pub assumed_spans: Vec<Span>,
}
