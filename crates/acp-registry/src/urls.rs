//! `--check-urls`: each archive must answer HTTP 200 (HEAD, else GET), each npm and PyPI
//! package must exist. Requests run on a few threads, each with a timeout; a URL named twice is
//! requested once.
//!
//! At most 8 requests run at once.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use registry_validate::{Diagnostic, RemoteCheck};

/// At most this many requests at once.
const CONCURRENCY: usize = 8;
/// Per request, connection to last byte of the headers.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Runs the checks; a diagnostic per check whose URL failed.
pub fn check(checks: &[RemoteCheck]) -> Vec<Diagnostic> {
    let urls: Vec<&str> = checks
        .iter()
        .map(|c| c.url.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .http_status_as_error(false)
        .user_agent(concat!("acp-registry/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..CONCURRENCY.min(urls.len()) {
            scope.spawn(|| {
                while let Some(url) = urls.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = probe(&agent, url);
                    results
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .insert(*url, outcome);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    checks
        .iter()
        .filter_map(|check| match results.get(check.url.as_str()) {
            Some(Err(reason)) => Some(check.failure(reason)),
            _ => None,
        })
        .collect()
}

/// `Ok` for HTTP 200; else why not: `HTTP 404`, or the transport error.
fn probe(agent: &ureq::Agent, url: &str) -> Result<(), String> {
    let status = |response: Result<ureq::http::Response<ureq::Body>, ureq::Error>| {
        response
            .map(|r| r.status().as_u16())
            .map_err(|err| err.to_string())
    };
    match status(agent.head(url).call()) {
        Ok(200) => Ok(()),
        // Some servers refuse HEAD: ask with GET (and read only the headers).
        _ => match status(agent.get(url).call()) {
            Ok(200) => Ok(()),
            Ok(code) => Err(format!("HTTP {code}")),
            Err(err) => Err(err),
        },
    }
}
