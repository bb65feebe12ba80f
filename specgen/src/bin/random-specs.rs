//! Generates random valid specs, builds every crate the generator makes of them in one scratch
//! workspace with warnings denied, compiles their C and C++ headers strictly, and prints the
//! figures. `scripts/random-specs.sh` runs it with fifty specs.
//!
//! ```text
//! random-specs [--count N] [--seed S] [--dir DIR] [--target DIR] [--check-only]
//! ```
//!
//! `--check-only` writes, checks and generates every spec without building anything: a quick
//! look at many seeds.
//!
//! Seeds are `S`, `S + 1`, ... `S + N - 1`; a failing seed is printed, and
//! `random-specs --count 1 --seed <seed>` reproduces it alone.

use std::path::PathBuf;
use std::process::ExitCode;

struct Args {
    count: usize,
    seed: u64,
    dir: PathBuf,
    target: PathBuf,
    check_only: bool,
}

fn args() -> Result<Args, String> {
    let repo = repo();
    let mut args = Args { count: 50, seed: 1, dir: repo.join("target/scratch/random-specs"), target: repo.join("target/scratch"), check_only: false };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("`{flag}` needs a value"));
        match flag.as_str() {
            "--count" => args.count = value()?.parse().map_err(|e| format!("--count: {e}"))?,
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--dir" => args.dir = PathBuf::from(value()?),
            "--target" => args.target = PathBuf::from(value()?),
            "--check-only" => args.check_only = true,
            other => return Err(format!("unknown argument `{other}`; see the docs at the top of specgen/src/bin/random-specs.rs")),
        }
    }
    Ok(args)
}

/// The repository root: this crate sits one level below it.
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("specgen/ has a parent").to_path_buf()
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let _ = std::fs::remove_dir_all(&args.dir);
    std::fs::create_dir_all(&args.dir).expect("create the scratch directory");
    let seeds: Vec<u64> = (args.seed..args.seed + args.count as u64).collect();
    let sources: Vec<platform_specgen::harness::Source> = seeds.iter().map(|s| platform_specgen::harness::Source::Seed(*s)).collect();
    println!("{} random specs (seeds {}..={}) in {}", seeds.len(), seeds[0], seeds[seeds.len() - 1], args.dir.display());
    if args.check_only {
        let started = std::time::Instant::now();
        platform_specgen::harness::prepare(&args.dir, &sources);
        println!("write, check and generate: {:.1} s", started.elapsed().as_secs_f64());
        let _ = std::fs::remove_dir_all(&args.dir);
        return ExitCode::SUCCESS;
    }
    let result = platform_specgen::harness::run(&args.dir, &args.target, &repo(), &sources);
    match result {
        Ok(f) => {
            println!("generate (write, check, emit): {:.1} s", f.generate.as_secs_f64());
            println!("cargo build of {} crates ({} lines of Rust): {:.1} s", f.crates, f.rust_lines, f.build.as_secs_f64());
            println!("C and C++ headers (5 compiles per spec): {:.1} s", f.headers.as_secs_f64());
            println!("artifacts of the generated crates, removed after the build: {} MiB", f.artifacts / (1 << 20));
            let _ = std::fs::remove_dir_all(&args.dir);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            eprintln!("the scratch workspace is kept in {}", args.dir.display());
            ExitCode::from(1)
        }
    }
}
