//! The change log's costs (`registry_core::changes`), natively: building it from the bundled
//! history beside reading and indexing the bundled registry once (the renderer prints the log's
//! time beside the pages' own in every build), and the size of `changes.json` after a year of
//! hourly builds of a 1,000-agent registry, raw and compressed as hosts serve it.

use std::fmt;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use registry_core::changes::{ChangeLog, History, ProbeState, RegistryState, Stamp};
use registry_core::edition::Day;
use serde_json::json;

use static_host::encoding::{Effort, Encoding};

/// Runs of each timing; the least is reported (load only adds).
const RUNS: usize = 5;

/// The synthetic registry's agents.
const AGENTS: usize = 1_000;

/// Hours in the synthetic year.
const HOURS: u32 = 365 * 24;

/// The figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ChangeLogFigures {
    /// Registry and probe snapshots in the bundled history.
    pub history_states: usize,
    /// Events the bundled history gives.
    pub history_events: usize,
    /// Least time to build the log from it (reading every snapshot).
    pub build: Duration,
    /// Least time to read and index the bundled registry once.
    pub index_registry: Duration,
    /// Events kept after the synthetic year, and dropped by the bound.
    pub year_events: usize,
    /// Dropped by the bound.
    pub year_truncated: u64,
    /// `changes.json` after the year: raw, gzip, brotli.
    pub year_bytes: (usize, usize, usize),
}

/// Measures them.
pub fn run(root: &Path) -> Result<ChangeLogFigures> {
    let history_dir = root.join("data/history");
    let mut files = Vec::new();
    for part in ["registry", "protocol-matrix"] {
        let dir = history_dir.join(part);
        for entry in fs::read_dir(&dir).with_context(|| format!("listing {}", dir.display()))? {
            let path = entry?.path();
            let name = format!(
                "{part}/{}",
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            files.push((name, fs::read_to_string(&path)?));
        }
    }
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let registry = fs::read_to_string(root.join("public/registry.json"))?;
    let mut build = Duration::MAX;
    let mut events = 0;
    let mut states = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        let (history, _) = History::read(&pairs);
        states = history.registry.len() + history.probes.len();
        let (mut log, _) = ChangeLog::from_history(&history);
        log.add_registry(&RegistryState::new(stamp("2026-08-20"), &registry));
        let json = log.to_json();
        build = build.min(started.elapsed());
        events = log.events().len();
        std::hint::black_box(json);
    }
    let mut index_registry = Duration::MAX;
    for _ in 0..RUNS {
        let started = Instant::now();
        let loaded = registry_core::load(&registry)?;
        std::hint::black_box(registry_core::Catalog::new(loaded.registry));
        index_registry = index_registry.min(started.elapsed());
    }
    let year = year_of_hourly_builds();
    let text = year.to_json();
    let bytes = text.as_bytes();
    Ok(ChangeLogFigures {
        history_states: states,
        history_events: events,
        build,
        index_registry,
        year_events: year.events().len(),
        year_truncated: year.truncated(),
        year_bytes: (
            bytes.len(),
            Encoding::Gzip.compress(bytes, Effort::Best).len(),
            Encoding::Brotli.compress(bytes, Effort::Best).len(),
        ),
    })
}

/// A year of hourly builds of a registry of [`AGENTS`] agents: each hour a release of a few
/// agents (about 4 % of them a day, as the real registry's busiest agents release), now and then
/// one added, and a nightly probe finding a capability or a sign-in method changed. An hour
/// with no change gives a state equal to the last, which the log reads and finds nothing in;
/// only the hours with a change are added here, which gives the same log.
fn year_of_hourly_builds() -> ChangeLog {
    let mut versions: Vec<u32> = vec![1; AGENTS];
    let mut listed = AGENTS - 50;
    let mut random = 0x2026_u64;
    let mut next = move |bound: u64| {
        // xorshift64: deterministic, so the figure is the same every run.
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random % bound
    };
    let start = Day::parse("2026-01-01").expect("a day");
    let (mut log, _) = ChangeLog::start(&RegistryState::new(
        Stamp::of_day(start),
        &registry(&versions[..listed]),
    ));
    let mut last_probe_day = None;
    for hour in 1..HOURS {
        let mut changed = false;
        // About 40 releases a day, spread over the hours.
        for _ in 0..2 {
            if next(24) < 20 {
                let agent = next(listed as u64) as usize;
                versions[agent] += 1;
                changed = true;
            }
        }
        if next(24 * 3) == 0 && listed < AGENTS {
            listed += 1;
            changed = true;
        }
        let day = Day::parse(&add_days(start, hour / 24)).expect("a day");
        if changed {
            let stamp = Stamp::parse(&format!(
                "v{}-{:07x}",
                day.to_string().replace('-', "."),
                hour
            ))
            .expect("a snapshot name");
            log.add_registry(&RegistryState::new(stamp, &registry(&versions[..listed])));
        }
        if last_probe_day != Some(day) && hour % 24 == 3 {
            last_probe_day = Some(day);
            let flip = next(AGENTS as u64) as usize;
            log.add_probe(&ProbeState {
                stamp: Stamp::of_day(day),
                matrix: &matrix(day, listed, flip, hour / 24),
            });
        }
    }
    log
}

/// A registry of `versions.len()` npx agents at these versions.
fn registry(versions: &[u32]) -> String {
    let agents: Vec<_> = versions
        .iter()
        .enumerate()
        .map(|(i, v)| {
            json!({
                "id": format!("agent-{i:04}"),
                "name": format!("Agent {i}"),
                "version": format!("1.{v}.0"),
                "description": "A synthetic agent.",
                "repository": format!("https://github.com/example/agent-{i:04}"),
                "license": "MIT",
                "distribution": {"npx": {"package": format!("agent-{i:04}@1.{v}.0")}},
            })
        })
        .collect();
    json!({"version": "1.0.0", "agents": agents}).to_string()
}

/// A protocol matrix of `listed` agents, all succeeding; agent `flip` has `loadSession` as the
/// day's parity says.
fn matrix(day: Day, listed: usize, flip: usize, n: u32) -> String {
    let agents: Vec<_> = (0..listed)
        .map(|i| {
            json!({
                "id": format!("agent-{i:04}"),
                "distribution": "npx",
                "initialize": {"status": "success"},
                "protocolVersion": 1,
                "authMethods": ["agent"],
                "capabilities": {"loadSession": i != flip || n.is_multiple_of(2)},
            })
        })
        .collect();
    json!({"probeSchemaVersion": 2, "date": day.to_string(), "agents": agents}).to_string()
}

/// `start` plus `days`, as `YYYY-MM-DD`.
fn add_days(start: Day, days: u32) -> String {
    let ms = (start.days_since(Day::from_unix_ms(0.0)) + i64::from(days)) as f64 * 86_400_000.0;
    Day::from_unix_ms(ms).to_string()
}

fn stamp(day: &str) -> Stamp {
    Stamp::parse(day).expect("a day")
}

impl fmt::Display for ChangeLogFigures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(f, "change log (native, least of {RUNS} runs)")?;
        writeln!(
            f,
            "  bundled history: {} snapshots → {} events in {:.1} ms; reading and indexing the \
             bundled registry once: {:.1} ms ({:.2}×)",
            self.history_states,
            self.history_events,
            ms(self.build),
            ms(self.index_registry),
            ms(self.build) / ms(self.index_registry).max(f64::MIN_POSITIVE)
        )?;
        let (raw, gzip, brotli) = self.year_bytes;
        writeln!(
            f,
            "  a year of hourly builds of {AGENTS} agents: {} events kept ({} dropped by the \
             bound), changes.json {raw} B raw, {gzip} B gzip, {brotli} B brotli",
            self.year_events, self.year_truncated
        )
    }
}
