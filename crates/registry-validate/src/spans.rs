//! Where each value of a JSON text is, so a diagnostic about `/distribution/npx/package` points
//! at that string in the file.
//!
//! `serde_json` gives the values; this small scanner walks the same (already accepted) text once
//! more and records, for every JSON pointer, the byte range of its key and of its value. Keys
//! written twice are recorded too: `serde_json` keeps the last one silently.

use std::collections::HashMap;
use std::ops::Range;

/// The key and value ranges of one JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    /// The key, quotes included; `None` for the root and array items.
    pub(crate) key: Option<Range<usize>>,
    /// The value, quotes or brackets included.
    pub(crate) value: Range<usize>,
}

/// JSON pointer (RFC 6901, `""` for the root) → where it is.
#[derive(Clone, Debug, Default)]
pub(crate) struct JsonMap {
    places: HashMap<String, Place>,
    /// Pointers whose key appears more than once in its object, with the range of the later key.
    pub(crate) duplicates: Vec<(String, Range<usize>)>,
}

impl JsonMap {
    /// Scans a JSON text. Malformed text (which `serde_json` would have refused anyway) yields
    /// what was recorded before the problem.
    pub(crate) fn scan(text: &str) -> JsonMap {
        let mut scanner = Scanner {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            map: JsonMap::default(),
        };
        let mut pointer = String::new();
        scanner.value(&mut pointer, None, 0);
        scanner.map
    }

    /// Where `pointer` is, if the text has it.
    pub(crate) fn get(&self, pointer: &str) -> Option<&Place> {
        self.places.get(pointer)
    }
}

/// `a/b~c` → `a~1b~0c`, one pointer segment.
pub(crate) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The pointer one level up (`/a/b` → `/a`), `None` for the root.
pub(crate) fn parent(pointer: &str) -> Option<&str> {
    pointer.rfind('/').map(|i| &pointer[..i])
}

/// `/distribution/binary/linux-x86_64` → `distribution.binary.linux-x86_64`, for messages.
pub(crate) fn dotted(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

/// Deeper than `serde_json` accepts: stop rather than recurse further.
const MAX_DEPTH: usize = 256;

struct Scanner<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    map: JsonMap,
}

impl Scanner<'_> {
    fn value(
        &mut self,
        pointer: &mut String,
        key: Option<Range<usize>>,
        depth: usize,
    ) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.whitespace();
        let start = self.pos;
        match *self.bytes.get(self.pos)? {
            b'{' => self.object(pointer, depth)?,
            b'[' => self.array(pointer, depth)?,
            b'"' => {
                self.string()?;
            }
            _ => {
                while self.bytes.get(self.pos).is_some_and(|b| {
                    !matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
                }) {
                    self.pos += 1;
                }
            }
        }
        self.map.places.insert(
            pointer.clone(),
            Place {
                key,
                value: start..self.pos,
            },
        );
        Some(())
    }

    fn object(&mut self, pointer: &mut String, depth: usize) -> Option<()> {
        self.pos += 1;
        self.whitespace();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Some(());
        }
        loop {
            self.whitespace();
            let key = self.string()?;
            let name = unquote(&self.text[key.clone()])?;
            self.whitespace();
            if self.bytes.get(self.pos) != Some(&b':') {
                return None;
            }
            self.pos += 1;
            let len = pointer.len();
            pointer.push('/');
            pointer.push_str(&escape(&name));
            if self.map.places.contains_key(pointer.as_str()) {
                self.map.duplicates.push((pointer.clone(), key.clone()));
            }
            self.value(pointer, Some(key), depth + 1)?;
            pointer.truncate(len);
            self.whitespace();
            match self.bytes.get(self.pos)? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn array(&mut self, pointer: &mut String, depth: usize) -> Option<()> {
        self.pos += 1;
        self.whitespace();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Some(());
        }
        for index in 0.. {
            let len = pointer.len();
            pointer.push('/');
            pointer.push_str(&index.to_string());
            self.value(pointer, None, depth + 1)?;
            pointer.truncate(len);
            self.whitespace();
            match self.bytes.get(self.pos)? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
        None
    }

    /// A string at `pos`: its range, quotes included.
    fn string(&mut self) -> Option<Range<usize>> {
        let start = self.pos;
        if self.bytes.get(self.pos) != Some(&b'"') {
            return None;
        }
        self.pos += 1;
        loop {
            match *self.bytes.get(self.pos)? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Some(start..self.pos);
                }
                _ => self.pos += 1,
            }
        }
    }

    fn whitespace(&mut self) {
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.pos += 1;
        }
    }
}

/// A quoted JSON string's value.
fn unquote(quoted: &str) -> Option<String> {
    if quoted.contains('\\') {
        serde_json::from_str(quoted).ok()
    } else {
        quoted
            .get(1..quoted.len().saturating_sub(1))
            .map(str::to_owned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, pointer: &str, key: Option<&str>, value: &str) {
        let map = JsonMap::scan(text);
        let place = map
            .get(pointer)
            .unwrap_or_else(|| panic!("{pointer} in {text}"));
        assert_eq!(place.key.clone().map(|k| &text[k]), key, "{pointer}");
        assert_eq!(&text[place.value.clone()], value, "{pointer}");
    }

    #[test]
    fn records_keys_and_values() {
        let text = r#"{"id": "a", "d": {"npx": {"package": "x@1"}}, "l": [1, {"k": true}], "e\/s": null, "t~": {}}"#;
        check(text, "", None, text);
        check(text, "/id", Some(r#""id""#), r#""a""#);
        check(text, "/d/npx/package", Some(r#""package""#), r#""x@1""#);
        check(text, "/l/0", None, "1");
        check(text, "/l/1/k", Some(r#""k""#), "true");
        check(text, "/e~1s", Some(r#""e\/s""#), "null");
        check(text, "/t~0", Some(r#""t~""#), "{}");
    }

    #[test]
    fn finds_duplicate_keys() {
        let text = r#"{"a": 1, "b": {"c": 2, "c": 3}, "a": 4}"#;
        let map = JsonMap::scan(text);
        let found: Vec<_> = map
            .duplicates
            .iter()
            .map(|(p, r)| (p.as_str(), r.start))
            .collect();
        assert_eq!(found, [("/b/c", 23), ("/a", 32)]);
        check(text, "/a", Some(r#""a""#), "4");
    }

    #[test]
    fn pointers_read_as_dotted_paths() {
        assert_eq!(
            dotted("/distribution/binary/linux-x86_64"),
            "distribution.binary.linux-x86_64"
        );
        assert_eq!(dotted("/a~1b/c~0"), "a/b.c~");
        assert_eq!(dotted(""), "");
        assert_eq!(parent("/a/b"), Some("/a"));
        assert_eq!(parent("/a"), Some(""));
        assert_eq!(parent(""), None);
    }
}
