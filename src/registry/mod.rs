//! The registry the app shows, and where loading it stands.
//!
//! Every page reads one [`RegistryState`] from context. In the browser it is filled by
//! [`RegistryState::load`] (the only IO of the site, in [`fetch`]); at build time the renderer
//! gives it the registry known then ([`RegistryState::ready`]), so pages render the same
//! components with the same data on both sides. The state does not know how it is loaded:
//! `fetch` defines `load` and `retry` and writes into it; this file never calls it.
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
mod fetch;
pub mod http;
mod kept;
pub mod lookalikes;
mod relay;

use std::sync::{Arc, LazyLock};

use leptos::prelude::*;
use registry_core::agentregistry::Pager;
use registry_core::edition::Edition;
use registry_core::listing::{ClientView, Listings, Quarantine};
use registry_core::protocol::ProtocolMatrix;
use registry_core::{Catalog, Diagnostic, LoadError};

use crate::timing;

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
    stopped: StoredValue<Option<Paging>>,
    /// How many registries have been shown: a look-alike answer is attached only to the
    /// registry it was asked about.
    shown: StoredValue<u64>,
    /// How many times the facet values were recomputed for sources that arrived: only the
    /// latest one is attached.
    refreshes: StoredValue<u64>,
    /// Whether the registry on screen waits for its facet values from sources that arrived.
    refreshing: RwSignal<bool>,
    /// Whether the optional files and the look-alike check are held back, and who waits.
    extras: StoredValue<Extras>,
}

/// Whether what the page can answer without (the optional files, the look-alike check) may
/// start: held, nothing of it takes the link or the page's thread while the page answers the
/// visitor ([`RegistryState::hold_extras`]).
#[derive(Debug, Default)]
enum Extras {
    /// Started as soon as they can be.
    #[default]
    Free,
    /// Held: each waiting start is woken when they are released.
    Held(Vec<futures::channel::oneshot::Sender<()>>),
}

/// Where paging through an AgentRegistry stopped, so that a retry resumes there.
#[derive(Clone, Debug)]
struct Paging {
    pager: Pager,
    /// The text of every page read so far, kept once the listing is whole.
    texts: Vec<String>,
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
            extras: StoredValue::new(Extras::Free),
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

    /// Holds the optional files and the look-alike check back until
    /// [`release_extras`](Self::release_extras): the page taking a built page over answers the
    /// visitor first.
    pub fn hold_extras(self) {
        self.extras.update_value(|extras| {
            if matches!(extras, Extras::Free) {
                *extras = Extras::Held(Vec::new());
            }
        });
    }

    /// Lets what [`hold_extras`](Self::hold_extras) held back start; again, nothing.
    pub fn release_extras(self) {
        if let Some(Extras::Held(waiting)) = self.extras.try_update_value(std::mem::take) {
            for start in waiting {
                let _ = start.send(());
            }
        }
    }

    /// Resolves once the optional files and the look-alike check may start.
    async fn extras_free(self) {
        let (start, started) = futures::channel::oneshot::channel();
        let held = self
            .extras
            .try_update_value(|extras| match extras {
                Extras::Free => false,
                Extras::Held(waiting) => {
                    waiting.push(start);
                    true
                }
            })
            .unwrap_or(false);
        if held {
            // A state dropped with the page never releases; nothing is left to start then.
            let _ = started.await;
        }
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

    /// The protocol matrix and lists loaded by now, which the facet values come from.
    fn sources(self) -> (Option<ProtocolMatrix>, Listings) {
        let matrix = match self.matrix.get_untracked() {
            MatrixStatus::Loaded(matrix) => Some((*matrix).clone()),
            MatrixStatus::Failed(_) | MatrixStatus::Pending => None,
        };
        (matrix, self.listings.get_value())
    }

    /// Shows `loaded`, fresh from the network, with the optional files that have arrived.
    fn publish(self, loaded: LoadedRegistry) {
        self.show(loaded);
        self.kept.set(None);
        self.waiting.set(None);
        self.failure.set(None);
        self.status.set(Status::Done);
    }

    /// Shows the copy kept from an earlier visit, fetched at `fetched_at`; the status of the
    /// attempt under way is left as it is.
    fn publish_kept(self, loaded: LoadedRegistry, fetched_at: f64) {
        self.show(loaded);
        self.kept.set(Some(fetched_at));
    }

    fn show(self, loaded: LoadedRegistry) {
        let mut loaded = loaded;
        match self.matrix.get_untracked() {
            MatrixStatus::Loaded(_) => loaded.matrix_problem = None,
            MatrixStatus::Failed(problem) => loaded.matrix_problem = Some(problem),
            MatrixStatus::Pending => {}
        }
        let pending = loaded.lookalikes == lookalikes::Check::Pending;
        self.shown.update_value(|n| *n += 1);
        self.latest.set(Some(Arc::new(loaded)));
        if pending {
            self.find_lookalikes();
        }
        // A registry indexed with the sources loaded by then has their facet values already.
        self.refresh_facets();
    }

    /// Gives the registry on screen the facet values of the sources loaded by now, unless it
    /// has them: computed a few entries at a time in the browser (at 10,000 entries they take
    /// tens of milliseconds), at once in the build.
    fn refresh_facets(self) {
        let Some(latest) = self.latest.get_untracked() else {
            return;
        };
        let (matrix, listings) = self.sources();
        if latest.catalog.has_sources(matrix.as_ref(), &listings) {
            return;
        }
        self.refreshes.update_value(|n| *n += 1);
        let refresh = self.refreshes.get_value();
        let attaching = latest.catalog.attaching(matrix, listings);
        drop(latest);
        self.refreshing.set(true);
        let attach = move |attaching: registry_core::catalog::Attaching| {
            if self.refreshes.try_get_value() != Some(refresh) {
                // Sources that arrived since are being computed with these.
                return;
            }
            if let Some(latest) = self.latest.get_untracked() {
                let mut updated = (*latest).clone();
                // Another registry shown since had its own refresh.
                if attaching.attach_to(&mut updated.catalog) {
                    self.latest.set(Some(Arc::new(updated)));
                }
            }
            self.refreshing.set(false);
        };
        #[cfg(target_arch = "wasm32")]
        leptos::task::spawn_local(async move {
            let mut attaching = attaching;
            let mut slices = timing::Slices::start();
            slices.pause().await;
            while !attaching.step(64) {
                slices.pause_when_due().await;
            }
            attach(attaching);
        });
        #[cfg(not(target_arch = "wasm32"))]
        attach(attaching);
    }

    /// Has the worker find the look-alikes of the registry just shown, and attaches them when
    /// it answers, unless another registry was shown meanwhile.
    #[cfg(target_arch = "wasm32")]
    fn find_lookalikes(self) {
        let shown = self.shown.get_value();
        leptos::task::spawn_local(async move {
            self.extras_free().await;
            // In tasks of their own, after the one that shows the registry: copying and
            // encoding every entry's text takes its own time (about 100 ms at 50,000 entries).
            timing::yield_now().await;
            let Some(latest) = self.latest.get_untracked() else {
                return;
            };
            let mut listings = lookalikes::Listings::default();
            let mut slices = timing::Slices::start();
            for (i, entry) in latest.catalog.registry.entries.iter().enumerate() {
                if i % 64 == 0 {
                    slices.pause_when_due().await;
                    if self.shown.try_get_value() != Some(shown) {
                        return;
                    }
                }
                listings.push(&registry_core::lookalike::ListingText::of(entry));
            }
            drop(latest);
            let found = lookalikes::find(listings).await;
            if self.shown.try_get_value() != Some(shown) {
                return;
            }
            let Some(latest) = self.latest.get_untracked() else {
                return;
            };
            let mut updated = (*latest).clone();
            updated.lookalikes = match found.map(|found| updated.catalog.set_lookalikes(found)) {
                Ok(true) => lookalikes::Check::Done,
                Ok(false) => lookalikes::Check::Failed(
                    "the look-alike check answered for other entries".to_owned(),
                ),
                Err(why) => lookalikes::Check::Failed(why),
            };
            self.latest.set(Some(Arc::new(updated)));
        });
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn find_lookalikes(self) {}

    fn fail(self, error: FetchError) {
        self.waiting.set(None);
        self.failed_at.set(timing::now());
        self.failure.set(Some(error.clone()));
        self.status.set(Status::Failed(error));
    }

    /// Records the matrix's outcome, and applies it to the registry on screen, if any.
    fn set_matrix(self, status: MatrixStatus) {
        if let Some(latest) = self.latest.get_untracked() {
            let problem = match &status {
                MatrixStatus::Failed(problem) => Some(problem.clone()),
                MatrixStatus::Loaded(_) | MatrixStatus::Pending => None,
            };
            if latest.matrix_problem != problem {
                let updated = LoadedRegistry {
                    matrix_problem: problem,
                    ..(*latest).clone()
                };
                self.latest.set(Some(Arc::new(updated)));
            }
        }
        self.matrix.set(status);
        self.refresh_facets();
    }

    /// Records a JetBrains view or the quarantine list, and applies it to the registry on
    /// screen, if any.
    fn set_listing(self, listing: Listing) {
        self.listings.update_value(|listings| match listing {
            Listing::JetBrains(view) => listings.jetbrains = Some(view),
            Listing::JetBrainsPreview(view) => listings.jetbrains_preview = Some(view),
            Listing::Quarantine(list) => listings.quarantine = Some(list),
        });
        self.refresh_facets();
    }

    fn set_optional(self, source: OptionalSource, status: OptionalStatus) {
        self.optional.update(|all| all[source.index()] = status);
    }
}

/// One of the registry's other lists, as read.
#[derive(Clone, Debug)]
enum Listing {
    JetBrains(ClientView),
    JetBrainsPreview(ClientView),
    Quarantine(Quarantine),
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

    #[test]
    fn a_failed_reload_keeps_what_is_shown() {
        let owner = Owner::new();
        owner.with(|| {
            let state = RegistryState::ready(LoadedRegistry::default());
            assert_eq!(state.phase(), Phase::Ready);
            state.fail(FetchError::Http {
                url: "r.json".into(),
                status: 503,
                status_text: String::new(),
                retry_after: None,
            });
            assert_eq!(state.phase(), Phase::Ready);
            assert!(matches!(state.status(), Status::Failed(_)));
        });
    }

    #[test]
    fn a_failure_stays_said_while_a_retry_is_under_way_and_goes_with_a_success() {
        let owner = Owner::new();
        owner.with(|| {
            let state = RegistryState::with_latest(None, Status::Loading);
            assert_eq!((state.phase(), state.failure()), (Phase::Loading, None));
            let error = FetchError::Http {
                url: "r.json".into(),
                status: 500,
                status_text: String::new(),
                retry_after: None,
            };
            state.fail(error.clone());
            // What `retry` does before it asks the network again.
            state.status.set(Status::Loading);
            assert_eq!(state.phase(), Phase::Failed, "still failed while retrying");
            assert_eq!(state.failure(), Some(error));
            state.publish(LoadedRegistry::default());
            assert_eq!((state.phase(), state.failure()), (Phase::Ready, None));
        });
    }
}
