//! The `platform-codegen` command line: `check`, `dump`, `coverage`, `generate [--check]`,
//! `mock [--listen ADDR]`, `import openapi FILE --out DIR`.

use clap::{Parser, Subcommand, ValueEnum};
use platform_codegen::diag::{self, Diagnostic, Sources};
use platform_codegen::emit::{EmitOptions, emit_all};
use platform_codegen::files::{self, Mode};
use platform_codegen::model::coverage::coverage;
use platform_codegen::{LoadError, Loaded, load_spec};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Generates every artifact of the platform from its spec.
#[derive(Parser)]
#[command(name = "platform-codegen", version)]
struct Cli {
    /// The spec directory.
    #[arg(long, global = true, default_value = "spec")]
    spec: PathBuf,
    /// The output directory (`generated` for `generate`; the spec directory to write for `import`).
    #[arg(long, global = true)]
    out: Option<PathBuf>,
    /// Diagnostic and report format.
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate the spec (exit 0 valid, 1 invalid, 2 usage or I/O error).
    Check,
    /// Print the resolved model as JSON.
    Dump,
    /// List what the source does not show (gaps) and what the spec assumed, per part.
    Coverage,
    /// Regenerate everything under the output directory.
    Generate {
        /// Write nothing; exit 1 listing stale, missing and orphan files.
        #[arg(long)]
        check: bool,
    },
    /// Run the spec's mock server: generate its crates into a workspace under `--out` (default
    /// `target/platform-mock`), then build and serve the server crate's `mock` implementation.
    Mock {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
    },
    /// Write a spec from a document in another format (`import openapi FILE --out DIR`).
    Import {
        #[command(subcommand)]
        source: ImportSource,
    },
}

#[derive(Subcommand)]
enum ImportSource {
    /// An OpenAPI 3.0 or 3.1 document, JSON or YAML. The spec files are written to `--out`
    /// (which then holds exactly them: other files there are removed), and checked.
    Openapi {
        /// The document.
        file: PathBuf,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Import { source: ImportSource::Openapi { file } } = &cli.command {
        return import_openapi(&cli, file);
    }
    let loaded = match load(&cli) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    report(&cli, &loaded.sources, &loaded.warnings);
    match cli.command {
        Command::Check => ExitCode::SUCCESS,
        Command::Dump => {
            println!("{}", serde_json::to_string_pretty(&loaded.model).expect("BUG: the model always serializes"));
            ExitCode::SUCCESS
        }
        Command::Coverage => print_coverage(&cli, &loaded),
        Command::Generate { check } => generate(&cli, &loaded, check),
        Command::Mock { ref listen } => mock(&cli, &loaded, listen),
        Command::Import { .. } => unreachable!("BUG: import returns before loading a spec"),
    }
}

fn load(cli: &Cli) -> Result<Loaded, ExitCode> {
    let shown = cli.spec.to_string_lossy().trim_end_matches('/').to_string();
    match load_spec(&cli.spec, &shown) {
        Ok(loaded) => Ok(loaded),
        Err(LoadError::Io(e)) => {
            eprintln!("error: {e}");
            Err(ExitCode::from(2))
        }
        Err(LoadError::Invalid { sources, diagnostics }) => {
            report(cli, &sources, &diagnostics);
            Err(ExitCode::from(1))
        }
    }
}

fn report(cli: &Cli, sources: &Sources, diagnostics: &[Diagnostic]) {
    if diagnostics.is_empty() {
        return;
    }
    match cli.format {
        Format::Json => {
            for d in diagnostics {
                println!("{}", diag::to_json(sources, d));
            }
        }
        Format::Text => eprint!("{}", diag::render_text(sources, diagnostics, std::io::stderr().is_terminal())),
    }
}

fn print_coverage(cli: &Cli, loaded: &Loaded) -> ExitCode {
    let cov = coverage(&loaded.model);
    if cli.format == Format::Json {
        let by_part: Vec<_> = cov
            .by_part(&loaded.model)
            .into_iter()
            .map(|(part, gaps, assumptions)| serde_json::json!({ "part": part, "gaps": gaps, "assumptions": assumptions }))
            .collect();
        let doc = serde_json::json!({ "parts": by_part, "gaps": cov.gaps, "assumptions": cov.assumptions });
        println!("{}", serde_json::to_string_pretty(&doc).expect("BUG: coverage serializes"));
        return ExitCode::SUCCESS;
    }
    for (part, gaps, assumptions) in cov.by_part(&loaded.model) {
        println!("{part}: {gaps} not shown, {assumptions} assumed");
        for e in cov.gaps.iter().filter(|e| e.part == part) {
            println!("  not shown  {} [{}]{}", e.item, e.facet, e.text.as_ref().map(|t| format!(": {t}")).unwrap_or_default());
        }
        for e in cov.assumptions.iter().filter(|e| e.part == part) {
            println!("  assumed    {} [{}]: {}", e.item, e.facet, e.text.as_deref().unwrap_or(""));
        }
    }
    println!("total: {} not shown, {} assumed", cov.gaps.len(), cov.assumptions.len());
    ExitCode::SUCCESS
}

fn generate(cli: &Cli, loaded: &Loaded, check: bool) -> ExitCode {
    let generated = emit_all(&loaded.model, &EmitOptions::default());
    let mode = if check { Mode::Check } else { Mode::Write };
    let out = cli.out.clone().unwrap_or_else(|| PathBuf::from("generated"));
    let report = match files::sync(&out, &generated, mode) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for line in report.summary(&generated, mode) {
        println!("{line}");
    }
    if mode == Mode::Write {
        if !report.orphans.is_empty() {
            println!("removed {} orphan file(s)", report.orphans.len());
        }
        return ExitCode::SUCCESS;
    }
    if report.is_clean() {
        return ExitCode::SUCCESS;
    }
    let out = out.display();
    for (what, list) in [("stale", &report.stale), ("missing", &report.missing), ("orphan", &report.orphans)] {
        for path in list {
            eprintln!("{what}: {out}/{path}");
        }
    }
    eprintln!("error: `{out}` does not match the spec; run `cargo run -p platform-codegen -- generate` and commit the result");
    ExitCode::from(1)
}

/// `import openapi FILE --out DIR`: writes the spec, reports every construct not imported, then
/// checks what it wrote like `check` does.
fn import_openapi(cli: &Cli, file: &std::path::Path) -> ExitCode {
    let Some(out) = &cli.out else {
        eprintln!("error: `import` needs `--out DIR`, the spec directory to write");
        return ExitCode::from(2);
    };
    let shown = file.to_string_lossy().into_owned();
    let imported = match platform_codegen::import::import_openapi(file, &shown) {
        Ok(imported) => imported,
        Err(platform_codegen::import::ImportError::Io(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
        Err(platform_codegen::import::ImportError::Invalid { sources, diagnostics }) => {
            report(cli, &sources, &diagnostics);
            return ExitCode::from(1);
        }
    };
    report(cli, &imported.sources, &imported.warnings);
    let written = match files::sync(out, &imported.files, Mode::Write) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for line in written.summary(&imported.files, Mode::Write) {
        eprintln!("{line}");
    }
    let shown_out = out.to_string_lossy().trim_end_matches('/').to_string();
    match load_spec(out, &shown_out) {
        Ok(loaded) => {
            report(cli, &loaded.sources, &loaded.warnings);
            let m = &loaded.model;
            eprintln!(
                "imported {} endpoints, {} resources, {} enums and {} unions into `{shown_out}`; {} construct{} not imported (listed above, and by `coverage`)",
                m.endpoints.len(),
                m.resources.len(),
                m.enums.len(),
                m.unions.len(),
                imported.warnings.len(),
                if imported.warnings.len() == 1 { "" } else { "s" }
            );
            ExitCode::SUCCESS
        }
        Err(LoadError::Io(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(LoadError::Invalid { sources, diagnostics }) => {
            report(cli, &sources, &diagnostics);
            eprintln!("error: the imported spec does not pass `check`; this is a bug of the importer");
            ExitCode::from(1)
        }
    }
}

/// `mock`: writes a workspace of the spec's crates with a runner, then runs it with Cargo.
fn mock(cli: &Cli, loaded: &Loaded, listen: &str) -> ExitCode {
    use platform_codegen::emit::workspace::{WorkspaceOptions, workspace};
    let out = cli.out.clone().unwrap_or_else(|| PathBuf::from("target/platform-mock"));
    let options = WorkspaceOptions { codegen_path: env!("CARGO_MANIFEST_DIR").to_owned(), members: Vec::new(), mock_runner: true };
    let files = workspace(&loaded.model, &EmitOptions::default(), &options);
    // The generated workspace is the generator's to keep in step; Cargo's output lives beside it.
    let dir = out.join("workspace");
    if let Err(e) = files::sync(&dir, &files, Mode::Write) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let runner = files
        .iter()
        .find(|f| f.path == "mock-server/Cargo.toml")
        .and_then(|f| f.contents.lines().find_map(|l| l.strip_prefix("name = ")).map(|n| n.trim_matches('"').to_owned()))
        .expect("BUG: the workspace has the mock runner");
    eprintln!("building the mock server in `{}` (the first build compiles every dependency)", dir.display());
    let status = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .args(["-p", &runner, "--", listen])
        .env("CARGO_TARGET_DIR", out.join("target"))
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: cannot run cargo: {e}");
            ExitCode::from(2)
        }
    }
}
