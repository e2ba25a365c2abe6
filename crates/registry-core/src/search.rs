//! Typo-tolerant ranked search (API contract; implementation in progress).

use std::ops::Range;

use crate::model::Entry;

/// A search index over a registry's entries.
#[derive(Clone, Debug, Default)]
pub struct SearchIndex {}

/// One matching entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Index into the entries the index was built from.
    pub entry: usize,
    /// Higher is better.
    pub score: u32,
}

/// The result of a search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matches {
    /// Matching entries, best first.
    pub hits: Vec<Hit>,
}

impl SearchIndex {
    /// Builds the index.
    pub fn new(_entries: &[Entry]) -> SearchIndex {
        SearchIndex {}
    }

    /// Searches.
    pub fn search(&self, _query: &str) -> Matches {
        Matches::default()
    }
}

impl Matches {
    /// Byte ranges of `text` to highlight.
    pub fn highlight(&self, _text: &str) -> Vec<Range<usize>> {
        Vec::new()
    }
}
