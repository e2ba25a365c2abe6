//! The registry's daily protocol matrix: what a probe found when it started each listed agent
//! over ACP, as the registry publishes it (`.protocol-matrix/latest.json` and its dated
//! `snapshots/`).
//!
//! ```json
//! {"probeSchemaVersion": 2, "date": "2026-08-20", "agents": [{"id": "claude-acp",
//!   "registryVersion": "0.70.0", "distribution": "npx", "initialize": {"status": "success"},
//!   "protocolVersion": 1, "agentInfoVersion": "0.70.0", "authMethods": ["terminal"],
//!   "capabilities": {"loadSession": true, "sessionList": true, "setModel": false},
//!   "sessionNew": {"status": "auth_required", "code": -32000, "message": "..."},
//!   "methodProbes": {"session/list": {"status": "success", "code": null, "message": null}}}]}
//! ```
//!
//! [`parse_matrix`] reads it leniently, in the spirit of [`crate::load()`]: only a text that
//! cannot be used at all is a [`MatrixError`]; a broken agent entry (not an object, no `id`, a
//! field of the wrong type) becomes a warning and the rest still loads. Fields it does not use
//! (`summary`, `stderrTail`, timings…) are ignored, missing ones tolerated:
//!
//! - `probedAt` (per agent) is read as a day: the file's, or an earlier one when the run
//!   reused an earlier result;
//!
//! - no `probeSchemaVersion` is schema 1 (the registry added the field with schema 2, when the
//!   probe of `session/stop` became one of `session/close` and `sessionStop` became
//!   `sessionClose`); both names fill [`Capability::SessionStop`];
//! - no `initialize.status` reads as a failed probe (we cannot tell what was found);
//! - no `authMethods` reads as none advertised, no `capabilities` (or a `null` one) as none
//!   reported, no `sessionNew` or `methodProbes` as not probed;
//! - `protocolVersion` (a number, or text) and `agentInfoVersion` are kept as written;
//! - capability names other than those of [`Capability`] are kept in
//!   [`ProbeResult::other_capabilities`], probed methods and status words the catalogue does
//!   not know are kept as written ([`MethodStatus::Other`]), so a probe that learns something
//!   new does not break the site: it shows it as given;
//! - auth method names other than `agent`, `terminal` and `env_var` are kept as
//!   [`AuthMethod::Other`].
//!
//! **A failed probe means unknown, not unsupported.** The published matrix lists a failed
//! probe's capabilities as all `false`; those placeholders are dropped when reading, and
//! [`ProtocolMatrix::facts`] keeps "never probed", "probe failed" and "probed" apart in
//! [`Facts`], so a page cannot mistake one for another. [`ProtocolMatrix::report`] gives the
//! whole record, and [`ProbeResult::features`] what each capability's advertisement and probe
//! add up to (see [`method`] for the [`Verdict`]s, where "could not be checked without
//! signing in" is its own answer).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::edition::Day;
use crate::load::{describe, parser_message, position};

pub mod method;

pub use method::{Feature, MethodProbe, MethodStatus, Verdict};

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

/// The probe schema this catalogue knows best; later ones are read as far as they agree.
pub const PROBE_SCHEMA_VERSION: u32 = 2;

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
    },
}

/// A matrix that could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatrixError {
    /// The text is not JSON.
    #[error(
        "the protocol matrix is not valid JSON: {message} at line {line}, column {column}; \
         fix the syntax there, or fetch the file again if it was cut short"
    )]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The text is JSON, but not an object.
    #[error(
        "the protocol matrix is {found}, not an object; it must look like \
         {{\"date\": \"2026-08-20\", \"agents\": [...]}}"
    )]
    NotAnObject {
        /// What it is instead: `an array`, `a string`, ...
        found: &'static str,
    },
    /// `agents` is there but is not an array.
    #[error(
        "`agents` of the protocol matrix is {found}, not an array; write it as \
         \"agents\": [{{\"id\": ...}}, ...]"
    )]
    AgentsNotAnArray {
        /// What it is instead.
        found: &'static str,
    },
}

/// The query-string word and facet key of the "not probed" option of the protocol facets.
pub const NOT_PROBED: &str = "not-probed";

/// Reads a protocol matrix, collecting a warning per problem instead of failing (see the module
/// docs); fails only when the text is not a JSON object or its `agents` is not an array.
pub fn parse_matrix(text: &str) -> Result<(ProtocolMatrix, Vec<String>), MatrixError> {
    let top: Value = serde_json::from_str(text).map_err(|err| {
        let (line, column) = position(text, &err);
        MatrixError::Json {
            line,
            column,
            message: parser_message(&err),
        }
    })?;
    let Value::Object(top) = top else {
        return Err(MatrixError::NotAnObject {
            found: describe(&top),
        });
    };
    let mut warnings = Vec::new();
    let date = match top.get("date") {
        Some(Value::String(date)) if !date.trim().is_empty() => date.trim().to_owned(),
        found => {
            warnings.push(format!(
                "`date` is {}, not a day like \"2026-08-20\"; the probes are shown without a date",
                found.map_or("missing", describe)
            ));
            String::new()
        }
    };
    let agents: &[Value] = match top.get("agents") {
        Some(Value::Array(agents)) => agents,
        None | Some(Value::Null) => {
            warnings.push("`agents` is missing; no agent counts as probed".to_owned());
            &[]
        }
        Some(other) => {
            return Err(MatrixError::AgentsNotAnArray {
                found: describe(other),
            });
        }
    };
    let schema_version = read_schema_version(top.get("probeSchemaVersion"), &mut warnings);
    let mut matrix = ProtocolMatrix {
        date,
        schema_version,
        agents: BTreeMap::new(),
    };
    for (index, agent) in agents.iter().enumerate() {
        read_agent(
            index,
            agent,
            schema_version,
            &mut matrix.agents,
            &mut warnings,
        );
    }
    Ok((matrix, warnings))
}

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

/// Reads `agents[index]` into `agents`, or says why it was skipped.
fn read_agent(
    index: usize,
    agent: &Value,
    schema: u32,
    agents: &mut BTreeMap<String, ProbeResult>,
    warnings: &mut Vec<String>,
) {
    let Value::Object(agent) = agent else {
        warnings.push(format!(
            "agents[{index}] is {}, not an object; skipped",
            describe(agent)
        ));
        return;
    };
    let id = match agent.get("id") {
        Some(Value::String(id)) if !id.trim().is_empty() => id.trim(),
        found => {
            warnings.push(format!(
                "agents[{index}]: `id` is {}, not an agent id; skipped",
                found.map_or("missing", describe)
            ));
            return;
        }
    };
    let at = format!("agents[{index}] ({id})");
    if agents.contains_key(id) {
        warnings.push(format!(
            "{at}: `{id}` was already probed earlier in the file; this second result is skipped"
        ));
        return;
    }
    let registry_version = optional_string(agent, "registryVersion", &at, warnings);
    let distribution = optional_string(agent, "distribution", &at, warnings);
    let status = read_status(agent, &at, warnings);
    let mut probe = ProbeResult {
        registry_version,
        distribution,
        status,
        auth_methods: Vec::new(),
        capabilities: BTreeMap::new(),
        other_capabilities: BTreeMap::new(),
        failure: None,
        protocol_version: None,
        agent_info_version: None,
        session_new: None,
        methods: BTreeMap::new(),
        probed_at: None,
    };
    if let Some(written) = optional_string(agent, "probedAt", &at, warnings) {
        probe.probed_at = Day::parse(&written);
        if probe.probed_at.is_none() {
            warnings.push(format!(
                "{at}: `probedAt` \"{written}\" is not a date like \"2026-08-20T05:47:32+00:00\"; \
                 the probe's day is not known"
            ));
        }
    }
    if probe.status.is_success() {
        probe.auth_methods = read_auth_methods(agent, &at, warnings);
        (probe.capabilities, probe.other_capabilities) =
            read_capabilities(agent, schema, &at, warnings);
        probe.protocol_version = read_protocol_version(agent, &at, warnings);
        probe.agent_info_version = optional_string(agent, "agentInfoVersion", &at, warnings);
        probe.session_new = agent
            .get("sessionNew")
            .and_then(|value| read_probe(value, &format!("{at}: `sessionNew`"), warnings));
        probe.methods = read_methods(agent, &at, warnings);
    } else {
        // A failed probe's lists are placeholders (all `false`, `not_probed`): unknown, so not
        // kept; only its own words about why it failed are.
        probe.failure = match agent.get("initialize") {
            Some(Value::Object(initialize)) => initialize
                .get("message")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_owned),
            _ => None,
        };
    }
    agents.insert(id.to_owned(), probe);
}

/// `probeSchemaVersion`: a whole number; missing is 1, anything else a warning (read as 1).
fn read_schema_version(value: Option<&Value>, warnings: &mut Vec<String>) -> u32 {
    match value {
        None | Some(Value::Null) => 1,
        Some(Value::Number(n))
            if n.as_u64()
                .is_some_and(|v| (1..=u64::from(u32::MAX)).contains(&v)) =>
        {
            let version = n.as_u64().map_or(1, |v| v as u32);
            if version > PROBE_SCHEMA_VERSION {
                warnings.push(format!(
                    "`probeSchemaVersion` is {version}, newer than {PROBE_SCHEMA_VERSION}, the \
                     newest this catalogue knows; what it does not know is shown as given or left out"
                ));
            }
            version
        }
        Some(other) => {
            warnings.push(format!(
                "`probeSchemaVersion` is {}, not a whole number like 2; read as 1",
                match other {
                    Value::Number(n) => format!("the number {n}"),
                    other => describe(other).to_owned(),
                }
            ));
            1
        }
    }
}

/// `protocolVersion`: a number or a text, kept as written; `null` or missing is unknown.
fn read_protocol_version(
    agent: &Map<String, Value>,
    at: &str,
    warnings: &mut Vec<String>,
) -> Option<String> {
    match agent.get("protocolVersion") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(Value::String(_)) => None,
        Some(other) => {
            warnings.push(format!(
                "{at}: `protocolVersion` is {}, not a version like 1; read as unknown",
                describe(other)
            ));
            None
        }
    }
}

/// One probed call, `{"status": "...", "code": -32601, "message": "..."}`; without a readable
/// status it is a warning and left out.
fn read_probe(value: &Value, at: &str, warnings: &mut Vec<String>) -> Option<MethodProbe> {
    let fields = match value {
        Value::Object(fields) => fields,
        Value::Null => return None,
        other => {
            warnings.push(format!(
                "{at} is {}, not an object like {{\"status\": \"success\"}}; read as not probed",
                describe(other)
            ));
            return None;
        }
    };
    let status = match fields.get("status") {
        Some(Value::String(status)) if !status.trim().is_empty() => MethodStatus::parse(status),
        found => {
            warnings.push(format!(
                "{at}: `status` is {}, not a status like \"success\"; read as not probed",
                found.map_or("missing", describe)
            ));
            return None;
        }
    };
    let code = match fields.get("code") {
        Some(Value::Number(n)) => n.as_i64(),
        _ => None,
    };
    let message = fields
        .get("message")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned);
    Some(MethodProbe {
        status,
        code,
        message,
    })
}

/// `methodProbes`: per method name, one probed call; names are kept as written.
fn read_methods(
    agent: &Map<String, Value>,
    at: &str,
    warnings: &mut Vec<String>,
) -> BTreeMap<String, MethodProbe> {
    let mut methods = BTreeMap::new();
    let fields = match agent.get("methodProbes") {
        None | Some(Value::Null) => return methods,
        Some(Value::Object(fields)) => fields,
        Some(other) => {
            warnings.push(format!(
                "{at}: `methodProbes` is {}, not an object; no method counts as probed",
                describe(other)
            ));
            return methods;
        }
    };
    for (name, value) in fields {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        if let Some(probe) = read_probe(value, &format!("{at}: `methodProbes.{name}`"), warnings) {
            methods.entry(name.to_owned()).or_insert(probe);
        }
    }
    methods
}

/// A string field that may be missing or `null`; another type is a warning and reads as missing.
fn optional_string(
    agent: &Map<String, Value>,
    key: &str,
    at: &str,
    warnings: &mut Vec<String>,
) -> Option<String> {
    match agent.get(key) {
        Some(Value::String(value)) if !value.trim().is_empty() => Some(value.trim().to_owned()),
        None | Some(Value::Null) | Some(Value::String(_)) => None,
        Some(other) => {
            warnings.push(format!(
                "{at}: `{key}` is {}, not a string; read as unknown",
                describe(other)
            ));
            None
        }
    }
}

/// `initialize.status`: `success`, another status, or a failure when it is missing or not a
/// string.
fn read_status(agent: &Map<String, Value>, at: &str, warnings: &mut Vec<String>) -> ProbeStatus {
    let status = match agent.get("initialize") {
        Some(Value::Object(initialize)) => initialize.get("status"),
        None => None,
        Some(other) => {
            warnings.push(format!(
                "{at}: `initialize` is {}, not an object; the probe counts as failed",
                describe(other)
            ));
            return ProbeStatus::Failed("no status".to_owned());
        }
    };
    match status {
        Some(Value::String(status)) if status.trim() == "success" => ProbeStatus::Succeeded,
        Some(Value::String(status)) if !status.trim().is_empty() => {
            ProbeStatus::Failed(status.trim().to_owned())
        }
        found => {
            warnings.push(format!(
                "{at}: `initialize.status` is {}, not a status like \"success\"; the probe \
                 counts as failed",
                found.map_or("missing", describe)
            ));
            ProbeStatus::Failed("no status".to_owned())
        }
    }
}

/// `authMethods`: an array of names; anything else is skipped with a warning.
fn read_auth_methods(
    agent: &Map<String, Value>,
    at: &str,
    warnings: &mut Vec<String>,
) -> Vec<AuthMethod> {
    let items = match agent.get("authMethods") {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            warnings.push(format!(
                "{at}: `authMethods` is {}, not an array of names; read as none",
                describe(other)
            ));
            return Vec::new();
        }
    };
    let mut methods = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(name) => match AuthMethod::parse(name) {
                Some(method) if !methods.contains(&method) => methods.push(method),
                Some(_) => {}
                None => warnings.push(format!("{at}: `authMethods[{i}]` is blank; skipped")),
            },
            other => warnings.push(format!(
                "{at}: `authMethods[{i}]` is {}, not a name like \"terminal\"; skipped",
                describe(other)
            )),
        }
    }
    methods
}

/// `capabilities`: an object of booleans; names this catalogue does not know are kept apart,
/// `null` means unknown and a value of another type is a warning. `sessionStop` and
/// `sessionClose` both fill [`Capability::SessionStop`]; when a matrix has both, the one of its
/// schema wins.
fn read_capabilities(
    agent: &Map<String, Value>,
    schema: u32,
    at: &str,
    warnings: &mut Vec<String>,
) -> (BTreeMap<Capability, bool>, BTreeMap<String, bool>) {
    let mut capabilities = BTreeMap::new();
    let mut others = BTreeMap::new();
    let fields = match agent.get("capabilities") {
        None | Some(Value::Null) => return (capabilities, others),
        Some(Value::Object(fields)) => fields,
        Some(other) => {
            warnings.push(format!(
                "{at}: `capabilities` is {}, not an object; no capability is known",
                describe(other)
            ));
            return (capabilities, others);
        }
    };
    let preferred_stop = if schema >= 2 {
        "sessionClose"
    } else {
        "sessionStop"
    };
    for (name, value) in fields {
        let supported = match value {
            Value::Bool(supported) => *supported,
            Value::Null => continue,
            other => {
                warnings.push(format!(
                    "{at}: `capabilities.{name}` is {}, not true or false; read as unknown",
                    describe(other)
                ));
                continue;
            }
        };
        match Capability::from_wire_name(name) {
            Some(Capability::SessionStop) => {
                let seen = capabilities.contains_key(&Capability::SessionStop);
                if !seen || name == preferred_stop {
                    capabilities.insert(Capability::SessionStop, supported);
                }
            }
            Some(capability) => {
                capabilities.insert(capability, supported);
            }
            None => {
                others.insert(name.clone(), supported);
            }
        }
    }
    (capabilities, others)
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
    fn each_agent_is_dated_by_its_probed_at() {
        let text = r#"{"date": "2026-08-20", "agents": [
            {"id": "a", "probedAt": "2026-08-20T05:47:32+00:00", "initialize": {"status": "success"}},
            {"id": "b", "probedAt": "2026-08-02T06:00:00+00:00", "reusedFromPrevious": true, "initialize": {"status": "success"}},
            {"id": "c", "initialize": {"status": "success"}},
            {"id": "d", "probedAt": "last night", "initialize": {"status": "success"}}
        ]}"#;
        let (matrix, warnings) = parse_matrix(text).expect("a matrix");
        let day = |id: &str| matrix.agents[id].probed_at.map(|d| d.to_string());
        assert_eq!(
            matrix.day().map(|d| d.to_string()).as_deref(),
            Some("2026-08-20")
        );
        assert_eq!(day("a").as_deref(), Some("2026-08-20"));
        assert_eq!(day("b").as_deref(), Some("2026-08-02"));
        assert_eq!((day("c"), day("d")), (None, None));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("`probedAt` \"last night\""),
            "{warnings:?}"
        );
    }

    #[test]
    fn provenance() {
        let probed = |version: Option<&str>, date: &str| Facts::Probed {
            version: version.map(str::to_owned),
            date: date.to_owned(),
            auth: Vec::new(),
            capabilities: BTreeMap::new(),
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
