//! Typo-tolerant, ranked search over a registry's entries.
//!
//! ```
//! use registry_core::SearchIndex;
//! # let entries = Vec::new();
//! let index = SearchIndex::new(&entries);
//! let matches = index.search("gemni cli");
//! for hit in &matches.hits {
//!     let name = &entries[hit.entry].name;
//!     let marks = matches.highlight(name); // byte ranges of `name` to emphasise
//! #   let _ = marks;
//! }
//! ```
//!
//! # What matches
//!
//! Text is cut into *words*: maximal runs of alphanumeric characters, lowercased character by
//! character (Unicode-aware, `İ` → `i`, `ς` → `σ`), so `claude-acp` is `claude` and `acp`. The
//! query is cut the same way into *terms*, and every term must match a word of some field of an
//! entry (AND); the fields are the name, id, description, author names (without e-mail) and the
//! npx/uvx package names (without version), and, for an [AgentRegistry](crate::agentregistry)
//! agent, its capability names and tags, label values and endpoint protocols. A term matches a
//! word
//!
//! - exactly;
//! - as a prefix of it (`gem` → `gemini`);
//! - inside it, for terms of at least three characters (`code` → `opencode`);
//! - with typos, counted as the optimal-string-alignment form of Damerau–Levenshtein distance
//!   (an adjacent transposition costs one): none for terms under four characters, one for four to
//!   seven, two from eight on. The last term, still being typed, may also match the beginning of
//!   a word with typos (`gemn` → `gemini`).
//!
//! Typos are a fallback, as Algolia's `typoTolerance: min`: when some entry matches every term
//! without a typo, only such entries are returned, so `code` does not also list everything
//! mentioning `node` or `mode`. Only when no entry matches without one are typo matches used.
//!
//! # Ranking
//!
//! An entry's score adds up, over the terms, the best score of that term in the entry. Name and
//! id words weigh most, then description, author, package-name and AgentRegistry words; within a
//! field an exact word beats a prefix, which beats a substring, and every typo match scores below
//! any of those. Earlier words of a field score a little more. The whole query (its terms joined by spaces)
//! equal to the entry's name or id, likewise normalised, earns a large bonus, and being a prefix
//! of either a smaller one. Ties are broken by name (case-insensitively), then id, so the order
//! is deterministic. An empty query matches every entry, in name order, with score 0.
//!
//! An index built [`with_lookalikes`](SearchIndex::with_lookalikes) keeps each impostor
//! ([`Lookalikes::original_of`]) below its original: scored one below it when it would score as
//! much or more, and after it in name order when their names tie.
//!
//! # Cost
//!
//! [`SearchIndex::new`] collects the distinct words of all entries into a sorted vocabulary with
//! postings (word → entry, field, position). [`SearchIndex::search`] matches each term against
//! the vocabulary once — a binary search for exact and prefix words, one substring scan over the
//! concatenated vocabulary, and, only when no entry matches without typos, a bounded edit
//! distance behind a length and character-set filter, with early exit — then adds up scores
//! through the postings. No entry text is scanned at search time; [`Matches::highlight`] scans
//! only the text it is given. At 10,000 entries (44,000 distinct words) a search with facet
//! counts takes well under a millisecond natively, typo fallback included.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::lookalike::Lookalikes;
use crate::model::Entry;

/// A search index over a registry's entries.
///
/// A clone shares the words and postings (see [`Words`]) and copies only the name order, which
/// is all that [`SearchIndex::set_lookalikes`] changes.
#[derive(Clone, Debug, Default)]
pub struct SearchIndex {
    /// The vocabulary, the postings and the entries' name and id keys.
    words: Arc<Words>,
    /// Per entry, its place in name order.
    name_ranks: Vec<u32>,
    /// Entries in name order.
    by_name: Vec<u32>,
    /// Per entry, the original it imitates ([`Lookalikes::original_of`]); empty when no entry
    /// imitates another.
    originals: Vec<Option<u32>>,
}

/// What a search looks words up in, built once per registry.
#[derive(Debug, Default)]
struct Words {
    /// The distinct words of all entries, sorted, each followed by `\n`, so that one substring
    /// search over it finds every word containing a term.
    vocabulary: String,
    /// Byte offset of each word in `vocabulary`, plus one past the end.
    word_starts: Vec<u32>,
    /// Length of each word in characters, saturated at 255.
    word_char_lens: Vec<u8>,
    /// The characters of each word, as a set of [`char_bit`]s.
    word_chars: Vec<u64>,
    /// The occurrences of word `w` are `postings[posting_starts[w]..posting_starts[w + 1]]`.
    postings: Vec<Posting>,
    /// Start of each word's postings, plus one past the end.
    posting_starts: Vec<u32>,
    /// Per entry, its name's words joined by single spaces.
    name_keys: Vec<Box<str>>,
    /// Per entry, its id's words joined by single spaces.
    id_keys: Vec<Box<str>>,
}

/// A search index built a few pieces at a time ([`SearchIndexBuilder::step`]), as
/// [`SearchIndex::with_lookalikes`] builds it at once: a page indexing a large registry lets
/// the browser paint in between. A step indexes entries' words, then lays out the sorted
/// vocabulary and its postings, then makes the entries' name and id keys and lower-cases their
/// names; only sorting the vocabulary (one step) and the names ([`SearchIndexBuilder::finish`])
/// are one piece each.
///
/// ```
/// use registry_core::search::SearchIndexBuilder;
/// # let entries = registry_core::load(r#"{"agents": [
/// #   {"id": "a", "name": "Alpha", "version": "1", "description": "d", "distribution": {"npx": {"package": "a"}}},
/// #   {"id": "b", "name": "Beta", "version": "1", "description": "d", "distribution": {"npx": {"package": "b"}}}]}"#)
/// #   .unwrap().registry.entries;
/// let mut building = SearchIndexBuilder::default();
/// while !building.step(&entries, 1) {}
/// let index = building.finish(&entries, &Default::default());
/// assert_eq!(index.search("beta").hits[0].entry, 1);
/// ```
#[derive(Debug, Default)]
pub struct SearchIndexBuilder {
    /// Each distinct word found so far, numbered in the order found.
    word_ids: FxHashMap<String, u32>,
    /// Per word (numbered in the order found), its postings in the order found: by entry,
    /// field, position, only the first in each field of an entry.
    found: Vec<Vec<Posting>>,
    /// The words in vocabulary order, with their numbers, once sorted.
    sorted: Vec<(String, u32)>,
    /// How many entries' words are indexed.
    indexed: usize,
    /// The entries' names lower-cased, for the name order.
    lower_names: Vec<String>,
    /// What is laid out so far.
    words: Words,
    phase: Build,
}

/// How far a [`SearchIndexBuilder`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Build {
    /// Indexing entries' words; the next entry.
    #[default]
    Entries,
    /// The vocabulary sorted; the next word to lay out.
    Layout(usize),
    /// The next entry whose keys to make.
    Keys(usize),
    /// The next entry whose name to lower-case, for the name order.
    Names(usize),
    /// All but the name order done.
    Done,
}

impl SearchIndexBuilder {
    /// Does up to `count` more entries' (or words') share of the work on `entries` (the same
    /// slice at every call); `true` once only [`SearchIndexBuilder::finish`] is left.
    pub fn step(&mut self, entries: &[Entry], count: usize) -> bool {
        match self.phase {
            Build::Entries => {
                if self.add(entries, count) {
                    self.sort();
                }
            }
            Build::Layout(next) => self.lay_out(next, count),
            Build::Keys(next) => self.keys(entries, next, count),
            Build::Names(next) => {
                let end = next.saturating_add(count).min(entries.len());
                self.lower_names
                    .extend(entries[next..end].iter().map(|e| e.name.to_lowercase()));
                self.phase = if end == entries.len() {
                    Build::Done
                } else {
                    Build::Names(end)
                };
            }
            Build::Done => {}
        }
        self.phase == Build::Done
    }

    /// Indexes up to `count` more entries' words; `true` once every entry's are.
    fn add(&mut self, entries: &[Entry], count: usize) -> bool {
        let start = self.indexed;
        let end = start.saturating_add(count).min(entries.len());
        let Self {
            word_ids, found, ..
        } = self;
        for (entry, e) in entries.iter().enumerate().take(end).skip(start) {
            let entry = u32::try_from(entry).expect("fewer than 2^32 entries");
            let mut add = |field: Field, text: &str, first_position: usize| -> usize {
                let mut position = first_position;
                for_each_word(text, |_, word| {
                    let id = match word_ids.get(word) {
                        Some(&id) => id,
                        None => {
                            let id = u32::try_from(word_ids.len()).expect("fewer than 2^32 words");
                            word_ids.insert(word.to_owned(), id);
                            found.push(Vec::new());
                            id
                        }
                    };
                    let postings = &mut found[id as usize];
                    // A field's words are indexed together: an earlier occurrence in the same
                    // field of the same entry is the last one.
                    if postings
                        .last()
                        .is_none_or(|p| (p.entry, p.field) != (entry, field))
                    {
                        postings.push(Posting {
                            entry,
                            field,
                            position: u16::try_from(position).unwrap_or(u16::MAX),
                        });
                    }
                    position += 1;
                });
                position
            };
            add(Field::Name, &e.name, 0);
            add(Field::Id, &e.id, 0);
            add(Field::Description, &e.description, 0);
            let mut position = 0;
            for author in e.author_names() {
                position = add(Field::Author, author, position);
            }
            let mut position = 0;
            for target in [&e.distribution.npx, &e.distribution.uvx]
                .into_iter()
                .flatten()
            {
                position = add(Field::Package, package_name(&target.package), position);
            }
            if let Some(agent) = e.service() {
                let mut position = 0;
                for text in agent.search_texts() {
                    position = add(Field::Service, text, position);
                }
            }
        }
        self.indexed = end;
        end == entries.len()
    }

    /// Sorts the vocabulary: the one piece of the words' work.
    fn sort(&mut self) {
        let mut sorted: Vec<(String, u32)> =
            std::mem::take(&mut self.word_ids).into_iter().collect();
        sorted.sort_unstable();
        let words = &mut self.words;
        words.word_starts.reserve(sorted.len() + 1);
        words.word_char_lens.reserve(sorted.len());
        words.word_chars.reserve(sorted.len());
        words.posting_starts.reserve(sorted.len() + 1);
        words
            .postings
            .reserve(self.found.iter().map(Vec::len).sum());
        self.sorted = sorted;
        self.phase = Build::Layout(0);
    }

    /// Lays out up to `count` more words of the sorted vocabulary and their postings.
    fn lay_out(&mut self, next: usize, count: usize) {
        let end = next.saturating_add(count).min(self.sorted.len());
        let words = &mut self.words;
        for (word, id) in &self.sorted[next..end] {
            words.word_starts.push(offset(words.vocabulary.len()));
            words
                .word_char_lens
                .push(u8::try_from(word.chars().count()).unwrap_or(u8::MAX));
            words
                .word_chars
                .push(word.chars().fold(0, |set, c| set | char_bit(c)));
            words.vocabulary.push_str(word);
            words.vocabulary.push('\n');
            words.posting_starts.push(offset(words.postings.len()));
            words
                .postings
                .extend_from_slice(&std::mem::take(&mut self.found[*id as usize]));
        }
        self.phase = if end == self.sorted.len() {
            words.word_starts.push(offset(words.vocabulary.len()));
            words.posting_starts.push(offset(words.postings.len()));
            self.sorted = Vec::new();
            self.found = Vec::new();
            Build::Keys(0)
        } else {
            Build::Layout(end)
        };
    }

    /// Makes up to `count` more entries' name and id keys: their words joined by spaces.
    fn keys(&mut self, entries: &[Entry], next: usize, count: usize) {
        let end = next.saturating_add(count).min(entries.len());
        let key = |text: &str| -> Box<str> {
            let mut key = String::with_capacity(text.len());
            for_each_word(text, |_, word| {
                if !key.is_empty() {
                    key.push(' ');
                }
                key.push_str(word);
            });
            key.into()
        };
        let words = &mut self.words;
        for e in &entries[next..end] {
            words.name_keys.push(key(&e.name));
            words.id_keys.push(key(&e.id));
        }
        self.phase = if end == entries.len() {
            Build::Names(0)
        } else {
            Build::Keys(end)
        };
    }

    /// The index of `entries`: what is left done, then the name order, keeping every impostor
    /// of `lookalikes` below its original.
    pub fn finish(mut self, entries: &[Entry], lookalikes: &Lookalikes) -> SearchIndex {
        while !self.step(entries, usize::MAX) {}
        let NameOrder {
            originals,
            by_name,
            name_ranks,
        } = NameOrder::sorted(entries, lookalikes, &self.lower_names);
        SearchIndex {
            words: Arc::new(self.words),
            name_ranks,
            by_name,
            originals,
        }
    }
}

/// One matching entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Index into the entries the index was built from.
    pub entry: usize,
    /// Higher is better; 0 for every entry of an empty query.
    pub score: u32,
}

/// The result of a search: the matching entries and what is needed to highlight why.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Matches {
    /// Matching entries, best first (ties in name order).
    pub hits: Vec<Hit>,
    /// The query's terms, folded.
    terms: Vec<String>,
    /// The vocabulary words that matched a term only with typos, sorted.
    typo_words: Vec<String>,
}

impl SearchIndex {
    /// Indexes the name, id, description, authors and package names (without version) of
    /// `entries`, and the capabilities, tags, label values and protocols of AgentRegistry
    /// agents; hits refer to entries by their index in this slice.
    pub fn new(entries: &[Entry]) -> SearchIndex {
        SearchIndex::with_lookalikes(entries, &Lookalikes::default())
    }

    /// Like [`SearchIndex::new`], keeping every impostor of `lookalikes` (computed from the same
    /// entries) below its original: in every search where both match, and in name order when
    /// their names tie.
    pub fn with_lookalikes(entries: &[Entry], lookalikes: &Lookalikes) -> SearchIndex {
        SearchIndexBuilder::default().finish(entries, lookalikes)
    }

    /// Keeps the impostors of `lookalikes` (found later, from the same `entries` the index was
    /// built from) below their originals, as [`SearchIndex::with_lookalikes`] would have: only
    /// the name order and the originals change, not the vocabulary.
    pub fn set_lookalikes(&mut self, entries: &[Entry], lookalikes: &Lookalikes) {
        let NameOrder {
            originals,
            by_name,
            name_ranks,
        } = NameOrder::of(entries, lookalikes);
        self.originals = originals;
        self.by_name = by_name;
        self.name_ranks = name_ranks;
    }

    /// The entries matching `query`, best first; every entry, in name order, when the query has
    /// no words.
    pub fn search(&self, query: &str) -> Matches {
        let terms: Vec<String> = words(query).into_iter().map(|(_, w)| w).collect();
        if terms.is_empty() {
            return Matches {
                hits: self
                    .by_name
                    .iter()
                    .map(|&entry| Hit {
                        entry: entry as usize,
                        score: 0,
                    })
                    .collect(),
                terms,
                typo_words: Vec::new(),
            };
        }
        let mut scoring = self.score_terms(&terms, Typos::Forbidden);
        if scoring.totals.iter().all(|&t| t == 0) {
            scoring = self.score_terms(&terms, Typos::Allowed);
        }

        let query_key = terms.join(" ");
        // Best first, ties in name order: each hit as one integer, the score's complement above
        // the name rank. Name ranks are a permutation of the entries, so the rank gives the
        // entry back; a one-letter query hits most entries, and sorting plain integers is what
        // keeps its keystroke cheap.
        let mut scores: Vec<u32> = scoring
            .totals
            .iter()
            .enumerate()
            .map(|(entry, &total)| match total {
                0 => 0,
                total => total.saturating_add(self.whole_query_bonus(entry, &query_key)),
            })
            .collect();
        self.keep_impostors_below(&mut scores);
        let mut order: Vec<u64> = scoring
            .totals
            .iter()
            .zip(&scores)
            .enumerate()
            .filter(|&(_, (&total, _))| total > 0)
            .map(|(entry, (_, &score))| {
                (u64::from(!score) << 32) | u64::from(self.name_ranks[entry])
            })
            .collect();
        order.sort_unstable();
        let hits: Vec<Hit> = order
            .into_iter()
            .map(|key| {
                let entry = self.by_name[(key & u64::from(u32::MAX)) as usize] as usize;
                Hit {
                    entry,
                    score: !((key >> 32) as u32),
                }
            })
            .collect();

        let typo_words = scoring
            .typo_words
            .into_iter()
            .map(|w| self.word(w).to_owned())
            .collect();
        Matches {
            hits,
            terms,
            typo_words,
        }
    }

    /// The place of `entry` in name order (case-insensitive name, then id): 0 for the first.
    pub fn name_rank(&self, entry: usize) -> usize {
        self.name_ranks[entry] as usize
    }

    /// The number of entries indexed.
    pub fn len(&self) -> usize {
        self.name_ranks.len()
    }

    /// Whether no entry was indexed.
    pub fn is_empty(&self) -> bool {
        self.name_ranks.is_empty()
    }

    /// The `w`th word of the vocabulary.
    fn word(&self, w: u32) -> &str {
        let start = self.words.word_starts[w as usize] as usize;
        let end = self.words.word_starts[w as usize + 1] as usize - 1;
        &self.words.vocabulary[start..end]
    }

    fn word_count(&self) -> usize {
        self.words.word_char_lens.len()
    }

    fn postings_of(&self, w: u32) -> &[Posting] {
        let start = self.words.posting_starts[w as usize] as usize;
        let end = self.words.posting_starts[w as usize + 1] as usize;
        &self.words.postings[start..end]
    }

    /// Sums each term's best score per entry, zero for entries missing a term.
    fn score_terms(&self, terms: &[String], typos: Typos) -> Scoring {
        let n = self.len();
        let mut totals = vec![0u32; n];
        let mut best = vec![0u32; n];
        let mut typo_words = BTreeSet::new();
        for (i, term) in terms.iter().enumerate() {
            let last = i + 1 == terms.len();
            best.fill(0);
            for (w, kind) in self.match_term(term, typos, last) {
                if let WordMatch::Typo { .. } = kind {
                    typo_words.insert(w);
                }
                for posting in self.postings_of(w) {
                    let score = kind.score(posting.field, posting.position);
                    let slot = &mut best[posting.entry as usize];
                    *slot = (*slot).max(score);
                }
            }
            let mut any = false;
            for (total, &b) in totals.iter_mut().zip(&best) {
                *total = if i == 0 || (*total > 0 && b > 0) {
                    total.saturating_add(b)
                } else {
                    0
                };
                any |= *total > 0;
            }
            if !any {
                break;
            }
        }
        Scoring { totals, typo_words }
    }

    /// The vocabulary words `term` matches, each with how.
    fn match_term(&self, term: &str, typos: Typos, last: bool) -> Vec<(u32, WordMatch)> {
        let mut out = Vec::new();
        // Exact and prefix matches form one run of the sorted vocabulary.
        let first = partition_point(self.word_count(), |w| self.word(w as u32) < term);
        let mut after = first;
        while after < self.word_count() && self.word(after as u32).starts_with(term) {
            let kind = if self.word(after as u32) == term {
                WordMatch::Exact
            } else {
                WordMatch::Prefix
            };
            out.push((after as u32, kind));
            after += 1;
        }
        let prefixed = first..after;

        let term_len = term.chars().count();
        // Ascending, as the vocabulary is searched from its start.
        let mut contained = Vec::new();
        if term_len >= MIN_SUBSTRING_CHARS {
            for (at, _) in self.words.vocabulary.match_indices(term) {
                let w = self
                    .words
                    .word_starts
                    .partition_point(|&s| s as usize <= at)
                    - 1;
                if contained.last() != Some(&w) && !prefixed.contains(&w) {
                    contained.push(w);
                }
            }
            out.extend(contained.iter().map(|&w| (w as u32, WordMatch::Substring)));
        }

        let bound = max_typos(term_len);
        if typos == Typos::Allowed && bound > 0 {
            let term_bits: Vec<u64> = term.chars().map(char_bit).collect();
            let term: Vec<char> = term.chars().collect();
            let mut distance = BoundedDistance::new(&term, bound);
            let mut word = Vec::new();
            for w in 0..self.word_count() {
                // Every character of the term that a typo does not replace or drop is in the
                // word, so more than `bound` characters missing from it rule it out.
                let chars = self.words.word_chars[w];
                let missing = term_bits.iter().filter(|&&bit| chars & bit == 0).count();
                let len = usize::from(self.words.word_char_lens[w]);
                let whole_possible = len.abs_diff(term_len) <= bound;
                let prefix_possible = last && len + bound >= term_len;
                if missing > bound
                    || !(whole_possible || prefix_possible)
                    || prefixed.contains(&w)
                    || contained.binary_search(&w).is_ok()
                {
                    continue;
                }
                word.clear();
                word.extend(self.word(w as u32).chars().take(term_len + bound + 1));
                if let Some(kind) = distance.matches(&word, len, last) {
                    out.push((w as u32, kind));
                }
            }
        }
        out
    }

    /// Scores each impostor below its original where both matched (`scores` by entry, 0 for
    /// no match), so that no query lists an impostor before the entry it imitates.
    fn keep_impostors_below(&self, scores: &mut [u32]) {
        for (entry, original) in self.originals.iter().enumerate() {
            let Some(original) = original else { continue };
            let (score, original_score) = (scores[entry], scores[*original as usize]);
            if score > 0 && original_score > 0 && score >= original_score {
                scores[entry] = original_score.saturating_sub(1);
            }
        }
    }

    fn whole_query_bonus(&self, entry: usize, query_key: &str) -> u32 {
        let (name, id) = (&*self.words.name_keys[entry], &*self.words.id_keys[entry]);
        if name == query_key || id == query_key {
            WHOLE_QUERY_EXACT
        } else if name.starts_with(query_key) || id.starts_with(query_key) {
            WHOLE_QUERY_PREFIX
        } else {
            0
        }
    }
}

impl Matches {
    /// Whether the query had no words, so every entry matched and nothing is highlighted.
    pub fn is_empty_query(&self) -> bool {
        self.terms.is_empty()
    }

    /// The query's terms, folded (lowercased), in query order.
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// Byte ranges of `text` to highlight: in each word of `text`, the part a query term
    /// matched as the search does (the whole word, its beginning, or a part of it for terms of
    /// three characters or more; the longest such term), or the whole word when it is one the
    /// search matched with typos. Sorted, non-overlapping, on character boundaries; empty for an
    /// empty query. Any text may be given, indexed or not.
    pub fn highlight(&self, text: &str) -> Vec<Range<usize>> {
        if self.terms.is_empty() {
            return Vec::new();
        }
        words(text)
            .into_iter()
            .filter_map(|(range, word)| {
                let part = self.term_part(&word).or_else(|| {
                    self.typo_words
                        .binary_search(&word)
                        .is_ok()
                        .then_some(0..word.len())
                })?;
                Some(original_range(&text[range.clone()], range.start, part))
            })
            .collect()
    }

    /// The bytes of the folded `word` equal to the longest term it starts with or contains.
    fn term_part(&self, word: &str) -> Option<Range<usize>> {
        let mut best: Option<Range<usize>> = None;
        for term in &self.terms {
            let at = if word.starts_with(term.as_str()) {
                Some(0)
            } else if term.chars().count() >= MIN_SUBSTRING_CHARS {
                word.find(term.as_str())
            } else {
                None
            };
            if let Some(at) = at
                && best.as_ref().is_none_or(|b| b.len() < term.len())
            {
                best = Some(at..at + term.len());
            }
        }
        best
    }
}

/// The fields of an entry that are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Field {
    Name,
    Id,
    Description,
    Author,
    Package,
    /// An AgentRegistry agent's capability names and tags, label values and protocols.
    Service,
}

/// One occurrence of a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Posting {
    entry: u32,
    field: Field,
    /// Index of the word among the field's words (authors and packages count on across items).
    position: u16,
}

/// How a term matched a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WordMatch {
    Exact,
    Prefix,
    Substring,
    /// Within the typo bound: the whole word, or (for the last term) a beginning of it.
    Typo {
        typos: u8,
        prefix: bool,
    },
}

/// Scores: every non-typo score is at least `SECONDARY_SUBSTRING`, every typo score below it.
const PRIMARY_EXACT: u32 = 1000;
const PRIMARY_PREFIX: u32 = 800;
const PRIMARY_SUBSTRING: u32 = 600;
const SECONDARY_EXACT: u32 = 300;
const SECONDARY_PREFIX: u32 = 250;
const SECONDARY_SUBSTRING: u32 = 150;
const PRIMARY_TYPO: u32 = 100;
const SECONDARY_TYPO: u32 = 40;
/// The whole query equals the entry's name or id.
const WHOLE_QUERY_EXACT: u32 = 10_000;
/// The whole query begins the entry's name or id.
const WHOLE_QUERY_PREFIX: u32 = 5_000;

/// Shorter terms only match words that are equal to them or start with them.
const MIN_SUBSTRING_CHARS: usize = 3;

impl WordMatch {
    fn score(self, field: Field, position: u16) -> u32 {
        let primary = matches!(field, Field::Name | Field::Id);
        let position = u32::from(position);
        // Below the gaps between kinds, so position only orders matches of one kind.
        let early = if primary {
            40 - 10 * position.min(4)
        } else {
            20 - 2 * position.min(10)
        };
        let base = match (self, primary) {
            (WordMatch::Exact, true) => PRIMARY_EXACT,
            (WordMatch::Prefix, true) => PRIMARY_PREFIX,
            (WordMatch::Substring, true) => PRIMARY_SUBSTRING,
            (WordMatch::Exact, false) => SECONDARY_EXACT,
            (WordMatch::Prefix, false) => SECONDARY_PREFIX,
            (WordMatch::Substring, false) => SECONDARY_SUBSTRING,
            (WordMatch::Typo { typos, prefix }, primary) => {
                let top = if primary {
                    PRIMARY_TYPO
                } else {
                    SECONDARY_TYPO
                };
                let penalty = 10 * u32::from(typos.saturating_sub(1)) + if prefix { 20 } else { 0 };
                return top.saturating_sub(penalty) + early;
            }
        };
        base + early
    }
}

/// Whether typo matches are considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Typos {
    Forbidden,
    Allowed,
}

/// Per-entry totals of one pass, and the words that matched a term with typos.
struct Scoring {
    totals: Vec<u32>,
    typo_words: BTreeSet<u32>,
}

/// How many typos a term of `chars` characters may have.
fn max_typos(chars: usize) -> usize {
    match chars {
        0..4 => 0,
        4..8 => 1,
        _ => 2,
    }
}

/// The restricted Damerau–Levenshtein (optimal string alignment) distance from one term to
/// words, giving up as soon as it exceeds the bound.
struct BoundedDistance<'t> {
    term: &'t [char],
    bound: usize,
    rows: [Vec<usize>; 3],
}

impl<'t> BoundedDistance<'t> {
    fn new(term: &'t [char], bound: usize) -> Self {
        let width = term.len() + bound + 2;
        BoundedDistance {
            term,
            bound,
            rows: [vec![0; width], vec![0; width], vec![0; width]],
        }
    }

    /// How `word` (its first `term.len() + bound + 1` characters; `len` in all) matches within
    /// the bound: as a whole, or, when `prefix` is set, through one of its beginnings.
    fn matches(&mut self, word: &[char], len: usize, prefix: bool) -> Option<WordMatch> {
        let (m, k) = (self.term.len(), self.bound);
        // Columns: the whole word when it is short enough to matter, else its beginning.
        let cols = word.len().min(m + k);
        let whole = word.len() == len && len.abs_diff(m) <= k;
        let [prev2, prev, cur] = &mut self.rows;
        for (j, cell) in prev.iter_mut().enumerate().take(cols + 1) {
            *cell = j;
        }
        let mut prev_min = 0;
        for i in 1..=m {
            cur[0] = i;
            let mut row_min = i;
            for j in 1..=cols {
                let cost = usize::from(self.term[i - 1] != word[j - 1]);
                let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
                if i > 1
                    && j > 1
                    && self.term[i - 1] == word[j - 2]
                    && self.term[i - 2] == word[j - 1]
                {
                    v = v.min(prev2[j - 2] + 1);
                }
                cur[j] = v;
                row_min = row_min.min(v);
            }
            // A transposition reaches two rows down, so both rows must be past the bound.
            if row_min > k && prev_min > k {
                return None;
            }
            prev_min = row_min;
            std::mem::swap(prev2, prev);
            std::mem::swap(prev, cur);
        }
        let last = &prev[..=cols];
        if whole && last[len] <= k {
            return Some(WordMatch::Typo {
                typos: last[len] as u8,
                prefix: false,
            });
        }
        let best = *last.iter().min().expect("at least one column");
        (prefix && best <= k).then_some(WordMatch::Typo {
            typos: best as u8,
            prefix: true,
        })
    }
}

/// Calls `f` with each word of `text` and its byte range. Words are maximal runs of
/// alphanumeric characters, each [folded](fold); `f` gets a buffer reused between calls.
fn for_each_word(text: &str, mut f: impl FnMut(Range<usize>, &str)) {
    let bytes = text.as_bytes();
    let mut word = String::new();
    let mut start = None;
    let mut at = 0;
    while at < bytes.len() {
        // Most text is ASCII: a run of ASCII letters and digits is copied and lowercased at once.
        let run = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if run > 0 {
            if start.is_none() {
                start = Some(at);
                word.clear();
            }
            let from = word.len();
            word.push_str(&text[at..at + run]);
            word[from..].make_ascii_lowercase();
            at += run;
            continue;
        }
        let (len, alphanumeric) = if bytes[at].is_ascii() {
            (1, false)
        } else {
            let c = text[at..].chars().next().expect("a character starts here");
            if c.is_alphanumeric() {
                if start.is_none() {
                    start = Some(at);
                    word.clear();
                }
                word.extend(fold(c));
            }
            (c.len_utf8(), c.is_alphanumeric())
        };
        if !alphanumeric && let Some(start) = start.take() {
            f(start..at, &word);
        }
        at += len;
    }
    if let Some(start) = start {
        f(start..text.len(), &word);
    }
}

/// The words of `text` with their byte ranges (see [`for_each_word`]).
fn words(text: &str) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    for_each_word(text, |range, word| out.push((range, word.to_owned())));
    out
}

/// A character's bit in a 64-bit set: one each for `a`–`z` and `0`–`9`, the others shared.
fn char_bit(c: char) -> u64 {
    let bit = match c {
        'a'..='z' => c as u32 - 'a' as u32,
        '0'..='9' => 26 + (c as u32 - '0' as u32),
        _ => 36 + c as u32 % 28,
    };
    1 << bit
}

/// A character as search compares it: lowercased on its own, without the marks lowercasing may
/// add (`İ` → `i`), and with the final sigma as any other (`ς` → `σ`), so a word matches
/// whatever its case or place.
fn fold(c: char) -> impl Iterator<Item = char> {
    c.to_lowercase()
        .filter(|c| c.is_alphanumeric())
        .map(|c| if c == 'ς' { 'σ' } else { c })
}

/// Maps a byte range of the folded `word` back to `word` itself (which starts at `base` in its
/// text), widening it to whole characters.
fn original_range(word: &str, base: usize, lower: Range<usize>) -> Range<usize> {
    let mut lower_at = 0;
    let mut start = None;
    let mut end = word.len();
    for (at, c) in word.char_indices() {
        let next = lower_at + fold(c).map(char::len_utf8).sum::<usize>();
        if start.is_none() && next > lower.start {
            start = Some(at);
        }
        if next >= lower.end {
            end = at + c.len_utf8();
            break;
        }
        lower_at = next;
    }
    base + start.unwrap_or(0)..base + end
}

/// A package spec without its version: `@scope/name@1.2.3` → `@scope/name`, `name==1.2` → `name`.
fn package_name(spec: &str) -> &str {
    let spec = spec.trim();
    let end = spec
        .char_indices()
        .skip(1)
        .find(|&(_, c)| matches!(c, '@' | '=' | '<' | '>' | '!' | '~' | '[' | ';' | ' '))
        .map_or(spec.len(), |(at, _)| at);
    &spec[..end]
}

/// The first index in `0..len` for which `before` is false, `before` being true then false.
fn partition_point(len: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, len);
    while low < high {
        let mid = low + (high - low) / 2;
        if before(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

fn offset(len: usize) -> u32 {
    u32::try_from(len).expect("index smaller than 4 GiB")
}

/// The name order of an index's entries, impostors after their originals when names tie.
struct NameOrder {
    originals: Vec<Option<u32>>,
    by_name: Vec<u32>,
    name_ranks: Vec<u32>,
}

impl NameOrder {
    fn of(entries: &[Entry], lookalikes: &Lookalikes) -> NameOrder {
        let lower_names: Vec<String> = entries.iter().map(|e| e.name.to_lowercase()).collect();
        NameOrder::sorted(entries, lookalikes, &lower_names)
    }

    /// The order of `entries` whose names, lower-cased, are `lower_names`.
    fn sorted(entries: &[Entry], lookalikes: &Lookalikes, lower_names: &[String]) -> NameOrder {
        let originals: Vec<Option<u32>> = if lookalikes.impostors().next().is_some() {
            (0..entries.len())
                .map(|e| lookalikes.original_of(e).map(|o| o as u32))
                .collect()
        } else {
            Vec::new()
        };
        let imitates = |e: usize| originals.get(e).copied().flatten().is_some();
        let mut by_name: Vec<u32> = (0..entries.len() as u32).collect();
        by_name.sort_by(|&a, &b| {
            let (a, b) = (a as usize, b as usize);
            (&lower_names[a], imitates(a), &entries[a].id, a).cmp(&(
                &lower_names[b],
                imitates(b),
                &entries[b].id,
                b,
            ))
        });
        let mut name_ranks = vec![0u32; entries.len()];
        for (rank, &entry) in by_name.iter().enumerate() {
            name_ranks[entry as usize] = rank as u32;
        }

        NameOrder {
            originals,
            by_name,
            name_ranks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_words(text: &str, expected: &[&str]) {
        let got: Vec<String> = words(text).into_iter().map(|(_, w)| w).collect();
        assert_eq!(got, expected, "words of {text:?}");
        for (range, _) in words(text) {
            assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
        }
    }

    #[test]
    fn splits_words() {
        check_words("claude-acp", &["claude", "acp"]);
        check_words("  Gemini CLI!", &["gemini", "cli"]);
        check_words("@google/gemini-cli", &["google", "gemini", "cli"]);
        check_words("Can Bölük", &["can", "bölük"]);
        check_words(
            "ΣΊΣΥΦΟΣ Σίσυφος x86_64",
            &["σίσυφοσ", "σίσυφοσ", "x86", "64"],
        );
        check_words("İstanbul", &["istanbul"]);
        check_words("—", &[]);
        check_words("", &[]);
        check_words("ab—cdÉf g", &["ab", "cdéf", "g"]);
    }

    proptest::proptest! {
        /// The ASCII fast path cuts and folds words exactly as the definition does: maximal
        /// runs of alphanumeric characters, each character folded.
        #[test]
        fn words_follow_the_definition(text in "[a-zA-Z0-9 ._/@éÉİΣςß—\\u{300}-]{0,40}") {
            let mut expected = Vec::new();
            let mut start = None;
            let mut word = String::new();
            for (at, c) in text.char_indices() {
                if c.is_alphanumeric() {
                    start.get_or_insert(at);
                    word.extend(fold(c));
                } else if let Some(start) = start.take() {
                    expected.push((start..at, std::mem::take(&mut word)));
                }
            }
            if let Some(start) = start {
                expected.push((start..text.len(), word));
            }
            proptest::prop_assert_eq!(words(&text), expected);
        }
    }

    fn check_distance(term: &str, word: &str, prefix: bool, expected: Option<(u8, bool)>) {
        let t: Vec<char> = term.chars().collect();
        let w: Vec<char> = word.chars().collect();
        let bound = max_typos(t.len());
        let mut d = BoundedDistance::new(&t, bound);
        let shown: Vec<char> = w.iter().copied().take(t.len() + bound + 1).collect();
        let got = d.matches(&shown, w.len(), prefix).map(|m| match m {
            WordMatch::Typo { typos, prefix } => (typos, prefix),
            other => panic!("{other:?}"),
        });
        assert_eq!(got, expected, "{term:?} vs {word:?} (prefix: {prefix})");
    }

    #[test]
    fn bounded_distance() {
        check_distance("gemni", "gemini", false, Some((1, false)));
        check_distance("cluade", "claude", false, Some((1, false)));
        check_distance("opnecode", "opencode", false, Some((1, false)));
        check_distance("opnecodx", "opencode", false, Some((2, false)));
        check_distance("opnecdx", "opencode", false, None);
        check_distance("gemn", "gemini", false, None);
        check_distance("gemn", "gemini", true, Some((1, true)));
        check_distance("geminni", "gemini", false, Some((1, false)));
        check_distance("xyzw", "gemini", true, None);
        check_distance("abcd", "abdc", false, Some((1, false)));
        check_distance("abcd", "bacd", false, Some((1, false)));
        check_distance("abcdefgh", "abcdefghij", false, Some((2, false)));
        check_distance("abcdefgh", "abcdefghijk", false, None);
        check_distance("abcdefgh", "abcdefghijk", true, Some((0, true)));
    }

    #[test]
    fn package_names_lose_their_version() {
        for (spec, name) in [
            ("@google/gemini-cli@0.45.3", "@google/gemini-cli"),
            ("fast-agent-acp==0.10.1", "fast-agent-acp"),
            ("gptme-acp", "gptme-acp"),
            ("x>=1", "x"),
            ("@stdiobus/workers-registry", "@stdiobus/workers-registry"),
        ] {
            assert_eq!(package_name(spec), name);
        }
    }

    #[test]
    fn original_ranges_follow_lowercasing() {
        // `İ` (two bytes) folds to `i` (one byte); `ẞ` (three bytes) to `ß` (two).
        assert_eq!(original_range("İstanbul", 10, 1..5), 12..16);
        assert_eq!(original_range("İstanbul", 0, 0..1), 0..2);
        assert_eq!(original_range("GROẞE", 0, 3..5), 3..6);
        assert_eq!(original_range("GROẞE", 0, 3..6), 3..7);
    }
}
