//! `cargo xtask fuzz [--seconds N] [--target T]…`: the coverage-guided fuzz targets of `fuzz/`
//! (`cargo fuzz`, libFuzzer), one after the other, each for `N` seconds.
//!
//! Each target starts from the project's own data as seeds (registries, manifests, icons,
//! protocol matrices, AgentRegistry pages) and a dictionary of the tokens its format is made of,
//! and keeps what it learns in `fuzz/corpus/<target>/` between runs. A crash or a hang (over 10
//! seconds on one input) stops the command with the input's path under `fuzz/artifacts/`: turn
//! it into a regression test, fix, and run again. The figures (executions, corpus size) come from
//! libFuzzer's final statistics; its full output is in `target/fuzz-logs/<target>.log`.
//!
//! Not part of `cargo xtask test`: a run takes minutes per target and uses a whole core.
//!
//! The nightly toolchain and cargo-fuzz are installed when missing (`setup::ensure_fuzzing`).

use std::fs;
use std::path::Path;
use std::process::Stdio;

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::setup::{self, FUZZ_TOOLCHAIN};

/// Options of `cargo xtask fuzz`.
#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// How long to run each target, in seconds.
    #[arg(long, default_value_t = 600)]
    seconds: u64,
    /// Run only these targets (repeat the flag); every target by default.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(TARGETS.map(|t| t.name)))]
    target: Vec<String>,
}

/// One fuzz target of `fuzz/fuzz_targets/`.
#[derive(Debug, Clone, Copy)]
struct Target {
    /// Its name in `fuzz/Cargo.toml`.
    name: &'static str,
    /// Folders (relative to the repository) whose files seed it.
    seeds: &'static [&'static str],
    /// Its dictionary in `fuzz/dicts/`.
    dictionary: &'static str,
}

const TARGETS: [Target; 5] = [
    Target {
        name: "load",
        seeds: &[
            "tests/fixtures/real-registry-2026-02/dist",
            "tests/fixtures/real-registry-2026-02/source/gemini",
        ],
        dictionary: "json.dict",
    },
    Target {
        name: "validate",
        seeds: &["tests/fixtures/real-registry-2026-02/source/gemini"],
        dictionary: "json.dict",
    },
    Target {
        name: "icon",
        seeds: &["tests/fixtures/real-registry-2026/dist"],
        dictionary: "svg.dict",
    },
    Target {
        name: "protocol_matrix",
        seeds: &["tests/fixtures/real-registry-2026"],
        dictionary: "json.dict",
    },
    Target {
        name: "agentregistry_page",
        seeds: &["tests/fixtures/agentregistry"],
        dictionary: "json.dict",
    },
];

/// What one run found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Figures {
    executions: Option<u64>,
    corpus: Option<u64>,
}

/// Runs the selected targets, one after the other, and prints their figures.
pub fn run(root: &Path, args: &FuzzArgs) -> Result<()> {
    let tools = setup::ensure_fuzzing(root)?;
    let logs = root.join("target").join("fuzz-logs");
    fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;
    let selected: Vec<Target> = TARGETS
        .into_iter()
        .filter(|t| args.target.is_empty() || args.target.iter().any(|n| n == t.name))
        .collect();
    let mut summary = Vec::new();
    for target in selected {
        let corpus = root.join("fuzz").join("corpus").join(target.name);
        fs::create_dir_all(&corpus).with_context(|| format!("creating {}", corpus.display()))?;
        let log = logs.join(format!("{}.log", target.name));
        let mut command = tools.command("cargo");
        command
            .arg(format!("+{FUZZ_TOOLCHAIN}"))
            .args(["fuzz", "run", target.name])
            .arg(&corpus)
            .args(target.seeds.iter().map(|seed| root.join(seed)))
            .arg("--")
            .arg(format!("-max_total_time={}", args.seconds))
            .arg("-timeout=10")
            .arg("-rss_limit_mb=2048")
            .arg("-print_final_stats=1")
            .arg(format!(
                "-dict={}",
                root.join("fuzz")
                    .join("dicts")
                    .join(target.dictionary)
                    .display()
            ))
            .stdout(Stdio::null())
            .stderr(fs::File::create(&log).with_context(|| format!("creating {}", log.display()))?);
        println!(
            "\n==> fuzzing {} for {} s (log: {})",
            target.name,
            args.seconds,
            log.display()
        );
        let status = command
            .status()
            .with_context(|| format!("running cargo fuzz for {}", target.name))?;
        let text = fs::read_to_string(&log).unwrap_or_default();
        let figures = figures(&text);
        if !status.success() {
            let artifact = text
                .lines()
                .find_map(|l| l.split_once("Test unit written to ").map(|(_, p)| p.trim()))
                .unwrap_or("(see the log)");
            bail!(
                "{} failed ({status}) after {} executions; the input: {artifact}; the log: {}",
                target.name,
                figures.executions.map_or("?".to_owned(), |n| n.to_string()),
                log.display()
            );
        }
        println!(
            "{}: {} executions, corpus of {} inputs, no crash or hang",
            target.name,
            figures.executions.map_or("?".to_owned(), |n| n.to_string()),
            figures.corpus.map_or("?".to_owned(), |n| n.to_string())
        );
        summary.push((target.name, figures));
    }
    println!("\ntarget               executions   corpus");
    for (name, figures) in summary {
        println!(
            "{name:<20} {:>10}   {:>6}",
            figures.executions.unwrap_or(0),
            figures.corpus.unwrap_or(0)
        );
    }
    Ok(())
}

/// The executions and final corpus size of a libFuzzer log: `stat::number_of_executed_units`
/// (from `-print_final_stats=1`), else the `Done N runs` line; the `corp: N/…` of the last
/// status line.
fn figures(log: &str) -> Figures {
    let executions = log
        .lines()
        .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
        .or_else(|| {
            log.lines().rev().find_map(|l| {
                l.strip_prefix("Done ")
                    .and_then(|r| r.split(" runs").next())
            })
        })
        .and_then(|n| n.trim().parse().ok());
    let corpus = log
        .lines()
        .rev()
        .find_map(|l| l.split_once(" corp: ").map(|(_, r)| r))
        .and_then(|r| r.split('/').next())
        .and_then(|n| n.trim().parse().ok());
    Figures { executions, corpus }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_come_from_libfuzzers_statistics() {
        let log = "INFO: Seed: 1\n\
                   #2 INITED cov: 10 ft: 11 corp: 3/40b exec/s: 0 rss: 30Mb\n\
                   #8192 pulse cov: 90 ft: 300 corp: 57/3210b lim: 80 exec/s: 4096 rss: 40Mb\n\
                   #9001 DONE cov: 95 ft: 310 corp: 61/3500b lim: 80 exec/s: 4500 rss: 41Mb\n\
                   Done 9001 runs in 2 second(s)\n\
                   stat::number_of_executed_units: 9001\n\
                   stat::average_exec_per_sec:     4500\n";
        assert_eq!(
            figures(log),
            Figures {
                executions: Some(9001),
                corpus: Some(61)
            }
        );
        assert_eq!(
            figures("Done 12 runs in 1 second(s)\n"),
            Figures {
                executions: Some(12),
                corpus: None
            }
        );
        assert_eq!(
            figures("==1== ERROR: libFuzzer: deadly signal\n"),
            Figures::default()
        );
    }

    #[test]
    fn every_target_has_its_source_seeds_and_dictionary() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let manifest = fs::read_to_string(root.join("fuzz/Cargo.toml")).unwrap();
        for target in TARGETS {
            assert!(
                root.join(format!("fuzz/fuzz_targets/{}.rs", target.name))
                    .is_file(),
                "{}",
                target.name
            );
            assert!(
                manifest.contains(&format!("name = \"{}\"", target.name)),
                "{}",
                target.name
            );
            assert!(root.join("fuzz/dicts").join(target.dictionary).is_file());
            for seed in target.seeds {
                assert!(root.join(seed).is_dir(), "{seed}");
            }
        }
    }
}
