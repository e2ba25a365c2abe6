//! The registry's change log: dated states of the registry and of the protocol probe turned into
//! a list of events (an agent added, a version changed, a capability gained…), which a build
//! writes as `changes.json`.
//!
//! Two streams of dated states are read, each compared only with the previous state of its own
//! stream:
//!
//! - [`RegistryState`]: `registry.json`, and when given the JetBrains views
//!   (`registry-for-jetbrains.json`, `registry-for-jetbrains-preview.json`) and `quarantine.json`,
//!   read with [`crate::load()`], [`parse_view`](crate::listing::parse_view) and
//!   [`parse_quarantine`](crate::listing::parse_quarantine);
//! - [`ProbeState`]: a protocol matrix, read with [`parse_matrix`](crate::protocol::parse_matrix).
//!
//! A [`ChangeLog`] starts at its first registry state (which gives no events, only
//! `startedFrom`) and is carried forward one state at a time: it remembers, in compact form, what
//! the next comparison needs of the last state of each stream, so a build given only the previous
//! `changes.json` can add today's states without the old snapshots. [`History`] sorts the files of
//! a history folder into states.
//!
//! ```json
//! {"changesFormat": 1,
//!  "startedFrom": {"day": "2025-12-19", "snapshot": "2025-12-19"},
//!  "probesStartedFrom": {"day": "2026-03-06", "snapshot": "2026-03-06"},
//!  "truncated": 0,
//!  "events": [
//!   {"day": "2025-12-25", "snapshot": "2025-12-25", "agent": "codex-acp", "kind": "renamed",
//!    "from": "codex"},
//!   {"day": "2026-01-16", "snapshot": "2026-01-16", "agent": "opencode",
//!    "kind": "version-changed", "from": "1.1.23", "to": "1.1.25"},
//!   {"day": "2026-08-13", "snapshot": "2026-08-13", "agent": "amp-acp",
//!    "kind": "initialize-failing", "status": "process_error"}],
//!  "lastRegistry": {"day": "2026-02-07", "snapshot": "2026-02-07",
//!   "known": {"jetbrains": true, "jetbrainsPreview": false, "quarantine": false},
//!   "agents": {"opencode": {"name": "OpenCode", "version": "1.1.53",
//!    "repository": "https://github.com/sst/opencode", "license": "MIT",
//!    "distribution": ["binary"], "platforms": ["darwin-aarch64", "linux-x86_64"],
//!    "listedFor": ["jetbrains"]}}},
//!  "lastProbe": {"day": "2026-08-20", "snapshot": "2026-08-20",
//!   "agents": {"amp-acp": {"lastSuccess": {"protocolVersion": "1", "authMethods": ["terminal"],
//!    "capabilities": {"loadSession": false, "sessionList": false}}}}}}
//! ```
//!
//! (shortened: a log keeps every agent's full record, and the real history gives 146 events).
//!
//! Each event has its `day`, the `snapshot` label of the state it came from, the `agent` id and
//! a `kind` with its details ([`Change`] lists them with their JSON names). `to_json` writes that
//! compactly (on one line).
//!
//! **Bound.** A log keeps the newest [`MAX_EVENTS`] events and counts the ones it dropped in
//! `truncated`.
//!
//! Decisions, each with its reason:
//!
//! - Events are kept sorted by day, then stream (registry first), agent id, kind (in the order of
//!   [`Change`]'s variants) and details: the log is the same whatever order the two streams are
//!   added in, and the bound (the newest N of that order) too.
//! - A state that cannot be read, or is dated before the last state of its stream (or is that
//!   state again: the same day and label), is a [`Problem`] and skipped: a bad or repeated
//!   snapshot must not stop a build or cost the log its events. Another snapshot of the same day
//!   comes after it: a registry built hourly publishes several a day. A bad entry inside a state is a problem too, and the others still count.
//! - An id leaving while another arrives with the same repository (compared without case, a
//!   trailing `/` or `.git`) in the same step is a rename, when that repository names one leaving
//!   and one arriving id only: moving a manifest to a new folder is not a new agent.
//! - A list seen for the first time (the JetBrains view published on some day, `quarantine.json`
//!   configured later) gives no events: the log cannot tell a change from something it was not
//!   shown before. A list missing from a later state leaves every agent as last seen (an agent
//!   added meanwhile counts as not listed, not quarantined) rather than "dropped".
//! - The preview channel is read from the JetBrains preview view ([`Listing::preview`]): the
//!   published `registry.json` carries no `preview` blocks, the CI moves them into that view.
//! - An agent's first probe, and a capability first reported, give no events: knowledge starts
//!   there. A failed probe means unknown, not unsupported: it gives `initialize-failing` and no
//!   losses, and the next successful probe is compared with the last successful one. An agent
//!   missing from a matrix was not probed: it keeps its last probe.
//! - A capability is compared with its last reported value (`true` → `false` is a loss, `false`
//!   → `true` a gain); one a probe does not report is unknown and keeps that value.
//! - Extensions are not tracked: the registry publishes none, and events name agents.
//! - Details are the words the files write (`npx`, `darwin-aarch64`, `loadSession`, `env_var`),
//!   not this crate's enums: the readers keep names they do not know (a platform key
//!   `linux-riscv64`, an auth method `oauth`), and the log records them as given.
//!
//! # Layout
//!
//! - `mod.rs`: the events, the states read and the problems;
//! - `seen.rs`: what the log remembers of the last state of each stream, and reading a state
//!   into it;
//! - `diff.rs`: comparing two remembered states;
//! - `log.rs`: [`ChangeLog`], carrying the log forward, its JSON and its questions;
//! - `history.rs`: [`History`], a history folder's files sorted into states;
//! - `words.rs`: what an event says to a person, its [`Group`] and its stable id.
//!
//! [`Listing::preview`]: crate::listing::Listing::preview

mod diff;
mod history;
mod log;
mod seen;
mod words;

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::edition::{Day, Snapshot};

pub use history::History;
pub use log::{ChangeLog, ChangesError};
pub use words::Group;

/// The `changesFormat` this module writes and reads.
pub const CHANGES_FORMAT: u32 = 1;

/// The most events a log keeps (the newest): about half a megabyte of JSON, years of a registry
/// of a hundred agents updating weekly.
pub const MAX_EVENTS: usize = 5_000;

/// The day and label of a state: `2026-08-20`, or a snapshot name such as
/// `v2026.08.20-1a2b3c4`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Stamp {
    /// The day of the state.
    pub day: Day,
    /// Its label, as given.
    pub snapshot: String,
}

impl Stamp {
    /// A state labelled by its day.
    pub fn of_day(day: Day) -> Stamp {
        Stamp {
            day,
            snapshot: day.to_string(),
        }
    }

    /// A label read as a day (`2026-08-20`) or a snapshot name (`v2026.08.20-1a2b3c4`, dated by
    /// its name); `None` for anything else.
    pub fn parse(label: &str) -> Option<Stamp> {
        let label = label.trim();
        let day = match Snapshot::parse(label) {
            Some(snapshot) => snapshot.day,
            None => Day::parse(label).filter(|_| label.len() == 10)?,
        };
        Some(Stamp {
            day,
            snapshot: label.to_owned(),
        })
    }
}

impl Stamp {
    /// Whether a state of this stamp comes after one of `last`: a later day, or another snapshot
    /// of the same day (a registry built hourly publishes several a day); the same label again
    /// is that state.
    pub fn follows(&self, last: &Stamp) -> bool {
        self.day > last.day || (self.day == last.day && self.snapshot != last.snapshot)
    }
}

impl fmt::Display for Stamp {
    /// The label, with the day when the label is not it: `v2026.08.20-1a2b3c4 (2026-08-20)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.snapshot == self.day.to_string() {
            f.write_str(&self.snapshot)
        } else {
            write!(f, "{} ({})", self.snapshot, self.day)
        }
    }
}

/// One dated state of the registry: the texts as published. Only `registry` is required; a list
/// that is `None` is unknown for that state (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegistryState<'a> {
    /// Its day and label.
    pub stamp: Stamp,
    /// `registry.json`.
    pub registry: &'a str,
    /// `registry-for-jetbrains.json`.
    pub jetbrains: Option<&'a str>,
    /// `registry-for-jetbrains-preview.json`.
    pub jetbrains_preview: Option<&'a str>,
    /// `quarantine.json`.
    pub quarantine: Option<&'a str>,
}

impl<'a> RegistryState<'a> {
    /// A state of `registry.json` alone.
    pub fn new(stamp: Stamp, registry: &'a str) -> RegistryState<'a> {
        RegistryState {
            stamp,
            registry,
            jetbrains: None,
            jetbrains_preview: None,
            quarantine: None,
        }
    }
}

/// One dated protocol matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeState<'a> {
    /// Its day and label.
    pub stamp: Stamp,
    /// The matrix text.
    pub matrix: &'a str,
}

/// Which stream an event comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stream {
    /// The registry's states.
    Registry,
    /// The protocol probe's states.
    Probe,
}

/// A client's view of the registry, besides `registry.json` itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum View {
    /// `registry-for-jetbrains.json`.
    #[serde(rename = "jetbrains")]
    JetBrains,
    /// `registry-for-jetbrains-preview.json`.
    #[serde(rename = "jetbrains-preview")]
    JetBrainsPreview,
}

impl View {
    /// The JSON word: `jetbrains`, `jetbrains-preview`.
    pub fn as_str(self) -> &'static str {
        match self {
            View::JetBrains => "jetbrains",
            View::JetBrainsPreview => "jetbrains-preview",
        }
    }

    /// What people read: `JetBrains IDEs`, `JetBrains preview channel`.
    pub fn label(self) -> &'static str {
        match self {
            View::JetBrains => "JetBrains IDEs",
            View::JetBrainsPreview => "JetBrains preview channel",
        }
    }
}

/// One change to one agent, found between two states of a stream.
///
/// Read from JSON through a flat record of every detail ([`WireEvent`]): serde's code for an
/// internally tagged enum beside flattened fields is large, and the site's wasm reads events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WireEvent")]
pub struct Event {
    /// The day of the state it was found in.
    pub day: Day,
    /// That state's label.
    pub snapshot: String,
    /// The agent's id (its new id, for a rename).
    pub agent: String,
    /// What changed (in JSON, `kind` and the details beside the fields above).
    #[serde(flatten)]
    pub change: Change,
}

/// An [`Event`] as written, every detail optional: what [`Event`] is read through.
#[derive(Deserialize)]
struct WireEvent {
    day: Day,
    snapshot: String,
    agent: String,
    kind: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    platform: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    view: Option<View>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    capability: Option<String>,
}

impl TryFrom<WireEvent> for Event {
    type Error = String;

    fn try_from(wire: WireEvent) -> Result<Event, String> {
        let kind = wire.kind.as_str();
        let need = |field: Option<String>, name: &str| {
            field.ok_or_else(|| format!("a `{kind}` event of `{}` has no `{name}`", wire.agent))
        };
        let change = match kind {
            "added" => Change::Added {
                name: need(wire.name, "name")?,
                version: need(wire.version, "version")?,
            },
            "removed" => Change::Removed {
                name: need(wire.name, "name")?,
                version: need(wire.version, "version")?,
            },
            "renamed" => Change::Renamed {
                from: need(wire.from, "from")?,
            },
            "name-changed" => Change::NameChanged {
                from: need(wire.from, "from")?,
                to: need(wire.to, "to")?,
            },
            "version-changed" => Change::VersionChanged {
                from: need(wire.from, "from")?,
                to: need(wire.to, "to")?,
            },
            "distribution-added" => Change::DistributionAdded {
                method: need(wire.method, "method")?,
            },
            "distribution-removed" => Change::DistributionRemoved {
                method: need(wire.method, "method")?,
            },
            "platform-added" => Change::PlatformAdded {
                platform: need(wire.platform, "platform")?,
            },
            "platform-removed" => Change::PlatformRemoved {
                platform: need(wire.platform, "platform")?,
            },
            // `null` (or nothing) when there was no licence.
            "license-changed" => Change::LicenseChanged {
                from: wire.from,
                to: wire.to,
            },
            "quarantined" => Change::Quarantined {
                reason: need(wire.reason, "reason")?,
            },
            "released" => Change::Released {
                reason: need(wire.reason, "reason")?,
            },
            "listed" | "unlisted" => {
                let view = wire
                    .view
                    .ok_or_else(|| format!("a `{kind}` event of `{}` has no `view`", wire.agent))?;
                if kind == "listed" {
                    Change::Listed { view }
                } else {
                    Change::Unlisted { view }
                }
            }
            "preview-opened" => Change::PreviewOpened {
                version: need(wire.version, "version")?,
            },
            "preview-changed" => Change::PreviewChanged {
                from: need(wire.from, "from")?,
                to: need(wire.to, "to")?,
            },
            "preview-closed" => Change::PreviewClosed {
                version: need(wire.version, "version")?,
            },
            "initialize-failing" => Change::InitializeFailing {
                status: need(wire.status, "status")?,
            },
            "initialize-succeeding" => Change::InitializeSucceeding,
            "protocol-version-changed" => Change::ProtocolVersionChanged {
                from: need(wire.from, "from")?,
                to: need(wire.to, "to")?,
            },
            "auth-method-added" => Change::AuthMethodAdded {
                method: need(wire.method, "method")?,
            },
            "auth-method-removed" => Change::AuthMethodRemoved {
                method: need(wire.method, "method")?,
            },
            "capability-added" => Change::CapabilityAdded {
                capability: need(wire.capability, "capability")?,
            },
            "capability-removed" => Change::CapabilityRemoved {
                capability: need(wire.capability, "capability")?,
            },
            other => {
                return Err(format!(
                    "an event of `{}` has the kind `{other}`, which this build does not know",
                    wire.agent
                ));
            }
        };
        Ok(Event {
            day: wire.day,
            snapshot: wire.snapshot,
            agent: wire.agent,
            change,
        })
    }
}

impl Event {
    /// The stream it comes from.
    pub fn stream(&self) -> Stream {
        self.change.stream()
    }
}

impl Ord for Event {
    /// By day, stream, agent id, kind and details, then label: the log's order.
    fn cmp(&self, other: &Event) -> Ordering {
        fn key(e: &Event) -> (Day, Stream, &str, &Change, &str) {
            (e.day, e.stream(), &e.agent, &e.change, &e.snapshot)
        }
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Event) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// What changed, with its JSON `kind` (each variant's doc starts with it). Registry changes come
/// first, then probe changes; that is also the order of kinds within a day.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Change {
    /// `added`: the agent appeared in `registry.json`.
    Added {
        /// Its name.
        name: String,
        /// Its version.
        version: String,
    },
    /// `removed`: the agent left `registry.json`.
    Removed {
        /// Its last name.
        name: String,
        /// Its last version.
        version: String,
    },
    /// `renamed`: the agent arrived under this id as `from` left, with the same repository.
    Renamed {
        /// Its former id.
        from: String,
    },
    /// `name-changed`: its display name changed.
    NameChanged {
        /// The former name.
        from: String,
        /// The new name.
        to: String,
    },
    /// `version-changed`: a new release (or any other version text).
    VersionChanged {
        /// The former version.
        from: String,
        /// The new version.
        to: String,
    },
    /// `distribution-added`: a way to run it appeared (`binary`, `npx`, `uvx`).
    DistributionAdded {
        /// The method's word.
        method: String,
    },
    /// `distribution-removed`: a way to run it went.
    DistributionRemoved {
        /// The method's word.
        method: String,
    },
    /// `platform-added`: a binary target appeared, by its key (`darwin-aarch64`).
    PlatformAdded {
        /// The `distribution.binary` key, as written.
        platform: String,
    },
    /// `platform-removed`: a binary target went.
    PlatformRemoved {
        /// The `distribution.binary` key, as written.
        platform: String,
    },
    /// `license-changed`: its `license` changed (`null` when absent).
    LicenseChanged {
        /// The former licence, as written.
        from: Option<String>,
        /// The new licence, as written.
        to: Option<String>,
    },
    /// `quarantined`: `quarantine.json` lists it (again, when its reason changed).
    Quarantined {
        /// The reason, as written.
        reason: String,
    },
    /// `released`: `quarantine.json` no longer lists it.
    Released {
        /// The reason it had, as written.
        reason: String,
    },
    /// `listed`: a client's view lists it.
    Listed {
        /// Which view.
        view: View,
    },
    /// `unlisted`: a client's view no longer lists it.
    Unlisted {
        /// Which view.
        view: View,
    },
    /// `preview-opened`: the preview channel serves a version other than the stable one.
    PreviewOpened {
        /// The preview version.
        version: String,
    },
    /// `preview-changed`: the preview channel serves another preview version.
    PreviewChanged {
        /// The former preview version.
        from: String,
        /// The new preview version.
        to: String,
    },
    /// `preview-closed`: the preview channel serves the stable version again (or nothing).
    PreviewClosed {
        /// The last preview version.
        version: String,
    },
    /// `initialize-failing`: the probe could not start it, after a probe that could; nothing is
    /// known of it until a probe succeeds again.
    InitializeFailing {
        /// The matrix's status (`process_error`, …).
        status: String,
    },
    /// `initialize-succeeding`: the probe started it, after one that could not.
    InitializeSucceeding,
    /// `protocol-version-changed`: it answers `initialize` with another protocol version.
    ProtocolVersionChanged {
        /// The former version, as written.
        from: String,
        /// The new version, as written.
        to: String,
    },
    /// `auth-method-added`: it advertises a new way to sign in (`agent`, `terminal`, `env_var`).
    AuthMethodAdded {
        /// The method, as written.
        method: String,
    },
    /// `auth-method-removed`: it no longer advertises a way to sign in.
    AuthMethodRemoved {
        /// The method, as written.
        method: String,
    },
    /// `capability-added`: a capability reported `false` is now `true`.
    CapabilityAdded {
        /// The matrix's name (`loadSession`).
        capability: String,
    },
    /// `capability-removed`: a capability reported `true` is now `false`.
    CapabilityRemoved {
        /// The matrix's name (`loadSession`).
        capability: String,
    },
}

impl Change {
    /// Every `kind` word, in the order of the variants.
    pub const KINDS: [&'static str; 24] = [
        "added",
        "removed",
        "renamed",
        "name-changed",
        "version-changed",
        "distribution-added",
        "distribution-removed",
        "platform-added",
        "platform-removed",
        "license-changed",
        "quarantined",
        "released",
        "listed",
        "unlisted",
        "preview-opened",
        "preview-changed",
        "preview-closed",
        "initialize-failing",
        "initialize-succeeding",
        "protocol-version-changed",
        "auth-method-added",
        "auth-method-removed",
        "capability-added",
        "capability-removed",
    ];

    /// The JSON `kind` word: `version-changed`, ….
    pub fn kind(&self) -> &'static str {
        Change::KINDS[self.index()]
    }

    /// The stream it comes from: the probe's for its group's changes, else the registry's.
    pub fn stream(&self) -> Stream {
        if self.group() == Group::Probe {
            Stream::Probe
        } else {
            Stream::Registry
        }
    }

    /// Its variant's place in [`Change::KINDS`].
    fn index(&self) -> usize {
        match self {
            Change::Added { .. } => 0,
            Change::Removed { .. } => 1,
            Change::Renamed { .. } => 2,
            Change::NameChanged { .. } => 3,
            Change::VersionChanged { .. } => 4,
            Change::DistributionAdded { .. } => 5,
            Change::DistributionRemoved { .. } => 6,
            Change::PlatformAdded { .. } => 7,
            Change::PlatformRemoved { .. } => 8,
            Change::LicenseChanged { .. } => 9,
            Change::Quarantined { .. } => 10,
            Change::Released { .. } => 11,
            Change::Listed { .. } => 12,
            Change::Unlisted { .. } => 13,
            Change::PreviewOpened { .. } => 14,
            Change::PreviewChanged { .. } => 15,
            Change::PreviewClosed { .. } => 16,
            Change::InitializeFailing { .. } => 17,
            Change::InitializeSucceeding => 18,
            Change::ProtocolVersionChanged { .. } => 19,
            Change::AuthMethodAdded { .. } => 20,
            Change::AuthMethodRemoved { .. } => 21,
            Change::CapabilityAdded { .. } => 22,
            Change::CapabilityRemoved { .. } => 23,
        }
    }
}

/// A state that was skipped, or something wrong inside one that was read anyway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The state's label (or, for a history folder, the file's name).
    pub snapshot: String,
    /// What is wrong, and what was done about it.
    pub message: String,
    /// Whether the whole state was skipped (otherwise only what the message names was).
    pub skipped: bool,
}

impl Problem {
    /// A problem that skipped the whole state.
    fn skipped(snapshot: &str, message: String) -> Problem {
        Problem {
            snapshot: snapshot.to_owned(),
            message,
            skipped: true,
        }
    }

    /// A problem inside a state that was read anyway.
    fn inside(snapshot: &str, message: String) -> Problem {
        Problem {
            snapshot: snapshot.to_owned(),
            message,
            skipped: false,
        }
    }
}

impl fmt::Display for Problem {
    /// `2026-01-29: <message>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.snapshot, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One change of each kind, in the order of the variants.
    fn one_of_each() -> Vec<Change> {
        let text = || "x".to_owned();
        vec![
            Change::Added {
                name: text(),
                version: text(),
            },
            Change::Removed {
                name: text(),
                version: text(),
            },
            Change::Renamed { from: text() },
            Change::NameChanged {
                from: text(),
                to: text(),
            },
            Change::VersionChanged {
                from: text(),
                to: text(),
            },
            Change::DistributionAdded { method: text() },
            Change::DistributionRemoved { method: text() },
            Change::PlatformAdded { platform: text() },
            Change::PlatformRemoved { platform: text() },
            Change::LicenseChanged {
                from: None,
                to: Some(text()),
            },
            Change::Quarantined { reason: text() },
            Change::Released { reason: text() },
            Change::Listed {
                view: View::JetBrains,
            },
            Change::Unlisted {
                view: View::JetBrainsPreview,
            },
            Change::PreviewOpened { version: text() },
            Change::PreviewChanged {
                from: text(),
                to: text(),
            },
            Change::PreviewClosed { version: text() },
            Change::InitializeFailing { status: text() },
            Change::InitializeSucceeding,
            Change::ProtocolVersionChanged {
                from: text(),
                to: text(),
            },
            Change::AuthMethodAdded { method: text() },
            Change::AuthMethodRemoved { method: text() },
            Change::CapabilityAdded { capability: text() },
            Change::CapabilityRemoved { capability: text() },
        ]
    }

    #[test]
    fn kind_words_are_the_json_tags_in_variant_order() {
        let changes = one_of_each();
        assert_eq!(changes.len(), Change::KINDS.len());
        for (change, word) in changes.iter().zip(Change::KINDS) {
            let json = serde_json::to_value(change).expect("JSON");
            assert_eq!(json["kind"], word);
            assert_eq!(change.kind(), word);
            let back: Change = serde_json::from_value(json).expect("reads back");
            assert_eq!(&back, change);
        }
        assert!(changes.is_sorted(), "derived order is variant order");
        let streams: Vec<Stream> = changes.iter().map(Change::stream).collect();
        assert!(streams.is_sorted(), "registry kinds, then probe kinds");
        assert_eq!(streams.iter().filter(|s| **s == Stream::Probe).count(), 7);
    }

    #[test]
    fn stamps_are_days_or_snapshot_names() {
        let stamp = Stamp::parse("v2026.08.20-1a2b3c4").expect("a snapshot");
        assert_eq!(stamp.to_string(), "v2026.08.20-1a2b3c4 (2026-08-20)");
        assert_eq!(
            Stamp::parse(" 2026-08-20 ")
                .map(|s| s.to_string())
                .as_deref(),
            Some("2026-08-20")
        );
        for bad in ["latest", "2026-08-20T05:00:00Z", "2026-02-30", ""] {
            assert_eq!(Stamp::parse(bad), None, "{bad}");
        }
        let day = Day::parse("2026-08-20").expect("a day");
        assert_eq!(
            Stamp::of_day(day),
            Stamp::parse("2026-08-20").expect("a day")
        );
    }
}
