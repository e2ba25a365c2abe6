//! `cargo xtask bench`: how fast the catalogue is at 1,000 and 10,000 entries (50,000 on
//! request), measured in headless Chromium against the plainest honest catalogue a person could
//! write instead, and how its first view fares in Lighthouse beside that page.
//!
//! 1. [`synthetic`] writes registries of each size shaped like the real one (seeded, so every run
//!    measures the same bytes) to `target/bench/registry-<size>.json`.
//! 2. The release site is built once into `target/bench/site` with [`dist::build`] (whose brotli
//!    sizes are the bundle figures), then copied per size into `target/bench/site-<size>/` with
//!    that size's `registry.json` and the pages it is compared with, linked to the site's own
//!    stylesheet: the plainest honest catalogue, the reference (`bench/plain.html` + `plain.js`:
//!    plain JS, substring match, first 50 results, no facets), the facet-counting plain-JS page
//!    (`bench/baseline.html` + `baseline.js`, a port of registry-core's search and counts) and
//!    an idle page (`bench/idle.html`). Each copy is served by [`serve::spawn`] on an ephemeral
//!    port, compressed as a host serves it, so every page loads the same registry and the same
//!    icons from the same origin.
//! 3. `node bench/measure.mjs` drives Chromium over those servers and writes raw samples to
//!    `target/bench/measurements.json` (see that script for how each figure is taken).
//! 4. [`first_view`]: Lighthouse on the catalogue, an agent page and the plain page over the
//!    bundled registry (`node bench/first-view.mjs`).
//!    Then [`first_answer`]: the same folder behind a phone's slow link that every response
//!    shares, the CPU slowed 4×: how soon a search typed as the box shows is answered on `/` and
//!    on the plain page (`node bench/first-answer.mjs`).
//! 5. [`paging`]: an AgentRegistry of 10,000 agents in 100 pages, each answering after 100 ms,
//!    and the site built for it (`node bench/paging.mjs`): how long until every agent is listed.
//! 6. [`report`] turns samples into medians and percentiles, prints one table with every size
//!    side by side, the first view and the bundle, with the targets beside the figures, and
//!    writes everything, raw samples included, to `target/bench/results.json`.
//!
//! It is a measurement, not a test: it exits 0 whatever the figures are. The machine's load
//! average is printed before and after, since absolute times on a busy machine drift; ratios
//! against the pages measured in the same run are the figures to compare.

mod changes;
mod first_answer;
mod first_view;
mod paging;
mod report;
mod synthetic;
mod table;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use clap::Args;
use serde::Serialize;

use static_host::encoding::{Effort, Encoding};

use crate::dist::{self, AssetKind, AssetSize, DistReport};
use crate::options::DistOptions;
use crate::pages;
use crate::serve::{self, ServerHandle};
use crate::setup::{self, Browser, CHROMIUM};

use self::first_answer::FIRST_ANSWER_RUNS;
use self::first_view::{AGENT_PAGE, FIRST_VIEW_RUNS};
use self::report::{Bundle, LoadAverage, Measurements, Report, SizeReport};
use self::synthetic::Sample;

/// The seed of the synthetic registries; changing it changes every figure a little.
const SEED: u64 = 0xACB_2026;

/// Options of `cargo xtask bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Registry sizes to measure, comma-separated (add 50000 for the 52 MB registry: about
    /// ten more minutes).
    #[arg(long, value_delimiter = ',', default_values_t = [1_000, 10_000])]
    sizes: Vec<usize>,
    /// Fresh page loads behind each load-time median.
    #[arg(long, default_value_t = 5)]
    loads: usize,
    /// How many times each test query is typed on each page (31 keystrokes a round).
    #[arg(long, default_value_t = 2)]
    rounds: usize,
    /// Pause between keystrokes, in milliseconds, so that frames do not overlap.
    #[arg(long, default_value_t = 150)]
    key_delay: u64,
    /// How long to watch for long tasks after the first results, and to wait before reading
    /// memory, in milliseconds.
    #[arg(long, default_value_t = 3_000)]
    settle_ms: u64,
    /// Lighthouse runs per page in the first-view section (their median is reported).
    #[arg(long, default_value_t = FIRST_VIEW_RUNS)]
    first_view_runs: usize,
    /// Loads per page in the first-answer section (their median is reported).
    #[arg(long, default_value_t = FIRST_ANSWER_RUNS)]
    first_answer_runs: usize,
    /// Only the first-view section (Lighthouse) and the bundle sizes: no synthetic registries.
    #[arg(long, conflicts_with = "skip_first_view")]
    first_view_only: bool,
    /// Leave out the first-view section.
    #[arg(long)]
    skip_first_view: bool,
    /// Leave out the AgentRegistry paging section (it builds the site a second time).
    #[arg(long)]
    skip_paging: bool,
    /// Measure the site a previous run built in target/bench/site instead of building it again.
    #[arg(long)]
    reuse_build: bool,
    /// Only the change log's costs (native, a few seconds): no site, no browser.
    #[arg(long)]
    changes_only: bool,
}

/// What `measure.mjs` is told: where each size is served and how to measure.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MeasureConfig {
    sizes: Vec<SizeConfig>,
    loads: usize,
    rounds: usize,
    key_delay: u64,
    settle_ms: u64,
    chromium: String,
    out: PathBuf,
}

/// One size as served.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SizeConfig {
    label: String,
    entries: usize,
    /// The site's URL; the pages it is compared with are beside it (`plain.html`,
    /// `baseline.html`, `idle.html`).
    url: String,
}

/// Generates the registries, builds and serves the site, runs the browser and Lighthouse,
/// prints the tables.
pub fn run(root: &Path, args: &BenchArgs) -> Result<()> {
    ensure!(
        !args.sizes.is_empty() && args.sizes.iter().all(|&n| n > 0),
        "--sizes needs at least one size above 0, e.g. --sizes 1000,10000"
    );
    ensure!(
        args.loads > 0 && args.rounds > 0 && args.first_view_runs > 0 && args.first_answer_runs > 0,
        "--loads, --rounds, --first-view-runs and --first-answer-runs must be at least 1"
    );
    println!("\n==> change log");
    let changes = changes::run(root)?;
    print!("{changes}");
    if args.changes_only {
        return Ok(());
    }
    let started = LoadAverage::now();
    let tools = setup::ensure(root, Browser::Needed)?;
    let bench_dir = root.join("target").join("bench");
    fs::create_dir_all(&bench_dir).with_context(|| format!("creating {}", bench_dir.display()))?;

    let registries = if args.first_view_only {
        Vec::new()
    } else {
        println!("\n==> synthetic registries");
        write_registries(root, &bench_dir, &args.sizes)?
    };

    println!("\n==> release build");
    let site = bench_dir.join("site");
    let built = site_bundle(&tools, &site, &bench_dir, args.reuse_build)?;
    print!("{built}");
    let stylesheet = stylesheet_of(&site)?;

    let measurements = if registries.is_empty() {
        None
    } else {
        let (servers, sizes) =
            serve_copies(&tools, root, &site, &bench_dir, &registries, &stylesheet)?;
        let measured = measure(&tools, &bench_dir, sizes, args)?;
        drop(servers);
        Some(measured)
    };
    let (first_view, first_answer) = if args.skip_first_view {
        (None, None)
    } else {
        println!("\n==> first view");
        let runs = args.first_view_runs;
        let first_view = first_view::run(&tools, &site, &bench_dir, &stylesheet, runs)?;
        println!("\n==> first answer");
        let first_answer = first_answer::run(
            &tools,
            &bench_dir.join(first_view::FOLDER),
            &bench_dir,
            args.first_answer_runs,
        )?;
        (Some(first_view), Some(first_answer))
    };

    let paging = if args.skip_paging || args.first_view_only {
        None
    } else {
        println!("\n==> AgentRegistry paging");
        Some(paging::run(&tools, &bench_dir)?)
    };

    let sizes = measurements.as_ref().map_or(Vec::new(), |measured| {
        measured
            .sizes
            .iter()
            .map(|size| {
                let bytes = registries
                    .iter()
                    .find(|(n, _)| *n == size.entries)
                    .map_or(0, |(_, text)| text.len());
                SizeReport::new(size, bytes)
            })
            .collect()
    });
    let browser = measurements.as_ref().map_or_else(
        || "Chromium (Lighthouse's launcher)".to_owned(),
        |m| m.browser.clone(),
    );
    let report = Report {
        browser,
        cpus: std::thread::available_parallelism().map_or(0, usize::from),
        load_start: started,
        load_end: LoadAverage::now(),
        loads: args.loads,
        sizes,
        failed: measurements
            .as_ref()
            .map_or(Vec::new(), |m| m.failed.clone()),
        first_view,
        first_answer,
        paging,
        changes: Some(changes),
        bundle: bundle(&built, &site)?,
    };
    println!("\n{report}");
    let results_path = bench_dir.join("results.json");
    let results = serde_json::json!({ "summary": report, "raw": measurements });
    write(&results_path, &serde_json::to_string_pretty(&results)?)?;
    println!("results: {}", results_path.display());
    Ok(())
}

/// The bundle figures of the build in `site`: its assets, and the first load of the agent page
/// the first view measures.
fn bundle(built: &DistReport, site: &Path) -> Result<Bundle> {
    let assets = built
        .assets
        .iter()
        .map(|a| (a.kind.as_str().to_owned(), a.raw, a.brotli))
        .collect();
    let agent_html = site.join(AGENT_PAGE).join("index.html");
    let agent_brotli = match fs::read(&agent_html) {
        Ok(html) => Some(Encoding::Brotli.compress(&html, Effort::Best).len() as u64),
        Err(_) => None,
    };
    Ok(Bundle::new(assets, &format!("/{AGENT_PAGE}"), agent_brotli))
}

/// Writes a synthetic registry per size to `registry-<label>.json` and returns their texts.
fn write_registries(
    root: &Path,
    bench_dir: &Path,
    sizes: &[usize],
) -> Result<Vec<(usize, String)>> {
    let sample = Sample::from_registry(&read(&root.join("public").join("registry.json"))?)?;
    let mut registries = Vec::with_capacity(sizes.len());
    for &size in sizes {
        let text = synthetic::generate(&sample, size, SEED);
        let path = bench_dir.join(format!("registry-{}.json", label(size)));
        write(&path, &text)?;
        println!("  {} ({} bytes)", path.display(), text.len());
        registries.push((size, text));
    }
    Ok(registries)
}

/// Copies the built `site` once per registry (see [`prepare_copy`]) and serves each copy on an
/// ephemeral port; the servers stop when the handles are dropped.
fn serve_copies(
    tools: &setup::Tools,
    root: &Path,
    site: &Path,
    bench_dir: &Path,
    registries: &[(usize, String)],
    stylesheet: &str,
) -> Result<(Vec<ServerHandle>, Vec<SizeConfig>)> {
    let mut servers = Vec::with_capacity(registries.len());
    let mut sizes = Vec::with_capacity(registries.len());
    for (size, registry) in registries {
        let dir = bench_dir.join(format!("site-{}", label(*size)));
        prepare_copy(root, site, &dir, Some(registry), stylesheet)?;
        // The copy's first page, as a build over that registry renders it.
        let options = site_options(&dir)?;
        pages::render_index(tools, &options, &dir, &dir.join("registry.json"))?;
        for page in ["index.html", "404.html"] {
            for encoding in Encoding::ALL {
                let stale = dir.join(format!("{page}{}", encoding.suffix()));
                if stale.exists() {
                    fs::remove_file(&stale)
                        .with_context(|| format!("removing {}", stale.display()))?;
                }
            }
        }
        let server = serve::spawn(&dir, "/", 0)?;
        println!("  {} served at {}", dir.display(), server.url());
        sizes.push(SizeConfig {
            label: label(*size),
            entries: *size,
            url: server.url(),
        });
        servers.push(server);
    }
    Ok((servers, sizes))
}

/// Runs `bench/measure.mjs` over the served sizes and reads what it measured.
fn measure(
    tools: &setup::Tools,
    bench_dir: &Path,
    sizes: Vec<SizeConfig>,
    args: &BenchArgs,
) -> Result<Measurements> {
    let out = bench_dir.join("measurements.json");
    let config = MeasureConfig {
        sizes,
        loads: args.loads,
        rounds: args.rounds,
        key_delay: args.key_delay,
        settle_ms: args.settle_ms,
        chromium: CHROMIUM.to_owned(),
        out: out.clone(),
    };
    let config_path = bench_dir.join("measure-config.json");
    write(&config_path, &serde_json::to_string_pretty(&config)?)?;
    let _ = fs::remove_file(&out);

    let mut node = tools.command("node");
    node.arg("bench/measure.mjs").arg(&config_path);
    println!("\n==> {}", setup::show(&node));
    setup::run(&mut node).context("measuring in Chromium failed")?;
    serde_json::from_str(&read(&out)?).with_context(|| format!("reading {}", out.display()))
}

/// `1k`, `10k`, or the number itself when it is not a whole thousand.
fn label(size: usize) -> String {
    if size.is_multiple_of(1_000) {
        format!("{}k", size / 1_000)
    } else {
        size.to_string()
    }
}

/// Builds the release site into `site` (or, with `reuse`, takes the one a previous run built)
/// and returns its sizes; they are kept in `bundle.json` so that a reused build reports them too.
fn site_bundle(
    tools: &setup::Tools,
    site: &Path,
    bench_dir: &Path,
    reuse: bool,
) -> Result<DistReport> {
    let saved = bench_dir.join("bundle.json");
    if reuse && site.join("index.html").is_file() {
        if let Some(report) = fs::read_to_string(&saved)
            .ok()
            .and_then(|text| bundle_from_json(&text, site))
        {
            println!("reusing {} (--reuse-build)", site.display());
            return Ok(report);
        }
        println!("no sizes saved for {}: building it again", site.display());
    }
    let report = dist::build(tools, &site_options(site)?)?;
    let assets: Vec<_> = report
        .assets
        .iter()
        .map(|a| serde_json::json!({ "kind": a.kind.as_str(), "raw": a.raw, "brotli": a.brotli }))
        .collect();
    write(&saved, &serde_json::to_string_pretty(&assets)?)?;
    Ok(report)
}

/// The sizes saved by [`site_bundle`], when they cover every [`AssetKind`].
fn bundle_from_json(text: &str, site: &Path) -> Option<DistReport> {
    let saved: Vec<serde_json::Value> = serde_json::from_str(text).ok()?;
    let kinds = [
        AssetKind::Html,
        AssetKind::Css,
        AssetKind::Js,
        AssetKind::Wasm,
    ];
    let assets = kinds
        .into_iter()
        .map(|kind| {
            let asset = saved
                .iter()
                .find(|a| a.get("kind").and_then(|k| k.as_str()) == Some(kind.as_str()))?;
            Some(AssetSize {
                kind,
                raw: asset.get("raw")?.as_u64()?,
                brotli: asset.get("brotli")?.as_u64()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(DistReport {
        out_dir: site.to_path_buf(),
        assets,
        preview: None,
        worker: (0, 0),
    })
}

/// The file name of the site's stylesheet: Trunk names it after `styles/main.css`,
/// `main-<hash>.css` (beside it, the build's `icons.css` holds the pages' icon masks).
fn stylesheet_of(site: &Path) -> Result<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir(site).with_context(|| format!("listing {}", site.display()))? {
        let name = entry?.file_name();
        if let Some(name) = name.to_str()
            && name.starts_with("main-")
            && name.ends_with(".css")
        {
            found.push(name.to_owned());
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => anyhow::bail!(
            "expected one stylesheet in {}, found {found:?}: did Trunk's output change?",
            site.display()
        ),
    }
}

/// A copy of the built `site` in `dir` with `registry` (if given) as its `registry.json`, and the
/// pages the site is compared with: the plain page and the facet-counting page (both linked to
/// `stylesheet`) and the idle page.
fn prepare_copy(
    root: &Path,
    site: &Path,
    dir: &Path,
    registry: Option<&str>,
    stylesheet: &str,
) -> Result<()> {
    if dir.exists() {
        fs::remove_dir_all(dir).with_context(|| format!("emptying {}", dir.display()))?;
    }
    dist::copy_dir(site, dir)?;
    if let Some(registry) = registry {
        write(&dir.join("registry.json"), registry)?;
        // The copies `dist` compressed beside it are of the bundled registry.
        for encoding in Encoding::ALL {
            let stale = dir.join(format!("registry.json{}", encoding.suffix()));
            if stale.exists() {
                fs::remove_file(&stale).with_context(|| format!("removing {}", stale.display()))?;
            }
        }
    }
    let pages = root.join("bench");
    for page in ["plain.html", "baseline.html"] {
        let html = read(&pages.join(page))?;
        ensure!(
            html.contains("{{stylesheet}}"),
            "bench/{page} must link the site's stylesheet as href=\"{{{{stylesheet}}}}\""
        );
        write(&dir.join(page), &html.replace("{{stylesheet}}", stylesheet))?;
    }
    for file in ["plain.js", "baseline.js", "idle.html"] {
        fs::copy(pages.join(file), dir.join(file))
            .with_context(|| format!("copying bench/{file}"))?;
    }
    Ok(())
}

/// How the bench builds the site into `dir`: the defaults, as `cargo xtask serve` builds it.
fn site_options(dir: &Path) -> Result<DistOptions> {
    DistOptions::bundled("/", dir.to_path_buf())
}

/// Runs `node bench/<name>.mjs` with `config` (a JSON object, to which this adds `chromium` and
/// `out`, `<bench_dir>/<name>.json`), written to `<bench_dir>/<name>-config.json`, and reads the
/// figures the script wrote to `out`; `what` says what failed when it fails.
fn node_script<T: serde::de::DeserializeOwned>(
    tools: &setup::Tools,
    bench_dir: &Path,
    name: &str,
    mut config: serde_json::Value,
    what: &str,
) -> Result<T> {
    let out = bench_dir.join(format!("{name}.json"));
    let _ = fs::remove_file(&out);
    config["chromium"] = CHROMIUM.into();
    config["out"] = serde_json::to_value(&out)?;
    let config_path = bench_dir.join(format!("{name}-config.json"));
    write(&config_path, &serde_json::to_string_pretty(&config)?)?;
    let mut node = tools.command("node");
    node.arg(format!("bench/{name}.mjs")).arg(&config_path);
    println!("\n==> {}", setup::show(&node));
    setup::run(&mut node).with_context(|| format!("{what} failed"))?;
    serde_json::from_str(&read(&out)?).with_context(|| format!("reading {}", out.display()))
}

/// The pages `(name, path under the site, …)` at `url`, as the scripts' configs list them.
fn page_urls<const N: usize>(pages: &[(&str, &str, &str); N], url: &str) -> serde_json::Value {
    pages
        .iter()
        .map(|(name, path, _)| serde_json::json!({ "name": name, "url": format!("{url}{path}") }))
        .collect()
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        for (size, expected) in [
            (1_000, "1k"),
            (10_000, "10k"),
            (2_500, "2500"),
            (130, "130"),
        ] {
            assert_eq!(label(size), expected);
        }
    }

    #[test]
    fn saved_bundle_sizes_round_trip() {
        let text = r#"[{"kind":"html","raw":10,"brotli":5},{"kind":"css","raw":20,"brotli":6},
            {"kind":"js","raw":30,"brotli":7},{"kind":"wasm","raw":40,"brotli":8}]"#;
        let report = bundle_from_json(text, Path::new("site")).unwrap();
        assert_eq!(report.total_brotli(), 26);
        assert_eq!(
            bundle_from_json("[]", Path::new("site")).map(|r| r.assets),
            None
        );
    }
}
