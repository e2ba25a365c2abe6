//! The registry's loading sequence, from request to catalogue: the site's only IO, and the only
//! writer of [`RegistryState`] (the parent module holds the state and what pages read of it).
//! Read top to bottom: [`RegistryState::load`] starts an attempt; an ACP registry is fetched,
//! read and indexed, shown, kept; then each optional file; a failure keeps what is shown and
//! asks again later; the last section is every change the sequence makes to the state. An
//! AgentRegistry is paged through in [`paging`](super::paging), the other kind's sequence: it
//! shows, publishes and fails through the methods here, and sets its own progress.
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

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use futures::future::select;
use leptos::prelude::*;
use registry_core::catalog::Indexing;
use registry_core::listing::{ClientView, Quarantine};
use registry_core::listing::{Listings, parse_quarantine, parse_view};
use registry_core::load::Scanning;
use registry_core::protocol::ProtocolMatrix;
use registry_core::{RegistryKind, SiteSettings};

use super::http::{self, GetError, Options, Waiting};
use super::kept::{self, Kept};
use super::lookalikes;
use super::{
    FetchError, LoadedRegistry, MatrixStatus, OptionalSource, OptionalStatus, RegistryState,
    STILL_WAITING, Status,
};
use crate::config;
use crate::timing::{Slices, mark, measure, now, sleep, yield_now};

/// Why an attempt is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Attempt {
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
}

/// Starts an attempt. The choice of loader is made here, outside the future, so that an ACP
/// build's wasm does not carry the AgentRegistry's pager (the kind is a constant).
fn start(state: RegistryState, attempt: Attempt) {
    match config::registry_kind() {
        RegistryKind::Acp => leptos::task::spawn_local(load_acp(state, attempt)),
        RegistryKind::AgentRegistry => {
            leptos::task::spawn_local(super::paging::page_through_service(state, attempt))
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
pub(super) fn ask_again_later(state: RegistryState, error: &FetchError) {
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

/// Every change the sequence makes to the state.
impl RegistryState {
    /// The protocol matrix and lists loaded by now, which the facet values come from.
    fn sources(self) -> (Option<ProtocolMatrix>, Listings) {
        let matrix = match self.matrix.get_untracked() {
            MatrixStatus::Loaded(matrix) => Some((*matrix).clone()),
            MatrixStatus::Failed(_) | MatrixStatus::Pending => None,
        };
        (matrix, self.listings.get_value())
    }

    /// Shows `loaded`, fresh from the network, with the optional files that have arrived.
    pub(super) fn publish(self, loaded: LoadedRegistry) {
        self.show(loaded);
        self.kept.set(None);
        self.waiting.set(None);
        self.failure.set(None);
        self.status.set(Status::Done);
    }

    /// Shows the copy kept from an earlier visit, fetched at `fetched_at`; the status of the
    /// attempt under way is left as it is.
    pub(super) fn publish_kept(self, loaded: LoadedRegistry, fetched_at: f64) {
        self.show(loaded);
        self.kept.set(Some(fetched_at));
    }

    pub(super) fn show(self, loaded: LoadedRegistry) {
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
            let mut slices = Slices::start();
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
            yield_now().await;
            let Some(latest) = self.latest.get_untracked() else {
                return;
            };
            let mut listings = lookalikes::Listings::default();
            let mut slices = Slices::start();
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

    pub(super) fn fail(self, error: FetchError) {
        self.waiting.set(None);
        self.failed_at.set(now());
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

/// Whether what the page can answer without (the optional files, the look-alike check) may
/// start: held, nothing of it takes the link or the page's thread while the page answers the
/// visitor ([`RegistryState::hold_extras`]).
#[derive(Debug, Default)]
pub(super) enum Extras {
    /// Started as soon as they can be.
    #[default]
    Free,
    /// Held: each waiting start is woken when they are released.
    Held(Vec<futures::channel::oneshot::Sender<()>>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Phase;

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
