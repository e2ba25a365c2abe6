//! Search, filters and counts together (API contract; implementation in progress).

use crate::facets::FacetCounts;
use crate::model::Registry;
use crate::query::CatalogQuery;
use crate::search::{Matches, SearchIndex};

/// A registry ready to be browsed.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// The registry.
    pub registry: Registry,
    /// Its search index.
    pub index: SearchIndex,
}

/// What the catalogue page shows for one query.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CatalogView {
    /// Indices into `registry.entries`, in display order.
    pub results: Vec<usize>,
    /// Facet counts.
    pub counts: FacetCounts,
    /// The search matches, for highlighting.
    pub matches: Matches,
}

impl Catalog {
    /// Indexes a registry.
    pub fn new(registry: Registry) -> Catalog {
        let index = SearchIndex::new(&registry.entries);
        Catalog { registry, index }
    }

    /// What to show for a query.
    pub fn view(&self, _query: &CatalogQuery) -> CatalogView {
        CatalogView::default()
    }
}
