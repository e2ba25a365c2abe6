//! The app: router, the frame every page shares, and the state every page may read.
//!
//! `App` takes the registry state and the visitor as props and provides them, with `leptos_meta`,
//! to a router based at `PUBLIC_URL`; `SiteShell` is the frame (skip link, header, `<main>`,
//! footer), which the listing preview reuses. In the HTML written at build time for an ACP
//! registry, `App` also names the registry for the start-up script to download once the page
//! has been painted (`<meta name="acp-fetch">`).

use leptos::prelude::*;
use leptos_meta::{Meta, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use registry_core::SiteSettings;

use crate::components::deferred::Deferred;
use crate::components::edition::DataDates;
use crate::components::theme::ThemeToggle;
use crate::config::{self, RegistryKind};
use crate::first_page::FirstPage;
use crate::query_state::LastSearch;
use crate::registry::RegistryState;
use crate::routes::{agent::AgentPage, catalogue::CataloguePage, not_found::NotFoundPage};
use crate::visitor::VisitorState;

/// The whole site.
#[component]
pub fn App(
    /// The registry pages show: loading in the browser, known at build time.
    registry: RegistryState,
    /// The visitor's platform: detected in the browser, assumed at build time.
    visitor: VisitorState,
    /// Whether the first page shown is one the HTML already had.
    #[prop(optional)]
    prerendered: bool,
) -> impl IntoView {
    provide_meta_context();
    provide_context(registry);
    provide_context(visitor);
    provide_context(LastSearch::new());
    provide_context(FirstPage::new(prerendered));
    view! {
        <DataPreloads />
        <Router base=config::router_base()>
            <SiteShell>
                // While the app takes a page over, the page's frame is built in one task and
                // the page itself in the next ones.
                <Deferred>
                    <Routes fallback=|| view! { <NotFoundPage /> }>
                        <Route path=path!("/") view=CataloguePage />
                        <Route path=path!("/agents/:id") view=AgentPage />
                        <Route path=path!("/extensions/:id") view=AgentPage />
                    </Routes>
                </Deferred>
            </SiteShell>
        </Router>
    }
}

/// In the HTML written at build time for an ACP registry, the registry the app will fetch
/// first, named for the start-up script (`pattern_script` in `Trunk.toml`) as `<meta
/// name="acp-fetch" content=URL>`: it waits for the page's first paint (the HTML makes it alone)
/// and then has the fetch worker (`src/fetch-worker.js`, [`crate::registry`]'s `relay`)
/// download it off the page's thread while the wasm downloads beside it; the app takes that
/// download over. Nothing else is fetched before the app answers: the optional files wait for
/// the registry (see [`crate::registry`]). An AgentRegistry is paged live, and has none; the
/// app in the browser adds none either (the page it takes over had it).
#[component]
fn DataPreloads() -> impl IntoView {
    let wanted = cfg!(not(target_arch = "wasm32")) && config::registry_kind() == RegistryKind::Acp;
    wanted
        .then(|| view! { <Meta name=FETCH_META content=config::settings().registry_url.trim() /> })
}

/// The name of the `<meta>` naming the registry, for the fetch worker to download once the page
/// has been painted.
pub const FETCH_META: &str = "acp-fetch";

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
                    <img src=format!("{}favicon.svg", config::public_url()) alt="" width="24" height="24" />
                    <span>{config::site_name()}</span>
                </a>
                <ThemeToggle />
            </div>
        </header>
    }
}

/// The site's footer: what the site is, and for an ACP registry, how old the data shown is
/// (when the page has a registry: not in the listing preview).
#[component]
pub fn SiteFooter() -> impl IntoView {
    let dates = use_context::<RegistryState>()
        .filter(|_| config::registry_kind() == RegistryKind::Acp)
        .map(|registry| {
            move || {
                registry.latest().map(|loaded| {
                    let probe = loaded.catalog.matrix.as_ref().and_then(|m| m.day());
                    let probe_configured =
                        SiteSettings::has_file(&config::settings().protocol_matrix_url);
                    view! { <DataDates edition=loaded.edition.clone() probe probe_configured /> }
                })
            }
        });
    let links = match config::registry_kind() {
        RegistryKind::Acp => view! {
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
        RegistryKind::AgentRegistry => view! {
            <span>"The agents registered with this AgentRegistry, read live from its discovery API."</span>
        }
        .into_any(),
    };
    view! {
        <footer class="border-t border-slate-200 py-6 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
            <div class="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2 px-4 sm:px-6">{links}{dates}</div>
        </footer>
    }
}
