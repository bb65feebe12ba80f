//! Scalars: string, integer and number types with their formats and rules, constants,
//! annotations (descriptions, examples, defaults) and the keys no mapping reads.

use super::*;

impl Importer<'_> {
    /// The primitive of a string schema, from its `format` and `contentEncoding`.
    pub(in crate::import) fn string_type(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, used: &mut Used, f: &mut Field) -> String {
        let encoding = used.take(obj, "contentEncoding").and_then(Value::as_str);
        if obj.contains_key("contentMediaType") {
            used.mark("contentMediaType");
            f.content_type = obj.get("contentMediaType").and_then(Value::as_str).map(str::to_owned);
        }
        match encoding {
            Some("base64") => return "bytes".into(),
            Some("binary") => return "file".into(),
            Some(other) => {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{pointer}/contentEncoding"),
                    "format",
                    &format!("content encoding `{other}`"),
                    "texts are base64 (`bytes`), binary (`file`) or plain",
                );
                f.not_shown.push(gap);
            }
            None => {}
        }
        let Some(format) = used.take(obj, "format").and_then(Value::as_str) else {
            return if f.content_type.is_some() { "file".into() } else { "string".into() };
        };
        let prim = match format {
            "date-time" => "timestamp",
            "date" => "date",
            "uuid" => "uuid",
            "email" => "email",
            "uri" | "url" => "uri",
            "byte" => "bytes",
            "binary" => "file",
            "snowflake" => "snowflake",
            other => {
                // A format the spec has no type for is carried as it is, unchecked (in
                // JSON Schema 2020-12 a format is an annotation unless a validator opts in).
                f.format = Some(other.to_owned());
                "string"
            }
        };
        prim.into()
    }

    /// The primitive of an integer schema, with the bounds its format implies beyond the
    /// primitive's own (`uint8` is a `uint32` of at most 255).
    pub(in crate::import) fn integer_type(&mut self, obj: &Map<String, Value>, used: &mut Used, f: &mut Field) -> (&'static str, Option<i64>, Option<i64>) {
        match used.take(obj, "format").and_then(Value::as_str) {
            None | Some("int64") => ("integer", None, None),
            Some("int32") => ("int32", None, None),
            Some("int16") => ("int32", Some(i16::MIN.into()), Some(i16::MAX.into())),
            Some("int8") => ("int32", Some(i8::MIN.into()), Some(i8::MAX.into())),
            Some("uint32") => ("uint32", None, None),
            Some("uint64") => ("uint64", None, None),
            Some("uint16") => ("uint32", None, Some(u16::MAX.into())),
            Some("uint8") => ("uint32", None, Some(u8::MAX.into())),
            Some(other) => {
                f.format = Some(other.to_owned());
                ("integer", None, None)
            }
        }
    }

    pub(in crate::import) fn text_rules(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, used: &mut Used, f: &mut Field) {
        let text = matches!(f.ty.as_deref(), Some("string" | "uri" | "email"));
        let decimal = matches!(f.ty.as_deref(), Some("snowflake"));
        if !text && !decimal {
            return;
        }
        // Keywords beside a reference narrow what it says; absent ones leave it as it is.
        if text {
            if let Some(n) = used.take(obj, "minLength").and_then(int) {
                f.rules.min_length = Some(Number::from(n));
            }
            if let Some(n) = used.take(obj, "maxLength").and_then(int) {
                f.rules.max_length = Some(Number::from(n));
            }
        }
        if let Some(p) = obj.get("pattern").and_then(Value::as_str) {
            match crate::model::engine_of(p) {
                Ok(_) => {
                    used.mark("pattern");
                    f.rules.pattern = Some(p.to_owned());
                }
                Err(_) => {
                    used.mark("pattern");
                    let gap = self.unmapped(
                        cx,
                        codes::IMPORT_UNMAPPED,
                        &format!("{pointer}/pattern"),
                        "format",
                        "a pattern neither `regex` nor `fancy-regex` compiles",
                        "patterns are checked with the `regex` crate, or `fancy-regex` for look-around and backreferences",
                    );
                    f.not_shown.push(gap);
                }
            }
        }
    }

    /// `minimum`/`maximum` and their exclusive forms (3.1 numbers, 3.0 booleans), within the
    /// bounds the type's format implies.
    pub(in crate::import) fn number_rules(
        &mut self,
        obj: &Map<String, Value>,
        used: &mut Used,
        f: &mut Field,
        integer: bool,
        implied_min: Option<i64>,
        implied_max: Option<i64>,
    ) {
        let num = |v: &Value| -> Option<Number> {
            if integer {
                int(v).map(Number::from)
            } else if let Some(i) = v.as_i64() {
                Some(Number::from(i))
            } else {
                v.as_f64().and_then(Number::from_f64)
            }
        };
        let min = used.take(obj, "minimum").and_then(num);
        let max = used.take(obj, "maximum").and_then(num);
        let (mut min_ex, mut max_ex) = (None, None);
        match used.take(obj, "exclusiveMinimum") {
            Some(Value::Bool(true)) => min_ex = min.clone(),
            Some(v) => min_ex = num(v),
            None => {}
        }
        match used.take(obj, "exclusiveMaximum") {
            Some(Value::Bool(true)) => max_ex = max.clone(),
            Some(v) => max_ex = num(v),
            None => {}
        }
        f.rules.min = if min_ex.is_some() && obj.get("exclusiveMinimum").is_some_and(Value::is_boolean) { None } else { min };
        f.rules.max = if max_ex.is_some() && obj.get("exclusiveMaximum").is_some_and(Value::is_boolean) { None } else { max };
        f.rules.min_exclusive = min_ex;
        f.rules.max_exclusive = max_ex;
        if f.rules.min.is_none() && f.rules.min_exclusive.is_none() {
            f.rules.min = implied_min.map(Number::from);
        }
        if f.rules.max.is_none() && f.rules.max_exclusive.is_none() {
            f.rules.max = implied_max.map(Number::from);
        }
    }

    /// `const`, or an `enum` of one value, on a scalar.
    pub(in crate::import) fn scalar_const(&mut self, obj: &Map<String, Value>, used: &mut Used, f: &mut Field) {
        let constant = if let Some(c) = used.take(obj, "const") {
            Some(c.clone())
        } else if let Some(list) = obj.get("enum").and_then(Value::as_array) {
            let values: Vec<&Value> = list.iter().filter(|v| !v.is_null()).collect();
            if values.len() == 1 {
                used.mark("enum");
                f.nullable |= list.iter().any(Value::is_null);
                Some(values[0].clone())
            } else {
                None
            }
        } else {
            None
        };
        // A constant that is no value of the type the schema declares constrains nothing a
        // decoder can check: it stays in words. CSV text is a file of `text/csv` until its
        // place is known, and text all the same.
        let csv = f.ty.as_deref() == Some("file") && f.content_type.as_deref() == Some("text/csv");
        let ty = if csv { "csv" } else { f.ty.as_deref().unwrap_or_default() };
        match constant {
            Some(c) if literal_fits(ty, &c) => f.constant = Some(c),
            Some(c) => f.notes.push(format!("The document fixes it to `{c}`, which is no value of its type.")),
            None => {}
        }
    }

    /// Descriptions, titles, examples, defaults, deprecation and access notes of a field.
    pub(in crate::import) fn annotations(&mut self, obj: &Map<String, Value>, used: &mut Used, f: &mut Field) {
        if let Some(d) = used.take(obj, "description").and_then(Value::as_str) {
            f.description = Some(d.to_owned());
        }
        if let Some(t) = used.take(obj, "title").and_then(Value::as_str) {
            match &f.description {
                None => f.description = Some(t.to_owned()),
                Some(_) => f.notes.push(format!("Title: {t}.")),
            }
        }
        if used.take(obj, "deprecated").and_then(Value::as_bool) == Some(true) {
            f.deprecated = Some(self.deprecation());
        }
        if used.take(obj, "readOnly").and_then(Value::as_bool) == Some(true) {
            f.notes.push("Read-only: sent by the server, not accepted in requests.".into());
        }
        if used.take(obj, "writeOnly").and_then(Value::as_bool) == Some(true) {
            f.notes.push("Write-only: accepted in requests, never sent back.".into());
        }
        if let Some(c) = used.take(obj, "$comment").and_then(Value::as_str) {
            f.notes.push(c.to_owned());
        }
        if let Some(e) = used.take(obj, "example") {
            f.example = Some(e.clone());
        }
        if let Some(list) = used.take(obj, "examples").and_then(Value::as_array) {
            if f.example.is_none() {
                f.example = list.first().cloned();
            }
            for extra in list.iter().skip(1) {
                f.notes.push(format!("Example: `{extra}`."));
            }
        }
        if let Some(d) = used.take(obj, "default") {
            self.default_value(d, f);
        }
    }

    /// Examples are annotations in OpenAPI, and documents write them loosely (`"true"` for a
    /// boolean, a date for an instant). An example that is not a value of the field's type is
    /// converted when only one value is meant (`"true"` is `true`, `"5"` is `5`), else reported
    /// and kept as a note, never written where the spec would refuse it.
    pub(in crate::import) fn settle_example(&mut self, cx: &mut Diagnostics, pointer: &str, f: &mut Field) {
        let ty = f.ty.clone().unwrap_or_default();
        let Some(example) = f.example.take() else { return };
        if (example.is_null() && f.nullable) || example_fits(&ty, &example) {
            f.example = Some(example);
            return;
        }
        if let Some(converted) = converted_example(&ty, &example).filter(|v| example_fits(&ty, v)) {
            f.example = Some(converted);
            return;
        }
        if self.reported.insert(format!("{pointer} example")) {
            cx.push(
                Diagnostic::warning(codes::IMPORT_EXAMPLE, format!("the example at `#{pointer}` is not a value of `{ty}`"))
                    .at(self.doc.span(pointer), "not a value of the type")
                    .note("examples are annotations; the spec's examples are values the field takes")
                    .help("the spec keeps it as a note of the field; write it as the wire carries it to keep it as an example"),
            );
        }
        f.notes.push(format!("Example: `{example}`."));
    }

    /// A default, as a value of the field's type where the spec can check it (an enum's by its
    /// value id), else in words.
    pub(in crate::import) fn default_value(&mut self, d: &Value, f: &mut Field) {
        let ty = f.ty.clone().unwrap_or_default();
        let scalar =
            ["string", "integer", "int32", "uint32", "uint64", "number", "float32", "boolean", "uri", "email", "uuid", "date", "timestamp", "snowflake"];
        if let Some(enum_id) = ty.strip_prefix("enum<").and_then(|t| t.strip_suffix('>')) {
            match self.enum_value_id(enum_id, d) {
                Some(id) => f.default = Some(Value::String(id)),
                None => f.default_text = Some(d.to_string()),
            }
        } else if scalar.contains(&ty.as_str()) && !d.is_null() && !d.is_object() && !d.is_array() && literal_fits(&ty, d) {
            f.default = Some(d.clone());
        } else {
            f.default_text = Some(match d {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        }
    }

    /// Description, title, examples and deprecation of an item.
    pub(in crate::import) fn item_annotations(&mut self, obj: &Map<String, Value>, used: &mut Used, meta: &mut Meta) {
        let mut f = Field::default();
        self.annotations(obj, used, &mut f);
        if let Some(d) = f.description {
            meta.description = Some(match meta.description.take() {
                Some(earlier) => format!("{d}\n\n{earlier}"),
                None => d,
            });
        }
        if let Some(t) = obj.get("title").and_then(Value::as_str)
            && obj.get("description").is_some()
        {
            meta.name = Some(t.to_owned());
            f.notes.retain(|n| *n != format!("Title: {t}."));
        }
        meta.deprecated = f.deprecated;
        meta.notes.extend(f.notes);
        if let Some(e) = f.example {
            meta.notes.push(format!("Example: `{e}`."));
        }
        if let Some(d) = f.default.or(f.default_text.map(Value::String)) {
            meta.notes.push(format!("Default: `{d}`."));
        }
    }

    /// Every key of a schema the mapping did not read, reported and returned as gaps.
    pub(in crate::import) fn leftovers(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, used: &Used) -> Vec<Gap> {
        let mut gaps = Vec::new();
        for key in obj.keys().filter(|k| !used.0.contains(*k)) {
            let at = format!("{pointer}/{}", escape(key));
            let why = match key.as_str() {
                k if k.starts_with("x-") => "extensions have no meaning the spec format knows".to_owned(),
                k if META_KEYS.contains(&k) => "schemas are read as the document's own dialect".to_owned(),
                "not"
                | "if"
                | "then"
                | "else"
                | "dependentRequired"
                | "dependentSchemas"
                | "patternProperties"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "propertyNames" => "the spec format has no such constraint; the generated checks do not apply it".to_owned(),
                "multipleOf" | "prefixItems" | "contains" | "minContains" | "maxContains" => {
                    "the spec format has no such constraint; the generated checks do not apply it".to_owned()
                }
                "xml" | "externalDocs" => "the spec format has no XML mapping or outside documentation".to_owned(),
                "discriminator" => "a discriminator outside `oneOf` or `anyOf` has nothing to tag".to_owned(),
                "nullable" => "it does not make the value nullable here: in a part of `allOf`, `null` still fails the other parts".to_owned(),
                "oneOf" | "anyOf" if super::requires_only(obj) => super::REQUIRES_ONLY_WHY.to_owned(),
                "enum" | "const" => "a fixed set of values on this type".to_owned(),
                "minLength" | "maxLength" | "pattern" | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "minItems" | "maxItems"
                | "uniqueItems" | "minProperties" | "maxProperties" | "format" => "a constraint that does not apply to the value's type in the spec".to_owned(),
                _ => "the spec format has no such keyword".to_owned(),
            };
            let facet = if key == "format" { "format" } else { "details" };
            gaps.push(self.unmapped(cx, codes::IMPORT_UNMAPPED, &at, facet, &format!("`{key}`"), &why));
        }
        gaps
    }
}

/// Whether `value` is a literal of the primitive type `ty`, the way the validator reads one
/// (`true` for types it reads by other rules: enums, objects, unions).
pub(in crate::import) fn literal_fits(ty: &str, value: &Value) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match ty {
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64(),
        "int32" => value.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
        "uint32" => value.as_u64().is_some_and(|n| u32::try_from(n).is_ok()),
        "uint64" => value.is_u64(),
        "number" | "float32" => value.is_number(),
        "snowflake" => value.is_u64() || value.as_str().is_some_and(digits),
        "string" | "uri" | "email" | "csv" => value.is_string(),
        "timestamp" => value.as_str().is_some_and(|s| s.parse::<jiff::Timestamp>().is_ok()),
        "date" => value.as_str().is_some_and(|s| s.parse::<jiff::civil::Date>().is_ok()),
        "uuid" => value.as_str().is_some_and(|s| {
            let groups: Vec<&str> = s.split('-').collect();
            groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12]) && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
        }),
        "null" => value.is_null(),
        "bytes" | "file" => false,
        _ => true,
    }
}

/// The one value of `ty` that `value` is written for, where there is one: a boolean or a
/// number written as text, a number or a boolean where text is expected.
pub(in crate::import) fn converted_example(ty: &str, value: &Value) -> Option<Value> {
    let text = value.as_str().map(str::trim);
    match ty {
        "boolean" => match text? {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        "integer" | "int32" => text?.parse::<i64>().ok().map(Value::from),
        "uint32" | "uint64" => text?.parse::<u64>().ok().map(Value::from),
        "number" | "float32" => text?.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number),
        "snowflake" => value.as_u64().map(|n| Value::String(n.to_string())),
        "string" => match value {
            Value::Number(_) | Value::Bool(_) => Some(Value::String(value.to_string())),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `value` is an example of `ty` as the wire carries it (a snowflake as decimal text,
/// bytes and files as text, arrays element by element).
pub(in crate::import) fn example_fits(ty: &str, value: &Value) -> bool {
    match ty {
        "snowflake" => value.as_str().is_some_and(|s| !s.is_empty() && s.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit())),
        "bytes" | "file" | "csv" => value.is_string(),
        t if t.starts_with("array<") && t.ends_with('>') => match value.as_array() {
            Some(list) => list.iter().all(|v| example_fits(&t[6..t.len() - 1], v)),
            None => false,
        },
        t if t.starts_with("object<") || t.starts_with("map<") => value.is_object(),
        t if t.starts_with("enum<") => value.is_string() || value.is_i64(),
        t => literal_fits(t, value),
    }
}
