//! Choosing agents to put side by side: the "Compare" toggle of cards and agent pages, and the
//! bar that links the choice to `/compare/?ids=…`. The choice is remembered on this device
//! ([`crate::visitor`]), so it survives navigation; the page's address makes it a link.

use leptos::prelude::*;
use registry_core::compare::{MAX_COMPARED, ids_value};

use crate::config;
use crate::visitor::{remember_compared, use_compared};

/// The comparison page, without the base path.
pub const COMPARE_PAGE: &str = "/compare/";

/// The comparison of `ids`, without the base path: `/compare/?ids=a,b`.
pub fn compare_href<S: AsRef<str>>(ids: &[S]) -> String {
    format!("{COMPARE_PAGE}?ids={}", ids_value(ids))
}

/// Adds `id` to the agents compared, or takes it out; a fifth is not added. Remembered.
fn toggle(compared: RwSignal<Vec<String>>, id: &str) {
    compared.update(|ids| {
        if let Some(at) = ids.iter().position(|chosen| chosen == id) {
            ids.remove(at);
        } else if ids.len() < MAX_COMPARED {
            ids.push(id.to_owned());
        }
        remember_compared(ids);
    });
}

/// "Compare": puts the agent among those compared, or takes it out (a toggle button, pressed
/// while it is among them); disabled while four others are.
#[component]
pub fn CompareToggle(
    /// The agent's id.
    id: String,
    /// Its name, for the button's accessible name.
    name: String,
    /// Extra classes (its place in a card or a page).
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    let compared = use_compared();
    let chosen = {
        let id = id.clone();
        Memo::new(move |_| compared.with(|ids| ids.contains(&id)))
    };
    let full = Memo::new(move |_| compared.with(|ids| ids.len() >= MAX_COMPARED));
    view! {
        <button
            type="button"
            class=format!("rounded-md border px-2 py-0.5 text-xs font-medium aria-pressed:border-indigo-500 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-900 disabled:opacity-50 dark:aria-pressed:bg-indigo-950 dark:aria-pressed:text-indigo-100 border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800 {class}")
            aria-pressed=move || chosen.get().to_string()
            aria-label=format!("Compare {name}")
            disabled=move || full.get() && !chosen.get()
            on:click=move |_| toggle(compared, &id)
        >
            {move || if chosen.get() { "✓ Compare" } else { "Compare" }}
        </button>
    }
}

/// While agents are chosen: how many, a link to compare them (from two on) and a way to clear
/// the choice, fixed at the bottom of the window.
#[component]
pub fn CompareBar() -> impl IntoView {
    let compared = use_compared();
    let count = Memo::new(move |_| compared.with(Vec::len));
    move || {
        let count = count.get();
        (count > 0).then(|| {
            let ids = compared.get_untracked();
            let words = if count == 1 {
                "1 agent chosen: choose another to compare".to_owned()
            } else {
                format!("{count} agents chosen")
            };
            view! {
                <aside aria-label="Agents to compare" class="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 py-2 shadow-lg backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
                    <div class="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 text-sm">
                        <p>{words}</p>
                        <div class="flex items-center gap-3">
                            <button
                                type="button"
                                class="text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                                on:click=move |_| {
                                    compared.set(Vec::new());
                                    remember_compared(&[]);
                                }
                            >
                                "Clear"
                            </button>
                            {(count >= 2).then(|| view! {
                                <a class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" href=config::href(&compare_href(&ids))>
                                    "Compare side by side →"
                                </a>
                            })}
                        </div>
                    </div>
                </aside>
            }
        })
    }
}
