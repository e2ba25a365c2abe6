//! Filters and their live, disjunctive counts.
//!
//! Ten facet groups narrow the ACP catalogue: kind, distribution method, operating system,
//! architecture, licence; from the [protocol matrix](crate::protocol), auth method, capability
//! and ACP protocol version; and from the registry's [other lists](crate::listing), the clients'
//! views listing the entry ("Listed for") and its health (quarantined, probe failed, healthy,
//! not probed).
//! Groups are AND-ed. Within every group but capabilities the selected values are OR-ed:
//! `dist=npx&dist=uvx&os=windows` keeps entries run with npx *or* uvx that *also* run on Windows.
//! An entry runs on an OS (an architecture) when it has an npx or uvx package, which runs
//! everywhere, or a binary for that OS (architecture); see
//! [`Distribution::runs_on_os`](crate::model::Distribution::runs_on_os).
//!
//! Counts are disjunctive, as on Algolia or lib.rs: the count of a value of group G is the number
//! of entries matching the search and the filters of every *other* group that have that value.
//! So selecting `npx` leaves the `binary` count at what ticking `binary` too would add, instead of
//! zeroing it; and a group's counts never depend on its own selection.
//!
//! # Protocol facets
//!
//! An agent is *probed* when the matrix lists it with a successful `initialize`; every other
//! entry (not in the matrix, probe failed, an extension, or no matrix loaded) is *not probed*:
//! its auth methods, capabilities and protocol version are unknown, which is not the same as
//! unsupported. Each protocol group has a `not-probed` option ([`AuthFilter::NotProbed`],
//! [`CapabilityFilter::NotProbed`], [`ProtocolVersionFilter::NotProbed`]) that keeps those
//! entries *in addition to* what the group's other options keep.
//!
//! - **Auth** is OR-ed like the first five groups: `auth=terminal&auth=env_var` keeps agents
//!   offering a terminal login *or* an API key. Its counts are disjunctive as above.
//! - **Capabilities** are AND-ed, like lib.rs's feature filters: someone ticking "Load session"
//!   and "Set model" wants agents that can do *both*. So the group keeps the probed agents
//!   supporting every selected capability, plus the not-probed ones when `not-probed` is
//!   selected. The count beside a capability option is the number of results there would be if
//!   it were ticked (the other groups' filters applied), which is the current number of results
//!   for an option already ticked; likewise for `not-probed`.
//! - **ACP version** is OR-ed like auth: `acp=1&acp=not-probed` keeps the agents that answered
//!   `initialize` with protocol version 1 *or* were not probed. A version is kept as the matrix
//!   writes it, when it is one ([`ProtocolVersionFilter::version`]: digits in dot-separated
//!   parts); the group offers every such version the matrix records, and `not-probed`. A probed
//!   agent for which the matrix records no version, or one that is not a version (`v1`), has no
//!   value in this group, as an agent advertising no auth method has none in auth: it is probed,
//!   so `not-probed` does not keep it, and no version option does either.
//!
//! Without a matrix every entry is not probed: the auth, capability and version counts are empty
//! (the UI hides those groups), and filters from a URL still apply consistently — a method, a
//! capability or a version matches nothing, `not-probed` matches everything.
//!
//! # AgentRegistry facets
//!
//! Entries from an [AgentRegistry](crate::agentregistry) have no kind, distribution, platform,
//! licence, listing or health values (a catalogue without an ACP entry does not list those
//! groups), and are never probed. They have string-valued *tag groups* instead ([`TagGroup`]): protocol,
//! transport, liveness (`live` when an endpoint is live, else `stale`), capability, capability
//! tag, label (`key=value`) and owner, each value as the registry wrote it (trimmed). Tag groups
//! behave like the licence group: values OR-ed within a group, groups AND-ed with every other,
//! disjunctive counts; ACP entries have no tag values.
//!
//! # Layout
//!
//! - [`table`](FACETS): the one table of groups ([`Facet`], [`FacetSpec`]: key, legend, how
//!   values are written, combined, listed and ordered) and the typed values ([`FacetValue`]).
//!   The query string ([`crate::query`]), the counting and the site's filter panel iterate it.
//! - `entry`: the predicate — the values an entry has in each group ([`EntryFacets`]) — and
//!   what each group offers a catalogue (its values listed even at zero).
//! - `index`: [`FacetIndex`] interns every value into one sorted table and keeps each entry's
//!   values as ids into it, so results and every group's counts come from one pass over the
//!   search hits; [`FacetCounts`] lists, per group, the options to show.
//!
//! # Adding a group
//!
//! A group is a row of [`FACETS`], its [`Facet`] and [`FacetValue`] variants (with their
//! words), and its arms in the predicate and the offer. The query codec, the counting
//! ([`FacetIndex`]), the test oracle's iteration and the site's filter panel walk the table and
//! need no change. The whole diff of a made-up "Icon" group (the entry's own icon, or the
//! monogram), which builds and passes the core's tests (the one-pass counts are checked against
//! the naive oracle, which restates what the group offers):
//!
//! ```text
//!  // table.rs: the group and its value, each placed where its row goes (values sort in
//!  // table order), the row, and one arm each in index, parse, facet, as_str and label
//!  pub enum Facet {
//!      ProtocolVersion,
//! +    /// Whether the entry has its own icon.
//! +    Icon,
//! -pub const FACETS: [FacetSpec; 17] = [
//! +pub const FACETS: [FacetSpec; 18] = [
//!      // ... after the ACP version row:
//! +    FacetSpec {
//! +        facet: Facet::Icon,
//! +        key: "icon",
//! +        legend: "Icon",
//! +        several: Several::Commas,
//! +        within: Within::Any,
//! +        found: Found::No,
//! +        order: Order::Value,
//! +    },
//!  pub enum FacetValue {
//!      ProtocolVersion(ProtocolVersionFilter),
//! +    /// Whether the entry has its own icon.
//! +    Icon(bool),
//! +            Facet::Icon => 10,
//! -            Facet::Tag(group) => 10 + group as usize,
//! +            Facet::Tag(group) => 11 + group as usize,
//! +            Facet::Icon => ["no", "yes"].iter().position(|w| *w == lower()).map(|i| FacetValue::Icon(i == 1)),
//! +            FacetValue::Icon(_) => Facet::Icon,
//! +            FacetValue::Icon(has) => if *has { "yes" } else { "no" },
//! +            FacetValue::Icon(has) => if *has { "Its own" } else { "Monogram" },
//!  // table.rs's test of the order: the tag groups' rows moved one down
//! -        assert_eq!(order, [0, 2, 3, 10, 16]);
//! +        assert_eq!(order, [0, 2, 3, 11, 17]);
//!  // entry.rs: the predicate, and what the group offers (both values, even at zero)
//! +        (Facet::Icon, _) => out.push(FacetValue::Icon(entry.icon.is_some())),
//! +        Facet::Icon => acp([false, true].map(FacetValue::Icon).to_vec()),
//!  // tests/common/mod.rs: the oracle's statement of what the group offers
//! +            Facet::Icon => acp.then(|| [false, true].map(FacetValue::Icon).to_vec()),
//! ```
//!
//! A value type of its own (an enum with `ALL`, `as_str`, `label` and `parse`, like
//! [`Os`](crate::model::Os)) would replace the `bool` and its inline words.

mod entry;
mod index;
mod table;

use std::collections::BTreeSet;

pub use entry::EntryFacets;
pub use index::{FacetCounts, FacetIndex, FacetIndexBuilder};
pub use table::{
    AuthFilter, CapabilityFilter, FACETS, Facet, FacetSpec, FacetValue, Found, LIVE, Order,
    ProtocolVersionFilter, STALE, Several, TagGroup, Within,
};

/// The selected filter values, in [`FacetValue`] order; within a group values combine as its
/// [`Within`] says, groups are AND-ed, and a group with nothing selected does not filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    selected: BTreeSet<FacetValue>,
}

impl Filters {
    /// Whether nothing is selected, so every entry passes.
    pub fn is_empty(&self) -> bool {
        self.selected.is_empty()
    }

    /// How many values are selected, over all groups.
    pub fn len(&self) -> usize {
        self.selected.len()
    }

    /// Deselects everything.
    pub fn clear(&mut self) {
        self.selected.clear();
    }

    /// Selects `value`, or deselects it when selected.
    pub fn toggle(&mut self, value: FacetValue) {
        if !self.selected.remove(&value) {
            self.selected.insert(value);
        }
    }

    /// Selects `value`; `false` when it already was.
    pub fn insert(&mut self, value: FacetValue) -> bool {
        self.selected.insert(value)
    }

    /// Whether `value` is selected.
    pub fn contains(&self, value: &FacetValue) -> bool {
        self.selected.contains(value)
    }

    /// Every selected value, in [`FacetValue`] order (so by group, in [`FACETS`] order).
    pub fn iter(&self) -> impl Iterator<Item = &FacetValue> {
        self.selected.iter()
    }

    /// The selected values of one group.
    pub fn of(&self, facet: Facet) -> impl Iterator<Item = &FacetValue> {
        self.selected.iter().filter(move |v| v.facet() == facet)
    }

    /// These filters with nothing selected in `facet`.
    pub fn without(&self, facet: Facet) -> Filters {
        self.iter()
            .filter(|v| v.facet() != facet)
            .cloned()
            .collect()
    }

    /// Whether an entry with these facet values passes every group.
    pub fn matches(&self, facets: &EntryFacets) -> bool {
        Facet::all().all(|facet| {
            let mut selected = self.of(facet).peekable();
            if selected.peek().is_none() {
                return true;
            }
            match facet.spec().within {
                Within::Any => selected.any(|v| facets.has(v)),
                Within::All => {
                    let (alternatives, others): (Vec<_>, Vec<_>) =
                        selected.partition(|v| v.is_alternative());
                    alternatives.iter().any(|v| facets.has(v))
                        || (!others.is_empty() && others.iter().all(|v| facets.has(v)))
                }
            }
        })
    }
}

impl FromIterator<FacetValue> for Filters {
    fn from_iter<I: IntoIterator<Item = FacetValue>>(values: I) -> Filters {
        Filters {
            selected: values.into_iter().collect(),
        }
    }
}

impl Extend<FacetValue> for Filters {
    fn extend<I: IntoIterator<Item = FacetValue>>(&mut self, values: I) {
        self.selected.extend(values);
    }
}
