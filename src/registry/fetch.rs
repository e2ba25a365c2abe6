//! The site's only IO: fetching the registry (and its protocol matrix) in the browser.
//!
//! An ACP registry is one file, fetched beside its optional protocol matrix; each is published
//! into the [`RegistryState`] as soon as it is read, so the matrix never holds the catalogue
//! back. An AgentRegistry is paged through with `registry_core`'s [`Pager`], one page after the
//! other, the progress published as it goes; when a page fails after some loaded, the catalogue
//! shows what it has and says so ([`LoadedRegistry::incomplete`]), and a retry resumes at the
//! page that failed.

use leptos::prelude::*;
use registry_core::agentregistry::{PageError, Pager};
use registry_core::protocol::ProtocolMatrix;
use registry_core::{Catalog, RegistryKind};

use super::{FetchError, LoadedRegistry, MatrixStatus, Progress, RegistryState};
use crate::config;

/// Starts an attempt; `with_matrix` also fetches the protocol matrix (the first attempt only).
/// The choice of loader is made here, outside the future, so that an ACP build's wasm does not
/// carry the AgentRegistry's pager (the kind is a constant).
pub(super) fn start(state: RegistryState, with_matrix: bool) {
    match config::REGISTRY_KIND {
        RegistryKind::Acp => leptos::task::spawn_local(load_acp(state, with_matrix)),
        RegistryKind::AgentRegistry => leptos::task::spawn_local(page_through_service(state)),
    }
}

/// Loads an ACP registry and, beside it, its protocol matrix; each is published as it is read.
async fn load_acp(state: RegistryState, with_matrix: bool) {
    let registry = async {
        match fetch_registry(super::registry_url()).await {
            Ok(loaded) => state.publish(loaded),
            Err(error) => state.fail(error),
        }
    };
    let matrix = async {
        if with_matrix {
            let url = super::resolve(config::PROTOCOL_MATRIX_URL, &super::page_base())
                .unwrap_or_default();
            state.set_matrix(match fetch_matrix(url).await {
                Ok(matrix) => MatrixStatus::Loaded(std::sync::Arc::new(matrix)),
                Err(problem) => MatrixStatus::Failed(problem),
            });
        }
    };
    futures::join!(registry, matrix);
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

/// Pages through the AgentRegistry of the build, resuming where the last attempt stopped and
/// keeping what it loaded.
async fn page_through_service(state: RegistryState) {
    let base = super::registry_url();
    let mut pager = state
        .stopped
        .try_update_value(Option::take)
        .flatten()
        .unwrap_or_else(|| Pager::new(&base));
    while let Some(url) = pager.next_url() {
        let (loaded, total) = pager.progress();
        state.progress.set(Some(Progress {
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
    state.progress.set(None);
    if pager.is_done() {
        state.publish(service_catalog(pager, None));
        return;
    }
    let error = pager
        .last_error()
        .cloned()
        .unwrap_or_else(|| PageError::Request {
            page: pager.page(),
            message: "the request did not complete".to_owned(),
        });
    state.stopped.set_value(Some(pager.clone()));
    if pager.entries().is_empty() {
        state.fail(FetchError::Listing {
            url: pager.base_url().to_owned(),
            source: error,
        });
    } else {
        state.publish(service_catalog(pager, Some(error.to_string())));
    }
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
