//! `/`: the searchable, filterable catalogue.
//!
//! Everything shown derives from two things: the loaded registry and the [`CatalogQuery`] in
//! the URL. [`Catalog::view`](registry_core::Catalog::view) turns them into the ordered results
//! and facet counts in one memo; the list renders the first [`PAGE`] results and grows as the
//! visitor scrolls, so typing stays smooth at 10,000 entries.
//!
//! A new query first renders only the [`FIRST_CARDS`] results that fill a screen, so the frame
//! after a keystroke shows them; the rest of the page follows right after that frame. The query
//! the page opens with renders its whole page at once.
//!
//! Each query has a list of its own. The list of the query typed before stays in the page,
//! hidden and no longer following the search, until that frame is done, and is dropped then:
//! taking a page of cards out of the document and dropping them costs about as much as building
//! the new query's first cards, and need not delay the frame that shows them.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use leptos::either::{Either, EitherOf3};
use leptos::html::Div;
use leptos::prelude::*;
use leptos::wasm_bindgen::JsCast;
use leptos_router::hooks::use_location;
use registry_core::clients::{Outcome, Profiles};
use registry_core::edition::Day;
use registry_core::{
    CatalogQuery, CatalogView, Dates, Facet, FacetValue, Filters, Kind, Matches, Sort,
};

use crate::changes::{ChangesState, ChangesStatus, use_changes};
use crate::clients::{ClientsState, use_clients};
use crate::components::card::{AgentCard, Dated};
use crate::components::deferred::Deferred;
use crate::components::facets::{FacetFieldset, facet_groups};
use crate::components::highlight::Highlights;
use crate::components::icon::icon_url;
use crate::components::lookalike::warnings_at;
use crate::components::notices::{
    DiagnosticsNotice, IncompleteNotice, LoadErrorPanel, ScriptNeeded,
};
use crate::components::search_box::SearchBox;
use crate::components::verdicts::{
    ClientFit, EditorPicker, WorksFieldset, chosen_client, unknown_client_notice, verdict_in,
};
use crate::config::{self, RegistryKind};
use crate::head::PageHead;
use crate::near_viewport::on_near_viewport;
use crate::query_state::{History, LastSearch, use_catalog_query, use_set_catalog_query};
use crate::registry::{LoadedRegistry, Phase, use_registry};
use crate::timing::{mark, measure, one_frame_later, when_idle};
use crate::visitor::use_visitor;

/// How many cards are rendered at first, and added each time the list grows.
pub const PAGE: usize = 48;

/// The most cards a new query renders in the frame it was typed in ([`cards_that_fit`]): more
/// than a 1080p screen shows above the fold.
pub const FIRST_CARDS: usize = 12;

/// How many lists of earlier queries may wait, hidden, to be dropped (several keystrokes can
/// come between two frames).
const MAX_HIDDEN_LISTS: usize = 3;

/// The client profiles, compared by identity (they are read once).
#[derive(Clone, Debug)]
struct ProfilesRef(Arc<Profiles>);

impl PartialEq for ProfilesRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A computed view, compared by identity (recomputing it is what changes it).
#[derive(Clone, Debug)]
struct ViewRef(Arc<CatalogView>);

impl PartialEq for ViewRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The catalogue page.
#[component]
pub fn CataloguePage() -> impl IntoView {
    let registry = use_registry();
    let query = use_catalog_query();
    // Setting `document.title` takes the browser most of a millisecond: the title follows the
    // search after the keystroke's frame.
    let title = one_frame_later(move || query.with(|q| q.q.trim().to_owned()));
    let (heading, intro) = match config::registry_kind() {
        RegistryKind::Acp => (
            "Find an ACP agent",
            "Coding agents that speak the Agent Client Protocol work in any ACP editor: Zed, JetBrains IDEs, Neovim, Emacs and more.",
        ),
        RegistryKind::AgentRegistry => (
            "Find an agent",
            "Every agent registered with this AgentRegistry, whatever it speaks (A2A, MCP, ACP or its own protocol) and however it is reached (HTTP or a message queue), live or stale.",
        ),
    };
    let phase = Memo::new(move |_| registry.phase());
    view! {
        <CatalogueHead query=title.into() />
        <section class="pb-6 pt-10">
            <h1 class="text-3xl font-bold tracking-tight sm:text-4xl">{heading}</h1>
            <p class="mt-2 max-w-2xl text-slate-600 dark:text-slate-400">{intro}</p>
        </section>
        {move || match phase.get() {
            Phase::Loading => EitherOf3::A(view! { <Skeleton /> }),
            Phase::Ready => EitherOf3::B(view! { <Browser data=registry.data() /> }),
            Phase::Failed => EitherOf3::C(registry
                .failure()
                .map(|error| view! { <LoadErrorPanel error /> })),
        }}
    }
}

/// The catalogue's head tags: the site's name, or the search and the site's name.
#[component]
fn CatalogueHead(query: Signal<String>) -> impl IntoView {
    let title = Signal::derive(move || query.with(|q| (!q.is_empty()).then(|| format!("“{q}”"))));
    let description = match config::registry_kind() {
        RegistryKind::Acp => {
            "Browse, search and install the coding agents that speak the Agent Client Protocol (ACP): Gemini CLI, Claude, Codex, OpenCode and more."
        }
        RegistryKind::AgentRegistry => {
            "Browse and search the agents registered with this AgentRegistry: their protocols, endpoints and capabilities."
        }
    };
    view! { <PageHead title description canonical="/".to_owned() /> }
}

/// The stable identity of a card: its entry, and what the entry says (so an entry that changed
/// in a reloaded registry gets a new card, and one that did not keeps its own).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CardKey {
    kind: Kind,
    id: String,
    content: u64,
}

fn card_key(loaded: &LoadedRegistry, index: usize) -> CardKey {
    let entry = &loaded.catalog.registry.entries[index];
    let mut hasher = DefaultHasher::new();
    entry.raw.hash(&mut hasher);
    loaded.url.hash(&mut hasher);
    // A card says whether its agent is quarantined: the list arriving changes the card.
    quarantine_of(loaded, entry).hash(&mut hasher);
    // So do its look-alike warnings, found apart and attached after the registry.
    loaded.catalog.lookalikes.warnings(index).hash(&mut hasher);
    CardKey {
        kind: entry.kind,
        id: entry.id.clone(),
        content: hasher.finish(),
    }
}

/// The loaded catalogue: search, facets, results.
#[component]
fn Browser(
    /// The registry on screen; a new one (reloaded, or with its probe results) updates what
    /// changed and keeps the rest.
    data: Signal<Arc<LoadedRegistry>>,
) -> impl IntoView {
    let query = use_catalog_query();
    // Before the query changes, while the page still shows the cards of the one before: how many
    // of the new query's cards fill the screen, for the frame that shows them.
    let results_box = NodeRef::<Div>::new();
    let first_cards = StoredValue::new(FIRST_CARDS);
    let shortest_seen = StoredValue::new(f64::INFINITY);
    let set_query = {
        let navigate = use_set_catalog_query();
        move |next: &CatalogQuery, history: History| {
            let fit = results_box
                .get_untracked()
                .and_then(|results| cards_that_fit(&results, shortest_seen.get_value()));
            if let Some(fit) = fit {
                shortest_seen.set_value(fit.shortest);
            }
            first_cards.set_value(fit.map_or(FIRST_CARDS, |fit| fit.cards));
            navigate(next, history);
        }
    };

    // The change log's days, for the date orders: asked for only when one is chosen.
    let changes = use_changes();
    let by_date = Memo::new(move |_| query.with(|q| q.sort.by_date()));
    Effect::new(move |_| {
        if by_date.get()
            && let Some(changes) = changes
        {
            changes.want();
        }
    });
    let dates = Memo::new(move |_| {
        if !by_date.get() {
            return None;
        }
        match changes.map(ChangesState::status) {
            Some(ChangesStatus::Loaded(log)) => Some(LogDates {
                dates: Arc::new(log.dates()),
                last: log.last_registry().map(|stamp| stamp.day),
            }),
            _ => None,
        }
    });
    // "My editor": the client profiles, asked for once the registry is in; each card says
    // whether its agent works in the chosen client on the visitor's platform.
    let clients = use_clients();
    Effect::new(move |_| {
        if let Some(clients) = clients
            && data.with(|loaded| !loaded.catalog.registry.entries.is_empty())
        {
            clients.want();
        }
    });
    let profiles = Memo::new(move |_| clients.and_then(ClientsState::loaded).map(ProfilesRef));
    let chosen = chosen_client(Signal::derive(move || query.with(|q| q.client.clone())));
    let editor = Memo::new(move |_| {
        let id = chosen.get()?;
        profiles.with(|p| p.as_ref()?.0.get(&id).cloned())
    });
    // Each entry's verdict in the visitor's client, on their platform, once both are known: the
    // cards say it, and the catalogue filters and counts by it (`?works=`). Judged once per
    // entry, for both.
    let visitor = use_visitor();
    let fits = Memo::new(move |_| {
        let client = editor.get()?;
        let platform = visitor.get().platform;
        Some(Arc::new(data.with(|loaded| {
            let cards: Vec<Option<ClientFit>> = (loaded.catalog.registry.entries.iter())
                .map(|entry| {
                    config::is_acp_agent(entry).then(|| {
                        ClientFit::of(
                            &client.name,
                            &verdict_in(&loaded.catalog, entry, &client, platform),
                        )
                    })
                })
                .collect();
            let outcomes = (cards.iter())
                .map(|fit| fit.as_ref().map_or(Outcome::Unknown, |fit| fit.outcome))
                .collect();
            Fits { outcomes, cards }
        })))
    });
    // What the results depend on: the query less the visitor's client, which changes what the
    // cards say, not which they are.
    let results_query = Memo::new(move |_| {
        query.with(|q| CatalogQuery {
            client: None,
            ..q.clone()
        })
    });
    let view = Memo::new(move |_| {
        ViewRef(Arc::new(data.with(|loaded| {
            results_query.with(|q| {
                dates.with(|dates| {
                    let dates = dates.as_ref().map(|d| d.dates.as_ref());
                    fits.with(|fits| {
                        let outcomes = fits.as_ref().map(|fits| fits.outcomes.as_slice());
                        loaded.catalog.view_fitted(q, dates, outcomes)
                    })
                })
            })
        })))
    });
    Effect::new(move |_| warm_up(data));
    let query_key = Memo::new(move |_| results_query.with(CatalogQuery::to_query_string));

    // More results for the query they were asked for; a new query starts from one page again.
    let grown = RwSignal::new((String::new(), 0usize));
    let limit = Memo::new(move |_| {
        PAGE + grown.with(|(key, extra)| {
            if query_key.with(|k| k == key) {
                *extra
            } else {
                0
            }
        })
    });
    // The query whose whole page may render: set once the frame showing its first cards is done.
    // The query the page opens with renders whole at once: a load is not a keystroke, and the
    // list should not grow under the visitor right after it appeared.
    let settled_key = one_frame_later(move || query_key.get());
    let settled =
        Memo::new(move |_| settled_key.with(|settled| query_key.with(|key| settled == key)));
    let total = Memo::new(move |_| view.with(|v| v.0.results.len()));
    let visible = Memo::new(move |_| {
        let shown = if settled.get() {
            limit.get()
        } else {
            limit.get().min(first_cards.get_value())
        };
        data.with(|loaded| {
            view.with(|v| {
                v.0.results
                    .iter()
                    .take(shown)
                    .map(|&index| (card_key(loaded, index), index))
                    .collect::<Vec<_>>()
            })
        })
    });
    // The lists in the page, the current query's first: the others are hidden, waiting for the
    // frame that shows the current one to be done.
    let lists = Memo::new(move |previous: Option<&Vec<String>>| {
        let key = query_key.get();
        let mut lists = vec![key.clone()];
        if let (false, Some(previous)) = (settled.get(), previous) {
            let earlier = previous.iter().filter(|list| **list != key);
            lists.extend(earlier.take(MAX_HIDDEN_LISTS).cloned());
        }
        lists
    });
    let grow = move || {
        if settled.get_untracked() && limit.get_untracked() < total.get_untracked() {
            let key = query_key.get_untracked();
            grown.update(|(k, extra)| {
                if *k != key {
                    *k = key;
                    *extra = 0;
                }
                *extra += PAGE;
            });
        }
    };

    let q = Signal::derive(move || query.with(|q| q.q.clone()));
    let on_search = {
        let set_query = set_query.clone();
        Callback::new(move |text: String| {
            let mut next = query.get_untracked();
            next.q = text;
            set_query(&next, History::Replace);
        })
    };

    // The facet counts follow the results one frame later: relaying out a few dozen changed
    // counts was most of the layout the keystroke's frame waited for.
    let groups = one_frame_later(move || {
        let filters = query.with(|q| q.filters.clone());
        view.with(|v| facet_groups(&v.0.counts, &filters))
    });
    let on_toggle = {
        let set_query = set_query.clone();
        Callback::new(move |value: FacetValue| {
            let mut next = query.get_untracked();
            next.filters.toggle(value);
            set_query(&next, History::Push);
        })
    };
    let clear_all = {
        let set_query = set_query.clone();
        move |_| {
            let client = query.with_untracked(|q| q.client.clone());
            set_query(
                &CatalogQuery {
                    client,
                    ..CatalogQuery::default()
                },
                History::Push,
            );
        }
    };
    let clear_filters = {
        let set_query = set_query.clone();
        move |_| {
            let mut next = query.get_untracked();
            next.filters = Filters::default();
            next.works.clear();
            set_query(&next, History::Push);
        }
    };
    let on_sort = {
        let set_query = set_query.clone();
        move |event| {
            let mut next = query.get_untracked();
            next.sort = Sort::parse(&event_target_value(&event)).unwrap_or_default();
            set_query(&next, History::Push);
        }
    };
    let sort = Memo::new(move |_| query.with(|q| q.sort));

    let works_counts = Signal::derive(move || view.with(|v| v.0.works.unwrap_or_default()));
    let works_selected = Signal::derive(move || query.with(|q| q.works.clone()));
    let on_works = {
        let set_query = set_query.clone();
        Callback::new(move |outcome: Outcome| {
            let mut next = query.get_untracked();
            if !next.works.remove(&outcome) {
                next.works.insert(outcome);
            }
            set_query(&next, History::Push);
        })
    };
    let on_choose = {
        let set_query = set_query.clone();
        Callback::new(move |client: Option<String>| {
            let mut next = query.get_untracked();
            next.client = client;
            set_query(&next, History::Replace);
        })
    };
    let editor_notice =
        move || profiles.with(|p| unknown_client_notice(chosen.get().as_deref(), &p.as_ref()?.0));
    let has_filters = move || query.with(|q| !q.filters.is_empty() || !q.works.is_empty());
    let filters_open = RwSignal::new(false);

    // A card's link followed: the search it was found with is remembered, for the agent page's
    // back link. One listener for the whole list, not one per card made and dropped as the
    // visitor types.
    let location = use_location();
    let last_search = use_context::<LastSearch>();
    let remember_search = move |event: leptos::ev::MouseEvent| {
        let on_link = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            .and_then(|target| target.closest("a[href]").ok().flatten())
            .is_some();
        if let (true, Some(last)) = (on_link, last_search) {
            last.remember(&location.search.get_untracked());
        }
    };

    let sentinel = NodeRef::<Div>::new();
    on_near_viewport(sentinel, "800px", grow);

    let diagnostics = Memo::new(move |_| data.with(|loaded| loaded.diagnostics.clone()));
    let incomplete = Memo::new(move |_| {
        data.with(|loaded| {
            let n = loaded.catalog.registry.entries.len();
            loaded.incomplete.clone().map(|why| (why, n))
        })
    });
    let any_extension = Memo::new(move |_| {
        data.with(|loaded| {
            loaded
                .catalog
                .registry
                .entries
                .iter()
                .any(|e| e.kind == Kind::Extension)
        })
    });
    let count_label = move || registry_core::card::count_label(total.get(), any_extension.get());

    view! {
        <Deferred><SearchBox value=q on_input=on_search /></Deferred>
        <ScriptNeeded what="Search, filters and sorting" still="Every agent listed below is a link to its page." />
        {move || incomplete.get().map(|(why, loaded)| view! { <IncompleteNotice why loaded /> })}
        {move || {
            let diagnostics = diagnostics.get();
            (!diagnostics.is_empty()).then(|| view! { <DiagnosticsNotice diagnostics /> })
        }}
        // While the app takes the page over, the results and their counts are computed in a
        // task after the one that builds the page around them.
        <Deferred>
            <div class="mt-6 gap-8 lg:grid lg:grid-cols-[14rem_1fr]">
                <aside aria-label="Filters">
                    <button
                        type="button"
                        class="mb-3 inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm lg:hidden dark:border-slate-700"
                        aria-expanded=move || filters_open.get().to_string()
                        aria-controls="facets"
                        on:click=move |_| filters_open.update(|o| *o = !*o)
                    >
                        "Filters"
                    </button>
                    <div id="facets" class="lg:block" class:hidden=move || !filters_open.get()>
                        {move || editor.get().map(|client| view! {
                            <WorksFieldset client=client.name counts=works_counts selected=works_selected on_toggle=on_works />
                        })}
                        {shown_facets().map(|facet| view! {
                            <Deferred><FacetFieldset facet groups=groups.into() on_toggle /></Deferred>
                        }).collect_view()}
                    </div>
                </aside>
                <section aria-label="Results" class="min-w-0">
                    <div class="mb-3 flex min-h-9 flex-wrap items-center justify-between gap-3">
                        <p role="status" class="text-sm font-medium text-slate-700 dark:text-slate-300">{count_label}</p>
                        <Deferred>
                            <div class="flex items-center gap-3">
                                <Show when=has_filters>
                                    <button type="button" class="text-sm text-indigo-700 underline hover:no-underline dark:text-indigo-300" on:click=clear_filters.clone()>
                                        "Clear filters"
                                    </button>
                                </Show>
                                <span class="contents" data-clients="catalogue">
                                    {move || profiles.get().map(|p| view! { <EditorPicker profiles=p.0 chosen on_choose /> })}
                                </span>
                                <label class="flex items-center gap-2 text-sm">
                                    "Sort"
                                    <select
                                        class="h-9 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-700 dark:bg-slate-900"
                                        on:change=on_sort
                                        prop:value=move || sort.get().as_str()
                                    >
                                        {sorts().into_iter().map(|s| view! {
                                            <option value=s.as_str() selected=move || sort.get() == s>{sort_label(s)}</option>
                                        }).collect_view()}
                                    </select>
                                </label>
                            </div>
                        </Deferred>
                    </div>
                    {move || editor_notice().map(|note| view! {
                        <p class="mb-3 text-sm text-amber-800 dark:text-amber-300" role="status">{note}</p>
                    })}
                    {move || date_note(by_date.get(), changes).map(|note| view! {
                        <p class="mb-3 text-sm text-slate-600 dark:text-slate-400" role="status">{note}</p>
                    })}
                    <Show
                        when=move || { total.get() > 0 }
                        fallback=move || view! { <EmptyState query on_clear=Callback::new(clear_all.clone()) /> }
                    >
                        <div node_ref=results_box data-results="" on:click=remember_search>
                            <For each=move || lists.get() key=String::clone let:list>
                                <ResultList list query_key visible view data sort dates fits />
                            </For>
                        </div>
                    </Show>
                    // Hidden until the page is whole, so that it is near only when it really is.
                    <div node_ref=sentinel class="mt-4 flex justify-center" class:hidden=move || !settled.get()>
                        <Show when=move || { limit.get() < total.get() }>
                            <button
                                type="button"
                                class="rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                                on:click=move |_| grow()
                            >
                                "Show more (" <span data-remaining="">{move || total.get() - limit.get()}</span> " remaining)"
                            </button>
                        </Show>
                    </div>
                </section>
            </div>
        </Deferred>
        {early_cards(data)}
    }
}

/// The most entries a page carries [`EarlyCards`] for: a page with more is not made heavier
/// for them, and its search waits for the app.
pub const EARLY_MAX_ENTRIES: usize = 1_000;

/// The id of the `<template>` holding what the page's early search shows
/// (`src/early-search.js`).
pub const EARLY_ID: &str = "acp-early";

/// Written by the build only: the app, once live, has no use for it.
#[cfg(target_arch = "wasm32")]
fn early_cards(_: Signal<Arc<LoadedRegistry>>) -> impl IntoView {}

#[cfg(not(target_arch = "wasm32"))]
fn early_cards(data: Signal<Arc<LoadedRegistry>>) -> impl IntoView {
    let carried = config::registry_kind() == RegistryKind::Acp
        && data.with_untracked(|loaded| {
            loaded.incomplete.is_none()
                && loaded.catalog.registry.entries.len() <= EARLY_MAX_ENTRIES
        });
    carried.then(|| view! { <EarlyCards data /> })
}

/// What the page's early search (`src/early-search.js`, with `crates/early-search`) shows
/// before the app is live, rendered by the same components as the live page, in an inert
/// `<template>`: every entry's card unmarked (in the registry's order), a `<mark>`, the empty
/// state, and the fields the search reads of each entry
/// ([`registry_core::card::searched_fields`], JSON in a data block).
#[cfg(not(target_arch = "wasm32"))]
#[component]
fn EarlyCards(data: Signal<Arc<LoadedRegistry>>) -> impl IntoView {
    use crate::components::highlight::Highlighted;
    data.with_untracked(|loaded| {
        let entries = &loaded.catalog.registry.entries;
        let any_extension = entries.iter().any(|e| e.kind == Kind::Extension);
        let fields = serde_json::json!({
            "anyExtension": any_extension,
            "fields": registry_core::card::searched_fields(entries),
        });
        // As the settings' block: nothing in it can close the element or be read as markup.
        let fields = fields
            .to_string()
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026");
        let cards = (0..entries.len())
            .map(|index| {
                result_card(loaded, index, Highlights::none(), Signal::stored(None), Signal::stored(None))
            })
            .collect_view();
        let words = Memo::new(|_| CatalogQuery {
            q: "…".to_owned(),
            ..CatalogQuery::default()
        });
        view! {
            <template id=EARLY_ID>
                <ul data-early="cards">{cards}</ul>
                <div data-early="mark"><Highlighted text="…".to_owned() ranges=vec![0.."…".len()] /></div>
                <div data-early="empty"><EmptyState query=words on_clear=Callback::new(|_| {}) /></div>
                <script type="application/json" data-early="fields" inner_html=fields></script>
            </template>
        }
    })
}

/// How many cards fill the screen, and the height that was judged by.
#[derive(Clone, Copy)]
struct Fit {
    cards: usize,
    shortest: f64,
}

/// How many cards fill the screen from the top of the list shown in `results` down: whole rows of
/// as many columns as the list has, each as tall as the shortest card seen on screen (now, or
/// `shortest_seen` before: the next query's cards may be shorter than these), plus the gap
/// between rows; at least one row, at most [`FIRST_CARDS`]. `None` without a card to measure.
///
/// Read as a query changes, before the page does: the browser laid the page out for the frame
/// just shown, so this costs no layout of its own.
fn cards_that_fit(results: &web_sys::Element, shortest_seen: f64) -> Option<Fit> {
    let bottom = window().inner_height().ok()?.as_f64()?;
    // The current query's list comes first (the catalogue's `lists`).
    let list = results.first_element_child()?;
    let cards = list.children();
    let rects: Vec<_> = (0..cards.length().min(FIRST_CARDS as u32))
        .filter_map(|i| cards.item(i))
        .map(|card| card.get_bounding_client_rect())
        .collect();
    let first = rects.first()?;
    let columns = rects
        .iter()
        .take_while(|rect| (rect.top() - first.top()).abs() < 1.0)
        .count();
    let first_row_bottom = rects[..columns]
        .iter()
        .map(|rect| rect.bottom())
        .fold(first.bottom(), f64::max);
    let gap = rects
        .get(columns)
        .map_or(0.0, |below| (below.top() - first_row_bottom).max(0.0));
    let shortest = rects
        .iter()
        .filter(|rect| rect.top() < bottom && rect.height() > 0.0)
        .map(|rect| rect.height())
        .fold(shortest_seen, f64::min);
    if !shortest.is_finite() {
        return None;
    }
    let rows = ((bottom - first.top()) / (shortest + gap)).ceil().max(1.0) as usize;
    Some(Fit {
        cards: (rows * columns).clamp(1, FIRST_CARDS),
        shortest,
    })
}

/// The cards of one query. While it is the current query's, it follows the search; once another
/// query is typed it is hidden and keeps what it showed (its cards, their marks) until it is
/// dropped.
#[component]
fn ResultList(
    /// The query it lists ([`CatalogQuery::to_query_string`]).
    list: String,
    /// The current query, the same way.
    query_key: Memo<String>,
    /// The current query's cards: their keys and their entries' indices.
    visible: Memo<Vec<(CardKey, usize)>>,
    /// The current query's view, for its matches.
    view: Memo<ViewRef>,
    /// The registry on screen.
    data: Signal<Arc<LoadedRegistry>>,
    /// The order.
    sort: Memo<Sort>,
    /// The change log's days, when a date order has them.
    dates: Memo<Option<LogDates>>,
    /// Each entry's verdict in the visitor's client, when one is chosen and known.
    fits: Memo<Option<Arc<Fits>>>,
) -> impl IntoView {
    let current = Memo::new(move |_| query_key.with(|key| *key == list));
    let rows = Memo::new(move |kept: Option<&Vec<(CardKey, usize)>>| match kept {
        Some(kept) if !current.get() => kept.clone(),
        _ => visible.get(),
    });
    let matches = Memo::new_with_compare(
        move |kept: Option<&Arc<Matches>>| match kept {
            Some(kept) if !current.get() => Arc::clone(kept),
            _ => view.with(|v| Arc::clone(&v.0.matches)),
        },
        |before, after| !matches!((before, after), (Some(a), Some(b)) if Arc::ptr_eq(a, b)),
    );
    let highlights = Highlights::new(matches.into());
    view! {
        // Hidden by `content-visibility: hidden`, not `display: none`: the browser keeps the
        // hidden cards' layout until they are dropped, after the frame, instead of taking it
        // down in the frame that shows the new list. Their contents are skipped: not drawn, not
        // focusable, not in the accessibility tree (`inert` would restyle every one of them).
        <ul
            class="grid gap-3 xl:grid-cols-2"
            class=("[content-visibility:hidden]", move || !current.get())
        >
            <For each=move || rows.get() key=|(key, _)| key.clone() let:((_, index))>
                <Deferred>
                    {data.with_untracked(|loaded| {
                        let entry = &loaded.catalog.registry.entries[index];
                        let id = entry.id.clone();
                        let dated = Signal::derive(move || {
                            dates.with(|dates| dates.as_ref()?.day_of(&id, sort.get()))
                        });
                        let fit = Signal::derive(move || {
                            fits.with(|fits| fits.as_ref()?.cards.get(index)?.clone())
                        });
                        result_card(loaded, index, highlights, dated, fit)
                    })}
                </Deferred>
            </For>
        </ul>
    }
}

/// Every entry's verdict in the visitor's client: the outcomes the catalogue filters and counts
/// by, and what the cards say (`None` for an entry no client judges).
#[derive(Debug, PartialEq)]
struct Fits {
    outcomes: Vec<Outcome>,
    cards: Vec<Option<ClientFit>>,
}

/// The card of the `index`th entry of `loaded`, as the results show it.
fn result_card(
    loaded: &LoadedRegistry,
    index: usize,
    highlights: Highlights,
    dated: Signal<Option<Dated>>,
    fit: Signal<Option<ClientFit>>,
) -> impl IntoView + use<> {
    let entry = &loaded.catalog.registry.entries[index];
    view! {
        <AgentCard
            entry=Arc::new(entry.clone())
            icon=icon_url(entry, &loaded.url)
            highlights
            warnings=warnings_at(&loaded.catalog, index)
            quarantine=quarantine_of(loaded, entry)
            dated
            fit
            compare=config::is_acp_agent(entry)
        />
    }
}

/// Queries computed while the page is idle, before the visitor types: the search, its ranking and
/// the facet tally then run for the first time. A browser compiles a wasm function when it is
/// first called and optimises it once it has run a while, so without this the first keystroke
/// pays both. One-letter queries match most entries, the work a first keystroke does.
const WARM_UP: [&str; 6] = ["a", "c", "e", "s", "g", "co"];

thread_local! {
    static WARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Computes the [`WARM_UP`] queries over the registry on screen, one per idle period, once per
/// page load (optimised code stays for the page's life). Each is measured as `acp:warm-up`.
fn warm_up(data: Signal<Arc<LoadedRegistry>>) {
    if WARMED.replace(true) {
        return;
    }
    fn step(data: Signal<Arc<LoadedRegistry>>, next: usize) {
        let Some(&q) = WARM_UP.get(next) else {
            return;
        };
        when_idle(move || {
            let query = CatalogQuery {
                q: q.to_owned(),
                ..CatalogQuery::default()
            };
            mark("acp:warm-up-start");
            // The page may be gone: nothing left to warm for.
            let done = data.try_with_untracked(|loaded| drop(loaded.catalog.view(&query)));
            mark("acp:warmed-up");
            measure("acp:warm-up", "acp:warm-up-start", "acp:warmed-up");
            if done.is_some() {
                step(data, next + 1);
            }
        });
    }
    step(data, 0);
}

/// Why the registry's automation skips `entry`, in a sentence, when it does.
fn quarantine_of(loaded: &LoadedRegistry, entry: &registry_core::Entry) -> Option<String> {
    loaded
        .catalog
        .listings
        .quarantine_of(entry)
        .map(|reason| reason.sentence())
}

fn sort_label(sort: Sort) -> &'static str {
    match sort {
        Sort::Relevance => "Relevance",
        Sort::Name => "Name",
        Sort::Updated => "Recently updated",
        Sort::Newest => "Newest",
    }
}

/// The orders the select offers: the date orders need a change log, which only an ACP
/// registry's build writes.
fn sorts() -> Vec<Sort> {
    Sort::ALL
        .into_iter()
        .filter(|s| !s.by_date() || config::registry_kind() == RegistryKind::Acp)
        .collect()
}

/// What a date order says while it lacks the change log's days: loading, or why it has none.
fn date_note(by_date: bool, changes: Option<ChangesState>) -> Option<String> {
    if !by_date {
        return None;
    }
    match changes.map(ChangesState::status) {
        Some(ChangesStatus::Loaded(_)) => None,
        Some(ChangesStatus::Pending) => Some("Loading the days from the change log…".to_owned()),
        Some(ChangesStatus::Missing(why)) => Some(format!("Sorted by name: {why}.")),
        None => Some("Sorted by name: this page has no change log.".to_owned()),
    }
}

/// How many days after the log's last registry state an addition or update is "new".
pub const NEW_DAYS: i64 = 14;

/// The change log's days, as the date orders show them.
#[derive(Clone, Debug, PartialEq)]
struct LogDates {
    dates: Arc<Dates>,
    /// The day of the log's last registry state: what "new" is counted from.
    last: Option<Day>,
}

impl LogDates {
    /// The day a card shows in this order, and whether it is within [`NEW_DAYS`] of the log's
    /// last state.
    fn day_of(&self, id: &str, sort: Sort) -> Option<Dated> {
        let added = self.dates.added.get(id);
        let (updated, day) = match sort {
            // An entry whose last update is its addition was added, not updated.
            Sort::Updated => {
                let day = self.dates.updated.get(id)?;
                (added != Some(day), day)
            }
            Sort::Newest => (false, added?),
            Sort::Relevance | Sort::Name => return None,
        };
        Some(Dated {
            updated,
            day: *day,
            new: self
                .last
                .is_some_and(|last| last.days_since(*day) < NEW_DAYS),
        })
    }
}

/// Nothing matches: say so, and offer the way out.
#[component]
fn EmptyState(
    query: Memo<CatalogQuery>,
    on_clear: Callback<leptos::ev::MouseEvent>,
) -> impl IntoView {
    // The words searched are an element of their own: the page's early search fills them in
    // a copy of this state (`EarlyCards`) before the app is live.
    let words = move || query.with(|q| q.q.trim().to_owned());
    let filtered = move || query.with(|q| !q.filters.is_empty());
    let message = move || {
        if words().is_empty() {
            Either::Left("No agents match these filters.")
        } else {
            let rest = if filtered() {
                " with these filters."
            } else {
                "."
            };
            Either::Right(
                view! { "No agents match “" <span data-words="">{words}</span> "”" {rest} },
            )
        }
    };
    view! {
        <div class="rounded-xl border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
            <p class="text-lg font-medium">{message}</p>
            <p class="mt-1 text-sm text-slate-600 dark:text-slate-400">"Try fewer words, or another spelling."</p>
            <button
                type="button"
                class="mt-4 rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                on:click=move |e| on_clear.run(e)
            >
                "Clear search and filters"
            </button>
        </div>
    }
}

/// Placeholder with the loaded page's layout, so nothing jumps when the registry arrives.
#[component]
fn Skeleton() -> impl IntoView {
    let registry = use_registry();
    let loading_status = move || {
        let Some(p) = registry.progress() else {
            return "Loading agents…".to_owned();
        };
        let pages = p.pages.map(|n| format!(" of {n}")).unwrap_or_default();
        let total = p.total.map(|n| format!(" of {n}")).unwrap_or_default();
        format!(
            "Loading agents… page {}{pages} ({} agents{total} so far)",
            p.page, p.loaded
        )
    };
    view! {
        <div class="h-12 w-full rounded-xl border border-slate-200 dark:border-slate-800"></div>
        <div class="mt-6 gap-8 lg:grid lg:grid-cols-[14rem_1fr]" aria-busy="true">
            <div class="hidden space-y-3 lg:block">
                {(0..5).map(|_| view! { <div class="h-24 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900"></div> }).collect_view()}
            </div>
            <div>
                <p role="status" class="mb-3 flex min-h-9 items-center text-sm text-slate-500">{loading_status}</p>
                <ul class="grid gap-3 xl:grid-cols-2">
                    {(0..8).map(|_| view! {
                        <li class="h-32 animate-pulse rounded-xl border border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900"></li>
                    }).collect_view()}
                </ul>
            </div>
        </div>
    }
}

/// The facet groups this build's registry can list: the AgentRegistry's tag groups, or the ACP
/// registry's groups.
fn shown_facets() -> impl Iterator<Item = Facet> {
    let agentregistry = config::registry_kind() == RegistryKind::AgentRegistry;
    Facet::all().filter(move |facet| facet.is_tag() == agentregistry)
}
