//! One page per file. Pages import components and app state, never the other way round.

pub mod agent;
pub mod catalogue;
pub mod changes;
pub mod clients;
pub mod compare;
pub mod not_found;
