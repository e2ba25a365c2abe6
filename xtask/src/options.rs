//! The site's build settings, as `cargo xtask dist`, `test`, `bench` and `cli` take them: where
//! the app finds the registry and its other files, its base path and origin, and the source it
//! reads ([`DistOptions`], passed to the site's Cargo build as environment variables by
//! [`DistOptions::site_env`]). The build ([`crate::dist`]), the page renderer ([`crate::pages`])
//! and the Content-Security-Policy ([`crate::csp`]) all read them from here.

use std::path::PathBuf;

use anyhow::{Result, ensure};

pub use registry_core::RegistryKind;

/// Where the app finds the protocol matrix unless `--protocol-matrix-url` says otherwise.
pub const DEFAULT_PROTOCOL_MATRIX_URL: &str = "protocol-matrix.json";

/// Where the app finds the JetBrains view unless `--jetbrains-view-url` says otherwise.
pub const DEFAULT_JETBRAINS_VIEW_URL: &str = "registry-for-jetbrains.json";

/// Where the app finds the JetBrains preview view unless `--jetbrains-preview-view-url` says
/// otherwise.
pub const DEFAULT_JETBRAINS_PREVIEW_VIEW_URL: &str = "registry-for-jetbrains-preview.json";

/// Where the app finds the quarantine list unless `--quarantine-url` says otherwise.
pub const DEFAULT_QUARANTINE_URL: &str = "quarantine.json";

/// Where the site is published unless `--site-origin` says otherwise.
pub const DEFAULT_SITE_ORIGIN: &str = "https://agentclientprotocol.com";

/// What to build and where.
#[derive(Debug, Clone)]
pub struct DistOptions {
    /// Path the site is served under, starting and ending with `/`.
    pub public_url: String,
    /// URL of `registry.json` as the app fetches it (relative to `index.html` or absolute), or
    /// the base URL of an AgentRegistry service.
    pub registry_url: String,
    /// What `registry_url` is.
    pub registry_kind: RegistryKind,
    /// URL of the protocol matrix (relative to `index.html` or absolute); ACP registries only.
    pub protocol_matrix_url: String,
    /// URL of the JetBrains view (relative to `index.html` or absolute); ACP registries only.
    pub jetbrains_view_url: String,
    /// URL of the JetBrains preview view; ACP registries only.
    pub jetbrains_preview_view_url: String,
    /// URL of the quarantine list; ACP registries only.
    pub quarantine_url: String,
    /// Output directory (absolute); Trunk empties it first.
    pub out_dir: PathBuf,
    /// Scheme and host the site is published at, without a trailing slash, for the canonical
    /// and link-preview URLs of pre-rendered pages.
    pub site_origin: String,
    /// The registry file to pre-render entry pages from, in place of the build's own.
    pub prerender_registry: Option<PathBuf>,
    /// Whether pages are rendered from the registry known at build time; without, every page
    /// is the loading shell (for a site that will serve registries it never saw).
    pub prerender: bool,
}

impl DistOptions {
    /// Checks the options: the public URL must start and end with `/`, the registry URL must not
    /// be empty. The site origin is [`DEFAULT_SITE_ORIGIN`] and pre-rendering uses the build's
    /// registry file.
    pub fn new(public_url: String, registry_url: String, out_dir: PathBuf) -> Result<Self> {
        ensure!(
            public_url.starts_with('/') && public_url.ends_with('/'),
            "public URL `{public_url}` must start and end with `/`, e.g. `/` or `/acp/registry/`"
        );
        ensure!(
            !registry_url.trim().is_empty(),
            "registry URL is empty: use `registry.json` (the bundled copy) or a full URL"
        );
        Ok(Self {
            public_url,
            registry_url,
            registry_kind: RegistryKind::Acp,
            protocol_matrix_url: DEFAULT_PROTOCOL_MATRIX_URL.to_owned(),
            jetbrains_view_url: DEFAULT_JETBRAINS_VIEW_URL.to_owned(),
            jetbrains_preview_view_url: DEFAULT_JETBRAINS_PREVIEW_VIEW_URL.to_owned(),
            quarantine_url: DEFAULT_QUARANTINE_URL.to_owned(),
            out_dir,
            site_origin: DEFAULT_SITE_ORIGIN.to_owned(),
            prerender_registry: None,
            prerender: true,
        })
    }

    /// Sets the site origin: an absolute `http(s)` URL with a host and no path, query or
    /// fragment (a trailing `/` is dropped).
    pub fn with_site_origin(mut self, origin: &str) -> Result<Self> {
        let origin = origin.trim().strip_suffix('/').unwrap_or(origin.trim());
        let authority = origin
            .split_once("://")
            .map_or("", |(_, authority)| authority);
        ensure!(
            registry_core::url::safe_link(origin).is_some() && !authority.contains(['/', '?', '#']),
            "site origin `{origin}` must be an http(s) scheme and host without a path, \
             e.g. `https://agentclientprotocol.com`"
        );
        self.site_origin = origin.to_owned();
        Ok(self)
    }

    /// Sets the registry kind. An AgentRegistry is a live service: its URL must be absolute
    /// `http(s)`, and no entry page is pre-rendered from it.
    pub fn with_registry_kind(mut self, kind: RegistryKind) -> Result<Self> {
        if kind == RegistryKind::AgentRegistry {
            ensure!(
                registry_core::url::safe_link(self.registry_url.trim()).is_some(),
                "with --registry-kind agentregistry, --registry-url must be the service's base \
                 URL, e.g. `https://agents.example.com` (got `{}`)",
                self.registry_url
            );
        }
        self.registry_kind = kind;
        Ok(self)
    }

    /// Sets the protocol matrix URL (relative to `index.html` or absolute).
    pub fn with_protocol_matrix_url(mut self, url: String) -> Result<Self> {
        ensure!(
            !url.trim().is_empty(),
            "protocol matrix URL is empty: use `protocol-matrix.json` (the bundled copy) or a full URL"
        );
        self.protocol_matrix_url = url;
        Ok(self)
    }

    /// Sets the URLs of the registry's other lists: the JetBrains view, the JetBrains preview
    /// view and the quarantine list (each relative to `index.html` or absolute).
    pub fn with_listing_urls(
        mut self,
        jetbrains: String,
        jetbrains_preview: String,
        quarantine: String,
    ) -> Result<Self> {
        for (url, flag, default) in [
            (
                &jetbrains,
                "--jetbrains-view-url",
                DEFAULT_JETBRAINS_VIEW_URL,
            ),
            (
                &jetbrains_preview,
                "--jetbrains-preview-view-url",
                DEFAULT_JETBRAINS_PREVIEW_VIEW_URL,
            ),
            (&quarantine, "--quarantine-url", DEFAULT_QUARANTINE_URL),
        ] {
            ensure!(
                !url.trim().is_empty(),
                "{flag} is empty: use `{default}` (the bundled copy) or a full URL"
            );
        }
        self.jetbrains_view_url = jetbrains;
        self.jetbrains_preview_view_url = jetbrains_preview;
        self.quarantine_url = quarantine;
        Ok(self)
    }

    /// Pre-renders entry pages from this registry file instead of the build's own (needed when
    /// the registry URL is remote: it is never fetched at build time).
    pub fn with_prerender_registry(mut self, file: Option<PathBuf>) -> Self {
        self.prerender_registry = file;
        self
    }

    /// Renders every page as the loading shell, whatever registry the build has.
    pub fn shell_only(mut self) -> Self {
        self.prerender = false;
        self
    }

    /// The site's build-time settings, as the environment both compilations of the site (the
    /// wasm and the native renderer) read them from.
    pub fn site_env(&self) -> [(&'static str, &str); 8] {
        [
            ("PUBLIC_URL", &self.public_url),
            ("REGISTRY_URL", &self.registry_url),
            ("REGISTRY_KIND", self.registry_kind.as_str()),
            ("PROTOCOL_MATRIX_URL", &self.protocol_matrix_url),
            ("JETBRAINS_VIEW_URL", &self.jetbrains_view_url),
            (
                "JETBRAINS_PREVIEW_VIEW_URL",
                &self.jetbrains_preview_view_url,
            ),
            ("QUARANTINE_URL", &self.quarantine_url),
            ("SITE_ORIGIN", &self.site_origin),
        ]
    }
}

/// Reads `--registry-kind`: `acp` or `agentregistry`.
pub fn parse_registry_kind(word: &str) -> std::result::Result<RegistryKind, String> {
    RegistryKind::parse(word.trim()).ok_or_else(|| {
        let words: Vec<&str> = RegistryKind::ALL.iter().map(|k| k.as_str()).collect();
        format!(
            "`{word}` is not a registry kind: use one of {}",
            words.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_kinds_are_read_by_their_words() {
        assert_eq!(parse_registry_kind("acp"), Ok(RegistryKind::Acp));
        assert_eq!(
            parse_registry_kind(" agentregistry "),
            Ok(RegistryKind::AgentRegistry)
        );
        let error = parse_registry_kind("mcp").unwrap_err();
        assert!(error.contains("acp, agentregistry"), "{error}");
    }

    #[test]
    fn public_url_must_start_and_end_with_a_slash() {
        let cases = [
            ("/", true),
            ("/acp/registry/", true),
            ("", false),
            ("/acp", false),
            ("acp/", false),
        ];
        for (public_url, valid) in cases {
            let options = DistOptions::new(public_url.into(), "registry.json".into(), "d".into());
            assert_eq!(options.is_ok(), valid, "{public_url:?}");
        }
    }

    #[test]
    fn site_origin_is_a_scheme_and_host_only() {
        let cases = [
            (
                "https://agentclientprotocol.com",
                Some("https://agentclientprotocol.com"),
            ),
            (
                "https://agentclientprotocol.com/",
                Some("https://agentclientprotocol.com"),
            ),
            ("http://localhost:8080", Some("http://localhost:8080")),
            ("https://example.com/acp", None),
            ("https://example.com?x", None),
            ("https://example.com#x", None),
            ("https://user@example.com", None),
            ("agentclientprotocol.com", None),
            ("//agentclientprotocol.com", None),
            ("ftp://example.com", None),
            ("javascript:alert(1)", None),
            ("https://", None),
            ("", None),
        ];
        for (origin, expected) in cases {
            let options = DistOptions::new("/".into(), "registry.json".into(), "d".into())
                .unwrap()
                .with_site_origin(origin);
            assert_eq!(
                options.ok().map(|o| o.site_origin).as_deref(),
                expected,
                "{origin:?}"
            );
        }
    }
}
