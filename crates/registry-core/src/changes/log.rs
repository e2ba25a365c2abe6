//! [`ChangeLog`]: the events so far and the last state of each stream, carried forward one state
//! at a time, written and read as `changes.json`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::diff::{probe_changes, registry_changes};
use super::seen::{ProbesSeen, RegistrySeen};
use super::{
    CHANGES_FORMAT, Change, Event, History, MAX_EVENTS, ProbeState, Problem, RegistryState, Stamp,
};
use crate::edition::Day;
use crate::load::{parser_message, position};

/// The registry's change log (see the [module docs](super) for what it holds and why).
///
/// ```
/// use registry_core::changes::{ChangeLog, RegistryState, Stamp};
///
/// let day = |text| Stamp::parse(text).expect("a day");
/// let one = r#"{"agents": [{"id": "a", "name": "A", "version": "1.0.0", "description": "d",
///     "distribution": {"npx": {"package": "a@1.0.0"}}}]}"#;
/// let two = one.replace("1.0.0", "1.1.0");
/// let (mut log, problems) = ChangeLog::start(&RegistryState::new(day("2026-01-01"), one));
/// assert!(problems.is_empty() && log.events().is_empty());
/// log.add_registry(&RegistryState::new(day("2026-01-02"), &two));
/// assert_eq!(log.events()[0].change.kind(), "version-changed");
/// let log = ChangeLog::from_json(&log.to_json())?;
/// assert_eq!(log.events().len(), 1);
/// # Ok::<(), registry_core::changes::ChangesError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeLog {
    /// [`CHANGES_FORMAT`].
    changes_format: u32,
    /// The first registry state: where the log starts.
    started_from: Option<Stamp>,
    /// The first probe state.
    probes_started_from: Option<Stamp>,
    /// How many of the oldest events were dropped to keep [`MAX_EVENTS`].
    truncated: u64,
    /// Oldest first, in the log's order.
    events: Vec<Event>,
    /// What the next registry state is compared with.
    last_registry: Option<RegistrySeen>,
    /// What the next probe state is compared with.
    last_probe: Option<ProbesSeen>,
}

/// A `changes.json` that cannot be read: a build then starts a new log (and says so), since the
/// old one cannot be carried forward.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChangesError {
    /// The text is not JSON.
    #[error(
        "changes.json is not valid JSON: {message} at line {line}, column {column}; it was cut \
         short or edited by hand: restore the published copy"
    )]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// It is another format than this build writes.
    #[error(
        "changes.json has `changesFormat` {found}, and this build reads format {CHANGES_FORMAT} \
         only; build with the version that wrote it, or start a new log"
    )]
    Format {
        /// The format found, as written (`missing` when there is none).
        found: String,
    },
    /// It is JSON of the right format, but not the shape of a change log.
    #[error(
        "changes.json is not a change log of format {CHANGES_FORMAT}: {message}; restore the \
         published copy, or start a new log"
    )]
    Shape {
        /// What the reader said.
        message: String,
    },
}

impl Default for ChangeLog {
    /// A log of no state yet: the first registry state added starts it.
    fn default() -> ChangeLog {
        ChangeLog {
            changes_format: CHANGES_FORMAT,
            started_from: None,
            probes_started_from: None,
            truncated: 0,
            events: Vec::new(),
            last_registry: None,
            last_probe: None,
        }
    }
}

impl ChangeLog {
    /// A log started at its first registry state (which gives no events); when that state
    /// cannot be read, the log stays empty and the next readable one starts it.
    pub fn start(state: &RegistryState<'_>) -> (ChangeLog, Vec<Problem>) {
        let mut log = ChangeLog::default();
        let problems = log.add_registry(state);
        (log, problems)
    }

    /// A log built from a whole history: its registry states, then its probe states, in order.
    pub fn from_history(history: &History<'_>) -> (ChangeLog, Vec<Problem>) {
        let mut log = ChangeLog::default();
        let problems = log.add_history(history);
        (log, problems)
    }

    /// Adds a history's registry states, then its probe states, in order.
    pub fn add_history(&mut self, history: &History<'_>) -> Vec<Problem> {
        let mut problems = Vec::new();
        for state in &history.registry {
            problems.extend(self.add_registry(state));
        }
        for state in &history.probes {
            problems.extend(self.add_probe(state));
        }
        problems
    }

    /// Adds the next registry state: its events against the last one, or the log's start when
    /// it is the first. A state that cannot be read, or is not dated after the last one, is
    /// skipped (see the problems).
    pub fn add_registry(&mut self, state: &RegistryState<'_>) -> Vec<Problem> {
        let mut problems = Vec::new();
        let last = self.last_registry.as_ref();
        if let Some(problem) = out_of_order(&state.stamp, last.map(|l| &l.stamp), "registry") {
            return vec![problem];
        }
        let Some(seen) = RegistrySeen::read(state, last, &mut problems) else {
            return problems;
        };
        match last {
            Some(last) => {
                let changes = registry_changes(last, &seen);
                self.insert(&state.stamp, changes);
            }
            None => self.started_from = Some(state.stamp.clone()),
        }
        self.last_registry = Some(seen);
        problems
    }

    /// Adds the next probe state: its events against the last one (the first gives none). A
    /// state that cannot be read, or is not dated after the last one, is skipped.
    pub fn add_probe(&mut self, state: &ProbeState<'_>) -> Vec<Problem> {
        let mut problems = Vec::new();
        let last = self.last_probe.as_ref();
        if let Some(problem) = out_of_order(&state.stamp, last.map(|l| &l.stamp), "probe") {
            return vec![problem];
        }
        let Some(seen) = ProbesSeen::read(state, last, &mut problems) else {
            return problems;
        };
        match last {
            Some(last) => {
                let changes = probe_changes(last, &seen);
                self.insert(&state.stamp, changes);
            }
            None => self.probes_started_from = Some(state.stamp.clone()),
        }
        self.last_probe = Some(seen);
        problems
    }

    /// Reads a `changes.json` written by [`ChangeLog::to_json`]; its events are put back in the
    /// log's order and bound.
    pub fn from_json(text: &str) -> Result<ChangeLog, ChangesError> {
        #[derive(Deserialize)]
        struct Header {
            #[serde(rename = "changesFormat")]
            format: Option<serde_json::Value>,
        }
        let json_error = |err: serde_json::Error| {
            let (line, column) = position(text, &err);
            ChangesError::Json {
                line,
                column,
                message: parser_message(&err),
            }
        };
        let header: Header = serde_json::from_str(text).map_err(|err| match err.is_data() {
            true => ChangesError::Shape {
                message: "it is not a JSON object".to_owned(),
            },
            false => json_error(err),
        })?;
        if header.format != Some(CHANGES_FORMAT.into()) {
            let found = header
                .format
                .map_or("missing".to_owned(), |f| f.to_string());
            return Err(ChangesError::Format { found });
        }
        let mut log: ChangeLog = serde_json::from_str(text).map_err(|err| ChangesError::Shape {
            message: err.to_string(),
        })?;
        log.events.sort();
        log.bound();
        Ok(log)
    }

    /// The log as `changes.json`: compact, and the same bytes for the same log.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a change log's maps are keyed by text")
    }

    /// Every event, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The first registry state, where the log starts; `None` until one was read.
    pub fn started_from(&self) -> Option<&Stamp> {
        self.started_from.as_ref()
    }

    /// The first probe state; `None` until one was read.
    pub fn probes_started_from(&self) -> Option<&Stamp> {
        self.probes_started_from.as_ref()
    }

    /// How many of the oldest events were dropped to keep the newest [`MAX_EVENTS`].
    pub fn truncated(&self) -> u64 {
        self.truncated
    }

    /// The last registry state read.
    pub fn last_registry(&self) -> Option<&Stamp> {
        self.last_registry.as_ref().map(|seen| &seen.stamp)
    }

    /// The last probe state read.
    pub fn last_probe(&self) -> Option<&Stamp> {
        self.last_probe.as_ref().map(|seen| &seen.stamp)
    }

    /// The events of one agent, oldest first, including those of the ids it was renamed from.
    pub fn for_agent(&self, id: &str) -> Vec<&Event> {
        let mut ids = vec![id];
        // Newest first, so a rename is met before the events of its former id.
        for event in self.events.iter().rev() {
            if let Change::Renamed { from } = &event.change
                && ids.contains(&event.agent.as_str())
                && !ids.contains(&from.as_str())
            {
                ids.push(from);
            }
        }
        self.events
            .iter()
            .filter(|event| ids.contains(&event.agent.as_str()))
            .collect()
    }

    /// Each agent's days, for the catalogue's date orders.
    pub fn dates(&self) -> crate::catalog::Dates {
        crate::catalog::Dates {
            updated: self.updated_days(),
            added: self.added_days(),
        }
    }

    /// Each agent's last known name, by id: from the last registry state, and for agents no
    /// longer in it, from their events (added, removed, renamed).
    pub fn names(&self) -> BTreeMap<String, String> {
        let mut names = BTreeMap::new();
        for event in &self.events {
            match &event.change {
                Change::Added { name, .. } | Change::Removed { name, .. } => {
                    names.insert(event.agent.clone(), name.clone());
                }
                Change::NameChanged { to, .. } => {
                    names.insert(event.agent.clone(), to.clone());
                }
                _ => {}
            }
        }
        if let Some(seen) = &self.last_registry {
            for (id, agent) in &seen.agents {
                names.insert(id.clone(), agent.name.clone());
            }
        }
        names
    }

    /// The events of one kind (a [`Change::KINDS`] word), oldest first.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Event> + 'a {
        self.events.iter().filter(move |e| e.change.kind() == kind)
    }

    /// Per agent id, the day it was last added (a renamed agent keeps its former id's day); none
    /// for the agents already there when the log started.
    pub fn added_days(&self) -> BTreeMap<String, Day> {
        self.days(|change| matches!(change, Change::Added { .. }))
    }

    /// Per agent id, the day of its last version change or addition (a renamed agent keeps its
    /// former id's days).
    pub fn updated_days(&self) -> BTreeMap<String, Day> {
        self.days(|change| matches!(change, Change::Added { .. } | Change::VersionChanged { .. }))
    }

    /// Per agent id, the day of its last event that `counts`, following renames.
    fn days(&self, counts: impl Fn(&Change) -> bool) -> BTreeMap<String, Day> {
        let mut days = BTreeMap::new();
        for event in &self.events {
            match &event.change {
                Change::Renamed { from } => {
                    if let Some(day) = days.remove(from) {
                        days.insert(event.agent.clone(), day);
                    }
                }
                Change::Removed { .. } => {
                    days.remove(&event.agent);
                }
                change if counts(change) => {
                    days.insert(event.agent.clone(), event.day);
                }
                _ => {}
            }
        }
        days
    }

    /// Adds the changes found in a state, in the log's order, and keeps the bound.
    fn insert(&mut self, stamp: &Stamp, changes: Vec<(String, Change)>) {
        self.events
            .extend(changes.into_iter().map(|(agent, change)| Event {
                day: stamp.day,
                snapshot: stamp.snapshot.clone(),
                agent,
                change,
            }));
        self.events.sort();
        self.bound();
    }

    /// Drops the oldest events beyond [`MAX_EVENTS`], counting them.
    fn bound(&mut self) {
        let over = self.events.len().saturating_sub(MAX_EVENTS);
        self.events.drain(..over);
        self.truncated += over as u64;
    }
}

/// Why a state dated `stamp` cannot follow the last one of its stream, if it cannot.
fn out_of_order(stamp: &Stamp, last: Option<&Stamp>, stream: &str) -> Option<Problem> {
    let last = last.filter(|last| !stamp.follows(last))?;
    let what = if stamp.day == last.day {
        "the same state again"
    } else {
        "older than that"
    };
    Some(Problem::skipped(
        &stamp.snapshot,
        format!(
            "dated {}, but the log's last {stream} state is {last}: {what}; this state was \
             skipped (states are added oldest first)",
            stamp.day
        ),
    ))
}
