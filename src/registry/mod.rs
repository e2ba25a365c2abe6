//! The registry the app shows, and where loading it stands.
//!
//! Every page reads one [`RegistryState`] from context. In the browser it is filled by
//! [`RegistryState::load`]; at build time the renderer gives it the registry known then
//! ([`RegistryState::ready`]), so pages render the same components with the same data on both
//! sides. This file is the state and what pages read of it; it never writes into it. The
//! loading sequence, from request to catalogue, is one module, [`load`], the site's only IO and
//! the state's only writer ([`paging`] pages through an AgentRegistry with its methods).
//!
//! The state keeps the **latest registry that loaded** apart from the **status of the last
//! attempt**: a reload that fails or stalls never takes away what is shown, it only adds a
//! notice. Pages show the latest registry when there is one, else the loading skeleton or the
//! error panel. The latest registry may be the **copy kept** from an earlier visit
//! ([`kept`]), shown when the network fails or stalls, with its age ([`RegistryState::kept`]).
//!
//! The optional files ([`OptionalSource`]: the protocol matrix, the JetBrains views, the
//! quarantine list) load on their own, each with its own timeout, kept copy and quiet notice
//! ([`RegistryState::optional`]); none ever delays the catalogue. They start once the registry
//! is in, and the look-alike check once it is shown, unless the page holds them back
//! ([`RegistryState::hold_extras`]) until it has answered the visitor. Each one that arrives is
//! attached to the registry on screen (and to any that loads later), which is replaced by the
//! same registry with it.
//!
//! The state also holds the count of attempts, the wait under way (for how long, and how much has
//! arrived) and, for an AgentRegistry, the paging progress.

mod error;
pub mod http;
mod kept;
mod load;
pub mod lookalikes;
mod paging;
mod relay;

use std::sync::{Arc, LazyLock};

use leptos::prelude::*;
use registry_core::edition::Edition;
use registry_core::listing::Listings;
use registry_core::protocol::ProtocolMatrix;
use registry_core::{Catalog, Diagnostic, LoadError};

pub use error::{FetchError, age_words, duration_words, file_name, size_words, thousands};
pub use http::{SILENCE_LIMIT, Waiting};

/// How long a request may wait before the page says it is still waiting (and, for the
/// registry, shows the copy kept from an earlier visit, if there is one).
pub const STILL_WAITING: std::time::Duration = std::time::Duration::from_secs(3);

/// A registry ready to browse, with what was wrong in it.
#[derive(Clone, Debug, Default)]
pub struct LoadedRegistry {
    /// The absolute URL it came from; relative icon URLs resolve against it.
    pub url: String,
    /// Why the protocol matrix is missing, when it is (the catalogue works without it).
    pub matrix_problem: Option<String>,
    /// Entries, search index and facets.
    pub catalog: Catalog,
    /// Entries left out and other problems, for the notice.
    pub diagnostics: Vec<Diagnostic>,
    /// Why some of the registry is missing, when paging through it stopped at a failed page.
    pub incomplete: Option<String>,
    /// Where finding its look-alikes stands (in the browser, a worker finds them).
    pub lookalikes: lookalikes::Check,
    /// Which build of the registry it is, and when it was published.
    pub edition: Edition,
}

impl LoadedRegistry {
    /// The registry loaded from `text`, fetched from `url`, before any protocol matrix.
    pub fn from_text(url: String, text: &str) -> Result<LoadedRegistry, LoadError> {
        let loaded = registry_core::load(text)?;
        let (catalog, lookalikes) = lookalikes::catalog_of(loaded.registry);
        let edition = edition_of(&url, None);
        Ok(LoadedRegistry {
            url,
            matrix_problem: None,
            catalog,
            diagnostics: loaded.diagnostics,
            incomplete: None,
            lookalikes,
            edition,
        })
    }

    /// The same registry, dated by the response's `Last-Modified` when nothing else dates it.
    pub fn last_modified(mut self, header: Option<&str>) -> LoadedRegistry {
        self.edition = edition_of(&self.url, header);
        self
    }

    /// The same registry with the probe facts of `matrix`.
    pub fn with_matrix(&self, matrix: ProtocolMatrix) -> LoadedRegistry {
        let mut with = self.clone();
        with.catalog.set_matrix(matrix);
        with.matrix_problem = None;
        with
    }

    /// The same registry with the registry's other lists (the JetBrains views, the quarantine
    /// list) as loaded so far.
    pub fn with_listings(&self, listings: Listings) -> LoadedRegistry {
        let mut with = self.clone();
        with.catalog.set_listings(listings);
        with
    }
}

/// The edition of the ACP registry at `url` (see [`registry_core::edition`]); an AgentRegistry
/// is read live and has none.
fn edition_of(url: &str, last_modified: Option<&str>) -> Edition {
    let settings = crate::config::settings();
    if settings.kind != registry_core::RegistryKind::Acp {
        return Edition::default();
    }
    Edition::find(settings.registry_edition.as_deref(), url, last_modified)
}

/// How far paging through an AgentRegistry has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The page being fetched (1-based).
    pub page: u32,
    /// How many pages the registry says there are, once it said.
    pub pages: Option<u64>,
    /// Agents loaded so far.
    pub loaded: usize,
    /// How many agents the registry says it has, once it said.
    pub total: Option<u64>,
}

impl Progress {
    /// "Loading agents… page 2 of 4 (100 agents of 400 so far)".
    pub fn sentence(self) -> String {
        let pages = self.pages.map(|n| format!(" of {n}")).unwrap_or_default();
        let total = self.total.map(|n| format!(" of {n}")).unwrap_or_default();
        format!(
            "Loading agents… page {}{pages} ({} agents{total} so far)",
            self.page, self.loaded
        )
    }
}

/// Where the last attempt to load the registry stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A request is under way.
    Loading,
    /// The last attempt loaded the registry.
    Done,
    /// The last attempt failed.
    Failed(FetchError),
}

/// What the page shows of the registry: the pieces it branches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Nothing loaded yet, and an attempt is under way.
    Loading,
    /// A registry is there to show (perhaps with a failed reload beside it).
    Ready,
    /// Nothing could be loaded.
    Failed,
}

/// Where the optional protocol matrix stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatrixStatus {
    /// Not asked for, or not answered yet.
    Pending,
    /// Read, and attached to every registry published.
    Loaded(Arc<ProtocolMatrix>),
    /// Could not be read: why, in a sentence.
    Failed(String),
}

/// A file beside the registry that the catalogue uses when it loads, and works without.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OptionalSource {
    /// The registry's daily probe of each agent (`PROTOCOL_MATRIX_URL`).
    ProtocolMatrix,
    /// `registry-for-jetbrains.json` (`JETBRAINS_VIEW_URL`).
    JetBrainsView,
    /// `registry-for-jetbrains-preview.json` (`JETBRAINS_PREVIEW_VIEW_URL`).
    JetBrainsPreviewView,
    /// `quarantine.json` (`QUARANTINE_URL`).
    Quarantine,
}

impl OptionalSource {
    /// All of them, in the order their notices are shown.
    pub const ALL: [OptionalSource; 4] = [
        OptionalSource::ProtocolMatrix,
        OptionalSource::JetBrainsView,
        OptionalSource::JetBrainsPreviewView,
        OptionalSource::Quarantine,
    ];

    /// Its URL, as the site's settings give it.
    pub fn configured_url(self) -> &'static str {
        match self {
            OptionalSource::ProtocolMatrix => &crate::config::settings().protocol_matrix_url,
            OptionalSource::JetBrainsView => &crate::config::settings().jetbrains_view_url,
            OptionalSource::JetBrainsPreviewView => {
                &crate::config::settings().jetbrains_preview_view_url
            }
            OptionalSource::Quarantine => &crate::config::settings().quarantine_url,
        }
    }

    /// What it is, for a sentence: "the probe results".
    pub fn what(self) -> &'static str {
        match self {
            OptionalSource::ProtocolMatrix => "The probe results",
            OptionalSource::JetBrainsView => "The JetBrains view",
            OptionalSource::JetBrainsPreviewView => "The JetBrains preview view",
            OptionalSource::Quarantine => "The quarantine list",
        }
    }

    /// What the catalogue does without it.
    pub fn without(self) -> &'static str {
        match self {
            OptionalSource::ProtocolMatrix => "pages say “not probed”",
            OptionalSource::JetBrainsView | OptionalSource::JetBrainsPreviewView => {
                "where agents are listed for JetBrains IDEs is not known"
            }
            OptionalSource::Quarantine => "no agent is shown as quarantined",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Where one optional file stands.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum OptionalStatus {
    /// Not answered yet.
    #[default]
    Pending,
    /// Loaded from the network.
    Loaded,
    /// The network failed (why, in a sentence), and the copy kept at `fetched_at` (milliseconds
    /// since the Unix epoch) is used.
    Kept {
        /// When the copy was fetched.
        fetched_at: f64,
        /// Why the network's copy could not be used.
        why: String,
    },
    /// Could not be loaded, and no copy was kept: why, in a sentence.
    Failed(String),
    /// The site has none ([`registry_core::settings::NO_FILE`]): not fetched.
    Off,
}

/// The registry the app shows and where loading it stands; `Copy`, shared through context.
#[derive(Clone, Copy, Debug)]
pub struct RegistryState {
    latest: RwSignal<Option<Arc<LoadedRegistry>>>,
    status: RwSignal<Status>,
    matrix: RwSignal<MatrixStatus>,
    listings: StoredValue<Listings>,
    optional: RwSignal<[OptionalStatus; 4]>,
    progress: RwSignal<Option<Progress>>,
    waiting: RwSignal<Option<Waiting>>,
    kept: RwSignal<Option<f64>>,
    attempts: RwSignal<u32>,
    failed_at: RwSignal<f64>,
    /// The last failure, until an attempt succeeds: it stays said while a retry is under way.
    failure: RwSignal<Option<FetchError>>,
    /// An AgentRegistry's pager where the last attempt stopped, so a retry resumes there.
    stopped: StoredValue<Option<paging::Paging>>,
    /// How many registries have been shown: a look-alike answer is attached only to the
    /// registry it was asked about.
    shown: StoredValue<u64>,
    /// How many times the facet values were recomputed for sources that arrived: only the
    /// latest one is attached.
    refreshes: StoredValue<u64>,
    /// Whether the registry on screen waits for its facet values from sources that arrived.
    refreshing: RwSignal<bool>,
    /// Whether the optional files and the look-alike check are held back, and who waits.
    extras: StoredValue<load::Extras>,
}

impl RegistryState {
    fn with_latest(latest: Option<LoadedRegistry>, status: Status) -> RegistryState {
        RegistryState {
            latest: RwSignal::new(latest.map(Arc::new)),
            status: RwSignal::new(status),
            matrix: RwSignal::new(MatrixStatus::Pending),
            listings: StoredValue::new(Listings::default()),
            optional: RwSignal::new(Default::default()),
            progress: RwSignal::new(None),
            waiting: RwSignal::new(None),
            kept: RwSignal::new(None),
            attempts: RwSignal::new(0),
            failed_at: RwSignal::new(0.0),
            failure: RwSignal::new(None),
            stopped: StoredValue::new(None),
            shown: StoredValue::new(0),
            refreshes: StoredValue::new(0),
            refreshing: RwSignal::new(false),
            extras: StoredValue::new(load::Extras::Free),
        }
    }

    /// A registry already there: the one the build renders pages from, or the listing preview's.
    pub fn ready(loaded: LoadedRegistry) -> RegistryState {
        RegistryState::with_latest(Some(loaded), Status::Done)
    }

    /// Nothing loaded and nothing asked for: the loading shell a build renders when it knows no
    /// registry (the browser then loads it).
    pub fn shell() -> RegistryState {
        RegistryState::with_latest(None, Status::Loading)
    }

    /// What the page can show: tracked.
    pub fn phase(self) -> Phase {
        if self.latest.with(Option::is_some) {
            return Phase::Ready;
        }
        match self.status.get() {
            Status::Failed(_) => Phase::Failed,
            // A retry after a failure: still failed, until it succeeds.
            Status::Loading if self.failure.with(Option::is_some) => Phase::Failed,
            Status::Loading | Status::Done => Phase::Loading,
        }
    }

    /// The registry on screen (an empty one until one loaded): tracked.
    pub fn data(self) -> Signal<Arc<LoadedRegistry>> {
        Signal::derive(move || self.latest.get().unwrap_or_else(empty))
    }

    /// The registry on screen, if one loaded: tracked.
    pub fn latest(self) -> Option<Arc<LoadedRegistry>> {
        self.latest.get()
    }

    /// Where the last attempt stands: tracked.
    pub fn status(self) -> Status {
        self.status.get()
    }

    /// How far paging through an AgentRegistry has got, while it pages: tracked.
    pub fn progress(self) -> Option<Progress> {
        self.progress.get()
    }

    /// Where the protocol matrix stands: tracked.
    pub fn matrix(self) -> MatrixStatus {
        self.matrix.get()
    }

    /// Where each optional file stands, in [`OptionalSource::ALL`] order: tracked.
    pub fn optional(self) -> Vec<(OptionalSource, OptionalStatus)> {
        self.optional.with(|all| {
            OptionalSource::ALL
                .into_iter()
                .zip(all.iter().cloned())
                .collect()
        })
    }

    /// How long the request under way has waited, once it has waited [`STILL_WAITING`]:
    /// tracked.
    pub fn waiting(self) -> Option<Waiting> {
        self.waiting.get()
    }

    /// When the registry on screen was fetched, if it is the copy kept from an earlier visit
    /// (milliseconds since the Unix epoch): tracked.
    pub fn kept(self) -> Option<f64> {
        self.kept.get()
    }

    /// How many times the registry was asked for again, by Retry or by itself: tracked.
    pub fn attempts(self) -> u32 {
        self.attempts.get()
    }

    /// When the last attempt failed (milliseconds since the Unix epoch): tracked.
    pub fn failed_at(self) -> f64 {
        self.failed_at.get()
    }

    /// The last failure, until an attempt succeeds (so also while a retry is under way):
    /// tracked.
    pub fn failure(self) -> Option<FetchError> {
        self.failure.get()
    }

    /// Whether the registry on screen has the facet values of every optional file loaded by now
    /// (they are recomputed a few entries at a time when one arrives): tracked.
    pub fn facets_current(self) -> bool {
        !self.refreshing.get()
    }
}

fn empty() -> Arc<LoadedRegistry> {
    static EMPTY: LazyLock<Arc<LoadedRegistry>> = LazyLock::new(Arc::default);
    EMPTY.clone()
}

/// The registry state provided to the app.
pub fn use_registry() -> RegistryState {
    expect_context::<RegistryState>()
}

/// The URL the document's relative URLs resolve against: its `<base href>` in the browser; at
/// build time a stand-in origin with the site's base path, so that same-site URLs come out the
/// same, relative, on both sides (see [`site_relative`]).
pub fn page_base() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        document().base_uri().ok().flatten().unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("{BUILD_ORIGIN}{}", crate::config::public_url())
    }
}

/// The origin the build pretends to be served from while rendering pages (never written into a
/// page: [`site_relative`] strips it).
#[cfg(not(target_arch = "wasm32"))]
pub const BUILD_ORIGIN: &str = "https://site.invalid";

/// The registry URL of the build, resolved against the page's base.
pub fn registry_url() -> String {
    resolve(&crate::config::settings().registry_url, &page_base())
        .unwrap_or_else(|| crate::config::settings().registry_url.clone())
}

/// `reference` resolved against `base`, or `None` if either is not a URL.
pub fn resolve(reference: &str, base: &str) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::Url::new_with_base(reference, base)
            .ok()
            .map(|u| u.href())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        url::Url::parse(base)
            .and_then(|base| base.join(reference))
            .ok()
            .map(String::from)
    }
}

/// An absolute URL written relative to the page's base when it is under it (`./gemini.svg`),
/// so that a page rendered at build time and the same page rendered in the browser write the
/// same URL whatever host serves them; other URLs are kept absolute.
pub fn site_relative(absolute: &str, base: &str) -> String {
    match absolute.strip_prefix(base) {
        Some(rest) if base.ends_with('/') => format!("./{rest}"),
        _ => absolute.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_site_urls_are_written_relative_to_the_base() {
        let base = "https://site.invalid/acp/registry/";
        for (absolute, expected) in [
            (
                "https://site.invalid/acp/registry/gemini.svg",
                "./gemini.svg",
            ),
            (
                "https://site.invalid/acp/registry/a:b.svg?x=1",
                "./a:b.svg?x=1",
            ),
            (
                "https://site.invalid/other/x.svg",
                "https://site.invalid/other/x.svg",
            ),
            ("https://cdn.example/x.svg", "https://cdn.example/x.svg"),
        ] {
            assert_eq!(site_relative(absolute, base), expected, "{absolute}");
        }
    }

    #[test]
    fn relative_references_resolve_natively_as_in_the_browser() {
        let base = "https://site.invalid/acp/registry/";
        assert_eq!(
            resolve("registry.json", base).as_deref(),
            Some("https://site.invalid/acp/registry/registry.json")
        );
        assert_eq!(
            resolve(
                "../x.svg",
                "https://site.invalid/acp/registry/registry.json"
            )
            .as_deref(),
            Some("https://site.invalid/acp/x.svg")
        );
        assert_eq!(
            resolve("https://cdn.example/r.json", base).as_deref(),
            Some("https://cdn.example/r.json")
        );
        assert_eq!(resolve("x", "not a url"), None);
    }
}
