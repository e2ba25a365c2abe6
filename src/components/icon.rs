//! Agent icons drawn in the theme's text colour.
//!
//! Registry icons are monochrome SVGs drawn in `currentColor`. Inlining their markup would run
//! untrusted SVG in the page, and an `<img>` cannot inherit the text colour, so the icon is used
//! as a CSS mask over a `currentColor` background: the shape comes from the file, the colour
//! from the theme. A mask that fails (missing file, cross-origin without CORS) fails silently,
//! so a hidden `<img crossorigin>` probes the same URL first; until it loads an empty box holds
//! the place, and if it fails a monogram of the name is shown instead.
//!
//! A probe's answer is remembered for the page's lifetime, so a card built again for an icon
//! already probed (the results change on every keystroke) shows the icon or monogram at once,
//! without another probe, image decode or blank frame.

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;

/// Where the probe of an icon is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    Loading,
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
    /// Absolute `http(s)` URL of the icon, already resolved; `None` shows the monogram.
    url: Option<String>,
    /// The entry's name, for the monogram.
    name: String,
    /// Size.
    #[prop(optional)]
    size: IconSize,
) -> impl IntoView {
    let known = url.as_deref().map_or(Some(Probe::Failed), probed);
    let probe = RwSignal::new(known.unwrap_or(Probe::Loading));
    let box_class = format!(
        "relative inline-flex shrink-0 items-center justify-center rounded-lg {}",
        size.class()
    );
    let mask_style = url.as_deref().map(mask_style).unwrap_or_default();
    let monogram = monogram(&name);
    view! {
        <span class=box_class aria-hidden="true">
            {url.filter(|_| known.is_none()).map(|url| {
                let src = url.clone();
                let answer = move |result| {
                    remember(&url, result);
                    probe.set(result);
                };
                let on_error = answer.clone();
                view! {
                    <img
                        src=src
                        crossorigin="anonymous"
                        alt=""
                        class="hidden"
                        on:load=move |_| answer(Probe::Loaded)
                        on:error=move |_| on_error(Probe::Failed)
                    />
                }
            })}
            <Show when=move || probe.get() == Probe::Loaded>
                <span class="icon-mask h-full w-full" style=mask_style.clone()></span>
            </Show>
            <Show when=move || probe.get() == Probe::Failed>
                <span class="flex h-full w-full items-center justify-center rounded-lg border border-slate-300 font-semibold text-slate-600 dark:border-slate-600 dark:text-slate-300">
                    {monogram.clone()}
                </span>
            </Show>
        </span>
    }
}

thread_local! {
    /// The answers of finished probes, by URL.
    static PROBED: RefCell<HashMap<String, Probe>> = RefCell::new(HashMap::new());
}

/// How an earlier probe of `url` ended, if one did.
fn probed(url: &str) -> Option<Probe> {
    PROBED.with(|probed| probed.borrow().get(url).copied())
}

fn remember(url: &str, result: Probe) {
    PROBED.with(|probed| probed.borrow_mut().insert(url.to_owned(), result));
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
