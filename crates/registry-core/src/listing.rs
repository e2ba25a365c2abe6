//! Where each agent is listed, and whether the registry's automation has set it aside.
//!
//! Besides `registry.json` (Zed and most clients), the registry publishes two views for
//! JetBrains IDEs — `registry-for-jetbrains.json`, which leaves some agents out and marks some
//! `"bundled": true` (shipped with the IDE), and `registry-for-jetbrains-preview.json`, a drop-in
//! replacement serving each agent's preview version when it has a newer one (not verified by the
//! registry) — and keeps `quarantine.json`, the agents its daily automation skips, with the reason:
//!
//! ```json
//! {"vtcode": "Missing windows builds", "qoder": "ACP initialize fails in qodercli 0.2.15"}
//! ```
//!
//! [`parse_view`] reads a view as [`crate::load()`] reads a registry (every entry on its own,
//! a [`Diagnostic`] per bad one), and [`parse_quarantine`] the quarantine list the same way
//! (a warning per bad item, an error only for a text that is not a JSON object). Each may be
//! missing: [`Listings`] holds what was loaded, and [`Listings::listing`] says, per entry of the
//! main registry, what is known — a view that did not load is [`Presence::Unknown`], never
//! "not listed".
//!
//! Quarantine reasons are written by maintainers in a few words ("Missing windows builds");
//! [`QuarantineReason`] keeps them as written and says them in a sentence a visitor understands.
//!
//! A `Listing` holds the default view (every entry of the main registry is in it), the JetBrains
//! view's `Presence`, the bundled mark, the preview channel's `Entry` when it serves another
//! version, and the `QuarantineReason` (its `sentence()` is the plain form). `ListedFor` and
//! `Health` are those answers as facet values.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::load::{Diagnostic, LoadError, describe, parser_message, position};
use crate::model::{Entry, Kind};
use crate::protocol::Facts;

/// One of the registry's JetBrains views, by agent id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientView {
    /// Per agent id, its entry in the view and whether it is bundled.
    pub agents: BTreeMap<String, ViewEntry>,
}

/// An agent as a view lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewEntry {
    /// The entry (version, distribution, raw text…) as the view has it.
    pub entry: Entry,
    /// Whether the view marks it `"bundled": true`.
    pub bundled: bool,
}

/// The registry's quarantine list: per agent id, why its daily automation skips it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quarantine {
    /// Per agent id, the reason.
    pub agents: BTreeMap<String, QuarantineReason>,
}

/// Why an agent is quarantined: as written, and in a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuarantineReason {
    /// The reason exactly as `quarantine.json` writes it.
    pub raw: String,
    /// What it is about.
    pub kind: ReasonKind,
}

/// The reasons maintainers give, recognised from their words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReasonKind {
    /// `Missing windows builds`: no download for an operating system (as written: `windows`).
    MissingBuilds(String),
    /// `Binary archive URL not accessible`: a download link does not work.
    DownloadUnavailable,
    /// `ACP initialize fails in qodercli 0.2.15/0.2.16`: the agent fails the ACP handshake; the
    /// versions as written, when given.
    InitializeFails(Option<String>),
    /// `Timeout after 120s waiting for initialize response`: the handshake did not answer; the
    /// time as written, when given.
    InitializeTimeout(Option<String>),
    /// `npx cannot determine executable to run`: the npm package names no program to start.
    NoExecutable,
    /// `Postinstall script`: the package needs an install script to run.
    InstallScript,
    /// `Missing npm dependency`, `Python dependency issue`: the package's dependencies are broken.
    BrokenDependencies,
    /// Any other reason: only its own words can say it.
    Other,
}

/// Whether a view lists an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// The view lists it.
    Listed,
    /// The view was loaded and does not list it.
    NotListed,
    /// The view was not loaded (not configured, or it failed): nothing is known.
    Unknown,
}

/// Where an entry of the main registry is listed, and whether it is quarantined.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// In `registry.json`, for Zed and other clients: every entry of the main registry is.
    pub default_view: bool,
    /// In `registry-for-jetbrains.json`.
    pub jetbrains: Presence,
    /// Marked bundled with JetBrains IDEs (`None` when the JetBrains view was not loaded).
    pub bundled: Option<bool>,
    /// The release the preview channel serves instead, when it serves another version than
    /// the JetBrains view (or, without that view, than the main registry). Its distribution is
    /// not verified by the registry.
    pub preview: Option<Entry>,
    /// Why the registry's automation skips it, when it does (`None` also when the list was not
    /// loaded: see [`Listings::quarantine`]).
    pub quarantine: Option<QuarantineReason>,
}

/// A client an entry is listed for, as a facet value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ListedFor {
    /// `registry.json`: Zed and other clients.
    Default,
    /// `registry-for-jetbrains.json`.
    JetBrains,
    /// Bundled with JetBrains IDEs.
    JetBrainsBundled,
    /// Served at a preview version by `registry-for-jetbrains-preview.json`.
    JetBrainsPreview,
}

/// The health of an entry, as a facet value: quarantine first, then the probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Health {
    /// The registry's daily automation skips it.
    Quarantined,
    /// The last probe could not start it.
    ProbeFailed,
    /// Probed successfully and not quarantined.
    Healthy,
    /// Neither quarantined nor probed.
    NotProbed,
}

/// What was loaded of the registry's other lists; each may be missing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listings {
    /// `registry-for-jetbrains.json`, once loaded.
    pub jetbrains: Option<ClientView>,
    /// `registry-for-jetbrains-preview.json`, once loaded.
    pub jetbrains_preview: Option<ClientView>,
    /// `quarantine.json`, once loaded.
    pub quarantine: Option<Quarantine>,
}

/// A quarantine list that could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuarantineError {
    /// The text is not JSON.
    #[error(
        "the quarantine list is not valid JSON: {message} at line {line}, column {column}; \
         fix the syntax there, or fetch the file again if it was cut short"
    )]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The text is JSON, but not an object.
    #[error(
        "the quarantine list is {found}, not an object; it must map agent ids to reasons, like \
         {{\"my-agent\": \"Missing windows builds\"}}"
    )]
    NotAnObject {
        /// What it is instead.
        found: &'static str,
    },
}

/// Reads a JetBrains view (either one): as [`crate::load()`] reads a registry (a bad or
/// duplicate entry is a [`Diagnostic`] and left out), plus each agent's `bundled` mark.
pub fn parse_view(text: &str) -> Result<(ClientView, Vec<Diagnostic>), LoadError> {
    let loaded = crate::load::load(text)?;
    let diagnostics = loaded.diagnostics;
    let mut view = ClientView::default();
    for entry in loaded.registry.entries {
        if entry.kind != Kind::Agent {
            continue;
        }
        let bundled = serde_json::from_str::<Value>(&entry.raw)
            .ok()
            .and_then(|raw| raw.get("bundled").and_then(Value::as_bool))
            .unwrap_or(false);
        view.agents
            .insert(entry.id.clone(), ViewEntry { entry, bundled });
    }
    Ok((view, diagnostics))
}

/// Reads `quarantine.json`: an object of agent id → reason. An item whose reason is not text is
/// left out with a warning; a blank reason is kept, as "no reason given".
pub fn parse_quarantine(text: &str) -> Result<(Quarantine, Vec<String>), QuarantineError> {
    let top: Value = serde_json::from_str(text).map_err(|err| {
        let (line, column) = position(text, &err);
        QuarantineError::Json {
            line,
            column,
            message: parser_message(&err),
        }
    })?;
    let Value::Object(items) = top else {
        return Err(QuarantineError::NotAnObject {
            found: describe(&top),
        });
    };
    let mut warnings = Vec::new();
    let mut quarantine = Quarantine::default();
    for (id, reason) in items {
        let id = id.trim();
        if id.is_empty() {
            warnings.push("an item has a blank agent id; skipped".to_owned());
            continue;
        }
        match reason {
            Value::String(reason) => {
                quarantine
                    .agents
                    .insert(id.to_owned(), QuarantineReason::new(&reason));
            }
            other => warnings.push(format!(
                "`{id}`: the reason is {}, not a text like \"Missing windows builds\"; skipped",
                describe(&other)
            )),
        }
    }
    Ok((quarantine, warnings))
}

impl Listings {
    /// Where this entry of the main registry is listed.
    pub fn listing(&self, entry: &Entry) -> Listing {
        let jetbrains = in_view(self.jetbrains.as_ref(), entry);
        let stable_version = match jetbrains {
            Some(Some(listed)) => Some(listed.entry.version.as_str()),
            Some(None) => None,
            None => Some(entry.version.as_str()),
        };
        let preview = match (
            in_view(self.jetbrains_preview.as_ref(), entry),
            stable_version,
        ) {
            (Some(Some(served)), Some(stable)) if served.entry.version != stable => {
                Some(served.entry.clone())
            }
            _ => None,
        };
        Listing {
            default_view: true,
            jetbrains: match jetbrains {
                Some(Some(_)) => Presence::Listed,
                Some(None) => Presence::NotListed,
                None => Presence::Unknown,
            },
            bundled: jetbrains.map(|listed| listed.is_some_and(|l| l.bundled)),
            preview,
            quarantine: self.quarantine_of(entry).cloned(),
        }
    }

    /// Why the registry's automation skips this agent, when it does (only agents are ever
    /// quarantined).
    pub fn quarantine_of(&self, entry: &Entry) -> Option<&QuarantineReason> {
        self.quarantine
            .as_ref()
            .and_then(|q| q.agents.get(&entry.id))
            .filter(|_| entry.kind == Kind::Agent)
    }
}

impl Listing {
    /// The clients it is listed for, in [`ListedFor`] order.
    pub fn listed_for(&self) -> Vec<ListedFor> {
        let mut out = Vec::with_capacity(4);
        if self.default_view {
            out.push(ListedFor::Default);
        }
        if self.jetbrains == Presence::Listed {
            out.push(ListedFor::JetBrains);
        }
        if self.bundled == Some(true) {
            out.push(ListedFor::JetBrainsBundled);
        }
        if self.preview.is_some() {
            out.push(ListedFor::JetBrainsPreview);
        }
        out
    }

    /// Its health, given what the protocol matrix says about it.
    pub fn health(&self, facts: &Facts) -> Health {
        match (&self.quarantine, facts) {
            (Some(_), _) => Health::Quarantined,
            (None, Facts::ProbeFailed { .. }) => Health::ProbeFailed,
            (None, Facts::Probed { .. }) => Health::Healthy,
            (None, Facts::NotProbed) => Health::NotProbed,
        }
    }
}

impl ListedFor {
    /// All values, in display order.
    pub const ALL: [ListedFor; 4] = [
        ListedFor::Default,
        ListedFor::JetBrains,
        ListedFor::JetBrainsBundled,
        ListedFor::JetBrainsPreview,
    ];

    /// The query-string word: `default`, `jetbrains`, `jetbrains-bundled`, `jetbrains-preview`.
    pub fn as_str(self) -> &'static str {
        match self {
            ListedFor::Default => "default",
            ListedFor::JetBrains => "jetbrains",
            ListedFor::JetBrainsBundled => "jetbrains-bundled",
            ListedFor::JetBrainsPreview => "jetbrains-preview",
        }
    }

    /// What people read.
    pub fn label(self) -> &'static str {
        match self {
            ListedFor::Default => "Zed and other clients",
            ListedFor::JetBrains => "JetBrains IDEs",
            ListedFor::JetBrainsBundled => "Bundled with JetBrains IDEs",
            ListedFor::JetBrainsPreview => "JetBrains preview channel",
        }
    }

    /// The inverse of [`ListedFor::as_str`].
    pub fn parse(word: &str) -> Option<ListedFor> {
        ListedFor::ALL.into_iter().find(|v| v.as_str() == word)
    }
}

impl Health {
    /// All values, in display order.
    pub const ALL: [Health; 4] = [
        Health::Quarantined,
        Health::ProbeFailed,
        Health::Healthy,
        Health::NotProbed,
    ];

    /// The query-string word: `quarantined`, `probe-failed`, `healthy`, `not-probed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Health::Quarantined => "quarantined",
            Health::ProbeFailed => "probe-failed",
            Health::Healthy => "healthy",
            Health::NotProbed => "not-probed",
        }
    }

    /// What people read.
    pub fn label(self) -> &'static str {
        match self {
            Health::Quarantined => "Quarantined",
            Health::ProbeFailed => "Probe failed",
            Health::Healthy => "Healthy",
            Health::NotProbed => "Not probed",
        }
    }

    /// The inverse of [`Health::as_str`].
    pub fn parse(word: &str) -> Option<Health> {
        Health::ALL.into_iter().find(|v| v.as_str() == word)
    }
}

impl QuarantineReason {
    /// Reads a reason as written (its kind from its words; see [`ReasonKind`]).
    pub fn new(raw: &str) -> QuarantineReason {
        QuarantineReason {
            raw: raw.to_owned(),
            kind: ReasonKind::of(raw.trim()),
        }
    }

    /// The reason in a sentence a visitor understands, ending with a full stop.
    pub fn sentence(&self) -> String {
        match &self.kind {
            ReasonKind::MissingBuilds(os) => format!(
                "There is no download of it for {}, which the registry requires.",
                os_name(os)
            ),
            ReasonKind::DownloadUnavailable => {
                "Its download link does not work.".to_owned()
            }
            ReasonKind::InitializeFails(Some(versions)) => format!(
                "It fails to start an ACP session (its answer to `initialize` is an error) in {versions}."
            ),
            ReasonKind::InitializeFails(None) => {
                "It fails to start an ACP session (its answer to `initialize` is an error)."
                    .to_owned()
            }
            ReasonKind::InitializeTimeout(Some(time)) => format!(
                "It does not answer when an editor starts an ACP session (no reply to `initialize` within {time})."
            ),
            ReasonKind::InitializeTimeout(None) => {
                "It does not answer when an editor starts an ACP session (no reply to `initialize`)."
                    .to_owned()
            }
            ReasonKind::NoExecutable => {
                "Its npm package does not say which program to start, so `npx` cannot run it."
                    .to_owned()
            }
            ReasonKind::InstallScript => {
                "Its package needs an install script to run before it works, which the registry's checks do not run."
                    .to_owned()
            }
            ReasonKind::BrokenDependencies => {
                "One of the packages it depends on is missing or broken, so it does not start."
                    .to_owned()
            }
            ReasonKind::Other if self.raw.trim().is_empty() => {
                "The registry gives no reason.".to_owned()
            }
            ReasonKind::Other => {
                let raw = self.raw.trim();
                let stop = if raw.ends_with(['.', '!', '?']) { "" } else { "." };
                format!("The registry says: {raw}{stop}")
            }
        }
    }
}

impl ReasonKind {
    /// The kind of a reason, from its words (case does not matter).
    fn of(reason: &str) -> ReasonKind {
        let lower = reason.to_ascii_lowercase();
        if let Some(os) = lower
            .strip_prefix("missing ")
            .and_then(|rest| rest.strip_suffix(" builds").or(rest.strip_suffix(" build")))
            .filter(|os| !os.is_empty() && !os.contains(' '))
        {
            return ReasonKind::MissingBuilds(os.to_owned());
        }
        if lower.contains("url not accessible") || lower.contains("archive not accessible") {
            return ReasonKind::DownloadUnavailable;
        }
        if lower.starts_with("timeout") && lower.contains("initialize") {
            let time = reason
                .split_whitespace()
                .find(|word| {
                    word.trim_end_matches('s').parse::<u32>().is_ok() && word.ends_with('s')
                })
                .map(|word| format!("{} seconds", word.trim_end_matches('s')));
            return ReasonKind::InitializeTimeout(time);
        }
        if let Some(at) = lower.find("initialize fails") {
            let versions = lower[at..]
                .strip_prefix("initialize fails in ")
                .map(|_| {
                    reason[at + "initialize fails in ".len()..]
                        .trim()
                        .to_owned()
                })
                .filter(|v| !v.is_empty());
            return ReasonKind::InitializeFails(versions);
        }
        if lower.contains("cannot determine executable") {
            return ReasonKind::NoExecutable;
        }
        if lower.contains("postinstall") || lower.contains("install script") {
            return ReasonKind::InstallScript;
        }
        if lower.contains("dependency") || lower.contains("dependencies") {
            return ReasonKind::BrokenDependencies;
        }
        ReasonKind::Other
    }
}

/// `None` when the view was not loaded, else the entry's agent in it, if any.
fn in_view<'a>(view: Option<&'a ClientView>, entry: &Entry) -> Option<Option<&'a ViewEntry>> {
    view.map(|v| match entry.kind {
        Kind::Agent => v.agents.get(&entry.id),
        Kind::Extension => None,
    })
}

/// An operating system as people write it: `windows` → `Windows`.
fn os_name(os: &str) -> String {
    match os {
        "windows" => "Windows".to_owned(),
        "linux" => "Linux".to_owned(),
        "darwin" | "macos" | "mac" => "macOS".to_owned(),
        other => other.to_owned(),
    }
}
