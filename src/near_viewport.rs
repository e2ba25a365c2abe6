//! [`on_near_viewport`]: run a callback whenever an element comes near the viewport.
//!
//! The catalogue grows its list when the "Show more" row comes within a screen of view. This is
//! the browser's `IntersectionObserver` used directly: `leptos-use`'s generic observer (options
//! builder, signal-watching plumbing) cost more of the wasm than these lines.

use leptos::html::Div;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

/// Calls `on_near` each time the element of `target` comes within `margin` (a CSS margin such
/// as `"800px"`) of the viewport, from when it is mounted until the calling component goes.
pub fn on_near_viewport(target: NodeRef<Div>, margin: &'static str, on_near: impl Fn() + 'static) {
    target.on_load(move |element| {
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let near = entries.iter().any(|entry| {
                entry
                    .unchecked_into::<IntersectionObserverEntry>()
                    .is_intersecting()
            });
            if near {
                on_near();
            }
        });
        let options = IntersectionObserverInit::new();
        options.set_root_margin(margin);
        let Ok(observer) =
            IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &options)
        else {
            return;
        };
        observer.observe(&element);
        // Cleanups must be `Send`; this one only ever runs in the browser's single thread.
        let observer = SendWrapper::new((observer, callback));
        on_cleanup(move || observer.0.disconnect());
    });
}
