//! Agent icons drawn in the theme's text colour, when they are small enough to draw.
//!
//! Registry icons are monochrome SVGs drawn in `currentColor`. Inlining their markup would run
//! untrusted SVG in the page, and an `<img>` cannot inherit the text colour, so the icon is used
//! as a CSS mask over a `currentColor` background: the shape comes from the file, the colour
//! from the theme. The mask's URL is never a `style` attribute (the site's
//! Content-Security-Policy allows none): in the browser it is set through the CSSOM
//! (`element.style.setProperty`), and a page rendered at build time names it by a class
//! ([`icon_class`]) whose rule is in the build's [`ICONS_CSS`] ([`rendered_icons_css`]).
//!
//! A browser draws an SVG on the page's main thread, and one complex enough (a 5 MB icon of a
//! single 880,000-segment path) stops the page painting for over a minute. So the app draws no
//! icon it has not read first: it fetches the file (in CORS mode, as the mask would), refuses it
//! past [`MAX_ICON_BYTES`] without reading further, measures it ([`measure_icon`]: elements,
//! path segments, `<use>` copies, within the bounds the registry's own icon rules set), and draws
//! the mask from a `blob:` URL of exactly the text it measured, so that a second request cannot
//! bring other bytes. An icon whose `<!DOCTYPE>` declares entities is refused too: entities can
//! hide markup, and one entity referenced 20,000 times crashes a tab; so is one with an element
//! the validator rejects (script, animation, `<foreignObject>`). An icon that fails to load or is refused shows a monogram of the name
//! instead, and the agent page says why ([`IconSize::Page`]).
//!
//! A page rendered at build time draws in its first paint the icons the build read and measured
//! itself, the files of the build ([`note_read_by_build`]); one it refused is its monogram, and
//! one it could not read (on another host: the build fetches nothing) an empty tile the browser
//! fills once it has read and measured it, so that no unmeasured icon is ever drawn. When the app
//! takes the page over, an icon the HTML already drew is drawn again at once from its URL
//! ([`remember_drawn`], by its class), so nothing flashes, and is checked like any other:
//! refused, it becomes the monogram.
//!
//! Each URL is read once for the page's lifetime: icons asking while a read is under way wait
//! for its answer, and an icon built again for a URL already read (the results change on every
//! keystroke) shows the icon or monogram at once. Reads start in a task after the next frame
//! ([`start_reads`]): the frame that shows a keystroke's new cards is not spent starting their
//! downloads.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};

use leptos::either::EitherOf3;
use leptos::prelude::*;
use registry_core::Entry;
use registry_core::icon_bounds::{self, numbers, path_segments};

use crate::registry::{page_base, resolve, site_relative, size_words, thousands};
use crate::timing::after_next_frame;

/// The most bytes an icon may have to be drawn: as many as the registry accepts.
pub const MAX_ICON_BYTES: usize = icon_bounds::MAX_BYTES;
/// The most elements an icon may have.
pub const MAX_ICON_ELEMENTS: usize = icon_bounds::MAX_ELEMENTS;
/// The most path segments (`d` commands, `points` pairs) an icon may draw, in all.
pub const MAX_ICON_PATH_SEGMENTS: usize = icon_bounds::MAX_PATH_SEGMENTS;
/// The most `<use>` elements an icon may have: each copies others, and copies of copies grow
/// exponentially.
pub const MAX_ICON_USES: usize = 16;

/// Why an icon is not drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// It could not be loaded: why, in a few words.
    Unavailable(String),
    /// It has more bytes than [`MAX_ICON_BYTES`] (at least `found`).
    TooLarge {
        /// Bytes it has, at least.
        found: usize,
    },
    /// Its `<!DOCTYPE>` declares entities.
    Entities,
    /// It has an element no icon may have: one that runs script, animates (an animation can
    /// set a link's `href`), embeds a document or handles events.
    Forbidden(String),
    /// It is over one of the other bounds.
    TooComplex {
        /// What was counted: `elements`, `path segments`, `<use> elements`.
        what: &'static str,
        /// How many it has, at least.
        found: usize,
        /// The bound.
        limit: usize,
    },
}

impl std::fmt::Display for Refusal {
    /// "the icon is 5.2 MB, more than the 64 KiB an icon may have".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Unavailable(why) => write!(f, "the icon could not be loaded ({why})"),
            Refusal::Forbidden(element) => write!(
                f,
                "the icon has a <{element}> element, which an icon may not have"
            ),
            Refusal::Entities => f.write_str(
                "the icon's <!DOCTYPE> declares entities, which can hide markup or blow up in size",
            ),
            Refusal::TooLarge { found } => write!(
                f,
                "the icon is {} or more, over the 64 KiB an icon may have",
                size_words(*found)
            ),
            Refusal::TooComplex { what, found, limit } => write!(
                f,
                "the icon has {} {what} or more, over the {} an icon may have",
                thousands(*found),
                thousands(*limit)
            ),
        }
    }
}

/// Elements that make an icon refused (compared without case and namespace prefix): the
/// validator's errors that a browser would act on outside an image.
const FORBIDDEN_ELEMENTS: [&str; 9] = [
    "script",
    "foreignObject",
    "iframe",
    "set",
    "animate",
    "animateMotion",
    "animateTransform",
    "handler",
    "listener",
];

/// Whether an icon's text is within the bounds: bytes, elements, `<use>` elements and path
/// segments, counted in one pass over the text without parsing it as XML (what looks like a
/// tag inside a comment counts too: the count errs on the side of refusing).
pub fn measure_icon(text: &str) -> Result<(), Refusal> {
    if text.len() > MAX_ICON_BYTES {
        return Err(Refusal::TooLarge { found: text.len() });
    }
    if registry_core::icon_bounds::doctype(text).is_some_and(|d| d.declares) {
        return Err(Refusal::Entities);
    }
    let bytes = text.as_bytes();
    let (mut elements, mut uses, mut segments) = (0usize, 0usize, 0usize);
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'<' || !bytes.get(at + 1).is_some_and(u8::is_ascii_alphabetic) {
            at += 1;
            continue;
        }
        let name_start = at + 1;
        at = name_start;
        while at < bytes.len() && is_name_byte(bytes[at]) {
            at += 1;
        }
        let name = &text[name_start..at];
        elements += 1;
        let local = name.rsplit(':').next().unwrap_or(name);
        if let Some(forbidden) = FORBIDDEN_ELEMENTS
            .iter()
            .find(|forbidden| local.eq_ignore_ascii_case(forbidden))
        {
            return Err(Refusal::Forbidden((*forbidden).to_owned()));
        }
        if name == "use" || name.ends_with(":use") {
            uses += 1;
        }
        // The attributes, up to the end of the tag.
        while at < bytes.len() && bytes[at] != b'>' {
            if !is_name_byte(bytes[at]) {
                at += 1;
                continue;
            }
            let attribute_start = at;
            while at < bytes.len() && is_name_byte(bytes[at]) {
                at += 1;
            }
            let attribute = &text[attribute_start..at];
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            if bytes.get(at) != Some(&b'=') {
                continue;
            }
            at += 1;
            while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            let Some(&quote) = bytes.get(at).filter(|b| **b == b'"' || **b == b'\'') else {
                continue;
            };
            let value_start = at + 1;
            let value_end = text[value_start..]
                .find(quote as char)
                .map_or(bytes.len(), |end| value_start + end);
            let value = &text[value_start..value_end];
            segments += match attribute {
                "d" => path_segments(value),
                "points" => numbers(value) / 2,
                _ => 0,
            };
            at = value_end + 1;
        }
        let over = [
            ("elements", elements, MAX_ICON_ELEMENTS),
            ("<use> elements", uses, MAX_ICON_USES),
            ("path segments", segments, MAX_ICON_PATH_SEGMENTS),
        ]
        .into_iter()
        .find(|(_, found, limit)| found > limit);
        if let Some((what, found, limit)) = over {
            return Err(Refusal::TooComplex { what, found, limit });
        }
    }
    Ok(())
}

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b':' | b'.')
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
        Some(url) if cfg!(not(target_arch = "wasm32")) => read_by_build(url),
        Some(url) => checked(url),
    };
    // Drawn from its URL at once, in the browser, when the page it takes over drew it already
    // (the build had measured it).
    let at_once = known.is_none() && url.as_deref().is_some_and(drawn_by_page);
    let result = RwSignal::new(known.clone());
    if let (Some(url), None) = (url.clone(), known) {
        // In the browser only (effects do not run at build time).
        Effect::new(move |_| check(&url, result));
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
        (
            IconSize::Page,
            Some(Check::Refused(
                refusal @ (Refusal::TooLarge { .. }
                | Refusal::TooComplex { .. }
                | Refusal::Entities
                | Refusal::Forbidden(_)),
            )),
        ) => Some(view! {
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
/// ([`remember_rendered`]), its URL set through the CSSOM in the browser.
fn mask(url: String) -> impl IntoView {
    remember_rendered(&url);
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

fn drawn_by_page(url: &str) -> bool {
    let class = icon_class(url);
    DRAWN.with(|drawn| drawn.borrow().contains(&class))
}

/// How an earlier check of `url` ended, if one did.
fn checked(url: &str) -> Option<Check> {
    CHECKS.with(|checks| match checks.borrow().get(url) {
        Some(Checking::Done(check)) => Some(check.clone()),
        _ => None,
    })
}

/// Tells `result` how checking `url` goes: at once if it was checked, else when the check
/// under way (started now, if none is) ends.
fn check(url: &str, result: RwSignal<Option<Check>>) {
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

/// Fetches the icon at `url` (at most [`MAX_ICON_BYTES`] of it) and measures it.
async fn read_icon(url: &str) -> Check {
    use crate::registry::http::{self, GetError, Options};

    let options = Options {
        limit: Some(MAX_ICON_BYTES),
        ..Options::default()
    };
    let fetched = match http::get(url, &options, &|_| {}).await {
        Ok(fetched) => fetched,
        Err(GetError::TooLarge(too_large)) => {
            return Check::Refused(Refusal::TooLarge {
                found: too_large.found,
            });
        }
        Err(GetError::Failed(error)) => {
            return Check::Refused(Refusal::Unavailable(error.headline()));
        }
    };
    let text = match fetched.text(url) {
        Ok(text) => text,
        Err(error) => return Check::Refused(Refusal::Unavailable(error.headline())),
    };
    if let Err(refusal) = measure_icon(&text) {
        return Check::Refused(refusal);
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
    /// What the build found reading each icon that is a file of the build, by URL (see
    /// [`note_read_by_build`]).
    static READ_BY_BUILD: RefCell<HashMap<String, Check>> = RefCell::new(HashMap::new());
}

/// Notes, at build time, what reading the icon at `url` (as [`icon_url`] gives it) found: its
/// text when it is a file of the build, `None` when the build cannot read it (an icon on
/// another host: the build fetches nothing). Pages rendered afterwards draw it only when it was
/// read and is within the bounds ([`measure_icon`]); a refused one gets its monogram, and one the
/// build could not read an empty tile that the browser fills once it has read and measured it.
pub fn note_read_by_build(url: &str, text: Option<&str>) {
    let check = text.map(|text| match measure_icon(text) {
        Ok(()) => Check::Drawable(url.to_owned()),
        Err(refusal) => Check::Refused(refusal),
    });
    READ_BY_BUILD.with(|read| match check {
        Some(check) => {
            read.borrow_mut().insert(url.to_owned(), check);
        }
        None => {
            read.borrow_mut().remove(url);
        }
    });
}

/// What the build found reading the icon at `url`, if it could read it.
fn read_by_build(url: &str) -> Option<Check> {
    READ_BY_BUILD.with(|read| read.borrow().get(url).cloned())
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
    fn icons_over_a_bound_are_refused_with_what_was_counted() {
        let svg = |body: &str| {
            format!("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">{body}</svg>")
        };
        let real = include_str!("../../public/raxol.svg");
        let long_path = svg(&format!("<path d=\"M0 0{}\"/>", " L1 1".repeat(10_001)));
        let many_points = svg(&format!("<polygon points='{}'/>", "1,1 ".repeat(10_001)));
        let uses = svg(&"<use href=\"#a\"/>".repeat(17));
        let elements = svg(&"<g></g>".repeat(2_001));
        let huge = format!("<svg>{}</svg>", " ".repeat(MAX_ICON_BYTES));
        let with_use = svg("<path d='M0 0h16v16H0z'/><use href='#x'/>");
        let quoted_gt = svg("<path title='a>b' d='M0 0L1 1'/>");
        let entities = format!(
            "<!DOCTYPE svg [<!ENTITY s \"&#60;script&#62;alert(1)&#60;/script&#62;\">]>{}",
            svg("&s;")
        );
        let set_href = svg(
            "<a><set attributeName=\"href\" to=\"javascript:alert(1)\"/><path d='M0 0h16v16H0z'/></a>",
        );
        let script = svg("<svg:script>alert(1)</svg:script>");
        let foreign = svg("<foreignobject><div/></foreignobject>");
        let quoted_bracket = format!(
            "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x[y\">{}",
            svg("<path d='M0 0L1 1'/>")
        );
        let table: Vec<(&str, Result<(), Refusal>)> = vec![
            (real, Ok(())),
            (&with_use, Ok(())),
            (
                &long_path,
                Err(Refusal::TooComplex {
                    what: "path segments",
                    found: 10_002,
                    limit: 10_000,
                }),
            ),
            (
                &many_points,
                Err(Refusal::TooComplex {
                    what: "path segments",
                    found: 10_001,
                    limit: 10_000,
                }),
            ),
            (
                &uses,
                Err(Refusal::TooComplex {
                    what: "<use> elements",
                    found: 17,
                    limit: 16,
                }),
            ),
            (
                &elements,
                Err(Refusal::TooComplex {
                    what: "elements",
                    found: 2_001,
                    limit: 2_000,
                }),
            ),
            (
                &huge,
                Err(Refusal::TooLarge {
                    found: MAX_ICON_BYTES + 11,
                }),
            ),
            // A quoted `>` inside an attribute does not end the tag.
            (&quoted_gt, Ok(())),
            (&entities, Err(Refusal::Entities)),
            (&set_href, Err(Refusal::Forbidden("set".to_owned()))),
            (&script, Err(Refusal::Forbidden("script".to_owned()))),
            (
                &foreign,
                Err(Refusal::Forbidden("foreignObject".to_owned())),
            ),
            (&quoted_bracket, Ok(())),
        ];
        for (text, expected) in table {
            assert_eq!(
                measure_icon(text),
                expected,
                "{}",
                &text[..text.len().min(80)]
            );
        }
    }

    #[test]
    fn every_bundled_icon_is_drawn() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/public");
        let mut seen = 0;
        for file in std::fs::read_dir(dir).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "svg") {
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(measure_icon(&text), Ok(()), "{}", path.display());
                seen += 1;
            }
        }
        assert!(seen > 50, "{seen} icons");
    }

    #[test]
    fn refusals_say_what_is_over_which_bound() {
        assert_eq!(
            Refusal::TooLarge { found: 5_242_880 }.to_string(),
            "the icon is 5.2 MB or more, over the 64 KiB an icon may have"
        );
        assert_eq!(
            Refusal::TooComplex {
                what: "path segments",
                found: 880_000,
                limit: 10_000
            }
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
