//! The catalogue state as a URL query string (API contract; implementation in progress).

use crate::facets::Filters;

/// Result order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    /// Best match first.
    #[default]
    Relevance,
    /// By name.
    Name,
}

/// Everything the catalogue page shows depends on this.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CatalogQuery {
    /// Search text.
    pub q: String,
    /// Filters.
    pub filters: Filters,
    /// Order.
    pub sort: Sort,
}
