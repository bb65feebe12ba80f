//! Prints what a target makes of a fuzz input: the spec files (as an archive) for `load_spec`,
//! the document for `import_openapi`, so that a finding can be read and replayed by hand.
//!
//! ```text
//! cargo run -p platform-fuzz --bin show_input -- import_openapi fuzz/crashes/import_openapi/<name> > doc.yaml
//! ```

use platform_fuzz::{archive, input};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, path] = args.as_slice() else {
        eprintln!("usage: show_input TARGET INPUT_FILE");
        return ExitCode::from(2);
    };
    let data = match std::fs::read(path) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("error: cannot read `{path}`: {e}");
            return ExitCode::from(2);
        }
    };
    let shown = match target.as_str() {
        "load_spec" => archive::pack(&input::spec_files(&data)),
        "import_openapi" => input::document_text(&data).into_bytes(),
        _ => {
            eprintln!("error: unknown target `{target}` (known: load_spec, import_openapi)");
            return ExitCode::from(2);
        }
    };
    std::io::stdout().write_all(&shown).expect("stdout is writable");
    ExitCode::SUCCESS
}
