//! The source ledger, `docs/ledger.yaml`: every statement of the source document
//! (`docs/source.md`) mapped to the spec items that carry it, or to the reason none does.
//!
//! The checks are mechanical: the statements are cut from the source by one rule (below), the
//! ledger has exactly one entry per statement in source order, each entry quotes how its
//! statement begins, every item it names resolves in the model of `spec/`, and every item of the
//! spec is named by some entry or marks its id as assumed.

use platform_codegen::model::Index;
use platform_codegen::model::{Field, Model};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;

/// One ledger entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// The statement: `L<line>` or `L<line>.<sentence>`.
    at: String,
    /// How the statement begins, verbatim (whitespace runs count as one space).
    says: String,
    /// The items that carry it.
    #[serde(default)]
    items: Vec<String>,
    /// Why no item carries it.
    #[serde(default)]
    none: Option<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ledger() -> Vec<Entry> {
    let text = std::fs::read_to_string(root().join("docs/ledger.yaml")).expect("docs/ledger.yaml is readable");
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("docs/ledger.yaml: {e}"))
}

fn source() -> String {
    std::fs::read_to_string(root().join("docs/source.md")).expect("docs/source.md is readable")
}

fn model() -> Model {
    match platform_codegen::load_spec(&root().join("spec"), "spec") {
        Ok(loaded) => loaded.model,
        Err(_) => panic!("the shipped spec is invalid; run `cargo run -p platform-codegen -- check`"),
    }
}

/// A statement of the source: its id and its text.
#[derive(Debug, PartialEq)]
struct Statement {
    id: String,
    text: String,
}

/// `| --- | --- |`: the line under a table's header.
fn is_separator(line: &str) -> bool {
    let line = line.trim();
    line.starts_with('|')
        && line.len() > 2
        && line.trim_matches('|').split('|').all(|cell| {
            let cell = cell.trim().trim_matches(':');
            !cell.is_empty() && cell.chars().all(|c| c == '-')
        })
}

/// Cuts the source into statements. A heading, a table row (not a header or separator row) or a
/// line of text with one sentence is one statement, `L<n>`. A line of text with several
/// sentences gives one statement per sentence, `L<n>.<k>`; a sentence ends at a period followed
/// by a space and a capital letter or a backtick. List markers (`- `, `3. `) are not part of it.
fn statements(source: &str) -> Vec<Statement> {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = Vec::new();
    for (index, raw) in lines.iter().enumerate() {
        let (n, line) = (index + 1, raw.trim());
        if line.is_empty() || is_separator(line) {
            continue;
        }
        if line.starts_with('|') {
            let is_header = lines.get(index + 1).is_some_and(|next| is_separator(next));
            if !is_header {
                out.push(Statement { id: format!("L{n}"), text: line.to_owned() });
            }
            continue;
        }
        if line.starts_with('#') {
            out.push(Statement { id: format!("L{n}"), text: line.to_owned() });
            continue;
        }
        let sentences = sentences(strip_marker(line));
        if let [one] = sentences.as_slice() {
            out.push(Statement { id: format!("L{n}"), text: one.clone() });
        } else {
            out.extend(sentences.into_iter().enumerate().map(|(k, text)| Statement { id: format!("L{n}.{}", k + 1), text }));
        }
    }
    out
}

/// `- item` and `12. item` without their marker.
fn strip_marker(line: &str) -> &str {
    if let Some(rest) = line.strip_prefix("- ") {
        return rest;
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    match line[digits..].strip_prefix(". ") {
        Some(rest) if digits > 0 => rest,
        _ => line,
    }
}

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for i in 0..bytes.len().saturating_sub(2) {
        let next = bytes[i + 2];
        if bytes[i] == b'.' && bytes[i + 1] == b' ' && (next.is_ascii_uppercase() || next == b'`') {
            out.push(text[start..=i].to_owned());
            start = i + 2;
        }
    }
    out.push(text[start..].to_owned());
    out
}

fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn has_field<'a>(mut fields: impl Iterator<Item = &'a Field>, name: &str) -> bool {
    fields.any(|f| f.name == name)
}

/// Whether a ledger item (`kind:id`, or a one-of-a-kind block's name) names something in the model.
fn resolves(model: &Model, index: &Index, item: &str) -> bool {
    let Some((kind, id)) = item.split_once(':') else {
        return match item {
            "platform" => !model.platform.name.is_empty(),
            "authorization_server" => model.authorization_server.is_some(),
            "error_body" => model.error_body.is_some(),
            "release_policy" => model.release_policy.is_some(),
            _ => false,
        };
    };
    let member = |id: &str| id.split_once('.').map(|(owner, rest)| (owner.to_owned(), rest.to_owned()));
    match kind {
        "endpoint_field" => member(id).is_some_and(|(owner, name)| {
            model.endpoint(&owner).is_some_and(|e| {
                let all = e.path_params.iter().chain(&e.query).chain(&e.body).chain(&e.response_fields).chain(&e.response_columns).chain(&e.body_schema);
                has_field(all, &name)
            })
        }),
        "event_field" => {
            member(id).is_some_and(|(owner, name)| model.events.iter().find(|e| e.meta.id == owner).is_some_and(|e| has_field(e.fields.iter(), &name)))
        }
        "class_field" => member(id).is_some_and(|(owner, name)| model.class(&owner).is_some_and(|c| has_field(c.fields.iter(), &name))),
        "method" => member(id).is_some_and(|(owner, name)| model.class(&owner).is_some_and(|c| c.methods.iter().any(|m| m.meta.id == name))),
        "behaviour" => member(id).is_some_and(|(owner, name)| model.endpoint(&owner).is_some_and(|e| e.behaviours.iter().any(|b| b.meta.id == name))),
        "alias" => member(id)
            .is_some_and(|(owner, name)| model.commands.iter().find(|c| c.meta.id == owner).is_some_and(|c| c.aliases.iter().any(|a| a.meta.id == name))),
        "state" | "transition" | "effect" => member(id).is_some_and(|(owner, rest)| {
            let Some(m) = model.state_machines.iter().find(|m| m.meta.id == owner) else { return false };
            match kind {
                "state" => m.states.iter().any(|s| s.meta.id == rest),
                "transition" => m.transitions.iter().any(|t| t.meta.id == rest),
                _ => rest.split_once('.').is_some_and(|(t, e)| m.transitions.iter().any(|x| x.meta.id == t && x.effects.iter().any(|f| f.meta.id == e))),
            }
        }),
        // Release ids hold dots (`1.10.18247`), so the toolkit is after the last one.
        "toolkit" => id
            .rsplit_once('.')
            .is_some_and(|(release, name)| model.releases.iter().find(|r| r.meta.id == release).is_some_and(|r| r.toolkits.iter().any(|t| t.meta.id == name))),
        _ => index.has(kind, id),
    }
}

#[test]
fn the_source_cuts_into_statements_that_cover_every_line() {
    let source = source();
    let statements = statements(&source);
    // Every line with text is a statement, part of one, or the frame of a table.
    let covered: BTreeSet<usize> = statements.iter().map(|s| s.id[1..].split('.').next().unwrap().parse::<usize>().unwrap()).collect();
    for (index, line) in source.lines().enumerate() {
        let n = index + 1;
        let frame = is_separator(line) || source.lines().nth(index + 1).is_some_and(is_separator);
        assert!(line.trim().is_empty() || frame || covered.contains(&n), "line {n} is in no statement: {line}");
    }
    // The rule itself, on the cases it must get right.
    assert_eq!(sentences("Rate limits: not shown."), ["Rate limits: not shown."]);
    assert_eq!(
        sentences("`type` 4 is it. Other types. `x` too. release 1.10 and 1.5 stay."),
        ["`type` 4 is it.", "Other types.", "`x` too. release 1.10 and 1.5 stay."]
    );
    assert_eq!(strip_marker("2. Social SDK releases: three. More."), "Social SDK releases: three. More.");
    assert!(is_separator("|---|---|") && !is_separator("| a | b |"));
}

#[test]
fn every_statement_has_exactly_one_entry_in_source_order() {
    let statements = statements(&source());
    let expected: Vec<&str> = statements.iter().map(|s| s.id.as_str()).collect();
    let ledger = ledger();
    let got: Vec<&str> = ledger.iter().map(|e| e.at.as_str()).collect();
    let missing: Vec<&&str> = expected.iter().filter(|id| !got.contains(id)).collect();
    let unknown: Vec<&&str> = got.iter().filter(|id| !expected.contains(id)).collect();
    assert!(missing.is_empty(), "statements of the source with no ledger entry: {missing:?}");
    assert!(unknown.is_empty(), "ledger entries for no statement of the source: {unknown:?}");
    assert_eq!(got, expected, "the ledger lists each statement once, in source order");
}

#[test]
fn every_entry_quotes_how_its_statement_begins() {
    let statements = statements(&source());
    let mut wrong = Vec::new();
    for entry in ledger() {
        let Some(s) = statements.iter().find(|s| s.id == entry.at) else { continue };
        let says = normalized(&entry.says);
        if says.is_empty() || !normalized(&s.text).starts_with(&says) {
            wrong.push(format!("{}: says `{}`, the statement is `{}`", entry.at, entry.says, s.text));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_entry_names_items_of_the_model_or_says_why_none() {
    let model = model();
    let index = Index::build(&model);
    let mut wrong = Vec::new();
    for entry in ledger() {
        match (&entry.items[..], &entry.none) {
            ([], None) => wrong.push(format!("{}: neither `items` nor `none`", entry.at)),
            ([_, ..], Some(_)) => wrong.push(format!("{}: both `items` and `none`", entry.at)),
            ([], Some(why)) if why.trim().is_empty() => wrong.push(format!("{}: `none` gives no reason", entry.at)),
            _ => {}
        }
        for item in &entry.items {
            if !resolves(&model, &index, item) {
                wrong.push(format!("{}: `{item}` is no item of the spec", entry.at));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The other direction: an item of the spec that no statement carries is one the spec made up,
/// and must say so by assuming its id.
#[test]
fn every_item_of_the_spec_is_in_the_ledger_or_assumed() {
    let model = model();
    let named: BTreeSet<String> = ledger().into_iter().flat_map(|e| e.items).collect();
    let mut unnamed = Vec::new();
    let mut check = |kind: &str, meta: &platform_codegen::model::Meta| {
        let item = format!("{kind}:{}", meta.id);
        if !named.contains(&item) && meta.assumption("id").is_none() {
            unnamed.push(item);
        }
    };
    model.platform.parts.iter().for_each(|x| check("part", &x.meta));
    model.platform.placeholders.iter().for_each(|x| check("placeholder", &x.meta));
    model.features.iter().for_each(|x| check("feature", &x.meta));
    model.constants.iter().for_each(|x| check("constant", &x.meta));
    model.gaps.iter().for_each(|x| check("gap", &x.meta));
    model.permissions.iter().for_each(|x| check("permission", &x.meta));
    model.resources.iter().for_each(|x| check("resource", &x.meta));
    model.enums.iter().for_each(|x| check("enum", &x.meta));
    model.flags.iter().for_each(|x| check("flags", &x.meta));
    model.endpoints.iter().for_each(|x| check("endpoint", &x.meta));
    model.opcodes.iter().for_each(|x| check("opcode", &x.meta));
    model.commands.iter().for_each(|x| check("command", &x.meta));
    model.conditions.iter().for_each(|x| check("condition", &x.meta));
    model.intents.iter().for_each(|x| check("intent", &x.meta));
    model.scopes.iter().for_each(|x| check("scope", &x.meta));
    model.scope_sets.iter().for_each(|x| check("scope_set", &x.meta));
    model.token_kinds.iter().for_each(|x| check("token_kind", &x.meta));
    model.permission_rules.iter().for_each(|x| check("permission_rule", &x.meta));
    model.auth_rules.iter().for_each(|x| check("auth_rule", &x.meta));
    model.events.iter().for_each(|x| check("event", &x.meta));
    model.errors.iter().for_each(|x| check("error", &x.meta));
    model.limits.iter().for_each(|x| check("limit", &x.meta));
    model.changes.iter().for_each(|x| check("change", &x.meta));
    model.state_machines.iter().for_each(|x| check("state_machine", &x.meta));
    model.classes.iter().for_each(|x| check("class", &x.meta));
    model.sdk_calls.iter().for_each(|x| check("sdk_call", &x.meta));
    model.releases.iter().for_each(|x| check("release", &x.meta));
    assert!(unnamed.is_empty(), "items no ledger entry names and whose id is not assumed: {unnamed:?}");
}
