//! `/compare/?ids=a,b,c`: two to four agents side by side (`registry_core::compare`): the
//! manifest's facts, what to install first, what the probe found, listings and health, when
//! each was last updated (from the change log) and whether it works in the visitor's editor.
//! Rows that differ are marked; the others are folded. The agents are columns that scroll on a
//! phone, their row names fixed.

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use registry_core::compare::{Compared, Row, read_ids, rows};
use registry_core::{Entry, Kind, Listing};

use crate::changes::{ChangesState, use_changes};
use crate::clients::use_clients;
use crate::components::compare::{COMPARE_PAGE, CompareToggle};
use crate::components::notices::ScriptNeeded;
use crate::components::verdicts::{ClientFit, chosen_client, verdict_in};
use crate::config;
use crate::head::PageHead;
use crate::registry::{LoadedRegistry, Phase, use_registry};
use crate::visitor::{use_compared, use_visitor};

const LINK: &str = "text-indigo-700 underline hover:no-underline dark:text-indigo-300";

/// The comparison page.
#[component]
pub fn ComparePage() -> impl IntoView {
    let query = use_query_map();
    let asked = Memo::new(move |_| read_ids(&query.with(|q| q.get("ids").unwrap_or_default())));
    let registry = use_registry();
    let data = registry.data();
    let compared = use_compared();
    let body = move || {
        let asked = asked.get();
        if asked.ids.is_empty() {
            let chosen = compared.get();
            return view! { <Empty chosen /> }.into_any();
        }
        if registry.phase() == Phase::Loading
            && data.with(|l| l.catalog.registry.entries.is_empty())
        {
            return view! { <p class="py-8 text-slate-500" role="status">"Loading the registry…"</p> }.into_any();
        }
        view! { <Comparison ids=asked.ids passed_over=asked.passed_over data /> }.into_any()
    };
    view! {
        <PageHead
            title="Compare agents".to_owned()
            description="ACP agents side by side: versions, distributions, platforms, what to install first, licence, sign-in, what the nightly probe found, listings and health."
            canonical=COMPARE_PAGE.to_owned()
        />
        <nav class="pt-6 text-sm">
            <a class=LINK href=config::href("/")>"← All agents"</a>
        </nav>
        <section class="pb-4 pt-6">
            <h1 class="text-3xl font-bold tracking-tight sm:text-4xl">"Compare agents"</h1>
            <ScriptNeeded what="Comparisons" still="Each agent's page has the same facts." />
        </section>
        {body}
    }
}

#[component]
fn Empty(chosen: Vec<String>) -> impl IntoView {
    let suggestion = (chosen.len() >= 2).then(|| {
        let href = config::href(&crate::components::compare::compare_href(&chosen));
        view! {
            " "
            <a class=LINK href=href>{format!("Compare the {} you chose", chosen.len())}</a>
            "."
        }
    });
    view! {
        <p class="max-w-2xl text-slate-600 dark:text-slate-400">
            "Choose two to four agents with “Compare” on their cards or pages, then open the comparison from the bar at the bottom of the window."
            {suggestion}
        </p>
    }
}

/// One agent of the comparison, with what the registry on screen says of it.
struct Column {
    entry: Arc<Entry>,
    listing: Listing,
    facts: registry_core::Facts,
}

#[component]
fn Comparison(
    ids: Vec<String>,
    passed_over: Vec<String>,
    data: Signal<Arc<LoadedRegistry>>,
) -> impl IntoView {
    let changes = use_changes();
    if let Some(changes) = changes {
        changes.want();
    }
    let clients = use_clients();
    let query = use_query_map();
    let chosen = chosen_client(Signal::derive(move || {
        query.with(|q| q.get("client").filter(|id| registry_core::id::is_slug(id)))
    }));
    if let Some(clients) = clients
        && chosen.get_untracked().is_some()
    {
        clients.want();
    }
    let visitor = use_visitor();
    let ids = Arc::new(ids);
    let table = move || {
        let ids = Arc::clone(&ids);
        data.with(|loaded| {
            let catalog = &loaded.catalog;
            let (columns, unknown): (Vec<_>, Vec<_>) = ids
                .iter()
                .map(|id| (id, catalog.registry.find(Kind::Agent, id)))
                .partition(|(_, found)| found.is_some());
            let unknown: Vec<String> = unknown.into_iter().map(|(id, _)| id.clone()).collect();
            let columns: Vec<Column> = columns
                .into_iter()
                .filter_map(|(_, found)| found)
                .map(|entry| Column {
                    listing: catalog.listing(entry),
                    facts: catalog.facts(entry),
                    entry: Arc::new(entry.clone()),
                })
                .collect();
            let compared: Vec<Compared<'_>> = columns
                .iter()
                .map(|c| Compared {
                    entry: &c.entry,
                    listing: &c.listing,
                    facts: &c.facts,
                })
                .collect();
            let mut all = rows(&compared);
            // When each was last updated, from the change log once it is read.
            if let Some(log) = changes.and_then(ChangesState::loaded) {
                let dates = log.dates();
                all.insert(
                    1,
                    Row {
                        name: "Last updated".to_owned(),
                        cells: columns
                            .iter()
                            .map(|c| {
                                dates.updated.get(&c.entry.id).map_or_else(
                                    || "Not in the history".to_owned(),
                                    ToString::to_string,
                                )
                            })
                            .collect(),
                    },
                );
            }
            // Whether each works in the visitor's editor, once the profiles are read.
            let editor = chosen.get().and_then(|id| {
                clients
                    .and_then(|c| c.loaded())
                    .and_then(|profiles| profiles.get(&id).cloned())
            });
            if let Some(client) = editor {
                let platform = visitor.get().platform;
                all.push(Row {
                    name: format!("In {} on {}", client.name, platform.label()),
                    cells: columns
                        .iter()
                        .map(|c| {
                            let fit = ClientFit::of(
                                &client.name,
                                &verdict_in(catalog, &c.entry, &client, platform),
                            );
                            match fit.note {
                                Some(note) => format!("{}: {note}", fit.outcome.label()),
                                None => fit.outcome.label().to_owned(),
                            }
                        })
                        .collect(),
                });
            }
            view! { <Table columns all unknown /> }
        })
    };
    let notice = (!passed_over.is_empty()).then(|| {
        view! {
            <p class="mb-3 text-sm text-amber-800 dark:text-amber-300" role="status">
                {format!("Passed over in the address: {} (at most four agents, each once).", passed_over.join(", "))}
            </p>
        }
    });
    view! {
        {notice}
        {table}
    }
}

#[component]
fn Table(columns: Vec<Column>, all: Vec<Row>, unknown: Vec<String>) -> impl IntoView {
    let missing = (!unknown.is_empty()).then(|| {
        view! {
            <p class="mb-3 text-sm text-amber-800 dark:text-amber-300" role="status">
                {format!("Not in the registry shown: {}.", unknown.join(", "))}
            </p>
        }
    });
    if columns.len() < 2 {
        return view! {
            {missing}
            <p class="max-w-2xl text-slate-600 dark:text-slate-400">
                "A comparison needs two agents of the registry: choose more with “Compare” on their cards or pages."
            </p>
        }
        .into_any();
    }
    let (differ, same): (Vec<Row>, Vec<Row>) = all.into_iter().partition(Row::differs);
    let head = columns
        .iter()
        .map(|c| {
            let (id, name) = (c.entry.id.clone(), c.entry.name.clone());
            view! {
                <th scope="col" class="min-w-40 px-3 pb-2 text-left align-bottom">
                    <a class=format!("font-semibold {LINK}") href=config::href(&format!("{}/", c.entry.path()))>{name.clone()}</a>
                    <div class="mt-1"><CompareToggle id name /></div>
                </th>
            }
        })
        .collect_view();
    let same_count = same.len();
    let folded = (same_count > 0).then(|| {
        view! {
            <details class="mt-4">
                <summary class="cursor-pointer text-sm text-slate-600 dark:text-slate-400">
                    {if same_count == 1 { "1 row the same for all".to_owned() } else { format!("{same_count} rows the same for all") }}
                </summary>
                <div class="mt-2 overflow-x-auto">
                    <table class="text-sm" aria-label="Rows the same for all">
                        <tbody>{rows_view(same, false)}</tbody>
                    </table>
                </div>
            </details>
        }
    });
    view! {
        {missing}
        <div class="overflow-x-auto">
            <table class="text-sm" aria-label="Agents side by side">
                <thead>
                    <tr>
                        <th scope="col" class="sticky left-0 z-10 bg-white pb-2 pr-3 text-left align-bottom text-slate-600 dark:bg-slate-950 dark:text-slate-400">
                            <span class="sr-only">"Fact"</span>
                        </th>
                        {head}
                    </tr>
                </thead>
                <tbody>{rows_view(differ, true)}</tbody>
            </table>
        </div>
        {folded}
    }
    .into_any()
}

fn rows_view(rows: Vec<Row>, differ: bool) -> impl IntoView {
    rows.into_iter()
        .map(|row| {
            let cells = row
                .cells
                .into_iter()
                .map(|cell| view! { <td class="min-w-40 px-3 py-2 align-top">{cell}</td> })
                .collect_view();
            // The row name stays in place over the cells scrolling under it: its background is
            // the row's, opaque.
            let shade = if differ {
                "bg-amber-50 dark:bg-slate-900"
            } else {
                "bg-white dark:bg-slate-950"
            };
            view! {
                <tr class=format!("border-t border-slate-200 dark:border-slate-800 {shade}")>
                    <th scope="row" class=format!("sticky left-0 z-10 w-44 py-2 pl-2 pr-3 text-left align-top font-medium {shade}")>
                        {row.name}
                        {differ.then(|| view! { <span class="block text-xs font-normal text-amber-800 dark:text-amber-300">"differs"</span> })}
                    </th>
                    {cells}
                </tr>
            }
        })
        .collect_view()
}
