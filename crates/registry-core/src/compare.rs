//! Agents side by side (`/compare/?ids=gemini,codex-acp`): which agents a comparison holds, read
//! from its address, and the rows it shows, one cell per agent in the order asked.
//!
//! Every row is a fact the catalogue shows elsewhere: the manifest's version, distributions,
//! platforms and licence; what has to be installed first; what the nightly probe found (sign-in
//! methods, ACP version, each capability), with "Not probed" where it did not run, since
//! unknown is not unsupported; the registry's listings and the agent's health. A row
//! [differs](Row::differs) when its cells are not all the same: the page marks those and folds
//! the others.

use crate::listing::Listing;
use crate::model::{Entry, Method, Platform};
use crate::protocol::{Capability, Facts};

/// The most agents a comparison holds.
pub const MAX_COMPARED: usize = 4;

/// What a comparison's address asks for: the ids kept, in order, and the words passed over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// At most [`MAX_COMPARED`] ids, each once, in the order written.
    pub ids: Vec<String>,
    /// Words not kept: blank ones are not listed; a repeat, one past the [`MAX_COMPARED`]th, or
    /// a word that is not an id is, as written.
    pub passed_over: Vec<String>,
}

/// Reads `ids=a,b,c` (its value, decoded): ids separated by commas, trimmed; a word that cannot
/// be an id (see [`crate::id::is_file_name`]), a repeat, or one past the fourth is passed over.
///
/// ```
/// use registry_core::compare::read_ids;
/// let asked = read_ids(" gemini, codex-acp ,gemini,,../x");
/// assert_eq!(asked.ids, ["gemini", "codex-acp"]);
/// assert_eq!(asked.passed_over, ["gemini", "../x"]);
/// ```
pub fn read_ids(value: &str) -> Asked {
    let mut asked = Asked::default();
    for word in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let fits = crate::id::is_file_name(word)
            && !asked.ids.iter().any(|id| id == word)
            && asked.ids.len() < MAX_COMPARED;
        if fits {
            asked.ids.push(word.to_owned());
        } else {
            asked.passed_over.push(word.to_owned());
        }
    }
    asked
}

/// The value of `ids=` for these ids: joined by commas.
pub fn ids_value<S: AsRef<str>>(ids: &[S]) -> String {
    ids.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(",")
}

/// One agent of a comparison, with what the catalogue knows of it.
#[derive(Clone, Copy, Debug)]
pub struct Compared<'a> {
    /// The entry.
    pub entry: &'a Entry,
    /// Where it is listed, and whether it is quarantined.
    pub listing: &'a Listing,
    /// What the probe found.
    pub facts: &'a Facts,
}

/// A row: what it says, and one cell per agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The row's name (`Version`).
    pub name: String,
    /// One cell per agent, in the comparison's order.
    pub cells: Vec<String>,
}

impl Row {
    /// Whether its cells are not all the same.
    pub fn differs(&self) -> bool {
        self.cells.windows(2).any(|pair| pair[0] != pair[1])
    }
}

/// The rows of a comparison of `agents`, in display order.
pub fn rows(agents: &[Compared<'_>]) -> Vec<Row> {
    let row = |name: &str, cell: &dyn Fn(&Compared<'_>) -> String| Row {
        name: name.to_owned(),
        cells: agents.iter().map(cell).collect(),
    };
    let mut rows = vec![
        row("Version", &|a| version(a.entry)),
        row("Distributions", &|a| methods(a.entry)),
        row("Runs on", &|a| platforms(a.entry)),
        row("Install first", &|a| prerequisites(a.entry)),
        row("Licence", &|a| {
            (a.entry.license.as_deref().map(str::trim))
                .filter(|l| !l.is_empty())
                .map_or_else(|| "Not stated".to_owned(), str::to_owned)
        }),
        row("Sign-in (probed)", &|a| sign_in(a.facts)),
        row("ACP version (probed)", &|a| protocol_version(a.facts)),
    ];
    for capability in Capability::ALL {
        rows.push(row(
            &format!("{} (probed)", capability.label()),
            &|a| match (a.facts, a.facts.supports(capability)) {
                (_, Some(true)) => "Yes".to_owned(),
                (_, Some(false)) => "No".to_owned(),
                (Facts::Probed { .. }, None) => "Not reported".to_owned(),
                (Facts::NotProbed | Facts::ProbeFailed { .. }, None) => "Not probed".to_owned(),
            },
        ));
    }
    rows.push(row("Listed for", &|a| {
        let listed: Vec<&str> = a.listing.listed_for().iter().map(|l| l.label()).collect();
        if listed.is_empty() {
            "Not known".to_owned()
        } else {
            listed.join(", ")
        }
    }));
    rows.push(row("Health", &|a| {
        a.listing.health(a.facts).label().to_owned()
    }));
    rows
}

fn version(entry: &Entry) -> String {
    match entry.version.trim() {
        "" => "Not stated".to_owned(),
        version => version.to_owned(),
    }
}

fn methods(entry: &Entry) -> String {
    let methods = entry.distribution.methods();
    if methods.is_empty() {
        return "None".to_owned();
    }
    methods
        .iter()
        .map(|m| m.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `Every platform (npx)`, or the binary's platforms.
fn platforms(entry: &Entry) -> String {
    let distribution = &entry.distribution;
    if distribution.runs_everywhere() {
        return "Every platform".to_owned();
    }
    let binaries: Vec<String> = Platform::ALL
        .into_iter()
        .filter(|p| distribution.binary_platforms().any(|b| b == *p))
        .map(Platform::label)
        .collect();
    if binaries.is_empty() {
        "None".to_owned()
    } else {
        binaries.join(", ")
    }
}

/// What a person installs before it runs, by way of each distribution.
fn prerequisites(entry: &Entry) -> String {
    let needs: Vec<&str> = (entry.distribution.methods().into_iter())
        .map(|method| match method {
            Method::Binary => "nothing (a download)",
            Method::Npx => "Node.js (for npx)",
            Method::Uvx => "uv (for uvx)",
        })
        .collect();
    if needs.is_empty() {
        "Not known".to_owned()
    } else {
        needs.join(" or ")
    }
}

fn sign_in(facts: &Facts) -> String {
    match facts {
        Facts::NotProbed => "Not probed".to_owned(),
        Facts::ProbeFailed { .. } => "Probe failed".to_owned(),
        Facts::Probed { auth, .. } if auth.is_empty() => "None advertised".to_owned(),
        Facts::Probed { auth, .. } => auth
            .iter()
            .map(|m| m.label().to_owned())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn protocol_version(facts: &Facts) -> String {
    match facts {
        Facts::NotProbed => "Not probed".to_owned(),
        Facts::ProbeFailed { .. } => "Probe failed".to_owned(),
        Facts::Probed {
            protocol_version: Some(version),
            ..
        } => version.clone(),
        Facts::Probed { .. } => "Not recorded".to_owned(),
    }
}
