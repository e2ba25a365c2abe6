//! What the page knows of each icon URL: each is read once for the page's lifetime, measured,
//! and kept as a `blob:` URL of exactly the text measured, or as why it is refused.
//!
//! A browser draws an SVG on the page's main thread, so the app fetches an icon itself (in CORS
//! mode, as the mask would), refuses it past `icon_bounds::MAX_BYTES` without reading further,
//! and measures it (`registry_core::icon_measure`) before anything draws it.
//!
//! Icons asking while a read is under way wait for its answer, and an icon built again for a URL
//! already read (the results change on every keystroke) shows the icon or monogram at once.
//! Reads start in a task after the next frame (`start_reads`): the frame that shows a
//! keystroke's new cards is not spent starting their downloads. The icons the page the app took
//! over had drawn ([`remember_drawn`]) are drawn again at once from their URL while checked.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use leptos::prelude::*;
use registry_core::icon_bounds::MAX_BYTES;
use registry_core::icon_measure::{Unfit, measure_icon};

use super::{Check, Refusal, icon_class};
use crate::timing::after_next_frame;

/// Where the check of one URL stands.
enum Checking {
    /// Under way: the icons waiting for the answer.
    Waiting(Vec<RwSignal<Option<Check>>>),
    /// Finished.
    Done(Check),
}

thread_local! {
    /// Every check of the page, by URL.
    static CHECKS: RefCell<HashMap<String, Checking>> = RefCell::new(HashMap::new());
    /// The URLs whose reads start after the next frame ([`start_reads`]).
    static READS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// The icon classes of the masks the page the app took over had drawn (see
    /// [`remember_drawn`]).
    static DRAWN: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
}

/// Notes the icons a page rendered at build time drew, before the app takes it over: those it
/// draws again at once (from their URL, as the page did) while checking them.
pub fn remember_drawn(root: &web_sys::Element) {
    let Ok(masks) = root.query_selector_all(".icon-mask") else {
        return;
    };
    DRAWN.with(|drawn| {
        let mut drawn = drawn.borrow_mut();
        for i in 0..masks.length() {
            let Some(element) = masks
                .get(i)
                .and_then(|node| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(node).ok())
            else {
                continue;
            };
            let list = element.class_list();
            for j in 0..list.length() {
                if let Some(class) = list
                    .item(j)
                    .filter(|c| c.starts_with("icon-") && c != "icon-mask")
                {
                    drawn.insert(class);
                }
            }
        }
    });
}

/// Whether the page the app took over drew the icon at `url`.
pub(super) fn drawn_by_page(url: &str) -> bool {
    let class = icon_class(url);
    DRAWN.with(|drawn| drawn.borrow().contains(&class))
}

/// How an earlier check of `url` ended, if one did.
pub(super) fn checked(url: &str) -> Option<Check> {
    CHECKS.with(|checks| match checks.borrow().get(url) {
        Some(Checking::Done(check)) => Some(check.clone()),
        _ => None,
    })
}

/// Tells `result` how checking `url` goes: at once if it was checked, else when the check
/// under way (started now, if none is) ends.
pub(super) fn check(url: &str, result: RwSignal<Option<Check>>) {
    let start = CHECKS.with(|checks| {
        let mut checks = checks.borrow_mut();
        match checks.get_mut(url) {
            Some(Checking::Done(check)) => {
                result.set(Some(check.clone()));
                false
            }
            Some(Checking::Waiting(waiting)) => {
                waiting.push(result);
                false
            }
            None => {
                checks.insert(url.to_owned(), Checking::Waiting(vec![result]));
                true
            }
        }
    });
    if start {
        let first = READS.with(|reads| {
            let mut reads = reads.borrow_mut();
            reads.push(url.to_owned());
            reads.len() == 1
        });
        if first {
            after_next_frame(start_reads);
        }
    }
}

/// Starts the reads asked for since the last frame: in a task after it, so that the frame
/// showing new cards (a keystroke's) is not spent starting their icons' downloads.
fn start_reads() {
    for url in READS.with(|reads| std::mem::take(&mut *reads.borrow_mut())) {
        leptos::task::spawn_local(async move {
            let check = read_icon(&url).await;
            finish(&url, check);
        });
    }
}

/// Fetches the icon at `url` (at most [`MAX_BYTES`] of it) and measures it.
async fn read_icon(url: &str) -> Check {
    use crate::registry::http::{self, GetError, Options};

    let options = Options {
        limit: Some(MAX_BYTES),
        ..Options::default()
    };
    let fetched = match http::get(url, &options, &|_| {}).await {
        Ok(fetched) => fetched,
        Err(GetError::TooLarge(too_large)) => {
            return Check::Refused(Refusal::Unfit(Unfit::TooLarge {
                found: too_large.found,
            }));
        }
        Err(GetError::Failed(error)) => {
            return Check::Refused(Refusal::Unavailable(error.headline()));
        }
    };
    let text = match fetched.text(url) {
        Ok(text) => text,
        Err(error) => return Check::Refused(Refusal::Unavailable(error.headline())),
    };
    if let Err(unfit) = measure_icon(&text) {
        return Check::Refused(Refusal::Unfit(unfit));
    }
    match blob_url(&text) {
        Some(blob) => Check::Drawable(blob),
        None => Check::Refused(Refusal::Unavailable(
            "the browser could not hold it".to_owned(),
        )),
    }
}

/// A `blob:` URL of `svg`, for the mask.
fn blob_url(svg: &str) -> Option<String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(svg));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}

/// Records how the check of `url` ended and tells the icons waiting for it.
fn finish(url: &str, check: Check) {
    let waiting = CHECKS.with(|checks| {
        let previous = checks
            .borrow_mut()
            .insert(url.to_owned(), Checking::Done(check.clone()));
        match previous {
            Some(Checking::Waiting(waiting)) => waiting,
            _ => Vec::new(),
        }
    });
    for result in waiting {
        // An icon whose card is gone has no signal any more.
        let _ = result.try_set(Some(check.clone()));
    }
}
