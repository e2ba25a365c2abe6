//! The look-alike worker's side of the catalogue: the messages between the page and the worker
//! (`acp-lookalikes`, a dedicated worker the catalogue starts, in a wasm of its own, see
//! `src/main.rs`), and the worker's answer.
//!
//! Finding entries that could pass for others (`registry_core::lookalike`) needs Unicode's
//! confusables and script tables, a fifth of what the page's wasm would be: the page never links
//! them, and this crate is apart from the app's, so that changing the app compiles the worker
//! again only when something it uses changed.
//!
//! The messages are JSON as UTF-8 bytes in a transferred `Uint8Array` (a string would be
//! decoded and encoded again on the page's thread, tens of milliseconds at 10,000 entries):
//! [`Request`] one way (encoded a listing at a time with [`Listings`]), [`Answer`] the other,
//! each with the number of the request; the worker says [`READY`], a string, once it listens.

use registry_core::Lookalikes;
use registry_core::lookalike::ListingText;
use serde::{Deserialize, Serialize};

/// What the worker says once it listens.
pub const READY: &str = "ready";

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
