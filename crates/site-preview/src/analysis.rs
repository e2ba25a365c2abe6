//! What the preview shows for a manifest and an icon: the registry's diagnostics, and the entry
//! as the catalogue will read it.
//!
//! The manifest and the icon are put in a one-entry registry folder (`<id>/agent.json`,
//! `<id>/icon.svg`, the registry's `agent.schema.json`) and checked by
//! [`registry_validate::validate`], the same rules as `acp-registry validate`. The folder is named
//! after the manifest's `id`, so the folder-name rule, which only a real registry folder can
//! break, is left out. Then the manifest's value is read by [`registry_core::load`] as one entry
//! of a registry, which is how the catalogue will read it once it is published: the card and the
//! page are drawn from that entry, even when the manifest still has errors, as long as it can be
//! read at all.
//!
//! `analyse` gives the `Analysis`; the schema is the registry's, copied in `schema/`. The icon it
//! gives to show (`Analysis::shown_icon`) is the sanitised one, what `acp-registry build`
//! publishes, never the text as given.

use registry_core::{Entry, Kind};
use registry_validate::{AGENT_SCHEMA, Diagnostic, Files, Rule, Severity};

/// The registry's `agent.schema.json` (see `schema/NOTICE.md`).
pub const SCHEMA: &str = include_str!("../schema/agent.schema.json");
use serde_json::Value;

/// The folder name used when the manifest has no usable `id`.
pub const FALLBACK_FOLDER: &str = "your-agent";

/// The verdict on one manifest and icon.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The folder the files were checked in: the manifest's `id`, or [`FALLBACK_FOLDER`].
    pub folder: String,
    /// Every problem, as `acp-registry validate` reports it.
    pub diagnostics: Vec<Diagnostic>,
    /// The entry as the catalogue will read it, when it can be read. Its `icon` is `None`: the
    /// page sets it to the icon's object URL when [`Analysis::icon_accepted`].
    pub entry: Option<Entry>,
    /// Why there is no entry, when there is none.
    pub unreadable: Option<String>,
    /// An icon was given and no rule rejected it, so it may be shown (as a mask, never inline).
    pub icon_accepted: bool,
    /// The icon to show when [`Analysis::icon_accepted`]: not the text as given, but its
    /// sanitised form ([`registry_validate::sanitise_icon`]), what `acp-registry build` publishes.
    pub shown_icon: Option<String>,
}

impl Analysis {
    /// How many diagnostics have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// The manifest's path in the checked folder: `<folder>/agent.json`.
    pub fn manifest_file(&self) -> String {
        format!("{}/agent.json", self.folder)
    }

    /// The icon's path in the checked folder: `<folder>/icon.svg`.
    pub fn icon_file(&self) -> String {
        format!("{}/icon.svg", self.folder)
    }
}

/// Checks a manifest (JSON or JSONC text) and an optional icon (SVG text).
pub fn analyse(manifest: &str, icon: Option<&str>) -> Analysis {
    let folder = folder_for(manifest);
    let manifest_file = format!("{folder}/agent.json");
    let icon_file = format!("{folder}/icon.svg");

    let mut files = Files::new();
    files.insert(AGENT_SCHEMA, SCHEMA.as_bytes().to_vec());
    files.insert(&manifest_file, manifest.as_bytes().to_vec());
    if let Some(icon) = icon {
        files.insert(&icon_file, icon.as_bytes().to_vec());
    }
    let validation = registry_validate::validate(&files);
    let diagnostics: Vec<Diagnostic> = validation
        .diagnostics
        .into_iter()
        .filter(|d| d.rule != Rule::IdFolderMismatch)
        .collect();
    let icon_accepted = icon.is_some()
        && !diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.file == icon_file);
    let shown_icon = icon
        .filter(|_| icon_accepted)
        .and_then(|icon| registry_validate::sanitise_icon(icon).ok());

    let value = validation
        .entries
        .iter()
        .find(|entry| entry.file == manifest_file)
        .and_then(|entry| entry.value());
    let (entry, unreadable) = match value {
        Some(value) => read_entry(value),
        None => (
            None,
            Some("The manifest cannot be read as JSON yet.".to_owned()),
        ),
    };
    Analysis {
        folder,
        diagnostics,
        entry,
        unreadable,
        icon_accepted,
        shown_icon,
    }
}

/// The manifest read as one agent of a published registry, as the catalogue reads it.
fn read_entry(value: &Value) -> (Option<Entry>, Option<String>) {
    let registry = serde_json::json!({ "version": "1.0.0", "agents": [value], "extensions": [] });
    match registry_core::load(&registry.to_string()) {
        Ok(loaded) => match loaded
            .registry
            .entries
            .into_iter()
            .find(|e| e.kind == Kind::Agent)
        {
            Some(mut entry) => {
                entry.icon = None;
                (Some(entry), None)
            }
            None => {
                let why = loaded
                    .diagnostics
                    .iter()
                    .map(|d| d.message.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                (
                    None,
                    Some(format!("The catalogue would leave it out: {why}")),
                )
            }
        },
        Err(error) => (None, Some(error.to_string())),
    }
}

/// The folder to check the files in: the manifest's `id` when it can be a folder name.
fn folder_for(manifest: &str) -> String {
    let value: Option<Value> = serde_json::from_str(manifest).ok().or_else(|| {
        registry_core::load::strip_jsonc(manifest).and_then(|s| serde_json::from_str(&s).ok())
    });
    let id = value
        .as_ref()
        .and_then(|v| v.get("id"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let usable = !id.is_empty()
        && id.len() <= 100
        && !id.contains(['/', '\\'])
        && !registry_validate::is_skipped_folder(id);
    if usable {
        id.to_owned()
    } else {
        FALLBACK_FOLDER.to_owned()
    }
}

/// A valid manifest to start from.
pub const EXAMPLE_MANIFEST: &str = r#"{
  "id": "example-agent",
  "name": "Example Agent",
  "version": "1.2.0",
  "description": "A coding agent that speaks the Agent Client Protocol",
  "repository": "https://github.com/example/example-agent",
  "authors": ["Example Inc."],
  "license": "MIT",
  "distribution": {
    "npx": {
      "package": "@example/example-agent@1.2.0",
      "args": ["--acp"]
    }
  }
}
"#;

/// A valid icon to start from: 16×16, drawn in `currentColor`.
pub const EXAMPLE_ICON: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
  <path fill="currentColor" d="M8 1 15 8 8 15 1 8Z"/>
</svg>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(analysis: &Analysis) -> Vec<(Severity, Rule, String, Option<usize>)> {
        analysis
            .diagnostics
            .iter()
            .map(|d| (d.severity, d.rule, d.file.clone(), d.span.map(|s| s.line)))
            .collect()
    }

    #[test]
    fn the_example_passes_and_reads_as_an_entry() {
        let analysis = analyse(EXAMPLE_MANIFEST, Some(EXAMPLE_ICON));
        assert_eq!(rules(&analysis), vec![]);
        assert!(analysis.icon_accepted);
        let entry = analysis.entry.expect("entry");
        assert_eq!(
            (
                entry.id.as_str(),
                entry.name.as_str(),
                entry.version.as_str()
            ),
            ("example-agent", "Example Agent", "1.2.0")
        );
        assert_eq!(entry.icon, None);
        assert_eq!(analysis.folder, "example-agent");
    }

    #[test]
    fn a_missing_icon_is_the_registrys_error() {
        let analysis = analyse(EXAMPLE_MANIFEST, None);
        assert_eq!(
            rules(&analysis),
            vec![(
                Severity::Error,
                Rule::IconMissing,
                "example-agent/icon.svg".to_owned(),
                None
            )]
        );
        assert!(!analysis.icon_accepted);
        assert!(analysis.entry.is_some(), "the card still shows");
    }

    #[test]
    fn problems_have_their_lines_and_the_entry_still_shows() {
        let manifest = EXAMPLE_MANIFEST
            .replace("\"1.2.0\",", "\"1.2\",")
            .replace("\"Example Inc.\"", "42");
        let analysis = analyse(&manifest, Some(EXAMPLE_ICON));
        let found = rules(&analysis);
        assert!(
            found.contains(&(
                Severity::Error,
                Rule::VersionFormat,
                "example-agent/agent.json".to_owned(),
                Some(4)
            )),
            "{found:?}"
        );
        assert!(
            found.iter().any(|(s, _, f, line)| *s == Severity::Error
                && f == "example-agent/agent.json"
                && *line == Some(7)),
            "the author on line 7: {found:?}"
        );
    }

    #[test]
    fn jsonc_is_an_error_but_still_read() {
        let manifest = format!(
            "// my agent\n{}",
            EXAMPLE_MANIFEST.replace("]\n    }", "],\n    }")
        );
        let analysis = analyse(&manifest, Some(EXAMPLE_ICON));
        assert_eq!(
            rules(&analysis),
            vec![(
                Severity::Error,
                Rule::Jsonc,
                "example-agent/agent.json".to_owned(),
                Some(1)
            )]
        );
        assert_eq!(analysis.entry.expect("entry").name, "Example Agent");
    }

    /// Issue 13: the preview showed the icon as given; it now shows the sanitised text, and
    /// nothing for the hostile icons of the issue (which the validator accepted before).
    #[test]
    fn the_icon_shown_is_the_sanitised_one_or_none() {
        let analysis = analyse(EXAMPLE_MANIFEST, Some(EXAMPLE_ICON));
        let shown = analysis.shown_icon.expect("the example is shown");
        assert_eq!(
            registry_validate::sanitise_icon(&shown).as_ref(),
            Ok(&shown)
        );
        let hostile = [
            r#"<!DOCTYPE svg [<!ENTITY s "&#60;script&#62;alert(1)&#60;/script&#62;">]><svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><path fill="currentColor" d="M0 0h16v16z"/>&s;</svg>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><a><set attributeName="href" to="javascript:alert(1)"/><path fill="currentColor" d="M0 0h16v16z"/></a></svg>"#,
        ];
        for icon in hostile {
            let analysis = analyse(EXAMPLE_MANIFEST, Some(icon));
            assert!(!analysis.icon_accepted, "{icon}");
            assert_eq!(analysis.shown_icon, None, "{icon}");
        }
    }

    #[test]
    fn a_hostile_icon_is_rejected() {
        let icon = r#"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" onload="alert(1)"><script>alert(2)</script><path fill="currentColor" d="M0 0h16v16z"/></svg>"#;
        let analysis = analyse(EXAMPLE_MANIFEST, Some(icon));
        assert!(!analysis.icon_accepted);
        let found = rules(&analysis);
        for rule in [Rule::IconScript, Rule::IconEventHandler] {
            assert!(
                found
                    .iter()
                    .any(|(_, r, f, _)| *r == rule && f == "example-agent/icon.svg"),
                "{rule:?} in {found:?}"
            );
        }
    }

    #[test]
    fn unreadable_text_has_no_entry_and_says_so() {
        let analysis = analyse("{ \"id\": ", None);
        assert_eq!(analysis.folder, FALLBACK_FOLDER);
        assert!(analysis.entry.is_none());
        assert!(analysis.unreadable.is_some());
        assert!(
            analysis
                .diagnostics
                .iter()
                .any(|d| d.rule == Rule::JsonSyntax && d.span.is_some_and(|s| s.line == 1))
        );
    }

    #[test]
    fn an_id_that_cannot_be_a_folder_is_reported_once() {
        let manifest = EXAMPLE_MANIFEST.replace("\"example-agent\",", "\"../Example\",");
        let analysis = analyse(&manifest, Some(EXAMPLE_ICON));
        assert_eq!(analysis.folder, FALLBACK_FOLDER);
        assert!(
            rules(&analysis)
                .iter()
                .any(|(_, r, _, line)| *r == Rule::IdFormat && *line == Some(2))
        );
        assert!(
            !analysis
                .diagnostics
                .iter()
                .any(|d| d.rule == Rule::IdFolderMismatch)
        );
    }
}
