//! How old the data is: which registry build a page shows and when it was published (see
//! `registry_core::edition`), and the day of the protocol probe beside it, flagged when it is
//! much older than the registry.

use leptos::either::Either;
use leptos::prelude::*;
use registry_core::edition::{Day, Edition, EditionSource, days_words};

use crate::components::link::ExternalLink;
use crate::timing::now;

/// "… registry build v2026.08.20-1a2b3c4, published 2026-08-20." (the build linked to its
/// immutable snapshot when known), or what is known of it; `lead` starts the sentence
/// ("Showing", "From").
#[component]
pub fn EditionSentence(
    /// The registry's edition.
    edition: Edition,
    /// The sentence's first word: "Showing", "From".
    lead: &'static str,
) -> impl IntoView {
    let published = edition.published.map(|day| day.to_string());
    match (edition.snapshot, edition.link) {
        (Some(snapshot), link) => {
            let name = snapshot.name.clone();
            let name = match link {
                Some(url) => Either::Left(view! { <ExternalLink url text=name /> }),
                None => Either::Right(view! { <span>{name}</span> }),
            };
            view! {
                <span>
                    {format!("{lead} registry build ")}
                    {name}
                    {format!(", published {}.", snapshot.day)}
                </span>
            }
            .into_any()
        }
        (None, _) => {
            let text = match (edition.source, published) {
                (EditionSource::LastModified, Some(day)) => format!(
                    "{lead} the registry as its server last changed it, on {day} (no build is named)."
                ),
                (_, Some(day)) => format!("{lead} the registry as published on {day}."),
                (_, None) => format!(
                    "{lead} a registry whose build and publication day are not known here: its \
                     address names no build."
                ),
            };
            view! { <span>{text}</span> }.into_any()
        }
    }
}

/// The probe's day, and how much older than the registry build it is when that is enough to
/// flag ([`Edition::stale_probe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeAge {
    /// The day of the probe.
    pub day: Day,
    /// Days older than the registry build, when flagged.
    pub stale_by: Option<i64>,
}

impl ProbeAge {
    /// The age of a probe of `day` beside the registry `edition`.
    pub fn of(day: Day, edition: &Edition) -> ProbeAge {
        ProbeAge {
            day,
            stale_by: edition.stale_probe(day),
        }
    }

    /// "109 days older than the registry build shown (published 2026-12-07)", when flagged.
    pub fn stale_words(&self, edition: &Edition) -> Option<String> {
        let lag = self.stale_by?;
        let published = edition
            .published
            .map(|day| format!(" (published {day})"))
            .unwrap_or_default();
        Some(format!(
            "{} older than the registry build shown{published}",
            days_words(lag)
        ))
    }
}

/// How long ago `day` was, in UTC days by the visitor's clock: "(3 days ago)". Only in the
/// browser: a page written at build time would keep saying it long after.
pub fn ago(day: Day) -> Option<String> {
    if !cfg!(target_arch = "wasm32") {
        return None;
    }
    let today = Day::from_unix_ms(now());
    let days = today.days_since(day);
    Some(match days {
        ..=0 => " (today)".to_owned(),
        1 => " (yesterday)".to_owned(),
        _ => format!(" ({} ago)", days_words(days)),
    })
}

/// The footer's line on the data: the registry build shown, then the probe's day (flagged when
/// old, or "none" when the site has no probe file).
#[component]
pub fn DataDates(
    /// The registry's edition.
    edition: Edition,
    /// The probe's day, when a probe file is loaded and dated.
    probe: Option<Day>,
    /// Whether the site has a probe file at all.
    probe_configured: bool,
) -> impl IntoView {
    let probe = match probe {
        Some(day) => {
            let age = ProbeAge::of(day, &edition);
            let stale = age.stale_words(&edition);
            let class = if stale.is_some() {
                "text-amber-800 dark:text-amber-300"
            } else {
                ""
            };
            let text = match stale {
                Some(words) => format!(
                    "Protocol probe of {day}: {words}, so it may not describe the versions listed."
                ),
                None => format!("Protocol probe of {day}."),
            };
            Some(
                view! { <span class=class data-probe-day=day.to_string()>{text}</span> }.into_any(),
            )
        }
        None if !probe_configured => {
            Some(view! { <span>"No protocol probe for this registry."</span> }.into_any())
        }
        None => None,
    };
    view! {
        <p id="data-dates" class="basis-full">
            <EditionSentence edition lead="Showing" />
            {probe.map(|probe| view! { " " {probe} })}
        </p>
    }
}
