//! Fixtures shared by the integration tests: the real registry and a builder for small
//! synthetic ones.

#![allow(dead_code)] // Each test crate uses its own part of this module.

use std::collections::{BTreeMap, BTreeSet};

use registry_core::{
    Arch, AuthFilter, AuthMethod, BinaryTarget, CapabilityFilter, Catalog, Distribution, Entry,
    EntryFacets, Facet, FacetCounts, FacetValue, Filters, Health, Kind, ListedFor, Loaded, Method,
    Os, PackageTarget, Pager, PlatformKey, ProbeStatus, ProtocolMatrix, ProtocolVersionFilter,
    Registry, TagGroup,
};

/// The 130 agents of the real registry, as published in 2026.
pub fn real_registry() -> Registry {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/real-registry-2026/dist/registry.json"
    ));
    let loaded = registry_core::load(text).expect("the fixture is JSON");
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    assert_eq!(loaded.registry.entries.len(), 130);
    loaded.registry
}

/// The text of the registry's protocol matrix of 2026-08-20 (30 agents).
pub const REAL_MATRIX: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026/protocol-matrix-2026-08-20.json"
));

/// The registry's protocol matrix of 2026-08-20 as published, with every field (probe schema 1).
pub const PUBLISHED_MATRIX: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/protocol-matrix/2026-08-20.json"
));

/// A matrix of probe schema 2, made by the registry's rules (three agents).
pub const SCHEMA_2_MATRIX: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/protocol-matrix/schema-2-example.json"
));

/// The registry's protocol matrix of 2026-08-20, which reads without warnings.
pub fn real_matrix() -> ProtocolMatrix {
    let (matrix, warnings) = registry_core::parse_matrix(REAL_MATRIX).expect("the fixture is JSON");
    assert_eq!(warnings, Vec::<String>::new());
    matrix
}

/// The three pages of the synthetic AgentRegistry listing (13 items, one malformed).
pub const AGENTREGISTRY_PAGES: [&str; 3] = [
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/agentregistry/page-1.json"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/agentregistry/page-2.json"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/agentregistry/page-3.json"
    )),
];

/// The synthetic AgentRegistry listing, paged through: 12 agents and one diagnostic.
pub fn agentregistry() -> Loaded {
    let mut pager = Pager::new("http://registry.test");
    for text in AGENTREGISTRY_PAGES {
        pager.accept(text).expect("the fixture pages are pages");
    }
    assert!(pager.is_done());
    let loaded = pager.into_loaded();
    assert_eq!(loaded.registry.entries.len(), 12);
    assert_eq!(loaded.diagnostics.len(), 1, "{:#?}", loaded.diagnostics);
    loaded
}

/// An agent with this id and name and nothing else.
pub fn agent(id: &str, name: &str) -> Entry {
    Entry {
        kind: Kind::Agent,
        id: id.to_owned(),
        name: name.to_owned(),
        version: "1.0.0".to_owned(),
        description: String::new(),
        repository: None,
        website: None,
        authors: Vec::new(),
        license: None,
        license_url: None,
        icon: None,
        distribution: Distribution::default(),
        raw: String::new(),
        origin: Default::default(),
    }
}

/// An extension with this id and name and nothing else.
pub fn extension(id: &str, name: &str) -> Entry {
    Entry {
        kind: Kind::Extension,
        ..agent(id, name)
    }
}

/// Builder-style additions to a synthetic entry.
pub trait With {
    /// Sets the description.
    fn description(self, text: &str) -> Self;
    /// Adds an author.
    fn author(self, author: &str) -> Self;
    /// Sets the licence.
    fn license(self, license: &str) -> Self;
    /// Adds an npx package.
    fn npx(self, package: &str) -> Self;
    /// Adds a uvx package.
    fn uvx(self, package: &str) -> Self;
    /// Adds a binary for each `<os>-<arch>` key.
    fn binary(self, keys: &[&str]) -> Self;
}

impl With for Entry {
    fn description(mut self, text: &str) -> Self {
        self.description = text.to_owned();
        self
    }
    fn author(mut self, author: &str) -> Self {
        self.authors.push(author.to_owned());
        self
    }
    fn license(mut self, license: &str) -> Self {
        self.license = Some(license.to_owned());
        self
    }
    fn npx(mut self, package: &str) -> Self {
        self.distribution.npx = Some(package_target(package));
        self
    }
    fn uvx(mut self, package: &str) -> Self {
        self.distribution.uvx = Some(package_target(package));
        self
    }
    fn binary(mut self, keys: &[&str]) -> Self {
        for key in keys {
            let target = BinaryTarget {
                archive: format!("https://example.com/{key}.tar.gz"),
                cmd: "./tool".to_owned(),
                args: Vec::new(),
                env: BTreeMap::new(),
                sha256: None,
            };
            self.distribution
                .binary
                .insert(PlatformKey((*key).to_owned()), target);
        }
        self
    }
}

fn package_target(package: &str) -> PackageTarget {
    PackageTarget {
        package: package.to_owned(),
        args: Vec::new(),
        env: BTreeMap::new(),
    }
}

/// A registry of these entries.
pub fn registry(entries: Vec<Entry>) -> Registry {
    Registry {
        version: Some("1.0.0".to_owned()),
        entries,
    }
}

/// The counts as [`naive_counts`] gives them.
pub fn listed(counts: &FacetCounts) -> Vec<(Facet, Vec<(FacetValue, usize)>)> {
    counts
        .groups()
        .map(|(facet, options)| (facet, options.to_vec()))
        .collect()
}

/// The counts, computed the slow and obvious way, as `FacetCounts::groups` lists them: for
/// each value of an OR group, the hits that pass every other group's filter and have the value;
/// for each capability option, the hits that would pass if it were ticked too. The values
/// listed: every kind, method, OS and architecture (when some entry is an ACP entry); the
/// loaded listings and healths; the known auth methods, those of the probed entries, and
/// `not-probed` (with a matrix); every capability option (with a matrix); the protocol versions
/// of the matrix's successful probes, those of the probed entries, and `not-probed` (with a
/// matrix); the licences and tag values some hit counts for; and every selected value of a
/// listed group.
pub fn naive_counts(
    catalog: &Catalog,
    hits: &[usize],
    filters: &Filters,
) -> Vec<(Facet, Vec<(FacetValue, usize)>)> {
    let matrix = catalog.matrix.as_ref();
    let listings = &catalog.listings;
    let entries = &catalog.registry.entries;
    let facets = |i: usize| EntryFacets::with_sources(&entries[i], matrix, listings);
    let acp = entries.iter().any(|e| e.is_acp());
    let (quarantine, probe) = (listings.quarantine.is_some(), matrix.is_some());
    let every_value: BTreeSet<FacetValue> = (0..entries.len())
        .flat_map(|i| facets(i).values().to_vec())
        .collect();
    let count = |facet: Facet, value: &FacetValue| -> usize {
        if facet == Facet::Capability {
            let mut ticked = filters.clone();
            ticked.insert(value.clone());
            hits.iter().filter(|&&i| ticked.matches(&facets(i))).count()
        } else {
            let others = filters.without(facet);
            hits.iter()
                .map(|&i| facets(i))
                .filter(|f| others.matches(f) && f.has(value))
                .count()
        }
    };
    let mut groups = Vec::new();
    for facet in Facet::all() {
        // The values listed even at zero; `None` when the group is not listed at all.
        let offered: Option<Vec<FacetValue>> = match facet {
            Facet::Kind => acp.then(|| Kind::ALL.map(FacetValue::Kind).to_vec()),
            Facet::Method => acp.then(|| Method::ALL.map(FacetValue::Method).to_vec()),
            Facet::Os => acp.then(|| Os::ALL.map(FacetValue::Os).to_vec()),
            Facet::Arch => acp.then(|| Arch::ALL.map(FacetValue::Arch).to_vec()),
            Facet::ListedFor => acp.then(|| {
                ListedFor::ALL
                    .into_iter()
                    .filter(|v| match v {
                        ListedFor::Default => true,
                        ListedFor::JetBrains | ListedFor::JetBrainsBundled => {
                            listings.jetbrains.is_some()
                        }
                        ListedFor::JetBrainsPreview => listings.jetbrains_preview.is_some(),
                    })
                    .map(FacetValue::ListedFor)
                    .collect()
            }),
            Facet::Health => acp.then(|| {
                Health::ALL
                    .into_iter()
                    .filter(|h| match h {
                        Health::Quarantined => quarantine,
                        Health::ProbeFailed | Health::Healthy => probe,
                        Health::NotProbed => quarantine || probe,
                    })
                    .map(FacetValue::Health)
                    .collect()
            }),
            // The real matrix names no other method, so the options are the known ones and
            // `not-probed`, plus any other selected one.
            Facet::Auth => probe.then(|| {
                AuthMethod::KNOWN
                    .into_iter()
                    .map(AuthFilter::Method)
                    .chain([AuthFilter::NotProbed])
                    .map(FacetValue::Auth)
                    .chain(every_value.iter().filter(|v| v.facet() == facet).cloned())
                    .collect()
            }),
            Facet::Capability => {
                probe.then(|| CapabilityFilter::ALL.map(FacetValue::Capability).to_vec())
            }
            Facet::ProtocolVersion => matrix.map(|matrix| {
                matrix
                    .agents
                    .values()
                    .filter(|p| p.status == ProbeStatus::Succeeded)
                    .filter_map(|p| p.protocol_version.as_deref())
                    .filter_map(ProtocolVersionFilter::version)
                    .chain([ProtocolVersionFilter::NotProbed])
                    .map(FacetValue::ProtocolVersion)
                    .chain(every_value.iter().filter(|v| v.facet() == facet).cloned())
                    .collect()
            }),
            Facet::License | Facet::Tag(_) => Some(Vec::new()),
        };
        let Some(offered) = offered else { continue };
        let found_with_results = matches!(facet, Facet::License | Facet::Tag(_));
        let candidates: BTreeSet<FacetValue> = offered
            .iter()
            .cloned()
            .chain(
                every_value
                    .iter()
                    .filter(|v| found_with_results && v.facet() == facet)
                    .cloned(),
            )
            .chain(filters.of(facet).cloned())
            .collect();
        let mut options: Vec<(FacetValue, usize)> = candidates
            .into_iter()
            .map(|v| {
                let n = count(facet, &v);
                (v, n)
            })
            .filter(|(v, n)| *n > 0 || offered.contains(v) || filters.contains(v))
            .collect();
        if options.is_empty() {
            continue;
        }
        // Licences and tag values by count (the live group's `live` then `stale` first).
        if found_with_results {
            let rank = |v: &FacetValue| match (facet, v.as_str()) {
                (Facet::Tag(TagGroup::Live), "live") => 0,
                (Facet::Tag(TagGroup::Live), "stale") => 1,
                (Facet::Tag(TagGroup::Live), _) => 2,
                _ => 0,
            };
            options.sort_by(|(a, m), (b, n)| {
                (rank(a), n, a.as_str().to_lowercase(), a).cmp(&(
                    rank(b),
                    m,
                    b.as_str().to_lowercase(),
                    b,
                ))
            });
        }
        groups.push((facet, options));
    }
    groups
}
