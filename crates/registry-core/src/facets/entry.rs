//! What an entry has in each facet group, and what each group offers: the one predicate per
//! facet.

use std::sync::Arc;

use crate::agentregistry::ServiceAgent;
use crate::license;
use crate::listing::{Health, ListedFor, Listing, Listings};
use crate::model::{Arch, Entry, Kind, Method, Origin, Os};
use crate::protocol::{AuthMethod, Capability, Facts, ProbeResult, ProbeStatus, ProtocolMatrix};

use super::table::{
    AuthFilter, CapabilityFilter, FACETS, Facet, FacetValue, LIVE, ProtocolVersionFilter, STALE,
    TagGroup,
};

/// The facet values of one entry, sorted, without duplicates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryFacets {
    values: Vec<FacetValue>,
}

/// What the facets of entries are read against: the protocol matrix and the registry's other
/// lists, when loaded.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sources<'a> {
    pub matrix: Option<&'a ProtocolMatrix>,
    pub listings: &'a Listings,
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

    /// The facet values of `entry`, with its protocol facets from `matrix` and its listing and
    /// health from `listings`.
    pub fn with_sources(
        entry: &Entry,
        matrix: Option<&ProtocolMatrix>,
        listings: &Listings,
    ) -> EntryFacets {
        let license = license_of(entry).map(|l| Arc::from(license::facet_value(l)));
        EntryFacets::read(entry, license, Sources { matrix, listings })
    }

    /// Reads every group's values; `license` is the entry's licence facet value (the index
    /// normalises each distinct licence once).
    pub(super) fn read(entry: &Entry, license: Option<Arc<str>>, sources: Sources<'_>) -> Self {
        let cx = Context::new(entry, license, sources);
        let mut values = Vec::with_capacity(16);
        for spec in &FACETS {
            values_in(spec.facet, &cx, &mut values);
        }
        values.sort_unstable();
        values.dedup();
        EntryFacets { values }
    }

    /// An entry's values, already sorted and without duplicates.
    pub(super) fn from_sorted(values: Vec<FacetValue>) -> EntryFacets {
        EntryFacets { values }
    }

    /// Every value, in [`FacetValue`] order.
    pub fn values(&self) -> &[FacetValue] {
        &self.values
    }

    /// Its values in one group.
    pub fn values_in(&self, facet: Facet) -> impl Iterator<Item = &FacetValue> {
        self.values.iter().filter(move |v| v.facet() == facet)
    }

    /// Whether it has this value.
    pub fn has(&self, value: &FacetValue) -> bool {
        self.values.binary_search(value).is_ok()
    }

    /// Its licence facet value; empty for an AgentRegistry entry, which has none.
    pub fn license(&self) -> &str {
        self.values_in(Facet::License)
            .next()
            .map_or("", FacetValue::as_str)
    }

    /// Whether the probe of this agent succeeded.
    pub fn is_probed(&self) -> bool {
        !self.has(&FacetValue::Capability(CapabilityFilter::NotProbed))
    }

    /// The auth methods advertised; empty unless probed.
    pub fn auth_methods(&self) -> Vec<AuthMethod> {
        self.values_in(Facet::Auth)
            .filter_map(|v| match v {
                FacetValue::Auth(AuthFilter::Method(method)) => Some(method.clone()),
                _ => None,
            })
            .collect()
    }
}

/// An entry with what is known of it beyond its manifest.
struct Context<'a> {
    entry: &'a Entry,
    license: Option<Arc<str>>,
    /// The successful probe of an ACP agent.
    probe: Option<&'a ProbeResult>,
    /// Where an ACP entry is listed.
    listing: Option<Listing>,
    sources: Sources<'a>,
}

impl<'a> Context<'a> {
    fn new(entry: &'a Entry, license: Option<Arc<str>>, sources: Sources<'a>) -> Self {
        let probe = sources
            .matrix
            .filter(|_| entry.kind == Kind::Agent && entry.is_acp())
            .and_then(|m| m.succeeded(&entry.id));
        Context {
            entry,
            license,
            probe,
            listing: entry.is_acp().then(|| sources.listings.listing(entry)),
            sources,
        }
    }
}

/// The predicate: the values `cx.entry` has in `facet`, pushed onto `out`.
///
/// An entry runs on an OS (an architecture) when it has an npx or uvx package, which runs
/// everywhere, or a binary for that OS (architecture). Entries from an AgentRegistry have no
/// kind, distribution, platform, licence, listing or health values, and are never probed; ACP
/// entries have no tag values.
fn values_in(facet: Facet, cx: &Context<'_>, out: &mut Vec<FacetValue>) {
    let entry = cx.entry;
    let d = &entry.distribution;
    let agent = match &entry.origin {
        Origin::Acp => None,
        Origin::AgentRegistry(agent) => Some(&**agent),
    };
    match (facet, &cx.listing) {
        (Facet::Kind, Some(_)) => out.push(FacetValue::Kind(entry.kind)),
        (Facet::ListedFor, Some(listing)) => {
            out.extend(listing.listed_for().into_iter().map(FacetValue::ListedFor));
        }
        (Facet::Health, Some(listing)) => {
            let facts = match cx.sources.matrix {
                Some(matrix) if entry.kind == Kind::Agent => matrix.facts(&entry.id),
                _ => Facts::NotProbed,
            };
            out.push(FacetValue::Health(listing.health(&facts)));
        }
        (Facet::Kind | Facet::ListedFor | Facet::Health, None) => {}
        (Facet::Method, _) => out.extend(d.methods().into_iter().map(FacetValue::Method)),
        (Facet::Os, _) if d.runs_everywhere() => out.extend(Os::ALL.map(FacetValue::Os)),
        (Facet::Os, _) => out.extend(d.binary_platforms().map(|p| FacetValue::Os(p.os))),
        (Facet::Arch, _) if d.runs_everywhere() => out.extend(Arch::ALL.map(FacetValue::Arch)),
        (Facet::Arch, _) => out.extend(d.binary_platforms().map(|p| FacetValue::Arch(p.arch))),
        (Facet::License, _) => out.extend(cx.license.clone().map(FacetValue::License)),
        (Facet::Auth, _) => match cx.probe {
            Some(probe) => out.extend(
                probe
                    .auth_methods
                    .iter()
                    .map(|m| FacetValue::Auth(AuthFilter::Method(m.clone()))),
            ),
            None => out.push(FacetValue::Auth(AuthFilter::NotProbed)),
        },
        (Facet::Capability, _) => match cx.probe {
            Some(probe) => out.extend(
                Capability::ALL
                    .into_iter()
                    .filter(|c| probe.capabilities.get(c) == Some(&true))
                    .map(|c| FacetValue::Capability(CapabilityFilter::Supports(c))),
            ),
            None => out.push(FacetValue::Capability(CapabilityFilter::NotProbed)),
        },
        (Facet::ProtocolVersion, _) => match cx.probe {
            Some(probe) => out.extend(
                probe
                    .protocol_version
                    .as_deref()
                    .and_then(ProtocolVersionFilter::version)
                    .map(FacetValue::ProtocolVersion),
            ),
            None => out.push(FacetValue::ProtocolVersion(
                ProtocolVersionFilter::NotProbed,
            )),
        },
        (Facet::Tag(group), _) => {
            if let Some(agent) = agent {
                out.extend(
                    tag_values(group, agent)
                        .into_iter()
                        .map(|v| v.trim().to_owned())
                        .filter(|v| !v.is_empty())
                        .map(|v| FacetValue::Tag(group, v.into())),
                );
            }
        }
    }
}

/// A tag group's values for an agent, as written.
fn tag_values(group: TagGroup, agent: &ServiceAgent) -> Vec<String> {
    match group {
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
    }
}

/// What a group offers a catalogue of these entries: `None` when the group does not apply (no
/// ACP entry for the ACP groups, no matrix for the protocol groups), else the values it lists
/// even at zero, in any order.
///
/// The "Listed for" group offers the views that were loaded (the main registry always is);
/// "Health" offers `quarantined` when the quarantine list was loaded, `probe-failed` and
/// `healthy` when the matrix was, `not-probed` when either was; "ACP version" offers every
/// version the matrix records of a successful probe, and `not-probed`.
pub(super) fn offered(
    facet: Facet,
    any_acp: bool,
    sources: Sources<'_>,
) -> Option<Vec<FacetValue>> {
    let listings = sources.listings;
    let (quarantine, matrix) = (listings.quarantine.is_some(), sources.matrix.is_some());
    let acp = |values: Vec<FacetValue>| any_acp.then_some(values);
    match facet {
        Facet::Kind => acp(Kind::ALL.map(FacetValue::Kind).to_vec()),
        Facet::ListedFor => acp(ListedFor::ALL
            .into_iter()
            .filter(|v| match v {
                ListedFor::Default => true,
                ListedFor::JetBrains | ListedFor::JetBrainsBundled => listings.jetbrains.is_some(),
                ListedFor::JetBrainsPreview => listings.jetbrains_preview.is_some(),
            })
            .map(FacetValue::ListedFor)
            .collect()),
        Facet::Health => acp(Health::ALL
            .into_iter()
            .filter(|h| match h {
                Health::Quarantined => quarantine,
                Health::ProbeFailed | Health::Healthy => matrix,
                Health::NotProbed => quarantine || matrix,
            })
            .map(FacetValue::Health)
            .collect()),
        Facet::Method => acp(Method::ALL.map(FacetValue::Method).to_vec()),
        Facet::Os => acp(Os::ALL.map(FacetValue::Os).to_vec()),
        Facet::Arch => acp(Arch::ALL.map(FacetValue::Arch).to_vec()),
        Facet::License | Facet::Tag(_) => Some(Vec::new()),
        Facet::Auth => matrix.then(|| {
            AuthMethod::KNOWN
                .map(|m| FacetValue::Auth(AuthFilter::Method(m)))
                .into_iter()
                .chain([FacetValue::Auth(AuthFilter::NotProbed)])
                .collect()
        }),
        Facet::Capability => {
            matrix.then(|| CapabilityFilter::ALL.map(FacetValue::Capability).to_vec())
        }
        Facet::ProtocolVersion => sources.matrix.map(|matrix| {
            let mut versions: Vec<FacetValue> = matrix
                .agents
                .values()
                .filter(|probe| probe.status == ProbeStatus::Succeeded)
                .filter_map(|probe| probe.protocol_version.as_deref())
                .filter_map(ProtocolVersionFilter::version)
                .chain([ProtocolVersionFilter::NotProbed])
                .map(FacetValue::ProtocolVersion)
                .collect();
            versions.sort_unstable();
            versions.dedup();
            versions
        }),
    }
}

/// The licence an ACP entry writes (`Some(None)` when it writes none); `None` for an
/// AgentRegistry entry, which has no licence value.
pub(super) fn license_of(entry: &Entry) -> Option<Option<&str>> {
    entry.is_acp().then_some(entry.license.as_deref())
}
