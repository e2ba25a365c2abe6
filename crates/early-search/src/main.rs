//! The early search's wasm, as the fetch worker loads it: [`acp_early::Early`] behind
//! `wasm-bindgen` (Trunk builds it as a worker's script, `--target no-modules`).

#[cfg(target_arch = "wasm32")]
mod exported {
    use acp_early::{Answer, Early};
    use wasm_bindgen::prelude::*;

    /// [`Early`], for JavaScript, with its last answer.
    #[wasm_bindgen]
    #[derive(Debug)]
    pub struct EarlySearch {
        early: Early,
        last: Option<Answer>,
    }

    #[wasm_bindgen]
    impl EarlySearch {
        /// Indexes `fields` (`registry_core::card::searched_fields`).
        #[wasm_bindgen(constructor)]
        pub fn new(fields: Vec<String>, any_extension: bool) -> EarlySearch {
            EarlySearch {
                early: Early::new(&fields, any_extension),
                last: None,
            }
        }

        /// Searches `q`, keeping at most `limit` results; the getters read the answer.
        pub fn search(&mut self, q: &str, limit: usize) {
            self.last = Some(self.early.search(q, limit));
        }

        /// [`Answer::total`].
        pub fn total(&self) -> usize {
            self.last.as_ref().map_or(0, |a| a.total)
        }

        /// [`Answer::count`].
        pub fn count(&self) -> String {
            self.last
                .as_ref()
                .map_or_else(String::new, |a| a.count.clone())
        }

        /// [`Answer::results`].
        pub fn results(&self) -> Vec<u32> {
            let results = self
                .last
                .as_ref()
                .map(|a| a.results.as_slice())
                .unwrap_or_default();
            results.iter().map(|&i| i as u32).collect()
        }

        /// The marks of the `result`th result's `text` (0 name, 1 description, 2 authors):
        /// start and end pairs, flat.
        pub fn marks(&self, result: usize, text: usize) -> Vec<u32> {
            let marks = self
                .last
                .as_ref()
                .and_then(|a| a.marks.get(result)?.get(text));
            marks
                .into_iter()
                .flatten()
                .flat_map(|&[start, end]| [start as u32, end as u32])
                .collect()
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "acp-early is the catalogue's early search, built to WebAssembly by Trunk \
         (`cargo xtask dist`)"
    );
    std::process::exit(2);
}
