//! The change log a build writes (`changes.json`, see `registry_core::changes`): the previous
//! build's log carried forward, with a history folder's snapshots and the build's own files
//! added in order.
//!
//! 1. The previous log (`--previous-changes`, the last published site's `changes.json`), when
//!    there is one and it reads; one that does not is reported and a new log started, since it
//!    cannot be carried forward.
//! 2. The states of a history folder (`--history`: `registry/<day>.json`,
//!    `protocol-matrix/<day>.json`…, see [`History`]), oldest first; those the log has seen
//!    already are passed over quietly.
//! 3. The build's own registry (with its JetBrains views and quarantine list) as of its edition
//!    (or today, when nothing dates it), and its protocol matrix as of its `date`.
//!
//! Nothing here is fatal: a snapshot that cannot be read is a note and is skipped, and a build
//! with no history starts the log at its own registry and says so.

use std::fs;
use std::path::{Path, PathBuf};

use registry_core::changes::{ChangeLog, History, ProbeState, RegistryState, Stamp};

/// What the build's own files are.
#[derive(Debug, Default)]
pub struct Current<'a> {
    /// Its day and label.
    pub stamp: Option<Stamp>,
    /// `registry.json`.
    pub registry: &'a str,
    /// `registry-for-jetbrains.json`.
    pub jetbrains: Option<&'a str>,
    /// `registry-for-jetbrains-preview.json`.
    pub jetbrains_preview: Option<&'a str>,
    /// `quarantine.json`.
    pub quarantine: Option<&'a str>,
    /// The protocol matrix.
    pub matrix: Option<&'a str>,
}

/// The log, and the notes to print about how it was made.
#[derive(Debug)]
pub struct Built {
    /// The log.
    pub log: ChangeLog,
    /// What was skipped or started, a sentence each.
    pub notes: Vec<String>,
}

/// Builds the log from the previous one (its text), the files of a history folder (path inside
/// it, text) and the build's own files.
pub fn build(previous: Option<&str>, history: &[(String, String)], current: &Current) -> Built {
    let mut notes = Vec::new();
    let log = match previous.map(ChangeLog::from_json) {
        Some(Ok(log)) => Some(log),
        Some(Err(error)) => {
            notes.push(format!(
                "the previous change log is not used, a new one is started: {error}"
            ));
            None
        }
        None => None,
    };
    let files: Vec<(&str, &str)> = history
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_str()))
        .collect();
    let (history, problems) = History::read(&files);
    notes.extend(problems.iter().map(ToString::to_string));
    let had_history = !history.registry.is_empty();
    // The folder's states of the previous log's last day or before are in it already.
    let seen_registry = log.as_ref().and_then(|l| l.last_registry().map(|s| s.day));
    let seen_probe = log.as_ref().and_then(|l| l.last_probe().map(|s| s.day));
    let mut pending = History {
        registry: history
            .registry
            .into_iter()
            .filter(|s| seen_registry.is_none_or(|day| s.stamp.day > day))
            .collect(),
        probes: history
            .probes
            .into_iter()
            .filter(|s| seen_probe.is_none_or(|day| s.stamp.day > day))
            .collect(),
    };
    let stamp = current.stamp.clone().unwrap_or_else(today);
    // The build's own registry follows the last state given (a later snapshot of the same day
    // too); the same state again is passed over, and said when it is the log's own.
    let last_given = pending
        .registry
        .last()
        .map(|s| s.stamp.clone())
        .or_else(|| log.as_ref().and_then(|l| l.last_registry().cloned()));
    let follows = last_given.as_ref().is_none_or(|last| stamp.follows(last));
    if !follows && pending.registry.is_empty() {
        notes.push(format!(
            "this build's registry ({stamp}) is the change log's last state already: nothing to \
             add (to log several builds a day, give each its snapshot with --registry-edition)"
        ));
    }
    if follows {
        pending.registry.push(RegistryState {
            stamp: stamp.clone(),
            registry: current.registry,
            jetbrains: current.jetbrains,
            jetbrains_preview: current.jetbrains_preview,
            quarantine: current.quarantine,
        });
    }
    // The build's probe file, unless it is the last probe given (the history's last snapshot,
    // or the previous build's file again).
    let last_probe = pending
        .probes
        .last()
        .map(|s| s.stamp.clone())
        .or_else(|| log.as_ref().and_then(|l| l.last_probe().cloned()));
    if let Some(matrix) = current.matrix
        && let Some(probe_stamp) = matrix_stamp(matrix)
        && last_probe.is_none_or(|last| probe_stamp.follows(&last))
    {
        pending.probes.push(ProbeState {
            stamp: probe_stamp,
            matrix,
        });
    }
    let log = match log {
        Some(mut log) => {
            let problems = log.add_history(&pending);
            notes.extend(problems.iter().map(ToString::to_string));
            log
        }
        None => {
            let (log, problems) = ChangeLog::from_history(&pending);
            notes.extend(problems.iter().map(ToString::to_string));
            if !had_history {
                notes.push(format!(
                    "no history given: the change log starts at this build's registry ({})",
                    stamp
                ));
            }
            log
        }
    };
    Built { log, notes }
}

/// Every `.json` file under `dir` (its `registry/` and `protocol-matrix/` folders), as (path
/// inside it with `/`, text), sorted by path.
pub fn read_folder(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let mut files = Vec::new();
    for part in ["registry", "protocol-matrix"] {
        let folder = dir.join(part);
        if !folder.is_dir() {
            continue;
        }
        let entries =
            fs::read_dir(&folder).map_err(|e| format!("reading {}: {e}", folder.display()))?;
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths.into_iter().filter(|p| p.is_file()) {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if !name.ends_with(".json") {
                continue;
            }
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("reading {}: {e}", path.display()))?;
            files.push((format!("{part}/{name}"), text));
        }
    }
    if files.is_empty() {
        return Err(format!(
            "{} holds no history: it needs registry/<day>.json or protocol-matrix/<day>.json files",
            dir.display()
        ));
    }
    Ok(files)
}

/// The matrix's own day, from its `date`.
fn matrix_stamp(matrix: &str) -> Option<Stamp> {
    let (matrix, _) = registry_core::protocol::parse_matrix(matrix).ok()?;
    matrix.day().map(Stamp::of_day)
}

/// Today (UTC), for a registry nothing dates.
fn today() -> Stamp {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or_default();
    Stamp::of_day(registry_core::edition::Day::from_unix_ms(ms))
}
