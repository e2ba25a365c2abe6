//! `cargo xtask test`: every check the project has, in order of speed, stopping at the first
//! failure, with each step's time printed at the end.
//!
//! 1. `cargo fmt --all --check`
//! 2. `cargo clippy --workspace --all-targets -- -D warnings`
//! 3. `cargo test --workspace` (native: the core crate, xtask)
//! 4. `node --test tests/start.test.mjs`: the start-up script (`src/start.js`) against a
//!    stand-in page
//! 5. `cargo test -p registry-core --test paste`: run snippets pasted into bash in a tmux pty
//!    (tmux installed first; the test is `test = false`, so step 3 does not run it)
//! 6. `cargo test -p acp-catalog --target wasm32-unknown-unknown --test components`: the
//!    component tests (the crate's only browser tests) in headless
//!    Chromium through chromedriver (`wasm-bindgen-test-runner` is the target's runner in
//!    `.cargo/config.toml`)
//! 7. end to end: the release site compiled once for ACP registries and once for an
//!    AgentRegistry ([`dist::compile`], skipped when its sources are unchanged; beside steps
//!    1-6, in a target directory of its own, its output in `target/release-build.log`), then laid out
//!    and rendered for each configuration the tests need, which compiles nothing: `/` and
//!    `/acp/registry/` (as on GitHub Pages) over the bundled registry, and two sites over two
//!    stand-in AgentRegistry services ([`agentregistry`]), one for the file that tests the
//!    service and one for the file that makes it fail on demand, so that the two files can
//!    run at once. Each site is served by [`serve`] on an ephemeral port (so the AgentRegistry
//!    is cross-origin, as in production), then `node --test` runs the files of `tests/e2e/`
//!    [`E2E_CONCURRENCY`] at a time, the slowest first ([`SLOWEST_FIRST`]), with `SITE_URL`,
//!    `SITE_URL_SUB`, `AGENTREGISTRY_SITE_URL`, `AGENTREGISTRY_URL`,
//!    `AGENTREGISTRY_NETWORK_SITE_URL`, `AGENTREGISTRY_NETWORK_URL` and `CHROMIUM` set. Node's output passes through, so its
//!    summary is the last thing printed before the times.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::agentregistry::{self, RegistryServer, ServerOptions};
use crate::dist;
use crate::options::{DistOptions, RegistryKind};
use crate::serve::{self, ServerHandle};
use crate::setup::{self, Browser, CHROMEDRIVER, CHROMIUM, Output, Tools, WASM_TARGET};

/// The public URL of the second end-to-end build, as the site is published on GitHub Pages.
const SUB_PUBLIC_URL: &str = "/acp/registry/";
/// The registry build the sub-path site says it shows: later than its probe's 2026-08-20.
const SUB_REGISTRY_EDITION: &str = "v2026.12.01-5e1f0c2";

/// How many end-to-end files run at once: each drives its own Chromium, and much of a test
/// is waiting (for the network stand-ins, for timeouts the tests provoke), so two cores keep
/// more than one busy.
pub const E2E_CONCURRENCY: usize = 3;

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

/// Runs the checks that `args` selects, then prints how long each step took.
pub fn run(root: &Path, args: &TestArgs) -> Result<()> {
    let mut times = Times::default();
    let result = run_steps(root, args, &mut times);
    print!("{times}");
    result
}

fn run_steps(root: &Path, args: &TestArgs, times: &mut Times) -> Result<()> {
    let tools = times.time("set-up", || setup::ensure(root, Browser::Needed))?;
    if args.e2e_only {
        compile_sites(&tools, Output::Terminal, &AtomicBool::new(false), times)?;
        return end_to_end(&tools, &args.node_args, None, times);
    }
    if args.skip_e2e {
        return checks(&tools, times);
    }
    // The release site compiles beside the checks (in a target directory of its own: see
    // `dist::RELEASE_TARGET_DIR`): its links run on one core, which the checks' compilers
    // share. Its output goes to a log, shown if it fails; a failed check stops it after the
    // build under way.
    let log = tools.root().join("target").join("release-build.log");
    fs::create_dir_all(tools.root().join("target"))?;
    fs::write(&log, "").with_context(|| format!("writing {}", log.display()))?;
    let stop = AtomicBool::new(false);
    let mut compiled = Times::default();
    let (checked, built) = std::thread::scope(|scope| {
        let background = scope.spawn(|| {
            println!(
                "\n==> the release site compiles beside the checks (output in {})",
                log.display()
            );
            compile_sites(&tools, Output::Log(&log), &stop, &mut compiled)
        });
        let checked = checks(&tools, times);
        if checked.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let waiting = Instant::now();
        let built = background.join().expect("the release build does not panic");
        times.steps.push((
            "waiting for the release builds".to_owned(),
            waiting.elapsed(),
        ));
        (checked, built)
    });
    times.beside = compiled.steps;
    checked?;
    built.with_context(|| {
        let text = fs::read_to_string(&log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        format!(
            "the release build failed; the end of {}:\n{tail}",
            log.display()
        )
    })?;
    // The renderers with the features the native tests were compiled with: a link each.
    times.time("the renderers (native)", || {
        let all = ["build", "--workspace", "--all-targets", "--quiet"];
        step(&tools, "cargo", &all, &[])
    })?;
    let renderers = setup::target_dir(tools.root()).join("debug");
    end_to_end(&tools, &args.node_args, Some(renderers), times)
}

/// Everything before the end-to-end suite.
fn checks(tools: &Tools, times: &mut Times) -> Result<()> {
    times
        .time("cargo fmt", || {
            step(tools, "cargo", &["fmt", "--all", "--check"], &[])
        })
        .context("formatting differs: run `cargo fmt --all`")?;
    let clippy = [
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ];
    times.time("cargo clippy", || step(tools, "cargo", &clippy, &[]))?;
    times.time("native tests", || {
        step(tools, "cargo", &["test", "--workspace"], &[])
    })?;
    times.time("start-up script (node)", || {
        step(tools, "node", &["--test", "tests/start.test.mjs"], &[])
    })?;
    times.time("pasted snippets (tmux)", || {
        setup::ensure_tmux(tools)?;
        let paste = ["test", "-p", "registry-core", "--test", "paste"];
        step(tools, "cargo", &paste, &[])
    })?;
    times.time("component tests (wasm, Chromium)", || {
        // Only the file with browser tests: the crate's other test targets hold none that run
        // in a browser, and would be compiled to wasm for nothing.
        let component = [
            "test",
            "-p",
            "acp-catalog",
            "--target",
            WASM_TARGET,
            "--test",
            "components",
        ];
        step(
            tools,
            "cargo",
            &component,
            &[("CHROMEDRIVER", CHROMEDRIVER)],
        )
    })
}

/// Compiles the release site for each registry kind (each skipped when its sources are
/// unchanged), each unless `stop` is set before it starts.
fn compile_sites(
    tools: &Tools,
    output: Output,
    stop: &AtomicBool,
    times: &mut Times,
) -> Result<()> {
    for kind in RegistryKind::ALL {
        if stop.load(Ordering::Relaxed) {
            bail!("stopped: a check failed");
        }
        times.time(&format!("release build ({})", kind.as_str()), || {
            dist::compile(tools, kind, output).map(drop)
        })?;
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

/// A site the end-to-end tests open, and the environment variable naming its URL.
struct Site {
    variable: &'static str,
    options: DistOptions,
}

/// Lays out and serves the sites, with the renderers built in `renderers` (else `cargo run`),
/// and runs the end-to-end files against them.
fn end_to_end(
    tools: &Tools,
    node_args: &[String],
    renderers: Option<PathBuf>,
    times: &mut Times,
) -> Result<()> {
    let e2e = tools.root().join("target").join("e2e");
    // The file that makes a service fail on demand gets a service of its own, so that it can
    // run beside the file testing the service.
    let service = agentregistry::start(([127, 0, 0, 1], 0).into(), ServerOptions::default())?;
    let network_service =
        agentregistry::start(([127, 0, 0, 1], 0).into(), ServerOptions::default())?;
    let sites = [
        Site {
            variable: "SITE_URL",
            options: DistOptions::bundled("/", e2e.join("root"))?,
        },
        // Said to be a later registry build than its probe file's day, so that its pages flag
        // the probe as old, in the HTML as in the app.
        Site {
            variable: "SITE_URL_SUB",
            options: DistOptions::bundled(SUB_PUBLIC_URL, e2e.join("sub"))?
                .with_registry_edition(SUB_REGISTRY_EDITION)?,
        },
        Site {
            variable: "AGENTREGISTRY_SITE_URL",
            options: DistOptions::agentregistry(&service.url(), e2e.join("agentregistry"))?,
        },
        Site {
            variable: "AGENTREGISTRY_NETWORK_SITE_URL",
            options: DistOptions::agentregistry(
                &network_service.url(),
                e2e.join("agentregistry-network"),
            )?,
        },
    ];
    let sites = sites.map(|site| Site {
        options: match &renderers {
            Some(dir) => site.options.with_built_renderers(dir.clone()),
            None => site.options,
        },
        ..site
    });
    // The sites are laid out and rendered at once (their lines interleave), each from the
    // compiled site of its kind, which the release builds above left up to date.
    let servers = times.time("lay out and render the sites", || {
        let built: Vec<Result<dist::DistReport>> = std::thread::scope(|scope| {
            let builds: Vec<_> = sites
                .iter()
                .map(|site| {
                    let settings = &site.options.settings;
                    println!(
                        "\n==> the site at {} over {}",
                        settings.public_url, settings.registry_url
                    );
                    scope.spawn(|| dist::build(tools, &site.options))
                })
                .collect();
            builds
                .into_iter()
                .map(|build| build.join().expect("building a site does not panic"))
                .collect()
        });
        sites
            .iter()
            .zip(built)
            .map(|(site, report)| {
                let settings = &site.options.settings;
                println!("\n==> the site at {}", settings.public_url);
                print!("{}", report?);
                serve::spawn(&site.options.out_dir, &settings.public_url, 0)
            })
            .collect::<Result<Vec<ServerHandle>>>()
    })?;
    times.time("end-to-end tests (Chromium)", || {
        run_node(
            tools,
            node_args,
            &sites,
            &servers,
            &service,
            &network_service,
        )
    })
}

fn run_node(
    tools: &Tools,
    node_args: &[String],
    sites: &[Site],
    servers: &[ServerHandle],
    service: &RegistryServer,
    network_service: &RegistryServer,
) -> Result<()> {
    let mut node = tools.command("node");
    node.arg("--test")
        .arg(format!("--test-concurrency={E2E_CONCURRENCY}"));
    if node_args.is_empty() {
        node.args(e2e_files(&tools.root().join("tests").join("e2e"))?);
    } else {
        node.args(node_args);
    }
    let mut shown = Vec::new();
    for (site, server) in sites.iter().zip(servers) {
        node.env(site.variable, server.url());
        shown.push(format!("{}={}", site.variable, server.url()));
    }
    for (variable, url) in [
        ("AGENTREGISTRY_URL", service.url()),
        ("AGENTREGISTRY_NETWORK_URL", network_service.url()),
    ] {
        node.env(variable, &url);
        shown.push(format!("{variable}={url}"));
    }
    node.env("CHROMIUM", CHROMIUM);
    println!("\n==> {}  ({})", setup::show(&node), shown.join(" "));
    setup::run(&mut node).context("end-to-end tests failed")
}

/// The end-to-end files that take longest, each a minute or more: they start first, so that
/// the files run beside them fill the other lanes instead of leaving one to finish alone.
const SLOWEST_FIRST: [&str; 2] = ["memory.test.mjs", "network.test.mjs"];

/// The `*.test.mjs` files of `dir`, relative to the workspace root: [`SLOWEST_FIRST`], then the
/// others by name.
fn e2e_files(dir: &Path) -> Result<Vec<String>> {
    let mut files: Vec<String> = fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".test.mjs"))
        .collect();
    files.sort_by_key(|name| {
        let rank = SLOWEST_FIRST.iter().position(|slow| slow == name);
        (rank.unwrap_or(SLOWEST_FIRST.len()), name.clone())
    });
    Ok(files
        .into_iter()
        .map(|name| format!("tests/e2e/{name}"))
        .collect())
}

/// How long each step took, in order, and what ran beside them.
#[derive(Debug)]
struct Times {
    /// The steps, one after the other.
    steps: Vec<(String, Duration)>,
    /// What ran beside them.
    beside: Vec<(String, Duration)>,
    started: Instant,
}

impl Default for Times {
    fn default() -> Self {
        Times {
            steps: Vec::new(),
            beside: Vec::new(),
            started: Instant::now(),
        }
    }
}

impl Times {
    /// Runs `step` and records its time under `name`, whether it succeeds or not.
    fn time<T>(&mut self, name: &str, step: impl FnOnce() -> Result<T>) -> Result<T> {
        let start = Instant::now();
        let result = step();
        self.steps.push((name.to_owned(), start.elapsed()));
        result
    }
}

impl fmt::Display for Times {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "\ntime per step:")?;
        for (name, took) in &self.steps {
            writeln!(f, "  {name:<40}{}", minutes(*took))?;
        }
        if !self.beside.is_empty() {
            writeln!(f, "beside the checks:")?;
            for (name, took) in &self.beside {
                writeln!(f, "  {name:<40}{}", minutes(*took))?;
            }
        }
        writeln!(f, "  {:<40}{}", "total", minutes(self.started.elapsed()))
    }
}

/// `4m 05s`, or `12.3s` under a minute.
fn minutes(took: Duration) -> String {
    let seconds = took.as_secs_f64();
    if seconds < 60.0 {
        format!("{seconds:.1}s")
    } else {
        format!("{}m {:02}s", took.as_secs() / 60, took.as_secs() % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slowest_end_to_end_files_start_first() {
        let dir = std::env::temp_dir().join(format!("xtask-e2e-files-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        for name in [
            "agent.test.mjs",
            "network.test.mjs",
            "helpers.mjs",
            "memory.test.mjs",
            "catalogue.test.mjs",
        ] {
            fs::write(dir.join(name), "").unwrap();
        }
        let files = e2e_files(&dir).unwrap();
        assert_eq!(
            files,
            [
                "tests/e2e/memory.test.mjs",
                "tests/e2e/network.test.mjs",
                "tests/e2e/agent.test.mjs",
                "tests/e2e/catalogue.test.mjs",
            ]
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn each_step_is_listed_with_its_time_and_the_total() {
        let mut times = Times::default();
        let ok: Result<u32> = times.time("quick", || Ok(1));
        assert_eq!(ok.unwrap(), 1);
        let failed: Result<()> = times.time("failing", || anyhow::bail!("no"));
        assert!(failed.is_err());
        times
            .steps
            .push(("long".to_owned(), Duration::from_secs(245)));
        times
            .beside
            .push(("release".to_owned(), Duration::from_secs(61)));
        let shown = times.to_string();
        let lines: Vec<&str> = shown
            .lines()
            .skip_while(|l| !l.contains("time per step"))
            .skip(1)
            .collect();
        assert_eq!(lines[0].split_whitespace().next(), Some("quick"));
        assert_eq!(lines[1].split_whitespace().next(), Some("failing"));
        assert!(lines[2].ends_with("4m 05s"), "{shown}");
        assert_eq!(lines[3], "beside the checks:");
        assert!(lines[4].trim_start().starts_with("release") && lines[4].ends_with("1m 01s"));
        // The total is the wall clock, not the sum: what ran beside counts once.
        assert!(lines[5].trim_start().starts_with("total") && lines[5].ends_with('s'));
        assert!(!lines[5].contains('m'), "{shown}");
        assert_eq!(minutes(Duration::from_millis(12_340)), "12.3s");
    }
}
