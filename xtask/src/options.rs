//! What `cargo xtask dist`, `test`, `bench` and `cli` build: the site's settings (where the app
//! finds the registry and its other files, its base path and origin, the source it reads:
//! `registry_core::SiteSettings`, written into every page), where the site goes, and what its
//! pages are rendered from ([`DistOptions`]). The build ([`crate::dist`]), the page renderer
//! ([`crate::pages`]) and the Content-Security-Policy ([`crate::csp`]) all read them from here.

use std::path::PathBuf;

use anyhow::Result;

pub use registry_core::RegistryKind;
pub use registry_core::SiteSettings;

/// What to build and where.
#[derive(Debug, Clone)]
pub struct DistOptions {
    /// The site's settings, written into every page ([`registry_core::settings`]).
    pub settings: SiteSettings,
    /// Output directory (absolute); emptied first.
    pub out_dir: PathBuf,
    /// The registry file to pre-render entry pages from, in place of the build's own.
    pub prerender_registry: Option<PathBuf>,
    /// Whether pages are rendered from the registry known at build time; without, every page
    /// is the loading shell (for a site that will serve registries it never saw).
    pub prerender: bool,
    /// How the site's native renderers are run.
    pub renderers: Renderers,
    /// The folder of registry and probe snapshots the change log is built from
    /// (`registry/<day>.json`, `protocol-matrix/<day>.json`); `None` for the bundled history
    /// when the registry is the bundled one, else none.
    pub history: Option<PathBuf>,
    /// The previous published site, whose `changes.json` the change log carries forward.
    pub previous: Option<PathBuf>,
}

/// How the build runs the site's native renderers (`acp-catalog-render`, `acp-preview-render`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Renderers {
    /// `cargo run` of each, which compiles it first if needed.
    CargoRun,
    /// The binaries in this folder, compiled already: `cargo xtask test` compiles them with
    /// `cargo build --workspace --all-targets`, whose features are those its native tests were
    /// compiled with, so that they cost a link (`cargo run` of one package resolves other
    /// features, and compiles most of the dependencies again).
    Built(PathBuf),
}

impl DistOptions {
    /// A site with `settings` (checked: [`SiteSettings::check`] names the flag to correct), into
    /// `out_dir`, pre-rendered from the build's registry file.
    pub fn new(settings: SiteSettings, out_dir: PathBuf) -> Result<Self> {
        settings.check()?;
        Ok(Self {
            settings,
            out_dir,
            prerender_registry: None,
            prerender: true,
            renderers: Renderers::CargoRun,
            history: None,
            previous: None,
        })
    }

    /// The default settings (the bundled registry and its files) under `public_url`.
    pub fn bundled(public_url: &str, out_dir: PathBuf) -> Result<Self> {
        Self::new(
            SiteSettings {
                public_url: public_url.to_owned(),
                ..SiteSettings::default()
            },
            out_dir,
        )
    }

    /// A site over the AgentRegistry service at `url`.
    pub fn agentregistry(url: &str, out_dir: PathBuf) -> Result<Self> {
        Self::new(
            SiteSettings {
                kind: RegistryKind::AgentRegistry,
                registry_url: url.to_owned(),
                registry_edition: None,
                ..SiteSettings::default()
            },
            out_dir,
        )
    }

    /// Pre-renders entry pages from this registry file instead of the build's own (needed when
    /// the registry URL is remote: it is never fetched at build time).
    pub fn with_prerender_registry(mut self, file: Option<PathBuf>) -> Self {
        self.prerender_registry = file;
        self
    }

    /// Builds the change log from this history folder and carries forward the `changes.json` of
    /// this previous site.
    pub fn with_history(mut self, history: Option<PathBuf>, previous: Option<PathBuf>) -> Self {
        self.history = history;
        self.previous = previous;
        self
    }

    /// Says the registry is this build (`REGISTRY_EDITION`): a snapshot name or a day.
    pub fn with_registry_edition(mut self, edition: &str) -> Result<Self> {
        self.settings.registry_edition = Some(edition.to_owned());
        self.settings.check()?;
        Ok(self)
    }

    /// Runs the renderers built in `dir` instead of `cargo run`.
    pub fn with_built_renderers(mut self, dir: PathBuf) -> Self {
        self.renderers = Renderers::Built(dir);
        self
    }

    /// Renders every page as the loading shell, whatever registry the build has.
    pub fn shell_only(mut self) -> Self {
        self.prerender = false;
        self
    }

    /// The URLs of the data files the site fetches: the registry's and the optional files'
    /// (those it has).
    pub fn data_urls(&self) -> Vec<&str> {
        let settings = &self.settings;
        [
            &settings.registry_url,
            &settings.protocol_matrix_url,
            &settings.jetbrains_view_url,
            &settings.jetbrains_preview_view_url,
            &settings.quarantine_url,
        ]
        .into_iter()
        .map(String::as_str)
        .filter(|url| SiteSettings::has_file(url))
        .collect()
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
    fn every_setting_is_checked_before_a_build() {
        let with = |change: fn(&mut SiteSettings)| {
            let mut settings = SiteSettings::default();
            change(&mut settings);
            DistOptions::new(settings, "d".into()).map(|_| ())
        };
        assert!(with(|_| ()).is_ok());
        let error = with(|s| s.public_url = "/acp".into()).unwrap_err();
        assert!(error.to_string().contains("--public-url"), "{error}");
        let error = with(|s| s.site_origin = "https://example.com/acp".into()).unwrap_err();
        assert!(error.to_string().contains("--site-origin"), "{error}");
        assert!(DistOptions::agentregistry("registry.json", "d".into()).is_err());
        assert!(DistOptions::agentregistry("https://agents.example.com", "d".into()).is_ok());
    }
}
