//! Comparing two remembered states of a stream: the changes, per agent id, in no particular order
//! (the log sorts them).

use std::collections::{BTreeMap, BTreeSet};

use super::Change;
use super::seen::{AgentSeen, Known, ProbeFacts, ProbesSeen, RegistrySeen};

/// What changed from one registry state to the next, as (agent id, change).
pub(super) fn registry_changes(
    before: &RegistrySeen,
    after: &RegistrySeen,
) -> Vec<(String, Change)> {
    let renames = renames(before, after);
    let known = before.known;
    let mut changes = Vec::new();
    for (id, agent) in &before.agents {
        let renamed = renames.values().any(|from| from == id);
        if !after.agents.contains_key(id) && !renamed {
            changes.push((
                id.clone(),
                Change::Removed {
                    name: agent.name.clone(),
                    version: agent.version.clone(),
                },
            ));
        }
    }
    for (id, agent) in &after.agents {
        let mut out = Vec::new();
        match (before.agents.get(id), renames.get(id)) {
            (Some(old), _) => agent_changes(old, agent, known, &mut out),
            (None, Some(from)) => {
                out.push(Change::Renamed { from: from.clone() });
                agent_changes(&before.agents[from], agent, known, &mut out);
            }
            (None, None) => {
                out.push(Change::Added {
                    name: agent.name.clone(),
                    version: agent.version.clone(),
                });
                list_changes(&AgentSeen::default(), agent, known, &mut out);
            }
        }
        changes.extend(out.into_iter().map(|change| (id.clone(), change)));
    }
    changes
}

/// What changed from one probe state to the next, as (agent id, change). An agent probed for
/// the first time gives none.
pub(super) fn probe_changes(before: &ProbesSeen, after: &ProbesSeen) -> Vec<(String, Change)> {
    let mut changes = Vec::new();
    for (id, probe) in &after.agents {
        let Some(old) = before.agents.get(id) else {
            continue;
        };
        let mut out = Vec::new();
        match (&old.failed, &probe.failed) {
            (None, Some(status)) => out.push(Change::InitializeFailing {
                status: status.clone(),
            }),
            (Some(_), None) => out.push(Change::InitializeSucceeding),
            _ => {}
        }
        if probe.failed.is_none()
            && let (Some(old), Some(new)) = (&old.last_success, &probe.last_success)
        {
            fact_changes(old, new, &mut out);
        }
        changes.extend(out.into_iter().map(|change| (id.clone(), change)));
    }
    changes
}

/// New id → former id, for the ids that left and arrived between two states: for each
/// repository, when exactly one id with it left and exactly one arrived.
pub(super) fn renames(before: &RegistrySeen, after: &RegistrySeen) -> BTreeMap<String, String> {
    fn by_repository<'a>(
        from: &'a RegistrySeen,
        other: &RegistrySeen,
    ) -> BTreeMap<String, Vec<&'a String>> {
        let mut map: BTreeMap<String, Vec<&String>> = BTreeMap::new();
        for (id, agent) in &from.agents {
            if let (Some(repository), false) = (&agent.repository, other.agents.contains_key(id)) {
                map.entry(repository_key(repository)).or_default().push(id);
            }
        }
        map
    }
    let left = by_repository(before, after);
    let arrived = by_repository(after, before);
    arrived
        .iter()
        .filter_map(
            |(repository, new)| match (new.as_slice(), left.get(repository)) {
                ([new], Some(old)) if old.len() == 1 => Some(((*new).clone(), old[0].clone())),
                _ => None,
            },
        )
        .collect()
}

/// A repository URL compared without case, a trailing `/` or `.git`.
fn repository_key(url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    url.strip_suffix(".git").unwrap_or(url).to_ascii_lowercase()
}

/// The changes of an agent in both states.
fn agent_changes(old: &AgentSeen, new: &AgentSeen, known: Known, out: &mut Vec<Change>) {
    if old.name != new.name {
        out.push(Change::NameChanged {
            from: old.name.clone(),
            to: new.name.clone(),
        });
    }
    if old.version != new.version {
        out.push(Change::VersionChanged {
            from: old.version.clone(),
            to: new.version.clone(),
        });
    }
    set_changes(
        &old.distribution,
        &new.distribution,
        out,
        |method| Change::DistributionAdded { method },
        |method| Change::DistributionRemoved { method },
    );
    set_changes(
        &old.platforms,
        &new.platforms,
        out,
        |platform| Change::PlatformAdded { platform },
        |platform| Change::PlatformRemoved { platform },
    );
    if old.license != new.license {
        out.push(Change::LicenseChanged {
            from: old.license.clone(),
            to: new.license.clone(),
        });
    }
    list_changes(old, new, known, out);
}

/// The changes of what the optional lists say, for the lists known before.
fn list_changes(old: &AgentSeen, new: &AgentSeen, known: Known, out: &mut Vec<Change>) {
    if known.quarantine {
        match (&old.quarantine, &new.quarantine) {
            (old, Some(reason)) if old.as_ref() != Some(reason) => out.push(Change::Quarantined {
                reason: reason.clone(),
            }),
            (Some(reason), None) => out.push(Change::Released {
                reason: reason.clone(),
            }),
            _ => {}
        }
    }
    let known_views: BTreeSet<_> = [
        (super::View::JetBrains, known.jetbrains),
        (super::View::JetBrainsPreview, known.jetbrains_preview),
    ]
    .into_iter()
    .filter_map(|(view, known)| known.then_some(view))
    .collect();
    let old_views = old.listed_for.intersection(&known_views).copied().collect();
    let new_views = new.listed_for.intersection(&known_views).copied().collect();
    set_changes(
        &old_views,
        &new_views,
        out,
        |view| Change::Listed { view },
        |view| Change::Unlisted { view },
    );
    if known.jetbrains_preview {
        match (&old.preview, &new.preview) {
            (None, Some(version)) => out.push(Change::PreviewOpened {
                version: version.clone(),
            }),
            (Some(from), Some(to)) if from != to => out.push(Change::PreviewChanged {
                from: from.clone(),
                to: to.clone(),
            }),
            (Some(version), None) => out.push(Change::PreviewClosed {
                version: version.clone(),
            }),
            _ => {}
        }
    }
}

/// The changes between two successful probes.
fn fact_changes(old: &ProbeFacts, new: &ProbeFacts, out: &mut Vec<Change>) {
    if let (Some(from), Some(to)) = (&old.protocol_version, &new.protocol_version)
        && from != to
    {
        out.push(Change::ProtocolVersionChanged {
            from: from.clone(),
            to: to.clone(),
        });
    }
    set_changes(
        &old.auth_methods,
        &new.auth_methods,
        out,
        |method| Change::AuthMethodAdded { method },
        |method| Change::AuthMethodRemoved { method },
    );
    for (capability, yes) in &new.capabilities {
        match (old.capabilities.get(capability), yes) {
            (Some(false), true) => out.push(Change::CapabilityAdded {
                capability: capability.clone(),
            }),
            (Some(true), false) => out.push(Change::CapabilityRemoved {
                capability: capability.clone(),
            }),
            _ => {}
        }
    }
}

/// What `new` gained and lost against `old`.
fn set_changes<T: Ord + Clone>(
    old: &BTreeSet<T>,
    new: &BTreeSet<T>,
    out: &mut Vec<Change>,
    gained: impl Fn(T) -> Change,
    lost: impl Fn(T) -> Change,
) {
    out.extend(new.difference(old).cloned().map(gained));
    out.extend(old.difference(new).cloned().map(lost));
}

#[cfg(test)]
mod tests {
    use super::repository_key;

    #[test]
    fn repositories_compare_loosely() {
        for (a, b) in [
            (
                "https://github.com/zed-industries/codex-acp",
                "https://github.com/Zed-Industries/codex-acp/",
            ),
            ("https://github.com/a/b.git", "https://github.com/a/b"),
            (" https://github.com/a/b.git/ ", "https://github.com/a/b"),
        ] {
            assert_eq!(repository_key(a), repository_key(b), "{a} {b}");
        }
        assert_ne!(
            repository_key("https://github.com/a/b"),
            repository_key("https://github.com/a/c")
        );
    }
}
