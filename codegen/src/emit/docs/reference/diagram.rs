//! State diagrams (the spec's state machines, a gateway's session lifecycle): a layout the HTML
//! template draws as inline SVG, and Mermaid text for the Markdown (GitHub renders `mermaid` code
//! blocks).
//!
//! States sit in one row, in spec order; each transition is an arc above the row when it goes
//! right and below when it goes left, higher the further it reaches, so arcs rarely cross.
//! Text widths are estimated from character counts: no font metrics, so the output is the same
//! on every machine.

use crate::model::{Gateway, Model, StateMachine};
use serde::Serialize;

const CHAR_WIDTH: f64 = 7.4;
const BOX_HEIGHT: f64 = 40.0;
const BOX_PAD: f64 = 16.0;
const GAP: f64 = 90.0;
const MARGIN: f64 = 16.0;
const ARC_STEP: f64 = 34.0;
const LINE: f64 = 16.0;

/// A drawn diagram.
#[derive(Debug, Serialize)]
pub struct Diagram {
    pub width: i64,
    pub height: i64,
    pub states: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// A state box.
#[derive(Debug, Serialize)]
pub struct Node {
    pub x: i64,
    pub y: i64,
    pub w: i64,
    pub h: i64,
    pub tx: i64,
    pub ty: i64,
    pub label: String,
}

/// A transition arc with its label.
#[derive(Debug, Serialize)]
pub struct Edge {
    pub d: String,
    pub lx: i64,
    pub ly: i64,
    pub label: String,
}

/// States and labelled transitions, in drawing order.
#[derive(Debug, Default)]
pub struct Graph {
    /// Each state's id and name.
    pub states: Vec<(String, String)>,
    /// Each transition's source id, target id and label.
    pub edges: Vec<(String, String, String)>,
}

impl Graph {
    /// A state machine as the spec gives it.
    pub fn of_machine(machine: &StateMachine) -> Self {
        Graph {
            states: machine.states.iter().map(|s| (s.meta.id.clone(), s.meta.name.clone())).collect(),
            edges: machine.transitions.iter().map(|t| (t.from.id.clone(), t.to.id.clone(), t.meta.name.clone())).collect(),
        }
    }

    fn state(&mut self, id: &str, name: &str) {
        self.states.push((id.to_owned(), name.to_owned()));
    }

    /// Adds a transition; a second one between the same two states joins the first's label, so
    /// that no two arcs are drawn over each other.
    fn edge(&mut self, from: &str, to: &str, label: String) {
        match self.edges.iter_mut().find(|e| e.0 == from && e.1 == to) {
            Some(e) => e.2 = format!("{}; {label}", e.2),
            None => self.edges.push((from.to_owned(), to.to_owned(), label)),
        }
    }
}

/// The session lifecycle a gateway client goes through, as the runtime's shard drives it, with
/// the spec's names for the opcodes, events and close codes that move it. `None` when the spec
/// does not give what a session needs.
pub fn gateway_lifecycle(model: &Model, g: &Gateway) -> Option<Graph> {
    let (roles, ready) = (g.roles.as_ref()?, g.ready.as_ref()?);
    let resume = g.resume.as_ref()?;
    let op = |id: &str| model.opcodes.iter().find(|o| o.meta.id == id).map_or_else(|| id.to_owned(), |o| o.meta.name.clone());
    let codes = |policy: &str| {
        let codes: Vec<String> = g.close_codes.iter().filter(|c| c.policy.id == policy).map(|c| c.code.to_string()).collect();
        (!codes.is_empty()).then(|| codes.join(", "))
    };
    let mut graph = Graph::default();
    for (id, name) in [
        ("disconnected", "Disconnected"),
        ("hello", "Awaiting hello"),
        ("identifying", "Identifying"),
        ("resuming", "Resuming"),
        ("active", "Active"),
        ("closed", "Closed"),
    ] {
        graph.state(id, name);
    }
    graph.edge("disconnected", "hello", "connect".to_owned());
    graph.edge("hello", "identifying", format!("{} without a session: {}", op(&roles.hello.id), op(&roles.identify.id)));
    graph.edge("hello", "resuming", format!("{} with a session: {}", op(&roles.hello.id), op(&roles.resume.id)));
    graph.edge("identifying", "active", ready.event.id.clone());
    graph.edge("resuming", "active", resume.resumed.as_ref().map_or_else(|| "missed events replayed".to_owned(), |r| r.id.clone()));
    graph.edge("active", "active", format!("{} / {}", op(&roles.heartbeat.id), op(&roles.heartbeat_ack.id)));
    if let Some(r) = &roles.reconnect {
        graph.edge("active", "disconnected", op(&r.id));
    }
    graph.edge("active", "disconnected", format!("no {}", op(&roles.heartbeat_ack.id)));
    if let Some(codes) = codes("resume") {
        graph.edge("active", "disconnected", format!("close {codes}"));
    }
    if let Some(i) = &roles.invalid_session {
        graph.edge("resuming", "disconnected", op(&i.id));
    }
    if let Some(codes) = codes("reidentify") {
        graph.edge("active", "disconnected", format!("close {codes}, session dropped"));
    }
    if let Some(codes) = codes("fatal") {
        graph.edge("active", "closed", format!("close {codes}"));
    }
    Some(graph)
}

fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// Lays out the graph's states and transitions.
pub fn layout(graph: &Graph) -> Diagram {
    let widths: Vec<f64> = graph.states.iter().map(|s| text_width(&s.1) + 2.0 * BOX_PAD).collect();
    let mut xs = Vec::with_capacity(widths.len());
    let mut x = MARGIN;
    for w in &widths {
        xs.push(x);
        x += w + GAP;
    }
    let index = |id: &str| graph.states.iter().position(|s| s.0 == id);
    let arcs: Vec<Arc> = graph.edges.iter().filter_map(|(a, b, label)| Some(Arc { from: index(a)?, to: index(b)?, label })).collect();
    let up = arcs.iter().filter(|a| a.goes_right()).map(Arc::reach).fold(0.0, f64::max);
    let down = arcs.iter().filter(|a| !a.goes_right()).map(Arc::reach).fold(0.0, f64::max);
    let widest = arcs.iter().map(|a| text_width(a.label)).fold(0.0, f64::max);
    let width = (x - GAP + MARGIN).max(widest + 2.0 * MARGIN);
    let centre = |i: usize| xs[i] + widths[i] / 2.0;
    // Labels are placed once with the boxes at a provisional height, then everything moves down
    // by whatever room the stacked labels need above.
    let provisional = MARGIN + 14.0 + up * ARC_STEP;
    let highest = place_labels(&arcs, provisional, width, centre).iter().map(|l| l.1).fold(provisional, f64::min);
    let top = provisional + (MARGIN + 10.0 - highest).max(0.0);
    let labels = place_labels(&arcs, top, width, centre);
    let lowest = labels.iter().map(|l| l.1).fold(0.0, f64::max);
    let height = (top + BOX_HEIGHT + down * ARC_STEP + 14.0 + MARGIN).max(lowest + MARGIN);
    let states = graph
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| Node {
            x: xs[i].round() as i64,
            y: top.round() as i64,
            w: widths[i].round() as i64,
            h: BOX_HEIGHT as i64,
            tx: centre(i).round() as i64,
            ty: (top + BOX_HEIGHT / 2.0 + 4.0).round() as i64,
            label: s.1.clone(),
        })
        .collect();
    let edges = arcs
        .iter()
        .zip(labels)
        .map(|(arc, (lx, ly))| {
            let (x0, x1, y0, apex) = arc.ends(top, centre);
            // The curve's control point sits twice as far out as its apex.
            let ctrl = y0 + 2.0 * (apex - y0);
            Edge {
                d: format!("M {:.0} {:.0} Q {:.0} {:.0} {:.0} {:.0}", x0, y0, (x0 + x1) / 2.0, ctrl, x1, y0),
                lx: lx.round() as i64,
                ly: ly.round() as i64,
                label: arc.label.clone(),
            }
        })
        .collect();
    Diagram { width: width.round() as i64, height: height.round() as i64, states, edges }
}

/// A transition between two states, by their positions in the row.
struct Arc<'g> {
    from: usize,
    to: usize,
    label: &'g String,
}

impl Arc<'_> {
    fn goes_right(&self) -> bool {
        self.from <= self.to
    }

    fn reach(&self) -> f64 {
        self.from.abs_diff(self.to).max(1) as f64
    }

    /// Where the arc leaves and meets the row, the row's edge it stands on and its apex.
    fn ends(&self, top: f64, centre: impl Fn(usize) -> f64) -> (f64, f64, f64, f64) {
        let rise = self.reach() * ARC_STEP;
        let (y0, apex) = if self.goes_right() { (top, top - rise) } else { (top + BOX_HEIGHT, top + BOX_HEIGHT + rise) };
        let (a, b) = (self.from, self.to);
        let (x0, x1) = if a == b { (centre(a) - 12.0, centre(a) + 12.0) } else { (centre(a), centre(b)) };
        (x0, x1, y0, apex)
    }
}

/// Each arc's label at its apex, kept inside the width and moved outwards, a line at a time,
/// while it would overlap a label placed before it.
fn place_labels(arcs: &[Arc], top: f64, width: f64, centre: impl Fn(usize) -> f64 + Copy) -> Vec<(f64, f64)> {
    let mut placed: Vec<(f64, f64, f64)> = Vec::with_capacity(arcs.len());
    for arc in arcs {
        let (x0, x1, _, apex) = arc.ends(top, centre);
        let half = text_width(arc.label) / 2.0;
        let x = if width - MARGIN - half > MARGIN + half { ((x0 + x1) / 2.0).clamp(MARGIN + half, width - MARGIN - half) } else { width / 2.0 };
        let step = if arc.goes_right() { -LINE } else { LINE };
        let mut y = apex + step / LINE * 6.0;
        while placed.iter().any(|&(px, py, ph)| (py - y).abs() < LINE && (px - x).abs() < ph + half + 8.0) {
            y += step;
        }
        placed.push((x, y, half));
    }
    placed.into_iter().map(|(x, y, _)| (x, y)).collect()
}

/// The graph as a Mermaid state diagram. Ids and labels are reduced to characters Mermaid
/// reads literally, since a code block is shown verbatim and cannot be escaped.
pub fn mermaid(graph: &Graph) -> String {
    let id = |s: &str| s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>();
    let label = |s: &str| {
        let kept = s.chars().map(|c| if c == ';' { ',' } else { c }).filter(|c| c.is_alphanumeric() || " ,.'()&/_-".contains(*c));
        kept.collect::<String>().trim().to_owned()
    };
    let mut out = String::from("stateDiagram-v2\n");
    for (state, name) in &graph.states {
        out.push_str(&format!("    {}: {}\n", id(state), label(name)));
    }
    for (from, to, name) in &graph.edges {
        out.push_str(&format!("    {} --> {}: {}\n", id(from), id(to), label(name)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(states: &[&str], edges: &[(&str, &str, &str)]) -> Graph {
        Graph {
            states: states.iter().map(|s| (s.to_string(), s.to_string())).collect(),
            edges: edges.iter().map(|(a, b, l)| (a.to_string(), b.to_string(), l.to_string())).collect(),
        }
    }

    #[test]
    fn labels_never_overlap_and_stay_inside() {
        let g = graph(
            &["a", "b", "c", "d"],
            &[
                ("a", "b", "a long label that reaches over its neighbours"),
                ("b", "c", "another long label over the next arc"),
                ("c", "c", "a loop with a long label of its own"),
                ("c", "d", "and one more"),
                ("d", "a", "back to the start, below the row"),
                ("c", "a", "a shorter way back"),
            ],
        );
        let d = layout(&g);
        for (i, a) in d.edges.iter().enumerate() {
            let half = text_width(&a.label) / 2.0;
            assert!(a.lx as f64 - half >= MARGIN - 1.0 && a.lx as f64 + half <= d.width as f64 - MARGIN + 1.0, "{} leaves the drawing", a.label);
            assert!(a.ly >= 10 && a.ly <= d.height, "{} at {} outside 0..{}", a.label, a.ly, d.height);
            for b in &d.edges[i + 1..] {
                let apart = (a.ly - b.ly).abs() as f64 >= LINE || (a.lx - b.lx).abs() as f64 >= half + text_width(&b.label) / 2.0 + 8.0;
                assert!(apart, "{:?} overlaps {:?}", a.label, b.label);
            }
        }
    }

    #[test]
    fn transitions_between_the_same_states_are_one_arc() {
        let mut g = graph(&["a", "b"], &[]);
        g.edge("a", "b", "first".into());
        g.edge("a", "b", "second".into());
        assert_eq!(g.edges, vec![("a".into(), "b".into(), "first; second".into())]);
        assert!(mermaid(&g).contains("a --> b: first, second"));
    }
}
