//! Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs.
//!
//! Tabs are typed: each is a value of the caller's own enum (a distribution [`Method`], an
//! editor [`Client`]), which names itself in element ids through [`TabValue::key`]. The caller
//! renders the panel with [`panel_id`] and [`tab_id`].
//!
//! [`Method`]: registry_core::Method
//! [`Client`]: registry_core::Client

use leptos::ev;
use leptos::prelude::*;
use registry_core::{Client, Method};
use wasm_bindgen::JsCast;

/// A value a tab can stand for.
pub trait TabValue: Copy + PartialEq + Send + Sync + 'static {
    /// A stable word for element ids (`npx`, `zed`).
    fn key(self) -> &'static str;
}

impl TabValue for Method {
    fn key(self) -> &'static str {
        self.as_str()
    }
}

impl TabValue for Client {
    fn key(self) -> &'static str {
        self.as_str()
    }
}

/// One tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tab<T> {
    /// What it stands for.
    pub value: T,
    /// What the tab says.
    pub label: &'static str,
}

/// Classes of a tab button, selected or not. One class string per state is one reactive
/// closure per tab instead of six (each closure type costs its own render code in the wasm).
const SELECTED_CLASS: &str = "-mb-px rounded-t-md border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 border-indigo-600 text-indigo-700 dark:text-indigo-300";
const UNSELECTED_CLASS: &str = "-mb-px rounded-t-md border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 border-transparent text-slate-600 dark:text-slate-400";

/// A tab list.
#[component]
pub fn TabList<T: TabValue>(
    /// Accessible name of the tab list.
    label: &'static str,
    /// Prefix of the element ids, unique in the page.
    id: &'static str,
    /// The tabs, in order.
    tabs: Vec<Tab<T>>,
    /// The selected tab's value.
    selected: Signal<T>,
    /// Called with a tab's value when it is chosen.
    on_select: Callback<T>,
) -> impl IntoView {
    let values: Vec<T> = tabs.iter().map(|t| t.value).collect();
    let keydown = move |event: ev::KeyboardEvent| {
        let current = values
            .iter()
            .position(|v| *v == selected.get_untracked())
            .unwrap_or(0);
        let next = match event.key().as_str() {
            "ArrowRight" | "ArrowDown" => (current + 1) % values.len(),
            "ArrowLeft" | "ArrowUp" => (current + values.len() - 1) % values.len(),
            "Home" => 0,
            "End" => values.len() - 1,
            _ => return,
        };
        event.prevent_default();
        on_select.run(values[next]);
        if let Some(button) = document()
            .get_element_by_id(&tab_id(id, values[next].key()))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = button.focus();
        }
    };
    view! {
        <div role="tablist" aria-label=label class="flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800" on:keydown=keydown>
            {tabs.into_iter().map(|tab| {
                let value = tab.value;
                let is_selected = Signal::derive(move || selected.get() == value);
                view! {
                    <button
                        type="button"
                        role="tab"
                        id=tab_id(id, value.key())
                        aria-controls=panel_id(id)
                        aria-selected=move || is_selected.get().to_string()
                        tabindex=move || if is_selected.get() { "0" } else { "-1" }
                        class=move || if is_selected.get() { SELECTED_CLASS } else { UNSELECTED_CLASS }
                        on:click=move |_| on_select.run(value)
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
