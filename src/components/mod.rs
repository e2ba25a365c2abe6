//! Reusable views.

pub mod card;
pub mod code_block;
pub mod copy_button;
pub mod facets;
pub mod highlight;
pub mod icon;
pub mod notices;
pub mod search_box;
pub mod service;
pub mod tabs;
pub mod theme;
