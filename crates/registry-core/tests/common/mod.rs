//! Fixtures shared by the integration tests: the real registry and a builder for small
//! synthetic ones.

#![allow(dead_code)] // Each test crate uses its own part of this module.

use std::collections::{BTreeMap, BTreeSet};

use registry_core::{
    Arch, AuthFilter, AuthMethod, BinaryTarget, CapabilityFilter, Catalog, Distribution, Entry,
    EntryFacets, FacetCounts, Filters, Health, Kind, ListedFor, Loaded, Method, Os, PackageTarget,
    Pager, PlatformKey, ProtocolMatrix, Registry, TagGroup,
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

/// The counts, computed the slow and obvious way: for each value of an OR group, the hits that
/// pass every other group's filter and have the value; for each capability option, the hits
/// that would pass if it were ticked too; for each tag-group value, as for an OR group, among
/// every value some entry of the catalogue has or the filters select.
pub fn naive_counts(catalog: &Catalog, hits: &[usize], filters: &Filters) -> FacetCounts {
    let matrix = catalog.matrix.as_ref();
    let listings = &catalog.listings;
    let facets =
        |i: usize| EntryFacets::with_sources(&catalog.registry.entries[i], matrix, listings);
    let count = |without: fn(&mut Filters), has: &dyn Fn(&EntryFacets) -> bool| {
        let mut others = filters.clone();
        without(&mut others);
        hits.iter()
            .map(|&i| facets(i))
            .filter(|f| others.matches(f) && has(f))
            .count()
    };
    let mut licenses: Vec<(String, usize)> = catalog
        .facets
        .licenses()
        .map(str::to_owned)
        .chain(filters.licenses.iter().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|l| {
            let n = count(|f| f.licenses.clear(), &|f| f.license() == l);
            (l, n)
        })
        .filter(|(l, n)| *n > 0 || filters.licenses.contains(l))
        .collect();
    licenses.sort_by(|(a, m), (b, n)| n.cmp(m).then(a.to_lowercase().cmp(&b.to_lowercase())));
    FacetCounts {
        kinds: Kind::ALL
            .map(|k| (k, count(|f| f.kinds.clear(), &|f| f.has_kind(k))))
            .to_vec(),
        methods: Method::ALL
            .map(|m| (m, count(|f| f.methods.clear(), &|f| f.has_method(m))))
            .to_vec(),
        os: Os::ALL
            .map(|o| (o, count(|f| f.os.clear(), &|f| f.runs_on_os(o))))
            .to_vec(),
        arch: Arch::ALL
            .map(|a| (a, count(|f| f.arch.clear(), &|f| f.runs_on_arch(a))))
            .to_vec(),
        licenses,
        auth: match matrix {
            None => Vec::new(),
            // The real matrix names no other method, so the options are the known ones, any
            // other selected one, then `not-probed`.
            Some(_) => AuthMethod::KNOWN
                .into_iter()
                .map(AuthFilter::Method)
                .chain(filters.auth.iter().cloned())
                .chain([AuthFilter::NotProbed])
                .collect::<BTreeSet<_>>()
                .into_iter()
                .map(|a| {
                    let n = count(|f| f.auth.clear(), &|f| f.has_auth_option(&a));
                    (a, n)
                })
                .collect(),
        },
        capabilities: match matrix {
            None => Vec::new(),
            Some(_) => CapabilityFilter::ALL
                .map(|c| {
                    let mut ticked = filters.clone();
                    ticked.capabilities.insert(c);
                    let n = hits.iter().filter(|&&i| ticked.matches(&facets(i))).count();
                    (c, n)
                })
                .to_vec(),
        },
        tags: TagGroup::ALL
            .into_iter()
            .filter_map(|group| {
                let all: BTreeSet<String> = (0..catalog.registry.entries.len())
                    .flat_map(|i| facets(i).tags(group).map(str::to_owned).collect::<Vec<_>>())
                    .collect();
                let selected = filters.tags.get(&group).cloned().unwrap_or_default();
                let others = |f: &EntryFacets| {
                    let mut others = filters.clone();
                    others.tags.remove(&group);
                    others.matches(f)
                };
                let mut values: Vec<(String, usize)> = all
                    .union(&selected)
                    .map(|v| {
                        let n = hits
                            .iter()
                            .map(|&i| facets(i))
                            .filter(|f| others(f) && f.has_tag(group, v))
                            .count();
                        (v.clone(), n)
                    })
                    .filter(|(v, n)| *n > 0 || selected.contains(v))
                    .collect();
                if all.is_empty() && values.is_empty() {
                    return None;
                }
                let rank = |v: &str| match (group, v) {
                    (TagGroup::Live, "live") => 0,
                    (TagGroup::Live, "stale") => 1,
                    (TagGroup::Live, _) => 2,
                    _ => 0,
                };
                values.sort_by(|(a, m), (b, n)| {
                    (rank(a), n, a.to_lowercase(), a).cmp(&(rank(b), m, b.to_lowercase(), b))
                });
                Some((group, values))
            })
            .collect(),
        listed_for: ListedFor::ALL
            .into_iter()
            .filter(|v| {
                let loaded = match v {
                    ListedFor::Default => true,
                    ListedFor::JetBrains | ListedFor::JetBrainsBundled => {
                        listings.jetbrains.is_some()
                    }
                    ListedFor::JetBrainsPreview => listings.jetbrains_preview.is_some(),
                };
                let acp = catalog.registry.entries.iter().any(|e| e.is_acp());
                (acp && loaded) || filters.listed_for.contains(v)
            })
            .map(|v| (v, count(|f| f.listed_for.clear(), &|f| f.is_listed_for(v))))
            .collect(),
        health: Health::ALL
            .into_iter()
            .filter(|h| {
                let (quarantine, probe) = (listings.quarantine.is_some(), matrix.is_some());
                let loaded = match h {
                    Health::Quarantined => quarantine,
                    Health::ProbeFailed | Health::Healthy => probe,
                    Health::NotProbed => quarantine || probe,
                };
                let acp = catalog.registry.entries.iter().any(|e| e.is_acp());
                (acp && loaded) || filters.health.contains(h)
            })
            .map(|h| (h, count(|f| f.health.clear(), &|f| f.has_health(h))))
            .collect(),
    }
}
