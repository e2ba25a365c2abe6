//! From raw browser samples to the figures `cargo xtask bench` prints and saves.
//!
//! [`Measurements`] is what `bench/measure.mjs` writes; [`Report::new`] reduces it to medians
//! (page loads) and nearest-rank percentiles (keystrokes), computes the ratios the targets are
//! stated in, and [`Report`]'s `Display` lays every size out side by side with the target of each
//! figure beside it and a ✓ or ✗ where a target applies. Nothing here fails on a missed target:
//! the benchmark reports, it does not judge.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dist::DistReport;

/// The bundle a visitor downloads (html + css + js + wasm, brotli 11), at most.
const TARGET_BUNDLE_BYTES: u64 = 200_000;
/// `acp:parse+index` over `JSON.parse` of the same text, at most.
const TARGET_PARSE_RATIO: f64 = 1.5;
/// Keystroke to next frame, 95th percentile, at 10,000 entries and more, at most.
const TARGET_KEYSTROKE_P95_MS: f64 = 20.0;
/// The size from which the keystroke target applies.
const KEYSTROKE_TARGET_FROM: usize = 10_000;
/// Site over plain-JS keystroke p95, at most.
const TARGET_VS_BASELINE: f64 = 1.0;

/// Everything `measure.mjs` measured.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measurements {
    /// The browser's product and version, e.g. `HeadlessChrome/156.0.8078.114`.
    pub browser: String,
    /// One per registry size, in the order measured.
    pub sizes: Vec<SizeMeasurements>,
}

/// The samples of one registry size.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizeMeasurements {
    /// `1k`, `10k`.
    pub label: String,
    /// Entries in the registry.
    pub entries: usize,
    /// Fresh loads of the site.
    pub site_loads: Vec<SiteLoad>,
    /// Fresh loads of the plain-JS baseline.
    pub baseline_loads: Vec<BaselineLoad>,
    /// Keystroke samples per page.
    pub keystrokes: Keystrokes,
    /// Site and baseline compared on a few queries.
    pub self_check: Vec<SelfCheck>,
}

/// One fresh load of the site, in milliseconds from navigation start.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteLoad {
    /// The first animation frame after the first result card exists.
    pub first_results: f64,
    /// The `acp:parse` User Timing measure, when the site recorded it.
    pub parse: Option<f64>,
    /// The `acp:parse+index` measure.
    pub parse_index: Option<f64>,
    /// Median of five `JSON.parse` runs of the same `registry.json`, after a warm-up.
    pub json_parse: f64,
}

/// One fresh load of the baseline.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BaselineLoad {
    /// As [`SiteLoad::first_results`].
    pub first_results: f64,
}

/// Keystroke samples of the site, the baseline and the idle page.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Keystrokes {
    /// The catalogue.
    pub site: Vec<Keystroke>,
    /// The plain-JS page.
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

/// The site and the baseline compared on one query.
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
    /// The release bundle.
    pub bundle: Bundle,
    /// One per size.
    pub sizes: Vec<SizeReport>,
}

/// Release bundle sizes.
#[derive(Debug, Clone, Serialize)]
pub struct Bundle {
    /// Per kind: `(kind, raw bytes, brotli bytes)`.
    pub assets: Vec<(String, u64, u64)>,
    /// Sum of the brotli sizes.
    pub total_brotli: u64,
    /// [`TARGET_BUNDLE_BYTES`].
    pub target_brotli: u64,
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
    /// Median first results painted, site.
    pub first_results_ms: Option<f64>,
    /// Median first results painted, baseline.
    pub baseline_first_results_ms: Option<f64>,
    /// Median `acp:parse`.
    pub parse_ms: Option<f64>,
    /// Median `acp:parse+index`.
    pub parse_index_ms: Option<f64>,
    /// Median `JSON.parse`.
    pub json_parse_ms: Option<f64>,
    /// `parse_index_ms / json_parse_ms`.
    pub parse_index_ratio: Option<f64>,
    /// Keystroke latency on the site.
    pub site: Latency,
    /// Keystroke latency on the baseline.
    pub baseline: Latency,
    /// Keystroke latency on the idle page.
    pub idle: Latency,
    /// Site p95 over baseline p95, keystroke to next frame.
    pub site_vs_baseline_p95: Option<f64>,
    /// Site p95 over baseline p95, keystroke to frame done.
    pub site_vs_baseline_done_p95: Option<f64>,
    /// Differences between site and baseline, per query that differed.
    pub self_check: Vec<String>,
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

impl Report {
    /// Reduces `measurements`; `registry_bytes` gives each size's `registry.json` length.
    pub fn new(
        measurements: &Measurements,
        bundle: &DistReport,
        registry_bytes: Vec<(usize, usize)>,
        load_start: Option<LoadAverage>,
        load_end: Option<LoadAverage>,
    ) -> Report {
        let sizes = measurements
            .sizes
            .iter()
            .map(|size| {
                let bytes = registry_bytes
                    .iter()
                    .find(|(n, _)| *n == size.entries)
                    .map_or(0, |(_, b)| *b);
                SizeReport::new(size, bytes)
            })
            .collect();
        Report {
            browser: measurements.browser.clone(),
            cpus: std::thread::available_parallelism().map_or(0, usize::from),
            load_start,
            load_end,
            bundle: Bundle {
                assets: bundle
                    .assets
                    .iter()
                    .map(|a| (a.kind.as_str().to_owned(), a.raw, a.brotli))
                    .collect(),
                total_brotli: bundle.total_brotli(),
                target_brotli: TARGET_BUNDLE_BYTES,
            },
            sizes,
        }
    }
}

impl SizeReport {
    fn new(size: &SizeMeasurements, registry_bytes: usize) -> SizeReport {
        let loads = &size.site_loads;
        let parse_index_ms = median(loads.iter().filter_map(|l| l.parse_index));
        let json_parse_ms = median(loads.iter().map(|l| l.json_parse));
        let site = Latency::of(&size.keystrokes.site);
        let baseline = Latency::of(&size.keystrokes.baseline);
        SizeReport {
            label: size.label.clone(),
            entries: size.entries,
            registry_bytes,
            first_results_ms: median(loads.iter().map(|l| l.first_results)),
            baseline_first_results_ms: median(size.baseline_loads.iter().map(|l| l.first_results)),
            parse_ms: median(loads.iter().filter_map(|l| l.parse)),
            parse_index_ms,
            json_parse_ms,
            parse_index_ratio: ratio(parse_index_ms, json_parse_ms),
            site_vs_baseline_p95: ratio(site.p95(), baseline.p95()),
            site_vs_baseline_done_p95: ratio(site.done_p95(), baseline.done_p95()),
            idle: Latency::of(&size.keystrokes.idle),
            site,
            baseline,
            self_check: size
                .self_check
                .iter()
                .filter(|c| !c.differences.is_empty())
                .map(|c| format!("“{}”: {}", c.query, c.differences.join("; ")))
                .collect(),
        }
    }
}

/// The median (the mean of the two middle values for an even count); `None` when empty.
pub fn median(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut values: Vec<f64> = values.into_iter().collect();
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    })
}

/// The nearest-rank percentile `p` (0–100): the smallest value with at least `p`% of the values
/// at or below it; `None` when empty.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

fn ratio(numerator: Option<f64>, denominator: Option<f64>) -> Option<f64> {
    match (numerator, denominator) {
        (Some(n), Some(d)) if d > 0.0 => Some(n / d),
        _ => None,
    }
}

/// One line of the table: a label, a cell per size, the target.
struct Row {
    label: String,
    cells: Vec<String>,
    target: String,
}

impl Row {
    fn new(label: &str, cells: Vec<String>, target: &str) -> Row {
        Row {
            label: label.to_owned(),
            cells,
            target: target.to_owned(),
        }
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
                 are inflated and noisy; the ratios against the baselines of this run hold better.",
                self.cpus
            )?;
        }
        writeln!(f)?;
        write_table(f, &self.rows(), &self.headers())?;
        writeln!(f)?;
        writeln!(f, "Bundle (release dist, brotli quality 11)")?;
        writeln!(f, "  {:<6}{:>12}{:>12}", "", "raw", "brotli")?;
        for (kind, raw, brotli) in &self.bundle.assets {
            writeln!(
                f,
                "  {kind:<6}{:>12}{:>12}",
                thousands(*raw),
                thousands(*brotli)
            )?;
        }
        let total = self.bundle.total_brotli;
        writeln!(
            f,
            "  {:<6}{:>12}{:>12}   target ≤ {} {}",
            "total",
            "",
            thousands(total),
            thousands(self.bundle.target_brotli),
            mark(total <= self.bundle.target_brotli)
        )?;
        let differences: Vec<(&str, &String)> = self
            .sizes
            .iter()
            .flat_map(|s| s.self_check.iter().map(move |d| (s.label.as_str(), d)))
            .collect();
        if !differences.is_empty() {
            writeln!(f)?;
            for (label, difference) in differences {
                writeln!(
                    f,
                    "WARNING: {label}: site and plain-JS baseline disagree on {difference}"
                )?;
            }
        }
        writeln!(f)?;
        writeln!(
            f,
            "Times in ms from the input event's timeStamp (keystrokes) or navigation start (loads); \
             p50/p95 are nearest-rank.\n\"next frame\" is the first requestAnimationFrame callback after \
             the input event; \"frame done\" is a task posted from it, after that frame's style, \
             layout and paint.\nThe idle page is an <input> alone: what waiting for a frame costs \
             by itself. Compare ratios, not absolute times, on a busy machine."
        )
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
        let keystroke_target_met = |s: &SizeReport| {
            (s.entries >= KEYSTROKE_TARGET_FROM)
                .then(|| s.site.p95().map(|p95| p95 <= TARGET_KEYSTROKE_P95_MS))
                .flatten()
        };
        vec![
            Row::new("registry.json", cells(&|s| megabytes(s.registry_bytes)), ""),
            Row::new(
                "first results painted: site (median)",
                cells(&|s| ms(s.first_results_ms)),
                "",
            ),
            Row::new(
                "  plain JS (median)",
                cells(&|s| ms(s.baseline_first_results_ms)),
                "",
            ),
            Row::new("parse (acp:parse)", cells(&|s| ms(s.parse_ms)), ""),
            Row::new(
                "parse + index (acp:parse+index)",
                cells(&|s| ms(s.parse_index_ms)),
                "",
            ),
            Row::new(
                "JSON.parse, same text (median)",
                cells(&|s| ms(s.json_parse_ms)),
                "",
            ),
            Row::new(
                "  parse + index / JSON.parse",
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
                cells(&|s| with_mark(pair(s.site.next_frame_ms), keystroke_target_met(s))),
                &format!(
                    "p95 ≤ {TARGET_KEYSTROKE_P95_MS} ms at {}",
                    thousands(KEYSTROKE_TARGET_FROM as u64)
                ),
            ),
            Row::new("  plain JS", cells(&|s| pair(s.baseline.next_frame_ms)), ""),
            Row::new(
                "  idle page (frame baseline)",
                cells(&|s| pair(s.idle.next_frame_ms)),
                "",
            ),
            Row::new(
                "  site / plain JS (p95)",
                cells(&|s| {
                    with_mark(
                        times(s.site_vs_baseline_p95),
                        s.site_vs_baseline_p95.map(|r| r <= TARGET_VS_BASELINE),
                    )
                }),
                &format!("≤ {TARGET_VS_BASELINE:.1}×"),
            ),
            Row::new(
                "keystroke → frame done p50 / p95: site",
                cells(&|s| pair(s.site.frame_done_ms)),
                "",
            ),
            Row::new("  plain JS", cells(&|s| pair(s.baseline.frame_done_ms)), ""),
            Row::new("  idle page", cells(&|s| pair(s.idle.frame_done_ms)), ""),
            Row::new(
                "  site / plain JS (p95)",
                cells(&|s| times(s.site_vs_baseline_done_p95)),
                "",
            ),
            Row::new(
                "keystrokes: site / plain JS / idle",
                cells(&|s| {
                    format!(
                        "{} / {} / {}",
                        s.site.samples, s.baseline.samples, s.idle.samples
                    )
                }),
                "≥ 40 each",
            ),
            Row::new(
                "  changed after the frame: site / JS",
                cells(&|s| format!("{} / {}", s.site.stale, s.baseline.stale)),
                "0",
            ),
            Row::new(
                "top 10, counts, facets: site = plain JS",
                cells(&|s| {
                    if s.self_check.is_empty() {
                        "yes".to_owned()
                    } else {
                        format!("NO ({} queries)", s.self_check.len())
                    }
                }),
                "yes",
            ),
        ]
    }
}

/// Writes rows under a header line, every column as wide as its widest cell.
fn write_table(f: &mut fmt::Formatter<'_>, rows: &[Row], headers: &[String]) -> fmt::Result {
    let width = |s: &str| s.chars().count();
    let label_width = rows.iter().map(|r| width(&r.label)).max().unwrap_or(0);
    let column_widths: Vec<usize> = (0..headers.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.cells.get(i).map_or(0, |c| width(c)))
                .chain([width(&headers[i])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let pad = |text: &str, to: usize| " ".repeat(to.saturating_sub(width(text)));
    let mut line = |label: &str, cells: &[String], target: &str| -> fmt::Result {
        write!(f, "{label}{}", pad(label, label_width))?;
        for (cell, &w) in cells.iter().zip(&column_widths) {
            write!(f, "   {}{cell}", pad(cell, w))?;
        }
        writeln!(f, "   {target}")
    };
    line("", headers, "target")?;
    for row in rows {
        line(&row.label, &row.cells, &row.target)?;
    }
    Ok(())
}

fn mark(met: bool) -> &'static str {
    if met { "✓" } else { "✗" }
}

fn with_mark(cell: String, met: Option<bool>) -> String {
    match met {
        Some(met) => format!("{cell} {}", mark(met)),
        None => cell,
    }
}

fn ms(value: Option<f64>) -> String {
    match value {
        Some(v) if v < 100.0 => format!("{v:.1} ms"),
        Some(v) => format!("{} ms", thousands(v.round() as u64)),
        None => "n/a".to_owned(),
    }
}

fn pair(values: Option<[f64; 2]>) -> String {
    match values {
        Some([a, b]) => format!("{a:.1} / {b:.1} ms"),
        None => "n/a".to_owned(),
    }
}

fn times(value: Option<f64>) -> String {
    value.map_or("n/a".to_owned(), |v| format!("{v:.2}×"))
}

fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// `1234567` → `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        let cases: [(&[f64], Option<f64>); 4] = [
            (&[], None),
            (&[3.0], Some(3.0)),
            (&[5.0, 1.0, 3.0], Some(3.0)),
            (&[4.0, 1.0, 3.0, 2.0], Some(2.5)),
        ];
        for (values, expected) in cases {
            assert_eq!(median(values.iter().copied()), expected, "{values:?}");
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let values: Vec<f64> = (1..=40).map(f64::from).collect();
        let cases = [
            (50.0, 20.0),
            (95.0, 38.0),
            (100.0, 40.0),
            (0.0, 1.0),
            (1.0, 1.0),
        ];
        for (p, expected) in cases {
            assert_eq!(percentile(&values, p), Some(expected), "p{p}");
        }
        assert_eq!(percentile(&[], 95.0), None);
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
    }

    #[test]
    fn load_average_reads_proc_format() {
        assert_eq!(
            LoadAverage::parse("1.34 3.33 3.60 5/123 22690\n"),
            Some(LoadAverage([1.34, 3.33, 3.60]))
        );
        assert_eq!(LoadAverage::parse("garbage"), None);
    }

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(ms(Some(12.345)), "12.3 ms");
        assert_eq!(ms(Some(1234.6)), "1,235 ms");
        assert_eq!(ms(None), "n/a");
        assert_eq!(times(Some(1.234)), "1.23×");
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
