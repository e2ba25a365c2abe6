//! The change log a build writes, over the registry's real history (`data/history/`) and the
//! bundled registry: carried forward, deterministic, and its Atom feeds read back by a parser
//! other than the one that wrote them. (In the wasm test build this file compiles to nothing.)
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use acp_catalog::feeds::{FEED_ENTRIES, FeedFile, feeds};
use acp_catalog::history::{Current, build, read_folder};
use acp_catalog::registry::{LoadedRegistry, registry_url};
use acp_catalog::render::{Pages, SiteData, Template, write_site};
use registry_core::changes::{ChangeLog, Stamp};

const REGISTRY: &str = include_str!("../public/registry.json");
const MATRIX: &str = include_str!("../public/protocol-matrix.json");
const JETBRAINS: &str = include_str!("../public/registry-for-jetbrains.json");

fn history() -> Vec<(String, String)> {
    read_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data/history")).unwrap()
}

fn current() -> Current<'static> {
    Current {
        stamp: Stamp::parse("2026-08-20"),
        registry: REGISTRY,
        jetbrains: Some(JETBRAINS),
        matrix: Some(MATRIX),
        ..Current::default()
    }
}

fn names(log: &ChangeLog) -> impl Fn(&str) -> String {
    let names = log.names();
    move |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_owned())
}

fn agents() -> Vec<String> {
    LoadedRegistry::from_text(registry_url(), REGISTRY)
        .unwrap()
        .catalog
        .registry
        .entries
        .iter()
        .map(|e| e.id.clone())
        .collect()
}

fn feeds_of(log: &ChangeLog) -> BTreeMap<String, String> {
    let ids = agents();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    feeds(log, &names(log), &ids)
        .into_iter()
        .map(|FeedFile { path, xml }| (path, xml))
        .collect()
}

fn parse(xml: &str) -> feed_rs::model::Feed {
    feed_rs::parser::parse(xml.as_bytes()).expect("an Atom feed feed-rs reads")
}

#[test]
fn the_bundled_history_and_registry_give_a_dated_log() {
    let built = build(None, &history(), &current());
    let log = &built.log;
    assert_eq!(
        log.started_from().map(|s| s.snapshot.as_str()),
        Some("2025-12-19")
    );
    assert_eq!(
        log.last_registry().map(|s| s.snapshot.as_str()),
        Some("2026-08-20")
    );
    assert_eq!(
        log.last_probe().map(|s| s.snapshot.as_str()),
        Some("2026-08-20")
    );
    // The bundled matrix is the history's last snapshot: given twice, it is read once, quietly.
    assert!(built.notes.is_empty(), "{:?}", built.notes);
    let gemini: Vec<String> = log
        .for_agent("gemini")
        .iter()
        .filter(|e| e.change.kind() == "version-changed")
        .map(|e| format!("{} {}", e.day, e.change.words()))
        .collect();
    assert!(
        gemini.contains(&"2026-01-20 0.24.4 → 0.24.5".to_owned()),
        "{gemini:?}"
    );
    // From the last day of the registry's history to the bundled registry.
    assert!(
        gemini.contains(&"2026-08-20 0.27.3 → 0.45.3".to_owned()),
        "{gemini:?}"
    );
    // An agent no longer listed keeps the name it had, for the lines that name it.
    let names = log.names();
    assert!(!REGISTRY.contains("\"id\": \"claude\""));
    assert_eq!(names.get("claude").map(String::as_str), Some("Claude Code"));
    assert_eq!(names.get("gemini").map(String::as_str), Some("Gemini CLI"));
}

#[test]
fn a_build_without_history_starts_the_log_at_its_own_registry_and_says_so() {
    let built = build(None, &[], &current());
    assert!(built.log.events().is_empty());
    assert_eq!(
        built.log.started_from().map(|s| s.snapshot.as_str()),
        Some("2026-08-20")
    );
    assert!(
        built
            .notes
            .iter()
            .any(|n| n.contains("no history given") && n.contains("2026-08-20")),
        "{:?}",
        built.notes
    );
}

#[test]
fn a_log_carried_forward_from_the_last_site_is_the_log_built_at_once() {
    let all = history();
    let until = |day: &str| -> Vec<(String, String)> {
        all.iter()
            .filter(|(name, _)| name.rsplit('/').next().unwrap_or_default() <= day)
            .cloned()
            .collect()
    };
    let at_once = build(None, &all, &current()).log.to_json();
    // A site built on 2026-01-20 from the history so far (its own registry that day's)…
    let first = build(
        None,
        &until("2026-01-19.zzz"),
        &Current {
            stamp: Stamp::parse("2026-01-20"),
            registry: &all
                .iter()
                .find(|(n, _)| n == "registry/2026-01-20.json")
                .unwrap()
                .1,
            ..Current::default()
        },
    );
    // …and the next build, given that site's changes.json and the whole history.
    let next = build(Some(&first.log.to_json()), &all, &current());
    assert_eq!(next.log.to_json(), at_once);
    assert!(next.notes.is_empty(), "{:?}", next.notes);
}

#[test]
fn a_corrupt_previous_log_is_said_and_a_new_one_started() {
    let built = build(
        Some("{\"changesFormat\": 1, \"events\": ["),
        &history(),
        &current(),
    );
    assert!(
        built
            .notes
            .iter()
            .any(|n| n.contains("previous change log") && n.contains("not valid JSON")),
        "{:?}",
        built.notes
    );
    assert_eq!(
        built.log.to_json(),
        build(None, &history(), &current()).log.to_json()
    );
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let a = build(None, &history(), &current()).log;
    let b = build(None, &history(), &current()).log;
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(feeds_of(&a), feeds_of(&b));
}

#[test]
fn the_feeds_read_back_with_another_parser() {
    let log = build(None, &history(), &current()).log;
    let feeds = feeds_of(&log);
    let all = parse(&feeds["/changes.xml"]);
    assert_eq!(all.entries.len(), FEED_ENTRIES.min(log.events().len()));
    let ids: BTreeSet<&str> = all.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids.len(), all.entries.len(), "each entry once");
    // Newest first, each dated by its event's day.
    let newest = log.events().last().unwrap();
    assert_eq!(
        all.entries[0].updated.map(|t| t.date_naive().to_string()),
        Some(newest.day.to_string())
    );
    assert!(
        all.links
            .iter()
            .any(|l| l.rel.as_deref() == Some("self") && l.href.ends_with("/changes.xml"))
    );
    let new = parse(&feeds["/new-agents.xml"]);
    assert!(!new.entries.is_empty());
    assert!(new.entries.iter().all(|e| {
        e.title
            .as_ref()
            .is_some_and(|t| t.content.contains("added to the registry"))
    }));
}

#[test]
fn an_agents_feed_holds_exactly_its_events() {
    let log = build(None, &history(), &current()).log;
    let feeds = feeds_of(&log);
    let gemini = parse(&feeds["/agents/gemini/feed.xml"]);
    let expected: BTreeSet<String> = log
        .for_agent("gemini")
        .iter()
        .map(|e| format!("https://agentclientprotocol.com/changes/#{}", e.id()))
        .collect();
    let found: BTreeSet<String> = gemini.entries.iter().map(|e| e.id.clone()).collect();
    assert!(expected.len() < FEED_ENTRIES);
    assert_eq!(found, expected);
    assert!(
        gemini
            .entries
            .iter()
            .all(|e| e.links.iter().any(|l| l.href.ends_with("/agents/gemini/")))
    );
}

#[test]
fn a_feed_reader_sees_each_event_once_across_rebuilds() {
    let all = history();
    let early: Vec<(String, String)> = all
        .iter()
        .filter(|(name, _)| name.rsplit('/').next().unwrap_or_default() < "2026-01-29")
        .cloned()
        .collect();
    let registry = &all
        .iter()
        .find(|(n, _)| n == "registry/2026-01-28.json")
        .unwrap()
        .1;
    let before = build(
        None,
        &early,
        &Current {
            stamp: Stamp::parse("2026-01-28"),
            registry,
            ..Current::default()
        },
    )
    .log;
    let after = build(Some(&before.to_json()), &all, &current()).log;
    let ids = |log: &ChangeLog| -> BTreeSet<String> {
        parse(&feeds_of(log)["/agents/gemini/feed.xml"])
            .entries
            .into_iter()
            .map(|e| e.id)
            .collect()
    };
    let (before, after) = (ids(&before), ids(&after));
    assert!(!before.is_empty());
    assert!(
        before.is_subset(&after),
        "{:?}",
        before.difference(&after).collect::<Vec<_>>()
    );
    assert!(after.len() > before.len());
}

#[test]
fn the_changes_page_and_an_agents_history_are_written_readable_without_scripts() {
    let log = build(None, &history(), &current()).log;
    let loaded = LoadedRegistry::from_text(registry_url(), REGISTRY).unwrap();
    let out = std::env::temp_dir().join(format!("acp-changes-{}", std::process::id()));
    fs::create_dir_all(&out).unwrap();
    let template = Template::parse("<html><head></head><body></body></html>").unwrap();
    let written = write_site(
        &template,
        Some(&loaded),
        SiteData {
            changes: Some(&log),
            clients: None,
        },
        &out,
        Pages::All,
    )
    .unwrap();
    assert_eq!(written.changes, log.events().len());
    let page = fs::read_to_string(out.join("changes/index.html")).unwrap();
    for expected in [
        "What changed",
        "<time datetime=\"2026-01-20\">2026-01-20</time>",
        "0.24.4 → 0.24.5",
        "href=\"/agents/gemini/\"",
        "href=\"/changes.xml\"",
        "From the registry's snapshots 2025-12-19 to 2026-08-20",
    ] {
        assert!(page.contains(expected), "/changes/ lacks {expected}");
    }
    let agent = fs::read_to_string(out.join("agents/gemini/index.html")).unwrap();
    for expected in [
        ">History<",
        "Last updated 2026-08-20",
        "0.24.4 → 0.24.5",
        "href=\"/agents/gemini/feed.xml\"",
        "type=\"application/atom+xml\"",
    ] {
        assert!(agent.contains(expected), "the agent page lacks {expected}");
    }
    let json = fs::read_to_string(out.join("changes.json")).unwrap();
    assert_eq!(ChangeLog::from_json(&json).unwrap(), log);
    assert!(out.join("agents/gemini/feed.xml").is_file());
    let sitemap = fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("/changes/</loc>"), "{sitemap}");
    fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_build_given_its_own_site_again_adds_nothing_and_says_why() {
    let first = build(None, &history(), &current());
    let again = build(Some(&first.log.to_json()), &[], &current());
    assert_eq!(again.log.to_json(), first.log.to_json());
    // Its registry is said once; its probe file, the log's last probe, is passed over quietly.
    assert_eq!(again.notes.len(), 1, "{:?}", again.notes);
    assert!(again.notes[0].contains("is the change log's last state already"));
}
