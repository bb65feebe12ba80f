//! The vocabulary every comparison of field lists shares: who writes a list ([`Dir`]), what
//! kind of list it is, the list with how its findings are named ([`Fields`]), and the rules of
//! headers added to or removed from such a list.

use super::{B, C, Subject, U};
use crate::diff::{Audiences, Impact};
use crate::model::*;

rule!(
    "http",
    RESPONSE_HEADER_ADDED,
    "response-header-added",
    "a response gains a header",
    ["addition", "shape"],
    Info,
    "cargo-semver-checks `constructible_struct_adds_field` (the status's response struct); smithy-diff `AddedShape` (an `httpHeader` member)"
);

rule!(
    "http",
    RESPONSE_HEADER_REMOVED,
    "response-header-removed",
    "a response loses a header (breaking on the wire when it was always sent)",
    ["removal", "deprecation", "shape"],
    Info,
    "oasdiff `required-response-header-removed` (error), `optional-response-header-removed` (info)"
);

rule!(
    "http",
    REQUEST_HEADER_ADDED_REQUIRED,
    "request-header-added-required",
    "an endpoint requires a header parameter it did not read",
    ["requirement", "shape"],
    Info,
    "oasdiff `new-required-request-parameter` (a header parameter); smithy-diff `AddedRequiredMember`"
);

rule!(
    "http",
    REQUEST_HEADER_REMOVED,
    "request-header-removed",
    "an endpoint stops reading a header parameter: clients may still send it, the Rust request loses a member",
    ["removal", "deprecation", "shape"],
    Info,
    "oasdiff `request-parameter-removed` (a header parameter: warning)"
);

/// Who writes a list of fields.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Clients write it (request bodies, parameters, opcodes clients send).
    Request,
    /// The platform writes it (responses, events).
    Response,
    /// Both, or neither in particular (resources used both ways, SDK class members).
    Both,
}

impl Dir {
    pub fn of(direction: &str) -> Dir {
        match direction {
            "request" | "send" => Dir::Request,
            "response" | "receive" => Dir::Response,
            _ => Dir::Both,
        }
    }

    /// Whether clients write it.
    pub fn request(self) -> bool {
        self != Dir::Response
    }

    /// Whether the platform writes it.
    pub fn response(self) -> bool {
        self != Dir::Request
    }

    /// Who writes something written by both `self`'s and `other`'s writers.
    pub fn and(self, other: Dir) -> Dir {
        if self == other { self } else { Dir::Both }
    }
}

/// What a list of fields is, where added and removed members have rules of their own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// Members of an object, parameters, parts, variants.
    Members,
    /// An endpoint's request header parameters.
    RequestHeaders,
    /// The headers of a response.
    ResponseHeaders,
}

/// A list of fields and what the findings about them need: who writes them, which audiences
/// see them, and how to name a field.
pub struct Fields<'a> {
    pub dir: Dir,
    /// Which audiences see the fields at all: `(wire, rust, c)`.
    pub seen: (bool, bool, bool),
    /// Prefix of a field's path (`field:widget.`, `endpoint:rename_widget.body.`).
    pub prefix: String,
    /// Typed references that claim every field of the list.
    pub claims: Vec<String>,
    /// Whether a field is named as a typed reference of its own (`field:resource.name`).
    pub typed_fields: bool,
    pub kind: ListKind,
    pub old: &'a [Field],
    pub new: &'a [Field],
}

impl<'a> Fields<'a> {
    /// Members of an object, parameters or parts at `prefix`, claimed by `claims`, seen on the
    /// wire and in Rust.
    pub fn members(dir: Dir, prefix: String, claims: Vec<String>, old: &'a [Field], new: &'a [Field]) -> Self {
        Fields { dir, seen: (true, true, false), prefix, claims, typed_fields: false, kind: ListKind::Members, old, new }
    }

    pub fn audiences(&self, wire: Impact, rust: Impact, c: Impact) -> Audiences {
        let mask = |seen: bool, i: Impact| if seen { i } else { U };
        Audiences::new(mask(self.seen.0, wire), mask(self.seen.1, rust), mask(self.seen.2, c))
    }

    pub fn subject(&self, name: &str, old: Option<&Field>, new: Option<&Field>) -> Subject {
        let path = format!("{}{name}", self.prefix);
        let mut claims = Vec::new();
        if self.typed_fields {
            claims.push(path.clone());
        }
        claims.extend(self.claims.iter().cloned());
        let mut s = Subject::new(path, &claims);
        s.old_span = old.map(|f| f.span);
        s.new_span = new.map(|f| f.span);
        s
    }

    /// A field's name in messages: its path without the kind (`widget.label`,
    /// `rename_widget.body.tags`).
    pub fn show(&self, name: &str) -> String {
        let prefix = self.prefix.split_once(':').map_or(self.prefix.as_str(), |(_, rest)| rest);
        format!("{prefix}{name}")
    }

    /// Breaking on the wire when clients write it (`request`) or the platform does
    /// (`response`), compatible otherwise.
    pub fn wire_if(&self, request: bool, response: bool) -> Impact {
        if (request && self.dir.request()) || (response && self.dir.response()) { B } else { C }
    }
}

/// `snowflake`, `optional string`, `nullable integer`.
pub fn describe(f: &Field) -> String {
    let ty = f.ty.as_ref().map_or_else(|| "untyped".to_owned(), ToString::to_string);
    let mut words = Vec::new();
    if f.optional {
        words.push("optional");
    }
    if f.nullable {
        words.push("nullable");
    }
    words.push(&ty);
    words.join(" ")
}
