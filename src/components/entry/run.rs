//! `#run`: how to run the entry, one tab per distribution method, for the visitor's platform.

use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;
use registry_core::snippets;
use registry_core::{Entry, Method, Platform};

use crate::components::code_block::CodeBlock;
use crate::components::section::Section;
use crate::components::tabs::{Tab, TabList, panel_id, tab_id};
use crate::visitor::{self, Certainty, VisitorPlatform, use_visitor};

/// The run commands, with the method tabs and the platform switch.
#[component]
pub(super) fn RunSection(
    /// The entry.
    entry: Arc<Entry>,
    /// The method tab the visitor chose on this page, if any (else the best for the platform).
    chosen: RwSignal<Option<Method>>,
) -> impl IntoView {
    let visitor = use_visitor();
    let dist = entry.distribution.clone();
    let method = Memo::new(move |_| {
        // A method chosen for another release of the entry (a preview's) may not be this one's.
        chosen
            .get()
            .filter(|m| dist.methods().contains(m))
            .or_else(|| snippets::preferred_method(&dist, Some(visitor.get().platform)))
    });
    let tabs: Vec<Tab<Method>> = entry
        .distribution
        .methods()
        .into_iter()
        .map(|m| Tab {
            value: m,
            label: tab_label(m),
        })
        .collect();
    let selected = Signal::derive(move || method.get().unwrap_or(Method::Npx));
    let on_select = Callback::new(move |m: Method| chosen.set(Some(m)));
    let panel_entry = entry.clone();
    view! {
        <Section id="run" title="Run it" page=entry.path()>
            <div class="mt-3 flex flex-wrap items-center justify-between gap-3">
                <p class="text-sm text-slate-600 dark:text-slate-400">"Start the agent in a terminal to try it, or add it to your editor below."</p>
                <PlatformPicker visitor />
            </div>
            <div class="mt-4">
                <TabList label="Distribution method" id="run" tabs selected on_select />
                <div role="tabpanel" id=panel_id("run") aria-labelledby=move || tab_id("run", selected.get().as_str()) class="pt-2">
                    {move || {
                        let platform = visitor.get().platform;
                        method.get().map(|m| view! { <RunPanel entry=panel_entry.clone() method=m platform /> })
                    }}
                </div>
            </div>
        </Section>
    }
}

fn tab_label(method: Method) -> &'static str {
    match method {
        Method::Binary => "Binary",
        Method::Npx => "npx",
        Method::Uvx => "uvx",
    }
}

/// The platform the snippets are written for, with how it was found and a switch.
#[component]
fn PlatformPicker(visitor: RwSignal<VisitorPlatform>) -> impl IntoView {
    let on_change = move |event| {
        if let Some(platform) = Platform::parse(&event_target_value(&event)) {
            visitor::remember(platform);
            visitor.set(VisitorPlatform {
                platform,
                certainty: Certainty::Chosen,
            });
        }
    };
    let how = move || match visitor.get().certainty {
        Certainty::Chosen => "your choice",
        Certainty::Detected => "detected",
        Certainty::Assumed => "assumed: change it if wrong",
    };
    view! {
        <label class="flex flex-wrap items-center gap-2 text-sm">
            "Your platform"
            <select
                class="h-9 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-700 dark:bg-slate-900"
                on:change=on_change
                prop:value=move || visitor.get().platform.key()
            >
                {Platform::ALL.into_iter().map(|p| view! {
                    <option value=p.key() selected=move || visitor.get().platform == p>{p.label()}</option>
                }).collect_view()}
            </select>
            // As wide as its longest wording, whichever shows: the select does not move when the
            // platform detected after the page was shown replaces the assumed one.
            <span class="inline-grid text-xs text-slate-600 dark:text-slate-400">
                <span class="invisible col-start-1 row-start-1" aria-hidden="true">"assumed: change it if wrong"</span>
                <span class="col-start-1 row-start-1">{how}</span>
            </span>
        </label>
    }
}

#[component]
fn RunPanel(entry: Arc<Entry>, method: Method, platform: Platform) -> impl IntoView {
    let blocks = snippets::run_snippets(&entry, method, Some(platform));
    // A download whose steps would write or run outside the install folder gets no command,
    // and the reason instead.
    let refused = snippets::refusal(&entry, method, Some(platform)).map(|why| why.to_string());
    let missing = (blocks.is_empty() && method == Method::Binary).then(|| {
        let available: Vec<String> = entry
            .distribution
            .binary
            .keys()
            .filter_map(|k| k.platform())
            .map(Platform::label)
            .collect();
        format!(
            "No binary for {}. Builds exist for: {}. Choose one of those platforms above{}.",
            platform.label(),
            available.join(", "),
            if entry.distribution.npx.is_some() || entry.distribution.uvx.is_some() {
                ", or another method"
            } else {
                ""
            },
        )
    });
    if let Some(notice) = refused.or(missing) {
        return Either::Left(view! {
            <p role="note" class="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
                {notice}
            </p>
        });
    }
    Either::Right(
        blocks
            .into_iter()
            .map(|block| {
                let title = format!("{} ({})", block.title, block.shell.label());
                view! { <CodeBlock title code=block.code notes=block.notes /> }
            })
            .collect_view(),
    )
}
