//! The ACP registry catalogue: a client-side Leptos app.
//!
//! `main.rs` only mounts [`App`]. The app fetches the registry once ([`registry`]) and shares
//! it through context; each page is one file under [`routes`]; reusable pieces are under
//! [`components`]. All searching, ranking, filtering and URL encoding is done by the
//! `registry_core` crate: components call it, they never re-implement it.
#![deny(missing_docs)]

pub mod app;
pub mod components;
pub mod config;
pub mod head;
pub mod near_viewport;
pub mod query_state;
pub mod registry;
pub mod routes;
pub mod visitor;

pub use app::App;
