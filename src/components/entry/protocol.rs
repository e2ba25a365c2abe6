//! `#protocol`: what the registry's nightly probe found about an agent.
//!
//! The probe starts each agent over ACP without signing in, and records what `initialize`
//! answered (protocol version, auth methods, capabilities) and how each session method it then
//! called went. The page keeps apart what the agent does not support from what could not be
//! checked without signing in, and shows statuses and methods it does not know as given.

use std::sync::Arc;

use leptos::either::EitherOf3;
use leptos::prelude::*;
use registry_core::Entry;
use registry_core::protocol::{ProbeResult, ProbeStatus, Verdict};

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
) -> impl IntoView {
    let listed = entry.version.clone();
    let body = match report {
        None => EitherOf3::A(view! {
            <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                "Not probed: the registry's daily probe has no result for this agent, so its authentication and capabilities are unknown (not unsupported)."
                {matrix_problem.map(|p| format!(" The probe data could not be loaded: {p}."))}
            </p>
        }),
        Some(ProbeReport { date, probe }) => match &probe.status {
            ProbeStatus::Failed(status) => {
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
                })
            }
            ProbeStatus::Succeeded => {
                EitherOf3::C(view! { <Probed date probe listed=listed.clone() /> })
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
fn Probed(date: String, probe: ProbeResult, listed: String) -> impl IntoView {
    let provenance = match &probe.registry_version {
        Some(v) if *v != listed => format!("Probed v{v} on {date} (the listing is v{listed})."),
        Some(v) => format!("Probed v{v} on {date}."),
        None => format!("Probed on {date}."),
    };
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
