//! Builds one random spec that uses every construct of the format.
//!
//! Each `*_items` method adds one kind of item, after the kinds it may refer to, so every
//! reference resolves, and keeps the rules of the format (unique bits and codes, dated variants
//! that tile the timeline, `until` after `since`, bounds in order, limits that do not refer to
//! themselves). Names come from [`crate::pool`]; where two of them would become one identifier,
//! [`crate::Generated::make_valid`] gives one a `rust_name`/`c_name`, as a user would.
//!
//! What is covered, by construct (extend this list, and the builder, when the format grows):
//!
//! - platform: name, description, prefixes, placeholders (with examples), parts (with addresses),
//!   the placeholder of the published docs;
//!   two files, the second with a default `part`;
//! - common item keys: name, description, part, since, until, deprecated, not_shown (bare and
//!   with detail), assumed, notes, rust_name, c_name;
//! - permissions (bits, bits not shown), enums (integer and string, values not shown, no
//!   values, `repr` written or implied by a number), flag sets (integer and string, widths 32 and
//!   64, bits not shown);
//! - resources (directions, `extends`, cases with literal, contains, omits and item-count facts)
//!   and fields: every primitive type and alias, `array<>` (nested), `map<K, V>` (every key
//!   kind), `enum<>`, `flags<>`, `object<>` (including a resource holding itself, optional and
//!   nullable, and two resources holding each other), `union<>`, inline alternatives
//!   (`integer | string | null`), inline objects (`object`, `array<object>`, `map<string,
//!   object>` with `fields:`), `class<>`; optional, nullable, both (three states), wire_name,
//!   typed `default`, `default_text`, `const`, `subset`, literal, every constraint by value, by
//!   limit (with offset) and by another endpoint's response field, float bounds,
//!   `min_exclusive`, `pattern`, `unique_items`, entry counts, `items:` (nested),
//!   required_when, requires_scope, field lifecycles, a type not shown;
//! - unions: tagged by an integer, a text or an enum (variants are resources fixing the
//!   discriminator with `const`, with and without `tag:`), untagged (variants of any type, with
//!   their own constraints), and a variant that holds its union again;
//! - named headers and named responses; endpoints: every method, path parameters, query
//!   (arrays `repeated` and `comma`), header parameters, body, whole-body schema, several body
//!   formats sharing the body, typed multipart parts (JSON, files `indexed` and `repeated`, media
//!   types), binary bodies, every response format, response types and fields, the shorthand's
//!   `response_max_items` and `response_columns`, responses by status (codes, ranges, `default`,
//!   bodiless `204`; inline or named; headers inline, named or listed), auth (token kinds,
//!   anonymous and optional calls, bearer kinds with scopes), behaviours with gates, alias
//!   routes (with their own method, deprecated and bounded by `until`), and endpoints whose
//!   method and path are not shown;
//! - conditions (with and without a parameter and its enum), intents, scopes, scope sets, token
//!   kinds, permission rules (single rules and dated variants over all, any, when/then/else,
//!   negated and called conditions, intents, scopes), auth rules, the authorization server;
//! - events (every channel, with and without codes and payloads), errors (codes, OAuth2 errors,
//!   statuses, messages), the error body, limits (value, min, max, units, per, duration,
//!   previous values, references to other limits), changes (dates, already in effect,
//!   unscheduled, every kind, gates, affects), state machines (enum, subject, state values,
//!   transitions with effects);
//! - opcodes (directions, replies, payloads), commands (scopes, aliases), SDK classes
//!   (namespaces, fields of every mappable kind including a class holding itself, methods,
//!   semantics, used_by), SDK calls, releases (toolkits, packaging), the release policy,
//!   features, constants (text and integer), standalone gaps and typed references of every
//!   kind;
//! - empty lists of every kind (no conditions, no errors, ...), by chance.

use crate::pool;
use crate::rng::Rng;

mod http;
mod shapes;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// What the builder knows of the items made so far, for references.
#[derive(Default)]
struct Made {
    parts: Vec<String>,
    placeholders: Vec<String>,
    /// Changes in effective order, with a rank (equal ranks take effect together).
    changes: Vec<(String, u32)>,
    permissions: Vec<String>,
    /// Integer enums with their value ids that can be written as condition arguments.
    int_enums: Vec<(String, Vec<String>)>,
    enums: Vec<String>,
    flags: Vec<String>,
    limits: Vec<String>,
    scopes: Vec<String>,
    intents: Vec<String>,
    token_kinds: Vec<String>,
    /// Conditions with whether they take an argument, and the enum values it may be.
    conditions: Vec<(String, Option<Vec<String>>)>,
    classes: Vec<String>,
    /// Classes with `copy` or `move` semantics, which other classes may hold.
    holdable_classes: Vec<String>,
    resources: Vec<String>,
    /// Every enum: whether it is a string enum, and its values with whether each has a number.
    enum_values: Vec<EnumValues>,
    /// Every flag set with its flags and their bits.
    flag_values: Vec<FlagValues>,
    /// Unions, named by `union<id>`.
    unions: Vec<String>,
    /// Resources made for the variants of tagged unions, written with the other resources.
    variant_resources: Vec<Value>,
    /// Changes a lifecycle may name: every kind but `correction`, which changes no lifetime.
    lifecycle_changes: Vec<(String, u32)>,
    /// Endpoints that accept anonymous calls, which no permission rule guards.
    anonymous: Vec<String>,
    /// Token kinds with the `Bearer` scheme, the only ones that carry scopes.
    bearer_kinds: Vec<String>,
    /// Named headers and named responses.
    headers: Vec<String>,
    responses: Vec<String>,
    /// A counter that keeps generated names (inline fields, header wire names) apart.
    serial: usize,
    endpoints: Vec<String>,
    /// Endpoints with a numeric response field, for run-time bounds.
    numeric_responses: Vec<(String, String)>,
    events: Vec<String>,
    /// Events of channel `webhook`, which webhooks deliver.
    webhook_events: Vec<String>,
    /// The field names (and wire names) of those events, which an envelope's members avoid.
    webhook_fields: Vec<String>,
    errors: Vec<String>,
    state_machines: Vec<String>,
    /// Typed references to anything made so far (`kind:id`).
    typed: Vec<String>,
}

/// An enum as the builder knows it: its id, whether it is a string enum, and its values with
/// whether each has a form on the wire (a value of an integer enum needs its number).
type EnumValues = (String, bool, Vec<(String, bool)>);

/// A flag set: its id, and its flags with their bits.
type FlagValues = (String, Vec<(String, Option<u64>)>);

/// A top-level key of the spec file and the method that makes its items.
type Section = (&'static str, fn(&mut Builder) -> Vec<Value>);

/// Builds one spec.
pub struct Builder {
    rng: Rng,
    plain: bool,
    made: Made,
    /// Spec number: keeps generated crate names apart when many specs share a workspace.
    index: usize,
    seed: u64,
}

/// The spec's files: name to top-level mapping.
pub type Files = Vec<(String, Map<String, Value>)>;

pub(super) const PRIMITIVES: &[&str] = &[
    "string",
    "boolean",
    "integer",
    "int32",
    "uint32",
    "uint64",
    "number",
    "float32",
    "snowflake",
    "timestamp",
    "date_time",
    "date",
    "uuid",
    "email",
    "string_integer",
    "url",
    "uri",
    "bytes",
    "file",
    "csv",
    "json",
];
const UNITS: &[&str] = &[
    "bytes",
    "KiB",
    "MiB",
    "GiB",
    "characters",
    "items",
    "files",
    "commands",
    "members",
    "users",
    "messages",
    "uses",
    "hours",
    "years",
    "minor_versions",
    "versions",
];
const CHANGE_KINDS: &[&str] = &["addition", "removal", "rename", "requirement", "shape", "behavior", "deprecation", "correction"];
const CHANNELS: &[&str] = &["gateway", "audit_log", "webhook", "rpc", "social_sdk"];
pub(super) const METHODS: &[&str] = &["GET", "POST", "PUT", "PATCH", "DELETE"];

impl Builder {
    /// A builder for spec number `index` from `seed`; a `plain` spec uses ordinary words only.
    pub fn new(seed: u64, index: usize, plain: bool) -> Self {
        Builder { rng: Rng::new(seed), plain, made: Made::default(), index, seed }
    }

    /// The whole spec: `platform.yaml` and `api.yaml`.
    pub fn build(mut self) -> Files {
        let platform = self.platform();
        let mut api = Map::new();
        api.insert("part".into(), json!(self.made.parts[0]));
        let sections: Vec<Section> = vec![
            ("changes", Self::changes),
            ("permissions", Self::permissions),
            ("enums", Self::enums),
            ("flags", Self::flags),
            ("limits", Self::limits),
            ("scopes", Self::scopes),
            ("scope_sets", Self::scope_sets),
            ("intents", Self::intents),
            ("token_kinds", Self::token_kinds),
            ("conditions", Self::conditions),
            ("classes", Self::classes),
            ("unions", Self::unions),
            ("resources", Self::resources),
            ("headers", Self::headers_section),
            ("responses", Self::responses_section),
            ("endpoints", Self::endpoints),
            ("permission_rules", Self::permission_rules),
            ("events", Self::events),
            ("webhooks", Self::webhooks),
            ("errors", Self::errors),
            ("opcodes", Self::opcodes),
            ("commands", Self::commands),
            ("state_machines", Self::state_machines),
            ("auth_rules", Self::auth_rules),
            ("features", Self::features),
            ("constants", Self::constants),
            ("gaps", Self::gaps),
            ("sdk_calls", Self::sdk_calls),
            ("releases", Self::releases),
        ];
        for (key, make) in sections {
            let items = make(&mut self);
            // Named headers and responses are maps by id: their section gives one mapping.
            if let [Value::Object(map)] = items.as_slice()
                && matches!(key, "headers" | "responses")
            {
                if !map.is_empty() {
                    api.insert(key.into(), Value::Object(map.clone()));
                }
            } else if !items.is_empty() || self.rng.chance(20) {
                api.insert(key.into(), Value::Array(items));
            }
        }
        if let Some(body) = self.error_body() {
            api.insert("error_body".into(), body);
        }
        if let Some(server) = self.authorization_server() {
            api.insert("authorization_server".into(), server);
        }
        if let Some(policy) = self.release_policy() {
            api.insert("release_policy".into(), policy);
        }
        self.use_changes(&mut api);
        vec![("platform.yaml".into(), platform), ("api.yaml".into(), api)]
    }

    fn headers_section(&mut self) -> Vec<Value> {
        vec![Value::Object(self.named_headers())]
    }

    fn responses_section(&mut self) -> Vec<Value> {
        vec![Value::Object(self.named_responses())]
    }

    // --- names -------------------------------------------------------------------------------

    /// A name not in `taken`, from the pool (ordinary words only for a plain spec).
    fn name(&mut self, taken: &[String]) -> String {
        self.name_where(taken, |_| true)
    }

    fn name_where(&mut self, taken: &[String], ok: impl Fn(&str) -> bool) -> String {
        for _ in 0..64 {
            let candidate = if self.plain { pool::PLAIN[self.rng.below(pool::PLAIN.len())].to_string() } else { self.rng.pick(pool::all()).clone() };
            if ok(&candidate) && !taken.contains(&candidate) {
                return candidate;
            }
        }
        // The pool ran out of fitting names: make one up.
        let mut n = taken.len();
        loop {
            let candidate = format!("name{n}");
            if !taken.contains(&candidate) {
                return candidate;
            }
            n += 1;
        }
    }

    fn ident_name(&mut self, taken: &[String]) -> String {
        self.name_where(taken, pool::is_plain_ident)
    }

    fn count(&mut self, max: usize) -> usize {
        // A kind is empty now and then, so every emitter meets empty lists.
        if self.rng.chance(15) { 0 } else { self.rng.range(1, max) }
    }

    // --- common item keys --------------------------------------------------------------------

    /// An item with `id` and, by chance, the keys every item may have.
    fn item(&mut self, id: &str) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("id".into(), json!(id));
        if self.rng.chance(40) {
            m.insert("name".into(), json!(format!("The {} item", self.rng.pick(pool::PLAIN))));
        }
        if self.rng.chance(50) {
            let text = self.prose();
            m.insert("description".into(), json!(text));
        }
        if self.rng.chance(20) && self.made.parts.len() > 1 {
            let part = self.rng.pick(&self.made.parts).clone();
            m.insert("part".into(), json!(part));
        }
        if self.rng.chance(20) {
            m.insert("notes".into(), json!([self.prose(), "Another rule, with `code` and <angle> [brackets]."]));
        }
        self.lifecycle(&mut m);
        if self.rng.chance(10) {
            m.insert("not_shown".into(), json!([{ "facet": "details", "detail": "what the source leaves out" }]));
        }
        m
    }

    /// Prose with the characters docs must escape.
    fn prose(&mut self) -> String {
        let word = if self.plain { "plain".to_string() } else { self.rng.pick(pool::all()).clone() };
        match self.rng.below(6) {
            // Markdown as real descriptions write it: a list whose items go on without
            // indentation, a table after it, a trailing blank line.
            0 => format!("Text about `{word}`:\n- one item\ncontinued without indentation\n2. another\n`{word}` | a table row\n\n"),
            // Blank: the same as no description.
            1 => "  ".to_owned(),
            _ => format!("Text about `{word}` & <b>markup</b>, \"quotes\", */ comment ends, # and {{braces}}."),
        }
    }

    /// `since`/`until`/`deprecated`, with `until` strictly after `since`.
    fn lifecycle(&mut self, m: &mut Map<String, Value>) {
        let changes = self.made.lifecycle_changes.clone();
        if changes.is_empty() || !self.rng.chance(25) {
            return;
        }
        let a = self.rng.below(changes.len());
        match self.rng.below(3) {
            0 => {
                m.insert("since".into(), json!(changes[a].0));
            }
            1 => {
                m.insert("deprecated".into(), json!(changes[a].0));
            }
            _ => {
                if let Some(b) = changes.iter().position(|c| c.1 > changes[a].1) {
                    let b = self.rng.range(b, changes.len() - 1);
                    m.insert("since".into(), json!(changes[a].0));
                    m.insert("until".into(), json!(changes[b].0));
                } else {
                    m.insert("until".into(), json!(changes[a].0));
                }
            }
        }
    }

    // --- platform ----------------------------------------------------------------------------

    fn platform(&mut self) -> Map<String, Value> {
        // The seed names the crates, so two specs never share a crate name, even in one target
        // directory across runs (Cargo would take one's build for the other's).
        let n = format!("{}x{}", self.seed, self.index);
        let mut placeholders = Vec::new();
        let mut taken = Vec::new();
        for _ in 0..self.rng.range(1, 3) {
            let id = self.name(&taken);
            taken.push(id.clone());
            let mut p = self.item(&id);
            p.remove("since");
            p.remove("until");
            p.remove("deprecated");
            p.remove("part");
            if self.rng.chance(80) {
                p.insert("example".into(), json!(format!("http://127.0.0.1:{}/v{}", 9000 + placeholders.len(), self.index)));
            }
            placeholders.push(Value::Object(p));
        }
        self.made.placeholders = taken.clone();
        let mut parts = Vec::new();
        let mut part_ids: Vec<String> = Vec::new();
        for i in 0..self.rng.range(1, 3) {
            let id = self.name(&part_ids);
            part_ids.push(id.clone());
            let mut p = Map::new();
            p.insert("id".into(), json!(id));
            if i == 0 || self.rng.chance(50) {
                p.insert("address".into(), json!(self.rng.pick(&taken).clone()));
            }
            parts.push(Value::Object(p));
        }
        self.made.parts = part_ids;
        self.made.typed.extend(self.made.parts.iter().map(|p| format!("part:{p}")));
        self.made.typed.extend(self.made.placeholders.iter().map(|p| format!("placeholder:{p}")));
        let platform = json!({
            "name": format!("Random Platform {n} ({})", if self.plain { "plain" } else { "odd" }),
            "description": "A platform made at random.",
            "prefixes": {
                "c_type": format!("Rnd{n}_"),
                "c_macro": format!("RND{n}_"),
                "cpp_namespace": format!("rnd{n}pp"),
                "c_header": format!("crnd{n}.h"),
                "cpp_header": format!("rnd{n}pp.h"),
            },
            "placeholders": placeholders,
            "parts": parts,
        });
        let mut platform = platform;
        if self.rng.chance(50) {
            // The address of the published reference: feeds and deprecation headers link to it.
            platform["docs"] = json!(self.rng.pick(&taken).clone());
        }
        let mut file = Map::new();
        file.insert("platform".into(), platform);
        file
    }

    // --- timeline ----------------------------------------------------------------------------

    fn changes(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        let mut ids = Vec::new();
        let n = self.count(5);
        // Ranks: already in effect, then dates in order, then unscheduled.
        let mut ranked: Vec<(String, u32, String)> = Vec::new();
        for _ in 0..n {
            let id = self.name(&ids);
            ids.push(id.clone());
            let (effective, rank) = match self.rng.below(5) {
                0 => ("already_in_effect".to_owned(), 0),
                1 => ("unscheduled".to_owned(), u32::MAX),
                _ => {
                    let day = self.rng.range(1, 28) as u32;
                    let month = self.rng.range(1, 12) as u32;
                    let year = 2020 + self.rng.range(0, 10) as u32;
                    (format!("{year}-{month:02}-{day:02}"), year * 400 + month * 31 + day)
                }
            };
            ranked.push((id, rank, effective));
        }
        let mut corrections = Vec::new();
        for (id, _, effective) in &ranked {
            let mut c = Map::new();
            c.insert("id".into(), json!(id));
            c.insert("effective".into(), json!(effective));
            let kind = *self.rng.pick(CHANGE_KINDS);
            if kind == "correction" {
                corrections.push(id.clone());
            }
            c.insert("kind".into(), json!(kind));
            c.insert("summary".into(), json!(self.prose()));
            if self.rng.chance(40) {
                c.insert("gate".into(), json!(true));
            }
            out.push(Value::Object(c));
        }
        ranked.sort_by_key(|(_, rank, _)| *rank);
        self.made.changes = ranked.into_iter().map(|(id, rank, _)| (id, rank)).collect();
        self.made.lifecycle_changes = self.made.changes.iter().filter(|(id, _)| !corrections.contains(id)).cloned().collect();
        self.made.typed.extend(ids.iter().map(|c| format!("change:{c}")));
        out
    }

    /// Gives every change a use, so none is reported as a leftover.
    fn use_changes(&mut self, api: &mut Map<String, Value>) {
        let Some(Value::Array(changes)) = api.get_mut("changes") else { return };
        let typed = self.made.typed.clone();
        for c in changes.iter_mut() {
            let target = self.rng.pick(&typed).clone();
            c["affects"] = json!([target]);
        }
    }

    // --- access ------------------------------------------------------------------------------

    fn permissions(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        let mut bits = BTreeSet::new();
        let mut ids = Vec::new();
        for _ in 0..self.count(6) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut p = self.item(&id);
            p.remove("not_shown");
            if self.rng.chance(15) {
                p.insert("not_shown".into(), json!(["bit"]));
            } else {
                let mut bit = self.rng.range(0, 63);
                while !bits.insert(bit) {
                    bit = (bit + 1) % 64;
                }
                p.insert("bit".into(), json!(bit));
            }
            out.push(Value::Object(p));
        }
        self.made.permissions = ids.clone();
        self.made.typed.extend(ids.iter().map(|p| format!("permission:{p}")));
        out
    }

    fn scopes(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(4) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut s = self.item(&id);
            if self.rng.chance(30) {
                s.insert("expands".into(), json!(true));
            }
            if self.rng.chance(30) {
                s.insert("availability".into(), json!("apps approved for it"));
            }
            out.push(Value::Object(s));
        }
        self.made.scopes = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("scope:{s}")));
        out
    }

    fn scope_sets(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        if self.made.scopes.is_empty() {
            return out;
        }
        for _ in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut s = self.item(&id);
            let scopes = self.made.scopes.clone();
            s.insert("scopes".into(), json!(self.rng.subset(&scopes, 3)));
            if self.rng.chance(50) {
                s.insert("call".into(), json!("Client::GetScopes"));
            }
            out.push(Value::Object(s));
        }
        out
    }

    fn intents(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut i = self.item(&id);
            if self.rng.chance(40) {
                i.insert("privileged".into(), json!(true));
            }
            out.push(Value::Object(i));
        }
        self.made.intents = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("intent:{s}")));
        out
    }

    fn token_kinds(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(3) {
            // `bot` gives the server's bot check something to find.
            // `none` in `auth` means anonymous calls, so no token kind takes it (E0157).
            let mut taken = ids.clone();
            taken.push("none".to_owned());
            let id = if ids.is_empty() && self.rng.chance(40) { "bot".to_owned() } else { self.name(&taken) };
            ids.push(id.clone());
            let mut k = self.item(&id);
            if id == "bot" && self.rng.chance(40) {
                // The server's bot check names the variant as the naming layer does.
                k.insert("rust_name".into(), json!("AutomatedAccount"));
            }
            if self.rng.chance(35) {
                // A bearer token carries OAuth2 scopes.
                k.insert("scheme".into(), json!("Bearer"));
                self.made.bearer_kinds.push(id.clone());
            } else if self.rng.chance(80) {
                k.insert("scheme".into(), json!(format!("Scheme{}", ids.len())));
                if self.rng.chance(30) {
                    k.insert("assumed".into(), json!({ "scheme": "the platform's convention" }));
                }
            }
            out.push(Value::Object(k));
        }
        self.made.token_kinds = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("token_kind:{s}")));
        out
    }

    fn conditions(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(4) {
            // Rules and `required_when` name conditions in a small grammar: `id` or `id(ARG)`.
            let referable = self.rng.chance(80);
            let id = if referable { self.ident_name(&ids) } else { self.name(&ids) };
            ids.push(id.clone());
            let mut c = self.item(&id);
            let mut arg = None;
            let enums: Vec<(String, Vec<String>)> = self.made.int_enums.iter().filter(|(_, v)| !v.is_empty()).cloned().collect();
            if self.rng.chance(40) {
                let param = self.name(&[]);
                let mut params = vec![param];
                if let Some((e, values)) = (!enums.is_empty()).then(|| self.rng.pick(&enums).clone()) {
                    c.insert("param_enums".into(), json!([e]));
                    arg = Some(values);
                } else {
                    arg = Some(Vec::new());
                }
                if !referable && self.rng.chance(50) {
                    params.push(self.name(&params));
                }
                c.insert("params".into(), json!(params));
            }
            out.push(Value::Object(c));
            if referable {
                self.made.conditions.push((id, arg));
            }
        }
        self.made.typed.extend(ids.iter().map(|s| format!("condition:{s}")));
        out
    }

    /// A condition expression: `id`, `id(ARG)` or `{not: ...}`.
    fn cond(&mut self) -> Option<Value> {
        if self.made.conditions.is_empty() {
            return None;
        }
        let (id, arg) = self.rng.pick(&self.made.conditions).clone();
        let text = match arg {
            None => id,
            Some(values) if !values.is_empty() => format!("{id}({})", self.rng.pick(&values)),
            // A parameter without an enum takes any word.
            Some(_) => format!("{id}(ANY_VALUE)"),
        };
        Some(if self.rng.chance(30) { json!({ "not": text }) } else { json!(text) })
    }

    /// A rule expression of depth at most `depth`.
    fn rule(&mut self, depth: usize) -> Value {
        let choice = if depth == 0 { self.rng.below(4) } else { self.rng.below(7) };
        match choice {
            0 if !self.made.permissions.is_empty() => json!(self.rng.pick(&self.made.permissions).clone()),
            1 if !self.made.intents.is_empty() => json!({ "intent": self.rng.pick(&self.made.intents).clone() }),
            2 if !self.made.scopes.is_empty() => json!({ "scope": self.rng.pick(&self.made.scopes).clone() }),
            3 => match self.cond() {
                Some(c) => json!({ "condition": c }),
                None => json!({ "all": [] }),
            },
            4 => {
                let items: Vec<Value> = (0..self.rng.range(0, 3)).map(|_| self.rule(depth - 1)).collect();
                json!({ "all": items })
            }
            5 => {
                let items: Vec<Value> = (0..self.rng.range(0, 3)).map(|_| self.rule(depth - 1)).collect();
                json!({ "any": items })
            }
            6 => match self.cond() {
                Some(c) => {
                    let mut m = json!({ "when": c, "then": self.rule(depth - 1) });
                    if self.rng.chance(50) {
                        m["else"] = self.rule(depth - 1);
                    }
                    m
                }
                None => json!({ "all": [] }),
            },
            _ => json!({ "any": [] }),
        }
    }

    fn permission_rules(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut r = self.item(&id);
            r.remove("since");
            r.remove("until");
            if self.rng.chance(70) {
                r.insert("operation".into(), json!(self.prose()));
            }
            let endpoints: Vec<String> = self.made.endpoints.iter().filter(|e| !self.made.anonymous.contains(e)).cloned().collect();
            r.insert("endpoints".into(), json!(self.rng.subset(&endpoints, 3)));
            r.insert("applies_to".into(), json!(self.rng.pick(&["all", "bots", "users"])));
            let dated: Vec<String> = self.made.changes.iter().filter(|(_, rank)| *rank > 0).map(|(c, _)| c.clone()).collect();
            if !dated.is_empty() && self.rng.chance(50) {
                // Variants tile the timeline: each `until` is the next `since`.
                let cuts = self.rng.subset(&dated, 2);
                let mut cuts_ranked: Vec<(String, u32)> =
                    cuts.iter().map(|c| self.made.changes.iter().find(|(id, _)| id == c).cloned().expect("a made change")).collect();
                cuts_ranked.sort_by_key(|(_, r)| *r);
                cuts_ranked.dedup_by_key(|(_, r)| *r);
                let mut variants = Vec::new();
                let mut since: Option<String> = None;
                for (cut, _) in &cuts_ranked {
                    let mut v = json!({ "until": cut, "rule": self.rule(2) });
                    if let Some(s) = &since {
                        v["since"] = json!(s);
                    }
                    variants.push(v);
                    since = Some(cut.clone());
                }
                let mut last = json!({ "rule": self.rule(2) });
                if let Some(s) = &since {
                    last["since"] = json!(s);
                }
                variants.push(last);
                r.insert("variants".into(), json!(variants));
            } else {
                r.insert("rule".into(), self.rule(3));
            }
            out.push(Value::Object(r));
        }
        self.made.typed.extend(ids.iter().map(|s| format!("permission_rule:{s}")));
        out
    }

    fn auth_rules(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for i in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut a = self.item(&id);
            a.insert("number".into(), json!(i + 1));
            let typed = self.made.typed.clone();
            a.insert("refs".into(), json!(self.rng.subset(&typed, 2)));
            out.push(Value::Object(a));
        }
        out
    }

    fn authorization_server(&mut self) -> Option<Value> {
        if !self.rng.chance(40) {
            return None;
        }
        let placeholder = self.rng.pick(&self.made.placeholders).clone();
        Some(json!({
            "issuer": format!("{{{placeholder}}}/issuer"),
            "metadata": {
                "token_endpoint": format!("{{{placeholder}}}/token"),
                "grant_types_supported": ["authorization_code", 3, true, null, { "nested": [1.5] }],
                "odd \"key\"": "value with {braces} and \\ backslash",
            },
            "notes": ["The issuer is a placeholder."],
        }))
    }

    // --- shapes ------------------------------------------------------------------------------

    fn enums(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(4) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut e = self.item(&id);
            e.remove("not_shown");
            let string = self.rng.chance(35);
            if string {
                e.insert("repr".into(), json!("string"));
            } else if self.rng.chance(30) {
                e.insert("repr".into(), json!("integer"));
            }
            let mut recorded: Vec<(String, bool)> = Vec::new();
            let mut values = Vec::new();
            let mut value_ids: Vec<String> = Vec::new();
            let mut numbers = BTreeSet::new();
            let mut arguments = Vec::new();
            let n = if self.rng.chance(10) { 0 } else { self.rng.range(1, 6) };
            for _ in 0..n {
                let vid = self.name(&value_ids);
                value_ids.push(vid.clone());
                let mut v = self.item(&vid);
                v.remove("not_shown");
                v.remove("part");
                if !string {
                    if self.rng.chance(10) {
                        v.insert("not_shown".into(), json!(["value"]));
                    } else {
                        let mut number: i64 = match self.rng.below(6) {
                            0 => i64::from(i32::MAX) + 1,
                            1 => -(self.rng.range(1, 1000) as i64),
                            _ => self.rng.range(0, 100) as i64,
                        };
                        while !numbers.insert(number) {
                            number += 1;
                        }
                        v.insert("value".into(), json!(number));
                    }
                }
                recorded.push((vid.clone(), string || v.contains_key("value")));
                if pool::is_plain_ident(&vid) {
                    arguments.push(vid.clone());
                }
                values.push(Value::Object(v));
            }
            if values.is_empty() {
                e.insert("not_shown".into(), json!(["values"]));
            } else if self.rng.chance(15) {
                e.insert("not_shown".into(), json!([{ "facet": "values", "detail": "values beyond those given" }]));
            }
            e.insert("values".into(), Value::Array(values));
            // An integer enum says so, or numbers a value (E0126).
            if !string && !e.contains_key("repr") && numbers.is_empty() {
                e.insert("repr".into(), json!("integer"));
            }
            if !string {
                self.made.int_enums.push((id.clone(), arguments));
            }
            self.made.enum_values.push((id.clone(), string, recorded));
            self.made.typed.extend(value_ids.iter().map(|v| format!("enum_value:{id}.{v}")));
            out.push(Value::Object(e));
        }
        self.made.enums = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("enum:{s}")));
        out
    }

    fn flags(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut f = self.item(&id);
            f.remove("not_shown");
            if self.rng.chance(50) {
                f.insert("repr".into(), json!(self.rng.pick(&["integer", "string_integer"])));
            }
            let width = if self.rng.chance(50) { 32 } else { 64 };
            if width == 32 || self.rng.chance(30) {
                f.insert("width".into(), json!(width));
            }
            let mut values = Vec::new();
            let mut value_ids = Vec::new();
            let mut bits = BTreeSet::new();
            for _ in 0..self.count(5) {
                let vid = self.name(&value_ids);
                value_ids.push(vid.clone());
                let mut v = self.item(&vid);
                v.remove("not_shown");
                v.remove("part");
                if self.rng.chance(10) {
                    v.insert("not_shown".into(), json!(["bit"]));
                } else {
                    let mut bit = self.rng.range(0, width - 1);
                    while !bits.insert(bit) {
                        bit = (bit + 1) % width;
                    }
                    v.insert("bit".into(), json!(bit));
                }
                values.push(Value::Object(v));
            }
            let recorded = values.iter().map(|v| (v["id"].as_str().unwrap_or_default().to_owned(), v.get("bit").and_then(Value::as_u64))).collect();
            self.made.flag_values.push((id.clone(), recorded));
            f.insert("values".into(), Value::Array(values));
            self.made.typed.extend(value_ids.iter().map(|v| format!("flag:{id}.{v}")));
            out.push(Value::Object(f));
        }
        self.made.flags = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("flags:{s}")));
        out
    }

    fn limits(&mut self) -> Vec<Value> {
        let mut ids: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(4) {
            let id = self.name(&ids);
            let mut l = self.item(&id);
            let unit = *self.rng.pick(UNITS);
            l.insert("unit".into(), json!(unit));
            match self.rng.below(4) {
                0 => {
                    l.insert("value".into(), json!(self.rng.range(1, 5000)));
                }
                1 => {
                    let lo = self.rng.range(0, 10);
                    l.insert("min".into(), json!(lo));
                    l.insert("max".into(), json!(lo + self.rng.range(0, 100)));
                }
                2 if !ids.is_empty() => {
                    // Another limit's value, offset: never this limit itself.
                    let other = self.rng.pick(&ids).clone();
                    l.insert("max".into(), json!({ "limit": other, "offset": self.rng.range(0, 5) }));
                }
                _ => {
                    l.insert("max".into(), json!(self.rng.range(1, 64)));
                }
            }
            if self.rng.chance(30) {
                l.insert("per".into(), json!("guild"));
            }
            if self.rng.chance(20) {
                l.insert("duration".into(), json!({ "value": self.rng.range(1, 48), "unit": "hours" }));
            }
            if self.rng.chance(30) {
                l.insert("applies_to".into(), json!(["bots", "users with <odd> text"]));
            }
            if self.rng.chance(30) {
                let typed = self.made.typed.clone();
                l.insert("refs".into(), json!(self.rng.subset(&typed, 2)));
            }
            let changes: Vec<String> = self.made.changes.iter().map(|(c, _)| c.clone()).collect();
            if !changes.is_empty() && self.rng.chance(30) {
                l.insert("previous".into(), json!([{ "value": self.rng.range(1, 10), "until": self.rng.pick(&changes) }]));
            }
            ids.push(id);
            out.push(Value::Object(l));
        }
        self.made.limits = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("limit:{s}")));
        out
    }

    fn resources(&mut self) -> Vec<Value> {
        let mut ids: Vec<String> = self.made.resources.clone();
        let mut out = std::mem::take(&mut self.made.variant_resources);
        let first = out.len();
        for i in 0..self.count(5) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut r = self.item(&id);
            r.remove("not_shown");
            if self.rng.chance(60) {
                r.insert("direction".into(), json!(self.rng.pick(&["request", "response", "both"])));
            }
            let n = self.rng.range(0, 6);
            let mut fields = self.fields(n, Some(&id));
            if i == 0 {
                // A resource holding itself, optional and nullable: the shape of a tree.
                fields.insert(format!("parent_{}", self.index), json!({ "type": format!("object<{id}>"), "optional": true, "nullable": true }));
            }
            let bases: Vec<Value> = out[first..].iter().filter(|b| b.get("extends").is_none()).cloned().collect();
            if !bases.is_empty() && self.rng.chance(25) {
                // The fields of a base come first: no field of the base is declared again, and
                // no own field takes a name the base has on the wire.
                let base = self.rng.pick(&bases).clone();
                let inherited: Vec<String> = base["fields"]
                    .as_object()
                    .map(|m| m.iter().map(|(k, f)| f.get("wire_name").and_then(Value::as_str).unwrap_or(k).to_owned()).chain(m.keys().cloned()).collect())
                    .unwrap_or_default();
                fields.retain(|k, _| !inherited.contains(k));
                shapes::distinct_wire_names(&mut fields, &inherited);
                r.insert("extends".into(), json!([base["id"]]));
            }
            if fields.is_empty() || self.rng.chance(15) {
                r.insert("not_shown".into(), json!([{ "facet": "fields", "detail": "the other fields" }]));
            }
            if let Some(cases) = self.cases(&fields) {
                r.insert("cases".into(), cases);
            }
            r.insert("fields".into(), Value::Object(fields));
            self.made.resources.push(id.clone());
            out.push(Value::Object(r));
        }
        // Two resources that hold each other.
        if out.len() >= first + 2 {
            let (a, b) = (out[first]["id"].clone(), out[first + 1]["id"].clone());
            let (a, b) = (a.as_str().unwrap_or_default(), b.as_str().unwrap_or_default());
            out[first]["fields"][format!("peer_{}", self.index)] = json!({ "type": format!("object<{b}>"), "optional": true });
            out[first + 1]["fields"][format!("mate_{}", self.index)] = json!({ "type": format!("object<{a}>"), "nullable": true });
        }
        self.made.typed.extend(ids.iter().map(|s| format!("resource:{s}")));
        out
    }

    fn classes(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        // Integer enums whose known values fit a C enum can be class fields.
        let mappable: Vec<String> = self.made.enums.clone();
        for _ in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut c = self.item(&id);
            c.remove("not_shown");
            if self.rng.chance(30) {
                c.insert("namespace".into(), json!(format!("rnd{}::ns{}", self.index, ids.len())));
            }
            // A class another class holds by value needs `copy` or `move` semantics.
            let semantics = self.rng.subset(&["copy", "move", "bool", "nullobj"], 4);
            let holdable = semantics.iter().any(|s| *s == "copy" || *s == "move");
            let mut fields = Map::new();
            let mut names: Vec<String> = Vec::new();
            for _ in 0..self.rng.range(0, 5) {
                let name = self.name(&names);
                names.push(name.clone());
                let mut choices: Vec<String> =
                    ["string", "boolean", "integer", "int32", "uint32", "uint64", "number", "float32", "snowflake", "timestamp", "json", "file"]
                        .iter()
                        .map(|s| s.to_string())
                        .collect();
                choices.extend(mappable.iter().map(|e| format!("enum<{e}>")));
                choices.extend(self.made.flags.iter().map(|f| format!("flags<{f}>")));
                choices.extend(self.made.holdable_classes.iter().map(|c| format!("class<{c}>")));
                if holdable {
                    choices.push(format!("class<{id}>"));
                }
                choices.push("array<string>".into());
                let ty = self.rng.pick(&choices).clone();
                let mut f = Map::new();
                f.insert("type".into(), json!(ty));
                if ty == format!("class<{id}>") || self.rng.chance(40) {
                    f.insert("optional".into(), json!(true));
                }
                if self.rng.chance(15) {
                    f.insert("default_text".into(), json!("set by Client::Init"));
                }
                let mut meta = Map::new();
                self.lifecycle(&mut meta);
                f.extend(meta);
                fields.insert(name, Value::Object(f));
            }
            let methods: Vec<Value> =
                (0..self.rng.range(0, 2)).map(|i| json!({ "id": format!("Method{i}"), "returns": "string", "description": "Does something." })).collect();
            if fields.is_empty() && methods.is_empty() {
                c.insert("not_shown".into(), json!(["members"]));
            }
            c.insert("fields".into(), Value::Object(fields));
            if !methods.is_empty() {
                c.insert("methods".into(), Value::Array(methods));
            }
            c.insert("semantics".into(), json!(semantics));
            self.made.classes.push(id.clone());
            if holdable {
                self.made.holdable_classes.push(id.clone());
            }
            out.push(Value::Object(c));
        }
        self.made.typed.extend(ids.iter().map(|s| format!("class:{s}")));
        out
    }

    // --- http --------------------------------------------------------------------------------

    fn errors(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        let mut codes = BTreeSet::new();
        let mut oauth: Vec<String> = Vec::new();
        for _ in 0..self.count(4) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut e = self.item(&id);
            e.remove("not_shown");
            if self.rng.chance(80) {
                let mut code = self.rng.range(1000, 99999);
                while !codes.insert(code) {
                    code += 1;
                }
                e.insert("code".into(), json!(code));
            }
            if self.rng.chance(30) {
                let text = self.name(&oauth);
                oauth.push(text.clone());
                e.insert("oauth_error".into(), json!(text));
            }
            if self.rng.chance(85) {
                e.insert("status".into(), json!(self.rng.pick(&[400, 401, 403, 404, 409, 429])));
                if self.rng.chance(30) {
                    e.insert("assumed".into(), json!({ "status": "what the condition means in HTTP" }));
                }
            } else {
                e.insert("not_shown".into(), json!(["status"]));
            }
            e.insert("condition".into(), json!(self.prose()));
            if self.rng.chance(40) {
                e.insert("message".into(), json!("Something went \"wrong\"."));
            }
            let endpoints = self.made.endpoints.clone();
            e.insert("endpoints".into(), json!(self.rng.subset(&endpoints, 2)));
            out.push(Value::Object(e));
        }
        self.made.errors = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("error:{s}")));
        out
    }

    fn error_body(&mut self) -> Option<Value> {
        if !self.rng.chance(60) {
            return None;
        }
        let mut fields = Map::new();
        fields.insert("code".into(), json!({ "type": "integer" }));
        fields.insert("message".into(), json!({ "type": "string" }));
        if self.rng.chance(50) {
            fields.insert("errors".into(), json!({ "type": "json", "optional": true }));
        }
        if self.rng.chance(30) {
            fields.insert("missing".into(), json!({ "type": "array<string>", "optional": true }));
        }
        if self.rng.chance(30) {
            fields.insert("error".into(), json!({ "type": "string", "optional": true }));
        }
        let n = self.rng.range(0, 2);
        let extra = self.fields(n, None);
        for (k, mut v) in extra {
            // Errors carry no value for a required enum or resource (E0170).
            let ty = v["type"].as_str().unwrap_or_default();
            if ty.starts_with("enum<") || ty.starts_with("object") || ty.starts_with("union<") || ty.contains('|') {
                v["optional"] = json!(true);
            }
            fields.entry(k).or_insert(v);
        }
        Some(json!({ "description": "The error body.", "fields": fields }))
    }

    // --- events ------------------------------------------------------------------------------

    fn events(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        let mut codes = BTreeSet::new();
        for _ in 0..self.count(4) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut e = self.item(&id);
            e.remove("not_shown");
            let channel = *self.rng.pick(CHANNELS);
            if channel == "webhook" {
                self.made.webhook_events.push(id.clone());
            }
            e.insert("channel".into(), json!(channel));
            if self.rng.chance(40) {
                let mut code = self.rng.range(1, 200);
                while !codes.insert(code) {
                    code += 1;
                }
                e.insert("code".into(), json!(code));
            }
            let n = self.rng.range(0, 3);
            let fields = self.fields(n, None);
            if let Some(cases) = self.cases(&fields) {
                e.insert("cases".into(), cases);
            }
            if channel == "webhook" {
                for (name, f) in &fields {
                    self.made.webhook_fields.push(name.clone());
                    self.made.webhook_fields.extend(f.get("wire_name").and_then(Value::as_str).map(str::to_owned));
                }
            }
            if fields.is_empty() {
                e.insert("not_shown".into(), json!(["payload"]));
            } else {
                e.insert("fields".into(), Value::Object(fields));
            }
            out.push(Value::Object(e));
        }
        self.made.events = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("event:{s}")));
        out
    }

    /// Webhooks over the `webhook` events: envelopes flat and nested, named by text or numbers,
    /// every signature scheme, pings, policies; member and header names from the pool.
    fn webhooks(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut w = self.item(&id);
            w.remove("not_shown");
            let events = self.rng.subset(&self.made.webhook_events.clone(), 3);
            if self.rng.chance(15) || events.is_empty() {
                w.insert("not_shown".into(), json!(["envelope", "verification", "events"]));
                out.push(Value::Object(w));
                continue;
            }
            let numbered = self.rng.chance(40);
            let (envelope, kind) = self.envelope(numbered);
            w.insert("envelope".into(), envelope);
            w.insert("verification".into(), self.verification());
            let mut names = Vec::new();
            let mut by_value = Map::new();
            for (i, event) in events.iter().enumerate() {
                let value = if numbered { (i + 2).to_string() } else { self.name_where(&names, |n| !n.is_empty()) };
                names.push(value.clone());
                by_value.insert(value, json!(event));
            }
            if self.rng.chance(50) {
                let value = if numbered { json!(1) } else { json!(self.name_where(&names, |n| !n.is_empty())) };
                let mut ping = Map::new();
                ping.insert("value".into(), value);
                if self.rng.chance(50) {
                    let mut answer = Map::new();
                    answer.insert(kind.clone(), json!(1));
                    ping.insert("answer".into(), Value::Object(answer));
                }
                w.insert("ping".into(), Value::Object(ping));
            }
            if self.rng.chance(50) {
                w.insert("ack_status".into(), json!(self.rng.pick(&[200, 202, 204])));
            }
            if self.rng.chance(50) {
                w.insert("ack_seconds".into(), json!(self.rng.range(1, 30)));
            }
            if self.rng.chance(50) {
                w.insert("retry".into(), json!({ "attempts": self.rng.range(1, 6), "initial_seconds": 0.5, "max_seconds": 60 }));
            }
            w.insert("events".into(), Value::Object(by_value));
            out.push(Value::Object(w));
        }
        self.made.typed.extend(ids.iter().map(|s| format!("webhook:{s}")));
        out
    }

    /// An envelope, and the last name of the member naming the event.
    fn envelope(&mut self, numbered: bool) -> (Value, String) {
        let mut names = Vec::new();
        let fields = self.made.webhook_fields.clone();
        for _ in 0..5 {
            let n = self.name_where(&names, |n| !n.is_empty() && !n.contains('.') && !fields.iter().any(|f| f == n));
            names.push(n);
        }
        let nested = self.rng.chance(30);
        let wrap = |n: &str| if nested { format!("{}.{n}", names[4]) } else { n.to_owned() };
        let mut e = Map::new();
        e.insert("type".into(), json!(wrap(&names[0])));
        if numbered {
            e.insert("repr".into(), json!("integer"));
        }
        if self.rng.chance(60) {
            e.insert("data".into(), json!(wrap(&names[1])));
        }
        if self.rng.chance(50) {
            e.insert("id".into(), json!(names[2]));
        }
        if self.rng.chance(50) {
            e.insert("timestamp".into(), json!(wrap(&names[3])));
        }
        (Value::Object(e), names[0].clone())
    }

    fn verification(&mut self) -> Value {
        let tolerance = self.rng.chance(60).then(|| json!(self.rng.range(1, 600)));
        let header = |this: &mut Self, role: &str| {
            this.made.serial += 1;
            format!("X-{}-{role}-{}", this.rng.pick(&["Sig", "Hook", "App"]), this.made.serial)
        };
        let mut v = Map::new();
        match self.rng.below(3) {
            0 => {
                v.insert("scheme".into(), json!("ed25519"));
                v.insert("signature_header".into(), json!(header(self, "Signature")));
                v.insert("timestamp_header".into(), json!(header(self, "Timestamp")));
            }
            1 => {
                v.insert("scheme".into(), json!("standard"));
                if self.rng.chance(30) {
                    v.insert("id_header".into(), json!(header(self, "Id")));
                }
            }
            _ => {
                v.insert("scheme".into(), json!("none"));
                return Value::Object(v);
            }
        }
        if let Some(t) = tolerance {
            v.insert("tolerance_seconds".into(), t);
        }
        Value::Object(v)
    }

    fn opcodes(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for i in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut o = self.item(&id);
            o.insert("code".into(), json!(i * 2 + 1));
            o.insert("direction".into(), json!(self.rng.pick(&["send", "receive"])));
            if !self.made.events.is_empty() && self.rng.chance(40) {
                o.insert("reply".into(), json!(self.rng.pick(&self.made.events).clone()));
            }
            let n = self.rng.range(0, 3);
            o.insert("fields".into(), Value::Object(self.fields(n, None)));
            out.push(Value::Object(o));
        }
        self.made.typed.extend(ids.iter().map(|s| format!("opcode:{s}")));
        out
    }

    fn commands(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut c = self.item(&id);
            let scopes = self.made.scopes.clone();
            c.insert("scopes".into(), json!(self.rng.subset(&scopes, 2)));
            if self.rng.chance(50) {
                let mut alias = Map::new();
                alias.insert("id".into(), json!(format!("{}_old", self.rng.pick(pool::PLAIN))));
                self.lifecycle(&mut alias);
                c.insert("aliases".into(), json!([alias]));
            }
            out.push(Value::Object(c));
        }
        self.made.typed.extend(ids.iter().map(|s| format!("command:{s}")));
        out
    }

    fn state_machines(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut m = self.item(&id);
            m.remove("not_shown");
            if !self.made.typed.is_empty() && self.rng.chance(50) {
                m.insert("subject".into(), json!(self.rng.pick(&self.made.typed).clone()));
            }
            if !self.made.enums.is_empty() && self.rng.chance(30) {
                m.insert("enum".into(), json!(self.rng.pick(&self.made.enums).clone()));
            }
            let mut states: Vec<String> = Vec::new();
            let mut state_items = Vec::new();
            for k in 0..self.rng.range(1, 4) {
                let s = self.name(&states);
                states.push(s.clone());
                let mut item = Map::new();
                item.insert("id".into(), json!(s));
                if self.rng.chance(50) {
                    item.insert("value".into(), json!(k));
                }
                state_items.push(Value::Object(item));
            }
            m.insert("states".into(), Value::Array(state_items));
            let mut transitions = Vec::new();
            let mut tids: Vec<String> = Vec::new();
            for _ in 0..self.rng.range(0, 3) {
                let t = self.name(&tids);
                tids.push(t.clone());
                let mut tr = json!({
                    "id": t,
                    "from": self.rng.pick(&states).clone(),
                    "to": self.rng.pick(&states).clone(),
                    "triggers": ["a call", "a \"quoted\" trigger"],
                });
                if self.rng.chance(30) {
                    tr["condition"] = json!("when it holds");
                }
                let mut effects = Vec::new();
                if self.rng.chance(60) {
                    let mut effect = json!({ "id": format!("effect_{}", effects.len()), "description": "Something happens." });
                    if !self.made.events.is_empty() && self.rng.chance(50) {
                        effect["event"] = json!(self.rng.pick(&self.made.events).clone());
                    }
                    if !self.made.errors.is_empty() && self.rng.chance(50) {
                        effect["error"] = json!(self.rng.pick(&self.made.errors).clone());
                    }
                    effects.push(effect);
                }
                tr["effects"] = Value::Array(effects);
                transitions.push(tr);
            }
            if transitions.is_empty() {
                m.insert("not_shown".into(), json!(["transitions"]));
            }
            m.insert("transitions".into(), Value::Array(transitions));
            out.push(Value::Object(m));
        }
        self.made.state_machines = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("state_machine:{s}")));
        out
    }

    // --- platform-wide and sdk ---------------------------------------------------------------

    fn features(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut f = self.item(&id);
            f.insert("points".into(), json!(["One point.", self.prose()]));
            if self.rng.chance(50) {
                f.insert("needs_implementation".into(), json!(self.rng.chance(50)));
            }
            let typed = self.made.typed.clone();
            f.insert("refs".into(), json!(self.rng.subset(&typed, 2)));
            out.push(Value::Object(f));
        }
        out
    }

    fn constants(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut c = self.item(&id);
            let value = match self.rng.below(4) {
                0 => json!(i64::MIN),
                1 => json!(self.rng.range(0, 1_000_000)),
                _ => json!("platform-{application_id}:/callback \"quoted\" \\ slash */"),
            };
            c.insert("value".into(), value);
            out.push(Value::Object(c));
        }
        out
    }

    fn gaps(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut g = self.item(&id);
            g.remove("not_shown");
            let typed = self.made.typed.clone();
            g.insert("refs".into(), json!(self.rng.subset(&typed, 2)));
            out.push(Value::Object(g));
        }
        out
    }

    fn sdk_calls(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(2) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut c = self.item(&id);
            c.insert("signature".into(), json!(format!("Client::Call{}", ids.len())));
            if self.rng.chance(50) {
                c.insert("returns".into(), json!("string"));
            }
            let typed = self.made.typed.clone();
            c.insert("refs".into(), json!(self.rng.subset(&typed, 2)));
            out.push(Value::Object(c));
        }
        out
    }

    fn releases(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        for i in 0..self.count(2) {
            let mut r = Map::new();
            r.insert("id".into(), json!(format!("1.{i}.{}", 100 + i)));
            r.insert("date".into(), json!(format!("2025-{:02}", i + 1)));
            if self.rng.chance(50) {
                r.insert("toolkits".into(), json!([{ "id": "console", "minimum": "10.000", "dropped": { "from": "7.000", "to": "9.000" } }]));
            }
            if self.rng.chance(50) {
                r.insert("packaging".into(), json!({ "library": "a static library", "odd key": "\"value\"" }));
            }
            out.push(Value::Object(r));
        }
        out
    }

    fn release_policy(&mut self) -> Option<Value> {
        if self.made.limits.is_empty() || !self.rng.chance(40) {
            return None;
        }
        Some(json!({
            "minor_releases_per_year": 4,
            "release_months": [1, 4, 7, 10],
            "support_window": self.rng.pick(&self.made.limits).clone(),
            "notes": ["Releases are quarterly."],
            "windows": [{ "release": "1.10", "date": "2025-01", "oldest_supported": "1.8", "newest_supported": "1.10", "end_of_life_through": "1.7" }],
        }))
    }
}
