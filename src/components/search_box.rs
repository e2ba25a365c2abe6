//! The search box: `/` focuses it from anywhere, Esc clears it.
//!
//! It is a GET form on the catalogue's address (`?q=…`), so that Enter pressed before the app
//! has started (or without JavaScript) still asks for the search in the address; the app
//! answers every keystroke itself and never submits it.

use leptos::ev;
use leptos::html::Input;
use leptos::prelude::*;

use crate::config::{self, RegistryKind};
use wasm_bindgen::JsCast;

/// The search input, labelled "Search agents".
#[component]
pub fn SearchBox(
    /// The current search text (from the URL).
    value: Signal<String>,
    /// Called with the new text on every keystroke.
    on_input: Callback<String>,
) -> impl IntoView {
    let input = NodeRef::<Input>::new();

    let handle = window_event_listener(ev::keydown, move |event: ev::KeyboardEvent| {
        if event.key() == "/"
            && !event.ctrl_key()
            && !event.meta_key()
            && !event.alt_key()
            && !typing_somewhere(&event)
            && let Some(input) = input.get_untracked()
        {
            event.prevent_default();
            let _ = input.focus();
            input.select();
        }
    });
    on_cleanup(move || handle.remove());

    view! {
        <form role="search" action=config::href("/") method="get" class="relative" on:submit=|event: ev::SubmitEvent| event.prevent_default()>
            <label for="search" class="sr-only">"Search agents"</label>
            <span aria-hidden="true" class="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-400">
                <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2">
                    <circle cx="11" cy="11" r="7" />
                    <path d="m20 20-3.5-3.5" />
                </svg>
            </span>
            <input
                id="search"
                name="q"
                value=value.get_untracked()
                node_ref=input
                type="search"
                autocomplete="off"
                spellcheck="false"
                placeholder=match config::registry_kind() {
                    RegistryKind::Acp => "Search agents by name, description, author or package",
                    RegistryKind::AgentRegistry => "Search agents by name, description, owner, capability or label",
                }
                aria-keyshortcuts="/"
                class="h-12 w-full rounded-xl border border-slate-300 bg-white pl-10 pr-12 text-base shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/40 dark:border-slate-700 dark:bg-slate-900"
                prop:value=move || value.get()
                on:input=move |event| on_input.run(event_target_value(&event))
                on:keydown=move |event: ev::KeyboardEvent| {
                    if event.key() == "Escape" {
                        event.prevent_default();
                        on_input.run(String::new());
                    }
                }
            />
            <kbd
                aria-hidden="true"
                class="pointer-events-none absolute inset-y-0 right-3 my-auto hidden h-6 items-center rounded border border-slate-300 px-1.5 text-xs text-slate-500 sm:flex dark:border-slate-600"
            >
                "/"
            </kbd>
        </form>
    }
}

/// Whether the key was pressed while typing in a form field or editable element.
fn typing_somewhere(event: &ev::KeyboardEvent) -> bool {
    let Some(target) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    matches!(target.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || target
            .get_attribute("contenteditable")
            .is_some_and(|v| v != "false")
}
