//! Reusable views. Components take the data they show as props; they never import a page
//! (`routes`), and state shared by siblings comes from their parent.
//!
//! So `AgentCard` takes its entry, icon and highlights, `EntryDetails` its entry, icon and facts
//! (probe report, listing), and `ServiceDetails` its entry, AgentRegistry record and base URL.

pub mod card;
pub mod code_block;
pub mod compare;
pub mod copy_button;
pub mod deferred;
pub mod edition;
pub mod entry;
pub mod facets;
pub mod highlight;
pub mod history;
pub mod icon;
pub mod link;
pub mod lookalike;
pub mod manifest;
pub mod notices;
pub mod search_box;
pub mod section;
pub mod service;
pub mod service_details;
pub mod shell;
pub mod tabs;
pub mod theme;
pub mod verdicts;
