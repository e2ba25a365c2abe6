//! The site offline: registering the service worker.
//!
//! `service-worker.js` (written into the build by `cargo xtask dist` from
//! `src/service-worker.js`, with the list of the build's files) keeps the pages, the app and
//! the icons, so that a site visited once opens without a network: every page, the wasm, the
//! styles and a loading shell for pages never visited. It never answers for the data files
//! (`*.json`): the page fetches those itself and keeps their last good copies
//! ([`crate::registry`]), so that it sees the network's true answer and can say how old the
//! copy it shows is.
//!
//! It is registered once the app is live, so that it never competes with the first load.

/// Registers the site's service worker, scoped to the site's base path; a browser without
/// service workers (or a page not served over HTTPS or from `localhost`) simply goes without.
pub fn register() {
    #[cfg(target_arch = "wasm32")]
    {
        use leptos::prelude::window;
        // In a secure context only: elsewhere `serviceWorker` is missing and using it throws.
        let navigator = window().navigator();
        if !js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false) {
            return;
        }
        let options = web_sys::RegistrationOptions::new();
        options.set_scope(crate::config::public_url());
        let script = format!("{}service-worker.js", crate::config::public_url());
        let registering = navigator
            .service_worker()
            .register_with_options(&script, &options);
        // A refusal (no such file in a development build, workers blocked) is no error of
        // the page's: it goes on without.
        leptos::task::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(registering).await;
        });
    }
}
