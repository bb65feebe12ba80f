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

/// Names for ids that must stay distinct once converted (the values of one enum): each id as
/// it is, except where two would convert to the same words (`link` and `-link`, both `Link`):
/// those have their symbols spelled out (`minus_link`), and a name still shared after that
/// takes its position in the list.
pub fn distinct(ids: &[&str]) -> Vec<String> {
    let key = |s: &str| words(s).join("_");
    let shared = |list: &[String], i: usize| list.iter().enumerate().any(|(j, other)| j != i && key(other) == key(&list[i]));
    let plain: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    let spelled: Vec<String> = plain.iter().enumerate().map(|(i, id)| if shared(&plain, i) { spell_symbols(id) } else { id.clone() }).collect();
    spelled.iter().enumerate().map(|(i, name)| if shared(&spelled, i) { format!("{name}_{i}") } else { name.clone() }).collect()
}

/// An id with each character that is not a letter or digit spelled as a word (`-link` ->
/// `minus_link`).
fn spell_symbols(id: &str) -> String {
    let mut out = String::new();
    for c in id.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
            continue;
        }
        let word = match c {
            '-' => "minus".to_owned(),
            '+' => "plus".to_owned(),
            '.' => "dot".to_owned(),
            '/' => "slash".to_owned(),
            ':' => "colon".to_owned(),
            ' ' => "space".to_owned(),
            '_' => "underscore".to_owned(),
            '@' => "at".to_owned(),
            '#' => "hash".to_owned(),
            '*' => "star".to_owned(),
            '&' => "and".to_owned(),
            other => format!("u{:04x}", other as u32),
        };
        out.push('_');
        out.push_str(&word);
        out.push('_');
    }
    out
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
        assert_eq!(distinct(&["link", "-link", "embed"]), ["link", "_minus_link", "embed"]);
        assert_eq!(pascal(&distinct(&["link", "-link"])[1]), "MinusLink");
        assert_eq!(distinct(&["Running", "running"]), ["Running_0", "running_1"]);
    }
}
