//! The registry's three published views of the same accepted entries, as its CI writes them
//! (`build_registry.py` and `FORMAT.md` of the registry repository):
//!
//! - `registry.json`, for Zed and most clients: every agent but those the CI leaves out of it,
//!   with `"extensions"`;
//! - `registry-for-jetbrains.json`, for JetBrains IDEs: every agent but those the CI leaves out
//!   of it, some patched (an extra argument), some marked `"bundled": true` (shipped with the
//!   IDE), without `"extensions"`;
//! - `registry-for-jetbrains-preview.json`, a drop-in replacement for the JetBrains view: an
//!   agent whose manifest has a `preview` block (`{"version", "distribution"}`) whose version is
//!   higher than its stable one ([`channel_order`]) appears with that `version` and
//!   `distribution` in their place; every other agent as in the JetBrains view. Preview
//!   distributions are not verified by the registry.
//!
//! Since the preview channel, the `preview` key itself is never published; before it, the CI
//! copied manifests unchanged, so it stayed ([`ViewRules::preview_channel`]). Which ids are left out, patched or bundled is
//! hard-coded in the CI script and changes over time, so the rules are data ([`ViewRules`]):
//! [`ViewRules::CURRENT`] is the newest the catalogue knows, [`ViewRules::FEBRUARY_2026`] the
//! ones that built the registry's snapshot of 2026-02-07 (kept so that snapshot can be rebuilt
//! byte for byte). Entries keep their key order; a key the CI adds (`bundled`, a missing
//! `args`) goes last, as Python's `dict` puts it. Files are pretty-printed with two spaces and a
//! trailing newline, like `json.dump(..., indent=2)`.
//!
//! `assemble` builds the views from the accepted entries; `views_of_published` rebuilds them from a
//! published `registry.json` whose entries the CI all accepted (as the catalogue's bundled copy).
//! Channel versions are compared as the CI sorts them ([`channel_order`]).

use std::cmp::Ordering;

use serde_json::{Map, Value};

/// Which agents each view leaves out, patches or marks bundled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewRules {
    /// What to call them in messages: `current`, `2026-02`.
    pub name: &'static str,
    /// Agents left out of `registry.json`.
    pub default_excluded: &'static [&'static str],
    /// Agents left out of the JetBrains views.
    pub jetbrains_excluded: &'static [&'static str],
    /// Agents marked `"bundled": true` in the JetBrains views.
    pub jetbrains_bundled: &'static [&'static str],
    /// Per agent, an argument appended to its `npx` arguments in the JetBrains views.
    pub jetbrains_npx_args: &'static [(&'static str, &'static str)],
    /// Whether the JetBrains view has an `"extensions": []` key.
    pub jetbrains_lists_extensions: bool,
    /// Whether the preview view is written (and `preview` blocks left out of the others).
    pub preview_channel: bool,
}

impl ViewRules {
    /// The rules of the newest CI script known (the one introducing the preview channel):
    /// `github-copilot` only in the JetBrains views, `github-copilot-cli` only in
    /// `registry.json`, `claude-acp` bundled with JetBrains IDEs and started there with
    /// `--hide-claude-auth`.
    pub const CURRENT: ViewRules = ViewRules {
        name: "current",
        default_excluded: &["github-copilot"],
        jetbrains_excluded: &["github-copilot-cli"],
        jetbrains_bundled: &["claude-acp"],
        jetbrains_npx_args: &[("claude-acp", "--hide-claude-auth")],
        jetbrains_lists_extensions: false,
        preview_channel: true,
    };

    /// The rules of the CI that published the registry's snapshot of 2026-02-07: the JetBrains
    /// view without `codex-acp` and `claude-code-acp`, nothing else changed, no preview view.
    pub const FEBRUARY_2026: ViewRules = ViewRules {
        name: "2026-02",
        default_excluded: &[],
        jetbrains_excluded: &["codex-acp", "claude-code-acp"],
        jetbrains_bundled: &[],
        jetbrains_npx_args: &[],
        jetbrains_lists_extensions: true,
        preview_channel: false,
    };

    /// The named rules: `current` or `2026-02`.
    pub fn named(name: &str) -> Option<ViewRules> {
        [ViewRules::CURRENT, ViewRules::FEBRUARY_2026]
            .into_iter()
            .find(|rules| rules.name == name)
    }
}

/// The three views' texts, and what each lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Views {
    /// `registry.json`.
    pub registry_json: String,
    /// `registry-for-jetbrains.json`.
    pub jetbrains_json: String,
    /// `registry-for-jetbrains-preview.json`, when the rules have a preview channel.
    pub jetbrains_preview_json: Option<String>,
    /// What they list.
    pub counts: ViewCounts,
}

/// How many entries each view lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewCounts {
    /// Agents in `registry.json`.
    pub default_agents: usize,
    /// Extensions in `registry.json`.
    pub extensions: usize,
    /// Agents in the JetBrains view (and in the preview view, which lists the same).
    pub jetbrains_agents: usize,
    /// Of those, the ones marked bundled.
    pub bundled: usize,
    /// Agents the preview view serves at their preview version.
    pub previews: usize,
}

/// The file names of the views beside `registry.json`.
pub const JETBRAINS_FILE: &str = "registry-for-jetbrains.json";
/// See [`JETBRAINS_FILE`].
pub const JETBRAINS_PREVIEW_FILE: &str = "registry-for-jetbrains-preview.json";

/// A published registry text that the views cannot be made from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewsError {
    /// Not JSON.
    #[error("the registry is not valid JSON: {0}")]
    Json(String),
    /// JSON, but not `{"agents": [{...}, ...]}`.
    #[error("the registry must be an object whose `agents` is an array of objects: {0}")]
    Shape(String),
}

/// The format version of every view.
pub(crate) const REGISTRY_VERSION: &str = "1.0.0";

/// Builds the views from the accepted entries, in order, each its manifest as published (with
/// its `icon`).
pub fn assemble(
    agents: &[Map<String, Value>],
    extensions: &[Map<String, Value>],
    rules: &ViewRules,
) -> Views {
    let mut counts = ViewCounts::default();
    let default: Vec<Value> = agents
        .iter()
        .filter(|a| !rules.default_excluded.contains(&id_of(a)))
        .map(|a| Value::Object(published(a, rules)))
        .collect();
    counts.default_agents = default.len();
    counts.extensions = extensions.len();
    let extensions: Vec<Value> = extensions
        .iter()
        .map(|e| Value::Object(published(e, rules)))
        .collect();
    let registry_json = pretty(&[
        ("version", Value::String(REGISTRY_VERSION.to_owned())),
        ("agents", Value::Array(default)),
        ("extensions", Value::Array(extensions)),
    ]);

    let listed: Vec<&Map<String, Value>> = agents
        .iter()
        .filter(|a| !rules.jetbrains_excluded.contains(&id_of(a)))
        .collect();
    counts.jetbrains_agents = listed.len();
    counts.bundled = listed
        .iter()
        .filter(|a| rules.jetbrains_bundled.contains(&id_of(a)))
        .count();
    let jetbrains: Vec<Value> = listed
        .iter()
        .map(|a| Value::Object(for_jetbrains(published(a, rules), rules)))
        .collect();
    let jetbrains_json = jetbrains_file(jetbrains, rules);

    let jetbrains_preview_json = rules.preview_channel.then(|| {
        let preview: Vec<Value> = listed
            .iter()
            .map(|a| {
                let (entry, previewed) = previewed(a);
                counts.previews += usize::from(previewed);
                Value::Object(for_jetbrains(entry, rules))
            })
            .collect();
        jetbrains_file(preview, rules)
    });
    Views {
        registry_json,
        jetbrains_json,
        jetbrains_preview_json,
        counts,
    }
}

/// Builds the views from a published `registry.json` whose entries are all the CI accepted
/// (as the catalogue's bundled copy is: it keeps the `preview` blocks and every agent).
pub fn views_of_published(text: &str, rules: &ViewRules) -> Result<Views, ViewsError> {
    let top: Value = serde_json::from_str(text).map_err(|e| ViewsError::Json(e.to_string()))?;
    let objects = |key: &str| -> Result<Vec<Map<String, Value>>, ViewsError> {
        match top.get(key) {
            None | Some(Value::Null) if key == "extensions" => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::Object(map) => Ok(map.clone()),
                    _ => Err(ViewsError::Shape(format!("{key}[{i}] is not an object"))),
                })
                .collect(),
            _ => Err(ViewsError::Shape(format!("`{key}` is not an array"))),
        }
    };
    Ok(assemble(
        &objects("agents")?,
        &objects("extensions")?,
        rules,
    ))
}

/// The entry's `id`, or `""`.
fn id_of(entry: &Map<String, Value>) -> &str {
    entry.get("id").and_then(Value::as_str).unwrap_or("")
}

/// The entry as the stable views publish it: without its `preview` block once the CI has a
/// preview channel, unchanged before.
fn published(entry: &Map<String, Value>, rules: &ViewRules) -> Map<String, Value> {
    if rules.preview_channel {
        without_preview(entry)
    } else {
        entry.clone()
    }
}

/// The entry without its `preview` block.
fn without_preview(entry: &Map<String, Value>) -> Map<String, Value> {
    let mut entry = entry.clone();
    entry.shift_remove("preview");
    entry
}

/// The entry as the preview channel serves it, and whether its preview version was taken.
fn previewed(entry: &Map<String, Value>) -> (Map<String, Value>, bool) {
    let mut served = without_preview(entry);
    let Some(Value::Object(preview)) = entry.get("preview") else {
        return (served, false);
    };
    let (Some(Value::String(version)), Some(distribution)) =
        (preview.get("version"), preview.get("distribution"))
    else {
        return (served, false);
    };
    let stable = entry.get("version").and_then(Value::as_str).unwrap_or("");
    if channel_order(version, stable) != Some(Ordering::Greater) {
        return (served, false);
    }
    served.insert("version".to_owned(), Value::String(version.clone()));
    served.insert("distribution".to_owned(), distribution.clone());
    (served, true)
}

/// The entry with the JetBrains patches of `rules` applied.
fn for_jetbrains(mut entry: Map<String, Value>, rules: &ViewRules) -> Map<String, Value> {
    let id = id_of(&entry).to_owned();
    for (_, arg) in rules
        .jetbrains_npx_args
        .iter()
        .filter(|(who, _)| *who == id)
    {
        let npx = entry
            .get_mut("distribution")
            .and_then(|d| d.get_mut("npx"))
            .and_then(Value::as_object_mut);
        if let Some(npx) = npx {
            let args = npx
                .entry("args")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(args) = args {
                args.push(Value::String((*arg).to_owned()));
            }
        }
    }
    if rules.jetbrains_bundled.contains(&id.as_str()) {
        entry.insert("bundled".to_owned(), Value::Bool(true));
    }
    entry
}

/// A JetBrains view's text.
fn jetbrains_file(agents: Vec<Value>, rules: &ViewRules) -> String {
    let mut fields = vec![
        ("version", Value::String(REGISTRY_VERSION.to_owned())),
        ("agents", Value::Array(agents)),
    ];
    if rules.jetbrains_lists_extensions {
        fields.push(("extensions", Value::Array(Vec::new())));
    }
    pretty(&fields)
}

/// An object of these fields, pretty-printed with a trailing newline.
fn pretty(fields: &[(&str, Value)]) -> String {
    let object: Map<String, Value> = fields
        .iter()
        .map(|(key, value)| ((*key).to_owned(), value.clone()))
        .collect();
    let mut text =
        serde_json::to_string_pretty(&Value::Object(object)).expect("a JSON value serialises");
    text.push('\n');
    text
}

/// The order of two channel versions as the CI sorts them (`semver_sort_key` in
/// `registry_utils.py`): a release's numbers, then a release above its own previews
/// (`1.9.0` > `1.9.0-preview.2`), previews by their counter numerically
/// (`1.9.0-preview.10` > `1.9.0-preview.2`). `None` when either is neither a dotted release
/// (`1`, `1.2` and `1.2.3.4` included) nor `X.Y.Z-preview.N`, which the CI cannot sort either.
pub fn channel_order(a: &str, b: &str) -> Option<Ordering> {
    Some(sort_key(a)?.cmp(&sort_key(b)?))
}

/// `(numbers, 1, 0)` for a release, `(X.Y.Z, 0, N)` for `X.Y.Z-preview.N`.
fn sort_key(version: &str) -> Option<(Vec<u64>, u8, u64)> {
    let numbers = |text: &str| -> Option<Vec<u64>> {
        text.split('.')
            .map(|part| {
                (!part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| part.parse().ok())
                    .flatten()
            })
            .collect()
    };
    if let Some((release, counter)) = version.split_once("-preview.") {
        let release = numbers(release).filter(|parts| parts.len() == 3)?;
        let counter = numbers(counter).filter(|parts| parts.len() == 1)?;
        return Some((release, 0, counter[0]));
    }
    let mut release = numbers(version)?;
    // `1` and `1.2` read as `1.0.0` and `1.2.0`, as the CI's `normalize_release_version` does.
    while release.len() < 3 {
        release.push(0);
    }
    Some((release, 1, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_precedence() {
        use Ordering::*;
        for (a, b, expected) in [
            ("1.9.0-preview.2", "1.8.0", Some(Greater)),
            ("1.9.0-preview.1", "1.9.1", Some(Less)),
            ("1.9.1", "1.9.1", Some(Equal)),
            ("1.9.0-preview.10", "1.9.0-preview.2", Some(Greater)),
            ("1.9.0-preview.2", "1.9.0", Some(Less)),
            ("0.85.2-preview.22", "0.85.1", Some(Greater)),
            ("1.9", "1.9.0", Some(Equal)),
            ("1.2.3.4", "1.2.3", Some(Greater)),
            ("1.2.4-preview.1", "1.2.3.4", Some(Greater)),
            ("1.9.0-rc.1", "1.9.0", None),
            ("1.9.0+build.5", "1.9.0", None),
            ("latest", "1.0.0", None),
            ("1.9-preview.1", "1.8.0", None),
        ] {
            assert_eq!(channel_order(a, b), expected, "{a} vs {b}");
        }
    }
}
