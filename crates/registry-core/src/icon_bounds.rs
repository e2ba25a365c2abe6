//! The bounds of an icon that can be checked without parsing it, shared by the validator
//! (`registry-validate`, over the parsed tree), the site (over the text it fetched, see
//! [`icon_measure`](crate::icon_measure)) and the link-preview image: bytes, elements, `<use>`
//! elements and path segments, the counting of path segments as SVG reads path data, and the
//! `<!DOCTYPE>` whose internal subset declares entities ([`doctype`]).
//!
//! The bounds are `MAX_BYTES`, `MAX_ELEMENTS`, `MAX_USES` and `MAX_PATH_SEGMENTS`;
//! `path_segments` and `numbers` count path data and point lists as SVG reads them.

use std::ops::Range;

/// The most bytes an icon file may have.
pub const MAX_BYTES: usize = 64 * 1024;
/// The most elements an icon may have.
pub const MAX_ELEMENTS: usize = 2_000;
/// The most path segments (`d` commands and `points` pairs) an icon may have, in all.
pub const MAX_PATH_SEGMENTS: usize = 10_000;
/// The most `<use>` elements an icon may have: each copies others, and copies of copies grow
/// exponentially.
pub const MAX_USES: usize = 16;

/// How many segments path data draws: each command letter starts a run of argument groups
/// (`M`/`L`/`T` take 2 numbers, `H`/`V` 1, `S`/`Q` 4, `C` 6, `A` 7), each complete group one
/// segment; `Z` is one. Read leniently: what is not a number or a command is a separator.
pub fn path_segments(d: &str) -> usize {
    let mut segments = 0;
    let mut arity = 0;
    let mut pending = 0;
    let bytes = d.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if b.is_ascii_alphabetic() && !matches!(b, b'e' | b'E') {
            arity = match b.to_ascii_lowercase() {
                b'm' | b'l' | b't' => 2,
                b'h' | b'v' => 1,
                b's' | b'q' => 4,
                b'c' => 6,
                b'a' => 7,
                b'z' => {
                    segments += 1;
                    0
                }
                _ => 0,
            };
            pending = 0;
            at += 1;
        } else if let Some(len) = number_len(&bytes[at..]) {
            if arity > 0 {
                pending += 1;
                if pending == arity {
                    segments += 1;
                    pending = 0;
                }
            }
            at += len;
        } else {
            at += 1;
        }
    }
    segments
}

/// How many numbers `text` holds.
pub fn numbers(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut count, mut at) = (0, 0);
    while at < bytes.len() {
        match number_len(&bytes[at..]) {
            Some(len) => {
                count += 1;
                at += len;
            }
            None => at += 1,
        }
    }
    count
}

/// The length of the number `bytes` starts with: `-1.5e3`, `.5`, `7.` (at least one digit).
fn number_len(bytes: &[u8]) -> Option<usize> {
    let mut at = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(at);
    at += whole;
    let mut fraction = 0;
    if bytes.get(at) == Some(&b'.') {
        fraction = digits(at + 1);
        at += 1 + fraction;
    }
    if whole + fraction == 0 {
        return None;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(bytes.get(at + 1), Some(b'-' | b'+')));
        let exponent = digits(at + 1 + sign);
        if exponent > 0 {
            at += 1 + sign + exponent;
        }
    }
    Some(at)
}

/// The `<!DOCTYPE …>` of an icon: where it is, and whether it declares entities (an internal
/// subset), which the validator refuses and the site never draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doctype {
    /// From `<!DOCTYPE` to its closing `>` outside brackets and quotes (or the end of the text).
    pub range: Range<usize>,
    /// Whether it has an internal subset (`[…]`), where entities are declared.
    pub declares: bool,
}

/// The `<!DOCTYPE …>` of `text`, if it has one.
pub fn doctype(text: &str) -> Option<Doctype> {
    let start = text.find("<!DOCTYPE")?;
    let mut depth = 0usize;
    let mut declares = false;
    let mut quote = None;
    for (at, c) in text[start..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[') => {
                depth += 1;
                declares = true;
            }
            (None, ']') => depth = depth.saturating_sub(1),
            (None, '>') if depth == 0 => {
                return Some(Doctype {
                    range: start..start + at + 1,
                    declares,
                });
            }
            _ => {}
        }
    }
    Some(Doctype {
        range: start..text.len(),
        declares,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_segments_follow_the_commands() {
        let table = [
            ("", 0),
            ("M0 0h16v16H0z", 5),
            ("M0,0 L1,1 2,2 3,3", 4),
            ("m1-1.5.5.5", 2),
            ("M0 0C1 1 2 2 3 3 4 4 5 5 6 6", 3),
            ("M1e2 1E-2l3 4", 2),
            ("M0 0A1 1 0 0 1 2 2", 2),
            ("h1h1h1h1", 4),
            ("zzz", 3),
            ("M 0", 0),
            ("garbage", 0),
        ];
        for (d, expected) in table {
            assert_eq!(path_segments(d), expected, "{d:?}");
        }
    }

    #[test]
    fn path_segments_are_counted_as_svg_reads_them() {
        for (d, expected) in [
            ("M0 0L10 10", 2),
            ("M0,0 10,10 20,20", 3),
            ("M0 0h10v10H0z", 5),
            ("m1-2.5.5.5", 2),
            ("M1e2-3e-1 C1 2 3 4 5 6 7 8 9 10 11 12", 3),
            ("A5 5 0 0 1 10 10 5 5 0 0 1 20 20", 2),
            ("M0 0 L", 1),
            ("", 0),
            ("junk", 0),
        ] {
            assert_eq!(path_segments(d), expected, "{d:?}");
        }
    }

    #[test]
    fn numbers_are_read_as_svg_writes_them() {
        let table = [
            ("1", Some(1)),
            ("-1.5e3x", Some(6)),
            (".5.5", Some(2)),
            ("7.", Some(2)),
            ("1e", Some(1)),
            ("-", None),
            (".", None),
            ("e5", None),
        ];
        for (text, expected) in table {
            assert_eq!(number_len(text.as_bytes()), expected, "{text:?}");
        }
        assert_eq!(numbers("0,0 16,0 8,16"), 6);
    }

    #[test]
    fn doctypes_end_outside_their_internal_subset() {
        let table = [
            ("<svg/>", None),
            ("<!DOCTYPE svg><svg/>", Some((0..14, false))),
            (
                "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x>y\"><svg/>",
                Some((22..75, false)),
            ),
            (
                "<!DOCTYPE svg [<!ENTITY s \"&#60;script&#62;]>\">]><svg>&s;</svg>",
                Some((0..49, true)),
            ),
            ("<!DOCTYPE svg [ <svg/>", Some((0..22, true))),
        ];
        for (text, expected) in table {
            let found = doctype(text).map(|d| (d.range, d.declares));
            assert_eq!(found, expected, "{text}");
        }
    }
}
