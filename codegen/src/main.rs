//! The `platform-codegen` command line: `check`, `dump [--as-of]`, `coverage`,
//! `generate [--check] [--as-of]`, `diff`, `rules`, `mock [--listen ADDR]`,
//! `import openapi FILE --out DIR`.

use clap::{Parser, Subcommand, ValueEnum};
use platform_codegen::diag::{self, Diagnostic, Sources};
use platform_codegen::diff::{self, DiffOptions, Sides};
use platform_codegen::emit::{EmitOptions, emit_all, emit_published};
use platform_codegen::files::{self, Mode};
use platform_codegen::model::coverage::coverage;
use platform_codegen::model::project::{At, project};
use platform_codegen::{LoadError, Loaded, load_spec, load_spec_texts};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Generates every artifact of the platform from its spec.
#[derive(Parser)]
#[command(name = "platform-codegen", version)]
struct Cli {
    /// The spec directory.
    #[arg(long, global = true, default_value = "spec")]
    spec: PathBuf,
    /// The output directory (default `generated`; the spec directory to write for `import`).
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
    Dump {
        /// The platform as it is on this day (YYYY-MM-DD): items not yet introduced or already
        /// removed are absent, dated variants resolved.
        #[arg(long, value_name = "DATE")]
        as_of: Option<String>,
    },
    /// List what the source does not show (gaps) and what the spec assumed, per part.
    Coverage,
    /// Regenerate everything under the output directory.
    Generate {
        /// Write nothing; exit 1 listing stale, missing and orphan files.
        #[arg(long)]
        check: bool,
        /// Generate only the docs, changelog feeds and OpenAPI document of the platform as it
        /// is on this day (YYYY-MM-DD), into `--out` (which must not be `generated`).
        #[arg(long, value_name = "DATE")]
        as_of: Option<String>,
    },
    /// What the build script of a generated crate runs: regenerate the output directory that
    /// holds the crate at CRATE_DIR, when its workspace names that directory.
    #[command(hide = true)]
    BuildScript {
        /// The generated crate's manifest directory.
        crate_dir: PathBuf,
    },
    /// List every difference between two specs; exit 1 when a breaking one is not announced by
    /// a change entry of the new spec (2 when a spec cannot be loaded).
    Diff {
        /// The old spec: a directory, a git revision of the `--spec` directory (`HEAD~1`), or
        /// `REV:DIR`.
        #[arg(required_unless_present = "against")]
        old: Option<String>,
        /// The new spec, written like OLD (default: `--spec`).
        new: Option<String>,
        /// Compare `--spec` with itself at this git revision (`--against HEAD~1`).
        #[arg(long, value_name = "REV", conflicts_with = "old")]
        against: Option<String>,
        /// The day the check runs on (YYYY-MM-DD): entries dated up to it are history, and a
        /// new entry dated before it is retroactive. The clock is never read.
        #[arg(long, value_name = "DATE")]
        today: Option<String>,
    },
    /// Print the catalogue of `diff` rules.
    Rules,
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
    match &cli.command {
        // The spec and output directories come from the crate's workspace, not from the flags.
        Command::BuildScript { crate_dir } => {
            platform_codegen::build::regenerate(crate_dir);
            return ExitCode::SUCCESS;
        }
        Command::Diff { old, new, against, today } => return run_diff(&cli, old.as_deref(), new.as_deref(), against.as_deref(), today.as_deref()),
        Command::Rules => return print_rules(&cli),
        Command::Import { source: ImportSource::Openapi { file } } => return import_openapi(&cli, file),
        _ => {}
    }
    let loaded = match load(&cli) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    report(&cli, &loaded.sources, &loaded.warnings);
    match &cli.command {
        Command::Check => ExitCode::SUCCESS,
        Command::Dump { as_of } => {
            let model = match as_of.as_deref().map(parse_day).transpose() {
                Ok(Some(day)) => project(&loaded.model, At::Date(day)),
                Ok(None) => loaded.model,
                Err(code) => return code,
            };
            println!("{}", serde_json::to_string_pretty(&model).expect("BUG: the model always serializes"));
            ExitCode::SUCCESS
        }
        Command::Coverage => print_coverage(&cli, &loaded),
        Command::Generate { check, as_of: None } => generate(&cli, &loaded, *check),
        Command::Generate { check, as_of: Some(day) } => generate_as_of(&cli, &loaded, *check, day),
        Command::Mock { listen } => mock(&cli, &loaded, listen),
        Command::BuildScript { .. } | Command::Diff { .. } | Command::Rules | Command::Import { .. } => {
            unreachable!("BUG: handled above")
        }
    }
}

/// A `YYYY-MM-DD` argument; exit code 2 when it is not one.
fn parse_day(text: &str) -> Result<jiff::civil::Date, ExitCode> {
    text.parse().map_err(|e| {
        eprintln!("error: `{text}` is not a date (YYYY-MM-DD): {e}");
        ExitCode::from(2)
    })
}

/// The output directory: `--out`, else `generated`.
fn out_dir(cli: &Cli) -> PathBuf {
    cli.out.clone().unwrap_or_else(|| PathBuf::from("generated"))
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
    let layout = match platform_codegen::workspace::layout_for(&out_dir(cli)) {
        Ok(layout) => layout,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let generated = emit_all(&loaded.model, &EmitOptions::default().with_layout(layout));
    sync(cli, &generated, check, "cargo run -p platform-codegen -- generate")
}

/// The docs, feeds and OpenAPI document of one day, into their own directory: the whole tree
/// under `generated/` describes the whole timeline, and `sync` removes what it did not write.
fn generate_as_of(cli: &Cli, loaded: &Loaded, check: bool, day: &str) -> ExitCode {
    let day = match parse_day(day) {
        Ok(day) => day,
        Err(code) => return code,
    };
    let Some(out) = cli.out.as_ref().filter(|o| o.as_path() != Path::new("generated")) else {
        eprintln!("error: `generate --as-of` writes the docs and OpenAPI of one day, not the whole tree; give `--out DIR` (not `generated`)");
        return ExitCode::from(2);
    };
    let command = format!("cargo run -p platform-codegen -- --out {} generate --as-of {day}", out.display());
    let opts = EmitOptions::default().with_regenerate_command(command.clone());
    let generated = emit_published(&project(&loaded.model, At::Date(day)), &opts);
    sync(cli, &generated, check, &command)
}

fn sync(cli: &Cli, generated: &[platform_codegen::emit::GeneratedFile], check: bool, command: &str) -> ExitCode {
    let mode = if check { Mode::Check } else { Mode::Write };
    let out_dir = out_dir(cli);
    let report = match files::sync(&out_dir, generated, mode) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for line in report.summary(generated, mode) {
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
    let out = out_dir.display();
    for (what, list) in [("stale", &report.stale), ("missing", &report.missing), ("orphan", &report.orphans)] {
        for path in list {
            eprintln!("{what}: {out}/{path}");
        }
    }
    eprintln!("error: `{out}` does not match the spec; run `{command}` and commit the result");
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
    use platform_codegen::emit::workspace::{WorkspaceOptions, mock_runner_package, workspace};
    let out = cli.out.clone().unwrap_or_else(|| PathBuf::from("target/platform-mock"));
    let options = WorkspaceOptions { members: Vec::new(), mock_runner: true };
    let files = workspace(&loaded.model, &EmitOptions::default(), &options);
    // The generated workspace is the generator's to keep in step; Cargo's output lives beside it.
    let dir = out.join("workspace");
    if let Err(e) = files::sync(&dir, &files, Mode::Write) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let runner = mock_runner_package(&loaded.model);
    // Cargo's own target directory when the caller names one (scratch builds share one), else
    // one beside the workspace.
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| out.join("target"));
    eprintln!("building the mock server in `{}` (the first build compiles every dependency)", dir.display());
    let built = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .args(["-p", &runner])
        .env("CARGO_TARGET_DIR", &target)
        .status();
    match built {
        Ok(s) if s.success() => {}
        Ok(_) => return ExitCode::from(1),
        Err(e) => {
            eprintln!("error: cannot run cargo: {e}");
            return ExitCode::from(2);
        }
    }
    // Cargo reads a relative target directory from where it runs: here.
    let binary = target.join("debug").join(format!("{runner}{}", std::env::consts::EXE_SUFFIX));
    let mut command = std::process::Command::new(&binary);
    command.arg(listen);
    serve_with(command)
}

/// Runs the mock server in this process's place where the system allows it (a signal sent to
/// `platform-codegen mock` then stops the server itself: nothing is left running), else as a
/// child whose exit status is this one's.
fn serve_with(#[allow(unused_mut)] mut command: std::process::Command) -> ExitCode {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let e = command.exec();
        eprintln!("error: cannot run the mock server: {e}");
        ExitCode::from(2)
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: cannot run the mock server: {e}");
            ExitCode::from(2)
        }
    }
}

/// One side of a diff: a directory, a revision of the `--spec` directory, or `REV:DIR`.
fn side(cli: &Cli, text: &str) -> Result<Loaded, ExitCode> {
    let path = Path::new(text);
    let loaded = if path.is_dir() {
        load_spec(path, text.trim_end_matches('/'))
    } else {
        let (rev, dir) = match text.split_once(':') {
            Some((rev, dir)) if !rev.is_empty() => (rev, PathBuf::from(dir)),
            _ => (text, cli.spec.clone()),
        };
        if !dir.is_dir() {
            eprintln!("error: `{}` is not a directory (the spec directory whose revision `{rev}` is read)", dir.display());
            return Err(ExitCode::from(2));
        }
        let shown = dir.to_string_lossy().trim_end_matches('/').to_string();
        match platform_codegen::load::git::files_at(&dir, rev, &shown) {
            Ok(texts) => load_spec_texts(texts),
            Err(e) => Err(LoadError::Io(e)),
        }
    };
    loaded.map_err(|e| {
        match e {
            LoadError::Io(e) => eprintln!("error: {e}"),
            LoadError::Invalid { sources, diagnostics } => {
                report(cli, &sources, &diagnostics);
                eprintln!("error: the spec `{text}` is invalid; `diff` compares valid specs");
            }
        }
        ExitCode::from(2)
    })
}

fn run_diff(cli: &Cli, old: Option<&str>, new: Option<&str>, against: Option<&str>, today: Option<&str>) -> ExitCode {
    let spec = cli.spec.to_string_lossy().to_string();
    let (old, new) = match against {
        Some(rev) => (rev.to_owned(), spec),
        None => (old.unwrap_or_default().to_owned(), new.map_or(spec, str::to_owned)),
    };
    let mut opts = DiffOptions::default();
    if let Some(day) = today {
        match parse_day(day) {
            Ok(day) => opts = opts.with_today(day),
            Err(code) => return code,
        }
    }
    let (a, b) = match (side(cli, &old), side(cli, &new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let findings = diff::diff(&a.model, &b.model, &opts);
    let sides = Sides { old: &a.sources, new: &b.sources };
    match cli.format {
        Format::Json => {
            for f in &findings {
                println!("{}", diff::to_json(f, sides));
            }
        }
        Format::Text => print!("{}", diff::render_text(&findings, sides, std::io::stdout().is_terminal())),
    }
    if findings.iter().any(diff::Finding::is_uncovered) { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn print_rules(cli: &Cli) -> ExitCode {
    match cli.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(diff::CATALOGUE).expect("BUG: the catalogue serializes")),
        Format::Text => {
            for r in diff::CATALOGUE {
                let mut kinds: Vec<&str> = r.kinds.to_vec();
                if !kinds.contains(&"correction") {
                    kinds.push("correction");
                }
                let kinds = if r.claimable { kinds.join(", ") } else { "(cannot be announced)".into() };
                println!("{:<34} {:<9} {}\n{:<34} announced by: {kinds}", r.id, r.group, r.summary, "");
            }
        }
    }
    ExitCode::SUCCESS
}
