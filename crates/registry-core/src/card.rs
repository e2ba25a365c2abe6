//! What a catalogue card shows of an entry that a search marks, and how much of it is marked.
//!
//! The site's cards and the page's early search (`crates/early-search`, which answers a search
//! before the app is live) both show these texts and mark them with these bounds, so that the
//! same query marks the same characters in either.
//!
//! ```
//! use registry_core::card::{CardTexts, marks};
//! # let registry = registry_core::load(r#"{"agents": [{"id": "gemini", "name": "Gemini CLI",
//! #   "version": "1", "description": "Google's agent", "authors": ["Google"],
//! #   "distribution": {"npx": {"package": "@google/gemini-cli"}}}]}"#).unwrap().registry;
//! let entry = &registry.entries[0];
//! let index = registry_core::SearchIndex::new(&registry.entries);
//! let matches = index.search("gemini");
//! let texts = CardTexts::of(entry);
//! assert_eq!(marks(&matches, &texts.name), vec![0..6]);
//! assert_eq!(texts.authors, "Google");
//! ```

use std::borrow::Cow;
use std::ops::Range;

use crate::model::{Distribution, Entry, Kind, Origin, PackageTarget};
use crate::search::Matches;

/// How many characters of a description a card holds (more than its two lines show).
pub const DESCRIPTION_CHARS: usize = 280;

/// How much of a text is looked at for marks (the rest is shown unmarked).
pub const MAX_HIGHLIGHT_BYTES: usize = 2_000;

/// The most marks made in one text.
pub const MAX_MARKS: usize = 24;

/// The texts of a card a search marks, as the card shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardTexts {
    /// The name.
    pub name: String,
    /// The description, cut to [`DESCRIPTION_CHARS`].
    pub description: String,
    /// The authors' names, joined by commas (empty without any).
    pub authors: String,
}

impl CardTexts {
    /// What `entry`'s card shows.
    pub fn of(entry: &Entry) -> CardTexts {
        CardTexts {
            name: entry.name.clone(),
            description: shorten(&entry.description, DESCRIPTION_CHARS).into_owned(),
            authors: entry.author_names().collect::<Vec<_>>().join(", "),
        }
    }
}

/// `text` cut to at most `max` characters, at the last space in its last fifth when there is
/// one, with `…` when anything was cut.
pub fn shorten(text: &str, max: usize) -> Cow<'_, str> {
    let Some((cut, _)) = text.char_indices().nth(max) else {
        return text.into();
    };
    let head = &text[..cut];
    let at_space = head
        .rfind(char::is_whitespace)
        .filter(|&at| head[..at].chars().count() >= max - max / 5)
        .map_or(head, |at| &head[..at]);
    format!("{}…", at_space.trim_end()).into()
}

/// The byte ranges of `text` that `matches` marks, within the bounds.
pub fn marks(matches: &Matches, text: &str) -> Vec<Range<usize>> {
    bounded(text, |head| matches.highlight(head))
}

/// The ranges `highlight` finds in the first [`MAX_HIGHLIGHT_BYTES`] of `text` (cut at a
/// character boundary), at most [`MAX_MARKS`] of them.
pub fn bounded(text: &str, highlight: impl FnOnce(&str) -> Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut end = text.len().min(MAX_HIGHLIGHT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut ranges = highlight(&text[..end]);
    ranges.truncate(MAX_MARKS);
    ranges
}

/// What the results' count says: "1 agent", "12 agents", or "results" when the registry holds
/// extensions too.
pub fn count_label(results: usize, any_extension: bool) -> String {
    let noun = match (any_extension, results) {
        (false, 1) => "agent",
        (false, _) => "agents",
        (true, 1) => "result",
        (true, _) => "results",
    };
    format!("{results} {noun}")
}

/// How many strings [`searched_fields`] writes per entry: name, id, description, authors (each
/// followed by [`AUTHOR_END`]), the npx package and the uvx package (empty without one).
pub const SEARCHED_FIELDS: usize = 6;

/// What ends each author in [`searched_fields`]' authors string.
pub const AUTHOR_END: char = '\u{1f}';

/// The fields of `entries` the search reads ([`crate::search`]: "What matches") and a card
/// shows, [`SEARCHED_FIELDS`] strings per entry, for a page to carry in place of the manifests.
/// Only for an ACP registry: an AgentRegistry agent's own fields are left out.
pub fn searched_fields(entries: &[Entry]) -> Vec<String> {
    let package = |target: &Option<PackageTarget>| {
        target.as_ref().map_or(String::new(), |t| t.package.clone())
    };
    entries
        .iter()
        .flat_map(|entry| {
            let authors = entry.authors.iter().fold(String::new(), |mut all, author| {
                all.push_str(author);
                all.push(AUTHOR_END);
                all
            });
            [
                entry.name.clone(),
                entry.id.clone(),
                entry.description.clone(),
                authors,
                package(&entry.distribution.npx),
                package(&entry.distribution.uvx),
            ]
        })
        .collect()
}

/// Entries holding what [`searched_fields`] wrote, and nothing else: the search ranks and marks
/// them as it does the entries they came from.
pub fn entries_of_fields(fields: &[String]) -> Vec<Entry> {
    let package = |spec: &String| {
        (!spec.is_empty()).then(|| PackageTarget {
            package: spec.clone(),
            ..PackageTarget::default()
        })
    };
    fields
        .chunks_exact(SEARCHED_FIELDS)
        .map(|f| Entry {
            name: f[0].clone(),
            id: f[1].clone(),
            description: f[2].clone(),
            authors: f[3]
                .split_terminator(AUTHOR_END)
                .map(str::to_owned)
                .collect(),
            distribution: Distribution {
                npx: package(&f[4]),
                uvx: package(&f[5]),
                ..Distribution::default()
            },
            kind: Kind::Agent,
            version: String::new(),
            repository: None,
            website: None,
            license: None,
            license_url: None,
            icon: None,
            raw: String::new(),
            origin: Origin::Acp,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{MAX_HIGHLIGHT_BYTES, MAX_MARKS, bounded, count_label, shorten};

    #[test]
    fn long_texts_are_cut_at_a_word_with_an_ellipsis() {
        for (text, max, expected) in [
            ("Gemini CLI", 10, "Gemini CLI"),
            ("", 5, ""),
            ("one two three four five", 12, "one two thre…"),
            ("one two three four five", 14, "one two three…"),
            ("abcdefghijklmnop", 10, "abcdefghij…"),
            ("ééééé ééééé", 8, "ééééé éé…"),
            ("a long sentence, cut", 18, "a long sentence,…"),
            ("a b", 2, "a…"),
        ] {
            assert_eq!(shorten(text, max), expected, "{text:?} {max}");
        }
        let megabyte = "word ".repeat(200_000);
        assert_eq!(shorten(&megabyte, 280).chars().count(), 280);
    }

    #[test]
    fn highlighting_looks_at_a_bounded_head_and_marks_a_bounded_number() {
        let marks_of = |needle: &'static str| {
            move |text: &str| -> Vec<std::ops::Range<usize>> {
                text.match_indices(needle)
                    .map(|(at, m)| at..at + m.len())
                    .collect()
            }
        };
        let repeated = "agent ".repeat(200_000);
        let ranges = bounded(&repeated, marks_of("agent"));
        assert_eq!(ranges.len(), MAX_MARKS);
        assert_eq!(ranges[0], 0..5);
        // Nothing past the head is looked at.
        let late = format!("{}agent", "x".repeat(MAX_HIGHLIGHT_BYTES));
        assert_eq!(
            bounded(&late, marks_of("agent")),
            Vec::<std::ops::Range<usize>>::new()
        );
        // The head is cut on a character boundary.
        let wide = "é".repeat(MAX_HIGHLIGHT_BYTES);
        let seen = std::cell::Cell::new(0);
        bounded(&wide, |head| {
            seen.set(head.len());
            vec![]
        });
        assert_eq!(seen.get(), MAX_HIGHLIGHT_BYTES);
        assert_eq!(bounded("Gemini CLI", marks_of("CLI")), vec![7..10]);
    }

    #[test]
    fn the_count_names_agents_or_results() {
        assert_eq!(count_label(1, false), "1 agent");
        assert_eq!(count_label(0, false), "0 agents");
        assert_eq!(count_label(12, false), "12 agents");
        assert_eq!(count_label(1, true), "1 result");
        assert_eq!(count_label(3, true), "3 results");
    }
}
