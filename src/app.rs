//! The app shell: router, header with the theme toggle, footer.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::components::theme::ThemeToggle;
use crate::config;
use crate::registry::provide_registry;
use crate::routes::agent::LastSearch;
use crate::routes::{agent::AgentPage, catalogue::CataloguePage, not_found::NotFoundPage};
use crate::visitor::provide_visitor;

/// The whole site.
#[component]
pub fn App() -> impl IntoView {
    provide_registry();
    provide_context(LastSearch(RwSignal::new(String::new())));
    provide_visitor();
    view! {
        <Router base=config::router_base()>
            <SiteShell>
                <Routes fallback=|| view! { <NotFoundPage /> }>
                    <Route path=path!("/") view=CataloguePage />
                    <Route path=path!("/agents/:id") view=AgentPage />
                    <Route path=path!("/extensions/:id") view=AgentPage />
                </Routes>
            </SiteShell>
        </Router>
    }
}

/// Every page's frame: the skip link, the header, `children` as the page's `<main>`, the
/// footer.
#[component]
pub fn SiteShell(children: Children) -> impl IntoView {
    view! {
        <a
            href="#main"
            class="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
        >
            "Skip to content"
        </a>
        <SiteHeader />
        <main id="main" class="mx-auto max-w-6xl px-4 pb-16 sm:px-6">{children()}</main>
        <SiteFooter />
    }
}

/// The site's header: its name (a link home) and the theme toggle.
#[component]
pub fn SiteHeader() -> impl IntoView {
    view! {
        <header class="border-b border-slate-200 dark:border-slate-800">
            <div class="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
                <a href=config::href("/") class="flex items-center gap-2 font-semibold tracking-tight">
                    <img src=format!("{}favicon.svg", config::PUBLIC_URL) alt="" width="24" height="24" />
                    <span>{config::SITE_NAME}</span>
                </a>
                <ThemeToggle />
            </div>
        </header>
    }
}

/// The site's footer.
#[component]
pub fn SiteFooter() -> impl IntoView {
    let links = match config::REGISTRY_KIND {
        config::RegistryKind::Acp => view! {
            <span>"Agents that speak the Agent Client Protocol."</span>
            <a class="underline hover:no-underline" href="https://agentclientprotocol.com" rel="noopener noreferrer">
                "About ACP"
            </a>
            <a class="underline hover:no-underline" href="https://github.com/agentclientprotocol/registry" rel="noopener noreferrer">
                "Add your agent"
            </a>
            // The preview is its own bundle, loaded on demand: a full page load, not a route.
            <a class="underline hover:no-underline" href=config::href("/preview/") rel="external">
                "Preview your listing"
            </a>
        }
        .into_any(),
        config::RegistryKind::AgentRegistry => view! {
            <span>"The agents registered with this AgentRegistry, read live from its discovery API."</span>
        }
        .into_any(),
    };
    view! {
        <footer class="border-t border-slate-200 py-6 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
            <div class="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2 px-4 sm:px-6">{links}</div>
        </footer>
    }
}
