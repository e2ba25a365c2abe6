//! Entry point of the preview's WebAssembly bundle: mounts the preview in place of the page the
//! build rendered (the same markup, with the draft this browser kept), nothing else.

#[cfg(target_arch = "wasm32")]
fn main() {
    use acp_catalog::boot::ROOT_ID;
    use acp_catalog::visitor::VisitorState;
    use acp_preview::page::{Draft, PreviewApp};
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;

    console_error_panic_hook::set_once();
    let fresh = document()
        .create_element("div")
        .expect("a document can create elements")
        .unchecked_into::<web_sys::HtmlElement>();
    fresh.set_id(ROOT_ID);
    let owner = Owner::new();
    owner.with(|| {
        let visitor = VisitorState::detect();
        let draft = Draft::kept();
        leptos::mount::mount_to(
            fresh.clone(),
            move || view! { <PreviewApp visitor draft /> },
        )
        .forget();
    });
    std::mem::forget(owner);
    match document().get_element_by_id(ROOT_ID) {
        Some(old) => {
            let _ = old.replace_with_with_node_1(&fresh);
        }
        None => {
            if let Some(body) = document().body() {
                let _ = body.append_child(&fresh);
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "acp-preview is the listing preview's WebAssembly entry point: build it with \
         `cargo xtask dist` (its page is rendered natively by `acp-preview-render`)"
    );
    std::process::exit(2);
}
