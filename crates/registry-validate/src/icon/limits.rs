//! How big an icon may be: bytes, nesting depth, elements and path segments.
//!
//! A 16x16 icon needs a few kilobytes (the largest of the registry's, 12.7 KB, has 42 elements,
//! 4 levels and 327 path segments). The limits are far above that and far below what makes a
//! browser tab or a build struggle: the 65 KB icon of one entity referenced 20,000 times, or
//! the 5 MB icon of one 880,000-segment path. Every pass over an icon (checking, measuring,
//! re-writing) is linear in its size, so the byte limit bounds the work of each; no clock is
//! involved, and the same icon gets the same verdict on every machine.

use std::fmt;

use roxmltree::{Document, Node};

/// The most bytes an icon file may have.
pub const MAX_BYTES: usize = 64 * 1024;
/// The deepest an element may be nested (the root `<svg>` is at depth 1).
pub const MAX_DEPTH: usize = 32;
/// The most elements an icon may have.
pub const MAX_ELEMENTS: usize = 2_000;
/// The most path segments (`d` commands and `points` pairs) an icon may have, in all.
pub const MAX_PATH_SEGMENTS: usize = 10_000;
/// The most XML nodes (elements, text, comments…) the parser reads before giving up: it bounds
/// memory before [`MAX_ELEMENTS`] can be checked.
pub(crate) const MAX_NODES: u32 = 4 * MAX_ELEMENTS as u32 + 16;

/// Which limit an icon is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`MAX_BYTES`].
    Bytes,
    /// [`MAX_DEPTH`].
    Depth,
    /// [`MAX_ELEMENTS`] (or the parser's node limit).
    Elements,
    /// [`MAX_PATH_SEGMENTS`].
    PathSegments,
}

impl Limit {
    /// The limit's value.
    pub fn max(self) -> usize {
        match self {
            Limit::Bytes => MAX_BYTES,
            Limit::Depth => MAX_DEPTH,
            Limit::Elements => MAX_ELEMENTS,
            Limit::PathSegments => MAX_PATH_SEGMENTS,
        }
    }
}

impl fmt::Display for Limit {
    /// `bytes`, `levels of nesting`, `elements`, `path segments`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Bytes => "bytes",
            Limit::Depth => "levels of nesting",
            Limit::Elements => "elements",
            Limit::PathSegments => "path segments",
        })
    }
}

/// An icon over a limit: which, and how much it has (at least; counting stops past the limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverLimit {
    /// The limit.
    pub limit: Limit,
    /// How much the icon has.
    pub found: usize,
}

/// The first limit a parsed icon is over, in document order: depth and elements counted in one
/// pass (each element's depth is its parent's plus one, parents coming first), path segments
/// summed over every `d` and `points`.
pub(crate) fn measure(document: &Document<'_>) -> Option<OverLimit> {
    let mut depths: Vec<usize> = Vec::new();
    let (mut elements, mut segments) = (0usize, 0usize);
    for node in document.root().descendants().filter(Node::is_element) {
        let index = node.id().get() as usize;
        let parent = node
            .parent()
            .and_then(|p| depths.get(p.id().get() as usize).copied())
            .unwrap_or(0);
        if depths.len() <= index {
            depths.resize(index + 1, 0);
        }
        let depth = parent + 1;
        depths[index] = depth;
        elements += 1;
        if depth > MAX_DEPTH {
            return over(Limit::Depth, depth);
        }
        if elements > MAX_ELEMENTS {
            return over(Limit::Elements, elements);
        }
        segments += node_segments(node);
        if segments > MAX_PATH_SEGMENTS {
            return over(Limit::PathSegments, segments);
        }
    }
    None
}

fn over(limit: Limit, found: usize) -> Option<OverLimit> {
    Some(OverLimit { limit, found })
}

/// The path segments of an element: its `d`, and its `points` (one per pair).
fn node_segments(node: Node<'_, '_>) -> usize {
    let d = node.attribute("d").map_or(0, path_segments);
    let points = node.attribute("points").map_or(0, |p| numbers(p) / 2);
    d + points
}

/// How many segments path data draws: each command letter starts a run of argument groups
/// (`M`/`L`/`T` take 2 numbers, `H`/`V` 1, `S`/`Q` 4, `C` 6, `A` 7), each complete group one
/// segment; `Z` is one. Read leniently: what is not a number or a command is a separator.
pub(crate) fn path_segments(d: &str) -> usize {
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
fn numbers(text: &str) -> usize {
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
}
