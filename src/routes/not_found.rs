//! Any path the site does not have; also the page of `404.html`, which static hosts serve for
//! every unknown address.

use leptos::prelude::*;

use crate::config;
use crate::head::PageHead;
use crate::registry::{Phase, use_registry};

/// "Page not found", with the way back; "Loading…" until the registry is there, since a static
/// host answers every address it does not have with this page, an agent's among them.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    let registry = use_registry();
    let loading = Memo::new(move |_| registry.phase() == Phase::Loading);
    move || {
        if loading.get() {
            view! { <p class="py-16 text-slate-500" role="status">"Loading…"</p> }.into_any()
        } else {
            view! { <NotFound /> }.into_any()
        }
    }
}

#[component]
fn NotFound() -> impl IntoView {
    view! {
        <PageHead
            title="Page not found".to_owned()
            description="There is nothing at this address."
        />
        <section class="py-16">
            <h1 class="text-3xl font-bold">"Page not found"</h1>
            <p class="mt-2 text-slate-600 dark:text-slate-400">"There is nothing at this address."</p>
            <a class="mt-6 inline-block text-indigo-700 underline hover:no-underline dark:text-indigo-300" href=config::href("/")>
                "← All agents"
            </a>
        </section>
    }
}
