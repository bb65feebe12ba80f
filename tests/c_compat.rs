//! `diff`'s verdict for the C ABI, checked against the C compiler.
//!
//! For every case of `tests/diff/`, the C header of the old spec is read as a user of it would
//! use it: a program takes the address of every function into a pointer of the type the old
//! prototype declares, names every constant and every enumerator, and the size of every type.
//! That program is compiled against the new spec's header with gcc, `-std=c11 -Wall -Wextra
//! -Werror` (`-Wno-deprecated-declarations`: a deprecation is a warning to its user, not a
//! break). It compiles exactly when the new header is source-compatible with the old, so `diff`
//! must call the case breaking for C exactly when it does not compile, or the case is listed in
//! [`BLIND`] with the reason the compiler cannot see the break (a value that changed keeps
//! compiling, and breaks programs built against the old value).

use crate::diff_cases;

use diff_cases::{catalogue, diff_says_breaking};
use platform_specgen::harness::{self, Source};
use std::path::Path;
use std::process::Command;

/// Cases whose C break compiles, with the reason the compiler cannot see it.
const BLIND: &[(&str, &str)] = &[
    ("constant-value-changed", "a constant's new value compiles; programs built with the old value are wrong"),
    ("enum-value-renumbered", "an enumerator's new number compiles; programs built with the old number send the wrong value"),
    ("error-code-changed", "an error code's new number compiles; programs built with the old one no longer recognise the error"),
    ("event-code-changed", "an event code's new number compiles; programs built with the old one no longer recognise the event"),
    ("opcode-code-changed", "an opcode's new number compiles; programs built with the old one send the wrong opcode"),
    ("flag-bit-changed", "a flag's new bit compiles; programs built with the old bit test the wrong one"),
    ("permission-bit-changed", "a permission's new bit compiles; programs built with the old bit test the wrong one"),
    ("flags-width-changed", "a flag constant of a narrower type still fits where the wider one was stored; the values a program reads are what change width"),
    ("limit-unit-changed", "the limit's value and type stay; what it counts (characters or bytes) changes, which only the comment says"),
    ("item-removed+tombstone", "the header keeps an item bounded by `until:` (deprecated by the change that removes it); the break is on the change's date"),
    (
        "sdk-call-signature-changed",
        "the header names SDK calls only in the docs of their argument classes; the signature is the platform SDK's, which programs calling it no longer compile against",
    ),
];

/// A C program that uses every declaration of `header` (the text of a generated C header).
fn user_of(header: &str, file: &str) -> String {
    let mut body = Vec::new();
    let mut in_enum = false;
    for (i, line) in header.lines().enumerate() {
        let line = line.trim_end();
        if let Some(rest) = line.strip_prefix("#define ") {
            // Object-like macros with a value: constants (not the guard, the export macros or
            // function-like ones).
            let mut words = rest.splitn(2, ' ');
            let (name, value) = (words.next().unwrap_or_default(), words.next().unwrap_or_default().trim());
            // Each constant is stored in a variable of the old value's type (`INT32_C(1)`), so a
            // constant that changes kind (a number becoming a string) does not compile.
            let value = value.split(" /*").next().unwrap_or_default().trim();
            // (A text is a `const char *`: its array type would hold its length.)
            let ty = if value.starts_with('"') { "const char *".to_owned() } else { format!("__typeof__({value})") };
            if !name.contains('(') && !value.is_empty() && !line.starts_with("#  ") {
                body.push(format!("    {{ {ty} c{i} = {name}; (void)c{i}; }}"));
            }
            continue;
        }
        if line.starts_with("typedef enum ") {
            in_enum = true;
            continue;
        }
        if in_enum {
            if let Some(name) = line.strip_prefix("} ").and_then(|r| r.strip_suffix(';')) {
                body.push(format!("    (void)sizeof({name});"));
                in_enum = false;
            } else if let Some((name, _)) = line.trim().split_once(" = ") {
                body.push(format!("    (void)({name});"));
            }
            continue;
        }
        if line.starts_with("typedef struct ") {
            if let Some(name) = line.rsplit("} ").next().and_then(|r| r.strip_suffix(';')) {
                body.push(format!("    (void)sizeof({name});"));
            }
            continue;
        }
        if let Some(pointer) = function_pointer(line, i) {
            body.push(pointer);
        }
    }
    format!("#include \"{file}\"\n\nint main(void) {{\n{}\n    return 0;\n}}\n", body.join("\n"))
}

/// `{ RET (*const f_i)(PARAMS) = NAME; (void)f_i; }` for a prototype `... _API RET NAME(PARAMS);`.
fn function_pointer(line: &str, i: usize) -> Option<String> {
    let decl = line.strip_suffix(");")?;
    let after_api = decl.split_once("_API ")?.1;
    let (head, params) = after_api.split_once('(')?;
    let name_start = head.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |p| p + 1);
    let (ret, name) = head.split_at(name_start);
    Some(format!("    {{ {ret}(*const f{i})({params}) = {name}; (void)f{i}; }}"))
}

/// Whether a program using every declaration of `old` compiles against `new` (the headers'
/// directories), and gcc's words when it does not.
fn compiles(old: &Path, new: &Path, file: &str, dir: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(old.join(file)).expect("the old header");
    let program = dir.join("user.c");
    std::fs::write(&program, user_of(&text, file)).expect("write the program");
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let out = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-deprecated-declarations", "-fsyntax-only"])
        .arg(format!("-I{}", new.display()))
        .arg(&program)
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{cc}` ({e}): run ./scripts/test.sh, which installs it"));
    if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}

#[test]
fn diff_and_the_c_compiler_agree_on_every_case() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let (mut checked, mut failures) = (0, Vec::new());
    for name in catalogue() {
        let case = diff_cases::case(&name);
        let side = |s: &str| {
            let members = harness::prepare(&scratch.path().join(&name).join(s), &[Source::Spec(case.join(s))]);
            let member = members.into_iter().next().expect("one member");
            (member.out.join("sdk/include"), member.headers.0)
        };
        let ((old, old_file), (new, new_file)) = (side("old"), side("new"));
        let ours = diff_says_breaking(&case, |a| a.c);
        // A renamed header is a break every user sees at `#include`.
        let theirs = if old_file == new_file { compiles(&old, &new, &old_file, scratch.path()) } else { Err(format!("the header is now `{new_file}`")) };
        checked += 1;
        let blind = BLIND.iter().any(|(c, _)| *c == name);
        match (ours, &theirs) {
            (true, Err(_)) | (false, Ok(())) => assert!(!blind, "{name} is listed as blind, but gcc sees it"),
            (true, Ok(())) if blind => {}
            (true, Ok(())) => {
                failures.push(format!("{name}: diff says breaking for C, and a program written against the old header compiles against the new one"))
            }
            (false, Err(why)) => failures
                .push(format!("{name}: diff says compatible for C, and a program written against the old header does not compile against the new one:\n{why}")),
        }
    }
    assert!(checked >= 100, "only {checked} cases");
    assert!(failures.is_empty(), "{} of {checked} cases disagree:\n\n{}", failures.len(), failures.join("\n\n"));
}
