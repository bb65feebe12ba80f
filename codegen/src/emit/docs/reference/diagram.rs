//! State machine diagrams: a layout the HTML template draws as inline SVG, and Mermaid text for
//! the Markdown (GitHub renders `mermaid` code blocks).
//!
//! States sit in one row, in spec order; each transition is an arc above the row when it goes
//! right and below when it goes left, higher the further it reaches, so arcs rarely cross.
//! Text widths are estimated from character counts: no font metrics, so the output is the same
//! on every machine.

use crate::model::StateMachine;
use serde::Serialize;

const CHAR_WIDTH: f64 = 7.4;
const BOX_HEIGHT: f64 = 40.0;
const BOX_PAD: f64 = 16.0;
const GAP: f64 = 90.0;
const MARGIN: f64 = 16.0;
const ARC_STEP: f64 = 34.0;

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

fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// Lays out the machine's states and transitions.
pub fn layout(machine: &StateMachine) -> Diagram {
    let widths: Vec<f64> = machine.states.iter().map(|s| text_width(&s.meta.name) + 2.0 * BOX_PAD).collect();
    let mut xs = Vec::with_capacity(widths.len());
    let mut x = MARGIN;
    for w in &widths {
        xs.push(x);
        x += w + GAP;
    }
    let index = |id: &str| machine.states.iter().position(|s| s.meta.id == id);
    let arcs: Vec<(usize, usize, &str)> =
        machine.transitions.iter().filter_map(|t| Some((index(&t.from.id)?, index(&t.to.id)?, t.meta.name.as_str()))).collect();
    let reach = |(a, b, _): &(usize, usize, &str)| a.abs_diff(*b).max(1) as f64;
    let up = arcs.iter().filter(|a| a.0 <= a.1).map(reach).fold(0.0, f64::max);
    let down = arcs.iter().filter(|a| a.0 > a.1).map(reach).fold(0.0, f64::max);
    let top = MARGIN + 14.0 + up * ARC_STEP;
    let label_room = arcs.iter().map(|a| text_width(a.2)).fold(0.0, f64::max);
    let width = (x - GAP + MARGIN).max(label_room + 2.0 * MARGIN);
    let height = top + BOX_HEIGHT + down * ARC_STEP + 14.0 + MARGIN;
    let centre = |i: usize| xs[i] + widths[i] / 2.0;
    let states = machine
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
            label: s.meta.name.clone(),
        })
        .collect();
    let edges = arcs
        .iter()
        .map(|arc| {
            let (a, b, label) = *arc;
            let rise = reach(arc) * ARC_STEP;
            let (y0, y1, sign) = if a <= b { (top, top - rise, -1.0) } else { (top + BOX_HEIGHT, top + BOX_HEIGHT + rise, 1.0) };
            let (x0, x1) = if a == b { (centre(a) - 12.0, centre(a) + 12.0) } else { (centre(a), centre(b)) };
            let mid = (x0 + x1) / 2.0;
            // The curve's control point sits twice as far out as its apex.
            let ctrl = y0 + 2.0 * (y1 - y0);
            Edge {
                d: format!("M {:.0} {:.0} Q {:.0} {:.0} {:.0} {:.0}", x0, y0, mid, ctrl, x1, y0),
                lx: mid.round() as i64,
                ly: (y1 + sign * 6.0).round() as i64,
                label: label.to_owned(),
            }
        })
        .collect();
    Diagram { width: width.round() as i64, height: height.round() as i64, states, edges }
}

/// The machine as a Mermaid state diagram. Ids and labels are reduced to characters Mermaid
/// reads literally, since a code block is shown verbatim and cannot be escaped.
pub fn mermaid(machine: &StateMachine) -> String {
    let id = |s: &str| s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect::<String>();
    let label = |s: &str| s.chars().filter(|c| c.is_alphanumeric() || " ,.'()&/-".contains(*c)).collect::<String>().trim().to_owned();
    let mut out = String::from("stateDiagram-v2\n");
    for s in &machine.states {
        out.push_str(&format!("    {}: {}\n", id(&s.meta.id), label(&s.meta.name)));
    }
    for t in &machine.transitions {
        out.push_str(&format!("    {} --> {}: {}\n", id(&t.from.id), id(&t.to.id), label(&t.meta.name)));
    }
    out
}
