//! A button that copies a text with the Clipboard API, and says so.

use leptos::prelude::*;

/// What the last click did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Copied {
    Idle,
    Done,
    Failed,
}

/// "Copy" → "Copied" (visible, and announced to screen readers). Its accessible name is
/// "Copy <what>", then "Copied <what>".
#[component]
pub fn CopyButton(
    /// The exact text to copy.
    text: String,
    /// What is copied, for the accessible name: "Copy <what>".
    what: String,
) -> impl IntoView {
    let state = RwSignal::new(Copied::Idle);
    let text = StoredValue::new(text);
    let copy = move |_| {
        let promise = window()
            .navigator()
            .clipboard()
            .write_text(&text.get_value());
        leptos::task::spawn_local(async move {
            let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            state.set(if ok { Copied::Done } else { Copied::Failed });
            set_timeout(
                move || state.set(Copied::Idle),
                std::time::Duration::from_millis(2000),
            );
        });
    };
    view! {
        <button
            type="button"
            class="shrink-0 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700"
            on:click=copy
        >
            {move || match state.get() {
                Copied::Idle => "Copy",
                Copied::Done => "Copied",
                Copied::Failed => "Copy failed",
            }}
            <span class="sr-only">{format!(" {what}")}</span>
        </button>
        <span class="sr-only" role="status" aria-live="polite">
            {move || match state.get() {
                Copied::Idle => "",
                Copied::Done => "Copied to the clipboard",
                Copied::Failed => "Could not copy: select the text and copy it by hand",
            }}
        </span>
    }
}
