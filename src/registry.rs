//! Fetching the registry and turning it into a browsable [`Catalog`].
//!
//! The only IO of the site. Everything after the bytes arrive is `registry_core`; this module
//! adds the URL, the HTTP status and the network error to what can go wrong, as a typed,
//! clonable [`FetchError`] the page shows with a retry button.
//!
//! An ACP registry is one file. An AgentRegistry ([`config::RegistryKind::AgentRegistry`]) is
//! paged through with `registry_core`'s [`Pager`], one page after the other, the progress in
//! [`LoadProgress`]; when a page fails after some loaded, the catalogue shows what it has and
//! says so ([`LoadedRegistry::incomplete`]), and a retry resumes at the page that failed.

use std::sync::Arc;

use leptos::prelude::*;
use registry_core::agentregistry::{PageError, Pager};
use registry_core::protocol::ProtocolMatrix;
use registry_core::{Catalog, Diagnostic, LoadError};

use crate::config;

/// A registry ready to browse, with what was wrong in it.
#[derive(Debug)]
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

/// The progress of the current load, for the loading status; `None` for a one-file registry.
#[derive(Clone, Copy, Debug)]
pub struct LoadProgress(pub RwSignal<Option<Progress>>);

/// Why no registry could be shown at all.
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

/// The registry as the app shares it: loading (`None`), loaded, or failed.
pub type RegistryResource = LocalResource<Result<Arc<LoadedRegistry>, FetchError>>;

/// The registry URL resolved against the document's base URL.
pub fn registry_url() -> String {
    resolve(
        config::REGISTRY_URL,
        &document().base_uri().ok().flatten().unwrap_or_default(),
    )
    .unwrap_or_else(|| config::REGISTRY_URL.to_owned())
}

fn base_uri() -> String {
    document().base_uri().ok().flatten().unwrap_or_default()
}

/// `reference` resolved against `base`, or `None` if either is not a URL.
pub fn resolve(reference: &str, base: &str) -> Option<String> {
    web_sys::Url::new_with_base(reference, base)
        .ok()
        .map(|u| u.href())
}

/// Starts loading the registry; call once, at the top of the app.
pub fn provide_registry() -> RegistryResource {
    if config::REGISTRY_KIND == config::RegistryKind::AgentRegistry {
        return provide_service_registry();
    }
    let resource = LocalResource::new(|| async {
        let matrix_url = resolve(config::PROTOCOL_MATRIX_URL, &base_uri()).unwrap_or_default();
        let (registry, matrix) =
            futures::join!(fetch_registry(registry_url()), fetch_matrix(matrix_url));
        registry.map(|mut loaded| {
            match matrix {
                Ok(matrix) => loaded.catalog.set_matrix(matrix),
                Err(problem) => loaded.matrix_problem = Some(problem),
            }
            Arc::new(loaded)
        })
    });
    provide_context(resource);
    resource
}

/// The registry resource provided by [`provide_registry`].
pub fn use_registry() -> RegistryResource {
    expect_context::<RegistryResource>()
}

/// Fetches and loads the registry at `url`.
pub async fn fetch_registry(url: String) -> Result<LoadedRegistry, FetchError> {
    let response = gloo_net::http::Request::get(&url)
        .send()
        .await
        .map_err(|e| FetchError::Network {
            url: url.clone(),
            message: e.to_string(),
        })?;
    if !response.ok() {
        return Err(FetchError::Http {
            url,
            status: response.status(),
            status_text: response.status_text(),
        });
    }
    let text = response.text().await.map_err(|e| FetchError::Network {
        url: url.clone(),
        message: e.to_string(),
    })?;
    mark("acp:parse-start");
    let loaded = registry_core::load(&text);
    mark("acp:parsed");
    let loaded = loaded.map_err(|source| FetchError::Parse {
        url: url.clone(),
        source,
    })?;
    let catalog = Catalog::new(loaded.registry);
    mark("acp:indexed");
    measure("acp:parse", "acp:parse-start", "acp:parsed");
    measure("acp:parse+index", "acp:parse-start", "acp:indexed");
    Ok(LoadedRegistry {
        url,
        matrix_problem: None,
        catalog,
        diagnostics: loaded.diagnostics,
        incomplete: None,
    })
}

/// Starts paging through the AgentRegistry at `REGISTRY_URL`. A retry (the resource refetched)
/// resumes where the last attempt stopped, keeping what it loaded.
fn provide_service_registry() -> RegistryResource {
    let progress = RwSignal::new(None::<Progress>);
    provide_context(LoadProgress(progress));
    let stopped = StoredValue::new(None::<Pager>);
    let resource = LocalResource::new(move || async move {
        let base = registry_url();
        let mut pager = stopped
            .try_update_value(Option::take)
            .flatten()
            .unwrap_or_else(|| Pager::new(&base));
        page_through(&mut pager, progress).await;
        let failure = (!pager.is_done()).then(|| pager.last_error().cloned());
        match failure {
            None => Ok(Arc::new(service_catalog(pager, None))),
            Some(error) => {
                let error = error.unwrap_or_else(|| PageError::Request {
                    page: pager.page(),
                    message: "the request did not complete".to_owned(),
                });
                stopped.set_value(Some(pager.clone()));
                if pager.entries().is_empty() {
                    Err(FetchError::Listing {
                        url: pager.base_url().to_owned(),
                        source: error,
                    })
                } else {
                    Ok(Arc::new(service_catalog(pager, Some(error.to_string()))))
                }
            }
        }
    });
    provide_context(resource);
    resource
}

/// Fetches pages until the last one, or until one fails (the pager then holds the error).
async fn page_through(pager: &mut Pager, progress: RwSignal<Option<Progress>>) {
    while let Some(url) = pager.next_url() {
        let (loaded, total) = pager.progress();
        progress.set(Some(Progress {
            page: pager.page(),
            pages: pager.total_pages(),
            loaded,
            total,
        }));
        let answer = match gloo_net::http::Request::get(&url).send().await {
            Err(e) => Err(format!("could not reach {url}: {e}")),
            Ok(response) if !response.ok() => Err(format!(
                "{url} answered HTTP {} {}",
                response.status(),
                response.status_text()
            )),
            Ok(response) => response
                .text()
                .await
                .map_err(|e| format!("could not read {url}: {e}")),
        };
        let accepted = match answer {
            Ok(text) => pager.accept(&text).is_ok(),
            Err(message) => {
                pager.fail(&message);
                false
            }
        };
        if !accepted {
            break;
        }
    }
    progress.set(None);
}

/// The catalogue of what the pager loaded.
fn service_catalog(pager: Pager, incomplete: Option<String>) -> LoadedRegistry {
    let url = pager.base_url().to_owned();
    let loaded = pager.into_loaded();
    LoadedRegistry {
        url,
        matrix_problem: None,
        catalog: Catalog::new(loaded.registry),
        diagnostics: loaded.diagnostics,
        incomplete,
    }
}

/// Fetches the protocol matrix; any failure is a sentence for the page, never fatal.
pub async fn fetch_matrix(url: String) -> Result<ProtocolMatrix, String> {
    let response = gloo_net::http::Request::get(&url)
        .send()
        .await
        .map_err(|e| format!("could not reach {url}: {e}"))?;
    if !response.ok() {
        return Err(format!("{url} answered HTTP {}", response.status()));
    }
    let text = response
        .text()
        .await
        .map_err(|e| format!("could not read {url}: {e}"))?;
    registry_core::protocol::parse_matrix(&text)
        .map(|(matrix, _warnings)| matrix)
        .map_err(|e| format!("{url} is not a protocol matrix: {e}"))
}

/// A User Timing mark, so benchmarks can read how long loading took.
fn mark(name: &str) {
    if let Some(performance) = window().performance() {
        let _ = performance.mark(name);
    }
}

fn measure(name: &str, start: &str, end: &str) {
    if let Some(performance) = window().performance() {
        let _ = performance.measure_with_start_mark_and_end_mark(name, start, end);
    }
}
