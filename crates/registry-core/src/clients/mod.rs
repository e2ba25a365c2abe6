//! ACP clients as data, for "Will it work in my editor?": what each client (an editor, a
//! terminal program, a chat bridge…) does with an agent, each fact with where it was read, and
//! the [`verdict`] for an agent, a client and the visitor's platform.
//!
//! The profiles live in `data/clients.json`, read by [`parse_profiles`]:
//!
//! ```json
//! {"clientsFormat": 1, "clients": [{
//!   "id": "zed", "name": "Zed", "homepage": "https://zed.dev",
//!   "docs": "https://zed.dev/docs/ai/external-agents", "snippet": "zed",
//!   "listedAt": {"source": "https://github.com/agentclientprotocol/…/clients.mdx?plain=1#L37",
//!                "checked": "2026-12-07"},
//!   "registry": {"value": "acp", "source": "https://…", "checked": "2026-12-07"},
//!   "addByHand": {"value": true, "source": "https://…", "checked": "2026-12-07"},
//!   "distributions": {"value": ["binary", "npx"], "source": "https://…", "checked": "2026-12-07"},
//!   "authMethods": {"value": ["agent", "terminal"], "source": "https://…", "checked": "2026-12-07"},
//!   "protocolVersions": {"value": [1], "source": "https://…", "checked": "2026-12-07"},
//!   "platforms": {"unknown": "the download page names no systems"},
//!   "limits": [{"text": "…", "source": "https://…", "checked": "2026-12-07"}]}]}
//! ```
//!
//! # Correcting a profile
//!
//! Every fact is a [`Fact`]: either known, `{"value": …, "source": …, "checked": …}`, or
//! `{"unknown": "why"}`. A known fact needs its proof: `source` is the https address of the
//! page, commit or line that says it (a pinned commit rather than a branch where there is
//! one), and `checked` the day (`YYYY-MM-DD`) someone read it there. Write `unknown` rather
//! than guess; the verdict then says "not known" instead of "works". When a fact changes,
//! replace its value, source and day together.
//!
//! - `listedAt`: the page that names the client (the ACP client list, `clients.mdx`, at the line
//!   of the client), which `name` and `homepage` come from.
//! - `snippet`: the configuration format the catalogue writes for it (`zed`, `jetbrains`,
//!   `avante`, `codecompanion`, `agent-shell`, the words of [`Client::as_str`]), or `none`.
//! - `registry`: the registry file the client installs agents from ([`RegistryView`]): `acp`
//!   (`registry.json`), `jetbrains` (`registry-for-jetbrains.json`), `jetbrains-preview`
//!   (`registry-for-jetbrains-preview.json`), or `none` when every agent is configured by hand.
//! - `addByHand`: whether an agent the client does not list can be added in its settings.
//! - `distributions`: the kinds of download it installs from its registry: `binary`, `npx`,
//!   `uvx` ([`Method`]); `[]` for a client configured by hand.
//! - `authMethods`: the sign-in methods it supports: `agent` (it sends `authenticate`) and
//!   `terminal` (it advertises `clientCapabilities.auth.terminal` and runs the login command).
//!   ACP removed the `env_var` method on 2026-07-27 (the auth-methods RFD's revision history):
//!   the file refuses it.
//! - `protocolVersions`: the ACP versions it speaks, as numbers (`[1]`).
//! - `platforms`: the systems it runs on: `macos`, `linux`, `windows` (the names clients' own
//!   pages use; [`os_word`] maps them to [`Os`], whose `darwin` is the registry's word).
//! - `limits`: known problems, each a sentence with its own source and day.
//!
//! Ids are the registry's slugs ([`id::is_slug`]) and unique. A profile the reader cannot take
//! whole (an unknown key anywhere, a known fact without `source` or `checked`, a day that is
//! not one, an unknown word, a source that is not https, a bad or repeated id) is left out with
//! a [`ProfileDiagnostic`] naming it and the field; every other profile still loads. Only a
//! file that is not JSON, not an object, of another `clientsFormat` or without a `clients`
//! array is a [`ProfilesError`].

mod verdict;

pub use verdict::{Basis, Outcome, Reason, Verdict, verdict};

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value};

use crate::edition::Day;
use crate::id;
use crate::listing::ListedFor;
use crate::load::{describe, parser_message, position};
use crate::model::{Method, Os};
use crate::protocol::AuthMethod;
use crate::snippets::Client;
use crate::url::safe_link;

/// The `clientsFormat` this reader knows.
pub const CLIENTS_FORMAT: u64 = 1;

/// The keys of a profile, in the order the file writes them.
pub const FIELDS: [&str; 13] = [
    "id",
    "name",
    "homepage",
    "docs",
    "snippet",
    "listedAt",
    "registry",
    "addByHand",
    "distributions",
    "authMethods",
    "protocolVersions",
    "platforms",
    "limits",
];

/// Every profile that loaded, and a diagnostic for each that did not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profiles {
    /// The profiles, in file order.
    pub clients: Vec<ClientProfile>,
    /// One per problem found; a profile with any is left out of [`Profiles::clients`].
    pub diagnostics: Vec<ProfileDiagnostic>,
}

impl Profiles {
    /// The profile with this id.
    pub fn get(&self, id: &str) -> Option<&ClientProfile> {
        self.clients.iter().find(|client| client.id == id)
    }
}

/// What is known about one ACP client.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientProfile {
    /// A slug, unique in the file (`zed`).
    pub id: String,
    /// The name people know it by (`Zed`).
    pub name: String,
    /// Its home page (https).
    pub homepage: String,
    /// Its documentation on ACP agents (https), when known.
    pub docs: Option<String>,
    /// The configuration format the catalogue writes for it; `None` when there is none.
    pub snippet: Option<Client>,
    /// The page that names the client, which its name and home page come from.
    pub listed_at: Citation,
    /// The registry file it installs agents from, or [`RegistryView::None`].
    pub registry: Fact<RegistryView>,
    /// Whether an agent it does not list can be added in its settings.
    pub add_by_hand: Fact<bool>,
    /// The kinds of download it installs from its registry (empty when configured by hand).
    pub distributions: Fact<Vec<Method>>,
    /// The sign-in methods it supports: [`AuthMethod::Agent`] and [`AuthMethod::Terminal`]
    /// only.
    pub auth_methods: Fact<Vec<AuthMethod>>,
    /// The ACP protocol versions it speaks.
    pub protocol_versions: Fact<Vec<u32>>,
    /// The operating systems it runs on.
    pub platforms: Fact<Vec<Os>>,
    /// Known problems, each with its source.
    pub limits: Vec<Limit>,
}

impl ClientProfile {
    /// How many of its six facts are known.
    pub fn known_facts(&self) -> usize {
        [
            self.registry.is_known(),
            self.add_by_hand.is_known(),
            self.distributions.is_known(),
            self.auth_methods.is_known(),
            self.protocol_versions.is_known(),
            self.platforms.is_known(),
        ]
        .into_iter()
        .filter(|known| *known)
        .count()
    }
}

/// One fact about a client: known, with where and when it was read, or unknown, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact<T> {
    /// Read from a source.
    Known {
        /// The fact.
        value: T,
        /// The https address that says it.
        source: String,
        /// The day it was read there.
        checked: Day,
    },
    /// Not known.
    Unknown {
        /// Why (not documented, closed source, not researched yet…).
        why: String,
    },
}

impl<T> Fact<T> {
    /// The value, when known.
    pub fn known(&self) -> Option<&T> {
        match self {
            Fact::Known { value, .. } => Some(value),
            Fact::Unknown { .. } => None,
        }
    }

    /// Whether it is known.
    pub fn is_known(&self) -> bool {
        matches!(self, Fact::Known { .. })
    }

    /// Where and when it was read, when known.
    pub fn citation(&self) -> Option<Citation> {
        match self {
            Fact::Known {
                source, checked, ..
            } => Some(Citation {
                source: source.clone(),
                checked: *checked,
            }),
            Fact::Unknown { .. } => None,
        }
    }
}

/// Where something was read, and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    /// The https address.
    pub source: String,
    /// The day it was read there.
    pub checked: Day,
}

/// A known problem of a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The problem, in a sentence.
    pub text: String,
    /// The https address that reports it.
    pub source: String,
    /// The day it was read there.
    pub checked: Day,
}

/// The registry file a client installs agents from. Not [`ListedFor`], which also holds the
/// bundled mark and has no "configured by hand"; [`RegistryView::listed_for`] maps between
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RegistryView {
    /// `registry.json`: every agent of the registry.
    Acp,
    /// `registry-for-jetbrains.json`: the registry less the agents JetBrains leaves out.
    JetBrains,
    /// `registry-for-jetbrains-preview.json`: the JetBrains view, with preview versions.
    JetBrainsPreview,
    /// No registry: every agent is configured by hand.
    None,
}

impl RegistryView {
    /// All values, in display order.
    pub const ALL: [RegistryView; 4] = [
        RegistryView::Acp,
        RegistryView::JetBrains,
        RegistryView::JetBrainsPreview,
        RegistryView::None,
    ];

    /// The word in `data/clients.json`: `acp`, `jetbrains`, `jetbrains-preview`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            RegistryView::Acp => "acp",
            RegistryView::JetBrains => "jetbrains",
            RegistryView::JetBrainsPreview => "jetbrains-preview",
            RegistryView::None => "none",
        }
    }

    /// The inverse of [`RegistryView::as_str`].
    pub fn parse(word: &str) -> Option<RegistryView> {
        RegistryView::ALL.into_iter().find(|v| v.as_str() == word)
    }

    /// The file the registry publishes it as; `None` for [`RegistryView::None`].
    pub fn file(self) -> Option<&'static str> {
        match self {
            RegistryView::Acp => Some("registry.json"),
            RegistryView::JetBrains => Some("registry-for-jetbrains.json"),
            RegistryView::JetBrainsPreview => Some("registry-for-jetbrains-preview.json"),
            RegistryView::None => None,
        }
    }

    /// What people read: `the ACP registry (registry.json)`, ….
    pub fn label(self) -> &'static str {
        match self {
            RegistryView::Acp => "the ACP registry (registry.json)",
            RegistryView::JetBrains => {
                "the registry's JetBrains list (registry-for-jetbrains.json)"
            }
            RegistryView::JetBrainsPreview => {
                "the registry's JetBrains preview list (registry-for-jetbrains-preview.json)"
            }
            RegistryView::None => "no registry",
        }
    }

    /// The catalogue's facet value of the same view; `None` for [`RegistryView::None`].
    pub fn listed_for(self) -> Option<ListedFor> {
        match self {
            RegistryView::Acp => Some(ListedFor::Default),
            RegistryView::JetBrains => Some(ListedFor::JetBrains),
            RegistryView::JetBrainsPreview => Some(ListedFor::JetBrainsPreview),
            RegistryView::None => None,
        }
    }
}

/// The six facts of a profile, by their key in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClientFact {
    /// `registry`.
    Registry,
    /// `addByHand`.
    AddByHand,
    /// `distributions`.
    Distributions,
    /// `authMethods`.
    AuthMethods,
    /// `protocolVersions`.
    ProtocolVersions,
    /// `platforms`.
    Platforms,
}

impl ClientFact {
    /// The key in `data/clients.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClientFact::Registry => "registry",
            ClientFact::AddByHand => "addByHand",
            ClientFact::Distributions => "distributions",
            ClientFact::AuthMethods => "authMethods",
            ClientFact::ProtocolVersions => "protocolVersions",
            ClientFact::Platforms => "platforms",
        }
    }
}

/// The word `data/clients.json` writes for an operating system: `macos`, `linux`, `windows`.
pub fn os_word(os: Os) -> &'static str {
    match os {
        Os::Darwin => "macos",
        Os::Linux => "linux",
        Os::Windows => "windows",
    }
}

/// The inverse of [`os_word`]; exactly those words.
pub fn parse_os_word(word: &str) -> Option<Os> {
    Os::ALL.into_iter().find(|os| os_word(*os) == word)
}

/// A profile left out, or a key of the file that is not read: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileDiagnostic {
    /// The profile, or the file itself.
    pub place: Place,
    /// The field, as a path from the profile (`registry.source`, `limits[2].checked`); for
    /// the file, its key.
    pub field: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// Where a [`ProfileDiagnostic`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The file's top level.
    File,
    /// One item of `clients`.
    Client {
        /// Its 0-based index.
        index: usize,
        /// Its `id`, when it has a text one.
        id: Option<String>,
    },
}

impl fmt::Display for ProfileDiagnostic {
    /// `clients[3] (zed): `registry.source`: …`, or `clients file: `extra`: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Place::File => f.write_str("clients file")?,
            Place::Client { index, id } => {
                write!(f, "clients[{index}]")?;
                if let Some(id) = id {
                    write!(f, " ({id})")?;
                }
            }
        }
        write!(f, ": `{}`: {}", self.field, self.message)
    }
}

/// A client file that cannot be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProfilesError {
    /// The text is not JSON.
    #[error(
        "the client profiles are not valid JSON: {message} at line {line}, column {column}; \
         fix the syntax there"
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
        "the client profiles are {found}, not an object like \
         {{\"clientsFormat\": 1, \"clients\": [...]}}"
    )]
    NotAnObject {
        /// What it is instead.
        found: &'static str,
    },
    /// `clientsFormat` is missing or not 1.
    #[error(
        "the client profiles' `clientsFormat` is {found}; this reader knows format 1 only: \
         write \"clientsFormat\": 1 for a file of this shape"
    )]
    Format {
        /// What it is instead (`missing`, `2`, `"1"`).
        found: String,
    },
    /// `clients` is missing or not an array.
    #[error("the client profiles' `clients` is {found}, not an array of profiles")]
    NoClients {
        /// What it is instead.
        found: &'static str,
    },
}

/// Reads `data/clients.json`: every profile on its own, a profile with any problem left out
/// with a [`ProfileDiagnostic`] per problem, the first of two with one id kept.
pub fn parse_profiles(text: &str) -> Result<Profiles, ProfilesError> {
    let top: Value = serde_json::from_str(text).map_err(|err| {
        let (line, column) = position(text, &err);
        ProfilesError::Json {
            line,
            column,
            message: parser_message(&err),
        }
    })?;
    let Value::Object(top) = top else {
        return Err(ProfilesError::NotAnObject {
            found: describe(&top),
        });
    };
    match top.get("clientsFormat") {
        Some(format) if format.as_u64() == Some(CLIENTS_FORMAT) => {}
        Some(other) => {
            return Err(ProfilesError::Format {
                found: other.to_string(),
            });
        }
        None => {
            return Err(ProfilesError::Format {
                found: "missing".to_owned(),
            });
        }
    }
    let items = match top.get("clients") {
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(ProfilesError::NoClients {
                found: describe(other),
            });
        }
        None => return Err(ProfilesError::NoClients { found: "missing" }),
    };
    let mut profiles = Profiles::default();
    for key in top.keys() {
        if key != "clientsFormat" && key != "clients" {
            profiles.diagnostics.push(ProfileDiagnostic {
                place: Place::File,
                field: key.clone(),
                message: "unknown key, not read; the file has only `clientsFormat` and `clients`"
                    .to_owned(),
            });
        }
    }
    let mut ids = BTreeSet::new();
    for (index, item) in items.iter().enumerate() {
        let mut reader = Reader::default();
        let profile = reader.profile(item);
        if let Some(profile) = &profile
            && ids.contains(&profile.id)
        {
            reader.problem(
                "id",
                format!(
                    "`{}` is the id of an earlier profile; ids are unique: merge the two, or \
                     give this one its own id",
                    profile.id
                ),
            );
        }
        match profile {
            Some(profile) if reader.problems.is_empty() => {
                ids.insert(profile.id.clone());
                profiles.clients.push(profile);
            }
            _ => {
                let id = item.get("id").and_then(Value::as_str).map(str::to_owned);
                profiles
                    .diagnostics
                    .extend(reader.problems.into_iter().map(|(field, message)| {
                        ProfileDiagnostic {
                            place: Place::Client {
                                index,
                                id: id.clone(),
                            },
                            field,
                            message,
                        }
                    }));
            }
        }
    }
    Ok(profiles)
}

/// Reads one profile, collecting every problem as (field, message).
#[derive(Default)]
struct Reader {
    problems: Vec<(String, String)>,
}

impl Reader {
    fn problem(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.problems.push((field.into(), message.into()));
    }

    fn profile(&mut self, item: &Value) -> Option<ClientProfile> {
        let map = self.object(item, "", &FIELDS)?;
        let id = self.id(map);
        let name = self.text(map, "", "name");
        let homepage = self.link(map, "", "homepage");
        let docs = match map.get("docs") {
            None => {
                self.problem("docs", "missing; write null when there is no documentation");
                None
            }
            Some(Value::Null) => Some(None),
            Some(_) => self.link(map, "", "docs").map(Some),
        };
        let snippet = self.word(map, "", "snippet", |word| match word {
            "none" => Ok(None),
            _ => Client::ALL
                .into_iter()
                .find(|client| client.as_str() == word)
                .map(Some)
                .ok_or_else(|| {
                    "is not a snippet format; write zed, jetbrains, avante, codecompanion, \
                     agent-shell or none"
                        .to_owned()
                }),
        });
        let listed_at = self.citation(map, "listedAt");
        let registry = self.fact(map, "registry", |reader, value, at| {
            reader.one_word(value, at, |word| {
                RegistryView::parse(word).ok_or_else(|| {
                    "is not a registry view; write acp, jetbrains, jetbrains-preview or none"
                        .to_owned()
                })
            })
        });
        let add_by_hand = self.fact(map, "addByHand", |reader, value, at| match value {
            Value::Bool(flag) => Some(*flag),
            other => {
                reader.problem(at, format!("is {}, not true or false", describe(other)));
                None
            }
        });
        let distributions = self.fact(map, "distributions", |reader, value, at| {
            reader.words(value, at, true, |word| {
                Method::parse(word)
                    .ok_or_else(|| "is not a distribution; write binary, npx or uvx".to_owned())
            })
        });
        let auth_methods = self.fact(map, "authMethods", |reader, value, at| {
            reader.words(value, at, true, |word| match word {
                "agent" => Ok(AuthMethod::Agent),
                "terminal" => Ok(AuthMethod::Terminal),
                "env_var" => Err(
                    "was removed from ACP on 2026-07-27 (agents offer `agent` or \
                     `terminal` instead); write agent or terminal"
                        .to_owned(),
                ),
                _ => Err("is not a sign-in method; write agent or terminal".to_owned()),
            })
        });
        let protocol_versions = self.fact(map, "protocolVersions", |reader, value, at| {
            reader.versions(value, at)
        });
        let platforms = self.fact(map, "platforms", |reader, value, at| {
            reader.words(value, at, false, |word| {
                parse_os_word(word).ok_or_else(|| match Os::parse_loose(word) {
                    Some(os) => format!("is not how this file names it; write {}", os_word(os)),
                    None => "is not a platform; write macos, linux or windows".to_owned(),
                })
            })
        });
        let limits = self.limits(map);
        Some(ClientProfile {
            id: id?,
            name: name?,
            homepage: homepage?,
            docs: docs?,
            snippet: snippet?,
            listed_at: listed_at?,
            registry: registry?,
            add_by_hand: add_by_hand?,
            distributions: distributions?,
            auth_methods: auth_methods?,
            protocol_versions: protocol_versions?,
            platforms: platforms?,
            limits: limits?,
        })
    }

    /// The value as an object, every key outside `keys` a problem.
    fn object<'a>(
        &mut self,
        value: &'a Value,
        at: &str,
        keys: &[&str],
    ) -> Option<&'a Map<String, Value>> {
        let Value::Object(map) = value else {
            let field = if at.is_empty() { "(profile)" } else { at };
            self.problem(field, format!("is {}, not an object", describe(value)));
            return None;
        };
        for key in map.keys().filter(|key| !keys.contains(&key.as_str())) {
            self.problem(
                path(at, key),
                format!("unknown key; the keys here are {}", keys.join(", ")),
            );
        }
        Some(map)
    }

    fn id(&mut self, map: &Map<String, Value>) -> Option<String> {
        let id = self.text(map, "", "id")?;
        if !id::is_slug(&id) || id.len() > id::MAX_LEN {
            self.problem(
                "id",
                format!(
                    "`{id}` is not an id: lowercase letters, digits and `-`, starting with a \
                     letter, at most {} bytes (like `{}`)",
                    id::MAX_LEN,
                    id::slugify(&id)
                ),
            );
            return None;
        }
        Some(id)
    }

    /// A required, non-blank text.
    fn text(&mut self, map: &Map<String, Value>, at: &str, key: &str) -> Option<String> {
        let field = path(at, key);
        match map.get(key) {
            None => self.problem(field, "missing"),
            Some(Value::String(text)) if text.trim().is_empty() => self.problem(field, "is blank"),
            Some(Value::String(text)) => return Some(text.clone()),
            Some(other) => self.problem(field, format!("is {}, not a text", describe(other))),
        }
        None
    }

    /// A required https address.
    fn link(&mut self, map: &Map<String, Value>, at: &str, key: &str) -> Option<String> {
        let url = self.text(map, at, key)?;
        if url.starts_with("https://") && safe_link(&url) == Some(url.as_str()) {
            return Some(url);
        }
        self.problem(
            path(at, key),
            format!("`{url}` is not an https address; write the https:// address of the page"),
        );
        None
    }

    /// A required day, written exactly `YYYY-MM-DD`.
    fn day(&mut self, map: &Map<String, Value>, at: &str, key: &str) -> Option<Day> {
        let text = self.text(map, at, key)?;
        let day = (text.len() == 10).then(|| Day::parse(&text)).flatten();
        if day.is_none() {
            self.problem(
                path(at, key),
                format!("`{text}` is not a day written YYYY-MM-DD, like 2026-12-07"),
            );
        }
        day
    }

    /// A `{"source", "checked"}` object.
    fn citation(&mut self, map: &Map<String, Value>, key: &str) -> Option<Citation> {
        let Some(value) = map.get(key) else {
            self.problem(key, "missing: the page that names the client, and the day");
            return None;
        };
        let cited = self.object(value, key, &["source", "checked"])?;
        let source = self.link(cited, key, "source");
        let checked = self.day(cited, key, "checked");
        Some(Citation {
            source: source?,
            checked: checked?,
        })
    }

    /// One word of a closed list.
    fn word<T>(
        &mut self,
        map: &Map<String, Value>,
        at: &str,
        key: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Option<T> {
        let field = path(at, key);
        match map.get(key) {
            None => {
                self.problem(field, "missing");
                None
            }
            Some(value) => self.one_word(value, &field, parse),
        }
    }

    fn one_word<T>(
        &mut self,
        value: &Value,
        at: &str,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Option<T> {
        let Value::String(word) = value else {
            self.problem(at, format!("is {}, not a word", describe(value)));
            return None;
        };
        parse(word)
            .map_err(|message| self.problem(at, format!("`{word}` {message}")))
            .ok()
    }

    /// An array of words, each once; empty only when `may_be_empty`.
    fn words<T>(
        &mut self,
        value: &Value,
        at: &str,
        may_be_empty: bool,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Option<Vec<T>> {
        let Value::Array(items) = value else {
            self.problem(at, format!("is {}, not an array", describe(value)));
            return None;
        };
        if items.is_empty() && !may_be_empty {
            self.problem(
                at,
                "is empty; write {\"unknown\": \"why\"} when none is known",
            );
            return None;
        }
        let mut out = Vec::with_capacity(items.len());
        let mut seen = BTreeSet::new();
        let mut good = true;
        for (index, item) in items.iter().enumerate() {
            let field = format!("{at}[{index}]");
            if let Some(word) = item.as_str()
                && !seen.insert(word)
            {
                self.problem(&field, format!("`{word}` is listed twice"));
                good = false;
                continue;
            }
            match self.one_word(item, &field, &parse) {
                Some(value) => out.push(value),
                None => good = false,
            }
        }
        good.then_some(out)
    }

    /// An array of ACP protocol versions: whole numbers from 1, each once.
    fn versions(&mut self, value: &Value, at: &str) -> Option<Vec<u32>> {
        let Value::Array(items) = value else {
            self.problem(at, format!("is {}, not an array", describe(value)));
            return None;
        };
        if items.is_empty() {
            self.problem(
                at,
                "is empty; write {\"unknown\": \"why\"} when none is known",
            );
            return None;
        }
        let mut out: Vec<u32> = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let version = item
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n >= 1);
            match version {
                Some(version) if out.contains(&version) => {
                    self.problem(
                        format!("{at}[{index}]"),
                        format!("{version} is listed twice"),
                    );
                }
                Some(version) => out.push(version),
                None => self.problem(
                    format!("{at}[{index}]"),
                    format!("`{item}` is not a protocol version; write a number such as 1"),
                ),
            }
        }
        (out.len() == items.len()).then_some(out)
    }

    /// A fact: `{"value", "source", "checked"}` or `{"unknown"}`.
    fn fact<T>(
        &mut self,
        map: &Map<String, Value>,
        key: &str,
        read: impl FnOnce(&mut Reader, &Value, &str) -> Option<T>,
    ) -> Option<Fact<T>> {
        let Some(value) = map.get(key) else {
            self.problem(
                key,
                "missing; write {\"unknown\": \"why\"} when it is not known",
            );
            return None;
        };
        let Value::Object(fact) = value else {
            self.problem(key, format!("is {}, not an object", describe(value)));
            return None;
        };
        if fact.contains_key("unknown") && fact.contains_key("value") {
            self.problem(
                key,
                "has both `value` and `unknown`; keep `value` with its `source` and `checked`, \
                 or `unknown` alone",
            );
            return None;
        }
        if fact.contains_key("unknown") {
            self.object(value, key, &["unknown"])?;
            let why = self.text(fact, key, "unknown")?;
            return Some(Fact::Unknown { why });
        }
        self.object(value, key, &["value", "source", "checked"])?;
        let known = match fact.get("value") {
            None => {
                self.problem(
                    key,
                    "has neither `value` nor `unknown`; write {\"unknown\": \"why\"} when it is \
                     not known",
                );
                None
            }
            Some(inner) => read(self, inner, &path(key, "value")),
        };
        let source = self.link(fact, key, "source");
        let checked = self.day(fact, key, "checked");
        Some(Fact::Known {
            value: known?,
            source: source?,
            checked: checked?,
        })
    }

    fn limits(&mut self, map: &Map<String, Value>) -> Option<Vec<Limit>> {
        let Some(value) = map.get("limits") else {
            self.problem("limits", "missing; write [] when none is known");
            return None;
        };
        let Value::Array(items) = value else {
            self.problem("limits", format!("is {}, not an array", describe(value)));
            return None;
        };
        let mut out = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let at = format!("limits[{index}]");
            let Some(limit) = self.object(item, &at, &["text", "source", "checked"]) else {
                continue;
            };
            let text = self.text(limit, &at, "text");
            let source = self.link(limit, &at, "source");
            let checked = self.day(limit, &at, "checked");
            if let (Some(text), Some(source), Some(checked)) = (text, source, checked) {
                out.push(Limit {
                    text,
                    source,
                    checked,
                });
            }
        }
        (out.len() == items.len()).then_some(out)
    }
}

/// `at.key`, or `key` at the top of a profile.
fn path(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}
