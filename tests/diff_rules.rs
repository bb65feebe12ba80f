//! The `diff` rule catalogue: every rule has a pair of minimal specs under
//! `tests/diff/<rule-id>/{old,new}/` whose diff must contain a finding of that rule, with the
//! whole report equal to `expected.json`. More cases of one rule are `<rule-id>+<what>/`; a
//! `today` file gives the day the check runs on.
//!
//! Bless new expectations with `UPDATE_EXPECT=1 cargo test --test all diff_rules::`.

use platform_codegen::diff::{self, CATALOGUE, DiffOptions, Finding, Sides};
use platform_codegen::{LoadError, Loaded, diag, load_spec};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).expect("tests/diff exists").map(|e| e.expect("an entry").path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs
}

fn load(dir: &Path, shown: &str) -> Loaded {
    match load_spec(dir, shown) {
        Ok(loaded) => loaded,
        Err(LoadError::Invalid { sources, diagnostics }) => {
            panic!("{} is not a valid spec:\n{}", dir.display(), diag::render_text(&sources, &diagnostics, false))
        }
        Err(LoadError::Io(e)) => panic!("{}: {e}", dir.display()),
    }
}

fn options(dir: &Path) -> DiffOptions {
    match std::fs::read_to_string(dir.join("today")) {
        Ok(text) => DiffOptions::default().with_today(text.trim().parse().expect("`today` holds a YYYY-MM-DD date")),
        Err(_) => DiffOptions::default(),
    }
}

fn rule_of(dir: &Path) -> String {
    let name = dir.file_name().expect("a case name").to_string_lossy().to_string();
    name.split('+').next().expect("a rule id").to_owned()
}

fn report(findings: &[Finding], old: &Loaded, new: &Loaded) -> String {
    let sides = Sides { old: &old.sources, new: &new.sources };
    let list: Vec<serde_json::Value> = findings.iter().map(|f| diff::to_json(f, sides)).collect();
    serde_json::to_string_pretty(&list).expect("findings serialize") + "\n"
}

#[test]
fn every_rule_has_a_case_and_every_case_finds_its_rule() {
    let bless = std::env::var_os("UPDATE_EXPECT").is_some();
    let cases = cases();
    assert!(CATALOGUE.len() >= 40, "the catalogue shrank to {} rules", CATALOGUE.len());
    for rule in CATALOGUE {
        assert!(cases.iter().any(|d| rule_of(d) == rule.id), "rule `{}` has no case under tests/diff/", rule.id);
    }
    let mut failures = Vec::new();
    for dir in &cases {
        let name = dir.file_name().expect("a name").to_string_lossy().to_string();
        let rule = rule_of(dir);
        assert!(CATALOGUE.iter().any(|r| r.id == rule), "{name}: `{rule}` is not a rule of the catalogue");
        let (old, new) = (load(&dir.join("old"), "old"), load(&dir.join("new"), "new"));
        let findings = diff::diff(&old.model, &new.model, &options(dir));
        assert!(findings.iter().any(|f| f.rule.id == rule), "{name}: no `{rule}` finding in:\n{}", report(&findings, &old, &new));
        let text = report(&findings, &old, &new);
        let path = dir.join("expected.json");
        if bless {
            std::fs::write(&path, &text).expect("write expected.json");
        } else if std::fs::read_to_string(&path).unwrap_or_default() != text {
            failures.push(format!("--- {name}: expected\n{}\n+++ got\n{text}", std::fs::read_to_string(&path).unwrap_or_default()));
        }
    }
    assert!(failures.is_empty(), "{}\n\nrun `UPDATE_EXPECT=1 cargo test --test all diff_rules::` if the change is intended", failures.join("\n"));
}

#[test]
fn a_spec_compared_with_itself_has_no_difference() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let mut dirs = vec![shipped];
    for dir in cases() {
        dirs.push(dir.join("old"));
        dirs.push(dir.join("new"));
    }
    for dir in dirs {
        let spec = load(&dir, "spec");
        let findings = diff::diff(&spec.model, &spec.model, &DiffOptions::default());
        assert!(findings.is_empty(), "{} differs from itself:\n{}", dir.display(), report(&findings, &spec, &spec));
    }
}

#[test]
fn only_unannounced_breaking_findings_fail_the_check() {
    for dir in cases() {
        let (old, new) = (load(&dir.join("old"), "old"), load(&dir.join("new"), "new"));
        for f in diff::diff(&old.model, &new.model, &options(&dir)) {
            let breaking = f.audiences.breaking() || f.severity == diff::Severity::Error;
            assert_eq!(f.is_uncovered(), breaking && f.claimed_by.is_none(), "{}: {}", dir.display(), f.rule.id);
            if f.is_uncovered() && f.rule.claimable {
                assert!(f.help.iter().any(|h| h.contains("changes:")), "{}: an unannounced break drafts its entry: {:?}", dir.display(), f.help);
            }
        }
    }
}

/// The YAML of a drafted entry: the indented lines of the help that drafts it.
fn drafted_entry(help: &str) -> (String, Option<String>) {
    let lines: Vec<&str> = help.lines().skip(1).take_while(|l| l.starts_with("  ")).collect();
    let keep = help.lines().find_map(|l| l.strip_prefix("and keep `")).map(|rest| rest.split('`').next().unwrap_or_default().to_owned());
    (lines.join("\n") + "\n", keep)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    for entry in std::fs::read_dir(from).expect("read the case") {
        let path = entry.expect("an entry").path();
        std::fs::copy(&path, to.join(path.file_name().expect("a name"))).expect("copy a spec file");
    }
}

#[test]
fn the_drafted_entry_announces_what_it_was_drafted_for() {
    let (mut tried, mut kept) = (0, 0);
    for dir in cases() {
        let (old, new) = (load(&dir.join("old"), "old"), load(&dir.join("new"), "new"));
        for f in diff::diff(&old.model, &new.model, &options(&dir)).into_iter().filter(|f| f.is_uncovered() && f.rule.claimable) {
            let help = f.help.iter().find(|h| h.contains("changes:")).expect("an unannounced break drafts its entry");
            let (entry, keep) = drafted_entry(help);
            let id = entry.lines().next().and_then(|l| l.trim().strip_prefix("- id: ")).expect("an id").to_owned();
            let tmp = tempfile::tempdir().expect("a temporary directory");
            copy_dir(&dir.join("new"), tmp.path());
            std::fs::write(tmp.path().join("draft.yaml"), format!("changes:\n{entry}")).expect("write the draft");
            if let Some(item) = keep {
                // The item is gone from the new spec, so no `affects:` can name it: the draft says
                // to keep it, bounded by the entry (`item-removed+tombstone` shows that claims).
                assert!(f.claims.first() == Some(&item) || f.subject == item, "{}: keep `{item}` for `{}`", dir.display(), f.subject);
                kept += 1;
                continue;
            }
            let drafted = match load_spec(tmp.path(), "drafted") {
                Ok(loaded) => loaded,
                Err(LoadError::Invalid { sources, diagnostics }) => {
                    panic!("{}: the draft for `{}` is not valid:\n{entry}\n{}", dir.display(), f.rule.id, diag::render_text(&sources, &diagnostics, false))
                }
                Err(LoadError::Io(e)) => panic!("{e}"),
            };
            let again = diff::diff(&old.model, &drafted.model, &options(&dir));
            let same = again.iter().find(|g| g.rule.id == f.rule.id && g.subject == f.subject).expect("the finding is still found");
            assert_eq!(
                same.claimed_by.as_deref(),
                Some(id.as_str()),
                "{}: the draft does not announce `{}` on `{}`:\n{entry}{:?}",
                dir.display(),
                f.rule.id,
                f.subject,
                same.help
            );
            tried += 1;
        }
    }
    assert!(tried >= 40 && kept >= 1, "only {tried} drafts were tried ({kept} keep the item)");
}

#[test]
fn the_docs_list_the_catalogue() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diff.md");
    let text = std::fs::read_to_string(&path).expect("docs/diff.md");
    let begin = text.find("<!-- rules:begin").and_then(|i| text[i..].find('\n').map(|n| i + n + 1)).expect("docs/diff.md has a `<!-- rules:begin` line");
    let end = text.find("<!-- rules:end -->").expect("docs/diff.md has a `<!-- rules:end -->` line");
    let table = platform_codegen::diff::catalogue::markdown();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &text[..begin], &text[end..])).expect("write docs/diff.md");
    } else {
        assert!(text[begin..end] == table, "docs/diff.md lists another catalogue; run `UPDATE_EXPECT=1 cargo test --test all diff_rules::`");
    }
}

/// A copy of `spec/` (one level of subdirectories) in `to`.
fn copy_spec(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read spec/") {
        let path = entry.expect("an entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy a spec file");
        }
    }
}

/// `text` with `insert` after the first line equal to `after` that follows the line `anchor`.
fn insert_after(text: &str, anchor: &str, after: &str, insert: &str) -> String {
    let start = text.find(anchor).unwrap_or_else(|| panic!("`{anchor}` is in the spec"));
    let at = start + text[start..].find(after).unwrap_or_else(|| panic!("`{after}` follows `{anchor}`")) + after.len();
    format!("{}{insert}{}", &text[..at], &text[at..])
}

/// What a platform adds every week is free: an optional field, an endpoint, an enum value and an
/// event added to the shipped spec are compatible for the wire, the Rust crates and the C ABI,
/// and need no change entry.
#[test]
fn additions_to_the_shipped_spec_are_compatible_for_every_audience() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let tmp = tempfile::tempdir().expect("a temporary directory");
    copy_spec(&shipped, tmp.path());
    let edit = |file: &str, f: &dyn Fn(&str) -> String| {
        let path = tmp.path().join(file);
        let text = std::fs::read_to_string(&path).expect("read a spec file");
        std::fs::write(&path, f(&text)).expect("write a spec file");
    };
    edit("resources/lobby.yaml", &|t| {
        insert_after(
            t,
            "  - id: lobby_member\n",
            "    fields:\n",
            "      nickname: { type: string, optional: true, description: The member's nickname in the lobby. }\n",
        )
    });
    edit("resources/activity.yaml", &|t| {
        insert_after(t, "  - id: activity_type\n", "    values:\n", "      - { id: WORKING, name: Working, not_shown: [value] }\n")
    });
    std::fs::write(
        tmp.path().join("additions.yaml"),
        "endpoints:\n  - id: get_lobby\n    name: Get Lobby\n    method: GET\n    path: /lobbies/{lobby.id}\n    description: Returns a lobby.\n    path_params:\n      lobby.id: { type: snowflake, description: The lobby. }\n    response: object<lobby>\n\
         events:\n  - id: lobby_deleted\n    name: Lobby Deleted\n    channel: gateway\n    description: Sent when a lobby is deleted.\n    fields:\n      id: { type: snowflake, description: The lobby's id. }\n",
    )
    .expect("write the additions");
    let (old, new) = (load(&shipped, "spec"), load(tmp.path(), "new"));
    let findings = diff::diff(&old.model, &new.model, &DiffOptions::default());
    let rules: Vec<&str> = findings.iter().map(|f| f.rule.id).collect();
    for rule in ["field-added", "enum-value-added", "item-added"] {
        assert!(rules.contains(&rule), "no `{rule}` finding in {rules:?}");
    }
    assert!(findings.iter().any(|f| f.subject.starts_with("endpoint:get_lobby")), "the endpoint is found: {rules:?}");
    assert!(findings.iter().any(|f| f.subject.starts_with("event:lobby_deleted")), "the event is found: {rules:?}");
    let breaking: Vec<String> =
        findings.iter().filter(|f| f.audiences.breaking()).map(|f| format!("{}: {} ({:?})", f.rule.id, f.subject, f.audiences)).collect();
    assert!(breaking.is_empty(), "additions break someone:\n{}", breaking.join("\n"));
}
