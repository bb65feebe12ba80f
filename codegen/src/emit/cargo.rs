//! The Cargo side of the generated crates: their manifests, their build scripts, and the
//! workspace root that lists them when they stand on their own.
//!
//! Every manifest states its edition, version and dependency requirements in full, so a crate
//! builds wherever it is copied and `cargo package` gives a crate that builds alone. Only the
//! [`Layout`] decides what differs: standalone output gets a workspace root and no build
//! scripts; anchored output (members of a workspace that names it) gets build scripts that
//! regenerate it through the `platform-codegen` that workspace provides.

use super::{EmitOptions, GeneratedFile};

pub use crate::workspace::Layout;

/// The artifact name of the workspace root in summaries.
pub const ARTIFACT: &str = "workspace";

/// The directories of the generated crates under the output directory, in build order.
pub const CRATES: &[&str] = &[RUNTIME, "types", "server", "client", "sdk"];

/// The directory (and package suffix) of the runtime crate every other generated crate uses.
pub const RUNTIME: &str = "runtime";

/// The version every generated crate has. The spec carries no version of its own, so the
/// generated crates start where a new crate starts.
pub const VERSION: &str = "0.1.0";

/// The edition of the generated code and the oldest compiler it needs.
const EDITION: &str = "2024";
const RUST_VERSION: &str = "1.85";

/// A crate the generated code depends on, with the requirement every manifest states.
///
/// The requirements are this workspace's (`[workspace.dependencies]`); a test keeps the two in
/// step, so the shipped crates build against exactly what the workspace locks.
#[derive(Clone, Copy, Debug)]
pub struct Dependency {
    /// The package name.
    pub name: &'static str,
    /// The version requirement.
    pub requirement: &'static str,
    /// Whether the crate's default features stay on.
    pub default_features: bool,
    /// The features the generated code uses.
    pub features: &'static [&'static str],
}

const fn dep(name: &'static str, requirement: &'static str, features: &'static [&'static str]) -> Dependency {
    Dependency { name, requirement, default_features: true, features }
}

/// serde with its derives: every generated struct serializes.
pub const SERDE: Dependency = dep("serde", "1", &["derive"]);
/// JSON values; `preserve_order` keeps unknown fields in the order they arrived, so a value
/// read from the wire writes back unchanged.
pub const SERDE_JSON: Dependency = dep("serde_json", "1", &["preserve_order"]);
/// Instants of the timeline, serialized as RFC 3339.
pub const JIFF: Dependency = dep("jiff", "0.2", &["serde"]);
/// The server: tokio and HTTP/1 only.
pub const AXUM: Dependency = Dependency { name: "axum", requirement: "0.8", default_features: false, features: &["tokio", "http1"] };
/// Reading request bodies with a limit.
pub const HTTP_BODY_UTIL: Dependency = dep("http-body-util", "0.1", &[]);
/// The trait a route of the generated router is served by (the runtime's `server::Route`),
/// the one axum's routers take.
pub const TOWER_SERVICE: Dependency = dep("tower-service", "0.3", &[]);
/// JSON pointers for body type errors.
pub const SERDE_PATH_TO_ERROR: Dependency = dep("serde_path_to_error", "0.1", &[]);
/// Query strings.
pub const SERDE_URLENCODED: Dependency = dep("serde_urlencoded", "0.7", &[]);
/// Form bodies, a list as its name repeated (the runtime's `form`).
pub const SERDE_HTML_FORM: Dependency = dep("serde_html_form", "0.4", &[]);
/// Query strings written item by item (the runtime's `form`).
pub const FORM_URLENCODED: Dependency = dep("form_urlencoded", "1", &[]);
/// The items of a comma-separated query list decoded after the split (the runtime's `server`).
pub const PERCENT_ENCODING: Dependency = dep("percent-encoding", "2", &[]);
/// The client's HTTP; TLS is the crate's opt-in `rustls` feature.
pub const REQWEST: Dependency = Dependency { name: "reqwest", requirement: "0.13", default_features: false, features: &[] };

/// Byte strings as base64 on the wire (`bytes`), only for specs that have them.
pub const BASE64: Dependency = dep("base64", "0.23", &[]);
/// Ordered maps (`map<K, V>`), only for specs that have them.
pub const INDEXMAP: Dependency = dep("indexmap", "2", &["serde"]);
/// String patterns, only for specs that have them: the crate the generator checks them with.
pub const REGEX: Dependency = dep("regex", "1", &[]);
/// Patterns with look-around or backreferences, only for specs that have them.
pub const FANCY_REGEX: Dependency = dep("fancy-regex", "0.16", &[]);

/// Multipart bodies: the parser axum's own extractor uses, only for specs that have them.
pub const MULTER: Dependency = dep("multer", "3", &[]);
/// The stream multer reads, only beside it.
pub const FUTURES_UTIL: Dependency = Dependency { name: "futures-util", requirement: "0.3", default_features: false, features: &[] };

/// The server's timer, for the body read timeout (axum's `tokio` feature brings the runtime).
pub const TOKIO_TIME: Dependency = Dependency { name: "tokio", requirement: "1", default_features: false, features: &["time"] };

/// The client's spans and events (the runtime's `client` feature).
pub const TRACING: Dependency = Dependency { name: "tracing", requirement: "0.1", default_features: false, features: &["std"] };

/// Webhook signatures, only for specs with webhook deliveries (the runtime's `webhooks`).
pub const ED25519_DALEK: Dependency = Dependency { name: "ed25519-dalek", requirement: "2", default_features: false, features: &["std", "fast", "zeroize"] };
/// Standard Webhooks' HMAC.
pub const HMAC: Dependency = dep("hmac", "0.12", &[]);
/// The hash under Standard Webhooks' HMAC.
pub const SHA2: Dependency = dep("sha2", "0.10", &[]);

/// zlib-stream gateway frames, only for specs with a gateway (the runtime's `gateway-client`
/// and `gateway-server`).
pub const FLATE2: Dependency = dep("flate2", "1", &[]);
/// The gateway session client's WebSocket, only for specs with a gateway.
pub const TOKIO_TUNGSTENITE: Dependency = Dependency { name: "tokio-tungstenite", requirement: "0.29", default_features: false, features: &["connect"] };

/// Every third-party dependency of the generated crates.
pub const ALL: &[Dependency] = &[
    SERDE,
    SERDE_JSON,
    JIFF,
    AXUM,
    HTTP_BODY_UTIL,
    TOWER_SERVICE,
    SERDE_PATH_TO_ERROR,
    SERDE_URLENCODED,
    SERDE_HTML_FORM,
    FORM_URLENCODED,
    PERCENT_ENCODING,
    REQWEST,
    BASE64,
    INDEXMAP,
    REGEX,
    FANCY_REGEX,
    MULTER,
    FUTURES_UTIL,
    TOKIO_TIME,
    TRACING,
    ED25519_DALEK,
    HMAC,
    SHA2,
    FLATE2,
    TOKIO_TUNGSTENITE,
];

impl Dependency {
    /// The manifest line: `serde = { version = "1", features = ["derive"] }`.
    pub fn line(&self) -> String {
        let mut parts = vec![format!("version = {}", toml_string(self.requirement))];
        if !self.default_features {
            parts.push("default-features = false".to_owned());
        }
        if !self.features.is_empty() {
            let list: Vec<String> = self.features.iter().map(|f| toml_string(f)).collect();
            parts.push(format!("features = [{}]", list.join(", ")));
        }
        if parts.len() == 1 { format!("{} = {}", self.name, toml_string(self.requirement)) } else { format!("{} = {{ {} }}", self.name, parts.join(", ")) }
    }
}

/// A dependency on a sibling generated crate: by path here, by version once published.
pub fn sibling(package: &str, dir: &str) -> String {
    sibling_with(package, dir, &[])
}

/// [`sibling`] with some of its features on.
pub fn sibling_with(package: &str, dir: &str, features: &[&str]) -> String {
    let features = if features.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = features.iter().map(|f| toml_string(f)).collect();
        format!(", features = [{}]", list.join(", "))
    };
    format!("{package} = {{ version = {}, path = {}{features} }}", toml_string(VERSION), toml_string(&format!("../{dir}")))
}

/// What goes into one generated crate's manifest besides its name and description.
#[derive(Debug, Default)]
pub struct Manifest<'a> {
    /// `[lib]` keys, one per line.
    pub lib: &'a [&'a str],
    /// `[features]` lines.
    pub features: &'a [&'a str],
    /// `[dependencies]` lines.
    pub dependencies: Vec<String>,
    /// The README's text after its title and the description: what the crate is for.
    pub readme: String,
    /// The crate docs hold examples (the client's quick start, from its README), which
    /// `cargo test` compiles as doctests.
    pub doc_examples: bool,
}

/// The `[lib]` keys of a generated crate: it holds no tests, so `cargo test` and `cargo clippy
/// --all-targets` over a workspace that holds it compile it once, as a library, instead of also
/// building an empty test harness of the whole crate (for a large API's types crate, as long as
/// the library's own build); and no doctest pass either unless its docs hold examples.
fn no_test_targets(doc_examples: bool) -> &'static str {
    if doc_examples {
        "# Generated code without tests; its doc examples are doctests.\ntest = false\nbench = false\n"
    } else {
        "# Generated code without tests or doc examples: no empty test harness to build.\ntest = false\ndoctest = false\nbench = false\n"
    }
}

/// The `Cargo.toml` of a generated crate, and its `build.rs` when the layout regenerates.
pub fn crate_files(opts: &EmitOptions, artifact: &'static str, dir: &str, package: &str, description: &str, m: Manifest<'_>) -> Vec<GeneratedFile> {
    let notice = opts.notice();
    let mut text = format!(
        "# {notice}\n\n[package]\nname = {}\ndescription = {}\nversion = {}\nedition = {}\nrust-version = {}\nreadme = \"README.md\"\n",
        toml_string(package),
        toml_string(description),
        toml_string(VERSION),
        toml_string(EDITION),
        toml_string(RUST_VERSION),
    );
    text.push_str("\n[lib]\n");
    m.lib.iter().for_each(|l| text.push_str(&format!("{l}\n")));
    text.push_str(no_test_targets(m.doc_examples));
    if !m.features.is_empty() {
        text.push_str("\n[features]\n");
        m.features.iter().for_each(|l| text.push_str(&format!("{l}\n")));
    }
    if !m.dependencies.is_empty() {
        text.push_str("\n[dependencies]\n");
        m.dependencies.iter().for_each(|l| text.push_str(&format!("{l}\n")));
    }
    let readme = format!("<!-- {notice} -->\n\n# {package}\n\n{description}.\n\n{}", m.readme);
    let mut files = vec![GeneratedFile::new(artifact, format!("{dir}/Cargo.toml"), text), GeneratedFile::new(artifact, format!("{dir}/README.md"), readme)];
    if opts.layout == Layout::Anchored {
        files.push(GeneratedFile::new(artifact, format!("{dir}/build.rs"), build_script(&notice)));
    }
    files
}

/// The package that provides the generator, which anchored build scripts run.
const GENERATOR: &str = env!("CARGO_PKG_NAME");

/// Set to `1`, anchored build scripts compile the output directory as it is instead of running
/// the generator. For a build right after `generate --check` proved the directory current (the
/// test command's): running the generator again would compile it a second time, in a target
/// directory of its own, for nothing.
pub const NO_REGENERATE_ENV: &str = "PLATFORM_CODEGEN_NO_REGENERATE";

/// The generator program anchored build scripts run, when set: a `platform-codegen` built from
/// the workspace's own generator (as prost-build's `PROTOC` names a `protoc`), for a build that
/// already has one (a CI job that built the workspace, the test command). Unset, the build
/// script compiles the workspace's generator through Cargo, in a target directory of its own.
pub const GENERATOR_ENV: &str = "PLATFORM_CODEGEN";

/// The `build.rs` of an anchored crate.
///
/// It depends on nothing, so the crate builds wherever it is copied or published. Only when the
/// workspace Cargo builds it in names the directory it sits in as the `out` of
/// `[workspace.metadata.platform-codegen]` does it start a process: that workspace's generator,
/// run through Cargo in a target directory of its own (the build holds the lock of the one it
/// runs in), or the program [`GENERATOR_ENV`] names, whose `build-script` command checks the
/// declaration again with a real TOML parser before it writes (see [`crate::build`]), unless
/// [`NO_REGENERATE_ENV`] is `1`. The generator's stdout is the build script's, so the
/// `cargo::` lines it prints reach Cargo. The script reads the declaration line by line: written
/// as a table of plain strings, as `platform_codegen::workspace` documents it.
fn build_script(notice: &str) -> String {
    let metadata = crate::workspace::METADATA;
    format!(
        r#"// {notice}

//! Regenerates the output directory this crate sits in from its spec, when the spec changes,
//! before this crate compiles: only when the Cargo workspace it is built in names that
//! directory as the `out` of `[workspace.metadata.{metadata}]`. A copy of the crate anywhere
//! else, or the published crate, builds without running anything.

use std::path::Path;
use std::process::Command;

fn main() {{
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo::rerun-if-changed=build.rs");
    // `1` where the output directory was just checked against the spec: compile it as it is.
    println!("cargo::rerun-if-env-changed={NO_REGENERATE_ENV}");
    if std::env::var_os("{NO_REGENERATE_ENV}").is_some_and(|v| v == "1") {{
        return;
    }}
    let Some(root) = anchoring_workspace(crate_dir) else {{ return }};
    // A generator built from this workspace's, when the build names one.
    println!("cargo::rerun-if-env-changed={GENERATOR_ENV}");
    let (what, status) = match std::env::var_os("{GENERATOR_ENV}").filter(|p| !p.is_empty()) {{
        Some(program) => ("{GENERATOR_ENV}", Command::new(program).arg("build-script").arg(crate_dir).status()),
        None => ("cargo", compiled_generator(root).arg(crate_dir).status()),
    }};
    match status {{
        Ok(status) if status.success() => {{}}
        Ok(_) => std::process::exit(1),
        Err(e) => {{
            eprintln!("error: cannot run {{what}} to regenerate: {{e}}");
            std::process::exit(1);
        }}
    }}
}}

/// `cargo run` of the workspace's generator's `build-script` command, in a target directory of
/// the generator's own beside this build's: Cargo holds this build's.
fn compiled_generator(root: &Path) -> Command {{
    let out_dir = std::env::var_os("OUT_DIR").expect("Cargo sets OUT_DIR");
    let target = Path::new(&out_dir).ancestors().nth(4).unwrap_or(Path::new(&out_dir)).join("{GENERATOR}");
    let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cargo
        .args(["run", "--quiet", "--locked", "--package", "{GENERATOR}", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .args(["--", "build-script"])
        .env("CARGO_TARGET_DIR", target)
        // Nobody debugs the generator through a build script: no debug info keeps its target small.
        .env("CARGO_PROFILE_DEV_DEBUG", "false");
    cargo
}}

/// The root of the workspace Cargo builds this crate in (the nearest `Cargo.toml` above it
/// with a `[workspace]` table), when its `[workspace.metadata.{metadata}]` names the directory
/// this crate sits in as `out`.
fn anchoring_workspace(crate_dir: &Path) -> Option<&Path> {{
    for root in crate_dir.ancestors().skip(1) {{
        let Ok(text) = std::fs::read_to_string(root.join("Cargo.toml")) else {{ continue }};
        let (mut table, mut is_root, mut out) = ("", false, None);
        for line in text.lines().map(str::trim) {{
            if line.starts_with('[') {{
                table = line.split_inclusive(']').next().unwrap_or(line);
                is_root |= table == "[workspace]" || table.starts_with("[workspace.");
            }} else if table == "[workspace.metadata.{metadata}]"
                && let Some((key, value)) = line.split_once('=')
                && key.trim() == "out"
            {{
                out = value.split(['"', '\'']).nth(1);
            }}
        }}
        if is_root {{
            println!("cargo::rerun-if-changed={{}}", root.join("Cargo.toml").display());
            let here = crate_dir.parent().and_then(|d| d.canonicalize().ok());
            let named = out.and_then(|out| root.join(out).canonicalize().ok());
            return (here.is_some() && here == named).then_some(root);
        }}
    }}
    None
}}
"#
    )
}

/// The workspace root of standalone output: `cargo build` there builds every crate.
pub fn workspace_root(opts: &EmitOptions) -> Option<GeneratedFile> {
    if opts.layout != Layout::Standalone {
        return None;
    }
    let members: Vec<String> = CRATES.iter().map(|c| toml_string(c)).collect();
    let text = format!(
        "# {}\n\n# The generated crates as one workspace: `cargo build` here builds them all.\n[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
        opts.notice(),
        members.join(", ")
    );
    Some(GeneratedFile::new(ARTIFACT, "Cargo.toml", text))
}

/// A TOML basic string.
pub fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_lines_say_everything_cargo_needs() {
        assert_eq!(SERDE.line(), "serde = { version = \"1\", features = [\"derive\"] }");
        assert_eq!(HTTP_BODY_UTIL.line(), "http-body-util = \"0.1\"");
        assert_eq!(AXUM.line(), "axum = { version = \"0.8\", default-features = false, features = [\"tokio\", \"http1\"] }");
        assert_eq!(sibling("widget-types", "types"), "widget-types = { version = \"0.1.0\", path = \"../types\" }");
        assert_eq!(sibling_with("widget-types", "types", &["server"]), "widget-types = { version = \"0.1.0\", path = \"../types\", features = [\"server\"] }");
    }
}
