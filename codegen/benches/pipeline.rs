//! Throughput of the whole pipeline over the shipped spec: load + lower + validate, and every
//! emitter. Run with `cargo bench -p platform-codegen`; figures go in docs/benchmarks.md.

use criterion::{Criterion, criterion_group, criterion_main};
use platform_codegen::emit::{EmitOptions, emit_all};
use std::hint::black_box;
use std::path::Path;

fn spec_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

fn load(c: &mut Criterion) {
    let dir = spec_dir();
    c.bench_function("load+validate shipped spec", |b| b.iter(|| black_box(platform_codegen::load_spec(&dir, "spec").map(|l| l.model.endpoints.len()).ok())));
}

fn emit(c: &mut Criterion) {
    let loaded = platform_codegen::load_spec(&spec_dir(), "spec").unwrap_or_else(|_| panic!("spec/ is invalid"));
    let opts = EmitOptions::default();
    c.bench_function("emit every artifact", |b| b.iter(|| black_box(emit_all(&loaded.model, &opts).len())));
}

fn pipeline(c: &mut Criterion) {
    let dir = spec_dir();
    let opts = EmitOptions::default();
    c.bench_function("load+validate+emit", |b| {
        b.iter(|| {
            let loaded = platform_codegen::load_spec(&dir, "spec").unwrap_or_else(|_| panic!("spec/ is invalid"));
            black_box(emit_all(&loaded.model, &opts).len())
        })
    });
}

criterion_group!(benches, load, emit, pipeline);
criterion_main!(benches);
