//! Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// One tab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tab {
    /// Stable key, used in element ids.
    pub key: String,
    /// What the tab says.
    pub label: String,
}

/// Classes of a tab button, selected or not. One class string per state is one reactive
/// closure per tab instead of six (each closure type costs its own render code in the wasm).
const SELECTED_CLASS: &str = "-mb-px rounded-t-md border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 border-indigo-600 text-indigo-700 dark:text-indigo-300";
const UNSELECTED_CLASS: &str = "-mb-px rounded-t-md border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 border-transparent text-slate-600 dark:text-slate-400";

/// A tab list; the caller renders the panel with [`panel_id`] and [`tab_id`].
#[component]
pub fn TabList(
    /// Accessible name of the tab list.
    label: &'static str,
    /// Prefix of the element ids, unique in the page.
    id: &'static str,
    /// The tabs.
    tabs: Vec<Tab>,
    /// The selected tab's key.
    selected: Signal<String>,
    /// Called with a tab's key when it is chosen.
    on_select: Callback<String>,
) -> impl IntoView {
    let keys: Vec<String> = tabs.iter().map(|t| t.key.clone()).collect();
    let keydown = move |event: ev::KeyboardEvent| {
        let current = keys
            .iter()
            .position(|k| *k == selected.get_untracked())
            .unwrap_or(0);
        let next = match event.key().as_str() {
            "ArrowRight" | "ArrowDown" => (current + 1) % keys.len(),
            "ArrowLeft" | "ArrowUp" => (current + keys.len() - 1) % keys.len(),
            "Home" => 0,
            "End" => keys.len() - 1,
            _ => return,
        };
        event.prevent_default();
        on_select.run(keys[next].clone());
        if let Some(button) = document()
            .get_element_by_id(&tab_id(id, &keys[next]))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = button.focus();
        }
    };
    view! {
        <div role="tablist" aria-label=label class="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800" on:keydown=keydown>
            {tabs.into_iter().map(|tab| {
                let key = tab.key.clone();
                let is_selected = Signal::derive({
                    let key = key.clone();
                    move || selected.get() == key
                });
                view! {
                    <button
                        type="button"
                        role="tab"
                        id=tab_id(id, &key)
                        aria-controls=panel_id(id)
                        aria-selected=move || is_selected.get().to_string()
                        tabindex=move || if is_selected.get() { "0" } else { "-1" }
                        class=move || if is_selected.get() { SELECTED_CLASS } else { UNSELECTED_CLASS }
                        on:click=move |_| on_select.run(key.clone())
                    >
                        {tab.label}
                    </button>
                }
            }).collect_view()}
        </div>
    }
}

/// The id of a tab button.
pub fn tab_id(id: &str, key: &str) -> String {
    format!("{id}-tab-{key}")
}

/// The id of the panel of a tab list.
pub fn panel_id(id: &str) -> String {
    format!("{id}-panel")
}
