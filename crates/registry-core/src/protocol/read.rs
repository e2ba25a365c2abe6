//! Reading the published matrix: [`parse_matrix`] reads it leniently, in the spirit of
//! [`crate::load()`]: only a text that cannot be used at all is a [`MatrixError`]; a broken
//! agent entry (not an object, no `id`, a field of the wrong type) becomes a warning and the rest
//! still loads. Fields it does not use (`summary`, `stderrTail`, timings…) are ignored, missing
//! ones tolerated:
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
//! A failed probe's capabilities, which the published matrix lists as all `false`, are dropped:
//! they are placeholders, not answers.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::method::{MethodProbe, MethodStatus};
use super::model::{AuthMethod, Capability, ProbeResult, ProbeStatus, ProtocolMatrix};
use crate::edition::Day;
use crate::load::{describe, parser_message, position};

/// The probe schema this catalogue knows best; later ones are read as far as they agree.
pub const PROBE_SCHEMA_VERSION: u32 = 2;

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
}
