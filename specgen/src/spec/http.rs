//! Endpoints and what they are made of: paths and their parameters, query parameters (arrays in
//! both styles), header parameters, bodies in every format (fields, a whole-body schema, several
//! formats sharing one body, typed multipart parts, binary), the single-response shorthand and
//! responses by status (inline or named, with headers inline or named), auth (token kinds,
//! anonymous and optional calls, scopes) and behaviours; and the named headers and responses.

use super::{Builder, METHODS};
use crate::pool;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// Statuses a response may be declared for.
const STATUSES: &[&str] = &["200", "201", "202", "204", "303", "400", "404", "429", "4XX", "5XX", "default"];

/// Scalar types a header, a path parameter or a query parameter may have.
const SCALARS: &[&str] = &["string", "boolean", "integer", "int32", "uint64", "number", "snowflake", "timestamp", "date", "uuid", "url", "email"];

impl Builder {
    /// A header field: a wire name no other header of the spec has, and a scalar type.
    fn header(&mut self, lead: &str, list: bool) -> Map<String, Value> {
        self.made.serial += 1;
        let mut choices: Vec<String> = SCALARS.iter().map(|s| s.to_string()).collect();
        choices.extend(self.made.enums.iter().map(|e| format!("enum<{e}>")));
        choices.extend(self.made.flags.iter().map(|f| format!("flags<{f}>")));
        let ty = self.rng.pick(&choices).clone();
        // A request header may be a list of scalars, sent comma-separated.
        let ty = if list { format!("array<{ty}>") } else { ty };
        let mut h = self.field(&ty);
        h.insert("type".into(), json!(ty));
        h.insert("wire_name".into(), json!(format!("X-{lead}{}-{}", self.made.serial, self.index)));
        for key in ["required_when", "default", "const", "subset", "nullable", "not_shown", "requires_scope", "literal"] {
            h.remove(key);
        }
        h
    }

    /// `headers:`: named headers responses list by id.
    pub(super) fn named_headers(&mut self) -> Map<String, Value> {
        let mut out = Map::new();
        let mut ids: Vec<String> = Vec::new();
        for _ in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            out.insert(id, Value::Object(self.header("N", false)));
        }
        self.made.headers = ids;
        out
    }

    /// `responses:`: named responses endpoints use by id. Their ids are the spec's own names, so
    /// each leads with a number that keeps its generated names apart from every other's.
    pub(super) fn named_responses(&mut self) -> Map<String, Value> {
        let mut out = Map::new();
        let mut ids: Vec<String> = Vec::new();
        for _ in 0..self.count(2) {
            self.made.serial += 1;
            let name = self.name(&[]);
            let id = format!("r{}_{name}", self.made.serial);
            ids.push(id.clone());
            let response = self.response("200");
            out.insert(id, response);
        }
        self.made.responses = ids;
        out
    }

    /// One response for `status`: no body, a type, fields, text, CSV or bytes; with headers
    /// written inline, named, or listed by id.
    fn response(&mut self, status: &str) -> Value {
        let mut r = Map::new();
        if self.rng.chance(50) {
            r.insert("description".into(), json!(self.prose()));
        }
        let bodiless = status == "204";
        match self.rng.below(7) {
            _ if bodiless => {}
            0 | 1 => {
                let ty = self.field_type(None, 1);
                r.insert("type".into(), json!(ty));
            }
            2 | 3 => {
                let n = self.rng.range(1, 3);
                r.insert("fields".into(), Value::Object(self.fields(n, None)));
            }
            4 => {
                r.insert("format".into(), json!("text"));
            }
            5 => {
                r.insert("format".into(), json!("csv"));
                r.insert("media_type".into(), json!("text/csv"));
            }
            _ => {
                r.insert("format".into(), json!("binary"));
            }
        }
        match self.rng.below(4) {
            0 if !self.made.headers.is_empty() => {
                let named = self.made.headers.clone();
                r.insert("headers".into(), json!(self.rng.subset(&named, 2)));
            }
            1 => {
                let mut headers = Map::new();
                let mut names: Vec<String> = Vec::new();
                for _ in 0..self.rng.range(1, 2) {
                    let name = self.name(&names);
                    names.push(name.clone());
                    headers.insert(name, Value::Object(self.header("R", false)));
                }
                r.insert("headers".into(), Value::Object(headers));
            }
            _ => {}
        }
        Value::Object(r)
    }

    /// `responses:` of an endpoint: a few statuses, each inline or a named response.
    fn responses(&mut self) -> Map<String, Value> {
        let mut out = Map::new();
        for status in self.rng.subset(STATUSES, 3) {
            let named = self.made.responses.clone();
            let value = if status != "204" && !named.is_empty() && self.rng.chance(30) { json!(self.rng.pick(&named).clone()) } else { self.response(status) };
            out.insert(status.to_owned(), value);
        }
        if out.is_empty() {
            out.insert("204".into(), json!({}));
        }
        out
    }

    pub(super) fn endpoints(&mut self) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut out = Vec::new();
        for i in 0..self.count(6) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let e = self.endpoint(i, &id);
            out.push(Value::Object(e));
        }
        self.made.endpoints = ids.clone();
        self.made.typed.extend(ids.iter().map(|s| format!("endpoint:{s}")));
        out
    }

    fn endpoint(&mut self, i: usize, id: &str) -> Map<String, Value> {
        let mut e = self.item(id);
        e.remove("not_shown");
        let params = self.route(i, &mut e);
        self.query(&params, &mut e);
        if self.rng.chance(25) {
            let mut headers = Map::new();
            let mut names: Vec<String> = Vec::new();
            for _ in 0..self.rng.range(1, 2) {
                let name = self.name(&names);
                names.push(name.clone());
                let list = self.rng.chance(20);
                let mut h = self.header("P", list);
                if self.rng.chance(40) {
                    h.insert("optional".into(), json!(true));
                }
                headers.insert(name, Value::Object(h));
            }
            e.insert("headers".into(), Value::Object(headers));
        }
        self.body(&mut e);
        if self.rng.chance(35) {
            let responses = self.responses();
            e.insert("responses".into(), Value::Object(responses));
        } else {
            self.shorthand_response(i, id, &mut e);
        }
        self.auth(id, &mut e);
        let behaviours: Vec<Value> = (0..self.rng.range(0, 2))
            .map(|_| {
                let bid = self.name(&[]);
                let mut b = self.item(&bid);
                b.remove("part");
                if self.rng.chance(60) {
                    b.insert("gate".into(), json!(true));
                }
                Value::Object(b)
            })
            .collect();
        let mut seen = BTreeSet::new();
        let behaviours: Vec<Value> = behaviours.into_iter().filter(|b| seen.insert(b["id"].as_str().unwrap_or_default().to_owned())).collect();
        if !behaviours.is_empty() {
            e.insert("behaviours".into(), Value::Array(behaviours));
        }
        e
    }

    /// Method, path and path parameters, or a route the source does not show; the names of the
    /// path parameters.
    fn route(&mut self, i: usize, e: &mut Map<String, Value>) -> Vec<String> {
        let mut params: Vec<String> = Vec::new();
        if self.rng.chance(15) {
            e.insert("not_shown".into(), json!(["method", "path"]));
            return params;
        }
        let method = *self.rng.pick(METHODS);
        for _ in 0..self.rng.range(0, 2) {
            let p = self.name_where(&params, pool::is_path_safe);
            params.push(p);
        }
        // The last placeholder of the endpoint's own path mixes with text now and then
        // (`v{id}.json`): the router matches the segment whole and the handler splits it.
        let mixed = !params.is_empty() && self.rng.chance(30);
        let template = |lead: &str, mixed: bool| {
            let mut path = format!("/{lead}{i}");
            for (k, p) in params.iter().enumerate() {
                if mixed && k + 1 == params.len() {
                    path.push_str(&format!("/s{k}/v{{{p}}}.json"));
                } else {
                    path.push_str(&format!("/s{k}/{{{p}}}"));
                }
            }
            path
        };
        e.insert("method".into(), json!(method));
        e.insert("path".into(), json!(template("r", mixed)));
        if self.rng.chance(20) {
            // Another route of the endpoint (an old path kept after a move), deprecated now and
            // then: its handler answers as the endpoint's.
            let mut aliases = Vec::new();
            for k in 0..self.rng.range(1, 2) {
                let id = self.name(&[]);
                let mut a = self.item(&id);
                for key in ["not_shown", "part"] {
                    a.remove(key);
                }
                a.insert("path".into(), json!(template(&format!("old{k}_"), false)));
                if self.rng.chance(30) {
                    a.insert("method".into(), json!(*self.rng.pick(METHODS)));
                }
                aliases.push(Value::Object(a));
            }
            let mut seen = BTreeSet::new();
            aliases.retain(|a| seen.insert(a["id"].as_str().unwrap_or_default().to_owned()));
            e.insert("aliases".into(), Value::Array(aliases));
        }
        if self.rng.chance(15) {
            e.insert("assumed".into(), json!({ "method": "the source shows the path only" }));
        }
        if !params.is_empty() {
            let mut map = Map::new();
            for p in &params {
                let ty = *self.rng.pick(&["snowflake", "string", "integer", "uint64", "uuid"]);
                map.insert(p.clone(), json!({ "type": ty }));
            }
            e.insert("path_params".into(), Value::Object(map));
        }
        params
    }

    /// Query parameters: scalars, enums, and arrays that travel repeated or comma-separated.
    /// The members of a body sent as a form too: scalars, enums, flag sets and lists of them,
    /// some of them nullable (left out of a form).
    fn form_fields(&mut self, n: usize) -> Map<String, Value> {
        let mut fields = Map::new();
        let mut names: Vec<String> = Vec::new();
        for _ in 0..n {
            let name = self.name(&names);
            names.push(name.clone());
            let mut choices: Vec<String> = SCALARS.iter().map(|s| s.to_string()).collect();
            choices.extend(self.made.enums.iter().map(|x| format!("enum<{x}>")));
            choices.extend(self.made.flags.iter().map(|x| format!("flags<{x}>")));
            let scalar = self.rng.pick(&choices).clone();
            let ty = if self.rng.chance(20) { format!("array<{scalar}>") } else { scalar };
            let mut f = self.field(&ty);
            // A member whose type is not shown is any JSON, which no form carries.
            if !f.contains_key("type") {
                f.remove("not_shown");
                f.insert("type".into(), json!(ty));
            }
            fields.insert(name, Value::Object(f));
        }
        super::shapes::distinct_wire_names(&mut fields, &[]);
        fields
    }

    fn query(&mut self, params: &[String], e: &mut Map<String, Value>) {
        if !self.rng.chance(50) {
            return;
        }
        let mut query = Map::new();
        let mut names: Vec<String> = params.to_vec();
        for _ in 0..self.rng.range(1, 3) {
            let name = self.name(&names);
            names.push(name.clone());
            let mut choices: Vec<String> = SCALARS.iter().map(|s| s.to_string()).collect();
            choices.extend(["uint32", "string_integer"].map(String::from));
            choices.extend(self.made.enums.iter().map(|x| format!("enum<{x}>")));
            let scalar = self.rng.pick(&choices).clone();
            let array = self.rng.chance(20);
            let ty = if array { format!("array<{scalar}>") } else { scalar };
            let mut f = self.field(&ty);
            // Text on the wire is never `null` (E0144).
            f.remove("nullable");
            if array && f.contains_key("type") {
                f.insert("style".into(), json!(self.rng.pick(&["repeated", "comma"])));
                f.remove("items");
            }
            self.required_when(&mut f);
            query.insert(name, Value::Object(f));
        }
        super::shapes::distinct_wire_names(&mut query, params);
        e.insert("query".into(), Value::Object(query));
    }

    /// The request body: named fields (JSON or a form), a whole-body schema, several formats
    /// sharing the fields (with typed multipart parts), parts alone, bytes, CSV, or none.
    fn body(&mut self, e: &mut Map<String, Value>) {
        match self.rng.below(9) {
            0 | 1 => {
                let n = self.rng.range(1, 4);
                // A form's members are text (E0160); JSON's any shape.
                if self.rng.chance(25) {
                    let body = self.form_fields(n);
                    e.insert("body".into(), Value::Object(body));
                    e.insert("body_format".into(), json!("form"));
                } else {
                    let body = self.fields(n, None);
                    e.insert("body".into(), Value::Object(body));
                }
            }
            2 => {
                let ty = format!("array<{}>", self.field_type(None, 0));
                let mut schema = self.field(&ty);
                for key in ["optional", "nullable", "wire_name", "required_when", "default", "default_text"] {
                    schema.remove(key);
                }
                e.insert("body_schema".into(), Value::Object(schema));
            }
            3 => {
                e.insert("body_format".into(), json!(self.rng.pick(&["multipart", "csv"])));
                if self.rng.chance(50) {
                    e.insert("body".into(), json!({ "file": { "type": "file", "max_size": 1024 } }));
                }
            }
            4 => {
                let n = self.rng.range(1, 3);
                // Every format here has a form, whose members are text (E0160).
                let body = self.form_fields(n);
                e.insert("body".into(), Value::Object(body));
                if self.rng.chance(50) {
                    e.insert("body_format".into(), json!(["json", "form", "multipart"]));
                    e.insert("parts".into(), Value::Object(self.parts()));
                } else {
                    e.insert("body_format".into(), json!(["form", "json"]));
                }
            }
            5 => {
                e.insert("body_format".into(), json!("multipart"));
                e.insert("parts".into(), Value::Object(self.parts()));
            }
            6 => {
                e.insert("body_format".into(), json!("binary"));
            }
            7 => {
                // A whole body the caller may leave out, as JSON or a form.
                // A form carries a map of texts; a resource's members may not be text (E0160).
                let format = *self.rng.pick(&["json", "form"]);
                let ty = match self.made.resources.first() {
                    Some(r) if format == "json" && self.rng.chance(50) => format!("object<{r}>"),
                    _ => "map<string, string>".to_owned(),
                };
                e.insert("body_schema".into(), json!({ "type": ty, "optional": true }));
                e.insert("body_format".into(), json!(format));
            }
            _ => {}
        }
    }

    /// Typed multipart parts: a JSON part, files (indexed or repeated), a file of one media
    /// type, a text part.
    fn parts(&mut self) -> Map<String, Value> {
        let mut parts = Map::new();
        let mut names: Vec<String> = Vec::new();
        let mut name = |s: &mut Self| {
            let n = s.name_where(&names, pool::is_plain_ident);
            names.push(n.clone());
            n
        };
        if let Some(r) = self.made.resources.first().cloned().filter(|_| self.rng.chance(60)) {
            let n = name(self);
            parts.insert(n, json!({ "type": format!("object<{r}>"), "content_type": "application/json" }));
        }
        let n = name(self);
        let style = *self.rng.pick(&["indexed", "repeated"]);
        parts.insert(n, json!({ "type": "array<file>", "style": style, "max_items": 3, "optional": true, "max_size": 1024 }));
        if self.rng.chance(50) {
            let n = name(self);
            parts.insert(n, json!({ "type": "file", "content_type": "image/*", "optional": true }));
        }
        if self.rng.chance(50) {
            let n = name(self);
            parts.insert(n, json!({ "type": "string", "optional": true, "max_length": 200 }));
        }
        parts
    }

    /// The single-response shorthand: a type, fields, a format, or an array with an item count.
    fn shorthand_response(&mut self, i: usize, id: &str, e: &mut Map<String, Value>) {
        match self.rng.below(5) {
            0 => {
                let ty = self.field_type(None, 1);
                e.insert("response".into(), json!(ty));
            }
            1 => {
                let n = self.rng.range(1, 3);
                let mut fields = self.fields(n, None);
                let numeric = format!("count_{i}");
                fields.insert(numeric.clone(), json!({ "type": "integer" }));
                e.insert("response_fields".into(), Value::Object(fields));
                self.made.numeric_responses.push((id.to_owned(), numeric));
            }
            2 => {
                let format = *self.rng.pick(&["csv", "none"]);
                e.insert("response_format".into(), json!(format));
                if format == "csv" && self.rng.chance(50) {
                    let n = self.rng.range(1, 2);
                    let columns = self.fields(n, None);
                    e.insert("response_columns".into(), Value::Object(columns));
                }
            }
            3 => {
                e.insert("response".into(), json!(format!("array<{}>", self.field_type(None, 0))));
                if self.rng.chance(50) {
                    e.insert("response_max_items".into(), json!(self.rng.range(1, 100)));
                }
            }
            _ => {}
        }
    }

    /// `auth`: token kinds, anonymous calls (`none`, alone or beside kinds), and scopes with a
    /// bearer kind to carry them. An endpoint that accepts anonymous calls checks nothing about
    /// its caller.
    fn auth(&mut self, id: &str, e: &mut Map<String, Value>) {
        let mut auth: Vec<String> = Vec::new();
        if !self.made.token_kinds.is_empty() && self.rng.chance(50) {
            let kinds = self.made.token_kinds.clone();
            auth = self.rng.subset(&kinds, 2);
        }
        let anonymous = e.contains_key("method") && self.rng.chance(15);
        if !self.made.scopes.is_empty() && !self.made.bearer_kinds.is_empty() && self.rng.chance(30) {
            let scopes = self.made.scopes.clone();
            let chosen = self.rng.subset(&scopes, 2);
            if !chosen.is_empty() {
                // Naming kinds (or `none`) narrows them: a bearer kind among them carries the scopes.
                let bearer = self.rng.pick(&self.made.bearer_kinds).clone();
                if (anonymous || !auth.is_empty()) && !auth.contains(&bearer) {
                    auth.push(bearer);
                }
                e.insert("scopes".into(), json!(chosen));
            }
        }
        if anonymous {
            auth.insert(0, "none".to_owned());
            self.made.anonymous.push(id.to_owned());
            anonymous_inputs(e);
        }
        if !auth.is_empty() {
            e.insert("auth".into(), json!(auth));
        }
    }
}

/// An endpoint anyone may call asks nothing about its caller: no input is required under a
/// condition or bounded by another endpoint's answer.
fn anonymous_inputs(e: &mut Map<String, Value>) {
    for part in ["path_params", "query", "headers", "body"] {
        let Some(Value::Object(fields)) = e.get_mut(part) else { continue };
        for f in fields.values_mut() {
            let Value::Object(f) = f else { continue };
            f.remove("required_when");
            f.retain(|_, v| v.get("field").is_none());
        }
    }
    if let Some(Value::Object(schema)) = e.get_mut("body_schema") {
        schema.retain(|_, v| v.get("field").is_none());
    }
}
