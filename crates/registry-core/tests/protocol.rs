//! Reading the protocol matrix: the real one, broken ones that still load, and ones that cannot.

mod common;

use std::collections::BTreeMap;

use common::{PUBLISHED_MATRIX, agent, extension, real_matrix, real_registry, registry};
use registry_core::{
    AuthMethod, Capability, Catalog, Facts, MatrixError, ProbeStatus, ProtocolMatrix, parse_matrix,
};

/// One line per agent: `id version status auth[...] caps[...]`, a capability reported `false`
/// written `!name`, and the matrix date first.
fn summary(matrix: &ProtocolMatrix) -> String {
    let mut lines = vec![format!("date {:?}", matrix.date)];
    for (id, probe) in &matrix.agents {
        let status = match &probe.status {
            ProbeStatus::Succeeded => "ok".to_owned(),
            ProbeStatus::Failed(reason) => format!("failed({reason})"),
        };
        let auth: Vec<&str> = probe.auth_methods.iter().map(AuthMethod::as_str).collect();
        let caps: Vec<String> = probe
            .capabilities
            .iter()
            .map(|(c, &yes)| format!("{}{}", if yes { "" } else { "!" }, c.as_str()))
            .collect();
        lines.push(format!(
            "{id} {} {} {status} auth[{}] caps[{}]",
            probe.registry_version.as_deref().unwrap_or("-"),
            probe.distribution.as_deref().unwrap_or("-"),
            auth.join(","),
            caps.join(","),
        ));
    }
    lines.join("\n")
}

/// Reads `text` and checks what was kept and every warning.
fn check(text: &str, expected: &str, expected_warnings: &[&str]) {
    let (matrix, warnings) = parse_matrix(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(summary(&matrix), expected, "{text}");
    assert_eq!(warnings, expected_warnings, "{text}");
}

#[test]
fn the_real_matrix_reads_without_warnings() {
    let matrix = real_matrix();
    assert_eq!(matrix.date, "2026-08-20");
    assert_eq!(matrix.agents.len(), 30);
    let succeeded = matrix
        .agents
        .values()
        .filter(|p| p.status.is_success())
        .count();
    assert_eq!(succeeded, 29);
    let with = |method: AuthMethod| {
        matrix
            .agents
            .values()
            .filter(|p| p.auth_methods.contains(&method))
            .count()
    };
    assert_eq!(
        [
            with(AuthMethod::Agent),
            with(AuthMethod::Terminal),
            with(AuthMethod::EnvVar)
        ],
        [17, 14, 2]
    );
    // Every successful probe reports all six capabilities.
    assert!(
        matrix
            .agents
            .values()
            .filter(|p| p.status.is_success())
            .all(|p| p.capabilities.len() == Capability::ALL.len())
    );
    let devin = &matrix.agents["devin"];
    assert_eq!(devin.registry_version.as_deref(), Some("3000.4.25"));
    assert_eq!(
        devin.auth_methods,
        [AuthMethod::Agent, AuthMethod::Terminal]
    );
}

#[test]
fn facts_of_real_agents() {
    let matrix = real_matrix();
    let claude = matrix.facts("claude-acp");
    let Facts::Probed {
        version,
        date,
        auth,
        capabilities,
        protocol_version,
    } = &claude
    else {
        panic!("claude-acp was probed: {claude:?}");
    };
    assert_eq!(version.as_deref(), Some("0.70.0"));
    assert_eq!(date, "2026-08-20");
    assert_eq!(auth, &[AuthMethod::Terminal]);
    assert_eq!(capabilities.len(), 6);
    // This copy of the matrix leaves out `protocolVersion`; the published one has it.
    assert_eq!(protocol_version, &None);
    let published = parse_matrix(PUBLISHED_MATRIX)
        .expect("the published matrix")
        .0;
    assert!(matches!(
        published.facts("claude-acp"),
        Facts::Probed { protocol_version: Some(version), .. } if version == "1"
    ));
    assert_eq!(claude.supports(Capability::LoadSession), Some(true));
    assert_eq!(claude.supports(Capability::SessionFork), Some(true));
    assert_eq!(claude.supports(Capability::SetModel), Some(false));
    assert_eq!(
        claude.provenance().as_deref(),
        Some("probed v0.70.0 on 2026-08-20")
    );

    // The probe failed: unknown, although the published row lists every capability as false.
    let cortex = matrix.facts("cortex-code");
    assert_eq!(
        cortex,
        Facts::ProbeFailed {
            version: Some("1.0.73".to_owned()),
            date: "2026-08-20".to_owned(),
            reason: "process_error".to_owned(),
        }
    );
    for capability in Capability::ALL {
        assert_eq!(cortex.supports(capability), None, "{capability:?}");
    }
    assert_eq!(matrix.agents["cortex-code"].capabilities, BTreeMap::new());

    let absent = matrix.facts("no-such-agent");
    assert_eq!(absent, Facts::NotProbed);
    assert_eq!(absent.supports(Capability::LoadSession), None);
    assert_eq!(absent.provenance(), None);
}

#[test]
fn catalog_facts_only_for_agents_of_a_loaded_matrix() {
    let entries = vec![
        agent("claude-acp", "Claude"),
        extension("claude-acp", "Claude extension"),
    ];
    let mut catalog = Catalog::new(registry(entries.clone()));
    assert_eq!(catalog.facts(&entries[0]), Facts::NotProbed);
    let matrix = real_matrix();
    let expected = matrix.facts("claude-acp");
    catalog.set_matrix(matrix);
    assert_eq!(catalog.facts(&entries[0]), expected);
    // An extension is never probed, even when the matrix lists an agent with its id.
    assert_eq!(catalog.facts(&entries[1]), Facts::NotProbed);
}

#[test]
fn the_real_registry_and_matrix_together() {
    let catalog = Catalog::with_matrix(real_registry(), Some(real_matrix()));
    let facts: Vec<Facts> = catalog
        .registry
        .entries
        .iter()
        .map(|e| catalog.facts(e))
        .collect();
    let probed = facts
        .iter()
        .filter(|f| matches!(f, Facts::Probed { .. }))
        .count();
    let failed = facts
        .iter()
        .filter(|f| matches!(f, Facts::ProbeFailed { .. }))
        .count();
    // `cursor`, `dirac` and `nova` are probed but not in this registry.
    assert_eq!((probed, failed, facts.len()), (26, 1, 130));
}

#[test]
fn broken_agents_are_skipped_with_a_warning() {
    let ok = r#"{"id": "ok", "initialize": {"status": "success"}}"#;
    for (text, expected, warnings) in [
        (
            format!(r#"{{"date": "2026-08-20", "agents": [42, "x", null, [], {ok}]}}"#),
            "date \"2026-08-20\"\nok - - ok auth[] caps[]",
            &[
                "agents[0] is a number, not an object; skipped",
                "agents[1] is a string, not an object; skipped",
                "agents[2] is null, not an object; skipped",
                "agents[3] is an array, not an object; skipped",
            ][..],
        ),
        (
            format!(
                r#"{{"date": "d", "agents": [{{"initialize": {{}}}}, {{"id": 7}}, {{"id": " "}}, {ok}]}}"#
            ),
            "date \"d\"\nok - - ok auth[] caps[]",
            &[
                "agents[0]: `id` is missing, not an agent id; skipped",
                "agents[1]: `id` is a number, not an agent id; skipped",
                "agents[2]: `id` is a string, not an agent id; skipped",
            ],
        ),
        // A second probe of the same agent: the first is kept.
        (
            format!(
                r#"{{"date": "d", "agents": [{ok}, {{"id": "ok", "initialize": {{"status": "crashed"}}}}]}}"#
            ),
            "date \"d\"\nok - - ok auth[] caps[]",
            &[
                "agents[1] (ok): `ok` was already probed earlier in the file; this second result is skipped",
            ],
        ),
    ] {
        check(&text, expected, warnings);
    }
}

#[test]
fn fields_of_the_wrong_type_are_read_as_unknown() {
    for (agent, expected, warnings) in [
        (
            r#"{"id": "a", "registryVersion": 1.2, "distribution": ["npx"],
                "initialize": {"status": "success"}, "authMethods": "terminal",
                "capabilities": [true]}"#,
            "a - - ok auth[] caps[]",
            &[
                "agents[0] (a): `registryVersion` is a number, not a string; read as unknown",
                "agents[0] (a): `distribution` is an array, not a string; read as unknown",
                "agents[0] (a): `authMethods` is a string, not an array of names; read as none",
                "agents[0] (a): `capabilities` is an array, not an object; no capability is known",
            ][..],
        ),
        // Bad items are skipped, duplicates dropped, unknown methods kept by name.
        (
            r#"{"id": "a", "initialize": {"status": "success"},
                "authMethods": [1, " ", "terminal", "Terminal", " OAuth ", {"id": "x"}]}"#,
            "a - - ok auth[terminal,OAuth] caps[]",
            &[
                "agents[0] (a): `authMethods[0]` is a number, not a name like \"terminal\"; skipped",
                "agents[0] (a): `authMethods[1]` is blank; skipped",
                "agents[0] (a): `authMethods[5]` is an object, not a name like \"terminal\"; skipped",
            ],
        ),
        // `null` is unknown without a warning; unknown capability names are ignored.
        (
            r#"{"id": "a", "initialize": {"status": "success"}, "capabilities":
                {"loadSession": "yes", "setModel": null, "sessionList": true,
                 "sessionStop": false, "sessionDelete": true}}"#,
            "a - - ok auth[] caps[session-list,!session-stop]",
            &[
                "agents[0] (a): `capabilities.loadSession` is a string, not true or false; read as unknown",
            ],
        ),
        // Without a readable status, the probe counts as failed: nothing is known.
        (
            r#"{"id": "a", "authMethods": ["agent"], "capabilities": {"loadSession": true}}"#,
            "a - - failed(no status) auth[] caps[]",
            &[
                "agents[0] (a): `initialize.status` is missing, not a status like \"success\"; the probe counts as failed",
            ],
        ),
        (
            r#"{"id": "a", "initialize": "success"}"#,
            "a - - failed(no status) auth[] caps[]",
            &["agents[0] (a): `initialize` is a string, not an object; the probe counts as failed"],
        ),
        (
            r#"{"id": "a", "initialize": {"status": 0}}"#,
            "a - - failed(no status) auth[] caps[]",
            &[
                "agents[0] (a): `initialize.status` is a number, not a status like \"success\"; the probe counts as failed",
            ],
        ),
        // A failed probe's placeholder lists are dropped, without a warning.
        (
            r#"{"id": "a", "registryVersion": "1.0.73", "distribution": "binary",
                "initialize": {"status": "process_error"}, "authMethods": ["agent"],
                "capabilities": {"loadSession": false, "setModel": false}}"#,
            "a 1.0.73 binary failed(process_error) auth[] caps[]",
            &[],
        ),
        // Missing optional fields are tolerated.
        (
            r#"{"id": " a ", "registryVersion": null, "initialize": {"status": "success"}}"#,
            "a - - ok auth[] caps[]",
            &[],
        ),
    ] {
        let text = format!(r#"{{"date": "d", "agents": [{agent}]}}"#);
        check(&text, &format!("date \"d\"\n{expected}"), warnings);
    }
}

#[test]
fn unknown_fields_are_ignored() {
    // The published matrix carries more than the bundled one.
    check(
        r#"{"date": "2026-08-21", "tableMode": "methods", "generatedBy": "probe 2",
            "agents": [{"id": "a", "registryVersion": "2.0.0", "distribution": "uvx",
              "protocolVersion": 1, "agentInfoVersion": "2.0.0",
              "initialize": {"status": "success", "durationMs": 812},
              "sessionNew": {"status": "success"},
              "methods": {"session/load": {"status": "success"}},
              "authMethods": ["env_var", "agent"],
              "capabilities": {"loadSession": true, "setModel": true, "mcpHttp": true}}]}"#,
        "date \"2026-08-21\"\na 2.0.0 uvx ok auth[env_var,agent] caps[load-session,set-model]",
        &[],
    );
}

#[test]
fn a_matrix_without_date_or_agents_still_reads() {
    check(
        r#"{"agents": []}"#,
        "date \"\"",
        &["`date` is missing, not a day like \"2026-08-20\"; the probes are shown without a date"],
    );
    check(
        r#"{"date": 20260820}"#,
        "date \"\"",
        &[
            "`date` is a number, not a day like \"2026-08-20\"; the probes are shown without a date",
            "`agents` is missing; no agent counts as probed",
        ],
    );
}

#[test]
fn unusable_matrices_are_errors() {
    for (text, expected) in [
        // Cut short: the position is the last character read.
        (
            "{\"date\": \"2026-08-20\",\n  \"agents\": [\n    {\"id\": \"a\"",
            MatrixError::Json {
                line: 3,
                column: 14,
                message: "EOF while parsing an object".to_owned(),
            },
        ),
        // Columns count characters, not bytes: `é` is one.
        (
            "{\"date\": \"é\", \"agents\": [}",
            MatrixError::Json {
                line: 1,
                column: 26,
                message: "expected value".to_owned(),
            },
        ),
        (
            "",
            MatrixError::Json {
                line: 1,
                column: 1,
                message: "EOF while parsing a value".to_owned(),
            },
        ),
        ("[]", MatrixError::NotAnObject { found: "an array" }),
        (
            r#"{"agents": {"a": {}}}"#,
            MatrixError::AgentsNotAnArray { found: "an object" },
        ),
    ] {
        assert_eq!(parse_matrix(text), Err(expected), "{text:?}");
    }
    let message = parse_matrix("{\n  \"agents\": [1,]\n}")
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("the protocol matrix is not valid JSON: ")
            && message.contains("at line 2, column"),
        "{message}"
    );
}

#[test]
fn the_site_bundles_the_published_matrix() {
    let public = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../public/protocol-matrix.json"
    ));
    assert_eq!(public, PUBLISHED_MATRIX);
}

#[test]
fn labels() {
    let labels: Vec<&str> = Capability::ALL.iter().map(|c| c.label()).collect();
    assert_eq!(
        labels,
        [
            "Load session",
            "List sessions",
            "Fork session",
            "Resume session",
            "Stop session",
            "Set model"
        ]
    );
    let methods = [
        AuthMethod::Agent,
        AuthMethod::Terminal,
        AuthMethod::EnvVar,
        AuthMethod::Other("oauth".to_owned()),
    ];
    let labels: Vec<&str> = methods.iter().map(AuthMethod::label).collect();
    assert_eq!(
        labels,
        [
            "Agent-managed login",
            "Terminal login",
            "API key in environment",
            "oauth"
        ]
    );
}
