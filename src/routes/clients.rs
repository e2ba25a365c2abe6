//! `/clients/`: the ACP clients the catalogue knows, with what is known of each and where it
//! was read; `/clients/<id>/`: one client's facts, its known limits, and every agent's verdict
//! in it on each operating system. The build writes both whole, so they read without
//! JavaScript.

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use registry_core::Kind;
use registry_core::clients::{ClientProfile, Fact, Outcome, Profiles, RegistryView, os_word};
use registry_core::model::{Arch, Os, Platform};

use crate::clients::{CLIENTS_PAGE, ClientsStatus, client_page, use_clients};
use crate::components::link::ExternalLink;
use crate::components::verdicts::{OutcomeMark, verdict_in};
use crate::config;
use crate::head::PageHead;
use crate::registry::use_registry;

const LINK: &str = "text-indigo-700 underline hover:no-underline dark:text-indigo-300";

/// The profiles' state as a page body: loading, missing with why, or `loaded`'s view.
fn with_profiles(
    loaded: impl Fn(Arc<Profiles>) -> AnyView + Send + Sync + 'static,
) -> impl IntoView {
    let clients = use_clients();
    if let Some(clients) = clients {
        clients.want();
    }
    move || {
        match clients.map(|c| c.status()) {
        None | Some(ClientsStatus::Pending) => view! {
            <p class="py-8 text-slate-500" role="status">"Loading the client profiles…"</p>
        }
        .into_any(),
        Some(ClientsStatus::Missing(why)) => view! {
            <p class="py-8 text-slate-600 dark:text-slate-400">{format!("No client profiles to show: {why}.")}</p>
        }
        .into_any(),
        Some(ClientsStatus::Loaded(profiles)) => loaded(profiles),
    }
    }
}

fn back_to(href: String, text: &'static str) -> impl IntoView {
    view! {
        <nav class="pt-6 text-sm">
            <a class=LINK href=href>{text}</a>
        </nav>
    }
}

/// The page listing the clients.
#[component]
pub fn ClientsPage() -> impl IntoView {
    let body = with_profiles(|profiles| view! { <ClientList profiles /> }.into_any());
    view! {
        <PageHead
            title="ACP clients".to_owned()
            description="The editors and tools that run ACP agents: which registry list each installs from, what it can start, its sign-in methods, protocol versions and platforms, each fact with its source."
            canonical=CLIENTS_PAGE.to_owned()
        />
        {back_to(config::href("/"), "← All agents")}
        <section class="pb-4 pt-6">
            <h1 class="text-3xl font-bold tracking-tight sm:text-4xl">"ACP clients"</h1>
            <p class="mt-2 max-w-2xl text-slate-600 dark:text-slate-400">
                "The editors and tools that run ACP agents, and what is known of each: the registry list it installs agents from, what it can start, how agents may sign in, the protocol versions it speaks and where it runs. Every fact links to where it was read and says when; what is not known is said so, never guessed."
            </p>
        </section>
        <div data-clients="page">{body}</div>
    }
}

#[component]
fn ClientList(profiles: Arc<Profiles>) -> impl IntoView {
    let mut known: Vec<&ClientProfile> = (profiles.clients.iter())
        .filter(|client| client.known_facts() > 0)
        .collect();
    known.sort_by(|a, b| (b.known_facts().cmp(&a.known_facts())).then_with(|| a.name.cmp(&b.name)));
    let rows = known
        .into_iter()
        .map(|client| {
            view! {
                <tr class="border-t border-slate-200 align-top dark:border-slate-800">
                    <th scope="row" class="py-2 pr-3 text-left font-medium">
                        <a class=LINK href=config::href(&client_page(&client.id))>{client.name.clone()}</a>
                    </th>
                    <td class="py-2 pr-3">{fact_words(&client.registry, |view| registry_words(*view).to_owned())}</td>
                    <td class="py-2 pr-3">{fact_words(&client.auth_methods, |methods| list_words(methods.iter().map(|m| m.label().to_owned())))}</td>
                    <td class="py-2 pr-3">{fact_words(&client.platforms, |oses| list_words(oses.iter().map(|os| os.label().to_owned())))}</td>
                    <td class="py-2 tabular-nums">{format!("{} of 6", client.known_facts())}</td>
                </tr>
            }
        })
        .collect_view();
    let mut unknown: Vec<&ClientProfile> = (profiles.clients.iter())
        .filter(|client| client.known_facts() == 0)
        .collect();
    unknown.sort_by_key(|client| client.name.to_lowercase());
    let count = unknown.len();
    let others = unknown
        .into_iter()
        .map(|client| {
            view! {
                <li><a class=LINK href=config::href(&client_page(&client.id))>{client.name.clone()}</a></li>
            }
        })
        .collect_view();
    view! {
        <div class="overflow-x-auto">
            <table class="w-full min-w-[40rem] text-sm">
                <caption class="pb-2 text-left text-slate-600 dark:text-slate-400">"Clients with known facts"</caption>
                <thead>
                    <tr class="text-left text-slate-600 dark:text-slate-400">
                        <th scope="col" class="pb-1 pr-3 font-medium">"Client"</th>
                        <th scope="col" class="pb-1 pr-3 font-medium">"Installs agents from"</th>
                        <th scope="col" class="pb-1 pr-3 font-medium">"Sign-in"</th>
                        <th scope="col" class="pb-1 pr-3 font-medium">"Runs on"</th>
                        <th scope="col" class="pb-1 font-medium">"Facts known"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <section aria-labelledby="unresearched-heading" class="mt-8">
            <h2 id="unresearched-heading" class="text-xl font-semibold">{format!("Named in the protocol's client list, nothing known yet ({count})")}</h2>
            <p class="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-400">
                "Each is listed on the protocol's site as an ACP client; how it installs and runs agents is not known here yet, so no verdict is given for it."
            </p>
            <ul class="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-4">{others}</ul>
        </section>
    }
}

/// A known fact in words, or "Not known".
fn fact_words<T>(fact: &Fact<T>, words: impl Fn(&T) -> String) -> String {
    fact.known().map_or_else(|| "Not known".to_owned(), words)
}

fn registry_words(view: RegistryView) -> &'static str {
    match view {
        RegistryView::None => "configured by hand",
        RegistryView::Acp => "the ACP registry",
        RegistryView::JetBrains => "the registry's JetBrains list",
        RegistryView::JetBrainsPreview => "the registry's JetBrains preview list",
    }
}

fn list_words(words: impl Iterator<Item = String>) -> String {
    let words: Vec<String> = words.collect();
    if words.is_empty() {
        "none".to_owned()
    } else {
        words.join(", ")
    }
}

/// One client's page.
#[component]
pub fn ClientPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.with(|p| p.get("id").unwrap_or_default()));
    let body = with_profiles(move |profiles| {
        let id = id.get();
        match profiles.get(&id) {
            Some(client) => view! { <Client client=client.clone() /> }.into_any(),
            None => view! { <UnknownClient id /> }.into_any(),
        }
    });
    view! {
        {back_to(config::href(CLIENTS_PAGE), "← All clients")}
        <div data-clients="client">{body}</div>
    }
}

#[component]
fn UnknownClient(id: String) -> impl IntoView {
    view! {
        <PageHead title="Client not found".to_owned() description="No ACP client of that name is known here." />
        <section class="py-8">
            <h1 class="text-3xl font-bold">"Client not found"</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">{format!("No client “{id}” is known here.")}</p>
        </section>
    }
}

#[component]
fn Client(client: ClientProfile) -> impl IntoView {
    let name = client.name.clone();
    let description = format!(
        "Whether each ACP agent works in {name}, on macOS, Linux and Windows, with the reasons and where each fact comes from."
    );
    let facts = view! {
        <dl class="mt-4 grid max-w-3xl grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[12rem_1fr]">
            {fact_row("Installs agents from", &client.registry, |view| registry_words(*view).to_owned())}
            {fact_row("Agents added by hand", &client.add_by_hand, |yes| {
                if *yes { "yes, in its settings" } else { "no" }.to_owned()
            })}
            {fact_row("Starts from its list", &client.distributions, |methods| {
                list_words(methods.iter().map(|m| m.as_str().to_owned()))
            })}
            {fact_row("Sign-in methods", &client.auth_methods, |methods| {
                list_words(methods.iter().map(|m| m.label().to_owned()))
            })}
            {fact_row("Protocol versions", &client.protocol_versions, |versions| {
                list_words(versions.iter().map(u32::to_string))
            })}
            {fact_row("Runs on", &client.platforms, |oses| {
                list_words(oses.iter().map(|os| os.label().to_owned()))
            })}
        </dl>
    };
    let limits = (!client.limits.is_empty()).then(|| {
        let items = (client.limits.iter())
            .map(|limit| {
                view! {
                    <li class="mt-1">
                        {limit.text.clone()}
                        " "
                        <span class="text-slate-500 dark:text-slate-400">
                            {format!("(checked {}: ", limit.checked)}
                            <ExternalLink url=limit.source.clone() text="source".to_owned() />
                            ")"
                        </span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <h2 class="mt-8 text-xl font-semibold">"Known limits"</h2>
            <ul class="mt-2 max-w-3xl list-disc pl-5 text-sm">{items}</ul>
        }
    });
    let links = view! {
        <p class="mt-2 text-sm">
            <ExternalLink url=client.homepage.clone() text="Home page".to_owned() />
            {client.docs.clone().map(|url| view! { " · " <ExternalLink url text="Its documentation on agents".to_owned() /> })}
            " · "
            <span class="text-slate-500 dark:text-slate-400">
                {format!("named as an ACP client (checked {}): ", client.listed_at.checked)}
                <ExternalLink url=client.listed_at.source.clone() text="source".to_owned() />
            </span>
        </p>
    };
    view! {
        <PageHead
            title=format!("{name}: ACP agents that work in it")
            description
            canonical=client_page(&client.id)
        />
        <section class="pb-4 pt-6">
            <h1 class="text-3xl font-bold tracking-tight sm:text-4xl">{name.clone()}</h1>
            {links}
            {facts}
            {limits}
        </section>
        <AgentVerdicts client />
    }
}

/// One fact of a profile: its value and source, or "Not known" and why.
fn fact_row<T>(name: &'static str, fact: &Fact<T>, words: impl Fn(&T) -> String) -> AnyView {
    let value = match fact {
        Fact::Known {
            value,
            source,
            checked,
        } => view! {
            <span>{words(value)}</span>
            " "
            <span class="text-slate-500 dark:text-slate-400">
                {format!("(checked {checked}: ")}
                <ExternalLink url=source.clone() text="source".to_owned() />
                ")"
            </span>
        }
        .into_any(),
        Fact::Unknown { why } => view! {
            <span class="text-slate-600 dark:text-slate-400">{format!("Not known: {why}")}</span>
        }
        .into_any(),
    };
    view! {
        <dt class="font-medium text-slate-700 dark:text-slate-300">{name}</dt>
        <dd>{value}</dd>
    }
    .into_any()
}

/// The platforms a client's page judges on: each operating system on its most common
/// architecture (the visitor's own is on an agent's page).
const PLATFORMS: [Platform; 3] = [
    Platform {
        os: Os::Darwin,
        arch: Arch::Aarch64,
    },
    Platform {
        os: Os::Linux,
        arch: Arch::X86_64,
    },
    Platform {
        os: Os::Windows,
        arch: Arch::X86_64,
    },
];

/// Every agent's verdict in `client`, on each of [`PLATFORMS`], with what the verdicts that
/// are not simply "works" say.
#[component]
fn AgentVerdicts(client: ClientProfile) -> impl IntoView {
    let name = client.name.clone();
    if client.known_facts() == 0 {
        return view! {
            <section aria-labelledby="agents-heading" class="border-t border-slate-200 py-8 dark:border-slate-800">
                <h2 id="agents-heading" class="text-xl font-semibold">{format!("Agents in {name}")}</h2>
                <p class="mt-2 max-w-2xl text-sm text-slate-600 dark:text-slate-400">
                    {format!("Nothing is known here yet about how {name} installs and runs agents, so every agent's verdict would be “Not known”. Each fact above says what is missing; README.md says how to add what you can source.")}
                </p>
            </section>
        }
        .into_any();
    }
    let data = use_registry().data();
    let rows = move || {
        data.with(|loaded| {
            let catalog = &loaded.catalog;
            let mut agents: Vec<_> = (catalog.registry.entries.iter())
                .filter(|entry| entry.kind == Kind::Agent)
                .collect();
            agents.sort_by_key(|entry| entry.name.to_lowercase());
            agents
                .into_iter()
                .map(|entry| {
                    let verdicts: Vec<_> = PLATFORMS
                        .iter()
                        .map(|platform| verdict_in(catalog, entry, &client, *platform))
                        .collect();
                    let mut notes: Vec<String> = Vec::new();
                    for verdict in &verdicts {
                        for reason in &verdict.reasons {
                            if reason.outcome != Outcome::Works && !notes.contains(&reason.text) {
                                notes.push(reason.text.clone());
                            }
                        }
                    }
                    let cells = verdicts
                        .iter()
                        .map(|verdict| view! { <td class="py-2 pr-3"><OutcomeMark outcome=verdict.outcome /></td> })
                        .collect_view();
                    let notes = notes
                        .into_iter()
                        .map(|note| view! { <li>{note}</li> })
                        .collect_view();
                    view! {
                        <tr class="border-t border-slate-200 align-top dark:border-slate-800">
                            <th scope="row" class="py-2 pr-3 text-left font-medium">
                                <a class=LINK href=config::href(&format!("{}/#in-your-editor", entry.path()))>{entry.name.clone()}</a>
                            </th>
                            {cells}
                            <td class="py-2"><ul class="list-disc pl-4 text-xs text-slate-600 dark:text-slate-400">{notes}</ul></td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let headers = PLATFORMS
        .iter()
        .map(|platform| {
            view! { <th scope="col" class="pb-1 pr-3 font-medium" data-os=os_word(platform.os)>{platform.label()}</th> }
        })
        .collect_view();
    view! {
        <section aria-labelledby="agents-heading" class="border-t border-slate-200 py-8 dark:border-slate-800">
            <h2 id="agents-heading" class="text-xl font-semibold">{format!("Agents in {name}")}</h2>
            <p class="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-400">
                "Each agent's verdict on each system, from its manifest, the registry's lists and the nightly probe, with what stands in the way; an agent's page gives every reason with its source, for your own platform."
            </p>
            <div class="mt-3 overflow-x-auto">
                <table class="w-full min-w-[44rem] text-sm">
                    <thead>
                        <tr class="text-left text-slate-600 dark:text-slate-400">
                            <th scope="col" class="pb-1 pr-3 font-medium">"Agent"</th>
                            {headers}
                            <th scope="col" class="pb-1 font-medium">"What stands in the way"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
    .into_any()
}
