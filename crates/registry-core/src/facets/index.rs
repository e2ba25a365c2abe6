//! Every entry's facet values as ids into one table of values, and the one pass over the search
//! hits that yields the results and every group's counts.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::license;
use crate::listing::Listings;
use crate::model::Entry;
use crate::protocol::{AuthMethod, ProtocolMatrix};

use super::Filters;
use super::entry::{EntryFacets, Sources, license_of, offered};
use super::table::{AuthFilter, FACETS, Facet, FacetValue, Found, Order, Within};

/// How many groups [`FACETS`] has.
const GROUPS: usize = FACETS.len();
/// The bits of a value's meta byte holding its group's index.
const GROUP: u8 = 0b1_1111;
/// The meta bit of a group's [alternative](FacetValue::is_alternative).
const ALTERNATIVE: u8 = 1 << 5;
/// The meta bit of a value an entry counts for by having it: the values of the [`Within::Any`]
/// groups that apply.
const COUNTED_ALONE: u8 = 1 << 6;

/// Live counts per facet value, for the entries matching the search: per group, in [`FACETS`]
/// order, the options to show.
///
/// A group is listed when it applies and has an option. Its options are the values it offers
/// (kinds, platforms, the loaded listings…, zero counts included, so a UI can show them
/// disabled), the values found as its [`Found`] says (licences and tag values with a result;
/// every auth method and protocol version of the probed entries), and every selected value
/// (even at zero), in its [`Order`]. Each count is the number of entries matching the search
/// and the filters of every *other* group that have the value; in a [`Within::All`] group
/// (capabilities), the number of results there would be if the value were ticked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FacetCounts {
    groups: Vec<(Facet, Vec<(FacetValue, usize)>)>,
}

impl FacetCounts {
    /// The listed groups with their options and counts, in [`FACETS`] order.
    pub fn groups(&self) -> impl Iterator<Item = (Facet, &[(FacetValue, usize)])> {
        self.groups
            .iter()
            .map(|(facet, options)| (*facet, &options[..]))
    }

    /// One group's options and counts; empty when the group is not listed.
    pub fn of(&self, facet: Facet) -> &[(FacetValue, usize)] {
        self.groups
            .iter()
            .find(|(f, _)| *f == facet)
            .map_or(&[], |(_, options)| &options[..])
    }
}

/// Every entry's facet values, ready for filtering and counting.
#[derive(Clone, Debug, Default)]
pub struct FacetIndex {
    /// Every value some entry has or some group offers, sorted (so grouped by facet, in
    /// [`FACETS`] order).
    values: Vec<FacetValue>,
    /// Per value, its group's index in [`FACETS`] and flags ([`ALTERNATIVE`], [`COUNTED_ALONE`]),
    /// in one byte so the pass over the hits reads one table.
    meta: Vec<u8>,
    /// Per value, whether its group lists it whatever its count.
    listed: Vec<bool>,
    /// Per group, the range of its values in `values`.
    ranges: [(u32, u32); GROUPS],
    /// Per group, whether it applies (see [`offered`]).
    applies: [bool; GROUPS],
    /// The [`Within::All`] groups that apply.
    all_groups: Vec<usize>,
    /// Per entry `i`, its value ids are `ids[starts[i]..starts[i + 1]]`, ascending.
    ids: Vec<u32>,
    starts: Vec<u32>,
    /// Whether a protocol matrix was given.
    has_matrix: bool,
}

impl FacetIndex {
    /// Indexes the facet values of `entries`, without a protocol matrix.
    pub fn new(entries: &[Entry]) -> FacetIndex {
        FacetIndex::with_matrix(entries, None)
    }

    /// Indexes the facet values of `entries`, their protocol facets from `matrix`.
    pub fn with_matrix(entries: &[Entry], matrix: Option<&ProtocolMatrix>) -> FacetIndex {
        FacetIndex::with_sources(entries, matrix, &Listings::default())
    }

    /// Indexes the facet values of `entries`, their protocol facets from `matrix` and their
    /// listing and health from `listings`.
    pub fn with_sources(
        entries: &[Entry],
        matrix: Option<&ProtocolMatrix>,
        listings: &Listings,
    ) -> FacetIndex {
        FacetIndexBuilder::default().finish(entries, matrix, listings)
    }
}

/// A [`FacetIndex`] built a few entries at a time ([`FacetIndexBuilder::step`]), as
/// [`FacetIndex::with_sources`] builds it at once: a page indexing a large registry lets the
/// browser paint in between. Every call is given the same entries and sources.
///
/// ```
/// use registry_core::facets::{FacetIndex, FacetIndexBuilder};
/// use registry_core::listing::Listings;
/// # let entries = registry_core::load(r#"{"agents": [
/// #   {"id": "a", "name": "Alpha", "version": "1", "description": "d", "license": "MIT", "distribution": {"npx": {"package": "a"}}},
/// #   {"id": "b", "name": "Beta", "version": "1", "description": "d", "distribution": {"npx": {"package": "b"}}}]}"#)
/// #   .unwrap().registry.entries;
/// let listings = Listings::default();
/// let mut building = FacetIndexBuilder::default();
/// while !building.step(&entries, None, &listings, 1) {}
/// let index = building.finish(&entries, None, &listings);
/// assert_eq!(index.licenses().collect::<Vec<_>>(), ["MIT", "Not specified"]);
/// ```
#[derive(Debug, Default)]
pub struct FacetIndexBuilder {
    /// Per entry read so far, its values.
    facets: Vec<EntryFacets>,
    /// Every value read so far.
    distinct: FxHashSet<FacetValue>,
    /// Many entries write the same few licences: each distinct one is normalised once.
    licenses: FxHashMap<Box<str>, Arc<str>>,
    /// The value of an entry without a licence, once one was read.
    no_license: Option<Arc<str>>,
    /// Once every entry is read: the table of values, the index without its entries' ids.
    table: Option<(FacetIndex, FxHashMap<FacetValue, u32>)>,
}

impl FacetIndexBuilder {
    /// Reads up to `count` more entries' values, then gives up to `count` more entries their
    /// ids into the table of values; `true` once every entry has them.
    pub fn step(
        &mut self,
        entries: &[Entry],
        matrix: Option<&ProtocolMatrix>,
        listings: &Listings,
        count: usize,
    ) -> bool {
        let sources = Sources { matrix, listings };
        if let Some((index, id_of)) = &mut self.table {
            // `starts` has one more item than the entries with ids.
            let start = index.starts.len() - 1;
            let end = start.saturating_add(count).min(entries.len());
            for f in &self.facets[start..end] {
                let first = index.ids.len();
                index.ids.extend(f.values().iter().map(|v| id_of[v]));
                index.ids[first..].sort_unstable();
                index.starts.push(offset(index.ids.len()));
            }
            return end == entries.len();
        }
        let start = self.facets.len();
        let end = start.saturating_add(count).min(entries.len());
        let Self {
            facets,
            distinct,
            licenses,
            no_license,
            ..
        } = self;
        for entry in &entries[start..end] {
            let license = license_of(entry).map(|written| match written {
                Some(text) => match licenses.get(text) {
                    Some(value) => value.clone(),
                    None => {
                        let value: Arc<str> = license::facet_value(written).into();
                        licenses.insert(text.into(), value.clone());
                        value
                    }
                },
                None => no_license
                    .get_or_insert_with(|| license::facet_value(None).into())
                    .clone(),
            });
            let read = EntryFacets::read(entry, license, sources);
            for value in read.values() {
                if !distinct.contains(value) {
                    distinct.insert(value.clone());
                }
            }
            facets.push(read);
        }
        if end == entries.len() {
            let any_acp = entries.iter().any(Entry::is_acp);
            let distinct = std::mem::take(&mut self.distinct);
            self.table = Some(table(distinct, any_acp, sources, entries.len()));
        }
        false
    }

    /// The index: what is left done.
    pub fn finish(
        mut self,
        entries: &[Entry],
        matrix: Option<&ProtocolMatrix>,
        listings: &Listings,
    ) -> FacetIndex {
        while !self.step(entries, matrix, listings, usize::MAX) {}
        self.table.map(|(index, _)| index).unwrap_or_default()
    }
}

/// The table of `distinct` values (with those the groups offer), as an index whose entries
/// have no ids yet, and each value's id.
fn table(
    distinct: FxHashSet<FacetValue>,
    any_acp: bool,
    sources: Sources<'_>,
    entries: usize,
) -> (FacetIndex, FxHashMap<FacetValue, u32>) {
    let offers: Vec<Option<Vec<FacetValue>>> = FACETS
        .iter()
        .map(|spec| offered(spec.facet, any_acp, sources))
        .collect();
    let mut distinct = distinct;
    distinct.extend(offers.iter().flatten().flatten().cloned());
    let mut values: Vec<FacetValue> = distinct.into_iter().collect();
    values.sort_unstable();
    let id_of: FxHashMap<FacetValue, u32> = values
        .iter()
        .enumerate()
        .map(|(id, v)| (v.clone(), id as u32))
        .collect();
    let group_of: Vec<u8> = values.iter().map(|v| v.facet().index() as u8).collect();
    let mut ranges = [(0, 0); GROUPS];
    for (g, range) in ranges.iter_mut().enumerate() {
        let start = group_of.partition_point(|&x| (x as usize) < g);
        let end = group_of.partition_point(|&x| (x as usize) <= g);
        *range = (start as u32, end as u32);
    }
    let applies: [bool; GROUPS] = std::array::from_fn(|g| offers[g].is_some());
    let listed = values
        .iter()
        .zip(&group_of)
        .map(|(value, &g)| {
            FACETS[g as usize].found == Found::Always
                || offers[g as usize]
                    .as_ref()
                    .is_some_and(|offer| offer.contains(value))
        })
        .collect();
    let meta = values
        .iter()
        .zip(&group_of)
        .map(|(value, &g)| {
            let alone = applies[g as usize] && FACETS[g as usize].within == Within::Any;
            g | if value.is_alternative() {
                ALTERNATIVE
            } else {
                0
            } | if alone { COUNTED_ALONE } else { 0 }
        })
        .collect();
    let all_groups = (0..GROUPS)
        .filter(|&g| applies[g] && FACETS[g].within == Within::All)
        .collect();
    let mut starts = Vec::with_capacity(entries + 1);
    starts.push(0);
    let index = FacetIndex {
        values,
        meta,
        listed,
        ranges,
        applies,
        all_groups,
        ids: Vec::new(),
        starts,
        has_matrix: sources.matrix.is_some(),
    };
    (index, id_of)
}

fn offset(len: usize) -> u32 {
    u32::try_from(len).expect("fewer than 2^32 facet values")
}

impl FacetIndex {
    /// The facet values of entry `i`.
    pub fn facets(&self, i: usize) -> EntryFacets {
        let values = self
            .entry_ids(i)
            .iter()
            .map(|&id| self.values[id as usize].clone());
        EntryFacets::from_sorted(values.collect())
    }

    /// The distinct licence facet values, sorted.
    pub fn licenses(&self) -> impl ExactSizeIterator<Item = &str> {
        self.group(Facet::License).iter().map(FacetValue::as_str)
    }

    /// Whether a protocol matrix was given.
    pub fn has_matrix(&self) -> bool {
        self.has_matrix
    }

    /// The known auth methods, then the others of the probed entries, sorted.
    pub fn auth_methods(&self) -> Vec<AuthMethod> {
        let mut methods: Vec<AuthMethod> = AuthMethod::KNOWN
            .into_iter()
            .chain(self.group(Facet::Auth).iter().filter_map(|v| match v {
                FacetValue::Auth(AuthFilter::Method(m)) => Some(m.clone()),
                _ => None,
            }))
            .collect();
        methods.sort_unstable();
        methods.dedup();
        methods
    }

    /// The values of one group in the table.
    fn group(&self, facet: Facet) -> &[FacetValue] {
        let (start, end) = self.ranges[facet.index()];
        &self.values[start as usize..end as usize]
    }

    fn entry_ids(&self, i: usize) -> &[u32] {
        &self.ids[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Keeps the `candidates` (entry indices, in order) passing `filters`, and counts every
    /// group's values disjunctively over them.
    pub fn filter(
        &self,
        candidates: impl IntoIterator<Item = usize>,
        filters: &Filters,
    ) -> (Vec<usize>, FacetCounts) {
        let selection = Selection::new(self, filters);
        let mut counts = vec![0usize; self.values.len()];
        let mut results = Vec::new();
        for entry in candidates {
            let ids = self.entry_ids(entry);
            // With nothing selected every entry passes, having nothing of the selection.
            let (hit, failed) = match selection.active {
                0 => (Hit::default(), 0),
                _ => {
                    let hit = selection.hit(ids);
                    let failed = selection.failed(&hit);
                    (hit, failed)
                }
            };
            // A group's counts need every *other* group to pass.
            match failed.count_ones() {
                0 => {
                    results.push(entry);
                    for &id in ids {
                        counts[id as usize] +=
                            usize::from(self.meta[id as usize] & COUNTED_ALONE != 0);
                    }
                    for &g in &self.all_groups {
                        self.tally_all(g, ids, &hit, &selection, &mut counts);
                    }
                }
                1 => {
                    let g = failed.trailing_zeros() as usize;
                    self.tally(g, ids, &hit, &selection, &mut counts);
                }
                _ => {}
            }
        }
        (results, self.counts(&counts, filters))
    }

    /// Adds an entry passing every group but maybe `g` to group `g`'s counts.
    fn tally(&self, g: usize, ids: &[u32], hit: &Hit, selection: &Selection, counts: &mut [usize]) {
        if !self.applies[g] {
            return;
        }
        match FACETS[g].within {
            Within::Any => {
                let (start, end) = self.ranges[g];
                let from = ids.partition_point(|&id| id < start);
                let to = ids.partition_point(|&id| id < end);
                for &id in &ids[from..to] {
                    counts[id as usize] += 1;
                }
            }
            Within::All => self.tally_all(g, ids, hit, selection, counts),
        }
    }

    /// Adds an entry passing every other group to the counts of the [`Within::All`] group `g`:
    /// each the results there would be if the value were ticked too.
    fn tally_all(
        &self,
        g: usize,
        ids: &[u32],
        hit: &Hit,
        selection: &Selection,
        counts: &mut [usize],
    ) {
        let (start, end) = self.ranges[g];
        // With the value ticked too, the alternative passes when the entry has it, and the
        // others when the selected ones and the value are all the entry's.
        let has_selected = hit.have[g] == selection.need[g];
        let all = selection.need[g] > 0 && has_selected;
        let alternative = selection.alternative & hit.alternative & 1 << g != 0;
        let mut own = ids[ids.partition_point(|&id| id < start)..]
            .iter()
            .peekable();
        for id in start..end {
            let has = own.next_if(|&&x| x == id).is_some();
            let passes = if self.meta[id as usize] & ALTERNATIVE != 0 {
                has || all
            } else if selection.flags[id as usize] & SELECTED != 0 {
                alternative || all
            } else {
                alternative || (has && has_selected)
            };
            counts[id as usize] += usize::from(passes);
        }
    }

    /// The listed options of every group, from the per-value counts.
    fn counts(&self, counts: &[usize], filters: &Filters) -> FacetCounts {
        let mut groups = Vec::new();
        for (g, spec) in FACETS.iter().enumerate() {
            if !self.applies[g] {
                continue;
            }
            let (start, end) = self.ranges[g];
            let mut options: Vec<(FacetValue, usize)> = (start..end)
                .map(|id| id as usize)
                .filter(|&id| {
                    self.listed[id]
                        || (spec.found == Found::WithResults && counts[id] > 0)
                        || filters.contains(&self.values[id])
                })
                .map(|id| (self.values[id].clone(), counts[id]))
                .collect();
            for selected in filters.of(spec.facet) {
                if self.values[start as usize..end as usize]
                    .binary_search(selected)
                    .is_err()
                {
                    options.push((selected.clone(), 0));
                }
            }
            sort(&mut options, spec.order);
            if !options.is_empty() {
                groups.push((spec.facet, options));
            }
        }
        FacetCounts { groups }
    }
}

/// Sorts a group's options in its order.
fn sort(options: &mut [(FacetValue, usize)], order: Order) {
    let by_count = |(a, m): &(FacetValue, usize), (b, n): &(FacetValue, usize)| {
        n.cmp(m)
            .then_with(|| a.as_str().to_lowercase().cmp(&b.as_str().to_lowercase()))
            .then_with(|| a.cmp(b))
    };
    match order {
        Order::Value => options.sort_by(|(a, _), (b, _)| a.cmp(b)),
        Order::Count => options.sort_by(by_count),
        Order::Pinned(first) => {
            let rank = |v: &FacetValue| {
                first
                    .iter()
                    .position(|&p| p == v.as_str())
                    .unwrap_or(first.len())
            };
            options.sort_by(|a, b| rank(&a.0).cmp(&rank(&b.0)).then_with(|| by_count(a, b)));
        }
    }
}

/// The meta bit of a selected value.
const SELECTED: u8 = 1 << 7;

/// The filters, over the index's table of values.
struct Selection {
    /// Per value, its meta byte, with [`SELECTED`] when it is selected.
    flags: Vec<u8>,
    /// The groups with a value selected.
    active: u32,
    /// Per [`Within::All`] group, how many values other than its alternative are selected
    /// (those the table lacks included: no entry has them).
    need: [u16; GROUPS],
    /// The [`Within::All`] groups whose alternative is selected.
    alternative: u32,
}

/// What an entry has of the selection.
#[derive(Default)]
struct Hit {
    /// The groups in which it has a selected value.
    any: u32,
    /// Per group, how many selected values other than the alternative it has.
    have: [u16; GROUPS],
    /// The groups whose alternative it has.
    alternative: u32,
}

impl Selection {
    fn new(index: &FacetIndex, filters: &Filters) -> Selection {
        let mut selection = Selection {
            flags: index.meta.clone(),
            active: 0,
            need: [0; GROUPS],
            alternative: 0,
        };
        for value in filters.iter() {
            let g = value.facet().index();
            selection.active |= 1 << g;
            if value.is_alternative() {
                selection.alternative |= 1 << g;
            } else {
                selection.need[g] += 1;
            }
            if let Ok(id) = index.values.binary_search(value) {
                selection.flags[id] |= SELECTED;
            }
        }
        selection
    }

    fn hit(&self, ids: &[u32]) -> Hit {
        let mut hit = Hit::default();
        for &id in ids {
            let meta = self.flags[id as usize];
            let g = (meta & GROUP) as usize;
            let alternative = meta & ALTERNATIVE != 0;
            if alternative {
                hit.alternative |= 1 << g;
            }
            if meta & SELECTED != 0 {
                hit.any |= 1 << g;
                if !alternative {
                    hit.have[g] += 1;
                }
            }
        }
        hit
    }

    /// The groups an entry with this hit fails.
    fn failed(&self, hit: &Hit) -> u32 {
        let mut failed = 0;
        let mut active = self.active;
        while active != 0 {
            let g = active.trailing_zeros() as usize;
            active &= active - 1;
            let passes = match FACETS[g].within {
                Within::Any => hit.any & 1 << g != 0,
                Within::All => {
                    (self.alternative & hit.alternative & 1 << g != 0)
                        || (self.need[g] > 0 && hit.have[g] == self.need[g])
                }
            };
            if !passes {
                failed |= 1 << g;
            }
        }
        failed
    }
}
