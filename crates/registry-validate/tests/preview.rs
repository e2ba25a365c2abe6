//! The preview channel as the registry's CI has it: every case of its own tests
//! (`TestValidatePreview`, `TestPreviewValidationFailures` and `TestPreviewRegistryOutputs` in
//! `.github/workflows/tests/test_build_registry.py`), restated, plus the cases `FORMAT.md`
//! ("Preview Channel") names. Each validation case gives the rules broken and the field blamed.

use registry_validate::{Build, Files, ViewRules, build, build_with_rules, validate};
use serde_json::{Value, json};

const SCHEMA: &str =
    include_str!("../../../tests/fixtures/real-registry-2026/source/agent.schema.json");
const ICON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><path fill="currentColor" d="M0 0z"/></svg>"#;

/// The CI tests' `agent_manifest`: an npx agent pinned to its version, with `extra` fields and
/// a preview block.
fn manifest(id: &str, version: &str, preview: Option<Value>, extra: Value) -> Value {
    let mut manifest = json!({
        "id": id,
        "name": id,
        "version": version,
        "description": format!("{id} test agent"),
        "distribution": {"npx": {"package": format!("@acp/{id}@{version}")}},
    });
    let object = manifest.as_object_mut().expect("an object");
    if let Value::Object(extra) = extra {
        object.extend(extra);
    }
    if let Some(preview) = preview {
        object.insert("preview".to_owned(), preview);
    }
    manifest
}

/// The CI tests' `npx_preview`.
fn npx_preview(id: &str, version: &str) -> Value {
    json!({"version": version, "distribution": {"npx": {"package": format!("@acp/{id}@{version}")}}})
}

/// A registry folder of these manifests, each with a valid icon, and `schema` at the top.
fn registry_with(schema: &str, manifests: &[Value]) -> Files {
    let mut files = Files::new();
    files.insert("agent.schema.json", schema.as_bytes().to_vec());
    for manifest in manifests {
        let id = manifest["id"].as_str().expect("an id");
        let text = serde_json::to_string_pretty(manifest).expect("JSON");
        files.insert(&format!("{id}/agent.json"), text.into_bytes());
        files.insert(&format!("{id}/icon.svg"), ICON.as_bytes().to_vec());
    }
    files
}

fn registry(manifests: &[Value]) -> Files {
    registry_with(SCHEMA, manifests)
}

/// `schema` with the preview block of `FORMAT.md` added: exactly `version` and `distribution`,
/// the distribution restricted to npx and uvx packages. The CI's schema has such a definition;
/// with it, a folder's schema and the built-in rules must not report one problem twice.
fn schema_with_preview() -> String {
    let mut schema: Value = serde_json::from_str(SCHEMA).expect("the schema");
    schema["properties"]["preview"] = json!({
        "type": "object",
        "required": ["version", "distribution"],
        "properties": {
            "version": {"type": "string"},
            "distribution": {
                "type": "object",
                "minProperties": 1,
                "properties": {
                    "npx": {"$ref": "#/definitions/packageDistribution"},
                    "uvx": {"$ref": "#/definitions/packageDistribution"}
                },
                "additionalProperties": false
            }
        },
        "additionalProperties": false
    });
    schema.to_string()
}

/// Each error as `rule pointer-ish place`: the rule and the line:column it points at, plus the
/// message, for the assertion's output.
fn errors(files: &Files) -> Vec<(String, String)> {
    validate(files)
        .diagnostics
        .iter()
        .filter(|d| d.severity.as_str() == "error")
        .map(|d| (d.rule.as_str().to_owned(), d.message.clone()))
        .collect()
}

/// The rules of the errors, in order.
fn rules(files: &Files) -> Vec<String> {
    errors(files).into_iter().map(|(rule, _)| rule).collect()
}

#[test]
fn valid_preview_blocks_pass() {
    let cases = [
        (
            "no preview block",
            manifest("agent-a", "1.8.0", None, json!({})),
        ),
        (
            "a preview version",
            manifest(
                "agent-a",
                "1.8.0",
                Some(npx_preview("agent-a", "1.9.0-preview.1")),
                json!({}),
            ),
        ),
        (
            "a plain release as preview version",
            manifest(
                "agent-a",
                "1.8.0",
                Some(npx_preview("agent-a", "1.9.1")),
                json!({}),
            ),
        ),
        (
            "a uvx spec pinned to the preview version",
            manifest(
                "agent-a",
                "1.8.0",
                Some(
                    json!({"version": "1.9.0-preview.1", "distribution": {"uvx": {"package": "acp-agent-a==1.9.0-preview.1"}}}),
                ),
                json!({}),
            ),
        ),
        (
            "no ordering against the stable version",
            manifest(
                "agent-a",
                "1.9.1",
                Some(npx_preview("agent-a", "1.9.0-preview.1")),
                json!({}),
            ),
        ),
        (
            "a preview of another distribution kind than the stable one",
            manifest(
                "agent-a",
                "1.8.0",
                Some(
                    json!({"version": "1.9.0-preview.1", "distribution": {"uvx": {"package": "acp-agent-a==1.9.0-preview.1", "args": ["acp"], "env": {"A": "1"}}}}),
                ),
                json!({}),
            ),
        ),
    ];
    for schema in [SCHEMA.to_owned(), schema_with_preview()] {
        for (case, manifest) in &cases {
            let files = registry_with(&schema, std::slice::from_ref(manifest));
            assert_eq!(errors(&files), [], "{case}");
        }
    }
}

#[test]
fn malformed_preview_versions_fail() {
    for version in [
        "1.9-preview.1",
        "1.9.0-preview",
        "1.9.0-rc.1",
        "1.9.0+preview.1",
        "latest",
        "1.0-preview-1",
    ] {
        let files = registry(&[manifest(
            "agent-a",
            "1.8.0",
            Some(npx_preview("agent-a", version)),
            json!({}),
        )]);
        let found = errors(&files);
        // `latest` also pins the package to @latest, a second error of its own.
        let expected: &[&str] = if version == "latest" {
            &["preview-version", "latest-package"]
        } else {
            &["preview-version"]
        };
        assert_eq!(rules(&files), expected, "{version}: {found:?}");
        assert!(
            found[0].1.contains("`preview.version`"),
            "{version}: {}",
            found[0].1
        );
    }
}

#[test]
fn preview_failures_name_the_field() {
    let preview_with = |preview: Value| manifest("agent-a", "1.8.0", Some(preview), json!({}));
    let mut extra_key = npx_preview("agent-a", "1.9.0-preview.1");
    extra_key["name"] = json!("Agent A Preview");
    let cases: [(&str, Value, &[&str], &str); 9] = [
        (
            "arguments that are not all strings",
            preview_with(
                json!({"version": "1.9.0-preview.1", "distribution": {"npx": {"package": "@acp/agent-a@1.9.0-preview.1", "args": ["--acp", 1]}}}),
            ),
            &["wrong-type"],
            "`preview.distribution.npx.args` is an array, not an array of strings",
        ),
        (
            "a package pinned to another version",
            preview_with(
                json!({"version": "1.9.0-preview.2", "distribution": {"npx": {"package": "@acp/agent-a@1.9.0-preview.1"}}}),
            ),
            &["version-mismatch"],
            "but `preview.version` is \"1.9.0-preview.2\"",
        ),
        (
            "an empty distribution",
            preview_with(json!({"version": "1.9.0-preview.1", "distribution": {}})),
            &["preview-distribution"],
            "`preview.distribution` is empty",
        ),
        (
            "no distribution",
            preview_with(json!({"version": "1.9.0-preview.1"})),
            &["preview-shape"],
            "`preview` has no `distribution`",
        ),
        (
            "an extra key",
            preview_with(extra_key),
            &["preview-shape"],
            "`preview.name` is not allowed",
        ),
        (
            "a binary preview",
            preview_with(
                json!({"version": "1.9.0-preview.1", "distribution": {"darwin-aarch64": {"archive": "https://example.com/a-1.9.0-preview.1.tar.gz", "cmd": "agent-a"}}}),
            ),
            &["preview-distribution"],
            "`preview.distribution.darwin-aarch64` is not a preview distribution method",
        ),
        (
            "a binary preview, as the format writes it",
            preview_with(
                json!({"version": "1.9.0-preview.1", "distribution": {"binary": {"darwin-aarch64": {"archive": "https://example.com/a.tar.gz", "cmd": "a"}}}}),
            ),
            &["preview-distribution"],
            "a preview cannot be a binary",
        ),
        (
            "a preview that is not an object",
            preview_with(json!("1.9.0-preview.1")),
            &["preview-shape"],
            "`preview` is a string, not an object",
        ),
        (
            "a prerelease as the root version",
            manifest("agent-a", "1.9.0-preview.1", None, json!({})),
            &["version-format"],
            "`version` \"1.9.0-preview.1\" is a prerelease",
        ),
    ];
    for schema in [SCHEMA.to_owned(), schema_with_preview()] {
        for (case, manifest, expected, message) in &cases {
            let files = registry_with(&schema, std::slice::from_ref(manifest));
            let found = errors(&files);
            assert_eq!(rules(&files), *expected, "{case}: {found:?}");
            assert!(
                found[0].1.contains(message),
                "{case}: {:?} does not say {message:?}",
                found[0].1
            );
            let (built, _) = build(&files, "https://x");
            assert!(built.is_none(), "{case}: nothing is published");
        }
    }
}

/// The agents of one view, by id.
fn view(text: &str) -> serde_json::Map<String, Value> {
    let value: Value = serde_json::from_str(text).expect("JSON");
    value["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .map(|a| (a["id"].as_str().expect("id").to_owned(), a.clone()))
        .collect()
}

fn built(manifests: &[Value]) -> Build {
    let (built, validation) = build(&registry(manifests), "https://cdn.example/latest");
    built.unwrap_or_else(|| panic!("no errors: {:?}", validation.diagnostics))
}

#[test]
fn three_views_and_the_preview_key_never_published() {
    let built = built(&[
        manifest(
            "agent-a",
            "1.8.0",
            Some(npx_preview("agent-a", "1.9.0-preview.2")),
            json!({"repository": "https://github.com/acp/agent-a", "authors": ["ACP"], "license": "proprietary"}),
        ),
        manifest("agent-b", "2.0.0", None, json!({})),
    ]);
    let preview_text = built
        .jetbrains_preview_json
        .as_deref()
        .expect("three views");
    for text in [&built.registry_json, &built.jetbrains_json, preview_text] {
        assert!(!text.contains("\"preview\""), "{text}");
    }
    let default = view(&built.registry_json);
    let stable = view(&built.jetbrains_json);
    let preview = view(preview_text);
    for agents in [&default, &stable] {
        assert_eq!(agents["agent-a"]["version"], "1.8.0");
        assert_eq!(
            agents["agent-a"]["distribution"]["npx"]["package"],
            "@acp/agent-a@1.8.0"
        );
    }
    assert_eq!(preview["agent-a"]["version"], "1.9.0-preview.2");
    assert_eq!(
        preview["agent-a"]["distribution"]["npx"]["package"],
        "@acp/agent-a@1.9.0-preview.2"
    );
    for field in [
        "id",
        "name",
        "description",
        "repository",
        "authors",
        "license",
        "icon",
    ] {
        assert_eq!(
            preview["agent-a"][field], stable["agent-a"][field],
            "{field}"
        );
    }
    // Without a preview block, the preview view's entry is the JetBrains view's.
    assert_eq!(preview["agent-b"], stable["agent-b"]);
    assert_eq!(built.views.previews, 1);
}

#[test]
fn the_highest_channel_wins() {
    // FORMAT.md's table, and the CI's `test_preview_version_never_below_stable`.
    let built = built(&[
        manifest(
            "agent-a",
            "1.8.0",
            Some(npx_preview("agent-a", "1.9.0-preview.2")),
            json!({}),
        ),
        manifest("agent-b", "2.0.0", None, json!({})),
        manifest(
            "agent-c",
            "1.9.1",
            Some(npx_preview("agent-c", "1.9.0-preview.1")),
            json!({}),
        ),
        manifest(
            "agent-d",
            "1.9.0",
            Some(npx_preview("agent-d", "1.9.1")),
            json!({}),
        ),
        manifest(
            "agent-e",
            "1.9.1",
            Some(npx_preview("agent-e", "1.9.1")),
            json!({}),
        ),
        manifest(
            "agent-f",
            "1.9.0",
            Some(npx_preview("agent-f", "1.9.0-preview.10")),
            json!({}),
        ),
    ]);
    let preview = view(
        built
            .jetbrains_preview_json
            .as_deref()
            .expect("a preview view"),
    );
    let served: Vec<(&str, &str)> = preview
        .iter()
        .map(|(id, a)| (id.as_str(), a["version"].as_str().expect("a version")))
        .collect();
    assert_eq!(
        served,
        [
            ("agent-a", "1.9.0-preview.2"),
            ("agent-b", "2.0.0"),
            ("agent-c", "1.9.1"),
            ("agent-d", "1.9.1"),
            ("agent-e", "1.9.1"),
            ("agent-f", "1.9.0"),
        ]
    );
    assert_eq!(
        preview["agent-c"]["distribution"]["npx"]["package"],
        "@acp/agent-c@1.9.1"
    );
    assert_eq!(view(&built.jetbrains_json).len(), preview.len());
}

#[test]
fn jetbrains_patches_apply_to_the_preview_view() {
    let built = built(&[
        manifest(
            "claude-acp",
            "0.73.0",
            Some(npx_preview("claude-acp", "0.74.0-preview.1")),
            json!({}),
        ),
        manifest("github-copilot-cli", "1.0.0", None, json!({})),
        manifest("github-copilot", "1.0.0", None, json!({})),
    ]);
    let preview = view(
        built
            .jetbrains_preview_json
            .as_deref()
            .expect("a preview view"),
    );
    let claude = &preview["claude-acp"];
    assert_eq!(claude["bundled"], true);
    assert_eq!(claude["version"], "0.74.0-preview.1");
    assert!(
        claude["distribution"]["npx"]["args"]
            .as_array()
            .expect("args")
            .contains(&json!("--hide-claude-auth"))
    );
    assert!(!preview.contains_key("github-copilot-cli"));
    assert!(preview.contains_key("github-copilot"));
    assert!(!view(&built.registry_json).contains_key("github-copilot"));
}

#[test]
fn a_preview_may_use_a_distribution_kind_the_stable_entry_lacks() {
    let uvx = json!({"uvx": {"package": "acp-agent-a==1.9.0-preview.1"}});
    let built = built(&[manifest(
        "agent-a",
        "1.8.0",
        Some(json!({"version": "1.9.0-preview.1", "distribution": uvx})),
        json!({}),
    )]);
    let preview = view(
        built
            .jetbrains_preview_json
            .as_deref()
            .expect("a preview view"),
    );
    assert_eq!(preview["agent-a"]["distribution"], uvx);
}

#[test]
fn only_the_stable_distribution_is_checked_online() {
    // The CI's `test_no_network_probe_for_preview_artifacts`: the npm lookup of the stable
    // package only.
    let files = registry(&[manifest(
        "agent-a",
        "1.8.0",
        Some(npx_preview("agent-a", "1.9.0-preview.2")),
        json!({}),
    )]);
    let checks = validate(&files).remote_checks(&Default::default());
    let urls: Vec<&str> = checks.iter().map(|c| c.url.as_str()).collect();
    assert_eq!(urls.len(), 1, "{urls:?}");
    assert!(!urls[0].contains("preview"), "{urls:?}");
}

#[test]
fn rules_before_the_preview_channel_publish_the_block_unchanged() {
    // The CI of February 2026 copied manifests as they were, `preview` included, and wrote no
    // preview view.
    let files = registry(&[manifest(
        "agent-a",
        "1.8.0",
        Some(npx_preview("agent-a", "1.9.0-preview.2")),
        json!({}),
    )]);
    let (built, _) = build_with_rules(&files, "https://x", &ViewRules::FEBRUARY_2026);
    let built = built.expect("valid");
    assert!(built.registry_json.contains("\"preview\""));
    assert!(built.jetbrains_preview_json.is_none());
}
