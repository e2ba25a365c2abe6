//! `registry.json` as the CI writes it: `{"version": "1.0.0", "agents": [...], "extensions":
//! [...]}`, entries in folder-name order, each its manifest (keys in written order) with `icon`
//! set to `<base-url>/<id>.svg`, pretty-printed with two spaces and a trailing newline; the
//! JetBrains views of the same entries (see [`crate::views`]); and beside them the sanitised
//! icons (`sanitise_icon`), never the files as committed.
//!
//! `build` uses the current view rules, `build_with_rules` any `ViewRules`; a `Build` holds the
//! texts of the files, the sanitised icons to write (`Build::icons`) and the schemas to copy.

use serde_json::{Map, Value};

use crate::views::{ViewCounts, ViewRules, assemble};
use crate::{AGENT_SCHEMA, Files, Kind, Validation, sanitise_icon, validate};

/// Where the published icons live, unless `--base-url` says otherwise.
pub const DEFAULT_BASE_URL: &str = "https://cdn.agentclientprotocol.com/registry/v1/latest";
/// Schemas copied beside `registry.json` when the registry folder has them.
const SCHEMAS: [&str; 2] = [AGENT_SCHEMA, "registry.schema.json"];

/// What [`build`] produces: the text of `registry.json`, the icons and the files to copy
/// beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// The text of `registry.json`.
    pub registry_json: String,
    /// The text of `registry-for-jetbrains.json`.
    pub jetbrains_json: String,
    /// The text of `registry-for-jetbrains-preview.json`, when the rules have a preview
    /// channel.
    pub jetbrains_preview_json: Option<String>,
    /// How many agents `registry.json` lists.
    pub agents: usize,
    /// How many extensions it lists.
    pub extensions: usize,
    /// What each view lists.
    pub views: ViewCounts,
    /// The icons to write into the output folder, as `<id>.svg`, each re-written by
    /// [`sanitise_icon`]: what is published can only be shapes.
    pub icons: Vec<WrittenFile>,
    /// The schemas to copy into the output folder.
    pub copies: Vec<CopiedFile>,
}

/// A file to write into the output folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenFile {
    /// Where it came from in the registry folder: `gemini/icon.svg`.
    pub from: String,
    /// Path in the output folder: `gemini.svg`.
    pub to: String,
    /// Its text.
    pub contents: String,
}

/// A file to copy from the registry folder into the output folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopiedFile {
    /// Path in the registry folder: `agent.schema.json`.
    pub from: String,
    /// Path in the output folder: `agent.schema.json`.
    pub to: String,
}

/// Validates, then builds `registry.json` and the JetBrains views by the current rules
/// ([`ViewRules::CURRENT`]) with icon URLs under `base_url`, and the sanitised icons. The build
/// is `None` when the validation has an error: like the CI, nothing is published then.
pub fn build(files: &Files, base_url: &str) -> (Option<Build>, Validation) {
    build_with_rules(files, base_url, &ViewRules::CURRENT)
}

/// [`build`], with the views' rules of another time.
pub fn build_with_rules(
    files: &Files,
    base_url: &str,
    rules: &ViewRules,
) -> (Option<Build>, Validation) {
    let validation = validate(files);
    if validation.has_errors() {
        return (None, validation);
    }
    let base_url = base_url.trim_end_matches('/');
    let (mut agents, mut extensions, mut icons) = (Vec::new(), Vec::new(), Vec::new());
    for entry in &validation.entries {
        let (Some(Value::Object(manifest)), Some(id)) = (entry.value(), &entry.id) else {
            continue;
        };
        let mut published: Map<String, Value> = manifest.clone();
        let icon = format!("{}/icon.svg", entry.folder);
        if let Some(bytes) = files.get(&icon) {
            // Validation passed, so the icon is UTF-8 and sanitises: every refusal of the
            // sanitiser is a validator error.
            let text = std::str::from_utf8(bytes).expect("a valid icon is UTF-8");
            let contents = sanitise_icon(text).expect("a valid icon sanitises");
            published.insert(
                "icon".to_owned(),
                Value::String(format!("{base_url}/{id}.svg")),
            );
            icons.push(WrittenFile {
                from: icon,
                to: format!("{id}.svg"),
                contents,
            });
        }
        match entry.kind {
            Kind::Agent => agents.push(published),
            Kind::Extension => extensions.push(published),
        }
    }
    let copies = SCHEMAS
        .into_iter()
        .filter(|schema| files.get(schema).is_some())
        .map(|schema| CopiedFile {
            from: schema.to_owned(),
            to: schema.to_owned(),
        })
        .collect();
    let views = assemble(&agents, &extensions, rules);
    let build = Build {
        registry_json: views.registry_json,
        jetbrains_json: views.jetbrains_json,
        jetbrains_preview_json: views.jetbrains_preview_json,
        agents: views.counts.default_agents,
        extensions: views.counts.extensions,
        views: views.counts,
        icons,
        copies,
    };
    (Some(build), validation)
}
