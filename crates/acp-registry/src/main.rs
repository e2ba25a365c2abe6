//! `acp-registry`: the ACP registry's CI checks, run by maintainers before they push.
//!
//! - `acp-registry validate <registry-dir> [<id>...] [--format human|json] [--check-urls]`
//!   prints every problem of every entry (file, line:column, excerpt, fix) and a summary;
//!   `--check-urls` also asks each archive and package as the CI does (see [`urls`];
//!   `--allow-loopback` lets it ask a local test server);
//! - `acp-registry build <registry-dir> --out <dist> [--base-url URL] [--rules current|2026-02]`
//!   validates, then writes `registry.json`, `registry-for-jetbrains.json`,
//!   `registry-for-jetbrains-preview.json`, the icons (as `<id>.svg`) and the schemas, as the
//!   CI publishes them;
//! - `acp-registry preview <registry-dir> [--port 8080]` serves the catalogue site over a live
//!   build of the folder on 127.0.0.1, rebuilding when a file changes (see [`preview`]).
//!
//! Exit codes: 0 when there is no error (warnings are fine), 1 when any entry has an error,
//! 2 when the command could not run (wrong arguments, unreadable folder, unwritable output).
//!
//! All the rules live in the `registry-validate` library; this binary only reads and writes
//! files, renders diagnostics with `miette` and, for `--check-urls`, talks HTTP.
//!
//! The commands are parsed with `clap`.

mod preview;
mod read;
mod render;
mod site;
mod urls;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use clap::{Parser, Subcommand, ValueEnum};
use registry_validate::views::{JETBRAINS_FILE, JETBRAINS_PREVIEW_FILE};
use registry_validate::{
    DEFAULT_BASE_URL, Endpoints, Severity, Validation, ViewRules, build_with_rules, validate,
};

use crate::site::Site;
use crate::urls::Policy;

/// Why `preview` cannot run in a binary built without the site, and how to get one that can.
const NO_SITE: &str = "this acp-registry was built without the catalogue site, so it cannot \
preview. In a checkout of the catalogue, build one that has it with `cargo xtask cli` (it prints \
the binary's path), or build the site and install with it embedded:
    cargo xtask dist --out target/cli-site
    ACP_REGISTRY_SITE_DIR=\"$PWD/target/cli-site\" cargo install --path crates/acp-registry
or pass `--site-dir <a built site>`";

/// Validate and build an ACP agent registry folder, as the registry's CI does.
#[derive(Debug, Parser)]
#[command(name = "acp-registry", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check every entry folder (or only the given ids) and print every problem found.
    Validate {
        /// The registry folder: entry folders `<id>/` beside `agent.schema.json`.
        registry_dir: PathBuf,
        /// Only report these entry folders (the whole registry is still read, for unique ids).
        ids: Vec<String>,
        /// `human` (excerpts and hints) or `json` (an array of diagnostics).
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Also check that archives answer HTTP 200 and npm/PyPI packages exist (network), with
        /// the CI's rules: https only, public hosts only, each redirect checked, 3 attempts.
        #[arg(long)]
        check_urls: bool,
        /// For local test servers only: let `--check-urls` ask loopback addresses, and plain
        /// http at 127.0.0.1 or [::1]. The CI allows neither.
        #[arg(
            long,
            env = "ACP_REGISTRY_ALLOW_LOOPBACK",
            value_parser = clap::builder::BoolishValueParser::new()
        )]
        allow_loopback: bool,
        /// npm registry base URL for `--check-urls`.
        #[arg(
            long,
            hide = true,
            env = "ACP_REGISTRY_NPM_URL",
            default_value = "https://registry.npmjs.org"
        )]
        npm_registry: String,
        /// PyPI JSON API base URL for `--check-urls`.
        #[arg(
            long,
            hide = true,
            env = "ACP_REGISTRY_PYPI_URL",
            default_value = "https://pypi.org/pypi"
        )]
        pypi_registry: String,
    },
    /// Validate, then write registry.json, the JetBrains views, the icons and the schemas into
    /// the output folder.
    ///
    /// The files are those the registry's CI publishes, byte for byte: `registry.json` (every
    /// agent but those it leaves out, `"extensions": []`), `registry-for-jetbrains.json` and
    /// `registry-for-jetbrains-preview.json` (the JetBrains view with each agent at the higher
    /// of its stable and preview versions); no view carries a `preview` key. One difference,
    /// on purpose: the icons written are sanitised (re-written from their parsed tree with only
    /// what draws), where the CI copies each `icon.svg` as committed.
    Build {
        /// The registry folder.
        registry_dir: PathBuf,
        /// The output folder (created if needed).
        #[arg(long)]
        out: PathBuf,
        /// Where the icons will be served: each entry's `icon` is `<base-url>/<id>.svg`.
        #[arg(long, default_value = DEFAULT_BASE_URL)]
        base_url: String,
        /// Which agents each view leaves out, patches or marks bundled: `current`, or `2026-02`
        /// (the rules of the registry's snapshot of February 2026, which has no preview view).
        #[arg(long, default_value = "current", value_parser = parse_rules)]
        rules: ViewRules,
    },
    /// Serve the catalogue site over a live build of the folder on 127.0.0.1, rebuilding when a
    /// manifest or icon changes.
    Preview {
        /// The registry folder.
        registry_dir: PathBuf,
        /// Port on 127.0.0.1 (0 picks a free one).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Serve this built site (`cargo xtask dist --out <dir>`) instead of the embedded one.
        #[arg(long)]
        site_dir: Option<PathBuf>,
    },
}

/// How `validate` prints its diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Excerpts of the files with the place underlined, and a hint per problem.
    Human,
    /// A JSON array: `severity`, `rule`, `file`, `span` (`start`, `end`, `line`, `column`) or
    /// null, `message`, `hint`.
    Json,
}

/// Whether the registry passed: no error (warnings allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Passed,
    Failed,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(Outcome::Passed) => ExitCode::SUCCESS,
        Ok(Outcome::Failed) => ExitCode::from(1),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Validate {
            registry_dir,
            ids,
            format,
            check_urls,
            allow_loopback,
            npm_registry,
            pypi_registry,
        } => {
            let policy = if allow_loopback {
                Policy::AllowLoopback
            } else {
                Policy::Public
            };
            let remote = check_urls.then_some((
                Endpoints {
                    npm: npm_registry,
                    pypi: pypi_registry,
                },
                policy,
            ));
            run_validate(&registry_dir, &ids, format, remote.as_ref())
        }
        Command::Build {
            registry_dir,
            out,
            base_url,
            rules,
        } => run_build(&registry_dir, &out, &base_url, &rules),
        Command::Preview {
            registry_dir,
            port,
            site_dir,
        } => run_preview(&registry_dir, port, site_dir.as_deref()),
    }
}

fn run_preview(dir: &Path, port: u16, site_dir: Option<&Path>) -> anyhow::Result<Outcome> {
    let site = match site_dir {
        Some(site_dir) => Site::from_dir(site_dir)?,
        None => Site::embedded().ok_or_else(|| anyhow!(NO_SITE))?,
    };
    read::registry(dir)?;
    let preview = preview::spawn(site, dir, port)?;
    emit(&format!(
        "Previewing {} at {}  (Ctrl-C stops; saving a file rebuilds)\n",
        dir.display(),
        preview.url()
    ))?;
    preview.wait();
    Ok(Outcome::Passed)
}

fn run_validate(
    dir: &Path,
    ids: &[String],
    format: Format,
    remote: Option<&(Endpoints, Policy)>,
) -> anyhow::Result<Outcome> {
    let files = read::registry(dir)?;
    let mut validation = validate(&files);
    if !ids.is_empty() {
        for id in ids {
            if !validation.entries.iter().any(|entry| &entry.folder == id) {
                bail!(
                    "{} has no entry folder `{id}/` with an agent.json or extension.json",
                    dir.display()
                );
            }
        }
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        validation.retain_folders(&ids);
    }
    if let Some((endpoints, policy)) = remote {
        let failures = urls::check(&validation.remote_checks(endpoints), *policy);
        validation.diagnostics.extend(failures);
        sort(&mut validation);
    }
    match format {
        Format::Human => {
            emit(&render::human(&validation, &files))?;
            emit(&format!("{}\n", render::summary(&validation)))?;
        }
        Format::Json => emit(&format!("{}\n", render::json(&validation)))?,
    }
    Ok(outcome(&validation))
}

/// The `--rules` of `build`.
fn parse_rules(name: &str) -> Result<ViewRules, String> {
    ViewRules::named(name)
        .ok_or_else(|| format!("`{name}` is not a rule set: write `current` or `2026-02`"))
}

fn run_build(dir: &Path, out: &Path, base_url: &str, rules: &ViewRules) -> anyhow::Result<Outcome> {
    let files = read::registry(dir)?;
    let (built, validation) = build_with_rules(&files, base_url, rules);
    emit(&render::human(&validation, &files))?;
    let Some(built) = built else {
        emit(&format!(
            "{}\nNothing was written: fix the errors above first.\n",
            render::summary(&validation)
        ))?;
        return Ok(Outcome::Failed);
    };
    fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let write = |name: &str, bytes: &[u8]| -> anyhow::Result<()> {
        let to = out.join(name);
        fs::write(&to, bytes).with_context(|| format!("cannot write {}", to.display()))
    };
    write("registry.json", built.registry_json.as_bytes())?;
    write(JETBRAINS_FILE, built.jetbrains_json.as_bytes())?;
    if let Some(preview) = &built.jetbrains_preview_json {
        write(JETBRAINS_PREVIEW_FILE, preview.as_bytes())?;
    }
    for icon in &built.icons {
        write(&icon.to, icon.contents.as_bytes())?;
    }
    for copy in &built.copies {
        write(&copy.to, files.get(&copy.from).unwrap_or_default())?;
    }
    let icons = built.icons.len();
    let warnings = validation.count(Severity::Warning);
    let views = built.views;
    let preview = match &built.jetbrains_preview_json {
        Some(_) => format!(
            ", {JETBRAINS_PREVIEW_FILE} ({} at a preview version)",
            views.previews
        ),
        None => String::new(),
    };
    emit(&format!(
        "Wrote {} ({} agents, {} extensions), {JETBRAINS_FILE} ({} agents, {} bundled){preview}, \
         {icons} icons and {} schemas{}.\n",
        out.join("registry.json").display(),
        built.agents,
        built.extensions,
        views.jetbrains_agents,
        views.bundled,
        built.copies.len(),
        match warnings {
            0 => String::new(),
            1 => ", with 1 warning".to_owned(),
            n => format!(", with {n} warnings"),
        }
    ))?;
    Ok(Outcome::Passed)
}

/// Writes to stdout; a reader that went away (`| head`) is not an error.
fn emit(text: &str) -> anyhow::Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(err).context("cannot write to standard output")
        }
        _ => Ok(()),
    }
}

fn outcome(validation: &Validation) -> Outcome {
    if validation.has_errors() {
        Outcome::Failed
    } else {
        Outcome::Passed
    }
}

/// The registry's own problems first, then folder by folder, each by file and place.
fn sort(validation: &mut Validation) {
    let position = |folder: Option<&str>| {
        folder.map_or(0, |folder| {
            1 + validation
                .entries
                .iter()
                .position(|entry| entry.folder == folder)
                .unwrap_or(usize::MAX - 1)
        })
    };
    let mut keyed: Vec<_> = validation
        .diagnostics
        .drain(..)
        .map(|d| {
            (
                (
                    position(d.folder()),
                    d.file.clone(),
                    d.span.map(|s| s.start),
                ),
                d,
            )
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    validation.diagnostics = keyed.into_iter().map(|(_, d)| d).collect();
}
