//! The fuzz targets in the test suite: every crash ever found replays cleanly, every seed (spec
//! or OpenAPI document) goes through, and a bounded pass of structure-aware inputs from a fixed
//! seed finds nothing.

use platform_fuzz::{archive, seeds, targets};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A target: the fuzzer's bytes in, a panic only on a bug.
type Target = fn(&[u8]);

/// The targets, by the name of their corpus and crash directories, with the number of inputs
/// of the bounded pass: sized so that the whole of this file takes under a minute in a debug
/// build on two shared cores (an import also loads and emits what it wrote, and a slice of a
/// real document is large, so the importer gets fewer inputs).
const TARGETS: &[(&str, Target, u64)] = &[("load_spec", targets::load_spec, 900), ("import_openapi", targets::import_openapi, 150)];

/// Runs `f` on a thread with the main thread's stack size (8 MiB), where the command line runs
/// the pipeline, so that a recursion the command line survives does not fail here and one it
/// does not survive fails here as well.
fn on_main_sized_stack(f: impl FnOnce() + Send + 'static) -> std::thread::Result<()> {
    std::thread::Builder::new().stack_size(8 << 20).spawn(f).expect("a thread starts").join()
}

/// Runs `target` on `input`; on a panic, keeps the input under `target/fuzz-failures/` and fails
/// naming it, so that it can be replayed and added to `fuzz/crashes/`.
fn run(name: &str, target: fn(&[u8]), input: Vec<u8>, what: &str) -> Duration {
    let start = Instant::now();
    let kept = input.clone();
    if on_main_sized_stack(move || target(&input)).is_err() {
        let dir = seeds::repository().join("target/fuzz-failures").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{:016x}", fnv(&kept)));
        std::fs::write(&path, &kept).unwrap();
        panic!("{name}: {what} panicked; the input is kept at {}; move it to fuzz/crashes/{name}/ once fixed", path.display());
    }
    start.elapsed()
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3))
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    out.sort();
    out
}

#[test]
fn every_kept_crash_replays_without_a_panic_or_a_hang() {
    for (name, target, _) in TARGETS {
        let dir = seeds::repository().join("fuzz/crashes").join(name);
        for path in files_in(&dir).into_iter().filter(|p| p.extension().is_none_or(|e| e != "md")) {
            let took = run(name, *target, std::fs::read(&path).unwrap(), &path.display().to_string());
            // The fuzzer's hang limit is 2 s for an optimised build; a debug build is allowed ten times that.
            assert!(took < Duration::from_secs(20), "{} took {took:?}", path.display());
        }
    }
}

#[test]
fn every_seed_spec_goes_through_as_an_archive() {
    let seeds = seeds::all();
    assert!(seeds.iter().any(|s| s.name == "spec"), "the shipped spec is a seed");
    assert!(seeds.iter().filter(|s| s.name.starts_with("tests/diagnostics/")).count() >= 30, "the diagnostics corpus is seeds");
    for seed in seeds {
        run("load_spec", targets::load_spec, archive::pack(&seed.files), &seed.name);
    }
}

/// Every seed document the seed corpus holds as text (a marker line, then the document), the
/// way the corpus holds it. The real documents are too big for the corpus and for this pass (a
/// debug build takes 4 and 12 s to import, load and emit them): the structure-aware inputs of
/// the bounded pass take slices of them, and `codegen/tests/import_openapi.rs` imports them whole.
#[test]
fn every_seed_document_goes_through_as_text() {
    let documents = seeds::documents();
    for real in ["tests/data/openapi/discord/openapi.json", "tests/data/openapi/oxide/nexus.json", "generated/openapi.json"] {
        assert!(documents.iter().any(|d| d.name == real), "{real} is a seed");
    }
    assert!(documents.iter().filter(|d| d.name.starts_with("tests/import/")).count() >= 8, "the importer's corpus is seeds");
    for document in documents.iter().filter(|d| d.text.len() <= seeds::MAX_SEED) {
        run("import_openapi", targets::import_openapi, archive::document(&document.name, &document.text), &document.name);
    }
}

/// xorshift64*: a fixed, dependency-free sequence, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn a_bounded_pass_from_a_fixed_seed_finds_nothing() {
    let start = Instant::now();
    for (name, target, cases) in TARGETS {
        let mut rng = Rng(0x005e_ed0f_f022);
        let started = Instant::now();
        for case in 0..*cases {
            let len = 16 + (rng.next() % 512) as usize;
            run(name, *target, rng.bytes(len), &format!("case {case} of the bounded pass"));
        }
        eprintln!("bounded pass: {cases} inputs of {name} in {:?}", started.elapsed());
    }
    eprintln!("bounded pass: {:?} in all", start.elapsed());
}
