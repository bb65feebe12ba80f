//! The `platform-codegen` command line: `check`, `dump`, `coverage`, `generate [--check]`.

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
    /// The output directory.
    #[arg(long, global = true, default_value = "generated")]
    out: PathBuf,
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
    /// What the build script of a generated crate runs: regenerate the output directory that
    /// holds the crate at CRATE_DIR, when its workspace names that directory.
    #[command(hide = true)]
    BuildScript {
        /// The generated crate's manifest directory.
        crate_dir: PathBuf,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::BuildScript { crate_dir } = &cli.command {
        // The spec and output directories come from the crate's workspace, not from the flags.
        platform_codegen::build::regenerate(crate_dir);
        return ExitCode::SUCCESS;
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
        Command::BuildScript { .. } => unreachable!("BUG: handled before loading"),
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
    let layout = match platform_codegen::workspace::layout_for(&cli.out) {
        Ok(layout) => layout,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let generated = emit_all(&loaded.model, &EmitOptions::default().with_layout(layout));
    let mode = if check { Mode::Check } else { Mode::Write };
    let report = match files::sync(&cli.out, &generated, mode) {
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
    let out = cli.out.display();
    for (what, list) in [("stale", &report.stale), ("missing", &report.missing), ("orphan", &report.orphans)] {
        for path in list {
            eprintln!("{what}: {out}/{path}");
        }
    }
    eprintln!("error: `{out}` does not match the spec; run `cargo run -p platform-codegen -- generate` and commit the result");
    ExitCode::from(1)
}
