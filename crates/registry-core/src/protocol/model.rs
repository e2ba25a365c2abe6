//! What the protocol matrix says, as the catalogue uses it: one day's [`ProtocolMatrix`], each
//! agent's [`ProbeResult`], and [`Facts`], which keep "never probed", "probe failed" and
//! "probed" apart.

use std::collections::BTreeMap;

use super::method::{self, Feature, MethodProbe, MethodStatus};
use crate::edition::Day;

/// One day's probe results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProtocolMatrix {
    /// The day of the probe, as written (`2026-08-20`); empty when the matrix has none (with a
    /// warning).
    pub date: String,
    /// The probe's schema (`probeSchemaVersion`): 1 when the matrix does not say.
    pub schema_version: u32,
    /// Per agent id, what its probe found.
    pub agents: BTreeMap<String, ProbeResult>,
}

/// Everything the matrix says about one agent, for its page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report<'a> {
    /// The matrix does not list the agent (or there is no matrix, or the entry is an extension).
    NotProbed,
    /// The matrix lists it; the probe may still have failed ([`ProbeResult::status`]).
    Probed {
        /// The day of the probe (empty when the matrix has none).
        date: &'a str,
        /// The probe's schema ([`ProtocolMatrix::schema_version`]).
        schema_version: u32,
        /// What the probe found.
        probe: &'a ProbeResult,
    },
}

/// What the probe found for one agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeResult {
    /// The registry version that was probed (`registryVersion`), which may differ from the one
    /// listed today.
    pub registry_version: Option<String>,
    /// The distribution method the probe ran (`npx`, `binary`, …), as written.
    pub distribution: Option<String>,
    /// Whether `initialize` succeeded.
    pub status: ProbeStatus,
    /// The auth methods the agent advertised, in file order, without duplicates; empty when the
    /// probe failed.
    pub auth_methods: Vec<AuthMethod>,
    /// The capabilities the agent reported, by name; empty when the probe failed. A capability
    /// that is absent was not reported: unknown, not unsupported.
    pub capabilities: BTreeMap<Capability, bool>,
    /// Capabilities reported under names this catalogue does not know, as written.
    pub other_capabilities: BTreeMap<String, bool>,
    /// Why `initialize` failed, in the probe's words (`Extraction failed`), when it says.
    pub failure: Option<String>,
    /// The ACP protocol version the agent answered `initialize` with, as written (`1`).
    pub protocol_version: Option<String>,
    /// The version the agent reported for itself (`agentInfo.version`), as written; it may
    /// differ from the registry's (`0.35.0 (commit 9a7f3836)`).
    pub agent_info_version: Option<String>,
    /// How a plain `session/new` went, when it was tried.
    pub session_new: Option<MethodProbe>,
    /// Per probed method (`session/list`, …, as the matrix names them), how the call went.
    pub methods: BTreeMap<String, MethodProbe>,
    /// The day this agent was probed (`probedAt`): the file's day, or an earlier one when the
    /// run reused an earlier result; `None` when the matrix does not say.
    pub probed_at: Option<Day>,
}

/// How the probe's `initialize` went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeStatus {
    /// `initialize` succeeded: the auth methods and capabilities are what the agent said.
    Succeeded,
    /// The probe failed, with the matrix's status (`process_error`, …) or, when the matrix gives
    /// none, `no status`; nothing is known about the agent.
    Failed(String),
}

/// How an agent lets people sign in, from its `initialize` response.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AuthMethod {
    /// `agent`: the agent runs the sign-in itself (typically a browser login).
    Agent,
    /// `terminal`: a login command run in a terminal.
    Terminal,
    /// `env_var`: an API key set in an environment variable.
    EnvVar,
    /// Any other method, by its name as written (trimmed).
    Other(String),
}

/// An optional ACP capability an agent may report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Capability {
    /// `loadSession`: resume a saved session with its history.
    LoadSession,
    /// `sessionList`: list past sessions.
    SessionList,
    /// `sessionFork`: branch a session.
    SessionFork,
    /// `sessionResume`: resume a session without replaying it.
    SessionResume,
    /// `sessionStop`: stop a running session.
    SessionStop,
    /// `setModel`: switch models within a session.
    SetModel,
}

/// What the catalogue knows about one agent's protocol support. The three states are distinct
/// variants, so "unknown" can never be read as "unsupported".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Facts {
    /// The matrix does not list the agent (or there is no matrix, or the entry is an extension).
    NotProbed,
    /// The probe ran but failed: nothing is known.
    ProbeFailed {
        /// The registry version probed.
        version: Option<String>,
        /// The day of the probe (empty when the matrix has none).
        date: String,
        /// The matrix's status (`process_error`, …).
        reason: String,
    },
    /// The probe succeeded.
    Probed {
        /// The registry version probed.
        version: Option<String>,
        /// The day of the probe (empty when the matrix has none).
        date: String,
        /// The auth methods advertised (empty: none advertised).
        auth: Vec<AuthMethod>,
        /// The capabilities reported; an absent one was not reported.
        capabilities: BTreeMap<Capability, bool>,
        /// The ACP protocol version the agent answered `initialize` with, as written (`1`);
        /// `None` when the matrix does not say.
        protocol_version: Option<String>,
    },
}

/// The query-string word and facet key of the "not probed" option of the protocol facets.
pub const NOT_PROBED: &str = "not-probed";

impl ProtocolMatrix {
    /// The day of the probe run, when `date` is one.
    pub fn day(&self) -> Option<Day> {
        Day::parse(&self.date)
    }

    /// What is known about the agent with this id.
    pub fn facts(&self, id: &str) -> Facts {
        let Some(probe) = self.agents.get(id) else {
            return Facts::NotProbed;
        };
        let version = probe.registry_version.clone();
        let date = self.date.clone();
        match &probe.status {
            ProbeStatus::Succeeded => Facts::Probed {
                version,
                date,
                auth: probe.auth_methods.clone(),
                capabilities: probe.capabilities.clone(),
                protocol_version: probe.protocol_version.clone(),
            },
            ProbeStatus::Failed(reason) => Facts::ProbeFailed {
                version,
                date,
                reason: reason.clone(),
            },
        }
    }

    /// Everything the matrix says about the agent with this id.
    pub fn report(&self, id: &str) -> Report<'_> {
        match self.agents.get(id) {
            None => Report::NotProbed,
            Some(probe) => Report::Probed {
                date: &self.date,
                schema_version: self.schema_version,
                probe,
            },
        }
    }

    /// The probe of this agent, when it succeeded.
    pub fn succeeded(&self, id: &str) -> Option<&ProbeResult> {
        self.agents
            .get(id)
            .filter(|probe| probe.status == ProbeStatus::Succeeded)
    }
}

impl ProbeResult {
    /// Each capability of [`Capability::ALL`] in order, then each probed method this catalogue
    /// does not know (by name): what was advertised and what the probe's call returned. Empty
    /// when the probe failed: nothing is known.
    pub fn features(&self) -> Vec<Feature<'_>> {
        if !self.status.is_success() {
            return Vec::new();
        }
        let mut features: Vec<Feature<'_>> = Capability::ALL
            .into_iter()
            .map(|capability| {
                let method = capability
                    .method_names()
                    .iter()
                    .find_map(|name| self.methods.get_key_value(*name));
                Feature {
                    capability: Some(capability),
                    method: method
                        .map(|(name, _)| name.as_str())
                        .or(capability.method_names().first().copied()),
                    advertised: self.capabilities.get(&capability).copied(),
                    probe: method.map(|(_, probe)| probe),
                }
            })
            .collect();
        for (name, probe) in &self.methods {
            let known = Capability::ALL
                .iter()
                .any(|c| c.method_names().contains(&name.as_str()));
            if !known {
                features.push(Feature {
                    capability: None,
                    method: Some(name),
                    advertised: None,
                    probe: Some(probe),
                });
            }
        }
        features
    }

    /// The feature of one capability (see [`ProbeResult::features`]).
    pub fn feature(&self, capability: Capability) -> Option<Feature<'_>> {
        self.features()
            .into_iter()
            .find(|f| f.capability == Some(capability))
    }

    /// Whether a plain `session/new` asked to sign in first: what the agent does before that
    /// could be probed, what comes after could not.
    pub fn needs_sign_in(&self) -> bool {
        self.session_new
            .as_ref()
            .is_some_and(|probe| probe.status == MethodStatus::AuthRequired)
    }
}

impl ProbeStatus {
    /// Whether `initialize` succeeded.
    pub fn is_success(&self) -> bool {
        *self == ProbeStatus::Succeeded
    }
}

impl Facts {
    /// Whether the agent reported this capability: `Some(true)` or `Some(false)` only after a
    /// successful probe that reported it, `None` (unknown) otherwise.
    pub fn supports(&self, capability: Capability) -> Option<bool> {
        match self {
            Facts::Probed { capabilities, .. } => capabilities.get(&capability).copied(),
            Facts::NotProbed | Facts::ProbeFailed { .. } => None,
        }
    }

    /// Where the facts come from, `probed v0.70.0 on 2026-08-20` (the version or date left out
    /// when the matrix lacks it); `None` when the agent was not probed.
    pub fn provenance(&self) -> Option<String> {
        let (version, date) = match self {
            Facts::NotProbed => return None,
            Facts::ProbeFailed { version, date, .. } | Facts::Probed { version, date, .. } => {
                (version, date)
            }
        };
        let mut out = "probed".to_owned();
        if let Some(version) = version {
            let bare = version.strip_prefix(['v', 'V']).unwrap_or(version);
            out.push_str(" v");
            out.push_str(bare);
        }
        if !date.is_empty() {
            out.push_str(" on ");
            out.push_str(date);
        }
        Some(out)
    }
}

impl AuthMethod {
    /// The three methods ACP names, in display order.
    pub const KNOWN: [AuthMethod; 3] =
        [AuthMethod::Agent, AuthMethod::Terminal, AuthMethod::EnvVar];

    /// The matrix and query-string word: `agent`, `terminal`, `env_var`, or the other name.
    pub fn as_str(&self) -> &str {
        match self {
            AuthMethod::Agent => "agent",
            AuthMethod::Terminal => "terminal",
            AuthMethod::EnvVar => "env_var",
            AuthMethod::Other(name) => name,
        }
    }

    /// What people read: `Agent-managed login`, `Terminal login`, `API key in environment`,
    /// or the other name as written.
    pub fn label(&self) -> &str {
        match self {
            AuthMethod::Agent => "Agent-managed login",
            AuthMethod::Terminal => "Terminal login",
            AuthMethod::EnvVar => "API key in environment",
            AuthMethod::Other(name) => name,
        }
    }

    /// Reads a method name, trimmed: the three known ones in any case, anything else as
    /// [`AuthMethod::Other`]; `None` when blank.
    pub fn parse(name: &str) -> Option<AuthMethod> {
        let name = name.trim();
        if name.is_empty() {
            return None;
        }
        Some(
            AuthMethod::KNOWN
                .into_iter()
                .find(|known| known.as_str().eq_ignore_ascii_case(name))
                .unwrap_or_else(|| AuthMethod::Other(name.to_owned())),
        )
    }
}

impl Capability {
    /// All capabilities, in display order.
    pub const ALL: [Capability; 6] = [
        Capability::LoadSession,
        Capability::SessionList,
        Capability::SessionFork,
        Capability::SessionResume,
        Capability::SessionStop,
        Capability::SetModel,
    ];

    /// The query-string word: the matrix name in kebab case (`load-session`, `session-list`).
    pub fn as_str(self) -> &'static str {
        match self {
            Capability::LoadSession => "load-session",
            Capability::SessionList => "session-list",
            Capability::SessionFork => "session-fork",
            Capability::SessionResume => "session-resume",
            Capability::SessionStop => "session-stop",
            Capability::SetModel => "set-model",
        }
    }

    /// The name in the matrix: `loadSession`, `sessionList`, ….
    pub fn wire_name(self) -> &'static str {
        match self {
            Capability::LoadSession => "loadSession",
            Capability::SessionList => "sessionList",
            Capability::SessionFork => "sessionFork",
            Capability::SessionResume => "sessionResume",
            Capability::SessionStop => "sessionStop",
            Capability::SetModel => "setModel",
        }
    }

    /// What people read: `Load session`, `List sessions`, ….
    pub fn label(self) -> &'static str {
        match self {
            Capability::LoadSession => "Load session",
            Capability::SessionList => "List sessions",
            Capability::SessionFork => "Fork session",
            Capability::SessionResume => "Resume session",
            Capability::SessionStop => "Stop session",
            Capability::SetModel => "Set model",
        }
    }

    /// The inverse of [`Capability::as_str`].
    pub fn parse(word: &str) -> Option<Capability> {
        Capability::ALL.into_iter().find(|c| c.as_str() == word)
    }

    /// The inverse of [`Capability::wire_name`]; `sessionClose`, the name of probe schema 2,
    /// is [`Capability::SessionStop`] too.
    pub fn from_wire_name(name: &str) -> Option<Capability> {
        match name {
            "sessionClose" => Some(Capability::SessionStop),
            _ => Capability::ALL.into_iter().find(|c| c.wire_name() == name),
        }
    }

    /// The methods the probe calls for it, newest schema last: `session/stop` (schema 1) and
    /// `session/close` (schema 2) for [`Capability::SessionStop`]; none for
    /// [`Capability::LoadSession`], which is only advertised.
    pub fn method_names(self) -> &'static [&'static str] {
        match self {
            Capability::LoadSession => &[],
            Capability::SessionList => &["session/list"],
            Capability::SessionFork => &["session/fork"],
            Capability::SessionResume => &["session/resume"],
            Capability::SessionStop => &["session/stop", method::CLOSE],
            Capability::SetModel => &["session/set_model"],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back() {
        for capability in Capability::ALL {
            assert_eq!(Capability::parse(capability.as_str()), Some(capability));
            assert_eq!(
                Capability::from_wire_name(capability.wire_name()),
                Some(capability)
            );
        }
        for method in AuthMethod::KNOWN {
            assert_eq!(AuthMethod::parse(method.as_str()), Some(method.clone()));
        }
        for (name, expected) in [
            (" Terminal ", Some(AuthMethod::Terminal)),
            ("ENV_VAR", Some(AuthMethod::EnvVar)),
            (" OAuth ", Some(AuthMethod::Other("OAuth".to_owned()))),
            ("  ", None),
        ] {
            assert_eq!(AuthMethod::parse(name), expected, "{name:?}");
        }
    }

    #[test]
    fn provenance() {
        let probed = |version: Option<&str>, date: &str| Facts::Probed {
            version: version.map(str::to_owned),
            date: date.to_owned(),
            auth: Vec::new(),
            capabilities: BTreeMap::new(),
            protocol_version: None,
        };
        for (facts, expected) in [
            (
                probed(Some("0.70.0"), "2026-08-20"),
                Some("probed v0.70.0 on 2026-08-20"),
            ),
            (
                probed(Some("v2.1"), "2026-08-20"),
                Some("probed v2.1 on 2026-08-20"),
            ),
            (probed(None, "2026-08-20"), Some("probed on 2026-08-20")),
            (probed(Some("1.0"), ""), Some("probed v1.0")),
            (
                Facts::ProbeFailed {
                    version: Some("1.0.73".to_owned()),
                    date: "2026-08-20".to_owned(),
                    reason: "process_error".to_owned(),
                },
                Some("probed v1.0.73 on 2026-08-20"),
            ),
            (Facts::NotProbed, None),
        ] {
            assert_eq!(facts.provenance().as_deref(), expected, "{facts:?}");
        }
    }
}
