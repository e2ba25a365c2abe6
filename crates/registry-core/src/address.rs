//! Where the site is published, and the canonical URLs of its pages and files.
//!
//! A build knows its `SITE_ORIGIN` (`https://agentclientprotocol.com`) and `PUBLIC_URL` (`/` or
//! `/acp/registry/`); every absolute URL the site gives out — canonical links, the sitemap,
//! badge snippets, structured data — is `{origin}{public_url}{path}`, with the path's characters
//! outside `A-Z a-z 0-9 - . _ ~ /` percent-encoded, so a URL never needs escaping in Markdown,
//! reStructuredText or a URL list, and only `&`-style escaping in HTML and XML.
//!
//! `SiteAddress` holds the two and gives the canonical URLs of pages, badges and link-preview
//! images; `page_path`, `badge_path` and `og_image_path` are where the build writes an entry's
//! page, badge and image, relative to the site root.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use crate::model::Entry;

/// Characters a path keeps as they are.
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

/// The origin and base path the site is published at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteAddress {
    origin: String,
    public_url: String,
}

impl SiteAddress {
    /// The address of a site at `origin` (scheme and host; a trailing `/` is dropped) under
    /// `public_url` (given a leading and a trailing `/` when it lacks them).
    pub fn new(origin: &str, public_url: &str) -> SiteAddress {
        let origin = origin.trim().trim_end_matches('/').to_owned();
        let inner = public_url.trim().trim_matches('/');
        let public_url = if inner.is_empty() {
            "/".to_owned()
        } else {
            format!("/{inner}/")
        };
        SiteAddress { origin, public_url }
    }

    /// `https://agentclientprotocol.com`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// `/` or `/acp/registry/`.
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    /// The absolute URL of a path of the site, relative to its root (`agents/gemini/`; a
    /// leading `/` is ignored, `""` is the home page).
    pub fn url(&self, path: &str) -> String {
        let path = path.trim_start_matches('/');
        format!(
            "{}{}{}",
            self.origin,
            self.public_url,
            utf8_percent_encode(path, PATH)
        )
    }

    /// The canonical URL of an entry's page: `{origin}{public_url}agents/<id>/`.
    pub fn page(&self, entry: &Entry) -> String {
        self.url(&page_path(entry))
    }

    /// The URL of an entry's badge: `{origin}{public_url}badge/<id>.svg`.
    pub fn badge(&self, entry: &Entry) -> String {
        self.url(&badge_path(entry))
    }

    /// The URL of an entry's link-preview image: `{origin}{public_url}og/<id>.png`.
    pub fn og_image(&self, entry: &Entry) -> String {
        self.url(&og_image_path(entry))
    }
}

/// Where an entry's pre-rendered page is written, relative to the site root:
/// `agents/<id>/` (`extensions/<id>/`).
pub fn page_path(entry: &Entry) -> String {
    format!("{}/{}/", entry.kind.path_segment(), entry.id)
}

/// Where an entry's badge is written: `badge/<id>.svg`.
pub fn badge_path(entry: &Entry) -> String {
    format!("badge/{}.svg", entry.id)
}

/// Where an entry's link-preview image is written: `og/<id>.png`.
pub fn og_image_path(entry: &Entry) -> String {
    format!("og/{}.png", entry.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_join_origin_base_and_path() {
        for (origin, public_url, path, expected) in [
            (
                "https://acp.dev",
                "/",
                "agents/gemini/",
                "https://acp.dev/agents/gemini/",
            ),
            (
                "https://acp.dev/",
                "acp/registry",
                "/agents/gemini/",
                "https://acp.dev/acp/registry/agents/gemini/",
            ),
            (
                " https://acp.dev ",
                "/acp/registry/",
                "",
                "https://acp.dev/acp/registry/",
            ),
            (
                "https://acp.dev",
                "",
                "a b/(x)<y>\"é",
                "https://acp.dev/a%20b/%28x%29%3Cy%3E%22%C3%A9",
            ),
            (
                "https://acp.dev",
                "/",
                "badge/x&y'z.svg",
                "https://acp.dev/badge/x%26y%27z.svg",
            ),
        ] {
            assert_eq!(
                SiteAddress::new(origin, public_url).url(path),
                expected,
                "{path}"
            );
        }
    }
}
