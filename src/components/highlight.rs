//! Text with the parts that matched the search marked.
//!
//! [`Highlights`] is what the search matched, as a signal a card reads for each of its texts;
//! [`Highlighted`] renders one text with its ranges in `<mark>` ([`MARK_CLASS`]). The work per
//! text is bounded, whatever the registry holds ([`registry_core::card::marks`]: a description
//! repeating the searched word 42,000 times would otherwise cost a second of `<mark>`s per
//! keystroke).

use std::ops::Range;
use std::sync::Arc;

use leptos::either::Either;
use leptos::prelude::*;
use registry_core::Matches;

/// The classes of a `<mark>`: the page's early search marks its cards with a copy of one this
/// component rendered (`EarlyCards` in `routes/catalogue.rs`).
pub const MARK_CLASS: &str =
    "rounded-sm bg-amber-200 text-slate-950 dark:bg-amber-500/40 dark:text-white";

/// What the current search matched, to mark in the text a component shows.
#[derive(Clone, Copy, Debug)]
pub struct Highlights(Signal<Arc<Matches>>);

impl Highlights {
    /// The matches of `matches` (typically derived from the catalogue's view).
    pub fn new(matches: Signal<Arc<Matches>>) -> Highlights {
        Highlights(matches)
    }

    /// Nothing to mark (outside a search).
    pub fn none() -> Highlights {
        Highlights(Signal::stored(Arc::default()))
    }

    /// The byte ranges of `text` to mark, within the bounds: tracked, so a view calling it
    /// follows the search.
    pub fn ranges(self, text: &str) -> Vec<Range<usize>> {
        self.0.with(|m| registry_core::card::marks(m, text))
    }
}

/// `text` split at `ranges` (byte ranges, sorted, disjoint), the ranges wrapped in `<mark>`.
/// The text is always rendered as text, never parsed as markup.
#[component]
pub fn Highlighted(
    /// The text to show.
    text: String,
    /// Byte ranges of `text` to mark.
    ranges: Vec<Range<usize>>,
) -> impl IntoView {
    segments(&text, &ranges)
        .into_iter()
        .map(|(segment, marked)| {
            if marked {
                Either::Left(view! { <mark class=MARK_CLASS>{segment}</mark> })
            } else {
                Either::Right(segment)
            }
        })
        .collect_view()
}

/// Splits `text` into `(segment, marked)` pieces; ranges that are out of bounds or not on
/// character boundaries are ignored rather than trusted.
pub fn segments(text: &str, ranges: &[Range<usize>]) -> Vec<(String, bool)> {
    let mut out = Vec::with_capacity(ranges.len() * 2 + 1);
    let mut at = 0;
    for range in ranges {
        let valid = range.start >= at
            && range.start < range.end
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end);
        if !valid {
            continue;
        }
        if range.start > at {
            out.push((text[at..range.start].to_owned(), false));
        }
        out.push((text[range.clone()].to_owned(), true));
        at = range.end;
    }
    if at < text.len() || out.is_empty() {
        out.push((text[at..].to_owned(), false));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::segments;

    #[test]
    // Slices of one range are the point of these cases, not a mistaken `vec![a..b]`.
    #[allow(clippy::single_range_in_vec_init)]
    fn splits_around_ranges_and_ignores_bad_ones() {
        let check = |text: &str, ranges: &[std::ops::Range<usize>], expected: &[(&str, bool)]| {
            let got = segments(text, ranges);
            let got: Vec<(&str, bool)> = got.iter().map(|(s, m)| (s.as_str(), *m)).collect();
            assert_eq!(got, expected, "{text:?} {ranges:?}");
        };
        check("Gemini CLI", &[0..6], &[("Gemini", true), (" CLI", false)]);
        check("Gemini CLI", &[7..10], &[("Gemini ", false), ("CLI", true)]);
        check("abc", &[], &[("abc", false)]);
        check("", &[], &[("", false)]);
        check("héllo", &[1..2], &[("héllo", false)]); // not a char boundary
        check("abc", &[1..9], &[("abc", false)]); // out of bounds
        check(
            "abcdef",
            &[0..2, 1..3, 4..6],
            &[("ab", true), ("cd", false), ("ef", true)],
        );
    }
}
