//! The first view: what a new visitor on a phone gets, in Lighthouse, for the site's catalogue,
//! one agent page, and the plainest honest catalogue over the same registry, in the same run.
//!
//! The release build (with its bundled registry) is copied with `bench/plain.html` and
//! `plain.js` beside it, served by [`serve::spawn`] (compressed, as a host serves it: brotli),
//! and `node bench/first-view.mjs` runs the Lighthouse CLI with its defaults — a mobile phone,
//! simulated throttling (slow 4G, 4× CPU) — [`FIRST_VIEW_RUNS`] times per page by default, the
//! pages interleaved. [`FirstViewReport::new`] takes the median of each figure per page (each
//! figure on its own: the median LCP and the median TBT may come from different runs) and the
//! LCP ratio of each site page to the plain page; its `Display` prints them side by side with
//! the targets.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::table::{Row, mark, median, ms, ratio, thousands, times, with_mark, write_table};
use crate::serve;
use crate::setup::Tools;

/// The folder under the bench's where the pages are served from (the first answer serves it
/// again).
pub const FOLDER: &str = "first-view";

/// Lighthouse runs per page unless `--first-view-runs` says otherwise.
pub const FIRST_VIEW_RUNS: usize = 3;

/// The agent page measured (and whose first load the bundle figures give).
pub const AGENT_PAGE: &str = "agents/gemini/";

/// The pages measured: name in the results, path under the site, column heading.
const PAGES: [(&str, &str, &str); 3] = [
    ("catalogue", "", "/"),
    ("agent", AGENT_PAGE, "/agents/gemini/"),
    ("plain", "plain.html", "plain JS page"),
];

/// The site's performance score, at least.
const TARGET_SCORE: f64 = 100.0;
/// A site page's LCP over the plain page's, at most.
const TARGET_LCP_VS_PLAIN: f64 = 1.0;
/// Total blocking time, at most.
const TARGET_TBT_MS: f64 = 50.0;
/// CLS shown to three decimals is 0 below this.
const CLS_ZERO: f64 = 0.0005;

/// What `first-view.mjs` writes.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FirstViewMeasurements {
    /// Lighthouse's version.
    pub lighthouse: Option<String>,
    /// The browser Lighthouse drove.
    pub user_agent: Option<String>,
    /// Per page name, one entry per run.
    pub runs: BTreeMap<String, Vec<LighthouseRun>>,
}

/// The figures of one Lighthouse report (times in ms, sizes in bytes).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LighthouseRun {
    /// Performance score, 0–100.
    pub score: Option<f64>,
    /// First contentful paint.
    pub fcp: Option<f64>,
    /// Largest contentful paint.
    pub lcp: Option<f64>,
    /// Total blocking time.
    pub tbt: Option<f64>,
    /// Cumulative layout shift.
    pub cls: Option<f64>,
    /// Speed index.
    pub speed_index: Option<f64>,
    /// Bytes transferred (`total-byte-weight`).
    pub transferred: Option<f64>,
    /// Requests made.
    pub requests: usize,
    /// Bytes of the wasm as transferred.
    pub wasm_transferred: Option<f64>,
    /// Bytes of the wasm once decoded.
    pub wasm_resource: Option<f64>,
    /// The markup of the largest contentful paint's element.
    pub lcp_element: Option<String>,
    /// Lighthouse's measure of this machine's CPU speed.
    pub benchmark_index: Option<f64>,
    /// Lighthouse's run warnings and error.
    pub warnings: Vec<String>,
}

/// The first-view figures of a run.
#[derive(Debug, Clone, Serialize)]
pub struct FirstViewReport {
    /// Lighthouse's version.
    pub lighthouse: String,
    /// Runs per page.
    pub runs: usize,
    /// Median of Lighthouse's CPU benchmark over every run.
    pub benchmark_index: Option<f64>,
    /// One per page, in [`PAGES`] order.
    pub pages: Vec<PageFigures>,
}

/// The medians of one page.
#[derive(Debug, Clone, Serialize)]
pub struct PageFigures {
    /// The page's name in the results.
    pub name: String,
    /// Its column heading.
    pub heading: String,
    /// Whether it is the site's (the targets apply) or the plain page.
    pub site: bool,
    /// Median performance score.
    pub score: Option<f64>,
    /// Median FCP.
    pub fcp_ms: Option<f64>,
    /// Median LCP.
    pub lcp_ms: Option<f64>,
    /// Median LCP over the plain page's median LCP.
    pub lcp_vs_plain: Option<f64>,
    /// Median TBT.
    pub tbt_ms: Option<f64>,
    /// Median CLS.
    pub cls: Option<f64>,
    /// Median speed index.
    pub speed_index_ms: Option<f64>,
    /// Median bytes transferred.
    pub transferred: Option<f64>,
    /// Median wasm bytes transferred and decoded.
    pub wasm: Option<(f64, f64)>,
    /// The LCP element most runs named.
    pub lcp_element: Option<String>,
    /// Every distinct warning Lighthouse gave.
    pub warnings: Vec<String>,
}

/// Copies the built `site` into `bench_dir/first-view` with the plain page (see
/// [`super::prepare_copy`]), serves it, runs Lighthouse `runs` times per page and reduces the
/// figures.
pub fn run(
    tools: &Tools,
    site: &Path,
    bench_dir: &Path,
    stylesheet: &str,
    runs: usize,
) -> Result<FirstViewReport> {
    let dir = bench_dir.join(FOLDER);
    super::prepare_copy(tools.root(), site, &dir, None, stylesheet)?;
    let server = serve::spawn(&dir, "/", 0)?;
    println!("  {} served at {}", dir.display(), server.url());
    let reports = bench_dir.join("lighthouse");
    fs::create_dir_all(&reports).with_context(|| format!("creating {}", reports.display()))?;
    let config = serde_json::json!({
        "pages": super::page_urls(&PAGES, &server.url()),
        "runs": runs,
        "outDir": reports,
    });
    let measurements: FirstViewMeasurements =
        super::node_script(tools, bench_dir, "first-view", config, "running Lighthouse")?;
    drop(server);
    Ok(FirstViewReport::new(&measurements, runs))
}

impl FirstViewReport {
    /// The medians of `measurements`, `runs` per page.
    pub fn new(measurements: &FirstViewMeasurements, runs: usize) -> FirstViewReport {
        let none = Vec::new();
        let runs_of = |name: &str| measurements.runs.get(name).unwrap_or(&none);
        let plain_lcp = median(runs_of("plain").iter().filter_map(|r| r.lcp));
        let pages = PAGES
            .iter()
            .map(|&(name, _, heading)| {
                let runs = runs_of(name);
                let of = |figure: fn(&LighthouseRun) -> Option<f64>| {
                    median(runs.iter().filter_map(figure))
                };
                let lcp_ms = of(|r| r.lcp);
                let wasm = of(|r| r.wasm_transferred).zip(of(|r| r.wasm_resource));
                let mut warnings: Vec<String> =
                    runs.iter().flat_map(|r| r.warnings.clone()).collect();
                warnings.sort();
                warnings.dedup();
                PageFigures {
                    name: name.to_owned(),
                    heading: heading.to_owned(),
                    site: name != "plain",
                    score: of(|r| r.score),
                    fcp_ms: of(|r| r.fcp),
                    lcp_ms,
                    lcp_vs_plain: ratio(lcp_ms, plain_lcp),
                    tbt_ms: of(|r| r.tbt),
                    cls: of(|r| r.cls),
                    speed_index_ms: of(|r| r.speed_index),
                    transferred: of(|r| r.transferred),
                    wasm,
                    lcp_element: most_common(runs.iter().filter_map(|r| r.lcp_element.clone())),
                    warnings,
                }
            })
            .collect();
        let all = measurements.runs.values().flatten();
        FirstViewReport {
            lighthouse: measurements
                .lighthouse
                .clone()
                .unwrap_or_else(|| "?".to_owned()),
            runs,
            benchmark_index: median(all.filter_map(|r| r.benchmark_index)),
            pages,
        }
    }

    fn rows(&self) -> Vec<Row> {
        let cells = |cell: &dyn Fn(&PageFigures) -> String| self.pages.iter().map(cell).collect();
        // A site page's figure with its mark; the plain page's as it is.
        let judged = |p: &PageFigures, text: String, met: Option<bool>| {
            if p.site { with_mark(text, met) } else { text }
        };
        let seconds =
            |value: Option<f64>| value.map_or("n/a".to_owned(), |v| format!("{:.2} s", v / 1000.0));
        vec![
            Row::new(
                "performance score",
                cells(&|p| {
                    judged(
                        p,
                        p.score.map_or("n/a".to_owned(), |s| format!("{s:.0}")),
                        p.score.map(|s| s >= TARGET_SCORE),
                    )
                }),
                &format!("{TARGET_SCORE:.0} (site pages)"),
            ),
            Row::new("first contentful paint", cells(&|p| seconds(p.fcp_ms)), ""),
            Row::new(
                "largest contentful paint",
                cells(&|p| seconds(p.lcp_ms)),
                "",
            ),
            Row::new(
                "  LCP / plain JS page's",
                cells(&|p| {
                    judged(
                        p,
                        times(p.lcp_vs_plain),
                        p.lcp_vs_plain.map(|r| r <= TARGET_LCP_VS_PLAIN),
                    )
                }),
                &format!("≤ {TARGET_LCP_VS_PLAIN:.1}× (aim 0.8×)"),
            ),
            Row::new(
                "total blocking time",
                cells(&|p| judged(p, ms(p.tbt_ms), p.tbt_ms.map(|t| t <= TARGET_TBT_MS))),
                &format!("≤ {TARGET_TBT_MS:.0} ms"),
            ),
            Row::new(
                "cumulative layout shift",
                cells(&|p| {
                    judged(
                        p,
                        p.cls.map_or("n/a".to_owned(), |c| format!("{c:.3}")),
                        p.cls.map(|c| c < CLS_ZERO),
                    )
                }),
                "0",
            ),
            Row::new("speed index", cells(&|p| seconds(p.speed_index_ms)), ""),
            Row::new(
                "transferred",
                cells(&|p| {
                    p.transferred
                        .map_or("n/a".to_owned(), |b| format!("{} B", thousands(b as u64)))
                }),
                "",
            ),
            Row::new(
                "  of which wasm (decoded)",
                cells(&|p| match p.wasm {
                    Some((sent, decoded)) => format!(
                        "{} ({}) B",
                        thousands(sent as u64),
                        thousands(decoded as u64)
                    ),
                    None => "none".to_owned(),
                }),
                "",
            ),
        ]
    }
}

impl fmt::Display for FirstViewReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let benchmark = self
            .benchmark_index
            .map_or("unknown".to_owned(), |b| format!("{b:.0}"));
        writeln!(
            f,
            "First view · Lighthouse {} · mobile, simulated throttling (its defaults) · release \
             build and plain JS page over the bundled registry, served compressed · median of {} \
             runs per page, pages interleaved · CPU benchmark index {benchmark}",
            self.lighthouse, self.runs
        )?;
        let headers: Vec<String> = self.pages.iter().map(|p| p.heading.clone()).collect();
        write_table(f, &self.rows(), &headers)?;
        for page in &self.pages {
            if let Some(element) = &page.lcp_element {
                writeln!(f, "  LCP element, {}: {element}", page.heading)?;
            }
            for warning in &page.warnings {
                writeln!(f, "  Lighthouse, {}: {warning}", page.heading)?;
            }
        }
        if self
            .pages
            .iter()
            .any(|p| p.site && p.score.is_some_and(|s| s < TARGET_SCORE))
        {
            writeln!(f, "  (a score below {TARGET_SCORE:.0} {})", mark(false))?;
        }
        Ok(())
    }
}

/// The value seen most often (the first of equals); `None` when there is none.
fn most_common(values: impl Iterator<Item = String>) -> Option<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for value in values {
        match counts.iter_mut().find(|(v, _)| *v == value) {
            Some((_, n)) => *n += 1,
            None => counts.push((value, 1)),
        }
    }
    let best = counts.iter().map(|(_, n)| *n).max()?;
    counts.into_iter().find(|(_, n)| *n == best).map(|(v, _)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(score: f64, lcp: f64, cls: f64, element: &str) -> LighthouseRun {
        LighthouseRun {
            score: Some(score),
            fcp: Some(lcp / 2.0),
            lcp: Some(lcp),
            tbt: Some(10.0),
            cls: Some(cls),
            speed_index: Some(lcp),
            transferred: Some(285_000.0),
            requests: 12,
            wasm_transferred: Some(271_000.0),
            wasm_resource: Some(900_000.0),
            lcp_element: Some(element.to_owned()),
            benchmark_index: Some(score * 10.0),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn each_figure_is_the_median_of_its_runs_and_lcp_is_compared_with_the_plain_page() {
        let measurements = FirstViewMeasurements {
            lighthouse: Some("12.8.2".into()),
            user_agent: None,
            runs: BTreeMap::from([
                (
                    "catalogue".to_owned(),
                    vec![
                        run(95.0, 2_700.0, 0.0, "<h1>"),
                        run(93.0, 2_900.0, 0.0, "<p>"),
                        run(96.0, 2_600.0, 0.0, "<p>"),
                    ],
                ),
                ("agent".to_owned(), vec![run(93.0, 2_800.0, 0.118, "<pre>")]),
                (
                    "plain".to_owned(),
                    vec![
                        run(100.0, 1_300.0, 0.0, "<h1>"),
                        run(100.0, 1_400.0, 0.0, "<h1>"),
                    ],
                ),
            ]),
        };
        let report = FirstViewReport::new(&measurements, 3);
        let names: Vec<&str> = report.pages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["catalogue", "agent", "plain"]);
        let [catalogue, agent, plain] = &report.pages[..] else {
            panic!("three pages")
        };
        assert_eq!(
            (catalogue.score, catalogue.lcp_ms),
            (Some(95.0), Some(2_700.0))
        );
        assert_eq!(catalogue.lcp_element.as_deref(), Some("<p>"));
        assert_eq!(plain.lcp_ms, Some(1_350.0));
        assert_eq!(catalogue.lcp_vs_plain, Some(2_700.0 / 1_350.0));
        assert_eq!(agent.cls, Some(0.118));
        assert_eq!(plain.lcp_vs_plain, Some(1.0));
        assert!(catalogue.site && agent.site && !plain.site);
        assert_eq!(report.benchmark_index, Some(955.0));

        let text = report.to_string();
        assert!(text.contains("Lighthouse 12.8.2"), "{text}");
        assert!(text.contains("2.00× ✗"), "{text}");
        assert!(text.contains("0.118 ✗"), "{text}");
        assert!(text.contains("100 (site pages)"), "{text}");
    }

    #[test]
    fn a_page_without_runs_reports_nothing_rather_than_failing() {
        let measurements = FirstViewMeasurements {
            lighthouse: None,
            user_agent: None,
            runs: BTreeMap::new(),
        };
        let report = FirstViewReport::new(&measurements, 3);
        assert!(
            report
                .pages
                .iter()
                .all(|p| p.lcp_ms.is_none() && p.lcp_vs_plain.is_none())
        );
        assert!(report.to_string().contains("n/a"));
    }

    #[test]
    fn the_most_common_value_wins_and_ties_go_to_the_first() {
        let values = |list: &[&str]| list.iter().map(|v| (*v).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            most_common(values(&["a", "b", "b"]).into_iter()).as_deref(),
            Some("b")
        );
        assert_eq!(
            most_common(values(&["a", "b"]).into_iter()).as_deref(),
            Some("a")
        );
        assert_eq!(most_common(values(&[]).into_iter()), None);
    }
}
