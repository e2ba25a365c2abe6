//! Filters and their live, disjunctive counts.
//!
//! Nine facet groups narrow the catalogue: kind, distribution method, operating system,
//! architecture, licence; from the [protocol matrix](crate::protocol), auth method and
//! capability; and from the registry's [other lists](crate::listing), the clients' views listing
//! the entry ("Listed for") and its health (quarantined, probe failed, healthy, not probed).
//! Groups are AND-ed. Within every group but capabilities the selected values are OR-ed:
//! `dist=npx&dist=uvx&os=windows` keeps entries run with npx *or* uvx that *also* run on Windows.
//! An entry runs on an OS (an architecture) when it has an npx or uvx package, which runs
//! everywhere, or a binary for that OS (architecture); see [`Distribution::runs_on_os`].
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
//! its auth methods and capabilities are unknown, which is not the same as unsupported. Each
//! protocol group has a `not-probed` option ([`AuthFilter::NotProbed`],
//! [`CapabilityFilter::NotProbed`]) that keeps those entries *in addition to* what the group's
//! other options keep.
//!
//! - **Auth** is OR-ed like the first five groups: `auth=terminal&auth=env_var` keeps agents
//!   offering a terminal login *or* an API key. Its counts are disjunctive as above.
//! - **Capabilities** are AND-ed, like lib.rs's feature filters: someone ticking "Load session"
//!   and "Set model" wants agents that can do *both*. So the group keeps the probed agents
//!   supporting every selected capability, plus the not-probed ones when `not-probed` is
//!   selected. The count beside a capability option is the number of results there would be if
//!   it were ticked (the other groups' filters applied), which is the current number of results
//!   for an option already ticked; likewise for `not-probed`.
//!
//! Without a matrix every entry is not probed: the auth and capability counts are empty (the UI
//! hides those groups), and filters from a URL still apply consistently — a method or a
//! capability matches nothing, `not-probed` matches everything.
//!
//! # AgentRegistry facets
//!
//! Entries from an [AgentRegistry](crate::agentregistry) have no kind, distribution, platform or
//! licence values (those groups count them nowhere, so a UI hiding all-zero groups hides them),
//! and are never probed. They have string-valued *tag groups* instead ([`TagGroup`]): protocol,
//! transport, liveness (`live` when an endpoint is live, else `stale`), capability, capability
//! tag, label (`key=value`) and owner, each value as the registry wrote it (trimmed). Tag groups
//! behave like the licence group: values OR-ed within a group, groups AND-ed with every other,
//! disjunctive counts; ACP entries have no tag values.
//!
//! [`FacetIndex`] precomputes each entry's values as bitmasks (and its licence as an index into a
//! sorted licence table, its auth methods as indices into an auth table, its tag values as
//! indices into a tag table), so results and all counts come from one pass over the search hits.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::agentregistry::ServiceAgent;
use crate::license;
use crate::listing::{Health, ListedFor, Listings};
use crate::model::{Arch, Distribution, Entry, Kind, Method, Origin, Os};
use crate::protocol::{AuthMethod, Capability, NOT_PROBED, ProtocolMatrix};

/// The `live` group's value for an agent with a live endpoint.
pub const LIVE: &str = "live";
/// The `live` group's value for an agent without one.
pub const STALE: &str = "stale";

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
    /// Auth methods the probe found, OR-ed.
    pub auth: BTreeSet<AuthFilter>,
    /// Capabilities the probe found, AND-ed (see the module docs).
    pub capabilities: BTreeSet<CapabilityFilter>,
    /// The clients' views listing the entry, OR-ed.
    pub listed_for: BTreeSet<ListedFor>,
    /// Health (quarantine, then the probe), OR-ed.
    pub health: BTreeSet<Health>,
    /// Tag-group values of AgentRegistry entries, OR-ed within a group; a group is listed only
    /// while it has a value selected ([`Filters::toggle_tag`] keeps it so).
    pub tags: BTreeMap<TagGroup, BTreeSet<String>>,
}

/// A string-valued facet group of [AgentRegistry](crate::agentregistry) entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TagGroup {
    /// Endpoint protocols: `A2A`, `MCP`, `ACP`, `Generic`, or another as written.
    Protocol,
    /// Endpoint transports: `Http`, `Amqp`, `AzureServiceBus`, or another as written.
    Transport,
    /// [`LIVE`] when an endpoint is live, else [`STALE`].
    Live,
    /// Capability names.
    Capability,
    /// Capability tags.
    Tag,
    /// Labels, as `key=value`.
    Label,
    /// The owner's id.
    Owner,
}

/// An option of the auth facet.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AuthFilter {
    /// Probed agents advertising this method.
    Method(AuthMethod),
    /// Entries whose auth methods are unknown (see the module docs).
    NotProbed,
}

/// An option of the capability facet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CapabilityFilter {
    /// Probed agents reporting this capability.
    Supports(Capability),
    /// Entries whose capabilities are unknown (see the module docs).
    NotProbed,
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
    /// Per auth option: the known methods, the other methods of the probed entries by name, any
    /// other selected method (at zero), then `not-probed`. Empty without a matrix.
    pub auth: Vec<(AuthFilter, usize)>,
    /// Per capability option, in [`Capability::ALL`] order, then `not-probed`; each the number of
    /// results if the option were ticked. Empty without a matrix.
    pub capabilities: Vec<(CapabilityFilter, usize)>,
    /// Per client view, in [`ListedFor::ALL`] order: the views that were loaded (the main
    /// registry always is; see [`FacetIndex::with_sources`]) and any other selected (at zero).
    /// Empty for a registry of AgentRegistry entries only.
    pub listed_for: Vec<(ListedFor, usize)>,
    /// Per health, in [`Health::ALL`] order: `quarantined` when the quarantine list was loaded,
    /// `probe-failed` and `healthy` when the matrix was, `not-probed` when either was, and any
    /// other selected (at zero). Empty when neither was loaded.
    pub health: Vec<(Health, usize)>,
    /// Per tag group, in [`TagGroup::ALL`] order, the groups some entry has a value of (or with
    /// a value selected): the values with a non-zero count and the selected ones (even at zero),
    /// by count descending, then value; the live group in the order `live`, `stale`. Empty for a
    /// registry of ACP entries only.
    pub tags: Vec<(TagGroup, Vec<(String, usize)>)>,
}

/// The facet values of one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryFacets {
    kinds: u8,
    methods: u8,
    os: u8,
    arch: u8,
    /// `None` for an AgentRegistry entry, which has no licence facet value.
    license: Option<Arc<str>>,
    /// Whether the probe of this agent succeeded.
    probed: bool,
    /// The capabilities reported as supported, over [`Capability::ALL`]; 0 unless probed.
    capabilities: u8,
    /// The auth methods advertised; empty unless probed.
    auth: Vec<AuthMethod>,
    /// The client views listing it, over [`ListedFor::ALL`]; 0 for an AgentRegistry entry.
    listed_for: u8,
    /// Its health, one bit over [`Health::ALL`]; 0 for an AgentRegistry entry.
    health: u8,
    /// The tag-group values, sorted, without duplicates; empty for an ACP entry.
    tags: Vec<(TagGroup, Arc<str>)>,
}

/// Every entry's facet values, ready for filtering and counting.
#[derive(Clone, Debug, Default)]
pub struct FacetIndex {
    entries: Vec<EntryFacets>,
    /// Per entry, the index of its licence in `licenses`.
    license_ids: Vec<u32>,
    /// Distinct licence facet values, sorted.
    licenses: Vec<Arc<str>>,
    /// Whether a protocol matrix was given; without one the protocol groups have no counts.
    has_matrix: bool,
    /// The listing values known (over [`ListedFor::ALL`]): counted, and shown.
    listed_known: u8,
    /// The health values known (over [`Health::ALL`]): counted, and shown.
    health_known: u8,
    /// The known auth methods, then the others of the probed entries, sorted.
    auth_methods: Vec<AuthMethod>,
    /// Per entry, the indices in `auth_methods` of its auth methods.
    auth_ids: Vec<Vec<u32>>,
    /// Distinct tag-group values, sorted (so by group, then value).
    tags: Vec<(TagGroup, Arc<str>)>,
    /// Per entry, the indices in `tags` of its tag values, ascending.
    tag_ids: Vec<Box<[u32]>>,
}

/// The licence index of an entry without a licence facet value (an AgentRegistry entry).
const NO_LICENSE: u32 = u32::MAX;

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
            + self.auth.len()
            + self.capabilities.len()
            + self.listed_for.len()
            + self.health.len()
            + self.tags.values().map(BTreeSet::len).sum::<usize>()
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

    /// Selects an auth option, or deselects it when selected.
    pub fn toggle_auth(&mut self, auth: AuthFilter) {
        toggle(&mut self.auth, auth);
    }

    /// Selects a capability option, or deselects it when selected.
    pub fn toggle_capability(&mut self, capability: CapabilityFilter) {
        toggle(&mut self.capabilities, capability);
    }

    /// Selects a client view, or deselects it when selected.
    pub fn toggle_listed_for(&mut self, view: ListedFor) {
        toggle(&mut self.listed_for, view);
    }

    /// Selects a health, or deselects it when selected.
    pub fn toggle_health(&mut self, health: Health) {
        toggle(&mut self.health, health);
    }

    /// Selects `value` in a tag group, or deselects it when selected (dropping the group when it
    /// has no value left).
    pub fn toggle_tag(&mut self, group: TagGroup, value: &str) {
        let values = self.tags.entry(group).or_default();
        if !values.remove(value) {
            values.insert(value.to_owned());
        }
        if values.is_empty() {
            self.tags.remove(&group);
        }
    }

    /// Whether `value` is selected in a tag group.
    pub fn is_tag_selected(&self, group: TagGroup, value: &str) -> bool {
        self.tags
            .get(&group)
            .is_some_and(|values| values.contains(value))
    }

    /// Whether an entry with these facet values passes every group.
    pub fn matches(&self, facets: &EntryFacets) -> bool {
        (self.kinds.is_empty() || self.kinds.iter().any(|&k| facets.has_kind(k)))
            && (self.methods.is_empty() || self.methods.iter().any(|&m| facets.has_method(m)))
            && (self.os.is_empty() || self.os.iter().any(|&o| facets.runs_on_os(o)))
            && (self.arch.is_empty() || self.arch.iter().any(|&a| facets.runs_on_arch(a)))
            && (self.licenses.is_empty()
                || facets
                    .license
                    .as_ref()
                    .is_some_and(|l| self.licenses.contains(&**l)))
            && (self.auth.is_empty() || self.auth.iter().any(|a| facets.has_auth_option(a)))
            && self.capabilities_match(facets)
            && (self.listed_for.is_empty()
                || self.listed_for.iter().any(|&v| facets.is_listed_for(v)))
            && (self.health.is_empty() || self.health.iter().any(|&h| facets.has_health(h)))
            && self.tags.iter().all(|(&group, values)| {
                values.is_empty() || facets.tags(group).any(|v| values.contains(v))
            })
    }

    /// The capability group: every selected capability supported, or not probed when
    /// `not-probed` is selected; passes when nothing is selected.
    fn capabilities_match(&self, facets: &EntryFacets) -> bool {
        let mut capabilities = self.capabilities.iter().filter_map(|c| match c {
            CapabilityFilter::Supports(c) => Some(*c),
            CapabilityFilter::NotProbed => None,
        });
        let not_probed = self.capabilities.contains(&CapabilityFilter::NotProbed);
        let has_capabilities = self.capabilities.len() > usize::from(not_probed);
        self.capabilities.is_empty()
            || (not_probed && !facets.is_probed())
            || (has_capabilities && capabilities.all(|c| facets.supports(c)))
    }
}

impl AuthFilter {
    /// The query-string word: the method's name ([`AuthMethod::as_str`]) or `not-probed`.
    pub fn as_str(&self) -> &str {
        match self {
            AuthFilter::Method(method) => method.as_str(),
            AuthFilter::NotProbed => NOT_PROBED,
        }
    }

    /// What people read: the method's label or `Not probed`.
    pub fn label(&self) -> &str {
        match self {
            AuthFilter::Method(method) => method.label(),
            AuthFilter::NotProbed => "Not probed",
        }
    }

    /// Reads a query-string word, trimmed: `not-probed` (any case) or an auth method name (see
    /// [`AuthMethod::parse`]); `None` when blank.
    pub fn parse(word: &str) -> Option<AuthFilter> {
        if word.trim().eq_ignore_ascii_case(NOT_PROBED) {
            Some(AuthFilter::NotProbed)
        } else {
            AuthMethod::parse(word).map(AuthFilter::Method)
        }
    }
}

impl CapabilityFilter {
    /// Every option, in display order.
    pub const ALL: [CapabilityFilter; 7] = [
        CapabilityFilter::Supports(Capability::LoadSession),
        CapabilityFilter::Supports(Capability::SessionList),
        CapabilityFilter::Supports(Capability::SessionFork),
        CapabilityFilter::Supports(Capability::SessionResume),
        CapabilityFilter::Supports(Capability::SessionStop),
        CapabilityFilter::Supports(Capability::SetModel),
        CapabilityFilter::NotProbed,
    ];

    /// The query-string word: [`Capability::as_str`] or `not-probed`.
    pub fn as_str(self) -> &'static str {
        match self {
            CapabilityFilter::Supports(capability) => capability.as_str(),
            CapabilityFilter::NotProbed => NOT_PROBED,
        }
    }

    /// What people read: [`Capability::label`] or `Not probed`.
    pub fn label(self) -> &'static str {
        match self {
            CapabilityFilter::Supports(capability) => capability.label(),
            CapabilityFilter::NotProbed => "Not probed",
        }
    }

    /// The inverse of [`CapabilityFilter::as_str`].
    pub fn parse(word: &str) -> Option<CapabilityFilter> {
        CapabilityFilter::ALL
            .into_iter()
            .find(|c| c.as_str() == word)
    }
}

impl TagGroup {
    /// Every group, in display order.
    pub const ALL: [TagGroup; 7] = [
        TagGroup::Protocol,
        TagGroup::Transport,
        TagGroup::Live,
        TagGroup::Capability,
        TagGroup::Tag,
        TagGroup::Label,
        TagGroup::Owner,
    ];

    /// The query-string key: `protocol`, `transport`, `live`, `capability`, `tag`, `label`,
    /// `owner`.
    pub fn as_str(self) -> &'static str {
        match self {
            TagGroup::Protocol => "protocol",
            TagGroup::Transport => "transport",
            TagGroup::Live => "live",
            TagGroup::Capability => "capability",
            TagGroup::Tag => "tag",
            TagGroup::Label => "label",
            TagGroup::Owner => "owner",
        }
    }

    /// What people read: `Protocol`, `Transport`, `Liveness`, `Capability`, `Tag`, `Label`,
    /// `Owner`.
    pub fn label(self) -> &'static str {
        match self {
            TagGroup::Protocol => "Protocol",
            TagGroup::Transport => "Transport",
            TagGroup::Live => "Liveness",
            TagGroup::Capability => "Capability",
            TagGroup::Tag => "Tag",
            TagGroup::Label => "Label",
            TagGroup::Owner => "Owner",
        }
    }

    /// The inverse of [`TagGroup::as_str`].
    pub fn parse(key: &str) -> Option<TagGroup> {
        TagGroup::ALL.into_iter().find(|g| g.as_str() == key)
    }

    /// This group's values for an agent, trimmed, blank ones dropped, unsorted.
    fn values_of(self, agent: &ServiceAgent) -> Vec<String> {
        let values: Vec<String> = match self {
            TagGroup::Protocol => agent
                .endpoints
                .iter()
                .map(|e| e.protocol.as_str().to_owned())
                .collect(),
            TagGroup::Transport => agent
                .endpoints
                .iter()
                .map(|e| e.transport.as_str().to_owned())
                .collect(),
            TagGroup::Live => vec![if agent.is_live() { LIVE } else { STALE }.to_owned()],
            TagGroup::Capability => agent.capabilities.iter().map(|c| c.name.clone()).collect(),
            TagGroup::Tag => agent
                .capabilities
                .iter()
                .flat_map(|c| c.tags.iter().cloned())
                .collect(),
            TagGroup::Label => agent
                .labels
                .iter()
                .map(|(key, value)| format!("{key}={value}"))
                .collect(),
            TagGroup::Owner => vec![agent.owner_id.clone()],
        };
        values
            .into_iter()
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
            .collect()
    }
}

impl EntryFacets {
    /// The facet values of `entry`, with no protocol matrix (so not probed).
    pub fn of(entry: &Entry) -> EntryFacets {
        EntryFacets::with_matrix(entry, None)
    }

    /// The facet values of `entry`, its protocol facets read from `matrix` (only agents are
    /// probed: an extension is never, even when the matrix lists its id).
    pub fn with_matrix(entry: &Entry, matrix: Option<&ProtocolMatrix>) -> EntryFacets {
        EntryFacets::with_sources(entry, matrix, &Listings::default())
    }

    /// The facet values of `entry`, its protocol facets read from `matrix`, where it is listed
    /// and whether it is quarantined from `listings`.
    pub fn with_sources(
        entry: &Entry,
        matrix: Option<&ProtocolMatrix>,
        listings: &Listings,
    ) -> EntryFacets {
        let license = license_value(entry).map(Arc::from);
        EntryFacets::with_license(entry, license, matrix, listings)
    }

    fn with_license(
        entry: &Entry,
        license: Option<Arc<str>>,
        matrix: Option<&ProtocolMatrix>,
        listings: &Listings,
    ) -> EntryFacets {
        let d: &Distribution = &entry.distribution;
        let probe = matrix
            .filter(|_| entry.kind == Kind::Agent && entry.is_acp())
            .and_then(|m| m.succeeded(&entry.id));
        let mut tags: Vec<(TagGroup, Arc<str>)> = match &entry.origin {
            Origin::AgentRegistry(agent) => TagGroup::ALL
                .into_iter()
                .flat_map(|group| {
                    group
                        .values_of(agent)
                        .into_iter()
                        .map(move |v| (group, Arc::from(v)))
                })
                .collect(),
            Origin::Acp => Vec::new(),
        };
        tags.sort_unstable();
        tags.dedup();
        // The rule of `Distribution::runs_on_os`/`runs_on_arch`, in one pass over the binary
        // targets (asking per value would parse every key five times).
        let (os, arch) = if d.runs_everywhere() {
            (mask_of(&Os::ALL, |_| true), mask_of(&Arch::ALL, |_| true))
        } else {
            d.binary_platforms().fold((0, 0), |(os, arch), p| {
                (os | bit(&Os::ALL, p.os), arch | bit(&Arch::ALL, p.arch))
            })
        };
        let (listed_for, health) = match entry.origin {
            Origin::AgentRegistry(_) => (0, 0),
            Origin::Acp => {
                let listing = listings.listing(entry);
                let facts = match matrix {
                    Some(matrix) if entry.kind == Kind::Agent => matrix.facts(&entry.id),
                    _ => crate::protocol::Facts::NotProbed,
                };
                (
                    listing
                        .listed_for()
                        .into_iter()
                        .fold(0, |mask, v| mask | bit(&ListedFor::ALL, v)),
                    bit(&Health::ALL, listing.health(&facts)),
                )
            }
        };
        EntryFacets {
            listed_for,
            health,
            kinds: match entry.origin {
                Origin::AgentRegistry(_) => 0,
                Origin::Acp => bit(&Kind::ALL, entry.kind),
            },
            methods: d
                .methods()
                .into_iter()
                .fold(0, |mask, m| mask | bit(&Method::ALL, m)),
            os,
            arch,
            license,
            probed: probe.is_some(),
            capabilities: probe.map_or(0, |p| {
                mask_of(&Capability::ALL, |c| p.capabilities.get(&c) == Some(&true))
            }),
            auth: probe.map(|p| p.auth_methods.clone()).unwrap_or_default(),
            tags,
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

    /// The entry's licence facet value; empty for an AgentRegistry entry, which has none.
    pub fn license(&self) -> &str {
        self.license.as_deref().unwrap_or("")
    }

    /// The entry's values in a tag group, sorted; none for an ACP entry.
    pub fn tags(&self, group: TagGroup) -> impl Iterator<Item = &str> {
        self.tags
            .iter()
            .filter(move |(g, _)| *g == group)
            .map(|(_, v)| &**v)
    }

    /// Whether the entry has this value in a tag group.
    pub fn has_tag(&self, group: TagGroup, value: &str) -> bool {
        self.tags(group).any(|v| v == value)
    }

    /// Whether this client view lists the entry (as far as the views loaded say).
    pub fn is_listed_for(&self, view: ListedFor) -> bool {
        self.listed_for & bit(&ListedFor::ALL, view) != 0
    }

    /// Whether the entry has this health.
    pub fn has_health(&self, health: Health) -> bool {
        self.health & bit(&Health::ALL, health) != 0
    }

    /// Whether the entry is an agent whose probe succeeded.
    pub fn is_probed(&self) -> bool {
        self.probed
    }

    /// Whether the probe found this capability supported (`false` when not probed: unknown).
    pub fn supports(&self, capability: Capability) -> bool {
        self.capabilities & bit(&Capability::ALL, capability) != 0
    }

    /// The auth methods the probe found (empty when not probed: unknown).
    pub fn auth_methods(&self) -> &[AuthMethod] {
        &self.auth
    }

    /// Whether the entry has this auth option: the method was found, or it is not probed.
    pub fn has_auth_option(&self, option: &AuthFilter) -> bool {
        match option {
            AuthFilter::Method(method) => self.auth.contains(method),
            AuthFilter::NotProbed => !self.probed,
        }
    }
}

impl FacetIndex {
    /// Computes the facet values of every entry, with no protocol matrix.
    pub fn new(entries: &[Entry]) -> FacetIndex {
        FacetIndex::with_matrix(entries, None)
    }

    /// Computes the facet values of every entry, the protocol ones from `matrix`.
    pub fn with_matrix(entries: &[Entry], matrix: Option<&ProtocolMatrix>) -> FacetIndex {
        FacetIndex::with_sources(entries, matrix, &Listings::default())
    }

    /// Computes the facet values of every entry, the protocol ones from `matrix`, the listing
    /// and health ones from `listings` too. A value is known, so counted and shown, only when
    /// what says it was loaded: `default` for any ACP entry (every entry of the main registry is
    /// in it), `jetbrains` and `jetbrains-bundled` with the JetBrains view, `jetbrains-preview`
    /// with the preview view; `quarantined` with the quarantine list, `probe-failed` and
    /// `healthy` with the matrix, `not-probed` with either.
    pub fn with_sources(
        entries: &[Entry],
        matrix: Option<&ProtocolMatrix>,
        listings: &Listings,
    ) -> FacetIndex {
        let any_acp = entries.iter().any(Entry::is_acp);
        let listed_known = if any_acp {
            mask_of(&ListedFor::ALL, |v| match v {
                ListedFor::Default => true,
                ListedFor::JetBrains | ListedFor::JetBrainsBundled => listings.jetbrains.is_some(),
                ListedFor::JetBrainsPreview => listings.jetbrains_preview.is_some(),
            })
        } else {
            0
        };
        let quarantine = listings.quarantine.is_some();
        let health_known = if any_acp {
            mask_of(&Health::ALL, |h| match h {
                Health::Quarantined => quarantine,
                Health::ProbeFailed | Health::Healthy => matrix.is_some(),
                Health::NotProbed => quarantine || matrix.is_some(),
            })
        } else {
            0
        };
        // Many entries write the same few licences: each distinct one is normalised once.
        let mut value_of: FxHashMap<Option<&str>, String> = FxHashMap::default();
        for license in entries.iter().filter_map(written_license) {
            value_of
                .entry(license)
                .or_insert_with(|| license::facet_value(license));
        }
        // Sorted and deduplicated in a `Vec` rather than through a `BTreeSet`: the same table
        // with less generic code in the wasm.
        let mut distinct: Vec<&str> = value_of.values().map(String::as_str).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let licenses: Vec<Arc<str>> = distinct.into_iter().map(Arc::from).collect();
        let id_of: FxHashMap<Option<&str>, u32> = value_of
            .iter()
            .map(|(&written, value)| {
                let id = licenses
                    .binary_search_by(|l| (**l).cmp(value.as_str()))
                    .expect("every licence is in the table");
                (written, id as u32)
            })
            .collect();
        let license_ids: Vec<u32> = entries
            .iter()
            .map(|e| written_license(e).map_or(NO_LICENSE, |license| id_of[&license]))
            .collect();
        let entries: Vec<EntryFacets> = entries
            .iter()
            .zip(&license_ids)
            .map(|(entry, &id)| {
                let license = licenses.get(id as usize).cloned();
                EntryFacets::with_license(entry, license, matrix, listings)
            })
            .collect();
        let mut tags: Vec<(TagGroup, Arc<str>)> = entries
            .iter()
            .flat_map(|e| e.tags.iter().cloned())
            .collect();
        tags.sort_unstable();
        tags.dedup();
        let tag_ids = entries
            .iter()
            .map(|e| {
                e.tags
                    .iter()
                    .map(|tag| {
                        let id = tags.binary_search(tag).expect("every tag is in the table");
                        id as u32
                    })
                    .collect()
            })
            .collect();
        let mut auth_methods: Vec<AuthMethod> = AuthMethod::KNOWN
            .into_iter()
            .chain(entries.iter().flat_map(|e| e.auth.iter().cloned()))
            .collect();
        auth_methods.sort_unstable();
        auth_methods.dedup();
        let auth_ids = entries
            .iter()
            .map(|e| {
                e.auth
                    .iter()
                    .map(|method| {
                        let id = auth_methods
                            .binary_search(method)
                            .expect("every auth method is in the table");
                        id as u32
                    })
                    .collect()
            })
            .collect();
        FacetIndex {
            entries,
            license_ids,
            licenses,
            has_matrix: matrix.is_some(),
            listed_known,
            health_known,
            auth_methods,
            auth_ids,
            tags,
            tag_ids,
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

    /// Whether the index was built with a protocol matrix.
    pub fn has_matrix(&self) -> bool {
        self.has_matrix
    }

    /// The auth methods of the auth facet: the known ones, then the others the probed entries
    /// advertise, by name.
    pub fn auth_methods(&self) -> &[AuthMethod] {
        &self.auth_methods
    }

    /// Keeps the `candidates` (entry indices, typically search hits) that pass `filters`, in
    /// their order, and counts the facet values of the candidates disjunctively.
    pub fn filter(
        &self,
        candidates: impl IntoIterator<Item = usize>,
        filters: &Filters,
    ) -> (Vec<usize>, FacetCounts) {
        let selection = Selection::new(filters, &self.licenses, &self.auth_methods, &self.tags);
        let mut tally = Tally::new(
            self.licenses.len(),
            self.auth_methods.len(),
            self.tags.len(),
        );
        let mut results = Vec::new();
        for entry in candidates {
            let values = Values {
                facets: &self.entries[entry],
                license: self.license_ids[entry],
                auth: &self.auth_ids[entry],
                tags: &self.tag_ids[entry],
            };
            let passes = selection.passes(&values);
            // A group's counts need every *other* group to pass.
            match passes.iter().filter(|&&p| !p).count() {
                0 => {
                    results.push(entry);
                    for group in Group::ALL {
                        tally.add(group, &values, &selection);
                    }
                }
                1 => {
                    let failed = passes.iter().position(|&p| !p).expect("one group failed");
                    tally.add(Group::ALL[failed], &values, &selection);
                }
                _ => {}
            }
        }
        // Without a matrix the protocol groups are not counted.
        let protocol = self.has_matrix.then_some(&self.auth_methods[..]);
        let mut counts = tally.counts(filters, &self.licenses, protocol);
        counts.tags = tally.tag_counts(filters, &self.tags);
        counts.listed_for = known_counts(
            &ListedFor::ALL,
            &tally.listed_for,
            self.listed_known,
            &filters.listed_for,
        );
        counts.health = known_counts(
            &Health::ALL,
            &tally.health,
            self.health_known,
            &filters.health,
        );
        (results, counts)
    }
}

/// An ACP entry's licence facet value; `None` for an AgentRegistry entry.
fn license_value(entry: &Entry) -> Option<String> {
    written_license(entry).map(license::facet_value)
}

/// The licence an ACP entry's manifest writes (perhaps none); `None` for an AgentRegistry
/// entry, which has no licence facet.
fn written_license(entry: &Entry) -> Option<Option<&str>> {
    entry.is_acp().then_some(entry.license.as_deref())
}

/// One entry's facet values, with its licence, auth methods and tag values as table indices.
struct Values<'a> {
    facets: &'a EntryFacets,
    license: u32,
    auth: &'a [u32],
    tags: &'a [u32],
}

/// The counts of the values of `all` that are `known` (a mask) or selected, in `all`'s order.
fn known_counts<T: Copy + Ord>(
    all: &[T],
    counts: &[usize],
    known: u8,
    selected: &BTreeSet<T>,
) -> Vec<(T, usize)> {
    all.iter()
        .zip(counts)
        .filter(|&(v, _)| known & bit(all, *v) != 0 || selected.contains(v))
        .map(|(&v, &n)| (v, n))
        .collect()
}

/// The sixteen facet groups, in the order of [`Selection::passes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    Kind,
    Method,
    Os,
    Arch,
    License,
    Auth,
    Capability,
    ListedFor,
    Health,
    Tag(TagGroup),
}

impl Group {
    const ALL: [Group; 16] = [
        Group::Kind,
        Group::Method,
        Group::Os,
        Group::Arch,
        Group::License,
        Group::Auth,
        Group::Capability,
        Group::ListedFor,
        Group::Health,
        Group::Tag(TagGroup::Protocol),
        Group::Tag(TagGroup::Transport),
        Group::Tag(TagGroup::Live),
        Group::Tag(TagGroup::Capability),
        Group::Tag(TagGroup::Tag),
        Group::Tag(TagGroup::Label),
        Group::Tag(TagGroup::Owner),
    ];
}

/// [`Filters`] as masks (0: group not filtered) and table memberships.
struct Selection {
    kinds: u8,
    methods: u8,
    os: u8,
    arch: u8,
    /// `None` when no licence is selected; else, per licence-table entry, whether selected.
    licenses: Option<Vec<bool>>,
    /// `None` when no auth option is selected; else, per auth-table entry, whether selected.
    auth: Option<Vec<bool>>,
    /// Whether the auth option `not-probed` is selected.
    auth_not_probed: bool,
    /// The selected capabilities, over [`Capability::ALL`].
    capabilities: u8,
    /// Whether the capability option `not-probed` is selected.
    capabilities_not_probed: bool,
    /// The selected client views, over [`ListedFor::ALL`].
    listed_for: u8,
    /// The selected healths, over [`Health::ALL`].
    health: u8,
    /// Per tag-table entry, its group's bit (over [`TagGroup::ALL`]).
    tag_groups: Vec<u8>,
    /// Per tag-table entry, whether selected.
    tags: Vec<bool>,
    /// The tag groups with a value selected, as bits over [`TagGroup::ALL`].
    tag_groups_selected: u8,
}

impl Selection {
    fn new(
        filters: &Filters,
        table: &[Arc<str>],
        auth_table: &[AuthMethod],
        tag_table: &[(TagGroup, Arc<str>)],
    ) -> Selection {
        let capabilities = filters.capabilities.iter().fold(0, |mask, c| match c {
            CapabilityFilter::Supports(c) => mask | bit(&Capability::ALL, *c),
            CapabilityFilter::NotProbed => mask,
        });
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
            auth: (!filters.auth.is_empty()).then(|| {
                auth_table
                    .iter()
                    .map(|m| filters.auth.contains(&AuthFilter::Method(m.clone())))
                    .collect()
            }),
            auth_not_probed: filters.auth.contains(&AuthFilter::NotProbed),
            capabilities,
            capabilities_not_probed: filters.capabilities.contains(&CapabilityFilter::NotProbed),
            listed_for: filters
                .listed_for
                .iter()
                .fold(0, |m, &v| m | bit(&ListedFor::ALL, v)),
            health: filters
                .health
                .iter()
                .fold(0, |m, &v| m | bit(&Health::ALL, v)),
            tag_groups: tag_table
                .iter()
                .map(|(group, _)| bit(&TagGroup::ALL, *group))
                .collect(),
            tags: tag_table
                .iter()
                .map(|(group, value)| filters.is_tag_selected(*group, value))
                .collect(),
            tag_groups_selected: filters
                .tags
                .iter()
                .filter(|(_, values)| !values.is_empty())
                .fold(0, |mask, (&group, _)| mask | bit(&TagGroup::ALL, group)),
        }
    }

    /// Whether an entry with these values passes each group, in [`Group::ALL`] order.
    fn passes(&self, values: &Values<'_>) -> [bool; 16] {
        let facets = values.facets;
        let group = |selected: u8, has: u8| selected == 0 || selected & has != 0;
        // The tag groups in which the entry has a selected value.
        let tags_hit = values
            .tags
            .iter()
            .filter(|&&id| self.tags[id as usize])
            .fold(0, |mask, &id| mask | self.tag_groups[id as usize]);
        let tag_group = |i: usize| group(self.tag_groups_selected & 1 << i, tags_hit);
        [
            group(self.kinds, facets.kinds),
            group(self.methods, facets.methods),
            group(self.os, facets.os),
            group(self.arch, facets.arch),
            self.licenses.as_ref().is_none_or(|selected| {
                values.license != NO_LICENSE && selected[values.license as usize]
            }),
            self.auth.as_ref().is_none_or(|selected| {
                (self.auth_not_probed && !facets.probed)
                    || values.auth.iter().any(|&id| selected[id as usize])
            }),
            capabilities_pass(self.capabilities, self.capabilities_not_probed, facets),
            group(self.listed_for, facets.listed_for),
            group(self.health, facets.health),
            tag_group(0),
            tag_group(1),
            tag_group(2),
            tag_group(3),
            tag_group(4),
            tag_group(5),
            tag_group(6),
        ]
    }
}

/// Whether an entry passes the capability group if the `selected` capabilities, and
/// `not-probed` when `not_probed`, were its selection.
fn capabilities_pass(selected: u8, not_probed: bool, facets: &EntryFacets) -> bool {
    (selected == 0 && !not_probed)
        || (not_probed && !facets.probed)
        || (selected != 0 && selected & !facets.capabilities == 0)
}

/// Running counts, per value of each group.
struct Tally {
    kinds: [usize; Kind::ALL.len()],
    methods: [usize; Method::ALL.len()],
    os: [usize; Os::ALL.len()],
    arch: [usize; Arch::ALL.len()],
    licenses: Vec<usize>,
    /// Per auth-table entry.
    auth: Vec<usize>,
    auth_not_probed: usize,
    /// Per capability, results if it were selected.
    capabilities: [usize; Capability::ALL.len()],
    /// Results if `not-probed` were selected in the capability group.
    capabilities_not_probed: usize,
    listed_for: [usize; ListedFor::ALL.len()],
    health: [usize; Health::ALL.len()],
    /// Per tag-table entry.
    tags: Vec<usize>,
}

impl Tally {
    fn new(licenses: usize, auth: usize, tags: usize) -> Tally {
        Tally {
            kinds: Default::default(),
            methods: Default::default(),
            os: Default::default(),
            arch: Default::default(),
            licenses: vec![0; licenses],
            auth: vec![0; auth],
            auth_not_probed: 0,
            capabilities: Default::default(),
            capabilities_not_probed: 0,
            listed_for: Default::default(),
            health: Default::default(),
            tags: vec![0; tags],
        }
    }

    /// Counts an entry that passes every group but `group`.
    fn add(&mut self, group: Group, values: &Values<'_>, selection: &Selection) {
        fn add_bits(counts: &mut [usize], mask: u8) {
            for (i, count) in counts.iter_mut().enumerate() {
                *count += usize::from(mask >> i & 1);
            }
        }
        let facets = values.facets;
        match group {
            Group::Kind => add_bits(&mut self.kinds, facets.kinds),
            Group::Method => add_bits(&mut self.methods, facets.methods),
            Group::Os => add_bits(&mut self.os, facets.os),
            Group::Arch => add_bits(&mut self.arch, facets.arch),
            Group::ListedFor => add_bits(&mut self.listed_for, facets.listed_for),
            Group::Health => add_bits(&mut self.health, facets.health),
            Group::License => {
                if let Some(count) = self.licenses.get_mut(values.license as usize) {
                    *count += 1;
                }
            }
            Group::Auth => {
                for &id in values.auth {
                    self.auth[id as usize] += 1;
                }
                self.auth_not_probed += usize::from(!facets.probed);
            }
            Group::Capability => {
                let (selected, not_probed) =
                    (selection.capabilities, selection.capabilities_not_probed);
                for (i, count) in self.capabilities.iter_mut().enumerate() {
                    let with = selected | 1 << i;
                    *count += usize::from(capabilities_pass(with, not_probed, facets));
                }
                self.capabilities_not_probed +=
                    usize::from(capabilities_pass(selected, true, facets));
            }
            Group::Tag(group) => {
                let group = bit(&TagGroup::ALL, group);
                for &id in values.tags {
                    if selection.tag_groups[id as usize] == group {
                        self.tags[id as usize] += 1;
                    }
                }
            }
        }
    }

    /// The counts; `protocol` is the auth table when a matrix is loaded, `None` to leave the
    /// protocol groups empty.
    fn counts(
        &self,
        filters: &Filters,
        table: &[Arc<str>],
        protocol: Option<&[AuthMethod]>,
    ) -> FacetCounts {
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
            auth: protocol.map_or_else(Vec::new, |table| self.auth_counts(table, filters)),
            capabilities: match protocol {
                Some(_) => CapabilityFilter::ALL
                    .into_iter()
                    .zip(
                        self.capabilities
                            .into_iter()
                            .chain([self.capabilities_not_probed]),
                    )
                    .collect(),
                None => Vec::new(),
            },
            listed_for: Vec::new(),
            health: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The tag groups' counts (see [`FacetCounts::tags`]).
    fn tag_counts(
        &self,
        filters: &Filters,
        table: &[(TagGroup, Arc<str>)],
    ) -> Vec<(TagGroup, Vec<(String, usize)>)> {
        let mut out = Vec::new();
        for group in TagGroup::ALL {
            let selected = filters.tags.get(&group);
            let is_selected = |value: &str| selected.is_some_and(|s| s.contains(value));
            let mut present = false;
            let mut values: Vec<(String, usize)> = Vec::new();
            for ((_, value), &n) in table
                .iter()
                .zip(&self.tags)
                .filter(|((g, _), _)| *g == group)
            {
                present = true;
                if n > 0 || is_selected(value) {
                    values.push((value.to_string(), n));
                }
            }
            for value in selected.into_iter().flatten() {
                if !values.iter().any(|(v, _)| v == value) {
                    values.push((value.clone(), 0));
                }
            }
            if !present && values.is_empty() {
                continue;
            }
            // `live` then `stale` in the live group; elsewhere (and after those) by count.
            let rank = |value: &str| match group {
                TagGroup::Live => [LIVE, STALE].iter().position(|&v| v == value).unwrap_or(2),
                _ => 0,
            };
            values.sort_by(|(a, m), (b, n)| {
                rank(a)
                    .cmp(&rank(b))
                    .then_with(|| n.cmp(m))
                    .then_with(|| a.to_lowercase().cmp(&b.to_lowercase()))
                    .then_with(|| a.cmp(b))
            });
            out.push((group, values));
        }
        out
    }

    fn auth_counts(&self, table: &[AuthMethod], filters: &Filters) -> Vec<(AuthFilter, usize)> {
        let mut auth: Vec<(AuthFilter, usize)> = table
            .iter()
            .zip(&self.auth)
            .map(|(m, &n)| (AuthFilter::Method(m.clone()), n))
            .collect();
        for selected in &filters.auth {
            if let AuthFilter::Method(method) = selected
                && table.binary_search(method).is_err()
            {
                auth.push((selected.clone(), 0));
            }
        }
        auth.push((AuthFilter::NotProbed, self.auth_not_probed));
        auth
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
