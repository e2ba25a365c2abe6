//! When work runs: after the next frame, or when the browser is idle; and the User Timing marks
//! and measures (`performance.mark` / `measure`) read by `cargo xtask bench` and the end-to-end
//! tests: `acp:parse`, `acp:parse+index`, `acp:take-over`, `acp:warm-up`.

use std::rc::Rc;
use std::time::Duration;

use leptos::prelude::{
    Effect, ReadSignal, RwSignal, Set, WithUntracked, request_animation_frame,
    request_idle_callback_with_handle, set_timeout, window,
};

/// Runs `f` in a task after the next frame: what that frame shows does not wait for it.
pub fn after_next_frame(f: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(f, Duration::ZERO));
}

/// What `source` reads, one frame later: a signal that starts as `source`'s value and takes each
/// new value in a task after the next frame (the latest wins), for what a keystroke's frame need
/// not wait for. Once its owner is gone, values still on their way are dropped.
pub fn one_frame_later<T>(source: impl Fn() -> T + 'static) -> ReadSignal<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let later = RwSignal::new(leptos::prelude::untrack(&source));
    Effect::new(move |_| {
        let value = source();
        after_next_frame(move || {
            if later.try_with_untracked(|shown| *shown != value) == Some(true) {
                later.try_set(value);
            }
        });
    });
    later.read_only()
}

/// Runs `f` when the browser is idle (`requestIdleCallback`), or after a short wait where it
/// has no idle callbacks (Safari).
pub fn when_idle(f: impl Fn() + 'static) {
    let f = Rc::new(f);
    let fallback = Rc::clone(&f);
    if request_idle_callback_with_handle(move || f()).is_err() {
        set_timeout(move || fallback(), Duration::from_millis(50));
    }
}

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
