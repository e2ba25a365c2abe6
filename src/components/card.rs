//! One result of the catalogue: icon, name, version, description, authors, badges.
//!
//! The name is the card's link (so its accessible name is the agent's name); the link's
//! `::after` covers the card so the whole card is clickable.

use std::sync::Arc;

use leptos::prelude::*;
use registry_core::agentregistry::{Protocol, Transport};
use registry_core::{Entry, Method};

use crate::components::highlight::Highlighted;
use crate::components::icon::AgentIcon;
use crate::components::service::{LiveBadge, ProtocolBadge, TransportBadge};
use crate::config::{self, RegistryKind};
use crate::registry::LoadedRegistry;
use crate::routes::agent::LastSearch;
use crate::routes::catalogue::ViewMemo;
use leptos_router::hooks::use_location;

/// A result card.
#[component]
pub fn AgentCard(
    /// The loaded registry.
    loaded: Arc<LoadedRegistry>,
    /// Index of the entry in `loaded.catalog.registry.entries`.
    index: usize,
    /// The current view, for highlighting what matched.
    view: ViewMemo,
) -> impl IntoView {
    let entry = &loaded.catalog.registry.entries[index];
    let icon = icon_url(entry, &loaded.url);
    let name = entry.name.clone();
    let description = entry.description.clone();
    let authors = entry.author_names().collect::<Vec<_>>().join(", ");
    let href = config::href(&entry.path());
    let methods = entry.distribution.methods();
    let platforms = platforms_label(entry);
    let version = (!entry.version.is_empty()).then(|| format!("v{}", entry.version));
    // Only a build for an AgentRegistry has such entries; the ACP build leaves the badges out.
    let service = entry
        .service
        .as_ref()
        .filter(|_| config::REGISTRY_KIND == RegistryKind::AgentRegistry)
        .map(|agent| {
            let mut protocols: Vec<Protocol> =
                agent.endpoints.iter().map(|e| e.protocol.clone()).collect();
            protocols.sort();
            protocols.dedup();
            let mut transports: Vec<Transport> = agent
                .endpoints
                .iter()
                .map(|e| e.transport.clone())
                .collect();
            transports.sort();
            transports.dedup();
            (protocols, transports, agent.is_live())
        });

    // Remember the search this card was found with, for the page's back link.
    let location = use_location();
    let remember_search = move |_| {
        if let Some(last) = use_context::<LastSearch>() {
            last.0.set(
                location
                    .search
                    .get_untracked()
                    .trim_start_matches('?')
                    .to_owned(),
            );
        }
    };

    let highlight = move |text: String| {
        move || {
            let ranges = view.with(|v| v.0.matches.highlight(&text));
            view! { <Highlighted text=text.clone() ranges /> }
        }
    };

    view! {
        <li class="group relative flex gap-4 rounded-xl border border-slate-200 bg-white p-4 [content-visibility:auto] [contain-intrinsic-size:auto_9rem] transition-[border-color,box-shadow] hover:border-indigo-400 hover:shadow-sm focus-within:ring-2 focus-within:ring-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500">
            <AgentIcon url=icon name=name.clone() />
            <div class="min-w-0 flex-1">
                <div class="flex flex-wrap items-baseline gap-x-2">
                    <h2 class="text-base font-semibold">
                        <a href=href class="outline-none after:absolute after:inset-0 after:rounded-xl" on:click=remember_search>
                            {highlight(name.clone())}
                        </a>
                    </h2>
                    {version.map(|v| view! { <span class="text-xs text-slate-500 dark:text-slate-400">{v}</span> })}
                </div>
                <p class="mt-1 line-clamp-2 text-sm text-slate-700 dark:text-slate-300">
                    {highlight(description)}
                </p>
                {(!authors.is_empty()).then(|| view! {
                    <p class="mt-1 truncate text-xs text-slate-500 dark:text-slate-400">
                        "by " {highlight(authors)}
                    </p>
                })}
                {match service {
                    None => view! {
                        <ul class="mt-2 flex flex-wrap gap-1.5" aria-label="Distribution">
                            {methods.into_iter().map(|m| view! { <li><MethodBadge method=m /></li> }).collect_view()}
                            {platforms.map(|p| view! {
                                <li class="text-xs leading-5 text-slate-500 dark:text-slate-400">{p}</li>
                            })}
                        </ul>
                    }.into_any(),
                    Some((protocols, transports, live)) => view! {
                        <ul class="mt-2 flex flex-wrap items-center gap-1.5" aria-label="Endpoints">
                            {protocols.into_iter().map(|p| view! { <li><ProtocolBadge protocol=p /></li> }).collect_view()}
                            {transports.into_iter().map(|t| view! { <li><TransportBadge transport=t /></li> }).collect_view()}
                            <li><LiveBadge live /></li>
                        </ul>
                    }.into_any(),
                }}
            </div>
        </li>
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

/// The icon's absolute URL, resolved against the registry's URL; only `http(s)` URLs are used,
/// and `blob:` URLs, which only this page can create (the listing preview's uploaded icon).
pub fn icon_url(entry: &Entry, registry_url: &str) -> Option<String> {
    let icon = entry.icon.as_deref()?;
    if icon.starts_with("blob:") {
        return Some(icon.to_owned());
    }
    let resolved = crate::registry::resolve(icon, registry_url)?;
    registry_core::url::safe_link(&resolved).map(str::to_owned)
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
