//! What the log remembers of the last state of each stream: per agent, only what the next
//! comparison needs, so `changes.json` carries the log forward without the old snapshots.
//!
//! Compiled to wasm (the site), only what its pages show is read back (each agent's name, the
//! states' days): the rest serves carrying the log forward, which a build does natively, and
//! reading it would cost the site's download its code.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{ProbeState, Problem, RegistryState, Stamp, View, diff};
use crate::listing::{Listings, parse_quarantine, parse_view};
use crate::model::{Entry, Kind};
use crate::protocol::{ProbeResult, ProbeStatus, parse_matrix};

/// The last registry state, as remembered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct RegistrySeen {
    /// Its day and label.
    #[serde(flatten)]
    pub stamp: Stamp,
    /// Which optional lists the log has seen (in this state or an earlier one).
    #[cfg_attr(target_arch = "wasm32", serde(default, skip_deserializing))]
    pub known: Known,
    /// Per agent id.
    pub agents: BTreeMap<String, AgentSeen>,
}

/// Which optional lists the log has seen: until then, their values are unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Known {
    /// `registry-for-jetbrains.json`.
    pub jetbrains: bool,
    /// `registry-for-jetbrains-preview.json` (which also says what the preview channel serves).
    pub jetbrains_preview: bool,
    /// `quarantine.json`.
    pub quarantine: bool,
}

/// One agent of a registry state, as remembered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct AgentSeen {
    /// `name`.
    pub name: String,
    /// `version`.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    pub version: String,
    /// `repository`, as written.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// `license`, as written.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The distribution methods: `binary`, `npx`, `uvx`.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub distribution: BTreeSet<String>,
    /// The `distribution.binary` keys, as written.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub platforms: BTreeSet<String>,
    /// The client views listing it.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub listed_for: BTreeSet<View>,
    /// Its quarantine reason, as written.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quarantine: Option<String>,
    /// The version the preview channel serves instead of the stable one.
    #[cfg_attr(target_arch = "wasm32", serde(skip_deserializing))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
}

/// The last probe state, as remembered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct ProbesSeen {
    /// Its day and label.
    #[serde(flatten)]
    pub stamp: Stamp,
    /// Per agent id, its last probe (from an earlier matrix when this one does not list it).
    #[cfg_attr(target_arch = "wasm32", serde(default, skip_deserializing))]
    pub agents: BTreeMap<String, ProbeSeen>,
}

/// One agent's last probe, as remembered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProbeSeen {
    /// The matrix's status when the last probe failed; absent when it succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// What the last successful probe found, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_success: Option<ProbeFacts>,
}

/// What a successful probe found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProbeFacts {
    /// The protocol version `initialize` answered with, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// The auth methods advertised.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub auth_methods: BTreeSet<String>,
    /// Each capability ever reported, by the matrix's name, with its last reported value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capabilities: BTreeMap<String, bool>,
}

impl RegistrySeen {
    /// Reads a registry state; `previous` gives the values of the lists this state lacks. `None`
    /// when `registry.json` cannot be read at all (a problem says why).
    pub fn read(
        state: &RegistryState<'_>,
        previous: Option<&RegistrySeen>,
        problems: &mut Vec<Problem>,
    ) -> Option<RegistrySeen> {
        let label = &state.stamp.snapshot;
        let loaded = match crate::load(state.registry) {
            Ok(loaded) => loaded,
            Err(err) => {
                problems.push(Problem::skipped(
                    label,
                    format!("registry.json: {err}; this state was skipped"),
                ));
                return None;
            }
        };
        for diagnostic in &loaded.diagnostics {
            problems.push(Problem::inside(
                label,
                format!("registry.json: {diagnostic}"),
            ));
        }
        let listings = read_listings(state, problems);
        let entries: BTreeMap<&str, &Entry> = loaded
            .registry
            .entries
            .iter()
            .filter(|entry| entry.kind == Kind::Agent)
            .map(|entry| (entry.id.as_str(), entry))
            .collect();
        let before = |id: &str| previous.and_then(|p| p.agents.get(id));
        let earlier = previous.map(|p| p.known).unwrap_or_default();
        let mut seen = RegistrySeen {
            stamp: state.stamp.clone(),
            known: Known {
                jetbrains: earlier.jetbrains || listings.jetbrains.is_some(),
                jetbrains_preview: earlier.jetbrains_preview
                    || listings.jetbrains_preview.is_some(),
                quarantine: earlier.quarantine || listings.quarantine.is_some(),
            },
            agents: entries
                .iter()
                .map(|(id, entry)| (id.to_string(), AgentSeen::of(entry, &listings, before(id))))
                .collect(),
        };
        // A renamed agent keeps what its former id had in the lists this state lacks.
        if let Some(previous) = previous {
            for (new, old) in diff::renames(previous, &seen) {
                let agent = AgentSeen::of(entries[new.as_str()], &listings, before(&old));
                seen.agents.insert(new, agent);
            }
        }
        Some(seen)
    }
}

impl AgentSeen {
    /// An entry with what the lists say of it; a list not loaded keeps `before`'s value (or none).
    fn of(entry: &Entry, listings: &Listings, before: Option<&AgentSeen>) -> AgentSeen {
        let blank = AgentSeen::default();
        let before = before.unwrap_or(&blank);
        let listing = listings.listing(entry);
        let mut listed_for = BTreeSet::new();
        for (view, loaded) in [
            (View::JetBrains, &listings.jetbrains),
            (View::JetBrainsPreview, &listings.jetbrains_preview),
        ] {
            let listed = match loaded {
                Some(loaded) => loaded.agents.contains_key(&entry.id),
                None => before.listed_for.contains(&view),
            };
            if listed {
                listed_for.insert(view);
            }
        }
        AgentSeen {
            name: entry.name.clone(),
            version: entry.version.clone(),
            repository: entry.repository.clone(),
            license: entry.license.clone(),
            distribution: entry
                .distribution
                .methods()
                .into_iter()
                .map(|method| method.as_str().to_owned())
                .collect(),
            platforms: entry
                .distribution
                .binary
                .keys()
                .map(|k| k.0.clone())
                .collect(),
            listed_for,
            quarantine: match &listings.quarantine {
                Some(_) => listing.quarantine.map(|reason| reason.raw),
                None => before.quarantine.clone(),
            },
            preview: match &listings.jetbrains_preview {
                Some(_) => listing.preview.map(|preview| preview.version),
                None => before.preview.clone(),
            },
        }
    }
}

/// The optional lists of a state; one that cannot be read is a problem and left unknown.
fn read_listings(state: &RegistryState<'_>, problems: &mut Vec<Problem>) -> Listings {
    let label = &state.stamp.snapshot;
    let mut view = |text: Option<&str>, file: &str| {
        let (view, diagnostics) = match parse_view(text?) {
            Ok(read) => read,
            Err(err) => {
                problems.push(Problem::inside(
                    label,
                    format!("{file}: {err}; its listings are unknown in this state"),
                ));
                return None;
            }
        };
        for diagnostic in diagnostics {
            problems.push(Problem::inside(label, format!("{file}: {diagnostic}")));
        }
        Some(view)
    };
    let jetbrains = view(state.jetbrains, "registry-for-jetbrains.json");
    let jetbrains_preview = view(
        state.jetbrains_preview,
        "registry-for-jetbrains-preview.json",
    );
    let quarantine = state
        .quarantine
        .and_then(|text| match parse_quarantine(text) {
            Ok((quarantine, warnings)) => {
                for warning in warnings {
                    problems.push(Problem::inside(
                        label,
                        format!("quarantine.json: {warning}"),
                    ));
                }
                Some(quarantine)
            }
            Err(err) => {
                problems.push(Problem::inside(
                    label,
                    format!("quarantine.json: {err}; quarantines are unknown in this state"),
                ));
                None
            }
        });
    Listings {
        jetbrains,
        jetbrains_preview,
        quarantine,
    }
}

impl ProbesSeen {
    /// Reads a probe state; agents it does not list keep their probe in `previous`. `None` when
    /// the matrix cannot be read at all (a problem says why).
    pub fn read(
        state: &ProbeState<'_>,
        previous: Option<&ProbesSeen>,
        problems: &mut Vec<Problem>,
    ) -> Option<ProbesSeen> {
        let label = &state.stamp.snapshot;
        let (matrix, warnings) = match parse_matrix(state.matrix) {
            Ok(read) => read,
            Err(err) => {
                problems.push(Problem::skipped(
                    label,
                    format!("{err}; this state was skipped"),
                ));
                return None;
            }
        };
        for warning in warnings {
            problems.push(Problem::inside(
                label,
                format!("protocol matrix: {warning}"),
            ));
        }
        if let Some(day) = matrix.day().filter(|day| *day != state.stamp.day) {
            problems.push(Problem::inside(
                label,
                format!(
                    "the matrix says it is of {day}, but its state is dated {}; that day was used",
                    state.stamp.day
                ),
            ));
        }
        let mut agents = previous.map(|p| p.agents.clone()).unwrap_or_default();
        for (id, probe) in &matrix.agents {
            let before = agents.remove(id).unwrap_or_default();
            agents.insert(id.clone(), ProbeSeen::after(before, probe));
        }
        Some(ProbesSeen {
            stamp: state.stamp.clone(),
            agents,
        })
    }
}

impl ProbeSeen {
    /// An agent's probe, following `before`: a failed probe keeps the last successful one's
    /// facts; a successful one keeps the capabilities it does not report.
    fn after(before: ProbeSeen, probe: &ProbeResult) -> ProbeSeen {
        match &probe.status {
            ProbeStatus::Failed(status) => ProbeSeen {
                failed: Some(status.clone()),
                last_success: before.last_success,
            },
            ProbeStatus::Succeeded => {
                let mut capabilities = before
                    .last_success
                    .map(|facts| facts.capabilities)
                    .unwrap_or_default();
                let reported = probe
                    .capabilities
                    .iter()
                    .map(|(capability, yes)| (capability.wire_name().to_owned(), *yes))
                    .chain(probe.other_capabilities.clone());
                capabilities.extend(reported);
                ProbeSeen {
                    failed: None,
                    last_success: Some(ProbeFacts {
                        protocol_version: probe.protocol_version.clone(),
                        auth_methods: probe
                            .auth_methods
                            .iter()
                            .map(|method| method.as_str().to_owned())
                            .collect(),
                        capabilities,
                    }),
                }
            }
        }
    }
}
