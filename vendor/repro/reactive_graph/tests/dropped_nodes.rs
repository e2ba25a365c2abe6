//! Nodes created and dropped under a long-lived owner, or subscribed to a long-lived signal, must
//! not keep their memory: a page that re-renders a list keeps one owner and the same signals
//! while every row's owner, render effects and memos come and go.
//!
//! Each test counts the bytes its own thread holds on the heap (a counting global allocator), does
//! a round of 1,000 creations and drops to warm up, then 10,000 more, and allows a few kilobytes
//! of growth for those 10,000: kept nodes take a hundred bytes or more each.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use any_spawner::Executor;
use reactive_graph::computed::ArcMemo;
use reactive_graph::effect::RenderEffect;
use reactive_graph::owner::Owner;
use reactive_graph::signal::ArcRwSignal;
use reactive_graph::traits::{Get, GetUntracked};

/// The system allocator, counting the bytes allocated and not yet freed by each thread.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn add(bytes: isize) {
    // `try_with`: no counting while the thread's locals are being destroyed.
    let _ = LIVE.try_with(|live| live.set(live.get() + bytes));
}

// SAFETY: every call goes to `System` with the caller's arguments; counting allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        add(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.with(Cell::get)
}

const WARM_UP: usize = 1_000;
const ROUNDS: usize = 10_000;
/// Bytes the 10,000 rounds may leave: nothing kept per round, some slack for allocations made once.
const ALLOWED: isize = 8 * 1024;

fn assert_flat(what: &str, before: isize, after: isize) {
    let growth = after - before;
    assert!(
        growth <= ALLOWED,
        "{what}: {growth} bytes more on the heap after {ROUNDS} rounds ({} per round)",
        growth / ROUNDS as isize
    );
}

/// `Owner::child` and `Owner::new` under a current owner add the child to the parent's list of
/// children, which keeps a `Weak` (and so the child's allocation) until the parent is cleaned up.
#[test]
fn a_long_lived_owner_keeps_nothing_of_its_dropped_children() {
    let parent = Owner::new();
    let round = || drop(parent.child());
    (0..WARM_UP).for_each(|_| round());
    let before = live();
    (0..ROUNDS).for_each(|_| round());
    assert_flat("Owner::child", before, live());
}

/// A source lists its subscribers by `Weak` and forgets one only when the subscriber runs again,
/// which a dropped render effect never does.
#[tokio::test]
async fn a_long_lived_signal_keeps_nothing_of_dropped_render_effects() {
    Executor::init_tokio().unwrap();
    tokio::task::LocalSet::new()
        .run_until(async {
            let signal = ArcRwSignal::new(0);
            let round = async || {
                let signal = signal.clone();
                drop(RenderEffect::new(move |_| {
                    signal.get();
                }));
                // Lets the effect's task see it dropped, and end.
                tokio::task::yield_now().await;
            };
            for _ in 0..WARM_UP {
                round().await;
            }
            let before = live();
            for _ in 0..ROUNDS {
                round().await;
            }
            assert_flat("RenderEffect", before, live());
        })
        .await;
}

/// The same for a memo, which has no `Drop` of its own either.
#[test]
fn a_long_lived_signal_keeps_nothing_of_dropped_memos() {
    let signal = ArcRwSignal::new(0);
    let round = || {
        let signal = signal.clone();
        let memo = ArcMemo::new(move |_| signal.get());
        memo.get_untracked();
    };
    (0..WARM_UP).for_each(|_| round());
    let before = live();
    (0..ROUNDS).for_each(|_| round());
    assert_flat("ArcMemo", before, live());
}
