//! The fast path: an entry as written, parsed straight into typed structs and normalised to the
//! published shape (the RFD's `<os>-<arch>` targets and `homepage` read with a warning), and
//! what is wrong with its id.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};

use super::diagnostic::{Problem, Problems};
use crate::id;
use crate::model::{BinaryTarget, Distribution, Entry, Kind, Origin, Platform, PlatformKey};

/// One entry as written: the published shape, plus what the RFD's manifest shape adds.
#[derive(Deserialize)]
pub(super) struct WireEntry {
    id: String,
    name: String,
    version: String,
    description: String,
    repository: Option<String>,
    website: Option<String>,
    /// The RFD's name for `website`.
    homepage: Option<String>,
    #[serde(default)]
    authors: Vec<String>,
    license: Option<String>,
    license_url: Option<String>,
    icon: Option<String>,
    distribution: WireDistribution,
}

impl WireEntry {
    /// The entry, normalised to the published shape; problems are added to `problems`.
    pub(super) fn into_entry(self, kind: Kind, raw: &str, problems: &mut Problems) -> Entry {
        problems.extend(id_problems(&self.id, kind));
        if self.name.trim().is_empty() {
            problems.push(Problem::error(
                "`name` is empty".to_owned(),
                Some("give the entry the name people know it by".to_owned()),
            ));
        }
        let website = match (self.website, self.homepage) {
            (Some(website), _) => Some(website),
            (None, Some(homepage)) => {
                problems.push(Problem::warning(
                    "`homepage` (the RFD's manifest field) was read as `website`".to_owned(),
                    "rename `homepage` to `website`".to_owned(),
                ));
                Some(homepage)
            }
            (None, None) => None,
        };
        let distribution = self.distribution.into_distribution(problems);
        Entry {
            kind,
            id: self.id,
            name: self.name,
            version: self.version,
            description: self.description,
            repository: self.repository,
            website,
            authors: self.authors,
            license: self.license,
            license_url: self.license_url,
            icon: self.icon,
            distribution,
            raw: raw.to_owned(),
            origin: Origin::Acp,
        }
    }
}

/// `distribution` as written: the published methods, RFD-style targets beside them, and keys
/// that are neither.
#[derive(Default)]
struct WireDistribution {
    published: Distribution,
    /// `<os>-<arch>` targets written directly under `distribution` (the RFD's shape).
    rfd_targets: BTreeMap<PlatformKey, BinaryTarget>,
    unknown_keys: Vec<String>,
}

impl WireDistribution {
    fn into_distribution(self, problems: &mut Problems) -> Distribution {
        let mut distribution = self.published;
        if !self.rfd_targets.is_empty() {
            let keys: Vec<&str> = self.rfd_targets.keys().map(|k| k.0.as_str()).collect();
            problems.push(Problem::warning(
                format!(
                    "platform targets ({}) are directly under `distribution` (the RFD's manifest \
                     shape); they were read as `distribution.binary`",
                    keys.join(", ")
                ),
                "move the <os>-<arch> targets into \"distribution\": {\"binary\": {...}}"
                    .to_owned(),
            ));
            for (key, target) in self.rfd_targets {
                distribution.binary.entry(key).or_insert(target);
            }
        }
        for key in &self.unknown_keys {
            problems.push(Problem::warning(
                format!("unknown distribution method `{key}` was ignored"),
                "the methods are binary, npx and uvx".to_owned(),
            ));
        }
        for key in distribution
            .binary
            .keys()
            .filter(|k| k.platform().is_none())
        {
            problems.push(Problem::warning(
                format!("`{key}` is not a platform the registry knows; no OS filter will find it"),
                format!("use one of {}", Platform::KEYS.join(", ")),
            ));
        }
        if distribution.binary.is_empty()
            && distribution.npx.is_none()
            && distribution.uvx.is_none()
        {
            problems.push(Problem::error(
                "`distribution` offers no way to run it".to_owned(),
                Some(
                    "add at least one of \"binary\", \"npx\" or \"uvx\" under \"distribution\""
                        .to_owned(),
                ),
            ));
        }
        distribution
    }
}

impl<'de> Deserialize<'de> for WireDistribution {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(WireDistributionVisitor)
    }
}

struct WireDistributionVisitor;

impl<'de> Visitor<'de> for WireDistributionVisitor {
    type Value = WireDistribution;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a distribution object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WireDistribution, A::Error> {
        let mut out = WireDistribution::default();
        let (mut seen_binary, mut seen_npx, mut seen_uvx) = (false, false, false);
        while let Some(key) = map.next_key::<DistributionKey>()? {
            match key {
                DistributionKey::Binary => {
                    once(&mut seen_binary, "binary")?;
                    out.published.binary = map.next_value()?;
                }
                DistributionKey::Npx => {
                    once(&mut seen_npx, "npx")?;
                    out.published.npx = map.next_value()?;
                }
                DistributionKey::Uvx => {
                    once(&mut seen_uvx, "uvx")?;
                    out.published.uvx = map.next_value()?;
                }
                DistributionKey::Target(key) => {
                    let target = map.next_value()?;
                    out.rfd_targets.insert(PlatformKey(key), target);
                }
                DistributionKey::Unknown(key) => {
                    map.next_value::<IgnoredAny>()?;
                    out.unknown_keys.push(key);
                }
            }
        }
        Ok(out)
    }
}

/// Fails the second time a key is seen, as serde's derive does.
fn once<E: de::Error>(seen: &mut bool, key: &'static str) -> Result<(), E> {
    if std::mem::replace(seen, true) {
        Err(E::duplicate_field(key))
    } else {
        Ok(())
    }
}

/// A key of `distribution`, classified without allocating for the usual ones.
pub(super) enum DistributionKey {
    Binary,
    Npx,
    Uvx,
    /// Looks like `<os>-<arch>`: an RFD-style target.
    Target(String),
    Unknown(String),
}

impl DistributionKey {
    pub(super) fn classify(key: &str) -> DistributionKey {
        match key {
            "binary" => DistributionKey::Binary,
            "npx" => DistributionKey::Npx,
            "uvx" => DistributionKey::Uvx,
            _ if Platform::looks_like(key) => DistributionKey::Target(key.to_owned()),
            _ => DistributionKey::Unknown(key.to_owned()),
        }
    }
}

impl<'de> Deserialize<'de> for DistributionKey {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = DistributionKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a distribution method")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<DistributionKey, E> {
                Ok(DistributionKey::classify(key))
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// What is wrong with an entry's id: an error when it cannot be shown at all (empty, or `.` or
/// `..`, which no page address can carry), a warning when it is not a slug or too long to name
/// a file (the entry loads, but gets an encoded page address, no "edit" link, no pre-rendered
/// page or no install folder).
pub(crate) fn id_problems(raw_id: &str, kind: Kind) -> Option<Problem> {
    let segment = kind.path_segment();
    if raw_id.trim().is_empty() {
        Some(Problem::error(
            "`id` is empty".to_owned(),
            Some("give the entry a lowercase slug id, e.g. \"my-agent\"".to_owned()),
        ))
    } else if id::path_segment(raw_id).is_none() {
        Some(Problem::error(
            format!("id `{raw_id}` cannot be a page address: /{segment}/{raw_id} is another page"),
            Some(format!(
                "give the entry a lowercase slug id, e.g. \"{}\"",
                id::slugify(raw_id)
            )),
        ))
    } else if !id::is_slug(raw_id) {
        Some(Problem::warning(
            format!(
                "id `{raw_id}` is not a lowercase slug (a letter, then letters, digits and -): \
                 its page address is encoded and it has no manifest in the registry repository"
            ),
            format!("use a slug such as \"{}\"", id::slugify(raw_id)),
        ))
    } else if !id::is_file_name(raw_id) {
        Some(Problem::warning(
            format!(
                "id `{}…` is {} bytes long, over the {} a file name may take: it gets no \
                 pre-rendered page and no install folder",
                &raw_id[..24],
                raw_id.len(),
                id::MAX_LEN
            ),
            format!("use a shorter slug such as \"{}\"", id::slugify(raw_id)),
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platform_lookalikes() {
        let table = [
            ("darwin-aarch64", true),
            ("windows-x86_64", true),
            ("linux-arm64", true),
            ("macos-aarch64", true),
            ("docker-image", false),
            ("binary", false),
            ("linux", false),
        ];
        for (key, expect) in table {
            assert_eq!(Platform::looks_like(key), expect, "{key}");
        }
    }
}
