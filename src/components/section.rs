//! A section of an entry's page, with a heading that links to its own anchor.

use leptos::prelude::*;

/// `<section id=…>` with an `<h2>` and a `#` link to the section (shown on hover and focus).
#[component]
pub fn Section(
    /// The anchor (`run`, `editors`): the section's id, stable across releases.
    id: &'static str,
    /// The heading.
    title: &'static str,
    /// The page's own path (`/agents/gemini`), without the base path or the anchor.
    page: String,
    /// The section's content.
    children: Children,
) -> impl IntoView {
    let anchor = format!("{}#{id}", crate::config::href(&page));
    view! {
        <section id=id aria-labelledby=format!("{id}-heading") class="scroll-mt-4 border-t border-slate-200 py-8 dark:border-slate-800">
            <h2 id=format!("{id}-heading") class="group text-xl font-semibold">
                {title}
                <a href=anchor class="ml-2 text-slate-400 opacity-0 group-hover:opacity-100 focus:opacity-100" aria-label=format!("Link to {title}")>
                    "#"
                </a>
            </h2>
            {children()}
        </section>
    }
}
