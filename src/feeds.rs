//! The change log's Atom feeds (RFC 4287), written at build time beside the pages with
//! `atom_syndication`:
//!
//! - `changes.xml`: every change, the newest [`FEED_ENTRIES`];
//! - `new-agents.xml`: agents added to the registry;
//! - `agents/<id>/feed.xml`: one agent's changes.
//!
//! A feed reader sees each event once across rebuilds: an entry's id is the address of its line
//! on `/changes/` (`…/changes/#<event id>`, [`Event::id`]), the same in every build of the same
//! log, and its `updated` is the event's day, so a feed written again from a longer log holds
//! the same entries plus the new ones. A feed's own `updated` is its newest entry's day: the
//! same log gives byte-identical feeds.

use atom_syndication::{Entry, Feed, FixedDateTime, Generator, Link, Person, Text};
use registry_core::changes::{ChangeLog, Event, Group};

use crate::changes::{ALL_CHANGES_FEED, CHANGES_PAGE, NEW_AGENTS_FEED, agent_feed};
use crate::config;

/// The most entries a feed holds (the newest).
pub const FEED_ENTRIES: usize = 100;

/// A feed to write: its path (without the base path) and its XML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedFile {
    /// `/changes.xml`, `/agents/gemini/feed.xml`.
    pub path: String,
    /// The document.
    pub xml: String,
}

/// Every feed of `log`: the two of the whole log, and one for each of `agents` (the agents
/// with a page, beside which their feed is written; one with no change yet has an empty feed,
/// so its page's link always leads somewhere). `name` gives an agent's name from its id.
pub fn feeds(log: &ChangeLog, name: &dyn Fn(&str) -> String, agents: &[&str]) -> Vec<FeedFile> {
    let site = config::site_name();
    let mut files = vec![
        FeedFile {
            path: ALL_CHANGES_FEED.to_owned(),
            xml: feed(
                &format!("{site}: what changed"),
                ALL_CHANGES_FEED,
                CHANGES_PAGE,
                log.events().iter().rev(),
                name,
                agents,
            ),
        },
        FeedFile {
            path: NEW_AGENTS_FEED.to_owned(),
            xml: feed(
                &format!("{site}: new agents"),
                NEW_AGENTS_FEED,
                CHANGES_PAGE,
                log.events()
                    .iter()
                    .rev()
                    .filter(|e| e.change.group() == Group::Added),
                name,
                agents,
            ),
        },
    ];
    for &id in agents {
        let path = agent_feed(id);
        let events = log.for_agent(id);
        files.push(FeedFile {
            xml: feed(
                &format!("{}: changes · {site}", name(id)),
                &path,
                &format!("/agents/{id}/"),
                events.into_iter().rev(),
                name,
                agents,
            ),
            path,
        });
    }
    files
}

/// One feed: `events` newest first, of which the first [`FEED_ENTRIES`].
fn feed<'a>(
    title: &str,
    path: &str,
    page: &str,
    events: impl Iterator<Item = &'a Event>,
    name: &dyn Fn(&str) -> String,
    agents: &[&str],
) -> String {
    let entries: Vec<Entry> = events
        .take(FEED_ENTRIES)
        .map(|event| entry(event, name, agents.contains(&event.agent.as_str())))
        .collect();
    let mut feed = Feed::default();
    feed.set_title(Text::plain(title));
    feed.set_id(config::canonical(path));
    feed.set_updated(
        entries
            .first()
            .map(|entry| entry.updated)
            .unwrap_or_else(|| day_time("1970-01-01")),
    );
    feed.set_authors(vec![Person {
        name: config::site_name().to_owned(),
        uri: Some(config::canonical("/")),
        ..Person::default()
    }]);
    feed.set_links(vec![
        link(
            "self",
            &config::canonical(path),
            Some("application/atom+xml"),
        ),
        link("alternate", &config::canonical(page), Some("text/html")),
    ]);
    feed.set_generator(Generator {
        value: "acp-catalog".to_owned(),
        uri: None,
        version: None,
    });
    feed.set_entries(entries);
    feed.to_string()
}

/// An event as an entry: its sentence as the title, its line on `/changes/` as its id, and the
/// agent's page as its link when it has one (else that line).
fn entry(event: &Event, name: &dyn Fn(&str) -> String, has_page: bool) -> Entry {
    let line = format!("{}#{}", config::canonical(CHANGES_PAGE), event.id());
    let mut entry = Entry::default();
    entry.set_title(Text::plain(event.sentence(&name(&event.agent))));
    entry.set_updated(day_time(&event.day.to_string()));
    let page = if has_page {
        config::canonical(&format!("/agents/{}/", event.agent))
    } else {
        line.clone()
    };
    entry.set_links(vec![link("alternate", &page, Some("text/html"))]);
    entry.set_id(line);
    entry.set_summary(Some(Text::plain(format!(
        "{} · from the registry snapshot {}",
        event.change.group().label(),
        event.snapshot
    ))));
    entry
}

fn link(rel: &str, href: &str, mime_type: Option<&str>) -> Link {
    let mut link = Link::default();
    link.set_rel(rel);
    link.set_href(href);
    link.set_mime_type(mime_type.map(str::to_owned));
    link
}

/// Midnight UTC of `day` (`2026-01-16`).
fn day_time(day: &str) -> FixedDateTime {
    FixedDateTime::parse_from_rfc3339(&format!("{day}T00:00:00Z"))
        .unwrap_or_else(|_| FixedDateTime::parse_from_rfc3339("1970-01-01T00:00:00Z").unwrap())
}
