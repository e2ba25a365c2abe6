//! Links to places outside the site.

use leptos::either::Either;
use leptos::prelude::*;

/// A link when the URL is `http(s)`, plain text otherwise; external links never get the
/// opener or the referrer. When the URL's host is an internationalised name, which a browser
/// visits in its ASCII form (`https://аpple.com/`, with a Cyrillic `а`, is `xn--pple-43d.com`),
/// the host visited is said beside the link ([`visited_host`]).
#[component]
pub fn ExternalLink(
    /// The URL as the manifest gives it.
    url: String,
    /// The link text.
    text: String,
) -> impl IntoView {
    match registry_core::url::safe_link(&url) {
        Some(safe) => {
            let visited = visited_host(safe);
            Either::Left(view! {
                <a
                    class="text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                    href=safe.to_owned()
                    rel="noopener noreferrer"
                >
                    {text}
                </a>
                {visited.map(|host| view! {
                    <span class="ml-1 text-xs text-amber-800 dark:text-amber-300">{format!("(opens {host})")}</span>
                })}
            })
        }
        None => Either::Right(view! { <span>{text}</span> }),
    }
}

/// The host a browser visits for the web address `url`, when it is not the host as written: a
/// name with letters outside ASCII, which the browser visits in its IDNA ASCII form. `None`
/// for an ASCII host, or one the URL parser refuses. In the browser the browser's own `URL`
/// says it; at build time the `url` crate (the same WHATWG rules).
pub fn visited_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let written = authority
        .rsplit_once(':')
        .map_or(authority, |(host, _)| host);
    if written.is_ascii() {
        return None;
    }
    let visited = ascii_host(url)?;
    (visited != written).then_some(visited)
}

#[cfg(target_arch = "wasm32")]
fn ascii_host(url: &str) -> Option<String> {
    web_sys::Url::new(url).ok().map(|parsed| parsed.hostname())
}

#[cfg(not(target_arch = "wasm32"))]
fn ascii_host(url: &str) -> Option<String> {
    url::Url::parse(url).ok()?.host_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_internationalised_host_is_said_as_the_browser_visits_it() {
        let table = [
            ("https://\u{430}pple.com/", Some("xn--pple-43d.com")),
            (
                "https://b\u{fc}cher.example:8443/x",
                Some("xn--bcher-kva.example"),
            ),
            ("https://github.com/example/agent", None),
            ("https://GitHub.com/", None),
            ("https://example.com/\u{e9}", None),
        ];
        for (url, expected) in table {
            assert_eq!(visited_host(url).as_deref(), expected, "{url}");
        }
    }
}
