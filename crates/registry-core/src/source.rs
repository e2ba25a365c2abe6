//! Which kind of registry a catalogue is built over.
//!
//! The same site and tools browse two sources: an ACP registry's `registry.json`, and the
//! discovery API of an [AgentRegistry](crate::agentregistry) service. A site's settings name its
//! source with the word of [`RegistryKind::as_str`] ([`crate::settings`]), which
//! [`RegistryKind::parse`] reads back.

/// The kind of registry a build reads.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum RegistryKind {
    /// An ACP registry's `registry.json`.
    #[default]
    Acp,
    /// An AgentRegistry service's discovery API.
    AgentRegistry,
}

impl RegistryKind {
    /// Every kind, in the order a command line lists them.
    pub const ALL: [RegistryKind; 2] = [RegistryKind::Acp, RegistryKind::AgentRegistry];

    /// The word naming the kind: `acp` or `agentregistry`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RegistryKind::Acp => "acp",
            RegistryKind::AgentRegistry => "agentregistry",
        }
    }

    /// The inverse of [`RegistryKind::as_str`] (exact words only).
    pub const fn parse(word: &str) -> Option<RegistryKind> {
        if same(word, RegistryKind::Acp.as_str()) {
            Some(RegistryKind::Acp)
        } else if same(word, RegistryKind::AgentRegistry.as_str()) {
            Some(RegistryKind::AgentRegistry)
        } else {
            None
        }
    }
}

/// `a == b`, in a `const` context (where `str`'s `PartialEq` is not available).
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_nothing_else_parses() {
        for kind in RegistryKind::ALL {
            assert_eq!(RegistryKind::parse(kind.as_str()), Some(kind));
        }
        for word in ["", "ACP", "agent-registry", "acp ", "agentregistr"] {
            assert_eq!(RegistryKind::parse(word), None, "{word:?}");
        }
    }
}
