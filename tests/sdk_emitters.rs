//! The `sdk` artifact (C header, C++ header, Rust library) as text: golden files over the fixture
//! spec, and proof that the three follow the spec together.
//!
//! Bless new golden files with `UPDATE_EXPECT=1 cargo test --test all sdk_emitters::`.

use platform_codegen::emit::{EmitOptions, GeneratedFile, emit_all};
use platform_codegen::model::{Model, TypeRef};
use platform_codegen::plan::case::{pascal, screaming};
use platform_specgen::golden;
use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(dir: &Path) -> Model {
    platform_codegen::load_spec(dir, "spec").unwrap_or_else(|_| panic!("{} is invalid", dir.display())).model
}

/// The files of the `sdk` artifact, by their path under `sdk/`.
fn sdk_files(model: &Model) -> Vec<GeneratedFile> {
    emit_all(model, &EmitOptions::default()).into_iter().filter(|f| f.artifact == "sdk").collect()
}

fn file<'a>(files: &'a [GeneratedFile], path: &str) -> &'a str {
    &files.iter().find(|f| f.path == path).unwrap_or_else(|| panic!("no {path} among the sdk files")).contents
}

#[test]
fn fixture_output_matches_the_golden_files() {
    let files = sdk_files(&load(&root().join("tests/fixtures/minimal")));
    let texts = files.iter().map(|f| (f.path.as_str(), f.contents.as_str()));
    golden::compare_tree(&root().join("tests/fixtures/minimal/expected"), texts, &["sdk"], "sdk_emitters");
}

/// Lines of `after` that are not in `before`.
fn added_lines<'a>(before: &str, after: &'a str) -> Vec<&'a str> {
    let old: BTreeSet<&str> = before.lines().collect();
    after.lines().filter(|l| !old.contains(l)).collect()
}

#[test]
fn a_permission_bit_changed_in_the_spec_changes_c_cpp_and_rust_together() {
    let mut model = load(&root().join("spec"));
    let before = sdk_files(&model);
    let used: BTreeSet<u32> = model.permissions.iter().filter_map(|p| p.bit).collect();
    let new_bit = (0..64).rev().find(|b| !used.contains(b)).expect("a free bit");
    let permission = model.permissions.iter_mut().find(|p| p.bit.is_some()).expect("a permission with a bit");
    let old_bit = permission.bit.replace(new_bit).unwrap();
    let name = format!("PERMISSION_{}", screaming(&permission.meta.id));
    let prefixes = &model.platform.prefixes;
    let (c_path, cpp_path) = (format!("sdk/include/{}", prefixes.c_header), format!("sdk/include/{}", prefixes.cpp_header));
    let (c_name, cpp_name) = (format!("{}{name}", prefixes.c_macro), pascal(&name));
    let after = sdk_files(&model);

    let expect = [
        (c_path.as_str(), format!("#define {c_name} (UINT64_C(1) << {new_bit})"), format!("#define {c_name} (UINT64_C(1) << {old_bit})")),
        (
            cpp_path.as_str(),
            format!("inline constexpr std::uint64_t {cpp_name} = std::uint64_t{{1}} << {new_bit};"),
            format!("{cpp_name} = std::uint64_t{{1}} << {old_bit};"),
        ),
        ("sdk/src/consts.rs", format!("pub const {name}: u64 = 1 << {new_bit};"), format!("pub const {name}: u64 = 1 << {old_bit};")),
    ];
    for (path, new_line, old_line) in expect {
        let (old_text, new_text) = (file(&before, path), file(&after, path));
        assert!(old_text.contains(&old_line), "{path} did not have `{old_line}` before the change");
        assert_eq!(added_lines(old_text, new_text), [new_line.as_str()], "{path}: exactly the constant's line changes");
    }
    let unchanged: Vec<&str> = after.iter().filter(|f| file(&before, &f.path) == f.contents).map(|f| f.path.as_str()).collect();
    assert_eq!(unchanged.len(), after.len() - 3, "only the three files with the constant change, not {unchanged:?}");
}

#[test]
fn the_default_of_a_field_is_documented_on_its_functions() {
    let model = load(&root().join("spec"));
    let files = sdk_files(&model);
    for class in &model.classes {
        for field in class.fields.iter().filter(|f| f.default_text.is_some()) {
            let line = format!("Defaults to {}.", field.default_text.as_deref().unwrap());
            for path in ["sdk/include/cplatform.h", "sdk/include/platformpp.h", "sdk/src/types.rs"] {
                assert!(file(&files, path).contains(&line), "{path} does not document the default of {}.{}", class.meta.id, field.name);
            }
        }
    }
}

/// The header's text with wrapped comment lines joined, so a sentence reads on one line.
fn unwrapped(header: &str) -> String {
    header.replace("\n *   ", " ").replace("\n * ", " ")
}

#[test]
fn what_the_spec_does_not_show_is_left_out_with_a_comment_saying_so() {
    let model = load(&root().join("spec"));
    let files = sdk_files(&model);
    let header = unwrapped(file(&files, &format!("sdk/include/{}", model.platform.prefixes.c_header)));
    let unshown: Vec<&str> = model.permissions.iter().filter(|p| p.bit.is_none()).map(|p| p.meta.id.as_str()).collect();
    assert!(!unshown.is_empty());
    for id in &unshown {
        assert!(!header.contains(&format!("PERMISSION_{} ", screaming(id))), "{id} has no bit but has a constant");
    }
    assert!(header.contains(&format!("Left out, their bits are not shown: {}.", unshown.join(", "))), "the header must name the permissions it leaves out");

    // An enum whose values are not shown is a plain integer type with no invented values.
    let used_enums: BTreeSet<String> = model
        .classes
        .iter()
        .flat_map(|c| &c.fields)
        .filter_map(|f| match &f.ty {
            Some(TypeRef::Enum(id)) => Some(id.clone()),
            _ => None,
        })
        .collect();
    for e in model.enums.iter().filter(|e| e.values.is_empty() && used_enums.contains(&e.meta.id)) {
        let c_name = format!("{}{}", model.platform.prefixes.c_type, pascal(&e.meta.id));
        assert!(header.contains(&format!("typedef int32_t {c_name};")), "{c_name} must be a plain integer type");
        assert!(!header.contains(&format!("typedef enum {c_name}")), "{c_name} must have no named values");
    }

    // A class whose members are not shown has only its lifecycle.
    for class in model.classes.iter().filter(|c| c.fields.is_empty()) {
        let prefix = format!("{}{}_", model.platform.prefixes.c_type, pascal(&class.meta.id));
        let functions: BTreeSet<&str> =
            header.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| w.starts_with(&prefix)).map(|w| &w[prefix.len()..]).collect();
        assert_eq!(functions, BTreeSet::from(["Init", "Drop", "Clone"]), "{} has members the spec does not show", class.meta.id);
    }
}
