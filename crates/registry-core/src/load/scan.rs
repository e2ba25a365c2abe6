//! The top level of a registry text found a few entries at a time: where each entry of `agents`
//! and `extensions` starts and ends, its text left unparsed.
//!
//! A [`Scanning`] reads the plain shape of a registry — an object of keys and values, white
//! space, every value valid JSON — one value at a time, each checked by serde_json as the whole
//! text's parse would check it. Anything else (a syntax error, a duplicate key, a trailing
//! comma, JSONC, a byte-order mark) is left to that parse, once, on the whole text, so that its
//! error or its JSONC reading is exactly what [`Reading::start`] has always given.
//!
//! One difference is deliberate: each value is checked on its own, so a value nested 127 or 128
//! levels deep (serde_json's limit is 128, counted from the text's first bracket) is read where
//! the whole parse would have refused the whole registry: an entry that deep is that entry's
//! problem.
//!
//! [`Reading::start`]: super::Reading::start

use serde::Deserialize;
use serde_json::value::RawValue;

use super::diagnostic::LoadError;
use super::unusable::unusable;
use super::{Reading, TopLevel};
use crate::model::Kind;

/// A registry text's top level, scanned a few entries at a time ([`Scanning::step`]), then
/// [read](Reading) entry by entry.
///
/// ```
/// use registry_core::load::{Reading, Scanning};
/// let text = r#"{"version": "1.0.0", "agents": [
///     {"id": "a", "name": "A", "version": "1.0.0", "description": "d",
///      "distribution": {"npx": {"package": "a"}}},
///     {"id": "b", "name": "B", "version": "1.0.0", "description": "d",
///      "distribution": {"npx": {"package": "b"}}}]}"#;
/// let mut scanning = Scanning::start(text)?;
/// assert!(!scanning.step(1), "one of two entries found");
/// assert!(scanning.step(1));
/// assert_eq!(scanning.finish()?.finish(), registry_core::load(text)?);
/// # Ok::<(), registry_core::LoadError>(())
/// ```
#[derive(Debug)]
pub struct Scanning<'t> {
    text: &'t str,
    /// The next byte to look at.
    at: usize,
    state: State,
    /// The keys the registry reads, as found so far.
    top: TopLevel<'t>,
    /// Which of `version`, `agents`, `extensions`, `id` and `distribution` were seen, null or
    /// not: a second one is an error of the whole parse.
    seen: [bool; 5],
}

/// Where a [`Scanning`] is in the top-level object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the object.
    Start,
    /// Before a key (after `{` or a `,`).
    Key,
    /// Before the next value of an array (after `[` or a `,`).
    Entry(Kind),
    /// After a key's value: a `,` or the closing `}`.
    AfterValue,
    /// After the closing `}`: white space to the end.
    End,
    /// Every value found.
    Done,
    /// The text is not the plain shape: the whole parse will say what it is.
    Irregular,
}

impl<'t> Scanning<'t> {
    /// Starts scanning `text`, or says why it cannot be used at all (see [`Reading::start`]).
    pub fn start(text: &'t str) -> Result<Scanning<'t>, LoadError> {
        if let Some(error) = unusable(text) {
            return Err(error);
        }
        Ok(Scanning {
            text,
            at: 0,
            state: State::Start,
            top: TopLevel::default(),
            seen: [false; 5],
        })
    }

    /// Finds up to `count` more entries; `true` once the whole text is scanned (or found not to
    /// be the plain shape, which [`Scanning::finish`] then parses whole).
    pub fn step(&mut self, count: usize) -> bool {
        let mut found = 0;
        loop {
            let next = match self.state {
                State::Done | State::Irregular => return true,
                State::Entry(_) if found >= count => return false,
                State::Start => self.object_start(),
                State::Key => self.member(),
                State::Entry(kind) => {
                    found += 1;
                    self.entry(kind)
                }
                State::AfterValue => self.after_value(),
                State::End => self.end(),
            };
            self.state = next.unwrap_or(State::Irregular);
        }
    }

    /// How far the scan is, in bytes of the text.
    pub fn progress(&self) -> (usize, usize) {
        (self.at, self.text.len())
    }

    /// The registry's entries, ready to be read: what is left scanned, or the whole text parsed
    /// when it is not the plain shape.
    pub fn finish(mut self) -> Result<Reading<'t>, LoadError> {
        self.step(usize::MAX);
        match self.state {
            State::Done => Ok(Reading::of(self.top, self.text)),
            _ => Reading::parse_whole(self.text),
        }
    }

    fn object_start(&mut self) -> Option<State> {
        self.expect(b'{')?;
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Some(State::End);
        }
        Some(State::Key)
    }

    /// A key, its `:` and its value, or the start of its array of entries.
    fn member(&mut self) -> Option<State> {
        self.skip_white_space();
        let key: String = self.value()?;
        self.expect(b':')?;
        let known = ["version", "agents", "extensions", "id", "distribution"]
            .iter()
            .position(|k| *k == key);
        if let Some(known) = known
            && std::mem::replace(&mut self.seen[known], true)
        {
            return None;
        }
        let kind = match key.as_str() {
            "agents" => Kind::Agent,
            "extensions" => Kind::Extension,
            _ => {
                let raw: &'t RawValue = self.value()?;
                // serde reads `null` as a missing key.
                let raw = (raw.get() != "null").then_some(raw);
                match key.as_str() {
                    "version" => self.top.version = raw,
                    "id" => self.top.id = raw,
                    "distribution" => self.top.distribution = raw,
                    _ => {}
                }
                return Some(State::AfterValue);
            }
        };
        self.expect(b'[')?;
        let list = match kind {
            Kind::Agent => &mut self.top.agents,
            Kind::Extension => &mut self.top.extensions,
        };
        *list = Some(Vec::new());
        if self.peek() == Some(b']') {
            self.at += 1;
            return Some(State::AfterValue);
        }
        Some(State::Entry(kind))
    }

    /// One entry of an array, and the `,` or `]` after it.
    fn entry(&mut self, kind: Kind) -> Option<State> {
        let raw: &'t RawValue = self.value()?;
        let list = match kind {
            Kind::Agent => &mut self.top.agents,
            Kind::Extension => &mut self.top.extensions,
        };
        list.as_mut()?.push(raw);
        self.skip_white_space();
        match self.peek()? {
            b',' => {
                self.at += 1;
                Some(State::Entry(kind))
            }
            b']' => {
                self.at += 1;
                Some(State::AfterValue)
            }
            _ => None,
        }
    }

    fn after_value(&mut self) -> Option<State> {
        self.skip_white_space();
        let next = match self.peek()? {
            b',' => State::Key,
            b'}' => State::End,
            _ => return None,
        };
        self.at += 1;
        Some(next)
    }

    fn end(&mut self) -> Option<State> {
        self.skip_white_space();
        (self.at == self.text.len()).then_some(State::Done)
    }

    /// One JSON value at `at`, white space before it skipped, checked and read as serde_json
    /// reads it within the whole text.
    fn value<T: Deserialize<'t>>(&mut self) -> Option<T> {
        let rest: &'t str = &self.text[self.at..];
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<T>();
        let value = values.next()?.ok()?;
        self.at += values.byte_offset();
        Some(value)
    }

    /// White space, then `byte`, then white space.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_white_space();
        (self.peek()? == byte).then_some(())?;
        self.at += 1;
        self.skip_white_space();
        Some(())
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// JSON's white space: what serde_json skips between tokens.
    fn skip_white_space(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = bytes.get(self.at) {
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::load::Loaded;

    const REAL_2026: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/real-registry-2026/dist/registry.json"
    ));
    const REAL_2026_02: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/real-registry-2026-02/dist/registry.json"
    ));

    /// `text` scanned `count` entries at a time, then read.
    fn scanned(text: &str, count: usize) -> Result<Loaded, LoadError> {
        let mut scanning = Scanning::start(text)?;
        let mut steps = 0;
        while !scanning.step(count) {
            steps += 1;
            assert!(steps <= text.len(), "a scan of {} bytes ends", text.len());
        }
        scanning.finish().map(Reading::finish)
    }

    /// `text` parsed whole by serde_json, as before any scan.
    fn parsed_whole(text: &str) -> Result<Loaded, LoadError> {
        match unusable(text) {
            Some(error) => Err(error),
            None => Reading::parse_whole(text).map(Reading::finish),
        }
    }

    fn assert_scans_as_parsed(text: &str) {
        let whole = parsed_whole(text);
        for count in [1, 2, 5, usize::MAX] {
            assert_eq!(
                scanned(text, count),
                whole,
                "{count} at a time: {text:.200}"
            );
        }
    }

    const GOOD: &str = r#"{"id": "a", "name": "A", "version": "1", "description": "d",
        "distribution": {"npx": {"package": "a"}}}"#;

    #[test]
    fn scans_every_shape_as_the_whole_parse_reads_it() {
        let entry = |id: &str| GOOD.replace("\"a\"", &format!("\"{id}\""));
        let (a, b) = (entry("a"), entry("b"));
        let texts = [
            REAL_2026.to_owned(),
            REAL_2026_02.to_owned(),
            format!("{{\"agents\": [{a}, {b}]}}"),
            format!(" \r\n\t{{ \"agents\" : [ {a} ,\n{b} ] , \"version\" : \"1.0.0\" }} \n"),
            format!("{{\"extensions\": [{a}], \"agents\": [{b}], \"version\": \"2\"}}"),
            format!("{{\"agents\": [{a}], \"extra\": {{\"deep\": [1, {{\"x\": null}}]}}}}"),
            // A key written with an escape is the same key.
            format!("{{\"ag\\u0065nts\": [{a}]}}"),
            format!("{{\"agents\": [1, \"two\", null, true, [], {{}}, {a}]}}"),
            "{\"agents\": [], \"extensions\": [], \"version\": null}".to_owned(),
            "{}".to_owned(),
            "{\"version\": 3}".to_owned(),
            "{\"version\": 1.5e3, \"other\": -0}".to_owned(),
            // A single manifest.
            GOOD.to_owned(),
            format!("\n  {GOOD}  \n"),
            "{\"id\": null, \"name\": \"x\"}".to_owned(),
            // Not the plain shape: each is the whole parse's error or reading.
            format!("{{\"agents\": [{a},]}}"),
            format!("{{\"agents\": [{a}],}}"),
            format!("{{\"agents\": [{a}], \"agents\": []}}"),
            "{\"version\": null, \"version\": \"1\"}".to_owned(),
            format!("{{\"other\": 1, \"other\": 2, \"agents\": [{a}]}}"),
            "{\"agents\": null}".to_owned(),
            "{\"agents\": {}}".to_owned(),
            "{\"agents\": [1 2]}".to_owned(),
            "{\"agents\": [1,".to_owned(),
            "{\"agents\": [01]}".to_owned(),
            "{\"agents\": [\"\u{1}\"]}".to_owned(),
            "{\"agents\": []} x".to_owned(),
            "{\"agents\": [] \"version\": \"1\"}".to_owned(),
            "{agents: []}".to_owned(),
            "{,}".to_owned(),
            "{\"agents\" []}".to_owned(),
            "\u{feff}{\"agents\": []}".to_owned(),
            "\"registry\"".to_owned(),
            "12".to_owned(),
            "null".to_owned(),
            format!("// a comment\n{{\"agents\": [{a}, {b},],}}"),
            format!("{{\"agents\": [{a}, /* b */ {b}]}}"),
            format!("{{\"agents\": [{}]}}", "[".repeat(200)),
        ];
        for text in &texts {
            assert_scans_as_parsed(text);
        }
    }

    #[test]
    fn reports_its_progress_in_bytes() {
        let text = format!("{{\"agents\": [{GOOD}, {GOOD}]}}");
        let mut scanning = Scanning::start(&text).unwrap();
        assert_eq!(scanning.progress(), (0, text.len()));
        assert!(!scanning.step(1));
        let (first, _) = scanning.progress();
        assert!(first > GOOD.len() && first < text.len());
        assert!(scanning.step(1));
        assert_eq!(scanning.progress(), (text.len(), text.len()));
        assert!(
            !Scanning::start(&text).unwrap().step(0),
            "nothing found at 0 a time"
        );
    }

    fn mutate(text: &str, edits: &[(prop::sample::Index, u8, char)]) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len() + 1);
            match op % 3 {
                0 if i < chars.len() => {
                    chars.remove(i);
                }
                1 if i < chars.len() => chars[i] = *c,
                _ => chars.insert(i, *c),
            }
        }
        chars.into_iter().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn a_mutated_registry_scans_as_the_whole_parse_reads_it(
            edits in prop::collection::vec(
                (any::<prop::sample::Index>(), any::<u8>(), prop::sample::select(
                    vec!['{', '}', '[', ']', '"', ',', ':', '/', '*', '\\', '1', 'x', ' ', 'é', '\n']
                )),
                1..6,
            ),
            count in 1usize..20,
        ) {
            let text = mutate(REAL_2026_02, &edits);
            prop_assert_eq!(scanned(&text, count), parsed_whole(&text));
        }

        #[test]
        fn a_json_like_text_scans_as_the_whole_parse_reads_it(
            key in prop::sample::select(vec!["agents", "extensions", "version", "id", "x"]),
            rest in r#"[\[\]{}:,"\\/*\n a0-9.\-]{0,60}"#,
            count in 1usize..4,
        ) {
            let text = format!("{{\"{key}\": {rest}");
            prop_assert_eq!(scanned(&text, count), parsed_whole(&text));
        }
    }
}
