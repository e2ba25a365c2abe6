//! `cargo xtask test`: every check the project has, in order of speed, stopping at the first
//! failure.
//!
//! 1. `cargo fmt --all --check`
//! 2. `cargo clippy --workspace --all-targets -- -D warnings`
//! 3. `cargo test --workspace` (native: the core crate, xtask)
//! 4. `cargo test -p registry-core --test paste`: run snippets pasted into bash in a tmux pty
//!    (tmux installed first; the test is `test = false`, so step 3 does not run it)
//! 5. `cargo test -p acp-catalog --target wasm32-unknown-unknown`: component tests in headless
//!    Chromium through chromedriver (`wasm-bindgen-test-runner` is the target's runner in
//!    `.cargo/config.toml`)
//! 6. end to end: the release site built twice, for `/` and for `/acp/registry/` (as on GitHub
//!    Pages), and a third time for an AgentRegistry: the stand-in service of
//!    [`agentregistry`](crate::agentregistry) started on an ephemeral port first, the site built
//!    with `--registry-kind agentregistry` and its URL. Each site is served by [`serve`] on an
//!    ephemeral port (so the AgentRegistry is cross-origin, as in production), then
//!    `node --test tests/e2e/` runs with `SITE_URL`, `SITE_URL_SUB`, `AGENTREGISTRY_SITE_URL`,
//!    `AGENTREGISTRY_URL` and `CHROMIUM` set. Node's output passes through, so its summary is the
//!    last thing printed.

use std::path::Path;

use anyhow::{Context, Result};
use clap::Args;

use crate::agentregistry::{self, ServerOptions};
use crate::dist;
use crate::options::{DistOptions, RegistryKind};
use crate::serve;
use crate::setup::{self, Browser, CHROMEDRIVER, CHROMIUM, Tools, WASM_TARGET};

/// The public URL of the second end-to-end build, as the site is published on GitHub Pages.
const SUB_PUBLIC_URL: &str = "/acp/registry/";

/// Options of `cargo xtask test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// Run only the end-to-end suite.
    #[arg(long, conflicts_with = "skip_e2e")]
    e2e_only: bool,
    /// Run everything but the end-to-end suite.
    #[arg(long)]
    skip_e2e: bool,
    /// Arguments for `node --test` in place of `tests/e2e/`, e.g.
    /// `-- --test-name-pattern=search tests/e2e/`.
    #[arg(last = true)]
    node_args: Vec<String>,
}

/// Runs the checks that `args` selects.
pub fn run(root: &Path, args: &TestArgs) -> Result<()> {
    let tools = setup::ensure(root, Browser::Needed)?;
    if !args.e2e_only {
        step(&tools, "cargo", &["fmt", "--all", "--check"], &[])
            .context("formatting differs: run `cargo fmt --all`")?;
        let clippy = [
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ];
        step(&tools, "cargo", &clippy, &[])?;
        step(&tools, "cargo", &["test", "--workspace"], &[])?;
        setup::ensure_tmux(&tools)?;
        let paste = ["test", "-p", "registry-core", "--test", "paste"];
        step(&tools, "cargo", &paste, &[])?;
        let component = ["test", "-p", "acp-catalog", "--target", WASM_TARGET];
        step(
            &tools,
            "cargo",
            &component,
            &[("CHROMEDRIVER", CHROMEDRIVER)],
        )?;
    }
    if !args.skip_e2e {
        end_to_end(&tools, &args.node_args)?;
    }
    Ok(())
}

/// Runs one check with a heading, its output passing through.
fn step(tools: &Tools, program: &str, args: &[&str], env: &[(&str, &str)]) -> Result<()> {
    let mut command = tools.command(program);
    command.args(args).envs(env.iter().copied());
    println!("\n==> {}", setup::show(&command));
    setup::run(&mut command)
}

fn end_to_end(tools: &Tools, node_args: &[String]) -> Result<()> {
    let e2e = tools.root().join("target").join("e2e");
    let root_site = DistOptions::new("/".into(), "registry.json".into(), e2e.join("root"))?;
    let sub_site = DistOptions::new(
        SUB_PUBLIC_URL.into(),
        "registry.json".into(),
        e2e.join("sub"),
    )?;
    let service = agentregistry::start(([127, 0, 0, 1], 0).into(), ServerOptions::default())?;
    let service_site = DistOptions::new("/".into(), service.url(), e2e.join("agentregistry"))?
        .with_registry_kind(RegistryKind::AgentRegistry)?;
    for site in [&root_site, &sub_site, &service_site] {
        println!(
            "\n==> release build for {} ({})",
            site.public_url, site.registry_url
        );
        print!("{}", dist::build(tools, site)?);
    }
    let root_server = serve::spawn(&root_site.out_dir, &root_site.public_url, 0)?;
    let sub_server = serve::spawn(&sub_site.out_dir, &sub_site.public_url, 0)?;
    let service_server = serve::spawn(&service_site.out_dir, &service_site.public_url, 0)?;

    let mut node = tools.command("node");
    node.arg("--test");
    if node_args.is_empty() {
        node.arg("tests/e2e/");
    } else {
        node.args(node_args);
    }
    node.env("SITE_URL", root_server.url())
        .env("SITE_URL_SUB", sub_server.url())
        .env("AGENTREGISTRY_SITE_URL", service_server.url())
        .env("AGENTREGISTRY_URL", service.url())
        .env("CHROMIUM", CHROMIUM);
    println!(
        "\n==> {}  (SITE_URL={} SITE_URL_SUB={} AGENTREGISTRY_SITE_URL={} AGENTREGISTRY_URL={})",
        setup::show(&node),
        root_server.url(),
        sub_server.url(),
        service_server.url(),
        service.url()
    );
    setup::run(&mut node).context("end-to-end tests failed")
}
