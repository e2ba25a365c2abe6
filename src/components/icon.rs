//! Agent icons drawn in the theme's text colour.
//!
//! Registry icons are monochrome SVGs drawn in `currentColor`. Inlining their markup would run
//! untrusted SVG in the page, and an `<img>` cannot inherit the text colour, so the icon is used
//! as a CSS mask over a `currentColor` background: the shape comes from the file, the colour
//! from the theme. The mask's URL is never a `style` attribute (the site's
//! Content-Security-Policy allows none): in the browser it is set through the CSSOM
//! (`element.style.setProperty`), and a page rendered at build time names it by a class
//! ([`icon_class`]) whose rule is in the build's [`ICONS_CSS`] ([`rendered_icons_css`]), so the
//! page shows its icons in the first paint and the browser's copy draws the same. A mask that fails (missing file,
//! cross-origin without CORS) fails silently, so the app probes the same URL with an image that
//! is never added to the page (`crossorigin`, like the mask's request); if it fails, a monogram
//! of the name replaces the mask.
//!
//! Each URL is probed once for the page's lifetime: cards asking while a probe is under way wait
//! for its answer, and a card built again for an icon already probed (the results change on
//! every keystroke) shows the icon or monogram at once.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

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
    let mask_class = format!(
        "icon-mask h-full w-full {}",
        url.as_deref().map(icon_class).unwrap_or_default()
    );
    if let Some(url) = &url {
        remember_rendered(url);
    }
    let mask_ref = NodeRef::<leptos::html::Span>::new();
    if let Some(url) = url.clone() {
        // In the browser only: the CSSOM, which the policy allows, where a `style` attribute
        // would be refused.
        Effect::new(move |_| {
            if let Some(mask) = mask_ref.get() {
                let mask: &web_sys::HtmlElement = &mask;
                let _ = mask.style().set_property("--icon", &mask_value(&url));
            }
        });
    }
    let monogram = monogram(&name);
    view! {
        <span class=box_class aria-hidden="true">
            <Show
                when=move || failed.get()
                fallback=move || view! { <span class=mask_class.clone() node_ref=mask_ref></span> }
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

/// The CSS value of the mask, `url("…")`. `url` is an absolute URL serialised by the browser's
/// URL parser, so it holds no raw quotes, backslashes or newlines; those are still escaped so
/// nothing can leave the `url("…")` token.
pub fn mask_value(url: &str) -> String {
    let escaped: String = url
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\u{c}' => format!("\\{:x} ", c as u32).chars().collect(),
            c => vec![c],
        })
        .collect();
    format!("url(\"{escaped}\")")
}

/// The build's stylesheet of the icons its pages show, beside `index.html` (linked from every
/// page the build renders, and resolved, like the pages' URLs, against their `<base>`).
pub const ICONS_CSS: &str = "icons.css";

/// The class that gives an icon's mask its URL in [`ICONS_CSS`]: `icon-` and a 64-bit FNV-1a
/// hash of the URL, so the same URL has the same class in every page and in the browser.
pub fn icon_class(url: &str) -> String {
    let hash = url.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("icon-{hash:016x}")
}

thread_local! {
    /// The icons rendered (natively, at build time) since the last [`rendered_icons_css`], by
    /// class.
    static RENDERED: RefCell<BTreeMap<String, String>> = const { RefCell::new(BTreeMap::new()) };
}

/// Notes that a page being rendered at build time shows `url` (never in the browser, which
/// sets the mask itself).
fn remember_rendered(url: &str) {
    if cfg!(not(target_arch = "wasm32")) {
        RENDERED.with(|rendered| {
            rendered
                .borrow_mut()
                .insert(icon_class(url), mask_value(url));
        });
    }
}

/// The stylesheet of every icon rendered since the last call (one rule a class, sorted), and
/// forgets them: what the build writes into [`ICONS_CSS`].
pub fn rendered_icons_css() -> String {
    RENDERED.with(|rendered| {
        std::mem::take(&mut *rendered.borrow_mut())
            .into_iter()
            .map(|(class, value)| format!(".{class}{{--icon:{value}}}\n"))
            .collect()
    })
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
    fn the_mask_cannot_break_out_of_the_url_token() {
        assert_eq!(mask_value("https://x/a.svg"), "url(\"https://x/a.svg\")");
        let hostile = mask_value("https://x/\");background:url(https://evil/\\\n");
        assert_eq!(hostile.matches('"').count(), 2, "{hostile}");
        assert!(!hostile.contains('\n'));
    }

    #[test]
    fn rendered_icons_are_one_rule_a_class() {
        let _ = rendered_icons_css();
        for url in ["./b.svg", "./a.svg", "./b.svg"] {
            remember_rendered(url);
        }
        let css = rendered_icons_css();
        let (a, b) = (icon_class("./a.svg"), icon_class("./b.svg"));
        assert_ne!(a, b);
        assert_eq!(a.len(), "icon-".len() + 16);
        let mut rules = [
            format!(".{a}{{--icon:url(\"./a.svg\")}}\n"),
            format!(".{b}{{--icon:url(\"./b.svg\")}}\n"),
        ];
        rules.sort();
        assert_eq!(css, rules.concat());
        assert_eq!(rendered_icons_css(), "", "forgotten once taken");
    }
}
