//! The patterns a spec writes, each once: `patterns.rs` compiles each to one static.

use crate::model::{Constraints, Engine, Field, Model};

/// A pattern of the spec and the engine that matches it.
#[derive(Clone, Debug)]
pub struct PlannedPattern {
    pub regex: String,
    pub engine: Engine,
}

/// Every distinct `pattern` of the spec, in the order first written; it walks every field and
/// response header, so a plan gathers it once.
/// A pattern no engine compiles is not gathered: validation refuses it.
pub(super) fn gather(model: &Model) -> Vec<PlannedPattern> {
    let mut out: Vec<PlannedPattern> = Vec::new();
    let mut add = |c: &Constraints| {
        if let Some(p) = &c.pattern
            && !out.iter().any(|o| o.regex == p.regex)
            && let Ok(engine) = p.engine()
        {
            out.push(PlannedPattern { regex: p.regex.clone(), engine });
        }
    };
    let mut add_field = |f: &Field| {
        add(&f.constraints);
        let mut items = f.items.as_ref();
        while let Some(i) = items {
            add(&i.constraints);
            items = i.items.as_deref();
        }
    };
    every_field(model).for_each(&mut add_field);
    // Header parameters, multipart parts and responses are checked too.
    for e in &model.endpoints {
        e.headers.iter().chain(&e.parts).for_each(&mut add_field);
    }
    model.headers.iter().for_each(&mut add_field);
    for r in model.all_responses() {
        r.fields.iter().for_each(&mut add_field);
        model.header_fields(r).iter().for_each(&mut add_field);
    }
    out
}

/// Every field a validator is generated for, inherited ones included.
fn every_field(model: &Model) -> impl Iterator<Item = &Field> {
    let lists = model
        .resources
        .iter()
        .map(|r| &r.fields)
        .chain(model.unions.iter().map(|u| &u.variants))
        .chain(model.events.iter().map(|e| &e.fields))
        .chain(model.opcodes.iter().map(|o| &o.fields))
        .chain(model.endpoints.iter().flat_map(|e| [&e.path_params, &e.query, &e.body, &e.response_fields]))
        .chain(model.error_body.iter().map(|b| &b.fields));
    lists.flatten().chain(model.endpoints.iter().filter_map(|e| e.body_schema.as_ref()))
}
