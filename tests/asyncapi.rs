//! The AsyncAPI documents the generator writes are valid for the AsyncAPI initiative's own
//! parser (`@asyncapi/parser`, which `scripts/test.sh` installs into `tools/asyncapi`): the
//! shipped spec's and the shapes fixture's (a gateway unlike Discord's; the imported Discord
//! API's is validated where `tests/discord_api.rs` generates it). The fixture's is also read
//! back: every dispatch event and command is a message of its gateway's channel, with the frame
//! around it.

use platform_codegen::emit::EmitOptions;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the parser over `files`, failing with its output when a document is invalid.
fn validate(files: &[PathBuf]) {
    let script = root().join("tools/asyncapi/validate.mjs");
    assert!(
        root().join("tools/asyncapi/node_modules/@asyncapi/parser").is_dir(),
        "the AsyncAPI parser is not installed: run `./scripts/test.sh`, or `npm ci --prefix tools/asyncapi`"
    );
    let out = Command::new("node")
        .arg(script)
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("node is needed to run the AsyncAPI parser ({e}); ./scripts/test.sh installs it"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "invalid AsyncAPI:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().filter(|l| l.contains("valid AsyncAPI 3.0.0")).count(), files.len(), "{stdout}");
}

fn asyncapi_of(spec: &Path) -> Value {
    let loaded = platform_codegen::load_spec(spec, "spec").unwrap_or_else(|e| panic!("{}: {e:?}", spec.display()));
    let file = platform_codegen::emit::emit_asyncapi(&loaded.model, &EmitOptions::default()).expect("a spec with a gateway has an AsyncAPI document");
    serde_json::from_str(&file.contents).expect("JSON")
}

fn write(dir: &Path, name: &str, doc: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    path
}

#[test]
fn every_asyncapi_document_is_valid_and_carries_each_event_and_command() {
    let dir = tempfile::tempdir().unwrap();
    let shapes = asyncapi_of(&root().join("tests/fixtures/shapes"));
    let messages = shapes["components"]["messages"].as_object().expect("messages");
    for key in ["note_stream.event.note_posted", "note_stream.event.stream_welcome", "note_stream.opcode.stream_subscribe", "note_stream.opcode.stream_login"] {
        assert!(messages.contains_key(key), "{key} is a message: {:?}", messages.keys().collect::<Vec<_>>());
    }
    let posted = &messages["note_stream.event.note_posted"]["payload"];
    assert_eq!(posted["properties"]["name"]["const"], "NOTE_POSTED");
    assert_eq!(posted["properties"]["kind"]["const"], 0);
    assert!(posted["properties"]["body"]["properties"]["title"].is_object(), "the payload extends the note");
    let session = &shapes["channels"]["note_stream"]["x-session"];
    assert_eq!(session["close_codes"][0]["policy"], "fatal");
    assert_eq!(shapes["operations"]["note_stream.opcode.stream_subscribe.send"]["action"], "send");

    let files = [root().join("generated/asyncapi.json"), write(dir.path(), "shapes.json", &shapes)];
    validate(&files);
}
