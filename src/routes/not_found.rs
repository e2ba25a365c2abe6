//! Any path the site does not have.

use leptos::prelude::*;

use crate::config;
use crate::head::use_title;

/// "Page not found", with the way back.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    use_title(|| format!("Page not found · {}", config::SITE_NAME));
    view! {
        <section class="py-16">
            <h1 class="text-3xl font-bold">"Page not found"</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">"There is nothing at this address."</p>
            <a class="mt-6 inline-block text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href("/")>
                "← All agents"
            </a>
        </section>
    }
}
