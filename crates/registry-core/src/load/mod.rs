//! Reading a registry text into a [`Registry`], collecting every problem instead of stopping at
//! the first one.
//!
//! [`load`] accepts:
//!
//! - the published `registry.json`: `{"version": "1.0.0", "agents": [...], "extensions": [...]}`,
//!   either array optional, unknown top-level keys ignored;
//! - a single manifest (a maintainer's `agent.json`: an object with `id` or `distribution` and no
//!   `agents`/`extensions`), read as a registry of one agent;
//! - the RFD's older manifest shape, entry by entry: `<os>-<arch>` targets directly under
//!   `distribution` are read as `distribution.binary`, `homepage` as `website`, each with a
//!   [`Severity::Warning`];
//! - JSONC (comments, trailing commas), with a warning, since the published file must be strict.
//!
//! Only a text that cannot be used at all is a [`LoadError`]. Every entry is read on its own: a
//! malformed one becomes a [`Diagnostic`] and is left out, and all the others still load.
//!
//! Speed matters because the site parses a 10,000-entry registry in WebAssembly: the top level is
//! parsed into borrowed [`RawValue`]s, each entry straight into a private typed struct (no
//! [`Value`] on the happy path) and its text is copied once into [`Entry::raw`]. Only a broken
//! entry is parsed a second time, as a [`Value`], to say precisely what is wrong with it.
//!
//! [`Entry::raw`]: crate::model::Entry::raw
//!
//! # Layout
//!
//! - `mod.rs`: [`load`] itself and the top level (a registry or a single manifest, its
//!   `version`);
//! - `diagnostic.rs`: [`Severity`], [`Location`], [`Diagnostic`], [`LoadError`], and how
//!   messages name a value or a parser error;
//! - `unusable.rs`: naming a text that cannot be used at all;
//! - `scan.rs`: [`Scanning`], the top level found a few entries at a time;
//! - `jsonc.rs`: [`strip_jsonc`];
//! - `entry.rs`: each entry of an array read on its own, duplicate ids dropped;
//! - `wire.rs`: the fast path, an entry parsed into typed structs and normalised;
//! - `explain.rs`: the slow path, what is wrong with an entry that did not parse.

mod diagnostic;
mod entry;
mod explain;
mod jsonc;
mod scan;
mod unusable;
mod wire;

use serde::Deserialize;
use serde::de;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::model::{Kind, Registry};

pub use diagnostic::{Diagnostic, LoadError, Location, Severity, describe, parser_message};
pub(crate) use diagnostic::{Problem, Problems, position};
pub(crate) use explain::{check_string, check_strings, wrong_type};
pub use jsonc::strip_jsonc;
pub use scan::Scanning;

use entry::ListReader;
use unusable::{json_error, shape_error};

/// Everything that could be read, plus every problem found on the way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    /// The entries that could be read.
    pub registry: Registry,
    /// One per problem: those about the whole registry first, then per entry (agents, then
    /// extensions), in file order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    /// Whether any entry was left out (any diagnostic is an [`Severity::Error`]).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Reads a registry text: a published `registry.json`, a single manifest, strict JSON or JSONC.
///
/// Fails only when the text cannot be used at all; every problem with an entry is collected in
/// [`Loaded::diagnostics`] instead, and the entry is left out only if it cannot be shown.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    Reading::start(text).map(Reading::finish)
}

/// A registry text read a few entries at a time, as [`load`] reads it at once: a page reading a
/// large registry lets the browser paint between [`Reading::read`]s.
///
/// ```
/// let text = r#"{"version": "1.0.0", "agents": [
///     {"id": "a", "name": "A", "version": "1.0.0", "description": "d",
///      "distribution": {"npx": {"package": "a"}}},
///     {"id": "b", "name": "B", "version": "1.0.0", "description": "d",
///      "distribution": {"npx": {"package": "b"}}}]}"#;
/// let mut reading = registry_core::load::Reading::start(text)?;
/// assert!(!reading.read(1), "one of two entries read");
/// assert!(reading.read(1));
/// assert_eq!(reading.finish(), registry_core::load(text)?);
/// # Ok::<(), registry_core::LoadError>(())
/// ```
#[derive(Debug)]
pub struct Reading<'t> {
    /// The arrays not started yet, in order.
    lists: std::vec::IntoIter<(Kind, Vec<&'t str>)>,
    /// The array being read.
    current: Option<ListReader<'t>>,
    /// What is read so far.
    loaded: Loaded,
}

impl<'t> Reading<'t> {
    /// Parses the top level of `text` (a fast scan: entries stay unparsed text), or says why it
    /// cannot be used at all; [`Scanning`] does the same a few entries at a time.
    pub fn start(text: &'t str) -> Result<Reading<'t>, LoadError> {
        Scanning::start(text)?.finish()
    }

    /// The top level of `text` parsed whole, for a text that is not the plain shape
    /// [`Scanning`] reads: the parser's error, or JSONC (rare and never published) read whole.
    fn parse_whole(text: &'t str) -> Result<Reading<'t>, LoadError> {
        let strict_error = match serde_json::from_str::<TopLevel>(text) {
            Ok(top) => return Ok(Reading::of(top, text)),
            Err(err) if err.is_data() => return Err(shape_error(text, &err)),
            Err(err) => err,
        };
        let Some(stripped) = strip_jsonc(text) else {
            return Err(json_error(text, &strict_error));
        };
        match serde_json::from_str::<TopLevel>(&stripped) {
            Ok(top) => {
                let mut loaded = Reading::of(top, &stripped).finish();
                loaded.diagnostics.insert(
                    0,
                    Diagnostic {
                        severity: Severity::Warning,
                        location: Location::Registry,
                        message: "the text is JSONC (it has comments or trailing commas), not \
                                  strict JSON; it was read anyway"
                            .to_owned(),
                        hint: Some(
                            "a published registry.json must be strict JSON: remove comments and \
                             trailing commas"
                                .to_owned(),
                        ),
                    },
                );
                Ok(Reading {
                    lists: Vec::new().into_iter(),
                    current: None,
                    loaded,
                })
            }
            Err(err) if err.is_data() => Err(shape_error(&stripped, &err)),
            Err(err) => Err(json_error(&stripped, &err)),
        }
    }

    /// Reads up to `count` more entries; `true` once every entry is read.
    pub fn read(&mut self, mut count: usize) -> bool {
        loop {
            let Some(list) = &mut self.current else {
                let Some((kind, texts)) = self.lists.next() else {
                    return true;
                };
                self.current = Some(ListReader::new(kind, texts, &self.loaded.registry.entries));
                continue;
            };
            let before = list.remaining();
            let Loaded {
                registry,
                diagnostics,
            } = &mut self.loaded;
            if !list.read(count, &mut registry.entries, diagnostics) {
                return false;
            }
            count -= before;
            if let Some(list) = self.current.take() {
                list.finish(&mut registry.entries, diagnostics);
            }
            if count == 0 && self.lists.len() > 0 {
                return false;
            }
        }
    }

    /// How many entries are read, and how many there are in all.
    pub fn progress(&self) -> (usize, usize) {
        let current = self.current.as_ref();
        let read = self.loaded.registry.entries.len();
        let left = current.map_or(0, ListReader::remaining)
            + self
                .lists
                .as_slice()
                .iter()
                .map(|(_, texts)| texts.len())
                .sum::<usize>();
        (read, read + left)
    }

    /// Reads what is left and gives everything read, problems in order: those about the whole
    /// registry first, then per entry (agents, then extensions), in file order.
    pub fn finish(mut self) -> Loaded {
        self.read(usize::MAX);
        let mut loaded = self.loaded;
        loaded.diagnostics.sort_by_key(|d| match d.location {
            Location::Registry => (0, None, 0),
            Location::Entry { kind, index, .. } => (1, Some(kind), index),
            // `load` reads no pages.
            Location::Item { index, .. } => (2, None, index),
        });
        loaded
    }

    /// The reading of a parsed top level: the registry's own problems found, its entries not
    /// read yet.
    fn of(top: TopLevel<'t>, text: &'t str) -> Reading<'t> {
        let mut diagnostics = Vec::new();
        let mut version = None;
        let mut lists = Vec::new();
        match (top.agents, top.extensions) {
            (None, None) if top.id.is_some() || top.distribution.is_some() => {
                lists.push((Kind::Agent, vec![text.trim()]));
            }
            (agents, extensions) => {
                version = top
                    .version
                    .and_then(|raw| registry_version(raw, &mut diagnostics));
                if agents.is_none() && extensions.is_none() {
                    diagnostics.push(Diagnostic {
                        severity: Severity::Warning,
                        location: Location::Registry,
                        message: "the registry has neither `agents` nor `extensions`; it lists \
                                  nothing"
                            .to_owned(),
                        hint: Some("list entries as \"agents\": [{...}]".to_owned()),
                    });
                }
                for (kind, list) in [(Kind::Agent, agents), (Kind::Extension, extensions)] {
                    if let Some(list) = list {
                        lists.push((kind, list.iter().map(|raw| raw.get()).collect()));
                    }
                }
            }
        }
        let entries = Vec::with_capacity(lists.iter().map(|(_, texts)| texts.len()).sum());
        Reading {
            lists: lists.into_iter(),
            current: None,
            loaded: Loaded {
                registry: Registry { version, entries },
                diagnostics,
            },
        }
    }
}

/// The top-level keys `load` looks at; the arrays are kept as borrowed, unparsed entries.
#[derive(Debug, Default, Deserialize)]
struct TopLevel<'a> {
    #[serde(borrow)]
    version: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "entry_list")]
    agents: Option<Vec<&'a RawValue>>,
    #[serde(default, borrow, deserialize_with = "entry_list")]
    extensions: Option<Vec<&'a RawValue>>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    distribution: Option<&'a RawValue>,
}

/// `agents`/`extensions`: present means an array (`null` included in "not an array").
fn entry_list<'de, D>(deserializer: D) -> Result<Option<Vec<&'de RawValue>>, D::Error>
where
    D: de::Deserializer<'de>,
{
    Vec::<&'de RawValue>::deserialize(deserializer).map(Some)
}

/// The registry's `version`, or a warning when it is not a string.
fn registry_version(raw: &RawValue, diagnostics: &mut Vec<Diagnostic>) -> Option<String> {
    let version = serde_json::from_str::<String>(raw.get()).ok();
    if version.is_none() {
        let found = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
        diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            location: Location::Registry,
            message: format!(
                "the registry `version` is {}, not a string; it was ignored",
                describe(&found)
            ),
            hint: Some("write it as \"version\": \"1.0.0\"".to_owned()),
        });
    }
    version
}
