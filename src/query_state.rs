//! The catalogue's state lives in the URL query string.
//!
//! [`use_catalog_query`] derives the [`CatalogQuery`] from the location; [`set_catalog_query`]
//! writes a new one by navigating. Typing replaces the history entry (so Back does not step
//! through every keystroke); choosing a filter or an order pushes one. The router's URL, which
//! [`use_catalog_query`] reads, changes at once; a replaced history entry is written after the
//! next frame (the vendored router's `replace_later`), so the keystroke's frame does not wait
//! for it.
//!
//! [`LastSearch`] remembers the query an agent page was opened from, for its back link.

use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_location, use_navigate};
use registry_core::CatalogQuery;

use crate::config;

/// How a state change enters the browser history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// A new entry: Back returns to the previous state.
    Push,
    /// Replace the current entry (typing).
    Replace,
}

/// The catalogue state of the current URL.
pub fn use_catalog_query() -> Memo<CatalogQuery> {
    let location = use_location();
    Memo::new(move |_| {
        location
            .search
            .with(|search| CatalogQuery::from_query_string(search.trim_start_matches('?')))
    })
}

/// A function that navigates to the catalogue showing a given state.
pub fn use_set_catalog_query() -> impl Fn(&CatalogQuery, History) + Clone + 'static {
    let navigate = use_navigate();
    move |query: &CatalogQuery, history: History| {
        let qs = query.to_query_string();
        let path = if qs.is_empty() {
            "/".to_owned()
        } else {
            format!("/?{qs}")
        };
        navigate(
            &path,
            NavigateOptions {
                replace: history == History::Replace,
                scroll: false,
                ..Default::default()
            },
        );
    }
}

/// The catalogue query the visitor last opened an agent from, for the agent page's link back.
#[derive(Clone, Copy, Debug)]
pub struct LastSearch(RwSignal<String>);

impl LastSearch {
    /// No search remembered yet.
    pub fn new() -> LastSearch {
        LastSearch(RwSignal::new(String::new()))
    }

    /// Remembers the query string of the page being left (with or without its `?`).
    pub fn remember(self, search: &str) {
        self.0.set(search.trim_start_matches('?').to_owned());
    }

    /// The link back to the catalogue with that search.
    pub fn href(self) -> String {
        let search = self.0.get_untracked();
        if search.is_empty() {
            config::href("/")
        } else {
            config::href(&format!("/?{search}"))
        }
    }
}

impl Default for LastSearch {
    fn default() -> Self {
        LastSearch::new()
    }
}
