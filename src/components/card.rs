//! One result of the catalogue: icon, name, version, description, authors, badges.
//!
//! The name is the card's link (so its accessible name is the agent's name); the link's
//! `::after` covers the card so the whole card is clickable. A card shows two lines of the
//! description: it is cut ([`CardTexts`]) before it is marked, so that a megabyte of
//! description costs a card no more than a sentence does. Each text a search marks is in a
//! `<span data-marks>`, where the page's early search marks the same card before the app is
//! live (`src/early-search.js`).

use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;
use registry_core::agentregistry::{Protocol, ServiceAgent, Transport};
use registry_core::card::CardTexts;
use registry_core::{Entry, Method};

use crate::components::compare::CompareToggle;
use crate::components::highlight::{Highlighted, Highlights};
use crate::components::icon::AgentIcon;
use crate::components::lookalike::LookalikeWarnings;
use crate::components::service::{LiveBadge, ProtocolBadge, TransportBadge};
use crate::components::verdicts::{ClientFit, FitLine};
use crate::config;

/// A result card.
#[component]
pub fn AgentCard(
    /// The entry.
    entry: Arc<Entry>,
    /// Its icon's URL ([`icon_url`](crate::components::icon::icon_url)).
    icon: Option<String>,
    /// What the search matched, marked in the name, description and authors.
    highlights: Highlights,
    /// Its look-alike warnings ([`warnings_at`](crate::components::lookalike::warnings_at)).
    #[prop(optional)]
    warnings: Vec<String>,
    /// Why the registry's automation skips it, when it does, in a sentence
    /// ([`QuarantineReason::sentence`](registry_core::QuarantineReason::sentence)).
    #[prop(default = None)]
    quarantine: Option<String>,
    /// Its day in a date order (from the change log), when it has one.
    #[prop(optional, into)]
    dated: Signal<Option<Dated>>,
    /// Whether it works in the visitor's client, when one is chosen.
    #[prop(optional, into)]
    fit: Signal<Option<ClientFit>>,
    /// Whether it offers "Compare" (an agent of the catalogue: not in the listing preview).
    #[prop(optional)]
    compare: bool,
) -> impl IntoView {
    let CardTexts {
        name,
        description,
        authors,
    } = CardTexts::of(&entry);
    let href = config::href(&entry.path());
    let version = (!entry.version.is_empty()).then(|| format!("v{}", entry.version));

    let marked = move |text: String| {
        let marks = move || {
            let ranges = highlights.ranges(&text);
            view! { <Highlighted text=text.clone() ranges /> }
        };
        view! { <span data-marks="">{marks}</span> }
    };

    let badges = match config::service_of(&entry) {
        None => Either::Left(view! { <DistributionBadges entry=entry.clone() /> }),
        Some(agent) => Either::Right(view! { <EndpointBadges agent /> }),
    };

    // A card off screen is neither styled, laid out nor painted until it nears the viewport
    // (`content-visibility: auto`, the height of a card's content held in its place: a name,
    // two lines of description, its authors and badges): the first paint of the catalogue lays
    // out the few cards it shows, not the whole first page.
    view! {
        <li class="[content-visibility:auto] [contain-intrinsic-size:auto_7.5rem] group relative flex gap-4 rounded-xl border border-slate-200 bg-white p-4 transition-[border-color,box-shadow] hover:border-indigo-400 hover:shadow-sm focus-within:ring-2 focus-within:ring-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500">
            <AgentIcon url=icon name=entry.name.clone() />
            <div class="min-w-0 flex-1">
                <div class="flex flex-wrap items-baseline gap-x-2">
                    <h2 class="text-base font-semibold">
                        <a href=href class="outline-none after:absolute after:inset-0 after:rounded-xl">
                            {marked(name)}
                        </a>
                    </h2>
                    {version.map(|v| view! { <span class="text-xs text-slate-500 dark:text-slate-400">{v}</span> })}
                </div>
                <p class="mt-1 line-clamp-2 text-sm text-slate-700 dark:text-slate-300">
                    {marked(description)}
                </p>
                {(!authors.is_empty()).then(|| view! {
                    <p class="mt-1 truncate text-xs text-slate-500 dark:text-slate-400">
                        "by " {marked(authors)}
                    </p>
                })}
                {move || dated.get().map(|dated| view! { <DatedLine dated /> })}
                <LookalikeWarnings warnings class="relative mt-2" />
                {quarantine.map(|why| view! { <QuarantineNote why class="relative mt-2" /> })}
                {move || fit.get().map(|fit| view! { <FitLine fit /> })}
                <div class="flex flex-wrap items-end justify-between gap-2">
                    {badges}
                    {compare.then(|| view! { <CompareToggle id=entry.id.clone() name=entry.name.clone() class="relative z-10 mt-2" /> })}
                </div>
            </div>
        </li>
    }
}

/// A card's day in a date order: "Updated 2026-08-20", and a quiet "new" within a fortnight of
/// the change log's last state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dated {
    /// Updated (else added) that day.
    pub updated: bool,
    /// The day.
    pub day: registry_core::edition::Day,
    /// Whether it is recent.
    pub new: bool,
}

#[component]
fn DatedLine(dated: Dated) -> impl IntoView {
    let word = if dated.updated { "Updated" } else { "Added" };
    let day = dated.day.to_string();
    view! {
        <p class="mt-1 flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
            {dated.new.then(|| view! {
                <span class="rounded bg-emerald-100 px-1.5 font-medium text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200">
                    {if dated.updated { "updated" } else { "new" }}
                </span>
            })}
            <span>{word} " " <time datetime=day.clone()>{day.clone()}</time></span>
        </p>
    }
}

/// That the registry's automation skips the agent, and why.
#[component]
pub fn QuarantineNote(
    /// The reason, in a sentence.
    why: String,
    /// Extra classes (its margins where it is placed).
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    view! {
        <p role="note" class=format!("quarantine-note text-sm text-red-800 dark:text-red-300 {class}")>
            <strong class="font-semibold">"Quarantined: "</strong>
            {why}
            " The registry’s daily checks skip it until this is fixed."
        </p>
    }
}

/// An ACP entry's distribution methods, and the operating systems of a binary-only one.
#[component]
fn DistributionBadges(entry: Arc<Entry>) -> impl IntoView {
    let platforms = platforms_label(&entry);
    view! {
        <ul class="mt-2 flex flex-wrap gap-1.5" aria-label="Distribution">
            {entry.distribution.methods().into_iter().map(|m| view! { <li><MethodBadge method=m /></li> }).collect_view()}
            {platforms.map(|p| view! {
                <li class="text-xs leading-5 text-slate-500 dark:text-slate-400">{p}</li>
            })}
        </ul>
    }
}

/// An AgentRegistry agent's protocols, transports and liveness.
#[component]
fn EndpointBadges(agent: Arc<ServiceAgent>) -> impl IntoView {
    let mut protocols: Vec<Protocol> = agent.endpoints.iter().map(|e| e.protocol.clone()).collect();
    protocols.sort();
    protocols.dedup();
    let mut transports: Vec<Transport> = agent
        .endpoints
        .iter()
        .map(|e| e.transport.clone())
        .collect();
    transports.sort();
    transports.dedup();
    let live = agent.is_live();
    view! {
        <ul class="mt-2 flex flex-wrap items-center gap-1.5" aria-label="Endpoints">
            {protocols.into_iter().map(|p| view! { <li><ProtocolBadge protocol=p /></li> }).collect_view()}
            {transports.into_iter().map(|t| view! { <li><TransportBadge transport=t /></li> }).collect_view()}
            <li><LiveBadge live /></li>
        </ul>
    }
}

/// A small badge naming a distribution method.
#[component]
pub fn MethodBadge(
    /// The method.
    method: Method,
) -> impl IntoView {
    let class = match method {
        Method::Binary => "bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100",
        Method::Npx => "bg-rose-100 text-rose-900 dark:bg-rose-900/50 dark:text-rose-100",
        Method::Uvx => {
            "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100"
        }
    };
    view! {
        <span class=format!("inline-block rounded px-1.5 text-xs font-medium leading-5 {class}")>
            {method.as_str()}
        </span>
    }
}

/// "macOS · Linux" for binary-only entries, so a card says where it runs.
fn platforms_label(entry: &Entry) -> Option<String> {
    let d = &entry.distribution;
    if d.binary.is_empty() || d.npx.is_some() || d.uvx.is_some() {
        return None;
    }
    let oses: Vec<&str> = registry_core::Os::ALL
        .into_iter()
        .filter(|os| d.runs_on_os(*os))
        .map(|os| os.label())
        .collect();
    (!oses.is_empty()).then(|| oses.join(" · "))
}
