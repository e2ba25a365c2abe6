//! `/changes/`: what changed in the registry, newest first, grouped by day; filtered by kind of
//! change (`?kind=versions`) and by agent (`?agent=gemini`), both in the address so a filtered
//! timeline can be linked. The build writes it whole; the filters are links and a form, so the
//! page reads without JavaScript (a filter then needs the app, which applies the address).

use std::collections::BTreeMap;

use leptos::prelude::*;
use leptos_meta::Link;
use leptos_router::hooks::{use_navigate, use_query_map};
use registry_core::changes::{ChangeLog, Event, Group};

use crate::changes::{ALL_CHANGES_FEED, CHANGES_PAGE, ChangesStatus, NEW_AGENTS_FEED, use_changes};
use crate::components::history::{LogSource, Timeline};
use crate::config;
use crate::head::PageHead;
use crate::registry::use_registry;

/// How many events the page shows at first, and adds each time it is asked for more: whole
/// days, so at least this many (a day is never cut).
pub const SHOWN: usize = 500;

/// The page of the log.
#[component]
pub fn ChangesPage() -> impl IntoView {
    let changes = use_changes();
    if let Some(changes) = changes {
        changes.want();
    }
    let query = use_query_map();
    let kind = Memo::new(move |_| query.with(|q| q.get("kind").and_then(|k| Group::parse(&k))));
    let agent = Memo::new(move |_| {
        query.with(|q| {
            q.get("agent")
                .map(|a| a.trim().to_owned())
                .filter(|a| !a.is_empty())
        })
    });
    let body = move || {
        match changes.map(|c| c.status()) {
        None | Some(ChangesStatus::Pending) => view! {
            <p class="py-8 text-slate-500" role="status">"Loading the history…"</p>
        }
        .into_any(),
        Some(ChangesStatus::Missing(why)) => view! {
            <p class="py-8 text-slate-600 dark:text-slate-400">{format!("No history to show: {why}.")}</p>
        }
        .into_any(),
        Some(ChangesStatus::Loaded(log)) => {
            view! { <Changes log kind=kind.into() agent=agent.into() /> }.into_any()
        }
    }
    };
    view! {
        <PageHead
            title="What changed".to_owned()
            description="Every change to the ACP registry's agents, day by day: new agents, new versions, distribution, licence, quarantine, client listings and what the nightly protocol probe found."
            canonical=CHANGES_PAGE.to_owned()
        />
        <Link rel="alternate" type_="application/atom+xml" title="All changes" href=config::canonical(ALL_CHANGES_FEED) />
        <Link rel="alternate" type_="application/atom+xml" title="New agents" href=config::canonical(NEW_AGENTS_FEED) />
        <nav class="pt-6 text-sm">
            <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href("/")>
                "← All agents"
            </a>
        </nav>
        <section class="pb-4 pt-6">
            <h1 class="text-3xl font-bold tracking-tight sm:text-4xl">"What changed"</h1>
            <p class="mt-2 max-w-2xl text-slate-600 dark:text-slate-400">
                "Every change to the registry's agents, newest first, by the day of the registry's (or the nightly probe's) snapshot it was found in. Follow it in a feed reader: "
                <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href(ALL_CHANGES_FEED) type="application/atom+xml">"all changes"</a>
                " or "
                <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href(NEW_AGENTS_FEED) type="application/atom+xml">"new agents only"</a>
                " (Atom)."
            </p>
        </section>
        <div data-changes="page">{body}</div>
    }
}

/// The filters and the timeline of `log`.
#[component]
fn Changes(
    log: std::sync::Arc<ChangeLog>,
    kind: Signal<Option<Group>>,
    agent: Signal<Option<String>>,
) -> impl IntoView {
    let registry = use_registry();
    let names = Memo::new({
        let log = log.clone();
        move |_| names_of(&log, &registry.data().get().catalog.registry.entries)
    });
    let shown = RwSignal::new(SHOWN);
    let matching = Memo::new({
        let log = log.clone();
        move |_| {
            let kind = kind.get();
            let agent = agent.get();
            log.events()
                .iter()
                .rev()
                .filter(|e| kind.is_none_or(|k| e.change.group() == k))
                .filter(|e| agent.as_deref().is_none_or(|a| e.agent == a))
                .cloned()
                .collect::<Vec<Event>>()
        }
    });
    let agents = {
        let mut ids: Vec<String> = log.events().iter().map(|e| e.agent.clone()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let known = agents.clone();
    let navigate = use_navigate();
    let filter_href = move |group: Option<Group>| {
        agent.with(|a| address(group, a.as_deref().unwrap_or_default()))
    };
    let chip = move |group: Option<Group>| {
        let current = move || kind.get() == group;
        let label = group.map_or("All", Group::label);
        view! {
            <li>
                <a
                    href=move || filter_href(group)
                    aria-current=move || current().then_some("page")
                    class="inline-block rounded-full border px-3 py-1 text-sm aria-[current=page]:border-indigo-600 aria-[current=page]:bg-indigo-600 aria-[current=page]:text-white border-slate-300 hover:border-indigo-400 dark:border-slate-700"
                >
                    {label}
                </a>
            </li>
        }
    };
    let chips = std::iter::once(None)
        .chain(Group::ALL.into_iter().map(Some))
        .map(chip)
        .collect_view();
    let options = agents
        .into_iter()
        .map(|id| {
            let label = names
                .with_untracked(|n| n.get(&id).cloned())
                .unwrap_or_else(|| id.clone());
            let value = id.clone();
            let selected = move || agent.get().as_deref() == Some(id.as_str());
            view! { <option value=value selected=selected>{label}</option> }
        })
        .collect_view();
    let count = move || {
        let n = matching.with(Vec::len);
        match n {
            // An address naming an agent the log never saw says so, rather than nothing matching.
            0 => match agent.get() {
                Some(id) if known.binary_search(&id).is_err() => {
                    format!("No change of “{id}” is in the log.")
                }
                _ => "No change matches.".to_owned(),
            },
            1 => "1 change".to_owned(),
            n => format!("{n} changes"),
        }
    };
    view! {
        <nav aria-label="Kind of change">
            <ul class="flex flex-wrap gap-2">{chips}</ul>
        </nav>
        // A choice, not a form: the site's policy sends no form anywhere (`form-action 'none'`);
        // each agent's own changes are also on its page, without the app.
        <div class="mt-4 flex flex-wrap items-center gap-2 text-sm">
            <label for="agent-filter">"Agent"</label>
            <select
                id="agent-filter"
                class="rounded border border-slate-300 bg-white px-2 py-1 dark:border-slate-700 dark:bg-slate-900"
                on:change=move |event| {
                    let chosen = event_target_value(&event);
                    navigate(&address(kind.get_untracked(), &chosen), Default::default());
                }
            >
                <option value="" selected=move || agent.get().is_none()>"All agents"</option>
                {options}
            </select>
        </div>
        <p class="mt-4 text-sm text-slate-600 dark:text-slate-400" role="status">{count}</p>
        <ol class="mt-4" aria-label="Changes, newest first">
            {move || {
                let events = matching.with(|all| whole_days(all, shown.get()));
                view! { <Timeline events names=names.get() /> }
            }}
        </ol>
        {move || (matching.with(|all| whole_days(all, shown.get()).len() < all.len())).then(|| view! {
            <button type="button" class="mt-6 rounded border border-slate-300 px-3 py-1 text-sm hover:border-indigo-400 dark:border-slate-700" on:click=move |_| shown.update(|n| *n += SHOWN)>
                "Show older changes"
            </button>
        })}
        <div class="mt-8"><LogSource log /></div>
    }
}

/// The first `at_least` events of `events` (newest first), and the rest of the last one's day.
fn whole_days(events: &[Event], at_least: usize) -> Vec<Event> {
    let mut shown: Vec<Event> = events.iter().take(at_least).cloned().collect();
    if let Some(last) = shown.last().map(|e| e.day) {
        shown.extend(
            events[shown.len()..]
                .iter()
                .take_while(|e| e.day == last)
                .cloned(),
        );
    }
    shown
}

/// Each agent's name by id: the registry shown's, else the last the log saw, else none.
fn names_of(log: &ChangeLog, entries: &[registry_core::Entry]) -> BTreeMap<String, String> {
    let mut names: BTreeMap<String, String> = log.names();
    for entry in entries {
        names.insert(entry.id.clone(), entry.name.clone());
    }
    names
}

/// The page's address with these filters (an empty agent for all).
fn address(group: Option<Group>, agent: &str) -> String {
    let mut params = Vec::new();
    if let Some(group) = group {
        params.push(format!("kind={}", group.as_str()));
    }
    if !agent.is_empty() {
        params.push(format!("agent={}", encode(agent)));
    }
    let query = if params.is_empty() {
        String::new()
    } else {
        format!("?{}", params.join("&"))
    };
    format!("{}{query}", config::href(CHANGES_PAGE))
}

/// `text` as a query value.
fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
