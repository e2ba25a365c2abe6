//! Entry point of the WebAssembly bundle: starts the app in the browser, nothing else.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    acp_catalog::boot::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "acp-catalog is the site's WebAssembly entry point: build and serve it with \
         `cargo xtask serve` (its pages are rendered natively by `acp-catalog-render`)"
    );
    std::process::exit(2);
}
