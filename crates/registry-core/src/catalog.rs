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
//!
//! [`Catalog::lookalikes`] holds the look-alike warnings of its entries, found once with the
//! index; the search keeps impostors below the entries they imitate. They may also be found
//! apart (the catalogue finds them in a worker, whose tables the page then never downloads):
//! [`Catalog::without_lookalikes`] indexes a registry without them, and
//! [`Catalog::set_lookalikes`] attaches them when they arrive, which reorders only the names.
//!
//! The protocol matrix is loaded separately and may arrive after the registry:
//! [`Catalog::set_matrix`] attaches it by recomputing only the facet values, not the search
//! index. So may the registry's other lists (the JetBrains views, the quarantine list):
//! [`Catalog::set_listings`] attaches them, likewise recomputing the facet values (the "Listed
//! for" and "Health" groups come from them), and [`Catalog::listing`] says, per entry, what they
//! say.

use std::sync::Arc;

use crate::facets::{FacetCounts, FacetIndex};
use crate::listing::{Listing, Listings};
use crate::lookalike::Lookalikes;
use crate::model::{Entry, Kind, Registry};
use crate::protocol::{Facts, ProtocolMatrix, Report};
use crate::query::{CatalogQuery, Sort};
use crate::search::{Matches, SearchIndex, SearchIndexBuilder};

/// A registry ready to be browsed: the registry with its search and facet indexes.
///
/// A clone shares the registry and the search index's words, not copies them: a catalogue given
/// a protocol matrix, a list or its look-alikes later is a clone with that part replaced, and at
/// 10,000 entries a copy of the entries alone would cost the page tens of milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// The registry.
    pub registry: Arc<Registry>,
    /// Its search index.
    pub index: SearchIndex,
    /// Its entries' facet values.
    pub facets: FacetIndex,
    /// The protocol matrix the facets were computed with, once loaded.
    pub matrix: Option<ProtocolMatrix>,
    /// The registry's other lists, as far as they are loaded (each may be missing).
    pub listings: Listings,
    /// Entries that look like others, and what else may not be what it seems: the warnings to
    /// show on cards and pages; the search keeps impostors below their originals.
    pub lookalikes: Lookalikes,
}

/// What the catalogue page shows for one query.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CatalogView {
    /// Indices into `registry.entries`, in display order.
    pub results: Vec<usize>,
    /// Facet counts for the search text, each group counted under the other groups' filters.
    pub counts: FacetCounts,
    /// The search matches, for highlighting (their hits ignore the filters); shared, since
    /// every card on screen marks its text with them.
    pub matches: Arc<Matches>,
}

impl Catalog {
    /// Indexes a registry, without a protocol matrix.
    pub fn new(registry: Registry) -> Catalog {
        Catalog::with_matrix(registry, None)
    }

    /// Indexes a registry without looking for look-alikes: [`Catalog::lookalikes`] is empty
    /// until [`Catalog::set_lookalikes`] gives them.
    pub fn without_lookalikes(registry: Registry) -> Catalog {
        Indexing::new(registry).finish()
    }

    /// Attaches the look-alikes of the registry's entries, found apart
    /// ([`Lookalikes::of_texts`] of their [`ListingText`](crate::lookalike::ListingText)s, in
    /// order): the search then keeps impostors below their originals. Look-alikes found for
    /// other entries (not as many) are refused, and `false` returned.
    pub fn set_lookalikes(&mut self, lookalikes: Lookalikes) -> bool {
        if lookalikes.len() != self.registry.entries.len() {
            return false;
        }
        self.index
            .set_lookalikes(&self.registry.entries, &lookalikes);
        self.lookalikes = lookalikes;
        true
    }

    /// Indexes a registry, with its protocol matrix when there is one.
    pub fn with_matrix(registry: Registry, matrix: Option<ProtocolMatrix>) -> Catalog {
        let lookalikes = Lookalikes::new(&registry.entries);
        let index = SearchIndex::with_lookalikes(&registry.entries, &lookalikes);
        let facets = FacetIndex::with_matrix(&registry.entries, matrix.as_ref());
        Catalog {
            registry: Arc::new(registry),
            index,
            facets,
            matrix,
            listings: Listings::default(),
            lookalikes,
        }
    }

    /// Attaches (or replaces) the protocol matrix, recomputing the facet values but not the
    /// search index.
    pub fn set_matrix(&mut self, matrix: ProtocolMatrix) {
        self.matrix = Some(matrix);
        self.reindex_facets();
    }

    /// Attaches (or replaces) the registry's other lists: the JetBrains views and the
    /// quarantine list, each as far as it loaded.
    pub fn set_listings(&mut self, listings: Listings) {
        self.listings = listings;
        self.reindex_facets();
    }

    /// Attaches the protocol matrix, if given, and the registry's other lists at once,
    /// recomputing the facet values once.
    pub fn set_sources(&mut self, matrix: Option<ProtocolMatrix>, listings: Listings) {
        if matrix.is_some() {
            self.matrix = matrix;
        }
        self.listings = listings;
        self.reindex_facets();
    }

    /// The facet values again, from the matrix and lists attached now.
    fn reindex_facets(&mut self) {
        self.facets =
            FacetIndex::with_sources(&self.registry.entries, self.matrix.as_ref(), &self.listings);
    }

    /// Where an entry is listed and whether it is quarantined, as far as the lists attached
    /// say ([`Listings::listing`]).
    pub fn listing(&self, entry: &Entry) -> Listing {
        self.listings.listing(entry)
    }

    /// What the protocol matrix says about an entry: [`Facts::NotProbed`] for an extension or
    /// when no matrix is loaded.
    pub fn facts(&self, entry: &Entry) -> Facts {
        match &self.matrix {
            Some(matrix) if entry.kind == Kind::Agent => matrix.facts(&entry.id),
            _ => Facts::NotProbed,
        }
    }

    /// Everything the protocol matrix says about an entry (see [`ProtocolMatrix::report`]):
    /// [`Report::NotProbed`] for an extension or when no matrix is loaded.
    pub fn report(&self, entry: &Entry) -> Report<'_> {
        match &self.matrix {
            Some(matrix) if entry.kind == Kind::Agent => matrix.report(&entry.id),
            _ => Report::NotProbed,
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
            // Name ranks are a permutation of the entries: putting each result at its rank orders
            // them in one pass, without instantiating a comparison sort for this order.
            Sort::Name => {
                let mut by_rank = vec![None; self.index.len()];
                for &entry in &results {
                    by_rank[self.index.name_rank(entry)] = Some(entry);
                }
                results = by_rank.into_iter().flatten().collect();
            }
        }
        CatalogView {
            results,
            counts,
            matches: Arc::new(matches),
        }
    }
}

/// A registry indexed a few entries at a time ([`Indexing::step`]), as
/// [`Catalog::without_lookalikes`] indexes it at once: a page indexing a large registry lets the
/// browser paint in between. Then two pieces are left, each of which the page may give a task of
/// its own: [`Indexing::sort`] sorts the vocabulary, [`Indexing::finish`] computes the facet
/// values.
///
/// ```
/// use registry_core::catalog::Indexing;
/// use registry_core::{Catalog, CatalogQuery};
/// # let registry = registry_core::load(r#"{"agents": [
/// #   {"id": "a", "name": "Alpha", "version": "1", "description": "d", "distribution": {"npx": {"package": "a"}}},
/// #   {"id": "b", "name": "Beta", "version": "1", "description": "d", "distribution": {"npx": {"package": "b"}}}]}"#)
/// #   .unwrap().registry;
/// let mut indexing = Indexing::new(registry.clone());
/// while !indexing.step(1) {}
/// indexing.sort();
/// let query = CatalogQuery::from_query_string("q=beta");
/// assert_eq!(
///     indexing.finish().view(&query),
///     Catalog::without_lookalikes(registry).view(&query),
/// );
/// ```
#[derive(Debug)]
pub struct Indexing {
    registry: Registry,
    words: SearchIndexBuilder,
    /// The search index, once sorted.
    index: Option<SearchIndex>,
}

impl Indexing {
    /// Starts indexing `registry`.
    pub fn new(registry: Registry) -> Indexing {
        Indexing {
            registry,
            words: SearchIndexBuilder::default(),
            index: None,
        }
    }

    /// Indexes up to `count` more entries' words; `true` once every entry's are.
    pub fn step(&mut self, count: usize) -> bool {
        self.index.is_some() || self.words.add(&self.registry.entries, count)
    }

    /// Sorts the vocabulary into the search index (the words not indexed yet first).
    pub fn sort(&mut self) {
        if self.index.is_none() {
            let words = std::mem::take(&mut self.words);
            self.index = Some(words.finish(&self.registry.entries, &Lookalikes::default()));
        }
    }

    /// The catalogue, without look-alikes (see [`Catalog::set_lookalikes`]): what is left
    /// done, then the facet values computed.
    pub fn finish(mut self) -> Catalog {
        self.sort();
        let Indexing {
            registry, index, ..
        } = self;
        let facets = FacetIndex::with_matrix(&registry.entries, None);
        Catalog {
            registry: Arc::new(registry),
            index: index.unwrap_or_default(),
            facets,
            matrix: None,
            listings: Listings::default(),
            lookalikes: Lookalikes::default(),
        }
    }
}

impl CatalogView {
    /// How many entries match the search text and the filters.
    pub fn total(&self) -> usize {
        self.results.len()
    }
}
