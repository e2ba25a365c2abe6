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
//! case-insensitive name then id for [`Sort::Name`]. The date orders ([`Sort::Updated`],
//! [`Sort::Newest`]) need the change log's days ([`Dates`], from `changes.json`): with them,
//! [`Catalog::view_dated`] puts the latest day first (ties, and entries without a day after
//! them, by name); without, they order by name.
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
//!
//! A page with a large registry does both a few entries at a time, painting in between:
//! [`Indexing`] indexes a registry, [`Attaching`] computes a matrix's and lists' facet values
//! before attaching them.

use std::sync::Arc;

use crate::clients::Outcome;
use crate::facets::{FacetCounts, FacetIndex, FacetIndexBuilder};
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

/// The change log's days of each entry, by id (`registry_core::changes::ChangeLog::dates`):
/// what the date orders sort by.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dates {
    /// The day of its last addition or version change.
    pub updated: std::collections::BTreeMap<String, crate::edition::Day>,
    /// The day it was (last) added; none for entries listed before the log began.
    pub added: std::collections::BTreeMap<String, crate::edition::Day>,
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
    /// With the verdicts in the visitor's client ([`Catalog::view_fitted`]): how many results
    /// each outcome would keep, under every other filter, in [`Outcome::ALL`] order.
    pub works: Option<[usize; 4]>,
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
        self.set_sources(Some(matrix), self.listings.clone());
    }

    /// Attaches (or replaces) the registry's other lists: the JetBrains views and the
    /// quarantine list, each as far as it loaded.
    pub fn set_listings(&mut self, listings: Listings) {
        self.set_sources(None, listings);
    }

    /// Attaches the protocol matrix, if given, and the registry's other lists at once,
    /// recomputing the facet values once.
    pub fn set_sources(&mut self, matrix: Option<ProtocolMatrix>, listings: Listings) {
        let mut attaching = self.attaching(matrix, listings);
        while !attaching.step(usize::MAX) {}
        attaching.attach_to(self);
    }

    /// The protocol matrix, if given, and the registry's other lists, to be attached once
    /// their facet values are computed a few entries at a time ([`Attaching`]).
    pub fn attaching(&self, matrix: Option<ProtocolMatrix>, listings: Listings) -> Attaching {
        Attaching {
            registry: Arc::clone(&self.registry),
            matrix: matrix.or_else(|| self.matrix.clone()),
            listings,
            facets: FacetIndexBuilder::default(),
        }
    }

    /// Whether the facet values are those of this protocol matrix (or none) and these lists.
    pub fn has_sources(&self, matrix: Option<&ProtocolMatrix>, listings: &Listings) -> bool {
        self.matrix.as_ref() == matrix && self.listings == *listings
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

    /// What to show for a query (the date orders by name: see [`Catalog::view_dated`]).
    pub fn view(&self, query: &CatalogQuery) -> CatalogView {
        self.view_dated(query, None)
    }

    /// What to show for a query, the date orders by `dates`.
    pub fn view_dated(&self, query: &CatalogQuery, dates: Option<&Dates>) -> CatalogView {
        self.view_fitted(query, dates, None)
    }

    /// [`Catalog::view_dated`], with each entry's verdict in the visitor's client (`fits`, by
    /// entry index: see [`crate::clients::verdict`]), which `query.works` filters by. It is one
    /// more group: the other groups are counted under it, and [`CatalogView::works`] counts its
    /// outcomes under the others. Without verdicts, `query.works` filters nothing.
    pub fn view_fitted(
        &self,
        query: &CatalogQuery,
        dates: Option<&Dates>,
        fits: Option<&[Outcome]>,
    ) -> CatalogView {
        let matches = self.index.search(&query.q);
        let hits = matches.hits.iter().map(|hit| hit.entry);
        let fit_of = |entry: usize| {
            fits.and_then(|fits| fits.get(entry).copied())
                .unwrap_or(Outcome::Unknown)
        };
        let (mut results, counts) = match fits {
            Some(_) if !query.works.is_empty() => self.facets.filter(
                hits.clone().filter(|&e| query.works.contains(&fit_of(e))),
                &query.filters,
            ),
            _ => self.facets.filter(hits.clone(), &query.filters),
        };
        let works = fits.map(|_| {
            let kept;
            let under_others = if query.works.is_empty() {
                &results
            } else {
                kept = self.facets.filter(hits, &query.filters).0;
                &kept
            };
            let mut works = [0; 4];
            for &entry in under_others {
                // An outcome's discriminant is its place in `Outcome::ALL`.
                works[fit_of(entry) as usize] += 1;
            }
            works
        });
        match query.sort {
            // Hits come best first, ties and empty queries in name order.
            Sort::Relevance => {}
            // Name ranks are a permutation of the entries: putting each result at its rank orders
            // them in one pass, without instantiating a comparison sort for this order.
            Sort::Name | Sort::Updated | Sort::Newest => {
                let mut by_rank = vec![None; self.index.len()];
                for &entry in &results {
                    by_rank[self.index.name_rank(entry)] = Some(entry);
                }
                results = by_rank.into_iter().flatten().collect();
                let days = match (query.sort, dates) {
                    (Sort::Updated, Some(dates)) => Some(&dates.updated),
                    (Sort::Newest, Some(dates)) => Some(&dates.added),
                    _ => None,
                };
                if let Some(days) = days {
                    // Stable: ties stay in name order.
                    let entries = &self.registry.entries;
                    results.sort_by_key(|&i| std::cmp::Reverse(days.get(&entries[i].id).copied()));
                }
            }
        }
        CatalogView {
            results,
            counts,
            matches: Arc::new(matches),
            works,
        }
    }
}

/// A registry indexed a few entries at a time ([`Indexing::step`]), as
/// [`Catalog::without_lookalikes`] indexes it at once: a page indexing a large registry lets the
/// browser paint in between. The steps index the words ([`SearchIndexBuilder`]), then the
/// facet values ([`FacetIndexBuilder`]); [`Indexing::finish`] sorts the names and lays out the
/// facet table.
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
/// let query = CatalogQuery::from_query_string("q=beta");
/// assert_eq!(
///     indexing.finish().view(&query),
///     Catalog::without_lookalikes(registry).view(&query),
/// );
/// ```
#[derive(Debug)]
pub struct Indexing {
    registry: Registry,
    matrix: Option<ProtocolMatrix>,
    listings: Listings,
    words: SearchIndexBuilder,
    facets: FacetIndexBuilder,
}

impl Indexing {
    /// Starts indexing `registry`, without a protocol matrix or lists.
    pub fn new(registry: Registry) -> Indexing {
        Indexing::with_sources(registry, None, Listings::default())
    }

    /// Starts indexing `registry`, its facet values from `matrix` and `listings`.
    pub fn with_sources(
        registry: Registry,
        matrix: Option<ProtocolMatrix>,
        listings: Listings,
    ) -> Indexing {
        Indexing {
            registry,
            matrix,
            listings,
            words: SearchIndexBuilder::default(),
            facets: FacetIndexBuilder::default(),
        }
    }

    /// Does up to `count` more entries' (or words') share of the work; `true` once only
    /// [`Indexing::finish`] is left.
    pub fn step(&mut self, count: usize) -> bool {
        let entries = &self.registry.entries;
        // Once the words are indexed, their step does nothing and says so.
        self.words.step(entries, count)
            && self
                .facets
                .step(entries, self.matrix.as_ref(), &self.listings, count)
    }

    /// The catalogue, without look-alikes (see [`Catalog::set_lookalikes`]): what is left
    /// done, then the name order and the facet table.
    pub fn finish(self) -> Catalog {
        let Indexing {
            registry,
            matrix,
            listings,
            words,
            facets,
        } = self;
        let entries = &registry.entries;
        let index = words.finish(entries, &Lookalikes::default());
        let facets = facets.finish(entries, matrix.as_ref(), &listings);
        Catalog {
            registry: Arc::new(registry),
            index,
            facets,
            matrix,
            listings,
            lookalikes: Lookalikes::default(),
        }
    }
}

/// A protocol matrix and lists on their way to a catalogue ([`Catalog::attaching`]): their
/// facet values computed a few entries at a time, then attached.
///
/// ```
/// # use registry_core::{Catalog, CatalogQuery};
/// # use registry_core::listing::Listings;
/// # let registry = registry_core::load(r#"{"agents": [
/// #   {"id": "a", "name": "Alpha", "version": "1", "description": "d", "distribution": {"npx": {"package": "a"}}}]}"#)
/// #   .unwrap().registry;
/// let mut catalog = Catalog::new(registry);
/// let mut attaching = catalog.attaching(None, Listings::default());
/// while !attaching.step(1) {}
/// assert!(attaching.attach_to(&mut catalog));
/// assert!(catalog.has_sources(None, &Listings::default()));
/// ```
#[derive(Debug)]
pub struct Attaching {
    /// The registry of the catalogue they are for.
    registry: Arc<Registry>,
    matrix: Option<ProtocolMatrix>,
    listings: Listings,
    facets: FacetIndexBuilder,
}

impl Attaching {
    /// Computes up to `count` more entries' facet values; `true` once all are.
    pub fn step(&mut self, count: usize) -> bool {
        self.facets.step(
            &self.registry.entries,
            self.matrix.as_ref(),
            &self.listings,
            count,
        )
    }

    /// Attaches the sources and their facet values to `catalog`, what is left computed first;
    /// `false`, and `catalog` unchanged, when it is not a catalogue of the same registry (a
    /// clone shares it).
    pub fn attach_to(self, catalog: &mut Catalog) -> bool {
        if !Arc::ptr_eq(&self.registry, &catalog.registry) {
            return false;
        }
        catalog.facets =
            self.facets
                .finish(&self.registry.entries, self.matrix.as_ref(), &self.listings);
        catalog.matrix = self.matrix;
        catalog.listings = self.listings;
        true
    }
}

impl CatalogView {
    /// How many entries match the search text and the filters.
    pub fn total(&self) -> usize {
        self.results.len()
    }
}
