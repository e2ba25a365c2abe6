//! The ACP registry's CI rules as a pure library: validate a registry folder and build its
//! `registry.json`, with every problem reported at once.
//!
//! A registry folder (the `agentclientprotocol/registry` repository) holds one folder per agent,
//! `<id>/agent.json` beside `<id>/icon.svg`, and `agent.schema.json` at the top. Like the CI
//! today, `extension.json` is not read (a warning says so) and `registry.json` lists
//! `"extensions": []`. This crate reads it as data — a [`Files`] map of relative paths to bytes — so it does no
//! IO and runs natively (the `acp-registry` command) and in WebAssembly (the site's preview).
//!
//! - [`validate`] applies the CI's rules (parse, schema, required fields, id, version,
//!   distribution, versions in URLs and package specs, the preview channel, icon) plus stricter
//!   ones (unsafe or oversized SVG content, theme icon pairs, `cmd` paths), and warnings (fields
//!   outside the format, look-alikes), and returns every [`Diagnostic`], each with its file,
//!   place, message and one-line fix;
//! - [`sanitise_icon`] re-writes an icon from its parsed tree with only what draws, within the
//!   [`limits`]: what `build` writes and the preview shows;
//! - [`build`] also assembles `registry.json` and its two JetBrains views exactly as the CI does
//!   ([`views`]), with the sanitised icons and the files to copy beside them;
//! - [`Validation::remote_checks`] lists the URLs `--check-urls` should try, so the network part
//!   stays outside.
//!
//! Module map: `diagnostic` (what is reported), `manifest` (JSON rules), `preview` (the
//! preview channel's rules), `schema` (`agent.schema.json`), `icon` (SVG rules, CSS, limits, the
//! sanitiser), `lookalike` (names and ids confusable across folders), `versions` (versions
//! inside URLs and specs), `spans` (JSON pointer → place in the text), `output`
//! (`registry.json`), `views` (the JetBrains views and their rules), `remote` (URL checks).
//!
//! Folder discovery follows the CI: top-level folders starting with `.`, `dist` and folders without
//! a manifest are skipped; an id two folders share is an error (`Rule::IdDuplicate`).
//!
//! # The registry CI's rules, and where each is
//!
//! Read from the registry repository (`agentclientprotocol/registry`): `build_registry.py` and
//! `registry_utils.py` in `.github/workflows/`, their tests (`tests/test_build_registry.py`),
//! `agent.schema.json`, `FORMAT.md` and `AGENTS.md`, as they stood with the preview channel
//! (checked 2026-12-07). Tests are in `tests/` of this crate unless named otherwise.
//!
//! | CI rule | here (rule code) | test |
//! |---|---|---|
//! | the manifest is strict JSON (`json.load`) | `manifest::parse` (`json-syntax`, `jsonc`, `encoding`) | `rules::parsing` |
//! | `agent.schema.json` (jsonschema, formats unchecked) | `schema` (`schema`) | `rules::schema_rules` |
//! | the top level is open: unknown fields pass, published as they are | `manifest` (`unknown-field`, `legacy-shape`: warnings) | `rules::fields_outside_the_format`, `rules::older_rfd_shape` |
//! | required `id`, `name`, `version`, `description`, `distribution` | `manifest` (`required-field`, `wrong-type`) | `rules::required_fields_and_types` |
//! | `id`: a letter first, lowercase, digits, `-`; equal to its folder; unique | `manifest` (`id-format`, `id-folder-mismatch`), `validate` (`id-duplicate`) | `rules::ids` |
//! | `version`: three dot-separated numbers first, never a prerelease | `manifest` (`version-format`) | `rules::versions`, `preview::preview_failures_name_the_field` |
//! | `distribution` non-empty, methods `binary`/`npx`/`uvx`, known platforms, every OS (warning) | `manifest` (`distribution-empty`, `distribution-unknown-method`, `binary-empty`, `unknown-platform`, `missing-os-family`) | `rules::distributions` |
//! | targets have `archive` and `cmd`; no installers (`.dmg`, `.msi`…) | `manifest` (`required-field`, `archive-installer`) | `rules::required_fields_and_types`, `rules::archives_and_versions_agree` |
//! | no `/latest/` URL, no `@latest` package; versions in URLs and specs equal `version` | `versions`, `manifest` (`latest-url`, `latest-package`, `version-mismatch`) | `rules::archives_and_versions_agree`, `rules::packages_and_versions_agree` |
//! | `preview`: exactly `version` and `distribution`; `X.Y.Z` or `X.Y.Z-preview.N`; npx/uvx only, non-empty; specs pinned to `preview.version`; no ordering against `version` | `preview` (`preview-shape`, `preview-version`, `preview-distribution`, `version-mismatch`) | `preview::valid_preview_blocks_pass`, `preview::malformed_preview_versions_fail`, `preview::preview_failures_name_the_field` |
//! | `icon.svg` required: XML, `<svg>` root, 16x16 square (units stripped, else the viewBox), no comments | `icon` (`icon-missing`, `icon-xml`, `icon-root`, `icon-size`, `icon-comment`) | `rules::ci_icon_cases`, `rules::icon_sizes` |
//! | `fill`/`stroke` (attributes, `style`, `<style>`) only `currentColor`, `none`, `inherit`; `currentColor` used by one of them | `icon` (`icon-color`, `icon-no-current-color`) | `rules::ci_icon_cases`, `rules::icon_colours` |
//! | URLs reachable: https only, public addresses after every redirect, retries; npm and PyPI by package name; preview never probed | `remote` + `acp-registry`'s `urls` (`url-unreachable`, with `--check-urls`) | `acp-registry` `cli::check_urls_*`, `preview::only_the_stable_distribution_is_checked_online` |
//! | agent folders only: `agent.json`; `registry.json` lists `"extensions": []` | `check_folder` (`manifest-conflict`, `no-manifest`: warnings) | `rules::folders`, `rules::build_lists_agents_in_folder_order_and_no_extensions` |
//! | three views: `registry.json` without `github-copilot`; JetBrains without `github-copilot-cli`, `claude-acp` bundled with `--hide-claude-auth`; the preview view serves the higher channel; `preview` never published | `views` (`ViewRules::CURRENT`) | `preview::three_views_and_the_preview_key_never_published`, `preview::the_highest_channel_wins`, `preview::jetbrains_patches_apply_to_the_preview_view`, `views` |
//!
//! Stricter than the CI, each saying so in its message ([`Rule::beyond_ci`]): unsafe SVG
//! content and oversized icons (`icon-script`, `icon-event-handler`, `icon-external-reference`,
//! `icon-foreign-object`, `icon-dtd`, `icon-animation`, `icon-css-escape`, `icon-too-large`),
//! unpaired theme icons, a `cmd` outside its archive (`cmd-path`) and over-long ids. `build`
//! publishes sanitised icons where the CI copies the files' bytes.
//!
//! Where `FORMAT.md` and the CI differ, this crate follows the CI: an icon not 16x16 fails
//! (the format calls the size "preferred"); `registry.json` has `"extensions": []` (the format
//! shows `version` and `agents` only); `X.Y.Z-preview.0` is accepted (the format counts `N`
//! from 1, the CI's pattern takes any number).
#![deny(missing_docs)]

mod diagnostic;
mod icon;
mod lookalike;
mod manifest;
mod output;
mod preview;
mod remote;
mod schema;
mod spans;
mod versions;
pub mod views;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::Value;

pub use diagnostic::{Diagnostic, Rule, Severity, Span};
pub use icon::limits;
pub use icon::{IconError, sanitise_icon};
pub use output::{Build, CopiedFile, DEFAULT_BASE_URL, WrittenFile, build, build_with_rules};
pub use registry_core::Kind;
pub use remote::{Endpoints, Remote, RemoteCheck};
pub use schema::AGENT_SCHEMA;
pub use views::{ViewCounts, ViewRules, Views, ViewsError, views_of_published};

use icon::{IconRole, check_icon};
use manifest::{Parsed, Sink};
use schema::Schema;

/// A registry folder as data: each file's path (relative, `/`-separated) and bytes.
///
/// Only the top level and the entry folders one level down are read; deeper files (such as
/// `_not_yet_unsupported/<id>/agent.json`) are ignored, as the CI ignores them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Files {
    files: BTreeMap<String, Vec<u8>>,
}

impl Files {
    /// No files.
    pub fn new() -> Files {
        Files::default()
    }

    /// Adds (or replaces) a file; `\` separators are read as `/`.
    pub fn insert(&mut self, path: &str, bytes: Vec<u8>) {
        self.files.insert(path.replace('\\', "/"), bytes);
    }

    /// A file's bytes.
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(Vec::as_slice)
    }

    /// Every path, in order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// The entry folders (one level down) and the names of their files, skipped folders left
    /// out.
    fn folders(&self) -> BTreeMap<&str, BTreeSet<&str>> {
        let mut folders: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for path in self.files.keys() {
            if let Some((folder, name)) = path.split_once('/')
                && !name.contains('/')
                && !is_skipped_folder(folder)
            {
                folders.entry(folder).or_default().insert(name);
            }
        }
        folders
    }
}

impl<P: Into<String>, B: Into<Vec<u8>>> FromIterator<(P, B)> for Files {
    fn from_iter<I: IntoIterator<Item = (P, B)>>(iter: I) -> Files {
        let mut files = Files::new();
        for (path, bytes) in iter {
            files.insert(&path.into(), bytes.into());
        }
        files
    }
}

/// Whether the CI skips a top-level folder by its name: `.`-prefixed folders and `dist`.
/// (Folders without a manifest are skipped too, but that depends on their content.)
pub fn is_skipped_folder(name: &str) -> bool {
    name.starts_with('.') || name == "dist"
}

/// One entry folder with a manifest.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The folder name.
    pub folder: String,
    /// The manifest file: `<folder>/agent.json` or `<folder>/extension.json`.
    pub file: String,
    /// Agent or extension.
    pub kind: Kind,
    /// The `id`, when it is a string.
    pub id: Option<String>,
    parsed: Option<Parsed>,
}

impl Manifest {
    /// The manifest's value, keys in written order, when it could be read.
    pub fn value(&self) -> Option<&Value> {
        self.parsed.as_ref().map(|parsed| &parsed.value)
    }
}

/// What [`validate`] found: every entry folder with a manifest, and every problem.
#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// Entry folders with a manifest, in folder-name order (the order of `registry.json`).
    pub entries: Vec<Manifest>,
    /// Problems with the registry as a whole first, then per folder in folder order, each
    /// folder's sorted by file and place.
    pub diagnostics: Vec<Diagnostic>,
}

impl Validation {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    /// How many diagnostics have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// The entry folders with at least one error, in folder order.
    pub fn failing_folders(&self) -> Vec<&str> {
        let failing: HashSet<&str> = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .filter_map(Diagnostic::folder)
            .collect();
        self.entries
            .iter()
            .map(|entry| entry.folder.as_str())
            .filter(|folder| failing.contains(folder))
            .collect()
    }

    /// Keeps only these entry folders (and the problems of the registry as a whole).
    pub fn retain_folders(&mut self, folders: &[&str]) {
        self.entries
            .retain(|entry| folders.contains(&entry.folder.as_str()));
        self.diagnostics
            .retain(|d| d.folder().is_none_or(|folder| folders.contains(&folder)));
    }
}

/// Validates a registry folder: the CI's rules and this tool's stricter ones, every problem in
/// every entry.
pub fn validate(files: &Files) -> Validation {
    let mut validation = Validation::default();
    let schema = match files.get(AGENT_SCHEMA) {
        Some(bytes) => match Schema::compile(bytes) {
            Ok(schema) => Some(schema),
            Err(diagnostic) => {
                validation.diagnostics.push(diagnostic);
                None
            }
        },
        None => {
            validation.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                rule: Rule::SchemaMissing,
                file: AGENT_SCHEMA.to_owned(),
                span: None,
                message: "the registry folder has no agent.schema.json: manifests were not \
                          checked against the schema"
                    .to_owned(),
                hint: "run the validator on the registry repository's root, where \
                       agent.schema.json is"
                    .to_owned(),
            });
            None
        }
    };
    let mut seen_ids: HashMap<String, String> = HashMap::new();
    // Each folder's problems, kept apart until the look-alikes across folders are known.
    let mut outs: Vec<Vec<Diagnostic>> = Vec::new();
    let mut entry_outs: Vec<usize> = Vec::new();
    for (folder, names) in files.folders() {
        let mut out = Vec::new();
        let entry = check_folder(files, folder, &names, schema.as_ref(), &mut out);
        if let Some(entry) = entry {
            if let (Some(id), Some(parsed)) = (&entry.id, &entry.parsed) {
                match seen_ids.get(id) {
                    Some(first) => {
                        let mut sink = Sink {
                            file: &entry.file,
                            parsed,
                            out: &mut out,
                            claimed: HashSet::new(),
                        };
                        sink.error(
                            Rule::IdDuplicate,
                            "/id",
                            manifest::At::Value,
                            format!("`id` \"{id}\" is already used by {first}/"),
                            "give each agent and extension its own id (its folder name)".to_owned(),
                        );
                    }
                    None => {
                        seen_ids.insert(id.clone(), folder.to_owned());
                    }
                }
            }
            validation.entries.push(entry);
            entry_outs.push(outs.len());
        }
        outs.push(out);
    }
    let mut lookalikes = vec![Vec::new(); validation.entries.len()];
    lookalike::check(&validation.entries, &mut lookalikes);
    for (found, &out) in lookalikes.into_iter().zip(&entry_outs) {
        outs[out].extend(found);
    }
    for mut out in outs {
        out.sort_by_key(|d| (d.file.clone(), d.span.map(|s| (s.start, s.end))));
        for diagnostic in &mut out {
            if let Some(why) = diagnostic.rule.beyond_ci()
                && diagnostic.severity == Severity::Error
            {
                diagnostic.message = format!(
                    "{} (the registry's CI accepts this; this tool does not: {why})",
                    diagnostic.message
                );
            }
        }
        validation.diagnostics.extend(out);
    }
    validation
}

/// Checks one entry folder; `None` when it has no manifest (it is skipped).
fn check_folder(
    files: &Files,
    folder: &str,
    names: &BTreeSet<&str>,
    schema: Option<&Schema>,
    out: &mut Vec<Diagnostic>,
) -> Option<Manifest> {
    let path = |name: &str| format!("{folder}/{name}");
    let agent = names.contains("agent.json");
    if names.contains("extension.json") {
        let (message, hint) = if agent {
            (
                format!(
                    "{folder}/extension.json is ignored: the registry's CI reads agent.json only \
                     (its registry.json lists \"extensions\": [])"
                ),
                format!("remove {folder}/extension.json"),
            )
        } else {
            (
                format!(
                    "{folder}/ has extension.json but no agent.json, and the registry's CI reads \
                     agent.json only (its registry.json lists \"extensions\": []): the folder \
                     is skipped"
                ),
                "publish it as an agent (rename extension.json to agent.json), or move the \
                 folder out of the registry"
                    .to_owned(),
            )
        };
        out.push(Diagnostic {
            severity: Severity::Warning,
            rule: Rule::ManifestConflict,
            file: path("extension.json"),
            span: None,
            message,
            hint,
        });
    }
    if !agent {
        if !names.contains("extension.json") {
            out.push(Diagnostic {
                severity: Severity::Warning,
                rule: Rule::NoManifest,
                file: format!("{folder}/"),
                span: None,
                message: format!("{folder}/ has files but no agent.json; it is skipped"),
                hint: "add the manifest (agent.json), or move the folder out of the registry"
                    .to_owned(),
            });
        }
        return None;
    }
    let (name, kind) = ("agent.json", Kind::Agent);
    let file = path(name);
    let parsed = manifest::parse(&file, files.get(&file).unwrap_or_default(), out);
    let mut id = None;
    if let Some(parsed) = &parsed {
        let mut sink = Sink {
            file: &file,
            parsed,
            out,
            claimed: HashSet::new(),
        };
        id = manifest::check(folder, &mut sink);
        if let Some(preview) = parsed.value.get("preview") {
            preview::check(preview, &mut sink);
        }
        if let Some(schema) = schema {
            schema.check(&mut sink);
        }
    }
    match files.get(&path("icon.svg")) {
        Some(bytes) => check_icon(&path("icon.svg"), bytes, IconRole::Main, out),
        None => out.push(Diagnostic {
            severity: Severity::Error,
            rule: Rule::IconMissing,
            file: path("icon.svg"),
            span: None,
            message: format!(
                "missing icon.svg: {folder}/ has no icon, which the registry requires"
            ),
            hint: format!(
                "add {folder}/icon.svg: a 16x16 SVG drawn in currentColor (fill=\"currentColor\")"
            ),
        }),
    }
    check_theme_icons(files, folder, out);
    Some(Manifest {
        folder: folder.to_owned(),
        file,
        kind,
        id,
        parsed,
    })
}

/// `icon-light.svg` and `icon-dark.svg` come as a pair (RFD), and are checked as icons.
fn check_theme_icons(files: &Files, folder: &str, out: &mut Vec<Diagnostic>) {
    let light = format!("{folder}/icon-light.svg");
    let dark = format!("{folder}/icon-dark.svg");
    for (present, absent) in [(&light, &dark), (&dark, &light)] {
        let Some(bytes) = files.get(present) else {
            continue;
        };
        check_icon(present, bytes, IconRole::Themed, out);
        if files.get(absent).is_none() {
            out.push(Diagnostic {
                severity: Severity::Error,
                rule: Rule::IconThemePair,
                file: present.clone(),
                span: None,
                message: format!("{present} has no {absent} beside it; theme icons come as a pair"),
                hint: format!("add {absent}, or remove {present}"),
            });
        }
    }
}
