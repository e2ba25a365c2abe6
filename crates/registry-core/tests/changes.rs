//! The change log: each kind of event from two small states written inline, renames, failed
//! probes, skipped states, the bound, the JSON round trip, and the registry's real history.

use std::collections::BTreeMap;

use proptest::prelude::*;
use registry_core::changes::{
    ChangeLog, ChangesError, History, MAX_EVENTS, ProbeState, Problem, RegistryState, Stamp,
};
use serde_json::{Value, json};

/// The day `2026-01-<n>`.
fn day(n: u32) -> Stamp {
    Stamp::parse(&format!("2026-01-{n:02}")).expect("a day")
}

/// An agent of a registry: npx, MIT, its repository named after its id.
fn agent(id: &str, version: &str) -> Value {
    json!({
        "id": id,
        "name": id.to_uppercase(),
        "version": version,
        "description": "An agent.",
        "repository": format!("https://github.com/example/{id}"),
        "license": "MIT",
        "distribution": {"npx": {"package": format!("{id}@{version}")}},
    })
}

/// `agent` with one field set (`null` removes it).
fn with(mut agent: Value, key: &str, value: Value) -> Value {
    if let Some(fields) = agent.as_object_mut() {
        match value {
            Value::Null => fields.remove(key),
            value => fields.insert(key.into(), value),
        };
    }
    agent
}

/// A registry (or a view) of these agents.
fn registry(agents: &[Value]) -> String {
    json!({"version": "1.0.0", "agents": agents}).to_string()
}

/// The texts of one registry state.
#[derive(Clone, Default)]
struct Texts {
    registry: String,
    jetbrains: Option<String>,
    preview: Option<String>,
    quarantine: Option<String>,
}

impl Texts {
    fn of(agents: &[Value]) -> Texts {
        Texts {
            registry: registry(agents),
            ..Texts::default()
        }
    }

    fn jetbrains(self, agents: &[Value]) -> Texts {
        Texts {
            jetbrains: Some(registry(agents)),
            ..self
        }
    }

    fn preview(self, agents: &[Value]) -> Texts {
        Texts {
            preview: Some(registry(agents)),
            ..self
        }
    }

    fn quarantine(self, list: Value) -> Texts {
        Texts {
            quarantine: Some(list.to_string()),
            ..self
        }
    }

    fn state(&self, stamp: Stamp) -> RegistryState<'_> {
        RegistryState {
            jetbrains: self.jetbrains.as_deref(),
            jetbrains_preview: self.preview.as_deref(),
            quarantine: self.quarantine.as_deref(),
            ..RegistryState::new(stamp, &self.registry)
        }
    }
}

/// An event as a line: its JSON without the day and label.
fn line(event: &registry_core::changes::Event) -> String {
    let mut value = serde_json::to_value(event).expect("an event is JSON");
    if let Some(map) = value.as_object_mut() {
        map.shift_remove("day");
        map.shift_remove("snapshot");
    }
    value.to_string()
}

/// The events of `after` against `before`, as lines; no problem on the way.
fn registry_events(before: &Texts, after: &Texts) -> Vec<String> {
    let (mut log, problems) = ChangeLog::start(&before.state(day(1)));
    assert_eq!(problems, []);
    assert_eq!(log.add_registry(&after.state(day(2))), []);
    log.events().iter().map(line).collect()
}

#[test]
fn registry_changes_one_kind_at_a_time() {
    let a = || agent("a", "1.0.0");
    let binary = |keys: &[&str]| {
        let targets: serde_json::Map<String, Value> = keys
            .iter()
            .map(|k| {
                (
                    k.to_string(),
                    json!({"archive": "https://x.test/a.zip", "cmd": "./a"}),
                )
            })
            .collect();
        json!({"binary": targets})
    };
    let cases: Vec<(&str, Texts, Texts, Vec<&str>)> = vec![
        ("nothing", Texts::of(&[a()]), Texts::of(&[a()]), vec![]),
        (
            "added",
            Texts::of(&[a()]),
            Texts::of(&[a(), agent("b", "0.1.0")]),
            vec![r#"{"agent":"b","kind":"added","name":"B","version":"0.1.0"}"#],
        ),
        (
            "removed",
            Texts::of(&[a(), agent("b", "0.1.0")]),
            Texts::of(&[a()]),
            vec![r#"{"agent":"b","kind":"removed","name":"B","version":"0.1.0"}"#],
        ),
        (
            "renamed, with a new version under the new id",
            Texts::of(&[a()]),
            Texts::of(&[with(
                agent("a-acp", "1.1.0"),
                "repository",
                json!("https://github.com/Example/a.git"),
            )]),
            vec![
                r#"{"agent":"a-acp","kind":"renamed","from":"a"}"#,
                r#"{"agent":"a-acp","kind":"name-changed","from":"A","to":"A-ACP"}"#,
                r#"{"agent":"a-acp","kind":"version-changed","from":"1.0.0","to":"1.1.0"}"#,
            ],
        ),
        (
            "name changed",
            Texts::of(&[a()]),
            Texts::of(&[with(a(), "name", json!("Agent A"))]),
            vec![r#"{"agent":"a","kind":"name-changed","from":"A","to":"Agent A"}"#],
        ),
        (
            "version changed",
            Texts::of(&[a()]),
            Texts::of(&[agent("a", "2.0.0")]),
            vec![r#"{"agent":"a","kind":"version-changed","from":"1.0.0","to":"2.0.0"}"#],
        ),
        (
            "a distribution added and one removed, platforms added",
            Texts::of(&[a()]),
            Texts::of(&[with(
                a(),
                "distribution",
                binary(&["linux-x86_64", "linux-riscv64"]),
            )]),
            vec![
                r#"{"agent":"a","kind":"distribution-added","method":"binary"}"#,
                r#"{"agent":"a","kind":"distribution-removed","method":"npx"}"#,
                r#"{"agent":"a","kind":"platform-added","platform":"linux-riscv64"}"#,
                r#"{"agent":"a","kind":"platform-added","platform":"linux-x86_64"}"#,
            ],
        ),
        (
            "a platform removed",
            Texts::of(&[with(
                a(),
                "distribution",
                binary(&["darwin-aarch64", "linux-x86_64"]),
            )]),
            Texts::of(&[with(a(), "distribution", binary(&["linux-x86_64"]))]),
            vec![r#"{"agent":"a","kind":"platform-removed","platform":"darwin-aarch64"}"#],
        ),
        (
            "licence changed",
            Texts::of(&[a()]),
            Texts::of(&[with(a(), "license", json!("Apache-2.0"))]),
            vec![r#"{"agent":"a","kind":"license-changed","from":"MIT","to":"Apache-2.0"}"#],
        ),
        (
            "licence removed",
            Texts::of(&[a()]),
            Texts::of(&[with(a(), "license", Value::Null)]),
            vec![r#"{"agent":"a","kind":"license-changed","from":"MIT","to":null}"#],
        ),
        (
            "quarantined",
            Texts::of(&[a()]).quarantine(json!({})),
            Texts::of(&[a()]).quarantine(json!({"a": "Missing windows builds"})),
            vec![r#"{"agent":"a","kind":"quarantined","reason":"Missing windows builds"}"#],
        ),
        (
            "quarantined for another reason",
            Texts::of(&[a()]).quarantine(json!({"a": "Missing windows builds"})),
            Texts::of(&[a()]).quarantine(json!({"a": "Postinstall script"})),
            vec![r#"{"agent":"a","kind":"quarantined","reason":"Postinstall script"}"#],
        ),
        (
            "released",
            Texts::of(&[a()]).quarantine(json!({"a": "Missing windows builds"})),
            Texts::of(&[a()]).quarantine(json!({})),
            vec![r#"{"agent":"a","kind":"released","reason":"Missing windows builds"}"#],
        ),
        (
            "listed for JetBrains",
            Texts::of(&[a()]).jetbrains(&[]),
            Texts::of(&[a()]).jetbrains(&[a()]),
            vec![r#"{"agent":"a","kind":"listed","view":"jetbrains"}"#],
        ),
        (
            "dropped from JetBrains",
            Texts::of(&[a()]).jetbrains(&[a()]),
            Texts::of(&[a()]).jetbrains(&[]),
            vec![r#"{"agent":"a","kind":"unlisted","view":"jetbrains"}"#],
        ),
        (
            "listed in the preview view, serving a preview",
            Texts::of(&[a()]).preview(&[]),
            Texts::of(&[a()]).preview(&[agent("a", "1.1.0-preview.1")]),
            vec![
                r#"{"agent":"a","kind":"listed","view":"jetbrains-preview"}"#,
                r#"{"agent":"a","kind":"preview-opened","version":"1.1.0-preview.1"}"#,
            ],
        ),
        (
            "another preview",
            Texts::of(&[a()]).preview(&[agent("a", "1.1.0-preview.1")]),
            Texts::of(&[a()]).preview(&[agent("a", "1.1.0-preview.2")]),
            vec![
                r#"{"agent":"a","kind":"preview-changed","from":"1.1.0-preview.1","to":"1.1.0-preview.2"}"#,
            ],
        ),
        (
            "stable catches up with the preview",
            Texts::of(&[a()]).preview(&[agent("a", "1.1.0")]),
            Texts::of(&[agent("a", "1.1.0")]).preview(&[agent("a", "1.1.0")]),
            vec![
                r#"{"agent":"a","kind":"version-changed","from":"1.0.0","to":"1.1.0"}"#,
                r#"{"agent":"a","kind":"preview-closed","version":"1.1.0"}"#,
            ],
        ),
        (
            "dropped from the preview view",
            Texts::of(&[a()]).preview(&[a()]),
            Texts::of(&[a()]).preview(&[]),
            vec![r#"{"agent":"a","kind":"unlisted","view":"jetbrains-preview"}"#],
        ),
        (
            "a new agent, at once listed and quarantined",
            Texts::of(&[]).jetbrains(&[]).quarantine(json!({})),
            Texts::of(&[a()])
                .jetbrains(&[a()])
                .quarantine(json!({"a": "Postinstall script"})),
            vec![
                r#"{"agent":"a","kind":"added","name":"A","version":"1.0.0"}"#,
                r#"{"agent":"a","kind":"quarantined","reason":"Postinstall script"}"#,
                r#"{"agent":"a","kind":"listed","view":"jetbrains"}"#,
            ],
        ),
        (
            "lists seen for the first time say nothing",
            Texts::of(&[a()]),
            Texts::of(&[a()])
                .jetbrains(&[a()])
                .preview(&[agent("a", "2.0.0-rc.1")])
                .quarantine(json!({"a": "Postinstall script"})),
            vec![],
        ),
        (
            "lists missing from a state leave agents as last seen",
            Texts::of(&[a()])
                .jetbrains(&[a()])
                .preview(&[agent("a", "2.0.0-rc.1")])
                .quarantine(json!({"a": "Postinstall script"})),
            Texts::of(&[a()]),
            vec![],
        ),
        (
            "a list that cannot be read is unknown, not empty",
            Texts::of(&[a()]).jetbrains(&[a()]),
            Texts {
                jetbrains: Some("<html>".to_owned()),
                ..Texts::of(&[a()])
            },
            vec![],
        ),
    ];
    for (name, before, after, expected) in cases {
        let before_problems = ChangeLog::start(&before.state(day(1))).1;
        assert_eq!(before_problems, [], "{name}");
        let (mut log, _) = ChangeLog::start(&before.state(day(1)));
        let problems = log.add_registry(&after.state(day(2)));
        assert!(problems.iter().all(|p| !p.skipped), "{name}: {problems:?}");
        let events: Vec<String> = log.events().iter().map(line).collect();
        assert_eq!(events, expected, "{name}");
    }
}

#[test]
fn a_rename_needs_one_id_leaving_and_one_arriving_with_the_same_repository() {
    let repository = |id, repo: &str| {
        let agent = with(agent(id, "1.0.0"), "name", json!("Shared"));
        with(agent, "repository", json!(repo))
    };
    let shared = "https://github.com/example/shared";
    let cases = [
        (
            "one leaves, one arrives: a rename",
            vec![repository("old", shared)],
            vec![repository("new", shared)],
            vec![r#"{"agent":"new","kind":"renamed","from":"old"}"#],
        ),
        (
            "another repository: added and removed",
            vec![repository("old", shared)],
            vec![repository("new", "https://github.com/example/other")],
            vec![
                r#"{"agent":"new","kind":"added","name":"Shared","version":"1.0.0"}"#,
                r#"{"agent":"old","kind":"removed","name":"Shared","version":"1.0.0"}"#,
            ],
        ),
        (
            "two arrive with it: ambiguous, added and removed",
            vec![repository("old", shared)],
            vec![repository("new", shared), repository("newer", shared)],
            vec![
                r#"{"agent":"new","kind":"added","name":"Shared","version":"1.0.0"}"#,
                r#"{"agent":"newer","kind":"added","name":"Shared","version":"1.0.0"}"#,
                r#"{"agent":"old","kind":"removed","name":"Shared","version":"1.0.0"}"#,
            ],
        ),
        (
            "one stays: the other is added",
            vec![repository("old", shared)],
            vec![repository("old", shared), repository("new", shared)],
            vec![r#"{"agent":"new","kind":"added","name":"Shared","version":"1.0.0"}"#],
        ),
        (
            "no repository: added and removed",
            vec![repository("old", shared)]
                .into_iter()
                .map(|a| with(a, "repository", Value::Null))
                .collect(),
            vec![repository("new", shared)]
                .into_iter()
                .map(|a| with(a, "repository", Value::Null))
                .collect(),
            vec![
                r#"{"agent":"new","kind":"added","name":"Shared","version":"1.0.0"}"#,
                r#"{"agent":"old","kind":"removed","name":"Shared","version":"1.0.0"}"#,
            ],
        ),
    ];
    for (name, before, after, expected) in cases {
        assert_eq!(
            registry_events(&Texts::of(&before), &Texts::of(&after)),
            expected,
            "{name}"
        );
    }
}

/// A protocol matrix of `day` with these agents.
fn matrix(day: &Stamp, agents: &[Value]) -> String {
    json!({"date": day.day.to_string(), "agents": agents}).to_string()
}

/// A successful probe.
fn probed(id: &str, protocol: u32, auth: &[&str], capabilities: Value) -> Value {
    json!({"id": id, "initialize": {"status": "success"}, "protocolVersion": protocol,
           "authMethods": auth, "capabilities": capabilities})
}

/// A failed probe, with the matrix's placeholders.
fn failed(id: &str) -> Value {
    json!({"id": id, "initialize": {"status": "process_error"}, "authMethods": [],
           "capabilities": {"loadSession": false, "sessionList": false, "setModel": false}})
}

/// The events of a run of matrices (one agent list per day), as lines.
fn probe_events(matrices: &[Vec<Value>]) -> Vec<String> {
    let mut log = ChangeLog::default();
    for (n, agents) in matrices.iter().enumerate() {
        let stamp = day(n as u32 + 1);
        let text = matrix(&stamp, agents);
        assert_eq!(
            log.add_probe(&ProbeState {
                stamp,
                matrix: &text
            }),
            []
        );
    }
    log.events().iter().map(line).collect()
}

/// A name, the matrices of successive days, and the events expected.
type ProbeCase = (&'static str, Vec<Vec<Value>>, Vec<&'static str>);

#[test]
fn probe_changes_one_kind_at_a_time() {
    let caps = json!({"loadSession": true, "sessionList": false});
    let cases: Vec<ProbeCase> = vec![
        (
            "the first probe of an agent says nothing",
            vec![vec![], vec![probed("a", 1, &["agent"], caps.clone())]],
            vec![],
        ),
        (
            "protocol version",
            vec![
                vec![probed("a", 1, &["agent"], caps.clone())],
                vec![probed("a", 2, &["agent"], caps.clone())],
            ],
            vec![r#"{"agent":"a","kind":"protocol-version-changed","from":"1","to":"2"}"#],
        ),
        (
            "auth methods gained and lost",
            vec![
                vec![probed("a", 1, &["agent"], caps.clone())],
                vec![probed("a", 1, &["env_var", "terminal"], caps.clone())],
            ],
            vec![
                r#"{"agent":"a","kind":"auth-method-added","method":"env_var"}"#,
                r#"{"agent":"a","kind":"auth-method-added","method":"terminal"}"#,
                r#"{"agent":"a","kind":"auth-method-removed","method":"agent"}"#,
            ],
        ),
        (
            "capabilities gained and lost",
            vec![
                vec![probed("a", 1, &[], caps.clone())],
                vec![probed(
                    "a",
                    1,
                    &[],
                    json!({"loadSession": false, "sessionList": true}),
                )],
            ],
            vec![
                r#"{"agent":"a","kind":"capability-added","capability":"sessionList"}"#,
                r#"{"agent":"a","kind":"capability-removed","capability":"loadSession"}"#,
            ],
        ),
        (
            "a capability first reported, or not reported, says nothing",
            vec![
                vec![probed("a", 1, &[], json!({"loadSession": true}))],
                vec![probed("a", 1, &[], json!({"setModel": true}))],
                vec![probed(
                    "a",
                    1,
                    &[],
                    json!({"loadSession": true, "setModel": true}),
                )],
            ],
            vec![],
        ),
        (
            "a failed probe loses nothing",
            vec![
                vec![probed("a", 1, &["agent"], caps.clone())],
                vec![failed("a")],
            ],
            vec![r#"{"agent":"a","kind":"initialize-failing","status":"process_error"}"#],
        ),
        (
            "an agent left out of a matrix keeps its probe",
            vec![
                vec![probed("a", 1, &["agent"], caps.clone())],
                vec![],
                vec![probed("a", 1, &["agent"], caps.clone())],
            ],
            vec![],
        ),
        (
            "a first success after failures: no baseline to compare with",
            vec![
                vec![failed("a")],
                vec![probed("a", 1, &["agent"], caps.clone())],
            ],
            vec![r#"{"agent":"a","kind":"initialize-succeeding"}"#],
        ),
        (
            "recovered: compared with the last successful probe",
            vec![
                vec![probed("a", 1, &["agent"], caps.clone())],
                vec![failed("a")],
                vec![failed("a")],
                vec![probed("a", 1, &["agent", "terminal"], caps.clone())],
            ],
            vec![
                r#"{"agent":"a","kind":"initialize-failing","status":"process_error"}"#,
                r#"{"agent":"a","kind":"initialize-succeeding"}"#,
                r#"{"agent":"a","kind":"auth-method-added","method":"terminal"}"#,
            ],
        ),
    ];
    for (name, matrices, expected) in cases {
        assert_eq!(probe_events(&matrices), expected, "{name}");
    }
}

#[test]
fn events_of_a_day_are_ordered_by_stream_agent_kind_and_details() {
    let before = Texts::of(&[agent("b", "1.0.0"), agent("a", "1.0.0")]);
    let after = Texts::of(&[agent("b", "2.0.0"), agent("c", "1.0.0")]);
    let (mut log, _) = ChangeLog::start(&before.state(day(1)));
    let caps = json!({"loadSession": true});
    for (n, protocol) in [(1, 1), (2, 2)] {
        let text = matrix(&day(n), &[probed("a", protocol, &[], caps.clone())]);
        log.add_probe(&ProbeState {
            stamp: day(n),
            matrix: &text,
        });
    }
    log.add_registry(&after.state(day(2)));
    let events: Vec<String> = log
        .events()
        .iter()
        .map(|e| format!("{} {} {}", e.day, e.agent, e.change.kind()))
        .collect();
    assert_eq!(
        events,
        [
            "2026-01-02 a removed",
            "2026-01-02 b version-changed",
            "2026-01-02 c added",
            "2026-01-02 a protocol-version-changed",
        ]
    );
}

#[test]
fn bad_and_out_of_order_states_are_skipped_and_the_log_kept() {
    let one = Texts::of(&[agent("a", "1.0.0")]);
    let two = Texts::of(&[agent("a", "2.0.0")]);
    let (mut log, _) = ChangeLog::start(&one.state(day(1)));
    log.add_registry(&two.state(day(3)));
    let before = log.to_json();
    let corrupt = Texts {
        registry: r#"{"agents": [{"id": "a""#.to_owned(),
        ..Texts::default()
    };
    let skipped = |problems: Vec<Problem>| -> Vec<(String, bool)> {
        problems
            .into_iter()
            .map(|p| (p.snapshot, p.skipped))
            .collect()
    };
    let problems = log.add_registry(&corrupt.state(day(4)));
    assert_eq!(skipped(problems.clone()), [("2026-01-04".to_owned(), true)]);
    assert!(
        problems[0].message.starts_with("registry.json: "),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].message.ends_with("; this state was skipped"),
        "{}",
        problems[0]
    );
    for stamp in [day(2), day(3)] {
        let problems = log.add_registry(&one.state(stamp.clone()));
        assert_eq!(skipped(problems.clone()), [(stamp.snapshot, true)]);
        assert!(
            problems[0]
                .message
                .contains("the log's last registry state is 2026-01-03")
        );
    }
    assert_eq!(log.to_json(), before, "nothing changed");
    // A later snapshot of the same day is read after it.
    let three = Texts::of(&[agent("a", "3.0.0")]);
    let later = Stamp::parse("v2026.01.03-abcdef0").unwrap();
    assert!(log.add_registry(&three.state(later)).is_empty());
    assert_eq!(
        log.events().last().map(|e| e.change.words()).as_deref(),
        Some("2.0.0 → 3.0.0")
    );
    let before = log.to_json();

    let bad_matrix = ProbeState {
        stamp: day(5),
        matrix: "[1, 2]",
    };
    let problems = log.add_probe(&bad_matrix);
    assert_eq!(skipped(problems), [("2026-01-05".to_owned(), true)]);
    assert_eq!(log.to_json(), before, "nothing changed");

    // A matrix of another day than its state's is read as of the state's day, and said so.
    let text = matrix(&day(8), &[]);
    let problems = log.add_probe(&ProbeState {
        stamp: day(7),
        matrix: &text,
    });
    assert_eq!(
        problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "2026-01-07: the matrix says it is of 2026-01-08, but its state is dated 2026-01-07; \
          that day was used"
        ]
    );
    assert_eq!(log.last_probe(), Some(&day(7)));

    // A bad entry is a problem; the others still count.
    let with_a_bad_entry = Texts {
        registry: format!(r#"{{"agents": [{}, {{"id": "b"}}]}}"#, agent("a", "3.0.0")),
        ..Texts::default()
    };
    let problems = log.add_registry(&with_a_bad_entry.state(day(6)));
    assert!(!problems.is_empty());
    for problem in &problems {
        assert!(!problem.skipped, "{problem}");
        assert!(
            problem
                .message
                .starts_with("registry.json: error: agents[1] (b): "),
            "{problem}"
        );
    }
    let kinds: Vec<&str> = log.events().iter().map(|e| e.change.kind()).collect();
    assert_eq!(kinds, ["version-changed", "version-changed"]);

    // A log whose first state cannot be read starts at the next one.
    let (mut log, problems) = ChangeLog::start(&corrupt.state(day(1)));
    assert_eq!(skipped(problems), [("2026-01-01".to_owned(), true)]);
    assert_eq!(log.started_from(), None);
    assert_eq!(log.add_registry(&one.state(day(2))), []);
    assert_eq!(log.started_from(), Some(&day(2)));
}

#[test]
fn the_same_states_give_the_same_bytes() {
    let states = [
        Texts::of(&[agent("a", "1.0.0"), agent("b", "1.0.0")]),
        Texts::of(&[
            agent("b", "1.1.0"),
            agent("c", "0.1.0"),
            agent("a", "1.0.1"),
        ]),
        Texts::of(&[agent("c", "0.2.0")]).quarantine(json!({"c": "Postinstall script"})),
    ];
    let build = || {
        let mut log = ChangeLog::default();
        for (n, texts) in states.iter().enumerate() {
            log.add_registry(&texts.state(day(n as u32 + 1)));
        }
        log.to_json()
    };
    let json = build();
    assert_eq!(json, build());
    let read = ChangeLog::from_json(&json).expect("its own JSON reads");
    assert_eq!(read.to_json(), json);
    assert!(
        json.starts_with(r#"{"changesFormat":1,"startedFrom":{"day":"2026-01-01""#),
        "{json}"
    );
}

#[test]
fn the_bound_keeps_the_newest_events_and_counts_the_others() {
    let few: Vec<Value> = (0..10)
        .map(|n| agent(&format!("early-{n}"), "1.0.0"))
        .collect();
    let many: Vec<Value> = (0..MAX_EVENTS - 5)
        .map(|n| agent(&format!("late-{n:05}"), "1.0.0"))
        .chain(few.iter().cloned())
        .collect();
    let (mut log, _) = ChangeLog::start(&Texts::of(&[]).state(day(1)));
    log.add_registry(&Texts::of(&few).state(day(2)));
    log.add_registry(&Texts::of(&many).state(day(3)));
    assert_eq!(log.events().len(), MAX_EVENTS);
    assert_eq!(log.truncated(), 5);
    let first = &log.events()[0];
    assert_eq!((first.day, first.agent.as_str()), (day(2).day, "early-5"));
    let json = log.to_json();
    assert!(json.contains(r#""truncated":5,"#));
    let read = ChangeLog::from_json(&json).expect("reads");
    assert_eq!((read.events().len(), read.truncated()), (MAX_EVENTS, 5));
    assert_eq!(read.to_json(), json);
}

#[test]
fn a_log_that_cannot_be_read_says_why() {
    let log = ChangeLog::default().to_json();
    assert_eq!(ChangeLog::from_json(&log), Ok(ChangeLog::default()));
    let err = |text: &str| ChangeLog::from_json(text).expect_err(text);
    assert!(matches!(
        err("{\"changesFormat\": 1,"),
        ChangesError::Json { line: 1, .. }
    ));
    assert_eq!(
        err(r#"{"changesFormat": 2, "events": "new"}"#),
        ChangesError::Format { found: "2".into() }
    );
    assert_eq!(
        err("{}"),
        ChangesError::Format {
            found: "missing".into()
        }
    );
    assert!(matches!(err("[1]"), ChangesError::Shape { .. }));
    let shape = err(&log.replace(r#""events":[]"#, r#""events":[{"kind":"exploded"}]"#));
    assert!(matches!(shape, ChangesError::Shape { .. }), "{shape}");
    assert!(shape.to_string().contains("start a new log"), "{shape}");
}

#[test]
fn helpers_follow_renames() {
    let repo = |v: Value| {
        let v = with(v, "name", json!("Shared"));
        with(v, "repository", json!("https://github.com/example/shared"))
    };
    let states = [
        Texts::of(&[agent("z", "1.0.0")]),
        Texts::of(&[agent("z", "1.0.0"), repo(agent("old", "1.0.0"))]),
        Texts::of(&[agent("z", "1.0.0"), repo(agent("old", "1.1.0"))]),
        Texts::of(&[agent("z", "1.0.0"), repo(agent("new", "1.1.0"))]),
        Texts::of(&[agent("z", "2.0.0"), repo(agent("new", "1.1.0"))]),
    ];
    let mut log = ChangeLog::default();
    for (n, texts) in states.iter().enumerate() {
        log.add_registry(&texts.state(day(n as u32 + 1)));
    }
    let kinds: Vec<String> = log
        .for_agent("new")
        .iter()
        .map(|e| format!("{} {}", e.agent, e.change.kind()))
        .collect();
    assert_eq!(kinds, ["old added", "old version-changed", "new renamed"]);
    let days = |map: BTreeMap<String, registry_core::edition::Day>| -> Vec<String> {
        map.iter().map(|(id, day)| format!("{id} {day}")).collect()
    };
    assert_eq!(days(log.added_days()), ["new 2026-01-02"]);
    assert_eq!(days(log.updated_days()), ["new 2026-01-03", "z 2026-01-05"]);
    assert_eq!(log.of_kind("version-changed").count(), 2);
}

#[test]
fn history_files_are_sorted_into_states() {
    let files = [
        ("registry/2026-01-02.json", "two"),
        ("registry/2026-01-01.json", "one"),
        ("registry/2026-01-01.jetbrains.json", "one for JetBrains"),
        (r"registry\2026-01-02.quarantine.json", "two's quarantine"),
        ("registry/v2026.01.03-1a2b3c.json", "three"),
        (
            "registry/v2026.01.03-1a2b3c.jetbrains-preview.json",
            "three's preview",
        ),
        ("registry/2026-01-04.jetbrains.json", "alone"),
        ("protocol-matrix/2026-03-02.json", "probe two"),
        ("protocol-matrix/2026-03-01.json", "probe one"),
        ("./protocol-matrix/2026-03-01.json", "probe one again"),
        ("README.md", "words"),
        ("registry/latest.json", "no day"),
        ("snapshots/2026-01-01.json", "elsewhere"),
    ];
    let (history, problems) = History::read(&files);
    let registry: Vec<String> = history
        .registry
        .iter()
        .map(|s| {
            format!(
                "{} {} {:?} {:?} {:?}",
                s.stamp, s.registry, s.jetbrains, s.jetbrains_preview, s.quarantine
            )
        })
        .collect();
    assert_eq!(
        registry,
        [
            r#"2026-01-01 one Some("one for JetBrains") None None"#,
            r#"2026-01-02 two None None Some("two's quarantine")"#,
            r#"v2026.01.03-1a2b3c (2026-01-03) three None Some("three's preview") None"#,
        ]
    );
    let probes: Vec<String> = history
        .probes
        .iter()
        .map(|s| format!("{} {}", s.stamp, s.matrix))
        .collect();
    assert_eq!(probes, ["2026-03-01 probe one", "2026-03-02 probe two"]);
    let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 4, "{problems:#?}");
    for (problem, expected) in problems.iter().zip([
        "./protocol-matrix/2026-03-01.json: names the same state as `protocol-matrix/2026-03-01.json`",
        "registry/latest.json: the name is not a day",
        "snapshots/2026-01-01.json: not a file of a history folder",
        "registry/2026-01-04.jetbrains.json: there is no `registry/2026-01-04.json` beside it",
    ]) {
        assert!(problem.starts_with(expected), "{problem}");
    }
}

/// One registry state for the property: agents from a small pool, some changes.
#[derive(Clone, Debug)]
struct Generated {
    /// Per agent of the pool: absent, or (version, licence, listed for JetBrains, quarantined).
    agents: Vec<Option<(u8, bool, bool, bool)>>,
    corrupt: bool,
}

/// One probe state for the property: per agent of the pool, absent or (ok, auth, caps).
type GeneratedProbe = Vec<Option<(bool, u8, u8)>>;

impl Generated {
    fn texts(&self) -> Texts {
        if self.corrupt {
            return Texts {
                registry: "{\"agents\": [".to_owned(),
                ..Texts::default()
            };
        }
        let mut agents = Vec::new();
        let mut jetbrains = Vec::new();
        let mut quarantine = serde_json::Map::new();
        for (n, slot) in self.agents.iter().enumerate() {
            let Some((version, license, listed, quarantined)) = *slot else {
                continue;
            };
            // Ids 0 and 1 share a repository, so one may become the other.
            let repository = format!("https://github.com/example/{}", n.max(1));
            let mut value = agent(&format!("agent-{n}"), &format!("1.{version}.0"));
            value = with(value, "repository", json!(repository));
            if license {
                value = with(value, "license", json!("Apache-2.0"));
            }
            if listed {
                jetbrains.push(value.clone());
            }
            if quarantined {
                quarantine.insert(format!("agent-{n}"), json!("Missing windows builds"));
            }
            agents.push(value);
        }
        Texts::of(&agents)
            .jetbrains(&jetbrains)
            .quarantine(Value::Object(quarantine))
    }
}

fn probe_text(stamp: &Stamp, probes: &GeneratedProbe) -> String {
    let agents: Vec<Value> = probes
        .iter()
        .enumerate()
        .filter_map(|(n, slot)| {
            let (ok, auth, caps) = (*slot)?;
            let id = format!("agent-{n}");
            if !ok {
                return Some(failed(&id));
            }
            let auth: Vec<&str> = ["agent", "terminal", "env_var"]
                .into_iter()
                .enumerate()
                .filter(|(bit, _)| auth & (1 << bit) != 0)
                .map(|(_, name)| name)
                .collect();
            let caps = json!({"loadSession": caps & 1 != 0, "sessionList": caps & 2 != 0});
            Some(probed(&id, 1, &auth, caps))
        })
        .collect();
    matrix(stamp, &agents)
}

fn generated_registry() -> impl Strategy<Value = Generated> {
    let slot = prop::option::of((0u8..3, any::<bool>(), any::<bool>(), any::<bool>()));
    (prop::collection::vec(slot, 4), prop::bool::weighted(0.1))
        .prop_map(|(agents, corrupt)| Generated { agents, corrupt })
}

fn generated_probe() -> impl Strategy<Value = GeneratedProbe> {
    prop::collection::vec(
        prop::option::of((prop::bool::weighted(0.7), 0u8..8, 0u8..4)),
        4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Carried forward one state at a time through its JSON, in any interleaving of the two
    /// streams, the log is byte for byte the one built from the whole history at once.
    #[test]
    fn carried_forward_equals_built_at_once(
        registry in prop::collection::vec(generated_registry(), 1..8),
        probes in prop::collection::vec(generated_probe(), 0..8),
        order in prop::collection::vec(any::<bool>(), 16),
    ) {
        let registry_texts: Vec<Texts> = registry.iter().map(Generated::texts).collect();
        let probe_stamps: Vec<Stamp> = (0..probes.len()).map(|n| day(n as u32 * 2 + 1)).collect();
        let probe_texts: Vec<String> = probes
            .iter()
            .zip(&probe_stamps)
            .map(|(p, stamp)| probe_text(stamp, p))
            .collect();
        let history = History {
            registry: registry_texts
                .iter()
                .enumerate()
                .map(|(n, texts)| texts.state(day(n as u32 + 1)))
                .collect(),
            probes: probe_stamps
                .iter()
                .zip(&probe_texts)
                .map(|(stamp, matrix)| ProbeState { stamp: stamp.clone(), matrix })
                .collect(),
        };
        let (at_once, _) = ChangeLog::from_history(&history);

        let mut json = ChangeLog::default().to_json();
        let (mut r, mut p) = (history.registry.iter(), history.probes.iter());
        let mut turns = order.iter().cycle();
        loop {
            let mut log = ChangeLog::from_json(&json).expect("its own JSON reads");
            let registry_turn = *turns.next().unwrap_or(&true);
            match (registry_turn, r.len(), p.len()) {
                (_, 0, 0) => break,
                (true, 1.., _) | (false, 1.., 0) => log.add_registry(r.next().expect("a state")),
                _ => log.add_probe(p.next().expect("a state")),
            };
            json = log.to_json();
        }
        prop_assert_eq!(json, at_once.to_json());
    }
}

/// The real history fixture: registry.json day by day, and the daily protocol matrices.
mod real {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    use super::*;

    const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/history");

    /// Every file of the fixture, as (path inside it, text).
    fn files() -> Vec<(String, String)> {
        let mut files = Vec::new();
        for folder in ["registry", "protocol-matrix"] {
            let dir = Path::new(ROOT).join(folder);
            for entry in std::fs::read_dir(&dir).expect("the fixture folder") {
                let path = entry.expect("a file").path();
                let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
                let text = std::fs::read_to_string(&path).expect("a text file");
                files.push((format!("{folder}/{name}"), text));
            }
        }
        files.push(("README.md".to_owned(), String::new()));
        files
    }

    fn log() -> ChangeLog {
        let files = files();
        let pairs: Vec<(&str, &str)> = files
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        let (history, problems) = History::read(&pairs);
        assert_eq!(problems, []);
        assert_eq!((history.registry.len(), history.probes.len()), (26, 34));
        let (log, problems) = ChangeLog::from_history(&history);
        assert_eq!(problems, []);
        log
    }

    /// Per month, (additions, version updates), counted straight from the JSON: each
    /// `registry.json` as an id → (version, repository) map, compared with the previous one; an
    /// id leaving as one arrives with the same repository is a rename, not an addition.
    fn independent_counts() -> BTreeMap<String, (usize, usize)> {
        let mut names: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("registry"))
            .expect("the fixture folder")
            .map(|e| {
                e.expect("a file")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|name| !name.contains(".jetbrains"))
            .collect();
        names.sort();
        let read = |name: &str| -> BTreeMap<String, (String, String)> {
            let path = Path::new(ROOT).join("registry").join(name);
            let text = std::fs::read_to_string(path).expect("a file");
            let value: Value = serde_json::from_str(&text).expect("JSON");
            let field = |agent: &Value, key: &str| agent[key].as_str().unwrap_or("").to_owned();
            value["agents"]
                .as_array()
                .expect("agents")
                .iter()
                .map(|a| {
                    (
                        field(a, "id"),
                        (field(a, "version"), field(a, "repository")),
                    )
                })
                .collect()
        };
        let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for pair in names.windows(2) {
            let (before, after) = (read(&pair[0]), read(&pair[1]));
            let month = pair[1][..7].to_owned();
            let repos = |from: &BTreeMap<String, (String, String)>, other: &BTreeMap<_, _>| {
                let mut repos: BTreeMap<String, Vec<String>> = BTreeMap::new();
                for (id, (_, repo)) in from.iter().filter(|(id, _)| !other.contains_key(*id)) {
                    repos.entry(repo.clone()).or_default().push(id.clone());
                }
                repos
            };
            let (left, arrived) = (repos(&before, &after), repos(&after, &before));
            let mut renamed_to = BTreeSet::new();
            let count = counts.entry(month).or_default();
            for (repo, new) in &arrived {
                if let (Some(old), [new]) = (left.get(repo), new.as_slice())
                    && old.len() == 1
                {
                    renamed_to.insert(new.clone());
                    count.1 += usize::from(before[&old[0]].0 != after[new].0);
                }
            }
            for (id, (version, _)) in &after {
                match before.get(id) {
                    Some((old, _)) => count.1 += usize::from(old != version),
                    None => count.0 += usize::from(!renamed_to.contains(id)),
                }
            }
        }
        counts
    }

    #[test]
    fn additions_and_updates_per_month_match_an_independent_count() {
        let log = log();
        let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        for event in log.events() {
            let count = counts
                .entry(event.day.to_string()[..7].to_owned())
                .or_default();
            match event.change.kind() {
                "added" => count.0 += 1,
                "version-changed" => count.1 += 1,
                _ => {}
            }
        }
        let mut expected = independent_counts();
        for counts in [&mut counts, &mut expected] {
            counts.retain(|_, count| *count != (0, 0));
        }
        assert_eq!(counts, expected);
        let total: usize = expected.values().map(|c| c.1).sum();
        assert!(
            total > 62,
            "the README counts 62 on other days alone: {total}"
        );
    }

    /// The events of one day, as `agent kind details`.
    fn on(log: &ChangeLog, day: &str) -> Vec<String> {
        log.events()
            .iter()
            .filter(|e| e.day.to_string() == day)
            .map(line)
            .collect()
    }

    #[test]
    fn the_days_the_readme_names() {
        let log = log();
        let start = log.started_from().expect("started");
        assert_eq!(start.to_string(), "2025-12-19");
        assert_eq!(
            log.probes_started_from()
                .map(ToString::to_string)
                .as_deref(),
            Some("2026-03-06")
        );
        let christmas = on(&log, "2025-12-25");
        assert!(
            christmas
                .contains(&r#"{"agent":"codex-acp","kind":"renamed","from":"codex"}"#.to_owned())
        );
        let removals: Vec<&String> = christmas
            .iter()
            .filter(|e| e.contains(r#""removed""#))
            .collect();
        assert_eq!(removals.len(), 6, "{christmas:#?}");
        assert!(
            !christmas.iter().any(|e| e.contains(r#""kind":"added""#)),
            "{christmas:#?}"
        );

        let copilot = on(&log, "2026-01-16");
        assert_eq!(copilot.len(), 2, "{copilot:#?}");
        assert!(copilot[0].starts_with(r#"{"agent":"github-copilot","kind":"added""#));
        assert_eq!(
            copilot[1],
            r#"{"agent":"opencode","kind":"version-changed","from":"1.1.23","to":"1.1.25"}"#
        );
        assert_eq!(
            on(&log, "2026-01-20"),
            [
                r#"{"agent":"factory-droid","kind":"added","name":"Factory Droid","version":"0.52.0"}"#,
                r#"{"agent":"gemini","kind":"version-changed","from":"0.24.4","to":"0.24.5"}"#,
                r#"{"agent":"opencode","kind":"version-changed","from":"1.1.26","to":"1.1.28"}"#,
                r#"{"agent":"qwen-code","kind":"version-changed","from":"0.7.1","to":"0.7.2"}"#,
            ]
        );
        // The JetBrains view first appears on 2026-01-27: no listing events then; on 2026-02-06
        // the two new agents are listed for it at once.
        assert!(on(&log, "2026-01-27").iter().all(|e| !e.contains("listed")));
        let listed: Vec<String> = on(&log, "2026-02-06")
            .into_iter()
            .filter(|e| e.contains(r#""kind":"listed""#))
            .collect();
        assert_eq!(
            listed,
            [
                r#"{"agent":"kimi","kind":"listed","view":"jetbrains"}"#,
                r#"{"agent":"qoder","kind":"listed","view":"jetbrains"}"#,
            ]
        );
        assert_eq!(
            log.added_days()
                .get("kimi")
                .map(ToString::to_string)
                .as_deref(),
            Some("2026-02-06")
        );
        let updated = log.updated_days();
        let updated = |id| updated.get(id).map(ToString::to_string);
        assert_eq!(updated("opencode").as_deref(), Some("2026-02-05"));
        assert_eq!(updated("gemini").as_deref(), Some("2026-02-06"));
    }

    #[test]
    fn the_probes_the_matrices_show() {
        let log = log();
        assert!(on(&log, "2026-03-17").contains(
            &r#"{"agent":"codex-acp","kind":"auth-method-added","method":"env_var"}"#.to_owned()
        ));
        // amp-acp's download failed on 2026-08-13 and worked again the next day.
        let amp = |day| -> Vec<String> {
            on(&log, day)
                .into_iter()
                .filter(|e| e.contains(r#""agent":"amp-acp""#))
                .collect()
        };
        assert_eq!(
            amp("2026-08-13"),
            [r#"{"agent":"amp-acp","kind":"initialize-failing","status":"process_error"}"#]
        );
        assert_eq!(
            amp("2026-08-14"),
            [r#"{"agent":"amp-acp","kind":"initialize-succeeding"}"#]
        );
        let json = log.to_json();
        assert_eq!(ChangeLog::from_json(&json).map(|l| l.to_json()), Ok(json));
    }
}

#[test]
fn the_date_orders_put_the_latest_day_first_and_undated_entries_last_by_name() {
    // a, b, c listed from the start; b updated on the 3rd, then d added on the 4th and a
    // updated on the 5th.
    let start = [agent("a", "1"), agent("b", "1"), agent("c", "1")];
    let (mut log, _) = ChangeLog::start(&RegistryState::new(day(1), &registry(&start)));
    let third = registry(&[agent("a", "1"), agent("b", "2"), agent("c", "1")]);
    log.add_registry(&RegistryState::new(day(3), &third));
    let fourth = registry(&[
        agent("a", "1"),
        agent("b", "2"),
        agent("c", "1"),
        agent("d", "1"),
    ]);
    log.add_registry(&RegistryState::new(day(4), &fourth));
    let fifth = registry(&[
        agent("a", "2"),
        agent("b", "2"),
        agent("c", "1"),
        agent("d", "1"),
    ]);
    log.add_registry(&RegistryState::new(day(5), &fifth));
    let catalog = registry_core::Catalog::new(registry_core::load(&fifth).unwrap().registry);
    let dates = log.dates();
    let order = |sort: &str, dates: Option<&registry_core::Dates>| -> Vec<String> {
        let query = registry_core::CatalogQuery::from_query_string(&format!("sort={sort}"));
        let view = catalog.view_dated(&query, dates);
        view.results
            .iter()
            .map(|&i| catalog.registry.entries[i].id.clone())
            .collect()
    };
    assert_eq!(order("updated", Some(&dates)), ["a", "d", "b", "c"]);
    assert_eq!(order("newest", Some(&dates)), ["d", "a", "b", "c"]);
    // Without the log's days, by name.
    assert_eq!(order("updated", None), ["a", "b", "c", "d"]);
    assert_eq!(
        registry_core::CatalogQuery::from_query_string("sort=newest").to_query_string(),
        "sort=newest"
    );
}
