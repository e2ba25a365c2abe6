//! Every page's frame: the skip link, the header (the site's name and the theme toggle), the
//! page as `<main>`, and the footer (what the site is and, for an ACP registry, how old the data
//! shown is). The app's router renders every page inside [`SiteShell`]; the listing preview
//! reuses it around its own page.

use leptos::prelude::*;
use registry_core::SiteSettings;

use crate::changes::{CHANGES_PAGE, use_changes};
use crate::clients::{CLIENTS_PAGE, use_clients};
use crate::components::edition::DataDates;
use crate::components::theme::ThemeToggle;
use crate::config::{self, RegistryKind};
use crate::registry::RegistryState;

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

/// The site's header: its name (a link home), what changed and the clients (in an app of an ACP
/// registry that has them: not the listing preview) and the theme toggle.
#[component]
pub fn SiteHeader() -> impl IntoView {
    let acp = config::registry_kind() == RegistryKind::Acp;
    let link = |href: &str, text: &'static str| {
        view! {
            <a class="text-sm text-slate-700 underline-offset-4 hover:underline dark:text-slate-300" href=config::href(href)>
                {text}
            </a>
        }
    };
    let changes = (acp && use_changes().is_some()).then(|| link(CHANGES_PAGE, "What changed"));
    let clients = (acp && use_clients().is_some()).then(|| link(CLIENTS_PAGE, "Clients"));
    view! {
        <header class="border-b border-slate-200 dark:border-slate-800">
            <div class="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
                <a href=config::href("/") class="flex items-center gap-2 font-semibold tracking-tight">
                    <img src=format!("{}favicon.svg", config::public_url()) alt="" width="24" height="24" />
                    <span>{config::site_name()}</span>
                </a>
                <nav aria-label="Site" class="flex items-center gap-4">{changes}{clients}<ThemeToggle /></nav>
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
