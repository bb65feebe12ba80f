//! The changelog as feeds: `docs/changelog.json` (JSON Feed 1.1) and `docs/changelog.xml`
//! (Atom, RFC 4287), one entry per dated change with its affected items linked into the
//! reference page, so SDKs, bots and feed readers follow the timeline.
//!
//! Links are absolute under the address the spec names as `platform.docs` (a placeholder's
//! example), or relative to the feeds, which sit beside `index.html`, when it names none.
//! Entries are newest first: unscheduled changes, then dated ones, then those already in
//! effect. The feeds carry no build time: an undated entry has no `date_published` in JSON
//! Feed, and Atom, which requires `updated`, gives it the epoch with the category
//! `already-in-effect` or `unscheduled` saying why.

use super::reference::view::Cx;
use super::words::anchor;
use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::{Change, Effective, Model};
use serde_json::json;
use std::fmt::Write as _;

/// The artifact name in summaries.
pub const ARTIFACT: &str = "feeds";

/// What an undated entry's Atom `updated` says.
const EPOCH: &str = "1970-01-01T00:00:00Z";

/// Emits `docs/changelog.json` and `docs/changelog.xml`.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let feed = Feed::new(model);
    vec![GeneratedFile::new(ARTIFACT, "docs/changelog.json", json_feed(&feed, opts)), GeneratedFile::new(ARTIFACT, "docs/changelog.xml", atom(&feed, opts))]
}

/// Everything both feeds say.
struct Feed<'m> {
    title: String,
    description: String,
    author: String,
    /// The reference page (`http://host/docs/index.html`, or `index.html`).
    page: String,
    /// The directory of the page, where the feeds are (`http://host/docs/`, or empty).
    dir: String,
    entries: Vec<Entry<'m>>,
}

struct Entry<'m> {
    change: &'m Change,
    url: String,
    /// `(label, url)` of each affected item.
    affects: Vec<(String, String)>,
}

impl<'m> Feed<'m> {
    fn new(model: &'m Model) -> Self {
        let page = model.platform.docs_example().unwrap_or("index.html").to_owned();
        let dir = page.rfind('/').map_or_else(String::new, |i| page[..=i].to_owned());
        let cx = Cx::new(model);
        let mut changes: Vec<&Change> = model.changes.iter().collect();
        // Newest first; `sort_by` is stable, so changes of one day keep spec order.
        changes.sort_by_key(|c| std::cmp::Reverse(c.effective));
        let entries = changes
            .into_iter()
            .map(|c| Entry {
                change: c,
                url: format!("{page}#{}", anchor("change", &c.meta.id)),
                affects: c
                    .affects
                    .iter()
                    .map(|r| {
                        let link = cx.link(&r.kind, &r.id);
                        let href = link.href.map_or_else(|| page.clone(), |h| format!("{page}{h}"));
                        (format!("{}:{}", r.kind, r.id), href)
                    })
                    .collect(),
            })
            .collect();
        Feed {
            title: format!("{} changelog", model.platform.name),
            description: format!("Every dated change of {}, with the items it affects.", model.platform.name),
            author: model.platform.name.clone(),
            dir,
            page,
            entries,
        }
    }

    /// The latest effective date, for the feed's own `updated`.
    fn updated(&self) -> String {
        self.entries.iter().filter_map(|e| date(e.change.effective)).max().unwrap_or_else(|| EPOCH.to_owned())
    }
}

/// `2026-02-23T00:00:00Z` for a dated change.
fn date(e: Effective) -> Option<String> {
    match e {
        Effective::Date(d) => Some(format!("{d}T00:00:00Z")),
        _ => None,
    }
}

/// `already-in-effect`, `2026-02-23`, `unscheduled`.
fn when_tag(e: Effective) -> String {
    match e {
        Effective::AlreadyInEffect => "already-in-effect".into(),
        Effective::Unscheduled => "unscheduled".into(),
        Effective::Date(d) => d.to_string(),
    }
}

fn when_words(e: Effective) -> String {
    match e {
        Effective::AlreadyInEffect => "It is already in effect.".into(),
        Effective::Unscheduled => "It has no date yet.".into(),
        Effective::Date(d) => format!("It takes effect on {d} (00:00 UTC)."),
    }
}

/// The entry as HTML: summary, kind and date, and the affected items linked.
fn content_html(e: &Entry<'_>) -> String {
    let c = e.change;
    let mut html = format!("<p>{}</p><p>Kind: {}. {}</p>", escape(&c.summary), escape(&c.kind.id), escape(&when_words(c.effective)));
    if !e.affects.is_empty() {
        html.push_str("<p>Affects:</p><ul>");
        for (label, url) in &e.affects {
            let _ = write!(html, "<li><a href=\"{}\">{}</a></li>", escape(url), escape(label));
        }
        html.push_str("</ul>");
    }
    html
}

fn json_feed(feed: &Feed<'_>, opts: &EmitOptions) -> String {
    let items: Vec<serde_json::Value> = feed
        .entries
        .iter()
        .map(|e| {
            let c = e.change;
            let mut item = json!({
                "id": e.url,
                "url": e.url,
                "title": c.summary,
                "content_html": content_html(e),
                "content_text": format!("{} Kind: {}. {}", c.summary, c.kind.id, when_words(c.effective)),
                "tags": [c.kind.id.clone(), when_tag(c.effective)],
                "_platform": {
                    "change": c.meta.id,
                    "kind": c.kind.id,
                    "effective": c.effective,
                    "affects": e.affects.iter().map(|(label, url)| json!({ "item": label, "url": url })).collect::<Vec<_>>(),
                },
            });
            if let Some(d) = date(c.effective) {
                item["date_published"] = json!(d);
            }
            item
        })
        .collect();
    let doc = json!({
        "version": "https://jsonfeed.org/version/1.1",
        "title": feed.title,
        "home_page_url": format!("{}#{}", feed.page, anchor("section", "changelog")),
        "feed_url": format!("{}changelog.json", feed.dir),
        "description": feed.description,
        "user_comment": opts.notice(),
        "language": "en",
        "authors": [{ "name": feed.author }],
        "items": items,
    });
    serde_json::to_string_pretty(&doc).expect("BUG: a feed serializes")
}

fn atom(feed: &Feed<'_>, opts: &EmitOptions) -> String {
    let mut x = String::new();
    let home = format!("{}#{}", feed.page, anchor("section", "changelog"));
    let _ = writeln!(x, "<?xml version=\"1.0\" encoding=\"utf-8\"?>");
    let _ = writeln!(x, "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">");
    // The notice is the generator's own words; an XML comment could not hold its `--`.
    let _ = writeln!(x, "  <generator>{}</generator>", escape(&opts.notice()));
    let _ = writeln!(x, "  <id>{}</id>", escape(&home));
    let _ = writeln!(x, "  <title>{}</title>", escape(&feed.title));
    let _ = writeln!(x, "  <subtitle>{}</subtitle>", escape(&feed.description));
    let _ = writeln!(x, "  <updated>{}</updated>", feed.updated());
    let _ = writeln!(x, "  <author><name>{}</name></author>", escape(&feed.author));
    let _ = writeln!(x, "  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>", escape(&home));
    let _ = writeln!(x, "  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}changelog.xml\"/>", escape(&feed.dir));
    for e in &feed.entries {
        let c = e.change;
        let _ = writeln!(x, "  <entry>");
        let _ = writeln!(x, "    <id>{}</id>", escape(&e.url));
        let _ = writeln!(x, "    <title>{}</title>", escape(&c.summary));
        let _ = writeln!(x, "    <updated>{}</updated>", date(c.effective).unwrap_or_else(|| EPOCH.to_owned()));
        let _ = writeln!(x, "    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>", escape(&e.url));
        for (_, url) in &e.affects {
            let _ = writeln!(x, "    <link rel=\"related\" type=\"text/html\" href=\"{}\"/>", escape(url));
        }
        let _ = writeln!(x, "    <category term=\"{}\" label=\"kind\"/>", escape(&c.kind.id));
        let _ = writeln!(x, "    <category term=\"{}\" label=\"effective\"/>", escape(&when_tag(c.effective)));
        let _ = writeln!(x, "    <summary>{}</summary>", escape(&c.summary));
        let _ = writeln!(x, "    <content type=\"html\">{}</content>", escape(&content_html(e)));
        let _ = writeln!(x, "  </entry>");
    }
    let _ = writeln!(x, "</feed>");
    x
}

/// XML and HTML text and attribute escaping.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
