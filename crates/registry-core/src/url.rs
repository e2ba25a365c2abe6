//! Which URLs may become links.
//!
//! Every URL of a manifest (`repository`, `website`, `license_url`, `icon`, archives) is written
//! by a stranger. Before one becomes an `href` or `src`, [`safe_link`] checks that it is a plain
//! absolute web address: `http:` or `https:`, `//`, a host, and nothing a browser would quietly
//! reinterpret. Everything else (`javascript:`, `data:`, `blob:`, protocol-relative `//host`,
//! hidden characters, credentials before the host) is shown as text instead.
//!
//! `blob:` is refused like the rest: a registry can hold any string, and a `blob:` URL in it
//! would point at whatever object URL of the page's origin its author can guess or the page has
//! made. An object URL the page mints itself (the listing preview's icon) is the page's own, not
//! registry data, and must be passed apart from the entry, never through its fields.

/// The URL, trimmed, when it is an absolute `http:` or `https:` URL with a host; else `None`.
///
/// Rejected beyond other schemes: whitespace, control, zero-width and bidi-override characters
/// anywhere; `\`, `<`, `>`, `"` and `` ` `` anywhere (browsers read `\` as `/`); a
/// `user:password@` part (`https://bank.com@evil.example`); an empty or malformed host or port.
pub fn safe_link(url: &str) -> Option<&str> {
    let url = url.trim();
    if url.chars().any(is_forbidden) {
        return None;
    }
    let (scheme, rest) = url.split_once(':')?;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    let rest = rest.strip_prefix("//")?;
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    if authority.contains('@') {
        return None;
    }
    valid_authority(authority).then_some(url)
}

/// Characters that must not appear anywhere in a link.
fn is_forbidden(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '\\' | '<' | '>' | '"' | '`')
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// `host`, `host:port`, `[v6]` or `[v6]:port`.
fn valid_authority(authority: &str) -> bool {
    let (host_ok, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let Some((address, after)) = v6.split_once(']') else {
                return false;
            };
            let port = match after.strip_prefix(':') {
                Some(port) => port,
                None if after.is_empty() => "",
                None => return false,
            };
            let address_ok = address.contains(':')
                && address
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
            (address_ok, port)
        }
        None => {
            let (host, port) = authority.split_once(':').unwrap_or((authority, ""));
            (valid_host(host), port)
        }
    };
    let port_ok = port.is_empty()
        || (port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok());
    host_ok && port_ok
}

/// A registered name or IPv4 address: dot-separated labels of letters (any script), digits,
/// `-` and `_`, with at most one trailing dot (`example.com.`).
fn valid_host(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    !host.is_empty()
        && host.split('.').all(|label| {
            !label.is_empty()
                && label
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_addresses_pass_trimmed() {
        let table = [
            (
                "https://github.com/example/agent",
                "https://github.com/example/agent",
            ),
            ("http://example.com", "http://example.com"),
            (
                "  https://example.com/a?b=c#d \n",
                "https://example.com/a?b=c#d",
            ),
            ("HTTPS://EXAMPLE.COM/", "HTTPS://EXAMPLE.COM/"),
            ("HtTp://example.com", "HtTp://example.com"),
            ("https://example.com:8443/x", "https://example.com:8443/x"),
            ("https://example.com:/x", "https://example.com:/x"),
            ("https://127.0.0.1/", "https://127.0.0.1/"),
            ("https://[::1]:8080/", "https://[::1]:8080/"),
            ("https://[2001:db8::1]", "https://[2001:db8::1]"),
            ("https://bücher.example/é", "https://bücher.example/é"),
            ("https://example.com.", "https://example.com."),
            ("https://my_host.example?q", "https://my_host.example?q"),
            ("https://example.com#frag", "https://example.com#frag"),
            ("https://example.com/a@b", "https://example.com/a@b"),
            (
                "https://cdn.agentclientprotocol.com/registry/v1/latest/gemini.svg",
                "https://cdn.agentclientprotocol.com/registry/v1/latest/gemini.svg",
            ),
        ];
        for (input, expect) in table {
            assert_eq!(safe_link(input), Some(expect), "{input:?}");
        }
    }

    #[test]
    fn hostile_or_broken_urls_fail() {
        let table = [
            "",
            "   ",
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "\u{0}https://example.com",
            "data:text/html;base64,PHNjcmlwdD4=",
            "vbscript:msgbox(1)",
            "file:///etc/passwd",
            "ftp://example.com",
            "mailto:a@example.com",
            "//evil.example/x",
            "/relative/path",
            "example.com",
            "https:example.com",
            "https:/example.com",
            "https:///example.com",
            "https://",
            "http://?q",
            "http://#x",
            "https://:443",
            "https://exa mple.com",
            "https://example.com/a b",
            "https://example.com/\u{200B}",
            "https://exa\u{202E}mple.com",
            "https://\u{FEFF}example.com",
            "https://example.com\\@evil.example",
            "https:\\\\evil.example",
            "https://user:pass@example.com",
            "https://bank.example@evil.example",
            "https://example.com:99999",
            "https://example.com:80a",
            "https://example.com:-1",
            "https://[::1",
            "https://[not-v6]/",
            "https://[::1]x",
            "https://exa<mple.com",
            "https://example.com/\"onmouseover=\"x",
            "https://example.com/`x`",
            "https://.example.com",
            "https://example..com",
            "https://.",
            "https://exa%6Dple.com",
            "https-evil://example.com",
            "xhttps://example.com",
            // Issue 13: object URLs are the page's own, never registry data.
            "blob:https://catalogue.example/6f1c2a3e-0000-4000-8000-000000000000",
            "blob:null/6f1c2a3e",
            " BLOB:https://catalogue.example/x",
            "filesystem:https://catalogue.example/temporary/x.svg",
        ];
        for input in table {
            assert_eq!(safe_link(input), None, "{input:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn a_link_is_a_trimmed_web_address(url in "\\PC{0,40}", prefix in "(https?|HTTP|javascript|data)?:?/?/?") {
            let input = format!("{prefix}{url}");
            if let Some(link) = safe_link(&input) {
                let lower = link.to_ascii_lowercase();
                proptest::prop_assert!(lower.starts_with("http://") || lower.starts_with("https://"));
                proptest::prop_assert_eq!(link, input.trim());
                proptest::prop_assert!(!link.chars().any(is_forbidden));
            }
        }
    }
}
