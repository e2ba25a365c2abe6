//! Look-alikes, found in a worker.
//!
//! Finding entries that could pass for others (`registry_core::lookalike`) needs Unicode's
//! confusables and script tables, a fifth of the app's wasm. The page does not wait for them:
//! the app indexes the registry without look-alikes ([`catalog_of`]) and sends its entries'
//! text (`registry_core::lookalike::ListingText`) to a dedicated worker, a wasm of its own (the
//! `acp-lookalikes` crate, `crates/lookalike-worker`, built by Trunk as [`WORKER_SCRIPT`]) that
//! the page starts once the registry is shown and the page has answered the visitor
//! (`RegistryState::hold_extras`). Its answer is attached to the registry it was asked about,
//! if that is still the one on screen ([`super::RegistryState`]); the take-over of a
//! pre-rendered page waits for it as it waits for the optional files, so the warnings the
//! build wrote never go. The messages ([`Request`], [`Answer`], [`READY`]) are that crate's.
//! Natively (the build's renderer, tests) look-alikes are found at once.

use registry_core::{Catalog, Registry};

pub use acp_lookalikes::{Answer, Listings, READY, Request};
#[cfg(target_arch = "wasm32")]
pub use acp_lookalikes::{bytes_of, transferable};

/// The worker's script, relative to the page's `<base href>` (Trunk names worker files after
/// the bin, without a hash).
pub const WORKER_SCRIPT: &str = "acp-lookalikes_loader.js";

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
        let lookalikes = registry_core::Lookalikes::new(&catalog.registry.entries);
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
