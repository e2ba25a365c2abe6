//! `#protocol`: what the registry's daily probe found about an agent.

use std::sync::Arc;

use leptos::either::EitherOf3;
use leptos::prelude::*;
use registry_core::Entry;
use registry_core::protocol::{Capability, Facts};

use crate::components::section::Section;

/// What the registry's probe found: auth methods and capabilities, with when and which version.
#[component]
pub(super) fn ProtocolSection(
    entry: Arc<Entry>,
    facts: Facts,
    matrix_problem: Option<String>,
) -> impl IntoView {
    let listed = entry.version.clone();
    let body = match facts {
        Facts::NotProbed => EitherOf3::A(view! {
            <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                "Not probed: the registry's daily probe has no result for this agent, so its authentication and capabilities are unknown (not unsupported)."
                {matrix_problem.map(|p| format!(" The probe data could not be loaded: {p}."))}
            </p>
        }),
        Facts::ProbeFailed {
            version,
            date,
            reason,
        } => EitherOf3::B(view! {
            <p class="mt-3 text-sm text-slate-700 dark:text-slate-300">
                {format!(
                    "The probe of {} on {date} could not start the agent ({reason}), so its authentication and capabilities are unknown (not unsupported).",
                    version.map(|v| format!("v{v}")).unwrap_or_else(|| "this agent".to_owned()),
                )}
            </p>
        }),
        Facts::Probed {
            version,
            date,
            auth,
            capabilities,
        } => {
            let provenance = match &version {
                Some(v) if *v != listed => {
                    format!("Probed v{v} on {date} (the listing is v{listed}).")
                }
                Some(v) => format!("Probed v{v} on {date}."),
                None => format!("Probed on {date}."),
            };
            EitherOf3::C(view! {
                <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">{provenance}</p>
                <dl class="mt-3 grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
                    <dt class="text-slate-600 dark:text-slate-400">"Authentication"</dt>
                    <dd>
                        {if auth.is_empty() {
                            "none advertised".to_owned()
                        } else {
                            auth.iter().map(|a| a.label().to_owned()).collect::<Vec<_>>().join(", ")
                        }}
                    </dd>
                    {Capability::ALL.into_iter().map(|cap| {
                        let (mark, text) = match capabilities.get(&cap) {
                            Some(true) => ("✓", "supported"),
                            Some(false) => ("✗", "not supported"),
                            None => ("–", "not reported"),
                        };
                        view! {
                            <dt class="text-slate-600 dark:text-slate-400">{cap.label()}</dt>
                            <dd><span aria-hidden="true">{mark}" "</span>{text}</dd>
                        }
                    }).collect_view()}
                </dl>
            })
        }
    };
    view! {
        <Section id="protocol" title="Protocol support" page=entry.path()>
            {body}
        </Section>
    }
}
