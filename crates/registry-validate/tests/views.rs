//! The JetBrains views made by the registry's rules: the catalogue's fixtures of
//! `tests/fixtures/listings/` and the bundled copies in `public/` are exactly what
//! [`views_of_published`] makes of their sources.
//!
//! When the rules or a source change, rewrite the copies with
//! `ACP_WRITE_VIEWS=1 cargo test -p registry-validate --test views` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use registry_validate::views::{JETBRAINS_FILE, JETBRAINS_PREVIEW_FILE};
use registry_validate::{ViewCounts, ViewRules, Views, views_of_published};
use serde_json::Value;

fn root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Checks (or, with `ACP_WRITE_VIEWS=1`, writes) `folder/<name>` against `expected`.
fn check(folder: &str, name: &str, expected: &str) {
    let path = root(folder).join(name);
    if std::env::var_os("ACP_WRITE_VIEWS").is_some() {
        fs::write(&path, expected).expect("writable");
    }
    let found = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == expected,
        "{folder}/{name} is not what the view rules make of its source; rewrite it with \
         `ACP_WRITE_VIEWS=1 cargo test -p registry-validate --test views` and review the diff"
    );
}

fn views_of(folder: &str, source: &str) -> Views {
    let text = fs::read_to_string(root(folder).join(source)).expect("source");
    views_of_published(&text, &ViewRules::CURRENT).expect("a registry")
}

/// Per agent of a view: `id version [bundled]`.
fn listed(text: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(text).expect("JSON");
    value["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .map(|a| {
            let bundled = if a["bundled"] == true { " bundled" } else { "" };
            format!(
                "{} {}{bundled}",
                a["id"].as_str().unwrap_or("?"),
                a["version"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

#[test]
fn the_listing_fixtures_are_made_by_the_rules() {
    let views = views_of("tests/fixtures/listings", "accepted.json");
    check(
        "tests/fixtures/listings",
        "registry.json",
        &views.registry_json,
    );
    check(
        "tests/fixtures/listings",
        JETBRAINS_FILE,
        &views.jetbrains_json,
    );
    let preview = views
        .jetbrains_preview_json
        .as_deref()
        .expect("a preview channel");
    check("tests/fixtures/listings", JETBRAINS_PREVIEW_FILE, preview);

    assert_eq!(
        listed(&views.registry_json),
        [
            "claude-acp 0.85.1",
            "codex-acp 1.8.0",
            "github-copilot-cli 1.0.80",
            "stale-preview 1.9.1",
            "vtcode 0.40.0"
        ]
    );
    assert_eq!(
        listed(&views.jetbrains_json),
        [
            "claude-acp 0.85.1 bundled",
            "codex-acp 1.8.0",
            "github-copilot 1.533.0",
            "stale-preview 1.9.1",
            "vtcode 0.40.0"
        ]
    );
    assert_eq!(
        listed(preview),
        [
            "claude-acp 0.86.0-preview.3 bundled",
            "codex-acp 1.9.0-preview.1",
            "github-copilot 1.533.0",
            "stale-preview 1.9.1",
            "vtcode 0.40.0"
        ]
    );
    assert_eq!(
        views.counts,
        ViewCounts {
            default_agents: 5,
            extensions: 0,
            jetbrains_agents: 5,
            bundled: 1,
            previews: 2
        }
    );
    // The preview's distribution replaces the stable one wholesale (codex: npx → uvx), the
    // JetBrains patch applies to both channels, `preview` is never published.
    let preview: Value = serde_json::from_str(preview).expect("JSON");
    assert_eq!(
        preview["agents"][1]["distribution"],
        serde_json::json!({"uvx": {"package": "codex-acp==1.9.0-preview.1"}})
    );
    assert_eq!(
        preview["agents"][0]["distribution"]["npx"]["args"],
        serde_json::json!(["--hide-claude-auth"])
    );
    for text in [&views.registry_json, &views.jetbrains_json] {
        assert!(!text.contains("\"preview\""), "{text}");
    }
    // The JetBrains views have no `extensions`; `bundled` comes last, as the CI adds it.
    let jetbrains: Value = serde_json::from_str(&views.jetbrains_json).expect("JSON");
    assert_eq!(
        jetbrains
            .as_object()
            .expect("object")
            .keys()
            .collect::<Vec<_>>(),
        ["version", "agents"]
    );
    let claude = jetbrains["agents"][0].as_object().expect("object");
    assert_eq!(
        claude.keys().next_back().map(String::as_str),
        Some("bundled")
    );
}

#[test]
fn the_bundled_views_are_made_from_the_accepted_entries() {
    // `tests/fixtures/bundled/accepted.json` lists every agent the CI accepted, with their
    // `preview` blocks; the bundled copies in `public/` are what the CI publishes from them.
    let views = views_of("tests/fixtures/bundled", "accepted.json");
    check("public", "registry.json", &views.registry_json);
    check("public", JETBRAINS_FILE, &views.jetbrains_json);
    let preview = views
        .jetbrains_preview_json
        .as_deref()
        .expect("a preview channel");
    check("public", JETBRAINS_PREVIEW_FILE, preview);
    // What each view contributes on the bundled data: registry.json leaves out
    // github-copilot, the JetBrains views github-copilot-cli; they mark claude-acp bundled and
    // the preview view serves its preview. No published file has a `preview` key.
    for name in ["registry.json", JETBRAINS_FILE, JETBRAINS_PREVIEW_FILE] {
        let text = fs::read_to_string(root("public").join(name)).expect("a bundled file");
        assert!(!text.contains("\"preview\""), "{name} has a preview key");
    }
    assert!(
        !listed(&views.registry_json)
            .iter()
            .any(|a| a.starts_with("github-copilot "))
    );
    assert_eq!(
        views.counts,
        ViewCounts {
            default_agents: 129,
            extensions: 0,
            jetbrains_agents: 129,
            bundled: 1,
            previews: 1
        }
    );
    let jetbrains = listed(&views.jetbrains_json);
    assert!(
        !jetbrains
            .iter()
            .any(|a| a.starts_with("github-copilot-cli "))
    );
    assert!(jetbrains.iter().any(|a| a.starts_with("github-copilot ")));
    assert!(listed(preview).contains(&"claude-acp 0.85.2-preview.22 bundled".to_owned()));
    // Icons stay as the bundled registry has them: beside it, `<id>.svg`.
    let value: Value = serde_json::from_str(&views.jetbrains_json).expect("JSON");
    assert!(
        value["agents"]
            .as_array()
            .expect("agents")
            .iter()
            .all(|a| a.get("icon").is_none_or(|icon| icon
                .as_str()
                .is_some_and(|i| i == format!("{}.svg", a["id"].as_str().unwrap_or("")))))
    );
}
