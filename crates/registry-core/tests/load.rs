//! `load` against the real registry, the RFD's example manifest and tables of broken inputs.

use proptest::prelude::*;
use registry_core::{Kind, LoadError, Loaded, Location, Method, Severity, load};
use serde_json::Value;

const REAL_2026: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026/dist/registry.json"
));
const REAL_2026_02: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026-02/dist/registry.json"
));
const RFD_EXAMPLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/rfd-example.jsonc"
));
const SOURCE_2026: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/real-registry-2026/source"
);

fn load_ok(text: &str) -> Loaded {
    load(text).unwrap_or_else(|err| panic!("{err}\n--- input ---\n{text}"))
}

/// The ids of the entries loaded, in order.
fn ids(loaded: &Loaded) -> Vec<&str> {
    loaded
        .registry
        .entries
        .iter()
        .map(|e| e.id.as_str())
        .collect()
}

/// A valid agent entry with this id.
fn good(id: &str) -> String {
    format!(
        r#"{{"id": "{id}", "name": "N", "version": "1.0.0", "description": "d",
            "distribution": {{"npx": {{"package": "p@1.0.0"}}}}}}"#
    )
}

/// A registry of these agent entries.
fn agents(entries: &[&str]) -> String {
    format!(
        r#"{{"version": "1.0.0", "agents": [{}]}}"#,
        entries.join(", ")
    )
}

// ---------------------------------------------------------------------------------------------
// Real data

#[test]
fn real_registries_load_without_problems() {
    for (text, agents, name) in [
        (REAL_2026, 130, "real-registry-2026"),
        (REAL_2026_02, 11, "real-registry-2026-02"),
    ] {
        let loaded = load_ok(text);
        assert_eq!(loaded.diagnostics, [], "{name}");
        assert_eq!(loaded.registry.version.as_deref(), Some("1.0.0"), "{name}");
        assert_eq!(loaded.registry.entries.len(), agents, "{name}");
        assert!(
            loaded
                .registry
                .entries
                .iter()
                .all(|e| e.kind == Kind::Agent),
            "{name}"
        );
    }
}

#[test]
fn real_entries_keep_their_exact_text_in_file_order() {
    let loaded = load_ok(REAL_2026);
    let published: Value = serde_json::from_str(REAL_2026).unwrap();
    let published = published["agents"].as_array().unwrap();
    let mut from = 0;
    for (entry, json) in loaded.registry.entries.iter().zip(published) {
        let at = REAL_2026[from..]
            .find(&entry.raw)
            .expect("raw is a slice of the text");
        from += at + entry.raw.len();
        assert_eq!(&serde_json::from_str::<Value>(&entry.raw).unwrap(), json);
        assert_eq!(json["id"], entry.id.as_str());
    }
}

#[test]
fn unknown_fields_survive_in_raw() {
    let loaded = load_ok(REAL_2026);
    let claude = loaded.registry.find(Kind::Agent, "claude-acp").unwrap();
    assert_eq!(claude.unknown_fields(), ["preview"]);
    assert!(claude.raw.contains(r#""preview""#));
    let others: Vec<&str> = loaded
        .registry
        .entries
        .iter()
        .filter(|e| !e.unknown_fields().is_empty())
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(others, ["claude-acp"]);
}

#[test]
fn real_entries_without_optional_fields_load() {
    let loaded = load_ok(REAL_2026);
    let entries = &loaded.registry.entries;
    let count = |f: fn(&registry_core::Entry) -> bool| entries.iter().filter(|e| f(e)).count();
    assert_eq!(count(|e| e.icon.is_none()), 41);
    assert_eq!(count(|e| e.repository.is_none()), 14);
    assert_eq!(count(|e| e.license.is_none()), 3);
    assert_eq!(count(|e| e.distribution.methods().is_empty()), 0);
    let acp_bridge = loaded.registry.find(Kind::Agent, "acp-bridge").unwrap();
    assert_eq!(acp_bridge.distribution.methods(), [Method::Binary]);
    assert_eq!(acp_bridge.distribution.binary.len(), 4);
}

/// Each published entry is its source manifest plus the build's `icon`: loading the manifest on
/// its own (as a maintainer previews it) must give the same entry.
#[test]
fn every_published_source_manifest_loads_on_its_own() {
    for published in load_ok(REAL_2026).registry.entries {
        let path = format!("{SOURCE_2026}/{}/agent.json", published.id);
        let text = std::fs::read_to_string(&path).unwrap();
        let single = load_ok(&text);
        assert_eq!(single.diagnostics, [], "{path}");
        let [entry] = single.registry.entries.as_slice() else {
            panic!("{path}: one entry expected");
        };
        assert_eq!(entry.raw, text.trim(), "{path}");
        let without_icon = registry_core::Entry {
            icon: entry.icon.clone(),
            raw: entry.raw.clone(),
            ..published
        };
        assert_eq!(*entry, without_icon, "{path}");
    }
}

/// The folders the registry did not publish, read as previews: each says what is wrong.
#[test]
fn unpublished_source_manifests_say_what_is_wrong() {
    let table: &[(&str, &[(Severity, &str)])] = &[
        (
            "aider-acp",
            &[
                (
                    Severity::Error,
                    "`authors[0]` must be a string, found an object",
                ),
                (
                    Severity::Error,
                    "`authors[1]` must be a string, found an object",
                ),
            ],
        ),
        ("grok-cli", &[]),
    ];
    for &(id, expect) in table {
        let path = format!("{SOURCE_2026}/{id}/agent.json");
        let loaded = load_ok(&std::fs::read_to_string(&path).unwrap());
        let got: Vec<(Severity, &str)> = loaded
            .diagnostics
            .iter()
            .map(|d| (d.severity, d.message.as_str()))
            .collect();
        assert_eq!(got, expect, "{path}");
    }
}

// ---------------------------------------------------------------------------------------------
// The RFD's manifest shape and JSONC

#[test]
fn rfd_example_loads_as_one_agent_with_binary_targets() {
    let loaded = load_ok(RFD_EXAMPLE);
    let [entry] = loaded.registry.entries.as_slice() else {
        panic!("one entry expected: {loaded:#?}");
    };
    assert_eq!(entry.kind, Kind::Agent);
    assert_eq!(entry.id, "someagent");
    assert_eq!(entry.name, "SomeAgent");
    assert_eq!(
        entry.website.as_deref(),
        Some("https://github.com/example/someagent")
    );
    assert_eq!(entry.authors, ["Example Team"]);
    assert_eq!(entry.distribution.methods(), [Method::Binary]);
    let keys: Vec<String> = entry
        .distribution
        .binary
        .keys()
        .map(|k| k.to_string())
        .collect();
    assert_eq!(
        keys,
        [
            "darwin-aarch64",
            "darwin-x86_64",
            "linux-aarch64",
            "linux-x86_64",
            "windows-x86_64"
        ]
    );
    assert!(
        entry
            .distribution
            .binary
            .keys()
            .all(|k| k.platform().is_some())
    );
    let windows = entry.distribution.binary.values().last().unwrap();
    assert_eq!(windows.cmd, "./someagent.exe");
    assert_eq!(windows.args, ["acp"]);
    assert_eq!(
        windows.env.get("SOMEAGENT_MODE_KEY").map(String::as_str),
        Some("")
    );
    assert_eq!(
        entry.unknown_fields(),
        ["schema_version", "homepage", "capabilities", "auth"]
    );
    let entry_at = Location::Entry {
        kind: Kind::Agent,
        index: 0,
        id: Some("someagent".into()),
    };
    let got: Vec<_> = loaded
        .diagnostics
        .iter()
        .map(|d| (d.severity, d.location.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (Severity::Warning, Location::Registry),
            (Severity::Warning, entry_at.clone()),
            (Severity::Warning, entry_at),
        ]
    );
    let messages: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(messages[0].contains("JSONC"), "{messages:?}");
    assert!(messages[1].contains("`homepage`"), "{messages:?}");
    assert!(
        messages[2].contains("read as `distribution.binary`"),
        "{messages:?}"
    );
    assert!(loaded.diagnostics.iter().all(|d| d.hint.is_some()));
}

#[test]
fn jsonc_keeps_raw_entries_strict_json_and_positions() {
    let text = "{\n  // the agents\n  \"agents\": [\n    /* first */ {\"id\": \"a\", \"name\": \"A\", \
                \"version\": \"1.0.0\", \"description\": \"d\", \"distribution\": {\"npx\": \
                {\"package\": \"a\"},},},\n  ],\n}\n";
    let loaded = load_ok(text);
    assert_eq!(loaded.registry.entries.len(), 1);
    let raw = &loaded.registry.entries[0].raw;
    assert!(serde_json::from_str::<Value>(raw).is_ok(), "{raw}");
    // Blanking keeps offsets: the raw entry covers exactly the entry's span in the JSONC text.
    let start = text.find("{\"id\"").unwrap();
    let original = &text[start..start + raw.len()];
    assert!(original.ends_with("},}"), "{original}");
    assert_eq!(*raw, original.replace(",}", " }"));
    assert_eq!(loaded.diagnostics.len(), 1);
    assert_eq!(loaded.diagnostics[0].location, Location::Registry);
}

// ---------------------------------------------------------------------------------------------
// Broken entries: every problem is reported and every valid entry still loads

/// `(severity, kind, index, id, message substring)`.
type Expected<'a> = (Severity, Kind, usize, Option<&'a str>, &'a str);

fn check(input: &str, expect_ids: &[&str], expect: &[Expected<'_>]) {
    let loaded = load_ok(input);
    assert_eq!(ids(&loaded), expect_ids, "loaded ids for:\n{input}");
    let got: Vec<String> = loaded.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        loaded.diagnostics.len(),
        expect.len(),
        "diagnostics for:\n{input}\ngot: {got:#?}"
    );
    for (diagnostic, &(severity, kind, index, id, message)) in loaded.diagnostics.iter().zip(expect)
    {
        let location = Location::Entry {
            kind,
            index,
            id: id.map(str::to_owned),
        };
        assert_eq!(
            (diagnostic.severity, &diagnostic.location),
            (severity, &location),
            "{diagnostic}"
        );
        assert!(
            diagnostic.message.contains(message),
            "{diagnostic:?} should contain {message:?}"
        );
    }
}

use Kind::{Agent, Extension};
use Severity::{Error, Warning};

#[test]
fn broken_entries_are_reported_and_skipped() {
    let a = good("a");
    let b = good("b");
    let table: Vec<(String, Vec<&str>, Vec<Expected<'_>>)> = vec![
        (
            agents(&["42", &a]),
            vec!["a"],
            vec![(
                Error,
                Agent,
                0,
                None,
                "the entry is a number, not an object",
            )],
        ),
        (
            agents(&[&a, r#"["x"]"#, "null", &b]),
            vec!["a", "b"],
            vec![
                (Error, Agent, 1, None, "the entry is an array"),
                (Error, Agent, 2, None, "the entry is null"),
            ],
        ),
        (
            agents(&[
                r#"{"id": "x", "version": "1.0.0", "description": "d",
                    "distribution": {"npx": {"package": "x"}}}"#,
                &a,
            ]),
            vec!["a"],
            vec![(Error, Agent, 0, Some("x"), "missing required field `name`")],
        ),
        (
            agents(&[
                &a,
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "authors": "x", "distribution": {"npx": {"package": "x"}}}"#,
            ]),
            vec!["a"],
            vec![(
                Error,
                Agent,
                1,
                Some("x"),
                "`authors` must be an array of strings, found a string",
            )],
        ),
        (
            agents(&[&a, &b, &a]),
            vec!["a", "b"],
            vec![(Error, Agent, 2, Some("a"), "duplicate id `a`: agents[0]")],
        ),
        (
            agents(&[&a, &a, &b, &a, &b, &good("c")]),
            vec!["a", "b", "c"],
            vec![
                (Error, Agent, 1, Some("a"), "duplicate id `a`: agents[0]"),
                (Error, Agent, 3, Some("a"), "duplicate id `a`: agents[0]"),
                (Error, Agent, 4, Some("b"), "duplicate id `b`: agents[2]"),
            ],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {}}"#,
                &a,
            ]),
            vec!["a"],
            vec![(Error, Agent, 0, Some("x"), "offers no way to run")],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"docker": {"image": "x"}}}"#,
            ]),
            vec![],
            vec![
                (
                    Warning,
                    Agent,
                    0,
                    Some("x"),
                    "unknown distribution method `docker`",
                ),
                (Error, Agent, 0, Some("x"), "offers no way to run"),
            ],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"binary": {}}}"#,
            ]),
            vec![],
            vec![(Error, Agent, 0, Some("x"), "offers no way to run")],
        ),
        (
            agents(&[
                r#"{"id": "", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"npx": {"package": "x"}}}"#,
                r#"{"id": "y", "name": " ", "version": "1.0.0", "description": "d",
                    "distribution": {"npx": {"package": "x"}}}"#,
                &a,
            ]),
            vec!["a"],
            vec![
                (Error, Agent, 0, None, "`id` is empty"),
                (Error, Agent, 1, Some("y"), "`name` is empty"),
            ],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": 5, "description": ["d"],
                    "distribution": {"npx": {"package": "x"}}}"#,
                &a,
            ]),
            vec!["a"],
            vec![
                (
                    Error,
                    Agent,
                    0,
                    Some("x"),
                    "`name` must be a string, found a number",
                ),
                (
                    Error,
                    Agent,
                    0,
                    Some("x"),
                    "missing required field `version`",
                ),
                (
                    Error,
                    Agent,
                    0,
                    Some("x"),
                    "`description` must be a string, found an array",
                ),
            ],
        ),
        (
            agents(&[
                r#"{"id": 7, "name": "X", "version": "1.0.0", "description": "d"}"#,
                &a,
            ]),
            vec!["a"],
            vec![
                (
                    Error,
                    Agent,
                    0,
                    None,
                    "`id` must be a string, found a number",
                ),
                (
                    Error,
                    Agent,
                    0,
                    None,
                    "missing required field `distribution`",
                ),
            ],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"binary": {"linux-x86_64": {"archive": "u"}}}}"#,
                &a,
            ]),
            vec!["a"],
            vec![(
                Error,
                Agent,
                0,
                Some("x"),
                "missing required field `distribution.binary.linux-x86_64.cmd`",
            )],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"npx": {"args": [1]}, "uvx": "pkg"}}"#,
                &a,
            ]),
            vec!["a"],
            vec![
                (
                    Error,
                    Agent,
                    0,
                    Some("x"),
                    "missing required field `distribution.npx.package`",
                ),
                (
                    Error,
                    Agent,
                    0,
                    Some("x"),
                    "`distribution.npx.args[0]` must be a string",
                ),
                (
                    Error,
                    Agent,
                    0,
                    Some("x"),
                    "`distribution.uvx` must be an object",
                ),
            ],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"binary": {"linux-x86_64": {"archive": "u", "cmd": "c",
                    "env": {"K": 1}}}}}"#,
            ]),
            vec![],
            vec![(
                Error,
                Agent,
                0,
                Some("x"),
                "`distribution.binary.linux-x86_64.env.K` must be a string, found a number",
            )],
        ),
        (
            agents(&[r#"{"id": "x", "id": "y", "name": "X", "version": "1.0.0",
                    "description": "d", "distribution": {"npx": {"package": "x"}}}"#]),
            vec![],
            vec![(Error, Agent, 0, Some("y"), "duplicate field `id`")],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"npx": {"package": "x"}, "npx": {"package": "y"}}}"#,
            ]),
            vec![],
            vec![(Error, Agent, 0, Some("x"), "duplicate field `npx`")],
        ),
        (
            format!(
                r#"{{"agents": [{a}], "extensions": [{a}, "x", {b}, {b}]}}"#,
                a = good("a"),
                b = good("b")
            ),
            vec!["a", "a", "b"],
            vec![
                (Error, Extension, 1, None, "the entry is a string"),
                (
                    Error,
                    Extension,
                    3,
                    Some("b"),
                    "duplicate id `b`: extensions[2]",
                ),
            ],
        ),
    ];
    for (input, ids, expect) in &table {
        check(input, ids, expect);
    }
}

#[test]
fn odd_but_readable_entries_load_with_warnings() {
    let table: Vec<(String, Vec<&str>, Vec<Expected<'_>>)> = vec![
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "repository": null, "icon": null, "tags": ["a"], "preview": {},
                    "distribution": {"npx": {"package": "x"}, "uvx": null}}"#,
            ]),
            vec!["x"],
            vec![],
        ),
        (
            agents(&[
                r#"{"id": "My Agent", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"npx": {"package": "x"}}}"#,
            ]),
            vec!["My Agent"],
            vec![(Warning, Agent, 0, Some("My Agent"), "not a lowercase slug")],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "distribution": {"binary": {"darwin-arm64": {"archive": "u", "cmd": "c"}},
                    "npx": {"package": "x"}, "docker": 1}}"#,
            ]),
            vec!["x"],
            vec![
                (
                    Warning,
                    Agent,
                    0,
                    Some("x"),
                    "unknown distribution method `docker`",
                ),
                (
                    Warning,
                    Agent,
                    0,
                    Some("x"),
                    "`darwin-arm64` is not a platform",
                ),
            ],
        ),
        (
            agents(&[
                r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
                    "homepage": "https://x.dev",
                    "distribution": {"linux-x86_64": {"archive": "u", "cmd": "c"}}}"#,
            ]),
            vec!["x"],
            vec![
                (Warning, Agent, 0, Some("x"), "`homepage`"),
                (
                    Warning,
                    Agent,
                    0,
                    Some("x"),
                    "platform targets (linux-x86_64)",
                ),
            ],
        ),
    ];
    for (input, ids, expect) in &table {
        check(input, ids, expect);
    }
}

/// Issue 13: ids that are not slugs load, with a warning, and say so; ids no page address can
/// carry are refused; an id too long for a file name loads with a warning.
#[test]
fn hostile_ids_load_safely_or_not_at_all() {
    /// `(id, the one diagnostic, the start of the page path when it loads)`.
    type Case<'a> = (&'a str, Option<(Severity, &'a str)>, Option<&'a str>);
    let long = "a".repeat(300);
    let table: [Case<'_>; 10] = [
        ("gemini", None, Some("/agents/gemini")),
        (
            "a%2Fb",
            Some((Warning, "not a lowercase slug")),
            Some("/agents/a%252Fb"),
        ),
        (
            "a/b",
            Some((Warning, "not a lowercase slug")),
            Some("/agents/a%2Fb"),
        ),
        (
            "x?q=1#y",
            Some((Warning, "not a lowercase slug")),
            Some("/agents/x%3Fq%3D1%23y"),
        ),
        (
            "..%2F..",
            Some((Warning, "not a lowercase slug")),
            Some("/agents/..%252F.."),
        ),
        (
            "../../..",
            Some((Warning, "not a lowercase slug")),
            Some("/agents/..%2F..%2F.."),
        ),
        (
            "My Agent",
            Some((Warning, "not a lowercase slug")),
            Some("/agents/My%20Agent"),
        ),
        (
            &long,
            Some((Warning, "300 bytes long")),
            Some("/agents/aaaa"),
        ),
        ("..", Some((Error, "cannot be a page address")), None),
        (".", Some((Error, "cannot be a page address")), None),
    ];
    for (id, problem, path) in table {
        let loaded = load_ok(&agents(&[&good(id)]));
        let got: Vec<(Severity, &str)> = loaded
            .diagnostics
            .iter()
            .map(|d| (d.severity, d.message.as_str()))
            .collect();
        match problem {
            None => assert_eq!(got, [], "{id}"),
            Some((severity, text)) => {
                assert_eq!(got.len(), 1, "{id}: {got:?}");
                assert_eq!(got[0].0, severity, "{id}");
                assert!(got[0].1.contains(text), "{id}: {}", got[0].1);
                let hint = loaded.diagnostics[0].hint.as_deref().unwrap_or_default();
                let suggested = hint.split('"').nth(1).expect("a quoted suggestion");
                assert!(registry_core::id::is_slug(suggested), "{id}: {hint}");
            }
        }
        let entry = loaded.registry.entries.first();
        assert_eq!(entry.is_some(), path.is_some(), "{id} loads");
        if let (Some(entry), Some(path)) = (entry, path) {
            assert!(entry.path().starts_with(path), "{id}: {}", entry.path());
            assert_eq!(entry.has_slug_id(), problem.is_none() || id == long, "{id}");
            assert_eq!(
                entry.manifest_path(),
                entry.has_slug_id().then(|| format!("{id}/agent.json")),
                "{id}"
            );
        }
    }
}

#[test]
fn rfd_targets_merge_under_binary() {
    let loaded = load_ok(&agents(&[
        r#"{"id": "x", "name": "X", "version": "1.0.0", "description": "d",
            "homepage": "https://home", "website": "https://web",
            "distribution": {
                "linux-x86_64": {"archive": "rfd", "cmd": "c"},
                "binary": {"linux-x86_64": {"archive": "published", "cmd": "c"}},
                "darwin-aarch64": {"archive": "rfd", "cmd": "c"}}}"#,
    ]));
    let entry = &loaded.registry.entries[0];
    assert_eq!(entry.website.as_deref(), Some("https://web"));
    let archives: Vec<(String, &str)> = entry
        .distribution
        .binary
        .iter()
        .map(|(k, t)| (k.to_string(), t.archive.as_str()))
        .collect();
    assert_eq!(
        archives,
        [
            ("darwin-aarch64".to_owned(), "rfd"),
            ("linux-x86_64".to_owned(), "published")
        ]
    );
    assert_eq!(loaded.diagnostics.len(), 1, "{:#?}", loaded.diagnostics);
}

#[test]
fn registry_level_warnings() {
    let table: &[(&str, usize, &str)] = &[
        (
            r#"{"version": 1, "agents": []}"#,
            0,
            "`version` is a number",
        ),
        ("{}", 0, "neither `agents` nor `extensions`"),
        (r#"{"name": "not a manifest"}"#, 0, "neither"),
    ];
    for &(input, entries, message) in table {
        let loaded = load_ok(input);
        assert_eq!(loaded.registry.entries.len(), entries, "{input}");
        assert_eq!(loaded.diagnostics.len(), 1, "{input}");
        let diagnostic = &loaded.diagnostics[0];
        assert_eq!(
            (diagnostic.severity, &diagnostic.location),
            (Warning, &Location::Registry)
        );
        assert!(diagnostic.message.contains(message), "{diagnostic}");
    }
    assert_eq!(load_ok(r#"{"agents": [], "x": 1}"#), Loaded::default());
}

#[test]
fn single_manifest_loads_as_one_agent() {
    let manifest = format!("\n  {}  \n", good("solo"));
    let loaded = load_ok(&manifest);
    assert_eq!(loaded.diagnostics, []);
    assert_eq!(loaded.registry.version, None);
    let [entry] = loaded.registry.entries.as_slice() else {
        panic!("one entry expected");
    };
    assert_eq!((entry.kind, entry.id.as_str()), (Kind::Agent, "solo"));
    assert_eq!(entry.raw, manifest.trim());

    let broken = load_ok(r#"{"id": "solo", "name": "Solo"}"#);
    assert_eq!(broken.registry.entries, []);
    let messages: Vec<&str> = broken
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "missing required field `version`",
            "missing required field `description`",
            "missing required field `distribution`"
        ]
    );
}

#[test]
fn diagnostics_display_location_message_and_hint() {
    let loaded = load_ok(&agents(&[
        r#"{"id": "x", "version": "1.0.0", "description": "d",
        "distribution": {"npx": {"package": "x"}}}"#,
    ]));
    assert_eq!(
        loaded.diagnostics[0].to_string(),
        "error: agents[0] (x): missing required field `name` (hint: add \"name\": \"My Agent\")"
    );
    assert!(loaded.has_errors());
}

// ---------------------------------------------------------------------------------------------
// Texts that cannot be used at all

#[test]
fn fatal_errors_say_where_and_what() {
    let json = |line, column, message: &str| LoadError::Json {
        line,
        column,
        message: message.to_owned(),
    };
    let html_with_long_title = format!("<html><title>{}</title>", "é".repeat(90));
    let deep_array = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let deep_in_object = format!(
        "{{\"agents\": 1,\n \"x\": {}1{}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let brackets_in_a_string = format!("{{\"agents\": 1, \"x\": \"{}\\\"\"}}", "[".repeat(200));
    let table: Vec<(&str, LoadError)> = vec![
        ("", LoadError::Empty { bytes: 0 }),
        (" \r\n\t", LoadError::Empty { bytes: 4 }),
        ("\u{feff}\n", LoadError::Empty { bytes: 4 }),
        (
            "<!doctype html><html><head><title>\n  Sign in ·  Example\n</title></head>",
            LoadError::Html {
                title: Some("Sign in · Example".to_owned()),
            },
        ),
        (
            "  <html><body>Not found</body></html>",
            LoadError::Html { title: None },
        ),
        (
            html_with_long_title.as_str(),
            LoadError::Html {
                title: Some(format!("{}…", "é".repeat(80))),
            },
        ),
        (
            deep_array.as_str(),
            LoadError::TooDeep {
                limit: 128,
                line: 1,
                column: 129,
            },
        ),
        (
            deep_in_object.as_str(),
            LoadError::TooDeep {
                limit: 128,
                line: 2,
                column: 134,
            },
        ),
        // Brackets inside strings are not nesting.
        (
            brackets_in_a_string.as_str(),
            LoadError::NotAnArray {
                key: "agents",
                found: "a number",
            },
        ),
        (
            "[null, [], [], null, null]",
            LoadError::NotAnObject { found: "an array" },
        ),
        (
            "{\n  \"agents\": [\n    {\"id\": x}\n  ]\n}",
            json(3, 12, "expected value"),
        ),
        ("{\"é\": x}", json(1, 7, "expected value")),
        (
            "// a comment\n{\"agents\": [}",
            json(2, 13, "expected value"),
        ),
        ("{\"agents\": []} x", json(1, 16, "trailing characters")),
        ("{\"agents\": [", json(1, 12, "EOF while parsing a list")),
        ("[]", LoadError::NotAnObject { found: "an array" }),
        ("\"registry\"", LoadError::NotAnObject { found: "a string" }),
        ("null", LoadError::NotAnObject { found: "null" }),
        (
            r#"{"agents": {}}"#,
            LoadError::NotAnArray {
                key: "agents",
                found: "an object",
            },
        ),
        (
            r#"{"agents": [], "extensions": "none"}"#,
            LoadError::NotAnArray {
                key: "extensions",
                found: "a string",
            },
        ),
        (
            r#"{"agents": null}"#,
            LoadError::NotAnArray {
                key: "agents",
                found: "null",
            },
        ),
        (
            "// jsonc\n{\"agents\": 1,}",
            LoadError::NotAnArray {
                key: "agents",
                found: "a number",
            },
        ),
        (
            r#"{"agents": [], "agents": []}"#,
            LoadError::Structure {
                line: 1,
                column: 23,
                message: "duplicate field `agents`".to_owned(),
            },
        ),
    ];
    for (input, expect) in table {
        assert_eq!(load(input), Err(expect), "{input:?}");
    }
}

#[test]
fn fatal_error_messages_say_what_to_do() {
    let deep = "[".repeat(300);
    let table = [
        ("{", "fix the syntax there"),
        (
            "[]",
            "it must look like {\"version\": \"1.0.0\", \"agents\": [...]}",
        ),
        (r#"{"agents": 1}"#, "write it as \"agents\": [{...}, {...}]"),
        ("", "check that the file was published"),
        ("<html>", "instead of the file; check the address"),
        (deep.as_str(), "it is not a registry, or it is corrupt"),
    ];
    for (input, expect) in table {
        let message = load(input).unwrap_err().to_string();
        assert!(message.contains(expect), "{message}");
    }
}

// ---------------------------------------------------------------------------------------------
// Scale and robustness

#[test]
fn ten_thousand_entries_load() {
    let real: Value = serde_json::from_str(REAL_2026).unwrap();
    let real = real["agents"].as_array().unwrap();
    let entries: Vec<String> = (0..10_000)
        .map(|i| {
            let mut entry = real[i % real.len()].clone();
            entry["id"] = Value::String(format!("agent-{i}"));
            entry.to_string()
        })
        .collect();
    let text = format!(
        r#"{{"version": "1.0.0", "agents": [{}]}}"#,
        entries.join(",")
    );
    let loaded = load_ok(&text);
    assert_eq!(loaded.diagnostics, []);
    assert_eq!(loaded.registry.entries.len(), 10_000);
    assert_eq!(loaded.registry.entries[9_999].id, "agent-9999");
}

/// What every successful load promises, whatever the input.
fn assert_invariants(loaded: &Loaded) {
    for kind in Kind::ALL {
        let mut ids: Vec<&str> = loaded
            .registry
            .entries
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| e.id.as_str())
            .collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "ids unique per kind");
    }
    for entry in &loaded.registry.entries {
        assert!(serde_json::from_str::<Value>(&entry.raw).is_ok());
        assert!(!entry.id.trim().is_empty() && !entry.name.trim().is_empty());
        assert!(!entry.distribution.methods().is_empty());
    }
}

/// Deletes, inserts or replaces characters of a text.
fn mutate(text: &str, edits: &[(prop::sample::Index, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (at, op, c) in edits {
        let i = at.index(chars.len() + 1);
        match op % 3 {
            0 if i < chars.len() => {
                chars.remove(i);
            }
            1 => chars.insert(i, *c),
            _ if i < chars.len() => chars[i] = *c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #[test]
    fn never_panics_on_any_text(text in "\\PC*") {
        if let Ok(loaded) = load(&text) {
            assert_invariants(&loaded);
        }
    }

    #[test]
    fn never_panics_on_json_like_text(text in r#"[\[\]{}:,"\\/*\n a-z0-9.\-]{0,120}"#) {
        if let Ok(loaded) = load(&text) {
            assert_invariants(&loaded);
        }
    }

    #[test]
    fn never_panics_on_a_mutated_real_registry(
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), any::<u8>(), prop::sample::select(
                vec!['{', '}', '[', ']', '"', ',', ':', '/', '*', '\\', '1', 'x', ' ', 'é', '\n']
            )),
            1..6,
        )
    ) {
        let text = mutate(REAL_2026_02, &edits);
        if let Ok(loaded) = load(&text) {
            assert_invariants(&loaded);
            prop_assert!(loaded.registry.entries.len() <= 12);
        }
    }
}

/// Reads `text` `count` entries at a time, checking the progress it reports on the way.
fn read_in_slices(text: &str, count: usize) -> Loaded {
    let mut reading = registry_core::load::Reading::start(text).expect("usable");
    let (_, total) = reading.progress();
    let mut calls = 0;
    loop {
        let (read_before, _) = reading.progress();
        let done = reading.read(count);
        calls += 1;
        let (read, all) = reading.progress();
        // Duplicates dropped at the end of a list leave fewer entries than texts.
        assert!(all <= total && read <= all);
        assert!(read >= read_before || all < total, "nothing read is unread");
        if done {
            break;
        }
        assert!(calls <= total + 2, "a reading of {total} entries ends");
    }
    reading.finish()
}

#[test]
fn a_registry_read_in_slices_is_the_registry_read_at_once() {
    let duplicates = format!(
        r#"{{"version": "1.0.0", "agents": [{}, {}, {{"id": 7}}, {}], "extensions": [{}, {}]}}"#,
        good("a"),
        good("b"),
        good("a"),
        good("x"),
        good("x"),
    );
    let jsonc = format!(
        "// a comment\n{{\"agents\": [{}, {},],}}",
        good("j1"),
        good("j2")
    );
    for text in [
        REAL_2026,
        REAL_2026_02,
        RFD_EXAMPLE,
        duplicates.as_str(),
        jsonc.as_str(),
        r#"{"version": 3}"#,
    ] {
        let whole = load_ok(text);
        for count in [0, 1, 2, 3, 7, 100, usize::MAX] {
            if count == 0 {
                // Reading nothing at a time never ends; finishing reads the rest.
                let mut reading = registry_core::load::Reading::start(text).unwrap();
                let (read, all) = reading.progress();
                assert_eq!(
                    reading.read(0),
                    read == all,
                    "done only when nothing is left"
                );
                assert_eq!(reading.finish(), whole);
                continue;
            }
            assert_eq!(read_in_slices(text, count), whole, "{count} at a time");
        }
    }
    let loaded = read_in_slices(&duplicates, 2);
    assert_eq!(
        ids(&loaded),
        ["a", "b", "x"],
        "later duplicates are dropped per list"
    );
}

#[test]
fn reading_in_slices_reports_its_progress() {
    let text = agents(&[&good("a"), &good("b"), &good("c")]);
    let mut reading = registry_core::load::Reading::start(&text).unwrap();
    assert_eq!(reading.progress(), (0, 3));
    assert!(!reading.read(2));
    assert_eq!(reading.progress(), (2, 3));
    assert!(reading.read(2));
    assert_eq!(reading.progress(), (3, 3));
}
