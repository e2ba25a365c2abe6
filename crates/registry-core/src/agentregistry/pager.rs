//! Paging through a discovery listing without IO: the next URL, each page's text read, the
//! stops.
//!
//! `Pager::next_url` says what to fetch, `Pager::accept` reads its text, `Pager::fail` records a
//! failed request, and `Pager::progress` says how far the listing has come. `Pager::urls_ahead`
//! names every page still to read once the listing has said how many there are, so that a
//! caller can ask for several at once and hand their texts to `accept` in order.

use std::collections::hash_map::{Entry as Slot, HashMap};

use super::page::{PageError, parse_page};
use super::service::trim_base;
use super::{MAX_PAGES, PAGE_SIZE};
use crate::load::{Diagnostic, Loaded, Location, Severity};
use crate::model::{Entry, Registry};

/// Pages through a discovery listing: says which URL to fetch next and reads each page's text,
/// keeping every readable agent and a [`Diagnostic`] for every problem.
///
/// ```
/// use registry_core::Pager;
///
/// let mut pager = Pager::new("https://registry.example.com/");
/// assert_eq!(
///     pager.next_url().as_deref(),
///     Some("https://registry.example.com/discover/agents?liveOnly=false&page=1&pageSize=100")
/// );
/// pager.fail("HTTP 503");
/// assert_eq!(pager.page(), 1); // the same page again on retry
/// let report = pager
///     .accept(r#"{"items": [], "totalCount": 0, "page": 1, "hasNextPage": false}"#)
///     .unwrap();
/// assert!(report.done && pager.next_url().is_none());
/// let loaded = pager.into_loaded();
/// assert!(loaded.registry.entries.is_empty() && loaded.diagnostics.is_empty());
/// ```
///
/// It stops when a page says `hasNextPage: false` (or, without it, at `totalPages`), and, with a
/// warning, when a page that claims a next one has no items or only items already loaded (a
/// server ignoring `page`), or after [`MAX_PAGES`] pages. An id already loaded is left out with
/// an error, the first one kept.
#[derive(Clone, Debug)]
pub struct Pager {
    /// Without trailing slashes.
    base_url: String,
    /// The page to fetch next (the last one fetched, once done).
    page: u32,
    done: bool,
    entries: Vec<Entry>,
    /// Per id loaded, the page and index it came at.
    first_seen: HashMap<String, (u32, usize)>,
    diagnostics: Vec<Diagnostic>,
    /// Items received so far, readable or not.
    received: usize,
    total_count: Option<u64>,
    total_pages: Option<u64>,
    /// Why the current page last failed, until it is read.
    error: Option<PageError>,
}

/// What reading one page did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageReport {
    /// The page read (1-based).
    pub page: u32,
    /// How many items it had, readable or not.
    pub items: usize,
    /// How many agents it added (its readable items minus ids already loaded).
    pub added: usize,
    /// Whether this was the last page.
    pub done: bool,
}

impl Pager {
    /// A pager for the registry at `base_url` (with or without a trailing slash), at page 1.
    pub fn new(base_url: &str) -> Pager {
        Pager {
            base_url: trim_base(base_url).to_owned(),
            page: 1,
            done: false,
            entries: Vec::new(),
            first_seen: HashMap::new(),
            diagnostics: Vec::new(),
            received: 0,
            total_count: None,
            total_pages: None,
            error: None,
        }
    }

    /// The registry's URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The URL of the page to fetch next; `None` once every page is read.
    pub fn next_url(&self) -> Option<String> {
        (!self.done).then(|| self.url_of(self.page))
    }

    /// The URLs of the pages still to read, in order, from the one [`Pager::next_url`] names:
    /// only that one until a page has said `totalPages`, then every page up to the last one it
    /// said (at most [`MAX_PAGES`]). A caller may request them at once, but must hand their
    /// texts to [`Pager::accept`] in this order, and stop at the first that is not accepted or
    /// once [`Pager::is_done`]; a server with more pages than it said gets the rest asked for
    /// afterwards, one at a time.
    ///
    /// ```
    /// use registry_core::Pager;
    ///
    /// let mut pager = Pager::new("https://registry.example.com");
    /// assert_eq!(pager.urls_ahead().count(), 1);
    /// let first = r#"{"items": [{"id": "a", "name": "A", "endpoints": []}],
    ///                 "page": 1, "totalPages": 3, "hasNextPage": true}"#;
    /// pager.accept(first).unwrap();
    /// let ahead: Vec<String> = pager.urls_ahead().collect();
    /// assert_eq!(ahead.len(), 2);
    /// assert!(ahead[0].ends_with("page=2&pageSize=100") && ahead[1].ends_with("page=3&pageSize=100"));
    /// ```
    pub fn urls_ahead(&self) -> impl Iterator<Item = String> + '_ {
        let said = self
            .total_pages
            .map_or(0, |total| total.min(u64::from(MAX_PAGES)) as u32);
        // Once done, a range that ends before it starts: nothing.
        let last = if self.done { 0 } else { said.max(self.page) };
        let pages = self.page..=last;
        pages.map(|page| self.url_of(page))
    }

    /// The URL of page `page` (1-based).
    fn url_of(&self, page: u32) -> String {
        format!(
            "{}/discover/agents?liveOnly=false&page={page}&pageSize={PAGE_SIZE}",
            self.base_url
        )
    }

    /// The page to fetch next (1-based), or the last one read once done.
    pub fn page(&self) -> u32 {
        self.page
    }

    /// Whether every page is read.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Reads the text of the page [`Pager::next_url`] named and moves on to the next one. A text
    /// that is not a page is an error that changes nothing but [`Pager::last_error`]: the same
    /// page is asked for again.
    pub fn accept(&mut self, text: &str) -> Result<PageReport, PageError> {
        if self.done {
            return Err(PageError::Finished);
        }
        let page = parse_page(text, self.page).inspect_err(|err| self.error = Some(err.clone()))?;
        self.error = None;
        let readable = page.entries.len();
        let mut added = 0;
        let mut diagnostics = page.diagnostics;
        for (index, entry) in page.indices.into_iter().zip(page.entries) {
            match self.first_seen.entry(entry.id.clone()) {
                Slot::Occupied(first) => {
                    let (first_page, first_index) = *first.get();
                    diagnostics.push(Diagnostic {
                        severity: Severity::Error,
                        location: Location::Item {
                            page: page.page,
                            index,
                            id: Some(entry.id),
                        },
                        message: format!(
                            "duplicate id: page {first_page}, items[{first_index}] already has \
                             it, so this item was left out"
                        ),
                        hint: Some(
                            "the registry listed this agent twice (it may have changed while \
                             being paged through); reload to page through it again"
                                .to_owned(),
                        ),
                    });
                }
                Slot::Vacant(slot) => {
                    slot.insert((page.page, index));
                    self.entries.push(entry);
                    added += 1;
                }
            }
        }
        // In item order: a duplicate among the malformed ones.
        diagnostics.sort_by_key(|d| match d.location {
            Location::Item { index, .. } => index,
            _ => 0,
        });
        self.diagnostics.extend(diagnostics);
        self.received += page.items;
        self.total_count = page.total_count.or(self.total_count);
        self.total_pages = page.total_pages.or(self.total_pages);
        let more = page
            .has_next_page
            .unwrap_or_else(|| self.total_pages.is_some_and(|t| u64::from(page.page) < t));
        let stop = if !more {
            None
        } else if page.items == 0 {
            Some("has no items but says there is a next page")
        } else if readable > 0 && added == 0 {
            Some("repeats only agents already loaded (the registry may be ignoring `page`)")
        } else if page.page >= MAX_PAGES {
            Some("is the last one the catalogue reads")
        } else {
            None
        };
        if let Some(reason) = stop {
            self.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                location: Location::Registry,
                message: format!("page {} {reason}; paging stopped there", page.page),
                hint: None,
            });
        }
        if more && stop.is_none() {
            self.page += 1;
        } else {
            self.done = true;
        }
        Ok(PageReport {
            page: page.page,
            items: page.items,
            added,
            done: self.done,
        })
    }

    /// Records that fetching the current page failed (`message`: `HTTP 503`, a network error),
    /// and returns the error to show. Nothing loaded is lost; the same page is asked for again.
    pub fn fail(&mut self, message: &str) -> PageError {
        let err = PageError::Request {
            page: self.page,
            message: message.to_owned(),
        };
        self.error = Some(err.clone());
        err
    }

    /// Why the current page last failed, until it is read.
    pub fn last_error(&self) -> Option<&PageError> {
        self.error.as_ref()
    }

    /// Items received so far (readable or not), and the registry's `totalCount` once a page
    /// said it: for a progress bar.
    pub fn progress(&self) -> (usize, Option<u64>) {
        (self.received, self.total_count)
    }

    /// `totalPages`, once a page said it.
    pub fn total_pages(&self) -> Option<u64> {
        self.total_pages
    }

    /// The agents loaded so far, in listing order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The problems found so far, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Everything loaded, as [`crate::load()`] gives it: the agents as a [`Registry`] (without a
    /// version), and the diagnostics.
    pub fn into_loaded(self) -> Loaded {
        Loaded {
            registry: Registry {
                version: None,
                entries: self.entries,
            },
            diagnostics: self.diagnostics,
        }
    }
}
