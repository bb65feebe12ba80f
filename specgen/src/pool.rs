//! The names random specs are made of: chosen to break identifier generation.
//!
//! Beside plain words, the pool holds the keywords of every target language, spellings that
//! collide after case conversion (`user_name`, `userName`, `UserName`), spellings real APIs use
//! as distinct values (`user` and `-user`), letters outside ASCII, leading digits and signs,
//! quotes and backslashes, and every identifier the generator itself writes (harvested from what
//! it makes of a plain spec), so spec names meet the generator's own names in every scope.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Keywords of Rust, C and C++, and names the standard headers define.
pub const KEYWORDS: &[&str] = &[
    "type",
    "self",
    "Self",
    "super",
    "crate",
    "fn",
    "match",
    "async",
    "await",
    "dyn",
    "impl",
    "mod",
    "ref",
    "box",
    "yield",
    "try",
    "gen",
    "union",
    "static",
    "trait",
    "unsafe",
    "where",
    "use",
    "pub",
    "let",
    "loop",
    "move",
    "mut",
    "in",
    "as",
    "macro",
    "class",
    "int",
    "delete",
    "new",
    "default",
    "namespace",
    "this",
    "register",
    "template",
    "operator",
    "typename",
    "void",
    "bool",
    "char",
    "auto",
    "NULL",
    "EOF",
    "std",
    "errno",
    "assert",
    "and",
    "or",
    "not",
    "xor",
    "sizeof",
    "switch",
    "case",
    "goto",
    "inline",
    "volatile",
    "extern",
    "signed",
    "unsigned",
    "float",
    "double",
    "long",
    "short",
    "const",
    "enum",
    "struct",
    "true",
    "false",
    "for",
    "while",
    "do",
    "if",
    "else",
    "return",
    "break",
    "continue",
    "private",
    "public",
    "virtual",
    "explicit",
    "friend",
    "nullptr",
    "restrict",
    "_Bool",
    "main",
    "String",
    "Vec",
    "Option",
    "Box",
    "Result",
    "Ok",
    "Err",
    "Some",
    "None",
    "Default",
    "Clone",
    "Debug",
    "Send",
    "Sync",
    "str",
    "u64",
    "i32",
    "usize",
];

/// Spellings that become one identifier after case conversion, or that real APIs keep apart.
pub const COLLIDING: &[&str] = &[
    "user",
    "-user",
    "+user",
    "User",
    "USER",
    "user_name",
    "userName",
    "UserName",
    "USER_NAME",
    "user-name",
    "user.name",
    "a1",
    "a_1",
    "A1",
    "created_at",
    "-created_at",
    "createdAt",
    "HTTPServer",
    "http_server",
    "HttpServer",
    "ID",
    "id",
    "Id",
    "get",
    "GET",
    "Get",
    "x",
    "X",
    "-x",
    "unknown",
    "Unknown",
    "UNKNOWN",
    "unnamed",
    "Unnamed",
];

/// Letters outside ASCII, leading digits and signs, separators, quotes.
pub const ODD: &[&str] = &[
    "café",
    "cafe",
    "名前",
    "naïve",
    "Ünïcödé",
    "ß",
    "Ωmega",
    "über_field",
    "3d",
    "1st",
    "-1",
    "+1",
    "0",
    "9lives",
    "_hidden",
    "__proto__",
    "-",
    "+",
    "two words",
    "dot.ted",
    "kebab-case",
    "Colon::Sep",
    "quote\"d",
    "back\\slash",
    "tab\tbed",
    "trailing_",
    "__",
    "ends-",
    "$dollar",
    "@at",
    "a/b",
];

/// Ordinary words.
pub const PLAIN: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "epsilon", "widget", "gadget", "lobby", "channel", "message", "guild", "member", "invite", "color", "shape", "status",
    "label", "owner", "parent", "child", "node", "tree", "link", "token", "scope", "limit", "region", "locale", "avatar", "banner", "topic", "thread",
    "reaction", "sticker", "emoji", "webhook", "audit", "entry",
];

/// Every name of the pool: the lists above and the generator's own identifiers.
pub fn all() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut out: Vec<String> = KEYWORDS.iter().chain(COLLIDING).chain(ODD).chain(PLAIN).map(|s| s.to_string()).collect();
        let known: BTreeSet<String> = out.iter().cloned().collect();
        out.extend(crate::harvest::identifiers().iter().filter(|i| !known.contains(*i)).cloned());
        out
    })
}

/// Whether `name` can be written where the format parses an identifier (`condition(ARG)`
/// calls and their arguments).
pub fn is_plain_ident(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `name` can sit between braces in a path template (`/widgets/{name}`).
pub fn is_path_safe(name: &str) -> bool {
    !name.is_empty() && !name.contains(['{', '}', '/', '?', '#', '%', ' ', '\t', '"', '\\'])
}
