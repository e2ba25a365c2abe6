//! Whether an agent works in an ACP client (`registry_core::clients::verdict`), as pages show
//! it: the outcome in a few words, and each reason with the fact it rests on and where that fact
//! comes from. An agent page's "In your editor" and a client's page use them.

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use registry_core::clients::{
    Basis, ClientFact, ClientProfile, Outcome, Profiles, Reason, Verdict, verdict,
};
use registry_core::snippets::Client;
use registry_core::{Catalog, Entry, Platform};

use crate::clients::{CLIENTS_PAGE, ClientsState, ClientsStatus, client_page};
use crate::components::link::ExternalLink;
use crate::components::section::Section;
use crate::config;
use crate::registry::use_registry;
use crate::visitor::{Certainty, remember_editor, use_editor, use_visitor};

/// The verdict for `entry` in `client` on `platform`, from what `catalog` knows (the registry's
/// lists and the probe).
pub fn verdict_in(
    catalog: &Catalog,
    entry: &Entry,
    client: &ClientProfile,
    platform: Platform,
) -> Verdict {
    verdict(
        entry,
        client,
        platform,
        &catalog.listings,
        &catalog.facts(entry),
    )
}

/// The classes of an outcome's mark: its colour, in both themes.
fn outcome_classes(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Works => {
            "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-800"
        }
        Outcome::WorksWithStep => {
            "bg-amber-100 text-amber-950 ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800"
        }
        Outcome::Unknown => {
            "bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600"
        }
        Outcome::DoesNotWork => {
            "bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-100 dark:ring-red-800"
        }
    }
}

/// An outcome in a few words, coloured.
#[component]
pub fn OutcomeMark(
    /// The outcome.
    outcome: Outcome,
) -> impl IntoView {
    view! {
        <span class=format!("inline-block whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset {}", outcome_classes(outcome))>
            {outcome.label()}
        </span>
    }
}

/// What a reason rests on, in words, with the address to check it at when there is one.
fn basis_words(basis: &Basis) -> (String, Option<String>) {
    match basis {
        Basis::Manifest => ("the agent's manifest".to_owned(), None),
        Basis::View(view) => (view.label().to_owned(), None),
        Basis::Quarantine => ("the registry's quarantine list".to_owned(), None),
        Basis::Probe { day: Some(day) } => (format!("the nightly protocol probe of {day}"), None),
        Basis::Probe { day: None } => ("the nightly protocol probe".to_owned(), None),
        Basis::Client {
            fact,
            citation: Some(citation),
        } => (
            format!(
                "the client's {}, checked {}",
                fact_words(*fact),
                citation.checked
            ),
            Some(citation.source.clone()),
        ),
        Basis::Client {
            fact,
            citation: None,
        } => (
            format!("the client's {}: not known", fact_words(*fact)),
            None,
        ),
    }
}

/// A client fact, as a reason names it.
fn fact_words(fact: ClientFact) -> &'static str {
    match fact {
        ClientFact::Registry => "registry list",
        ClientFact::AddByHand => "settings for agents added by hand",
        ClientFact::Distributions => "kinds of install",
        ClientFact::AuthMethods => "sign-in methods",
        ClientFact::ProtocolVersions => "protocol versions",
        ClientFact::Platforms => "platforms",
    }
}

/// The reasons of a verdict: those that stand in the way first, worst first, each with its
/// basis; the facts that hold folded under them.
#[component]
pub fn ReasonList(
    /// A verdict's reasons.
    reasons: Vec<Reason>,
) -> impl IntoView {
    let (mut open, holds): (Vec<Reason>, Vec<Reason>) = reasons
        .into_iter()
        .partition(|reason| reason.outcome != Outcome::Works);
    open.sort_by_key(|reason| std::cmp::Reverse(reason.outcome));
    let held = holds.len();
    let folded = (held > 0).then(|| {
        let summary = if open.is_empty() {
            format!("All {held} checks hold")
        } else if held == 1 {
            "1 other check holds".to_owned()
        } else {
            format!("{held} other checks hold")
        };
        view! {
            <details class="mt-1">
                <summary class="cursor-pointer text-slate-600 dark:text-slate-400">{summary}</summary>
                <ul class="list-disc pl-5">{reason_items(holds)}</ul>
            </details>
        }
    });
    view! {
        <div class="text-sm">
            {(!open.is_empty()).then(|| view! { <ul class="list-disc pl-5">{reason_items(open)}</ul> })}
            {folded}
        </div>
    }
}

fn reason_items(reasons: Vec<Reason>) -> impl IntoView {
    reasons
        .into_iter()
        .map(|reason| {
            let (basis, source) = basis_words(&reason.basis);
            let basis = match source {
                Some(url) => view! {
                    <span class="text-slate-500 dark:text-slate-400">
                        {format!("From {basis}: ")}
                        <ExternalLink url text="source".to_owned() />
                    </span>
                }
                .into_any(),
                None => view! {
                    <span class="text-slate-500 dark:text-slate-400">{format!("From {basis}.")}</span>
                }
                .into_any(),
            };
            view! {
                <li class="mt-1">
                    {reason.text}
                    " "
                    {basis}
                </li>
            }
        })
        .collect_view()
}

/// The platform a table of verdicts is for, in words: `Linux x86-64 (assumed)`.
pub fn platform_words(platform: Platform, certainty: Certainty) -> String {
    let how = match certainty {
        Certainty::Chosen => "chosen",
        Certainty::Detected => "detected",
        Certainty::Assumed => "assumed",
    };
    format!("{} ({how})", platform.label())
}

/// An agent page's "In your editor": the verdict in every client the catalogue knows facts of,
/// on the visitor's platform, with its reasons; then how many other clients are named with
/// nothing known yet.
#[component]
pub fn EditorVerdicts(
    /// The agent.
    entry: Arc<Entry>,
    /// The page's own path, for the section's anchor.
    page: String,
    /// The client profiles.
    clients: ClientsState,
) -> impl IntoView {
    clients.want();
    let body = move || {
        match clients.status() {
        ClientsStatus::Pending => view! {
            <p class="mt-3 text-sm text-slate-500" role="status">"Loading the client profiles…"</p>
        }
        .into_any(),
        ClientsStatus::Missing(why) => view! {
            <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">{format!("No client profiles to judge by: {why}.")}</p>
        }
        .into_any(),
        ClientsStatus::Loaded(profiles) => {
            view! { <VerdictTable entry=entry.clone() profiles /> }.into_any()
        }
    }
    };
    view! {
        <Section id="in-your-editor" title="In your editor" page>
            <div data-clients="agent">{body}</div>
        </Section>
    }
}

#[component]
fn VerdictTable(entry: Arc<Entry>, profiles: Arc<Profiles>) -> impl IntoView {
    let data = use_registry().data();
    let visitor = use_visitor();
    let query = use_query_map();
    let from_address = Signal::derive(move || {
        query.with(|q| q.get("client").filter(|id| registry_core::id::is_slug(id)))
    });
    let chosen = chosen_client(from_address);
    let mut known: Vec<ClientProfile> = (profiles.clients.iter())
        .filter(|client| client.known_facts() > 0)
        .cloned()
        .collect();
    known.sort_by_key(|client| client.name.to_lowercase());
    let others = profiles.clients.len() - known.len();
    let tab = use_context::<EditorTab>();
    let rows = {
        let profiles = profiles.clone();
        move || {
            let platform = visitor.get().platform;
            let chosen = chosen.get();
            let mut order: Vec<&ClientProfile> = known.iter().collect();
            // The visitor's own client first, even one with nothing known.
            if let Some(mine) = chosen.as_deref().and_then(|id| profiles.get(id)) {
                order.retain(|client| client.id != mine.id);
                order.insert(0, mine);
            }
            data.with(|loaded| {
                order
                    .into_iter()
                    .map(|client| {
                        let verdict = verdict_in(&loaded.catalog, &entry, client, platform);
                        let href = config::href(&client_page(&client.id));
                        let mine = chosen.as_deref() == Some(client.id.as_str());
                        view! {
                            <tr class="block border-t border-slate-200 py-2 align-top sm:table-row sm:py-0 dark:border-slate-800" class=("bg-indigo-50/60", mine) class=("dark:bg-indigo-950/30", mine)>
                                <th scope="row" class="block pl-1 pr-3 text-left font-medium sm:table-cell sm:py-2">
                                    <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=href>{client.name.clone()}</a>
                                    {mine.then(|| view! { <span class="block text-xs font-normal text-slate-600 dark:text-slate-400">"My editor"</span> })}
                                </th>
                                <td class="block py-1 pl-1 pr-3 sm:table-cell sm:py-2 sm:pl-0"><OutcomeMark outcome=verdict.outcome /></td>
                                <td class="block pl-1 sm:table-cell sm:py-2 sm:pl-0">
                                    <ReasonList reasons=verdict.reasons />
                                    {client.snippet.zip(tab).map(|(snippet, tab)| view! {
                                        <button
                                            type="button"
                                            class="mt-1 text-sm text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                                            on:click=move |_| open_snippet(tab, snippet)
                                        >
                                            {format!("Its configuration for {}", snippet.label())}
                                        </button>
                                    })}
                                </td>
                            </tr>
                        }
                    })
                    .collect_view()
            })
        }
    };
    let platform = move || {
        let visitor = visitor.get();
        platform_words(visitor.platform, visitor.certainty)
    };
    let navigate = use_navigate();
    let location = use_location();
    let on_choose = Callback::new(move |choice: Option<String>| {
        let path = location.pathname.get_untracked();
        let query = choice.map(|id| format!("?client={id}")).unwrap_or_default();
        navigate(
            &format!("{path}{query}#in-your-editor"),
            NavigateOptions {
                replace: true,
                scroll: false,
                ..NavigateOptions::default()
            },
        );
    });
    let notice = {
        let profiles = profiles.clone();
        move || unknown_client_notice(chosen.get().as_deref(), &profiles)
    };
    view! {
        <div class="mt-3 flex flex-wrap items-center justify-between gap-3">
            <p class="max-w-3xl text-sm text-slate-600 dark:text-slate-400">
                "Whether it installs, starts and signs in, client by client, on "
                <span class="font-medium text-slate-800 dark:text-slate-200">{platform}</span>
                ": from its manifest, the registry's lists, the nightly probe, and what each client's own documentation or source says (each fact links to it)."
            </p>
            <EditorPicker profiles chosen on_choose />
        </div>
        {move || notice().map(|text| view! { <p class="mt-2 text-sm text-amber-800 dark:text-amber-300" role="status">{text}</p> })}
        <div class="mt-3 overflow-x-auto">
            // On a phone each client's row is a block: its name, its verdict, then why.
            <table class="w-full text-sm">
                <thead class="hidden sm:table-header-group">
                    <tr class="text-left text-slate-600 dark:text-slate-400">
                        <th scope="col" class="pb-1 pl-1 pr-3 font-medium">"Client"</th>
                        <th scope="col" class="pb-1 pr-3 font-medium">"Verdict"</th>
                        <th scope="col" class="pb-1 font-medium">"Why"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">
            {format!("{others} other clients are named in the protocol's list with nothing known about them yet: ")}
            <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href(CLIENTS_PAGE)>"all clients and their sources"</a>
            "."
        </p>
    }
}

/// The client whose configuration an agent page's `#editors` shows: shared with its "In your
/// editor", whose rows open it.
#[derive(Clone, Copy, Debug)]
pub struct EditorTab(pub RwSignal<Client>);

/// Shows `client`'s configuration in `#editors` and scrolls to it.
fn open_snippet(tab: EditorTab, client: Client) {
    tab.0.set(client);
    #[cfg(target_arch = "wasm32")]
    if let Some(section) = document().get_element_by_id("editors") {
        section.scroll_into_view();
    }
}

/// The client a page judges in: the address's `?client=` (a link may carry one), else the one
/// the visitor chose and this device remembers: tracked.
pub fn chosen_client(from_address: Signal<Option<String>>) -> Signal<Option<String>> {
    let remembered = use_editor();
    Signal::derive(move || from_address.get().or_else(|| remembered.get()))
}

/// A card's verdict in the visitor's client: the client's name, the outcome, and what stands in
/// the way first (none when it works).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientFit {
    /// The client's name.
    pub client: String,
    /// The outcome.
    pub outcome: Outcome,
    /// The worst reason's words, when it is not simply "works".
    pub note: Option<String>,
}

impl ClientFit {
    /// The fit that `verdict`, in the client named `client`, gives.
    pub fn of(client: &str, verdict: &Verdict) -> ClientFit {
        let note = (verdict.reasons.iter())
            .filter(|reason| reason.outcome != Outcome::Works)
            .max_by_key(|reason| reason.outcome)
            .map(|reason| reason.text.clone());
        ClientFit {
            client: client.to_owned(),
            outcome: verdict.outcome,
            note,
        }
    }
}

/// A card's line: "In Zed: Works after a step · Install Node.js first…".
#[component]
pub fn FitLine(
    /// The verdict in the visitor's client.
    fit: ClientFit,
) -> impl IntoView {
    view! {
        <p class="relative mt-2 flex min-w-0 items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
            <span class="shrink-0">{format!("In {}:", fit.client)}</span>
            <OutcomeMark outcome=fit.outcome />
            {fit.note.map(|note| view! { <span class="truncate">{note}</span> })}
        </p>
    }
}

/// "My editor": the clients with known facts to choose from, the visitor's choice remembered on
/// this device and given to `on_choose` (which puts it in the address).
#[component]
pub fn EditorPicker(
    /// The profiles.
    profiles: Arc<Profiles>,
    /// The client chosen, by id.
    chosen: Signal<Option<String>>,
    /// Called with the new choice (`None`: none).
    on_choose: Callback<Option<String>>,
) -> impl IntoView {
    let mut known: Vec<(String, String)> = (profiles.clients.iter())
        .filter(|client| client.known_facts() > 0)
        .map(|client| (client.id.clone(), client.name.clone()))
        .collect();
    known.sort_by_key(|(_, name)| name.to_lowercase());
    let ids: Vec<String> = known.iter().map(|(id, _)| id.clone()).collect();
    // A client no profile has shows as none chosen (the page says why).
    let shown = Signal::derive(move || {
        chosen
            .get()
            .filter(|id| ids.contains(id))
            .unwrap_or_default()
    });
    let options = known
        .into_iter()
        .map(|(id, name)| {
            let value = id.clone();
            view! { <option value=value selected=move || chosen.get().as_deref() == Some(id.as_str())>{name}</option> }
        })
        .collect_view();
    let remembered = use_editor();
    let on_change = move |event| {
        let value = event_target_value(&event);
        let choice = (!value.is_empty()).then_some(value);
        remember_editor(choice.as_deref());
        remembered.set(choice.clone());
        on_choose.run(choice);
    };
    view! {
        <label class="flex items-center gap-2 text-sm">
            "My editor"
            <select
                class="h-9 max-w-48 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-700 dark:bg-slate-900"
                on:change=on_change
                prop:value=shown
            >
                <option value="" selected=move || shown.with(String::is_empty)>"Not chosen"</option>
                {options}
            </select>
        </label>
    }
}

/// A quiet notice for a client id no profile has: `None` when there is nothing to say.
pub fn unknown_client_notice(chosen: Option<&str>, profiles: &Profiles) -> Option<String> {
    let id = chosen?;
    profiles.get(id).is_none().then(|| {
        format!("No ACP client “{id}” is known here, so no verdicts are shown; choose yours under My editor.")
    })
}

/// The catalogue's group of verdicts in the visitor's client ("In Zed"): one box per outcome
/// with how many results it would keep under the other filters (`?works=`).
#[component]
pub fn WorksFieldset(
    /// The client's name.
    client: String,
    /// Each outcome's count, in [`Outcome::ALL`] order.
    counts: Signal<[usize; 4]>,
    /// The outcomes ticked.
    selected: Signal<std::collections::BTreeSet<Outcome>>,
    /// Called with the outcome of a box toggled.
    on_toggle: Callback<Outcome>,
) -> impl IntoView {
    let boxes = Outcome::ALL
        .into_iter()
        .enumerate()
        .map(|(at, outcome)| {
            let id = format!("facet-works-{}", outcome.as_str());
            let checked = move || selected.with(|s| s.contains(&outcome));
            let count = move || counts.with(|c| c[at]);
            let unavailable = move || count() == 0 && !checked();
            view! {
                <li class="flex items-center gap-2 text-sm">
                    <input
                        type="checkbox"
                        id=id.clone()
                        class="h-4 w-4 rounded border-slate-300 accent-indigo-600"
                        name="works"
                        value=outcome.as_str()
                        checked=checked()
                        prop:checked=checked
                        disabled=unavailable
                        on:change=move |_| on_toggle.run(outcome)
                    />
                    <label for=id class="flex flex-1 cursor-pointer justify-between gap-2" class=("text-slate-500", unavailable)>
                        <span class="truncate">{outcome.label()}</span>
                        <span class="tabular-nums text-slate-500 dark:text-slate-400">{count}</span>
                    </label>
                </li>
            }
        })
        .collect_view();
    view! {
        <fieldset class="border-t border-slate-200 py-3 first:border-t-0 dark:border-slate-800">
            <legend class="float-left mb-2 w-full text-sm font-semibold">{format!("In {client}")}</legend>
            <ul class="clear-left space-y-1">{boxes}</ul>
        </fieldset>
    }
}
