//! An AgentRegistry at scale: how long the catalogue takes to list every agent of a long
//! discovery listing, and how many pages it asks for at once.
//!
//! [`synthetic::service_listing`] writes [`AGENTS`] agents in pages of 100, served by the stand-in
//! service of [`agentregistry`] with a round trip of [`LATENCY`] per page (a service across a
//! network, not on loopback); the release site is built for it (`--registry-kind agentregistry`,
//! on another origin as in production) and served compressed; `node bench/paging.mjs` loads it
//! in headless Chromium [`RUNS`] times, each in a fresh context, and reads when the first agents
//! showed and when the last page was in. The baseline in the same run is what reading the pages
//! one after the other costs at the least: one round trip per page.

use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::synthetic;
use super::table::{Row, mark, median, ms, ratio, thousands, times, with_mark, write_table};
use crate::agentregistry::{self, ServerOptions};
use crate::dist;
use crate::options::DistOptions;
use crate::serve;
use crate::setup::Tools;

/// Agents in the listing.
pub const AGENTS: usize = 10_000;
/// The service's answer time per page.
pub const LATENCY: Duration = Duration::from_millis(100);
/// Page loads measured.
pub const RUNS: usize = 3;
/// Every agent listed in at most this share of the one-page-at-a-time floor.
const TARGET_VS_SEQUENTIAL: f64 = 0.5;

/// What `paging.mjs` writes: per load, when the first agents and all of them showed (ms since
/// navigation).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PagingRun {
    /// The first agents on screen.
    pub first_ms: f64,
    /// Every agent listed and the progress gone.
    pub loaded_ms: f64,
}

/// The paging figures of a run.
#[derive(Debug, Clone, Serialize)]
pub struct PagingReport {
    /// Agents and pages in the listing.
    pub agents: usize,
    /// Pages in the listing.
    pub pages: usize,
    /// The service's answer time per page, in ms.
    pub latency_ms: f64,
    /// Median time to the first agents.
    pub first_ms: Option<f64>,
    /// Median time to every agent.
    pub loaded_ms: Option<f64>,
    /// One round trip per page: the least reading them one after the other takes.
    pub sequential_floor_ms: f64,
    /// The most page requests the service answered at once.
    pub most_at_once: usize,
    /// Every load.
    pub runs: Vec<PagingRun>,
}

/// Builds the site for a synthetic listing served with [`LATENCY`], loads it [`RUNS`] times and
/// reduces the figures.
pub fn run(tools: &Tools, bench_dir: &Path) -> Result<PagingReport> {
    let pages = synthetic::service_listing(AGENTS)?;
    let page_count = pages.len();
    let service = agentregistry::start(
        ([127, 0, 0, 1], 0).into(),
        ServerOptions {
            slow: Duration::ZERO,
            latency: LATENCY,
            listing: Some(Arc::new(pages)),
            ..ServerOptions::default()
        },
    )?;
    println!(
        "  {AGENTS} agents in {page_count} pages at {} served at {}",
        service.url(),
        ms(Some(LATENCY.as_secs_f64() * 1000.0))
    );
    let options = DistOptions::agentregistry(&service.url(), bench_dir.join("site-agentregistry"))?;
    print!("{}", dist::build(tools, &options)?);
    let site = serve::spawn(&options.out_dir, "/", 0)?;

    let config = serde_json::json!({
        "url": site.url(),
        "agents": AGENTS,
        "runs": RUNS,
    });
    let runs: Vec<PagingRun> = super::node_script(
        tools,
        bench_dir,
        "paging",
        config,
        "measuring paging in Chromium",
    )?;
    Ok(PagingReport {
        agents: AGENTS,
        pages: page_count,
        latency_ms: LATENCY.as_secs_f64() * 1000.0,
        first_ms: median(runs.iter().map(|r| r.first_ms)),
        loaded_ms: median(runs.iter().map(|r| r.loaded_ms)),
        sequential_floor_ms: page_count as f64 * LATENCY.as_secs_f64() * 1000.0,
        most_at_once: service.most_at_once(),
        runs,
    })
}

impl fmt::Display for PagingReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "AgentRegistry paging: {} agents in {} pages, {} per page, median of {} loads",
            thousands(self.agents as u64),
            self.pages,
            ms(Some(self.latency_ms)),
            self.runs.len()
        )?;
        let vs_floor = ratio(self.loaded_ms, Some(self.sequential_floor_ms));
        let rows = [
            Row::new("first agents shown", vec![ms(self.first_ms)], ""),
            Row::new("every agent listed", vec![ms(self.loaded_ms)], ""),
            Row::new(
                "one page at a time, at least",
                vec![ms(Some(self.sequential_floor_ms))],
                "",
            ),
            Row::new(
                "listed / one at a time",
                vec![with_mark(
                    times(vs_floor),
                    vs_floor.map(|r| r <= TARGET_VS_SEQUENTIAL),
                )],
                &format!("≤ {TARGET_VS_SEQUENTIAL}×"),
            ),
            Row::new(
                "most pages asked at once",
                vec![format!(
                    "{} {}",
                    self.most_at_once,
                    mark((2..=4).contains(&self.most_at_once))
                )],
                "2–4",
            ),
        ];
        write_table(f, &rows, &["site".to_owned()])
    }
}
