//! The registry the app shows, and where loading it stands.
//!
//! Every page reads one [`RegistryState`] from context. In the browser it is filled by
//! [`RegistryState::fetch`] (the only IO of the site, in [`fetch`]); at build time the renderer
//! gives it the registry known then ([`RegistryState::ready`]), so pages render the same
//! components with the same data on both sides.
//!
//! The state keeps the **latest registry that loaded** apart from the **status of the last
//! attempt**: a reload that fails or stalls never takes away what is shown, it only adds a
//! notice. Pages show the latest registry when there is one, else the loading skeleton or the
//! error panel. The protocol matrix is optional and loads on its own: when it arrives, the
//! registry on screen is replaced by the same registry with its probe facts.

mod fetch;

use std::sync::{Arc, LazyLock};

use leptos::prelude::*;
use registry_core::agentregistry::Pager;
use registry_core::protocol::ProtocolMatrix;
use registry_core::{Catalog, Diagnostic, LoadError, PageError};

pub use fetch::{fetch_matrix, fetch_registry};

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
}

impl LoadedRegistry {
    /// The registry loaded from `text`, fetched from `url`, before any protocol matrix.
    pub fn from_text(url: String, text: &str) -> Result<LoadedRegistry, LoadError> {
        let loaded = registry_core::load(text)?;
        Ok(LoadedRegistry {
            url,
            matrix_problem: None,
            catalog: Catalog::new(loaded.registry),
            diagnostics: loaded.diagnostics,
            incomplete: None,
        })
    }

    /// The same registry with the probe facts of `matrix`.
    pub fn with_matrix(&self, matrix: ProtocolMatrix) -> LoadedRegistry {
        let mut with = self.clone();
        with.catalog.set_matrix(matrix);
        with.matrix_problem = None;
        with
    }
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

/// Why no registry could be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The request did not complete (offline, DNS, CORS, blocked).
    #[error("Could not reach {url}: {message}. Check your connection and retry.")]
    Network {
        /// The registry URL.
        url: String,
        /// What the browser said.
        message: String,
    },
    /// The server answered with an error status.
    #[error("{url} answered HTTP {status} {status_text}.")]
    Http {
        /// The registry URL.
        url: String,
        /// HTTP status code.
        status: u16,
        /// Its reason phrase, when the server sent one.
        status_text: String,
    },
    /// The body is not a registry.
    #[error("{url} is not a valid registry: {source}")]
    Parse {
        /// The registry URL.
        url: String,
        /// What is wrong with it.
        source: LoadError,
    },
    /// The first page of an AgentRegistry's listing failed, so there is nothing to show.
    #[error("The agents of {url} could not be listed: {source}")]
    Listing {
        /// The registry's base URL.
        url: String,
        /// What went wrong with the page.
        source: PageError,
    },
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

/// The registry the app shows and where loading it stands; `Copy`, shared through context.
#[derive(Clone, Copy, Debug)]
pub struct RegistryState {
    latest: RwSignal<Option<Arc<LoadedRegistry>>>,
    status: RwSignal<Status>,
    matrix: RwSignal<MatrixStatus>,
    progress: RwSignal<Option<Progress>>,
    /// An AgentRegistry's pager where the last attempt stopped, so a retry resumes there.
    stopped: StoredValue<Option<Pager>>,
}

impl RegistryState {
    /// A registry already there: the one the build renders pages from, or the listing preview's.
    pub fn ready(loaded: LoadedRegistry) -> RegistryState {
        RegistryState {
            latest: RwSignal::new(Some(Arc::new(loaded))),
            status: RwSignal::new(Status::Done),
            matrix: RwSignal::new(MatrixStatus::Pending),
            progress: RwSignal::new(None),
            stopped: StoredValue::new(None),
        }
    }

    /// Nothing loaded and nothing asked for: the loading shell a build renders when it knows no
    /// registry (the browser then loads it).
    pub fn shell() -> RegistryState {
        RegistryState {
            latest: RwSignal::new(None),
            status: RwSignal::new(Status::Loading),
            matrix: RwSignal::new(MatrixStatus::Pending),
            progress: RwSignal::new(None),
            stopped: StoredValue::new(None),
        }
    }

    /// Starts loading the registry of the build (and, for an ACP registry, its protocol matrix)
    /// in the browser.
    pub fn fetch() -> RegistryState {
        let state = RegistryState::shell();
        fetch::start(state, true);
        state
    }

    /// Loads the registry again (the matrix is kept); what is shown stays until it succeeds.
    pub fn retry(self) {
        if self.status.get_untracked() != Status::Loading {
            self.status.set(Status::Loading);
            fetch::start(self, false);
        }
    }

    /// What the page can show: tracked.
    pub fn phase(self) -> Phase {
        if self.latest.with(Option::is_some) {
            return Phase::Ready;
        }
        match self.status.get() {
            Status::Failed(_) => Phase::Failed,
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

    /// Shows `loaded`, with the protocol matrix when it has already arrived.
    fn publish(self, loaded: LoadedRegistry) {
        let loaded = match self.matrix.get_untracked() {
            MatrixStatus::Loaded(matrix) => loaded.with_matrix((*matrix).clone()),
            MatrixStatus::Failed(problem) => LoadedRegistry {
                matrix_problem: Some(problem),
                ..loaded
            },
            MatrixStatus::Pending => loaded,
        };
        self.latest.set(Some(Arc::new(loaded)));
        self.status.set(Status::Done);
    }

    fn fail(self, error: FetchError) {
        self.status.set(Status::Failed(error));
    }

    /// Records the matrix's outcome, and applies it to the registry on screen, if any.
    fn set_matrix(self, status: MatrixStatus) {
        if let Some(latest) = self.latest.get_untracked() {
            let updated = match &status {
                MatrixStatus::Loaded(matrix) => latest.with_matrix((**matrix).clone()),
                MatrixStatus::Failed(problem) => LoadedRegistry {
                    matrix_problem: Some(problem.clone()),
                    ..(*latest).clone()
                },
                MatrixStatus::Pending => (*latest).clone(),
            };
            self.latest.set(Some(Arc::new(updated)));
        }
        self.matrix.set(status);
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
        format!("{BUILD_ORIGIN}{}", crate::config::PUBLIC_URL)
    }
}

/// The origin the build pretends to be served from while rendering pages (never written into a
/// page: [`site_relative`] strips it).
#[cfg(not(target_arch = "wasm32"))]
pub const BUILD_ORIGIN: &str = "https://site.invalid";

/// The registry URL of the build, resolved against the page's base.
pub fn registry_url() -> String {
    resolve(crate::config::REGISTRY_URL, &page_base())
        .unwrap_or_else(|| crate::config::REGISTRY_URL.to_owned())
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
            });
            assert_eq!(state.phase(), Phase::Ready);
            assert!(matches!(state.status(), Status::Failed(_)));
        });
    }
}
