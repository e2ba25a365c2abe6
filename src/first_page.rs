//! Whether the page on screen is the one the HTML arrived with.
//!
//! [`App`](crate::App) provides a [`FirstPage`] from its `prerendered` prop; a page that acts
//! differently on the page it took over (the agent page's scroll to the address's `#anchor`)
//! asks it once.

use leptos::prelude::*;

/// Whether the first page the app shows was already in the HTML it took over, for the one
/// thing that then differs: the browser has scrolled to the address's `#anchor` already.
#[derive(Clone, Copy, Debug)]
pub struct FirstPage(StoredValue<bool>);

impl FirstPage {
    /// `prerendered`: the first page arrived whole in the HTML.
    pub fn new(prerendered: bool) -> FirstPage {
        FirstPage(StoredValue::new(prerendered))
    }

    /// Whether the page asking is that first, pre-rendered page; `true` once at most.
    pub fn take_prerendered(self) -> bool {
        self.0.try_update_value(std::mem::take).unwrap_or(false)
    }
}
