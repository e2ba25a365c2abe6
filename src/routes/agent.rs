//! `/agents/<id>` and `/extensions/<id>`: one entry's page.

use std::sync::Arc;

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::{use_location, use_params_map};
use registry_core::{Entry, Kind};

use crate::components::card::{MethodBadge, icon_url};
use crate::components::icon::{AgentIcon, IconSize};
use crate::components::notices::LoadErrorPanel;
use crate::config;
use crate::registry::{LoadedRegistry, use_registry};

/// The catalogue address to go back to: the search the visitor came from.
#[derive(Clone, Copy, Debug)]
pub struct LastSearch(pub RwSignal<String>);

impl LastSearch {
    /// The link back to the catalogue with that search.
    pub fn href(self) -> String {
        let search = self.0.get();
        if search.is_empty() {
            config::href("/")
        } else {
            config::href(&format!("/?{search}"))
        }
    }
}

/// The page of one agent or extension.
#[component]
pub fn AgentPage() -> impl IntoView {
    let resource = use_registry();
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
    move || match resource.get() {
        None => {
            EitherOf3::A(view! { <p class="py-16 text-slate-500" role="status">"Loading…"</p> })
        }
        Some(Err(error)) => EitherOf3::B(view! { <LoadErrorPanel error resource /> }),
        Some(Ok(loaded)) => {
            let found = loaded
                .catalog
                .registry
                .entries
                .iter()
                .position(|e| e.kind == kind.get() && e.id == id.get());
            EitherOf3::C(match found {
                Some(index) => Either::Left(view! { <EntryDetails loaded index /> }),
                None => Either::Right(view! { <UnknownEntry loaded id=id.get() /> }),
            })
        }
    }
}

#[component]
fn EntryDetails(loaded: Arc<LoadedRegistry>, index: usize) -> impl IntoView {
    let entry: &Entry = &loaded.catalog.registry.entries[index];
    let back = use_context::<LastSearch>()
        .map(LastSearch::href)
        .unwrap_or_else(|| config::href("/"));
    let title = format!("{} · ACP Agent Registry", entry.name);
    let description = entry.description.clone();
    let authors = entry.author_names().collect::<Vec<_>>().join(", ");
    let links = [
        ("Repository", entry.repository.clone()),
        ("Website", entry.website.clone()),
    ];
    view! {
        <Title text=title />
        <Meta name="description" content=description.clone() />
        <nav class="pt-6 text-sm">
            <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=back>"← All agents"</a>
        </nav>
        <header class="flex items-start gap-5 py-8">
            <AgentIcon url=icon_url(entry, &loaded.url) name=entry.name.clone() size=IconSize::Page />
            <div class="min-w-0">
                <h1 class="text-3xl font-bold tracking-tight">{entry.name.clone()}</h1>
                <p class="mt-1 text-sm text-slate-500 dark:text-slate-400">
                    <span>{format!("v{}", entry.version)}</span>" · "<code>{entry.id.clone()}</code>
                </p>
                <p class="mt-3 max-w-3xl text-lg text-slate-700 dark:text-slate-300">{description}</p>
                <dl class="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    {(!authors.is_empty()).then(|| view! { <dt class="text-slate-500">"Authors"</dt><dd>{authors}</dd> })}
                    {entry.license.clone().map(|l| view! { <dt class="text-slate-500">"License"</dt><dd>{l}</dd> })}
                    {links.into_iter().filter_map(|(label, url)| url.map(|u| (label, u))).map(|(label, url)| view! {
                        <dt class="text-slate-500">{label}</dt>
                        <dd class="break-all"><ExternalLink url /></dd>
                    }).collect_view()}
                    <dt class="text-slate-500">"Distribution"</dt>
                    <dd class="flex gap-1.5">{entry.distribution.methods().into_iter().map(|m| view! { <MethodBadge method=m /> }).collect_view()}</dd>
                </dl>
            </div>
        </header>
    }
}

/// A link when the URL is `http(s)`, plain text otherwise.
#[component]
pub fn ExternalLink(
    /// The URL as the manifest gives it.
    url: String,
) -> impl IntoView {
    match registry_core::url::safe_link(&url) {
        Some(safe) => Either::Left(view! {
            <a class="text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=safe.to_owned() rel="noopener noreferrer">
                {safe.to_owned()}
            </a>
        }),
        None => Either::Right(view! { <span>{url}</span> }),
    }
}

#[component]
fn UnknownEntry(loaded: Arc<LoadedRegistry>, id: String) -> impl IntoView {
    let suggestions: Vec<(String, String)> = loaded
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
        .collect();
    view! {
        <Title text="Agent not found · ACP Agent Registry" />
        <section class="py-16">
            <h1 class="text-3xl font-bold">"Agent not found"</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">
                "The registry has no agent with the id " <code>{id}</code> "."
            </p>
            {(!suggestions.is_empty()).then(|| view! {
                <p class="mt-6 font-medium">"Did you mean:"</p>
                <ul class="mt-2 list-disc pl-6">
                    {suggestions.into_iter().map(|(name, href)| view! {
                        <li><a class="text-indigo-700 underline dark:text-indigo-300" href=href>{name}</a></li>
                    }).collect_view()}
                </ul>
            })}
            <a class="mt-6 inline-block text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href("/")>
                "← All agents"
            </a>
        </section>
    }
}
