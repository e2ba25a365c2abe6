//! Entry point of the preview's WebAssembly bundle: mounts the preview, nothing else.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(acp_preview::PreviewApp);
}
