//! The document head of each page: title, description, canonical URL and link-preview tags.
//!
//! Pages put a [`PageHead`] in their view. `leptos_meta` renders it into the `<head>` of the
//! HTML written at build time and keeps `document.head` in step in the browser, so the tags a
//! crawler or a link preview reads are the ones the app shows, from one source.

use leptos::prelude::*;
use leptos::text_prop::TextProp;
#[cfg(not(target_arch = "wasm32"))]
use leptos_meta::Title;
use leptos_meta::{Link, Meta};

use crate::config;

/// The size of the link-preview images the build renders (`og_image::WIDTH`, `HEIGHT`).
pub const OG_IMAGE_SIZE: (u32, u32) = (1200, 630);

/// The head tags of one page.
#[component]
pub fn PageHead(
    /// The page's title, without the site's name (which follows it); none for the site's name
    /// alone.
    #[prop(optional, into)]
    title: MaybeProp<String>,
    /// What the page is about, for search results and link previews.
    #[prop(into)]
    description: String,
    /// The page's path (`/agents/gemini/`), for its canonical URL; `None` for pages that have
    /// no address of their own (not-found pages).
    #[prop(optional)]
    canonical: Option<String>,
    /// The absolute URL of the page's link-preview image, when it has one.
    #[prop(optional_no_strip)]
    image: Option<String>,
) -> impl IntoView {
    let full_title = move || match title.get() {
        Some(title) => format!("{title} · {}", config::site_name()),
        None => config::site_name().to_owned(),
    };
    let og_title = move || {
        title
            .get()
            .unwrap_or_else(|| config::site_name().to_owned())
    };
    let canonical = canonical.map(|path| config::canonical(&path));
    view! {
        <DocumentTitle text=full_title />
        <Meta name="description" content=description.clone() />
        {canonical.map(|url| view! {
            <Link rel="canonical" href=url.clone() />
            <Meta property="og:url" content=url />
        })}
        <Meta property="og:type" content="website" />
        <Meta property="og:site_name" content=config::site_name() />
        <Meta property="og:title" content=live(og_title) />
        <Meta property="og:description" content=description />
        <Meta name="twitter:card" content=if image.is_some() { "summary_large_image" } else { "summary" } />
        {image.map(|url| view! {
            <Meta property="og:image" content=url />
            <Meta property="og:image:width" content=OG_IMAGE_SIZE.0.to_string() />
            <Meta property="og:image:height" content=OG_IMAGE_SIZE.1.to_string() />
        })}
    }
}

/// The document's title. At build time `leptos_meta` writes it into `<title>` as it is,
/// unescaped, so it is escaped here: a name cannot close the element.
#[cfg(not(target_arch = "wasm32"))]
#[component]
fn DocumentTitle(text: impl Fn() -> String + Send + Sync + 'static) -> impl IntoView {
    view! { <Title text=escape_text(&text()) /> }
}

/// The document's title, set as `document.title` whenever it changes. Not `leptos_meta`'s
/// `Title`: taking a page over, it sets the title to an empty one before it pushes the page's
/// own, so the tab and `document.title` read "" for a moment.
#[cfg(target_arch = "wasm32")]
#[component]
fn DocumentTitle(text: impl Fn() -> String + Send + Sync + 'static) -> impl IntoView {
    Effect::new(move |_| {
        let text = text();
        let document = leptos::prelude::document();
        if document.title() != text {
            document.set_title(&text);
        }
    });
}

/// `text` with `&`, `<` and `>` written as character references.
#[cfg(not(target_arch = "wasm32"))]
fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A text that follows its signals in the browser. At build time it is read once, while the
/// page renders: `leptos_meta` writes the head after the body, when the page's reactive values
/// are gone.
fn live(text: impl Fn() -> String + Send + Sync + 'static) -> TextProp {
    if cfg!(target_arch = "wasm32") {
        TextProp::from(text)
    } else {
        TextProp::from(text())
    }
}
