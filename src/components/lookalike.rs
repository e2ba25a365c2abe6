//! The warning an entry gets when it could pass for another (see `registry_core::lookalike`):
//! on its card and its page, in plain words, naming the entry it looks like.

use leptos::prelude::*;
use registry_core::{Catalog, Entry};

/// The look-alike warnings of `entry`, a member of `catalog`, as sentences ("Its name looks
/// like Gemini CLI (gemini), a different agent."); none for an entry that is not the catalogue's.
pub fn warnings_of(catalog: &Catalog, entry: &Entry) -> Vec<String> {
    catalog
        .registry
        .entries
        .iter()
        .position(|e| std::ptr::eq(e, entry))
        .map(|index| warnings_at(catalog, index))
        .unwrap_or_default()
}

/// The same for the catalogue's entry at `index`, without looking for it.
pub fn warnings_at(catalog: &Catalog, index: usize) -> Vec<String> {
    catalog
        .lookalikes
        .warnings(index)
        .iter()
        .map(|warning| warning.describe(&catalog.registry.entries))
        .collect()
}

/// The warnings, one paragraph each; nothing when there are none.
#[component]
pub fn LookalikeWarnings(
    /// The sentences ([`warnings_of`]).
    warnings: Vec<String>,
    /// Extra classes of the list (its margins where it is placed).
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    (!warnings.is_empty()).then(|| {
        view! {
            // Notes, one paragraph each: a list item cannot be a note.
            <div class=format!("lookalike-warnings space-y-1 text-sm text-amber-900 dark:text-amber-200 {class}")>
                {warnings
                    .into_iter()
                    .map(|text| view! {
                        <p role="note"><strong class="font-semibold">"Look-alike: "</strong>{text}</p>
                    })
                    .collect_view()}
            </div>
        }
    })
}
