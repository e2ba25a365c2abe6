//! What an event says to a person: its sentence, the group of kinds a page filters by, and a
//! stable id for its anchor and its feed entry.

use std::fmt::Write as _;

use super::{Change, Event};

/// The kinds of change a page filters by: a few groups of [`Change`]'s kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// `added`.
    Added,
    /// `removed`.
    Removed,
    /// `renamed`, `name-changed`.
    Renamed,
    /// `version-changed`.
    Versions,
    /// `distribution-*`, `platform-*`.
    Distribution,
    /// `license-changed`.
    Licence,
    /// `quarantined`, `released`.
    Quarantine,
    /// `listed`, `unlisted`.
    Listings,
    /// `preview-*`.
    Preview,
    /// Every probe change.
    Probe,
}

impl Group {
    /// Every group, in the order a page lists them.
    pub const ALL: [Group; 10] = [
        Group::Added,
        Group::Removed,
        Group::Renamed,
        Group::Versions,
        Group::Distribution,
        Group::Licence,
        Group::Quarantine,
        Group::Listings,
        Group::Preview,
        Group::Probe,
    ];

    /// The word in a page's address (`?kind=versions`).
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Added => "added",
            Group::Removed => "removed",
            Group::Renamed => "renamed",
            Group::Versions => "versions",
            Group::Distribution => "distribution",
            Group::Licence => "licence",
            Group::Quarantine => "quarantine",
            Group::Listings => "listings",
            Group::Preview => "preview",
            Group::Probe => "probe",
        }
    }

    /// What people read: "New agents".
    pub fn label(self) -> &'static str {
        match self {
            Group::Added => "New agents",
            Group::Removed => "Removed",
            Group::Renamed => "Renamed",
            Group::Versions => "New versions",
            Group::Distribution => "Distribution",
            Group::Licence => "Licence",
            Group::Quarantine => "Quarantine",
            Group::Listings => "Client listings",
            Group::Preview => "Preview channel",
            Group::Probe => "Protocol probe",
        }
    }

    /// The group an address names, if any.
    pub fn parse(word: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.as_str() == word.trim())
    }
}

impl Change {
    /// The group a page filters it by.
    pub fn group(&self) -> Group {
        match self {
            Change::Added { .. } => Group::Added,
            Change::Removed { .. } => Group::Removed,
            Change::Renamed { .. } | Change::NameChanged { .. } => Group::Renamed,
            Change::VersionChanged { .. } => Group::Versions,
            Change::DistributionAdded { .. }
            | Change::DistributionRemoved { .. }
            | Change::PlatformAdded { .. }
            | Change::PlatformRemoved { .. } => Group::Distribution,
            Change::LicenseChanged { .. } => Group::Licence,
            Change::Quarantined { .. } | Change::Released { .. } => Group::Quarantine,
            Change::Listed { .. } | Change::Unlisted { .. } => Group::Listings,
            Change::PreviewOpened { .. }
            | Change::PreviewChanged { .. }
            | Change::PreviewClosed { .. } => Group::Preview,
            Change::InitializeFailing { .. }
            | Change::InitializeSucceeding
            | Change::ProtocolVersionChanged { .. }
            | Change::AuthMethodAdded { .. }
            | Change::AuthMethodRemoved { .. }
            | Change::CapabilityAdded { .. }
            | Change::CapabilityRemoved { .. } => Group::Probe,
        }
    }

    /// What changed, after the agent's name: "0.24.4 → 0.24.5", "added to the registry".
    pub fn words(&self) -> String {
        match self {
            Change::Added { version, .. } => format!("added to the registry, version {version}"),
            Change::Removed { version, .. } => {
                format!("removed from the registry (last version {version})")
            }
            Change::Renamed { from } => format!("now listed under this id, formerly `{from}`"),
            Change::NameChanged { from, to } => format!("renamed from “{from}” to “{to}”"),
            Change::VersionChanged { from, to } => format!("{from} → {to}"),
            Change::DistributionAdded { method } => format!("can now be run with {method}"),
            Change::DistributionRemoved { method } => {
                format!("can no longer be run with {method}")
            }
            Change::PlatformAdded { platform } => format!("gained a build for {platform}"),
            Change::PlatformRemoved { platform } => format!("lost its build for {platform}"),
            Change::LicenseChanged { from, to } => format!(
                "licence changed from {} to {}",
                from.as_deref().unwrap_or("none"),
                to.as_deref().unwrap_or("none")
            ),
            Change::Quarantined { reason } if reason.trim().is_empty() => {
                "quarantined (no reason given)".to_owned()
            }
            Change::Quarantined { reason } => format!("quarantined: {reason}"),
            Change::Released { .. } => "released from quarantine".to_owned(),
            Change::Listed { view } => format!("listed for {}", view.label()),
            Change::Unlisted { view } => format!("no longer listed for {}", view.label()),
            Change::PreviewOpened { version } => format!("opened a preview channel: {version}"),
            Change::PreviewChanged { from, to } => format!("preview {from} → {to}"),
            Change::PreviewClosed { version } => {
                format!("closed its preview channel (was {version})")
            }
            Change::InitializeFailing { status } => {
                format!("the nightly probe could not start it ({status})")
            }
            Change::InitializeSucceeding => "the nightly probe starts it again".to_owned(),
            Change::ProtocolVersionChanged { from, to } => {
                format!("answers with protocol version {to} (was {from})")
            }
            Change::AuthMethodAdded { method } => format!("offers sign-in by {method}"),
            Change::AuthMethodRemoved { method } => {
                format!("no longer offers sign-in by {method}")
            }
            Change::CapabilityAdded { capability } => {
                format!("now supports “{}”", capability_words(capability))
            }
            Change::CapabilityRemoved { capability } => {
                format!("no longer supports “{}”", capability_words(capability))
            }
        }
    }
}

impl Event {
    /// The sentence of a feed entry's title or a timeline's line: "Gemini CLI: 0.24.4 →
    /// 0.24.5", with `name` the agent's name (its id when it has none).
    pub fn sentence(&self, name: &str) -> String {
        format!("{name}: {}", self.change.words())
    }

    /// An id that names this event and no other, the same in every build: the day, the agent,
    /// the kind and a hash of the details (`2026-01-16-opencode-version-changed-3f2a…`). Safe
    /// as an HTML id and in a URL.
    pub fn id(&self) -> String {
        let details = serde_json::to_string(&self.change).unwrap_or_default();
        let mut id = format!("{}-", self.day);
        for c in self.agent.chars() {
            id.push(if c.is_ascii_alphanumeric() { c } else { '-' });
        }
        let _ = write!(
            id,
            "-{}-{:016x}",
            self.change.kind(),
            fnv1a(details.as_bytes())
        );
        id
    }
}

/// A capability as pages name it ("Resume session"), or as the matrix writes it when this build
/// does not know it.
fn capability_words(name: &str) -> String {
    match crate::protocol::Capability::from_wire_name(name) {
        Some(capability) => capability.label().to_owned(),
        None => name.to_owned(),
    }
}

/// The 64-bit FNV-1a hash: stable across builds and platforms, unlike `std`'s hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::Day;

    fn event(agent: &str, change: Change) -> Event {
        Event {
            day: Day::parse("2026-01-16").unwrap(),
            snapshot: "2026-01-16".to_owned(),
            agent: agent.to_owned(),
            change,
        }
    }

    #[test]
    fn every_group_reads_back_from_its_word() {
        for group in Group::ALL {
            assert_eq!(Group::parse(group.as_str()), Some(group));
        }
        assert_eq!(Group::parse("nothing"), None);
    }

    #[test]
    fn a_version_change_reads_as_old_to_new() {
        let e = event(
            "opencode",
            Change::VersionChanged {
                from: "1.1.23".into(),
                to: "1.1.25".into(),
            },
        );
        assert_eq!(e.sentence("OpenCode"), "OpenCode: 1.1.23 → 1.1.25");
        assert_eq!(e.change.group(), Group::Versions);
        let resume = Change::CapabilityAdded {
            capability: "sessionResume".into(),
        };
        assert_eq!(resume.words(), "now supports “Resume session”");
        let unknown = Change::CapabilityRemoved {
            capability: "teleport".into(),
        };
        assert_eq!(unknown.words(), "no longer supports “teleport”");
    }

    #[test]
    fn ids_are_stable_and_tell_events_apart() {
        let a = event(
            "a/b",
            Change::VersionChanged {
                from: "1".into(),
                to: "2".into(),
            },
        );
        let b = event(
            "a/b",
            Change::VersionChanged {
                from: "2".into(),
                to: "3".into(),
            },
        );
        assert_eq!(a.id(), a.clone().id());
        assert_ne!(a.id(), b.id());
        assert!(
            a.id().starts_with("2026-01-16-a-b-version-changed-"),
            "{}",
            a.id()
        );
        assert!(
            a.id()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "{}",
            a.id()
        );
        // The hash is FNV-1a's: a known value, so it cannot drift between builds.
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
