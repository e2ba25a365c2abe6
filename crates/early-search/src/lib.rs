//! The catalogue's early search (`acp-early`): what the page answers to a search typed before
//! the app is live.
//!
//! The catalogue arrives whole in its HTML, with a copy of every entry's card rendered by the
//! site's own components, and the fields the search reads of each entry
//! ([`card::searched_fields`]), both written by the build (`EarlyCards` in the site's
//! `routes/catalogue.rs`). The app takes seconds to arrive on a phone's link; this wasm is the
//! core's search and nothing else (no loader, no Leptos). The page (`src/early-search.js`)
//! indexes the fields with it ([`Early::new`]), asks it each query typed, and shows the cards it
//! names, in its order, marked where it says, with its count, until the app takes the page over
//! and shows the same: [`card::entries_of_fields`] rank and mark as the whole registry does
//! (registry-core's `tests/card.rs`), and a search with no filter is the catalogue's search
//! order ([`registry_core::Catalog::view`]). Filters and sorts wait for the app.

use std::ops::Range;

use registry_core::card::{self, CardTexts};
use registry_core::{Entry, SearchIndex};

/// The entries the page carries, indexed.
#[derive(Debug)]
pub struct Early {
    entries: Vec<Entry>,
    index: SearchIndex,
    any_extension: bool,
}

/// The answer to one query.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    /// How many entries match.
    pub total: usize,
    /// What the results' count says ([`card::count_label`]).
    pub count: String,
    /// The first results' entry indices, best first (the cards of the page's copy, in the
    /// registry's order).
    pub results: Vec<usize>,
    /// For each of those, the marks of its name, description and authors ([`CardTexts`]), as
    /// UTF-16 offsets, which the page's strings count in.
    pub marks: Vec<[Vec<[usize; 2]>; 3]>,
}

impl Early {
    /// Indexes the entries of `fields` ([`card::searched_fields`] of the registry the page was
    /// rendered from); `any_extension` says whether it holds extensions, which the count names.
    pub fn new(fields: &[String], any_extension: bool) -> Early {
        let entries = card::entries_of_fields(fields);
        let index = SearchIndex::new(&entries);
        Early {
            entries,
            index,
            any_extension,
        }
    }

    /// The answer to the search `q`: at most `limit` results.
    pub fn search(&self, q: &str, limit: usize) -> Answer {
        let matches = self.index.search(q);
        let total = matches.hits.len();
        let results: Vec<usize> = matches.hits.iter().take(limit).map(|h| h.entry).collect();
        let marks = results
            .iter()
            .map(|&i| {
                let texts = CardTexts::of(&self.entries[i]);
                [&texts.name, &texts.description, &texts.authors]
                    .map(|text| utf16(text, card::marks(&matches, text)))
            })
            .collect();
        Answer {
            total,
            count: card::count_label(total, self.any_extension),
            results,
            marks,
        }
    }
}

/// `ranges` of `text` (bytes) as UTF-16 offsets.
fn utf16(text: &str, ranges: Vec<Range<usize>>) -> Vec<[usize; 2]> {
    let at = |byte: usize| text[..byte].encode_utf16().count();
    ranges
        .into_iter()
        .filter(|r| text.is_char_boundary(r.start) && text.is_char_boundary(r.end))
        .map(|r| [at(r.start), at(r.end)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::utf16;

    #[test]
    #[allow(clippy::single_range_in_vec_init)]
    fn marks_are_counted_in_utf16() {
        assert_eq!(utf16("Gemini CLI", vec![7..10]), vec![[7, 10]]);
        // `é` is two bytes and one UTF-16 unit; `𝔸` four bytes and two units.
        assert_eq!(utf16("é𝔸 agent", vec![7..12]), vec![[4, 9]]);
    }
}
