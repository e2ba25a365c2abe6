//! Time to first answer on a phone: how long after a new visitor opens the catalogue a search
//! typed as soon as the box shows is answered, beside the plain page's, in the same run.
//!
//! The folder the first view served (the release build and `bench/plain.html` over the bundled
//! registry) is served again behind one slow [`Link`] that every response shares
//! ([`serve::spawn_on_link`]: [`LINK_KBPS`], [`LATENCY`] before each answer), and `node
//! bench/first-answer.mjs` loads `/` and the plain page, alternating, in fresh Chromiums with the
//! CPU slowed [`CPU_SLOWDOWN`] times, types [`QUERY`] the moment the search box shows, and
//! records when the results' count answers it and what had been received by then.
//! [`FirstAnswerReport::new`] takes the medians and the ratio to the plain page's.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::table::{Row, median, ratio, thousands, times, with_mark, write_table};
use crate::serve::{self, Link};
use crate::setup::Tools;

/// The phone's link, shared by every response: 1.6 Mbit/s.
pub const LINK_KBPS: u32 = 1_600;
/// Before every response starts.
pub const LATENCY: Duration = Duration::from_millis(150);
/// How many times slower the phone's CPU is.
pub const CPU_SLOWDOWN: u32 = 4;
/// What is typed.
pub const QUERY: &str = "gemini";
/// Loads per page unless `--first-answer-runs` says otherwise.
pub const FIRST_ANSWER_RUNS: usize = 5;
/// The site's first answer over the plain page's, at most.
const TARGET_VS_PLAIN: f64 = 1.0;

/// The pages measured: name in the results, path under the folder, column heading.
const PAGES: [(&str, &str, &str); 2] =
    [("site", "", "/"), ("plain", "plain.html", "plain JS page")];

/// One load, as `first-answer.mjs` writes it (times in ms from navigation start).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerRun {
    /// When the search box showed.
    pub box_shown: Option<f64>,
    /// When the results' count answered the query.
    pub answered: f64,
    /// What the count said.
    pub answer: String,
    /// The responses complete before the answer.
    pub before: Vec<Received>,
}

/// One response received before the answer.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Received {
    /// Its path.
    pub path: String,
    /// Bytes received (body as sent, and headers).
    pub bytes: u64,
}

/// The medians of one page.
#[derive(Debug, Clone, Serialize)]
pub struct AnswerFigures {
    /// The page's name in the results.
    pub name: String,
    /// Its column heading.
    pub heading: String,
    /// Median time to first answer.
    pub answered_ms: Option<f64>,
    /// Fastest and slowest.
    pub range_ms: Option<(f64, f64)>,
    /// Median over the plain page's median.
    pub vs_plain: Option<f64>,
    /// Median time until the search box showed.
    pub box_shown_ms: Option<f64>,
    /// What the run with the median answer had received before it, per path.
    pub received: Vec<Received>,
}

/// The section's figures.
#[derive(Debug, Clone, Serialize)]
pub struct FirstAnswerReport {
    /// Loads per page.
    pub runs: usize,
    /// One per page, in [`PAGES`] order.
    pub pages: Vec<AnswerFigures>,
}

/// Serves `dir` (prepared by the first view) on the phone's link, measures and reduces.
pub fn run(tools: &Tools, dir: &Path, bench_dir: &Path, runs: usize) -> Result<FirstAnswerReport> {
    let server = serve::spawn_on_link(dir, "/", Link::new(LINK_KBPS, LATENCY))?;
    println!(
        "  {} served at {} on the phone's link",
        dir.display(),
        server.url()
    );
    let config = serde_json::json!({
        "pages": super::page_urls(&PAGES, &server.url()),
        "runs": runs,
        "query": QUERY,
        "cpuSlowdown": CPU_SLOWDOWN,
    });
    let measured: BTreeMap<String, Vec<AnswerRun>> = super::node_script(
        tools,
        bench_dir,
        "first-answer",
        config,
        "measuring the first answer",
    )?;
    drop(server);
    Ok(FirstAnswerReport::new(&measured, runs))
}

impl FirstAnswerReport {
    /// The medians of `measured`, `runs` loads per page.
    pub fn new(measured: &BTreeMap<String, Vec<AnswerRun>>, runs: usize) -> FirstAnswerReport {
        let none = Vec::new();
        let runs_of = |name: &str| measured.get(name).unwrap_or(&none);
        let plain = median(runs_of("plain").iter().map(|r| r.answered));
        let pages = PAGES
            .iter()
            .map(|&(name, _, heading)| {
                let loads = runs_of(name);
                let answered_ms = median(loads.iter().map(|r| r.answered));
                let fastest = loads.iter().map(|r| r.answered).reduce(f64::min);
                let slowest = loads.iter().map(|r| r.answered).reduce(f64::max);
                // The load whose answer is nearest the median stands for the others.
                let typical = answered_ms.and_then(|m| {
                    loads
                        .iter()
                        .min_by(|a, b| (a.answered - m).abs().total_cmp(&(b.answered - m).abs()))
                });
                let mut received: Vec<Received> = Vec::new();
                for r in typical.map_or(&[][..], |t| &t.before[..]) {
                    match received.iter_mut().find(|seen| seen.path == r.path) {
                        Some(seen) => seen.bytes += r.bytes,
                        None => received.push(r.clone()),
                    }
                }
                received.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.path.cmp(&b.path)));
                AnswerFigures {
                    name: name.to_owned(),
                    heading: heading.to_owned(),
                    answered_ms,
                    range_ms: fastest.zip(slowest),
                    vs_plain: ratio(answered_ms, plain),
                    box_shown_ms: median(loads.iter().filter_map(|r| r.box_shown)),
                    received,
                }
            })
            .collect();
        FirstAnswerReport { runs, pages }
    }

    fn rows(&self) -> Vec<Row> {
        let cells = |cell: &dyn Fn(&AnswerFigures) -> String| self.pages.iter().map(cell).collect();
        let seconds =
            |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{:.2} s", v / 1000.0));
        vec![
            Row::new("search box shown", cells(&|p| seconds(p.box_shown_ms)), ""),
            Row::new("first answer", cells(&|p| seconds(p.answered_ms)), ""),
            Row::new(
                "  fastest – slowest",
                cells(&|p| match p.range_ms {
                    Some((a, b)) => format!("{:.2}–{:.2} s", a / 1000.0, b / 1000.0),
                    None => "n/a".to_owned(),
                }),
                "",
            ),
            Row::new(
                "  / plain JS page's",
                cells(&|p| {
                    if p.name == "plain" {
                        times(p.vs_plain)
                    } else {
                        with_mark(times(p.vs_plain), p.vs_plain.map(|r| r <= TARGET_VS_PLAIN))
                    }
                }),
                &format!("≤ {TARGET_VS_PLAIN:.1}×"),
            ),
            Row::new(
                "received before it",
                cells(&|p| {
                    let total: u64 = p.received.iter().map(|r| r.bytes).sum();
                    format!("{} B in {}", thousands(total), p.received.len())
                }),
                "",
            ),
        ]
    }
}

impl fmt::Display for FirstAnswerReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "First answer · “{QUERY}” typed as the search box shows · one {:.1} Mbit/s link every \
             response shares, {} ms before each · CPU {CPU_SLOWDOWN}× slower · fresh browser per \
             load · median of {} loads per page, alternating",
            f64::from(LINK_KBPS) / 1000.0,
            LATENCY.as_millis(),
            self.runs
        )?;
        let headers: Vec<String> = self.pages.iter().map(|p| p.heading.clone()).collect();
        write_table(f, &self.rows(), &headers)?;
        for page in &self.pages {
            let list: Vec<String> = page
                .received
                .iter()
                .map(|r| format!("{} {} B", r.path, thousands(r.bytes)))
                .collect();
            writeln!(
                f,
                "  before the answer, {}: {}",
                page.heading,
                list.join(", ")
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(answered: f64, before: &[(&str, u64)]) -> AnswerRun {
        AnswerRun {
            box_shown: Some(answered / 4.0),
            answered,
            answer: "3 agents".to_owned(),
            before: before
                .iter()
                .map(|&(path, bytes)| Received {
                    path: path.to_owned(),
                    bytes,
                })
                .collect(),
        }
    }

    #[test]
    fn the_median_load_is_compared_with_the_plain_pages_and_says_what_it_received() {
        let measured = BTreeMap::from([
            (
                "site".to_owned(),
                vec![
                    load(3_000.0, &[("/", 9_000), ("/app.wasm", 300_000)]),
                    load(
                        2_000.0,
                        &[
                            ("/", 9_000),
                            ("/registry.json", 20_000),
                            ("/icon.svg", 300),
                            ("/icon.svg", 200),
                        ],
                    ),
                    load(6_000.0, &[]),
                ],
            ),
            (
                "plain".to_owned(),
                vec![load(1_000.0, &[("/plain.html", 2_000)]), load(1_500.0, &[])],
            ),
        ]);
        let report = FirstAnswerReport::new(&measured, 3);
        let [site, plain] = &report.pages[..] else {
            panic!("two pages")
        };
        assert_eq!(site.answered_ms, Some(3_000.0));
        assert_eq!(site.range_ms, Some((2_000.0, 6_000.0)));
        assert_eq!(plain.answered_ms, Some(1_250.0));
        assert_eq!(site.vs_plain, Some(3_000.0 / 1_250.0));
        let paths: Vec<(&str, u64)> = site
            .received
            .iter()
            .map(|r| (r.path.as_str(), r.bytes))
            .collect();
        assert_eq!(paths, [("/app.wasm", 300_000), ("/", 9_000)]);
        let text = report.to_string();
        assert!(text.contains("2.40× ✗"), "{text}");
        assert!(text.contains("309,000 B in 2"), "{text}");
        assert!(text.contains("/app.wasm 300,000 B"), "{text}");
    }

    #[test]
    fn repeated_paths_add_up_and_a_page_without_loads_reports_nothing() {
        let measured = BTreeMap::from([(
            "site".to_owned(),
            vec![load(
                2_000.0,
                &[("/icon.svg", 300), ("/icon.svg", 200), ("/", 9_000)],
            )],
        )]);
        let report = FirstAnswerReport::new(&measured, 1);
        let paths: Vec<(&str, u64)> = report.pages[0]
            .received
            .iter()
            .map(|r| (r.path.as_str(), r.bytes))
            .collect();
        assert_eq!(paths, [("/", 9_000), ("/icon.svg", 500)]);
        assert_eq!(report.pages[1].answered_ms, None);
        assert_eq!(report.pages[0].vs_plain, None);
        assert!(report.to_string().contains("n/a"));
    }
}
