//! `/agents/<id>` and `/extensions/<id>`: one entry's page.
//!
//! The route finds the entry in the registry on screen and chooses its page body once: an ACP
//! entry's [`EntryDetails`], or an AgentRegistry agent's [`ServiceDetails`]. What the page shows
//! is a memo compared by value, so a registry reloaded with the same entry (or the protocol
//! matrix arriving for another agent) leaves the page as it is.

use std::sync::Arc;

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos_meta::{Link, Script};
use leptos_router::hooks::{use_location, use_params_map};
use registry_core::edition::Edition;
use registry_core::protocol::Report;
use registry_core::{BadgeSnippets, Entry, Kind, Listing, ServiceAgent};

use crate::changes::{agent_feed, use_changes};
use crate::components::compare::CompareToggle;
use crate::components::entry::{EntryDetails, ProbeReport};
use crate::components::icon::icon_url;
use crate::components::lookalike::{LookalikeWarnings, warnings_of};
use crate::components::notices::LoadErrorPanel;
use crate::components::service_details::ServiceDetails;
use crate::config;
use crate::first_page::FirstPage;
use crate::head::PageHead;
use crate::query_state::LastSearch;
use crate::registry::{LoadedRegistry, Phase, use_registry};

/// The page of one agent or extension.
#[component]
pub fn AgentPage() -> impl IntoView {
    let registry = use_registry();
    let params = use_params_map();
    let location = use_location();
    let kind = Memo::new(move |_| {
        if location.pathname.with(|p| p.contains("/extensions/")) {
            Kind::Extension
        } else {
            Kind::Agent
        }
    });
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let phase = Memo::new(move |_| registry.phase());
    move || match phase.get() {
        Phase::Loading => {
            EitherOf3::A(view! { <p class="py-16 text-slate-500" role="status">"Loading…"</p> })
        }
        Phase::Failed => EitherOf3::B(
            registry
                .failure()
                .map(|error| view! { <LoadErrorPanel error /> }),
        ),
        Phase::Ready => EitherOf3::C(view! { <EntryRoute kind id /> }),
    }
}

/// What an entry's page shows.
#[derive(Clone, Debug, PartialEq)]
struct EntryView {
    entry: Arc<Entry>,
    icon: Option<String>,
    /// Its look-alike warnings.
    warnings: Vec<String>,
    body: Body,
}

/// The page body chosen for the entry's origin.
#[derive(Clone, Debug, PartialEq)]
enum Body {
    /// An ACP entry, with what the probe found, where it is listed, and its badge.
    Acp {
        report: Option<Box<ProbeReport>>,
        matrix_problem: Option<String>,
        edition: Box<Edition>,
        listing: Box<Listing>,
        badge: Box<BadgeSnippets>,
    },
    /// An AgentRegistry agent, with the service's base URL.
    Service {
        agent: Arc<ServiceAgent>,
        base: String,
    },
}

impl EntryView {
    fn find(loaded: &LoadedRegistry, kind: Kind, id: &str) -> Option<EntryView> {
        let entry = loaded.catalog.registry.find(kind, id)?;
        let body = match config::service_of(entry) {
            Some(agent) => Body::Service {
                agent,
                base: loaded.url.clone(),
            },
            None => Body::Acp {
                report: match loaded.catalog.report(entry) {
                    Report::NotProbed => None,
                    Report::Probed { date, probe, .. } => Some(Box::new(ProbeReport {
                        date: date.to_owned(),
                        probe: probe.clone(),
                    })),
                },
                matrix_problem: loaded.matrix_problem.clone(),
                edition: Box::new(loaded.edition.clone()),
                listing: Box::new(loaded.catalog.listing(entry)),
                badge: Box::new(registry_core::badge_snippets(entry, &config::address())),
            },
        };
        Some(EntryView {
            icon: icon_url(entry, &loaded.url),
            warnings: warnings_of(&loaded.catalog, entry),
            entry: Arc::new(entry.clone()),
            body,
        })
    }
}

#[component]
fn EntryRoute(kind: Memo<Kind>, id: Memo<String>) -> impl IntoView {
    let data = use_registry().data();
    let found =
        Memo::new(move |_| data.with(|loaded| EntryView::find(loaded, kind.get(), &id.get())));
    move || match found.get() {
        Some(page) => Either::Left(view! { <EntryPage page /> }),
        None => Either::Right(view! { <UnknownEntry id=id.get() /> }),
    }
}

#[component]
fn EntryPage(page: EntryView) -> impl IntoView {
    let EntryView {
        entry,
        icon,
        warnings,
        body,
    } = page;
    let back = use_context::<LastSearch>()
        .map(LastSearch::href)
        .unwrap_or_else(|| config::href("/"));
    scroll_to_fragment();
    let title = entry.name.clone();
    // The same in the browser as in the HTML the build wrote: search engines that render
    // pages read the live document's head. The build renders a link-preview image for every
    // agent of an ACP registry it renders pages for; an AgentRegistry's pages are not rendered.
    let image = (config::registry_kind() == config::RegistryKind::Acp)
        .then(|| config::address().og_image(&entry));
    // An agent of an ACP registry has a feed of its changes beside its page.
    let feed = (use_changes().is_some()
        && config::registry_kind() == config::RegistryKind::Acp
        && entry.kind == Kind::Agent)
        .then(|| config::canonical(&agent_feed(&entry.id)));
    let title_for_feed = entry.name.clone();
    let structured = registry_core::jsonld::software_application(
        &entry,
        &config::canonical(&format!("{}/", entry.path())),
        image.as_deref(),
    );
    // An ACP agent can be put beside others.
    let compare = config::is_acp_agent(&entry).then(|| {
        view! { <CompareToggle id=entry.id.clone() name=entry.name.clone() /> }
    });
    let body = match body {
        Body::Acp {
            report,
            matrix_problem,
            edition,
            listing,
            badge,
        } => Either::Left(view! {
            <EntryDetails
                entry=entry.clone()
                icon
                report=report.map(|r| *r)
                matrix_problem
                edition=*edition
                listing=*listing
                badge=*badge
            />
        }),
        Body::Service { agent, base } => {
            Either::Right(view! { <ServiceDetails entry=entry.clone() agent base /> })
        }
    };
    view! {
        <PageHead
            title=title
            description=entry.description.clone()
            canonical=format!("{}/", entry.path())
            image=image
        />
        <Script type_="application/ld+json">{structured}</Script>
        {feed.map(|href| view! {
            <Link rel="alternate" type_="application/atom+xml" title=format!("{title_for_feed}: changes") href />
        })}
        <nav class="flex items-center justify-between gap-3 pt-6 text-sm">
            <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=back>
                "← All agents"
            </a>
            {compare}
        </nav>
        <LookalikeWarnings warnings class="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950/40" />
        {body}
    }
}

/// Scrolls to the `#anchor` of the address once the page has rendered, when the browser could
/// not (the page was not in the HTML it loaded, or the visitor navigated here in the app). A
/// page that arrived whole in the HTML was scrolled by the browser already; scrolling again
/// would undo what the visitor did since.
fn scroll_to_fragment() {
    if use_context::<FirstPage>().is_some_and(FirstPage::take_prerendered) {
        return;
    }
    Effect::new(move |_| {
        let hash = window().location().hash().unwrap_or_default();
        if let Some(id) = hash
            .strip_prefix('#')
            .filter(|id| !id.is_empty())
            .map(str::to_owned)
        {
            request_animation_frame(move || {
                if let Some(target) = document().get_element_by_id(&id) {
                    target.scroll_into_view();
                }
            });
        }
    });
}

#[component]
fn UnknownEntry(id: String) -> impl IntoView {
    let data = use_registry().data();
    let suggestions: Vec<(String, String)> = data.with_untracked(|loaded| {
        loaded
            .catalog
            .index
            .search(&id.replace('-', " "))
            .hits
            .iter()
            .take(5)
            .map(|hit| {
                let e = &loaded.catalog.registry.entries[hit.entry];
                (e.name.clone(), config::href(&e.path()))
            })
            .collect()
    });
    view! {
        <PageHead
            title="Agent not found".to_owned()
            description=format!("The registry has no agent with the id {id}.")
        />
        <section class="py-16">
            <h1 class="text-3xl font-bold">"Agent not found"</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
                "The registry has no agent with the id " <code>{id}</code> "."
            </p>
            {(!suggestions.is_empty()).then(|| view! {
                <p class="mt-6 font-medium">"Did you mean:"</p>
                <ul class="mt-2 list-disc pl-6">
                    {suggestions
                        .into_iter()
                        .map(|(name, href)| view! {
                            <li><a class="text-indigo-700 underline dark:text-indigo-300" href=href>{name}</a></li>
                        })
                        .collect_view()}
                </ul>
            })}
            <a class="mt-6 inline-block text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href("/")>
                "← All agents"
            </a>
        </section>
    }
}
