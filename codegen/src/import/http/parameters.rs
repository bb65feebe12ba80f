//! An operation's parameters: the path item's and its own, each read into the endpoint's path,
//! query or header list, or recorded as a gap when the spec has no place for it.

use super::*;

/// One parameter being read: its name, the endpoint's list it goes to and where it is written.
struct Parameter<'p> {
    name: &'p str,
    /// `path`, `query` or `headers`.
    section: &'static str,
    pointer: &'p str,
}

impl Importer<'_> {
    /// Path, query and header parameters (the path item's, then the operation's, which
    /// replace those of the same name and place).
    pub(in crate::import) fn parameters(&mut self, cx: &mut Diagnostics, shared: &[(String, Value)], own: &[(String, Value)], site: &Site, e: &mut Endpoint) {
        for ((name, place), (pointer, p)) in self.parameter_list(cx, shared, own) {
            let section = match self.parameter_section(cx, &name, &place, &pointer) {
                Ok(section) => section,
                Err(gap) => {
                    e.meta.not_shown.push(gap);
                    continue;
                }
            };
            let obj = p.as_object().cloned().unwrap_or_default();
            let parameter = Parameter { name: &name, section, pointer: &pointer };
            let f = self.parameter_field(cx, &obj, &parameter, &site.child(section).child(&name));
            self.place_parameter(cx, &parameter, f, e);
        }
    }

    /// The parameters by name and place, with their pointers, references resolved. One of a
    /// name and place already listed replaces it where it stands, so an operation's parameter
    /// overrides the path item's without moving.
    fn parameter_list(&mut self, cx: &mut Diagnostics, shared: &[(String, Value)], own: &[(String, Value)]) -> IndexMap<(String, String), (String, Value)> {
        let mut list: IndexMap<(String, String), (String, Value)> = IndexMap::new();
        for (pointer, p) in shared.iter().chain(own) {
            let (pointer, p) = match p.get("$ref").and_then(Value::as_str) {
                Some(r) => match self.resolve_ref(cx, r, &format!("{pointer}/$ref")) {
                    Some(target) => (target.clone(), self.doc.at(&target).cloned().unwrap_or_default()),
                    None => continue,
                },
                None => (pointer.clone(), p.clone()),
            };
            let name = p.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
            let place = p.get("in").and_then(Value::as_str).unwrap_or_default().to_owned();
            list.insert((name, place), (pointer, p));
        }
        list
    }

    /// The endpoint's list a parameter goes to (`path`, `query` or `headers`), or the gap
    /// recording why it goes to none.
    fn parameter_section(&mut self, cx: &mut Diagnostics, name: &str, place: &str, pointer: &str) -> Result<&'static str, Gap> {
        let section = match place {
            "path" => "path",
            "query" => "query",
            "header" => "headers",
            _ => {
                return Err(self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    pointer,
                    "parameters",
                    // The place is the document's own text: quoted, as any of its words.
                    &format!("parameter `{name}` in `{place}`"),
                    "the spec's parameters are in the path, the query or a header",
                ));
            }
        };
        if section == "headers" && OWNED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
            return Err(self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                pointer,
                "parameters",
                &format!("header parameter `{name}`"),
                "the generated client and server write this header themselves",
            ));
        }
        Ok(section)
    }

    /// A parameter's field: its schema, whether it may be left out, its annotations, example and
    /// style, and the gaps of what the spec does not read.
    fn parameter_field(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, parameter: &Parameter, site: &Site) -> Field {
        let (section, pointer) = (parameter.section, parameter.pointer);
        let mut used = Used::default();
        used.mark("name");
        used.mark("in");
        let mut f = self.parameter_schema(cx, obj, pointer, site, &mut used);
        let required = used_take(&mut used, obj, "required").and_then(Value::as_bool) == Some(true);
        f.optional = section != "path" && !required;
        self.parameter_annotations(cx, obj, pointer, &mut used, &mut f);
        if f.nullable {
            // A parameter is text on the wire, where `null` has no spelling: an absent
            // parameter is how it is sent, so nothing is lost.
            f.nullable = false;
            f.optional = section != "path";
        }
        Self::null_as_text(&mut f);
        self.settle_example(cx, &example_pointer(obj, pointer), &mut f);
        self.parameter_style(cx, obj, &mut used, parameter, &mut f);
        if used_take(&mut used, obj, "allowEmptyValue").is_some() {
            let gap = self.unmapped(
                cx,
                codes::IMPORT_UNMAPPED,
                &format!("{pointer}/allowEmptyValue"),
                "parameters",
                "`allowEmptyValue`",
                "an empty value is read as the type reads it",
            );
            f.not_shown.push(gap);
        }
        let gaps = self.leftovers(cx, obj, pointer, &used);
        f.not_shown.extend(gaps);
        f
    }

    /// Reads `style` and `explode`: a query array keeps how it travels (`repeated` or `comma`);
    /// a style the generated code does not write is a gap of the field.
    fn parameter_style(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, used: &mut Used, parameter: &Parameter, f: &mut Field) {
        let (section, pointer) = (parameter.section, parameter.pointer);
        let array = f.ty.as_deref().is_some_and(|t| t.starts_with("array<"));
        let style = used_take(used, obj, "style").and_then(Value::as_str).map(str::to_owned);
        let explode = used_take(used, obj, "explode").and_then(Value::as_bool);
        match (section, style.as_deref(), explode) {
            (_, None | Some("simple"), None) if section != "query" => {}
            ("query", None | Some("form"), e) if array => f.style = Some(if e == Some(false) { "comma" } else { "repeated" }).filter(|_| e.is_some()),
            ("query", None | Some("form"), _) => {}
            ("path" | "headers", Some("simple") | None, _) => {}
            _ => {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    &format!("{pointer}/style"),
                    "parameters",
                    "a parameter style",
                    "query arrays travel repeated or comma-separated; other parameters are plain text",
                );
                f.not_shown.push(gap);
            }
        }
    }

    /// Puts a parameter's field into its list of the endpoint; a path parameter the path has no
    /// placeholder for is a gap of the endpoint instead.
    fn place_parameter(&mut self, cx: &mut Diagnostics, parameter: &Parameter, mut f: Field, e: &mut Endpoint) {
        let Parameter { name, section, pointer } = *parameter;
        match section {
            "path" if !placeholders(&e.path).contains(&name) => {
                let gap = self.unmapped(
                    cx,
                    codes::IMPORT_UNMAPPED,
                    pointer,
                    "parameters",
                    &format!("path parameter `{name}`, which the path does not hold"),
                    "a path parameter fills a `{placeholder}` of the path",
                );
                e.meta.not_shown.push(gap);
            }
            "path" => {
                e.path_params.insert(name.to_owned(), f);
            }
            "query" => {
                e.query.insert(name.to_owned(), f);
            }
            _ => {
                f.wire_name = Some(name.to_owned());
                self.header_as_text(cx, pointer, &mut f, true);
                let mut key = case::snake(name);
                if e.headers.contains_key(&key) {
                    key = format!("{key}_{}", e.headers.len());
                }
                e.headers.insert(key, f);
            }
        }
    }
}
