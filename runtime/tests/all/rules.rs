//! Rule expressions over a vocabulary of the test's own: evaluation, what is missing, and what a
//! rule asks of the implementation; forms bounded by dated changes.

use platform_codegen_runtime::rules::{Audience, Cond, Facts, Needs, PermissionRule, Requirement, Rule, RuleVariant, Vocabulary};
use platform_codegen_runtime::timeline::{Change, ChangeKind, Effective};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Words {}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Word {
    Admin,
    Pin,
    Connected,
    Content,
    Guilds,
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl Vocabulary for Words {
    type Permission = Word;
    type Condition = Word;
    type Intent = Word;
    type Scope = Word;
}

struct Holds(&'static [Word]);

impl Facts<Words> for Holds {
    fn has_permission(&self, p: Word) -> bool {
        self.0.contains(&p)
    }
    fn holds(&self, c: Word) -> bool {
        self.0.contains(&c)
    }
    fn has_intent(&self, i: Word) -> bool {
        self.0.contains(&i)
    }
    fn has_scope(&self, s: Word) -> bool {
        self.0.contains(&s)
    }
}

const CONNECTED: Cond<Words> = Cond::Is(Word::Connected);
const RULE: Rule<Words> = Rule::All(&[
    Rule::When { when: Cond::Not(&CONNECTED), then: &Rule::Permission(Word::Admin), otherwise: None },
    Rule::Any(&[Rule::Permission(Word::Pin), Rule::All(&[Rule::Intent(Word::Content), Rule::Scope(Word::Guilds)])]),
]);

#[test]
fn rules_say_everything_a_caller_lacks() {
    assert!(RULE.holds(&Holds(&[Word::Connected, Word::Pin])));
    assert!(RULE.holds(&Holds(&[Word::Admin, Word::Content, Word::Guilds])));
    let missing = RULE.missing(&Holds(&[Word::Content]));
    let words: Vec<String> = missing.iter().map(ToString::to_string).collect();
    assert_eq!(words, ["Admin", "any of (Pin, scope Guilds)"]);
    assert_eq!(missing[0], Requirement::Permission(Word::Admin));
}

#[test]
fn a_rule_gathers_what_it_asks() {
    let mut needs = Needs::<Words>::default();
    RULE.gather(&mut needs);
    assert!(needs.permissions && needs.intents && needs.scopes);
    assert_eq!(needs.conditions, [Word::Connected]);
    assert_eq!(RULE.permissions(), [Word::Admin, Word::Pin]);
    assert_eq!(CONNECTED.to_string(), "Connected");
    assert_eq!(Cond::<Words>::Not(&CONNECTED).to_string(), "not Connected");
}

const PIN_REQUIRED: Change = Change {
    id: "pin-required",
    effective: Effective::At(jiff::Timestamp::constant(1_771_804_800, 0)),
    kind: ChangeKind::Requirement,
    summary: "Pin is required",
    gate: false,
};

const PIN: PermissionRule<Words> = PermissionRule {
    id: "pin",
    name: "Pin",
    operation: None,
    endpoints: &[],
    applies_to: Audience::Bots,
    variants: &[
        RuleVariant { since: None, until: Some(&PIN_REQUIRED), rule: Rule::Permission(Word::Admin) },
        RuleVariant { since: Some(&PIN_REQUIRED), until: None, rule: Rule::Permission(Word::Pin) },
    ],
};

#[test]
fn a_rule_takes_the_form_in_force_at_an_instant() {
    let before: jiff::Timestamp = "2026-02-22T23:59:59Z".parse().unwrap();
    let after: jiff::Timestamp = "2026-02-23T00:00:00Z".parse().unwrap();
    assert_eq!(PIN.at(before), Some(&Rule::Permission(Word::Admin)));
    assert_eq!(PIN.at(after), Some(&Rule::Permission(Word::Pin)));
    assert_eq!(PIN.missing(after, &Holds(&[Word::Admin])), [Requirement::Permission(Word::Pin)]);
    assert!(PIN.applies_to.includes(true) && !PIN.applies_to.includes(false));
    assert_eq!(ChangeKind::Requirement.id(), "requirement");
    assert!(!Change { effective: Effective::Unscheduled, ..PIN_REQUIRED }.is_in_effect(after));
}
