//! The document's title and description for the page on screen.
//!
//! Each page calls [`use_title`] (and agent pages [`use_description`]) from its component; when
//! the component goes, so does what it set. These few lines replace `leptos_meta`, whose general
//! machinery (title stacks, formatters, server rendering of head tags) the site does not use and
//! which cost ~3 KB of the brotli'd wasm.

use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// Keeps `document.title` equal to `text` while the calling component is mounted.
pub fn use_title(text: impl Fn() -> String + 'static) {
    Effect::new(move |_| document().set_title(&text()));
}

/// Adds `<meta name="description" content="…">` to the head while the calling component is
/// mounted (after the site-wide one, so it is the last, and the page's).
pub fn use_description(content: &str) {
    let document = document();
    let (Ok(meta), Some(head)) = (document.create_element("meta"), document.head()) else {
        return;
    };
    let _ = meta.set_attribute("name", "description");
    let _ = meta.set_attribute("content", content);
    let _ = head.append_child(&meta);
    // Cleanups must be `Send`; this one only ever runs in the browser's single thread.
    let meta = SendWrapper::new(meta);
    on_cleanup(move || meta.remove());
}
