//! The catalogue's listing preview (`/preview/`), a bundle of its own.
//!
//! [`analysis`] is the pure part (the registry's rules via `registry-validate`, the entry via
//! `registry-core`), tested natively; [`page`] lays it out with the catalogue's own card and
//! agent-page components; [`excerpt`] finds the source line a problem points at.
#![deny(missing_docs)]

pub mod analysis;
pub mod excerpt;
pub mod page;

pub use page::PreviewApp;
