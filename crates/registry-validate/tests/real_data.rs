//! The real registry data under `tests/fixtures/`: the 2026-02 snapshot validates and builds
//! exactly the published `registry.json`; the 2026 folders fail exactly where the CI failed them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use registry_validate::{
    DEFAULT_BASE_URL, Files, Severity, Validation, ViewRules, build, build_with_rules,
    sanitise_icon, validate,
};
use serde_json::Value;

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(path)
}

/// The files of a registry folder: the top level and one level down, as `acp-registry` reads
/// them.
fn read_registry(dir: &Path) -> Files {
    let mut files = Files::new();
    for entry in fs::read_dir(dir).expect("fixture folder") {
        let entry = entry.expect("fixture entry");
        let name = entry.file_name().into_string().expect("UTF-8 name");
        if entry.file_type().expect("file type").is_dir() {
            for inner in fs::read_dir(entry.path()).expect("entry folder") {
                let inner = inner.expect("fixture entry");
                if inner.file_type().expect("file type").is_file() {
                    let inner_name = inner.file_name().into_string().expect("UTF-8 name");
                    let bytes = fs::read(inner.path()).expect("fixture file");
                    files.insert(&format!("{name}/{inner_name}"), bytes);
                }
            }
        } else {
            files.insert(&name, fs::read(entry.path()).expect("fixture file"));
        }
    }
    files
}

fn errors_by_folder(validation: &Validation) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut found: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    for diagnostic in &validation.diagnostics {
        if diagnostic.severity == Severity::Error {
            let folder = diagnostic.folder().unwrap_or("<registry>").to_owned();
            found
                .entry(folder)
                .or_default()
                .insert(diagnostic.rule.as_str());
        }
    }
    found
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).expect("fixture file")).expect("fixture JSON")
}

#[test]
fn snapshot_2026_02_validates_without_errors() {
    let validation = validate(&read_registry(&fixture("real-registry-2026-02/source")));
    assert_eq!(errors_by_folder(&validation), BTreeMap::new());
    let folders: Vec<&str> = validation
        .entries
        .iter()
        .map(|e| e.folder.as_str())
        .collect();
    // `_not_yet_unsupported/` holds folders, not a manifest: skipped.
    assert_eq!(
        folders,
        [
            "auggie",
            "claude-code-acp",
            "codex-acp",
            "factory-droid",
            "gemini",
            "github-copilot",
            "kimi",
            "mistral-vibe",
            "opencode",
            "qoder",
            "qwen-code"
        ]
    );
}

#[test]
fn snapshot_2026_02_builds_the_published_registry() {
    let files = read_registry(&fixture("real-registry-2026-02/source"));
    // The views' rules of the CI of that day.
    let rules = ViewRules::FEBRUARY_2026;
    let (first, _) = build_with_rules(&files, DEFAULT_BASE_URL, &rules);
    let (second, _) = build_with_rules(&files, DEFAULT_BASE_URL, &rules);
    let first = first.expect("the snapshot builds");
    let second = second.expect("the snapshot builds");
    assert_eq!(first, second, "two builds are identical");

    let built: Value = serde_json::from_str(&first.registry_json).expect("built JSON");
    let published = read_json(&fixture("real-registry-2026-02/dist/registry.json"));
    assert_eq!(built, published);
    // Key order and formatting too: the published file is the CI's `json.dump(indent=2)`.
    let published_text =
        fs::read_to_string(fixture("real-registry-2026-02/dist/registry.json")).expect("fixture");
    assert_eq!(first.registry_json, published_text);
    // The JetBrains view too, byte for byte; that CI had no preview view.
    let jetbrains = fs::read_to_string(fixture(
        "real-registry-2026-02/dist/registry-for-jetbrains.json",
    ))
    .expect("fixture");
    assert_eq!(first.jetbrains_json, jetbrains);
    assert_eq!(first.jetbrains_preview_json, None);
    assert_eq!((first.views.jetbrains_agents, first.views.bundled), (9, 0));
    // Today's rules leave `github-copilot` out of `registry.json` and keep it for JetBrains.
    let (current, _) = build(&files, DEFAULT_BASE_URL);
    let current = current.expect("the snapshot builds");
    let ids = |text: &str| -> Vec<String> {
        let value: Value = serde_json::from_str(text).expect("JSON");
        value["agents"]
            .as_array()
            .expect("agents")
            .iter()
            .map(|a| a["id"].as_str().expect("id").to_owned())
            .collect()
    };
    assert!(!ids(&current.registry_json).contains(&"github-copilot".to_owned()));
    assert!(ids(&current.jetbrains_json).contains(&"github-copilot".to_owned()));
    assert_eq!(ids(&current.jetbrains_json).len(), 11);

    assert_eq!((first.agents, first.extensions), (11, 0));
    let icons: Vec<(&str, &str)> = first
        .icons
        .iter()
        .map(|i| (i.from.as_str(), i.to.as_str()))
        .collect();
    assert_eq!(icons.len(), 11);
    assert_eq!(icons[0], ("auggie/icon.svg", "auggie.svg"));
    assert_eq!(icons[10], ("qwen-code/icon.svg", "qwen-code.svg"));
    // What the CI publishes is the icon as committed; the build writes its sanitised form.
    for icon in &first.icons {
        let published = fs::read_to_string(fixture("real-registry-2026-02/dist").join(&icon.to))
            .expect("a published icon");
        assert_eq!(
            sanitise_icon(&published).as_ref(),
            Ok(&icon.contents),
            "{} is the published {}, sanitised",
            icon.from,
            icon.to
        );
    }
    let copies: Vec<(&str, &str)> = first
        .copies
        .iter()
        .map(|c| (c.from.as_str(), c.to.as_str()))
        .collect();
    assert_eq!(
        copies,
        [
            ("agent.schema.json", "agent.schema.json"),
            ("registry.schema.json", "registry.schema.json")
        ]
    );
    for copy in &first.copies {
        let published = fs::read(fixture("real-registry-2026-02/dist").join(&copy.to));
        assert_eq!(
            files.get(&copy.from),
            published.as_deref().ok(),
            "{} is the published {}",
            copy.from,
            copy.to
        );
    }
}

/// The folders of the 2026 data that are not in its `dist/registry.json`, and why the CI
/// rejected each (every error rule found, as looked at by hand).
const REJECTED_2026: &[(&str, &[&str])] = &[
    // Authors as objects, `aider-acp@latest`, no icon (its `homepage` and `capabilities`, the
    // RFD's shape, are only warnings: the CI publishes them as they are).
    ("aider-acp", &["icon-missing", "latest-package", "schema"]),
    // fill="white"/"black" and a gradient, never currentColor.
    ("bob", &["icon-color", "icon-no-current-color"]),
    // A `<!-- -->` comment in the icon (its .tar.xz archives are raw binaries to the CI).
    ("chump", &["icon-comment"]),
    // An Adobe Illustrator `<!-- Generator -->` comment.
    ("cursor", &["icon-comment"]),
    // A 14x16 icon with fill="white".
    ("cursor-acp", &["icon-color", "icon-size"]),
    // `dirac-cli@0.3.0` for version 0.3.1, and no icon.
    ("dirac", &["icon-missing", "version-mismatch"]),
    // fill="#212121", never currentColor.
    ("grok-cli", &["icon-color", "icon-no-current-color"]),
    // fill="#000000", never currentColor (and a wrong xmlns, a warning).
    ("hermes-agent", &["icon-color", "icon-no-current-color"]),
    // Six comments drawing the wordmark in ASCII.
    ("hive", &["icon-comment"]),
    // .dmg and .msi installers as archives.
    ("kiro", &["archive-installer"]),
    // /download/v1.18.31.1/: the CI compares the first three parts, 1.18.31, with 1.18.31.1.
    ("mammouth-code", &["version-mismatch"]),
    // Gradients and hex colours, comments, never currentColor.
    (
        "nova",
        &["icon-color", "icon-comment", "icon-no-current-color"],
    ),
    // A <text> glyph with no fill: black, never currentColor.
    ("pando", &["icon-no-current-color"]),
];

#[test]
fn data_2026_fails_exactly_the_folders_the_ci_rejects() {
    let validation = validate(&read_registry(&fixture("real-registry-2026/source")));
    let published = read_json(&fixture("real-registry-2026/dist/registry.json"));
    let published = published["agents"].as_array().expect("agents");
    let without_icon: BTreeSet<&str> = published
        .iter()
        .filter(|agent| agent.get("icon").is_none())
        .map(|agent| agent["id"].as_str().expect("id"))
        .collect();
    assert_eq!(without_icon.len(), 41);
    let published_ids: BTreeSet<&str> = published
        .iter()
        .map(|agent| agent["id"].as_str().expect("id"))
        .collect();

    let mut expected: BTreeMap<String, BTreeSet<&'static str>> = without_icon
        .iter()
        .map(|id| (id.to_string(), BTreeSet::from(["icon-missing"])))
        .collect();
    for &(folder, rules) in REJECTED_2026 {
        assert!(!published_ids.contains(folder), "{folder} is not published");
        expected.insert(folder.to_owned(), rules.iter().copied().collect());
    }
    assert_eq!(errors_by_folder(&validation), expected);
    assert_eq!(validation.failing_folders().len(), 41 + REJECTED_2026.len());

    // Every folder is either published or in the table: nothing unexplained.
    let entries: BTreeSet<&str> = validation
        .entries
        .iter()
        .map(|e| e.folder.as_str())
        .collect();
    let explained: BTreeSet<&str> = published_ids
        .iter()
        .copied()
        .chain(REJECTED_2026.iter().map(|(folder, _)| *folder))
        .collect();
    assert_eq!(entries, explained);
}

#[test]
fn data_2026_published_entries_build_as_published() {
    // With the 41 icon-less folders and the rejected ones left out, the rest builds to the
    // published entries (which carry an icon URL).
    let source = read_registry(&fixture("real-registry-2026/source"));
    let published = read_json(&fixture("real-registry-2026/dist/registry.json"));
    let with_icon: Vec<Value> = published["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter(|agent| agent.get("icon").is_some())
        .cloned()
        .collect();
    let keep: BTreeSet<String> = with_icon
        .iter()
        .map(|agent| agent["id"].as_str().expect("id").to_owned())
        .collect();
    let files: Files = source
        .paths()
        .filter(|path| {
            path.split_once('/')
                .is_none_or(|(folder, _)| keep.contains(folder))
        })
        .map(|path| (path.to_owned(), source.get(path).expect("listed").to_vec()))
        .collect();
    // The fixture was aggregated as the CI did before its preview channel: every accepted
    // manifest unchanged (`claude-acp` keeps its `preview` block), nobody left out.
    let (built, validation) = build_with_rules(&files, DEFAULT_BASE_URL, &ViewRules::FEBRUARY_2026);
    assert_eq!(errors_by_folder(&validation), BTreeMap::new());
    let built: Value =
        serde_json::from_str(&built.expect("builds").registry_json).expect("built JSON");
    assert_eq!(built["agents"].as_array().expect("agents"), &with_icon);
    // Today's rules publish them without `preview` blocks (and would leave out
    // `github-copilot`, which is not among them: its icon was not recovered).
    let (today, _) = build(&files, DEFAULT_BASE_URL);
    let today: Value =
        serde_json::from_str(&today.expect("builds").registry_json).expect("built JSON");
    let expected: Vec<Value> = with_icon
        .iter()
        .filter(|agent| agent["id"] != "github-copilot")
        .map(|agent| {
            let mut agent = agent.clone();
            agent
                .as_object_mut()
                .expect("object")
                .shift_remove("preview");
            agent
        })
        .collect();
    assert!(with_icon.iter().any(|agent| agent.get("preview").is_some()));
    assert_eq!(today["agents"].as_array().expect("agents"), &expected);
}
