//! Views of state machines: states, transitions and their effects.

use super::*;

#[derive(Debug, Serialize)]
pub struct StateView {
    pub meta: MetaView,
    pub value: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct EffectView {
    pub meta: MetaView,
    pub links: Vec<Span>,
}

#[derive(Debug, Serialize)]
pub struct TransitionView {
    pub meta: MetaView,
    pub from: Span,
    pub to: Span,
    pub triggers: Vec<String>,
    pub condition: Option<String>,
    pub effects: Vec<EffectView>,
}

#[derive(Debug, Serialize)]
pub struct MachineView {
    pub meta: MetaView,
    pub links: Vec<Span>,
    pub states: Vec<StateView>,
    pub transitions: Vec<TransitionView>,
    pub diagram: Diagram,
    pub mermaid: String,
}

pub fn state_machine(cx: &Cx, m: &StateMachine) -> MachineView {
    let state_link = |id: &str| {
        let name = m.states.iter().find(|s| s.meta.id == id).map_or(id, |s| s.meta.name.as_str());
        Span { text: name.to_owned(), href: Some(href("state", &format!("{}.{id}", m.meta.id))), code: false }
    };
    let transitions = m
        .transitions
        .iter()
        .map(|t| TransitionView {
            meta: cx.meta("transition", &format!("{}.{}", m.meta.id, t.meta.id), &t.meta),
            from: state_link(&t.from.id),
            to: state_link(&t.to.id),
            triggers: t.triggers.clone(),
            condition: t.condition.clone(),
            effects: t
                .effects
                .iter()
                .map(|e| EffectView {
                    meta: cx.meta("effect", &format!("{}.{}.{}", m.meta.id, t.meta.id, e.meta.id), &e.meta),
                    links: e.event.iter().map(|x| cx.link("event", &x.id)).chain(e.error.iter().map(|x| cx.link("error", &x.id))).collect(),
                })
                .collect(),
        })
        .collect();
    let links = m.subject.iter().map(|s| cx.typed(s)).chain(m.state_enum.iter().map(|e| cx.link("enum", &e.id))).collect();
    MachineView {
        meta: cx.meta("state_machine", &m.meta.id, &m.meta),
        links,
        states: m.states.iter().map(|s| StateView { meta: cx.meta("state", &format!("{}.{}", m.meta.id, s.meta.id), &s.meta), value: s.value }).collect(),
        transitions,
        diagram: diagram::layout(&diagram::Graph::of_machine(m)),
        mermaid: diagram::mermaid(&diagram::Graph::of_machine(m)),
    }
}
