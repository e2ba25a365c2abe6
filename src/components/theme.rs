//! Light and dark themes.
//!
//! The theme follows the system until the visitor picks one with the toggle, which is then
//! remembered in `localStorage` (`acp-theme`). The `dark` class on `<html>` switches Tailwind's
//! `dark:` variants; an inline script in `index.html` applies it before the first paint.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

const STORAGE_KEY: &str = "acp-theme";

/// A colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Dark text on light backgrounds.
    Light,
    /// Light text on dark backgrounds.
    Dark,
}

impl Theme {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn other(self) -> Theme {
        match self {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        }
    }
}

fn applied() -> Theme {
    let dark = document()
        .document_element()
        .is_some_and(|html| html.class_list().contains("dark"));
    if dark { Theme::Dark } else { Theme::Light }
}

fn apply(theme: Theme) {
    if let Some(html) = document().document_element() {
        let classes = html.class_list();
        let _ = classes.toggle_with_force("dark", theme == Theme::Dark);
        // Without either class the stylesheet follows the system (as it does without JavaScript).
        let _ = classes.toggle_with_force("light", theme == Theme::Light);
    }
}

fn stored() -> Option<Theme> {
    let storage = window().local_storage().ok().flatten()?;
    match storage.get_item(STORAGE_KEY).ok().flatten()?.as_str() {
        "light" => Some(Theme::Light),
        "dark" => Some(Theme::Dark),
        _ => None,
    }
}

fn store(theme: Theme) {
    if let Some(storage) = window().local_storage().ok().flatten() {
        let _ = storage.set_item(STORAGE_KEY, theme.as_str());
    }
}

/// The button that switches between light and dark, named for what it will do. Its words
/// follow the `dark` class through CSS alone, so the page rendered at build time is right in
/// either theme before any script runs.
#[component]
pub fn ThemeToggle() -> impl IntoView {
    // Follow the system while the visitor has not chosen (in the browser only).
    Effect::new(move |_| {
        let Ok(Some(query)) = window().match_media("(prefers-color-scheme: dark)") else {
            return;
        };
        let on_change = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
            move |event: web_sys::MediaQueryListEvent| {
                if stored().is_none() {
                    apply(if event.matches() {
                        Theme::Dark
                    } else {
                        Theme::Light
                    });
                }
            },
        );
        let _ =
            query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        on_change.forget();
    });

    let toggle = move |_: ev::MouseEvent| {
        let next = applied().other();
        apply(next);
        store(next);
    };

    view! {
        <button
            type="button"
            on:click=toggle
            class="inline-flex h-9 items-center rounded-md border border-slate-300 px-3 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-slate-700 dark:hover:bg-slate-800"
        >
            <span class="inline-flex items-center gap-2 dark:hidden">
                <span aria-hidden="true">"☾"</span>
                <span class="sr-only">"Switch to dark theme"</span>
                <span aria-hidden="true" class="hidden sm:inline">"Dark"</span>
            </span>
            <span class="hidden items-center gap-2 dark:inline-flex">
                <span aria-hidden="true">"☀"</span>
                <span class="sr-only">"Switch to light theme"</span>
                <span aria-hidden="true" class="hidden sm:inline">"Light"</span>
            </span>
        </button>
    }
}
