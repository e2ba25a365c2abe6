//! The registry's change log (`changes.json`, written by the build beside the pages: see
//! `registry_core::changes`), as the pages that show it read it: the timeline of `/changes/`
//! and an agent page's History. Fetched only by those pages ([`crate::site_files`]).

use leptos::prelude::*;
use registry_core::changes::ChangeLog;

use crate::site_files::{FileKind, FileStatus, LazyFile};

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

/// The change log and where loading it stands.
pub type ChangesState = LazyFile<ChangeLog>;

/// Where loading the change log stands.
pub type ChangesStatus = FileStatus<ChangeLog>;

/// What a page says when the build wrote no log.
pub const NO_HISTORY: &str = "this site was built without a history of the registry";

/// The change log as a file beside the pages.
pub static CHANGES: FileKind<ChangeLog> = FileKind {
    file: CHANGES_FILE,
    mark: CHANGES_MARK,
    missing: NO_HISTORY,
    parse: |text| ChangeLog::from_json(text).map_err(|error| error.to_string()),
};

/// The change log provided to the app; none in an app that shows no history (the listing
/// preview).
pub fn use_changes() -> Option<ChangesState> {
    use_context::<ChangesState>()
}
