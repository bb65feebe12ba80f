//! `import_openapi` under AFL++: the importer on JSON and YAML documents, then the loader,
//! validator and every emitter on the spec it writes.

fn main() {
    afl::fuzz!(|data: &[u8]| platform_fuzz::targets::import_openapi(data));
}
