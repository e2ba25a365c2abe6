//! Where an agent is listed and whether it is quarantined (the header's "Listed for" and the
//! quarantine notice), the release channels of `#run` when the JetBrains preview channel serves
//! another version, and `#badge`: the badge for READMEs, with its snippets.

use std::sync::Arc;

use leptos::prelude::*;
use registry_core::{BadgeSnippets, Entry, Listing, Presence};

use crate::components::code_block::CodeBlock;
use crate::components::section::Section;
use crate::components::tabs::{Tab, TabList, TabValue, panel_id, tab_id};
use crate::config;

/// The clients listing the entry, in words: the main registry's clients always, then what the
/// JetBrains view says (nothing when it did not load: then it is not known).
pub fn listed_for_words(listing: &Listing) -> Vec<&'static str> {
    let mut words = vec!["Zed and other clients"];
    match (listing.jetbrains, listing.bundled) {
        (Presence::Listed, Some(true)) => {
            words.extend(["JetBrains IDEs", "bundled with JetBrains IDEs"]);
        }
        (Presence::Listed, _) => words.push("JetBrains IDEs"),
        (Presence::NotListed, _) => words.push("not in JetBrains IDEs’ list"),
        (Presence::Unknown, _) => {}
    }
    words
}

/// The header's "Listed for" row.
#[component]
pub fn ListedFor(listing: Listing) -> impl IntoView {
    let words = listed_for_words(&listing).join(" · ");
    view! {
        <dt class="text-slate-600 dark:text-slate-400">"Listed for"</dt>
        <dd>{words}</dd>
    }
}

/// That the registry's automation skips the agent, why, and what that means for a visitor.
#[component]
pub fn QuarantineNotice(
    /// The reason, in a sentence.
    why: String,
    /// The reason as the registry wrote it.
    raw: String,
) -> impl IntoView {
    view! {
        <section aria-labelledby="quarantine-heading" class="mt-4 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-950 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100">
            <h2 id="quarantine-heading" class="font-semibold">"Quarantined by the registry"</h2>
            <p class="mt-1">{why}</p>
            <p class="mt-1">
                "The registry’s daily automation skips this agent until it is fixed: it may not start, or not install, for you either. The registry’s words: "
                <q class="break-words">{raw}</q>
            </p>
        </section>
    }
}

/// A release channel of an agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// The version in the registry (and the JetBrains view).
    Stable,
    /// The version the JetBrains preview channel serves instead.
    Preview,
}

impl TabValue for Channel {
    fn key(self) -> &'static str {
        match self {
            Channel::Stable => "stable",
            Channel::Preview => "preview",
        }
    }
}

/// The channel tabs over `#run` and `#editors`, when the preview channel serves another
/// version: the panel shows the chosen channel's entry.
#[component]
pub fn ChannelTabs(
    /// The registry's entry.
    stable: Arc<Entry>,
    /// The entry the preview channel serves.
    preview: Arc<Entry>,
    /// The chosen channel.
    channel: RwSignal<Channel>,
    /// The sections, for the chosen channel's entry.
    children: ChildrenFn,
) -> impl IntoView {
    let tabs = vec![
        Tab {
            value: Channel::Stable,
            label: "Stable",
        },
        Tab {
            value: Channel::Preview,
            label: "Preview (unverified)",
        },
    ];
    let selected = Signal::derive(move || channel.get());
    let on_select = Callback::new(move |c: Channel| channel.set(c));
    let (stable_version, preview_version) = (stable.version.clone(), preview.version.clone());
    let preview_shown = move || channel.get() == Channel::Preview;
    let about = move || match channel.get() {
        Channel::Stable => {
            format!("v{stable_version}, the version in the registry, for every client.")
        }
        Channel::Preview => format!(
            "v{preview_version}, what JetBrains IDEs’ preview channel (registry-for-jetbrains-preview.json) serves instead of v{stable_version}. The registry does not verify preview distributions: check what you run."
        ),
    };
    view! {
        <div class="border-t border-slate-200 pt-6 dark:border-slate-800">
            <TabList label="Release channel" id="channel" tabs selected on_select />
            <div role="tabpanel" id=panel_id("channel") aria-labelledby=move || tab_id("channel", selected.get().key())>
                <p
                    role="note"
                    class="mb-6 mt-3 rounded-lg border p-3 text-sm"
                    class=("border-slate-200", move || !preview_shown())
                    class=("dark:border-slate-800", move || !preview_shown())
                    class=("border-amber-300", preview_shown)
                    class=("bg-amber-50", preview_shown)
                    class=("text-amber-950", preview_shown)
                    class=("dark:border-amber-700", preview_shown)
                    class=("dark:bg-amber-950/40", preview_shown)
                    class=("dark:text-amber-100", preview_shown)
                >
                    {about}
                </p>
                {children()}
            </div>
        </div>
    }
}

/// `#badge`: the entry's badge, and the Markdown, HTML and reStructuredText that show it linked
/// to this page.
#[component]
pub fn BadgeSection(entry: Arc<Entry>, snippets: BadgeSnippets) -> impl IntoView {
    let src = config::href(&format!("/{}", registry_core::badge_path(&entry)));
    let alt = format!("{} on the ACP Registry: v{}", entry.name, entry.version);
    // The build writes the badges of the entries it knows; a newer entry's is written when the
    // site is built again.
    let missing = RwSignal::new(false);
    let BadgeSnippets {
        markdown,
        html,
        rst,
    } = snippets;
    view! {
        <Section id="badge" title="Badge" page=entry.path()>
            <p class="mt-3 text-sm text-slate-600 dark:text-slate-400">
                "Show that this agent is in the ACP Registry, in a README or on a website. The badge links to this page and shows the registry’s version."
            </p>
            <p class="mt-3 flex min-h-5 items-center">
                <img src=src alt=alt height="20" class:hidden=move || missing.get() on:error=move |_| missing.set(true) />
                <span class="text-sm text-slate-600 dark:text-slate-400" class:hidden=move || !missing.get()>
                    "This agent’s badge is written when the site is next built."
                </span>
            </p>
            <CodeBlock title="Markdown".to_owned() code=markdown />
            <CodeBlock title="HTML".to_owned() code=html />
            <CodeBlock title="reStructuredText".to_owned() code=rst />
        </Section>
    }
}
