//! Look-alikes, found in a worker.
//!
//! Finding entries that could pass for others (`registry_core::lookalike`) needs Unicode's
//! confusables and script tables, a fifth of the app's wasm. The page does not wait for them:
//! the app indexes the registry without look-alikes ([`catalog_of`]) and sends its entries'
//! text ([`ListingText`]) to a dedicated worker, a wasm of its own (the `acp-lookalikes` bin,
//! built by Trunk as [`WORKER_SCRIPT`]) that the page starts once the registry is shown and the
//! page has answered the visitor (`RegistryState::hold_extras`). Its answer is attached to the registry it was asked about, if that is
//! still the one on screen ([`super::RegistryState`]); the take-over of a pre-rendered page
//! waits for it as it waits for the optional files, so the warnings the build wrote never go.
//!
//! The messages are JSON as UTF-8 bytes in a transferred `Uint8Array` (a string would be
//! decoded and encoded again on the page's thread, tens of milliseconds at 10,000 entries):
//! [`Request`] one way, [`Answer`] the other, each with the number of the request; the worker
//! says `"ready"`, a string, once it listens. Natively (the build's
//! renderer, tests) look-alikes are found at once.

use registry_core::lookalike::ListingText;
use registry_core::{Catalog, Lookalikes, Registry};
use serde::{Deserialize, Serialize};

/// The worker's script, relative to the page's `<base href>` (Trunk names worker files after
/// the bin, without a hash).
pub const WORKER_SCRIPT: &str = "acp-lookalikes_loader.js";

/// What the worker says once it listens.
pub const READY: &str = "ready";

/// Where finding the look-alikes of the registry on screen stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Check {
    /// Asked for, not answered yet.
    #[default]
    Pending,
    /// Found and attached.
    Done,
    /// Could not be found: why, in a sentence. The catalogue works without them, unflagged.
    Failed(String),
}

/// What the page asks the worker.
#[derive(Debug, Serialize, Deserialize)]
pub struct Request {
    /// The request's number, given back with the answer.
    pub id: u32,
    /// The entries, in the registry's order.
    pub listings: Vec<ListingText>,
}

/// The listings of a [`Request`], encoded as its JSON one at a time, so that the page can
/// encode a large registry's in slices (50,000 entries in one go were a task of about 100 ms).
#[derive(Debug, Default)]
pub struct Listings {
    /// The JSON array so far, without its closing bracket.
    json: Vec<u8>,
}

impl Listings {
    /// Adds the listing of the next entry.
    pub fn push(&mut self, listing: &ListingText) {
        self.json
            .push(if self.json.is_empty() { b'[' } else { b',' });
        serde_json::to_writer(&mut self.json, listing)
            .expect("a listing is strings and lists of strings, which always encode");
    }

    /// The JSON of the [`Request`] numbered `id` carrying these listings.
    pub fn request(self, id: u32) -> Vec<u8> {
        let mut request = format!("{{\"id\":{id},\"listings\":").into_bytes();
        if self.json.is_empty() {
            request.extend_from_slice(b"[]");
        } else {
            request.extend_from_slice(&self.json);
            request.push(b']');
        }
        request.push(b'}');
        request
    }
}

/// What the worker answers.
#[derive(Debug, Serialize, Deserialize)]
pub struct Answer {
    /// The request's number.
    pub id: u32,
    /// The look-alikes of its listings.
    pub lookalikes: Lookalikes,
}

/// The worker's answer to one message: the look-alikes of a [`Request`], or `None` for a
/// message that is not one.
pub fn answer(message: &[u8]) -> Option<Vec<u8>> {
    let request: Request = serde_json::from_slice(message).ok()?;
    let answer = Answer {
        id: request.id,
        lookalikes: Lookalikes::of_texts(&request.listings),
    };
    serde_json::to_vec(&answer).ok()
}

/// `bytes` as a `Uint8Array` of their own, and the list that transfers its buffer with a
/// message (`post_message_with_transfer`), so that it is moved, not copied.
#[cfg(target_arch = "wasm32")]
pub fn transferable(bytes: &[u8]) -> (js_sys::Uint8Array, js_sys::Array) {
    let array = js_sys::Uint8Array::from(bytes);
    let transfer = js_sys::Array::of1(&array.buffer());
    (array, transfer)
}

/// The bytes of a message's `Uint8Array`, if it is one.
#[cfg(target_arch = "wasm32")]
pub fn bytes_of(data: &wasm_bindgen::JsValue) -> Option<Vec<u8>> {
    use wasm_bindgen::JsCast;
    data.dyn_ref::<js_sys::Uint8Array>()
        .map(js_sys::Uint8Array::to_vec)
}

/// The catalogue of `registry`, and where its look-alikes stand: in the browser without them
/// (the worker finds them); natively with them.
pub fn catalog_of(registry: Registry) -> (Catalog, Check) {
    with_lookalikes(Catalog::without_lookalikes(registry))
}

/// A catalogue indexed without look-alikes, and where they stand: in the browser still to be
/// found (the worker finds them); natively found and attached at once.
pub fn with_lookalikes(catalog: Catalog) -> (Catalog, Check) {
    #[cfg(target_arch = "wasm32")]
    {
        (catalog, Check::Pending)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mut catalog = catalog;
        let lookalikes = Lookalikes::new(&catalog.registry.entries);
        catalog.set_lookalikes(lookalikes);
        (catalog, Check::Done)
    }
}

#[cfg(target_arch = "wasm32")]
pub use worker::{find, start};

/// Natively there is no worker to start: look-alikes are found with the catalogue.
#[cfg(not(target_arch = "wasm32"))]
pub fn start() {}

#[cfg(target_arch = "wasm32")]
mod worker {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use futures::channel::oneshot;
    use registry_core::Lookalikes;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{ErrorEvent, Event, MessageEvent, Worker};

    use super::{Answer, Listings, READY, WORKER_SCRIPT};

    type Reply = oneshot::Sender<Result<Lookalikes, String>>;

    /// Posts a request's bytes to the worker, transferring them.
    fn send(worker: &Worker, message: &[u8]) {
        let (data, transfer) = super::transferable(message);
        let _ = worker.post_message_with_transfer(&data, &transfer);
    }

    /// The worker, the requests it has not answered, and those waiting for it to listen.
    struct Checker {
        worker: Option<Worker>,
        ready: bool,
        queued: Vec<Vec<u8>>,
        next: u32,
        waiting: HashMap<u32, Reply>,
        /// Why it cannot answer, once it cannot.
        broken: Option<String>,
    }

    impl Checker {
        /// A worker that has not said it listens yet, or none and why.
        fn new(worker: Option<Worker>, broken: Option<String>) -> Checker {
            Checker {
                worker,
                ready: false,
                queued: Vec::new(),
                next: 0,
                waiting: HashMap::new(),
                broken,
            }
        }
    }

    thread_local! {
        static CHECKER: RefCell<Option<Checker>> = const { RefCell::new(None) };
    }

    /// Starts the worker; once is enough.
    pub fn start() {
        CHECKER.with_borrow_mut(|checker| {
            if checker.is_none() {
                *checker = Some(spawn());
            }
        });
    }

    fn spawn() -> Checker {
        let worker = match Worker::new(WORKER_SCRIPT) {
            Ok(worker) => worker,
            Err(error) => {
                let why = error
                    .dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| "workers are not available".to_owned());
                return Checker::new(None, Some(why));
            }
        };
        let on_message = Closure::<dyn Fn(MessageEvent)>::new(|event: MessageEvent| {
            let data = event.data();
            if data.as_string().as_deref() == Some(READY) {
                listening();
            } else if let Some(bytes) = super::bytes_of(&data) {
                received(&bytes);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        // A script that fails to load fires a plain `Event`; only an error thrown inside the
        // worker comes as an `ErrorEvent` with a message.
        let on_error = Closure::<dyn Fn(Event)>::new(|event: Event| {
            event.prevent_default();
            let message = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|message| !message.is_empty());
            broke(message.unwrap_or_else(|| format!("{WORKER_SCRIPT} could not be started")));
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_error.forget();
        Checker::new(Some(worker), None)
    }

    /// Finds the look-alikes of `listings` in the worker.
    pub async fn find(listings: Listings) -> Result<Lookalikes, String> {
        start();
        let answer = CHECKER.with_borrow_mut(|checker| {
            let checker = checker.as_mut().expect("started");
            if let Some(why) = &checker.broken {
                return Err(why.clone());
            }
            let id = checker.next;
            checker.next = checker.next.wrapping_add(1);
            let message = listings.request(id);
            let (reply, answer) = oneshot::channel();
            checker.waiting.insert(id, reply);
            if let (true, Some(worker)) = (checker.ready, &checker.worker) {
                send(worker, &message);
            } else {
                checker.queued.push(message);
            }
            Ok(answer)
        })?;
        answer
            .await
            .unwrap_or_else(|_| Err("the look-alike check stopped".to_owned()))
    }

    /// The worker listens: the requests queued go.
    fn listening() {
        CHECKER.with_borrow_mut(|checker| {
            if let Some(checker) = checker {
                checker.ready = true;
                if let Some(worker) = &checker.worker {
                    for message in checker.queued.drain(..) {
                        send(worker, &message);
                    }
                }
            }
        });
    }

    fn received(bytes: &[u8]) {
        let Ok(answer) = serde_json::from_slice::<Answer>(bytes) else {
            return broke("the look-alike check answered what it was not asked".to_owned());
        };
        let reply = CHECKER.with_borrow_mut(|checker| {
            checker
                .as_mut()
                .and_then(|checker| checker.waiting.remove(&answer.id))
        });
        if let Some(reply) = reply {
            let _ = reply.send(Ok(answer.lookalikes));
        }
    }

    /// The worker cannot answer: every request waiting, and every later one, fails with why.
    fn broke(why: String) {
        let waiting = CHECKER.with_borrow_mut(|checker| {
            let Some(checker) = checker else {
                return Vec::new();
            };
            checker.broken = Some(why.clone());
            checker.queued.clear();
            if let Some(worker) = checker.worker.take() {
                worker.terminate();
            }
            checker.waiting.drain().map(|(_, reply)| reply).collect()
        });
        for reply in waiting {
            let _ = reply.send(Err(why.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use registry_core::Entry;

    use super::*;

    fn entry(id: &str, name: &str) -> Entry {
        let text = format!(
            r#"{{"version":"1.0.0","agents":[{{"id":"{id}","name":"{name}","version":"1.0.0","description":"d","distribution":{{"npx":{{"package":"x"}}}}}}]}}"#
        );
        registry_core::load(&text)
            .unwrap()
            .registry
            .entries
            .remove(0)
    }

    #[test]
    fn the_worker_answers_a_request_with_its_lookalikes_and_ignores_anything_else() {
        let entries = [
            entry("gemini", "Gemini CLI"),
            entry("g2", "G\u{435}mini CLI"),
        ];
        let request = Request {
            id: 7,
            listings: entries.iter().map(ListingText::of).collect(),
        };
        let bytes = answer(&serde_json::to_vec(&request).unwrap()).unwrap();
        let answer: Answer = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(answer.id, 7);
        assert_eq!(answer.lookalikes, Lookalikes::new(&entries));
        assert!(!answer.lookalikes.is_empty());
        assert_eq!(super::answer(b"not a request"), None);
        assert_eq!(super::answer(READY.as_bytes()), None);
    }

    #[test]
    fn listings_encoded_one_at_a_time_are_the_request_serde_encodes() {
        let entries = [
            entry("gemini", "Gemini <CLI> & \u{1F600}"),
            entry("g2", "G\u{435}mini CLI"),
        ];
        for count in 0..=entries.len() {
            let listings: Vec<_> = entries[..count].iter().map(ListingText::of).collect();
            let mut encoded = Listings::default();
            for listing in &listings {
                encoded.push(listing);
            }
            let expected = serde_json::to_vec(&Request { id: 3, listings }).unwrap();
            assert_eq!(
                String::from_utf8(encoded.request(3)).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
    }
}
