//! Search, filters and counts together, as the catalogue page uses them.
//!
//! ```
//! use registry_core::{Catalog, CatalogQuery, Registry};
//!
//! let catalog = Catalog::new(Registry::default());
//! let view = catalog.view(&CatalogQuery::from_query_string("q=gemini&dist=npx"));
//! for &entry in &view.results {
//!     let entry = &catalog.registry.entries[entry];
//!     let marks = view.matches.highlight(&entry.name);
//! #   let _ = marks;
//! }
//! assert_eq!(view.total(), 0);
//! ```
//!
//! [`Catalog::view`] searches ([`crate::search`]), keeps the hits passing the filters while
//! counting facet values disjunctively ([`crate::facets`]), then orders the results: by score
//! (ties by name) for [`Sort::Relevance`], which with no search text means by name, or by
//! case-insensitive name then id for [`Sort::Name`].

use crate::facets::{FacetCounts, FacetIndex};
use crate::model::Registry;
use crate::query::{CatalogQuery, Sort};
use crate::search::{Matches, SearchIndex};

/// A registry ready to be browsed: the registry with its search and facet indexes.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// The registry.
    pub registry: Registry,
    /// Its search index.
    pub index: SearchIndex,
    /// Its entries' facet values.
    pub facets: FacetIndex,
}

/// What the catalogue page shows for one query.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CatalogView {
    /// Indices into `registry.entries`, in display order.
    pub results: Vec<usize>,
    /// Facet counts for the search text, each group counted under the other groups' filters.
    pub counts: FacetCounts,
    /// The search matches, for highlighting (their hits ignore the filters).
    pub matches: Matches,
}

impl Catalog {
    /// Indexes a registry.
    pub fn new(registry: Registry) -> Catalog {
        let index = SearchIndex::new(&registry.entries);
        let facets = FacetIndex::new(&registry.entries);
        Catalog {
            registry,
            index,
            facets,
        }
    }

    /// What to show for a query.
    pub fn view(&self, query: &CatalogQuery) -> CatalogView {
        let matches = self.index.search(&query.q);
        let (mut results, counts) = self
            .facets
            .filter(matches.hits.iter().map(|hit| hit.entry), &query.filters);
        match query.sort {
            // Hits come best first, ties and empty queries in name order.
            Sort::Relevance => {}
            Sort::Name => results.sort_unstable_by_key(|&entry| self.index.name_rank(entry)),
        }
        CatalogView {
            results,
            counts,
            matches,
        }
    }
}

impl CatalogView {
    /// How many entries match the search text and the filters.
    pub fn total(&self) -> usize {
        self.results.len()
    }
}
