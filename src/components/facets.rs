//! Facet groups: checkboxes with live counts.
//!
//! Purely presentational: [`facet_groups`] turns the core's counts and filters into
//! [`FacetGroup`]s, one per listed group of the core's table of facets; a box reports the typed
//! value it toggles, which the catalogue page applies. Options are keyed by their value, so a
//! checkbox keeps its focus while the counts beside it change.

use leptos::prelude::*;
use registry_core::{Facet, FacetCounts, FacetValue, Filters};

/// One checkbox of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FacetOption {
    /// The value it selects.
    pub value: FacetValue,
    /// Results if this option were toggled on, the other groups' filters applied.
    pub count: usize,
    /// Whether it is selected.
    pub checked: bool,
}

/// A group of options (distribution, OS, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FacetGroup {
    /// The group.
    pub facet: Facet,
    /// Its options, in display order.
    pub options: Vec<FacetOption>,
}

/// The groups to show for these counts and selections: every listed group, in the table's
/// order, its options as the counts list them.
pub fn facet_groups(counts: &FacetCounts, filters: &Filters) -> Vec<FacetGroup> {
    counts
        .groups()
        .map(|(facet, options)| FacetGroup {
            facet,
            options: options
                .iter()
                .map(|(value, count)| FacetOption {
                    checked: filters.contains(value),
                    value: value.clone(),
                    count: *count,
                })
                .collect(),
        })
        .collect()
}

/// How many options a group shows before "Show all".
const COLLAPSED: usize = 8;

/// One fieldset of checkboxes: the group `facet` of `groups`, nothing while it is not listed.
#[component]
pub fn FacetFieldset(
    /// The group shown.
    facet: Facet,
    /// All groups, current counts and selections.
    groups: Signal<Vec<FacetGroup>>,
    /// Called with the value of a box toggled.
    on_toggle: Callback<FacetValue>,
) -> impl IntoView {
    let expanded = RwSignal::new(false);
    let options = Memo::new(move |_| {
        groups.with(|gs| {
            gs.iter()
                .find(|g| g.facet == facet)
                .map(|g| g.options.clone())
                .unwrap_or_default()
        })
    });
    let total = move || options.with(Vec::len);
    let visible = move || {
        let show_all = expanded.get();
        options.with(|o| {
            o.iter()
                .enumerate()
                .filter(|(i, opt)| show_all || *i < COLLAPSED || opt.checked)
                .map(|(_, opt)| opt.value.clone())
                .collect::<Vec<_>>()
        })
    };
    let option = move |value: &FacetValue| {
        options.with(|o| {
            o.iter()
                .find(|x| x.value == *value)
                .map(|x| (x.count, x.checked))
        })
    };
    let key = facet.key();
    let present = move || groups.with(|gs| gs.iter().any(|g| g.facet == facet));
    view! {
        <Show when=present>
        <fieldset class="border-t border-slate-200 py-3 first:border-t-0 dark:border-slate-800">
            <legend class="float-left mb-2 w-full text-sm font-semibold">{facet.legend()}</legend>
            <ul class="clear-left space-y-1">
                <For each=visible key=|v| v.clone() let:value>
                    {
                        let id = format!("facet-{key}-{}", slug(value.as_str()));
                        let checked = {
                            let value = value.clone();
                            move || option(&value).is_some_and(|(_, checked)| checked)
                        };
                        let unavailable = {
                            let value = value.clone();
                            move || option(&value).is_some_and(|(count, checked)| count == 0 && !checked)
                        };
                        let count = {
                            let value = value.clone();
                            move || option(&value).map_or(0, |(count, _)| count)
                        };
                        let toggle = {
                            let value = value.clone();
                            move |_| on_toggle.run(value.clone())
                        };
                        view! {
                            <li class="flex items-center gap-2 text-sm">
                                <input
                                    type="checkbox"
                                    id=id.clone()
                                    class="h-4 w-4 rounded border-slate-300 accent-indigo-600"
                                    name=key
                                    value=value.as_str().to_owned()
                                    checked=checked()
                                    prop:checked=checked.clone()
                                    disabled=unavailable.clone()
                                    on:change=toggle
                                />
                                <label
                                    for=id
                                    class="flex flex-1 cursor-pointer justify-between gap-2"
                                    class=("text-slate-500", unavailable)
                                >
                                    <span class="truncate">{value.label().into_owned()}</span>
                                    <span class="tabular-nums text-slate-500 dark:text-slate-400">
                                        {count}
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
