//! Badges of AgentRegistry agents: protocol, transport, live or stale.

use leptos::prelude::*;
use registry_core::agentregistry::{Protocol, Transport};

const BADGE: &str = "inline-block rounded px-1.5 text-xs font-medium leading-5";

/// The protocol an endpoint speaks; an unknown one as written, in neutral colours.
#[component]
pub fn ProtocolBadge(
    /// The protocol.
    protocol: Protocol,
) -> impl IntoView {
    let colour = match protocol {
        Protocol::A2a => "bg-violet-100 text-violet-900 dark:bg-violet-900/50 dark:text-violet-100",
        Protocol::Mcp => "bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100",
        Protocol::Acp => "bg-rose-100 text-rose-900 dark:bg-rose-900/50 dark:text-rose-100",
        Protocol::Generic | Protocol::Other(_) => {
            "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100"
        }
    };
    view! { <span class=format!("{BADGE} {colour}")>{protocol.as_str().to_owned()}</span> }
}

/// How an endpoint's messages travel.
#[component]
pub fn TransportBadge(
    /// The transport.
    transport: Transport,
) -> impl IntoView {
    let label = match &transport {
        Transport::Http => "HTTP".to_owned(),
        Transport::Amqp => "AMQP".to_owned(),
        Transport::AzureServiceBus => "Azure Service Bus".to_owned(),
        Transport::Other(word) => word.clone(),
    };
    view! {
        <span class=format!("{BADGE} border border-slate-300 text-slate-700 dark:border-slate-600 dark:text-slate-300")>
            {label}
        </span>
    }
}

/// Live (some endpoint is) or stale, as a dot and a word, so it does not rely on colour.
#[component]
pub fn LiveBadge(
    /// Whether it is live.
    live: bool,
) -> impl IntoView {
    let (dot, text, word) = if live {
        (
            "bg-emerald-500",
            "text-emerald-800 dark:text-emerald-300",
            "Live",
        )
    } else {
        (
            "bg-slate-400",
            "text-slate-600 dark:text-slate-400",
            "Stale",
        )
    };
    view! {
        <span class=format!("inline-flex items-center gap-1.5 text-xs font-medium {text}")>
            <span class=format!("h-2 w-2 rounded-full {dot}") aria-hidden="true"></span>
            {word}
        </span>
    }
}
