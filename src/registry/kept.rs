//! The last good copy of each file, kept in the browser's Cache API.
//!
//! Every file that loaded and read well (the registry, each optional file, an AgentRegistry's
//! pages) is kept under its URL in the cache [`CACHE`], with the time it was fetched and its
//! validators (`ETag`, `Last-Modified`) as headers of the stored response. When the network
//! fails or stalls, [`super::fetch`] shows the kept copy at once, with its age, and asks the
//! server again later with a conditional request.
//!
//! The page keeps these copies itself, not the service worker: the page must see the network's
//! true answer (to name the cause and say how old the copy is), and the copies work in a
//! browser where no service worker is installed yet. Without the Cache API (a page served over
//! plain HTTP from another host than `localhost`), nothing is kept and failures show as they are.

use js_sys::{Promise, Uint8Array};
use leptos::prelude::window;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, Headers, Response, ResponseInit};

use super::http::Validators;

/// The cache the copies are kept in; a new layout of the stored responses gets a new name.
pub const CACHE: &str = "acp-kept-v1";
/// The header holding when the copy was fetched, in milliseconds since the Unix epoch.
const FETCHED_AT: &str = "x-acp-fetched-at";

/// A copy kept from an earlier visit.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    /// The text as it was fetched.
    pub text: String,
    /// When it was fetched (or last found current), in milliseconds since the Unix epoch.
    pub fetched_at: f64,
    /// Its validators, for a conditional request.
    pub validators: Validators,
}

/// The copy kept for `url`, if there is one.
pub async fn read(url: &str) -> Option<Kept> {
    let cache = open().await?;
    let found = JsFuture::from(cache.match_with_str(url)).await.ok()?;
    let response = found.dyn_into::<Response>().ok()?;
    let headers = response.headers();
    let header = |name: &str| headers.get(name).ok().flatten();
    let fetched_at = header(FETCHED_AT)?.parse::<f64>().ok()?;
    let validators = Validators {
        etag: header("etag"),
        last_modified: header("last-modified"),
    };
    let text = JsFuture::from(response.text().ok()?)
        .await
        .ok()?
        .as_string()?;
    Some(Kept {
        text,
        fetched_at,
        validators,
    })
}

/// Keeps `text` as the copy of `url`, fetched at `fetched_at`. Failing to keep it (no Cache
/// API, storage full) changes nothing on screen.
pub async fn keep(url: &str, text: &str, validators: &Validators, fetched_at: f64) {
    let Some(cache) = open().await else {
        return;
    };
    let Ok(headers) = Headers::new() else {
        return;
    };
    let _ = headers.set("content-type", "application/json; charset=utf-8");
    let _ = headers.set(FETCHED_AT, &fetched_at.to_string());
    if let Some(etag) = &validators.etag {
        let _ = headers.set("etag", etag);
    }
    if let Some(modified) = &validators.last_modified {
        let _ = headers.set("last-modified", modified);
    }
    let init = ResponseInit::new();
    init.set_headers(&headers);
    // From the bytes, not the string: a string would be decoded from UTF-8 into JavaScript and
    // encoded again by the Response, twice the main thread's time for nothing (about 230 ms for
    // a 10 MB registry, against a copy of the bytes).
    let body = Uint8Array::from(text.as_bytes());
    let Ok(response) = Response::new_with_opt_buffer_source_and_init(Some(&body), &init) else {
        return;
    };
    let _ = JsFuture::from(cache.put_with_str(url, &response)).await;
}

async fn open() -> Option<Cache> {
    let caches = window().caches().ok()?;
    let opened: Promise = caches.open(CACHE);
    JsFuture::from(opened)
        .await
        .ok()
        .and_then(|cache: JsValue| cache.dyn_into::<Cache>().ok())
}
