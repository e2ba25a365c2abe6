//! [`History`]: the files of a history folder sorted into dated states. The core reads no files:
//! the build lists the folder and passes each file's name and text.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::{ProbeState, Problem, RegistryState, Stamp};

/// A history folder's states, each stream oldest first.
///
/// The folder holds, by a label that is a day (`2026-01-16`) or a snapshot name
/// (`v2026.01.16-1a2b3c4`):
///
/// - `registry/<label>.json`: `registry.json`;
/// - `registry/<label>.jetbrains.json`, `registry/<label>.jetbrains-preview.json`,
///   `registry/<label>.quarantine.json`: the optional lists of that state;
/// - `protocol-matrix/<label>.json`: a protocol matrix.
///
/// Files whose name does not end in `.json` (a `README.md`) are not states and are passed over;
/// any other name is a problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History<'a> {
    /// The registry states, by day.
    pub registry: Vec<RegistryState<'a>>,
    /// The probe states, by day.
    pub probes: Vec<ProbeState<'a>>,
}

/// What a file of a history folder is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Registry,
    JetBrains,
    JetBrainsPreview,
    Quarantine,
    Matrix,
}

impl<'a> History<'a> {
    /// Sorts `(name, text)` pairs into states; a name is the file's path inside the history
    /// folder (`registry/2026-01-16.json`, `/` or `\` between the two).
    pub fn read(files: &[(&'a str, &'a str)]) -> (History<'a>, Vec<Problem>) {
        let mut problems = Vec::new();
        let mut found: BTreeMap<(Stamp, Part), (&str, &'a str)> = BTreeMap::new();
        for &(name, text) in files {
            let Some(path) = name.strip_suffix(".json") else {
                continue;
            };
            let path = path.replace('\\', "/");
            let (label, part) = match path.trim_start_matches("./").split_once('/') {
                Some(("registry", file)) => registry_part(file),
                Some(("protocol-matrix", label)) => (label, Part::Matrix),
                _ => {
                    problems.push(Problem::skipped(name, NOT_A_STATE.to_owned()));
                    continue;
                }
            };
            let Some(stamp) = Stamp::parse(label) else {
                problems.push(Problem::skipped(name, NOT_A_LABEL.to_owned()));
                continue;
            };
            match found.entry((stamp, part)) {
                Entry::Vacant(slot) => {
                    slot.insert((name, text));
                }
                Entry::Occupied(first) => problems.push(Problem::skipped(
                    name,
                    format!("names the same state as `{}`; skipped", first.get().0),
                )),
            }
        }
        let mut history = History::default();
        let text = |stamp: &Stamp, part| found.get(&(stamp.clone(), part)).map(|(_, text)| *text);
        for ((stamp, part), (name, file)) in &found {
            match part {
                Part::Registry => history.registry.push(RegistryState {
                    jetbrains: text(stamp, Part::JetBrains),
                    jetbrains_preview: text(stamp, Part::JetBrainsPreview),
                    quarantine: text(stamp, Part::Quarantine),
                    ..RegistryState::new(stamp.clone(), file)
                }),
                Part::Matrix => history.probes.push(ProbeState {
                    stamp: stamp.clone(),
                    matrix: file,
                }),
                _ if text(stamp, Part::Registry).is_none() => problems.push(Problem::skipped(
                    name,
                    format!(
                        "there is no `registry/{}.json` beside it; skipped",
                        stamp.snapshot
                    ),
                )),
                _ => {}
            }
        }
        (history, problems)
    }
}

/// Why a file is not a state, when it is in neither folder.
const NOT_A_STATE: &str = "not a file of a history folder: states are `registry/<day>.json` \
                           (with `.jetbrains.json`, `.jetbrains-preview.json`, \
                           `.quarantine.json` beside it) and `protocol-matrix/<day>.json`; skipped";

/// Why a file is not a state, when its label is neither a day nor a snapshot name.
const NOT_A_LABEL: &str = "the name is not a day (`2026-01-16.json`) or a snapshot name \
                           (`v2026.01.16-1a2b3c4.json`); skipped";

/// A `registry/` file's label and part: `2026-01-16.jetbrains` → (`2026-01-16`, JetBrains).
fn registry_part(file: &str) -> (&str, Part) {
    for (suffix, part) in [
        (".jetbrains-preview", Part::JetBrainsPreview),
        (".jetbrains", Part::JetBrains),
        (".quarantine", Part::Quarantine),
    ] {
        if let Some(label) = file.strip_suffix(suffix) {
            return (label, part);
        }
    }
    (file, Part::Registry)
}
