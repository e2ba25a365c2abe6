//! `#protocol`: what the registry's nightly probe found about an agent.
//!
//! The probe starts each agent over ACP without signing in, and records what `initialize`
//! answered (protocol version, auth methods, capabilities) and how each session method it then
//! called went. The page keeps apart what the agent does not support from what could not be
//! checked without signing in, and shows statuses and methods it does not know as given.

use std::sync::Arc;

use leptos::either::EitherOf3;
use leptos::prelude::*;
use registry_core::edition::{Day, Edition};
use registry_core::protocol::{ProbeResult, ProbeStatus, Verdict};
use registry_core::{Entry, SiteSettings};

use crate::components::edition::{ProbeAge, ago};
use crate::components::section::Section;

/// What the probe found about one agent, owned (for the page's memo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeReport {
    /// The day of the probe, as the matrix writes it (empty when it does not).
    pub date: String,
    /// What the probe found.
    pub probe: ProbeResult,
}

/// What the registry's probe found: auth methods and capabilities, with when and which version.
#[component]
pub(super) fn ProtocolSection(
    entry: Arc<Entry>,
    report: Option<ProbeReport>,
    matrix_problem: Option<String>,
    edition: Option<Edition>,
) -> impl IntoView {
    let listed = entry.version.clone();
    let edition = edition.unwrap_or_default();
    let configured = SiteSettings::has_file(&crate::config::settings().protocol_matrix_url);
    let body = match report {
        None if !configured => EitherOf3::A(view! {
            <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                "Not probed: this site has no protocol probe for this registry, so the agent's authentication and capabilities are unknown (not unsupported)."
            </p>
        }),
        None => EitherOf3::A(view! {
            <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                "Not probed: the registry's daily probe has no result for this agent, so its authentication and capabilities are unknown (not unsupported)."
                {matrix_problem.map(|p| format!(" The probe data could not be loaded: {p}."))}
            </p>
        }),
        Some(ProbeReport { date, probe }) => match &probe.status {
            ProbeStatus::Failed(status) => {
                let day = probe_day(&date, &probe);
                let stale = day
                    .and_then(|day| ProbeAge::of(day, &edition).stale_words(&edition))
                    .map(|words| format!("This probe is {words}: the agent may start now."));
                let date = day.map_or(date, |day| day.to_string());
                let why = match &probe.failure {
                    Some(failure) => format!("{status}: {failure}"),
                    None => status.clone(),
                };
                EitherOf3::B(view! {
                    <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                        {format!(
                            "The probe of {} on {date} could not start the agent ({why}), so its authentication and capabilities are unknown (not unsupported).",
                            probe.registry_version.as_ref().map(|v| format!("v{v}")).unwrap_or_else(|| "this agent".to_owned()),
                        )}
                    </p>
                    {stale.map(|s| view! { <p role="note" class="mt-1 text-sm font-medium text-amber-800 dark:text-amber-300">{s}</p> })}
                })
            }
            ProbeStatus::Succeeded => {
                EitherOf3::C(view! { <Probed date probe listed=listed.clone() edition /> })
            }
        },
    };
    view! {
        <Section id="protocol" title="Protocol support" page=entry.path()>
            {body}
        </Section>
    }
}

/// A probe that started the agent: provenance, versions, sign-in, then one row per feature.
#[component]
fn Probed(date: String, probe: ProbeResult, listed: String, edition: Edition) -> impl IntoView {
    let day = probe_day(&date, &probe);
    let ago = day.and_then(ago).unwrap_or_default();
    let date = day.map_or(date, |day| day.to_string());
    let provenance = match &probe.registry_version {
        Some(v) if *v != listed => {
            format!("Probed v{v} on {date}{ago} (the listing is v{listed}).")
        }
        Some(v) => format!("Probed v{v} on {date}{ago}."),
        None => format!("Probed on {date}{ago}."),
    };
    let stale = day
        .and_then(|day| ProbeAge::of(day, &edition).stale_words(&edition))
        .map(|words| {
            format!(
                "This probe is {words}: the agent may have changed since, so what follows is what \
                 it did then, not necessarily what it does now."
            )
        });
    let versions = match (&probe.protocol_version, &probe.agent_info_version) {
        (Some(protocol), Some(agent)) => Some(format!(
            "It answered with ACP protocol version {protocol} and reported itself as version {agent}."
        )),
        (Some(protocol), None) => {
            Some(format!("It answered with ACP protocol version {protocol}."))
        }
        (None, Some(agent)) => Some(format!("It reported itself as version {agent}.")),
        (None, None) => None,
    };
    let sign_in = probe.needs_sign_in().then_some(
        "Starting a session asked to sign in first, so what needs a session could not be checked.",
    );
    let auth = if probe.auth_methods.is_empty() {
        "none advertised".to_owned()
    } else {
        probe
            .auth_methods
            .iter()
            .map(|a| a.label().to_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rows: Vec<(String, &'static str, String)> = probe
        .features()
        .iter()
        .map(|feature| {
            let name = match (feature.capability, feature.method) {
                (Some(capability), _) => capability.label().to_owned(),
                (None, Some(method)) => method.to_owned(),
                (None, None) => "another method".to_owned(),
            };
            let verdict = feature.verdict();
            (name, mark(&verdict), verdict.label())
        })
        .collect();
    view! {
        <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">{provenance}</p>
        {stale.map(|s| view! { <p role="note" class="mt-1 text-sm font-medium text-amber-800 dark:text-amber-300">{s}</p> })}
        {versions.map(|v| view! { <p class="mt-1 text-sm text-slate-600 dark:text-slate-400">{v}</p> })}
        {sign_in.map(|s| view! { <p class="mt-1 text-sm text-amber-800 dark:text-amber-300">{s}</p> })}
        <dl class="mt-3 grid max-w-2xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
            <dt class="text-slate-600 dark:text-slate-400">"Authentication"</dt>
            <dd>{auth}</dd>
            {rows.into_iter().map(|(name, mark, text)| view! {
                <dt class="text-slate-600 dark:text-slate-400">{name}</dt>
                <dd><span aria-hidden="true">{mark}" "</span>{text}</dd>
            }).collect_view()}
        </dl>
    }
}

/// The day this agent was probed: its own `probedAt` (a reused result keeps its earlier day),
/// else the matrix's `date`.
fn probe_day(date: &str, probe: &ProbeResult) -> Option<Day> {
    probe.probed_at.or_else(|| Day::parse(date))
}

/// The sign beside a verdict (the words say the same; it is hidden from screen readers).
fn mark(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Supported => "✓",
        Verdict::Advertised => "✓",
        Verdict::NotSupported => "✗",
        Verdict::NeedsSignIn => "?",
        Verdict::Unknown(_) => "–",
    }
}
