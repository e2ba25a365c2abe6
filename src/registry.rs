//! Fetching the registry and turning it into a browsable [`Catalog`].
//!
//! The only IO of the site. Everything after the bytes arrive is `registry_core`; this module
//! adds the URL, the HTTP status and the network error to what can go wrong, as a typed,
//! clonable [`FetchError`] the page shows with a retry button.

use std::sync::Arc;

use leptos::prelude::*;
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
}

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
