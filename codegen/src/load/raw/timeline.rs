//! How things move over time: dated changes, and state machines with their transitions.

use super::S;

item! {
    /// A dated change: the only thing that moves items along the timeline.
    pub struct Change {
        /// `YYYY-MM-DD` (00:00 UTC), `already_in_effect` or `unscheduled`.
        pub effective: S<String>,
        /// removal | rename | requirement | shape | behavior | deprecation | correction | addition
        pub kind: S<String>,
        pub summary: S<String>,
        /// Items the change affects, as typed references (`endpoint:get_guild_channels`).
        #[serde(default)]
        pub affects: Vec<S<String>>,
        /// Generate a named runtime gate.
        #[serde(default)]
        pub gate: Option<S<bool>>,
    }
}

item! {
    /// A state machine: states and the transitions between them.
    pub struct StateMachine {
        /// The item whose state it is (typed reference).
        #[serde(default)]
        pub subject: Option<S<String>>,
        /// The enum whose values are the states, when there is one.
        #[serde(rename = "enum", default)]
        pub state_enum: Option<S<String>>,
        #[serde(default)]
        pub states: Vec<S<State>>,
        #[serde(default)]
        pub transitions: Vec<S<Transition>>,
    }
}

item! {
    /// One state.
    pub struct State {
        /// The enum value it corresponds to.
        #[serde(default)]
        pub value: Option<S<i64>>,
    }
}

item! {
    /// A transition and what else happens when it is taken.
    pub struct Transition {
        pub from: S<String>,
        pub to: S<String>,
        /// What moves it, in the source's words.
        #[serde(default)]
        pub triggers: Vec<S<String>>,
        /// The condition under which it is taken.
        #[serde(default)]
        pub condition: Option<S<String>>,
        #[serde(default)]
        pub effects: Vec<S<Effect>>,
    }
}

item! {
    /// A side effect of a transition; may name the event dispatched or the error returned after.
    pub struct Effect {
        #[serde(default)]
        pub event: Option<S<String>>,
        #[serde(default)]
        pub error: Option<S<String>>,
    }
}
