//! Entry point of the WebAssembly bundle: mounts the app, nothing else.

fn main() {
    console_error_panic_hook::set_once();
    // `cargo xtask dist` writes a static copy of each agent page into `#prerendered` (for link
    // previews and visitors without JavaScript); the app renders the page itself, so it goes.
    if let Some(prerendered) = leptos::prelude::document().get_element_by_id("prerendered") {
        prerendered.remove();
    }
    leptos::mount::mount_to_body(acp_catalog::App);
}
