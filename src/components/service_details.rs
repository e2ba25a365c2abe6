//! The page of an agent listed by an AgentRegistry (its `Origin` is `AgentRegistry`): who owns it, what
//! it can do, every endpoint with its protocol, transport, address and liveness, the registry's
//! protocol-native documents about it, and snippets to connect. Like the ACP page, all text is
//! the registry's, rendered as text; only `http(s)` URLs become links.

use std::sync::Arc;

use leptos::prelude::*;
use registry_core::Entry;
use registry_core::agentregistry::{Endpoint, LivenessModel, ProtocolMetadata, ServiceAgent};
use registry_core::snippets::service_snippets;

use crate::components::code_block::CodeBlock;
use crate::components::icon::{AgentIcon, IconSize};
use crate::components::link::ExternalLink;
use crate::components::manifest::ManifestSection;
use crate::components::section::Section;
use crate::components::service::{LiveBadge, ProtocolBadge, TransportBadge};

/// The body of an AgentRegistry agent's page.
#[component]
pub fn ServiceDetails(
    /// The entry.
    entry: Arc<Entry>,
    /// Its AgentRegistry item.
    agent: Arc<ServiceAgent>,
    /// The service's base URL, which its protocol documents are under.
    base: String,
) -> impl IntoView {
    view! {
        <Header entry=entry.clone() agent=agent.clone() />
        <CapabilitiesSection entry=entry.clone() agent=agent.clone() />
        <EndpointsSection entry=entry.clone() agent=agent.clone() />
        <ConnectSection entry=entry.clone() agent base />
        <ManifestSection entry />
    }
}

#[component]
fn Header(entry: Arc<Entry>, agent: Arc<ServiceAgent>) -> impl IntoView {
    let live = agent.is_live();
    let owner = agent.owner_id.trim().to_owned();
    let labels: Vec<(String, String)> = agent
        .labels
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let dates = [
        ("Registered", agent.created_at.clone()),
        ("Updated", agent.updated_at.clone()),
    ];
    view! {
        <header class="flex flex-col gap-5 py-8 sm:flex-row sm:items-start">
            <AgentIcon url=None name=entry.name.clone() size=IconSize::Page />
            <div class="min-w-0 flex-1">
                <div class="flex flex-wrap items-center gap-3">
                    <h1 class="text-3xl font-bold tracking-tight">{entry.name.clone()}</h1>
                    <LiveBadge live />
                </div>
                <p class="mt-1 text-sm text-slate-600 dark:text-slate-400"><code>{entry.id.clone()}</code></p>
                {(!entry.description.is_empty()).then(|| view! {
                    <p class="mt-3 max-w-3xl text-lg text-slate-700 dark:text-slate-300">{entry.description.clone()}</p>
                })}
                <dl class="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    {(!owner.is_empty()).then(|| view! {
                        <dt class="text-slate-600 dark:text-slate-400">"Owner"</dt>
                        <dd>{owner}</dd>
                    })}
                    {(!labels.is_empty()).then(|| view! {
                        <dt class="text-slate-600 dark:text-slate-400">"Labels"</dt>
                        <dd>
                            <ul class="flex flex-wrap gap-1.5" aria-label="Labels">
                                {labels.into_iter().map(|(k, v)| view! {
                                    <li class="rounded bg-slate-100 px-1.5 font-mono text-xs leading-5 dark:bg-slate-800">
                                        {format!("{k}={v}")}
                                    </li>
                                }).collect_view()}
                            </ul>
                        </dd>
                    })}
                    {dates.into_iter().filter_map(|(label, date)| date.map(|d| (label, d))).map(|(label, date)| view! {
                        <dt class="text-slate-600 dark:text-slate-400">{label}</dt>
                        <dd><time datetime=date.clone()>{display_date(&date)}</time></dd>
                    }).collect_view()}
                </dl>
            </div>
        </header>
    }
}

/// `2026-11-30T14:59:07.123Z` → `2026-11-30 14:59 UTC`; anything else as written.
fn display_date(date: &str) -> String {
    let bytes = date.as_bytes();
    let looks_iso = bytes.len() >= 16
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes[10] == b'T'
        && bytes[13] == b':';
    if looks_iso && (date.ends_with('Z') || date.ends_with("+00:00")) {
        format!("{} {} UTC", &date[..10], &date[11..16])
    } else {
        date.to_owned()
    }
}

#[component]
fn CapabilitiesSection(entry: Arc<Entry>, agent: Arc<ServiceAgent>) -> impl IntoView {
    let capabilities = agent.capabilities.clone();
    view! {
        <Section id="capabilities" title="Capabilities" page=entry.path()>
            {if capabilities.is_empty() {
                view! { <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">"The agent declares no capabilities."</p> }.into_any()
            } else {
                view! {
                    <ul class="mt-3 grid gap-3 sm:grid-cols-2">
                        {capabilities.into_iter().map(|c| view! {
                            <li class="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                                <h3 class="font-semibold">{c.name.clone()}</h3>
                                {c.description.clone().map(|d| view! { <p class="mt-1 text-sm text-slate-700 dark:text-slate-300">{d}</p> })}
                                {(!c.tags.is_empty()).then(|| view! {
                                    <ul class="mt-2 flex flex-wrap gap-1.5" aria-label=format!("Tags of {}", c.name)>
                                        {c.tags.iter().map(|t| view! {
                                            <li class="rounded bg-indigo-50 px-1.5 text-xs leading-5 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">{t.clone()}</li>
                                        }).collect_view()}
                                    </ul>
                                })}
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </Section>
    }
}

#[component]
fn EndpointsSection(entry: Arc<Entry>, agent: Arc<ServiceAgent>) -> impl IntoView {
    let endpoints = agent.endpoints.clone();
    view! {
        <Section id="endpoints" title="Endpoints" page=entry.path()>
            {if endpoints.is_empty() {
                view! { <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">"The agent has registered no endpoint."</p> }.into_any()
            } else {
                view! {
                    <ul class="mt-3 space-y-4">
                        {endpoints.into_iter().map(|e| view! { <EndpointCard endpoint=e /> }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </Section>
    }
}

#[component]
fn EndpointCard(endpoint: Endpoint) -> impl IntoView {
    let liveness = liveness_text(&endpoint);
    let live = endpoint.is_live();
    let status = match endpoint.is_live {
        Some(true) => "Live now",
        Some(false) => "Not live: no recent heartbeat or renewal",
        None => "Unknown: the registry did not say",
    };
    let address_label = if endpoint.transport.is_queue() {
        "Queue or topic"
    } else {
        "Address"
    };
    let queue = endpoint.queue_details();
    // The metadata as the registry holds it: the protocol's card (or queue details), re-indented.
    let metadata = endpoint.protocol_metadata().map(|m| match m {
        ProtocolMetadata::Object(object) => serde_json::to_string_pretty(&object)
            .unwrap_or_else(|_| endpoint.protocol_metadata.clone().unwrap_or_default()),
        ProtocolMetadata::Text(text) => text.to_owned(),
    });
    let address = endpoint.address.clone();
    view! {
        <li class="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
            <div class="flex flex-wrap items-center gap-2">
                <h3 class="font-semibold">{endpoint.name.clone()}</h3>
                <ProtocolBadge protocol=endpoint.protocol.clone() />
                <TransportBadge transport=endpoint.transport.clone() />
                <LiveBadge live />
            </div>
            <dl class="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt class="text-slate-600 dark:text-slate-400">{address_label}</dt>
                <dd class="break-all font-mono">
                    {if registry_core::url::safe_link(&address).is_some() {
                        view! { <ExternalLink url=address.clone() text=address.clone() /> }.into_any()
                    } else {
                        view! { <span>{address.clone()}</span> }.into_any()
                    }}
                </dd>
                <dt class="text-slate-600 dark:text-slate-400">"Liveness"</dt>
                <dd>{liveness}</dd>
                <dt class="text-slate-600 dark:text-slate-400">"Status"</dt>
                <dd>{status}</dd>
            </dl>
            {(!queue.is_empty()).then(|| view! {
                <h4 class="mt-3 text-sm font-semibold">"Queue details"</h4>
                <dl class="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    {queue.into_iter().map(|(k, v)| view! {
                        <dt class="text-slate-600 dark:text-slate-400">{k}</dt>
                        <dd class="break-all font-mono">{v}</dd>
                    }).collect_view()}
                </dl>
            })}
            {metadata.map(|text| view! {
                <details class="mt-3 text-sm">
                    <summary class="cursor-pointer font-medium">"Protocol metadata"</summary>
                    <pre tabindex="0" class="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-xs leading-5 dark:bg-slate-900"><code>{text}</code></pre>
                </details>
            })}
        </li>
    }
}

/// "Ephemeral: registered for 300 s, renewed on each call" / "Persistent: heartbeat every 30 s".
fn liveness_text(endpoint: &Endpoint) -> String {
    match &endpoint.liveness_model {
        LivenessModel::Ephemeral => match endpoint.ttl_seconds {
            Some(ttl) => format!("Ephemeral: registered for {ttl} s, renewed on each call"),
            None => "Ephemeral: renewed on each call (no TTL given)".to_owned(),
        },
        LivenessModel::Persistent => match endpoint.heartbeat_interval_seconds {
            Some(every) => format!("Persistent: heartbeat every {every} s"),
            None => "Persistent: sends heartbeats (no interval given)".to_owned(),
        },
        other => {
            let mut text = other.as_str().to_owned();
            if let Some(ttl) = endpoint.ttl_seconds {
                text.push_str(&format!(", TTL {ttl} s"));
            }
            if let Some(every) = endpoint.heartbeat_interval_seconds {
                text.push_str(&format!(", heartbeat every {every} s"));
            }
            text
        }
    }
}

#[component]
fn ConnectSection(entry: Arc<Entry>, agent: Arc<ServiceAgent>, base: String) -> impl IntoView {
    let documents = agent.documents();
    let snippets = service_snippets(&agent, &base);
    view! {
        <Section id="connect" title="Connect" page=entry.path()>
            {(!documents.is_empty()).then(|| view! {
                <h3 class="mt-3 text-sm font-semibold">"Protocol documents from the registry"</h3>
                <ul class="mt-2 space-y-1 text-sm">
                    {documents.iter().map(|d| {
                        let url = d.url(&base);
                        view! {
                            <li>
                                <ExternalLink url=url.clone() text=d.label.to_owned() />
                                <code class="ml-2 text-xs text-slate-600 dark:text-slate-400">{d.path.clone()}</code>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            })}
            {if snippets.is_empty() {
                view! { <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">"No snippet applies to this agent's endpoints."</p> }.into_any()
            } else {
                snippets.into_iter().map(|s| match s.file {
                    Some(file) => view! { <CodeBlock title=s.title file code=s.code notes=s.notes /> }.into_any(),
                    None => view! { <CodeBlock title=s.title code=s.code notes=s.notes /> }.into_any(),
                }).collect_view().into_any()
            }}
        </Section>
    }
}
