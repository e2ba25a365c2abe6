//! Entry point of the WebAssembly bundle: reads the site's settings from the page and
//! starts the app in the browser, nothing else.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    match acp_catalog::config::read_from_page() {
        Ok(()) => acp_catalog::boot::start(),
        // The page the build wrote stays, readable as it is without JavaScript.
        Err(error) => acp_catalog::boot::show_settings_error(&error),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "acp-catalog is the site's WebAssembly entry point: build and serve it with \
         `cargo xtask serve` (its pages are rendered natively by `acp-catalog-render`)"
    );
    std::process::exit(2);
}
