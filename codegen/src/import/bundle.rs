//! Documents split over several files: relative `$ref`s (`models/droplet.yml`,
//! `parameters.yml#/droplet_id`, `#/apiMeta` inside another file) are brought into the one
//! document the importer maps, the way `redocly bundle` does, before anything is mapped.
//!
//! - A reference in the place of a component (a schema, a response, a parameter, a header, a
//!   request body, an example) becomes a component of that kind (named after the fragment's last
//!   token, else the file's stem) and a local `$ref` to it: a response shared by every operation
//!   is one named response, imported and reported once, and schemas that refer to each other
//!   across files stay a cycle of references. A root component that is only a reference keeps
//!   its name.
//! - Any other reference (a path item, an operation, a description) is replaced by what it
//!   names, merged with the keys written beside it.
//! - Every value brought in keeps its place in its own file, so diagnostics point there.
//! - A reference to a file outside the root document's directory, to a file that does not
//!   exist or cannot be read, or to a pointer the file does not hold is an error; so is a chain
//!   of non-schema references that leads back to itself. Remote references (`https://...`) are
//!   left for the importer, which refuses them.

use super::document::{self, Document, escape};
use crate::diag::{Diagnostic, Diagnostics, Sources, Span, codes};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::{Component, Path, PathBuf};

/// Resolves every relative reference of `doc`, read from `path` and shown as `display`.
pub fn bundle(cx: &mut Diagnostics, sources: &mut Sources, doc: &mut Document, path: &Path, display: &str) {
    if !has_relative_ref(&doc.root) {
        return;
    }
    let root_path = normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
    let root_dir = root_path.parent().map(Path::to_path_buf).unwrap_or_default();
    let display_dir = Path::new(display).parent().map(Path::to_path_buf).unwrap_or_default();
    let mut b = Bundler {
        sources,
        spans: std::mem::take(&mut doc.spans),
        root_path,
        root_dir,
        display_dir,
        files: HashMap::new(),
        hoisted: HashMap::new(),
        names: BTreeSet::new(),
        pending: VecDeque::new(),
        inlining: Vec::new(),
    };
    let mut root = std::mem::take(&mut doc.root);
    b.claim_component_refs(cx, &mut root);
    let base = b.root_path.clone();
    b.walk(cx, &mut root, "", &base, Ctx::Plain);
    b.fill_components(cx, &mut root);
    doc.root = root;
    doc.spans = b.spans;
}

/// Whether any `$ref` names another file.
fn has_relative_ref(v: &Value) -> bool {
    match v {
        Value::Object(map) => map.iter().any(|(k, v)| (k == "$ref" && v.as_str().is_some_and(|r| !r.starts_with('#'))) || has_relative_ref(v)),
        Value::Array(list) => list.iter().any(has_relative_ref),
        _ => false,
    }
}

/// Where a value sits, which decides what a `$ref` in it becomes.
#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    /// Outside schemas: references are replaced by what they name.
    Plain,
    /// A schema: references become component schemas.
    Schema,
    /// A map of schemas (`properties`, `components.schemas`).
    SchemaMap,
    /// A list of schemas (`allOf`, `oneOf`, `anyOf`, `prefixItems`).
    SchemaList,
    /// A discriminator, whose `mapping` names schemas by reference.
    Discriminator,
    /// Values, not descriptions: examples, defaults, enums, extensions.
    Stop,
}

/// The place of `key` inside a value of `ctx` at `at`.
fn child(ctx: Ctx, at: &str, key: &str) -> Ctx {
    match ctx {
        Ctx::Plain => match key {
            "schema" => Ctx::Schema,
            "schemas" if at == "/components" => Ctx::SchemaMap,
            "example" | "value" | "externalValue" => Ctx::Stop,
            _ => Ctx::Plain,
        },
        Ctx::Schema => match key {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => Ctx::SchemaMap,
            "items"
            | "additionalProperties"
            | "not"
            | "contains"
            | "if"
            | "then"
            | "else"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "additionalItems"
            | "contentSchema" => Ctx::Schema,
            "allOf" | "oneOf" | "anyOf" | "prefixItems" => Ctx::SchemaList,
            "discriminator" => Ctx::Discriminator,
            _ => Ctx::Stop,
        },
        Ctx::SchemaMap | Ctx::SchemaList => Ctx::Schema,
        Ctx::Discriminator if key == "mapping" => Ctx::Discriminator,
        Ctx::Discriminator | Ctx::Stop => Ctx::Stop,
    }
}

/// A file read for its references.
struct Loaded {
    value: Value,
    spans: HashMap<String, Span>,
}

/// A kind of component: its member of `components`.
type Kind = &'static str;

/// The kinds of component a reference outside schemas may stand in the place of, by the member
/// that holds the reference (`responses/401`, `parameters/0`, `headers/x-id`, `requestBody`,
/// `examples/ok`).
const KINDS: &[(&str, Kind)] =
    &[("responses", "responses"), ("parameters", "parameters"), ("headers", "headers"), ("requestBody", "requestBodies"), ("examples", "examples")];

/// The kind of component a reference at `at` (outside schemas) stands for, if any.
fn kind_at(at: &str) -> Option<Kind> {
    let mut tokens = at.rsplit('/');
    let last = tokens.next()?;
    let parent = tokens.next().unwrap_or_default();
    if at.starts_with("/components/") && at.matches('/').count() == 3 {
        return KINDS.iter().map(|(_, k)| *k).find(|k| *k == parent);
    }
    KINDS.iter().find(|(member, kind)| (*member == parent && *kind != "requestBodies") || (*member == last && *kind == "requestBodies")).map(|(_, k)| *k)
}

/// What a reference names: a file (absolute, normalized) and a JSON pointer in it.
type Target = (PathBuf, String);

struct Bundler<'s> {
    sources: &'s mut Sources,
    /// The bundled document's spans, by pointer.
    spans: HashMap<String, Span>,
    root_path: PathBuf,
    root_dir: PathBuf,
    /// The root's directory as diagnostics show it.
    display_dir: PathBuf,
    /// Files read so far (`None`: could not be read, already reported).
    files: HashMap<PathBuf, Option<Loaded>>,
    /// Schemas brought in, by what they are: their component name.
    hoisted: HashMap<(Kind, Target), String>,
    /// Component names taken, by kind.
    names: BTreeSet<(Kind, String)>,
    /// Components named but not yet filled.
    pending: VecDeque<(Kind, String, Target)>,
    /// Non-schema references being replaced, outermost first.
    inlining: Vec<Target>,
}

impl Bundler<'_> {
    /// Names every root component; one that is only a reference to another file keeps its
    /// name for what it names.
    fn claim_component_refs(&mut self, cx: &mut Diagnostics, root: &mut Value) {
        let base = self.root_path.clone();
        for kind in std::iter::once("schemas").chain(KINDS.iter().map(|(_, k)| *k)) {
            let Some(members) = root.pointer(&format!("/components/{kind}")).and_then(Value::as_object) else { continue };
            self.names.extend(members.keys().map(|name| (kind, name.clone())));
            for (name, member) in members {
                let Some(r) = only_ref(member) else { continue };
                let at = format!("/components/{kind}/{}", escape(name));
                if let Some(target) = self.target(cx, r, &base, &at)
                    && target.0 != self.root_path
                    && !self.hoisted.contains_key(&(kind, target.clone()))
                {
                    self.hoisted.insert((kind, target.clone()), name.clone());
                    self.pending.push_back((kind, name.clone(), target));
                }
            }
        }
    }

    /// Fills every component brought in, with the references inside it resolved (which may
    /// bring in more).
    fn fill_components(&mut self, cx: &mut Diagnostics, root: &mut Value) {
        while let Some((kind, name, target)) = self.pending.pop_front() {
            let at = format!("/components/{kind}/{}", escape(&name));
            let Some(mut value) = self.value_at(cx, &target, &at) else { continue };
            let ctx = if kind == "schemas" { Ctx::Schema } else { Ctx::Plain };
            self.inlining.push(target.clone());
            self.walk(cx, &mut value, &at, &target.0.clone(), ctx);
            self.inlining.pop();
            let Some(obj) = root.as_object_mut() else { return };
            let components = obj.entry("components").or_insert_with(|| Value::Object(Map::new()));
            let Some(components) = components.as_object_mut() else { return };
            let members = components.entry(kind).or_insert_with(|| Value::Object(Map::new()));
            if let Some(members) = members.as_object_mut() {
                members.insert(name, value);
            }
        }
    }

    /// Resolves the references in `v` (at pointer `at` of the bundle, read from `base`).
    fn walk(&mut self, cx: &mut Diagnostics, v: &mut Value, at: &str, base: &Path, ctx: Ctx) {
        if ctx == Ctx::Stop {
            return;
        }
        if ctx == Ctx::Discriminator {
            return self.mapping(cx, v, at, base);
        }
        if let Some(reference) = v.get("$ref").and_then(Value::as_str).filter(|_| ctx != Ctx::SchemaMap).map(str::to_owned) {
            return self.reference(cx, v, &reference, at, base, ctx);
        }
        match v {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    let inner = child(ctx, at, key);
                    self.walk(cx, value, &format!("{at}/{}", escape(key)), base, inner);
                }
            }
            Value::Array(list) if matches!(ctx, Ctx::SchemaList | Ctx::Schema | Ctx::Plain) => {
                let inner = if ctx == Ctx::Plain { Ctx::Plain } else { Ctx::Schema };
                for (i, value) in list.iter_mut().enumerate() {
                    self.walk(cx, value, &format!("{at}/{i}"), base, inner);
                }
            }
            _ => {}
        }
    }

    /// A discriminator's `mapping`: values that name another file name its component schema.
    fn mapping(&mut self, cx: &mut Diagnostics, v: &mut Value, at: &str, base: &Path) {
        let Some(mapping) = v.get_mut("mapping").and_then(Value::as_object_mut) else { return };
        for (key, value) in mapping.iter_mut() {
            let Some(r) = value.as_str().filter(|r| is_relative(r) && (r.contains('/') || r.contains('#') || r.contains('.'))).map(str::to_owned) else {
                continue;
            };
            let at = format!("{at}/mapping/{}", escape(key));
            if let Some(local) = self.component_ref(cx, "schemas", &r, &at, base) {
                *value = Value::String(local);
            }
        }
    }

    /// A `$ref` object: left as it is (remote, or local to the root), made a component schema's
    /// reference, or replaced by what it names.
    fn reference(&mut self, cx: &mut Diagnostics, v: &mut Value, reference: &str, at: &str, base: &Path, ctx: Ctx) {
        if !is_relative(reference) || (reference.starts_with('#') && base == self.root_path) {
            return;
        }
        let at_ref = format!("{at}/$ref");
        let kind = if ctx == Ctx::Schema { Some("schemas") } else { kind_at(at) };
        if let Some(kind) = kind {
            if let Some(local) = self.component_ref(cx, kind, reference, &at_ref, base) {
                v["$ref"] = Value::String(local);
            }
            return;
        }
        let Some(target) = self.target(cx, reference, base, &at_ref) else { return };
        if target.0 == self.root_path {
            v["$ref"] = Value::String(format!("#{}", target.1));
            return;
        }
        if self.inlining.contains(&target) {
            let chain: Vec<String> = self.inlining.iter().chain([&target]).map(|t| self.shown(t)).collect();
            cx.push(
                Diagnostic::error(codes::IMPORT_UNRESOLVED_REF, format!("`$ref: {reference}` at `#{at_ref}` leads back to itself: {}", chain.join(" -> ")))
                    .at(self.span(&at_ref), "a reference that contains itself")
                    .help("only schemas may refer to themselves; a parameter, response or path item must end"),
            );
            return;
        }
        let Some(mut value) = self.value_at(cx, &target, at) else { return };
        // Keys written beside the reference (a `description`, a `summary`) override its own.
        if let (Value::Object(replaced), Value::Object(beside)) = (&mut value, &*v) {
            for (key, val) in beside.iter().filter(|(k, _)| *k != "$ref") {
                replaced.insert(key.clone(), val.clone());
            }
        }
        self.inlining.push(target.clone());
        self.walk(cx, &mut value, at, &target.0, ctx);
        self.inlining.pop();
        *v = value;
    }

    /// The local reference of the component of `kind` a reference names, brought in if new.
    fn component_ref(&mut self, cx: &mut Diagnostics, kind: Kind, reference: &str, at: &str, base: &Path) -> Option<String> {
        let target = self.target(cx, reference, base, at)?;
        if target.0 == self.root_path {
            return Some(format!("#{}", target.1));
        }
        let name = match self.hoisted.get(&(kind, target.clone())) {
            Some(name) => name.clone(),
            None => {
                let name = self.fresh_name(kind, &target);
                self.names.insert((kind, name.clone()));
                self.hoisted.insert((kind, target.clone()), name.clone());
                self.pending.push_back((kind, name.clone(), target));
                name
            }
        };
        Some(format!("#/components/{kind}/{}", escape(&name)))
    }

    /// A component name for a schema: the fragment's last token, else the file's stem; the
    /// stem and the token together where the token is taken; a number after that.
    fn fresh_name(&self, kind: Kind, (path, fragment): &Target) -> String {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let token = fragment.rsplit('/').next().filter(|t| !t.is_empty()).map(|t| t.replace("~1", "/").replace("~0", "~"));
        let first = token.clone().unwrap_or_else(|| stem.clone());
        let mut candidates = vec![first];
        if let Some(t) = token {
            candidates.push(format!("{stem}_{t}"));
        }
        let free = |c: &String| !self.names.contains(&(kind, c.clone()));
        if let Some(found) = candidates.iter().find(|c| free(c)) {
            return found.clone();
        }
        let last = candidates.pop().expect("BUG: one candidate at least");
        (2..).map(|n| format!("{last}_{n}")).find(free).expect("BUG: some number is free")
    }

    /// The file and pointer a reference names, read from `base`; errors say why there is none.
    fn target(&mut self, cx: &mut Diagnostics, reference: &str, base: &Path, at: &str) -> Option<Target> {
        let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let pointer = super::local_pointer(&format!("#{fragment}")).unwrap_or_default();
        let path = if file.is_empty() { base.to_path_buf() } else { normalize(&base.parent().unwrap_or(Path::new("")).join(super::percent_decode(file))) };
        if !path.starts_with(&self.root_dir) {
            cx.push(
                Diagnostic::error(codes::IMPORT_REMOTE_REF, format!("`$ref: {reference}` at `#{at}` leaves the document's directory"))
                    .at(self.span(at), "a reference outside the document")
                    .help("the files of a document sit in the root document's directory or below it"),
            );
            return None;
        }
        self.load(cx, &path, reference, at)?;
        Some((path, pointer))
    }

    /// Reads a file once; a file that cannot be read is reported where it was first named.
    fn load(&mut self, cx: &mut Diagnostics, path: &Path, reference: &str, at: &str) -> Option<()> {
        if !self.files.contains_key(path) {
            let loaded = self.read(cx, path, reference, at);
            self.files.insert(path.to_path_buf(), loaded);
        }
        self.files.get(path)?.as_ref().map(|_| ())
    }

    fn read(&mut self, cx: &mut Diagnostics, path: &Path, reference: &str, at: &str) -> Option<Loaded> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                cx.push(
                    Diagnostic::error(codes::IMPORT_UNRESOLVED_REF, format!("`$ref: {reference}` at `#{at}` names a file that cannot be read: {e}"))
                        .at(self.span(at), "no such file"),
                );
                return None;
            }
        };
        let relative = path.strip_prefix(&self.root_dir).unwrap_or(path);
        let shown = self.display_dir.join(relative).to_string_lossy().replace('\\', "/");
        let file = self.sources.add(shown, text);
        let (value, spans) = document::parse(cx, self.sources, file)?;
        Some(Loaded { value, spans })
    }

    /// A copy of the value a target names, its spans recorded at `at` of the bundle.
    fn value_at(&mut self, cx: &mut Diagnostics, (path, pointer): &Target, at: &str) -> Option<Value> {
        let loaded = self.files.get(path)?.as_ref()?;
        let Some(value) = loaded.value.pointer(pointer).cloned() else {
            let shown = self.shown(&(path.clone(), pointer.clone()));
            cx.push(
                Diagnostic::error(codes::IMPORT_UNRESOLVED_REF, format!("`{shown}`, referred to at `#{at}`, names nothing"))
                    .at(self.span(at), "no value at this pointer"),
            );
            return None;
        };
        for (p, span) in &loaded.spans {
            if let Some(rest) = p.strip_prefix(pointer.as_str())
                && (rest.is_empty() || rest.starts_with('/'))
            {
                self.spans.insert(format!("{at}{rest}"), *span);
            }
        }
        Some(value)
    }

    /// A target as a reader would write it: the file relative to the root's directory.
    fn shown(&self, (path, pointer): &Target) -> String {
        let relative = path.strip_prefix(&self.root_dir).unwrap_or(path);
        format!("{}#{pointer}", relative.to_string_lossy().replace('\\', "/"))
    }

    /// The span of the value at `pointer`, or of the nearest enclosing one.
    fn span(&self, pointer: &str) -> Span {
        document::nearest_span(&self.spans, pointer).or_else(|| self.spans.get("").copied()).unwrap_or_default()
    }
}

/// The reference of a schema that is nothing but a reference.
fn only_ref(schema: &Value) -> Option<&str> {
    let obj = schema.as_object()?;
    (obj.len() == 1).then(|| obj.get("$ref")?.as_str())?
}

/// Whether a reference names a file of this document (not `https://...` or `urn:...`).
fn is_relative(reference: &str) -> bool {
    let scheme = reference.split_once(':').map(|(s, _)| s);
    !reference.starts_with("//")
        && !scheme.is_some_and(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) && !s.contains('/') && !s.contains('#'))
}

/// `a/./b/../c` as `a/c`, without asking the file system (a missing file is reported when read).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
