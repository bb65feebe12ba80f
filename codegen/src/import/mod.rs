//! `import openapi`: an OpenAPI 3.0 or 3.1 document (JSON or YAML) into spec files.
//!
//! The importer is a front end in front of `load`, not a second pipeline: it writes spec YAML,
//! and the usual `load -> model -> validate` judges what it wrote. It reads the document
//! ([`document`]), resolves local `$ref`s (a remote one is refused), maps the document onto the
//! spec's items ([`spec`]) and writes one file per concern and per tag through [`yaml`]:
//!
//! - `platform.yaml`: the platform (from `info`, `servers` and `tags`), token kinds and scopes
//!   (from `securitySchemes`), and the change that deprecates what the document deprecates;
//! - `schemas.yaml`: `components.schemas` as resources, enums and unions, `components.headers`
//!   and `components.responses` as named headers and responses;
//! - `endpoints/<tag>.yaml`: the operations of each tag (the first one an operation lists), in
//!   document order, with the shapes declared inline in them hoisted beside them.
//!
//! Every construct the spec cannot carry is a warning with the JSON pointer into the document,
//! and is written on the item it belongs to as a partial gap (`not_shown` with a `detail`), so
//! `coverage` counts it. Names the document does not give are made from where a shape was
//! written (`create_message.body.allowed_mentions` gives `create_message_body_allowed_mentions`),
//! never from a counter, so the same document always imports to the same bytes.

mod bundle;
pub mod document;
pub mod fidelity;
mod http;
mod pagination;
mod rate_limits;
mod schema;
mod settle;
// The keys mirror the raw layer's, documented there (`crate::load::raw`).
#[allow(missing_docs)]
pub mod spec;
mod webhooks;
pub mod yaml;

use crate::diag::{Diagnostic, Diagnostics, Sources, codes};
use crate::emit::GeneratedFile;
use crate::plan::case;
use document::Document;
use indexmap::IndexMap;
use serde_json::Value;
use spec::{Gap, SpecFile};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// What an import produced: the spec files, the document for rendering diagnostics, and the
/// warnings (one per construct not carried).
#[derive(Debug)]
pub struct Imported {
    /// The spec files, relative to the output directory.
    pub files: Vec<GeneratedFile>,
    /// The document, for rendering diagnostics.
    pub sources: Sources,
    /// One warning per construct the spec does not carry, sorted by place.
    pub warnings: Vec<Diagnostic>,
}

/// Why a document could not be imported.
#[derive(Debug)]
pub enum ImportError {
    /// The file could not be read (exit code 2).
    Io(String),
    /// The document is not one the importer can read, or refers outside itself (exit code 1).
    Invalid {
        /// The document, for rendering.
        sources: Sources,
        /// Every diagnostic, errors and warnings.
        diagnostics: Vec<Diagnostic>,
    },
}

/// Imports the OpenAPI document at `path`, named `display` in diagnostics.
///
/// Relative `$ref`s name other files of the document, read from beside the file that refers to
/// them, and bundled into one document first.
pub fn import_openapi(path: &Path, display: &str) -> Result<Imported, ImportError> {
    let text = std::fs::read_to_string(path).map_err(|e| ImportError::Io(format!("cannot read `{}`: {e}", path.display())))?;
    import_with(display, text, Some(path))
}

/// Imports a document given as text; a reference to another file is refused, since there is
/// no directory to read it from.
pub fn import_text(display: &str, text: String) -> Result<Imported, ImportError> {
    import_with(display, text, None)
}

fn import_with(display: &str, text: String, path: Option<&Path>) -> Result<Imported, ImportError> {
    let mut cx = Diagnostics::new();
    let mut sources = Sources::default();
    let file = sources.add(display.to_owned(), text);
    let Some(mut doc) = document::read(&mut cx, &sources, file) else {
        return Err(invalid(cx, sources));
    };
    if let Some(path) = path {
        bundle::bundle(&mut cx, &mut sources, &mut doc, path, display);
        if cx.has_errors() {
            return Err(invalid(cx, sources));
        }
    }
    let files = Importer::new(&doc).run(&mut cx);
    match cx.finish() {
        Ok(warnings) => Ok(Imported { files, sources, warnings }),
        Err(diagnostics) => Err(ImportError::Invalid { sources, diagnostics }),
    }
}

fn invalid(cx: Diagnostics, sources: Sources) -> ImportError {
    let diagnostics = match cx.finish() {
        Ok(list) | Err(list) => list,
    };
    ImportError::Invalid { sources, diagnostics }
}

/// The id of the change that deprecates what the document deprecates.
const DEPRECATED_CHANGE: &str = "deprecated-in-openapi";
/// The part of operations without a tag.
const UNTAGGED_PART: &str = "api";
/// The file of `components`.
const SCHEMAS_FILE: &str = "schemas.yaml";
/// The file of the platform block.
const PLATFORM_FILE: &str = "platform.yaml";

/// What a component schema becomes: a named item, or a shape written out where it is used (a
/// scalar with constraints, an array, a map), which the spec has no named form for.
#[derive(Clone, Debug)]
enum Component {
    Resource(String),
    Enum(String),
    Union(String),
    Alias,
}

/// The import of one document.
struct Importer<'d> {
    doc: &'d Document,
    /// Component schemas by name, classified before any is mapped so references resolve.
    components: IndexMap<String, Component>,
    /// Named headers and responses: pointer to id.
    named_headers: HashMap<String, String>,
    named_responses: HashMap<String, String>,
    /// Security schemes by name: the token kind id.
    token_kinds: IndexMap<String, String>,
    /// Parts by tag name (`API` for operations without a tag).
    part_ids: HashMap<String, String>,
    /// Output files by path, in the order first written.
    files: IndexMap<String, SpecFile>,
    /// Ids taken, by kind (`resource`, `enum`, `union`, `endpoint`, `header`, `response`, ...).
    taken: BTreeSet<(&'static str, String)>,
    /// Generated Rust names taken by shapes (resources, enums, unions share one namespace).
    shape_names: BTreeSet<String>,
    /// Whether anything is deprecated (then the deprecation change is written).
    deprecates: bool,
    /// Aliases being expanded, to stop a shape that contains itself without a name.
    expanding: Vec<String>,
    /// Document-level constructs not carried, written as the spec's standalone gaps.
    platform_gaps: Vec<Gap>,
    /// Constructs already reported (pointer and what).
    reported: BTreeSet<String>,
    /// Tagged unions by id: where each was written and where its variants were.
    tagged: HashMap<String, (String, Vec<String>)>,
    /// Whether the schema being mapped is a parameter's: text on the wire, where `null` has
    /// no spelling (an absent value is how it is sent), so no element written in it is nullable.
    text_only: bool,
}

/// Where a shape is written: its path (for names of shapes declared inside it) and the file
/// that receives those shapes.
#[derive(Clone, Debug)]
struct Site {
    path: Vec<String>,
    file: String,
}

impl Site {
    fn new(file: &str, first: &str) -> Self {
        Self { path: vec![first.to_owned()], file: file.to_owned() }
    }

    fn child(&self, segment: &str) -> Self {
        let mut path = self.path.clone();
        path.push(segment.to_owned());
        Self { path, file: self.file.clone() }
    }

    /// The snake_case id the path names (`create_message.body.allowed_mentions` ->
    /// `create_message_body_allowed_mentions`).
    fn id(&self) -> String {
        case::snake(&self.path.join("_"))
    }
}

impl<'d> Importer<'d> {
    fn new(doc: &'d Document) -> Self {
        Self {
            doc,
            components: IndexMap::new(),
            named_headers: HashMap::new(),
            named_responses: HashMap::new(),
            token_kinds: IndexMap::new(),
            part_ids: HashMap::new(),
            files: IndexMap::new(),
            taken: BTreeSet::new(),
            shape_names: BTreeSet::new(),
            deprecates: false,
            expanding: Vec::new(),
            platform_gaps: Vec::new(),
            reported: BTreeSet::new(),
            tagged: HashMap::new(),
            text_only: false,
        }
    }

    fn root(&self) -> &'d Value {
        &self.doc.root
    }

    fn run(mut self, cx: &mut Diagnostics) -> Vec<GeneratedFile> {
        self.files.insert(PLATFORM_FILE.to_owned(), SpecFile::default());
        self.files.insert(SCHEMAS_FILE.to_owned(), SpecFile::default());
        self.top_level(cx);
        self.classify_components();
        self.platform(cx);
        self.security(cx);
        self.component_headers(cx);
        self.component_responses(cx);
        self.component_schemas(cx);
        self.operations(cx);
        self.webhooks(cx);
        self.settle_tagged_unions(cx);
        self.error_body();
        settle::settle(cx, self.doc, &mut self.files);
        pagination::paginate(cx, self.doc, &mut self.files);
        rate_limits::detect(&mut self.files, PLATFORM_FILE);
        if self.deprecates {
            self.file(PLATFORM_FILE).changes.push(spec::Change {
                meta: spec::Meta { id: DEPRECATED_CHANGE.to_owned(), ..Default::default() },
                effective: "unscheduled".to_owned(),
                kind: "deprecation".to_owned(),
                summary: "Deprecated by the OpenAPI document, which gives no date for the removal.".to_owned(),
            });
        }
        self.write()
    }

    /// The output file at `path`, created empty on first use.
    fn file(&mut self, path: &str) -> &mut SpecFile {
        self.files.entry(path.to_owned()).or_default()
    }

    fn write(self) -> Vec<GeneratedFile> {
        let title = self.root().pointer("/info/title").and_then(Value::as_str).unwrap_or("an OpenAPI document");
        let header = format!("Imported from the OpenAPI document `{title}` by `platform-codegen import openapi`.");
        self.files
            .iter()
            .map(|(path, file)| {
                let value = serde_json::to_value(file).expect("BUG: spec files always serialize");
                GeneratedFile::new("spec", path.clone(), yaml::file(&header, &value))
            })
            .collect()
    }

    /// A unique id of `kind` made from `wanted` (snake_case): a taken one gets the kind as a
    /// suffix, then a number, so distinct document names never share an id.
    fn claim(&mut self, kind: &'static str, wanted: &str) -> String {
        let base = match case::snake(wanted) {
            s if s.is_empty() => kind.to_owned(),
            s if s.starts_with(|c: char| c.is_ascii_digit()) => format!("n{s}"),
            s => s,
        };
        let shape = matches!(kind, "resource" | "enum" | "union");
        let free = |this: &Self, id: &str| !this.taken.contains(&(kind, id.to_owned())) && (!shape || !this.shape_names.contains(&case::pascal(id)));
        let mut id = base.clone();
        if !free(self, &id) {
            id = format!("{base}_{kind}");
            let mut n = 2;
            while !free(self, &id) {
                id = format!("{base}_{kind}{n}");
                n += 1;
            }
        }
        self.taken.insert((kind, id.clone()));
        if shape {
            self.shape_names.insert(case::pascal(&id));
        }
        id
    }

    /// Reports a construct the spec does not carry, and returns the gap that records it on its item.
    fn unmapped(&mut self, cx: &mut Diagnostics, code: &'static str, pointer: &str, facet: &'static str, what: &str, why: &str) -> Gap {
        let shown = format!("#{pointer}");
        // A shape written out at each use (a component without an item of its own) is
        // reported once, where it is declared; each use still records the gap.
        if !self.reported.insert(format!("{pointer} {what}")) {
            return Gap { facet, detail: format!("{what} at `{shown}` is not imported: {why}") };
        }
        cx.push(
            Diagnostic::warning(code, format!("{what} at `{shown}` is not imported"))
                .at(self.doc.span(pointer), "not imported")
                .note(why.to_owned())
                .help("the spec records it as a gap on the item (`not_shown`), so `coverage` lists it"),
        );
        Gap { facet, detail: format!("{what} at `{shown}` is not imported: {why}") }
    }

    /// Top-level members with no place in the spec.
    fn top_level(&mut self, cx: &mut Diagnostics) {
        let Some(root) = self.root().as_object() else { return };
        let known = ["openapi", "info", "servers", "paths", "webhooks", "components", "security", "tags"];
        let mut gaps = Vec::new();
        for key in root.keys().filter(|k| !known.contains(&k.as_str())) {
            let why = match key.as_str() {
                "externalDocs" => "the spec format has no link to outside documentation",
                "jsonSchemaDialect" => "schemas are read as the OpenAPI version's own dialect",
                k if k.starts_with("x-") => "extensions have no meaning the spec format knows",
                _ => "the member is not part of OpenAPI 3.0 or 3.1",
            };
            gaps.push(self.unmapped(cx, codes::IMPORT_UNMAPPED, &format!("/{}", document::escape(key)), "details", &format!("`{key}`"), why));
        }
        self.platform_gaps = gaps;
        if let Some(components) = root.get("components").and_then(Value::as_object) {
            let known = ["schemas", "responses", "headers", "securitySchemes", "parameters", "requestBodies"];
            for key in components.keys().filter(|k| !known.contains(&k.as_str())) {
                let why = match key.as_str() {
                    "examples" => "named examples are kept only where a schema or parameter uses them inline",
                    "links" | "callbacks" => "the spec format has no links or callbacks between operations",
                    "pathItems" => "shared path items are not referenced by operations the importer reads",
                    _ => "the spec format has no such component",
                };
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("/components/{}", document::escape(key)),
                    "details",
                    &format!("`components.{key}`"),
                    why,
                );
                self.platform_gaps.push(gap);
            }
        }
    }
}

/// Decodes a local reference (`#/components/schemas/User`) into a JSON pointer.
fn local_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    Some(percent_decode(fragment))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The last token of a pointer, unescaped (`/components/schemas/A~1B` -> `A/B`).
fn last_token(pointer: &str) -> String {
    pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~")
}
