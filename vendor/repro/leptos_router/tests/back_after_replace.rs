//! The router keeps a stack of the URLs visited, to tell a Back from a forward navigation: a
//! `popstate` to the URL below the top of the stack is a Back. leptos_router 0.8.17 pushes the URL
//! of a replacing navigation onto it too, although the history gains no entry: the stack grows by
//! one URL per replacement (a search box that replaces the URL on every keystroke keeps every
//! address typed), and no longer matches the history, so a Back after a replacement is taken for
//! a forward navigation.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use leptos_router::location::{BrowserUrl, LocationChange, LocationProvider, State};
use wasm_bindgen::{JsCast, closure::Closure};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn go(url: &BrowserUrl, value: &str, replace: bool) {
    url.complete_navigation(&LocationChange {
        value: value.to_owned(),
        replace,
        scroll: false,
        state: State::default(),
    });
}

/// Resolves after `ms` milliseconds, by then past a few animation frames.
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let resolve = Closure::once_into_js(move || resolve.call0(&wasm_bindgen::JsValue::NULL));
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(resolve.unchecked_ref(), ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn back_from_a_replaced_entry_is_a_back_navigation() {
    let owner = Owner::new();
    owner.set();
    let window = web_sys::window().unwrap();
    let start = window.location().pathname().unwrap();

    let url = BrowserUrl::new().unwrap();
    url.init(None);
    // History: start, /x. Stack: start, /x.
    go(&url, "/x", false);
    // History: start, /y. Stack as published: start, /x, /y.
    go(&url, "/y?q=1", true);
    sleep(100).await;
    assert_eq!(window.location().pathname().unwrap(), "/y");

    window.history().unwrap().back().unwrap();
    sleep(200).await;
    assert_eq!(window.location().pathname().unwrap(), start);
    assert!(
        url.is_back().get_untracked(),
        "going back from the replaced entry to {start} was not taken for a Back"
    );
}
