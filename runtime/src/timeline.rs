//! The timeline: dated changes, when each takes effect and what it does. A spec's changes are
//! constants of its types crate; a date-only effective date means 00:00 UTC that day.

use jiff::Timestamp;

/// When a change takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effective {
    /// In effect before any instant a caller can ask about.
    AlreadyInEffect,
    /// In effect from this instant on.
    At(Timestamp),
    /// Announced without a date: not in effect yet.
    Unscheduled,
}

/// What a change does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    /// Something is added.
    Addition,
    /// Something is removed.
    Removal,
    /// Something is renamed; the old name stays as an alias until it is removed.
    Rename,
    /// A requirement (permission, intent, scope, parameter) is added or tightened.
    Requirement,
    /// The shape of a value changes.
    Shape,
    /// Behaviour changes with no change of shape; code that carries it out asks a gate.
    Behavior,
    /// Something is deprecated.
    Deprecation,
    /// The spec was wrong and is corrected; the API itself did not change.
    Correction,
}

impl ChangeKind {
    /// The kind's spec spelling.
    pub const fn id(self) -> &'static str {
        match self {
            Self::Addition => "addition",
            Self::Removal => "removal",
            Self::Rename => "rename",
            Self::Requirement => "requirement",
            Self::Shape => "shape",
            Self::Behavior => "behavior",
            Self::Deprecation => "deprecation",
            Self::Correction => "correction",
        }
    }
}

/// A dated change: the only thing that moves an item along its timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The stable id (`pin-messages-required`).
    pub id: &'static str,
    /// When it takes effect.
    pub effective: Effective,
    /// What it does.
    pub kind: ChangeKind,
    /// One sentence saying what changes.
    pub summary: &'static str,
    /// Whether hand-written code asks it at run time (behaviour only the implementation carries out).
    pub gate: bool,
}

impl Change {
    /// Whether the change is in effect at `now`: from its effective instant on, always
    /// when already in effect, never while unscheduled.
    pub fn is_in_effect(&self, now: Timestamp) -> bool {
        match self.effective {
            Effective::AlreadyInEffect => true,
            Effective::At(at) => now >= at,
            Effective::Unscheduled => false,
        }
    }

    /// The effective instant, when the change has one.
    pub const fn effective_at(&self) -> Option<Timestamp> {
        match self.effective {
            Effective::At(at) => Some(at),
            Effective::AlreadyInEffect | Effective::Unscheduled => None,
        }
    }
}
