//! The body of an ACP entry's page: the header (facts, links, where it is listed, and whether
//! the registry has quarantined it), `#run` (how to run it, per distribution method, for the
//! visitor's platform; per release channel when the JetBrains preview channel serves another
//! version), `#editors` (configuration for each ACP client), `#protocol` (what the registry's
//! probe found), `#badge` (the badge for READMEs) and `#manifest` (the raw entry).
//!
//! All text of the snippets comes from `registry_core::snippets`; these components only lay it
//! out. The catalogue's agent page and the listing preview both show [`EntryDetails`].
//!
//! A long description ([`PAGE_DESCRIPTION_CHARS`] and more) is shown cut, with "Show all":
//! the page stays a page, and the whole text is one press away (and in `#manifest`).

mod editors;
mod listing;
mod protocol;
mod run;

use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;
use registry_core::edition::Edition;
use registry_core::{BadgeSnippets, Entry, Kind, Listing, Method};

use crate::changes::use_changes;
use crate::clients::use_clients;
use crate::components::card::MethodBadge;
use crate::components::deferred::Deferred;
use crate::components::edition::EditionSentence;
use crate::components::history::AgentHistory;
use crate::components::icon::{AgentIcon, IconSize};
use crate::components::link::ExternalLink;
use crate::components::manifest::ManifestSection;
use crate::components::verdicts::{EditorTab, EditorVerdicts};
use crate::registry::thousands;

use self::editors::EditorsSection;
pub use self::listing::listed_for_words;
use self::listing::{BadgeSection, Channel, ChannelTabs, ListedFor, QuarantineNotice};
pub use self::protocol::ProbeReport;
use self::protocol::ProtocolSection;
use self::run::RunSection;

/// How many characters of a description the page shows before "Show all".
pub const PAGE_DESCRIPTION_CHARS: usize = 600;

/// Where the registry's manifests live, for "Edit this listing".
const MANIFEST_REPOSITORY: &str = "https://github.com/agentclientprotocol/registry/blob/main";

/// An entry's page body (header and sections), without the page's title, head tags or back
/// link.
#[component]
pub fn EntryDetails(
    /// The entry.
    entry: Arc<Entry>,
    /// Its icon's URL ([`icon_url`](crate::components::icon::icon_url)).
    icon: Option<String>,
    /// What the registry's probe found about it, when it was probed.
    report: Option<ProbeReport>,
    /// Why the probe results could not be loaded, when they could not.
    matrix_problem: Option<String>,
    /// Where it is listed and whether it is quarantined, as far as the registry's lists
    /// loaded (none in the listing preview).
    #[prop(optional)]
    listing: Option<Listing>,
    /// Its badge's snippets (none in the listing preview, which writes no badge).
    #[prop(optional)]
    badge: Option<BadgeSnippets>,
    /// Which registry build lists it (none in the listing preview, which shows no registry).
    #[prop(optional)]
    edition: Option<Edition>,
) -> impl IntoView {
    // The method tab chosen on this page: `#run` shows it, `#editors` configures it.
    let chosen = RwSignal::new(None::<Method>);
    // The client tab of `#editors`, which "In your editor" opens too.
    provide_context(EditorTab(RwSignal::new(
        registry_core::snippets::Client::Zed,
    )));
    let preview = listing
        .as_ref()
        .and_then(|l| l.preview.clone())
        .map(Arc::new);
    let sections = move |entry: Arc<Entry>, preview: bool| {
        let run = entry.clone();
        view! {
            <Deferred><RunSection entry=run chosen /></Deferred>
            <Deferred><EditorsSection entry chosen preview /></Deferred>
        }
    };
    let releases = match preview {
        None => Either::Left(sections(entry.clone(), false)),
        Some(preview) => {
            let channel = RwSignal::new(Channel::Stable);
            let (stable, shown) = (entry.clone(), preview.clone());
            let body = move || match channel.get() {
                Channel::Stable => sections(stable.clone(), false),
                Channel::Preview => sections(shown.clone(), true),
            };
            Either::Right(view! {
                <ChannelTabs stable=entry.clone() preview channel>
                    {body.clone()}
                </ChannelTabs>
            })
        }
    };
    let (header, probed, badged) = (entry.clone(), entry.clone(), entry.clone());
    let dated = edition.clone();
    // The change log, where the app has one (not in the listing preview).
    let history = use_changes().map(|changes| {
        let (id, name, page) = (entry.id.clone(), entry.name.clone(), entry.path());
        view! { <Deferred><AgentHistory id name page changes /></Deferred> }
    });
    // Whether it works in each client, where the app has the profiles (not in the listing
    // preview), for an agent (an extension is not run by a client).
    let verdicts = use_clients()
        .filter(|_| entry.kind == Kind::Agent)
        .map(|clients| {
            let (judged, page) = (entry.clone(), entry.path());
            view! { <Deferred><EditorVerdicts entry=judged page clients /></Deferred> }
        });
    view! {
        <Deferred><Header entry=header icon listing edition=dated /></Deferred>
        {releases}
        <Deferred><ProtocolSection entry=probed report matrix_problem edition /></Deferred>
        {verdicts}
        {history}
        {badge.map(|snippets| view! { <Deferred><BadgeSection entry=badged snippets /></Deferred> })}
        <Deferred><ManifestSection entry /></Deferred>
    }
}

/// The description, cut when it is long, with a button to show it all.
#[component]
fn Description(text: String) -> impl IntoView {
    let short = registry_core::card::shorten(&text, PAGE_DESCRIPTION_CHARS).into_owned();
    let cut = short.len() != text.len();
    let whole = RwSignal::new(false);
    let length = text.chars().count();
    let shown = move || {
        if whole.get() {
            text.clone()
        } else {
            short.clone()
        }
    };
    view! {
        <p id="description" class="mt-3 max-w-3xl break-words text-lg text-slate-700 dark:text-slate-300">{shown}</p>
        {cut.then(|| view! {
            <button
                type="button"
                class="mt-1 text-sm text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                aria-controls="description"
                aria-expanded=move || whole.get().to_string()
                on:click=move |_| whole.update(|w| *w = !*w)
            >
                {move || if whole.get() {
                    "Show less".to_owned()
                } else {
                    format!("Show all ({} characters)", thousands(length))
                }}
            </button>
        })}
    }
}

#[component]
fn Header(
    entry: Arc<Entry>,
    icon: Option<String>,
    listing: Option<Listing>,
    edition: Option<Edition>,
) -> impl IntoView {
    let quarantine = listing.as_ref().and_then(|l| l.quarantine.clone());
    let authors = entry.author_names().collect::<Vec<_>>().join(", ");
    // Only an entry with a manifest in the registry's repository (a slug id, not from a
    // service) has one to edit: any other id would name another file, or none.
    let edit = entry
        .manifest_path()
        .map(|path| format!("{MANIFEST_REPOSITORY}/{path}"));
    let license = entry.license.clone().map(|license| {
        match entry
            .license_url
            .as_deref()
            .and_then(registry_core::url::safe_link)
        {
            Some(url) => Either::Left(view! { <ExternalLink url=url.to_owned() text=license /> }),
            None => Either::Right(view! { <span>{license}</span> }),
        }
    });
    let links = [
        ("Repository", entry.repository.clone()),
        ("Website", entry.website.clone()),
    ];
    view! {
        <header class="flex flex-col gap-5 py-8 sm:flex-row sm:items-start">
            <AgentIcon url=icon name=entry.name.clone() size=IconSize::Page />
            <div class="min-w-0 flex-1">
                <h1 class="text-3xl font-bold tracking-tight">{entry.name.clone()}</h1>
                <p class="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    <span>{format!("v{}", entry.version)}</span>
                    " · "
                    <code>{entry.id.clone()}</code>
                </p>
                {edition.map(|edition| view! {
                    <p id="listed-in" class="mt-1 text-sm text-slate-600 dark:text-slate-400">
                        <EditionSentence edition lead="Listed in" />
                    </p>
                })}
                <Description text=entry.description.clone() />
                <dl class="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    {(!authors.is_empty()).then(|| view! {
                        <dt class="text-slate-600 dark:text-slate-400">"Authors"</dt>
                        <dd>{authors}</dd>
                    })}
                    {license.map(|license| view! {
                        <dt class="text-slate-600 dark:text-slate-400">"License"</dt>
                        <dd>{license}</dd>
                    })}
                    {links
                        .into_iter()
                        .filter_map(|(label, url)| url.map(|u| (label, u)))
                        .map(|(label, url)| view! {
                            <dt class="text-slate-600 dark:text-slate-400">{label}</dt>
                            <dd class="break-all"><ExternalLink text=url.clone() url /></dd>
                        })
                        .collect_view()}
                    <dt class="text-slate-600 dark:text-slate-400">"Distribution"</dt>
                    <dd class="flex flex-wrap gap-1.5">
                        {entry.distribution.methods().into_iter().map(|m| view! { <MethodBadge method=m /> }).collect_view()}
                    </dd>
                    {listing.map(|listing| view! { <ListedFor listing /> })}
                </dl>
                {quarantine.map(|reason| view! { <QuarantineNotice why=reason.sentence() raw=reason.raw /> })}
                {edit.map(|url| view! {
                    <p class="mt-4 text-sm">
                        <ExternalLink url text="Edit this listing".to_owned() />
                    </p>
                })}
            </div>
        </header>
    }
}
