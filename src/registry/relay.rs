//! GETs made by the fetch worker (`src/fetch-worker.js`), off the page's thread.
//!
//! Chromium decodes a compressed body on the thread that reads it: a 10 MB registry served with
//! brotli costs the thread that reads it one task of about 100 ms, which the page's slices of
//! reading and indexing cannot cut. Read in a worker, it costs the page nothing but the chunks'
//! messages. The page's start-up script starts the worker once the page is painted and has it
//! download the registry at once (where it used to preload it), and leaves it in
//! `window.acpFetchWorker`; [`get`] claims that download, or asks the worker for a GET of its
//! own, and hands its messages over one by one ([`Message`]). Where there is no worker (the
//! script could not start one, or it failed to load), [`get`] says so and the caller fetches
//! on the page's thread; one that breaks later ends what it was doing with [`Message::Lost`].

use std::cell::RefCell;
use std::collections::HashMap;

use futures::channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use js_sys::{Object, Reflect, Uint8Array};
use leptos::prelude::window;
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Event, MessageEvent, Worker};

/// The global the start-up script leaves the worker in.
const GLOBAL: &str = "acpFetchWorker";

/// What the worker says of a request.
#[derive(Debug)]
pub enum Message {
    /// The answer's status and headers (those the app reads, by lower-case name).
    Head {
        /// The HTTP status.
        status: u16,
        /// Its reason phrase.
        status_text: String,
        /// The headers, as an object.
        headers: JsValue,
    },
    /// A piece of the body.
    Chunk(Uint8Array),
    /// The body is whole.
    Done,
    /// The request failed (before its [`Message::Head`]: no answer; after it: the body broke
    /// off): what the browser said.
    Failed(String),
    /// The worker stopped working: the request is to be made on the page's thread.
    Lost,
}

/// A request the worker is making: its messages, and an abort when dropped.
#[derive(Debug)]
pub struct Relayed {
    /// Its messages, in order.
    pub messages: UnboundedReceiver<Message>,
    id: u32,
}

impl Drop for Relayed {
    fn drop(&mut self) {
        let id = self.id;
        RELAY.with_borrow_mut(|relay| {
            if let Some(relay) = relay
                && relay.waiting.remove(&id).is_some()
            {
                let message = Object::new();
                let _ = Reflect::set(&message, &"abort".into(), &id.into());
                let _ = relay.worker.post_message(&message);
            }
        });
    }
}

/// The worker and the requests it is making.
struct Relay {
    worker: Worker,
    next: u32,
    waiting: HashMap<u32, UnboundedSender<Message>>,
}

thread_local! {
    /// The worker, once the app has taken it from the start-up script.
    static RELAY: RefCell<Option<Relay>> = const { RefCell::new(None) };
}

/// Has the worker GET `url` with `init` (`fetch`'s options: `cache`, `headers`), or, with
/// `claim`, hand over its download of `url` begun at start-up (a plain GET, made anew if there
/// was none). `None` when there is no worker.
pub fn get(url: &str, init: &Object, claim: bool) -> Option<Relayed> {
    RELAY.with_borrow_mut(|relay| {
        if relay.is_none() {
            *relay = take_worker().map(|worker| Relay {
                worker,
                next: 0,
                waiting: HashMap::new(),
            });
        }
        let relay = relay.as_mut()?;
        relay.next += 1;
        let id = relay.next;
        let message = Object::new();
        let _ = Reflect::set(&message, &"id".into(), &id.into());
        let _ = Reflect::set(&message, &"url".into(), &url.into());
        let _ = Reflect::set(&message, &"init".into(), init);
        let _ = Reflect::set(&message, &"claim".into(), &claim.into());
        relay.worker.post_message(&message).ok()?;
        let (sender, messages) = unbounded();
        relay.waiting.insert(id, sender);
        Some(Relayed { messages, id })
    })
}

/// The worker the start-up script started, listened to; `None` if there is none.
fn take_worker() -> Option<Worker> {
    let worker = Reflect::get(&window(), &GLOBAL.into())
        .ok()?
        .dyn_into::<Worker>()
        .ok()?;
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|event: MessageEvent| {
        received(&event.data());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    // A script that fails to load fires a plain `Event`; an error inside it an `ErrorEvent`.
    let on_error = Closure::<dyn Fn(Event)>::new(|_: Event| lost());
    let _ = worker.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
    on_error.forget();
    Some(worker)
}

/// Hands a message of the worker to the request it is about.
fn received(data: &JsValue) {
    let field = |name: &str| Reflect::get(data, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let Some(id) = field("id").as_f64().map(|id| id as u32) else {
        return;
    };
    let head = field("head");
    let chunk = field("chunk");
    let error = field("error");
    let (message, last) = if head.is_object() {
        let head_field = |name: &str| Reflect::get(&head, &name.into()).unwrap_or_default();
        let head = Message::Head {
            status: head_field("status").as_f64().unwrap_or(0.0) as u16,
            status_text: head_field("statusText").as_string().unwrap_or_default(),
            headers: head_field("headers"),
        };
        (head, false)
    } else if let Some(chunk) = chunk.dyn_ref::<Uint8Array>() {
        (Message::Chunk(chunk.clone()), false)
    } else if let Some(message) = error.as_string() {
        (Message::Failed(message), true)
    } else {
        (Message::Done, true)
    };
    RELAY.with_borrow_mut(|relay| {
        let Some(relay) = relay else { return };
        let sender = if last {
            relay.waiting.remove(&id)
        } else {
            relay.waiting.get(&id).cloned()
        };
        if let Some(sender) = sender {
            let _ = sender.unbounded_send(message);
        }
    });
}

/// The worker broke: every request it was making is to be made on the page's thread, and so is
/// every later one.
fn lost() {
    let waiting = RELAY.with_borrow_mut(|relay| relay.take().map(|relay| relay.waiting));
    let _ = Reflect::set(&window(), &GLOBAL.into(), &JsValue::UNDEFINED);
    for (_, sender) in waiting.into_iter().flatten() {
        let _ = sender.unbounded_send(Message::Lost);
    }
}

/// The value of header `name` (lower case) in a [`Message::Head`]'s headers.
pub fn header(headers: &JsValue, name: &str) -> Option<String> {
    Reflect::get(headers, &name.into()).ok()?.as_string()
}
