//! Fixtures shared by the integration tests: the real registry and a builder for small
//! synthetic ones.

#![allow(dead_code)] // Each test crate uses its own part of this module.

use std::collections::BTreeMap;

use registry_core::{
    BinaryTarget, Distribution, Entry, Kind, PackageTarget, PlatformKey, ProtocolMatrix, Registry,
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

/// The registry's protocol matrix of 2026-08-20, which reads without warnings.
pub fn real_matrix() -> ProtocolMatrix {
    let (matrix, warnings) = registry_core::parse_matrix(REAL_MATRIX).expect("the fixture is JSON");
    assert_eq!(warnings, Vec::<String>::new());
    matrix
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
