//! The changelog feeds (`docs/changelog.json`, JSON Feed 1.1; `docs/changelog.xml`, Atom) read
//! by real feed parsers: Python `feedparser` for Atom and `jsonfeed-util` for JSON Feed, both
//! installed into `.venv` by `scripts/test.sh`. One entry per change, linked to its entry in the
//! reference page, with every affected item linked to an element the page has.

use platform_codegen::emit::{EmitOptions, emit_all};
use platform_codegen::model::{Effective, Model};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Parses both feeds; prints what the parsers understood as JSON.
const SCRIPT: &str = r#"
import json, sys
import feedparser, jsonfeed
from datetime import datetime
atom = feedparser.parse(open(sys.argv[1], 'rb').read())
feed = jsonfeed.Feed.parse_string(open(sys.argv[2]).read())
def date(text):
    return datetime.fromisoformat(text.replace('Z', '+00:00')).isoformat() if text else None
json.dump({
    'atom': {
        'version': atom.version,
        'bozo': bool(atom.bozo),
        'problem': str(atom.get('bozo_exception', '')),
        'title': atom.feed.get('title'),
        'entries': [{
            'id': e.id,
            'link': e.link,
            'updated': e.updated,
            'categories': [t.term for t in e.tags],
            'related': [l.href for l in e.links if l.rel == 'related'],
        } for e in atom.entries],
    },
    'json': {
        'version': feed.version,
        'title': feed.title,
        'feed_url': feed.feed_url,
        'entries': [{
            'id': i.id,
            'link': i.url,
            'date': date(i.date_published),
            'has_content': bool(i.content_html or i.content_text),
            'tags': i.tags,
        } for i in feed.items],
    },
}, sys.stdout)
"#;

fn parse(atom: &Path, json: &Path) -> serde_json::Value {
    let python = root().join(".venv/bin/python3");
    assert!(
        python.is_file(),
        "the test virtual environment is missing: run `./scripts/test.sh`, or `python3 -m venv .venv && .venv/bin/pip install -r scripts/requirements-test.txt`"
    );
    let out = Command::new(python).args(["-c", SCRIPT]).arg(atom).arg(json).output().expect("python runs");
    assert!(
        out.status.success(),
        "the feed parsers failed (are feedparser and jsonfeed-util installed? run ./scripts/test.sh):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the parsers' summary")
}

/// Element ids of the page.
fn ids(html: &str) -> Vec<String> {
    html.split(" id=\"").skip(1).filter_map(|s| s.split_once('"').map(|(id, _)| id.to_owned())).collect()
}

fn check(model: &Model, dir: &Path) {
    let parsed = parse(&dir.join("changelog.xml"), &dir.join("changelog.json"));
    let (atom, json) = (&parsed["atom"], &parsed["json"]);
    assert_eq!(atom["version"], "atom10", "{atom}");
    assert!(!atom["bozo"].as_bool().unwrap(), "feedparser found the Atom feed ill-formed: {}", atom["problem"]);
    assert_eq!(json["version"], "https://jsonfeed.org/version/1.1");
    assert!(json["feed_url"].as_str().unwrap().ends_with("changelog.json"));
    let page = model.platform.docs_example().expect("the spec names where its docs are published");
    let html = std::fs::read_to_string(dir.join("index.html")).expect("the page beside the feeds");
    let anchors = ids(&html);
    for feed in [atom, json] {
        let entries = feed["entries"].as_array().unwrap();
        assert_eq!(entries.len(), model.changes.len(), "one entry per change");
        for c in &model.changes {
            let link = format!("{page}#change-{}", c.meta.id);
            let entry = entries.iter().find(|e| e["link"] == link.as_str()).unwrap_or_else(|| panic!("no entry links {link}"));
            assert_eq!(entry["id"], link.as_str());
            assert!(anchors.contains(&format!("change-{}", c.meta.id)), "the page has no entry for {}", c.meta.id);
            if let Effective::Date(d) = c.effective {
                let when = format!("{d}T00:00:00+00:00");
                assert!(entry["updated"].as_str().map(|u| u.starts_with(&d.to_string())).unwrap_or(entry["date"] == when.as_str()), "{entry}");
            }
        }
    }
    let entries = atom["entries"].as_array().unwrap();
    for (c, e) in model.changes.iter().map(|c| (c, entries.iter().find(|e| e["id"].as_str().unwrap().ends_with(&format!("#change-{}", c.meta.id))).unwrap())) {
        assert!(e["categories"].as_array().unwrap().iter().any(|t| t == c.kind.id.as_str()), "{e}");
        let related: Vec<&str> = e["related"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        assert_eq!(related.len(), c.affects.len(), "{e}");
        for link in related {
            let fragment = link.split_once('#').expect("a fragment").1;
            assert!(anchors.iter().any(|a| a == fragment), "{link} points at nothing in the page");
        }
        if !matches!(c.effective, Effective::Date(_)) {
            assert_eq!(e["updated"], "1970-01-01T00:00:00Z", "an undated entry carries no build time");
        }
    }
    for e in json["entries"].as_array().unwrap() {
        assert!(e["has_content"].as_bool().unwrap(), "{e}");
    }
}

#[test]
fn the_shipped_feeds_parse_with_one_entry_per_change() {
    let loaded = platform_codegen::load_spec(&root().join("spec"), "spec").unwrap_or_else(|_| panic!("the shipped spec is invalid"));
    check(&loaded.model, &root().join("generated/docs"));
}

#[test]
fn the_fixture_feeds_parse_with_one_entry_per_change() {
    let loaded = platform_codegen::load_spec(&root().join("tests/fixtures/minimal"), "spec").unwrap_or_else(|_| panic!("the fixture is invalid"));
    let tmp = tempfile::tempdir().expect("a temporary directory");
    for f in emit_all(&loaded.model, &EmitOptions::default()).into_iter().filter(|f| f.path.starts_with("docs/")) {
        let name = f.path.trim_start_matches("docs/");
        if name.starts_with("changelog.") {
            golden(name, &f.contents);
        }
        std::fs::write(tmp.path().join(name), f.contents).expect("write a docs file");
    }
    check(&loaded.model, tmp.path());
}

/// The fixture's feeds as `tests/fixtures/minimal/expected/docs/<name>`; bless with
/// `UPDATE_EXPECT=1 cargo test --test all feeds::`.
fn golden(name: &str, actual: &str) {
    platform_specgen::golden::compare_file(&root().join("tests/fixtures/minimal/expected/docs").join(name), actual, "feeds");
}
