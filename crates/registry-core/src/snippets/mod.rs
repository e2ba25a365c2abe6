//! Install, run and client-configuration snippets for an agent page.
//!
//! Everything here is a pure function of an [`Entry`]: what the page shows is exactly what
//! these functions return, and what a visitor copies must run the manifest's argv and
//! environment exactly, whatever characters they contain.
//!
//! - [`run_snippets`]: the terminal commands for one distribution method on one platform —
//!   `npx`/`uvx` one-liners, or download, verify, extract and run steps for a binary target,
//!   as POSIX `sh` for macOS and Linux and as PowerShell for Windows ([`Shell`]);
//! - [`launch_command`]: the program, arguments and environment an editor must spawn;
//! - [`client_snippets`]: that launch command written into the configuration format of each
//!   ACP client ([`Client`]), plus Zed's own registry form;
//! - [`preferred_method`]: which method's tab a visitor sees first.
//!
//! # Where binaries go
//!
//! The install steps extract a binary target into a per-agent *install folder*:
//! `$HOME/.local/share/acp-agents/<id>` on macOS and Linux, `$env:LOCALAPPDATA\acp-agents\<id>`
//! on Windows (see [`POSIX_INSTALL_ROOT`] and [`WINDOWS_INSTALL_ROOT`]). Client configuration
//! files cannot expand `$HOME`, so a launch command points into a placeholder root instead,
//! [`POSIX_PLACEHOLDER_ROOT`] or [`WINDOWS_PLACEHOLDER_ROOT`], with a [`NoteKind::FillIn`] note
//! saying what to replace it with.
//!
//! # Notes
//!
//! Every snippet carries [`Note`]s: what must be installed first ([`NoteKind::Requirement`]),
//! what the visitor has to fill in ([`NoteKind::FillIn`], e.g. an environment variable the
//! manifest leaves empty), and where a snippet cannot be exact ([`NoteKind::Caveat`], e.g.
//! Windows PowerShell 5.1 dropping empty arguments).

mod clients;
mod quote;
mod service;
mod shell;

use std::collections::BTreeMap;

use crate::invisible;
use crate::model::{
    BinaryTarget, CmdProblem, Distribution, Entry, Method, Os, PackageTarget, Platform,
};

pub use clients::{
    agent_shell_snippet, avante_snippet, codecompanion_snippet, elisp_string, jetbrains_snippet,
    json_escape_invisible, lua_string, zed_custom_snippet, zed_registry_snippet,
};
pub use quote::{posix_quote, powershell_quote};
pub use service::{ServiceSnippet, service_snippets};

/// Where the install steps put binaries on macOS and Linux (`<root>/<id>/…`), as a shell
/// expression.
pub const POSIX_INSTALL_ROOT: &str = "$HOME/.local/share/acp-agents";

/// Where the install steps put binaries on Windows (`<root>\<id>\…`), as a PowerShell
/// expression.
pub const WINDOWS_INSTALL_ROOT: &str = r"$env:LOCALAPPDATA\acp-agents";

/// The stand-in for [`POSIX_INSTALL_ROOT`] in client configuration files, which cannot expand
/// `$HOME`.
pub const POSIX_PLACEHOLDER_ROOT: &str = "/ABSOLUTE/PATH/TO/acp-agents";

/// The stand-in for [`WINDOWS_INSTALL_ROOT`] in client configuration files.
pub const WINDOWS_PLACEHOLDER_ROOT: &str = r"C:\ABSOLUTE\PATH\TO\acp-agents";

/// The shell a snippet is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shell {
    /// POSIX `sh` (bash, zsh, dash…): macOS and Linux.
    Posix,
    /// PowerShell: Windows.
    PowerShell,
}

impl Shell {
    /// The shell snippets are written in on this operating system.
    pub fn for_os(os: Os) -> Shell {
        match os {
            Os::Darwin | Os::Linux => Shell::Posix,
            Os::Windows => Shell::PowerShell,
        }
    }

    /// The code-block language: `sh` or `powershell`.
    pub fn as_str(self) -> &'static str {
        match self {
            Shell::Posix => "sh",
            Shell::PowerShell => "powershell",
        }
    }

    /// What to call it on a tab: `macOS / Linux` or `Windows (PowerShell)`.
    pub fn label(self) -> &'static str {
        match self {
            Shell::Posix => "macOS / Linux",
            Shell::PowerShell => "Windows (PowerShell)",
        }
    }
}

/// What a [`Note`] tells the visitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NoteKind {
    /// Something that must be installed first (`Node.js (npx)`).
    Requirement,
    /// Something the visitor has to fill in (an empty environment variable, a placeholder path).
    FillIn,
    /// Where the snippet cannot promise to be exact, or something worth knowing before running it.
    Caveat,
}

impl NoteKind {
    /// `requirement`, `fill-in` or `caveat`.
    pub fn as_str(self) -> &'static str {
        match self {
            NoteKind::Requirement => "requirement",
            NoteKind::FillIn => "fill-in",
            NoteKind::Caveat => "caveat",
        }
    }
}

/// One remark shown next to a snippet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Note {
    /// What kind of remark it is.
    pub kind: NoteKind,
    /// The remark, one sentence or a short phrase, plain text.
    pub text: String,
}

impl Note {
    /// A [`NoteKind::Requirement`].
    pub fn requirement(text: impl Into<String>) -> Note {
        Note {
            kind: NoteKind::Requirement,
            text: text.into(),
        }
    }

    /// A [`NoteKind::FillIn`].
    pub fn fill_in(text: impl Into<String>) -> Note {
        Note {
            kind: NoteKind::FillIn,
            text: text.into(),
        }
    }

    /// A [`NoteKind::Caveat`].
    pub fn caveat(text: impl Into<String>) -> Note {
        Note {
            kind: NoteKind::Caveat,
            text: text.into(),
        }
    }
}

/// Why the install and run steps of a binary target are not offered: they would write or run
/// something outside the agent's install folder. Its [`Display`](std::fmt::Display) is a
/// sentence to show in their place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The target's `cmd` does not name a file inside the folder the archive is unpacked in.
    #[error(
        "No commands are offered for this download: its cmd \"{cmd}\" {problem}, so running it \
         would run (and installing it could overwrite) a file outside the install folder. Tell \
         the agent's maintainers."
    )]
    Cmd {
        /// `cmd` as the manifest writes it.
        cmd: String,
        /// What is wrong with it.
        problem: CmdProblem,
    },
    /// The id cannot name the install folder ([`crate::id::is_file_name`]): `../../..` would
    /// make it the visitor's home folder.
    #[error(
        "No commands are offered for this download: the id \"{id}\" cannot name an install \
         folder (it is not a plain file name of at most {} characters), so the steps would \
         write outside it.",
        crate::id::MAX_LEN
    )]
    Id {
        /// The entry's id.
        id: String,
    },
}

/// A block of terminal commands to copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstallSnippet {
    /// What the block does: `Run`, `Install`.
    pub title: String,
    /// The shell it is written for.
    pub shell: Shell,
    /// The commands, lines separated by `\n`, without a trailing newline. It holds no raw
    /// control, bidi or invisible character: those the manifest's values hold are written as the
    /// shell's escapes (`$'\xe2\x80\xae'`, `$([char]0x202E)`), so it is both what to show and
    /// what to copy.
    pub code: String,
    /// Requirements, things to fill in and caveats, in that order. When [`Self::invisible`] is
    /// not empty, the first caveat says which characters they are and how they are written.
    pub notes: Vec<Note>,
    /// The invisible characters ([`crate::invisible`]) the manifest's values put in this
    /// snippet, each once, in order: a warning to show beside it when not empty.
    pub invisible: Vec<char>,
}

impl InstallSnippet {
    /// The text to copy: [`Self::code`], or `None` when no text can reproduce the manifest's
    /// values (a NUL character, which no process can receive), so that nothing is offered.
    pub fn copy_text(&self) -> Option<&str> {
        (!self.invisible.contains(&'\0')).then_some(self.code.as_str())
    }
}

/// The process an ACP client must spawn for an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchCommand {
    /// The program: `npx`, `npx.cmd`, `uvx`, or the absolute path of a binary target's `cmd`
    /// under a placeholder root ([`POSIX_PLACEHOLDER_ROOT`], [`WINDOWS_PLACEHOLDER_ROOT`]).
    pub command: String,
    /// Its arguments, exactly.
    pub args: Vec<String>,
    /// Environment variables to set, exactly (empty values included).
    pub env: BTreeMap<String, String>,
    /// Requirements, things to fill in and caveats, in that order.
    pub notes: Vec<Note>,
}

/// An ACP client whose configuration format [`client_snippets`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Client {
    /// Zed's `settings.json`.
    Zed,
    /// JetBrains IDEs' `~/.jetbrains/acp.json`.
    JetBrains,
    /// Neovim with avante.nvim.
    Avante,
    /// Neovim with CodeCompanion.nvim.
    CodeCompanion,
    /// Emacs with agent-shell.
    AgentShell,
}

impl Client {
    /// All clients in display order.
    pub const ALL: [Client; 5] = [
        Client::Zed,
        Client::JetBrains,
        Client::Avante,
        Client::CodeCompanion,
        Client::AgentShell,
    ];

    /// A stable word for URLs and element ids: `zed`, `jetbrains`, `avante`, `codecompanion`,
    /// `agent-shell`.
    pub fn as_str(self) -> &'static str {
        match self {
            Client::Zed => "zed",
            Client::JetBrains => "jetbrains",
            Client::Avante => "avante",
            Client::CodeCompanion => "codecompanion",
            Client::AgentShell => "agent-shell",
        }
    }

    /// The name people know it by: `Zed`, `JetBrains IDEs`, `Neovim (avante.nvim)`…
    pub fn label(self) -> &'static str {
        match self {
            Client::Zed => "Zed",
            Client::JetBrains => "JetBrains IDEs",
            Client::Avante => "Neovim (avante.nvim)",
            Client::CodeCompanion => "Neovim (CodeCompanion.nvim)",
            Client::AgentShell => "Emacs (agent-shell)",
        }
    }
}

/// A piece of client configuration to paste into a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientSnippet {
    /// The client it configures.
    pub client: Client,
    /// What the snippet does, e.g. `Zed: install from the ACP registry`.
    pub title: String,
    /// Where it goes, e.g. `~/.config/zed/settings.json`.
    pub file: String,
    /// The code-block language: `json`, `lua` or `elisp`.
    pub language: &'static str,
    /// The configuration text, without a trailing newline. Like [`InstallSnippet::code`], it
    /// holds no raw invisible character: each is written in the language's own escape syntax
    /// (`\u202e` in JSON, `\226\128\174` in Lua, `\u202E` in Emacs Lisp).
    pub code: String,
    /// Requirements, things to fill in and caveats, in that order. When [`Self::invisible`] is
    /// not empty, the first caveat says which characters they are and how they are written.
    pub notes: Vec<Note>,
    /// The invisible characters ([`crate::invisible`]) the manifest's values put in this
    /// snippet, each once, in order: a warning to show beside it when not empty.
    pub invisible: Vec<char>,
}

impl ClientSnippet {
    /// The text to copy: [`Self::code`], or `None` when no text can reproduce the manifest's
    /// values (a NUL character, which no process can receive), so that nothing is offered.
    pub fn copy_text(&self) -> Option<&str> {
        (!self.invisible.contains(&'\0')).then_some(self.code.as_str())
    }
}

/// The method whose tab a visitor sees first: the binary when there is a target for the
/// visitor's platform, else `npx`, else `uvx`, else the binary (for another platform), and
/// `None` when the distribution offers nothing.
pub fn preferred_method(dist: &Distribution, visitor: Option<Platform>) -> Option<Method> {
    if visitor.is_some_and(|p| binary_target(dist, p).is_some()) {
        Some(Method::Binary)
    } else if dist.npx.is_some() {
        Some(Method::Npx)
    } else if dist.uvx.is_some() {
        Some(Method::Uvx)
    } else if !dist.binary.is_empty() {
        Some(Method::Binary)
    } else {
        None
    }
}

/// The binary target for this platform, if the manifest has one (unknown platform keys never
/// match).
pub fn binary_target(dist: &Distribution, platform: Platform) -> Option<&BinaryTarget> {
    dist.binary
        .iter()
        .find(|(key, _)| key.platform() == Some(platform))
        .map(|(_, target)| target)
}

/// The terminal snippets for running `entry` with `method`.
///
/// - `npx` and `uvx`: one `Run` snippet per shell — POSIX for macOS/Linux, PowerShell for
///   Windows — or only the one for `platform`'s operating system when it is given.
/// - binary: for `platform`'s target, an `Install` snippet (download into the install folder,
///   verify the SHA-256 when published, extract or mark executable) and a `Run` snippet, in the
///   platform's shell. Without a platform, or without a target for it, there is nothing to run:
///   the result is empty. It is empty too when the steps would write or run something outside
///   the install folder: [`refusal`] says why.
///
/// The result is empty as well when the entry does not offer `method`.
pub fn run_snippets(
    entry: &Entry,
    method: Method,
    platform: Option<Platform>,
) -> Vec<InstallSnippet> {
    let shells = match platform {
        Some(p) => vec![Shell::for_os(p.os)],
        None => vec![Shell::Posix, Shell::PowerShell],
    };
    match method {
        Method::Npx | Method::Uvx => {
            let Some(package) = package_target(&entry.distribution, method) else {
                return Vec::new();
            };
            let argv = package_argv(method, package);
            shells
                .into_iter()
                .map(|sh| shell::package_run(sh, method, &argv, &package.env))
                .collect()
        }
        Method::Binary => {
            let Some(platform) = platform else {
                return Vec::new();
            };
            let Some(target) = binary_target(&entry.distribution, platform) else {
                return Vec::new();
            };
            shell::binary_steps(&entry.id, platform, target).unwrap_or_default()
        }
    }
}

/// Why [`run_snippets`] and [`launch_command`] offer nothing for a binary target the entry does
/// have on `platform`: its steps would write or run something outside the agent's install
/// folder. `None` when they offer the steps, and when there is no such target (another method,
/// no platform, no target for it).
///
/// ```
/// use registry_core::snippets::{Refusal, refusal};
/// use registry_core::{CmdProblem, Method, Platform, load};
///
/// let registry = r#"{"agents": [{"id": "x", "name": "X", "version": "1.0.0", "description": "",
///     "distribution": {"binary": {"linux-x86_64":
///         {"archive": "https://example.com/x", "cmd": "../../../../.bashrc"}}}}]}"#;
/// let entry = &load(registry).unwrap().registry.entries[0];
/// let linux = Platform::parse("linux-x86_64");
/// let why = refusal(entry, Method::Binary, linux).expect("refused");
/// assert!(matches!(why, Refusal::Cmd { problem: CmdProblem::Parent, .. }));
/// assert!(why.to_string().contains("outside the install folder"));
/// ```
pub fn refusal(entry: &Entry, method: Method, platform: Option<Platform>) -> Option<Refusal> {
    let target = binary_target(
        &entry.distribution,
        platform.filter(|_| method == Method::Binary)?,
    )?;
    shell::CmdPath::for_install(&entry.id, target).err()
}

/// The process an ACP client must spawn to run `entry` with `method` on `platform`.
///
/// - `npx`: `npx` (`npx.cmd` on Windows) with `["-y", package, args…]`;
/// - `uvx`: `uvx` with `[package, args…]`;
/// - binary: the target's `cmd`, made absolute under the placeholder root
///   ([`POSIX_PLACEHOLDER_ROOT`]`/<id>/…` or [`WINDOWS_PLACEHOLDER_ROOT`]`\<id>\…`), with its
///   separators normalised for the platform, and the target's args.
///
/// Without a platform, `npx` and `uvx` are written for macOS and Linux. `None` when the entry
/// does not offer `method`, or, for a binary, when there is no platform, no target for it, or
/// its steps are refused ([`refusal`]).
pub fn launch_command(
    entry: &Entry,
    method: Method,
    platform: Option<Platform>,
) -> Option<LaunchCommand> {
    let windows = platform.is_some_and(|p| p.os == Os::Windows);
    match method {
        Method::Npx | Method::Uvx => {
            let package = package_target(&entry.distribution, method)?;
            let mut argv = package_argv(method, package);
            let mut command = argv.remove(0);
            let mut notes = vec![package_requirement(method)];
            if windows && method == Method::Npx {
                command.push_str(".cmd");
                if argv.iter().any(|a| a.is_empty() || a.contains('"')) {
                    notes.push(Note::caveat(
                        "npx.cmd is a batch file: Windows cannot pass it empty arguments or \
                         arguments containing \" exactly.",
                    ));
                }
            }
            notes.extend(env_notes(&package.env));
            notes.extend(unrepresentable_notes(&argv, &package.env));
            sort_notes(&mut notes);
            Some(LaunchCommand {
                command,
                args: argv,
                env: package.env.clone(),
                notes,
            })
        }
        Method::Binary => {
            let platform = platform?;
            let target = binary_target(&entry.distribution, platform)?;
            let path = shell::CmdPath::for_install(&entry.id, target).ok()?;
            let (command, root, default_root) = if windows {
                let command = path.windows_absolute(WINDOWS_PLACEHOLDER_ROOT, &entry.id);
                (
                    command,
                    WINDOWS_PLACEHOLDER_ROOT,
                    r"%LOCALAPPDATA%\acp-agents",
                )
            } else {
                let command = path.posix_absolute(POSIX_PLACEHOLDER_ROOT, &entry.id);
                (command, POSIX_PLACEHOLDER_ROOT, "~/.local/share/acp-agents")
            };
            let mut notes = vec![Note::fill_in(format!(
                "Replace {root} with the absolute path of the install folder \
                 ({default_root} if you followed the install steps)."
            ))];
            notes.extend(env_notes(&target.env));
            notes.extend(unrepresentable_notes(&target.args, &target.env));
            sort_notes(&mut notes);
            Some(LaunchCommand {
                command,
                args: target.args.clone(),
                env: target.env.clone(),
                notes,
            })
        }
    }
}

/// Every client configuration for running `entry` with `method` on `platform`: Zed's registry
/// form first (agents only: Zed installs and updates the agent itself), then, when
/// [`launch_command`] has a command, the custom-command form for Zed, JetBrains IDEs,
/// avante.nvim, CodeCompanion.nvim and agent-shell.
pub fn client_snippets(
    entry: &Entry,
    method: Method,
    platform: Option<Platform>,
) -> Vec<ClientSnippet> {
    let mut out: Vec<ClientSnippet> = zed_registry_snippet(entry).into_iter().collect();
    if let Some(launch) = launch_command(entry, method, platform) {
        let os = platform.map(|p| p.os);
        out.push(zed_custom_snippet(entry, &launch, os));
        out.push(jetbrains_snippet(entry, &launch, os));
        out.push(avante_snippet(entry, &launch, os));
        out.push(codecompanion_snippet(entry, &launch, os));
        out.push(agent_shell_snippet(entry, &launch, os));
    }
    out
}

/// The package target of `npx` or `uvx`.
fn package_target(dist: &Distribution, method: Method) -> Option<&PackageTarget> {
    match method {
        Method::Npx => dist.npx.as_ref(),
        Method::Uvx => dist.uvx.as_ref(),
        Method::Binary => None,
    }
}

/// `["npx", "-y", package, args…]` for `npx`, `["uvx", package, args…]` for `uvx`.
fn package_argv(method: Method, package: &PackageTarget) -> Vec<String> {
    let mut argv = match method {
        Method::Npx => vec!["npx".to_owned(), "-y".to_owned()],
        _ => vec!["uvx".to_owned()],
    };
    argv.push(package.package.clone());
    argv.extend(package.args.iter().cloned());
    argv
}

/// What running `npx` or `uvx` needs installed.
fn package_requirement(method: Method) -> Note {
    Note::requirement(if method == Method::Uvx {
        "uv (uvx)"
    } else {
        "Node.js (npx)"
    })
}

/// A fill-in note per environment variable the manifest leaves empty.
fn env_notes(env: &BTreeMap<String, String>) -> Vec<Note> {
    env.iter()
        .filter(|(_, value)| value.is_empty())
        .map(|(name, _)| {
            Note::fill_in(format!(
                "Set {name} before running: the manifest leaves it empty."
            ))
        })
        .collect()
}

/// Caveats for what no process can be given: NUL characters, and variable names that are empty
/// or contain `=`.
fn unrepresentable_notes(args: &[String], env: &BTreeMap<String, String>) -> Vec<Note> {
    let mut notes = Vec::new();
    if args.iter().any(|a| a.contains('\0')) || env.values().any(|v| v.contains('\0')) {
        notes.push(Note::caveat(
            "An argument or value contains a NUL character, which no process can receive: \
             it will be cut short there.",
        ));
    }
    for name in env
        .keys()
        .filter(|n| n.is_empty() || n.contains(['=', '\0']))
    {
        notes.push(Note::caveat(format!(
            "The environment variable name {name:?} is not valid (empty, or containing = or NUL): \
             it cannot be set."
        )));
    }
    notes
}

/// How a snippet's language writes invisible characters, for the note that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Escapes {
    /// bash and zsh `$'\xHH'`.
    Posix,
    /// PowerShell `$([char]0xHHHH)`.
    PowerShell,
    /// JSON `\uXXXX`.
    Json,
    /// Lua `\ddd` bytes.
    Lua,
    /// Emacs Lisp `\uXXXX`.
    Elisp,
}

/// The warning for a snippet whose values hold invisible characters: which, how they are
/// written, and who reads the escapes back; `None` when there are none.
pub(crate) fn invisible_note(chars: &[char], escapes: Escapes) -> Option<Note> {
    let &first = chars.first()?;
    let one = first.to_string();
    let (example, reader) = match escapes {
        Escapes::Posix => (
            quote::posix_quote(&one),
            "bash and zsh read them back as exactly those characters (dash and other plain sh \
             do not)",
        ),
        Escapes::PowerShell => (
            quote::powershell_literal(&one),
            "PowerShell reads them back as exactly those characters",
        ),
        Escapes::Json => (
            clients::json_escape_invisible(&serde_json::Value::String(one).to_string()),
            "the editor reads them back as exactly those characters",
        ),
        Escapes::Lua => (
            clients::lua_string(&one),
            "Neovim reads them back as exactly those characters",
        ),
        Escapes::Elisp => (
            clients::elisp_string(&one),
            "Emacs reads them back as exactly those characters",
        ),
    };
    Some(Note::caveat(format!(
        "The manifest's values hold characters you cannot see: {}. They are written as escapes \
         ({} is {example}), so what you copy is what you see; {reader}. Make sure you expect them.",
        invisible::names(chars),
        format_args!("U+{:04X}", u32::from(first)),
    )))
}

/// Orders notes as documented: requirements, then fill-ins, then caveats (stable within each).
fn sort_notes(notes: &mut [Note]) {
    notes.sort_by_key(|n| n.kind);
}
