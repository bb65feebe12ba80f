//! Case conversion: the one place spec ids become identifiers of each target language.
//!
//! Ids split into words at separators and case changes. Two spellings real APIs use as
//! distinct values keep their difference: a leading `-` or `+` is a word of its own (`minus`,
//! `plus`: `-created_at` is `MinusCreatedAt`, `created_at` is `CreatedAt`), and a character
//! outside ASCII becomes the word `u` + its code point in hex (`café` is `caf_u00e9`). So every
//! converted identifier is ASCII, and it never ends in `_`: a trailing underscore is left to
//! escapes ([`rust_ident`], [`escape`]), which therefore cannot collide with a converted id.

/// Splits an id into lowercase words: `PIN_MESSAGES`, `pin-messages`, `PinMessages`,
/// `identify.premium` and `Client::GetToken` all split on their separators and case changes;
/// a leading sign and each non-ASCII character are words of their own.
pub fn words(id: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = id.chars().collect();
    match chars.iter().position(|c| !c.is_whitespace()).map(|i| chars[i]) {
        Some('-') => out.push("minus".to_owned()),
        Some('+') => out.push("plus".to_owned()),
        _ => {}
    }
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii() && c.is_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            out.push(format!("u{:04x}", c as u32));
            continue;
        }
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_ascii_uppercase()
            && !current.is_empty()
            && (prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                || next.is_some_and(|n| n.is_ascii_lowercase()) && prev.is_some_and(|p| p.is_ascii_uppercase()));
        if boundary {
            out.push(std::mem::take(&mut current));
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `snake_case`.
pub fn snake(id: &str) -> String {
    words(id).join("_")
}

/// `SCREAMING_SNAKE_CASE`.
pub fn screaming(id: &str) -> String {
    snake(id).to_ascii_uppercase()
}

/// `PascalCase`.
pub fn pascal(id: &str) -> String {
    words(id).iter().map(|w| capitalize(w)).collect()
}

/// `camelCase`.
pub fn camel(id: &str) -> String {
    let p = pascal(id);
    let mut chars = p.chars();
    chars.next().map(|c| c.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// Rust keywords, strict and reserved, of every edition.
pub const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop",
    "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract",
    "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "self", "Self", "super", "crate",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Keywords of C (C99 to C23) and C++ (to C++23), and the names the standard headers the
/// generated headers include define as macros or types, which an identifier must not take.
pub const C_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "atomic_cancel",
    "atomic_commit",
    "atomic_noexcept",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "concept",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "const_cast",
    "continue",
    "co_await",
    "co_return",
    "co_yield",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "reflexpr",
    "register",
    "reinterpret_cast",
    "requires",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "synchronized",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "typeof_unqual",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
    "final",
    "override",
    "import",
    "module",
    "NULL",
    "EOF",
    "errno",
    "assert",
    "offsetof",
    "std",
    "size_t",
];

/// `name` with a trailing underscore when `reserved` holds it: the escape for keywords and for
/// names the generator itself gives in the same scope. Converted ids never end in `_`, so the
/// escaped name cannot be another id's.
pub fn escape(name: String, reserved: &[&str]) -> String {
    if reserved.contains(&name.as_str()) { name + "_" } else { name }
}

/// A Rust identifier for `name`, escaped as a raw identifier when it is a keyword
/// (`type` -> `r#type`); keywords that cannot be raw (`self`, `Self`, `super`, `crate`) get a
/// trailing underscore.
pub fn rust_ident(name: &str) -> proc_macro2::Ident {
    // Names come from the spec (SDK classes, fields, enum values): one that is no identifier
    // (`5`, `a-b`, empty) is made one instead of panicking `proc_macro2`: ASCII letters,
    // digits and `_`, never leading with a digit.
    let plain: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let name = if plain.is_empty() || plain.starts_with(|c: char| c.is_ascii_digit()) { format!("_{plain}") } else { plain };
    let name = name.as_str();
    if NOT_RAW.contains(&name) {
        proc_macro2::Ident::new(&format!("{name}_"), proc_macro2::Span::call_site())
    } else if RUST_KEYWORDS.contains(&name) {
        proc_macro2::Ident::new_raw(name, proc_macro2::Span::call_site())
    } else {
        proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_name_becomes_an_identifier() {
        for (name, ident) in [("5", "_5"), ("", "__"), ("a-b", "a_b"), ("é", "__"), ("type", "r#type"), ("self", "self_"), ("ok_1", "ok_1")] {
            assert_eq!(rust_ident(name).to_string(), ident, "{name}");
        }
    }

    #[test]
    fn converts_every_spelling() {
        assert_eq!(pascal("PIN_MESSAGES"), "PinMessages");
        assert_eq!(pascal("pin-messages-required"), "PinMessagesRequired");
        assert_eq!(snake("AuthorizationArgs"), "authorization_args");
        assert_eq!(snake("identify.premium"), "identify_premium");
        assert_eq!(screaming("sdk.social_layer"), "SDK_SOCIAL_LAYER");
        assert_eq!(pascal("Client::GetToken"), "ClientGetToken");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(camel("get_guild_channels"), "getGuildChannels");
        assert_eq!(snake("cpuAffinityMask"), "cpu_affinity_mask");
        assert_eq!(rust_ident("type").to_string(), "r#type");
        assert_eq!(rust_ident("Self").to_string(), "Self_");
    }

    #[test]
    fn signs_and_non_ascii_letters_keep_ids_apart() {
        assert_eq!(pascal("-user"), "MinusUser");
        assert_eq!(pascal("user"), "User");
        assert_eq!(snake("+1"), "plus_1");
        assert_eq!(snake("café"), "caf_u00e9");
        assert_eq!(pascal("名前"), "U540dU524d");
        assert_eq!(escape("KNOWN".into(), &["KNOWN"]), "KNOWN_");
    }
}
