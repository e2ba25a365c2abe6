//! The change log on a page: a timeline of events grouped by day ([`Timeline`]), an agent
//! page's History section ([`AgentHistory`]), and where the log's facts come from
//! ([`LogSource`]).

use std::collections::BTreeMap;

use leptos::prelude::*;
use registry_core::changes::{ChangeLog, Event, Group};

use crate::changes::{ChangesState, ChangesStatus, agent_feed};
use crate::components::section::Section;
use crate::config;

/// Events grouped by day, newest day first, each day's in the log's order (by agent, then kind):
/// a heading per day (the registry's or the probe's state of that day, unless a line names its
/// snapshot), a line per event, each linking to its agent (unless the timeline is one agent's)
/// and anchored by the event's id.
#[component]
pub fn Timeline(
    /// The events, newest first.
    events: Vec<Event>,
    /// Each agent's name, by id.
    names: BTreeMap<String, String>,
    /// Whether the lines name and link their agent (a timeline of one agent's does not).
    #[prop(optional)]
    one_agent: bool,
) -> impl IntoView {
    let mut days: Vec<(String, Vec<Event>)> = Vec::new();
    for event in events {
        let day = event.day.to_string();
        match days.last_mut() {
            Some((last, list)) if *last == day => list.push(event),
            _ => days.push((day, vec![event])),
        }
    }
    days.into_iter()
        .map(|(day, events)| {
            let lines = events
                .into_iter()
                .rev()
                .map(|event| view! { <ChangeLine event names=names.clone() one_agent /> })
                .collect_view();
            view! {
                <li class="mt-6 first:mt-0">
                    <h3 class="text-sm font-semibold text-slate-700 dark:text-slate-300">
                        <time datetime=day.clone()>{day.clone()}</time>
                    </h3>
                    <ul class="mt-2 space-y-3 sm:space-y-1.5">{lines}</ul>
                </li>
            }
        })
        .collect_view()
}

/// One event: its group, the agent's name linking to its page, what changed, and the snapshot
/// it was found in when that is not the day's (`v2026.08.20-1a2b3c4`).
#[component]
fn ChangeLine(event: Event, names: BTreeMap<String, String>, one_agent: bool) -> impl IntoView {
    let group = event.change.group();
    let words = event.change.words();
    let agent = (!one_agent).then(|| {
        let name = names
            .get(&event.agent)
            .cloned()
            .unwrap_or_else(|| event.agent.clone());
        view! {
            <a class="font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href(&format!("/agents/{}/", event.agent))>
                {name}
            </a>
            ": "
        }
    });
    view! {
        <li id=event.id() class="flex flex-wrap items-baseline gap-x-2 text-sm">
            <span class=format!("shrink-0 text-center sm:w-32 {}", group_class(group))>{group.label()}</span>
            <span>{agent}{words}</span>
            // A line comes from its day's snapshot unless it names another.
            {(event.snapshot != event.day.to_string()).then(|| view! {
                <span class="text-xs text-slate-500 dark:text-slate-400">
                    {format!("snapshot {}", event.snapshot)}
                </span>
            })}
        </li>
    }
}

/// The badge of a group: quiet, its colour telling additions and removals apart.
fn group_class(group: Group) -> &'static str {
    match group {
        Group::Added => {
            "rounded bg-emerald-100 px-1.5 text-xs font-medium text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200"
        }
        Group::Removed | Group::Quarantine => {
            "rounded bg-rose-100 px-1.5 text-xs font-medium text-rose-900 dark:bg-rose-900/50 dark:text-rose-200"
        }
        _ => {
            "rounded bg-slate-100 px-1.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300"
        }
    }
}

/// Where the log's facts come from: "From the registry's snapshots of 2025-12-19 to 2026-08-20
/// and its probe's of 2026-03-06 to 2026-08-20."
#[component]
pub fn LogSource(
    /// The log.
    log: std::sync::Arc<ChangeLog>,
) -> impl IntoView {
    let span = |first: Option<String>, last: Option<String>| match (first, last) {
        (Some(first), Some(last)) if first != last => Some(format!("{first} to {last}")),
        (Some(day), _) | (None, Some(day)) => Some(day),
        (None, None) => None,
    };
    let registry = span(
        log.started_from().map(|s| s.snapshot.clone()),
        log.last_registry().map(|s| s.snapshot.clone()),
    );
    let probe = span(
        log.probes_started_from().map(|s| s.snapshot.clone()),
        log.last_probe().map(|s| s.snapshot.clone()),
    );
    let mut text = match registry {
        Some(registry) => format!("From the registry's snapshots {registry}"),
        None => "From no registry snapshot yet".to_owned(),
    };
    if let Some(probe) = probe {
        text.push_str(&format!(" and the nightly probe's {probe}"));
    }
    text.push('.');
    if log.truncated() > 0 {
        text.push_str(&format!(
            " The {} oldest changes are no longer kept.",
            log.truncated()
        ));
    }
    view! { <p class="text-sm text-slate-500 dark:text-slate-400">{text}</p> }
}

/// An agent page's History: when it was last updated and added, its versions with their days
/// and the other changes, a link to its feed and where it comes from. While the log loads it
/// says so; without one, why.
#[component]
pub fn AgentHistory(
    /// The agent's id.
    id: String,
    /// Its name.
    name: String,
    /// The page's own path, for the section's anchor.
    page: String,
    /// The log.
    changes: ChangesState,
) -> impl IntoView {
    changes.want();
    let body = move || {
        match changes.status() {
        ChangesStatus::Pending => view! {
            <p class="mt-3 text-sm text-slate-500" role="status">"Loading the history…"</p>
        }
        .into_any(),
        ChangesStatus::Missing(why) => view! {
            <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">{format!("No history to show: {why}.")}</p>
        }
        .into_any(),
        ChangesStatus::Loaded(log) => {
            view! { <AgentLog log id=id.clone() name=name.clone() /> }.into_any()
        }
    }
    };
    view! {
        <Section id="history" title="History" page>
            <div data-changes="agent">{body}</div>
        </Section>
    }
}

#[component]
fn AgentLog(log: std::sync::Arc<ChangeLog>, id: String, name: String) -> impl IntoView {
    let events: Vec<Event> = log.for_agent(&id).into_iter().rev().cloned().collect();
    let updated = log.updated_days().get(&id).map(ToString::to_string);
    let added = log.added_days().get(&id).map(ToString::to_string);
    let mut facts = Vec::new();
    if let Some(day) = updated {
        facts.push(format!("Last updated {day}"));
    }
    match added {
        Some(day) => facts.push(format!("added to the registry {day}")),
        None => {
            if let Some(start) = log.started_from() {
                facts.push(format!("listed since before {}", start.snapshot));
            }
        }
    }
    let summary = (!facts.is_empty()).then(|| {
        let mut text = facts.join("; ");
        text.push('.');
        view! { <p class="mt-3 font-medium">{text}</p> }
    });
    let count = events.len();
    let list = if events.is_empty() {
        view! {
            <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">
                {format!("No change to {name} in the history kept here.")}
            </p>
        }
        .into_any()
    } else {
        view! {
            <ol class="mt-4" aria-label=format!("Changes to {name}, newest first")>
                <Timeline events names=BTreeMap::new() one_agent=true />
            </ol>
        }
        .into_any()
    };
    view! {
        {summary}
        {list}
        <p class="mt-4 text-sm">
            <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href(&agent_feed(&id)) type="application/atom+xml">
                {format!("Follow {name}'s changes (Atom feed)")}
            </a>
            {(count > 0).then(|| format!(" · {count} changes"))}
        </p>
        <div class="mt-2"><LogSource log /></div>
    }
}
