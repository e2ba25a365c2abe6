//! The site's settings: where it finds the registry and its other files, and where it is
//! published.
//!
//! One compiled site serves every configuration. The build (`cargo xtask dist`) writes the
//! settings into every page it renders, as a JSON data block in the head
//! ([`SiteSettings::to_html`]: `<script type="application/json" id="acp-settings">`), and the
//! app reads them from the page it starts on ([`SiteSettings::from_json`]); the build's own
//! renderer reads them from the same block, so the HTML and the app always agree. A data block
//! is never run, so the Content-Security-Policy need not allow it, and nothing in the page's
//! address can change it: a query parameter choosing the registry would let anyone show forged
//! install commands under the site's name.
//!
//! [`SiteSettings::check`] is the one place the settings are judged, for the build's flags and
//! for the page's block alike: every problem is named with the setting and what to write.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::address::SiteAddress;
use crate::source::RegistryKind;

/// The `id` of the `<script type="application/json">` element holding a page's settings.
pub const SETTINGS_ID: &str = "acp-settings";

/// Where the app finds the registry unless told otherwise: the copy beside `index.html`.
pub const DEFAULT_REGISTRY_URL: &str = "registry.json";
/// Where the app finds the protocol matrix unless told otherwise.
pub const DEFAULT_PROTOCOL_MATRIX_URL: &str = "protocol-matrix.json";
/// Where the app finds the JetBrains view unless told otherwise.
pub const DEFAULT_JETBRAINS_VIEW_URL: &str = "registry-for-jetbrains.json";
/// Where the app finds the JetBrains preview view unless told otherwise.
pub const DEFAULT_JETBRAINS_PREVIEW_VIEW_URL: &str = "registry-for-jetbrains-preview.json";
/// Where the app finds the quarantine list unless told otherwise.
pub const DEFAULT_QUARANTINE_URL: &str = "quarantine.json";
/// Where the site is published unless told otherwise.
pub const DEFAULT_SITE_ORIGIN: &str = "https://agentclientprotocol.com";
/// The edition of the bundled `registry.json`: the newest dated file of the data it was made
/// from, the registry's protocol probe of 2026-08-20 (`public/REGISTRY-NOTICE.txt`).
pub const BUNDLED_REGISTRY_EDITION: &str = "2026-08-20";
/// An optional file's URL that means "this site has none" (it is not fetched).
pub const NO_FILE: &str = "none";

/// Everything a deployment may change without compiling the site again.
///
/// URLs of data files are relative to the site's `index.html` (its `<base>`) or absolute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SiteSettings {
    /// What [`SiteSettings::registry_url`] is: an ACP `registry.json` or an AgentRegistry.
    pub kind: RegistryKind,
    /// The ACP `registry.json`, or the base URL of an AgentRegistry service.
    pub registry_url: String,
    /// The registry's daily probe results; optional: without it pages say "not probed".
    pub protocol_matrix_url: String,
    /// The registry's view for JetBrains IDEs; optional.
    pub jetbrains_view_url: String,
    /// The registry's JetBrains preview channel; optional.
    pub jetbrains_preview_view_url: String,
    /// The agents the registry's automation skips; optional.
    pub quarantine_url: String,
    /// The path the site is served under, starting and ending with `/`.
    pub public_url: String,
    /// The scheme and host the site is published at, without a path or a trailing `/`.
    pub site_origin: String,
    /// Which build of the registry `registry_url` serves, when its URL does not say: a
    /// snapshot name (`v2026.12.07-1a2b3c4`) or the day it was published (see
    /// [`crate::edition`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry_edition: Option<String>,
}

impl Default for SiteSettings {
    /// The bundled registry and its files, at `/` of `https://agentclientprotocol.com`.
    fn default() -> Self {
        SiteSettings {
            kind: RegistryKind::Acp,
            registry_url: DEFAULT_REGISTRY_URL.to_owned(),
            protocol_matrix_url: DEFAULT_PROTOCOL_MATRIX_URL.to_owned(),
            jetbrains_view_url: DEFAULT_JETBRAINS_VIEW_URL.to_owned(),
            jetbrains_preview_view_url: DEFAULT_JETBRAINS_PREVIEW_VIEW_URL.to_owned(),
            quarantine_url: DEFAULT_QUARANTINE_URL.to_owned(),
            public_url: "/".to_owned(),
            site_origin: DEFAULT_SITE_ORIGIN.to_owned(),
            registry_edition: Some(BUNDLED_REGISTRY_EDITION.to_owned()),
        }
    }
}

/// A setting that cannot be used, and what to write instead.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingsError {
    /// The page's block is not the settings' JSON.
    #[error(
        "the site's settings (<script id=\"{SETTINGS_ID}\">) cannot be read: {0}; \
         build the site again with `cargo xtask dist`"
    )]
    Json(String),
    /// The page has no settings block.
    #[error(
        "this page has no settings (<script id=\"{SETTINGS_ID}\">): \
         serve a site built with `cargo xtask dist`"
    )]
    Missing,
    /// A setting's value is unusable.
    #[error("{setting} `{value}` {problem}")]
    Invalid {
        /// The setting, as a command-line flag names it (`--public-url`).
        setting: &'static str,
        /// The value given.
        value: String,
        /// What is wrong and what would do, e.g. "must start and end with `/`, e.g. …".
        problem: &'static str,
    },
}

impl SiteSettings {
    /// Reads a page's settings block and checks it: every setting must be there, and nothing
    /// else.
    pub fn from_json(text: &str) -> Result<SiteSettings, SettingsError> {
        let settings: SiteSettings =
            serde_json::from_str(text).map_err(|e| SettingsError::Json(e.to_string()))?;
        settings.check()?;
        Ok(settings)
    }

    /// Reads the settings block of a page's HTML, as the build wrote it ([`SiteSettings::to_html`]).
    pub fn from_page(html: &str) -> Result<SiteSettings, SettingsError> {
        let open = format!(r#"<script type="application/json" id="{SETTINGS_ID}">"#);
        let start = html.find(&open).ok_or(SettingsError::Missing)? + open.len();
        let end = html[start..]
            .find("</script>")
            .ok_or(SettingsError::Missing)?;
        SiteSettings::from_json(&html[start..start + end])
    }

    /// The settings as the JSON of a page's data block: `<`, `>` and `&` escaped, so no value
    /// can close the element or be read as markup.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .expect("settings are strings and a word")
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026")
    }

    /// The data block the build writes into a page's head.
    pub fn to_html(&self) -> String {
        format!(
            r#"<script type="application/json" id="{SETTINGS_ID}">{}</script>"#,
            self.to_json()
        )
    }

    /// The first unusable setting, if any: the public URL must start and end with `/`, the
    /// site origin be an `http(s)` scheme and host alone, no URL be empty, and an
    /// AgentRegistry's URL be absolute `http(s)`.
    pub fn check(&self) -> Result<(), SettingsError> {
        let invalid = |setting, value: &str, problem| {
            Err(SettingsError::Invalid {
                setting,
                value: value.to_owned(),
                problem,
            })
        };
        if !(self.public_url.starts_with('/') && self.public_url.ends_with('/'))
            || self.public_url.contains(['?', '#', '"', '<', '>', '\\'])
            || self.public_url.chars().any(char::is_whitespace)
        {
            return invalid(
                "--public-url",
                &self.public_url,
                "must start and end with `/`, e.g. `/` or `/acp/registry/`",
            );
        }
        let authority = self
            .site_origin
            .split_once("://")
            .map_or("", |(_, authority)| authority);
        if crate::url::safe_link(&self.site_origin) != Some(self.site_origin.as_str())
            || authority.contains(['/', '?', '#'])
        {
            return invalid(
                "--site-origin",
                &self.site_origin,
                "must be an http(s) scheme and host without a path, \
                 e.g. `https://agentclientprotocol.com`",
            );
        }
        for (setting, value, problem) in [
            (
                "--registry-url",
                &self.registry_url,
                "is empty: use `registry.json` (the bundled copy) or a full URL",
            ),
            (
                "--protocol-matrix-url",
                &self.protocol_matrix_url,
                "is empty: use `protocol-matrix.json` (the bundled copy) or a full URL",
            ),
            (
                "--jetbrains-view-url",
                &self.jetbrains_view_url,
                "is empty: use `registry-for-jetbrains.json` (the bundled copy) or a full URL",
            ),
            (
                "--jetbrains-preview-view-url",
                &self.jetbrains_preview_view_url,
                "is empty: use `registry-for-jetbrains-preview.json` (the bundled copy) or a \
                 full URL",
            ),
            (
                "--quarantine-url",
                &self.quarantine_url,
                "is empty: use `quarantine.json` (the bundled copy) or a full URL",
            ),
        ] {
            if value.trim().is_empty() {
                return invalid(setting, value, problem);
            }
        }
        if let Some(edition) = &self.registry_edition
            && !crate::edition::Edition::is_setting(edition)
        {
            return invalid(
                "--registry-edition",
                edition,
                "must be a registry snapshot's name, e.g. `v2026.12.07-1a2b3c4`, or the day it \
                 was published, e.g. `2026-12-07`",
            );
        }
        if self.kind == RegistryKind::AgentRegistry
            && crate::url::safe_link(self.registry_url.trim()).is_none()
        {
            return invalid(
                "--registry-url",
                &self.registry_url,
                "must be the AgentRegistry service's base URL with --registry-kind \
                 agentregistry, e.g. `https://agents.example.com`",
            );
        }
        Ok(())
    }

    /// For an ACP registry at a remote URL, leaves out each optional file still at its
    /// bundled copy (it describes the bundled registry, not that one) and the bundled
    /// edition: sets them to [`NO_FILE`] and `None`, and says which, one sentence each.
    pub fn without_bundled_extras(&mut self) -> Vec<String> {
        let remote = self.kind == RegistryKind::Acp
            && crate::url::safe_link(self.registry_url.trim()).is_some();
        if !remote {
            return Vec::new();
        }
        let mut notes = Vec::new();
        if self.registry_edition.as_deref() == Some(BUNDLED_REGISTRY_EDITION) {
            self.registry_edition = None;
        }
        for (setting, value, bundled) in [
            (
                "PROTOCOL_MATRIX_URL",
                &mut self.protocol_matrix_url,
                DEFAULT_PROTOCOL_MATRIX_URL,
            ),
            (
                "JETBRAINS_VIEW_URL",
                &mut self.jetbrains_view_url,
                DEFAULT_JETBRAINS_VIEW_URL,
            ),
            (
                "JETBRAINS_PREVIEW_VIEW_URL",
                &mut self.jetbrains_preview_view_url,
                DEFAULT_JETBRAINS_PREVIEW_VIEW_URL,
            ),
            (
                "QUARANTINE_URL",
                &mut self.quarantine_url,
                DEFAULT_QUARANTINE_URL,
            ),
        ] {
            if value.trim() == bundled {
                *value = NO_FILE.to_owned();
                notes.push(format!(
                    "the registry is remote, but {setting} is the bundled `{bundled}`, which \
                     describes the bundled registry: it is left out; set {setting} to the \
                     registry's own file (or `{NO_FILE}` to say there is none)"
                ));
            }
        }
        notes
    }

    /// A note when the edition names a snapshot but the registry URL is the moving `latest/`:
    /// the label (and its link) goes stale when the registry publishes again.
    pub fn edition_note(&self) -> Option<String> {
        let edition = self.registry_edition.as_deref()?;
        let snapshot = crate::edition::Snapshot::parse(edition.trim())?;
        self.registry_url.contains("/latest/").then(|| {
            format!(
                "REGISTRY_EDITION names the snapshot {} but REGISTRY_URL is the moving `latest/`: \
                 the pages will call whatever latest serves by that name; point REGISTRY_URL at \
                 the snapshot itself to show that build",
                snapshot.name
            )
        })
    }

    /// Whether an optional file's URL says the site has none ([`NO_FILE`]).
    pub fn has_file(url: &str) -> bool {
        url.trim() != NO_FILE
    }

    /// What the site calls itself.
    pub fn site_name(&self) -> &'static str {
        site_name(self.kind)
    }

    /// The router's base: the public URL without its trailing slash (`""` at the root).
    pub fn router_base(&self) -> &str {
        self.public_url
            .strip_suffix('/')
            .unwrap_or(&self.public_url)
    }

    /// An in-site link: `path` (starting with `/`) under the public URL.
    pub fn href(&self, path: &str) -> String {
        format!("{}{}", self.router_base(), path)
    }

    /// Where the site is published: origin and public URL, for absolute URLs.
    pub fn address(&self) -> SiteAddress {
        SiteAddress::new(&self.site_origin, &self.public_url)
    }
}

/// What a site of this kind calls itself.
pub const fn site_name(kind: RegistryKind) -> &'static str {
    match kind {
        RegistryKind::Acp => "ACP Agent Registry",
        RegistryKind::AgentRegistry => "Agent Registry",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(change: impl FnOnce(&mut SiteSettings)) -> SiteSettings {
        let mut settings = SiteSettings::default();
        change(&mut settings);
        settings
    }

    #[test]
    fn the_default_is_valid_and_round_trips_through_its_block() {
        let settings = SiteSettings::default();
        assert_eq!(settings.check(), Ok(()));
        assert_eq!(SiteSettings::from_json(&settings.to_json()), Ok(settings));
    }

    #[test]
    fn the_edition_is_a_snapshot_or_a_day() {
        for good in ["v2026.12.07-1a2b3c4", "2026-12-07"] {
            assert_eq!(
                with(|s| s.registry_edition = Some(good.into())).check(),
                Ok(())
            );
        }
        let error = with(|s| s.registry_edition = Some("last week".into()))
            .check()
            .unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("--registry-edition `last week`"),
            "{error}"
        );
        // Without one, the block has no key: pages of either kind read the same settings.
        let none = with(|s| s.registry_edition = None);
        assert!(!none.to_json().contains("registryEdition"));
        assert_eq!(SiteSettings::from_json(&none.to_json()), Ok(none));
    }

    #[test]
    fn a_snapshot_label_on_latest_is_noted() {
        let latest = "https://cdn.example/registry/v1/latest/registry.json";
        let labelled = with(|s| {
            s.registry_url = latest.into();
            s.registry_edition = Some("v2026.12.01-abc123".into());
        });
        assert!(
            labelled
                .edition_note()
                .expect("a note")
                .contains("moving `latest/`")
        );
        let pinned = with(|s| {
            s.registry_url =
                "https://cdn.example/registry/v1/v2026.12.01-abc123/registry.json".into();
            s.registry_edition = Some("v2026.12.01-abc123".into());
        });
        assert_eq!(pinned.edition_note(), None);
        assert_eq!(
            with(|s| s.registry_url = latest.into()).edition_note(),
            None
        );
    }

    #[test]
    fn a_remote_registry_leaves_out_the_bundled_files() {
        let mut remote = with(|s| {
            s.registry_url = "https://cdn.example/registry/v1/latest/registry.json".into();
            s.quarantine_url = "https://example.com/quarantine.json".into();
        });
        let notes = remote.without_bundled_extras();
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].starts_with(
            "the registry is remote, but PROTOCOL_MATRIX_URL is the bundled `protocol-matrix.json`"
        ));
        assert_eq!(remote.protocol_matrix_url, NO_FILE);
        assert_eq!(remote.jetbrains_view_url, NO_FILE);
        assert_eq!(remote.quarantine_url, "https://example.com/quarantine.json");
        assert_eq!(remote.registry_edition, None);
        assert!(!SiteSettings::has_file(&remote.protocol_matrix_url));
        assert_eq!(remote.check(), Ok(()));
        let mut bundled = SiteSettings::default();
        assert!(bundled.without_bundled_extras().is_empty());
        assert_eq!(bundled, SiteSettings::default());
    }

    #[test]
    fn a_page_gives_back_the_settings_written_into_it() {
        let settings = with(|s| s.public_url = "/acp/registry/".into());
        let page = format!(
            "<!doctype html><html><head><meta charset=\"utf-8\">{}</head><body></body></html>",
            settings.to_html()
        );
        assert_eq!(SiteSettings::from_page(&page), Ok(settings));
        assert_eq!(
            SiteSettings::from_page("<html><head></head></html>"),
            Err(SettingsError::Missing)
        );
    }

    #[test]
    fn no_value_can_close_the_block_or_become_markup() {
        let hostile = "x</script><script>alert(1)</script>&amp;";
        let settings = with(|s| {
            s.registry_url = hostile.to_owned();
            s.quarantine_url = "<!--".to_owned();
        });
        let html = settings.to_html();
        let inner = html
            .strip_prefix(r#"<script type="application/json" id="acp-settings">"#)
            .and_then(|rest| rest.strip_suffix("</script>"))
            .unwrap();
        assert!(!inner.contains(['<', '>', '&']), "{inner}");
        let read = SiteSettings::from_json(inner).unwrap();
        assert_eq!(read.registry_url, hostile);
        assert_eq!(read.quarantine_url, "<!--");
    }

    #[test]
    fn each_unusable_setting_is_named_with_what_to_write() {
        let cases: [(SiteSettings, &str); 11] = [
            (with(|s| s.public_url = "".into()), "--public-url"),
            (with(|s| s.public_url = "/acp".into()), "--public-url"),
            (with(|s| s.public_url = "acp/".into()), "--public-url"),
            (with(|s| s.public_url = "/a b/".into()), "--public-url"),
            (
                with(|s| s.site_origin = "https://example.com/acp".into()),
                "--site-origin",
            ),
            (
                with(|s| s.site_origin = "https://example.com/".into()),
                "--site-origin",
            ),
            (
                with(|s| s.site_origin = "javascript:alert(1)".into()),
                "--site-origin",
            ),
            (with(|s| s.registry_url = " ".into()), "--registry-url"),
            (with(|s| s.quarantine_url = "".into()), "--quarantine-url"),
            (
                with(|s| s.jetbrains_preview_view_url = "".into()),
                "--jetbrains-preview-view-url",
            ),
            (
                with(|s| s.kind = RegistryKind::AgentRegistry),
                "--registry-url",
            ),
        ];
        for (settings, setting) in cases {
            let error = settings.check().unwrap_err();
            assert!(
                matches!(&error, SettingsError::Invalid { setting: named, .. } if *named == setting),
                "{settings:?}: {error}"
            );
            assert!(error.to_string().contains("e.g.") || error.to_string().contains("use"));
        }
        let service = with(|s| {
            s.kind = RegistryKind::AgentRegistry;
            s.registry_url = "https://agents.example.com".into();
        });
        assert_eq!(service.check(), Ok(()));
    }

    #[test]
    fn a_block_with_unknown_missing_or_mistyped_keys_is_refused() {
        let good = SiteSettings::default().to_json();
        let unknown = good.replacen('{', r#"{"registryUrI":"x","#, 1);
        let missing = r#"{"kind":"acp"}"#;
        let kind = good.replace(r#""kind":"acp""#, r#""kind":"mcp""#);
        for text in [unknown.as_str(), missing, &kind, "", "null"] {
            let error = SiteSettings::from_json(text).unwrap_err();
            assert!(matches!(error, SettingsError::Json(_)), "{text}: {error}");
            assert!(error.to_string().contains("acp-settings"), "{error}");
        }
        let bad_value = good.replace(r#""publicUrl":"/""#, r#""publicUrl":"acp""#);
        assert!(matches!(
            SiteSettings::from_json(&bad_value),
            Err(SettingsError::Invalid {
                setting: "--public-url",
                ..
            })
        ));
    }

    #[test]
    fn links_stay_under_the_public_url() {
        let cases = [
            (
                "/",
                "/agents/x",
                "https://agentclientprotocol.com/agents/x/",
            ),
            (
                "/acp/registry/",
                "/acp/registry/agents/x",
                "https://agentclientprotocol.com/acp/registry/agents/x/",
            ),
        ];
        for (public_url, href, canonical) in cases {
            let settings = with(|s| s.public_url = public_url.into());
            assert_eq!(settings.href("/agents/x"), href);
            assert_eq!(settings.address().url("/agents/x/"), canonical);
        }
    }
}
