//! Reading the protocol matrix exactly as the registry publishes it: the full snapshot of
//! 2026-08-20 (probe schema 1), a matrix of probe schema 2, and the per-method results a page
//! shows.

mod common;

use common::{PUBLISHED_MATRIX, REAL_MATRIX, SCHEMA_2_MATRIX, agent, registry};
use registry_core::{
    AuthMethod, Capability, Catalog, Facts, MethodProbe, MethodStatus, ProbeStatus, ProtocolMatrix,
    Report, Verdict, parse_matrix,
};

/// The matrix, which must read without warnings.
fn read(text: &str) -> ProtocolMatrix {
    let (matrix, warnings) = parse_matrix(text).expect("the fixture is JSON");
    assert_eq!(warnings, Vec::<String>::new());
    matrix
}

/// The short words of the table below.
fn word(capability: Capability) -> &'static str {
    match capability {
        Capability::LoadSession => "load",
        Capability::SessionList => "list",
        Capability::SessionFork => "fork",
        Capability::SessionResume => "resume",
        Capability::SessionStop => "stop",
        Capability::SetModel => "model",
    }
}

/// One line per agent: what a page shows about it.
fn table(matrix: &ProtocolMatrix) -> String {
    let mut lines = Vec::new();
    for (id, probe) in &matrix.agents {
        if let ProbeStatus::Failed(reason) = &probe.status {
            lines.push(format!(
                "{id} failed({reason}: {})",
                probe.failure.as_deref().unwrap_or("-")
            ));
            continue;
        }
        let mut parts = vec![
            id.clone(),
            format!("v{}", probe.registry_version.as_deref().unwrap_or("-")),
            format!("acp={}", probe.protocol_version.as_deref().unwrap_or("-")),
            format!(
                "self={}",
                probe.agent_info_version.as_deref().unwrap_or("-")
            ),
            format!(
                "new={}",
                probe
                    .session_new
                    .as_ref()
                    .map_or("-", |p| p.status.as_str())
            ),
            format!(
                "auth[{}]",
                probe
                    .auth_methods
                    .iter()
                    .map(AuthMethod::as_str)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        ];
        for feature in probe.features() {
            let verdict = feature.verdict();
            let name = feature.capability.map_or_else(
                || feature.method.unwrap_or("?").to_owned(),
                |c| word(c).to_owned(),
            );
            parts.push(match verdict {
                Verdict::Unknown(Some(status)) => format!("{name}=unknown({})", status.as_str()),
                other => format!("{name}={}", other.as_str()),
            });
        }
        lines.push(parts.join(" "));
    }
    lines.join("\n")
}

#[test]
fn every_agent_of_the_published_snapshot() {
    let matrix = read(PUBLISHED_MATRIX);
    assert_eq!(
        (matrix.date.as_str(), matrix.schema_version),
        ("2026-08-20", 1)
    );
    assert_eq!(matrix.agents.len(), 30);
    assert_eq!(
        table(&matrix),
        "\
amp-acp v0.9.0 acp=1 self=0.9.0 new=success auth[terminal] load=not-supported list=not-supported fork=not-supported resume=not-supported stop=not-supported model=not-supported
auggie v0.35.0 acp=1 self=0.35.0 (commit 9a7f3836) new=auth_required auth[terminal] load=advertised list=supported fork=not-supported resume=not-supported stop=not-supported model=supported
autohand v0.2.1 acp=1 self=0.2.1 new=auth_required auth[terminal] load=advertised list=supported fork=supported resume=supported stop=not-supported model=supported
claude-acp v0.70.0 acp=1 self=0.70.0 new=success auth[terminal] load=advertised list=supported fork=supported resume=supported stop=not-supported model=not-supported
cline v3.0.55 acp=1 self=3.0.55 new=auth_required auth[agent] load=advertised list=not-supported fork=not-supported resume=not-supported stop=not-supported model=not-supported
codex-acp v1.6.0 acp=1 self=1.6.0 new=auth_required auth[agent] load=advertised list=needs-sign-in fork=not-supported resume=needs-sign-in stop=not-supported model=not-supported
cortex-code failed(process_error: Extraction failed)
corust-agent v0.6.0 acp=1 self=0.1.0 new=auth_required auth[agent] load=not-supported list=not-supported fork=not-supported resume=not-supported stop=not-supported model=needs-sign-in
cursor v2026.08.11 acp=1 self=- new=auth_required auth[agent] load=advertised list=needs-sign-in fork=not-supported resume=not-supported stop=not-supported model=supported
devin v3000.4.25 acp=1 self=0.0.0-dev new=success auth[agent,terminal] load=advertised list=supported fork=not-supported resume=not-supported stop=not-supported model=not-supported
dimcode v0.3.16 acp=1 self=0.3.16 new=auth_required auth[terminal] load=advertised list=supported fork=not-supported resume=needs-sign-in stop=not-supported model=supported
dirac v0.4.37 acp=1 self=0.4.37 new=success auth[agent,env_var,terminal] load=advertised list=not-supported fork=not-supported resume=not-supported stop=not-supported model=not-supported
factory-droid v0.200.0 acp=1 self=0.200.0 new=auth_required auth[agent] load=advertised list=supported fork=not-supported resume=needs-sign-in stop=not-supported model=supported
gemini v0.56.0 acp=1 self=0.56.0 new=auth_required auth[agent] load=advertised list=not-supported fork=not-supported resume=not-supported stop=not-supported model=supported
github-copilot v1.533.0 acp=1 self=1.533.0 new=auth_required auth[agent] load=advertised list=needs-sign-in fork=not-supported resume=not-supported stop=not-supported model=supported
github-copilot-cli v1.0.80 acp=1 self=1.0.80 new=auth_required auth[terminal] load=advertised list=supported fork=not-supported resume=not-supported stop=not-supported model=supported
glm-acp-agent v1.6.0 acp=1 self=1.0.0 new=success auth[agent,env_var] load=advertised list=supported fork=supported resume=advertised stop=not-supported model=supported
goose v1.46.0 acp=1 self=1.46.0 new=error auth[agent] load=advertised list=supported fork=not-supported resume=not-supported stop=not-supported model=not-supported
grok-build v1.0.7 acp=1 self=- new=auth_required auth[agent] load=advertised list=supported fork=not-supported resume=advertised stop=not-supported model=supported
harn v0.10.105 acp=1 self=0.10.105 new=success auth[agent] load=advertised list=supported fork=supported resume=supported stop=supported model=not-supported
junie v2913.6.0 acp=1 self=26.08.3 (2913.6) new=success auth[agent] load=advertised list=supported fork=supported resume=supported stop=not-supported model=supported
kilo v7.4.22 acp=1 self=7.4.22 new=success auth[terminal] load=advertised list=supported fork=supported resume=supported stop=not-supported model=supported
kimi v1.49.0 acp=1 self=1.49.0 new=auth_required auth[terminal] load=advertised list=supported fork=not-supported resume=supported stop=not-supported model=supported
nova v1.1.35 acp=1 self=1.0.0 new=auth_required auth[terminal] load=advertised list=supported fork=not-supported resume=not-supported stop=not-supported model=not-supported
opencode v1.18.18 acp=1 self=1.18.18 new=success auth[terminal] load=advertised list=supported fork=supported resume=supported stop=not-supported model=supported
pi-acp v0.0.33 acp=1 self=0.0.33 new=error auth[terminal] load=advertised list=supported fork=not-supported resume=not-supported stop=not-supported model=not-supported
poolside v1.0.16 acp=1 self=1.0.16 new=auth_required auth[terminal] load=advertised list=supported fork=supported resume=supported stop=not-supported model=not-supported
qwen-code v0.21.14 acp=1 self=0.21.14 new=auth_required auth[agent] load=advertised list=supported fork=not-supported resume=supported stop=not-supported model=supported
sigit v1.5.2 acp=1 self=1.5.2 new=success auth[agent] load=advertised list=not-supported fork=supported resume=not-supported stop=not-supported model=not-supported
stakpak v0.3.88 acp=1 self=0.3.88 new=auth_required auth[agent] load=advertised list=not-supported fork=not-supported resume=not-supported stop=not-supported model=supported"
    );
}

#[test]
fn the_published_snapshot_keeps_what_each_call_returned() {
    let matrix = read(PUBLISHED_MATRIX);
    let codex = &matrix.agents["codex-acp"];
    assert!(codex.needs_sign_in());
    assert_eq!(
        codex.methods["session/list"],
        MethodProbe {
            status: MethodStatus::AuthRequired,
            code: Some(-32000),
            message: Some("Authentication required".to_owned()),
        }
    );
    // Advertised in `initialize`, but the call asked to sign in first: not "not supported".
    let list = codex
        .feature(Capability::SessionList)
        .expect("a known capability");
    assert_eq!(
        (list.advertised, list.method),
        (Some(true), Some("session/list"))
    );
    assert_eq!(list.verdict(), Verdict::NeedsSignIn);
    // Devin's `session/stop` timed out: it advertised none, so it is not supported.
    let devin = &matrix.agents["devin"];
    assert_eq!(
        devin.methods["session/stop"].status,
        MethodStatus::NoResponse
    );
    assert_eq!(
        devin.methods["session/stop"].message.as_deref(),
        Some("timeout after 5.0s")
    );
    assert!(!devin.needs_sign_in());
    // The full file agrees with the trimmed copy the site bundles on everything that copy has,
    // except `glm-acp-agent`'s `setModel`, which the trimmed copy lost.
    let trimmed = read(REAL_MATRIX);
    for (id, full) in &matrix.agents {
        let small = &trimmed.agents[id];
        assert_eq!(
            (
                &full.registry_version,
                &full.distribution,
                &full.status,
                &full.auth_methods
            ),
            (
                &small.registry_version,
                &small.distribution,
                &small.status,
                &small.auth_methods
            ),
            "{id}"
        );
        let mut capabilities = full.capabilities.clone();
        if id == "glm-acp-agent" {
            assert_eq!(capabilities.insert(Capability::SetModel, false), Some(true));
        }
        assert_eq!(capabilities, small.capabilities, "{id}");
    }
    // The failed probe: its words are kept, its placeholder lists are not.
    let cortex = &matrix.agents["cortex-code"];
    assert_eq!(cortex.failure.as_deref(), Some("Extraction failed"));
    assert!(cortex.methods.is_empty() && cortex.session_new.is_none());
    assert_eq!(cortex.features(), Vec::new());
}

#[test]
fn probe_schema_2_reads_session_close() {
    let matrix = read(SCHEMA_2_MATRIX);
    assert_eq!(
        (matrix.date.as_str(), matrix.schema_version),
        ("2026-08-27", 2)
    );
    assert_eq!(
        table(&matrix),
        "\
agent-closes v1.2.3 acp=1 self=1.2.3 new=success auth[agent] load=advertised list=supported fork=not-supported resume=not-supported stop=supported model=supported
agent-no-close v2.0.0 acp=1 self=2.0.0 new=success auth[agent] load=advertised list=supported fork=not-supported resume=not-supported stop=not-supported model=supported
agent-signs-in v0.4.0 acp=1 self=0.4.0 new=auth_required auth[agent] load=advertised list=needs-sign-in fork=not-supported resume=not-supported stop=advertised model=supported session/delete=unknown(rate_limited)"
    );
    let closes = &matrix.agents["agent-closes"];
    let close = closes.feature(Capability::SessionStop).expect("known");
    assert_eq!(
        (close.method, close.advertised),
        (Some("session/close"), Some(true))
    );
    // What the catalogue does not know is kept as given.
    let signs_in = &matrix.agents["agent-signs-in"];
    assert_eq!(
        signs_in.methods["session/delete"],
        MethodProbe {
            status: MethodStatus::Other("rate_limited".to_owned()),
            code: Some(-32029),
            message: Some("Too many requests".to_owned()),
        }
    );
    assert_eq!(signs_in.other_capabilities.get("mcpHttp"), Some(&true));
}

#[test]
fn stop_and_close_fill_one_capability_the_schema_deciding() {
    for (schema, expected) in [("1", Some(false)), ("2", Some(true))] {
        let text = format!(
            r#"{{"probeSchemaVersion": {schema}, "date": "d", "agents": [{{"id": "a",
                "initialize": {{"status": "success"}},
                "capabilities": {{"sessionStop": false, "sessionClose": true}}}}]}}"#
        );
        let matrix = read(&text);
        assert_eq!(
            matrix.agents["a"]
                .capabilities
                .get(&Capability::SessionStop)
                .copied(),
            expected,
            "schema {schema}"
        );
    }
}

#[test]
fn odd_fields_of_the_published_shape_are_warnings() {
    for (fields, expected) in [
        (
            r#""protocolVersion": [1], "sessionNew": "ok", "methodProbes": []"#,
            &[
                "agents[0] (a): `protocolVersion` is an array, not a version like 1; read as unknown",
                "agents[0] (a): `sessionNew` is a string, not an object like {\"status\": \"success\"}; read as not probed",
                "agents[0] (a): `methodProbes` is an array, not an object; no method counts as probed",
            ][..],
        ),
        (
            r#""methodProbes": {"session/list": {"code": 1}, "session/fork": null,
                "session/resume": {"status": "success"}}"#,
            &[
                "agents[0] (a): `methodProbes.session/list`: `status` is missing, not a status like \"success\"; read as not probed",
            ],
        ),
        (
            r#""protocolVersion": "2025-06-18", "agentInfoVersion": null"#,
            &[],
        ),
    ] {
        let text = format!(
            r#"{{"date": "d", "agents": [{{"id": "a", "initialize": {{"status": "success"}}, {fields}}}]}}"#
        );
        let (matrix, warnings) = parse_matrix(&text).expect("JSON");
        assert_eq!(warnings, expected, "{fields}");
        let probe = &matrix.agents["a"];
        assert_eq!(probe.agent_info_version, None);
        if fields.contains("2025-06-18") {
            assert_eq!(probe.protocol_version.as_deref(), Some("2025-06-18"));
        }
        if fields.contains("session/resume") {
            assert_eq!(
                probe.methods.keys().collect::<Vec<_>>(),
                ["session/resume"],
                "only the readable call is kept"
            );
        }
    }
    for (version, expected) in [
        (
            "\"2\"",
            "`probeSchemaVersion` is a string, not a whole number like 2; read as 1",
        ),
        (
            "2.5",
            "`probeSchemaVersion` is the number 2.5, not a whole number like 2; read as 1",
        ),
        (
            "3",
            "`probeSchemaVersion` is 3, newer than 2, the newest this catalogue knows; what it \
             does not know is shown as given or left out",
        ),
    ] {
        let text = format!(r#"{{"probeSchemaVersion": {version}, "date": "d", "agents": []}}"#);
        let (matrix, warnings) = parse_matrix(&text).expect("JSON");
        assert_eq!(warnings, [expected], "{version}");
        assert_eq!(matrix.schema_version, if version == "3" { 3 } else { 1 });
    }
}

#[test]
fn the_catalogue_reports_agents_only() {
    let entries = vec![agent("codex-acp", "Codex"), agent("nobody", "Nobody")];
    let catalog = Catalog::with_matrix(registry(entries.clone()), Some(read(PUBLISHED_MATRIX)));
    let Report::Probed {
        date,
        schema_version,
        probe,
    } = catalog.report(&entries[0])
    else {
        panic!("codex-acp was probed");
    };
    assert_eq!((date, schema_version), ("2026-08-20", 1));
    assert_eq!(probe.protocol_version.as_deref(), Some("1"));
    assert_eq!(catalog.report(&entries[1]), Report::NotProbed);
    // The summary the site shows today agrees.
    assert!(matches!(catalog.facts(&entries[0]), Facts::Probed { .. }));
    assert_eq!(
        Catalog::new(registry(entries.clone())).report(&entries[0]),
        Report::NotProbed
    );
}
