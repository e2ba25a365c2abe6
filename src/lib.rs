//! The ACP registry catalogue: a Leptos app that renders in the browser and, natively, to HTML.
//!
//! The same components run on both sides. At build time [`render`] writes every page's HTML
//! from the registry known then; in the browser [`boot`] loads the live registry and takes the
//! page over without a visible change. Each page is one file under [`routes`]; reusable pieces
//! are under [`components`]; [`registry`] holds the registry on screen and its loading. All
//! searching, ranking, filtering and URL encoding is done by the `registry_core` crate:
//! components call it, they never re-implement it.
#![deny(missing_docs)]

pub mod app;
pub mod boot;
pub mod changes;
pub mod clients;
pub mod components;
pub mod config;
#[cfg(not(target_arch = "wasm32"))]
pub mod feeds;
pub mod first_page;
pub mod head;
#[cfg(not(target_arch = "wasm32"))]
pub mod history;
pub mod near_viewport;
pub mod offline;
pub mod query_state;
pub mod registry;
#[cfg(not(target_arch = "wasm32"))]
pub mod render;
pub mod routes;
pub mod site_files;
pub mod timing;
pub mod visitor;

pub use app::App;
