//! Look-alikes: entries that could pass for another, and text that does not say what it seems
//! to.
//!
//! Anyone can list an agent, so nothing stops `Gеmini CLI` (a Cyrillic `е`), a second
//! `Gemini CLI` under another id, a name with a zero-width space, or a website link showing
//! `аpple.com` from sitting beside the real ones. [`Lookalikes::new`] finds, for a whole
//! registry at once:
//!
//! - names and ids *confusable* with another entry's, by Unicode's TR39 skeletons (the
//!   `unicode-security` crate's tables: `Gеmini` and `Gemini` have the same skeleton), and names
//!   that are the same but for case and spacing;
//! - names mixing scripts inside a word (Latin with Cyrillic or Greek: TR39's restriction
//!   levels, so Latin beside Han or Japanese is fine);
//! - names and ids holding invisible characters ([`crate::invisible`]);
//! - links (`repository`, `website`, `license_url`) whose host shows one address and leads to
//!   another: a non-ASCII host whose skeleton is plain ASCII.
//!
//! Each finding is a [`Warning`], data the site words for the card and the page
//! ([`Warning::describe`]: "Its name looks like Gemini CLI (gemini), a different agent.").
//!
//! Of entries that look alike, the one with the plainer name (TR39's restriction level:
//! ASCII, then a single script…), or else the one whose id is made of its name's words, is the
//! *original* of the others ([`Lookalikes::original_of`]), unless they have the same publisher:
//! the impostors are flagged and the original is not, and search keeps every impostor below its
//! original, whatever the query. Where neither is the original, both are flagged.
//!
//! The warnings are `LooksLike`, `SameName`, `IdLooksLike`, `MixedScript`, `Invisible` and
//! `MisleadingLink`. `Lookalikes::of_listings` finds the same from entries given as their text
//! fields, for the validator, which reads manifests rather than entries.

use std::borrow::Cow;
use std::sync::OnceLock;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use unicode_script::{Script, UnicodeScript};
use unicode_security::mixed_script::AugmentedScriptSet;
use unicode_security::{RestrictionLevel, RestrictionLevelDetection, skeleton};

use crate::invisible::{self, Invisible};
use crate::model::{Entry, Kind};

/// At most this many other entries are named in one entry's warnings of a kind.
const MAX_OTHERS: usize = 3;
/// Id words that claim nothing about a name: `gemini-cli-acp` claims "Gemini CLI".
const NEUTRAL_ID_WORDS: [&str; 3] = ["acp", "agent", "cli"];

/// The text fields of an entry a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TextField {
    /// `name`.
    Name,
    /// `id`.
    Id,
}

impl TextField {
    /// `name` or `id`.
    pub fn as_str(self) -> &'static str {
        match self {
            TextField::Name => "name",
            TextField::Id => "id",
        }
    }
}

/// The link fields of an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LinkField {
    /// `repository`.
    Repository,
    /// `website`.
    Website,
    /// `license_url`.
    LicenseUrl,
}

impl LinkField {
    /// `repository`, `website` or `licence`, for sentences.
    pub fn label(self) -> &'static str {
        match self {
            LinkField::Repository => "repository",
            LinkField::Website => "website",
            LinkField::LicenseUrl => "licence",
        }
    }
}

/// One reason an entry may not be what it seems.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Warning {
    /// Its name looks like another entry's (the same TR39 skeleton) without being the same.
    LooksLike {
        /// The other entry, an index into the entries given to [`Lookalikes::new`].
        other: usize,
        /// Whether both have the same publisher (repository owner, else authors).
        same_publisher: bool,
    },
    /// Another entry has the same name, but for case and spacing.
    SameName {
        /// The other entry.
        other: usize,
        /// Whether both have the same publisher.
        same_publisher: bool,
    },
    /// Its id looks like another entry's id.
    IdLooksLike {
        /// The other entry.
        other: usize,
    },
    /// A word of its name mixes scripts (`Gеmini`: Latin and Cyrillic), the usual way to
    /// imitate a name.
    MixedScript {
        /// The word.
        word: String,
        /// The scripts it mixes, by their Unicode names (`Latin`, `Cyrillic`).
        scripts: Vec<Cow<'static, str>>,
    },
    /// Its name or id holds invisible characters.
    Invisible {
        /// Which.
        field: TextField,
        /// The characters, each once.
        chars: Vec<char>,
    },
    /// A link's host shows one address and leads to another (`аpple.com` with a Cyrillic `а`).
    MisleadingLink {
        /// Which link.
        field: LinkField,
        /// The host as written.
        host: String,
        /// The plain address it looks like.
        looks_like: String,
    },
}

impl Warning {
    /// The warning as a sentence, naming other entries by name and id: "Its name looks like
    /// Gemini CLI (gemini), a different agent." Invisible characters of names are shown as
    /// escapes ([`invisible::reveal`]).
    pub fn describe(&self, entries: &[Entry]) -> String {
        let other = |index: usize| {
            let entry = &entries[index];
            (
                invisible::reveal(&entry.name).into_owned(),
                invisible::reveal(&entry.id).into_owned(),
                match entry.kind {
                    Kind::Agent => "agent",
                    Kind::Extension => "extension",
                },
            )
        };
        match self {
            Warning::LooksLike {
                other: index,
                same_publisher,
            } => {
                let (name, id, kind) = other(*index);
                let whose = if *same_publisher {
                    format!("another {kind} by the same publisher")
                } else {
                    format!("a different {kind}")
                };
                format!("Its name looks like {name} ({id}), {whose}.")
            }
            Warning::SameName {
                other: index,
                same_publisher,
            } => {
                let (_, id, kind) = other(*index);
                let by = if *same_publisher {
                    ", by the same publisher,"
                } else {
                    ""
                };
                format!("Another {kind}{by} has the same name: {id}.")
            }
            Warning::IdLooksLike { other: index } => {
                let (name, id, kind) = other(*index);
                format!("Its id looks like {id}, the id of {name}, a different {kind}.")
            }
            Warning::MixedScript { word, scripts } => format!(
                "Its name mixes {} letters in \"{}\", a common way to imitate another name.",
                join_and(scripts),
                invisible::reveal(word)
            ),
            Warning::Invisible { field, chars } => format!(
                "Its {} holds characters you cannot see: {}.",
                field.as_str(),
                invisible::names(chars)
            ),
            Warning::MisleadingLink {
                field,
                host,
                looks_like,
            } => format!(
                "Its {} link shows {host}, which is not {looks_like}: it leads elsewhere.",
                field.label()
            ),
        }
    }

    /// How serious it is, for ordering: the other entries it looks like first, then its own
    /// text.
    fn rank(&self) -> u8 {
        match self {
            Warning::LooksLike { .. } | Warning::SameName { .. } => 0,
            Warning::IdLooksLike { .. } => 1,
            Warning::MisleadingLink { .. } => 2,
            Warning::MixedScript { .. } => 3,
            Warning::Invisible { .. } => 4,
        }
    }

    /// The other entry the warning names, if it names one.
    pub fn other(&self) -> Option<usize> {
        match self {
            Warning::LooksLike { other, .. }
            | Warning::SameName { other, .. }
            | Warning::IdLooksLike { other } => Some(*other),
            _ => None,
        }
    }
}

/// The look-alike findings of a registry: per entry, its [`Warning`]s and the original it
/// imitates. It reads and writes as JSON, for finding them apart from the page (the catalogue
/// does it in a worker, with [`ListingText`]s).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lookalikes {
    warnings: Vec<Vec<Warning>>,
    originals: Vec<Option<usize>>,
}

impl Lookalikes {
    /// Finds the look-alikes among `entries` (see the [module](self) documentation). Linear in
    /// the entries (skeletons grouped by hash), whatever the registry holds.
    pub fn new(entries: &[Entry]) -> Lookalikes {
        let listings: Vec<Listing<'_>> = entries.iter().map(Listing::of).collect();
        Lookalikes::of_listings(&listings)
    }

    /// Like [`Lookalikes::new`], for entries given as [`ListingText`]s (in the same order): what
    /// the catalogue's worker is sent.
    pub fn of_texts(texts: &[ListingText]) -> Lookalikes {
        let listings: Vec<Listing<'_>> = texts.iter().map(ListingText::listing).collect();
        Lookalikes::of_listings(&listings)
    }

    /// How many entries it was found for.
    pub fn len(&self) -> usize {
        self.warnings.len()
    }

    /// Like [`Lookalikes::new`], for entries given as their text fields (the validator reads
    /// manifests, not entries).
    pub fn of_listings(listings: &[Listing<'_>]) -> Lookalikes {
        let n = listings.len();
        let mut found = Lookalikes {
            warnings: vec![Vec::new(); n],
            originals: vec![None; n],
        };
        let mut scratch = String::new();
        let facts: Vec<Facts> = listings
            .iter()
            .map(|listing| Facts::of(listing, &mut scratch))
            .collect();

        for (index, (listing, facts)) in listings.iter().zip(&facts).enumerate() {
            let warnings = &mut found.warnings[index];
            for (field, text) in [(TextField::Name, listing.name), (TextField::Id, listing.id)] {
                let chars = invisible::collect([text]);
                if !chars.is_empty() {
                    warnings.push(Warning::Invisible { field, chars });
                }
            }
            if let Some((word, scripts)) = &facts.mixed {
                warnings.push(Warning::MixedScript {
                    word: word.clone(),
                    scripts: scripts
                        .iter()
                        .map(|&script| Cow::Borrowed(script))
                        .collect(),
                });
            }
            for &(field, url) in &listing.links {
                if let Some((host, looks_like)) = misleading_host(url) {
                    warnings.push(Warning::MisleadingLink {
                        field,
                        host,
                        looks_like,
                    });
                }
            }
        }

        // Names: the same text but for case and spacing, or the same skeleton. Grouped by
        // fingerprint, then each group split by the keys themselves, so that no hash collision
        // can make two names look alike.
        let mut candidates: FxHashMap<(Key, u64), Vec<usize>> = FxHashMap::default();
        for (index, facts) in facts.iter().enumerate() {
            for (key, fingerprint) in Key::ALL.into_iter().zip(facts.names) {
                candidates
                    .entry((key, fingerprint))
                    .or_default()
                    .push(index);
            }
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for ((key, _), members) in candidates {
            if members.len() > 1 {
                groups.extend(split_by(&members, |i| key.of(listings[i].name)));
            }
        }
        groups.sort();
        groups.dedup();
        // Folded names and publishers only matter to entries that look alike: found for those.
        let mut folded: FxHashMap<usize, String> = FxHashMap::default();
        let mut publishers: FxHashMap<usize, Option<String>> = FxHashMap::default();
        for &index in groups.iter().flatten() {
            folded
                .entry(index)
                .or_insert_with(|| Key::Folded.of(listings[index].name));
            publishers
                .entry(index)
                .or_insert_with(|| publisher(&listings[index].publisher));
        }
        let publisher_of = |index: usize| publishers.get(&index).and_then(Option::as_deref);
        for group in &groups {
            for &index in group {
                let mut named = 0;
                for &other in group {
                    if other == index || named == MAX_OTHERS {
                        continue;
                    }
                    let same_publisher =
                        publisher_of(index).is_some_and(|p| publisher_of(other) == Some(p));
                    let warning = if folded[&index] == folded[&other] {
                        Warning::SameName {
                            other,
                            same_publisher,
                        }
                    } else {
                        Warning::LooksLike {
                            other,
                            same_publisher,
                        }
                    };
                    let warnings = &mut found.warnings[index];
                    if !warnings.iter().any(|w| w.other() == Some(other)) {
                        warnings.push(warning);
                        named += 1;
                    }
                }
            }
            let level = |i: usize| facts[i].level;
            let claims = |i: usize| id_claims_name(listings[i].id, &folded[&i]);
            for (impostor, original) in impostors(group, &level, &claims, &publisher_of) {
                found.originals[impostor].get_or_insert(original);
                // The original is not what is in doubt: only the impostor is flagged.
                found.warnings[original].retain(|w| w.other() != Some(impostor));
            }
        }

        // Ids: a different id with the same skeleton.
        let mut candidates: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
        for (index, facts) in facts.iter().enumerate() {
            candidates.entry(facts.id).or_default().push(index);
        }
        let mut ids: Vec<Vec<usize>> = candidates
            .into_values()
            .filter(|members| members.len() > 1)
            .flat_map(|members| split_by(&members, |i| id_skeleton(listings[i].id)))
            .collect();
        ids.sort();
        for group in ids {
            for &index in &group {
                let others = group
                    .iter()
                    .copied()
                    .filter(|&o| o != index && listings[o].id != listings[index].id)
                    .take(MAX_OTHERS);
                for other in others {
                    found.warnings[index].push(Warning::IdLooksLike { other });
                }
            }
        }
        for warnings in &mut found.warnings {
            warnings.sort_by_key(Warning::rank);
        }
        found
    }

    /// The warnings about entry `entry` (an index into the entries given), most serious first:
    /// look-alikes of other entries, then its own text.
    pub fn warnings(&self, entry: usize) -> &[Warning] {
        self.warnings.get(entry).map_or(&[], Vec::as_slice)
    }

    /// The entry `entry` imitates, when it looks like another entry by a different publisher
    /// and that one is the original (plainer name, or an id made of the name's words): search
    /// keeps `entry` below it.
    pub fn original_of(&self, entry: usize) -> Option<usize> {
        self.originals.get(entry).copied().flatten()
    }

    /// Every entry that imitates another, with the original: `(impostor, original)`.
    pub fn impostors(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.originals
            .iter()
            .enumerate()
            .filter_map(|(entry, original)| original.map(|o| (entry, o)))
    }

    /// Whether no entry has a warning.
    pub fn is_empty(&self) -> bool {
        self.warnings.iter().all(Vec::is_empty)
    }
}

/// The text of an entry that look-alikes are found in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing<'a> {
    /// The id.
    pub id: &'a str,
    /// The name.
    pub name: &'a str,
    /// Who publishes it: the repository URL, else the author names.
    pub publisher: Publisher<'a>,
    /// The links shown on its page.
    pub links: Vec<(LinkField, &'a str)>,
}

/// Who publishes an entry, for telling a second listing by the same people from an impostor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Publisher<'a> {
    /// The repository URL, when there is one.
    pub repository: Option<&'a str>,
    /// The author names.
    pub authors: Vec<&'a str>,
}

impl<'a> Listing<'a> {
    /// The listing of an entry.
    pub fn of(entry: &'a Entry) -> Listing<'a> {
        let links = [
            (LinkField::Repository, &entry.repository),
            (LinkField::Website, &entry.website),
            (LinkField::LicenseUrl, &entry.license_url),
        ]
        .into_iter()
        .filter_map(|(field, url)| url.as_deref().map(|url| (field, url)))
        .collect();
        Listing {
            id: &entry.id,
            name: &entry.name,
            publisher: Publisher {
                repository: entry.repository.as_deref(),
                authors: entry.author_names().collect(),
            },
            links,
        }
    }
}

/// A [`Listing`] holding its own text: what is sent where look-alikes are found apart from the
/// entries (the catalogue finds them in a worker, so that the page never waits for it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListingText {
    /// The id.
    pub id: String,
    /// The name.
    pub name: String,
    /// The repository URL, when there is one.
    pub repository: Option<String>,
    /// The author names.
    pub authors: Vec<String>,
    /// The links shown on its page.
    pub links: Vec<(LinkField, String)>,
}

impl ListingText {
    /// The listing of an entry, as owned text.
    pub fn of(entry: &Entry) -> ListingText {
        let listing = Listing::of(entry);
        ListingText {
            id: listing.id.to_owned(),
            name: listing.name.to_owned(),
            repository: listing.publisher.repository.map(str::to_owned),
            authors: listing
                .publisher
                .authors
                .iter()
                .map(|&a| a.to_owned())
                .collect(),
            links: listing
                .links
                .iter()
                .map(|&(field, url)| (field, url.to_owned()))
                .collect(),
        }
    }

    /// The [`Listing`] it holds.
    pub fn listing(&self) -> Listing<'_> {
        Listing {
            id: &self.id,
            name: &self.name,
            publisher: Publisher {
                repository: self.repository.as_deref(),
                authors: self.authors.iter().map(String::as_str).collect(),
            },
            links: self
                .links
                .iter()
                .map(|(field, url)| (*field, url.as_str()))
                .collect(),
        }
    }
}

/// What is computed once per listing: fingerprints of its keys (the keys themselves are made
/// again only for the few listings that share a fingerprint), and what its name's scripts say.
struct Facts {
    /// Fingerprints of the name's [`Key`]s, in [`Key::ALL`] order.
    names: [u64; 3],
    /// Fingerprint of the id's skeleton.
    id: u64,
    /// The least plain restriction level of the name's words (invisible characters count as
    /// unrestricted).
    level: RestrictionLevel,
    /// The first word mixing scripts, with its scripts.
    mixed: Option<(String, Vec<&'static str>)>,
}

impl Facts {
    /// The facts of a listing; `scratch` is a buffer reused from one listing to the next.
    fn of(listing: &Listing<'_>, scratch: &mut String) -> Facts {
        let mut names = [0; 3];
        for (slot, key) in names.iter_mut().zip(Key::ALL) {
            scratch.clear();
            key.write(listing.name, scratch);
            *slot = fingerprint(scratch);
        }
        scratch.clear();
        scratch.push_str(&id_skeleton(listing.id));
        let id = fingerprint(scratch);

        let mut level = RestrictionLevel::ASCIIOnly;
        let mut mixed = None;
        if invisible::contains(listing.name) {
            level = RestrictionLevel::Unrestricted;
        }
        if !listing.name.is_ascii() {
            // ASCII words are plain (ASCII only) and mix nothing.
            let words = listing
                .name
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty() && !w.is_ascii());
            for word in words {
                let word_level = word.detect_restriction_level();
                level = level.max(word_level);
                if mixed.is_none()
                    && word_level >= RestrictionLevel::MinimallyRestrictive
                    && AugmentedScriptSet::for_str(word).is_empty()
                {
                    mixed = Some((word.to_owned(), scripts(word)));
                }
            }
        }
        Facts {
            names,
            id,
            level,
            mixed,
        }
    }
}

/// The keys names are compared by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// Without invisible characters, spaces collapsed, lowercased: the same name.
    Folded,
    /// The TR39 skeleton, spaces collapsed: a name that looks the same.
    Skeleton,
    /// The skeleton of [`Key::Folded`]: a name that looks the same in another case.
    FoldedSkeleton,
}

impl Key {
    const ALL: [Key; 3] = [Key::Folded, Key::Skeleton, Key::FoldedSkeleton];

    /// Appends the key of `name` to `out`.
    fn write(self, name: &str, out: &mut String) {
        let visible = visible_name(name);
        match self {
            Key::Folded => out.push_str(&fold(&visible)),
            Key::Skeleton => skeleton_into(&visible, out),
            Key::FoldedSkeleton => skeleton_into(&fold(&visible), out),
        }
    }

    /// The key of `name`.
    fn of(self, name: &str) -> String {
        let mut out = String::new();
        self.write(name, &mut out);
        out
    }
}

/// `name` without its controls, bidi controls and invisible format characters, its spaces
/// (the look-alike ones included) collapsed.
fn visible_name(name: &str) -> Cow<'_, str> {
    let name: Cow<'_, str> = if invisible::contains(name) {
        name.chars()
            .filter(|&c| {
                !matches!(
                    invisible::classify(c),
                    Some(Invisible::Control | Invisible::Format | Invisible::Bidi)
                )
            })
            .collect::<String>()
            .into()
    } else {
        name.into()
    };
    match collapse_spaces(&name) {
        Cow::Borrowed(_) => name,
        Cow::Owned(collapsed) => collapsed.into(),
    }
}

/// `text` lowercased.
fn fold(text: &str) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        text.to_lowercase()
    }
}

/// The skeleton of a lowercased id.
fn id_skeleton(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    skeleton_into(&fold(id), &mut out);
    out
}

/// A 64-bit fingerprint of `text`, for grouping before an exact comparison.
fn fingerprint(text: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(text)
}

/// `members` split into groups of two or more with the same `key`, in their order.
fn split_by(members: &[usize], key: impl Fn(usize) -> String) -> Vec<Vec<usize>> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for &member in members {
        let key = key(member);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, group)) => group.push(member),
            None => groups.push((key, vec![member])),
        }
    }
    groups
        .into_iter()
        .map(|(_, group)| group)
        .filter(|group| group.len() > 1)
        .collect()
}

/// Appends the TR39 skeleton of `text` to `out`. ASCII text (most names and ids) takes a short
/// cut: it is its own NFD and holds no default-ignorable character, and ASCII characters have
/// ASCII prototypes, so its skeleton is its characters' prototypes, looked up in a table made
/// once from the crate's.
fn skeleton_into(text: &str, out: &mut String) {
    if !text.is_ascii() {
        out.extend(skeleton(text));
        return;
    }
    static PROTOTYPES: OnceLock<Vec<String>> = OnceLock::new();
    let prototypes = PROTOTYPES.get_or_init(|| {
        (0u8..128)
            .map(|b| skeleton(char::from(b).encode_utf8(&mut [0; 4])).collect())
            .collect()
    });
    for b in text.bytes() {
        out.push_str(&prototypes[usize::from(b)]);
    }
}

/// Of a group of entries that look alike, each impostor with its original: the members with the
/// plainest name are the originals when not all are; else those whose id is made of the name's
/// words, when not all are. Pairs with the same publisher are never impostors.
fn impostors<'p>(
    group: &[usize],
    level: &dyn Fn(usize) -> RestrictionLevel,
    claims: &dyn Fn(usize) -> bool,
    publisher_of: &dyn Fn(usize) -> Option<&'p str>,
) -> Vec<(usize, usize)> {
    let plainest = group.iter().map(|&i| level(i)).min();
    let plain: Vec<usize> = group
        .iter()
        .copied()
        .filter(|&i| Some(level(i)) == plainest)
        .collect();
    let originals = if plain.len() < group.len() {
        plain
    } else {
        let claimants: Vec<usize> = group.iter().copied().filter(|&i| claims(i)).collect();
        if claimants.is_empty() || claimants.len() == group.len() {
            return Vec::new();
        }
        claimants
    };
    group
        .iter()
        .copied()
        .filter(|i| !originals.contains(i))
        .filter_map(|impostor| {
            originals
                .iter()
                .copied()
                .find(|&o| publisher_of(o).is_none() || publisher_of(o) != publisher_of(impostor))
                .map(|original| (impostor, original))
        })
        .collect()
}

/// Whether every word of `id` but the neutral ones (`acp`, `agent`, `cli`) is a word of the
/// folded name: `gemini` and `gemini-cli` claim "gemini cli", `gemini-pro` does not.
fn id_claims_name(id: &str, folded_name: &str) -> bool {
    let name_words: Vec<&str> = folded_name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut id_words = id
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .peekable();
    id_words.peek().is_some()
        && id_words
            .all(|w| NEUTRAL_ID_WORDS.contains(&w.as_str()) || name_words.contains(&w.as_str()))
}

/// `github.com/google` for a repository URL, else the lowercased author names, sorted; `None`
/// when the listing says neither.
fn publisher(publisher: &Publisher<'_>) -> Option<String> {
    if let Some(repository) = publisher.repository
        && let Some((host, path)) = host_and_path(repository)
        && let Some(owner) = path.split('/').find(|s| !s.is_empty())
    {
        return Some(format!("{}/{}", host.to_lowercase(), owner.to_lowercase()));
    }
    let mut authors: Vec<String> = publisher.authors.iter().map(|a| a.to_lowercase()).collect();
    authors.sort();
    (!authors.is_empty()).then(|| authors.join(", "))
}

/// The host and path of an `http(s)` URL, without credentials or port.
fn host_and_path(url: &str) -> Option<(&str, &str)> {
    let rest = url.trim().split_once("://")?.1;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let host = authority.split(':').next().unwrap_or(authority);
    Some((host, &rest[end..]))
}

/// A link whose host is not plain ASCII but where every other character looks like an ASCII
/// one (its TR39 prototype is ASCII): `(host, the ASCII address it looks like)`.
fn misleading_host(url: &str) -> Option<(String, String)> {
    let (host, _) = host_and_path(url)?;
    if host.is_ascii() {
        return None;
    }
    let mut looks_like = String::with_capacity(host.len());
    let mut one = [0; 4];
    for c in host.chars() {
        if c.is_ascii() {
            looks_like.push(c.to_ascii_lowercase());
        } else {
            let prototype: String = skeleton(c.encode_utf8(&mut one)).collect();
            if prototype.is_empty() || !prototype.is_ascii() {
                return None;
            }
            looks_like.push_str(&prototype.to_ascii_lowercase());
        }
    }
    Some((host.to_owned(), looks_like))
}

/// The scripts of a word's letters (not Common or Inherited), each once, by their Unicode names.
fn scripts(word: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for c in word.chars() {
        let script = c.script();
        if !matches!(script, Script::Common | Script::Inherited | Script::Unknown) {
            let name = script.full_name();
            if !found.contains(&name) {
                found.push(name);
            }
        }
    }
    found
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[Cow<'static, str>]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone().into_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Runs of whitespace (any kind) as one space, trimmed; borrowed when there is nothing to do.
fn collapse_spaces(text: &str) -> Cow<'_, str> {
    let plain = !text.starts_with(char::is_whitespace)
        && !text.ends_with(char::is_whitespace)
        && !text.contains("  ")
        && !text.chars().any(|c| c.is_whitespace() && c != ' ');
    if plain {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for word in text.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_claim_names_made_of_their_words() {
        let table = [
            ("gemini", "gemini cli", true),
            ("gemini-cli", "gemini cli", true),
            ("gemini-acp", "gemini cli", true),
            ("gemini-pro", "gemini cli", false),
            ("dsh-acp", "deepseek harness", false),
            ("acp", "gemini cli", true),
            ("", "gemini", false),
        ];
        for (id, name, expected) in table {
            assert_eq!(id_claims_name(id, name), expected, "{id} {name}");
        }
    }

    #[test]
    fn publishers_are_repository_owners_else_authors() {
        let table = [
            (
                Some("https://github.com/Google/gemini-cli"),
                vec![],
                Some("github.com/google"),
            ),
            (
                Some("https://gitlab.com/a/b/c"),
                vec!["X"],
                Some("gitlab.com/a"),
            ),
            (Some("not a url"), vec!["B", "a"], Some("a, b")),
            (None, vec![], None),
        ];
        for (repository, authors, expected) in table {
            let publisher = Publisher {
                repository,
                authors,
            };
            assert_eq!(
                super::publisher(&publisher).as_deref(),
                expected,
                "{repository:?}"
            );
        }
    }

    #[test]
    fn misleading_hosts_look_like_plain_ones() {
        let table = [
            ("https://аpple.com/", Some(("аpple.com", "apple.com"))),
            (
                "https://user@gооgle.com:8080/x",
                Some(("gооgle.com", "google.com")),
            ),
            ("https://apple.com/", None),
            ("https://bücher.example/", None),
            ("https://例え.jp/", None),
            ("not a url", None),
        ];
        for (url, expected) in table {
            let found = misleading_host(url);
            assert_eq!(
                found.as_ref().map(|(h, l)| (h.as_str(), l.as_str())),
                expected,
                "{url}"
            );
        }
    }

    proptest::proptest! {
        /// The short cut for ASCII text gives the crate's own skeleton.
        #[test]
        fn ascii_skeletons_are_the_crates(text in "[\\x00-\\x7f]{0,24}") {
            let expected: String = skeleton(&text).collect();
            let mut got = String::new();
            skeleton_into(&text, &mut got);
            proptest::prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn lists_read_as_sentences() {
        assert_eq!(join_and(&["Latin".into()]), "Latin");
        assert_eq!(
            join_and(&["Latin".into(), "Cyrillic".into()]),
            "Latin and Cyrillic"
        );
        assert_eq!(
            join_and(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
        assert_eq!(scripts("Gеmini"), ["Latin", "Cyrillic"]);
        assert_eq!(collapse_spaces(" a \u{a0} b\tc "), "a b c");
    }
}
