//! The `platform-codegen` command line.
use std::process::ExitCode;
fn main() -> ExitCode {
    let mut cx = platform_codegen::diag::Diagnostics::new();
    let mut sources = platform_codegen::diag::Sources::default();
    let dir = std::env::args().nth(2).unwrap_or_else(|| "spec".into());
    match platform_codegen::load::load(&mut cx, &mut sources, std::path::Path::new(&dir), "spec") {
        Err(e) => { eprintln!("error: {e}"); let _ = cx.finish(); ExitCode::from(2) }
        Ok(_) => match cx.finish() {
            Ok(_) => ExitCode::SUCCESS,
            Err(d) => { eprint!("{}", platform_codegen::diag::render_text(&sources, &d, false)); ExitCode::from(1) }
        },
    }
}
