//! The app: the router, and the state every page may read.
//!
//! `App` takes the registry state and the visitor as props and provides them, with `leptos_meta`,
//! the search an agent page was opened from ([`LastSearch`]) and whether the page shown is the
//! one the HTML arrived with ([`FirstPage`]), to a router based at `PUBLIC_URL`, inside the
//! frame every page shares ([`SiteShell`]). In the HTML written at build time for an ACP
//! registry, `App` also names the registry for the start-up script to download once the page
//! has been painted (`<meta name="acp-fetch">`).

use leptos::prelude::*;
use leptos_meta::{Meta, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::changes::{CHANGES, ChangesState};
use crate::clients::{CLIENTS, ClientsState};
use crate::components::compare::CompareBar;
use crate::components::deferred::Deferred;
use crate::components::shell::SiteShell;
use crate::config::{self, RegistryKind};
use crate::first_page::FirstPage;
use crate::query_state::LastSearch;
use crate::registry::RegistryState;
use crate::routes::{
    agent::AgentPage,
    catalogue::CataloguePage,
    changes::ChangesPage,
    clients::{ClientPage, ClientsPage},
    compare::ComparePage,
    not_found::NotFoundPage,
};
use crate::visitor::VisitorState;

/// The whole site.
#[component]
pub fn App(
    /// The registry pages show: loading in the browser, known at build time.
    registry: RegistryState,
    /// The visitor's platform: detected in the browser, assumed at build time.
    visitor: VisitorState,
    /// The files only some pages show: fetched by those pages in the browser, known at build
    /// time.
    files: SiteFiles,
    /// Whether the first page shown is one the HTML already had.
    #[prop(optional)]
    prerendered: bool,
) -> impl IntoView {
    provide_meta_context();
    provide_context(registry);
    provide_context(visitor);
    provide_context(files.changes);
    provide_context(files.clients);
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
                        <Route path=path!("/changes") view=ChangesPage />
                        <Route path=path!("/clients") view=ClientsPage />
                        <Route path=path!("/clients/:id") view=ClientPage />
                        <Route path=path!("/compare") view=ComparePage />
                        <Route path=path!("/agents/:id") view=AgentPage />
                        <Route path=path!("/extensions/:id") view=AgentPage />
                    </Routes>
                </Deferred>
                <CompareBar />
            </SiteShell>
        </Router>
    }
}

/// The files only some pages show, each fetched by those pages ([`crate::site_files`]).
#[derive(Clone, Copy, Debug)]
pub struct SiteFiles {
    /// The registry's change log (`/changes/`, an agent's History).
    pub changes: ChangesState,
    /// The client profiles (`/clients/`, a client's page, an agent's "In your editor").
    pub clients: ClientsState,
}

impl SiteFiles {
    /// Nothing asked for yet: the browser's, until a page wants a file.
    pub fn pending() -> SiteFiles {
        SiteFiles {
            changes: ChangesState::pending(&CHANGES),
            clients: ClientsState::pending(&CLIENTS),
        }
    }

    /// The files the build wrote, each if it wrote one.
    pub fn ready(
        changes: Option<registry_core::changes::ChangeLog>,
        clients: Option<registry_core::clients::Profiles>,
    ) -> SiteFiles {
        SiteFiles {
            changes: ChangesState::ready(&CHANGES, changes),
            clients: ClientsState::ready(&CLIENTS, clients),
        }
    }

    /// Asks for each file the page shows (`shows` says whether the page has a file's mark).
    pub fn want_shown(self, shows: &impl Fn(&'static str) -> bool) {
        if shows(self.changes.kind().mark) {
            self.changes.want();
        }
        if shows(self.clients.kind().mark) {
            self.clients.want();
        }
    }

    /// Whether each file the page shows is read or known to be missing: tracked.
    pub fn shown_settled(self, shows: &impl Fn(&'static str) -> bool) -> bool {
        (!shows(self.changes.kind().mark) || self.changes.settled())
            && (!shows(self.clients.kind().mark) || self.clients.settled())
    }

    /// The marks of the files, for finding which a page shows.
    pub fn marks(self) -> [&'static str; 2] {
        [self.changes.kind().mark, self.clients.kind().mark]
    }
}

/// In the HTML written at build time for an ACP registry, the registry the app will fetch
/// first, named for the start-up script (`src/start.js`, inlined by Trunk as `pattern_script`)
/// as `<meta name="acp-fetch" content=URL>`: it waits for the page's first paint (the HTML makes it alone)
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
