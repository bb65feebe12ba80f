//! Fields and their types: every type expression of the format (primitives, `array<>`,
//! `map<K, V>`, `enum<>`, `flags<>`, `object<>`, `union<>`, `class<>`, inline alternatives and
//! inline objects), what may go with each type (constraints, `items`, typed `default` and
//! `const`, `subset`, `pattern`, presence), and the unions and cases that are made of fields.

use super::Builder;
use serde_json::{Map, Value, json};

/// Alternatives of an inline union, in an order where no earlier one decodes everything a later
/// one would (text last, since a text decodes every text-shaped value).
const ALTERNATIVES: &[&str] = &["boolean", "integer", "number", "null", "date", "string"];

/// Map key types.
const MAP_KEYS: &[&str] = &["string", "snowflake", "uuid", "integer", "uint32"];

impl Builder {
    /// A type expression a field may have; `owner` is the resource (or union) being built, which
    /// its own fields may hold through any path.
    pub(super) fn field_type(&mut self, owner: Option<&str>, depth: usize) -> String {
        if depth > 0 {
            match self.rng.below(20) {
                0..=2 => return format!("array<{}>", self.field_type(owner, depth - 1)),
                3 => {
                    let key = self.map_key();
                    return format!("map<{key}, {}>", self.field_type(owner, depth - 1));
                }
                4 => return self.alternatives(),
                _ => {}
            }
        }
        let mut choices: Vec<String> = super::PRIMITIVES.iter().map(|p| p.to_string()).collect();
        choices.extend(self.made.enums.iter().map(|e| format!("enum<{e}>")));
        choices.extend(self.made.flags.iter().map(|f| format!("flags<{f}>")));
        choices.extend(self.made.resources.iter().map(|r| format!("object<{r}>")));
        choices.extend(self.made.unions.iter().map(|u| format!("union<{u}>")));
        choices.extend(self.made.classes.iter().map(|c| format!("class<{c}>")));
        if let Some(r) = owner.filter(|_| self.rng.chance(30)) {
            return format!("object<{r}>");
        }
        self.rng.pick(&choices).clone()
    }

    fn map_key(&mut self) -> String {
        let mut keys: Vec<String> = MAP_KEYS.iter().map(|k| k.to_string()).collect();
        keys.extend(self.made.enums.iter().map(|e| format!("enum<{e}>")));
        self.rng.pick(&keys).clone()
    }

    /// An inline union of two or three alternatives, `integer | string`.
    fn alternatives(&mut self) -> String {
        let chosen = self.rng.subset(ALTERNATIVES, 3);
        if chosen.len() < 2 {
            return "integer | string".to_owned();
        }
        chosen.join(" | ")
    }

    /// A value of `ty` as the spec writes it, for `default` and `const`; `None` for types that
    /// have no literal. `array` allows arrays (a default may be one, a constant not).
    pub(super) fn literal(&mut self, ty: &str, array: bool) -> Option<Value> {
        if let Some(inner) = ty.strip_prefix("array<").and_then(|t| t.strip_suffix('>')) {
            if !array {
                return None;
            }
            let item = self.literal(inner, false);
            return Some(match item {
                Some(v) if self.rng.chance(50) => json!([v]),
                _ => json!([]),
            });
        }
        if let Some(id) = ty.strip_prefix("enum<").and_then(|t| t.strip_suffix('>')) {
            // Values the wire carries: a value of an integer enum without a number has none.
            let values: Vec<String> =
                self.made.enum_values.iter().find(|(e, _, _)| e == id)?.2.iter().filter(|(_, wire)| *wire).map(|(v, _)| v.clone()).collect();
            return (!values.is_empty()).then(|| json!(self.rng.pick(&values)));
        }
        if let Some(id) = ty.strip_prefix("flags<").and_then(|t| t.strip_suffix('>')) {
            let bits: Vec<u64> = self.made.flag_values.iter().find(|(f, _)| f == id)?.1.iter().filter_map(|(_, b)| *b).collect();
            let set: u64 = self.rng.subset(&bits, 2).iter().map(|b| 1u64 << b).sum();
            return Some(json!(set));
        }
        Some(match ty {
            "boolean" => json!(self.rng.chance(50)),
            "integer" | "int32" | "uint32" | "uint64" => json!(self.rng.range(0, 100)),
            "number" | "float32" => json!(0.5),
            "string" | "url" | "uri" | "email" | "csv" => json!(format!("text \"{}\"", self.rng.range(0, 9))),
            "snowflake" | "string_integer" => json!("1234"),
            "timestamp" | "date_time" => json!("2001-02-03T04:05:06Z"),
            "date" => json!("2001-02-03"),
            "uuid" => json!("123e4567-e89b-12d3-a456-426614174000"),
            "json" => json!({ "any": [1, "two", null] }),
            _ => return None,
        })
    }

    /// A field of type `ty`, with what may go with that type.
    pub(super) fn field(&mut self, ty: &str) -> Map<String, Value> {
        let mut f = Map::new();
        if self.rng.chance(5) {
            f.insert("not_shown".into(), json!(["type"]));
            return f;
        }
        f.insert("type".into(), json!(ty));
        if self.rng.chance(30) {
            f.insert("description".into(), json!(self.prose()));
        }
        if self.rng.chance(35) {
            f.insert("optional".into(), json!(true));
        }
        if self.rng.chance(25) {
            f.insert("nullable".into(), json!(true));
        }
        if self.rng.chance(15) {
            let wire = self.name(&[]);
            f.insert("wire_name".into(), json!(wire));
        }
        self.values(&mut f, ty);
        self.constraints(&mut f, ty);
        if self.rng.chance(10) && !self.made.scopes.is_empty() {
            f.insert("requires_scope".into(), json!(self.rng.pick(&self.made.scopes).clone()));
        }
        if self.rng.chance(15) {
            let mut meta = Map::new();
            self.lifecycle(&mut meta);
            f.extend(meta);
        }
        if self.rng.chance(10) {
            f.insert("notes".into(), json!(["A note on the field."]));
        }
        if self.rng.chance(10) {
            f.insert("assumed".into(), json!({ "type": "the source shows an example only" }));
        }
        f
    }

    /// `default` (typed, on a field that may be absent), `default_text`, `literal` (on text),
    /// `const` and `subset`, each by chance where the type has them.
    fn values(&mut self, f: &mut Map<String, Value>, ty: &str) {
        if self.rng.chance(12)
            && let Some(value) = self.literal(ty, true)
        {
            f.insert("optional".into(), json!(true));
            f.insert("default".into(), value);
        } else if self.rng.chance(8) {
            f.insert("default_text".into(), json!("the platform's default"));
        }
        if ty == "string" && self.rng.chance(10) {
            f.insert("literal".into(), json!("literal \"value\" \\ here"));
        }
        if self.rng.chance(8)
            && let Some(value) = self.literal(ty, false)
        {
            f.insert("const".into(), value);
        }
        let element = ty.strip_prefix("array<").and_then(|t| t.strip_suffix('>')).unwrap_or(ty);
        if let Some(id) = element.strip_prefix("enum<").and_then(|t| t.strip_suffix('>'))
            && self.rng.chance(25)
        {
            let values: Vec<String> = self
                .made
                .enum_values
                .iter()
                .find(|(e, _, _)| e == id)
                .map(|(_, _, v)| v.iter().filter(|(_, wire)| *wire).map(|(v, _)| v.clone()).collect())
                .unwrap_or_default();
            let subset = self.rng.subset(&values, 3);
            if !subset.is_empty() {
                f.insert("subset".into(), json!(subset));
            }
        }
    }

    /// A bound by value, or now and then by a limit with an offset.
    fn bound(&mut self, value: usize) -> Value {
        if !self.made.limits.is_empty() && self.rng.chance(25) {
            json!({ "limit": self.rng.pick(&self.made.limits).clone(), "offset": self.rng.range(0, 3) })
        } else {
            json!(value)
        }
    }

    /// Constraints that fit the type, in order, by value or limit.
    pub(super) fn constraints(&mut self, f: &mut Map<String, Value>, ty: &str) {
        if !self.rng.chance(40) {
            return;
        }
        if let Some(inner) = ty.strip_prefix("array<").and_then(|t| t.strip_suffix('>')) {
            let lo = self.rng.range(0, 3);
            f.insert("min_items".into(), json!(lo));
            f.insert("max_items".into(), json!(lo + self.rng.range(0, 20)));
            if self.rng.chance(30) {
                f.insert("unique_items".into(), json!(true));
            }
            if matches!(inner, "file" | "csv") {
                let b = self.bound(1 << 20);
                f.insert("max_size".into(), b);
            }
            self.items(f, inner);
            return;
        }
        if let Some(value) = ty.strip_prefix("map<").and_then(|t| t.split_once(", ")).map(|(_, v)| v.trim_end_matches('>').to_owned()) {
            let lo = self.rng.range(0, 2);
            f.insert("min_entries".into(), json!(lo));
            f.insert("max_entries".into(), json!(lo + self.rng.range(1, 10)));
            self.items(f, &value);
            return;
        }
        self.scalar_constraints(f, ty);
    }

    /// Constraints on one value of a scalar type (a field's, or an element's under `items`).
    fn scalar_constraints(&mut self, f: &mut Map<String, Value>, ty: &str) {
        match ty {
            "string" | "url" | "uri" | "email" => {
                let lo = self.rng.range(0, 5);
                if self.rng.chance(50) {
                    f.insert("min_length".into(), json!(lo));
                }
                f.insert("max_length".into(), json!(lo + 1 + self.rng.range(0, 500)));
                if self.rng.chance(30) {
                    f.insert("pattern".into(), json!(*self.rng.pick(&["^[a-z]+$", "\\d{3}", "^(?:a|b\"c)\\\\?$", "é+|名"])));
                }
            }
            "integer" | "int32" | "uint32" | "uint64" | "string_integer" => {
                let lo = self.rng.range(0, 10);
                f.insert("min".into(), json!(lo));
                if self.rng.chance(50) {
                    f.insert("max".into(), json!(lo + self.rng.range(0, 1000)));
                } else if !self.made.numeric_responses.is_empty() && self.rng.chance(50) {
                    let (e, field) = self.rng.pick(&self.made.numeric_responses).clone();
                    f.insert("max_exclusive".into(), json!({ "field": format!("{e}.{field}"), "offset": -1 }));
                } else {
                    f.insert("max_exclusive".into(), json!(lo + 1 + self.rng.range(0, 1000)));
                }
            }
            "number" | "float32" => {
                if self.rng.chance(50) {
                    f.insert("min".into(), json!(-1.5));
                } else {
                    f.insert("min_exclusive".into(), json!(0));
                }
                f.insert("max".into(), json!(1000.25));
            }
            "file" | "csv" => {
                let b = self.bound(8 << 20);
                f.insert("max_size".into(), b);
            }
            _ => {}
        }
    }

    /// `items:` constraints on each element of an array or value of a map.
    fn items(&mut self, f: &mut Map<String, Value>, element: &str) {
        if !self.rng.chance(50) {
            return;
        }
        let mut items = Map::new();
        if self.rng.chance(30) {
            items.insert("nullable".into(), json!(true));
        }
        if let Some(inner) = element.strip_prefix("array<").and_then(|t| t.strip_suffix('>')) {
            items.insert("max_items".into(), json!(self.rng.range(1, 5)));
            let mut nested = Map::new();
            self.scalar_constraints(&mut nested, inner);
            if !nested.is_empty() {
                items.insert("items".into(), Value::Object(nested));
            }
        } else {
            self.scalar_constraints(&mut items, element);
        }
        // A file's size is bounded on the field, not per element.
        items.remove("max_size");
        if let Some(Value::Object(nested)) = items.get_mut("items") {
            nested.remove("max_size");
        }
        if !items.is_empty() {
            f.insert("items".into(), Value::Object(items));
        }
    }

    /// A field map of `n` fields; `owner` may be held by its own fields.
    pub(super) fn fields(&mut self, n: usize, owner: Option<&str>) -> Map<String, Value> {
        let mut map = Map::new();
        let mut names: Vec<String> = Vec::new();
        for _ in 0..n {
            let (name, mut f) = if self.rng.chance(8) {
                // An object written inline is named after its path, so its key is one no other
                // path shares.
                self.made.serial += 1;
                (format!("inline{}", self.made.serial), self.inline_object(owner))
            } else {
                let name = self.name(&names);
                let ty = self.field_type(owner, 2);
                (name, self.field(&ty))
            };
            names.push(name.clone());
            self.required_when(&mut f);
            map.insert(name, Value::Object(f));
        }
        distinct_wire_names(&mut map, &[]);
        map
    }

    /// An inline object (`type: object`, or an array or map of them) with a few fields.
    fn inline_object(&mut self, owner: Option<&str>) -> Map<String, Value> {
        let ty = match self.rng.below(4) {
            0 => "array<object>".to_owned(),
            1 => "map<string, object>".to_owned(),
            _ => "object".to_owned(),
        };
        let mut f = Map::new();
        f.insert("type".into(), json!(ty));
        if self.rng.chance(40) {
            f.insert("optional".into(), json!(true));
        }
        let n = self.rng.range(1, 3);
        let mut inner = Map::new();
        let mut names: Vec<String> = Vec::new();
        for _ in 0..n {
            let name = self.name(&names);
            names.push(name.clone());
            let t = self.field_type(owner, 1);
            inner.insert(name, Value::Object(self.field(&t)));
        }
        distinct_wire_names(&mut inner, &[]);
        f.insert("fields".into(), Value::Object(inner));
        f
    }

    /// `required_when` names a condition as text (`id` or `id(ARG)`), never negated.
    pub(super) fn required_when(&mut self, f: &mut Map<String, Value>) {
        if self.rng.chance(10)
            && let Some(Value::String(c)) = self.cond().map(|c| c.get("not").cloned().unwrap_or(c))
        {
            f.insert("required_when".into(), json!(c));
        }
    }

    // --- unions ------------------------------------------------------------------------------

    /// Tagged unions (by an integer, a text or an enum, each variant a resource made here that
    /// fixes the discriminator with `const`) and untagged ones (variants of any type, in an order
    /// where each can be chosen). A variant may hold its union again: recursion through a union.
    pub(super) fn unions(&mut self) -> Vec<Value> {
        let mut ids: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for _ in 0..self.count(3) {
            let id = self.name(&ids);
            ids.push(id.clone());
            let mut u = self.item(&id);
            u.remove("not_shown");
            let variants = if self.rng.chance(60) { self.tagged(&id, &mut u) } else { self.untagged(&id) };
            u.insert("variants".into(), Value::Object(variants));
            self.made.unions.push(id.clone());
            out.push(Value::Object(u));
        }
        self.made.typed.extend(ids.iter().map(|u| format!("union:{u}")));
        out
    }

    /// The variants of a tagged union, and its `discriminator`.
    fn tagged(&mut self, union: &str, u: &mut Map<String, Value>) -> Map<String, Value> {
        let string_enums: Vec<(String, Vec<String>)> = self
            .made
            .enum_values
            .iter()
            .filter(|(_, string, values)| *string && values.len() >= 2)
            .map(|(e, _, values)| (e.clone(), values.iter().map(|(v, _)| v.clone()).collect()))
            .collect();
        let numbered: Vec<(String, Vec<String>)> = self
            .made
            .enum_values
            .iter()
            .filter(|(_, string, values)| !*string && values.iter().filter(|(_, n)| *n).count() >= 2)
            .map(|(e, _, values)| (e.clone(), values.iter().filter(|(_, n)| *n).map(|(v, _)| v.clone()).collect()))
            .collect();
        let enums: Vec<(String, Vec<String>)> = string_enums.into_iter().chain(numbered).collect();
        self.made.serial += 1;
        let field = format!("kind{}", self.made.serial);
        let (ty, tags): (String, Vec<Value>) = match self.rng.below(3) {
            0 if !enums.is_empty() => {
                let (e, values) = self.rng.pick(&enums).clone();
                (format!("enum<{e}>"), values.into_iter().map(Value::from).collect())
            }
            1 => ("string".to_owned(), (0..3).map(|i| json!(format!("tag \"{i}\""))).collect()),
            _ => ("integer".to_owned(), (0..3).map(|i| json!(i * 7 - 3)).collect()),
        };
        u.insert("discriminator".into(), json!({ "field": field, "type": ty }));
        let mut variants = Map::new();
        let mut names: Vec<String> = Vec::new();
        // A field every variant has (the enum reads it whatever the variant), each variant
        // holding it with its own presence; and the field that holds the union again, in the
        // first variant or in all of them.
        self.made.serial += 1;
        let shared = self.rng.chance(50).then(|| (format!("shared{}", self.made.serial), self.shared_field()));
        let child = format!("child{}", self.made.serial);
        let (recursive, everywhere) = (self.rng.chance(50), self.rng.chance(50));
        for (i, tag) in tags.iter().take(self.rng.range(1, 3)).enumerate() {
            let name = self.name(&names);
            names.push(name.clone());
            self.made.serial += 1;
            let resource = format!("variant{}", self.made.serial);
            let n = self.rng.range(0, 3);
            let mut fields = self.fields(n, None);
            fields.shift_remove(&field);
            fields.insert(field.clone(), json!({ "type": ty, "const": tag }));
            if let Some((name, declared)) = &shared {
                fields.insert(name.clone(), self.with_presence(declared.clone()));
            }
            if recursive && (i == 0 || everywhere) {
                // The variant holds its union again: a tree of unions.
                fields.insert(child.clone(), json!({ "type": format!("union<{union}>"), "optional": true, "nullable": self.rng.chance(50) }));
            }
            self.made.variant_resources.push(json!({ "id": resource, "fields": fields }));
            self.made.resources.push(resource.clone());
            let mut v = json!({ "type": format!("object<{resource}>") });
            if self.rng.chance(40) {
                v["tag"] = tag.clone();
            }
            variants.insert(name, v);
        }
        variants
    }

    /// A field declaration without its presence, to be given one per holder.
    fn shared_field(&mut self) -> Value {
        let mut declared = self.fields(1, None).into_iter().next().map_or_else(|| json!({ "type": "string" }), |(_, v)| v);
        if let Some(map) = declared.as_object_mut() {
            for key in ["optional", "nullable", "default", "required_when"] {
                map.remove(key);
            }
        }
        declared
    }

    /// `declared` required, optional, nullable or both.
    fn with_presence(&mut self, mut declared: Value) -> Value {
        let presence = self.rng.below(4);
        declared["optional"] = json!(presence & 1 == 1);
        declared["nullable"] = json!(presence & 2 == 2);
        declared
    }

    /// The variants of an untagged union.
    fn untagged(&mut self, union: &str) -> Map<String, Value> {
        let mut variants = Map::new();
        let mut names: Vec<String> = Vec::new();
        let mut order: Vec<String> = ALTERNATIVES.iter().map(|a| a.to_string()).collect();
        order.insert(0, format!("array<union<{union}>>"));
        if let Some(r) = self.made.resources.last().cloned() {
            order.insert(0, format!("object<{r}>"));
        }
        for ty in self.rng.subset(&order, 3) {
            let name = self.name(&names);
            names.push(name.clone());
            let mut v = Map::new();
            v.insert("type".into(), json!(ty));
            self.scalar_constraints(&mut v, &ty);
            variants.insert(name, Value::Object(v));
        }
        if variants.is_empty() {
            variants.insert(self.name(&[]), json!({ "type": "integer" }));
        }
        variants
    }

    // --- cases -------------------------------------------------------------------------------

    /// A case of an object: when a rule holds, facts about some of its fields (a literal text,
    /// flags set, enum values left out, item counts).
    pub(super) fn cases(&mut self, fields: &Map<String, Value>) -> Option<Value> {
        if !self.rng.chance(25) || self.made.conditions.is_empty() {
            return None;
        }
        let mut facts = Map::new();
        for (name, f) in fields {
            let ty = f["type"].as_str().unwrap_or_default().to_owned();
            let fact = self.case_fact(&ty);
            if let Some(fact) = fact.filter(|_| self.rng.chance(50)) {
                facts.insert(name.clone(), fact);
            }
        }
        let id = self.ident_name(&[]);
        let mut case = self.item(&id);
        case.remove("not_shown");
        case.remove("part");
        case.remove("since");
        case.remove("until");
        case.remove("deprecated");
        case.insert("when".into(), self.rule(1));
        case.insert("fields".into(), Value::Object(facts));
        Some(json!([case]))
    }

    /// What a case may say of a field of type `ty`.
    fn case_fact(&mut self, ty: &str) -> Option<Value> {
        if ty == "string" {
            return Some(json!({ "literal": "___hidden___" }));
        }
        if let Some(id) = ty.strip_prefix("flags<").and_then(|t| t.strip_suffix('>')) {
            let flags: Vec<String> = self.made.flag_values.iter().find(|(f, _)| f == id)?.1.iter().map(|(v, _)| v.clone()).collect();
            return Some(json!({ "contains": self.rng.subset(&flags, 2) }));
        }
        let inner = ty.strip_prefix("array<").and_then(|t| t.strip_suffix('>'))?;
        let mut fact = json!({ "max_items": self.rng.range(0, 5) });
        if let Some(id) = inner.strip_prefix("enum<").and_then(|t| t.strip_suffix('>')) {
            let omits: Vec<String> = self
                .made
                .enum_values
                .iter()
                .find(|(e, _, _)| e == id)
                .map(|(_, string, values)| values.iter().filter(|(_, n)| *string || *n).map(|(v, _)| format!("{id}.{v}")).collect())
                .unwrap_or_default();
            fact["omits"] = json!(self.rng.subset(&omits, 2));
        }
        Some(fact)
    }
}

/// Drops each `wire_name` that another field of `map`, or a name in `taken`, already has on the
/// wire: one object carries each name once.
pub(super) fn distinct_wire_names(map: &mut Map<String, Value>, taken: &[String]) {
    let mut used: Vec<String> = map.keys().cloned().chain(taken.iter().cloned()).collect();
    for f in map.values_mut() {
        let Some(wire) = f.get("wire_name").and_then(Value::as_str).map(str::to_owned) else { continue };
        if used.contains(&wire) {
            f.as_object_mut().expect("BUG: fields are mappings").remove("wire_name");
        } else {
            used.push(wire);
        }
    }
}
