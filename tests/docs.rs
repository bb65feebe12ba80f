//! The reference docs (`docs/index.html`, `docs/reference.md`) and the OpenAPI document:
//! goldens over the fixture spec, links that resolve, a page that fetches nothing, and every
//! permission, error code, limit value, dated change and endpoint of the model in all three.
//!
//! Bless new goldens with `UPDATE_EXPECT=1 cargo test --test all docs::`.

use platform_codegen::emit::{EmitOptions, emit_all};
use platform_codegen::model::{Bound, Effective, Model};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(dir: &Path) -> Model {
    match platform_codegen::load_spec(dir, "spec") {
        Ok(loaded) => loaded.model,
        Err(_) => panic!("{} is not a valid spec; run `cargo run -p platform-codegen -- --spec {} check`", dir.display(), dir.display()),
    }
}

/// The three outputs for a spec: HTML, Markdown, OpenAPI.
struct Outputs {
    html: String,
    md: String,
    openapi: Value,
    openapi_text: String,
}

fn outputs(model: &Model) -> Outputs {
    let files = emit_all(model, &EmitOptions::default());
    let get = |path: &str| files.iter().find(|f| f.path == path).unwrap_or_else(|| panic!("no emitter produced {path}")).contents.clone();
    let openapi_text = get("openapi.json");
    Outputs { html: get("docs/index.html"), md: get("docs/reference.md"), openapi: serde_json::from_str(&openapi_text).unwrap(), openapi_text }
}

fn shipped() -> Outputs {
    outputs(&load(&root().join("spec")))
}

fn fixture_dir() -> PathBuf {
    root().join("tests/fixtures/minimal")
}

/// The fixture that uses every shape of the format.
fn shapes() -> Outputs {
    outputs(&load(&root().join("tests/fixtures/shapes")))
}

/// Compares with a golden file, or rewrites it when `UPDATE_EXPECT` is set.
fn golden(name: &str, actual: &str) {
    platform_specgen::golden::compare_file(&fixture_dir().join("expected/docs").join(name), actual, "docs");
}

#[test]
fn fixture_goldens() {
    let out = outputs(&load(&fixture_dir()));
    golden("index.html", &out.html);
    golden("reference.md", &out.md);
    golden("openapi.json", &out.openapi_text);
}

/// Every `attr="value"` of an HTML text.
fn attributes<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let pat = format!(" {attr}=\"");
    html.match_indices(&pat)
        .map(|(at, _)| {
            let rest = &html[at + pat.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// Undoes the percent-encoding of in-page link targets.
fn decode(href: &str) -> String {
    let bytes = href.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            out.push(u8::from_str_radix(&href[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn html_unescape(text: &str) -> String {
    text.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

fn check_links_resolve(html: &str, what: &str) {
    let ids: Vec<String> = attributes(html, "id").into_iter().map(html_unescape).collect();
    let unique: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "{what}: duplicate element ids");
    let dangling: Vec<String> =
        attributes(html, "href").into_iter().filter_map(|h| h.strip_prefix('#')).map(decode).filter(|target| !unique.contains(target)).collect();
    assert!(dangling.is_empty(), "{what}: links to missing anchors: {dangling:?}");
}

#[test]
fn every_link_of_the_page_resolves() {
    check_links_resolve(&shipped().html, "shipped spec");
    check_links_resolve(&outputs(&load(&fixture_dir())).html, "fixture");
    check_links_resolve(&shapes().html, "shapes fixture");
}

#[test]
fn every_link_of_the_markdown_resolves() {
    for out in [shipped(), outputs(&load(&fixture_dir())), shapes()] {
        let anchors: BTreeSet<String> = attributes(&out.md, "id").into_iter().map(decode).collect();
        let mut dangling = Vec::new();
        for (at, _) in out.md.match_indices("](#") {
            let rest = &out.md[at + 3..];
            let target = decode(&rest[..rest.find(')').unwrap()]);
            if !anchors.contains(&target) {
                dangling.push(target);
            }
        }
        assert!(dangling.is_empty(), "links to missing anchors: {dangling:?}");
    }
}

#[test]
fn the_page_is_self_contained() {
    let html = shipped().html;
    let sources = attributes(&html, "src");
    assert!(sources.is_empty(), "the page loads {sources:?}");
    for href in attributes(&html, "href") {
        assert!(href.starts_with('#'), "the page links outside itself: {href}");
    }
    assert!(!html.contains("<link"), "the page links a stylesheet or other resource");
    for fetch in ["url(http", "url(//", "@import", "fetch(", "XMLHttpRequest"] {
        assert!(!html.contains(fetch), "the page may fetch something: `{fetch}`");
    }
    assert!(html.contains("Content-Security-Policy") && html.contains("default-src 'none'"), "the page must forbid fetching");
    assert!(html.starts_with("<!-- @generated"), "the page must start with the @generated notice");
}

#[test]
fn spec_text_is_escaped() {
    let mut model = load(&fixture_dir());
    model.resources[0].meta.description = Some("<script>alert(1)</script> | *bold* `x<y`".into());
    let out = outputs(&model);
    assert!(!out.html.contains("<script>alert"), "HTML must escape spec text");
    assert!(out.html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(out.html.contains("<code>x&lt;y</code>"));
    assert!(out.md.contains(r"\<script\>alert(1)\</script\> \| \*bold\* `x<y`"), "Markdown must escape spec text");
}

#[test]
fn output_does_not_depend_on_the_build_date() {
    // Nothing in the model or the options carries a clock, so two builds agree; the page also
    // never names "today": upcoming dates are marked by its script on the reader's clock.
    let a = shipped();
    let b = shipped();
    assert_eq!(a.html, b.html);
    assert_eq!(a.md, b.md);
    assert_eq!(a.openapi_text, b.openapi_text);
    assert!(!a.html.to_lowercase().contains("generated on"));
}

/// The HTML element whose `id` is `anchor` (a table row or a card), as text.
fn html_element<'a>(html: &'a str, anchor: &str) -> &'a str {
    let key = format!(" id=\"{anchor}\"");
    let at = html.find(&key).unwrap_or_else(|| panic!("the page has no element `{anchor}`"));
    let start = html[..at].rfind('<').unwrap();
    let tag: String = html[start + 1..].chars().take_while(char::is_ascii_alphanumeric).collect();
    let end = html[at..].find(&format!("</{tag}>")).map_or(html.len(), |e| at + e);
    &html[start..end]
}

/// The Markdown line holding the anchor `anchor`, with the block that follows it.
fn md_element<'a>(md: &'a str, anchor: &str) -> &'a str {
    let key = format!("<a id=\"{anchor}\"></a>");
    let at = md.find(&key).unwrap_or_else(|| panic!("the Markdown has no anchor `{anchor}`"));
    let start = md[..at].rfind('\n').map_or(0, |s| s + 1);
    // A heading's content runs to the next heading; a table row is its own line.
    let heading = md[start..].starts_with('#');
    let end = if heading { md[at..].find("\n#").map_or(md.len(), |e| at + e) } else { md[at..].find('\n').map_or(md.len(), |e| at + e) };
    &md[start..end]
}

fn x_list<'a>(doc: &'a Value, key: &str) -> &'a [Value] {
    doc[key].as_array().map_or(&[], Vec::as_slice)
}

fn find_by_id<'a>(list: &'a [Value], id: &str) -> Option<&'a Value> {
    list.iter().find(|v| v["id"] == id)
}

/// The operation with this `operationId`, wherever its path item is.
fn operation<'a>(doc: &'a Value, id: &str) -> Option<&'a Value> {
    doc["paths"].as_object()?.values().flat_map(|item| item.as_object().into_iter().flat_map(|m| m.values())).find(|op| op["operationId"] == id)
}

fn bound_values(b: &Option<Bound>) -> Option<i64> {
    match b {
        Some(Bound::Value(_, v)) => Some(*v),
        _ => None,
    }
}

#[test]
fn every_permission_error_limit_change_and_endpoint_is_in_all_three_outputs() {
    let model = load(&root().join("spec"));
    let out = outputs(&model);
    let doc = &out.openapi;
    for p in &model.permissions {
        let anchor = format!("permission-{}", p.meta.id);
        let (h, m) = (html_element(&out.html, &anchor), md_element(&out.md, &anchor));
        let x = find_by_id(x_list(doc, "x-permissions"), &p.meta.id).unwrap_or_else(|| panic!("openapi lacks permission {}", p.meta.id));
        if let Some(bit) = p.bit {
            let value = (1u128 << bit).to_string();
            assert!(h.contains(&value) && m.contains(&value), "{anchor}: value {value} missing");
            assert_eq!(x["bit"], bit, "{anchor}: openapi bit");
        } else {
            assert!(h.contains("not shown") && m.contains("not shown"), "{anchor}: the missing bit must be marked");
        }
    }
    for e in &model.errors {
        let anchor = format!("error-{}", e.meta.id);
        let (h, m) = (html_element(&out.html, &anchor), md_element(&out.md, &anchor));
        let x = find_by_id(x_list(doc, "x-errors"), &e.meta.id).unwrap_or_else(|| panic!("openapi lacks error {}", e.meta.id));
        if let Some(code) = e.code {
            assert!(h.contains(&code.to_string()) && m.contains(&code.to_string()), "{anchor}: code {code} missing");
            assert_eq!(x["code"], code);
        }
        if let Some(status) = e.status {
            assert!(h.contains(&format!(">{status}<")) && m.contains(&format!("`{status}`")), "{anchor}: status {status} missing");
        }
        for endpoint in e.endpoints.iter().filter_map(|r| model.endpoint(&r.id)).filter(|x| x.is_routed()) {
            let op = operation(doc, &endpoint.meta.id).unwrap_or_else(|| panic!("no operation {}", endpoint.meta.id));
            let status = e.status.map(|s| s.to_string()).unwrap_or_default();
            assert!(
                op["responses"][&status]["x-errors"].as_array().is_some_and(|l| l.iter().any(|i| i == &e.meta.id)),
                "{anchor}: not on {}",
                endpoint.meta.id
            );
        }
    }
    for l in &model.limits {
        let anchor = format!("limit-{}", l.meta.id);
        let (h, m) = (html_element(&out.html, &anchor), md_element(&out.md, &anchor));
        let x = find_by_id(x_list(doc, "x-limits"), &l.meta.id).unwrap_or_else(|| panic!("openapi lacks limit {}", l.meta.id));
        let values: Vec<i64> = [&l.value, &l.min, &l.max].into_iter().filter_map(bound_values).chain(l.previous.iter().map(|p| p.value)).collect();
        for v in values {
            let text = format!("{v} {}", l.unit.id);
            assert!(h.contains(&text) || h.contains(&format!("{v} to")) || h.contains(&format!(">{v}")), "{anchor}: value {v} missing in HTML");
            assert!(m.contains(&text) || m.contains(&format!("{v} to")), "{anchor}: value {v} missing in Markdown");
            assert!(x.to_string().contains(&v.to_string()), "{anchor}: value {v} missing in openapi");
        }
        for p in &l.previous {
            assert!(
                h.contains(&format!("change-{}", p.until.id)) && m.contains(&format!("change-{}", p.until.id)),
                "{anchor}: the raising change is not linked"
            );
        }
    }
    for c in &model.changes {
        let anchor = format!("change-{}", c.meta.id);
        let (h, m) = (html_element(&out.html, &anchor), md_element(&out.md, &anchor));
        let when = match c.effective {
            Effective::Date(d) => d.to_string(),
            Effective::AlreadyInEffect => "already in effect".into(),
            Effective::Unscheduled => "unscheduled".into(),
        };
        assert!(h.contains(&when) && m.contains(&when), "{anchor}: effective date missing");
        let x = find_by_id(x_list(doc, "x-changes"), &c.meta.id).unwrap_or_else(|| panic!("openapi lacks change {}", c.meta.id));
        assert_eq!(x["summary"], c.summary.as_str());
    }
    let unrouted = x_list(doc, "x-unrouted-endpoints");
    for e in &model.endpoints {
        let anchor = format!("endpoint-{}", e.meta.id);
        let (h, m) = (html_element(&out.html, &anchor), md_element(&out.md, &anchor));
        match (&e.method, &e.path) {
            (Some(method), Some(path)) => {
                let item = doc["paths"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .find(|(_, item)| item.get(method.id.to_lowercase()).is_some_and(|op| op["operationId"] == e.meta.id.as_str()));
                let (template, _) = item.unwrap_or_else(|| panic!("{anchor}: no {} operation {}", method.id, e.meta.id));
                // Template names differ only in spelling (`{guild.id}` is `{guild_id}`).
                assert_eq!(template.replace('_', "."), path.id.replace('_', "."), "{anchor}: path");
                for text in [&method.id, &path.id] {
                    assert!(h.contains(&html_escape(text)) && m.contains(text.as_str()), "{anchor}: `{text}` missing");
                }
            }
            _ => {
                assert!(find_by_id(unrouted, &e.meta.id).is_some(), "openapi lacks unrouted endpoint {}", e.meta.id);
                assert!(h.contains("not routed") && m.contains("Not routed"), "{anchor}: must be marked not routed");
            }
        }
    }
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

#[test]
fn every_gap_and_assumption_is_listed_and_linked() {
    let model = load(&root().join("spec"));
    let out = outputs(&model);
    let cov = platform_codegen::model::coverage::coverage(&model);
    let start = out.html.find("id=\"section-coverage\"").unwrap();
    let end = out.html.find("id=\"section-openapi\"").unwrap();
    let section = &out.html[start..end];
    let rows = section.matches("<tr class=\"item\">").count();
    assert_eq!(rows, cov.gaps.len() + cov.assumptions.len(), "the ledger page must list every gap and assumption");
    for e in cov.gaps.iter().chain(&cov.assumptions) {
        let cell = format!("<code>{}</code></a>", html_escape(&e.item));
        assert!(section.contains(&cell), "ledger entry {} has no link to its item", e.item);
    }
    assert!(out.html.matches("class=\"mark gap\"").count() >= cov.gaps.len(), "every gap needs a visible mark");
}

#[test]
fn every_openapi_extension_is_documented() {
    let out = shipped();
    let mut used = BTreeSet::new();
    collect_extensions(&out.openapi, &mut used);
    let section = &out.html[out.html.find("id=\"section-openapi\"").unwrap()..];
    for name in &used {
        assert!(section.contains(&format!("<code>{name}</code>")), "extension {name} is not documented on the page");
        assert!(out.md.contains(&format!("| `{name}` |")), "extension {name} is not documented in the Markdown");
    }
    assert!(used.len() >= 10, "expected the document to use its extensions, found {used:?}");
}

/// Keys starting with `x-` at any depth, except inside extension values (free JSON).
fn collect_extensions(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                if k.starts_with("x-") {
                    out.insert(k.clone());
                } else {
                    collect_extensions(v, out);
                }
            }
        }
        Value::Array(list) => list.iter().for_each(|v| collect_extensions(v, out)),
        _ => {}
    }
}

/// The declarations in a `<pre><code>` block of the page that follows `heading`.
fn declarations(html: &str, heading: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in html.match_indices(&format!("<h5>{heading}</h5>")) {
        let block = &html[at..];
        let start = block.find("<code>").unwrap() + "<code>".len();
        let end = block.find("</code></pre>").unwrap();
        out.extend(html_unescape(&block[start..end]).lines().map(|l| l.trim().to_owned()).filter(|l| l.ends_with(';')));
    }
    out
}

#[test]
fn sdk_signatures_are_the_headers_own() {
    let model = load(&root().join("spec"));
    let files = emit_all(&model, &EmitOptions::default());
    let header = |name: &str| {
        let file = files.iter().find(|f| f.path.ends_with(&format!("include/{name}"))).unwrap_or_else(|| panic!("no header {name}"));
        file.contents.lines().map(|l| l.trim().to_owned()).collect::<Vec<_>>()
    };
    let prefixes = &model.platform.prefixes;
    let (c, cpp) = (header(&prefixes.c_header), header(&prefixes.cpp_header));
    let html = outputs(&model).html;
    let c_decls = declarations(&html, "C declarations");
    let cpp_decls = declarations(&html, "C++ declarations");
    assert!(c_decls.len() > 10 && cpp_decls.len() > 10, "the page shows too few declarations");
    for d in &c_decls {
        // The header adds its export macro (and a deprecation attribute) in front of functions.
        assert!(c.iter().any(|l| l.ends_with(d.as_str())), "the C header does not declare `{d}`");
    }
    for d in &cpp_decls {
        assert!(cpp.iter().any(|l| l.ends_with(d.as_str())), "the C++ header does not declare `{d}`");
    }
}

/// Unions show their variants with the value that tags each, maps and formats their types,
/// shapes declared inline sit (folding in HTML) under the field that declares them, and every
/// constraint reads in words: in both formats.
#[test]
fn shapes_are_described_in_both_formats() {
    let out = shapes();
    let union = html_element(&out.html, "union-component");
    assert!(union.contains("Tagged by the field <code>type</code>"), "{union}");
    assert!(union.contains(r##"<a href="#enum_value-component_type.BUTTON"><code>BUTTON</code></a> (2)"##), "{union}");
    assert!(out.html.contains(r#"<details class="nested" id="resource-component_select" open><summary>object <code>component_select</code>, declared at <code>component.select</code></summary>"#));
    assert!(out.html.contains(r#"<details class="nested" id="resource-document_owner_address" open>"#), "an inline object inside another");
    assert!(out.html.contains(r#"<details class="nested" id="union-document_revision" open>"#), "an inline union");
    let words = [
        "items are unique",
        "at most 10 entries",
        "each item: matches",
        "each value: maximum 100",
        "each item: may be null",
        "greater than 0",
        "always <code>2</code>",
        "maximum 1000.5",
        "Untagged: the variants are tried in this order",
    ];
    for w in words {
        assert!(out.html.contains(w), "the page does not say `{w}`");
    }
    let md_words = [
        "items are unique",
        "at most 10 entries",
        "each value: maximum 100",
        "always `2`",
        "Extends [`entity`](#resource-entity)",
        "*object* `document_owner`, declared at `document.owner`",
    ];
    for w in md_words {
        assert!(out.md.contains(w), "the Markdown does not say `{w}`");
    }
    assert!(
        out.md.contains("| `button` | [`BUTTON`](#enum_value-component_type.BUTTON) (2) | `object<`[`button`](#resource-button)`>` |"),
        "a variant row with its tag"
    );
    let map = &out.openapi["components"]["schemas"]["Document"]["allOf"][1]["properties"]["views_by_user"];
    assert_eq!(map["additionalProperties"]["minimum"], 0, "{map}");
}
