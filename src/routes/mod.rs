//! One page per file.

pub mod agent;
pub mod catalogue;
pub mod not_found;
pub mod service;
