//! Facet groups: checkboxes with live counts.
//!
//! Purely presentational: the catalogue page turns `registry_core` counts and filters into
//! [`FacetGroup`]s and applies toggles. Options are keyed, so a checkbox keeps its focus while
//! the counts beside it change.

use leptos::prelude::*;

/// One checkbox of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FacetOption {
    /// The value as written in the URL (`npx`, `darwin`, `MIT`).
    pub key: String,
    /// What people read (`macOS`).
    pub label: String,
    /// Results if this option were toggled on, the other groups' filters applied.
    pub count: usize,
    /// Whether it is selected.
    pub checked: bool,
}

/// A group of options (distribution, OS, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FacetGroup {
    /// The URL key of the group (`dist`).
    pub name: &'static str,
    /// The visible title (`Distribution`).
    pub legend: &'static str,
    /// Its options, in display order.
    pub options: Vec<FacetOption>,
}

/// How many options a group shows before "Show all".
const COLLAPSED: usize = 8;

/// One fieldset of checkboxes.
#[component]
pub fn FacetFieldset(
    /// The group's URL key; selects the group inside `groups`.
    name: &'static str,
    /// The group's title.
    legend: &'static str,
    /// All groups, current counts and selections.
    groups: Memo<Vec<FacetGroup>>,
    /// Called with `(group name, option key)` when a box is toggled.
    on_toggle: Callback<(&'static str, String)>,
) -> impl IntoView {
    let expanded = RwSignal::new(false);
    let options = Memo::new(move |_| {
        groups.with(|gs| {
            gs.iter()
                .find(|g| g.name == name)
                .map(|g| g.options.clone())
                .unwrap_or_default()
        })
    });
    let total = move || options.with(Vec::len);
    let visible_keys = move || {
        let show_all = expanded.get();
        options.with(|o| {
            o.iter()
                .enumerate()
                .filter(|(i, opt)| show_all || *i < COLLAPSED || opt.checked)
                .map(|(_, opt)| opt.key.clone())
                .collect::<Vec<_>>()
        })
    };
    let option = move |key: &str| options.with(|o| o.iter().find(|x| x.key == key).cloned());

    let present = move || groups.with(|gs| gs.iter().any(|g| g.name == name));
    view! {
        <Show when=present>
        <fieldset class="border-t border-slate-200 py-3 first:border-t-0 dark:border-slate-800">
            <legend class="float-left mb-2 w-full text-sm font-semibold">{legend}</legend>
            <ul class="clear-left space-y-1">
                <For each=visible_keys key=|k| k.clone() let:key>
                    {
                        let id = format!("facet-{name}-{}", slug(&key));
                        let k1 = key.clone();
                        let k2 = key.clone();
                        let k3 = key.clone();
                        let k4 = key.clone();
                        let k5 = key.clone();
                        view! {
                            <li class="flex items-center gap-2 text-sm">
                                <input
                                    type="checkbox"
                                    id=id.clone()
                                    class="h-4 w-4 rounded border-slate-300 accent-indigo-600"
                                    name=name
                                    value=key.clone()
                                    checked=option(&key).is_some_and(|o| o.checked)
                                    prop:checked=move || option(&k1).is_some_and(|o| o.checked)
                                    disabled=move || option(&k5).is_some_and(|o| o.count == 0 && !o.checked)
                                    on:change=move |_| on_toggle.run((name, k2.clone()))
                                />
                                <label
                                    for=id
                                    class="flex flex-1 cursor-pointer justify-between gap-2"
                                    class=("text-slate-500", move || option(&k3).is_some_and(|o| o.count == 0 && !o.checked))
                                >
                                    <span class="truncate">{option(&key).map(|o| o.label).unwrap_or_default()}</span>
                                    <span class="tabular-nums text-slate-500 dark:text-slate-400">
                                        {move || option(&k4).map(|o| o.count).unwrap_or(0)}
                                    </span>
                                </label>
                            </li>
                        }
                    }
                </For>
            </ul>
            <Show when=move || { total() > COLLAPSED }>
                <button
                    type="button"
                    class="mt-1 text-sm text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                    aria-expanded=move || expanded.get().to_string()
                    on:click=move |_| expanded.update(|e| *e = !*e)
                >
                    {move || if expanded.get() { "Show fewer".to_owned() } else { format!("Show all {}", total()) }}
                </button>
            </Show>
        </fieldset>
        </Show>
    }
}

/// An id-safe, collision-free form of an option key: other characters become `_<hex>`.
fn slug(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!("_{:x}", c as u32)
            }
        })
        .collect()
}
