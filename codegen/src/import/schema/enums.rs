//! `enum` schemas to the spec's enums: values, their ids and names.

use super::*;

impl Importer<'_> {
    /// An enum item from an enumeration schema.
    pub(in crate::import) fn enumeration(&mut self, cx: &mut Diagnostics, obj: &Map<String, Value>, pointer: &str, id: String) -> spec::Enum {
        let mut used = Used::default();
        let mut e = self.enum_values(obj, id, &mut used);
        self.item_annotations(obj, &mut used, &mut e.meta);
        let gaps = self.leftovers(cx, obj, pointer, &used);
        e.meta.not_shown.extend(gaps);
        e
    }

    /// The values of an enumeration: `enum` (a text is its own id; an integer gets an assumed
    /// one) or `oneOf` constants (`title` names an integer's value).
    pub(in crate::import) fn enum_values(&mut self, obj: &Map<String, Value>, id: String, used: &mut Used) -> spec::Enum {
        used.mark("type");
        used.mark("nullable");
        used.mark("format");
        let mut values: Vec<spec::EnumValue> = Vec::new();
        let mut ids = BTreeSet::new();
        let mut unique = |wanted: String, n: Option<i64>| -> String {
            let mut id = wanted.clone();
            if ids.contains(&id) {
                id = match n {
                    Some(n) => format!("{wanted}_{n}"),
                    None => format!("{wanted}_"),
                };
            }
            ids.insert(id.clone());
            id
        };
        if let Some(list) = used.take(obj, "enum").and_then(Value::as_array) {
            let mut seen = Vec::new();
            // A value listed twice is one value.
            for v in list.iter().filter(|v| !v.is_null()) {
                if seen.contains(&v) {
                    continue;
                }
                seen.push(v);
                let mut meta = Meta::default();
                let value = match v {
                    Value::String(s) => {
                        meta.id = unique(s.clone(), None);
                        None
                    }
                    other => {
                        let n = int(other).unwrap_or_default();
                        meta.id = unique(format!("VALUE_{}", n.to_string().replace('-', "MINUS_")), Some(n));
                        meta.assumed.insert("id".into(), "the document gives the value without a name".into());
                        Some(n)
                    }
                };
                values.push(spec::EnumValue { meta, value });
            }
        } else if let Some((key, list)) = alternatives(obj) {
            used.mark(key);
            // The open branch, if any, says what enums here always are: open to unknown values.
            for (_, branch) in list.into_iter().filter(|(_, b)| branch_const(b).is_some()) {
                let b = branch.as_object().expect("BUG: const branches are objects");
                let c = branch_const(branch).expect("BUG: enum branches have a constant");
                let title = b.get("title").and_then(Value::as_str);
                let mut meta = Meta::default();
                let value = match c {
                    Value::String(s) => {
                        meta.id = unique(s.clone(), None);
                        meta.name = title.filter(|t| t != s).map(str::to_owned);
                        None
                    }
                    other => {
                        let n = int(other).unwrap_or_default();
                        match title {
                            Some(t) => meta.id = unique(t.to_owned(), Some(n)),
                            None => {
                                meta.id = unique(format!("VALUE_{}", n.to_string().replace('-', "MINUS_")), Some(n));
                                meta.assumed.insert("id".into(), "the document gives the value without a name".into());
                            }
                        }
                        Some(n)
                    }
                };
                meta.description = b.get("description").and_then(Value::as_str).map(str::to_owned);
                if b.get("deprecated").and_then(Value::as_bool) == Some(true) {
                    meta.deprecated = Some(self.deprecation());
                }
                values.push(spec::EnumValue { meta, value });
            }
        }
        let repr = if values.iter().all(|v| v.value.is_some()) && !values.is_empty() { "integer" } else { "string" };
        spec::Enum { meta: Meta { id, ..Default::default() }, repr, values }
    }

    /// The id of the value of enum `enum_id` whose wire value is `v`.
    pub(in crate::import) fn enum_value_id(&self, enum_id: &str, v: &Value) -> Option<String> {
        let (_, schema) =
            self.root().pointer("/components/schemas")?.as_object()?.iter().find(|(name, _)| self.component_id(name).as_deref() == Some(enum_id))?;
        let obj = schema.as_object()?;
        if let Some(list) = obj.get("enum").and_then(Value::as_array) {
            return list.iter().any(|x| x == v).then(|| match v {
                Value::String(s) => s.clone(),
                other => format!("VALUE_{}", other.to_string().replace('-', "MINUS_")),
            });
        }
        let (_, list) = alternatives(obj)?;
        let branch = list.iter().find(|(_, b)| branch_const(b) == Some(v))?.1;
        match v {
            Value::String(s) => Some(s.clone()),
            other => {
                Some(branch.get("title").and_then(Value::as_str).map_or_else(|| format!("VALUE_{}", other.to_string().replace('-', "MINUS_")), str::to_owned))
            }
        }
    }
}
