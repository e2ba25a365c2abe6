//! Agent icons drawn in the theme's text colour, when they are small enough to draw.
//!
//! Registry icons are monochrome SVGs drawn in `currentColor`. Inlining their markup would run
//! untrusted SVG in the page, and an `<img>` cannot inherit the text colour, so the icon is used
//! as a CSS mask over a `currentColor` background: the shape comes from the file, the colour
//! from the theme. The mask's URL is never a `style` attribute (the site's
//! Content-Security-Policy allows none): in the browser it is set through the CSSOM
//! (`element.style.setProperty`), and a page rendered at build time names it by a class
//! ([`icon_class`]) whose rule is in the build's stylesheet ([`build_time`]).
//!
//! The app draws no icon it has not read and measured first ([`cache`]: each URL read once, its
//! text measured by `registry_core::icon_measure`), and draws the mask from a `blob:` URL of
//! exactly the text it measured, so that a second request cannot bring other bytes. An icon
//! that fails to load or is refused shows a monogram of the name instead ([`monogram`]), and
//! the agent page says why ([`IconSize::Page`]).
//!
//! A page rendered at build time draws in its first paint the icons the build read and measured
//! itself ([`build_time`]); one it refused is its monogram, and one it could not read an empty
//! tile the browser fills once it has read and measured it, so that no unmeasured icon is ever
//! drawn. When the app takes the page over, an icon the HTML already drew is drawn again at once
//! from its URL ([`cache::remember_drawn`]), so nothing flashes, and is checked like any other:
//! refused, it becomes the monogram.

pub mod build_time;
pub mod cache;

use leptos::either::EitherOf3;
use leptos::prelude::*;
use registry_core::Entry;
use registry_core::icon_measure::Unfit;

use crate::registry::{page_base, resolve, site_relative, size_words, thousands};

/// Why an icon is not drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// It could not be loaded: why, in a few words.
    Unavailable(String),
    /// Its text is unfit to draw: over a bound, or with entities or a forbidden element.
    Unfit(Unfit),
}

impl std::fmt::Display for Refusal {
    /// "the icon is 5.2 MB, more than the 64 KiB an icon may have".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Unavailable(why) => write!(f, "the icon could not be loaded ({why})"),
            Refusal::Unfit(Unfit::Forbidden(element)) => write!(
                f,
                "the icon has a <{element}> element, which an icon may not have"
            ),
            Refusal::Unfit(Unfit::Entities) => f.write_str(
                "the icon's <!DOCTYPE> declares entities, which can hide markup or blow up in size",
            ),
            Refusal::Unfit(Unfit::TooLarge { found }) => write!(
                f,
                "the icon is {} or more, over the 64 KiB an icon may have",
                size_words(*found)
            ),
            Refusal::Unfit(Unfit::TooComplex { what, found, limit }) => write!(
                f,
                "the icon has {} {what} or more, over the {} an icon may have",
                thousands(*found),
                thousands(*limit)
            ),
        }
    }
}

/// How the check of an icon ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Check {
    /// Within the bounds: the `blob:` URL of the text measured.
    Drawable(String),
    /// Not drawn, and why.
    Refused(Refusal),
}

/// Icon size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IconSize {
    /// 40 px, for cards.
    #[default]
    Card,
    /// 64 px, for page headers; a refused icon's reason is said beside it.
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
    let known = match url.as_deref() {
        None => Some(Check::Refused(Refusal::Unavailable(
            "none given".to_owned(),
        ))),
        // A `blob:` URL is the page's own, of a text it has sanitised (the listing preview's
        // upload): registry data never gives one ([`icon_url`]).
        Some(url) if url.starts_with("blob:") => Some(Check::Drawable(url.to_owned())),
        // At build time, only what the build read and measured (a file of the build) is drawn:
        // an icon elsewhere is left for the browser to read and measure first.
        Some(url) if cfg!(not(target_arch = "wasm32")) => build_time::read_by_build(url),
        Some(url) => cache::checked(url),
    };
    // Drawn from its URL at once, in the browser, when the page it takes over drew it already
    // (the build had measured it).
    let at_once = known.is_none() && url.as_deref().is_some_and(cache::drawn_by_page);
    let result = RwSignal::new(known.clone());
    if let (Some(url), None) = (url.clone(), known) {
        // In the browser only (effects do not run at build time).
        Effect::new(move |_| cache::check(&url, result));
    }
    let box_class = format!(
        "relative inline-flex shrink-0 items-center justify-center rounded-lg {}",
        size.class()
    );
    let original = url.clone().unwrap_or_default();
    let monogram = monogram(&name);
    let tile = move || match result.get() {
        Some(Check::Refused(_)) => EitherOf3::A(view! {
            <span class="flex h-full w-full items-center justify-center rounded-lg border border-slate-300 font-semibold text-slate-600 dark:border-slate-600 dark:text-slate-300">
                {monogram.clone()}
            </span>
        }),
        Some(Check::Drawable(_)) | None if at_once => EitherOf3::B(mask(original.clone())),
        Some(Check::Drawable(blob)) => EitherOf3::B(mask(blob)),
        None => EitherOf3::C(view! { <span class="h-full w-full"></span> }),
    };
    let reason = move || match (size, result.get()) {
        (IconSize::Page, Some(Check::Refused(refusal @ Refusal::Unfit(_)))) => Some(view! {
            <p class="mt-1 max-w-48 text-xs text-slate-600 dark:text-slate-400">
                {format!("Icon not shown: {refusal}.")}
            </p>
        }),
        _ => None,
    };
    view! {
        <span class="inline-flex shrink-0 flex-col">
            <span class=box_class aria-hidden="true">{tile}</span>
            {reason}
        </span>
    }
}

/// The mask drawing the icon at `url`: named by its class in a page rendered at build time
/// ([`build_time::remember_rendered`]), its URL set through the CSSOM in the browser.
fn mask(url: String) -> impl IntoView {
    build_time::remember_rendered(&url);
    let class = format!("icon-mask h-full w-full {}", icon_class(&url));
    let mask_ref = NodeRef::<leptos::html::Span>::new();
    // In the browser only: the CSSOM, which the policy allows, where a `style` attribute would
    // be refused.
    Effect::new(move |_| {
        if let Some(mask) = mask_ref.get() {
            let mask: &web_sys::HtmlElement = &mask;
            let _ = mask.style().set_property("--icon", &mask_value(&url));
        }
    });
    view! { <span class=class node_ref=mask_ref></span> }
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

/// The class that gives an icon's mask its URL in the build's stylesheet
/// ([`build_time::ICONS_CSS`]): `icon-` and a 64-bit FNV-1a hash of the URL, so the same URL has
/// the same class in every page and in the browser.
pub fn icon_class(url: &str) -> String {
    let hash = url.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("icon-{hash:016x}")
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
    fn refusals_say_what_is_over_which_bound() {
        assert_eq!(
            Refusal::Unfit(Unfit::TooLarge { found: 5_242_880 }).to_string(),
            "the icon is 5.2 MB or more, over the 64 KiB an icon may have"
        );
        assert_eq!(
            Refusal::Unfit(Unfit::TooComplex {
                what: "path segments",
                found: 880_000,
                limit: 10_000
            })
            .to_string(),
            "the icon has 880,000 path segments or more, over the 10,000 an icon may have"
        );
    }

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
}
