//! Writes the seed corpus of a target into a directory: for `load_spec` every seed spec as an
//! archive, for `import_openapi` every seed document up to [`seeds::MAX_SEED`] bytes as text (the real
//! documents are megabytes: the structure-aware inputs take slices of them from the repository),
//! and for both the inputs kept under `fuzz/corpus/<target>/` and `fuzz/crashes/<target>/`.
//!
//! ```text
//! cargo run -p platform-fuzz --bin seed_corpus -- load_spec target/fuzz/seeds/load_spec
//! ```

use platform_fuzz::{archive, seeds};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, out] = args.as_slice() else {
        eprintln!("usage: seed_corpus TARGET OUT_DIR");
        return ExitCode::from(2);
    };
    let seeds: Vec<(String, Vec<u8>)> = match target.as_str() {
        "load_spec" => seeds::all().iter().map(|s| (s.name.clone(), archive::pack(&s.files))).collect(),
        "import_openapi" => {
            seeds::documents().iter().filter(|d| d.text.len() <= seeds::MAX_SEED).map(|d| (d.name.clone(), archive::document(&d.name, &d.text))).collect()
        }
        _ => {
            eprintln!("error: unknown target `{target}` (known: load_spec, import_openapi)");
            return ExitCode::from(2);
        }
    };
    let out = Path::new(out);
    std::fs::create_dir_all(out).expect("the output directory can be created");
    let mut count = 0;
    for (name, bytes) in seeds {
        let name = name.replace('/', "_");
        std::fs::write(out.join(format!("seed_{name}")), bytes).expect("writable output directory");
        count += 1;
    }
    for kept in ["corpus", "crashes"] {
        for path in files(&seeds::repository().join("fuzz").join(kept).join(target)) {
            let name = path.file_name().expect("BUG: listed files have names").to_string_lossy();
            std::fs::copy(&path, out.join(format!("{kept}_{name}"))).expect("readable kept input");
            count += 1;
        }
    }
    println!("{count} seeds in {}", out.display());
    ExitCode::SUCCESS
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries.map(|e| e.expect("readable").path()).filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md")).collect();
    out.sort();
    out
}
