//! The published registry format: `{version, agents[], extensions[]}`.
//!
//! Entries are deserialized from the published shape only; the RFD's manifest shape is
//! normalised into it by [`crate::load()`]. Every entry keeps the exact JSON text it was read
//! from ([`Entry::raw`]), so fields this model does not know (for example `preview`) are never
//! lost: the raw view shows them and [`Entry::unknown_fields`] lists them.
//!
//! An entry may also come from an [AgentRegistry](crate::agentregistry) discovery listing: the
//! same [`Entry`], with the service's own record in its [`Origin`] (see
//! [`ServiceAgent::into_entry`] for how its fields map).
//!
//! `Platform::ALL` is the one list of the registry's six platforms (`Platform::KEYS` their manifest
//! keys); `Platform::parse_loose` reads a near miss such as `macos-arm64`, and
//! `Platform::looks_like` says whether a `distribution.binary` key was meant as a platform, so the
//! loader and the validator read platform keys alike. `cmd_problem` says why a binary target's
//! `cmd` would leave the folder its archive is unpacked in (absolute, a drive letter, `..`): the
//! validator rejects such a target and the snippets give it no command.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::Deserialize;

use crate::agentregistry::ServiceAgent;
use crate::id;

/// A loaded registry: every entry that could be read, agents and extensions alike.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Registry {
    /// The `version` of the registry format, when present (`"1.0.0"` today).
    pub version: Option<String>,
    /// Agents first, then extensions, each in the order of the file.
    pub entries: Vec<Entry>,
}

impl Registry {
    /// The entry with this kind and id.
    pub fn find(&self, kind: Kind, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.kind == kind && e.id == id)
    }
}

/// Whether an entry is listed under `agents` or `extensions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An ACP agent (`agents[]`).
    Agent,
    /// An ACP extension (`extensions[]`).
    Extension,
}

impl Kind {
    /// Both kinds, in display order.
    pub const ALL: [Kind; 2] = [Kind::Agent, Kind::Extension];

    /// The URL and query-string word: `agent` or `extension`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Agent => "agent",
            Kind::Extension => "extension",
        }
    }

    /// The path segment of this kind's pages: `agents` or `extensions`.
    pub fn path_segment(self) -> &'static str {
        match self {
            Kind::Agent => "agents",
            Kind::Extension => "extensions",
        }
    }

    /// What people read: `Agent` or `Extension`.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Agent => "Agent",
            Kind::Extension => "Extension",
        }
    }

    /// The inverse of [`Kind::as_str`].
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// The top-level fields of a published entry, as the registry's format has them
/// (`agent.schema.json`, `FORMAT.md`).
pub const FIELDS: [&str; 11] = [
    "id",
    "name",
    "version",
    "description",
    "repository",
    "website",
    "authors",
    "license",
    "license_url",
    "icon",
    "distribution",
];

/// One agent or extension of the registry.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Listed under `agents` or `extensions`.
    pub kind: Kind,
    /// Unique in the registry; a lowercase slug when the registry follows its own rules (see
    /// [`Entry::has_slug_id`] and [`crate::id`] for what an id that is not one may be used for).
    pub id: String,
    /// Human-readable name.
    pub name: String,
    /// The release shown to users.
    pub version: String,
    /// What the agent does.
    pub description: String,
    /// Source repository URL, as written (not checked: see [`crate::url::safe_link`]).
    pub repository: Option<String>,
    /// Website URL, as written.
    pub website: Option<String>,
    /// Authors or organisations; empty when the manifest names none.
    pub authors: Vec<String>,
    /// Licence exactly as the manifest says it (see [`crate::license`] for the facet value).
    pub license: Option<String>,
    /// Link to the licence text.
    pub license_url: Option<String>,
    /// Icon URL as published; relative URLs resolve against the registry's URL.
    pub icon: Option<String>,
    /// How to run it.
    pub distribution: Distribution,
    /// The entry's JSON text exactly as it appeared in the registry.
    pub raw: String,
    /// Which source the entry comes from, with what only that source has.
    pub origin: Origin,
}

/// The source an [`Entry`] comes from: the catalogue shows both through the same model, and
/// branches on this where they differ (the page body, the facet groups, the fields it knows).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Origin {
    /// An entry of an ACP registry (`registry.json`): its manifest is [`Entry::raw`].
    #[default]
    Acp,
    /// An agent of an AgentRegistry discovery service, with the service's own record
    /// (endpoints, capabilities, labels, liveness), adapted by
    /// [`ServiceAgent::into_entry`](crate::agentregistry::ServiceAgent::into_entry).
    AgentRegistry(Arc<ServiceAgent>),
}

impl Entry {
    /// The AgentRegistry record the entry was adapted from; `None` for an ACP registry entry.
    pub fn service(&self) -> Option<&Arc<ServiceAgent>> {
        match &self.origin {
            Origin::Acp => None,
            Origin::AgentRegistry(agent) => Some(agent),
        }
    }

    /// Whether the entry comes from an ACP registry.
    pub fn is_acp(&self) -> bool {
        matches!(self.origin, Origin::Acp)
    }

    /// Top-level fields of the raw entry that this model does not know, in file order.
    pub fn unknown_fields(&self) -> Vec<String> {
        let known = |key: &str| match self.origin {
            Origin::AgentRegistry(_) => crate::agentregistry::KNOWN_FIELDS.contains(&key),
            // `$schema` points an editor at the schema; it is not data.
            Origin::Acp => FIELDS.contains(&key) || key == "$schema",
        };
        match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&self.raw) {
            Ok(map) => map.keys().filter(|k| !known(k)).cloned().collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Author names without their e-mail addresses (`"Jane <jane@x.org>"` → `"Jane"`).
    pub fn author_names(&self) -> impl Iterator<Item = &str> {
        self.authors
            .iter()
            .map(|a| author_name(a))
            .filter(|a| !a.is_empty())
    }

    /// The site path of this entry's page, without the base path: `/agents/<id>`, the id
    /// percent-encoded as one segment ([`id::path_segment`]), so that an id such as `a/b` or
    /// `x?q=1` names its own page and no other. For the ids no segment can carry (`""`, `.`,
    /// `..`, which the loader refuses), the kind's folder: `/agents/`.
    pub fn path(&self) -> String {
        let segment = id::path_segment(&self.id).unwrap_or_default();
        format!("/{}/{segment}", self.kind.path_segment())
    }

    /// Whether the id follows the registry's rule ([`id::is_slug`]). An entry whose id does not
    /// is not from the registry's repository as its CI builds it: it has no manifest there to
    /// link to ([`Entry::manifest_path`] is `None`), and its page address is encoded.
    pub fn has_slug_id(&self) -> bool {
        id::is_slug(&self.id)
    }

    /// Where the entry's manifest is in the registry repository: `<id>/agent.json` or
    /// `<id>/extension.json`; `None` when the id is not a slug (no folder of the repository can
    /// have that name, and the path would point elsewhere) or the entry comes from an
    /// AgentRegistry service.
    pub fn manifest_path(&self) -> Option<String> {
        if !self.has_slug_id() || !self.is_acp() {
            return None;
        }
        let file = match self.kind {
            Kind::Agent => "agent.json",
            Kind::Extension => "extension.json",
        };
        Some(format!("{}/{file}", self.id))
    }
}

/// An author string without a trailing `<e-mail>` part, trimmed.
pub fn author_name(author: &str) -> &str {
    match author.find('<') {
        Some(at) if author.trim_end().ends_with('>') && at > 0 => author[..at].trim(),
        _ => author.trim(),
    }
}

/// How an entry can be run: any of per-platform binaries, an npm package, a PyPI package.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Distribution {
    /// Archives per platform, keyed by the manifest's `<os>-<arch>` key.
    #[serde(default)]
    pub binary: BTreeMap<PlatformKey, BinaryTarget>,
    /// Run with `npx`.
    #[serde(default)]
    pub npx: Option<PackageTarget>,
    /// Run with `uvx`.
    #[serde(default)]
    pub uvx: Option<PackageTarget>,
}

impl Distribution {
    /// The methods this distribution offers, in display order.
    pub fn methods(&self) -> Vec<Method> {
        let mut out = Vec::with_capacity(3);
        if !self.binary.is_empty() {
            out.push(Method::Binary);
        }
        if self.npx.is_some() {
            out.push(Method::Npx);
        }
        if self.uvx.is_some() {
            out.push(Method::Uvx);
        }
        out
    }

    /// Whether the entry runs on every platform: a package manager (npx, uvx) does.
    pub fn runs_everywhere(&self) -> bool {
        self.npx.is_some() || self.uvx.is_some()
    }

    /// The known platforms of the binary targets (unknown keys are skipped).
    pub fn binary_platforms(&self) -> impl Iterator<Item = Platform> + '_ {
        self.binary.keys().filter_map(PlatformKey::platform)
    }

    /// Whether the entry runs on this operating system: a package manager runs everywhere,
    /// a binary only where a target for that OS exists.
    pub fn runs_on_os(&self, os: Os) -> bool {
        self.runs_everywhere() || self.binary_platforms().any(|p| p.os == os)
    }

    /// Whether the entry runs on this CPU architecture (same rule as [`Self::runs_on_os`]).
    pub fn runs_on_arch(&self, arch: Arch) -> bool {
        self.runs_everywhere() || self.binary_platforms().any(|p| p.arch == arch)
    }
}

/// A distribution method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    /// Per-platform archives (`distribution.binary`).
    Binary,
    /// An npm package run with `npx`.
    Npx,
    /// A PyPI package run with `uvx`.
    Uvx,
}

impl Method {
    /// All methods in display order.
    pub const ALL: [Method; 3] = [Method::Binary, Method::Npx, Method::Uvx];

    /// The manifest key and URL word: `binary`, `npx`, `uvx`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Binary => "binary",
            Method::Npx => "npx",
            Method::Uvx => "uvx",
        }
    }

    /// What people read in a list of methods: `Binary download`, `npx (Node.js)`,
    /// `uvx (Python)`.
    pub fn label(self) -> &'static str {
        match self {
            Method::Binary => "Binary download",
            Method::Npx => "npx (Node.js)",
            Method::Uvx => "uvx (Python)",
        }
    }

    /// The inverse of [`Method::as_str`].
    pub fn parse(s: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// A `distribution.binary` key as written (`darwin-aarch64`); unknown keys are kept as is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(transparent)]
pub struct PlatformKey(pub String);

impl PlatformKey {
    /// The platform this key names, if it is one the registry knows.
    pub fn platform(&self) -> Option<Platform> {
        Platform::parse(&self.0)
    }
}

impl fmt::Display for PlatformKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One of the six `<os>-<arch>` platforms of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Platform {
    /// Operating system.
    pub os: Os,
    /// CPU architecture.
    pub arch: Arch,
}

impl Platform {
    /// The registry's six platforms, by OS then architecture: the one list of them.
    pub const ALL: [Platform; 6] = [
        Platform::new(Os::Darwin, Arch::Aarch64),
        Platform::new(Os::Darwin, Arch::X86_64),
        Platform::new(Os::Linux, Arch::Aarch64),
        Platform::new(Os::Linux, Arch::X86_64),
        Platform::new(Os::Windows, Arch::Aarch64),
        Platform::new(Os::Windows, Arch::X86_64),
    ];

    /// The manifest keys of [`Platform::ALL`], in the same order.
    pub const KEYS: [&'static str; 6] = {
        let mut keys = [""; 6];
        let mut i = 0;
        while i < keys.len() {
            keys[i] = Platform::ALL[i].as_str();
            i += 1;
        }
        keys
    };

    const fn new(os: Os, arch: Arch) -> Platform {
        Platform { os, arch }
    }

    /// Parses `darwin-aarch64` and friends.
    pub fn parse(key: &str) -> Option<Platform> {
        let (os, arch) = key.split_once('-')?;
        Some(Platform {
            os: Os::parse(os)?,
            arch: Arch::parse(arch)?,
        })
    }

    /// The platform a near miss such as `macos-arm64` or `Linux-x64` means, with the names
    /// people also use for each OS and architecture ([`Os::parse_loose`],
    /// [`Arch::parse_loose`]).
    pub fn parse_loose(key: &str) -> Option<Platform> {
        let (os, arch) = key.split_once('-')?;
        Some(Platform {
            os: Os::parse_loose(os)?,
            arch: Arch::parse_loose(arch)?,
        })
    }

    /// Whether a `distribution.binary` key was meant as a platform: one of the six, or a known
    /// OS or architecture (by any of its names) on either side of the first `-`
    /// (`linux-riscv64`, `freebsd-x64`). Such a key is an unknown platform, not another field.
    pub fn looks_like(key: &str) -> bool {
        Platform::parse(key).is_some()
            || key.split_once('-').is_some_and(|(os, arch)| {
                Os::parse_loose(os).is_some() || Arch::parse_loose(arch).is_some()
            })
    }

    /// The manifest key: `darwin-aarch64`.
    pub const fn as_str(self) -> &'static str {
        match (self.os, self.arch) {
            (Os::Darwin, Arch::Aarch64) => "darwin-aarch64",
            (Os::Darwin, Arch::X86_64) => "darwin-x86_64",
            (Os::Linux, Arch::Aarch64) => "linux-aarch64",
            (Os::Linux, Arch::X86_64) => "linux-x86_64",
            (Os::Windows, Arch::Aarch64) => "windows-aarch64",
            (Os::Windows, Arch::X86_64) => "windows-x86_64",
        }
    }

    /// The manifest key as an owned string.
    pub fn key(self) -> String {
        self.as_str().to_owned()
    }

    /// What people read: `macOS · ARM64`.
    pub fn label(self) -> String {
        format!("{} · {}", self.os.label(), self.arch.label())
    }
}

/// Operating-system family of a binary target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Os {
    /// macOS (`darwin`).
    Darwin,
    /// Linux.
    Linux,
    /// Windows.
    Windows,
}

impl Os {
    /// All operating systems in display order.
    pub const ALL: [Os; 3] = [Os::Darwin, Os::Linux, Os::Windows];

    /// The manifest and URL word: `darwin`, `linux`, `windows`.
    pub fn as_str(self) -> &'static str {
        match self {
            Os::Darwin => "darwin",
            Os::Linux => "linux",
            Os::Windows => "windows",
        }
    }

    /// The name people use: `macOS`, `Linux`, `Windows`.
    pub fn label(self) -> &'static str {
        match self {
            Os::Darwin => "macOS",
            Os::Linux => "Linux",
            Os::Windows => "Windows",
        }
    }

    /// The inverse of [`Os::as_str`].
    pub fn parse(s: &str) -> Option<Os> {
        Os::ALL.into_iter().find(|o| o.as_str() == s)
    }

    /// The OS a word names, whatever the case, with the other names people use: `macos`,
    /// `mac`, `osx`, `apple`; `win`, `win32`, `win64`.
    pub fn parse_loose(s: &str) -> Option<Os> {
        match s.to_ascii_lowercase().as_str() {
            "darwin" | "macos" | "mac" | "osx" | "apple" => Some(Os::Darwin),
            "linux" => Some(Os::Linux),
            "windows" | "win" | "win32" | "win64" => Some(Os::Windows),
            _ => None,
        }
    }
}

/// CPU architecture of a binary target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arch {
    /// 64-bit ARM.
    Aarch64,
    /// 64-bit x86.
    X86_64,
}

impl Arch {
    /// All architectures in display order.
    pub const ALL: [Arch; 2] = [Arch::Aarch64, Arch::X86_64];

    /// The manifest and URL word: `aarch64`, `x86_64`.
    pub fn as_str(self) -> &'static str {
        match self {
            Arch::Aarch64 => "aarch64",
            Arch::X86_64 => "x86_64",
        }
    }

    /// The name people use: `ARM64`, `x86-64`.
    pub fn label(self) -> &'static str {
        match self {
            Arch::Aarch64 => "ARM64",
            Arch::X86_64 => "x86-64",
        }
    }

    /// The inverse of [`Arch::as_str`].
    pub fn parse(s: &str) -> Option<Arch> {
        Arch::ALL.into_iter().find(|a| a.as_str() == s)
    }

    /// The architecture a word names, whatever the case, with the other names people use:
    /// `arm64`; `x64`, `amd64`, `x86-64`.
    pub fn parse_loose(s: &str) -> Option<Arch> {
        match s.to_ascii_lowercase().as_str() {
            "aarch64" | "arm64" => Some(Arch::Aarch64),
            "x86_64" | "x64" | "amd64" | "x86-64" => Some(Arch::X86_64),
            _ => None,
        }
    }
}

/// One platform's archive in `distribution.binary`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct BinaryTarget {
    /// Download URL of the archive (or raw binary).
    pub archive: String,
    /// Path of the executable inside the archive, e.g. `./bin/tool`.
    pub cmd: String,
    /// Arguments to pass.
    #[serde(default)]
    pub args: Vec<String>,
    /// Environment variables to set.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// SHA-256 of the archive, when published.
    #[serde(default)]
    pub sha256: Option<String>,
}

impl BinaryTarget {
    /// Why `cmd` does not name a file inside the folder the archive is unpacked in, if it does
    /// not (see [`cmd_problem`]).
    pub fn cmd_problem(&self) -> Option<CmdProblem> {
        cmd_problem(&self.cmd)
    }
}

/// Why a binary target's `cmd` does not name a file inside the folder its archive is unpacked
/// in: running it would run (and the install steps of a raw download would write) something
/// else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum CmdProblem {
    /// Empty, or only `.` and separators: no file.
    #[error("names no file")]
    Empty,
    /// Starts with `/` or `\` (a UNC path `\\server\share` included).
    #[error("is an absolute path")]
    Absolute,
    /// Starts with a drive letter (`C:\…`, or `C:tool.exe`, relative to that drive's current
    /// folder).
    #[error("starts with a drive letter")]
    Drive,
    /// Has a `..` segment (or one Windows reads as `..`, such as `.. ` or `...`).
    #[error("climbs out of the folder with `..`")]
    Parent,
}

/// Why `cmd` does not name a file inside the folder it is read from, if it does not: both `/`
/// and `\` are read as separators (Windows reads both; on macOS and Linux a `\` is a plain
/// character, which the validator refuses on its own).
///
/// ```
/// use registry_core::model::{CmdProblem, cmd_problem};
/// assert_eq!(cmd_problem("./bin/agent"), None);
/// assert_eq!(cmd_problem(r"pulumi\bin\pulumi.exe"), None);
/// assert_eq!(cmd_problem("../../../../.bashrc"), Some(CmdProblem::Parent));
/// assert_eq!(cmd_problem("/usr/bin/agent"), Some(CmdProblem::Absolute));
/// ```
pub fn cmd_problem(cmd: &str) -> Option<CmdProblem> {
    let unified = cmd.replace('\\', "/");
    if unified.starts_with('/') {
        return Some(CmdProblem::Absolute);
    }
    if let [drive, b':', ..] = unified.as_bytes()
        && drive.is_ascii_alphabetic()
    {
        return Some(CmdProblem::Drive);
    }
    let mut names = 0;
    for segment in unified.split('/') {
        let dots_and_spaces = segment.chars().all(|c| c == '.' || c == ' ');
        if dots_and_spaces && segment.contains("..") {
            return Some(CmdProblem::Parent);
        }
        if !dots_and_spaces {
            names += 1;
        }
    }
    (names == 0).then_some(CmdProblem::Empty)
}

/// An `npx` or `uvx` package.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct PackageTarget {
    /// Package spec, usually with its version (`@scope/name@1.2.3`, `name==1.2.3`).
    pub package: String,
    /// Arguments to pass.
    #[serde(default)]
    pub args: Vec<String>,
    /// Environment variables to set.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn author_names_drop_addresses() {
        for (input, expected) in [
            ("WCHungBlake <mars7823482@gmail.com>", "WCHungBlake"),
            ("Anthropic", "Anthropic"),
            ("  Zed Industries ", "Zed Industries"),
            ("<only@address>", "<only@address>"),
            ("a < b", "a < b"),
        ] {
            assert_eq!(author_name(input), expected, "{input:?}");
        }
    }

    #[test]
    fn cmds_stay_in_their_folder() {
        let table = [
            ("./agent", None),
            ("agent", None),
            ("./bin/agent", None),
            (r"./bin\devin.exe", None),
            (r"pulumi\bin\pulumi.exe", None),
            ("./dist-package/cursor-agent.cmd", None),
            ("bin//./agent", None),
            ("a..b", None),
            ("..agent", None),
            ("", Some(CmdProblem::Empty)),
            (".", Some(CmdProblem::Empty)),
            ("./", Some(CmdProblem::Empty)),
            (" ", Some(CmdProblem::Empty)),
            ("/usr/bin/agent", Some(CmdProblem::Absolute)),
            (r"\Windows\agent.exe", Some(CmdProblem::Absolute)),
            (r"\\server\share\agent.exe", Some(CmdProblem::Absolute)),
            (r"C:\Tools\agent.exe", Some(CmdProblem::Drive)),
            ("c:/agent", Some(CmdProblem::Drive)),
            ("C:agent.exe", Some(CmdProblem::Drive)),
            ("../../../../.bashrc", Some(CmdProblem::Parent)),
            ("bin/../../x", Some(CmdProblem::Parent)),
            (r"bin\..\..\x", Some(CmdProblem::Parent)),
            ("..", Some(CmdProblem::Parent)),
            (r".. \x.exe", Some(CmdProblem::Parent)),
            (r"...\x.exe", Some(CmdProblem::Parent)),
        ];
        for (cmd, expected) in table {
            assert_eq!(cmd_problem(cmd), expected, "{cmd:?}");
        }
    }

    #[test]
    fn platforms_parse_only_the_registry_keys() {
        assert_eq!(
            Platform::parse("darwin-aarch64"),
            Some(Platform {
                os: Os::Darwin,
                arch: Arch::Aarch64
            })
        );
        assert_eq!(
            Platform::parse("windows-x86_64")
                .map(Platform::key)
                .as_deref(),
            Some("windows-x86_64")
        );
        for bad in ["darwin", "macos-aarch64", "linux-arm64", "", "-"] {
            assert_eq!(Platform::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn every_platform_once_with_its_label() {
        let all: Vec<(String, String)> = Platform::ALL.map(|p| (p.key(), p.label())).into();
        assert_eq!(
            all,
            [
                ("darwin-aarch64", "macOS · ARM64"),
                ("darwin-x86_64", "macOS · x86-64"),
                ("linux-aarch64", "Linux · ARM64"),
                ("linux-x86_64", "Linux · x86-64"),
                ("windows-aarch64", "Windows · ARM64"),
                ("windows-x86_64", "Windows · x86-64"),
            ]
            .map(|(k, l)| (k.to_owned(), l.to_owned()))
        );
        assert_eq!(Platform::KEYS, Platform::ALL.map(Platform::as_str));
        for platform in Platform::ALL {
            assert_eq!(Platform::parse(platform.as_str()), Some(platform));
        }
    }

    #[test]
    fn near_misses_name_their_platform() {
        let table = [
            ("darwin-aarch64", Some("darwin-aarch64")),
            ("macos-arm64", Some("darwin-aarch64")),
            ("MacOS-x64", Some("darwin-x86_64")),
            ("osx-amd64", Some("darwin-x86_64")),
            ("Linux-ARM64", Some("linux-aarch64")),
            ("win64-x86-64", Some("windows-x86_64")),
            ("win-aarch64", Some("windows-aarch64")),
            ("linux-riscv64", None),
            ("freebsd-x64", None),
            ("linux", None),
            ("", None),
        ];
        for (key, expected) in table {
            assert_eq!(
                Platform::parse_loose(key).map(Platform::as_str),
                expected,
                "{key}"
            );
        }
        // A near miss on one side is still meant as a platform: an unknown one.
        for (key, meant) in [
            ("linux-riscv64", true),
            ("freebsd-x64", true),
            ("macos-aarch64", true),
            ("docker-image", false),
            ("binary", false),
            ("linux", false),
        ] {
            assert_eq!(Platform::looks_like(key), meant, "{key}");
        }
    }
}
