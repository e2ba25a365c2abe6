//! The registry's change log (`changes.json`, written by the build beside the pages: see
//! `registry_core::changes`), as the pages that show it read it: the timeline of `/changes/`
//! and an agent page's History.
//!
//! At build time the renderer gives the log it wrote ([`ChangesState::ready`]). In the browser
//! it is fetched only by a page that shows it, once ([`ChangesState::want`]): the catalogue's
//! first load never carries it. When the app takes over a built page that shows it (the page
//! has a [`CHANGES_MARK`] element), the take-over waits for it like the registry's optional
//! files, so what the build wrote does not go and come back.

use std::sync::Arc;

use leptos::prelude::*;
use registry_core::changes::ChangeLog;

/// The file the build writes beside the pages.
pub const CHANGES_FILE: &str = "changes.json";

/// The attribute of an element that shows the log, by which the start-up knows the page it
/// takes over needs it (the components write it as `data-changes`).
pub const CHANGES_MARK: &str = "data-changes";

/// The page of the log, without the base path.
pub const CHANGES_PAGE: &str = "/changes/";
/// The feed of every change, without the base path.
pub const ALL_CHANGES_FEED: &str = "/changes.xml";
/// The feed of agents added, without the base path.
pub const NEW_AGENTS_FEED: &str = "/new-agents.xml";

/// An agent's feed, without the base path: `/agents/<id>/feed.xml`.
pub fn agent_feed(id: &str) -> String {
    format!("/agents/{id}/feed.xml")
}

/// Where the log stands.
#[derive(Clone, Debug, PartialEq)]
pub enum ChangesStatus {
    /// Not asked for, or not answered yet.
    Pending,
    /// Read.
    Loaded(Arc<ChangeLog>),
    /// There is none, or it could not be read: why, in a sentence.
    Missing(String),
}

/// The change log and where loading it stands; `Copy`, shared through context.
#[derive(Clone, Copy, Debug)]
pub struct ChangesState {
    status: RwSignal<ChangesStatus>,
    asked: StoredValue<bool>,
}

/// What a page says when the build wrote no log.
pub const NO_HISTORY: &str = "this site was built without a history of the registry";

impl ChangesState {
    /// The log the build wrote, or none.
    pub fn ready(log: Option<ChangeLog>) -> ChangesState {
        let status = match log {
            Some(log) => ChangesStatus::Loaded(Arc::new(log)),
            None => ChangesStatus::Missing(NO_HISTORY.to_owned()),
        };
        ChangesState {
            status: RwSignal::new(status),
            asked: StoredValue::new(true),
        }
    }

    /// Nothing asked for yet: the browser's, until a page wants it.
    pub fn pending() -> ChangesState {
        ChangesState {
            status: RwSignal::new(ChangesStatus::Pending),
            asked: StoredValue::new(false),
        }
    }

    /// Where the log stands: tracked.
    pub fn status(self) -> ChangesStatus {
        self.status.get()
    }

    /// Whether the log is read or known to be missing: tracked.
    pub fn settled(self) -> bool {
        self.status.with(|s| *s != ChangesStatus::Pending)
    }

    /// Asks for the log, the first time only (in the browser; at build time it is there).
    pub fn want(self) {
        if self.asked.get_value() {
            return;
        }
        self.asked.set_value(true);
        #[cfg(target_arch = "wasm32")]
        leptos::task::spawn_local(async move {
            let status = fetch().await;
            self.status.set(status);
        });
    }
}

/// Fetches and reads the log published beside the pages.
#[cfg(target_arch = "wasm32")]
async fn fetch() -> ChangesStatus {
    use crate::registry::http::{self, GetError, Options};
    use crate::registry::{FetchError, page_base, resolve};

    let url = resolve(CHANGES_FILE, &page_base()).unwrap_or_else(|| CHANGES_FILE.to_owned());
    let text = match http::get(&url, &Options::default(), &|_| {}).await {
        Ok(fetched) => fetched.text(&url),
        Err(GetError::Failed(FetchError::Http { status: 404, .. })) => {
            return ChangesStatus::Missing(NO_HISTORY.to_owned());
        }
        Err(error) => Err(error.into_fetch_error(&url)),
    };
    match text.map(|text| ChangeLog::from_json(&text)) {
        Ok(Ok(log)) => ChangesStatus::Loaded(Arc::new(log)),
        Ok(Err(error)) => ChangesStatus::Missing(format!("{url} could not be read: {error}")),
        Err(error) => ChangesStatus::Missing(error.to_string()),
    }
}

/// The change log provided to the app; none in an app that shows no history (the listing
/// preview).
pub fn use_changes() -> Option<ChangesState> {
    use_context::<ChangesState>()
}
