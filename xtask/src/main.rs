//! `cargo xtask`: the project's own commands, so that a fresh machine needs nothing but Rust and
//! Node to build, serve and test the catalogue.
//!
//! Every command first runs [`setup`], which installs or checks the tools it needs (the wasm target,
//! Trunk, wasm-bindgen, the npm packages and, for tests, Chromium) and skips what is already there.
//!
//! - `cargo xtask serve`: build the release site into `dist/` and serve it on 127.0.0.1.
//! - `cargo xtask dist`: build the release site and print its sizes.
//! - `cargo xtask test`: formatting, clippy, native tests, browser component tests and the
//!   end-to-end suite, stopping at the first failure.
//! - `cargo xtask bench`: load, keystroke and memory figures of the release site at 1,000 and
//!   10,000 synthetic entries (50,000 on request) in headless Chromium, beside plain-JS pages,
//!   its first view in Lighthouse, and bundle sizes.
//! - `cargo xtask cli`: an `acp-registry` binary with the release site embedded (for its
//!   `preview` command).
//! - `cargo xtask setup`: only the set-up.
//! - `cargo xtask agentregistry-server`: a stand-in AgentRegistry serving the synthetic listing of
//!   `tests/fixtures/agentregistry/`, with a slow page and failures on demand (no set-up needed).
//! - `cargo xtask csp`: the Content-Security-Policy of a built site, for a `<meta>` and as host
//!   headers (no set-up needed).
//! - `cargo xtask fuzz [--seconds N] [--target T]`: the fuzz targets of `fuzz/`, one after the
//!   other (installs a nightly toolchain and cargo-fuzz when missing; not part of `test`).

mod agentregistry;
mod bench;
mod cli;
mod csp;
mod dist;
mod fuzz;
mod offline;
mod options;
mod pages;
mod precompress;
mod serve;
mod setup;
mod start_script;
mod test;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

use registry_core::SiteSettings;
use registry_core::settings;

use crate::options::DistOptions;
use crate::setup::Browser;

#[derive(Debug, Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "Build, serve and test the ACP registry catalogue",
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Install or check the tools (wasm target, Trunk, wasm-bindgen, npm packages, Chromium).
    Setup,
    /// Build the release site and print its sizes.
    Dist(DistArgs),
    /// Build the release site into dist/ and serve it on http://127.0.0.1:<port>.
    Serve(ServeArgs),
    /// Run every check: fmt, clippy, native tests, browser tests, end-to-end tests.
    Test(test::TestArgs),
    /// Measure load, keystroke and memory figures at 1k and 10k entries against plain-JS pages,
    /// the first view in Lighthouse, and the bundle.
    Bench(bench::BenchArgs),
    /// Build `acp-registry` with the release site embedded, so `acp-registry preview` works.
    Cli(cli::CliArgs),
    /// Serve the synthetic AgentRegistry of tests/fixtures/agentregistry on 127.0.0.1, with a
    /// slow page and failures on demand; prints `listening on http://127.0.0.1:PORT` first.
    AgentregistryServer(agentregistry::ServerArgs),
    /// Print the Content-Security-Policy of a built site: for a <meta>, and as the headers of
    /// Netlify, Cloudflare Pages and nginx.
    Csp(csp::CspArgs),
    /// Run the coverage-guided fuzz targets of fuzz/ (cargo fuzz, nightly), each for a while.
    Fuzz(fuzz::FuzzArgs),
}

/// Where the site is published and where it loads the registry from.
#[derive(Debug, Args)]
struct SiteArgs {
    /// Path the site is served under; must start and end with `/` (e.g. `/acp/registry/`).
    #[arg(long, env = "PUBLIC_URL", default_value = "/")]
    public_url: String,
    /// URL of registry.json, absolute or relative to index.html; with `--registry-kind
    /// agentregistry`, the service's base URL.
    #[arg(long, env = "REGISTRY_URL", default_value = settings::DEFAULT_REGISTRY_URL)]
    registry_url: String,
    /// What the registry URL is: an ACP registry.json, or an AgentRegistry service.
    #[arg(long, env = "REGISTRY_KIND", default_value = "acp", value_parser = options::parse_registry_kind)]
    registry_kind: options::RegistryKind,
    /// URL of the registry's protocol matrix (probe results), absolute or relative to
    /// index.html; optional at run time: without it pages say "not probed".
    #[arg(long, env = "PROTOCOL_MATRIX_URL", default_value = settings::DEFAULT_PROTOCOL_MATRIX_URL)]
    protocol_matrix_url: String,
    /// URL of the registry's JetBrains view (`registry-for-jetbrains.json`), absolute or
    /// relative to index.html; optional at run time.
    #[arg(long, env = "JETBRAINS_VIEW_URL", default_value = settings::DEFAULT_JETBRAINS_VIEW_URL)]
    jetbrains_view_url: String,
    /// URL of the registry's JetBrains preview view; optional at run time.
    #[arg(
        long,
        env = "JETBRAINS_PREVIEW_VIEW_URL",
        default_value = settings::DEFAULT_JETBRAINS_PREVIEW_VIEW_URL
    )]
    jetbrains_preview_view_url: String,
    /// URL of the registry's quarantine list; optional at run time.
    #[arg(long, env = "QUARANTINE_URL", default_value = settings::DEFAULT_QUARANTINE_URL)]
    quarantine_url: String,
    /// Scheme and host the site is published at, for canonical and link-preview URLs.
    #[arg(long, env = "SITE_ORIGIN", default_value = settings::DEFAULT_SITE_ORIGIN)]
    site_origin: String,
    /// Local copy of the registry to pre-render agent pages from when the registry URL is
    /// remote (without it, a remote registry means no pre-rendered pages).
    #[arg(long, env = "PRERENDER_REGISTRY")]
    prerender_registry: Option<PathBuf>,
    /// Which build of the registry the registry URL serves, when the URL does not name one: a
    /// snapshot (`v2026.12.07-1a2b3c4`) or the day it was published (`2026-12-07`). Default:
    /// the bundled copy's, for the bundled registry; else the snapshot in the URL, else the
    /// response's Last-Modified.
    #[arg(long, env = "REGISTRY_EDITION")]
    registry_edition: Option<String>,
    /// Folder of dated registry and probe snapshots to build the change log from
    /// (`registry/<day>.json`, `registry/<day>.jetbrains.json`, `protocol-matrix/<day>.json`).
    /// Default: the bundled history (`data/history/`) for the bundled registry, else none.
    #[arg(long, env = "CHANGES_HISTORY")]
    history: Option<PathBuf>,
    /// The previous published site (a folder holding its `changes.json`): the change log is
    /// carried forward from it, so a scheduled build keeps it growing.
    #[arg(long, env = "PREVIOUS_SITE")]
    previous: Option<PathBuf>,
}

impl SiteArgs {
    /// The build options for these settings and output directory.
    fn into_options(self, out_dir: PathBuf) -> Result<DistOptions> {
        let site_origin = self.site_origin.trim();
        let mut settings = SiteSettings {
            kind: self.registry_kind,
            registry_url: self.registry_url,
            protocol_matrix_url: self.protocol_matrix_url,
            jetbrains_view_url: self.jetbrains_view_url,
            jetbrains_preview_view_url: self.jetbrains_preview_view_url,
            quarantine_url: self.quarantine_url,
            public_url: self.public_url,
            site_origin: site_origin
                .strip_suffix('/')
                .unwrap_or(site_origin)
                .to_owned(),
            registry_edition: self.registry_edition,
        };
        if settings.registry_edition.is_none()
            && settings.registry_url.trim() == settings::DEFAULT_REGISTRY_URL
        {
            settings.registry_edition = Some(settings::BUNDLED_REGISTRY_EDITION.to_owned());
        }
        for note in settings
            .without_bundled_extras()
            .into_iter()
            .chain(settings.edition_note())
        {
            eprintln!("note: {note}");
        }
        Ok(DistOptions::new(settings, out_dir)?
            .with_prerender_registry(self.prerender_registry)
            .with_history(self.history, self.previous))
    }
}

#[derive(Debug, Args)]
struct DistArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// Output directory [default: dist/ in the repository].
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ServeArgs {
    #[command(flatten)]
    site: SiteArgs,
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Serve this site as it was built (by `cargo xtask dist --out`), without building; give
    /// the `--public-url` it was built for.
    #[arg(long)]
    built: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<()> {
    let root = repo_root();
    match command {
        Command::Setup => {
            setup::ensure(&root, Browser::Needed)?;
        }
        Command::Dist(args) => {
            let tools = setup::ensure(&root, Browser::NotNeeded)?;
            let out_dir = match args.out {
                Some(out) => std::path::absolute(out)?,
                None => root.join("dist"),
            };
            let options = args.site.into_options(out_dir)?;
            let report = dist::build(&tools, &options)?;
            print!("{report}");
        }
        Command::Serve(args) => {
            let built = args.built.map(std::path::absolute).transpose()?;
            let options = args
                .site
                .into_options(built.clone().unwrap_or_else(|| root.join("dist")))?;
            if built.is_none() {
                let tools = setup::ensure(&root, Browser::NotNeeded)?;
                let report = dist::build(&tools, &options)?;
                print!("{report}");
            }
            let server = serve::spawn(&options.out_dir, &options.settings.public_url, args.port)?;
            println!(
                "Serving {} at {}  (Ctrl-C stops)",
                options.out_dir.display(),
                server.url()
            );
            server.wait();
        }
        Command::Test(args) => test::run(&root, &args)?,
        Command::Bench(args) => bench::run(&root, &args)?,
        Command::Cli(args) => cli::run(&root, &args)?,
        Command::AgentregistryServer(args) => agentregistry::run(&args)?,
        Command::Csp(args) => csp::run(&root, &args)?,
        Command::Fuzz(args) => fuzz::run(&root, &args)?,
    }
    Ok(())
}

/// The workspace root: the parent of this crate's directory.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}
