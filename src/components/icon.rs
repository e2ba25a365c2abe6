//! Agent icons drawn in the theme's text colour.
//!
//! Registry icons are monochrome SVGs drawn in `currentColor`. Inlining their markup would run
//! untrusted SVG in the page, and an `<img>` cannot inherit the text colour, so the icon is used
//! as a CSS mask over a `currentColor` background: the shape comes from the file, the colour
//! from the theme. The mask is drawn at once, so a page rendered at build time shows its icons
//! in the first paint and the browser's copy draws the same. A mask that fails (missing file,
//! cross-origin without CORS) fails silently, so the app probes the same URL with an image that
//! is never added to the page (`crossorigin`, like the mask's request); if it fails, a monogram
//! of the name replaces the mask.
//!
//! Each URL is probed once for the page's lifetime: cards asking while a probe is under way wait
//! for its answer, and a card built again for an icon already probed (the results change on
//! every keystroke) shows the icon or monogram at once.

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;
use registry_core::Entry;

use crate::registry::{page_base, resolve, site_relative};

/// How the probe of an icon ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    Loaded,
    Failed,
}

/// Icon size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IconSize {
    /// 40 px, for cards.
    #[default]
    Card,
    /// 64 px, for page headers.
    Page,
}

impl IconSize {
    fn class(self) -> &'static str {
        match self {
            IconSize::Card => "h-10 w-10 text-lg",
            IconSize::Page => "h-16 w-16 text-3xl",
        }
    }
}

/// An entry's icon, or its monogram.
#[component]
pub fn AgentIcon(
    /// URL of the icon, already resolved ([`icon_url`]); `None` shows the monogram.
    url: Option<String>,
    /// The entry's name, for the monogram.
    name: String,
    /// Size.
    #[prop(optional)]
    size: IconSize,
) -> impl IntoView {
    let known = url.as_deref().map_or(Some(Probe::Failed), probed);
    let failed = RwSignal::new(known == Some(Probe::Failed));
    if let (Some(url), None) = (url.clone(), known) {
        // In the browser only: the build cannot tell, and draws the mask.
        Effect::new(move |_| probe(&url, failed));
    }
    let box_class = format!(
        "relative inline-flex shrink-0 items-center justify-center rounded-lg {}",
        size.class()
    );
    let mask_style = url.as_deref().map(mask_style).unwrap_or_default();
    let monogram = monogram(&name);
    view! {
        <span class=box_class aria-hidden="true">
            <Show
                when=move || failed.get()
                fallback=move || view! { <span class="icon-mask h-full w-full" style=mask_style.clone()></span> }
            >
                <span class="flex h-full w-full items-center justify-center rounded-lg border border-slate-300 font-semibold text-slate-600 dark:border-slate-600 dark:text-slate-300">
                    {monogram.clone()}
                </span>
            </Show>
        </span>
    }
}

/// An entry's icon URL: resolved against the registry's URL, used only when `http(s)`, and
/// written relative to the page's base when it is on the site ([`site_relative`]). (The listing
/// preview draws its uploaded icon from a `blob:` URL of its own, never from registry data.)
pub fn icon_url(entry: &Entry, registry_url: &str) -> Option<String> {
    let icon = entry.icon.as_deref()?;
    let resolved = resolve(icon, registry_url)?;
    let safe = registry_core::url::safe_link(&resolved)?;
    Some(site_relative(safe, &page_base()))
}

/// Where the probe of one URL stands.
enum Probing {
    /// Under way: the icons waiting for the answer, told whether it failed.
    Waiting(Vec<RwSignal<bool>>),
    /// Finished.
    Done(Probe),
}

thread_local! {
    /// Every probe of the page, by URL.
    static PROBES: RefCell<HashMap<String, Probing>> = RefCell::new(HashMap::new());
}

/// How an earlier probe of `url` ended, if one did.
fn probed(url: &str) -> Option<Probe> {
    PROBES.with(|probes| match probes.borrow().get(url) {
        Some(Probing::Done(probe)) => Some(*probe),
        _ => None,
    })
}

/// Tells `failed` how loading `url` as an image goes: at once if it was probed, else when the
/// probe under way (started now, if none is) ends.
fn probe(url: &str, failed: RwSignal<bool>) {
    let start = PROBES.with(|probes| {
        let mut probes = probes.borrow_mut();
        match probes.get_mut(url) {
            Some(Probing::Done(probe)) => {
                failed.set(*probe == Probe::Failed);
                false
            }
            Some(Probing::Waiting(waiting)) => {
                waiting.push(failed);
                false
            }
            None => {
                probes.insert(url.to_owned(), Probing::Waiting(vec![failed]));
                true
            }
        }
    });
    if start && load_image(url).is_none() {
        finish(url, Probe::Failed);
    }
}

/// Starts loading `url` into a detached image; `None` if the browser would not.
fn load_image(url: &str) -> Option<()> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    let image = web_sys::HtmlImageElement::new().ok()?;
    image.set_cross_origin(Some("anonymous"));
    let answer = |probe: Probe| {
        let url = url.to_owned();
        Closure::once_into_js(move || finish(&url, probe))
    };
    image.set_onload(Some(answer(Probe::Loaded).unchecked_ref()));
    image.set_onerror(Some(answer(Probe::Failed).unchecked_ref()));
    image.set_src(url);
    Some(())
}

/// Records how the probe of `url` ended and tells the icons waiting for it.
fn finish(url: &str, probe: Probe) {
    let waiting = PROBES.with(|probes| {
        let previous = probes
            .borrow_mut()
            .insert(url.to_owned(), Probing::Done(probe));
        match previous {
            Some(Probing::Waiting(waiting)) => waiting,
            _ => Vec::new(),
        }
    });
    for failed in waiting {
        // An icon whose card is gone has no signal any more.
        let _ = failed.try_set(probe == Probe::Failed);
    }
}

/// The CSS of the mask. `url` is an absolute URL serialised by the browser's URL parser, so it
/// holds no raw quotes, backslashes or newlines; those are still escaped so nothing can leave
/// the `url("…")` token.
pub fn mask_style(url: &str) -> String {
    let escaped: String = url
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\u{c}' => format!("\\{:x} ", c as u32).chars().collect(),
            c => vec![c],
        })
        .collect();
    format!("--icon:url(\"{escaped}\")")
}

/// The first letter or digit of the name, upper-cased (`?` when there is none).
pub fn monogram(name: &str) -> String {
    name.chars()
        .find(|c| c.is_alphanumeric())
        .map(upper_case)
        .unwrap_or_else(|| "?".to_owned())
}

/// `c` upper-cased, by the browser: the same Unicode mapping as `char::to_uppercase`, without
/// std's upper-case table (~12 KB) in the wasm.
#[cfg(target_arch = "wasm32")]
fn upper_case(c: char) -> String {
    js_sys::JsString::from(c).to_upper_case().into()
}

#[cfg(not(target_arch = "wasm32"))]
fn upper_case(c: char) -> String {
    c.to_uppercase().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monograms() {
        for (name, expected) in [
            ("Gemini CLI", "G"),
            ("  @acme/bot", "A"),
            ("ß", "SS"),
            ("", "?"),
            ("9router", "9"),
        ] {
            assert_eq!(monogram(name), expected, "{name:?}");
        }
    }

    #[test]
    fn mask_style_cannot_break_out_of_the_url_token() {
        assert_eq!(
            mask_style("https://x/a.svg"),
            "--icon:url(\"https://x/a.svg\")"
        );
        let hostile = mask_style("https://x/\");background:url(https://evil/\\\n");
        assert_eq!(hostile.matches('"').count(), 2, "{hostile}");
        assert!(!hostile.contains('\n'));
    }
}
