//! Case conversion: the one place spec ids become identifiers of each target language.

/// Splits an id into lowercase words: `PIN_MESSAGES`, `pin-messages`, `PinMessages`,
/// `identify.premium` and `Client::GetToken` all split on their separators and case changes.
pub fn words(id: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = id.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
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

/// A Rust identifier for `name`, escaped as a raw identifier when it is a keyword
/// (`type` -> `r#type`); `self`-like keywords that cannot be raw get a trailing underscore.
pub fn rust_ident(name: &str) -> proc_macro2::Ident {
    const STRICT: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false", "fn", "for", "gen", "if",
        "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait",
        "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override",
        "priv", "typeof", "unsized", "virtual", "yield", "try",
    ];
    const NOT_RAW: &[&str] = &["self", "Self", "super", "crate"];
    // Names come from the spec (SDK classes, fields, enum values): one that is no identifier
    // (`5`, `a-b`, empty) is made one instead of panicking `proc_macro2`: ASCII letters,
    // digits and `_`, never leading with a digit.
    let plain: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    let name = if plain.is_empty() || plain.starts_with(|c: char| c.is_ascii_digit()) { format!("_{plain}") } else { plain };
    let name = name.as_str();
    if NOT_RAW.contains(&name) {
        proc_macro2::Ident::new(&format!("{name}_"), proc_macro2::Span::call_site())
    } else if STRICT.contains(&name) {
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
        for (name, ident) in [("5", "_5"), ("", "_"), ("a-b", "a_b"), ("é", "_"), ("type", "r#type"), ("self", "self_"), ("ok_1", "ok_1")] {
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
    }
}
