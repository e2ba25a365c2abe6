//! Paging through an AgentRegistry, the other kind's loading sequence: its first page alone,
//! then, once it has said how many there are, the others [`PAGES_AT_ONCE`] at a time, each
//! read in order as soon as those before it are; what has loaded is shown as it loads (at the
//! first page, then at most once a second), the progress beside it. When a page fails or
//! stalls, what loaded stays usable and says so ([`LoadedRegistry::incomplete`]), and a retry
//! resumes at the page that failed. A listing read whole is kept too (its pages' texts), for
//! when its first page cannot be had. It shows, publishes and fails through the methods of
//! [`load`](super::load), and sets its own progress.

use std::cell::Cell;

use futures::StreamExt;
use leptos::prelude::*;
use registry_core::Registry;
use registry_core::agentregistry::{PageError, Pager};

use super::http::{self, Options, Waiting};
use super::kept;
use super::load::{Attempt, ask_again_later};
use super::lookalikes;
use super::{FetchError, LoadedRegistry, Progress, RegistryState, STILL_WAITING};
use crate::timing::now;

/// How often, at most, a partly paged listing is shown again while paging goes on.
const SHOW_EVERY: f64 = 1000.0;

/// How many pages of a listing are asked for at once, once its first page has said how many
/// there are: enough to hide each page's round trip, few enough not to crowd the service (nor
/// the browser's six connections per host).
const PAGES_AT_ONCE: usize = 4;

/// Pages through the AgentRegistry of the build, resuming where the last attempt stopped and
/// keeping what it loaded.
pub(super) async fn page_through_service(state: RegistryState, attempt: Attempt) {
    let base = super::registry_url();
    let Paging {
        mut pager,
        mut texts,
    } = state
        .stopped
        .try_update_value(Option::take)
        .flatten()
        .unwrap_or_else(|| Paging {
            pager: Pager::new(&base),
            texts: Vec::new(),
        });
    let options = Options {
        fresh: attempt == Attempt::Retry,
        ..Options::default()
    };
    let mut shown_at = f64::NEG_INFINITY;
    // The page the listing waits for: only its request says it is still waiting.
    let awaited = Cell::new(pager.page());
    'listing: while !pager.is_done() {
        state.progress.set(Some(progress(&pager)));
        // One page until the listing has said how many it has, then up to PAGES_AT_ONCE at a
        // time, read in order as they come; pages asked for beyond a stop are dropped (and their
        // requests aborted) with the stream.
        let requests = pager.urls_ahead().zip(pager.page()..).map(|(url, page)| {
            let (awaited, options) = (&awaited, &options);
            async move {
                let watch = move |waiting: Waiting| {
                    if awaited.get() == page && waiting.seconds >= STILL_WAITING.as_secs() as u32 {
                        state.waiting.set(Some(waiting));
                    }
                };
                let answer = http::get(&url, options, &watch).await;
                (url, answer)
            }
        });
        let mut answers =
            futures::stream::iter(requests.collect::<Vec<_>>()).buffered(PAGES_AT_ONCE);
        while let Some((url, answer)) = answers.next().await {
            state.waiting.set(None);
            let text = answer
                .map_err(|error| error.into_fetch_error(&url))
                .and_then(|fetched| fetched.text(&url));
            match text {
                Ok(text) if pager.accept(&text).is_ok() => texts.push(text),
                Ok(_) => break 'listing,
                Err(error) => {
                    pager.fail(error.to_string().trim_end_matches('.'));
                    break 'listing;
                }
            }
            awaited.set(pager.page());
            if pager.is_done() {
                break 'listing;
            }
            state.progress.set(Some(progress(&pager)));
            if now() - shown_at >= SHOW_EVERY {
                state.show(snapshot(&pager, None));
                state.kept.set(None);
                shown_at = now();
            }
        }
    }
    state.progress.set(None);
    if pager.is_done() {
        state.publish(snapshot(&pager, None));
        kept::keep(
            &kept_key(pager.base_url()),
            kept::body_of(&serde_json::to_string(&texts).unwrap_or_default()).as_ref(),
            &http::Validators::default(),
            now(),
        )
        .await;
        return;
    }
    let error = pager
        .last_error()
        .cloned()
        .unwrap_or_else(|| PageError::Request {
            page: pager.page(),
            message: "the request did not complete".to_owned(),
        });
    let nothing = pager.entries().is_empty();
    let partial = (!nothing).then(|| snapshot(&pager, Some(error.to_string())));
    state.stopped.set_value(Some(Paging {
        pager: pager.clone(),
        texts,
    }));
    match partial {
        Some(partial) => state.publish(partial),
        None => {
            let error = FetchError::Listing {
                url: pager.base_url().to_owned(),
                source: error,
            };
            if state.latest.get_untracked().is_none()
                && let Some(kept) = kept::read(&kept_key(pager.base_url())).await
                && let Some(text) = kept.text().await
                && let Some(loaded) = replay(pager.base_url(), &text)
            {
                state.publish_kept(loaded, kept.fetched_at);
            }
            state.fail(error.clone());
            ask_again_later(state, &error);
        }
    }
}

/// The progress of `pager`, for the notice.
fn progress(pager: &Pager) -> Progress {
    let (loaded, total) = pager.progress();
    Progress {
        page: pager.page(),
        pages: pager.total_pages(),
        loaded,
        total,
    }
}

/// Where a whole listing's pages are kept: a URL of the service that is never fetched.
fn kept_key(base: &str) -> String {
    format!("{base}/discover/agents?kept=listing")
}

/// The catalogue of a listing kept whole: its pages read again, in order.
fn replay(base: &str, kept: &str) -> Option<LoadedRegistry> {
    let texts: Vec<String> = serde_json::from_str(kept).ok()?;
    let mut pager = Pager::new(base);
    for text in &texts {
        pager.accept(text).ok()?;
    }
    pager.is_done().then(|| snapshot(&pager, None))
}

/// The catalogue of what `pager` has loaded so far.
fn snapshot(pager: &Pager, incomplete: Option<String>) -> LoadedRegistry {
    let (catalog, lookalikes) = lookalikes::catalog_of(Registry {
        version: None,
        entries: pager.entries().to_vec(),
    });
    LoadedRegistry {
        url: pager.base_url().to_owned(),
        matrix_problem: None,
        catalog,
        diagnostics: pager.diagnostics().to_vec(),
        incomplete,
        lookalikes,
        edition: Default::default(),
    }
}

/// Where paging through an AgentRegistry stopped, so that a retry resumes there.
#[derive(Clone, Debug)]
pub(super) struct Paging {
    pager: Pager,
    /// The text of every page read so far, kept once the listing is whole.
    texts: Vec<String>,
}
