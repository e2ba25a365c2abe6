//! `cargo xtask cli`: an `acp-registry` binary with the catalogue site embedded, so that its
//! `preview` command works anywhere, without this checkout, Trunk or the network.
//!
//! Builds the release site into `target/cli-site` ([`dist::build`], registry URL
//! `registry.json`, public URL `/`: the preview serves the folder's build beside it at the
//! root; its pages are the loading shell, since the registry they will show is the folder's,
//! not the bundled one), then `cargo build --release -p acp-registry` with `ACP_REGISTRY_SITE_DIR` pointing
//! there (`crates/acp-registry/build.rs` embeds every file), and prints the binary's path;
//! `--out <dir>` also copies the binary into `<dir>`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::dist;
use crate::options::DistOptions;
use crate::setup::{self, Browser};

/// Options of `cargo xtask cli`.
#[derive(Debug, Args)]
pub struct CliArgs {
    /// Also copy the binary into this directory (e.g. `~/.local/bin`).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Builds the site, then the binary with the site embedded; prints where the binary is.
pub fn run(root: &Path, args: &CliArgs) -> Result<()> {
    let tools = setup::ensure(root, Browser::NotNeeded)?;
    let target = setup::target_dir(root);
    let site_dir = target.join("cli-site");
    let mut options = DistOptions::bundled("/", site_dir.clone())?.shell_only();
    // The preview serves a folder's own build, which the bundled copy's day does not date: its
    // server's `Last-Modified` does.
    options.settings.registry_edition = None;
    let report = dist::build(&tools, &options)?;
    print!("{report}");

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = tools.command(&cargo.to_string_lossy());
    build
        .args(["build", "--release", "-p", "acp-registry"])
        .env("ACP_REGISTRY_SITE_DIR", &site_dir);
    setup::run(&mut build)?;

    let binary = target
        .join("release")
        .join(format!("acp-registry{}", std::env::consts::EXE_SUFFIX));
    println!("built {} (with the site embedded)", binary.display());
    if let Some(out) = &args.out {
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        let copy = out.join(binary.file_name().expect("a file name"));
        std::fs::copy(&binary, &copy)
            .with_context(|| format!("copying {} to {}", binary.display(), copy.display()))?;
        println!("copied to {}", copy.display());
    }
    Ok(())
}
