//! One GET, in the browser: watched, bounded in time, and its failure explained.
//!
//! [`get`] reads the body itself, chunk by chunk, so that it knows how much has arrived: a
//! watchdog reports the wait every second ([`Waiting`]) and aborts the request when nothing
//! has arrived for [`SILENCE_LIMIT`] (no answer, or a download that stopped), which is then a
//! [`FetchError::Timeout`]. A download that keeps moving is never cut, however large.
//!
//! When `fetch` itself fails, the browser says only "Failed to fetch". [`diagnose`] asks
//! again in ways that reveal why, without reading anything: offline (`navigator.onLine`); a
//! redirect (`redirect: "manual"` answers with an opaque redirect) whose chain does not end
//! (following it in `no-cors` mode fails too: a loop) or ends at a server that does not allow
//! this site (it succeeds: CORS); a server on another origin that answers opaquely (CORS); or
//! no answer at all. A failure while reading the body is a broken-off download or, when the
//! server declared a `Content-Encoding`, a corrupt compression.
//!
//! `fresh` requests bypass the browser's HTTP cache (`cache: "reload"`): a retry must ask the
//! server, not replay a cached redirect loop or error. A conditional request ([`Validators`])
//! is sent with `If-None-Match`/`If-Modified-Since` to the site's own origin, and with
//! `cache: "no-cache"` to others, where those headers would need a CORS preflight the server
//! may not allow (the browser then revalidates its own copy with them).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use futures::future::{Either, select};
use js_sys::Uint8Array;
use leptos::prelude::window;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Blob, ReadableStreamDefaultReader, ReadableStreamReadResult, Request,
    RequestCache, RequestInit, RequestMode, RequestRedirect, Response, ResponseType,
};

use super::error::{FetchError, origin_of, retry_after_seconds};
use super::relay;
use crate::timing::{Slices, now, sleep};

/// How long nothing may arrive (no answer, or no new bytes) before the request is given up.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(12);

/// How long a probe of [`diagnose`] may take.
const PROBE_LIMIT: Duration = Duration::from_secs(5);

/// The most a body may be before it is refused, when the caller bounds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The bound, in bytes.
    pub limit: usize,
    /// How much there was (at least: reading stops past the bound).
    pub found: usize,
}

/// How a request is to be made.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Bypass the browser's HTTP cache (a retry).
    pub fresh: bool,
    /// Make it conditional on the copy kept having changed.
    pub validators: Option<Validators>,
    /// Refuse bodies larger than this many bytes (read no further).
    pub limit: Option<usize>,
    /// Download it in the fetch worker when the page has one ([`super::relay`]), so that
    /// decoding a large compressed body does not block the page; a plain GET (neither `fresh`
    /// nor conditional) takes over the download the worker began at start-up.
    pub off_thread: bool,
}

/// What identifies a copy of a file, for a conditional request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validators {
    /// Its `ETag`.
    pub etag: Option<String>,
    /// Its `Last-Modified`.
    pub last_modified: Option<String>,
}

/// A body as the chunks the browser gave.
#[derive(Clone, Debug)]
pub struct Chunks(js_sys::Array);

impl Chunks {
    /// The body as a `Blob` (copied by the browser, not out of the wasm's memory); `None` where
    /// a `Blob` cannot be made.
    pub fn blob(&self) -> Option<Blob> {
        Blob::new_with_u8_array_sequence(&self.0).ok()
    }
}

/// A body read whole.
#[derive(Clone, Debug)]
pub struct Fetched {
    /// The bytes as received (after the browser's decoding of any compression).
    pub bytes: Vec<u8>,
    /// The same bytes as the browser's chunks, for keeping them without another copy out of
    /// the wasm ([`Fetched::blob`]).
    chunks: js_sys::Array,
    /// Its validators, for the next conditional request.
    pub validators: Validators,
    /// The server said the copy kept is still current (`304 Not Modified`); `bytes` is empty.
    pub not_modified: bool,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
}

impl Fetched {
    /// A body read whole (`chunks`, copied into `bytes`), with what the answer's `header`s say
    /// of it.
    fn whole(
        bytes: Vec<u8>,
        chunks: js_sys::Array,
        header: &dyn Fn(&str) -> Option<String>,
    ) -> Fetched {
        Fetched {
            bytes,
            chunks,
            validators: Validators {
                etag: header("etag"),
                last_modified: header("last-modified"),
            },
            not_modified: false,
            content_type: header("content-type"),
        }
    }

    /// The body as the browser gave it, to keep ([`Chunks::blob`]).
    pub fn chunks(&self) -> Chunks {
        Chunks(self.chunks.clone())
    }

    /// The body as text (a leading byte-order mark dropped), or where it is not UTF-8.
    pub fn text(self, url: &str) -> Result<String, FetchError> {
        let mut bytes = self.bytes;
        if bytes.starts_with(&[0xef, 0xbb, 0xbf]) {
            bytes.drain(..3);
        }
        String::from_utf8(bytes).map_err(|e| FetchError::NotUtf8 {
            url: url.to_owned(),
            at: e.utf8_error().valid_up_to(),
        })
    }
}

/// How a wait is going, reported every second while nothing is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// Seconds since the request was sent.
    pub seconds: u32,
    /// Bytes received so far.
    pub received: usize,
}

/// A GET that failed, or a body refused for its size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GetError {
    /// The request failed: why.
    Failed(FetchError),
    /// The body is larger than [`Options::limit`].
    TooLarge(TooLarge),
}

impl From<FetchError> for GetError {
    fn from(error: FetchError) -> GetError {
        GetError::Failed(error)
    }
}

impl GetError {
    /// The failure as a [`FetchError`] of `url`, for a GET without a size limit (where
    /// [`GetError::TooLarge`] cannot happen, and would read as a download cut short).
    pub fn into_fetch_error(self, url: &str) -> FetchError {
        match self {
            GetError::Failed(error) => error,
            GetError::TooLarge(_) => FetchError::Body {
                url: url.to_owned(),
                received: 0,
                encoding: None,
            },
        }
    }
}

/// GETs `url` (absolute), calling `watch` every second until it is done.
pub async fn get(
    url: &str,
    options: &Options,
    watch: &dyn Fn(Waiting),
) -> Result<Fetched, GetError> {
    let controller = AbortController::new().ok();
    // A request whose answer is no longer wanted (its future dropped) is aborted.
    let _abort = AbortOnDrop(controller.clone());
    let received = Rc::new(Cell::new(0usize));
    let last_news = Rc::new(Cell::new(now()));
    let work = read(
        url,
        options,
        controller.as_ref(),
        received.clone(),
        last_news.clone(),
    );
    let watchdog = async {
        let started = now();
        loop {
            sleep(Duration::from_secs(1)).await;
            let silent = now() - last_news.get();
            if silent >= SILENCE_LIMIT.as_millis() as f64 {
                if let Some(controller) = &controller {
                    controller.abort();
                }
                return FetchError::Timeout {
                    url: url.to_owned(),
                    waited: SILENCE_LIMIT.as_secs() as u32,
                    received: received.get(),
                };
            }
            watch(Waiting {
                seconds: ((now() - started) / 1000.0) as u32,
                received: received.get(),
            });
        }
    };
    let work = std::pin::pin!(work);
    let watchdog = std::pin::pin!(watchdog);
    match select(work, watchdog).await {
        Either::Left((result, _)) => result,
        Either::Right((timeout, _)) => Err(GetError::Failed(timeout)),
    }
}

/// Aborts the request of a [`get`] when it ends, finished or not (aborting a finished request
/// does nothing).
struct AbortOnDrop(Option<AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = &self.0 {
            controller.abort();
        }
    }
}

/// The request and its body, `received` and `last_news` kept up to date for the watchdog.
async fn read(
    url: &str,
    options: &Options,
    controller: Option<&AbortController>,
    received: Rc<Cell<usize>>,
    last_news: Rc<Cell<f64>>,
) -> Result<Fetched, GetError> {
    let init = request_init(url, options);
    if options.off_thread && options.limit.is_none() {
        let plain = !options.fresh && options.validators.is_none();
        if let Some(relayed) = relay::get(url, &init, plain)
            && let Some(result) = read_relayed(url, relayed, &received, &last_news).await
        {
            return result;
        }
    }
    if let Some(controller) = controller {
        init.set_signal(Some(&controller.signal()));
    }
    let request = Request::new_with_str_and_init(url, &init).map_err(|e| FetchError::Network {
        url: url.to_owned(),
        message: js_message(&e),
    })?;
    let response: Response = match JsFuture::from(window().fetch_with_request(&request)).await {
        Ok(response) => response.unchecked_into(),
        Err(error) => {
            if controller.is_some_and(|c| c.signal().aborted()) {
                // The watchdog gave up; it reports the timeout.
                std::future::pending::<()>().await;
            }
            return Err(diagnose(url, &js_message(&error)).await.into());
        }
    };
    last_news.set(now());
    let header = |name: &str| response.headers().get(name).ok().flatten();
    if let Some(done) = before_body(url, response.status(), response.status_text(), &header)? {
        return Ok(done);
    }
    let declared = header("content-length").and_then(|n| n.parse::<usize>().ok());
    if let (Some(limit), Some(found)) = (options.limit, declared)
        && found > limit
    {
        if let Some(controller) = controller {
            controller.abort();
        }
        return Err(GetError::TooLarge(TooLarge { limit, found }));
    }
    let encoding = header("content-encoding");
    let broken = |received: usize| FetchError::Body {
        url: url.to_owned(),
        received,
        encoding: encoding.clone(),
    };
    let Some(body) = response.body() else {
        return Ok(Fetched::whole(Vec::new(), js_sys::Array::new(), &header));
    };
    let reader = ReadableStreamDefaultReader::new(&body).map_err(|_| broken(0))?;
    // The chunks stay the browser's until the body is whole, then are copied once into a vector
    // of their total size: growing a vector as they come would copy a large body several
    // times over (a compressed body's `Content-Length` does not say its size).
    let chunks = js_sys::Array::new();
    let mut length = 0;
    let mut slices = Slices::start();
    loop {
        slices.pause_when_due().await;
        let chunk = match JsFuture::from(reader.read()).await {
            Ok(chunk) => chunk.unchecked_into::<ReadableStreamReadResult>(),
            Err(_) => {
                if controller.is_some_and(|c| c.signal().aborted()) {
                    std::future::pending::<()>().await;
                }
                return Err(broken(length).into());
            }
        };
        if chunk.get_done().unwrap_or(true) {
            break;
        }
        let data = chunk.get_value().unchecked_into::<Uint8Array>();
        length += data.length() as usize;
        chunks.push(&data);
        received.set(length);
        last_news.set(now());
        if let Some(limit) = options.limit
            && length > limit
        {
            let _ = reader.cancel();
            return Err(GetError::TooLarge(TooLarge {
                limit,
                found: length,
            }));
        }
    }
    let bytes = copied(&chunks, length, &mut slices).await;
    Ok(Fetched::whole(bytes, chunks, &header))
}

/// What an answer's status and headers say before its body is read: the copy kept is current
/// (`304`: `Some`, with no body), the server failed (`Err`), or there is a body to read (`None`).
fn before_body(
    url: &str,
    status: u16,
    status_text: String,
    header: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Fetched>, GetError> {
    if status == 304 {
        return Ok(Some(Fetched {
            not_modified: true,
            ..Fetched::whole(Vec::new(), js_sys::Array::new(), header)
        }));
    }
    if !(200..300).contains(&status) {
        return Err(FetchError::Http {
            url: url.to_owned(),
            status,
            status_text,
            retry_after: header("retry-after").and_then(|h| retry_after_seconds(&h, now())),
        }
        .into());
    }
    Ok(None)
}

/// The browser's `chunks` of a body of `length` bytes, copied once into a vector of that size,
/// a chunk per look at the clock.
async fn copied(chunks: &js_sys::Array, length: usize, slices: &mut Slices) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(length);
    for data in chunks.iter() {
        slices.pause_when_due().await;
        let data = data.unchecked_into::<Uint8Array>();
        let at = bytes.len();
        bytes.resize(at + data.length() as usize, 0);
        data.copy_to(&mut bytes[at..]);
    }
    bytes
}

/// `fetch`'s options for a GET of `url` as `options` say, but for the abort signal: those of the
/// page's own request, and what is posted to the fetch worker (so the headers are a plain object,
/// which can be posted, where a `Headers` cannot).
fn request_init(url: &str, options: &Options) -> RequestInit {
    let init = RequestInit::new();
    init.set_method("GET");
    let same_origin = origin_of(url) == Some(page_origin().as_str());
    match &options.validators {
        Some(validators) if same_origin => {
            let headers = js_sys::Object::new();
            let set = |name: &str, value: Option<&str>| {
                if let Some(value) = value {
                    let _ = js_sys::Reflect::set(&headers, &name.into(), &value.into());
                }
            };
            set("If-None-Match", validators.etag.as_deref());
            set("If-Modified-Since", validators.last_modified.as_deref());
            init.set_headers(&headers);
        }
        Some(_) => init.set_cache(RequestCache::NoCache),
        None if options.fresh => init.set_cache(RequestCache::Reload),
        None => {}
    }
    init
}

/// The body of a GET the worker makes, `received` and `last_news` kept up to date for the
/// watchdog; `None` if the worker stopped before the body was whole (the caller then makes the
/// request itself).
async fn read_relayed(
    url: &str,
    mut relayed: relay::Relayed,
    received: &Cell<usize>,
    last_news: &Cell<f64>,
) -> Option<Result<Fetched, GetError>> {
    use futures::StreamExt;
    use relay::Message;

    let (status, status_text, headers) = match relayed.messages.next().await? {
        Message::Head {
            status,
            status_text,
            headers,
        } => (status, status_text, headers),
        Message::Failed(message) => {
            return Some(Err(diagnose(url, &message).await.into()));
        }
        Message::Chunk(_) | Message::Done | Message::Lost => return None,
    };
    last_news.set(now());
    let header = |name: &str| relay::header(&headers, name);
    if let Some(done) = before_body(url, status, status_text, &header).transpose() {
        return Some(done);
    }
    let chunks = js_sys::Array::new();
    let mut length = 0;
    loop {
        match relayed.messages.next().await? {
            Message::Chunk(data) => {
                length += data.length() as usize;
                chunks.push(&data);
                received.set(length);
                last_news.set(now());
            }
            Message::Done => break,
            Message::Failed(_) => {
                return Some(Err(FetchError::Body {
                    url: url.to_owned(),
                    received: length,
                    encoding: header("content-encoding"),
                }
                .into()));
            }
            Message::Head { .. } | Message::Lost => return None,
        }
    }
    let bytes = copied(&chunks, length, &mut Slices::start()).await;
    Some(Ok(Fetched::whole(bytes, chunks, &header)))
}

/// Why a `fetch` of `url` failed (`message`: what the browser said), found by asking again
/// without reading anything: first in `no-cors` mode, redirects followed (an answer at the end
/// means the server is there but the browser may not let the page read it: CORS, on `url`'s
/// server or on the one it redirects to); with none, without following redirects (a redirect
/// means they lead nowhere: a loop, or to a server that does not answer). Browsers refuse
/// `no-cors` requests that do not follow redirects, so that second probe is in `cors` mode,
/// where a redirect is seen without being read.
pub async fn diagnose(url: &str, message: &str) -> FetchError {
    if !window().navigator().on_line() {
        return FetchError::Offline {
            url: url.to_owned(),
        };
    }
    let origin = page_origin();
    let cross_origin = origin_of(url).is_some_and(|o| o != origin);
    if probe(url, RequestMode::NoCors, RequestRedirect::Follow)
        .await
        .is_some()
    {
        return FetchError::Cors {
            url: url.to_owned(),
            origin,
            redirected: !cross_origin,
        };
    }
    match probe(url, RequestMode::Cors, RequestRedirect::Manual).await {
        Some(ResponseType::Opaqueredirect) => FetchError::RedirectLoop {
            url: url.to_owned(),
        },
        _ => FetchError::Network {
            url: url.to_owned(),
            message: message.to_owned(),
        },
    }
}

/// A GET of `url` that reads nothing: the type of the answer, or `None` if there was none (or
/// none within [`PROBE_LIMIT`]).
async fn probe(url: &str, mode: RequestMode, redirect: RequestRedirect) -> Option<ResponseType> {
    let controller = AbortController::new().ok()?;
    let init = RequestInit::new();
    init.set_mode(mode);
    init.set_redirect(redirect);
    init.set_cache(RequestCache::NoStore);
    init.set_signal(Some(&controller.signal()));
    let request = Request::new_with_str_and_init(url, &init).ok()?;
    let answer = JsFuture::from(window().fetch_with_request(&request));
    let answer = std::pin::pin!(answer);
    let limit = std::pin::pin!(sleep(PROBE_LIMIT));
    match select(answer, limit).await {
        Either::Left((Ok(response), _)) => {
            let response = response.unchecked_into::<Response>();
            if let Some(body) = response.body() {
                let _ = body.cancel();
            }
            Some(response.type_())
        }
        Either::Left((Err(_), _)) => None,
        Either::Right(_) => {
            controller.abort();
            None
        }
    }
}

/// This page's origin (`https://agentclientprotocol.com`).
pub fn page_origin() -> String {
    window().location().origin().unwrap_or_default()
}

/// What a JavaScript exception says.
fn js_message(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "the request failed".to_owned())
}
