//! Decoding an integer-tagged union with the generated `Deserialize` (tag read first, no JSON
//! tree) against serde's derived internally tagged decoding of the same shapes tagged by text.
//! Run with `cargo bench --bench unions`; figures go in docs/benchmarks.md.
//!
//! Both sides decode 100 components (rows of buttons and menus) from JSON text into the same
//! field types; the derived side's variants carry no `type` field (serde consumes the tag),
//! the generated side's do, so it reads one field more.

use criterion::{Criterion, criterion_group, criterion_main};
use serde::Deserialize;
use shapes_types::enums::ButtonStyle;
use shapes_types::resources::ButtonEmoji;
use shapes_types::unions::Component;
use std::hint::black_box;

/// serde's internally tagged enum: the tag is a string, the input is buffered before dispatch.
#[derive(Deserialize)]
#[serde(tag = "type")]
#[allow(dead_code)]
enum Derived {
    #[serde(rename = "action_row")]
    ActionRow { components: Vec<Derived> },
    #[serde(rename = "button")]
    Button { style: ButtonStyle, label: Option<String>, url: Option<String>, emoji: Option<ButtonEmoji> },
    #[serde(rename = "select")]
    Select { custom_id: String, options: Vec<String> },
}

/// 100 components as JSON, the tag written as `tag(kind)` and first or last in each object.
fn input(tag: impl Fn(&str) -> String, first: bool) -> String {
    let object = |kind: &str, rest: &str| if first { format!("{{\"type\":{},{rest}}}", tag(kind)) } else { format!("{{{rest},\"type\":{}}}", tag(kind)) };
    let button = object("button", r#""style":1,"label":"Go","emoji":{"name":"rocket","animated":false}"#);
    let select = object("select", r#""custom_id":"pick","options":["a","b","c"]"#);
    let row = object("action_row", &format!("\"components\":[{button},{button},{select}]"));
    let items: Vec<String> = (0..25).map(|_| row.clone()).collect();
    format!("[{}]", items.join(","))
}

fn integer_tag(kind: &str) -> String {
    match kind {
        "action_row" => "1",
        "button" => "2",
        _ => "3",
    }
    .to_owned()
}

fn decode(c: &mut Criterion) {
    let integers = input(integer_tag, true);
    let integers_last = input(integer_tag, false);
    let texts = input(|k| format!("\"{k}\""), true);
    assert_eq!(serde_json::from_str::<Vec<Component>>(&integers).map(|v| v.len()).ok(), Some(25));
    assert!(serde_json::from_str::<Vec<Component>>(&integers).unwrap().iter().all(|c| matches!(c, Component::ActionRow(_))));
    assert_eq!(serde_json::from_str::<Vec<Derived>>(&texts).map(|v| v.len()).ok(), Some(25));
    let mut group = c.benchmark_group("decode 100 components");
    group.bench_function("generated, integer tag first", |b| b.iter(|| black_box(serde_json::from_str::<Vec<Component>>(black_box(&integers)).unwrap().len())));
    group.bench_function("generated, integer tag last", |b| {
        b.iter(|| black_box(serde_json::from_str::<Vec<Component>>(black_box(&integers_last)).unwrap().len()))
    });
    group.bench_function("serde derived, string tag first", |b| b.iter(|| black_box(serde_json::from_str::<Vec<Derived>>(black_box(&texts)).unwrap().len())));
    group.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);
