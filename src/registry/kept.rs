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
use web_sys::{Blob, Cache, Headers, Response, ResponseInit};

use super::http::Validators;

/// The cache the copies are kept in; a new layout of the stored responses gets a new name.
pub const CACHE: &str = "acp-kept-v1";
/// The header holding when the copy was fetched, in milliseconds since the Unix epoch.
const FETCHED_AT: &str = "x-acp-fetched-at";

/// A copy kept from an earlier visit.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    /// The body as it was fetched, not read yet: a large registry's text is decoded only when
    /// it is shown ([`Kept::text`]), and kept again without a copy through the wasm.
    pub body: Blob,
    /// When it was fetched (or last found current), in milliseconds since the Unix epoch.
    pub fetched_at: f64,
    /// Its validators, for a conditional request.
    pub validators: Validators,
}

impl Kept {
    /// The text as it was fetched, if it can still be read.
    pub async fn text(&self) -> Option<String> {
        let buffer = JsFuture::from(self.body.array_buffer()).await.ok()?;
        String::from_utf8(Uint8Array::new(&buffer).to_vec()).ok()
    }
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
    let body = JsFuture::from(response.blob().ok()?)
        .await
        .ok()?
        .dyn_into::<Blob>()
        .ok()?;
    Some(Kept {
        body,
        fetched_at,
        validators,
    })
}

/// A small text (an optional file, an AgentRegistry's pages) as a body to keep.
pub fn body_of(text: &str) -> Option<Blob> {
    let parts = js_sys::Array::of1(&Uint8Array::from(text.as_bytes()));
    Blob::new_with_u8_array_sequence(&parts).ok()
}

/// Keeps `body` as the copy of `url`, fetched at `fetched_at`. Failing to keep it (no Cache
/// API, storage full, no body) changes nothing on screen.
///
/// The body is a `Blob` the browser holds, not the text the wasm read: storing a 10 MB
/// registry from the wasm's text meant copying it out (about 20 ms) and a `Response` built
/// from those bytes (another 20 ms), in one task.
pub async fn keep(url: &str, body: Option<&Blob>, validators: &Validators, fetched_at: f64) {
    let Some(body) = body else {
        return;
    };
    let Some(cache) = open().await else {
        return;
    };
    let Ok(headers) = Headers::new() else {
        return;
    };
    let _ = headers.set("content-type", "application/json; charset=utf-8");
    // Whole milliseconds, written as an integer: printing a float would link the
    // float-printing code into the wasm for this one header.
    let _ = headers.set(
        FETCHED_AT,
        &(fetched_at.max(0.0).round() as u64).to_string(),
    );
    if let Some(etag) = &validators.etag {
        let _ = headers.set("etag", etag);
    }
    if let Some(modified) = &validators.last_modified {
        let _ = headers.set("last-modified", modified);
    }
    let init = ResponseInit::new();
    init.set_headers(&headers);
    let Ok(response) = Response::new_with_opt_blob_and_init(Some(body), &init) else {
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
