//! Generates the crates of many specs into one scratch workspace, builds it with warnings
//! denied, and compiles every C and C++ header with strict warnings as errors.
//!
//! Scratch builds share one target directory (by convention `target/scratch` of this
//! repository), so dependencies are compiled once; the scratch sources live in a directory the
//! caller removes. Builds run with `--offline` and a lock file seeded from this repository's,
//! so they resolve to the versions the workspace already uses.

use crate::Generated;
use platform_codegen::emit::{EmitOptions, Layout, emit_all};
use platform_codegen::files::{Mode, sync};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// C compiler flags the headers must pass: every warning an error.
pub const C_STRICT: &[&str] = &[
    "-Wall",
    "-Wextra",
    "-Wpedantic",
    "-Werror",
    "-Wstrict-prototypes",
    "-Wmissing-prototypes",
    "-Wshadow",
    "-Wconversion",
    "-Wsign-conversion",
    "-Wcast-qual",
    "-Wundef",
    "-g",
];

/// C++ compiler flags the headers must pass.
pub const CXX_STRICT: &[&str] = &[
    "-Wall",
    "-Wextra",
    "-Wpedantic",
    "-Werror",
    "-Wshadow",
    "-Wconversion",
    "-Wsign-conversion",
    "-Wold-style-cast",
    "-Wcast-qual",
    "-Wnon-virtual-dtor",
    "-Woverloaded-virtual",
    "-Wundef",
    "-g",
];

/// Flags of every scratch build: warnings are errors in generated code.
pub const RUSTFLAGS: &str = "-D warnings";

/// What one member of a batch is generated from.
#[derive(Clone, Debug)]
pub enum Source {
    /// The random spec of a seed.
    Seed(u64),
    /// A spec directory (a fixture).
    Spec(PathBuf),
}

/// One spec of a batch: where it was written and generated.
#[derive(Debug)]
pub struct Member {
    /// The seed or the spec directory, for messages.
    pub what: String,
    /// The spec directory.
    pub spec: PathBuf,
    /// The output directory (crates, headers, docs).
    pub out: PathBuf,
    /// The C header and the C++ header, by file name.
    pub headers: (String, String),
    /// The package names of its generated crates.
    pub packages: Vec<String>,
}

/// Writes the random specs of `sources` under `root/spec<i>` and makes them valid, loads the
/// others where they are, and generates each into `root/out<i>` as members of a workspace rooted
/// at `root`.
pub fn prepare(root: &Path, sources: &[Source]) -> Vec<Member> {
    sources
        .iter()
        .enumerate()
        .map(|(i, source)| {
            let out = root.join(format!("out{i}"));
            let (what, spec, loaded) = match source {
                Source::Seed(seed) => {
                    let spec = root.join(format!("spec{i}"));
                    let loaded = Generated::new(*seed, i).make_valid(&spec);
                    (format!("seed {seed}"), spec, loaded)
                }
                Source::Spec(dir) => (dir.display().to_string(), dir.clone(), load(dir)),
            };
            generate(&loaded.model, &out);
            let p = &loaded.model.platform.prefixes;
            let packages = platform_codegen::emit::cargo::CRATES.iter().map(|c| package_name(&out.join(c).join("Cargo.toml"))).collect();
            Member { what, spec, out, headers: (p.c_header.clone(), p.cpp_header.clone()), packages }
        })
        .collect()
}

/// A valid spec directory, loaded; panics with the diagnostics otherwise.
fn load(dir: &Path) -> platform_codegen::Loaded {
    match platform_codegen::load_spec(dir, "spec") {
        Ok(loaded) => loaded,
        Err(platform_codegen::LoadError::Invalid { sources, diagnostics }) => {
            panic!("{} is invalid:\n{}", dir.display(), platform_codegen::diag::render_text(&sources, &diagnostics, false))
        }
        Err(platform_codegen::LoadError::Io(e)) => panic!("cannot read {}: {e}", dir.display()),
    }
}

/// The generated crates of a model in `out`, without the standalone workspace root (the
/// scratch workspace lists them instead).
pub fn generate(model: &platform_codegen::model::Model, out: &Path) {
    let files: Vec<_> = emit_all(model, &EmitOptions::default().with_layout(Layout::Standalone))
        .into_iter()
        .filter(|f| f.artifact != platform_codegen::emit::cargo::ARTIFACT)
        .collect();
    sync(out, &files, Mode::Write).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}

/// The `name` of the `[package]` a generated manifest declares.
fn package_name(manifest: &Path) -> String {
    let text = std::fs::read_to_string(manifest).unwrap_or_else(|e| panic!("cannot read {}: {e}", manifest.display()));
    let package = text.split("\n[").find(|t| t.starts_with("package]")).unwrap_or_else(|| panic!("{} has no [package]", manifest.display()));
    let name = package.lines().find_map(|l| l.strip_prefix("name = ")).unwrap_or_else(|| panic!("{} names no package", manifest.display()));
    name.trim_matches('"').to_owned()
}

/// The workspace root listing every generated crate of `members`, with this repository's lock
/// file beside it.
pub fn write_workspace(root: &Path, members: &[Member], repo: &Path) {
    write_workspace_with(root, members, repo, &[]);
}

/// [`write_workspace`], with more members (directories under `root`).
pub fn write_workspace_with(root: &Path, members: &[Member], repo: &Path, more: &[&str]) {
    let generated = members.iter().flat_map(|m| platform_codegen::emit::cargo::CRATES.iter().map(move |c| format!("{}/{c}", relative(root, &m.out))));
    let list: Vec<String> = generated.chain(more.iter().map(|d| (*d).to_owned())).map(|d| format!("  \"{d}\",")).collect();
    let manifest = format!("[workspace]\nresolver = \"3\"\nmembers = [\n{}\n]\n", list.join("\n"));
    std::fs::write(root.join("Cargo.toml"), manifest).expect("write the scratch workspace manifest");
    seed_lock(root, repo);
}

/// Copies this repository's lock file, so a scratch build resolves to the versions the
/// workspace already uses (and compiled dependencies are shared between runs).
///
/// Scratch builds run offline, and Cargo reads every package of a lock file for some commands
/// (`cargo metadata`, `cargo package`), those of other targets too, which a build of this
/// workspace never downloads. So the first seeding in a process fetches every package of the
/// lock (`cargo fetch --locked`, nothing when all are in the Cargo home already): what the
/// scratch builds need never depends on what happens to be cached.
pub fn seed_lock(root: &Path, repo: &Path) {
    let lock = repo.join("Cargo.lock");
    if lock.is_file() {
        fetch_locked(repo);
        std::fs::copy(&lock, root.join("Cargo.lock")).expect("copy Cargo.lock");
    }
}

/// `cargo fetch --locked` in `repo`, once per process; panics with Cargo's words when it fails.
pub fn fetch_locked(repo: &Path) {
    static FETCHED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let result = FETCHED.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo).args(["fetch", "--locked"]).current_dir(repo).output().map_err(|e| format!("cargo does not run: {e}"))?;
        if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
    });
    if let Err(why) = result {
        panic!("scratch builds run offline against {}'s lock file, and `cargo fetch --locked` could not bring its packages:\n{why}", repo.display());
    }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

/// `cargo <args>` in `dir`, offline, with the scratch target directory and warnings denied.
///
/// Scratch builds are compiled to be judged, not debugged: no debug info and no incremental
/// caches, which would otherwise make most of what they write. Every scratch build sets the
/// same, so they share one compiled copy of each dependency. Their build scripts do what they
/// do for a user: the test command's switch that keeps the workspace's own from regenerating
/// is not passed on.
pub fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Output {
    cargo_with(dir, target, args, &[])
}

/// [`cargo`] with more environment variables (the rustdoc that writes JSON, for the semver oracle).
pub fn cargo_with(dir: &Path, target: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // `--offline` right after the subcommand, before any `--` that passes the rest on.
    let (command, rest) = args.split_first().expect("a cargo subcommand");
    let mut cmd = Command::new(cargo);
    cmd.arg(command).arg("--offline").args(rest).envs(env.iter().copied()).current_dir(dir);
    scratch_settings(&mut cmd, target).output().expect("cargo runs")
}

/// The settings every scratch build runs Cargo with (the target directory, warnings denied, no
/// debug info, no incremental caches, the build scripts free to regenerate), for a command
/// that runs Cargo itself (`platform-codegen mock`): the same settings, so the same compiled
/// dependencies.
pub fn scratch_settings<'c>(cmd: &'c mut Command, target: &Path) -> &'c mut Command {
    cmd.env("CARGO_TARGET_DIR", target)
        .env("RUSTFLAGS", RUSTFLAGS)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_INCREMENTAL", "0")
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_PROFILE_DEV_BUILD_OVERRIDE_DEBUG", "false")
        .env_remove(platform_codegen::emit::cargo::NO_REGENERATE_ENV)
}

/// A cargo build that is also the clippy run: clippy-driver compiles the workspace's own crates
/// as their wrapper (which is how `cargo clippy` runs it), with `-D warnings`. Each generated
/// crate then compiles once, linted on the way, instead of once for the build and once more for
/// `cargo clippy`. Dependencies compile as in any build.
pub struct Clippy {
    /// `build.rustc-workspace-wrapper="<clippy-driver>"`, for `--config`.
    pub config: String,
}

impl Clippy {
    /// The lints' arguments as clippy-driver reads them (what `cargo clippy -- -D warnings`
    /// passes it).
    pub const ARGS: (&str, &str) = ("CLIPPY_ARGS", "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");

    /// The clippy-driver of the toolchain that runs the tests.
    pub fn new() -> Self {
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let out = Command::new(rustc).args(["--print", "sysroot"]).output().expect("rustc runs");
        let sysroot = String::from_utf8(out.stdout).expect("a UTF-8 sysroot");
        let driver = Path::new(sysroot.trim()).join("bin").join("clippy-driver");
        assert!(driver.is_file(), "{} is missing: `rustup component add clippy`", driver.display());
        Self { config: format!("build.rustc-workspace-wrapper={:?}", driver.display().to_string()) }
    }

    /// The `--config` arguments of the wrapper when running under the test command, whose build
    /// of this workspace uses it (`CLIPPY_ARGS` set, as `cargo clippy` sets it): a nested `cargo
    /// build` of the workspace passes them, or Cargo compiles its crates again without it. None
    /// otherwise.
    pub fn inherited_args() -> Vec<String> {
        match std::env::var_os(Self::ARGS.0) {
            Some(_) => vec!["--config".to_owned(), Self::new().config],
            None => Vec::new(),
        }
    }

    /// Cargo, offline, in `dir`, building into `target` with clippy-driver as the wrapper of the
    /// workspace's crates and warnings denied (what `cargo clippy -- -D warnings` checks, in the
    /// same build), without incremental state and with the generated crates' build scripts free
    /// to regenerate. `args` starts with the subcommand.
    pub fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Command {
        let (command, rest) = args.split_first().expect("a cargo subcommand");
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.args([command, "--offline", "--config", &Self::new().config]).args(rest).current_dir(dir);
        cmd.env(Self::ARGS.0, Self::ARGS.1).env("CARGO_TARGET_DIR", target).env("CARGO_INCREMENTAL", "0");
        cmd.env_remove(platform_codegen::emit::cargo::NO_REGENERATE_ENV);
        cmd
    }
}

impl Default for Clippy {
    fn default() -> Self {
        Self::new()
    }
}

/// The target directory a test binary was built in (it lives in `target/<profile>/deps/`).
pub fn test_target() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.ancestors().nth(3).expect("BUG: a test binary lives in target/<profile>/deps").to_path_buf()
}

/// The scratch target directory of a test binary: `target/scratch` beside the test's own
/// `target/<profile>`, wherever the target directory is.
pub fn test_scratch_target() -> PathBuf {
    test_target().join("scratch")
}

/// Removes what the builds of `members` left in the `dev` profile of `target`: their compiled
/// libraries (hashed `libx_types-<hash>.rlib`, and the SDK's unhashed `libx_sdk.so`, `.a` and
/// `.rlib`, in `deps/` and uplifted beside it), dependency files and fingerprints. They are
/// never reused (each batch has its own sources), while the shared dependencies stay.
pub fn remove_artifacts(target: &Path, members: &[Member]) -> std::io::Result<u64> {
    let mut stems = Vec::new();
    for package in members.iter().flat_map(|m| &m.packages) {
        let lib = package.replace('-', "_");
        stems.extend([package.clone(), format!("lib{lib}"), lib]);
    }
    let ours = |name: &str| stems.iter().any(|s| name.strip_prefix(s.as_str()).is_some_and(|rest| rest.starts_with(['-', '.'])));
    let mut freed = 0;
    for dir in ["", "deps", ".fingerprint", "build", "incremental"] {
        let Ok(entries) = std::fs::read_dir(target.join("debug").join(dir)) else { continue };
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !ours(&name) {
                continue;
            }
            let path = entry.path();
            freed += size(&path);
            if entry.file_type()?.is_dir() { std::fs::remove_dir_all(&path)? } else { std::fs::remove_file(&path)? }
        }
    }
    Ok(freed)
}

/// Bytes under `path`.
fn size(path: &Path) -> u64 {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::read_dir(path).into_iter().flatten().flatten().map(|e| size(&e.path())).sum(),
        Ok(m) => m.len(),
        Err(_) => 0,
    }
}

/// What a batch cost.
#[derive(Debug, Default)]
pub struct Figures {
    /// Writing, checking and generating every spec.
    pub generate: Duration,
    /// `cargo build` of the scratch workspace.
    pub build: Duration,
    /// Compiling the headers.
    pub headers: Duration,
    /// Lines of generated Rust.
    pub rust_lines: usize,
    /// Generated crates built.
    pub crates: usize,
    /// Bytes the generated crates' own artifacts took in the target directory (removed after
    /// the build).
    pub artifacts: u64,
}

/// Prepares, builds and compiles the headers of `sources` under `root`; returns the figures, or
/// every failure with its source and output.
pub fn run(root: &Path, target: &Path, repo: &Path, sources: &[Source]) -> Result<Figures, String> {
    let mut figures = Figures::default();
    let started = Instant::now();
    let members = prepare(root, sources);
    write_probe(root, &members);
    write_workspace_with(root, &members, repo, &[PROBE]);
    figures.generate = started.elapsed();
    figures.crates = members.len() * platform_codegen::emit::cargo::CRATES.len();
    figures.rust_lines = members.iter().map(|m| rust_lines(&m.out)).sum();

    let started = Instant::now();
    // Every feature that adds generated code (the webhook receivers and senders), so the
    // build sees all of it; the mock is built by the tests that serve it.
    let features = generated_features(&members);
    // Clippy lints the build, as a platform team runs it on the crates it generates: the lints
    // see what the compiler's warnings do not (doc lists, large variants, needless borrows).
    let wrapper = Clippy::new();
    let mut args = vec!["build", "--workspace", "--keep-going", "--config", wrapper.config.as_str()];
    if !features.is_empty() {
        args.extend(["--features", features.as_str()]);
    }
    let out = cargo_with(root, target, &args, &[Clippy::ARGS]);
    let built = out.status.success();
    figures.build = started.elapsed();
    let mut failures = Vec::new();
    let list: Vec<String> = members.iter().map(|m| format!("{} = {}", relative(root, &m.out), m.what)).collect();
    if !out.status.success() {
        failures.push(format!(
            "cargo build (with clippy -D warnings) of the generated crates failed ({}):\n{}",
            list.join(", "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    // The workspace build turns on the types crates' `server` feature (the servers ask for it);
    // a client alone builds them without it.
    let clients = client_packages(&members);
    let mut args = vec!["check", "--keep-going"];
    args.extend(clients.iter().map(String::as_str));
    let out = cargo(root, target, &args);
    if !out.status.success() {
        failures.push(format!("cargo check of the clients alone (the types crates without `server`) failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }

    if built {
        failures.extend(run_probe(target).err());
    }

    let started = Instant::now();
    for m in &members {
        if let Err(e) = compile_headers(m) {
            failures.push(format!("the headers of {} do not compile:\n{e}", m.what));
        }
    }
    figures.headers = started.elapsed();
    match remove_artifacts(target, &members) {
        Ok(bytes) => figures.artifacts = bytes,
        Err(e) => failures.push(format!("cannot remove the generated crates' artifacts from {}: {e}", target.display())),
    }
    if failures.is_empty() { Ok(figures) } else { Err(failures.join("\n\n")) }
}

/// The scratch workspace's member that serves every generated server (see [`write_probe`]).
const PROBE: &str = "probe";

/// The probe: a binary that builds the mock router of every member's server (`mock::router()`),
/// serves it on 127.0.0.1 and asks it for a path no spec routes, which it must answer below 500.
/// A router axum cannot build (two routes that conflict, a path it cannot parse) panics when
/// built, after a build that passed: this is where that shows.
fn write_probe(root: &Path, members: &[Member]) {
    let index = platform_codegen::emit::cargo::CRATES.iter().position(|c| *c == "server").expect("a server crate is generated");
    let mut manifest = format!("[package]\nname = \"{PROBE}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n");
    let mut calls = String::new();
    for m in members {
        let package = &m.packages[index];
        manifest.push_str(&format!("{package} = {{ path = \"../{}/server\", features = [\"mock\"] }}\n", relative(root, &m.out)));
        calls.push_str(&format!("        ({:?}, {}::mock::router),\n", m.what, package.replace('-', "_")));
    }
    manifest.push_str("axum = { version = \"0.8\", default-features = false, features = [\"tokio\", \"http1\"] }\n");
    manifest.push_str("tokio = { version = \"1\", features = [\"rt\", \"net\", \"io-util\"] }\n");
    let main = PROBE_MAIN.replace("        // ROUTERS\n", &calls);
    std::fs::create_dir_all(root.join(PROBE).join("src")).expect("create the probe's directory");
    std::fs::write(root.join(PROBE).join("Cargo.toml"), manifest).expect("write the probe's manifest");
    std::fs::write(root.join(PROBE).join("src/main.rs"), main).expect("write the probe");
}

const PROBE_MAIN: &str = r#"//! Builds every generated server's mock router, serves it on 127.0.0.1 and asks it for a path
//! no spec routes: the answer must come, below 500.

use tokio::io::{AsyncReadExt, AsyncWriteExt};

type Routers = [(&'static str, fn() -> axum::Router)];

const ROUTERS: &Routers = &[
        // ROUTERS
];

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a Tokio runtime");
    let failures: Vec<String> = ROUTERS.iter().filter_map(|(what, router)| probe(&runtime, router).err().map(|e| format!("{what}: {e}"))).collect();
    if !failures.is_empty() {
        eprintln!("{}", failures.join("
"));
        std::process::exit(1);
    }
}

fn probe(runtime: &tokio::runtime::Runtime, router: &fn() -> axum::Router) -> Result<(), String> {
    let app = std::panic::catch_unwind(router).map_err(|_| "building the mock router panicked".to_owned())?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| format!("bind: {e}"))?;
        let address = listener.local_addr().map_err(|e| format!("address: {e}"))?;
        let server = tokio::spawn(async move { axum::serve(listener, app).await });
        let mut stream = tokio::net::TcpStream::connect(address).await.map_err(|e| format!("connect: {e}"))?;
        let request = b"GET /no-spec-routes-this HTTP/1.1
host: 127.0.0.1
connection: close

";
        stream.write_all(request).await.map_err(|e| format!("write: {e}"))?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.map_err(|e| format!("read: {e}"))?;
        server.abort();
        let text = String::from_utf8_lossy(&answer);
        match text.get(9..12).and_then(|s| s.parse::<u16>().ok()) {
            Some(status) if status < 500 => Ok(()),
            _ => Err(format!("the mock answered {text:?}")),
        }
    })
}
"#;

/// Runs the probe the build made in `target`.
fn run_probe(target: &Path) -> Result<(), String> {
    let binary = target.join("debug").join(PROBE);
    let out = Command::new(&binary).output().map_err(|e| format!("the probe ({}) does not run: {e}", binary.display()))?;
    if out.status.success() { Ok(()) } else { Err(format!("a generated server does not serve:\n{}", String::from_utf8_lossy(&out.stderr))) }
}

/// `--package=<client>` for each member's client crate.
/// `package/feature` for each generated crate's feature that turns on generated code, joined
/// by commas: `webhooks` of the clients and servers whose spec has them.
fn generated_features(members: &[Member]) -> String {
    let mut out = Vec::new();
    for m in members {
        for (i, krate) in platform_codegen::emit::cargo::CRATES.iter().enumerate() {
            let manifest = std::fs::read_to_string(m.out.join(krate).join("Cargo.toml")).unwrap_or_default();
            if manifest.lines().any(|l| l.starts_with("webhooks = ")) {
                out.push(format!("{}/webhooks", m.packages[i]));
            }
        }
    }
    out.join(",")
}

fn client_packages(members: &[Member]) -> Vec<String> {
    let index = platform_codegen::emit::cargo::CRATES.iter().position(|c| *c == "client").expect("a client crate is generated");
    members.iter().map(|m| format!("--package={}", m.packages[index])).collect()
}

fn rust_lines(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            n += rust_lines(&path);
        } else if path.extension().is_some_and(|e| e == "rs") {
            n += std::fs::read_to_string(&path).map(|t| t.lines().count()).unwrap_or(0);
        }
    }
    n
}

/// The C header under C99 and C11 and from C++11, the C++ header under C++17 and C++20, each
/// alone in a translation unit with the strict flags.
pub fn compile_headers(m: &Member) -> Result<(), String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let include = m.out.join("sdk/include");
    let (c_header, cpp_header) = &m.headers;
    let checks: [(&str, &str, &[&str], &str, &str); 5] = [
        (&cc, "c99", C_STRICT, c_header, "c"),
        (&cc, "c11", C_STRICT, c_header, "c"),
        (&cxx, "c++11", CXX_STRICT, c_header, "cpp"),
        (&cxx, "c++17", CXX_STRICT, cpp_header, "cpp"),
        (&cxx, "c++20", CXX_STRICT, cpp_header, "cpp"),
    ];
    let mut failures = Vec::new();
    for (compiler, std, flags, header, ext) in checks {
        let tu = include.join(format!("check_{}_{std}.{ext}", header.replace('.', "_")).replace('+', "x"));
        std::fs::write(&tu, format!("#include \"{header}\"\n")).map_err(|e| e.to_string())?;
        let out = Command::new(compiler)
            .arg(format!("-std={std}"))
            .args(flags)
            .arg(format!("-I{}", include.display()))
            .arg("-fsyntax-only")
            .arg(&tu)
            .output()
            .map_err(|e| format!("cannot run `{compiler}` ({e}): run ./scripts/test.sh, which installs it"))?;
        let _ = std::fs::remove_file(&tu);
        if !out.status.success() {
            failures.push(format!("{header} as {std}:\n{}", String::from_utf8_lossy(&out.stderr)));
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n")) }
}
