//! The C ABI from C and C++: the generated headers compile alone under every standard with strict
//! warnings as errors, and C and C++ programs linked against the freshly built library run clean
//! plainly, under AddressSanitizer with UBSan and under valgrind, against both the static and the
//! dynamic library.
//!
//! The test lives in the root package because `generated/` holds only what the generator writes.
//! `platform-sdk` is a dev-dependency, so cargo rebuilds the library before building this test and
//! leaves `libplatform_sdk.a` and `libplatform_sdk.so` in `target/<profile>/deps/`, next to this
//! test's executable: the libraries are taken from there. The uplifted copies in
//! `target/<profile>/` are not refreshed by `cargo test` and would test stale code.
//!
//! Compilers come from `CC` and `CXX` (default `gcc` and `g++`); `valgrind` and `nm` are needed
//! too. A missing tool fails the test with the command that installs it; `./scripts/test.sh`
//! installs them all. The negative controls prove the harness can fail: a leak in a loop and a
//! double drop of an aliased handle must be reported by both sanitizers and valgrind.
//!
//! Beside the programs: the libraries export exactly the functions the header declares, every
//! constant has the same value and type in C, C++ and the Rust library, a deprecation warns where
//! the deprecated item is used and nowhere else, and the fixture spec's library (built by rustc
//! from the golden sources) runs clean from C too.

use platform_codegen::emit::{EmitOptions, emit_all};
use platform_codegen::model::{Field, Model, Ref, TypeRef};
use platform_sdk::consts::{ALL, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const C_STRICT: &[&str] = &[
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
const CXX_STRICT: &[&str] = &[
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
const SANITIZE: &[&str] = &["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"];
/// What a Rust static library needs from the system on glibc.
const NATIVE_LIBS: &[&str] = &["-lpthread", "-ldl", "-lm"];
const VALGRIND: &[&str] = &["-q", "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "--track-origins=yes"];
/// No single compile, link or run may take longer.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(180);

/// Headers and the static and dynamic library built from the same spec.
struct Libs {
    /// The directory of the headers.
    include: PathBuf,
    /// The directory holding `lib<name>.a` and `lib<name>.so`.
    dir: PathBuf,
    name: String,
}

impl Libs {
    fn file(&self, ext: &str) -> PathBuf {
        self.dir.join(format!("lib{}.{ext}", self.name))
    }
}

/// The tools, the shipped spec's headers and the freshly built libraries.
struct Setup {
    cc: String,
    cxx: String,
    libs: Libs,
    c_header: String,
    cpp_header: String,
    c_macro: String,
    c_type: String,
    cpp_namespace: String,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
        let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
        for (tool, package) in [(cc.as_str(), "gcc"), (cxx.as_str(), "g++"), ("valgrind", "valgrind"), ("nm", "binutils")] {
            require(tool, package);
        }
        // The test executable is target/<profile>/deps/c_abi-<hash>; cargo put the library beside it.
        let deps = std::env::current_exe().expect("the test executable's path").parent().expect("deps/").to_path_buf();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let libs = Libs { include: root.join("generated/sdk/include"), dir: deps, name: "platform_sdk".into() };
        for lib in [libs.file("a"), libs.file("so")] {
            assert!(lib.is_file(), "{} is missing: cargo builds it for the dev-dependency", lib.display());
        }
        let model = load(&root.join("spec"));
        let p = &model.platform.prefixes;
        Setup {
            cc,
            cxx,
            libs,
            c_header: p.c_header.clone(),
            cpp_header: p.cpp_header.clone(),
            c_macro: p.c_macro.clone(),
            c_type: p.c_type.clone(),
            cpp_namespace: p.cpp_namespace.clone(),
        }
    })
}

fn require(tool: &str, package: &str) {
    let found = Command::new(tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    assert!(found, "`{tool}` is not installed: run ./scripts/test.sh, which installs it (apt-get install {package})");
}

fn load(dir: &Path) -> Model {
    platform_codegen::load_spec(dir, "spec").unwrap_or_else(|_| panic!("{} is invalid", dir.display())).model
}

/// A fresh directory under the target's temporary directory.
fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("c_abi").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn source(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_abi").join(name)
}

/// Runs `cmd` to completion within [`COMMAND_TIMEOUT`], its output captured through files so that
/// a chatty program cannot block on a full pipe.
fn run(mut cmd: Command, scratch: &Path) -> Output {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (out_path, err_path) = (scratch.join(format!(".out{n}")), scratch.join(format!(".err{n}")));
    cmd.stdout(std::fs::File::create(&out_path).unwrap()).stderr(std::fs::File::create(&err_path).unwrap());
    let shown = format!("{cmd:?}");
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    let deadline = Instant::now() + COMMAND_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{shown} did not finish within {COMMAND_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output { status, stdout: std::fs::read(&out_path).unwrap(), stderr: std::fs::read(&err_path).unwrap() }
}

fn describe(what: &str, out: &Output) -> String {
    format!("{what}: {}\n--- stdout\n{}\n--- stderr\n{}", out.status, String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn succeed(what: &str, cmd: Command, scratch: &Path) -> Output {
    let out = run(cmd, scratch);
    assert!(out.status.success(), "{}", describe(what, &out));
    out
}

fn command(program: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(args);
    cmd
}

/// Compiles each source to an object in `dir`.
fn compile(compiler: &str, flags: &[&str], libs: &Libs, sources: &[PathBuf], dir: &Path, tag: &str) -> Vec<PathBuf> {
    let include = format!("-I{}", libs.include.display());
    sources
        .iter()
        .map(|src| {
            let object = dir.join(format!("{}.{tag}.o", src.file_stem().unwrap().to_string_lossy()));
            let mut cmd = command(compiler, flags);
            cmd.arg(&include).arg("-c").arg(src).arg("-o").arg(&object);
            succeed(&format!("compiling {}", src.display()), cmd, dir);
            object
        })
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Library {
    /// `lib<name>.a`, by its full path: `-l` would pick the `.so` beside it.
    Static,
    /// `lib<name>.so`, found at run time through an rpath.
    Shared,
}

fn link(linker: &str, objects: &[PathBuf], libs: &Libs, library: Library, sanitize: bool, exe: &Path) -> PathBuf {
    let mut cmd = Command::new(linker);
    if sanitize {
        cmd.args(SANITIZE);
    }
    cmd.args(objects);
    match library {
        Library::Static => {
            cmd.arg(libs.file("a"));
        }
        Library::Shared => {
            cmd.arg(format!("-L{}", libs.dir.display())).arg(format!("-l{}", libs.name)).arg(format!("-Wl,-rpath,{}", libs.dir.display()));
        }
    }
    cmd.args(NATIVE_LIBS).arg("-o").arg(exe);
    succeed(&format!("linking {} against the {library:?} library", exe.display()), cmd, exe.parent().unwrap());
    exe.to_path_buf()
}

fn sanitized(exe: &Path) -> Command {
    let mut cmd = Command::new(exe);
    cmd.env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0").env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1");
    cmd
}

fn valgrind(exe: &Path) -> Command {
    let mut cmd = command("valgrind", VALGRIND);
    cmd.arg(exe);
    cmd
}

/// Builds a program four ways and runs each clean: static plain, static under ASan + UBSan,
/// static under valgrind, and against the shared library.
fn build_and_run_clean(name: &str, compiler: &str, plain_flags: &[&str], sanitize_flags: &[&str], libs: &Libs, sources: &[PathBuf]) {
    let dir = out_dir(name);
    let plain = compile(compiler, plain_flags, libs, sources, &dir, "plain");
    let with_sanitizers: Vec<&str> = sanitize_flags.iter().chain(SANITIZE).copied().collect();
    let sanitized_objects = compile(compiler, &with_sanitizers, libs, sources, &dir, "asan");

    let exe = link(compiler, &plain, libs, Library::Static, false, &dir.join(name));
    succeed(&format!("{name} (static)"), Command::new(&exe), &dir);
    succeed(&format!("{name} under valgrind"), valgrind(&exe), &dir);
    let exe = link(compiler, &sanitized_objects, libs, Library::Static, true, &dir.join(format!("{name}_asan")));
    succeed(&format!("{name} under ASan + UBSan"), sanitized(&exe), &dir);
    let exe = link(compiler, &plain, libs, Library::Shared, false, &dir.join(format!("{name}_shared")));
    succeed(&format!("{name} (shared)"), Command::new(&exe), &dir);
}

fn flags(std: &str, strict: &[&str]) -> Vec<String> {
    std::iter::once(format!("-std={std}")).chain(strict.iter().map(|s| s.to_string())).collect()
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// One header compiled alone, included from an otherwise empty translation unit.
struct HeaderCheck<'a> {
    compiler: &'a str,
    language: &'a str,
    std: &'a str,
    strict: &'a [&'a str],
    include: PathBuf,
    header: String,
}

impl HeaderCheck<'_> {
    fn run(&self, dir: &Path) -> Result<(), String> {
        let ext = if self.language == "c" { "c" } else { "cpp" };
        let tu = dir.join(format!("{}.{}.{ext}", self.header.replace('.', "_"), self.std));
        std::fs::write(&tu, format!("#include \"{}\"\n", self.header)).unwrap();
        let mut cmd = command(self.compiler, &as_strs(&flags(self.std, self.strict)));
        cmd.arg(format!("-I{}", self.include.display())).arg("-fsyntax-only").arg(&tu);
        let out = run(cmd, dir);
        if out.status.success() { Ok(()) } else { Err(describe(&format!("{} as {}", self.header, self.std), &out)) }
    }
}

#[test]
fn headers_compile_alone_under_every_standard() {
    let s = setup();
    let dir = out_dir("headers");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal/expected/sdk/include");
    let fixture_prefixes = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal")).platform.prefixes;
    let check = |compiler, language, std, strict, include: &Path, header: &str| HeaderCheck {
        compiler,
        language,
        std,
        strict,
        include: include.to_path_buf(),
        header: header.to_string(),
    };
    let mut checks = Vec::new();
    for std in ["c99", "c11", "c17", "c2x"] {
        checks.push(check(&s.cc, "c", std, C_STRICT, &s.libs.include, &s.c_header));
    }
    for std in ["c++11", "c++14", "c++17", "c++20"] {
        checks.push(check(&s.cxx, "c++", std, CXX_STRICT, &s.libs.include, &s.c_header));
    }
    for std in ["c++17", "c++20"] {
        checks.push(check(&s.cxx, "c++", std, CXX_STRICT, &s.libs.include, &s.cpp_header));
    }
    // The fixture's headers (the golden files) prove the output compiles for another spec too.
    checks.push(check(&s.cc, "c", "c99", C_STRICT, &fixture, &fixture_prefixes.c_header));
    checks.push(check(&s.cxx, "c++", "c++11", CXX_STRICT, &fixture, &fixture_prefixes.c_header));
    checks.push(check(&s.cxx, "c++", "c++17", CXX_STRICT, &fixture, &fixture_prefixes.cpp_header));
    // A few compilers at a time: enough to hide process start-up, few enough for a small machine.
    let mut failures: Vec<String> = Vec::new();
    for batch in checks.chunks(4) {
        std::thread::scope(|scope| {
            let handles: Vec<_> = batch.iter().map(|c| scope.spawn(|| c.run(&dir))).collect();
            failures.extend(handles.into_iter().filter_map(|h| h.join().unwrap().err()));
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn c_program_runs_clean_against_both_libraries() {
    let s = setup();
    build_and_run_clean("roundtrip", &s.cc, &as_strs(&flags("c99", C_STRICT)), &as_strs(&flags("c11", C_STRICT)), &s.libs, &[source("roundtrip.c")]);
}

/// The fixture spec's library, built by rustc straight from the golden sources: the shipped spec
/// has no bool, required number or closed enum field, the fixture has.
#[test]
fn fixture_library_runs_clean_from_c() {
    let s = setup();
    let dir = out_dir("fixture_library");
    let expected = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal/expected");
    let golden = expected.join("sdk");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    // The runtime's C ABI helpers first (the feature the sdk crate's manifest turns on).
    let mut cmd =
        command(&rustc, &["--edition", "2024", "--crate-type", "rlib", "--crate-name", "widget_runtime", "--cfg", "feature=\"ffi\"", "-D", "warnings", "-g"]);
    cmd.arg(expected.join("runtime/src/lib.rs")).arg("--out-dir").arg(&dir);
    succeed("building the fixture's runtime", cmd, &dir);
    let mut cmd =
        command(&rustc, &["--edition", "2024", "--crate-type", "staticlib", "--crate-type", "cdylib", "--crate-name", "fixture_sdk", "-D", "warnings", "-g"]);
    cmd.arg("--extern").arg(format!("widget_runtime={}", dir.join("libwidget_runtime.rlib").display()));
    cmd.arg(golden.join("src/lib.rs")).arg("--out-dir").arg(&dir);
    succeed("building the fixture's library", cmd, &dir);
    let libs = Libs { include: golden.join("include"), dir, name: "fixture_sdk".into() };
    build_and_run_clean("widget", &s.cc, &as_strs(&flags("c99", C_STRICT)), &as_strs(&flags("c11", C_STRICT)), &libs, &[source("widget.c")]);
}

#[test]
fn cpp_program_of_two_translation_units_runs_clean_against_both_libraries() {
    let s = setup();
    let sources = [source("main.cpp"), source("second.cpp")];
    build_and_run_clean("cpp_wrapper", &s.cxx, &as_strs(&flags("c++17", CXX_STRICT)), &as_strs(&flags("c++20", CXX_STRICT)), &s.libs, &sources);
}

/// A negative control: the program must fail under the sanitizers and under valgrind, each
/// saying why.
fn must_be_caught(program: &str, sanitizer_says: &str, valgrind_says: &str) {
    let s = setup();
    let dir = out_dir(program);
    let sources = [source(&format!("{program}.c"))];
    let plain = compile(&s.cc, &as_strs(&flags("c99", C_STRICT)), &s.libs, &sources, &dir, "plain");
    let sanitize: Vec<String> = flags("c99", C_STRICT).into_iter().chain(SANITIZE.iter().map(|f| f.to_string())).collect();
    let sanitized_objects = compile(&s.cc, &as_strs(&sanitize), &s.libs, &sources, &dir, "asan");

    let exe = link(&s.cc, &sanitized_objects, &s.libs, Library::Static, true, &dir.join(format!("{program}_asan")));
    let out = run(sanitized(&exe), &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains(sanitizer_says), "the sanitizers missed {program}: {}", describe(program, &out));

    let exe = link(&s.cc, &plain, &s.libs, Library::Static, false, &dir.join(program));
    let out = run(valgrind(&exe), &dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(99) && stderr.contains(valgrind_says), "valgrind missed {program}: {}", describe(program, &out));
}

#[test]
fn negative_control_leaks_are_caught() {
    must_be_caught("leak_in_loop", "LeakSanitizer: detected memory leaks", "definitely lost");
}

#[test]
fn negative_control_double_drop_of_an_alias_is_caught() {
    must_be_caught("double_drop", "AddressSanitizer", "Invalid read");
}

/// The functions `header` declares: every `<PREFIX>API ... name(...);` line.
fn declared_functions(header: &str, api: &str) -> BTreeSet<String> {
    header
        .lines()
        .filter_map(|l| l.split_once(&format!("{api} ")).map(|(_, rest)| rest))
        .filter(|rest| rest.ends_with(");"))
        .map(|rest| rest[..rest.find('(').unwrap()].rsplit([' ', '*']).next().unwrap().to_string())
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn libraries_export_exactly_the_declared_functions() {
    let s = setup();
    let dir = out_dir("symbols");
    let declared = declared_functions(&read(&s.libs.include.join(&s.c_header)), &format!("{}API", s.c_macro));
    assert!(declared.len() > 3, "no declarations found in {}", s.c_header);

    let mut nm = command("nm", &["-D", "--defined-only"]);
    nm.arg(s.libs.file("so"));
    let out = succeed("nm -D", nm, &dir);
    let dynamic: BTreeSet<String> = String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.split_whitespace().nth(2)).map(str::to_string).collect();
    assert_eq!(dynamic, declared, "the shared library must export exactly the header's functions");

    let mut nm = command("nm", &["-g", "--defined-only"]);
    nm.arg(s.libs.file("a"));
    let out = succeed("nm -g", nm, &dir);
    let text = String::from_utf8_lossy(&out.stdout);
    let exported: BTreeSet<String> =
        text.lines().filter_map(|l| l.split_once(" T ").map(|(_, name)| name)).filter(|name| name.starts_with(&s.c_type)).map(str::to_string).collect();
    assert_eq!(exported, declared, "the static library must define exactly the header's functions");
}

#[test]
fn the_programs_call_every_declared_function_and_use_every_class() {
    let s = setup();
    let header = read(&s.libs.include.join(&s.c_header));
    let c_program = read(&source("roundtrip.c"));
    let cpp_program = read(&source("main.cpp")) + &read(&source("second.cpp"));
    let uncalled: Vec<String> = declared_functions(&header, &format!("{}API", s.c_macro))
        .into_iter()
        .filter(|f| !c_program.contains(&format!("{f}(")) && !c_program.contains(&format!("{f},")) && !c_program.contains(&format!("{f})")))
        .collect();
    assert!(uncalled.is_empty(), "roundtrip.c does not call {uncalled:?}");
    let classes: Vec<&str> = header
        .lines()
        .filter(|l| l.contains("{ void *opaque; }"))
        .filter_map(|l| l.strip_prefix(&format!("typedef struct {}", s.c_type)))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert!(!classes.is_empty());
    let unused: Vec<&&str> = classes.iter().filter(|c| !cpp_program.contains(&format!("{}::{c}", s.cpp_namespace))).collect();
    assert!(unused.is_empty(), "main.cpp and second.cpp do not use {unused:?}");
}

fn c_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The C literal and C type of a value.
fn c_literal(value: &Value) -> Option<(String, &'static str)> {
    Some(match value {
        Value::I32(v) => (format!("INT32_C({v})"), "int32_t"),
        Value::I64(v) => (format!("INT64_C({v})"), "int64_t"),
        Value::U32(v) => (format!("UINT32_C({v})"), "uint32_t"),
        Value::U64(v) => (format!("UINT64_C({v})"), "uint64_t"),
        Value::Str(_) => return None,
    })
}

#[test]
fn constants_agree_across_c_cpp_and_rust() {
    let s = setup();
    let dir = out_dir("constants");
    let c_header = read(&s.libs.include.join(&s.c_header));
    let cpp_header = read(&s.libs.include.join(&s.cpp_header));

    // Every constant of each header is in the library's table, and the other way round.
    let infrastructure = [format!("{}ABI_VERSION_MAJOR", s.c_macro), format!("{}ABI_VERSION_MINOR", s.c_macro)];
    let c_defined: BTreeSet<&str> = c_header
        .lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| !name.starts_with(&format!("{}HEADER_", s.c_macro)) && !infrastructure.iter().any(|i| i == name))
        .collect();
    let cpp_defined: BTreeSet<String> = cpp_header
        .lines()
        .filter_map(|l| l.split_once("inline constexpr ").map(|(_, rest)| rest))
        .filter_map(|rest| rest.split_once(" = ").map(|(decl, _)| decl.rsplit(' ').next().unwrap()))
        .map(|name| format!("{}::{name}", s.cpp_namespace))
        .collect();
    assert_eq!(c_defined, ALL.iter().map(|c| c.c).collect(), "C header constants vs the library's table");
    assert_eq!(cpp_defined, ALL.iter().map(|c| c.cpp.to_string()).collect(), "C++ header constants vs the library's table");

    // Each has the library's value and type in C (run) and C++ (static_assert).
    let mut c = String::from(
        "#include \"cplatform.h\"\n#include <stdio.h>\n#include <string.h>\n\nstatic int failures = 0;\n\
         #define CHECK_INT(name, expected, type) if (!((name) == (expected) && _Generic((name), type: 1, default: 0))) { puts(#name); failures++; }\n\
         #define CHECK_STR(name, expected) if (strcmp((name), (expected)) != 0) { puts(#name); failures++; }\n\nint main(void) {\n",
    );
    let mut cpp = format!("#include \"{}\"\n#include <type_traits>\n\n", s.cpp_header);
    for constant in ALL {
        match (c_literal(&constant.value), &constant.value) {
            (Some((literal, ty)), _) => {
                c.push_str(&format!("    CHECK_INT({}, {literal}, {ty})\n", constant.c));
                cpp.push_str(&format!("static_assert({0} == {literal} && std::is_same_v<decltype({0}), const std::{ty}>, \"{0}\");\n", constant.cpp));
            }
            (None, Value::Str(text)) => {
                c.push_str(&format!("    CHECK_STR({}, {})\n", constant.c, c_string(text)));
                cpp.push_str(&format!("static_assert({0} == std::string_view({1}), \"{0}\");\n", constant.cpp, c_string(text)));
            }
            (None, _) => unreachable!(),
        }
    }
    c.push_str("    return failures != 0;\n}\n");
    let c_file = dir.join("constants.c");
    let cpp_file = dir.join("constants.cpp");
    std::fs::write(&c_file, c).unwrap();
    std::fs::write(&cpp_file, cpp).unwrap();

    let exe = dir.join("constants");
    let mut cmd = command(&s.cc, &as_strs(&flags("c11", C_STRICT)));
    cmd.arg(format!("-I{}", s.libs.include.display())).arg(&c_file).arg("-o").arg(&exe);
    succeed("compiling the C constants check", cmd, &dir);
    succeed("the C constants check (prints each constant that differs)", Command::new(&exe), &dir);
    let mut cmd = command(&s.cxx, &as_strs(&flags("c++17", CXX_STRICT)));
    cmd.arg(format!("-I{}", s.libs.include.display())).arg("-fsyntax-only").arg(&cpp_file);
    succeed("the C++ constants check", cmd, &dir);
}

/// A required number: its C getter takes only the handle and returns the value.
fn is_plain_number(field: &Field) -> bool {
    !field.optional && field.ty.as_ref().and_then(TypeRef::primitive).is_some_and(|p| p.is_numeric())
}

/// Headers of the fixture spec with a field and a permission deprecated by one of its changes;
/// returns the model, the class and field deprecated, and the change's summary.
fn deprecated_fixture_headers(dir: &Path) -> (Model, usize, usize, String) {
    let mut model = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal"));
    let change = model.changes.first().expect("the fixture has changes").meta.id.clone();
    let summary = model.changes[0].summary.clone();
    let (class, field) = model
        .classes
        .iter()
        .enumerate()
        .find_map(|(c, class)| class.fields.iter().position(is_plain_number).map(|f| (c, f)))
        .expect("the fixture has a class with a required number field");
    model.classes[class].fields[field].deprecated = Some(Ref { id: change.clone(), ..Ref::default() });
    model.permissions.iter_mut().find(|p| p.bit.is_some()).unwrap().meta.deprecated = Some(Ref { id: change, ..Ref::default() });
    for file in emit_all(&model, &EmitOptions::default()) {
        if file.artifact == "sdk" && file.path.starts_with("sdk/include/") {
            std::fs::write(dir.join(file.path.trim_start_matches("sdk/include/")), &file.contents).unwrap();
        }
    }
    (model, class, field, summary)
}

#[test]
fn deprecations_warn_where_they_are_used_and_nowhere_else() {
    let s = setup();
    let dir = out_dir("deprecations");
    let (model, class, field, summary) = deprecated_fixture_headers(&dir);
    let p = &model.platform.prefixes;
    let class = &model.classes[class];
    let field = platform_codegen::plan::case::pascal(&class.fields[field].name);
    let class_name = platform_codegen::plan::case::pascal(&class.meta.id);
    let compile_tu = |name: &str, compiler: &str, std: &str, strict: &[&str], text: String| {
        let tu = dir.join(name);
        std::fs::write(&tu, text).unwrap();
        let mut cmd = command(compiler, &as_strs(&flags(std, strict)));
        cmd.arg(format!("-I{}", dir.display())).arg("-fsyntax-only").arg(&tu);
        run(cmd, &dir)
    };
    // Including the headers is clean, even though the C++ wrapper calls the deprecated C functions.
    let out = compile_tu("include.c", &s.cc, "c99", C_STRICT, format!("#include \"{}\"\n", p.c_header));
    assert!(out.status.success(), "{}", describe("including the C header", &out));
    let out = compile_tu("include.cpp", &s.cxx, "c++17", CXX_STRICT, format!("#include \"{}\"\n", p.cpp_header));
    assert!(out.status.success(), "{}", describe("including the C++ header", &out));
    // Using the deprecated field fails under -Werror and names the change's summary.
    let c_use = format!(
        "#include \"{}\"\nint use(const {}{class_name} *x);\nint use(const {}{class_name} *x) {{ return {}{class_name}_{field}(x) != 0; }}\n",
        p.c_header, p.c_type, p.c_type, p.c_type
    );
    let out = compile_tu("use.c", &s.cc, "c99", C_STRICT, c_use);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("deprecated") && stderr.contains(&summary), "{}", describe("using it from C", &out));
    let cpp_use = format!(
        "#include \"{}\"\nvoid use(const {}::{class_name}& x);\nvoid use(const {}::{class_name}& x) {{ (void)x.{field}(); }}\n",
        p.cpp_header, p.cpp_namespace, p.cpp_namespace
    );
    let out = compile_tu("use.cpp", &s.cxx, "c++17", CXX_STRICT, cpp_use);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("deprecated") && stderr.contains(&summary), "{}", describe("using it from C++", &out));
}
