//! Starting the app in the browser.
//!
//! Every page of the site arrives as HTML the build rendered from these same components
//! ([`crate::render`]), inside `<div id="app">`:
//!
//! - **A page with content** (`data-prerendered`: the catalogue, an agent page, the not-found
//!   page) stays as it is while the registry downloads. Once it is loaded (and the optional
//!   files — the protocol matrix, the JetBrains views, the quarantine list — and the visitor's
//!   platform are known, or a short wait is over; at once if the visitor has typed or ticked
//!   something, whose answer comes first: those files are held back until it is given), the
//!   app renders the same page into a detached element, in slices so that the page on screen keeps answering
//!   ([`deferred`]), and puts it in the old one's place in one step: the same markup, so
//!   nothing moves or flashes, and the page is live. What the visitor did meanwhile is kept:
//!   text typed into the search box and filters ticked before the build are applied to the
//!   address it starts from, those done during the build are done again on the live page
//!   ([`Pending`]), and the focused field keeps the focus and the caret. If the registry
//!   cannot be loaded, the page the HTML had stays, with a notice and a retry; if a copy was
//!   kept from an earlier visit, the app takes the page over with it, saying how old it is.
//! - **A shell** (a build for an AgentRegistry, or with no registry known at build time) shows
//!   the loading skeleton; the app replaces it at once and shows the progress itself.
//!
//! Beside either, fixed at the bottom of the window and mounted apart from the app, the
//! [`NetworkNotices`] say how loading goes (still waiting, a kept copy, a failure, the optional
//! files). Once the app is live, the service worker is registered ([`crate::offline`]), so
//! that the next visit works offline.
//!
//! The head tags the build wrote for the page sit between two comments
//! ([`HEAD_START`], [`HEAD_END`]); they go when the app takes over, since `leptos_meta` then
//! writes the live page's own, the same.
//!
//! `start` is the entry point's one call. `mount_in_place_of` (a new root swapped in for the old
//! one in one step) and `Focus` (the focused field and its selection, given back after the swap)
//! serve the listing preview's entry point too.

use std::time::Duration;

use any_spawner::Executor;
use leptos::mount::mount_to;
use leptos::prelude::*;
use registry_core::{CatalogQuery, Facet};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlTextAreaElement};

use crate::app::{App, SiteFiles};
use crate::components::deferred;
use crate::components::icon::cache::remember_drawn;
use crate::components::notices::NetworkNotices;
use crate::registry::{OptionalStatus, Phase, RegistryState, lookalikes};
use crate::timing::{clock, mark, measure};
use crate::visitor::VisitorState;

/// The id of the element the app renders into.
pub const ROOT_ID: &str = "app";
/// The attribute marking a root whose content is a whole page, to be taken over.
pub const PRERENDERED: &str = "data-prerendered";
/// The comment before the head tags the build rendered for the page.
pub const HEAD_START: &str = "page-head";
/// The comment after them.
pub const HEAD_END: &str = "/page-head";

/// How long a pre-rendered page waits for the optional files and the visitor's architecture
/// once the registry is there, before the app takes over without them (they follow when they
/// arrive).
const OPTIONAL_WAIT: Duration = Duration::from_millis(1500);

/// Starts the app: loads the registry and takes over the page, or mounts into the shell.
///
/// The steps run in tasks of their own, the downloads first: in one, with the wasm's
/// instantiation, they made a task of 100-140 ms at 4x CPU throttling (the first run of their
/// code, which the browser compiles as it is first called), right after the page had painted,
/// in which the page could not answer.
pub fn start() {
    let _ = Executor::init_wasm_bindgen();
    let owner = Owner::new();
    let (registry, visitor, files) = owner.with(|| {
        (
            RegistryState::shell(),
            VisitorState::detect(),
            SiteFiles::pending(),
        )
    });
    let root = document()
        .get_element_by_id(ROOT_ID)
        .unwrap_or_else(|| new_root().into());
    let prerendered = root.has_attribute(PRERENDERED);
    if prerendered {
        // Released once the page has answered what the visitor asked of it, or once the
        // registry is in if they asked nothing yet (`take_over_when_ready`).
        registry.hold_extras();
    }
    in_next_task(&owner, move || registry.load());
    in_next_task(&owner, move || {
        let notices = mount_to(new_notice_host(), move || {
            view! { <NetworkNotices registry prerendered /> }
        });
        notices.forget();
    });
    in_next_task(&owner, move || {
        if prerendered {
            remember_drawn(&root);
            take_over_when_ready(root, registry, visitor, files);
        } else {
            replace(&root, registry, visitor, files);
            crate::offline::register();
        }
    });
    // The app lives as long as the page.
    std::mem::forget(owner);
}

/// Runs `step` inside `owner` in a task of its own, after the tasks already queued.
fn in_next_task(owner: &Owner, step: impl FnOnce() + 'static) {
    let owner = owner.clone();
    set_timeout(move || owner.with(step), Duration::ZERO);
}

fn new_root() -> HtmlElement {
    let root = document()
        .create_element("div")
        .expect("a document can create elements")
        .unchecked_into::<HtmlElement>();
    root.set_id(ROOT_ID);
    if let Some(body) = document().body() {
        let _ = body.append_child(&root);
    }
    root
}

/// Waits for the registry, then takes the page over; shows a notice if it cannot be loaded.
///
/// Once the registry is in, a visitor who has typed or ticked something on the built page is
/// answered at once: the page is taken over without waiting for the optional files and the
/// look-alike check, which start only then (they fill in when they arrive). A visitor who has
/// not is shown nothing new, so the take-over waits for them (or [`OPTIONAL_WAIT`]), so that
/// what the build wrote from them never goes.
fn take_over_when_ready(
    root: Element,
    registry: RegistryState,
    visitor: VisitorState,
    files: SiteFiles,
) {
    let owner = Owner::current().expect("called inside the app's owner");
    // A page showing a file of its own (the change log, the client profiles) asks for it once
    // the registry is in, and is taken over once it is read, like the optional files.
    let marked: Vec<&'static str> = (files.marks().into_iter())
        .filter(|mark| {
            root.query_selector(&format!("[{mark}]"))
                .ok()
                .flatten()
                .is_some()
        })
        .collect();
    let shows = move |mark: &'static str| marked.contains(&mark);
    let waited = RwSignal::new(false);
    set_timeout(move || waited.set(true), OPTIONAL_WAIT);
    let asked = asked_of(&root);
    let done = StoredValue::new(false);
    let root = send_wrapper::SendWrapper::new(root);
    Effect::new(move |_| {
        let phase = registry.phase();
        let asked = asked.get();
        if phase == Phase::Ready && !asked {
            registry.release_extras();
        }
        if phase == Phase::Ready {
            files.want_shown(&shows);
        }
        // The page the build wrote says what the optional files say (probes, listings,
        // quarantine): taking it over before they are in would take that away, then give it
        // back.
        // So do its look-alike warnings, which the worker finds, and the facet counts those
        // files give, computed once they are in.
        let lookalikes_known = registry
            .latest()
            .is_none_or(|latest| latest.lookalikes != lookalikes::Check::Pending);
        let optional_known = registry
            .optional()
            .iter()
            .all(|(_, status)| *status != OptionalStatus::Pending)
            && visitor.settled.get()
            && lookalikes_known
            && registry.facets_current()
            && files.shown_settled(&shows)
            || waited.get();
        if done.get_value() {
            return;
        }
        match phase {
            Phase::Ready if optional_known || asked => {
                done.set_value(true);
                // In a task of its own, apart from reading the registry: neither blocks the
                // page for as long as both would.
                let root = root.clone();
                let owner = owner.clone();
                set_timeout(
                    move || owner.with(|| take_over(&root, registry, visitor, files)),
                    Duration::ZERO,
                );
            }
            Phase::Ready | Phase::Loading | Phase::Failed => {}
        }
    });
}

/// Whether the visitor has typed or ticked something in `root`: before the app started (its
/// fields differ from what the build wrote), or since (an `input` or `change` event).
fn asked_of(root: &Element) -> ReadSignal<bool> {
    let before = Pending::read(root);
    let (asked, set_asked) = signal(before.search.is_some() || !before.toggled.is_empty());
    let listener = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        if !asked.get_untracked() {
            set_asked.set(true);
        }
    });
    for event in ["input", "change"] {
        let _ = root.add_event_listener_with_callback_and_bool(
            event,
            listener.as_ref().unchecked_ref(),
            true,
        );
    }
    // The root is the page's until it is replaced, and the page's for its lifetime.
    listener.forget();
    asked
}

/// Puts the live page in the pre-rendered one's place, keeping what the visitor did. The live
/// page is built detached, in slices ([`deferred`]) so that the page on screen keeps answering
/// meanwhile, and swapped in once whole. User Timing measures `acp:take-over` how long it
/// took, from the start of the build to the frame after the swap.
fn take_over(root: &Element, registry: RegistryState, visitor: VisitorState, files: SiteFiles) {
    mark("acp:take-over-start");
    let before = Pending::read(root);
    before.apply_to_address();
    remove_prerendered_head();
    deferred::begin();
    let fresh = mount_detached(move || view! { <App registry visitor files prerendered=true /> });
    let root = root.clone();
    build_in_slices(move || {
        // What the visitor did while the live page was being built is done again on it, as
        // they did it: typed into its search box, ticked on its filters.
        let after = Pending::read(&root);
        let _ = root.replace_with_with_node_1(&fresh);
        deferred::end();
        after.replay_since(&before, &fresh);
        // The focused field is focused again at once: a key pressed before the next frame
        // goes to it, not to the page. Where the field is not there yet (the router renders
        // the page's route in a microtask after mounting), the next frame focuses it.
        after.restore_focus();
        request_animation_frame(move || {
            after.restore_focus_if_lost();
            registry.release_extras();
            crate::offline::register();
            mark("acp:taken-over");
            measure("acp:take-over", "acp:take-over-start", "acp:taken-over");
        });
    });
}

/// How long one slice of a take-over's build may take, in milliseconds: well under the 50 ms
/// after which a task is long, on a phone four times slower than the machine measuring it.
const SLICE_MS: f64 = 8.0;

/// Reveals the [`deferred`] parts of the page being built a few per task, yielding to the
/// browser between tasks, then calls `done`. How many parts a task reveals follows how long
/// the last task took (its rendering runs after the call that reveals, in the same task).
/// The turns are `setTimeout` tasks, not `scheduler.yield()` (`registry::http::yield_now`): a
/// yielded continuation runs ahead of the tasks queued meanwhile, and the page's other work
/// (timers included) must get its turn while the take-over builds.
fn build_in_slices(done: impl FnOnce() + 'static) {
    fn step(parts: usize, started: f64, done: Box<dyn FnOnce()>) {
        let now = clock();
        let took = now - started;
        let parts = if took < SLICE_MS / 2.0 {
            (parts * 2).min(32)
        } else if took > SLICE_MS {
            (parts / 2).max(1)
        } else {
            parts
        };
        if deferred::waiting() == 0 {
            done();
            return;
        }
        deferred::reveal(parts);
        set_timeout(move || step(parts, now, done), Duration::ZERO);
    }
    // The first task built the page around its parts; the next one starts revealing them.
    let started = clock();
    set_timeout(move || step(1, started, Box::new(done)), Duration::ZERO);
}

/// Renders the app into a new root and swaps it for the loading shell `old`, in one step.
fn replace(old: &Element, registry: RegistryState, visitor: VisitorState, files: SiteFiles) {
    mount_in_place_of(Some(old), move || view! { <App registry visitor files /> });
}

/// Renders `view` into a new root (`<div id="app">`) not yet in the document, for the page's
/// lifetime.
fn mount_detached<F, N>(view: F) -> HtmlElement
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    let fresh = document()
        .create_element("div")
        .expect("a document can create elements")
        .unchecked_into::<HtmlElement>();
    fresh.set_id(ROOT_ID);
    mount_to(fresh.clone(), view).forget();
    fresh
}

/// Renders `view` into a new root (`<div id="app">`) and puts it in place of `old` in one step
/// (or at the end of the body when there is none), for the page's lifetime: the page never
/// shows a half-built view.
pub fn mount_in_place_of<F, N>(old: Option<&Element>, view: F)
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    let fresh = mount_detached(view);
    match old {
        Some(old) => {
            let _ = old.replace_with_with_node_1(&fresh);
        }
        None => {
            if let Some(body) = document().body() {
                let _ = body.append_child(&fresh);
            }
        }
    }
}

/// The focused field of a page about to be replaced, and its selection, to give back to the
/// field with the same id in the new one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Focus {
    id: String,
    /// For a text field (`<input>`, `<textarea>`): the selection, or the caret.
    selection: Option<(u32, u32)>,
}

impl Focus {
    /// The focused element inside `root`, when it has an id.
    pub fn read(root: &Element) -> Option<Focus> {
        let active = document().active_element()?;
        if !root.contains(Some(&active)) || active.id().is_empty() {
            return None;
        }
        // A field without a selection (a checkbox) is still focused again, with none.
        let selection = if let Some(input) = active.dyn_ref::<HtmlInputElement>() {
            input
                .selection_start()
                .ok()
                .flatten()
                .zip(input.selection_end().ok().flatten())
        } else if let Some(area) = active.dyn_ref::<HtmlTextAreaElement>() {
            area.selection_start()
                .ok()
                .flatten()
                .zip(area.selection_end().ok().flatten())
        } else {
            None
        };
        Some(Focus {
            id: active.id(),
            selection,
        })
    }

    /// Focuses the element with the same id, and selects the same range in it.
    pub fn restore(&self) {
        let Some(element) = document()
            .get_element_by_id(&self.id)
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        else {
            return;
        };
        let _ = element.focus();
        let Some((start, end)) = self.selection else {
            return;
        };
        if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
            let _ = input.set_selection_range(start, end);
        } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
            let _ = area.set_selection_range(start, end);
        }
    }
}

/// Removes the head tags the build rendered for the page (see [`HEAD_START`]): the app's own
/// (`leptos_meta`) take their place.
pub fn remove_prerendered_head() {
    let Some(head) = document().head() else {
        return;
    };
    let mut inside = false;
    let mut node = head.first_child();
    while let Some(current) = node {
        node = current.next_sibling();
        let marker = (current.node_type() == web_sys::Node::COMMENT_NODE)
            .then(|| current.text_content().unwrap_or_default());
        match marker.as_deref() {
            Some(HEAD_START) => {
                inside = true;
                let _ = head.remove_child(&current);
            }
            Some(HEAD_END) => {
                let _ = head.remove_child(&current);
                break;
            }
            _ if inside => {
                let _ = head.remove_child(&current);
            }
            _ => {}
        }
    }
}

/// What the visitor did on the pre-rendered page before the app was live.
#[derive(Debug, Default)]
struct Pending {
    /// The search text, when it was changed.
    search: Option<String>,
    /// Filters ticked or unticked: `(query key, value)`, as the form fields name them.
    toggled: Vec<(String, String)>,
    /// The focused field.
    focus: Option<Focus>,
}

impl Pending {
    fn read(root: &Element) -> Pending {
        let mut pending = Pending::default();
        let inputs = root
            .query_selector_all("input")
            .map(|list| {
                (0..list.length())
                    .filter_map(|i| list.get(i))
                    .filter_map(|node| node.dyn_into::<HtmlInputElement>().ok())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        for input in &inputs {
            match input.type_().as_str() {
                "search" if input.value() != input.default_value() => {
                    pending.search = Some(input.value());
                }
                "checkbox" if input.checked() != input.default_checked() => {
                    pending.toggled.push((input.name(), input.value()));
                }
                _ => {}
            }
        }
        pending.focus = Focus::read(root);
        pending
    }

    /// Writes the search and filters into the address, so the app starts from them.
    fn apply_to_address(&self) {
        if self.search.is_none() && self.toggled.is_empty() {
            return;
        }
        let location = window().location();
        let search = location.search().unwrap_or_default();
        let mut query = CatalogQuery::from_query_string(&search);
        if let Some(text) = &self.search {
            query.q = text.clone();
        }
        // A checkbox's name is its group's key, its value the value's word.
        for (key, word) in &self.toggled {
            if let Some(value) = Facet::from_key(key).and_then(|facet| facet.parse(word)) {
                query.filters.toggle(value);
            }
        }
        let path = location.pathname().unwrap_or_default();
        let qs = query.to_query_string();
        let url = if qs.is_empty() {
            path
        } else {
            format!("{path}?{qs}")
        };
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }

    /// Does on the live page `fresh` what the visitor did on the pre-rendered one since
    /// `before` was read: the search text typed into its search box, the filters ticked or
    /// unticked since clicked, each firing the events a visitor's action fires.
    fn replay_since(&self, before: &Pending, fresh: &Element) {
        if self.search != before.search
            && let Some(search) = &self.search
            && let Some(input) = fresh
                .query_selector("input[type=search]")
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        {
            input.set_value(search);
            if let Ok(event) = web_sys::Event::new_with_event_init_dict("input", &{
                let init = web_sys::EventInit::new();
                init.set_bubbles(true);
                init
            }) {
                let _ = input.dispatch_event(&event);
            }
        }
        let changed = self
            .toggled
            .iter()
            .filter(|t| !before.toggled.contains(t))
            .chain(before.toggled.iter().filter(|t| !self.toggled.contains(t)));
        for (key, value) in changed {
            let checkbox = fresh
                .query_selector_all("input[type=checkbox]")
                .ok()
                .and_then(|list| {
                    (0..list.length())
                        .filter_map(|i| list.get(i))
                        .filter_map(|node| node.dyn_into::<HtmlInputElement>().ok())
                        .find(|input| input.name() == *key && input.value() == *value)
                });
            if let Some(checkbox) = checkbox {
                checkbox.click();
            }
        }
    }

    fn restore_focus(&self) {
        if let Some(focus) = &self.focus {
            focus.restore();
        }
    }

    /// [`Pending::restore_focus`], unless the field has the focus already: its caret is then
    /// where the keys typed since left it.
    fn restore_focus_if_lost(&self) {
        let focused = document().active_element().map(|active| active.id());
        if let Some(focus) = &self.focus
            && focused.as_deref() != Some(focus.id.as_str())
        {
            focus.restore();
        }
    }
}

/// A host for the notices, last in the body.
/// Says, above the page, that the site's settings could not be read, so the page stays as the
/// build wrote it, without its live features. The message is set as text.
pub fn show_settings_error(error: &registry_core::settings::SettingsError) {
    leptos::logging::error!("{error}");
    let Ok(notice) = document().create_element("div") else {
        return;
    };
    notice.set_attribute("role", "alert").ok();
    notice.set_class_name(
        "border-b border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
    );
    notice.set_text_content(Some(&format!(
        "This page works without its search and live registry: {error}."
    )));
    if let Some(body) = document().body() {
        body.insert_before(&notice, body.first_child().as_ref())
            .ok();
    }
}

fn new_notice_host() -> HtmlElement {
    let host = document()
        .create_element("div")
        .expect("a document can create elements")
        .unchecked_into::<HtmlElement>();
    if let Some(body) = document().body() {
        let _ = body.append_child(&host);
    }
    host
}
