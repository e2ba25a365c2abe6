//! Entry point of the preview's WebAssembly bundle: mounts the preview in place of the page the
//! build rendered (the same markup, with the draft this browser kept), nothing else. What was
//! typed into the built page's editors before the app was live is kept, and so is the focus.

#[cfg(target_arch = "wasm32")]
fn main() {
    use acp_catalog::boot::{ROOT_ID, remove_prerendered_head};
    use acp_catalog::visitor::VisitorState;
    use acp_preview::page::{Draft, ICON_EDITOR, MANIFEST_EDITOR, PreviewApp};
    use leptos::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::HtmlTextAreaElement;

    /// The editor with this id in the page as it is now, if there is one.
    fn editor(id: &str) -> Option<HtmlTextAreaElement> {
        document().get_element_by_id(id)?.dyn_into().ok()
    }

    console_error_panic_hook::set_once();
    // Before anything spawns a task (the visitor's platform is detected in one).
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let fresh = document()
        .create_element("div")
        .expect("a document can create elements")
        .unchecked_into::<web_sys::HtmlElement>();
    fresh.set_id(ROOT_ID);
    let typed = |id| editor(id).map(|e| e.value());
    let kept = Draft::kept();
    let draft = kept
        .draft
        .with_typed(typed(MANIFEST_EDITOR), typed(ICON_EDITOR));
    let held_back = kept.held_back;
    // The editor being typed into, and where its caret is.
    let focused = [MANIFEST_EDITOR, ICON_EDITOR].into_iter().find_map(|id| {
        let e = editor(id)?;
        (document().active_element()?.id() == id).then(|| {
            let caret = (
                e.selection_start().ok().flatten(),
                e.selection_end().ok().flatten(),
            );
            (id, caret)
        })
    });
    remove_prerendered_head();
    let owner = Owner::new();
    owner.with(|| {
        let visitor = VisitorState::detect();
        leptos::mount::mount_to(
            fresh.clone(),
            move || view! { <PreviewApp visitor draft held_back /> },
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
    if let Some((id, (start, end))) = focused {
        // The editors exist once the view has rendered, in the next frame at the latest.
        request_animation_frame(move || {
            if let Some(e) = editor(id) {
                let _ = e.focus();
                if let (Some(start), Some(end)) = (start, end) {
                    let _ = e.set_selection_range(start, end);
                }
            }
        });
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
