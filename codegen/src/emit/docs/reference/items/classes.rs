//! Views of the SDK's classes: fields and methods with their signatures.

use super::facts::returns_cell;
use super::*;

#[derive(Debug, Serialize)]
pub struct ClassFieldView {
    pub field: FieldView,
    pub sigs: Option<FieldSigs>,
}

#[derive(Debug, Serialize)]
pub struct MethodView {
    pub meta: MetaView,
    pub name: Cell,
    pub returns: Cell,
}

#[derive(Debug, Serialize)]
pub struct ClassView {
    pub meta: MetaView,
    pub namespace: String,
    pub semantics: Vec<String>,
    pub c_struct: String,
    pub cpp_namespace: String,
    pub cpp_name: String,
    pub lifecycle: Vec<Sig>,
    /// What the ABI leaves out of the class, and why.
    pub left_out: Vec<String>,
    pub fields: Vec<ClassFieldView>,
    pub methods: Vec<MethodView>,
    pub members: Cell,
    pub used_by: Vec<Span>,
}

pub fn class(cx: &Cx, sigs: &Sigs, c: &Class) -> ClassView {
    let abi = sigs.class(c);
    let owner = Owner::new("class", &c.meta.id);
    let fields = c.fields.iter().map(|f| ClassFieldView { field: field(cx, f, &owner, None), sigs: abi.and_then(|a| sigs.field(a, f)) }).collect();
    let methods = c
        .methods
        .iter()
        .map(|m| {
            let f = Facets::of(&m.meta);
            MethodView {
                meta: cx.meta("method", &format!("{}.{}", c.meta.id, m.meta.id), &m.meta),
                name: f.cell("name", (!m.meta.is_not_shown("name")).then(|| Rich::code(format!("{}()", m.meta.id)))),
                returns: returns_cell(f, m.returns.as_ref()),
            }
        })
        .collect();
    let has_members = !(c.fields.is_empty() && c.methods.is_empty());
    ClassView {
        meta: cx.meta("class", &c.meta.id, &c.meta),
        namespace: c.namespace.clone(),
        semantics: c.semantics.iter().map(|s| s.id.clone()).collect(),
        c_struct: abi.map(|a| sigs.c_struct(a)).unwrap_or_default(),
        cpp_namespace: abi.map(|a| a.namespace.clone()).unwrap_or_default(),
        cpp_name: abi.map(|a| a.name.clone()).unwrap_or_default(),
        lifecycle: abi.map(|a| sigs.lifecycle(a)).unwrap_or_default(),
        left_out: abi.map(|a| a.left_out.clone()).unwrap_or_default(),
        fields,
        methods,
        members: Facets::of(&c.meta).cell("members", has_members.then(|| Rich::plain(format!("{} given", c.fields.len() + c.methods.len())))),
        used_by: cx.typed_all(&c.used_by),
    }
}
