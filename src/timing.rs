//! User Timing marks and measures (`performance.mark` / `measure`), read by `cargo xtask bench`
//! and the end-to-end tests: `acp:parse`, `acp:parse+index`, `acp:take-over`, `acp:warm-up`.

use leptos::prelude::window;

/// Marks `name` now.
pub fn mark(name: &str) {
    if let Some(performance) = window().performance() {
        let _ = performance.mark(name);
    }
}

/// Measures `name` from the latest mark `start` to the latest mark `end`.
pub fn measure(name: &str, start: &str, end: &str) {
    if let Some(performance) = window().performance() {
        let _ = performance.measure_with_start_mark_and_end_mark(name, start, end);
    }
}
