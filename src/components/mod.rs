//! Reusable views.

pub mod card;
pub mod facets;
pub mod highlight;
pub mod icon;
pub mod notices;
pub mod search_box;
pub mod theme;
