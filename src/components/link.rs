//! Links to places outside the site.

use leptos::either::Either;
use leptos::prelude::*;

/// A link when the URL is `http(s)`, plain text otherwise; external links never get the
/// opener or the referrer.
#[component]
pub fn ExternalLink(
    /// The URL as the manifest gives it.
    url: String,
    /// The link text.
    text: String,
) -> impl IntoView {
    match registry_core::url::safe_link(&url) {
        Some(safe) => Either::Left(view! {
            <a
                class="text-indigo-700 underline hover:no-underline dark:text-indigo-300"
                href=safe.to_owned()
                rel="noopener noreferrer"
            >
                {text}
            </a>
        }),
        None => Either::Right(view! { <span>{text}</span> }),
    }
}
