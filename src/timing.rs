//! When work runs: after the next frame, when the browser is idle, after a wait ([`sleep`]), or
//! in slices with the browser's turn between them ([`Slices`], [`yield_now`]); the clocks it is
//! timed by ([`now`], [`clock`]); and the User Timing marks and measures (`performance.mark` /
//! `measure`) read by `cargo xtask bench` and the end-to-end tests: `acp:parse`,
//! `acp:parse+index`, `acp:take-over`, `acp:warm-up`.

use std::rc::Rc;
use std::time::Duration;

use js_sys::Promise;
use leptos::prelude::{
    Effect, ReadSignal, RwSignal, Set, WithUntracked, request_animation_frame,
    request_idle_callback_with_handle, set_timeout, window,
};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

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

/// Milliseconds since the Unix epoch, by the visitor's clock; `0` at build time, where there is
/// no visitor.
pub fn now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

/// Milliseconds since the page started, to a fraction of one (`performance.now()`), for timing
/// work in the browser.
pub fn clock() -> f64 {
    window()
        .performance()
        .map_or_else(now, |performance| performance.now())
}

/// A future that is ready after `duration`.
pub async fn sleep(duration: Duration) {
    let promise = Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(
            &resolve,
            duration.as_millis() as i32,
        );
    });
    let _ = JsFuture::from(promise).await;
}

/// Gives the browser a turn (to paint, to answer input), then resumes: through
/// `scheduler.yield()` where the browser has it, which resumes ahead of the tasks queued
/// meanwhile and is never delayed; else a task later (`setTimeout`, which browsers delay by
/// 4 ms once nested, so that slices of work would idle a quarter of the time).
pub async fn yield_now() {
    let scheduler = js_sys::Reflect::get(&window(), &JsValue::from_str("scheduler"))
        .ok()
        .filter(|scheduler| scheduler.is_object());
    let yielded = scheduler.and_then(|scheduler| {
        let call = js_sys::Reflect::get(&scheduler, &JsValue::from_str("yield")).ok()?;
        let promise = call.dyn_ref::<js_sys::Function>()?.call0(&scheduler).ok()?;
        promise.dyn_into::<Promise>().ok()
    });
    match yielded {
        Some(promise) => {
            let _ = JsFuture::from(promise).await;
        }
        None => sleep(Duration::ZERO).await,
    }
}

/// How long the page's thread works before the browser gets a turn, in milliseconds: a quarter
/// of the 50 ms of a long task, so that a phone four times slower than the machine measuring
/// (Lighthouse's mobile visitor) sees none either.
pub const SLICE: f64 = 12.0;

/// Work cut into slices of about [`SLICE`] milliseconds.
#[derive(Debug)]
pub struct Slices {
    started: f64,
}

impl Slices {
    /// A first slice, starting now.
    pub fn start() -> Slices {
        Slices { started: clock() }
    }

    /// Gives the browser a turn if this slice has run its time.
    pub async fn pause_when_due(&mut self) {
        if clock() - self.started >= SLICE {
            self.pause().await;
        }
    }

    /// Gives the browser a turn, and starts a new slice.
    pub async fn pause(&mut self) {
        yield_now().await;
        self.started = clock();
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
