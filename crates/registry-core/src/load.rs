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

use std::collections::BTreeMap;
use std::fmt;

use rustc_hash::FxHashMap;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::id;
use crate::model::{BinaryTarget, Distribution, Entry, Kind, Origin, Platform};
use crate::model::{PlatformKey, Registry};

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

/// How bad a problem is, for the loader and the validator alike (serialised in lowercase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The entry cannot be used: the loader leaves it out, the registry's CI rejects it.
    Error,
    /// Worth fixing, but the entry is still read and published.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// The registry as a whole.
    Registry,
    /// One entry of `agents[]` or `extensions[]`.
    Entry {
        /// The array it is in.
        kind: Kind,
        /// Its 0-based index in that array.
        index: usize,
        /// Its `id`, when one could be read.
        id: Option<String>,
    },
    /// One item of a page of an [AgentRegistry](crate::agentregistry) discovery listing.
    Item {
        /// The 1-based page it came on.
        page: u32,
        /// Its 0-based index in that page's `items`.
        index: usize,
        /// Its `id`, when one could be read.
        id: Option<String>,
    },
}

impl fmt::Display for Location {
    /// `registry`, `agents[3]`, `agents[3] (my-agent)` or `page 2, items[3] (my-agent)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = match self {
            Location::Registry => return f.write_str("registry"),
            Location::Entry { kind, index, id } => {
                write!(f, "{}[{index}]", kind.path_segment())?;
                id
            }
            Location::Item { page, index, id } => {
                write!(f, "page {page}, items[{index}]")?;
                id
            }
        };
        match id {
            Some(id) => write!(f, " ({id})"),
            None => Ok(()),
        }
    }
}

/// One problem found while loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where.
    pub location: Location,
    /// What is wrong.
    pub message: String,
    /// A one-line fix, when there is an obvious one.
    pub hint: Option<String>,
}

impl fmt::Display for Diagnostic {
    /// `error: agents[3] (my-agent): missing required field `name` (hint: ...)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.severity.as_str(),
            self.location,
            self.message
        )?;
        match &self.hint {
            Some(hint) => write!(f, " (hint: {hint})"),
            None => Ok(()),
        }
    }
}

/// A registry that could not be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// There is no text at all (or only white space).
    #[error(
        "the registry is empty ({bytes} bytes, nothing but white space): the server sent no \
         content; check that the file was published and that the address is the file's"
    )]
    Empty {
        /// How many bytes there were (white space only).
        bytes: usize,
    },
    /// The text is an HTML page, not JSON.
    #[error(
        "the registry is an HTML page{}, not JSON: the address serves a web page (a sign-in \
         page, an error page, or a site's fallback page) instead of the file; check the address",
        title.as_ref().map(|t| format!(" (titled \"{t}\")")).unwrap_or_default()
    )]
    Html {
        /// The page's `<title>`, when it has one (cut to a readable length).
        title: Option<String>,
    },
    /// The text is nested deeper than any registry is, and deeper than the parser reads.
    #[error(
        "the registry is nested more than {limit} levels deep at line {line}, column {column}, \
         far deeper than a registry ever is: it is not a registry, or it is corrupt"
    )]
    TooDeep {
        /// How deep the parser reads.
        limit: usize,
        /// 1-based line where that depth is passed.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// The text is not JSON (nor JSONC).
    #[error(
        "the registry is not valid JSON: {message} at line {line}, column {column}; \
         fix the syntax there (a missing comma, quote or bracket is the usual cause)"
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
        "the registry is {found}, not an object; it must look like \
         {{\"version\": \"1.0.0\", \"agents\": [...]}} (or be a single agent manifest)"
    )]
    NotAnObject {
        /// What it is instead: `an array`, `a string`, ...
        found: &'static str,
    },
    /// `agents` or `extensions` is there but is not an array.
    #[error("`{key}` is {found}, not an array; write it as \"{key}\": [{{...}}, {{...}}]")]
    NotAnArray {
        /// `agents` or `extensions`.
        key: &'static str,
        /// What it is instead.
        found: &'static str,
    },
    /// The top-level object is unusable for another reason (for example, a key given twice).
    #[error("the registry object is invalid: {message} at line {line}, column {column}")]
    Structure {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What the parser said.
        message: String,
    },
}

/// Reads a registry text: a published `registry.json`, a single manifest, strict JSON or JSONC.
///
/// Fails only when the text cannot be used at all; every problem with an entry is collected in
/// [`Loaded::diagnostics`] instead, and the entry is left out only if it cannot be shown.
pub fn load(text: &str) -> Result<Loaded, LoadError> {
    if let Some(error) = unusable(text) {
        return Err(error);
    }
    let strict_error = match serde_json::from_str::<TopLevel>(text) {
        Ok(top) => return Ok(read(top, text)),
        Err(err) if err.is_data() => return Err(shape_error(text, &err)),
        Err(err) => err,
    };
    let Some(stripped) = strip_jsonc(text) else {
        return Err(json_error(text, &strict_error));
    };
    match serde_json::from_str::<TopLevel>(&stripped) {
        Ok(top) => {
            let mut loaded = read(top, &stripped);
            loaded.diagnostics.insert(
                0,
                Diagnostic {
                    severity: Severity::Warning,
                    location: Location::Registry,
                    message: "the text is JSONC (it has comments or trailing commas), not strict \
                              JSON; it was read anyway"
                        .to_owned(),
                    hint: Some(
                        "a published registry.json must be strict JSON: remove comments and \
                         trailing commas"
                            .to_owned(),
                    ),
                },
            );
            Ok(loaded)
        }
        Err(err) if err.is_data() => Err(shape_error(&stripped, &err)),
        Err(err) => Err(json_error(&stripped, &err)),
    }
}

/// The top-level keys `load` looks at; the arrays are kept as borrowed, unparsed entries.
#[derive(Deserialize)]
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

/// Turns a parsed top level into the registry and its diagnostics.
fn read(top: TopLevel<'_>, text: &str) -> Loaded {
    let mut diagnostics = Vec::new();
    let mut entries = Vec::new();
    let mut version = None;
    match (top.agents, top.extensions) {
        (None, None) if top.id.is_some() || top.distribution.is_some() => {
            read_entries(
                [text.trim()].into_iter(),
                Kind::Agent,
                &mut entries,
                &mut diagnostics,
            );
        }
        (agents, extensions) => {
            version = top
                .version
                .and_then(|raw| registry_version(raw, &mut diagnostics));
            if agents.is_none() && extensions.is_none() {
                diagnostics.push(Diagnostic {
                    severity: Severity::Warning,
                    location: Location::Registry,
                    message: "the registry has neither `agents` nor `extensions`; it lists nothing"
                        .to_owned(),
                    hint: Some("list entries as \"agents\": [{...}]".to_owned()),
                });
            }
            for (kind, list) in [(Kind::Agent, agents), (Kind::Extension, extensions)] {
                if let Some(list) = list {
                    let texts = list.iter().map(|raw| raw.get());
                    read_entries(texts, kind, &mut entries, &mut diagnostics);
                }
            }
        }
    }
    diagnostics.sort_by_key(|d| match d.location {
        Location::Registry => (0, None, 0),
        Location::Entry { kind, index, .. } => (1, Some(kind), index),
        // `load` reads no pages.
        Location::Item { index, .. } => (2, None, index),
    });
    Loaded {
        registry: Registry { version, entries },
        diagnostics,
    }
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

/// Reads one array's entries into `entries`, then drops later duplicates of an id.
fn read_entries<'t>(
    texts: impl ExactSizeIterator<Item = &'t str>,
    kind: Kind,
    entries: &mut Vec<Entry>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let start = entries.len();
    let mut indices = Vec::with_capacity(texts.len());
    for (index, raw) in texts.enumerate() {
        if let Some(entry) = read_entry(raw, kind, index, diagnostics) {
            entries.push(entry);
            indices.push(index);
        }
    }
    let mut first_index: FxHashMap<&str, usize> =
        FxHashMap::with_capacity_and_hasher(indices.len(), Default::default());
    let mut duplicates = Vec::new();
    for (position, entry) in entries[start..].iter().enumerate() {
        let index = indices[position];
        if let Some(&first) = first_index.get(entry.id.as_str()) {
            duplicates.push(position);
            diagnostics.push(Diagnostic {
                severity: Severity::Error,
                location: Location::Entry {
                    kind,
                    index,
                    id: Some(entry.id.clone()),
                },
                message: format!(
                    "duplicate id `{}`: {}[{first}] already has it, so this entry was left out",
                    entry.id,
                    kind.path_segment()
                ),
                hint: Some(format!(
                    "ids must be unique: pages are addressed by id (/{}/<id>); rename one",
                    kind.path_segment()
                )),
            });
        } else {
            first_index.insert(&entry.id, index);
        }
    }
    if !duplicates.is_empty() {
        let mut tail = entries.split_off(start);
        let mut duplicates = duplicates.into_iter().peekable();
        let mut position = 0;
        tail.retain(|_| {
            let duplicate = duplicates.next_if_eq(&position).is_some();
            position += 1;
            !duplicate
        });
        entries.append(&mut tail);
    }
}

/// Reads one entry, or says why it cannot be shown.
fn read_entry(
    raw: &str,
    kind: Kind,
    index: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Entry> {
    let mut problems = Vec::new();
    let (entry, id) = match serde_json::from_str::<WireEntry>(raw) {
        Ok(wire) => {
            let entry = wire.into_entry(kind, raw, &mut problems);
            let id = Some(entry.id.trim())
                .filter(|id| !id.is_empty())
                .map(str::to_owned);
            (Some(entry), id)
        }
        Err(err) => (None, explain(raw, &err, &mut problems)),
    };
    let has_error = problems.iter().any(|p| p.severity == Severity::Error);
    if !problems.is_empty() {
        let location = Location::Entry { kind, index, id };
        diagnostics.extend(problems.into_iter().map(|p| Diagnostic {
            severity: p.severity,
            location: location.clone(),
            message: p.message,
            hint: p.hint,
        }));
    }
    entry.filter(|_| !has_error)
}

/// A problem with an entry, before it is given its location.
pub(crate) struct Problem {
    pub(crate) severity: Severity,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
}

impl Problem {
    pub(crate) fn error(message: String, hint: Option<String>) -> Problem {
        Problem {
            severity: Severity::Error,
            message,
            hint,
        }
    }

    fn warning(message: String, hint: String) -> Problem {
        Problem {
            severity: Severity::Warning,
            message,
            hint: Some(hint),
        }
    }
}

/// One entry as written: the published shape, plus what the RFD's manifest shape adds.
#[derive(Deserialize)]
struct WireEntry {
    id: String,
    name: String,
    version: String,
    description: String,
    repository: Option<String>,
    website: Option<String>,
    /// The RFD's name for `website`.
    homepage: Option<String>,
    #[serde(default)]
    authors: Vec<String>,
    license: Option<String>,
    license_url: Option<String>,
    icon: Option<String>,
    distribution: WireDistribution,
}

impl WireEntry {
    /// The entry, normalised to the published shape; problems are added to `problems`.
    fn into_entry(self, kind: Kind, raw: &str, problems: &mut Problems) -> Entry {
        problems.extend(id_problems(&self.id, kind));
        if self.name.trim().is_empty() {
            problems.push(Problem::error(
                "`name` is empty".to_owned(),
                Some("give the entry the name people know it by".to_owned()),
            ));
        }
        let website = match (self.website, self.homepage) {
            (Some(website), _) => Some(website),
            (None, Some(homepage)) => {
                problems.push(Problem::warning(
                    "`homepage` (the RFD's manifest field) was read as `website`".to_owned(),
                    "rename `homepage` to `website`".to_owned(),
                ));
                Some(homepage)
            }
            (None, None) => None,
        };
        let distribution = self.distribution.into_distribution(problems);
        Entry {
            kind,
            id: self.id,
            name: self.name,
            version: self.version,
            description: self.description,
            repository: self.repository,
            website,
            authors: self.authors,
            license: self.license,
            license_url: self.license_url,
            icon: self.icon,
            distribution,
            raw: raw.to_owned(),
            origin: Origin::Acp,
        }
    }
}

/// `distribution` as written: the published methods, RFD-style targets beside them, and keys
/// that are neither.
#[derive(Default)]
struct WireDistribution {
    published: Distribution,
    /// `<os>-<arch>` targets written directly under `distribution` (the RFD's shape).
    rfd_targets: BTreeMap<PlatformKey, BinaryTarget>,
    unknown_keys: Vec<String>,
}

impl WireDistribution {
    fn into_distribution(self, problems: &mut Problems) -> Distribution {
        let mut distribution = self.published;
        if !self.rfd_targets.is_empty() {
            let keys: Vec<&str> = self.rfd_targets.keys().map(|k| k.0.as_str()).collect();
            problems.push(Problem::warning(
                format!(
                    "platform targets ({}) are directly under `distribution` (the RFD's manifest \
                     shape); they were read as `distribution.binary`",
                    keys.join(", ")
                ),
                "move the <os>-<arch> targets into \"distribution\": {\"binary\": {...}}"
                    .to_owned(),
            ));
            for (key, target) in self.rfd_targets {
                distribution.binary.entry(key).or_insert(target);
            }
        }
        for key in &self.unknown_keys {
            problems.push(Problem::warning(
                format!("unknown distribution method `{key}` was ignored"),
                "the methods are binary, npx and uvx".to_owned(),
            ));
        }
        for key in distribution
            .binary
            .keys()
            .filter(|k| k.platform().is_none())
        {
            problems.push(Problem::warning(
                format!("`{key}` is not a platform the registry knows; no OS filter will find it"),
                format!("use one of {}", Platform::KEYS.join(", ")),
            ));
        }
        if distribution.binary.is_empty()
            && distribution.npx.is_none()
            && distribution.uvx.is_none()
        {
            problems.push(Problem::error(
                "`distribution` offers no way to run it".to_owned(),
                Some(
                    "add at least one of \"binary\", \"npx\" or \"uvx\" under \"distribution\""
                        .to_owned(),
                ),
            ));
        }
        distribution
    }
}

impl<'de> Deserialize<'de> for WireDistribution {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(WireDistributionVisitor)
    }
}

struct WireDistributionVisitor;

impl<'de> Visitor<'de> for WireDistributionVisitor {
    type Value = WireDistribution;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a distribution object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WireDistribution, A::Error> {
        let mut out = WireDistribution::default();
        let (mut seen_binary, mut seen_npx, mut seen_uvx) = (false, false, false);
        while let Some(key) = map.next_key::<DistributionKey>()? {
            match key {
                DistributionKey::Binary => {
                    once(&mut seen_binary, "binary")?;
                    out.published.binary = map.next_value()?;
                }
                DistributionKey::Npx => {
                    once(&mut seen_npx, "npx")?;
                    out.published.npx = map.next_value()?;
                }
                DistributionKey::Uvx => {
                    once(&mut seen_uvx, "uvx")?;
                    out.published.uvx = map.next_value()?;
                }
                DistributionKey::Target(key) => {
                    let target = map.next_value()?;
                    out.rfd_targets.insert(PlatformKey(key), target);
                }
                DistributionKey::Unknown(key) => {
                    map.next_value::<IgnoredAny>()?;
                    out.unknown_keys.push(key);
                }
            }
        }
        Ok(out)
    }
}

/// Fails the second time a key is seen, as serde's derive does.
fn once<E: de::Error>(seen: &mut bool, key: &'static str) -> Result<(), E> {
    if std::mem::replace(seen, true) {
        Err(E::duplicate_field(key))
    } else {
        Ok(())
    }
}

/// A key of `distribution`, classified without allocating for the usual ones.
enum DistributionKey {
    Binary,
    Npx,
    Uvx,
    /// Looks like `<os>-<arch>`: an RFD-style target.
    Target(String),
    Unknown(String),
}

impl DistributionKey {
    fn classify(key: &str) -> DistributionKey {
        match key {
            "binary" => DistributionKey::Binary,
            "npx" => DistributionKey::Npx,
            "uvx" => DistributionKey::Uvx,
            _ if Platform::looks_like(key) => DistributionKey::Target(key.to_owned()),
            _ => DistributionKey::Unknown(key.to_owned()),
        }
    }
}

impl<'de> Deserialize<'de> for DistributionKey {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = DistributionKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a distribution method")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<DistributionKey, E> {
                Ok(DistributionKey::classify(key))
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// What is wrong with an entry's id: an error when it cannot be shown at all (empty, or `.` or
/// `..`, which no page address can carry), a warning when it is not a slug or too long to name
/// a file (the entry loads, but gets an encoded page address, no "edit" link, no pre-rendered
/// page or no install folder).
pub(crate) fn id_problems(raw_id: &str, kind: Kind) -> Option<Problem> {
    let segment = kind.path_segment();
    if raw_id.trim().is_empty() {
        Some(Problem::error(
            "`id` is empty".to_owned(),
            Some("give the entry a lowercase slug id, e.g. \"my-agent\"".to_owned()),
        ))
    } else if id::path_segment(raw_id).is_none() {
        Some(Problem::error(
            format!("id `{raw_id}` cannot be a page address: /{segment}/{raw_id} is another page"),
            Some(format!(
                "give the entry a lowercase slug id, e.g. \"{}\"",
                id::slugify(raw_id)
            )),
        ))
    } else if !id::is_slug(raw_id) {
        Some(Problem::warning(
            format!(
                "id `{raw_id}` is not a lowercase slug (a letter, then letters, digits and -): \
                 its page address is encoded and it has no manifest in the registry repository"
            ),
            format!("use a slug such as \"{}\"", id::slugify(raw_id)),
        ))
    } else if !id::is_file_name(raw_id) {
        Some(Problem::warning(
            format!(
                "id `{}…` is {} bytes long, over the {} a file name may take: it gets no \
                 pre-rendered page and no install folder",
                &raw_id[..24],
                raw_id.len(),
                id::MAX_LEN
            ),
            format!("use a shorter slug such as \"{}\"", id::slugify(raw_id)),
        ))
    } else {
        None
    }
}

/// Why an entry could not be read: adds every problem found, each with a hint, and returns the
/// entry's id if it has one.
///
/// Walks the entry as a [`Value`] along the same rules as [`WireEntry`]; when that finds nothing
/// (a key written twice, say), the parser's own message is used.
fn explain(raw: &str, err: &serde_json::Error, problems: &mut Problems) -> Option<String> {
    let id = match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(entry)) => {
            check_entry(&entry, problems);
            entry
                .get("id")
                .and_then(Value::as_str)
                .filter(|id| !id.trim().is_empty())
                .map(str::to_owned)
        }
        Ok(other) => {
            problems.push(Problem::error(
                format!("the entry is {}, not an object", describe(&other)),
                Some(
                    "each entry must be an object with id, name, version, description and \
                     distribution"
                        .to_owned(),
                ),
            ));
            None
        }
        Err(_) => None,
    };
    if problems.is_empty() {
        problems.push(Problem::error(parser_message(err), None));
    }
    id
}

pub(crate) type Problems = Vec<Problem>;

/// Checks an entry object against the shape [`WireEntry`] reads.
fn check_entry(entry: &serde_json::Map<String, Value>, problems: &mut Problems) {
    for (field, hint) in [
        ("id", "add \"id\": \"my-agent\" (a lowercase slug)"),
        ("name", "add \"name\": \"My Agent\""),
        ("version", "add \"version\": \"1.0.0\""),
        (
            "description",
            "add \"description\": \"what it does, in one sentence\"",
        ),
    ] {
        check_string(entry, field, field, Some(hint), problems);
    }
    for field in [
        "repository",
        "website",
        "homepage",
        "license",
        "license_url",
        "icon",
    ] {
        check_string(entry, field, field, None, problems);
    }
    check_strings(entry, "authors", "authors", problems);
    match entry.get("distribution") {
        None => problems.push(missing(
            "distribution",
            "add \"distribution\" with at least one of binary, npx or uvx",
        )),
        Some(Value::Object(distribution)) => check_distribution(distribution, problems),
        Some(other) => problems.push(wrong_type("distribution", "an object", other)),
    }
}

fn check_distribution(distribution: &serde_json::Map<String, Value>, problems: &mut Problems) {
    for (key, value) in distribution {
        let path = format!("distribution.{key}");
        match DistributionKey::classify(key) {
            DistributionKey::Binary => match value {
                Value::Object(targets) => {
                    for (platform, target) in targets {
                        check_target(&format!("{path}.{platform}"), target, problems);
                    }
                }
                other => problems.push(wrong_type(&path, "an object of platform targets", other)),
            },
            DistributionKey::Npx | DistributionKey::Uvx => match value {
                Value::Null => {}
                Value::Object(package) => {
                    check_string(
                        package,
                        "package",
                        &format!("{path}.package"),
                        Some("add the package spec, e.g. \"package\": \"my-agent@1.0.0\""),
                        problems,
                    );
                    check_strings(package, "args", &format!("{path}.args"), problems);
                    check_env(package, &path, problems);
                }
                other => problems.push(wrong_type(&path, "an object", other)),
            },
            DistributionKey::Target(_) => check_target(&path, value, problems),
            DistributionKey::Unknown(_) => {}
        }
    }
}

fn check_target(path: &str, target: &Value, problems: &mut Problems) {
    let Value::Object(target) = target else {
        problems.push(wrong_type(path, "an object", target));
        return;
    };
    check_string(
        target,
        "archive",
        &format!("{path}.archive"),
        Some("add the download URL as \"archive\""),
        problems,
    );
    check_string(
        target,
        "cmd",
        &format!("{path}.cmd"),
        Some("add the executable's path in the archive, e.g. \"cmd\": \"./my-agent\""),
        problems,
    );
    check_strings(target, "args", &format!("{path}.args"), problems);
    check_env(target, path, problems);
    check_string(target, "sha256", &format!("{path}.sha256"), None, problems);
}

/// A string field: required when `missing_hint` is given, else optional (`null` allowed).
pub(crate) fn check_string(
    object: &serde_json::Map<String, Value>,
    field: &str,
    path: &str,
    missing_hint: Option<&str>,
    problems: &mut Problems,
) {
    match (object.get(field), missing_hint) {
        (Some(Value::String(_)), _) | (None | Some(Value::Null), None) => {}
        (None, Some(hint)) => problems.push(missing(path, hint)),
        (Some(other), _) => problems.push(wrong_type(path, "a string", other)),
    }
}

/// An optional array of strings (`authors`, `args`).
pub(crate) fn check_strings(
    object: &serde_json::Map<String, Value>,
    field: &str,
    path: &str,
    problems: &mut Problems,
) {
    match object.get(field) {
        None => {}
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    problems.push(wrong_type(&format!("{path}[{i}]"), "a string", item));
                }
            }
        }
        Some(Value::String(s)) => problems.push(Problem::error(
            format!("`{path}` must be an array of strings, found a string"),
            Some(format!("write it as a list: \"{field}\": [{s:?}]")),
        )),
        Some(other) => problems.push(wrong_type(path, "an array of strings", other)),
    }
}

/// An optional `env` object of string values.
fn check_env(object: &serde_json::Map<String, Value>, path: &str, problems: &mut Problems) {
    match object.get("env") {
        None => {}
        Some(Value::Object(vars)) => {
            for (name, value) in vars {
                if !value.is_string() {
                    problems.push(wrong_type(&format!("{path}.env.{name}"), "a string", value));
                }
            }
        }
        Some(other) => problems.push(wrong_type(
            &format!("{path}.env"),
            "an object of strings",
            other,
        )),
    }
}

fn missing(path: &str, hint: &str) -> Problem {
    Problem::error(
        format!("missing required field `{path}`"),
        Some(hint.to_owned()),
    )
}

pub(crate) fn wrong_type(path: &str, expected: &str, found: &Value) -> Problem {
    let hint = match found {
        Value::Number(n) if expected == "a string" => format!("quote it: \"{n}\""),
        _ => format!("make `{path}` {expected}"),
    };
    Problem::error(
        format!("`{path}` must be {expected}, found {}", describe(found)),
        Some(hint),
    )
}

/// `a string`, `an array`, ... for messages.
pub(crate) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message without its ` at line L column C` suffix.
pub(crate) fn parser_message(err: &serde_json::Error) -> String {
    let message = err.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    }
}

/// A syntax error, with its position in characters.
fn json_error(text: &str, err: &serde_json::Error) -> LoadError {
    let (line, column) = position(text, err);
    LoadError::Json {
        line,
        column,
        message: parser_message(err),
    }
}

/// How deep serde_json reads nested arrays and objects into a [`Value`].
const DEPTH_LIMIT: usize = 128;

/// A text that is plainly not a registry, named before any parsing: nothing, an HTML page, or
/// a top-level array (which serde would otherwise read as the fields of a struct, in order).
fn unusable(text: &str) -> Option<LoadError> {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    match body.as_bytes().first() {
        None => Some(LoadError::Empty { bytes: text.len() }),
        Some(b'<') => Some(LoadError::Html {
            title: html_title(body),
        }),
        Some(b'[') => Some(too_deep(text).unwrap_or(LoadError::NotAnObject { found: "an array" })),
        _ => None,
    }
}

/// The `<title>` of an HTML text, white space collapsed, cut to 80 characters; looked for in
/// its first 4 KiB only.
fn html_title(html: &str) -> Option<String> {
    let mut head = html.len().min(4096);
    while !html.is_char_boundary(head) {
        head -= 1;
    }
    let head = &html[..head];
    let lower = head.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let words: Vec<&str> = head[start..end].split_whitespace().collect();
    let title = words.join(" ");
    let cut: String = title.chars().take(80).collect();
    match (cut.is_empty(), cut.len() < title.len()) {
        (true, _) => None,
        (false, true) => Some(format!("{cut}…")),
        (false, false) => Some(cut),
    }
}

/// Where `text` nests arrays and objects deeper than [`DEPTH_LIMIT`], if it does (brackets in
/// strings do not count).
fn too_deep(text: &str) -> Option<LoadError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let (mut line, mut line_start) = (1usize, 0usize);
    for (at, byte) in text.bytes().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > DEPTH_LIMIT {
                    let column = text[line_start..=at].chars().count();
                    return Some(LoadError::TooDeep {
                        limit: DEPTH_LIMIT,
                        line,
                        column,
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'\n' => {
                line += 1;
                line_start = at + 1;
            }
            _ => {}
        }
    }
    None
}

/// A valid JSON text of the wrong shape; the slow path, so it may parse again.
fn shape_error(text: &str, err: &serde_json::Error) -> LoadError {
    if let Some(deep) = too_deep(text) {
        return deep;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(top)) => {
            for key in ["agents", "extensions"] {
                match top.get(key) {
                    None | Some(Value::Array(_)) => {}
                    Some(other) => {
                        return LoadError::NotAnArray {
                            key,
                            found: describe(other),
                        };
                    }
                }
            }
        }
        Ok(other) => {
            return LoadError::NotAnObject {
                found: describe(&other),
            };
        }
        Err(_) => {}
    }
    let (line, column) = position(text, err);
    LoadError::Structure {
        line,
        column,
        message: parser_message(err),
    }
}

/// serde_json's 1-based line and byte column, as a 1-based character column.
pub(crate) fn position(text: &str, err: &serde_json::Error) -> (usize, usize) {
    let line = err.line().max(1);
    let line_text = text.split('\n').nth(line - 1).unwrap_or("");
    let mut end = err.column().min(line_text.len());
    while !line_text.is_char_boundary(end) {
        end -= 1;
    }
    (line, line_text[..end].chars().count().max(1))
}

/// JSONC to JSON: comments and trailing commas become spaces, so every other byte keeps its
/// offset and every line and column stays where it was. `None` when there was nothing to strip.
///
/// Public so the maintainer tools (`registry-validate`) read manifests exactly as the site does
/// and can point at a place in the text the maintainer wrote.
pub fn strip_jsonc(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut in_string = false;
    let mut pending_comma = None;
    let mut changed = false;
    while let Some((_, c)) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        out.push(escaped);
                    }
                }
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        let comment_end = match (c, chars.peek()) {
            ('/', Some((_, '/'))) => Some("\n"),
            ('/', Some((_, '*'))) => Some("*/"),
            _ => None,
        };
        if let Some(end) = comment_end {
            changed = true;
            out.push(' ');
            let (_, opener) = chars.next().unwrap_or((0, ' '));
            blank(&mut out, opener);
            let mut last = ' ';
            for (_, c) in chars.by_ref() {
                if end == "\n" && c == '\n' {
                    out.push('\n');
                    break;
                }
                blank(&mut out, c);
                if end == "*/" && last == '*' && c == '/' {
                    break;
                }
                last = c;
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            ',' => {
                pending_comma = Some(out.len());
                out.push(c);
                continue;
            }
            ']' | '}' => {
                if let Some(at) = pending_comma {
                    out.replace_range(at..at + 1, " ");
                    changed = true;
                }
            }
            _ => {}
        }
        if !c.is_whitespace() {
            pending_comma = None;
        }
        out.push(c);
    }
    changed.then_some(out)
}

/// Replaces a character by as many spaces as it has bytes, keeping line breaks.
fn blank(out: &mut String, c: char) {
    if c == '\n' || c == '\r' {
        out.push(c);
    } else {
        out.extend(std::iter::repeat_n(' ', c.len_utf8()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_strip(input: &str, expect: Option<&str>) {
        let got = strip_jsonc(input);
        assert_eq!(got.as_deref(), expect, "input: {input:?}");
        if let Some(got) = got {
            assert_eq!(got.len(), input.len(), "byte length kept: {input:?}");
            let lines = |s: &str| s.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
            assert_eq!(lines(&got), lines(input), "line breaks kept: {input:?}");
        }
    }

    #[test]
    fn strips_comments_and_trailing_commas() {
        let table: &[(&str, Option<&str>)] = &[
            (r#"{"a": 1}"#, None),
            (r#"{"a": "// not a comment /* nor this */"}"#, None),
            (r#"{"a": "x\"// still a string"}"#, None),
            ("{\"a\": 1} // note", Some("{\"a\": 1}        ")),
            ("{\"a\": 1, // note\n}", Some("{\"a\": 1         \n}")),
            ("/* é */{}", Some("        {}")),
            ("{/* a\nb */}", Some("{    \n    }")),
            ("[1, 2,]", Some("[1, 2 ]")),
            ("[1, 2, /* c */ ]", Some("[1, 2          ]")),
            ("{\"a\": [1,],}", Some("{\"a\": [1 ] }")),
            ("[1 /* unterminated", Some("[1                ")),
            ("[\"a,\"]", None),
            ("// only\n", Some("       \n")),
            ("a/b", None),
        ];
        for &(input, expect) in table {
            check_strip(input, expect);
        }
    }

    #[test]
    fn platform_lookalikes() {
        let table = [
            ("darwin-aarch64", true),
            ("windows-x86_64", true),
            ("linux-arm64", true),
            ("macos-aarch64", true),
            ("docker-image", false),
            ("binary", false),
            ("linux", false),
        ];
        for (key, expect) in table {
            assert_eq!(Platform::looks_like(key), expect, "{key}");
        }
    }

    #[test]
    fn positions_are_one_based_characters() {
        let table = [
            ("", 1, 1),
            ("{\"a\": x}", 1, 7),
            ("{\n  \"é\": x}", 2, 8),
            ("[1,\n2,\n", 3, 1),
        ];
        for (text, line, column) in table {
            let err = serde_json::from_str::<Value>(text).unwrap_err();
            assert_eq!(position(text, &err), (line, column), "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn stripping_keeps_every_offset(text in "[ -~\n\t é]{0,80}") {
            if let Some(stripped) = strip_jsonc(&text) {
                proptest::prop_assert_eq!(stripped.len(), text.len());
                for (a, b) in stripped.bytes().zip(text.bytes()) {
                    proptest::prop_assert!(a == b || a == b' ', "only blanked: {:?}", text);
                }
            }
        }
    }
}
