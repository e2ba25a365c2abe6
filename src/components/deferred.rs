//! Building a page in slices while the app takes it over.
//!
//! When the app takes over a page the HTML already shows ([`crate::boot`]), it renders the
//! same page into a detached element and swaps it in once whole. Built in one go, that is one
//! long task (hundreds of milliseconds on a slow phone for the catalogue's first 48 cards), in
//! which the page the visitor sees cannot answer a tap or a keystroke. So, while a take-over is
//! under way ([`begin`]), each [`Deferred`] part renders nothing at first and waits in a queue;
//! the take-over reveals the queue a few parts per task ([`reveal`]), yielding to the browser
//! between tasks, and swaps the page in when the queue is empty ([`end`]). Nothing of this is
//! seen: the element is detached until then. Outside a take-over (and always in the build's
//! native render) a [`Deferred`] part renders at once.

use std::cell::RefCell;
use std::collections::VecDeque;

use leptos::prelude::*;

thread_local! {
    /// The parts waiting to render, while a take-over is under way.
    static QUEUE: RefCell<Option<VecDeque<ArcRwSignal<bool>>>> = const { RefCell::new(None) };
}

/// A take-over starts: [`Deferred`] parts created from now on wait to be revealed.
pub fn begin() {
    QUEUE.with(|queue| *queue.borrow_mut() = Some(VecDeque::new()));
}

/// Reveals up to `parts` waiting parts, in the order they were created (the revealed ones may
/// add more to the queue: a part inside a part).
pub fn reveal(parts: usize) {
    let revealed: Vec<_> = QUEUE.with(|queue| {
        queue.borrow_mut().as_mut().map_or_else(Vec::new, |queue| {
            let n = parts.min(queue.len());
            queue.drain(..n).collect()
        })
    });
    for part in revealed {
        part.set(true);
    }
}

/// How many parts are waiting.
pub fn waiting() -> usize {
    QUEUE.with(|queue| queue.borrow().as_ref().map_or(0, VecDeque::len))
}

/// The take-over is done: any part still waiting is revealed, and parts render at once again.
pub fn end() {
    let rest = QUEUE
        .with(|queue| queue.borrow_mut().take())
        .unwrap_or_default();
    for part in rest {
        part.set(true);
    }
}

/// A part of a page that, during a take-over, renders when its turn comes.
#[component]
pub fn Deferred(children: Children) -> impl IntoView {
    let turn = QUEUE.with(|queue| {
        queue.borrow_mut().as_mut().map(|queue| {
            let shown = ArcRwSignal::new(false);
            queue.push_back(shown.clone());
            shown
        })
    });
    match turn {
        None => children().into_any(),
        Some(shown) => {
            let mut children = Some(children);
            // Runs again only when `shown` changes, once: what the children read as they are
            // built is theirs to track.
            (move || {
                shown
                    .get()
                    .then(|| children.take().map(|children| untrack(children)))
                    .flatten()
            })
            .into_any()
        }
    }
}
