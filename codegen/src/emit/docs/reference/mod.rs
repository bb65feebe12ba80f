//! Reference docs: one self-contained HTML page (`docs/index.html`) and the same content as
//! GitHub-flavoured Markdown (`docs/reference.md`).
//!
//! The model is turned into one view ([`view`], [`items`], [`parts`], [`timeline`]) that both
//! templates print; the templates (minijinja, under `codegen/templates/docs/`) escape every value
//! that comes from the spec. The page makes no network request: its CSS, script and diagrams are
//! inline, and it reads fully with scripts off (the script only adds search and date hints).

mod diagram;
mod escape;
mod items;
mod parts;
mod sdk;
mod timeline;
pub(super) mod view;

use crate::emit::{EmitOptions, GeneratedFile};
use crate::model::Model;
use minijinja::value::{Serde, Value};
use serde::Serialize;
use view::{Cell, Cx, Facets, MetaView};

const CSS: &str = include_str!("../../../../templates/docs/style.css");
const SCRIPT: &str = include_str!("../../../../templates/docs/script.js");

/// Emits `docs/index.html` and `docs/reference.md`.
pub fn emit(model: &Model, opts: &EmitOptions) -> Vec<GeneratedFile> {
    let doc = build(model, opts);
    let env = escape::environment();
    let ctx = minijinja::context! {
        doc => Value::from(Serde(&doc)),
        css => Value::from_safe_string(CSS.to_owned()),
        script => Value::from_safe_string(SCRIPT.to_owned()),
    };
    let render = |name: &str| env.get_template(name).and_then(|t| t.render(&ctx)).unwrap_or_else(|e| panic!("BUG: docs template {name} failed: {e:#}"));
    // The two renderings are the longest single piece of `generate`: one runs beside the other.
    let (html, markdown) = std::thread::scope(|scope| {
        let markdown = scope.spawn(|| single_blank_lines(&render("reference.md")));
        let html = render("index.html");
        (html, markdown.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    vec![GeneratedFile::new("docs", "docs/index.html", html), GeneratedFile::new("docs", "docs/reference.md", markdown)]
}

/// Collapses runs of blank lines, which the Markdown templates leave where optional blocks
/// are absent; Markdown reads one blank line and many alike.
fn single_blank_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split('\n') {
        if !(line.is_empty() && out.ends_with("\n\n")) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Everything the templates print.
#[derive(Debug, Serialize)]
struct Doc {
    notice: String,
    title: String,
    description: Option<String>,
    placeholders: Vec<PlaceholderView>,
    counts: Vec<Count>,
    parts: Vec<parts::PartView>,
    changelog: Vec<timeline::ChangeGroup>,
    coverage: timeline::CoverageView,
    extensions: Vec<Extension>,
}

#[derive(Debug, Serialize)]
struct PlaceholderView {
    meta: MetaView,
    example: Cell,
}

/// A headline number of the overview.
#[derive(Debug, Serialize)]
struct Count {
    label: &'static str,
    value: usize,
}

/// An `x-` key of the OpenAPI document and what it carries.
#[derive(Debug, Serialize)]
struct Extension {
    name: &'static str,
    on: &'static str,
    meaning: &'static str,
}

fn build(model: &Model, opts: &EmitOptions) -> Doc {
    let cx = Cx::new(model);
    let placeholders = model
        .platform
        .placeholders
        .iter()
        .map(|p| PlaceholderView {
            meta: cx.meta("placeholder", &p.meta.id, &p.meta),
            example: Facets::of(&p.meta).cell("example", p.example.as_deref().map(crate::emit::docs::words::Rich::code)),
        })
        .collect();
    // The parts come before the changelog: the changelog lists the lifecycle badges they gave out.
    let parts = parts::parts(&cx);
    Doc {
        notice: opts.notice(),
        title: model.platform.name.clone(),
        description: model.platform.description.clone(),
        placeholders,
        counts: counts(model),
        parts,
        changelog: timeline::changelog(&cx),
        coverage: timeline::coverage(&cx),
        extensions: super::openapi::EXTENSIONS.iter().map(|&(name, on, meaning)| Extension { name, on, meaning }).collect(),
    }
}

fn counts(m: &Model) -> Vec<Count> {
    let all = [
        ("endpoints", m.endpoints.len()),
        ("routed endpoints", m.routed_endpoints().count()),
        ("resources", m.resources.len()),
        ("permissions", m.permissions.len()),
        ("permission rules", m.permission_rules.len()),
        ("errors", m.errors.len()),
        ("limits", m.limits.len()),
        ("events", m.events.len()),
        ("scopes", m.scopes.len()),
        ("SDK classes", m.classes.len()),
        ("state machines", m.state_machines.len()),
        ("SDK releases", m.releases.len()),
        ("dated changes", m.changes.len()),
    ];
    all.into_iter().filter(|(_, n)| *n > 0).map(|(label, value)| Count { label, value }).collect()
}
