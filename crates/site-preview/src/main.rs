//! Entry point of the preview's WebAssembly bundle: mounts the preview in place of the page the
//! build rendered (the same markup, with the draft this browser kept), nothing else. What was
//! typed into the built page's editors before the app was live is kept, and so is the focus.

#[cfg(target_arch = "wasm32")]
fn main() {
    use acp_catalog::boot::{Focus, ROOT_ID, mount_in_place_of, remove_prerendered_head};
    use acp_catalog::visitor::VisitorState;
    use acp_preview::page::{Draft, ICON_EDITOR, MANIFEST_EDITOR, PreviewApp};
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::HtmlTextAreaElement;

    console_error_panic_hook::set_once();
    if let Err(error) = acp_catalog::config::read_from_page() {
        acp_catalog::boot::show_settings_error(&error);
        return;
    }
    // Before anything spawns a task (the visitor's platform is detected in one).
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let built = document().get_element_by_id(ROOT_ID);
    let typed = |id: &str| {
        let editor: HtmlTextAreaElement = document().get_element_by_id(id)?.dyn_into().ok()?;
        Some(editor.value())
    };
    let kept = Draft::kept();
    let draft = kept
        .draft
        .with_typed(typed(MANIFEST_EDITOR), typed(ICON_EDITOR));
    let held_back = kept.held_back;
    // The editor being typed into, and where its caret is.
    let focus = built.as_ref().and_then(Focus::read);
    remove_prerendered_head();
    let owner = Owner::new();
    owner.with(|| {
        let visitor = VisitorState::detect();
        mount_in_place_of(
            built.as_ref(),
            move || view! { <PreviewApp visitor draft held_back /> },
        );
    });
    std::mem::forget(owner);
    if let Some(focus) = focus {
        // The editors exist once the view has rendered, in the next frame at the latest.
        request_animation_frame(move || focus.restore());
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
