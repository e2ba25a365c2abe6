//! From raw browser samples to the figures `cargo xtask bench` prints and saves.
//!
//! [`Measurements`] is what `bench/measure.mjs` writes; [`SizeReport::new`] reduces one size to
//! medians (page loads) and nearest-rank percentiles (keystrokes), computes the ratios the
//! targets are stated in — the site against the plainest honest catalogue (`plain`, the
//! reference) and against the facet-counting plain-JS page (`baseline`) — and [`Report`]'s
//! `Display` lays every size out side by side with the target of each figure beside it and a ✓
//! or ✗ where a target applies, then the first view ([`super::first_view`]) and the first
//! answer ([`super::first_answer`]), the AgentRegistry
//! paging ([`super::paging`]) and the bundle.
//! Nothing here fails on a missed target: the benchmark reports, it does not judge.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::first_answer::FirstAnswerReport;
use super::first_view::FirstViewReport;
use super::paging::PagingReport;
use super::table::{
    Row, mark, median, megabytes, ms, pair, percentile, ratio, thousands, times, with_mark,
    write_table,
};

/// The first load of a page (html + css + js + wasm, brotli 11), at most.
const TARGET_FIRST_LOAD_BYTES: u64 = 300_000;
/// `acp:parse+index` over `JSON.parse` of the same text, at most.
const TARGET_PARSE_RATIO: f64 = 1.5;
/// Keystroke to next frame, 95th percentile, at most.
const TARGET_KEYSTROKE_P95_MS: f64 = 20.0;
/// The site over the plain page (first results, keystroke p95), at most.
const TARGET_VS_PLAIN: f64 = 1.0;
/// The size from which the timing targets apply.
const TARGETS_FROM: usize = 10_000;

/// Everything `measure.mjs` measured.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measurements {
    /// The browser's product and version, e.g. `Chromium 156.0.8078.114`.
    pub browser: String,
    /// One per registry size, in the order measured.
    pub sizes: Vec<SizeMeasurements>,
    /// The sizes that could not be measured (a page that never showed results, a crash).
    #[serde(default)]
    pub failed: Vec<FailedSize>,
}

/// A size whose measurement stopped, and why.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct FailedSize {
    /// `50k`.
    pub label: String,
    /// Entries in the registry.
    pub entries: usize,
    /// The first line of the error, e.g. a timeout waiting for the first results.
    pub error: String,
}

/// The samples of one registry size.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizeMeasurements {
    /// `1k`, `10k`.
    pub label: String,
    /// Entries in the registry.
    pub entries: usize,
    /// Fresh loads of each page.
    pub loads: Loads,
    /// Keystroke samples per page.
    pub keystrokes: Keystrokes,
    /// Site and facet-counting page compared on a few queries.
    pub self_check: Vec<SelfCheck>,
    /// The plain page's counts compared with a scan of the registry by the same rule.
    pub plain_check: Vec<SelfCheck>,
}

/// Fresh loads of the three catalogues.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Loads {
    /// The site.
    pub site: Vec<Load>,
    /// The plainest honest catalogue (`bench/plain.js`).
    pub plain: Vec<Load>,
    /// The facet-counting plain-JS page (`bench/baseline.js`).
    pub baseline: Vec<Load>,
}

/// One fresh load of a page, times in milliseconds from navigation start.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Load {
    /// The first animation frame after the first result card exists.
    pub first_results: f64,
    /// The `acp:parse` User Timing measure, when the page recorded it.
    pub parse: Option<f64>,
    /// The `acp:parse+index` measure.
    pub parse_index: Option<f64>,
    /// On the site: median of five `JSON.parse` runs of the same `registry.json`, after a
    /// warm-up.
    pub json_parse: Option<f64>,
    /// Tasks over 50 ms that started after the first results were painted (and within the
    /// settling time the script waits).
    pub long_tasks: Vec<LongTask>,
    /// JS heap in use after a garbage collection, in bytes, once settled.
    pub js_heap: Option<f64>,
    /// The wasm instances' memory, in bytes, once settled; `None` without wasm.
    pub wasm_memory: Option<f64>,
}

/// One entry of `PerformanceObserver('longtask')`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
pub struct LongTask {
    /// When it started, in ms from navigation start.
    pub start: f64,
    /// How long it ran, in ms.
    pub duration: f64,
}

/// Keystroke samples of every page.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Keystrokes {
    /// The catalogue.
    pub site: Vec<Keystroke>,
    /// The plainest honest catalogue.
    pub plain: Vec<Keystroke>,
    /// The facet-counting plain-JS page.
    pub baseline: Vec<Keystroke>,
    /// A page with nothing but an input: the cost of waiting for a frame at all.
    pub idle: Vec<Keystroke>,
}

/// One keystroke, times in milliseconds from navigation start.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Keystroke {
    /// The query being typed.
    pub query: String,
    /// The box's value after this keystroke.
    pub value: String,
    /// The `input` event's `timeStamp`.
    pub start: f64,
    /// The first `requestAnimationFrame` callback after the event.
    pub raf: f64,
    /// A task posted from that callback: the frame's style, layout and paint are done.
    pub done: f64,
    /// Whether the page still changed after that frame (the app had not finished by then).
    pub stale: bool,
}

impl Keystroke {
    fn next_frame(&self) -> f64 {
        self.raf - self.start
    }

    fn frame_done(&self) -> f64 {
        self.done - self.start
    }
}

/// Two pages compared on one query.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SelfCheck {
    /// The query.
    pub query: String,
    /// What differed (top-10 ids, count text, facet counts); empty when they agree.
    pub differences: Vec<String>,
}

/// The 1-, 5- and 15-minute load averages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LoadAverage(pub [f64; 3]);

impl LoadAverage {
    /// The current load average (Linux), or `None` where `/proc/loadavg` cannot be read.
    pub fn now() -> Option<LoadAverage> {
        Self::parse(&std::fs::read_to_string("/proc/loadavg").ok()?)
    }

    fn parse(text: &str) -> Option<LoadAverage> {
        let mut fields = text.split_whitespace().map(|f| f.parse::<f64>().ok());
        Some(LoadAverage([
            fields.next()??,
            fields.next()??,
            fields.next()??,
        ]))
    }
}

impl fmt::Display for LoadAverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [one, five, fifteen] = self.0;
        write!(f, "{one:.2} {five:.2} {fifteen:.2}")
    }
}

/// The figures of a run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The browser measured.
    pub browser: String,
    /// CPUs available.
    pub cpus: usize,
    /// Load average before anything ran.
    pub load_start: Option<LoadAverage>,
    /// Load average after the browser closed.
    pub load_end: Option<LoadAverage>,
    /// Page loads behind each load-time median.
    pub loads: usize,
    /// One per size (none with `--first-view-only`).
    pub sizes: Vec<SizeReport>,
    /// Sizes that could not be measured.
    pub failed: Vec<FailedSize>,
    /// The first view in Lighthouse, unless skipped.
    pub first_view: Option<FirstViewReport>,
    /// The first answer on a phone's link, with the first view.
    pub first_answer: Option<FirstAnswerReport>,
    /// An AgentRegistry's long listing, unless skipped.
    pub paging: Option<PagingReport>,
    /// The change log's costs.
    pub changes: Option<super::changes::ChangeLogFigures>,
    /// The release bundle.
    pub bundle: Bundle,
}

/// What a visitor downloads before the app runs: sizes of the release build.
#[derive(Debug, Clone, Serialize)]
pub struct Bundle {
    /// Per kind (html is `index.html`): `(kind, raw bytes, brotli bytes)`.
    pub assets: Vec<(String, u64, u64)>,
    /// The catalogue's first load: the sum of the brotli sizes.
    pub catalogue_brotli: u64,
    /// The agent page measured, its HTML's brotli size, and its first load (its HTML instead
    /// of `index.html`); `None` when the build has no such page.
    pub agent_page: Option<(String, u64, u64)>,
    /// [`TARGET_FIRST_LOAD_BYTES`].
    pub target_brotli: u64,
}

impl Bundle {
    /// The bundle of `assets` (`(kind, raw, brotli)`), with the agent page at `agent_path`
    /// whose HTML is `agent_html_brotli` bytes in brotli, if the build has it.
    pub fn new(
        assets: Vec<(String, u64, u64)>,
        agent_path: &str,
        agent_html_brotli: Option<u64>,
    ) -> Bundle {
        let catalogue_brotli = assets.iter().map(|(_, _, brotli)| brotli).sum();
        let index_html = assets
            .iter()
            .find(|(kind, _, _)| kind == "html")
            .map_or(0, |(_, _, brotli)| *brotli);
        let agent_page = agent_html_brotli.map(|html| {
            (
                agent_path.to_owned(),
                html,
                catalogue_brotli - index_html + html,
            )
        });
        Bundle {
            assets,
            catalogue_brotli,
            agent_page,
            target_brotli: TARGET_FIRST_LOAD_BYTES,
        }
    }
}

/// The figures of one size.
#[derive(Debug, Clone, Serialize)]
pub struct SizeReport {
    /// `1k`, `10k`.
    pub label: String,
    /// Entries.
    pub entries: usize,
    /// Bytes of `registry.json`.
    pub registry_bytes: usize,
    /// The site.
    pub site: PageReport,
    /// The plainest honest catalogue, the reference.
    pub plain: PageReport,
    /// The facet-counting plain-JS page.
    pub baseline: PageReport,
    /// Keystroke latency on the idle page.
    pub idle: Latency,
    /// Median `JSON.parse` of the registry, in the site's page.
    pub json_parse_ms: Option<f64>,
    /// The site's `parse_index_ms / json_parse_ms`.
    pub parse_index_ratio: Option<f64>,
    /// Site over plain page, median first results.
    pub first_results_vs_plain: Option<f64>,
    /// Site over facet-counting page, median first results.
    pub first_results_vs_baseline: Option<f64>,
    /// Site p95 over plain page p95, keystroke to next frame.
    pub p95_vs_plain: Option<f64>,
    /// Site p95 over facet-counting page p95, keystroke to next frame.
    pub p95_vs_baseline: Option<f64>,
    /// Site p95 over plain page p95, keystroke to frame done.
    pub done_p95_vs_plain: Option<f64>,
    /// Site p95 over facet-counting page p95, keystroke to frame done.
    pub done_p95_vs_baseline: Option<f64>,
    /// Differences between the site and the facet-counting page, per query that differed.
    pub self_check: Vec<String>,
    /// Differences between the plain page and a scan by its rule, per query that differed.
    pub plain_check: Vec<String>,
}

/// The figures of one page at one size.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PageReport {
    /// Loads measured.
    pub loads: usize,
    /// Median first results painted.
    pub first_results_ms: Option<f64>,
    /// Median `acp:parse`.
    pub parse_ms: Option<f64>,
    /// Median of `acp:parse+index − acp:parse`: what is built after reading.
    pub index_ms: Option<f64>,
    /// Median `acp:parse+index`.
    pub parse_index_ms: Option<f64>,
    /// Long tasks after the first results, in the load that had the most of them (by time).
    pub long_tasks: LongTasks,
    /// Loads that had any long task after their first results.
    pub loads_with_long_tasks: usize,
    /// Median JS heap in use once settled, bytes.
    pub js_heap_bytes: Option<f64>,
    /// Median wasm memory once settled, bytes.
    pub wasm_memory_bytes: Option<f64>,
    /// Keystroke latency.
    pub keystrokes: Latency,
}

/// Long tasks of one load.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct LongTasks {
    /// How many.
    pub count: usize,
    /// Their durations, summed, in ms.
    pub total_ms: f64,
    /// The longest, in ms (0 when none).
    pub longest_ms: f64,
}

impl LongTasks {
    fn of(tasks: &[LongTask]) -> LongTasks {
        LongTasks {
            count: tasks.len(),
            // A fold from +0.0: `sum` of no floats is -0.0.
            total_ms: tasks.iter().fold(0.0, |total, t| total + t.duration),
            longest_ms: tasks.iter().map(|t| t.duration).fold(0.0, f64::max),
        }
    }

    /// The worst of several loads: the one whose long tasks add up to the most.
    fn worst(loads: &[Load]) -> LongTasks {
        loads
            .iter()
            .map(|load| LongTasks::of(&load.long_tasks))
            .max_by(|a, b| a.total_ms.total_cmp(&b.total_ms))
            .unwrap_or_default()
    }
}

/// Keystroke latencies of one page.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Latency {
    /// Samples taken.
    pub samples: usize,
    /// Samples whose page changed again after the measured frame.
    pub stale: usize,
    /// Keystroke to next animation frame: `[p50, p95]`.
    pub next_frame_ms: Option<[f64; 2]>,
    /// Keystroke to the end of that frame: `[p50, p95]`.
    pub frame_done_ms: Option<[f64; 2]>,
}

impl Latency {
    fn of(samples: &[Keystroke]) -> Latency {
        let p50_p95 =
            |values: Vec<f64>| Some([percentile(&values, 50.0)?, percentile(&values, 95.0)?]);
        Latency {
            samples: samples.len(),
            stale: samples.iter().filter(|k| k.stale).count(),
            next_frame_ms: p50_p95(samples.iter().map(Keystroke::next_frame).collect()),
            frame_done_ms: p50_p95(samples.iter().map(Keystroke::frame_done).collect()),
        }
    }

    fn p95(&self) -> Option<f64> {
        self.next_frame_ms.map(|[_, p95]| p95)
    }

    fn done_p95(&self) -> Option<f64> {
        self.frame_done_ms.map(|[_, p95]| p95)
    }
}

impl PageReport {
    fn new(loads: &[Load], keystrokes: &[Keystroke]) -> PageReport {
        PageReport {
            loads: loads.len(),
            first_results_ms: median(loads.iter().map(|l| l.first_results)),
            parse_ms: median(loads.iter().filter_map(|l| l.parse)),
            index_ms: median(loads.iter().filter_map(|l| Some(l.parse_index? - l.parse?))),
            parse_index_ms: median(loads.iter().filter_map(|l| l.parse_index)),
            long_tasks: LongTasks::worst(loads),
            loads_with_long_tasks: loads.iter().filter(|l| !l.long_tasks.is_empty()).count(),
            js_heap_bytes: median(loads.iter().filter_map(|l| l.js_heap)),
            wasm_memory_bytes: median(loads.iter().filter_map(|l| l.wasm_memory)),
            keystrokes: Latency::of(keystrokes),
        }
    }
}

impl SizeReport {
    /// Reduces the samples of one size; `registry_bytes` is its `registry.json`'s length.
    pub fn new(size: &SizeMeasurements, registry_bytes: usize) -> SizeReport {
        let site = PageReport::new(&size.loads.site, &size.keystrokes.site);
        let plain = PageReport::new(&size.loads.plain, &size.keystrokes.plain);
        let baseline = PageReport::new(&size.loads.baseline, &size.keystrokes.baseline);
        let json_parse_ms = median(size.loads.site.iter().filter_map(|l| l.json_parse));
        let differences = |checks: &[SelfCheck]| {
            checks
                .iter()
                .filter(|c| !c.differences.is_empty())
                .map(|c| format!("“{}”: {}", c.query, c.differences.join("; ")))
                .collect()
        };
        SizeReport {
            label: size.label.clone(),
            entries: size.entries,
            registry_bytes,
            json_parse_ms,
            parse_index_ratio: ratio(site.parse_index_ms, json_parse_ms),
            first_results_vs_plain: ratio(site.first_results_ms, plain.first_results_ms),
            first_results_vs_baseline: ratio(site.first_results_ms, baseline.first_results_ms),
            p95_vs_plain: ratio(site.keystrokes.p95(), plain.keystrokes.p95()),
            p95_vs_baseline: ratio(site.keystrokes.p95(), baseline.keystrokes.p95()),
            done_p95_vs_plain: ratio(site.keystrokes.done_p95(), plain.keystrokes.done_p95()),
            done_p95_vs_baseline: ratio(site.keystrokes.done_p95(), baseline.keystrokes.done_p95()),
            idle: Latency::of(&size.keystrokes.idle),
            self_check: differences(&size.self_check),
            plain_check: differences(&size.plain_check),
            site,
            plain,
            baseline,
        }
    }

    /// Whether the timing targets apply at this size.
    fn targeted(&self) -> bool {
        self.entries >= TARGETS_FROM
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let load = |l: Option<LoadAverage>| l.map_or("unknown".to_owned(), |l| l.to_string());
        writeln!(
            f,
            "ACP catalogue benchmark · {} · {} CPUs · load average (1/5/15 min) at start {}, at end {}",
            self.browser,
            self.cpus,
            load(self.load_start),
            load(self.load_end)
        )?;
        let busiest = [self.load_start, self.load_end]
            .into_iter()
            .flatten()
            .map(|l| l.0[0])
            .fold(0.0, f64::max);
        if self.cpus > 0 && busiest > self.cpus as f64 {
            writeln!(
                f,
                "NOTE: the machine was busy (1-minute load {busiest:.2} on {} CPUs): absolute times \
                 are inflated and noisy; the ratios against the plain pages of this run hold better.",
                self.cpus
            )?;
        }
        if !self.sizes.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "Synthetic registries · site, plain JS (the reference: substring match, first 50 \
                 results, no facets) and facet-counting JS, same data, same run · loads: median of {}",
                self.loads
            )?;
            write_table(f, &self.rows(), &self.headers())?;
        }
        for failed in &self.failed {
            writeln!(
                f,
                "NOT MEASURED: {} ({} entries): {}",
                failed.label,
                thousands(failed.entries as u64),
                failed.error
            )?;
        }
        if let Some(first_view) = &self.first_view {
            writeln!(f)?;
            write!(f, "{first_view}")?;
        }
        if let Some(first_answer) = &self.first_answer {
            writeln!(f)?;
            write!(f, "{first_answer}")?;
        }
        if let Some(paging) = &self.paging {
            writeln!(f)?;
            write!(f, "{paging}")?;
        }
        writeln!(f)?;
        if let Some(changes) = &self.changes {
            writeln!(f, "{changes}")?;
        }
        write!(f, "{}", self.bundle)?;
        let warnings: Vec<String> = self
            .sizes
            .iter()
            .flat_map(|s| {
                let facets = s.self_check.iter().map(move |d| {
                    format!("{}: site and facet-counting JS disagree on {d}", s.label)
                });
                let plain = s
                    .plain_check
                    .iter()
                    .map(move |d| format!("{}: the plain page miscounts {d}", s.label));
                facets.chain(plain)
            })
            .collect();
        if !warnings.is_empty() {
            writeln!(f)?;
            for warning in warnings {
                writeln!(f, "WARNING: {warning}")?;
            }
        }
        if !self.sizes.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "Times in ms from the input event's timeStamp (keystrokes) or navigation start (loads); \
                 p50/p95 are nearest-rank.\n\"next frame\" is the first requestAnimationFrame callback after \
                 the input event; \"frame done\" is a task posted from it, after that frame's style, \
                 layout and paint.\n\"index\" is acp:parse+index minus acp:parse: what a page builds after \
                 reading the entries (the plain page: lower-cased texts). Long tasks: over 50 ms, started \
                 after the first results were painted, in the worst load (and how many loads had any).\n\
                 JS heap: in use after a garbage collection, once settled; wasm memory: the instance's \
                 linear memory. The idle page is an <input> alone: what waiting for a frame costs by \
                 itself. Compare ratios, not absolute times, on a busy machine."
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for Bundle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bundle (release dist, brotli quality 11)")?;
        writeln!(f, "  {:<6}{:>12}{:>12}", "", "raw", "brotli")?;
        for (kind, raw, brotli) in &self.assets {
            writeln!(
                f,
                "  {kind:<6}{:>12}{:>12}",
                thousands(*raw),
                thousands(*brotli)
            )?;
        }
        let target = |bytes: u64| {
            format!(
                "target ≤ {} {}",
                thousands(self.target_brotli),
                mark(bytes <= self.target_brotli)
            )
        };
        writeln!(
            f,
            "  first load of the catalogue (index.html + css + js + wasm): {:>9}   {}",
            thousands(self.catalogue_brotli),
            target(self.catalogue_brotli)
        )?;
        match &self.agent_page {
            Some((path, html, total)) => writeln!(
                f,
                "  first load of {path} (its html: {}):     {:>9}   {}",
                thousands(*html),
                thousands(*total),
                target(*total)
            ),
            None => writeln!(f, "  no agent page in this build to measure"),
        }
    }
}

impl Report {
    fn headers(&self) -> Vec<String> {
        self.sizes
            .iter()
            .map(|s| format!("{} ({} entries)", s.label, thousands(s.entries as u64)))
            .collect()
    }

    fn rows(&self) -> Vec<Row> {
        let cells = |cell: &dyn Fn(&SizeReport) -> String| self.sizes.iter().map(cell).collect();
        let from = thousands(TARGETS_FROM as u64);
        let at_most = |value: Option<f64>, limit: f64, s: &SizeReport| {
            s.targeted().then(|| value.map(|v| v <= limit)).flatten()
        };
        let vs_plain = format!("≤ {TARGET_VS_PLAIN:.1}× from {from}");
        let three = |s: &SizeReport, value: &dyn Fn(&PageReport) -> Option<f64>| {
            format!(
                "{} / {} / {}",
                ms(value(&s.site)),
                ms(value(&s.plain)),
                ms(value(&s.baseline))
            )
        };
        let long_tasks = |page: &PageReport| {
            let t = page.long_tasks;
            let loads = format!("({}/{})", page.loads_with_long_tasks, page.loads);
            if t.count == 0 {
                format!("none {loads}")
            } else {
                format!(
                    "{} · {} · {} {loads}",
                    t.count,
                    ms(Some(t.total_ms)),
                    ms(Some(t.longest_ms))
                )
            }
        };
        vec![
            Row::new("registry.json", cells(&|s| megabytes(s.registry_bytes)), ""),
            Row::new(
                "first results painted: site",
                cells(&|s| ms(s.site.first_results_ms)),
                "",
            ),
            Row::new(
                "  plain JS (reference)",
                cells(&|s| ms(s.plain.first_results_ms)),
                "",
            ),
            Row::new(
                "  facet-counting JS",
                cells(&|s| ms(s.baseline.first_results_ms)),
                "",
            ),
            Row::new(
                "  site / plain JS",
                cells(&|s| {
                    with_mark(
                        times(s.first_results_vs_plain),
                        at_most(s.first_results_vs_plain, TARGET_VS_PLAIN, s),
                    )
                }),
                &vs_plain,
            ),
            Row::new(
                "  site / facet-counting JS",
                cells(&|s| times(s.first_results_vs_baseline)),
                "",
            ),
            Row::new(
                "parse: site / plain / facet-counting",
                cells(&|s| three(s, &|p| p.parse_ms)),
                "",
            ),
            Row::new(
                "index: site / plain / facet-counting",
                cells(&|s| three(s, &|p| p.index_ms)),
                "",
            ),
            Row::new(
                "JSON.parse, same text (site's page)",
                cells(&|s| ms(s.json_parse_ms)),
                "",
            ),
            Row::new(
                "  site parse + index / JSON.parse",
                cells(&|s| {
                    with_mark(
                        times(s.parse_index_ratio),
                        s.parse_index_ratio.map(|r| r <= TARGET_PARSE_RATIO),
                    )
                }),
                &format!("≤ {TARGET_PARSE_RATIO}×"),
            ),
            Row::new(
                "keystroke → next frame p50 / p95: site",
                cells(&|s| {
                    with_mark(
                        pair(s.site.keystrokes.next_frame_ms),
                        at_most(s.site.keystrokes.p95(), TARGET_KEYSTROKE_P95_MS, s),
                    )
                }),
                &format!("p95 ≤ {TARGET_KEYSTROKE_P95_MS} ms from {from}"),
            ),
            Row::new(
                "  plain JS",
                cells(&|s| pair(s.plain.keystrokes.next_frame_ms)),
                "",
            ),
            Row::new(
                "  facet-counting JS",
                cells(&|s| pair(s.baseline.keystrokes.next_frame_ms)),
                "",
            ),
            Row::new(
                "  idle page (frame baseline)",
                cells(&|s| pair(s.idle.next_frame_ms)),
                "",
            ),
            Row::new(
                "  site / plain JS (p95)",
                cells(&|s| {
                    with_mark(
                        times(s.p95_vs_plain),
                        at_most(s.p95_vs_plain, TARGET_VS_PLAIN, s),
                    )
                }),
                &vs_plain,
            ),
            Row::new(
                "  site / facet-counting JS (p95)",
                cells(&|s| times(s.p95_vs_baseline)),
                "",
            ),
            Row::new(
                "keystroke → frame done p50 / p95: site",
                cells(&|s| pair(s.site.keystrokes.frame_done_ms)),
                "",
            ),
            Row::new(
                "  plain JS",
                cells(&|s| pair(s.plain.keystrokes.frame_done_ms)),
                "",
            ),
            Row::new(
                "  facet-counting JS",
                cells(&|s| pair(s.baseline.keystrokes.frame_done_ms)),
                "",
            ),
            Row::new("  idle page", cells(&|s| pair(s.idle.frame_done_ms)), ""),
            Row::new(
                "  site / plain JS · / facet-counting (p95)",
                cells(&|s| {
                    format!(
                        "{} · {}",
                        times(s.done_p95_vs_plain),
                        times(s.done_p95_vs_baseline)
                    )
                }),
                "",
            ),
            Row::new(
                "long tasks after first results: site",
                cells(&|s| {
                    let none = s.site.loads > 0 && s.site.loads_with_long_tasks == 0;
                    with_mark(long_tasks(&s.site), s.targeted().then_some(none))
                }),
                &format!("none from {from}"),
            ),
            Row::new("  plain JS", cells(&|s| long_tasks(&s.plain)), ""),
            Row::new(
                "  facet-counting JS",
                cells(&|s| long_tasks(&s.baseline)),
                "",
            ),
            Row::new(
                "JS heap: site / plain / facet-counting",
                cells(&|s| {
                    format!(
                        "{} / {} / {}",
                        megabytes_f(s.site.js_heap_bytes),
                        megabytes_f(s.plain.js_heap_bytes),
                        megabytes_f(s.baseline.js_heap_bytes)
                    )
                }),
                "",
            ),
            Row::new(
                "wasm memory: site",
                cells(&|s| megabytes_f(s.site.wasm_memory_bytes)),
                "",
            ),
            Row::new(
                "keystrokes: site / plain / facets / idle",
                cells(&|s| {
                    format!(
                        "{} / {} / {} / {}",
                        s.site.keystrokes.samples,
                        s.plain.keystrokes.samples,
                        s.baseline.keystrokes.samples,
                        s.idle.samples
                    )
                }),
                "≥ 40 each",
            ),
            Row::new(
                "  changed after the frame: site / plain / facets",
                cells(&|s| {
                    format!(
                        "{} / {} / {}",
                        s.site.keystrokes.stale,
                        s.plain.keystrokes.stale,
                        s.baseline.keystrokes.stale
                    )
                }),
                "0",
            ),
            Row::new(
                "top 10, counts, facets: site = facet-counting JS",
                cells(&|s| agreement(&s.self_check)),
                "yes",
            ),
            Row::new(
                "counts: plain JS = a scan by its rule",
                cells(&|s| agreement(&s.plain_check)),
                "yes",
            ),
        ]
    }
}

fn agreement(differences: &[String]) -> String {
    if differences.is_empty() {
        "yes".to_owned()
    } else {
        format!("NO ({} queries)", differences.len())
    }
}

/// Bytes as megabytes with one decimal, `n/a` when unknown.
fn megabytes_f(bytes: Option<f64>) -> String {
    bytes.map_or("n/a".to_owned(), |b| format!("{:.1} MB", b / 1_000_000.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_average_reads_proc_format() {
        assert_eq!(
            LoadAverage::parse("1.34 3.33 3.60 5/123 22690\n"),
            Some(LoadAverage([1.34, 3.33, 3.60]))
        );
        assert_eq!(LoadAverage::parse("garbage"), None);
    }

    fn load(first_results: f64, parse: f64, index: f64, long_tasks: &[f64]) -> Load {
        Load {
            first_results,
            parse: Some(parse),
            parse_index: Some(parse + index),
            json_parse: Some(parse / 4.0),
            long_tasks: long_tasks
                .iter()
                .map(|&duration| LongTask {
                    start: first_results + 10.0,
                    duration,
                })
                .collect(),
            js_heap: Some(first_results * 1_000.0),
            wasm_memory: None,
        }
    }

    fn keystrokes(latency: f64) -> Vec<Keystroke> {
        (0..40)
            .map(|i| Keystroke {
                query: "q".into(),
                value: "q".into(),
                start: f64::from(i) * 100.0,
                raf: f64::from(i) * 100.0 + latency,
                done: f64::from(i) * 100.0 + latency + 1.0,
                stale: false,
            })
            .collect()
    }

    fn size(entries: usize) -> SizeMeasurements {
        SizeMeasurements {
            label: "x".into(),
            entries,
            loads: Loads {
                site: vec![
                    load(700.0, 100.0, 140.0, &[]),
                    load(800.0, 120.0, 150.0, &[60.0, 70.0]),
                    load(750.0, 110.0, 160.0, &[200.0]),
                ],
                plain: vec![load(450.0, 30.0, 5.0, &[]), load(460.0, 30.0, 7.0, &[])],
                baseline: vec![load(900.0, 40.0, 60.0, &[])],
            },
            keystrokes: Keystrokes {
                site: keystrokes(27.0),
                plain: keystrokes(18.0),
                baseline: keystrokes(36.0),
                idle: keystrokes(8.0),
            },
            self_check: vec![SelfCheck {
                query: "a".into(),
                differences: vec![],
            }],
            plain_check: vec![SelfCheck {
                query: "b".into(),
                differences: vec!["count".into()],
            }],
        }
    }

    #[test]
    fn a_size_reduces_to_medians_ratios_and_the_worst_long_tasks() {
        let report = SizeReport::new(&size(10_000), 9_000_000);
        assert_eq!(report.site.first_results_ms, Some(750.0));
        assert_eq!(report.site.parse_ms, Some(110.0));
        assert_eq!(report.site.index_ms, Some(150.0));
        assert_eq!(report.plain.index_ms, Some(6.0));
        assert_eq!(report.json_parse_ms, Some(27.5));
        assert_eq!(report.site.parse_index_ms, Some(270.0));
        assert_eq!(report.parse_index_ratio, Some(270.0 / 27.5));
        assert_eq!(report.first_results_vs_plain, Some(750.0 / 455.0));
        assert_eq!(report.first_results_vs_baseline, Some(750.0 / 900.0));
        assert_eq!(report.p95_vs_plain, Some(27.0 / 18.0));
        assert_eq!(report.p95_vs_baseline, Some(27.0 / 36.0));
        // The third load's single task (200 ms) outweighs the second's two (130 ms).
        assert_eq!(
            report.site.long_tasks,
            LongTasks {
                count: 1,
                total_ms: 200.0,
                longest_ms: 200.0
            }
        );
        assert_eq!(report.site.loads_with_long_tasks, 2);
        assert_eq!(report.plain.long_tasks, LongTasks::default());
        assert!(report.plain.long_tasks.total_ms.is_sign_positive());
        assert_eq!(report.site.js_heap_bytes, Some(750_000.0));
        assert_eq!(report.site.wasm_memory_bytes, None);
        assert!(report.self_check.is_empty());
        assert_eq!(report.plain_check, ["“b”: count"]);
    }

    #[test]
    fn targets_are_marked_from_ten_thousand_entries() {
        let table = |entries: usize| {
            let report = Report {
                browser: "Chromium".into(),
                cpus: 2,
                load_start: None,
                load_end: None,
                loads: 3,
                sizes: vec![SizeReport::new(&size(entries), 1)],
                failed: vec![FailedSize {
                    label: "50k".into(),
                    entries: 50_000,
                    error: "page.waitForFunction: Timeout 120000ms exceeded.".into(),
                }],
                first_view: None,
                first_answer: None,
                paging: None,
                changes: None,
                bundle: Bundle::new(vec![("html".into(), 1, 1)], "/agents/x/", None),
            };
            report.to_string()
        };
        let large = table(10_000);
        let line = |text: &str, label: &str| {
            text.lines()
                .find(|l| l.starts_with(label))
                .unwrap_or_else(|| panic!("no “{label}” in {text}"))
                .to_owned()
        };
        assert!(
            line(&large, "long tasks after first results: site")
                .contains("1 · 200 ms · 200 ms (2/3) ✗")
        );
        let after_site = large
            .lines()
            .skip_while(|l| !l.starts_with("long tasks after first results: site"))
            .nth(1)
            .unwrap();
        assert!(
            after_site.starts_with("  plain JS") && after_site.contains("none (0/2)"),
            "{after_site}"
        );
        assert!(
            line(&large, "keystroke → next frame p50 / p95: site").contains("27.0 / 27.0 ms ✗")
        );
        assert!(line(&large, "  site / plain JS (p95)").contains("1.50× ✗"));
        assert!(line(&large, "counts: plain JS = a scan by its rule").contains("NO (1 queries)"));
        assert!(large.contains("WARNING: x: the plain page miscounts “b”: count"));
        assert!(large.contains(
            "NOT MEASURED: 50k (50,000 entries): page.waitForFunction: Timeout 120000ms exceeded."
        ));
        let small = table(1_000);
        assert!(!line(&small, "long tasks after first results: site").contains('✗'));
        assert!(!line(&small, "  site / plain JS (p95)").contains('✗'));
    }

    #[test]
    fn first_loads_of_the_catalogue_and_an_agent_page() {
        let assets = vec![
            ("html".to_owned(), 100, 10),
            ("css".to_owned(), 200, 20),
            ("js".to_owned(), 300, 30),
            ("wasm".to_owned(), 400, 280_000),
        ];
        let bundle = Bundle::new(assets.clone(), "/agents/x/", Some(25));
        assert_eq!(bundle.catalogue_brotli, 280_060);
        assert_eq!(bundle.agent_page, Some(("/agents/x/".into(), 25, 280_075)));
        let text = bundle.to_string();
        assert!(text.contains("280,060   target ≤ 300,000 ✓"), "{text}");
        let without = Bundle::new(assets, "/agents/x/", None);
        assert_eq!(without.agent_page, None);
        assert!(without.to_string().contains("no agent page"));
    }

    #[test]
    fn keystroke_latencies_are_measured_from_the_event() {
        let key = |start: f64, raf: f64, stale: bool| Keystroke {
            query: "q".into(),
            value: "q".into(),
            start,
            raf,
            done: raf + 2.0,
            stale,
        };
        let samples: Vec<Keystroke> = (0..20)
            .map(|i| {
                key(
                    100.0 * f64::from(i),
                    100.0 * f64::from(i) + f64::from(i + 1),
                    i == 3,
                )
            })
            .collect();
        let latency = Latency::of(&samples);
        assert_eq!(latency.samples, 20);
        assert_eq!(latency.stale, 1);
        assert_eq!(latency.next_frame_ms, Some([10.0, 19.0]));
        assert_eq!(latency.frame_done_ms, Some([12.0, 21.0]));
    }
}
