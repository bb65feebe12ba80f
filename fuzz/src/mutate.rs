//! Near-valid specs: a seed spec's YAML trees edited the way a person (or a bad tool) edits them.
//!
//! Every choice is read from an [`Unstructured`], so the same bytes give the same spec and a
//! coverage-guided fuzzer steers the edits. Edits work on the parsed trees (delete, duplicate,
//! swap, rename a key, put an id, a key or a whole subtree of the same spec where another was,
//! nest deeply, repeat many times, odd scalars), then on the text (byte order mark, CRLF, tabs,
//! control characters, truncation, anchors and alias bombs), so that most inputs get past the
//! YAML parser and reach lowering, validation and the emitters.

use crate::archive::Files;
use crate::seeds::{self, Seed};
use arbitrary::{Result, Unstructured};
use serde_json::Value;
use std::sync::OnceLock;

/// A seed spec parsed once: its trees and what edits may borrow from it.
struct Parsed {
    /// Each file as a tree, or as text when it is not YAML to begin with (a syntax-error case).
    files: Vec<(String, Result<Value, String>)>,
    /// Every string scalar (ids, references, names), deduplicated.
    strings: Vec<String>,
    /// Every mapping key.
    keys: Vec<String>,
    /// Every node, as (file index, JSON pointer).
    nodes: Vec<(usize, String)>,
}

fn parsed() -> &'static [Parsed] {
    static PARSED: OnceLock<Vec<Parsed>> = OnceLock::new();
    PARSED.get_or_init(|| seeds::all().iter().map(parse_seed).collect())
}

fn parse_seed(seed: &Seed) -> Parsed {
    let mut parsed = Parsed { files: Vec::new(), strings: Vec::new(), keys: Vec::new(), nodes: Vec::new() };
    for (i, (path, text)) in seed.files.iter().enumerate() {
        let tree = serde_saphyr::from_str::<Value>(text).map_err(|_| text.clone());
        if let Ok(tree) = &tree {
            collect(tree, i, String::new(), &mut parsed);
        }
        parsed.files.push((path.clone(), tree));
    }
    parsed.strings.sort();
    parsed.strings.dedup();
    parsed.keys.sort();
    parsed.keys.dedup();
    parsed
}

fn collect(value: &Value, file: usize, pointer: String, out: &mut Parsed) {
    match value {
        Value::String(s) => out.strings.push(s.clone()),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| collect(v, file, format!("{pointer}/{i}"), out)),
        Value::Object(map) => {
            for (k, v) in map {
                out.keys.push(k.clone());
                collect(v, file, format!("{pointer}/{}", escape(k)), out);
            }
        }
        _ => {}
    }
    out.nodes.push((file, pointer));
}

pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The seeds that are valid specs, other than the shipped one (whose emitters take long): most
/// of the corpus is broken on purpose, and an edit of a valid spec is likelier to reach the
/// emitters.
fn valid_small() -> &'static [usize] {
    static VALID: OnceLock<Vec<usize>> = OnceLock::new();
    VALID.get_or_init(|| {
        let seeds = seeds::all();
        (0..seeds.len()).filter(|&i| seeds[i].name != "spec" && platform_codegen::load_spec_texts(seeds[i].files.clone()).is_ok()).collect()
    })
}

/// A near-valid spec chosen and edited by `u`: half the time from a valid seed, with one edit
/// more often than several.
pub fn spec(u: &mut Unstructured) -> Result<Files> {
    let all = parsed();
    let valid = valid_small();
    let seed = if !valid.is_empty() && u.arbitrary::<bool>()? { &all[*u.choose(valid)?] } else { &all[u.choose_index(all.len())?] };
    let mut trees: Vec<(String, Result<Value, String>)> = seed.files.clone();
    let edits = [1, 1, 1, 1, 2, 2, 3, 6];
    for _ in 0..*u.choose(&edits)? {
        edit_tree(u, seed, &mut trees)?;
    }
    let mut files: Files = trees.into_iter().map(|(path, tree)| (path, render(tree))).collect();
    if !files.is_empty() && u.ratio(1, 3)? {
        let i = u.choose_index(files.len())?;
        files[i].1 = edit_text(u, std::mem::take(&mut files[i].1), &SPEC_TEXT)?;
    }
    Ok(files)
}

fn render(tree: Result<Value, String>) -> String {
    match tree {
        Ok(value) => serde_saphyr::to_string(&value).unwrap_or_else(|_| serde_json::to_string_pretty(&value).expect("BUG: JSON values serialize")),
        Err(text) => text,
    }
}

/// One edit of one tree.
fn edit_tree(u: &mut Unstructured, seed: &Parsed, trees: &mut [(String, Result<Value, String>)]) -> Result<()> {
    let i = u.choose_index(trees.len())?;
    let Ok(tree) = &mut trees[i].1 else { return Ok(()) };
    let pointers = pointers_of(tree);
    let target = u.choose(&pointers)?.clone();
    match u.int_in_range(0..=9)? {
        0 => remove(tree, &target),
        1 => put(tree, &target, Value::String(pick(u, &seed.strings)?)),
        2 => put(tree, &target, odd_scalar(u)?),
        3 => put(tree, &target, borrowed(u, seed)?),
        4 => repeat_item(u, tree, &target)?,
        5 => rename_key(u, tree, &target, &seed.keys)?,
        6 => insert_key(u, tree, &target, seed)?,
        7 => nest(u, tree, &target)?,
        8 => swap_items(u, tree, &target)?,
        _ => put(tree, &target, Value::Array(Vec::new())),
    }
    Ok(())
}

fn pointers_of(tree: &Value) -> Vec<String> {
    let mut scratch = Parsed { files: Vec::new(), strings: Vec::new(), keys: Vec::new(), nodes: Vec::new() };
    collect(tree, 0, String::new(), &mut scratch);
    scratch.nodes.into_iter().map(|(_, p)| p).collect()
}

fn pick(u: &mut Unstructured, list: &[String]) -> Result<String> {
    if list.is_empty() { Ok(String::new()) } else { Ok(u.choose(list)?.clone()) }
}

pub(crate) fn put(tree: &mut Value, pointer: &str, value: Value) {
    if let Some(slot) = tree.pointer_mut(pointer) {
        *slot = value;
    }
}

/// The parent's pointer and the last segment (unescaped).
pub(crate) fn split(pointer: &str) -> Option<(&str, String)> {
    let (parent, last) = pointer.rsplit_once('/')?;
    Some((parent, last.replace("~1", "/").replace("~0", "~")))
}

pub(crate) fn remove(tree: &mut Value, pointer: &str) {
    let Some((parent, last)) = split(pointer) else { return };
    match tree.pointer_mut(parent) {
        Some(Value::Object(map)) => drop(map.shift_remove(&last)),
        Some(Value::Array(items)) => {
            if let Ok(i) = last.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
}

/// A scalar a spec rarely holds where it is put: another type, an extreme number, an empty,
/// long, invalid or control-character string.
pub(crate) fn odd_scalar(u: &mut Unstructured) -> Result<Value> {
    let long = "x".repeat(u.int_in_range(0..=70_000)?);
    let choices: [Value; 18] = [
        Value::Null,
        Value::Bool(true),
        (-1).into(),
        0.into(),
        i64::MAX.into(),
        u64::MAX.into(),
        i64::MIN.into(),
        serde_json::json!(1e308),
        serde_json::json!(-0.5),
        "".into(),
        long.into(),
        "é\u{202e}💥\u{feff}".into(),
        "\u{0}\u{7}\u{1b}[31m".into(),
        "2026-02-30".into(),
        "{base_url}/{".into(),
        "a b/c:d".into(),
        "99999999999999999999999999".into(),
        serde_json::json!({}),
    ];
    Ok(u.choose(&choices)?.clone())
}

/// A subtree of the same seed, from any of its files.
fn borrowed(u: &mut Unstructured, seed: &Parsed) -> Result<Value> {
    if seed.nodes.is_empty() {
        return Ok(Value::Null);
    }
    let (file, pointer) = u.choose(&seed.nodes)?;
    let tree = seed.files[*file].1.as_ref().ok();
    Ok(tree.and_then(|t| t.pointer(pointer)).cloned().unwrap_or(Value::Null))
}

fn repeat_item(u: &mut Unstructured, tree: &mut Value, pointer: &str) -> Result<()> {
    let times = if u.ratio(1, 8)? { u.int_in_range(2..=400)? } else { 1 };
    if let Some(Value::Array(items)) = tree.pointer_mut(pointer)
        && !items.is_empty()
    {
        let i = u.choose_index(items.len())?;
        let item = items[i].clone();
        for _ in 0..times {
            items.insert(i, item.clone());
        }
    }
    Ok(())
}

fn rename_key(u: &mut Unstructured, tree: &mut Value, pointer: &str, keys: &[String]) -> Result<()> {
    let new = pick(u, keys)?;
    if let Some(Value::Object(map)) = tree.pointer_mut(pointer)
        && !map.is_empty()
    {
        let old = map.keys().nth(u.choose_index(map.len())?).expect("BUG: index in range").clone();
        let value = map.shift_remove(&old).expect("BUG: the key is in the map");
        let new = if new == old { format!("{old}_") } else { new };
        map.insert(new, value);
    }
    Ok(())
}

fn insert_key(u: &mut Unstructured, tree: &mut Value, pointer: &str, seed: &Parsed) -> Result<()> {
    let key = pick(u, &seed.keys)?;
    let value = borrowed(u, seed)?;
    if let Some(Value::Object(map)) = tree.pointer_mut(pointer) {
        map.insert(key, value);
    }
    Ok(())
}

/// Wraps a node in sequences or rule combinators, up to past the parser's depth limit.
fn nest(u: &mut Unstructured, tree: &mut Value, pointer: &str) -> Result<()> {
    let depth = u.int_in_range(1..=200)?;
    let as_rule = u.arbitrary::<bool>()?;
    if let Some(slot) = tree.pointer_mut(pointer) {
        let mut value = slot.take();
        for _ in 0..depth {
            value = if as_rule { serde_json::json!({ "all": [value] }) } else { Value::Array(vec![value]) };
        }
        *slot = value;
    }
    Ok(())
}

fn swap_items(u: &mut Unstructured, tree: &mut Value, pointer: &str) -> Result<()> {
    if let Some(Value::Array(items)) = tree.pointer_mut(pointer)
        && items.len() > 1
    {
        let (a, b) = (u.choose_index(items.len())?, u.choose_index(items.len())?);
        items.swap(a, b);
    }
    Ok(())
}

/// What the text edits of one kind of input insert: the characters dropped into the text, what
/// starts a second document, the directives put first, and a prefix of its own.
pub(crate) struct TextEdits {
    pub inserts: &'static [&'static str],
    pub second_document: &'static str,
    pub directives: &'static str,
    pub prefix: &'static str,
}

/// The text edits of a spec file.
const SPEC_TEXT: TextEdits = TextEdits {
    inserts: &["\t", "\u{0}", "\u{fffe}", "\r", "\u{85}", "\u{2028}", "%", "&a ", "*a", "!!binary ", "? "],
    second_document: "\n...\n---\n",
    directives: "%YAML 1.1\n%TAG !x! tag:example.com,2000:\n---\n",
    prefix: "x: &a\n  <<: *a\n",
};

/// Edits of the text that no tree edit makes.
pub(crate) fn edit_text(u: &mut Unstructured, text: String, edits: &TextEdits) -> Result<String> {
    let at = char_boundary(&text, u.int_in_range(0..=text.len())?);
    Ok(match u.int_in_range(0..=8)? {
        0 => format!("\u{feff}{text}"),
        1 => text.replace('\n', "\r\n"),
        2 => text[..at].to_owned(),
        3 => format!("{}{}{}", &text[..at], u.choose(edits.inserts)?, &text[at..]),
        4 => format!("{text}{}{text}", edits.second_document),
        5 => format!("{}{}", alias_bomb(u.int_in_range(1..=12)?), text),
        6 => format!("{}{text}", edits.directives),
        7 => format!("{}\n{}", &text[..at], &text[..at]),
        _ => format!("{}{text}", edits.prefix),
    })
}

fn char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// "Billion laughs": each level repeats the previous one ten times through aliases.
fn alias_bomb(levels: u32) -> String {
    let mut out = String::from("a0: &a0 [lol]\n");
    for i in 1..=levels {
        let refs = vec![format!("*a{}", i - 1); 10].join(", ");
        out.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    out
}
