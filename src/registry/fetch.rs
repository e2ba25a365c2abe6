//! The site's only IO: loading the registry and its optional files in the browser.
//!
//! An ACP registry is one file. It is asked for at once, and the copy kept from an earlier
//! visit ([`kept`]) is read beside it: when the request has waited [`STILL_WAITING`], the kept
//! copy is shown (with its age) while the request goes on; when the request fails or times
//! out, the kept copy is what stays. A registry that loads replaces it and is kept in turn.
//! Each optional file ([`OptionalSource`]) is fetched on its own, with the same timeout and
//! its own kept copy, and attached to the registry on screen when it arrives; none of them is
//! ever waited for. They are asked for once the registry's attempt is over, so that they never
//! take its bandwidth, and once the page lets them ([`RegistryState::hold_extras`]).
//!
//! A failure that may pass by itself is asked again in the background: when the browser is
//! back online, when the server's `Retry-After` has passed, or, while a kept copy is shown,
//! after a growing delay; that request is conditional on the kept copy's validators, so an
//! unchanged registry costs a `304`.
//!
//! An AgentRegistry is paged through with `registry_core`'s [`Pager`]: its first page alone,
//! then, once it has said how many there are, the others [`PAGES_AT_ONCE`] at a time, each
//! read in order as soon as those before it are; what has loaded is shown as it loads (at the
//! first page, then at most once a second), the progress beside it. When a page fails or
//! stalls, what loaded stays usable and says so ([`LoadedRegistry::incomplete`]), and a retry
//! resumes at the page that failed. A listing read whole is kept too (its pages' texts), for
//! when its first page cannot be had.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use futures::future::select;
use leptos::prelude::*;
use registry_core::agentregistry::{PageError, Pager};
use registry_core::catalog::Indexing;
use registry_core::listing::{Listings, parse_quarantine, parse_view};
use registry_core::load::Scanning;
use registry_core::protocol::ProtocolMatrix;
use registry_core::{Registry, RegistryKind, SiteSettings};

use super::http::{self, GetError, Options, Waiting};
use super::kept::{self, Kept};
use super::lookalikes;
use super::{
    FetchError, Listing, LoadedRegistry, MatrixStatus, OptionalSource, OptionalStatus, Paging,
    Progress, RegistryState, STILL_WAITING, Status,
};
use crate::config;
use crate::timing::{Slices, mark, measure, now, sleep, yield_now};

/// Why an attempt is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Attempt {
    /// The page has just started: the registry and every optional file.
    First,
    /// Asked again (Retry, or by itself after a failure): the registry only, from the server.
    Retry,
}

impl RegistryState {
    /// Starts loading the registry of the build (and, for an ACP registry, each optional file)
    /// into this state, in the browser: the first time.
    pub fn load(self) {
        start(self, Attempt::First);
    }

    /// Loads the registry again, asking the server (not the browser's cache); what is shown
    /// stays until it succeeds.
    pub fn retry(self) {
        if self.status.get_untracked() != Status::Loading {
            self.attempts.update(|n| *n += 1);
            self.status.set(Status::Loading);
            start(self, Attempt::Retry);
        }
    }
}

/// Starts an attempt. The choice of loader is made here, outside the future, so that an ACP
/// build's wasm does not carry the AgentRegistry's pager (the kind is a constant).
fn start(state: RegistryState, attempt: Attempt) {
    match config::registry_kind() {
        RegistryKind::Acp => leptos::task::spawn_local(load_acp(state, attempt)),
        RegistryKind::AgentRegistry => {
            leptos::task::spawn_local(page_through_service(state, attempt))
        }
    }
}

/// Loads an ACP registry; on the first attempt, each optional file after it.
async fn load_acp(state: RegistryState, attempt: Attempt) {
    let first = attempt == Attempt::First;
    load_registry(state, attempt).await;
    if first {
        // Together as large as the registry, and needed only once it is shown: after it, so
        // that they never share its bandwidth, and after the page's first answer.
        state.extras_free().await;
        for source in OptionalSource::ALL {
            if SiteSettings::has_file(source.configured_url()) {
                leptos::task::spawn_local(load_optional(state, source));
            } else {
                state.set_optional(source, OptionalStatus::Off);
            }
        }
    }
}

/// Loads the ACP registry, falling back to (and revalidating) the copy kept.
async fn load_registry(state: RegistryState, attempt: Attempt) {
    let url = super::registry_url();
    let kept_slot: Rc<RefCell<Option<Kept>>> = Rc::default();
    let showing_kept = state.kept.get_untracked().is_some();
    let mut options = Options {
        fresh: attempt == Attempt::Retry,
        off_thread: true,
        ..Options::default()
    };
    let response = if showing_kept {
        // Ask whether the copy on screen is still current.
        let kept = kept::read(&url).await;
        options.validators = kept.as_ref().map(|k| k.validators.clone());
        *kept_slot.borrow_mut() = kept;
        fetch(state, &url, &options, &kept_slot).await
    } else {
        let read_kept = async {
            let kept = kept::read(&url).await;
            *kept_slot.borrow_mut() = kept;
        };
        futures::join!(read_kept, fetch(state, &url, &options, &kept_slot)).1
    };
    match response {
        Ok(fetched) if fetched.not_modified => {
            let kept = match kept_slot.take() {
                Some(kept) => Some(kept),
                None => kept::read(&url).await,
            };
            if let Some(kept) = kept {
                kept::keep(&url, Some(&kept.body), &fetched.validators, now()).await;
            }
            state.kept.set(None);
            state.waiting.set(None);
            state.failure.set(None);
            state.status.set(Status::Done);
        }
        Ok(fetched) => {
            let validators = fetched.validators.clone();
            let chunks = fetched.chunks();
            let read = match fetched.text(&url) {
                Ok(text) => parse_registry(&url, &text, state.sources()).await,
                Err(error) => Err(error),
            };
            match read {
                Ok(loaded) => {
                    state.publish(loaded.last_modified(validators.last_modified.as_deref()));
                    // A task of its own, after the one that shows the registry.
                    yield_now().await;
                    kept::keep(&url, chunks.blob().as_ref(), &validators, now()).await;
                }
                Err(error) => failed(state, &url, error, &kept_slot).await,
            }
        }
        Err(error) => failed(state, &url, error, &kept_slot).await,
    }
}

/// The GET of the registry, saying after [`STILL_WAITING`] that it waits, and showing the copy
/// kept by then if nothing is on screen.
async fn fetch(
    state: RegistryState,
    url: &str,
    options: &Options,
    kept_slot: &Rc<RefCell<Option<Kept>>>,
) -> Result<http::Fetched, FetchError> {
    let watch = |waiting: Waiting| {
        if waiting.seconds < STILL_WAITING.as_secs() as u32 {
            return;
        }
        state.waiting.set(Some(waiting));
        if state.latest.get_untracked().is_none()
            && let Some(kept) = kept_slot.borrow_mut().take()
        {
            let url = url.to_owned();
            leptos::task::spawn_local(async move { show_kept(state, &url, &kept).await });
        }
    };
    http::get(url, options, &watch)
        .await
        .map_err(|error| error.into_fetch_error(url))
}

/// Reads the registry's text and indexes it, with User Timing marks for benchmarks. Both are
/// done a few entries at a time, the browser's turn between [`Slices`], so that a large
/// registry never blocks the page for a long task: what is on screen (the pre-rendered first
/// page, or the registry shown before) stays live meanwhile, and text typed is applied once the
/// catalogue is ready.
async fn parse_registry(
    url: &str,
    text: &str,
    (matrix, listings): (Option<ProtocolMatrix>, Listings),
) -> Result<LoadedRegistry, FetchError> {
    // A turn for the browser first: reading the body took the slice before.
    let mut slices = Slices::start();
    slices.pause().await;
    mark("acp:parse-start");
    let parse_error = |source| FetchError::Parse {
        url: url.to_owned(),
        source,
    };
    let mut scanning = Scanning::start(text).map_err(parse_error)?;
    while !scanning.step(ENTRIES_AT_A_TIME) {
        slices.pause_when_due().await;
    }
    let mut reading = scanning.finish().map_err(parse_error)?;
    while !reading.read(ENTRIES_AT_A_TIME) {
        slices.pause_when_due().await;
    }
    let loaded = reading.finish();
    mark("acp:parsed");
    slices.pause_when_due().await;
    let mut indexing = Indexing::with_sources(loaded.registry, matrix, listings);
    while !indexing.step(ENTRIES_AT_A_TIME) {
        slices.pause_when_due().await;
    }
    // The name order and the facet table are a piece each (a few milliseconds at 10,000
    // entries).
    slices.pause().await;
    let (catalog, lookalikes) = lookalikes::with_lookalikes(indexing.finish());
    mark("acp:indexed");
    measure("acp:parse", "acp:parse-start", "acp:parsed");
    measure("acp:parse+index", "acp:parse-start", "acp:indexed");
    Ok(LoadedRegistry {
        url: url.to_owned(),
        matrix_problem: None,
        catalog,
        diagnostics: loaded.diagnostics,
        incomplete: None,
        lookalikes,
        edition: Default::default(),
    }
    .last_modified(None))
}

/// Entries read or indexed between two looks at the clock: well under a millisecond's work.
const ENTRIES_AT_A_TIME: usize = 64;

/// Shows the copy kept, when it still reads as a registry.
async fn show_kept(state: RegistryState, url: &str, kept: &Kept) {
    let Some(text) = kept.text().await else {
        return;
    };
    // Read in slices like a registry fetched; one that loaded meanwhile stays.
    if let Ok(loaded) = parse_registry(url, &text, state.sources()).await
        && state.latest.get_untracked().is_none()
    {
        let loaded = loaded.last_modified(kept.validators.last_modified.as_deref());
        state.publish_kept(loaded, kept.fetched_at);
    }
}

/// The attempt failed: the kept copy stays or is shown, and the registry is asked for again
/// when it may have come back.
async fn failed(
    state: RegistryState,
    url: &str,
    error: FetchError,
    kept_slot: &Rc<RefCell<Option<Kept>>>,
) {
    if state.latest.get_untracked().is_none() {
        let kept = match kept_slot.take() {
            Some(kept) => Some(kept),
            None => kept::read(url).await,
        };
        if let Some(kept) = kept {
            show_kept(state, url, &kept).await;
        }
    }
    state.fail(error.clone());
    ask_again_later(state, &error);
}

/// The longest a background retry waits.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// Schedules the next attempt of a failure that may pass by itself: when the browser is back
/// online, after the server's `Retry-After`, or (while a kept copy is shown) after a delay
/// doubling from 15 s to 5 min. A Retry pressed meanwhile makes it moot.
fn ask_again_later(state: RegistryState, error: &FetchError) {
    let attempts = state.attempts.get_untracked();
    let delay = match error {
        FetchError::Offline { .. } => None,
        error => match error.retry_after() {
            Some(wait) => Some(wait.min(MAX_BACKOFF)),
            None if error.is_transient() && state.kept.get_untracked().is_some() => Some(
                (Duration::from_secs(15) * 2u32.saturating_pow(attempts.min(5))).min(MAX_BACKOFF),
            ),
            None => return,
        },
    };
    let online = matches!(error, FetchError::Offline { .. }) || error.is_transient();
    leptos::task::spawn_local(async move {
        let back_online = std::pin::pin!(went_online());
        match delay {
            Some(delay) => {
                let delay = std::pin::pin!(sleep(delay));
                if online {
                    let _ = select(delay, back_online).await;
                } else {
                    delay.await;
                }
            }
            None => back_online.await,
        }
        let unchanged = state.attempts.get_untracked() == attempts
            && matches!(state.status.get_untracked(), Status::Failed(_));
        if unchanged {
            state.retry();
        }
    });
}

/// Ready when the browser says it is online again.
async fn went_online() {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let options = web_sys::AddEventListenerOptions::new();
        options.set_once(true);
        let on_online = Closure::once_into_js(move || {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        });
        let _ = window().add_event_listener_with_callback_and_add_event_listener_options(
            "online",
            on_online.unchecked_ref(),
            &options,
        );
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Loads one optional file: from the network, else the copy kept; never fatal.
async fn load_optional(state: RegistryState, source: OptionalSource) {
    let url = super::resolve(source.configured_url(), &super::page_base())
        .unwrap_or_else(|| source.configured_url().to_owned());
    let read = match http::get(&url, &Options::default(), &|_| {}).await {
        Ok(fetched) => {
            let validators = fetched.validators.clone();
            let body = fetched.chunks().blob();
            fetched
                .text(&url)
                .map_err(|e| e.to_string())
                .and_then(|text| apply(state, source, &url, &text).map(|()| (body, validators)))
        }
        Err(GetError::Failed(error)) => Err(error.to_string()),
        Err(GetError::TooLarge(_)) => Err(format!("{url} could not be read")),
    };
    match read {
        Ok((body, validators)) => {
            state.set_optional(source, OptionalStatus::Loaded);
            kept::keep(&url, body.as_ref(), &validators, now()).await;
        }
        Err(why) => {
            let kept = match kept::read(&url).await {
                Some(kept) => kept.text().await.map(|text| (kept, text)),
                None => None,
            };
            match kept.filter(|(_, text)| apply(state, source, &url, text).is_ok()) {
                Some((kept, _)) => state.set_optional(
                    source,
                    OptionalStatus::Kept {
                        fetched_at: kept.fetched_at,
                        why,
                    },
                ),
                None => {
                    if source == OptionalSource::ProtocolMatrix {
                        state.set_matrix(MatrixStatus::Failed(why.clone()));
                    }
                    state.set_optional(source, OptionalStatus::Failed(why));
                }
            }
        }
    }
}

/// Reads an optional file's text and attaches it; why not, in a sentence.
fn apply(
    state: RegistryState,
    source: OptionalSource,
    url: &str,
    text: &str,
) -> Result<(), String> {
    match source {
        OptionalSource::ProtocolMatrix => registry_core::protocol::parse_matrix(text)
            .map(|(matrix, _warnings)| state.set_matrix(MatrixStatus::Loaded(Arc::new(matrix))))
            .map_err(|e| format!("{url} is not a protocol matrix: {e}")),
        OptionalSource::JetBrainsView | OptionalSource::JetBrainsPreviewView => parse_view(text)
            .map(|(view, _diagnostics)| {
                state.set_listing(match source {
                    OptionalSource::JetBrainsView => Listing::JetBrains(view),
                    _ => Listing::JetBrainsPreview(view),
                })
            })
            .map_err(|e| format!("{url} is not a registry view: {e}")),
        OptionalSource::Quarantine => parse_quarantine(text)
            .map(|(list, _warnings)| state.set_listing(Listing::Quarantine(list)))
            .map_err(|e| format!("{url} is not a quarantine list: {e}")),
    }
}

/// How often, at most, a partly paged listing is shown again while paging goes on.
const SHOW_EVERY: f64 = 1000.0;

/// How many pages of a listing are asked for at once, once its first page has said how many
/// there are: enough to hide each page's round trip, few enough not to crowd the service (nor
/// the browser's six connections per host).
const PAGES_AT_ONCE: usize = 4;

/// Pages through the AgentRegistry of the build, resuming where the last attempt stopped and
/// keeping what it loaded.
async fn page_through_service(state: RegistryState, attempt: Attempt) {
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
