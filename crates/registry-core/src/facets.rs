//! Filters and their live, disjunctive counts.
//!
//! Five facet groups narrow the catalogue: kind, distribution method, operating system,
//! architecture and licence. Within a group the selected values are OR-ed, across groups AND-ed:
//! `dist=npx&dist=uvx&os=windows` keeps entries run with npx *or* uvx that *also* run on Windows.
//! An entry runs on an OS (an architecture) when it has an npx or uvx package, which runs
//! everywhere, or a binary for that OS (architecture); see [`Distribution::runs_on_os`].
//!
//! Counts are disjunctive, as on Algolia or lib.rs: the count of a value of group G is the number
//! of entries matching the search and the filters of every *other* group that have that value.
//! So selecting `npx` leaves the `binary` count at what ticking `binary` too would add, instead of
//! zeroing it; and a group's counts never depend on its own selection.
//!
//! [`FacetIndex`] precomputes each entry's values as bitmasks (and its licence as an index into a
//! sorted licence table), so results and all counts come from one pass over the search hits.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::license;
use crate::model::{Arch, Distribution, Entry, Kind, Method, Os};

/// The selected filter values; within a group values are OR-ed, groups are AND-ed, and an empty
/// group does not filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Kinds.
    pub kinds: BTreeSet<Kind>,
    /// Distribution methods.
    pub methods: BTreeSet<Method>,
    /// Operating systems the entry runs on.
    pub os: BTreeSet<Os>,
    /// Architectures the entry runs on.
    pub arch: BTreeSet<Arch>,
    /// Licence facet values (see [`license::facet_value`]).
    pub licenses: BTreeSet<String>,
}

/// Live counts per facet value, for the entries matching the search.
///
/// Kinds, methods, OS and architectures list every value in its `ALL` order, zero counts
/// included, so a UI can show them disabled. Licences list every licence with a non-zero count
/// and every selected licence (even at zero), by count descending, then name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FacetCounts {
    /// Per kind.
    pub kinds: Vec<(Kind, usize)>,
    /// Per method.
    pub methods: Vec<(Method, usize)>,
    /// Per OS.
    pub os: Vec<(Os, usize)>,
    /// Per architecture.
    pub arch: Vec<(Arch, usize)>,
    /// Per licence facet value.
    pub licenses: Vec<(String, usize)>,
}

/// The facet values of one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryFacets {
    kinds: u8,
    methods: u8,
    os: u8,
    arch: u8,
    license: Arc<str>,
}

/// Every entry's facet values, ready for filtering and counting.
#[derive(Clone, Debug, Default)]
pub struct FacetIndex {
    entries: Vec<EntryFacets>,
    /// Per entry, the index of its licence in `licenses`.
    license_ids: Vec<u32>,
    /// Distinct licence facet values, sorted.
    licenses: Vec<Arc<str>>,
}

impl Filters {
    /// Whether nothing is selected, so every entry passes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many values are selected, over all groups.
    pub fn len(&self) -> usize {
        self.kinds.len()
            + self.methods.len()
            + self.os.len()
            + self.arch.len()
            + self.licenses.len()
    }

    /// Deselects everything.
    pub fn clear(&mut self) {
        *self = Filters::default();
    }

    /// Selects `kind`, or deselects it when selected.
    pub fn toggle_kind(&mut self, kind: Kind) {
        toggle(&mut self.kinds, kind);
    }

    /// Selects `method`, or deselects it when selected.
    pub fn toggle_method(&mut self, method: Method) {
        toggle(&mut self.methods, method);
    }

    /// Selects `os`, or deselects it when selected.
    pub fn toggle_os(&mut self, os: Os) {
        toggle(&mut self.os, os);
    }

    /// Selects `arch`, or deselects it when selected.
    pub fn toggle_arch(&mut self, arch: Arch) {
        toggle(&mut self.arch, arch);
    }

    /// Selects the licence facet value `license`, or deselects it when selected.
    pub fn toggle_license(&mut self, license: &str) {
        if !self.licenses.remove(license) {
            self.licenses.insert(license.to_owned());
        }
    }

    /// Whether an entry with these facet values passes every group.
    pub fn matches(&self, facets: &EntryFacets) -> bool {
        (self.kinds.is_empty() || self.kinds.iter().any(|&k| facets.has_kind(k)))
            && (self.methods.is_empty() || self.methods.iter().any(|&m| facets.has_method(m)))
            && (self.os.is_empty() || self.os.iter().any(|&o| facets.runs_on_os(o)))
            && (self.arch.is_empty() || self.arch.iter().any(|&a| facets.runs_on_arch(a)))
            && (self.licenses.is_empty() || self.licenses.contains(facets.license()))
    }
}

impl EntryFacets {
    /// The facet values of `entry`.
    pub fn of(entry: &Entry) -> EntryFacets {
        EntryFacets::with_license(entry, license::facet_value(entry.license.as_deref()).into())
    }

    fn with_license(entry: &Entry, license: Arc<str>) -> EntryFacets {
        let d: &Distribution = &entry.distribution;
        EntryFacets {
            kinds: bit(&Kind::ALL, entry.kind),
            methods: d
                .methods()
                .into_iter()
                .fold(0, |mask, m| mask | bit(&Method::ALL, m)),
            os: mask_of(&Os::ALL, |o| d.runs_on_os(o)),
            arch: mask_of(&Arch::ALL, |a| d.runs_on_arch(a)),
            license,
        }
    }

    /// Whether the entry is of this kind.
    pub fn has_kind(&self, kind: Kind) -> bool {
        self.kinds & bit(&Kind::ALL, kind) != 0
    }

    /// Whether the entry offers this distribution method.
    pub fn has_method(&self, method: Method) -> bool {
        self.methods & bit(&Method::ALL, method) != 0
    }

    /// Whether the entry runs on this OS.
    pub fn runs_on_os(&self, os: Os) -> bool {
        self.os & bit(&Os::ALL, os) != 0
    }

    /// Whether the entry runs on this architecture.
    pub fn runs_on_arch(&self, arch: Arch) -> bool {
        self.arch & bit(&Arch::ALL, arch) != 0
    }

    /// The entry's licence facet value.
    pub fn license(&self) -> &str {
        &self.license
    }
}

impl FacetIndex {
    /// Computes the facet values of every entry.
    pub fn new(entries: &[Entry]) -> FacetIndex {
        let values: Vec<String> = entries
            .iter()
            .map(|e| license::facet_value(e.license.as_deref()))
            .collect();
        let licenses: Vec<Arc<str>> = values
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|l| Arc::from(l.as_str()))
            .collect();
        let license_ids: Vec<u32> = values
            .iter()
            .map(|value| {
                let id = licenses
                    .binary_search_by(|l| (**l).cmp(value.as_str()))
                    .expect("every licence is in the table");
                id as u32
            })
            .collect();
        let entries = entries
            .iter()
            .zip(&license_ids)
            .map(|(entry, &id)| EntryFacets::with_license(entry, licenses[id as usize].clone()))
            .collect();
        FacetIndex {
            entries,
            license_ids,
            licenses,
        }
    }

    /// The facet values of the `entry`th entry.
    pub fn facets(&self, entry: usize) -> &EntryFacets {
        &self.entries[entry]
    }

    /// Every licence facet value of the registry, sorted.
    pub fn licenses(&self) -> impl ExactSizeIterator<Item = &str> {
        self.licenses.iter().map(|l| &**l)
    }

    /// Keeps the `candidates` (entry indices, typically search hits) that pass `filters`, in
    /// their order, and counts the facet values of the candidates disjunctively.
    pub fn filter(
        &self,
        candidates: impl IntoIterator<Item = usize>,
        filters: &Filters,
    ) -> (Vec<usize>, FacetCounts) {
        let selection = Selection::new(filters, &self.licenses);
        let mut tally = Tally::new(self.licenses.len());
        let mut results = Vec::new();
        for entry in candidates {
            let (facets, license) = (&self.entries[entry], self.license_ids[entry]);
            let passes = selection.passes(facets, license);
            match passes.iter().filter(|&&p| !p).count() {
                0 => {
                    results.push(entry);
                    for group in Group::ALL {
                        tally.add(group, facets, license);
                    }
                }
                1 => {
                    let failed = passes.iter().position(|&p| !p).expect("one group failed");
                    tally.add(Group::ALL[failed], facets, license);
                }
                _ => {}
            }
        }
        (results, tally.counts(&self.licenses, filters))
    }
}

/// The five facet groups, in the order of [`Selection::passes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    Kind,
    Method,
    Os,
    Arch,
    License,
}

impl Group {
    const ALL: [Group; 5] = [
        Group::Kind,
        Group::Method,
        Group::Os,
        Group::Arch,
        Group::License,
    ];
}

/// [`Filters`] as masks (0: group not filtered) and a licence-table membership.
struct Selection {
    kinds: u8,
    methods: u8,
    os: u8,
    arch: u8,
    /// `None` when no licence is selected; else, per licence-table entry, whether selected.
    licenses: Option<Vec<bool>>,
}

impl Selection {
    fn new(filters: &Filters, table: &[Arc<str>]) -> Selection {
        Selection {
            kinds: filters.kinds.iter().fold(0, |m, &k| m | bit(&Kind::ALL, k)),
            methods: filters
                .methods
                .iter()
                .fold(0, |m, &v| m | bit(&Method::ALL, v)),
            os: filters.os.iter().fold(0, |m, &v| m | bit(&Os::ALL, v)),
            arch: filters.arch.iter().fold(0, |m, &v| m | bit(&Arch::ALL, v)),
            licenses: (!filters.licenses.is_empty()).then(|| {
                table
                    .iter()
                    .map(|l| filters.licenses.contains(&**l))
                    .collect()
            }),
        }
    }

    /// Whether an entry with these facets and licence-table index passes each group, in
    /// [`Group::ALL`] order.
    fn passes(&self, facets: &EntryFacets, license: u32) -> [bool; 5] {
        let group = |selected: u8, has: u8| selected == 0 || selected & has != 0;
        [
            group(self.kinds, facets.kinds),
            group(self.methods, facets.methods),
            group(self.os, facets.os),
            group(self.arch, facets.arch),
            self.licenses
                .as_ref()
                .is_none_or(|selected| selected[license as usize]),
        ]
    }
}

/// Running counts, per value of each group.
struct Tally {
    kinds: [usize; Kind::ALL.len()],
    methods: [usize; Method::ALL.len()],
    os: [usize; Os::ALL.len()],
    arch: [usize; Arch::ALL.len()],
    licenses: Vec<usize>,
}

impl Tally {
    fn new(licenses: usize) -> Tally {
        Tally {
            kinds: Default::default(),
            methods: Default::default(),
            os: Default::default(),
            arch: Default::default(),
            licenses: vec![0; licenses],
        }
    }

    fn add(&mut self, group: Group, facets: &EntryFacets, license: u32) {
        fn add_bits(counts: &mut [usize], mask: u8) {
            for (i, count) in counts.iter_mut().enumerate() {
                *count += usize::from(mask >> i & 1);
            }
        }
        match group {
            Group::Kind => add_bits(&mut self.kinds, facets.kinds),
            Group::Method => add_bits(&mut self.methods, facets.methods),
            Group::Os => add_bits(&mut self.os, facets.os),
            Group::Arch => add_bits(&mut self.arch, facets.arch),
            Group::License => self.licenses[license as usize] += 1,
        }
    }

    fn counts(&self, table: &[Arc<str>], filters: &Filters) -> FacetCounts {
        let mut licenses: Vec<(String, usize)> = table
            .iter()
            .zip(&self.licenses)
            .filter(|&(l, &n)| n > 0 || filters.licenses.contains(&**l))
            .map(|(l, &n)| (l.to_string(), n))
            .collect();
        for selected in &filters.licenses {
            if !licenses.iter().any(|(l, _)| l == selected) {
                licenses.push((selected.clone(), 0));
            }
        }
        licenses.sort_by(|(a, m), (b, n)| {
            n.cmp(m)
                .then_with(|| a.to_lowercase().cmp(&b.to_lowercase()))
                .then_with(|| a.cmp(b))
        });
        FacetCounts {
            kinds: Kind::ALL.into_iter().zip(self.kinds).collect(),
            methods: Method::ALL.into_iter().zip(self.methods).collect(),
            os: Os::ALL.into_iter().zip(self.os).collect(),
            arch: Arch::ALL.into_iter().zip(self.arch).collect(),
            licenses,
        }
    }
}

fn toggle<T: Ord>(set: &mut BTreeSet<T>, value: T) {
    if !set.remove(&value) {
        set.insert(value);
    }
}

/// The bit of `value` in a mask over `all` (at most eight values).
fn bit<T: PartialEq>(all: &[T], value: T) -> u8 {
    let at = all
        .iter()
        .position(|v| *v == value)
        .expect("value is in ALL");
    1 << at
}

/// The mask of the values of `all` for which `has` holds.
fn mask_of<T: Copy + PartialEq>(all: &[T], has: impl Fn(T) -> bool) -> u8 {
    all.iter()
        .filter(|&&v| has(v))
        .fold(0, |mask, &v| mask | bit(all, v))
}
