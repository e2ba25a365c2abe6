//! Terminal snippets: the `Run` line of a package (`npx`, `uvx`), and the download, verify,
//! extract and run steps of a binary target, in POSIX `sh` and PowerShell, written with the
//! quoting of [`super::quote`].
//!
//! The steps never write or run anything outside the agent's install folder: a binary target's
//! `cmd` must stay inside it ([`CmdPath`]), and the download is saved under its URL's file name
//! only when that name needs no care anywhere, else as `archive.<ext>`.

use std::borrow::Cow;
use std::collections::BTreeMap;

use percent_encoding::percent_decode_str;

use super::quote::{
    is_posix_plain, posix_command, posix_quote, powershell_command, powershell_literal,
};
use super::{
    Escapes, InstallSnippet, Note, POSIX_INSTALL_ROOT, Refusal, Shell, WINDOWS_INSTALL_ROOT,
    env_notes, invisible_note, package_requirement, sort_notes, unrepresentable_notes,
};
use crate::model::{BinaryTarget, Method, Os, Platform};
use crate::{id, invisible};

/// The caveat for arguments old PowerShell cannot pass exactly, when any is empty or holds `"`.
fn powershell_argument_caveat(args: &[String]) -> Option<Note> {
    args.iter()
        .any(|a| a.is_empty() || a.contains('"'))
        .then(|| {
            Note::caveat(
                "Some arguments are empty or contain \": only PowerShell 7.3 or later, with \
             $PSNativeCommandArgumentPassing = 'Standard', passes them exactly. Windows PowerShell \
             5.1 and .cmd shims such as npx.cmd drop or split them.",
            )
        })
}

/// The `Run` snippet of an `npx` or `uvx` package: `argv` is `[npx|uvx, …]`.
pub(super) fn package_run(
    shell: Shell,
    method: Method,
    argv: &[String],
    env: &BTreeMap<String, String>,
) -> InstallSnippet {
    let (program, args) = argv.split_first().expect("argv starts with npx or uvx");
    let invisible = invisible::collect(
        argv.iter()
            .chain(env.keys())
            .chain(env.values())
            .map(String::as_str),
    );
    let mut notes = vec![package_requirement(method)];
    notes.extend(invisible_note(&invisible, escapes(shell)));
    notes.extend(env_notes(env));
    notes.extend(unrepresentable_notes(args, env));
    let code = match shell {
        Shell::Posix => posix_command(env, program, args),
        Shell::PowerShell => {
            notes.extend(powershell_argument_caveat(args));
            if method == Method::Npx {
                notes.push(Note::caveat(
                    "If PowerShell refuses to load npx.ps1 because running scripts is disabled, \
                     type npx.cmd instead of npx.",
                ));
            }
            powershell_command(env, program, args)
        }
    };
    sort_notes(&mut notes);
    InstallSnippet {
        title: "Run".to_owned(),
        shell,
        code,
        notes,
        invisible,
    }
}

/// How `shell` writes invisible characters.
fn escapes(shell: Shell) -> Escapes {
    match shell {
        Shell::Posix => Escapes::Posix,
        Shell::PowerShell => Escapes::PowerShell,
    }
}

/// The `Install` and `Run` snippets of a binary target, in `platform`'s shell; the
/// [`Refusal`] when they would write or run something outside the agent's install folder.
pub(super) fn binary_steps(
    id: &str,
    platform: Platform,
    target: &BinaryTarget,
) -> Result<Vec<InstallSnippet>, Refusal> {
    let cmd = CmdPath::for_install(id, target)?;
    let download = Download::new(&target.archive, &cmd, target.sha256.is_some());
    let shell = Shell::for_os(platform.os);
    let (install, run) = match shell {
        Shell::Posix => (
            posix_install(id, platform.os, target, &download, &cmd),
            posix_command(&target.env, &cmd.posix_run(id), &target.args),
        ),
        Shell::PowerShell => (
            powershell_install(id, target, &download, &cmd),
            powershell_command(&target.env, &cmd.powershell_run(id), &target.args),
        ),
    };

    let install_invisible = invisible::collect(
        [target.archive.as_str(), &target.cmd]
            .into_iter()
            .chain(target.sha256.as_deref()),
    );
    let mut install_notes = download.requirements(shell);
    install_notes.extend(invisible_note(&install_invisible, escapes(shell)));
    install_notes.extend(checksum_notes(target.sha256.as_deref()));
    sort_notes(&mut install_notes);

    let run_invisible = invisible::collect(
        std::iter::once(&target.cmd)
            .chain(&target.args)
            .chain(target.env.keys())
            .chain(target.env.values())
            .map(String::as_str),
    );
    let mut run_notes = invisible_note(&run_invisible, escapes(shell))
        .into_iter()
        .collect::<Vec<_>>();
    run_notes.extend(env_notes(&target.env));
    run_notes.extend(unrepresentable_notes(&target.args, &target.env));
    if shell == Shell::PowerShell {
        run_notes.extend(powershell_argument_caveat(&target.args));
    }
    sort_notes(&mut run_notes);

    Ok(vec![
        InstallSnippet {
            title: "Install".to_owned(),
            shell,
            code: install,
            notes: install_notes,
            invisible: install_invisible,
        },
        InstallSnippet {
            title: "Run".to_owned(),
            shell,
            code: run,
            notes: run_notes,
            invisible: run_invisible,
        },
    ])
}

/// Caveats about the published checksum: missing, or not a SHA-256 hex digest.
fn checksum_notes(sha256: Option<&str>) -> Option<Note> {
    match sha256 {
        None => Some(Note::caveat(
            "The manifest publishes no SHA-256 for this download, so it is not verified.",
        )),
        Some(sha) if sha.len() != 64 || !sha.chars().all(|c| c.is_ascii_hexdigit()) => {
            Some(Note::caveat(
                "The manifest's sha256 is not 64 hexadecimal digits, so the check will fail: \
             tell the agent's maintainers.",
            ))
        }
        Some(_) => None,
    }
}

/// POSIX: create the install folder, download, verify, extract (or mark executable).
fn posix_install(
    id: &str,
    os: Os,
    target: &BinaryTarget,
    download: &Download,
    cmd: &CmdPath,
) -> String {
    let mut steps = vec![r#"mkdir -p "$dir" && cd "$dir""#.to_owned()];
    if download.kind == ArchiveKind::Raw
        && let Some(parent) = cmd.posix_parent()
    {
        steps.push(format!("mkdir -p {}", posix_quote(&parent)));
    }
    let fetched = download.fetched();
    steps.push(format!(
        "curl -fL -o {} {}",
        posix_quote(&fetched),
        posix_quote(&target.archive)
    ));
    if let Some(sha) = &target.sha256 {
        let line = posix_quote(&format!("{sha}  {fetched}"));
        steps.push(match os {
            Os::Darwin => format!("echo {line} | shasum -a 256 -c"),
            _ => format!("echo {line} | sha256sum -c -"),
        });
    }
    let file = posix_quote(&download.file);
    match download.kind.tar_flags() {
        Some(flags) => steps.push(format!("tar {flags} {file}")),
        None if download.kind == ArchiveKind::Zip => steps.push(format!("unzip -o {file}")),
        None => {}
    }
    if download.kind == ArchiveKind::Raw {
        steps.push(format!("chmod +x {}", posix_quote(&fetched)));
    } else if download.kind == ArchiveKind::Zip {
        steps.push(format!("chmod +x {}", posix_quote(&cmd.posix_relative())));
    }
    if download.staged {
        steps.push(format!(
            "mv -f {} {}",
            posix_quote(&fetched),
            posix_quote(&download.file)
        ));
    }

    let mut code =
        String::from("# The install folder: change it here and in the run command if you like.\n");
    code.push_str(&format!(
        "dir={}\n",
        posix_home_path(&format!("{}/{id}", install_root_relative()))
    ));
    let last = steps.len() - 1;
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            code.push_str("  ");
        }
        code.push_str(step);
        code.push_str(if i == last { "" } else { " &&\n" });
    }
    code
}

/// PowerShell: the same steps in one script block, so that a failed check stops the rest.
fn powershell_install(
    id: &str,
    target: &BinaryTarget,
    download: &Download,
    cmd: &CmdPath,
) -> String {
    let file = powershell_literal(&download.file.replace('/', "\\"));
    let fetched = powershell_literal(&download.fetched().replace('/', "\\"));
    let mut lines = vec![
        "$ErrorActionPreference = 'Stop'".to_owned(),
        "$ProgressPreference = 'SilentlyContinue'".to_owned(),
        "# The install folder: change it here and in the run command if you like.".to_owned(),
        format!(
            "$dir = Join-Path $env:LOCALAPPDATA {}",
            powershell_literal(&format!("acp-agents\\{id}"))
        ),
        "New-Item -ItemType Directory -Force -Path $dir | Out-Null".to_owned(),
        "Set-Location -LiteralPath $dir".to_owned(),
    ];
    if download.kind == ArchiveKind::Raw
        && let Some(parent) = cmd.windows_parent()
    {
        lines.push(format!(
            "New-Item -ItemType Directory -Force -Path {} | Out-Null",
            powershell_literal(&parent)
        ));
    }
    lines.push(format!(
        "Invoke-WebRequest -UseBasicParsing -Uri {} -OutFile {fetched}",
        powershell_literal(&target.archive)
    ));
    if let Some(sha) = &target.sha256 {
        lines.push(format!(
            "if ((Get-FileHash -Algorithm SHA256 -LiteralPath {fetched}).Hash -ne {}) {{ throw {} }}",
            powershell_literal(sha),
            powershell_literal(&format!(
                "SHA-256 mismatch: {}",
                download.file.replace('/', "\\")
            )),
        ));
    }
    match download.kind.tar_flags() {
        Some(flags) => lines.push(format!(
            "tar {flags} {file}; if ($LASTEXITCODE) {{ throw 'tar failed' }}"
        )),
        None if download.kind == ArchiveKind::Zip => {
            lines.push(format!(
                "Expand-Archive -Force -LiteralPath {file} -DestinationPath ."
            ));
        }
        None => {}
    }
    if download.staged {
        lines.push(format!(
            "Move-Item -Force -LiteralPath {fetched} -Destination {file}"
        ));
    }
    let mut code = String::from("& {\n");
    for line in lines {
        code.push_str("  ");
        code.push_str(&line);
        code.push('\n');
    }
    code.push('}');
    code
}

/// [`POSIX_INSTALL_ROOT`] without its `$HOME/`.
fn install_root_relative() -> &'static str {
    POSIX_INSTALL_ROOT
        .strip_prefix("$HOME/")
        .expect("the install root is under $HOME")
}

/// `"$HOME/<rel>"` when `rel` is plain, else `"$HOME"/'<rel>'`: either way one word that
/// expands `$HOME` and nothing else.
fn posix_home_path(rel: &str) -> String {
    if is_posix_plain(rel) {
        format!("\"$HOME/{rel}\"")
    } else {
        format!("\"$HOME\"/{}", posix_quote(rel))
    }
}

/// How a download is unpacked, from its file name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ArchiveKind {
    /// `.zip`.
    Zip,
    /// `.tar.gz`, `.tgz`.
    TarGz,
    /// `.tar.bz2`, `.tbz2`, `.tbz`.
    TarBz2,
    /// `.tar.xz`, `.txz`.
    TarXz,
    /// `.tar`.
    Tar,
    /// Anything else: the executable itself.
    Raw,
}

impl ArchiveKind {
    /// The kind of a (lowercased) file name, with its canonical extension.
    fn of(file_name: &str) -> (ArchiveKind, &'static str) {
        const EXTENSIONS: [(&str, ArchiveKind, &str); 9] = [
            (".zip", ArchiveKind::Zip, ".zip"),
            (".tar.gz", ArchiveKind::TarGz, ".tar.gz"),
            (".tgz", ArchiveKind::TarGz, ".tar.gz"),
            (".tar.bz2", ArchiveKind::TarBz2, ".tar.bz2"),
            (".tbz2", ArchiveKind::TarBz2, ".tar.bz2"),
            (".tbz", ArchiveKind::TarBz2, ".tar.bz2"),
            (".tar.xz", ArchiveKind::TarXz, ".tar.xz"),
            (".txz", ArchiveKind::TarXz, ".tar.xz"),
            (".tar", ArchiveKind::Tar, ".tar"),
        ];
        let lower = file_name.to_ascii_lowercase();
        EXTENSIONS
            .iter()
            .find(|(ext, _, _)| lower.ends_with(ext))
            .map_or((ArchiveKind::Raw, ""), |&(_, kind, canonical)| {
                (kind, canonical)
            })
    }

    /// The `tar` flags that extract this kind, if it is a tarball.
    fn tar_flags(self) -> Option<&'static str> {
        match self {
            ArchiveKind::TarGz => Some("-xzf"),
            ArchiveKind::TarBz2 => Some("-xjf"),
            ArchiveKind::TarXz => Some("-xJf"),
            ArchiveKind::Tar => Some("-xf"),
            ArchiveKind::Zip | ArchiveKind::Raw => None,
        }
    }
}

/// What is downloaded and the local file it is saved as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Download {
    /// How it is unpacked.
    pub(super) kind: ArchiveKind,
    /// The local file name, relative to the install folder: the URL path's last segment for an
    /// archive, the `cmd` path for a raw executable.
    pub(super) file: String,
    /// Whether the download goes to `<file>.download` first, to become `file` only once its
    /// checksum matched: a raw executable with a published SHA-256, so that a download failing
    /// the check is never left where the run command would start it.
    staged: bool,
}

impl Download {
    /// Reads the archive kind from the URL's path (never its query or fragment).
    pub(super) fn new(url: &str, cmd: &CmdPath, verified: bool) -> Download {
        let name = url_file_name(url);
        let (kind, extension) = ArchiveKind::of(&name);
        let file = match kind {
            ArchiveKind::Raw => cmd.posix_relative(),
            _ if is_safe_file_name(&name) => name,
            _ => format!("archive{extension}"),
        };
        Download {
            kind,
            file,
            staged: kind == ArchiveKind::Raw && verified,
        }
    }

    /// Where the download is written: [`Self::file`], or `<file>.download` when staged.
    fn fetched(&self) -> String {
        if self.staged {
            format!("{}.download", self.file)
        } else {
            self.file.clone()
        }
    }

    /// What the install steps need on this shell.
    fn requirements(&self, shell: Shell) -> Vec<Note> {
        let text = match (shell, self.kind) {
            (Shell::Posix, ArchiveKind::Raw) => "curl",
            (Shell::Posix, ArchiveKind::Zip) => "curl and unzip",
            (Shell::Posix, _) => "curl and tar",
            (Shell::PowerShell, ArchiveKind::Raw | ArchiveKind::Zip) => return Vec::new(),
            (Shell::PowerShell, _) => "tar (built into Windows 10 and later)",
        };
        vec![Note::requirement(text)]
    }
}

/// The last segment of a URL's path, percent-decoded: `https://h/a/b.tar.gz?x=1#y` → `b.tar.gz`.
pub(super) fn url_file_name(url: &str) -> String {
    let without_fragment = url.split('#').next().unwrap_or_default();
    let path = without_fragment.split('?').next().unwrap_or_default();
    let after_scheme = path.split_once("://").map_or(path, |(_, rest)| rest);
    let segment = match after_scheme.split_once('/') {
        Some((_, path)) => path.rsplit('/').next().unwrap_or_default(),
        None => "",
    };
    // `%XX` sequences decoded when the result is UTF-8; the segment as is otherwise.
    percent_decode_str(segment)
        .decode_utf8()
        .map_or_else(|_| segment.to_owned(), Cow::into_owned)
}

/// A file name that needs no care anywhere: `[A-Za-z0-9._+-]`, not starting with `.` or `-`.
fn is_safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(['.', '-'])
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
}

/// A binary target's `cmd`, with its separators normalised: `./bin\\tool.exe` is the path
/// `bin`, `tool.exe` relative to the install folder. Only a path that stays inside the folder
/// is one ([`CmdPath::for_install`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CmdPath {
    /// The path's segments, without empty ones and `.`.
    segments: Vec<String>,
}

impl CmdPath {
    /// The target's `cmd` split on both `/` and `\\`, when the install steps may use it: the id
    /// names a folder ([`id::is_file_name`]) and `cmd` a file inside it
    /// ([`BinaryTarget::cmd_problem`]).
    pub(super) fn for_install(id: &str, target: &BinaryTarget) -> Result<CmdPath, Refusal> {
        if !id::is_file_name(id) {
            return Err(Refusal::Id { id: id.to_owned() });
        }
        if let Some(problem) = target.cmd_problem() {
            return Err(Refusal::Cmd {
                cmd: target.cmd.clone(),
                problem,
            });
        }
        let segments = target
            .cmd
            .split(['/', '\\'])
            .filter(|s| !s.is_empty() && *s != ".")
            .map(str::to_owned)
            .collect();
        Ok(CmdPath { segments })
    }

    /// `bin/tool`: the path with `/` separators, without a leading `./`.
    pub(super) fn posix_relative(&self) -> String {
        self.segments.join("/")
    }

    /// `bin\\tool.exe`: the path with `\\` separators.
    fn windows_relative(&self) -> String {
        self.segments.join("\\")
    }

    /// The folder of a nested path (`bin` for `bin/tool`).
    fn posix_parent(&self) -> Option<String> {
        (self.segments.len() > 1).then(|| self.segments[..self.segments.len() - 1].join("/"))
    }

    /// [`Self::posix_parent`] with `\\` separators.
    fn windows_parent(&self) -> Option<String> {
        self.posix_parent().map(|p| p.replace('/', "\\"))
    }

    /// The absolute POSIX path under `root`/`id`.
    pub(super) fn posix_absolute(&self, root: &str, id: &str) -> String {
        format!("{root}/{id}/{}", self.posix_relative())
    }

    /// The absolute Windows path under `root`\\`id`.
    pub(super) fn windows_absolute(&self, root: &str, id: &str) -> String {
        format!("{root}\\{id}\\{}", self.windows_relative())
    }

    /// The POSIX expression running it from the install folder: `"$HOME/.local/…/<id>/bin/tool"`.
    fn posix_run(&self, id: &str) -> String {
        posix_home_path(&format!(
            "{}/{id}/{}",
            install_root_relative(),
            self.posix_relative()
        ))
    }

    /// The PowerShell expression running it: `& (Join-Path $env:LOCALAPPDATA 'acp-agents\\…')`.
    fn powershell_run(&self, id: &str) -> String {
        let root = WINDOWS_INSTALL_ROOT
            .strip_prefix(r"$env:LOCALAPPDATA\")
            .expect("the install root is under LOCALAPPDATA");
        let rel = format!("{root}\\{id}\\{}", self.windows_relative());
        format!(
            "& (Join-Path $env:LOCALAPPDATA {})",
            powershell_literal(&rel)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_file_names_come_from_the_url_path_only() {
        for (url, expected) in [
            ("https://h/a/b.tar.gz", "b.tar.gz"),
            ("https://h/a/b.zip?token=x.tar.gz", "b.zip"),
            ("https://h/a/b.tgz#frag", "b.tgz"),
            (
                "https://h/dl/coco-1.1.27%2B2006.tar.gz",
                "coco-1.1.27+2006.tar.gz",
            ),
            ("https://h/a/%FF.zip", "%FF.zip"),
            // Not a `%` and two hex digits: kept as written.
            ("https://h/a/b%zz.zip", "b%zz.zip"),
            ("https://h/a/b%2.zip", "b%2.zip"),
            ("https://h/a/b%+5.zip", "b%+5.zip"),
            ("https://h/a/b%", "b%"),
            ("https://h/a/%e2%82%AC.zip", "€.zip"),
            ("https://h/", ""),
            ("https://h", ""),
            ("no-scheme/x.zip", "x.zip"),
        ] {
            assert_eq!(url_file_name(url), expected, "{url}");
        }
    }

    #[test]
    fn archive_kinds_follow_the_extension() {
        for (name, kind) in [
            ("a.zip", ArchiveKind::Zip),
            ("a.ZIP", ArchiveKind::Zip),
            ("a.tar.gz", ArchiveKind::TarGz),
            ("a.tgz", ArchiveKind::TarGz),
            ("a.tar.bz2", ArchiveKind::TarBz2),
            ("a.tbz2", ArchiveKind::TarBz2),
            ("a.tar.xz", ArchiveKind::TarXz),
            ("a.tar", ArchiveKind::Tar),
            ("a.exe", ArchiveKind::Raw),
            ("a.gz", ArchiveKind::Raw),
            ("agentty-linux-x86_64", ArchiveKind::Raw),
        ] {
            assert_eq!(ArchiveKind::of(name).0, kind, "{name}");
        }
    }

    #[test]
    fn cmd_paths_normalise_separators() {
        let path = |cmd: &str| {
            let target = BinaryTarget {
                cmd: cmd.to_owned(),
                ..BinaryTarget::default()
            };
            CmdPath::for_install("x", &target).expect("a path inside the folder")
        };
        for (cmd, posix, windows) in [
            ("./bin/tool", "/R/x/bin/tool", r"C:\R\x\bin\tool"),
            (
                r"./bin\devin.exe",
                "/R/x/bin/devin.exe",
                r"C:\R\x\bin\devin.exe",
            ),
            (
                r"pulumi\bin\pulumi.exe",
                "/R/x/pulumi/bin/pulumi.exe",
                r"C:\R\x\pulumi\bin\pulumi.exe",
            ),
            ("codeep", "/R/x/codeep", r"C:\R\x\codeep"),
        ] {
            let path = path(cmd);
            assert_eq!(path.posix_absolute("/R", "x"), posix, "{cmd}");
            assert_eq!(path.windows_absolute(r"C:\R", "x"), windows, "{cmd}");
        }
    }
}
